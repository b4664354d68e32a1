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
from pathlib import Path

import pytest
from gitdiffs import commit_patch
from gitrepo import GitRepo
from tables import each_case

from gatekeeper.cli import main
from gatekeeper.deps.sources import patch_delta, tree_delta

GOOD, EVIL = "https://registry.example/lodash-4.17.21.tgz", "https://evil.example/lodash-4.17.21.tgz"
SUM_GOOD, SUM_EVIL = "sha512-" + "A" * 86 + "==", "sha512-" + "B" * 86 + "=="


def _package_lock(url: str, checksum: str, extra: str | None) -> str:
    packages: dict[str, object] = {
        "": {"name": "app", "version": "1.0.0", "dependencies": {"lodash": "^4.17.20"}},
        "node_modules/lodash": {"version": "4.17.21", "resolved": url, "integrity": checksum},
    }
    if extra:
        packages["node_modules/left-pad"] = {"version": extra, "resolved": GOOD.replace("lodash", f"left-pad-{extra}"),
                                             "integrity": SUM_GOOD}
    return json.dumps({"name": "app", "lockfileVersion": 3, "packages": packages}, indent=2)


def _package_lock_v1(url: str, checksum: str, extra: str | None) -> str:
    deps: dict[str, object] = {"lodash": {"version": "4.17.21", "resolved": url, "integrity": checksum}}
    if extra:
        deps["left-pad"] = {"version": extra, "resolved": GOOD.replace("lodash", f"left-pad-{extra}"),
                            "integrity": extra}
    return json.dumps({"name": "app", "lockfileVersion": 1, "dependencies": deps}, indent=2)


def _yarn_classic(url: str, checksum: str, extra: str | None) -> str:
    text = f'# yarn lockfile v1\n\n\nlodash@^4.17.20:\n  version "4.17.21"\n  resolved "{url}"\n'
    text += f"  integrity {checksum}\n"
    return text + (f'\nleft-pad@^1.0.0:\n  version "{extra}"\n  resolved "x-{extra}"\n  integrity y{extra}\n' if extra
                   else "")


def _yarn_berry(url: str, checksum: str, extra: str | None) -> str:
    text = ('__metadata:\n  version: 6\n\n"lodash@npm:^4.17.20":\n  version: 4.17.21\n'
            f'  resolution: "lodash@{url}"\n  checksum: {checksum}\n  languageName: node\n  linkType: hard\n')
    return text + (f'\n"left-pad@npm:^1.0.0":\n  version: {extra}\n  resolution: "left-pad@npm:{extra}"\n' if extra
                   else "")


def _pnpm(url: str, checksum: str, extra: str | None) -> str:
    text = ("lockfileVersion: '9.0'\nimporters:\n  .:\n    dependencies:\n      lodash:\n        specifier: ^4.17.20\n"
            "        version: 4.17.21\npackages:\n  lodash@4.17.21:\n"
            f"    resolution: {{integrity: {checksum}, tarball: {url}}}\n")
    return text + (f"  left-pad@{extra}:\n    resolution: {{integrity: sha512-x{extra}}}\n" if extra else "")


def _cargo(url: str, checksum: str, extra: str | None) -> str:
    text = (f'version = 3\n\n[[package]]\nname = "serde"\nversion = "1.0.190"\nsource = "registry+{url}"\n'
            f'checksum = "{checksum}"\n')
    return text + (f'\n[[package]]\nname = "itoa"\nversion = "{extra}"\nsource = "registry+x"\nchecksum = "y{extra}"\n'
                   if extra else "")


def _poetry(url: str, checksum: str, extra: str | None) -> str:
    text = (f'[[package]]\nname = "attrs"\nversion = "23.1.0"\ndescription = ""\noptional = false\n'
            f'files = [\n    {{file = "attrs-23.1.0.whl", hash = "sha256:{checksum[7:20]}"}},\n]\n\n'
            f'[package.source]\ntype = "legacy"\nurl = "{url}"\nreference = "x"\n')
    return text + (f'\n[[package]]\nname = "six"\nversion = "{extra}"\ndescription = ""\noptional = false\nfiles = []\n'
                   if extra else "") + '\n[metadata]\nlock-version = "2.0"\ncontent-hash = "x"\n'


def _uv(url: str, checksum: str, extra: str | None) -> str:
    text = (f'version = 1\n\n[[package]]\nname = "attrs"\nversion = "23.1.0"\nsource = {{ registry = "{url}" }}\n'
            f'sdist = {{ url = "{url}", hash = "sha256:{checksum[7:20]}" }}\n')
    six = f'\n[[package]]\nname = "six"\nversion = "{extra}"\nsource = {{ registry = "x" }}\n'
    return text + (six if extra else "")


def _composer(url: str, checksum: str, extra: str | None) -> str:
    packages = [{"name": "monolog/monolog", "version": "3.5.0",
                 "dist": {"type": "zip", "url": url, "shasum": checksum}}]
    if extra:
        packages.append({"name": "psr/log", "version": extra, "dist": {"type": "zip", "url": f"x{extra}"}})
    return json.dumps({"packages": packages, "packages-dev": []}, indent=4)


def _pipfile(url: str, checksum: str, extra: str | None) -> str:
    default: dict[str, object] = {"requests": {"version": "==2.31.0", "hashes": [f"sha256:{checksum[7:20]}"],
                                               "index": "pypi" if url == GOOD else "evil"}}
    if extra:
        default["idna"] = {"version": f"=={extra}", "hashes": [f"sha256:x{extra}"]}
    return json.dumps({"_meta": {"sources": [{"name": "pypi", "url": GOOD}]}, "default": default, "develop": {}},
                      indent=4)


def _nuget(url: str, checksum: str, extra: str | None) -> str:
    deps: dict[str, object] = {"Newtonsoft.Json": {"type": "Direct", "requested": "[13.0.3, )", "resolved": "13.0.3",
                                                   "contentHash": checksum}}
    if extra:
        deps["System.Memory"] = {"type": "Transitive", "resolved": extra, "contentHash": f"x{extra}"}
    return json.dumps({"version": 1, "dependencies": {"net8.0": deps}}, indent=2)


LOCKFILES: dict[str, Callable[[str, str, str | None], str]] = {
    "package-lock.json": _package_lock, "npm-shrinkwrap.json": _package_lock_v1, "yarn.lock": _yarn_classic,
    "berry/yarn.lock": _yarn_berry, "pnpm-lock.yaml": _pnpm, "Cargo.lock": _cargo, "poetry.lock": _poetry,
    "uv.lock": _uv, "composer.lock": _composer, "Pipfile.lock": _pipfile, "packages.lock.json": _nuget,
}


def _commit(repo: GitRepo, path: str, make: Callable[[str, str, str | None], str], url: str, checksum: str,
            extra: str | None) -> None:
    repo.write(path, make(url, checksum, extra))
    repo.commit(f"{path} {url} {extra}")


@pytest.mark.parametrize("path", sorted(LOCKFILES))
@pytest.mark.parametrize(("url", "checksum"), [(EVIL, SUM_EVIL), (EVIL, SUM_GOOD)], ids=["both", "url"])
def test_a_locked_source_moved_under_its_version_is_a_problem(git_repo: GitRepo, path: str, url: str,
                                                              checksum: str) -> None:
    make = LOCKFILES[path]
    if path == "packages.lock.json":
        pytest.skip("NuGet's lockfile names no download location, only a checksum")
    _commit(git_repo, path, make, GOOD, SUM_GOOD, None)
    _commit(git_repo, path, make, url, checksum, "1.0.1")
    with git_repo.objects() as git:
        delta = tree_delta(git, "main~1", "main")
    assert [p.manifest for p in delta.problems if p.kind == "partial"] == [path], delta


@each_case("path", sorted(LOCKFILES))
def test_an_ordinary_lockfile_change_is_no_problem(git_repo: GitRepo, path: str) -> None:
    """A new transitive entry beside an unchanged one: the delta shows it, nothing is a problem."""
    _commit(git_repo, path, LOCKFILES[path], GOOD, SUM_GOOD, None)
    _commit(git_repo, path, LOCKFILES[path], GOOD, SUM_GOOD, "1.0.1")
    with git_repo.objects() as git:
        delta = tree_delta(git, "main~1", "main")
    assert delta.problems == ()


def test_the_gate_on_the_commits_reviews_the_swapped_tarball(git_repo: GitRepo,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """End to end, as the action runs it: it said allow."""
    git_repo.write("package.json", json.dumps({"name": "app", "dependencies": {"lodash": "^4.17.20"}}))
    _commit(git_repo, "package-lock.json", _package_lock, GOOD, SUM_GOOD, None)
    _commit(git_repo, "package-lock.json", _package_lock, EVIL, SUM_EVIL, "1.0.1")
    assert main(["gate", "--tree", "main~1..main", "--repo", str(git_repo.root), "--enable", "deps"]) == 3
    out = capsys.readouterr().out
    assert "deps.unreadable" in out and "package-lock.json: partial" in out


@pytest.mark.parametrize("path", sorted(LOCKFILES))
@pytest.mark.parametrize(("url", "checksum"), [(EVIL, SUM_EVIL), (EVIL, SUM_GOOD)], ids=["both", "url"])
def test_from_the_patch_alone_a_moved_source_beside_a_bump_is_a_problem(git_repo: GitRepo, tmp_path: Path, path: str,
                                                                       url: str, checksum: str) -> None:
    """The patch shows hunks only: one entry's patch-level bump must not explain another entry's new tarball."""
    make = LOCKFILES[path]
    if path == "packages.lock.json":
        pytest.skip("NuGet's lockfile names no download location, only a checksum")
    _commit(git_repo, path, make, GOOD, SUM_GOOD, "1.0.1")
    _commit(git_repo, path, make, url, checksum, "1.0.2")
    patch = tmp_path / "change.diff"
    patch.write_bytes(commit_patch(git_repo, "main~1", "main", "--binary"))
    delta = patch_delta(patch)
    assert [p.manifest for p in delta.problems] == [path], delta


@each_case("path", sorted(LOCKFILES))
def test_from_the_patch_alone_a_plain_bump_reads(git_repo: GitRepo, tmp_path: Path, path: str) -> None:
    """A bump reads from the hunks (NuGet's lockfile is never read from hunks: a problem, by design; a v1
    package-lock's entries are, since the hunk shows each entry's name and version together)."""
    _commit(git_repo, path, LOCKFILES[path], GOOD, SUM_GOOD, "1.0.1")
    _commit(git_repo, path, LOCKFILES[path], GOOD, SUM_GOOD, "1.0.2")
    patch = tmp_path / "change.diff"
    patch.write_bytes(commit_patch(git_repo, "main~1", "main", "--binary"))
    delta = patch_delta(patch)
    if path == "packages.lock.json":
        assert {p.manifest for p in delta.problems} == {path}, delta
    else:
        assert delta.problems == () and [c.change for c in delta.changes] == ["upgraded"], delta


@pytest.mark.parametrize("path", sorted(LOCKFILES))
@pytest.mark.parametrize("tree", [True, False], ids=["tree", "patch"])
def test_a_checksum_alone_that_moves_is_no_problem(git_repo: GitRepo, tmp_path: Path, path: str, tree: bool) -> None:
    """From an unchanged location the installer fetches the registry's own artifact and checks it: a checksum that
    moves alone (npm's sha1 -> sha512 rewrite, a new wheel's hash) can fail the install, never swap the code."""
    make = LOCKFILES[path]
    if not tree and path in ("pnpm-lock.yaml", "uv.lock"):
        pytest.skip("one line holds both the location and the checksum: a hunk cannot tell which moved (fail closed)")
    _commit(git_repo, path, make, GOOD, SUM_GOOD, "1.0.1")
    _commit(git_repo, path, make, GOOD, SUM_EVIL, "1.0.2")
    if tree:
        with git_repo.objects() as git:
            delta = tree_delta(git, "main~1", "main")
    else:
        patch = tmp_path / "change.diff"
        patch.write_bytes(commit_patch(git_repo, "main~1", "main", "--binary"))
        delta = patch_delta(patch)
    moved = [p for p in delta.problems if "location" in p.msg]
    assert moved == [], delta
