"""Red team: a lockfile entry fetched from another place, at the same version, beside a change that explains the file.

`npm ci` downloads a package-lock entry's `resolved` URL and checks the `integrity` beside it. A change that
points lodash 4.17.21 at an attacker's tarball (and its checksum) showed no dependency moved; adding one new
transitive entry to the same lockfile then "explained" the file, and `gate --tree --enable deps` said allow.
Every lockfile that names a source or checksum per entry is checked: such a move is a partial problem
(deps.unreadable: review), whatever else the change does to the file.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from gitrepo import GitRepo

from gatekeeper.cli import main
from gatekeeper.deps.sources import tree_delta
from gatekeeper.gitobjects import GitObjects

GOOD, EVIL = "https://registry.example/lodash-4.17.21.tgz", "https://evil.example/lodash-4.17.21.tgz"
SUM_GOOD, SUM_EVIL = "sha512-" + "A" * 86 + "==", "sha512-" + "B" * 86 + "=="


def _package_lock(url: str, checksum: str, extra: bool) -> str:
    packages: dict[str, object] = {
        "": {"name": "app", "version": "1.0.0", "dependencies": {"lodash": "^4.17.20"}},
        "node_modules/lodash": {"version": "4.17.21", "resolved": url, "integrity": checksum},
    }
    if extra:
        packages["node_modules/left-pad"] = {"version": "1.3.0", "resolved": GOOD.replace("lodash", "left-pad"),
                                             "integrity": SUM_GOOD}
    return json.dumps({"name": "app", "lockfileVersion": 3, "packages": packages}, indent=2)


def _package_lock_v1(url: str, checksum: str, extra: bool) -> str:
    deps: dict[str, object] = {"lodash": {"version": "4.17.21", "resolved": url, "integrity": checksum}}
    if extra:
        deps["left-pad"] = {"version": "1.3.0", "resolved": GOOD, "integrity": SUM_GOOD}
    return json.dumps({"name": "app", "lockfileVersion": 1, "dependencies": deps}, indent=2)


def _yarn_classic(url: str, checksum: str, extra: bool) -> str:
    text = f'# yarn lockfile v1\n\n\nlodash@^4.17.20:\n  version "4.17.21"\n  resolved "{url}"\n'
    text += f"  integrity {checksum}\n"
    return text + ('\nleft-pad@^1.3.0:\n  version "1.3.0"\n  resolved "x"\n  integrity y\n' if extra else "")


def _yarn_berry(url: str, checksum: str, extra: bool) -> str:
    text = ('__metadata:\n  version: 6\n\n"lodash@npm:^4.17.20":\n  version: 4.17.21\n'
            f'  resolution: "lodash@{url}"\n  checksum: {checksum}\n  languageName: node\n  linkType: hard\n')
    return text + ('\n"left-pad@npm:^1.3.0":\n  version: 1.3.0\n  resolution: "left-pad@npm:1.3.0"\n' if extra else "")


def _pnpm(url: str, checksum: str, extra: bool) -> str:
    text = ("lockfileVersion: '9.0'\nimporters:\n  .:\n    dependencies:\n      lodash:\n        specifier: ^4.17.20\n"
            "        version: 4.17.21\npackages:\n  lodash@4.17.21:\n"
            f"    resolution: {{integrity: {checksum}, tarball: {url}}}\n")
    return text + ("  left-pad@1.3.0:\n    resolution: {integrity: sha512-x}\n" if extra else "")


def _cargo(url: str, checksum: str, extra: bool) -> str:
    text = (f'version = 3\n\n[[package]]\nname = "serde"\nversion = "1.0.190"\nsource = "registry+{url}"\n'
            f'checksum = "{checksum}"\n')
    return text + ('\n[[package]]\nname = "itoa"\nversion = "1.0.9"\nsource = "registry+x"\nchecksum = "y"\n' if extra
                   else "")


def _poetry(url: str, checksum: str, extra: bool) -> str:
    text = (f'[[package]]\nname = "attrs"\nversion = "23.1.0"\ndescription = ""\noptional = false\n'
            f'files = [\n    {{file = "attrs-23.1.0.whl", hash = "sha256:{checksum[7:20]}"}},\n]\n\n'
            f'[package.source]\ntype = "legacy"\nurl = "{url}"\nreference = "x"\n')
    return text + ('\n[[package]]\nname = "six"\nversion = "1.16.0"\ndescription = ""\noptional = false\nfiles = []\n'
                   if extra else "") + '\n[metadata]\nlock-version = "2.0"\ncontent-hash = "x"\n'


def _uv(url: str, checksum: str, extra: bool) -> str:
    text = (f'version = 1\n\n[[package]]\nname = "attrs"\nversion = "23.1.0"\nsource = {{ registry = "{url}" }}\n'
            f'sdist = {{ url = "{url}", hash = "sha256:{checksum[7:20]}" }}\n')
    return text + ('\n[[package]]\nname = "six"\nversion = "1.16.0"\nsource = { registry = "x" }\n' if extra else "")


def _composer(url: str, checksum: str, extra: bool) -> str:
    packages = [{"name": "monolog/monolog", "version": "3.5.0",
                 "dist": {"type": "zip", "url": url, "shasum": checksum}}]
    if extra:
        packages.append({"name": "psr/log", "version": "3.0.0", "dist": {"type": "zip", "url": "x"}})
    return json.dumps({"packages": packages, "packages-dev": []}, indent=4)


def _pipfile(url: str, checksum: str, extra: bool) -> str:
    default: dict[str, object] = {"requests": {"version": "==2.31.0", "hashes": [f"sha256:{checksum[7:20]}"],
                                               "index": "pypi" if url == GOOD else "evil"}}
    if extra:
        default["idna"] = {"version": "==3.4", "hashes": ["sha256:x"]}
    return json.dumps({"_meta": {"sources": [{"name": "pypi", "url": GOOD}]}, "default": default, "develop": {}},
                      indent=4)


def _nuget(url: str, checksum: str, extra: bool) -> str:
    deps: dict[str, object] = {"Newtonsoft.Json": {"type": "Direct", "requested": "[13.0.3, )", "resolved": "13.0.3",
                                                   "contentHash": checksum}}
    if extra:
        deps["System.Memory"] = {"type": "Transitive", "resolved": "4.5.5", "contentHash": "x"}
    return json.dumps({"version": 1, "dependencies": {"net8.0": deps}}, indent=2)


LOCKFILES: dict[str, Callable[[str, str, bool], str]] = {
    "package-lock.json": _package_lock, "npm-shrinkwrap.json": _package_lock_v1, "yarn.lock": _yarn_classic,
    "berry/yarn.lock": _yarn_berry, "pnpm-lock.yaml": _pnpm, "Cargo.lock": _cargo, "poetry.lock": _poetry,
    "uv.lock": _uv, "composer.lock": _composer, "Pipfile.lock": _pipfile, "packages.lock.json": _nuget,
}


def _commit(repo: GitRepo, path: str, make: Callable[[str, str, bool], str], url: str, checksum: str,
            extra: bool) -> None:
    repo.write(path, make(url, checksum, extra))
    repo.commit(f"{path} {url} {extra}")


@pytest.mark.parametrize("path", sorted(LOCKFILES))
@pytest.mark.parametrize(("url", "checksum"), [(EVIL, SUM_EVIL), (EVIL, SUM_GOOD), (GOOD, SUM_EVIL)],
                         ids=["both", "url", "checksum"])
def test_a_locked_source_moved_under_its_version_is_a_problem(git_repo: GitRepo, path: str, url: str,
                                                              checksum: str) -> None:
    make = LOCKFILES[path]
    if make(url, checksum, True) == make(GOOD, SUM_GOOD, True):
        pytest.skip(f"{path} names no download URL, only a checksum")
    _commit(git_repo, path, make, GOOD, SUM_GOOD, False)
    _commit(git_repo, path, make, url, checksum, True)
    with GitObjects(git_repo.root) as git:
        delta = tree_delta(git, "main~1", "main")
    assert [p.manifest for p in delta.problems if p.kind == "partial"] == [path], delta


@pytest.mark.parametrize("path", sorted(LOCKFILES))
def test_an_ordinary_lockfile_change_is_no_problem(git_repo: GitRepo, path: str) -> None:
    """A new transitive entry beside an unchanged one: the delta shows it, nothing is a problem."""
    _commit(git_repo, path, LOCKFILES[path], GOOD, SUM_GOOD, False)
    _commit(git_repo, path, LOCKFILES[path], GOOD, SUM_GOOD, True)
    with GitObjects(git_repo.root) as git:
        delta = tree_delta(git, "main~1", "main")
    assert delta.problems == ()


def test_the_gate_on_the_commits_reviews_the_swapped_tarball(git_repo: GitRepo,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """End to end, as the action runs it: it said allow."""
    git_repo.write("package.json", json.dumps({"name": "app", "dependencies": {"lodash": "^4.17.20"}}))
    _commit(git_repo, "package-lock.json", _package_lock, GOOD, SUM_GOOD, False)
    _commit(git_repo, "package-lock.json", _package_lock, EVIL, SUM_EVIL, True)
    assert main(["gate", "--tree", "main~1..main", "--repo", str(git_repo.root), "--enable", "deps"]) == 3
    out = capsys.readouterr().out
    assert "deps.unreadable" in out and "package-lock.json: partial" in out
