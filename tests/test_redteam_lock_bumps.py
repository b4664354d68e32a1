"""Red team: a lockfile entry fetched from another place beside its own version bump.

The lockfile check compared an entry's download location only under an unchanged version. A patch-level bump
of lodash (4.17.20 -> 4.17.21) whose `resolved` URL moved to an attacker's host, or to another package's tarball
on the same registry (`evil-lodash-4.17.21.tgz`), read as an in-level upgrade, and `gate --tree --enable deps`
said allow; so did npm's `name` field written into the entry (npm installs `name@version` from the registry
when no `resolved` is given, and checks only the version against `^4.17.20`). Each lockfile format is checked:
an entry's location, with its version taken out, must be one its own base entries had, and a download host the
base lockfile did not use is a problem for new entries too.
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

NPM = "https://registry.npmjs.org"
HEX = "0123456789abcdef" * 4


def _npm_url(name: str, version: str, host: str = NPM) -> str:
    return f"{host}/{name}/-/{name.rpartition('/')[2]}-{version}.tgz"


def _package_lock(version: str, url: str, extra: dict[str, object]) -> str:
    entry: dict[str, object] = {"version": version, "resolved": url, "integrity": "sha512-" + version}
    entry.update(extra)
    packages = {"": {"name": "app", "version": "1.0.0", "dependencies": {"lodash": "^4.17.20"}},
                "node_modules/lodash": {k: v for k, v in entry.items() if v is not None}}
    return json.dumps({"name": "app", "lockfileVersion": 3, "packages": packages}, indent=2)


def _shrinkwrap(version: str, url: str, extra: dict[str, object]) -> str:
    entry = {"version": version, "resolved": url, "integrity": "sha512-" + version}
    return json.dumps({"name": "app", "lockfileVersion": 1, "dependencies": {"lodash": entry}}, indent=2)


def _yarn_classic(version: str, url: str, extra: dict[str, object]) -> str:
    return (f'# yarn lockfile v1\n\n\nlodash@^4.17.20:\n  version "{version}"\n  resolved "{url}#{HEX[:40]}"\n'
            f"  integrity sha512-{version}\n")


def _yarn_berry(version: str, url: str, extra: dict[str, object]) -> str:
    resolution = f"lodash@npm:{version}" if url.startswith(NPM + "/lodash/") else f"lodash@{url}"
    return ('__metadata:\n  version: 6\n\n"lodash@npm:^4.17.20":\n'
            f'  version: {version}\n  resolution: "{resolution}"\n  checksum: {HEX}\n  languageName: node\n'
            "  linkType: hard\n")


def _pnpm(version: str, url: str, extra: dict[str, object]) -> str:
    tarball = "" if url.startswith(NPM + "/lodash/") else f", tarball: {url}"
    return ("lockfileVersion: '9.0'\nimporters:\n  .:\n    dependencies:\n      lodash:\n        specifier: ^4.17.20\n"
            f"        version: {version}\npackages:\n  lodash@{version}:\n"
            f"    resolution: {{integrity: sha512-{version}{tarball}}}\n")


def _bun(version: str, url: str, extra: dict[str, object]) -> str:
    source = "" if url.startswith(NPM + "/lodash/") else url
    return json.dumps({"lockfileVersion": 1, "workspaces": {"": {"dependencies": {"lodash": "^4.17.20"}}},
                       "packages": {"lodash": [f"lodash@{version}", source, {}, f"sha512-{version}"]}}, indent=2)


def _cargo(version: str, url: str, extra: dict[str, object]) -> str:
    return (f'version = 3\n\n[[package]]\nname = "serde"\nversion = "{version}"\nsource = "registry+{url}"\n'
            f'checksum = "{HEX}"\n')


def _uv(version: str, url: str, extra: dict[str, object]) -> str:
    return (f'version = 1\n\n[[package]]\nname = "attrs"\nversion = "{version}"\n'
            'source = { registry = "https://pypi.org/simple" }\n'
            f'sdist = {{ url = "{url}", hash = "sha256:{HEX}" }}\n')


def _poetry(version: str, url: str, extra: dict[str, object]) -> str:
    return (f'[[package]]\nname = "attrs"\nversion = "{version}"\ndescription = ""\noptional = false\nfiles = []\n\n'
            f'[package.source]\ntype = "legacy"\nurl = "{url}"\nreference = "x"\n'
            '\n[metadata]\nlock-version = "2.0"\ncontent-hash = "x"\n')


def _composer(version: str, url: str, extra: dict[str, object]) -> str:
    return json.dumps({"packages": [{"name": "monolog/monolog", "version": version,
                                     "dist": {"type": "zip", "url": url, "shasum": ""}}], "packages-dev": []}, indent=4)


# (make, base version, head version, the base's URL, an ordinary bump's URL, the attacks' URLs)
Maker = Callable[[str, str, dict[str, object]], str]
PYPI = "https://files.pythonhosted.org/packages"
CASES: dict[str, tuple[Maker, str, str, str, str, list[str]]] = {
    "package-lock.json": (_package_lock, "4.17.20", "4.17.21", _npm_url("lodash", "4.17.20"),
                          _npm_url("lodash", "4.17.21"),
                          [_npm_url("lodash", "4.17.21", "https://evil.example"), _npm_url("evil-lodash", "4.17.21"),
                           f"{NPM}/lodash/-/lodash-4.17.21.tgz?x=/evil-lodash/-/"]),
    "npm-shrinkwrap.json": (_shrinkwrap, "4.17.20", "4.17.21", _npm_url("lodash", "4.17.20"),
                            _npm_url("lodash", "4.17.21"),
                            [_npm_url("lodash", "4.17.21", "https://evil.example"),
                             _npm_url("evil-lodash", "4.17.21")]),
    # (yarn writes the npm registry under either name: one registry)
    "yarn.lock": (_yarn_classic, "4.17.20", "4.17.21", _npm_url("lodash", "4.17.20"),
                  _npm_url("lodash", "4.17.21", "https://registry.yarnpkg.com"),
                  [_npm_url("lodash", "4.17.21", "https://evil.example"), _npm_url("evil-lodash", "4.17.21")]),
    "berry/yarn.lock": (_yarn_berry, "4.17.20", "4.17.21", _npm_url("lodash", "4.17.20"), _npm_url("lodash", "4.17.21"),
                        [_npm_url("lodash", "4.17.21", "https://evil.example")]),
    "pnpm-lock.yaml": (_pnpm, "4.17.20", "4.17.21", _npm_url("lodash", "4.17.20"), _npm_url("lodash", "4.17.21"),
                       [_npm_url("lodash", "4.17.21", "https://evil.example"), _npm_url("evil-lodash", "4.17.21")]),
    "bun.lock": (_bun, "4.17.20", "4.17.21", _npm_url("lodash", "4.17.20"), _npm_url("lodash", "4.17.21"),
                 [_npm_url("lodash", "4.17.21", "https://evil.example")]),
    "Cargo.lock": (_cargo, "1.0.190", "1.0.191", "https://github.com/rust-lang/crates.io-index",
                   "https://github.com/rust-lang/crates.io-index", ["https://evil.example/crates.io-index"]),
    "uv.lock": (_uv, "23.1.0", "23.2.0", f"{PYPI}/a0/b1/{HEX}/attrs-23.1.0.tar.gz",
                f"{PYPI}/9c/d4/{HEX[::-1]}/attrs-23.2.0.tar.gz",
                ["https://evil.example/attrs-23.2.0.tar.gz", f"{PYPI}/9c/d4/{HEX[::-1]}/evil_attrs-23.2.0.tar.gz"]),
    "poetry.lock": (_poetry, "23.1.0", "23.2.0", "https://pypi.example/simple", "https://pypi.example/simple",
                    ["https://evil.example/simple"]),
    "composer.lock": (_composer, "3.5.0", "3.6.0", f"https://api.github.com/repos/Seldaek/monolog/zipball/{HEX[:40]}",
                      f"https://api.github.com/repos/Seldaek/monolog/zipball/{HEX[-40:]}",
                      [f"https://api.github.com/repos/evil/monolog/zipball/{HEX[-40:]}",
                       f"https://evil.example/repos/Seldaek/monolog/zipball/{HEX[-40:]}"]),
}
ATTACKS = [(path, url) for path, case in CASES.items() for url in case[5]]


def _problems(repo: GitRepo, path: str, base: str, head: str) -> list[str]:
    repo.write(path, base)
    repo.commit("base")
    repo.write(path, head)
    repo.commit("head")
    with repo.objects() as git:
        delta = tree_delta(git, "main~1", "main")
    return [p.manifest for p in delta.problems if p.kind == "partial"]


@each_case(("path", "url"), ATTACKS)
def test_a_bump_whose_location_moves_elsewhere_is_a_problem(git_repo: GitRepo, path: str, url: str) -> None:
    make, old, new, base_url, _, _ = CASES[path]
    assert _problems(git_repo, path, make(old, base_url, {}), make(new, url, {})) == [path]


@each_case("path", sorted(CASES))
def test_an_ordinary_bump_is_no_problem(git_repo: GitRepo, path: str) -> None:
    make, old, new, base_url, bump_url, _ = CASES[path]
    assert _problems(git_repo, path, make(old, base_url, {}), make(new, bump_url, {})) == []


@pytest.mark.parametrize("version", ["4.17.20", "4.17.21"], ids=["same-version", "bump"])
@pytest.mark.parametrize("resolved", [None, _npm_url("evil-lodash", "4.17.21")], ids=["no-resolved", "resolved"])
def test_an_npm_entry_renamed_to_another_package_is_a_problem(git_repo: GitRepo, version: str,
                                                              resolved: str | None) -> None:
    """npm fetches `name@version` for an entry without `resolved`; `^4.17.20` checks the version only."""
    base = _package_lock("4.17.20", _npm_url("lodash", "4.17.20"), {})
    head = _package_lock(version, "", {"name": "evil-lodash", "resolved": resolved})
    assert _problems(git_repo, "package-lock.json", base, head) == ["package-lock.json"]


def test_an_npm_alias_the_project_declares_is_a_direct_dependency(git_repo: GitRepo) -> None:
    """The root declares folder names (`utils`: `npm:evil-utils@1`); the entry names the package fetched."""
    git_repo.write("package-lock.json", _package_lock("4.17.20", _npm_url("lodash", "4.17.20"), {}))
    git_repo.commit("base")
    doc = json.loads(_package_lock("4.17.20", _npm_url("lodash", "4.17.20"), {}))
    doc["packages"][""]["dependencies"]["utils"] = "npm:evil-utils@1.0.0"
    doc["packages"]["node_modules/utils"] = {"name": "evil-utils", "version": "1.0.0",
                                             "resolved": _npm_url("evil-utils", "1.0.0")}
    git_repo.write("package-lock.json", json.dumps(doc))
    git_repo.commit("head")
    with git_repo.objects() as git:
        delta = tree_delta(git, "main~1", "main")
    assert [(c.name, c.change, c.direct) for c in delta.changes] == [("evil-utils", "added", True)]


@pytest.mark.parametrize("attack", range(3))
def test_the_gate_reviews_the_moved_bump(git_repo: GitRepo, capsys: pytest.CaptureFixture[str], attack: int) -> None:
    """End to end, as the action runs it: each said allow."""
    make, old, new, base_url, _, urls = CASES["package-lock.json"]
    git_repo.write("package.json", json.dumps({"name": "app", "dependencies": {"lodash": "^4.17.20"}}))
    git_repo.write("package-lock.json", make(old, base_url, {}))
    git_repo.commit("base")
    heads = [make(new, urls[0], {}), make(new, urls[1], {}), make(new, "", {"name": "evil-lodash", "resolved": None})]
    git_repo.write("package-lock.json", heads[attack])
    git_repo.commit("head")
    assert main(["gate", "--tree", "main~1..main", "--repo", str(git_repo.root), "--enable", "deps"]) == 3
    assert "package-lock.json" in capsys.readouterr().out


def _patch_problems(repo: GitRepo, tmp_path: Path, path: str, base: str, head: str) -> list[str]:
    repo.write(path, base)
    repo.commit("base")
    repo.write(path, head)
    repo.commit("head")
    patch = tmp_path / "change.diff"
    patch.write_bytes(commit_patch(repo, "main~1", "main", "--binary"))
    return [p.manifest for p in patch_delta(patch).problems]


@each_case(("path", "url"), ATTACKS)
def test_from_the_patch_alone_a_bump_whose_location_moves_is_a_problem(git_repo: GitRepo, tmp_path: Path, path: str,
                                                                      url: str) -> None:
    make, old, new, base_url, _, _ = CASES[path]
    assert _patch_problems(git_repo, tmp_path, path, make(old, base_url, {}), make(new, url, {})) == [path]


@each_case("path", sorted(CASES))
def test_from_the_patch_alone_an_ordinary_bump_is_no_problem(git_repo: GitRepo, tmp_path: Path, path: str) -> None:
    if path == "bun.lock":
        pytest.skip("bun.lock is never read from hunks (a problem by design: run with --tree)")
    make, old, new, base_url, bump_url, _ = CASES[path]
    assert _patch_problems(git_repo, tmp_path, path, make(old, base_url, {}), make(new, bump_url, {})) == []


@pytest.mark.parametrize("version", ["4.17.20", "4.17.21"], ids=["same-version", "bump"])
def test_from_the_patch_alone_an_npm_entry_renamed_is_a_problem(git_repo: GitRepo, tmp_path: Path,
                                                                version: str) -> None:
    base = _package_lock("4.17.20", _npm_url("lodash", "4.17.20"), {})
    head = _package_lock(version, "", {"name": "evil-lodash", "resolved": None})
    assert _patch_problems(git_repo, tmp_path, "package-lock.json", base, head) == ["package-lock.json"]
