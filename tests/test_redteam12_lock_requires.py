"""Red team 12, lockfiles: a dependency injected under an entry whose version did not move (allow with `--tree`).

A lockfile says what each locked entry requires, and the installer trusts it: `npm ci` installs `evil-helper` when
package-lock.json says the unchanged `chalk@5.3.0` depends on it, and runs its install script. The delta read the new
`node_modules/evil-helper` as one new transitive dependency (within `max_new`, no finding) and the lockfile's sibling
manifest did not change, so `gate --tree` allowed it, alone or beside a bump. A registry's metadata of one version
never changes, so an entry whose version stayed while its requirements grew is now a `partial` problem (reviewed),
as a moved download location already was (lockedsources.py). Variants: npm v3 (each requirement map, an alias swapped
in), npm v1 `requires`, poetry.lock, uv.lock and composer.lock, each alone and beside a bump; a bump that
brings its own requirements, and Cargo's `syn` → `syn 2.0.48` disambiguation, stay quiet."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tables import each_case
from test_deps_gate import Case, gate

from gatekeeper.deps.lockedsources import moved_sources


def _npm3(lodash: str = "4.17.20", inject: tuple[str, dict[str, str]] | None = None) -> str:
    chalk: dict[str, Any] = {"version": "5.3.0", "resolved": "https://registry.npmjs.org/chalk/-/chalk-5.3.0.tgz",
                             "integrity": "sha512-bb"}
    packages: dict[str, Any] = {
        "": {"name": "app", "version": "1.0.0", "dependencies": {"lodash": "^4.17.20", "chalk": "^5.3.0"}},
        "node_modules/lodash": {"version": lodash, "integrity": "sha512-aa",
                                "resolved": f"https://registry.npmjs.org/lodash/-/lodash-{lodash}.tgz"},
        "node_modules/chalk": chalk}
    if inject is not None:
        chalk[inject[0]] = inject[1]
        packages["node_modules/evil-helper"] = {
            "version": "1.0.0", "resolved": "https://registry.npmjs.org/evil-helper/-/evil-helper-1.0.0.tgz",
            "integrity": "sha512-cc", "hasInstallScript": True}
    return json.dumps({"name": "app", "lockfileVersion": 3, "requires": True, "packages": packages}, indent=2) + "\n"


def _npm1(lodash: str = "4.17.20", inject: bool = False) -> str:
    chalk: dict[str, Any] = {"version": "5.3.0", "resolved": "https://registry.npmjs.org/chalk/-/chalk-5.3.0.tgz"}
    deps: dict[str, Any] = {"lodash": {"version": lodash,
                                       "resolved": f"https://registry.npmjs.org/lodash/-/lodash-{lodash}.tgz"},
                            "chalk": chalk}
    if inject:
        chalk["requires"] = {"evil-helper": "^1.0.0"}
        deps["evil-helper"] = {"version": "1.0.0",
                               "resolved": "https://registry.npmjs.org/evil-helper/-/evil-helper-1.0.0.tgz"}
    return json.dumps({"name": "app", "lockfileVersion": 1, "dependencies": deps}, indent=2) + "\n"


def _toml(kind: str, bump: str = "1.0.0", inject: bool = False, renamed: bool = False) -> str:
    requires = {"cargo": '["syn{r}"{e}]', "poetry": None, "uv": '[{{ name = "syn"{r} }}{e}]'}[kind]
    extra = {"cargo": ', "evil"', "uv": ', { name = "evil" }'}.get(kind, "") if inject else ""
    source = {"cargo": 'source = "registry+https://github.com/rust-lang/crates.io-index"\n',
              "poetry": "", "uv": 'source = { registry = "https://pypi.org/simple" }\n'}[kind]
    out = ""
    for name, version in (("bumped", bump), ("host", "2.0.0"), ("syn", "2.0.48"), *((("evil", "1.0.0"),) if inject
                                                                                     else ())):
        out += f'[[package]]\nname = "{name}"\nversion = "{version}"\n{source}'
        if name == "host" and kind == "poetry":
            out += '\n[package.dependencies]\nsyn = ">=2"\n' + ('evil = "*"\n' if inject else "")
        elif name == "host" and requires is not None:
            out += "dependencies = " + requires.format(r=(" 2.0.48" if kind == "cargo" else ', version = "2.0.48"')
                                                      if renamed else "", e=extra) + "\n"
        out += "\n"
    return out


def _composer(bump: str = "1.0.0", inject: bool = False) -> str:
    host = {"name": "acme/host", "version": "2.0.0", "require": {"php": ">=8.1", **({"evil/helper": "^1.0"}
                                                                                    if inject else {})}}
    evil = [{"name": "evil/helper", "version": "1.0.0"}] if inject else []
    return json.dumps({"packages": [{"name": "acme/bumped", "version": bump}, host, *evil]}, indent=2) + "\n"


def _attacks() -> dict[str, tuple[dict[str, str], dict[str, str]]]:
    out = {}
    manifest = {"package.json": '{"name": "app", "dependencies": {"lodash": "^4.17.20", "chalk": "^5.3.0"}}\n'}
    for field in ("dependencies", "optionalDependencies", "peerDependencies"):
        for bump in ("4.17.20", "4.17.21"):
            out[f"npm v3 {field}, lodash at {bump}"] = (
                {**manifest, "package-lock.json": _npm3()},
                {**manifest, "package-lock.json": _npm3(bump, (field, {"evil-helper": "^1.0.0"}))})
    out["npm v3 an alias under an unchanged entry"] = (
        {**manifest, "package-lock.json": _npm3(inject=("dependencies", {"ansi-styles": "^6.0.0"}))},
        {**manifest, "package-lock.json": _npm3(inject=("dependencies", {"ansi-styles": "npm:evil-helper@^1"}))})
    for bump in ("4.17.20", "4.17.21"):
        out[f"npm v1 requires, lodash at {bump}"] = ({**manifest, "package-lock.json": _npm1()},
                                                     {**manifest, "package-lock.json": _npm1(bump, True)})
    python = {"pyproject.toml": '[project]\nname = "app"\nversion = "1"\ndependencies = ["bumped>=1", "host>=2"]\n'}
    for kind, name, sibling in (("poetry", "poetry.lock", python), ("uv", "uv.lock", python)):
        for bump in ("1.0.0", "1.0.1"):
            out[f"{name}, bumped at {bump}"] = ({**sibling, name: _toml(kind)},
                                                {**sibling, name: _toml(kind, bump, inject=True)})
    composer = {"composer.json": '{"require": {"acme/bumped": "^1.0", "acme/host": "^2.0"}}\n'}
    for bump in ("1.0.0", "1.0.1"):
        out[f"composer.lock, bumped at {bump}"] = ({**composer, "composer.lock": _composer()},
                                                   {**composer, "composer.lock": _composer(bump, True)})
    return out


ATTACKS = _attacks()


def test_the_attacks_are_generated() -> None:
    assert len(ATTACKS) == 15


@pytest.mark.parametrize("tree", [False, True], ids=["patch", "tree"])
@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_a_requirement_injected_under_an_unchanged_version_needs_a_human(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, tree: bool) -> None:
    """One gate per case: several new packages in one change are `deps.too_many_new` whatever else is found."""
    base, head = ATTACKS[name]
    decision = gate(capsys, Case(tmp_path, base, head), tree)
    reviewed = {p for reason in decision["reasons"] if reason["level"] == "review" for p in reason.get("paths", ())}
    assert set(head) - {"package.json", "Cargo.toml", "pyproject.toml", "composer.json"} <= reviewed, \
        decision["reasons"]


@each_case("name, base, head", [
    ("Cargo.lock", _toml("cargo"), _toml("cargo", "1.0.1", renamed=True)),
    ("uv.lock", _toml("uv"), _toml("uv", "1.0.1", renamed=True)),
    ("package-lock.json", _npm3(), _npm3("4.17.21")),
    ("composer.lock", _composer(), _composer("1.0.1")),
])
def test_ordinary_lock_moves_move_no_requirement(name: str, base: str, head: str) -> None:
    assert moved_sources(name, base.encode(), head.encode()) == []


def test_a_bump_brings_its_own_requirements() -> None:
    """The bumped entry's requirements may change with its version: a new version is other metadata."""
    base, head = _npm3(), _npm3("4.17.21")
    head_doc = json.loads(head)
    head_doc["packages"]["node_modules/lodash"]["dependencies"] = {"tslib": "^2.0.0"}
    assert moved_sources("package-lock.json", base.encode(), json.dumps(head_doc).encode()) == []
