"""Red team 14, second round: a pnpm importer entry that locks another package under the declared name.

pnpm reads an importer's `version` as a dependency path when it names a package (its `refToRelative`: v9
`evil@4.17.21`, v6 `/evil@4.17.21`, v5 `/evil/4.17.21`) and installs that entry as `node_modules/lodash`, while
`--frozen-lockfile` checks only the importer's `specifier` against package.json. So a change that leaves
package.json at `"lodash": "^4.17.21"` and points the importer's `version` at `evil@4.17.21` installs `evil` as the
project's own dependency. The lock reader named `evil` transitive (its name is no importer key), and a transitive
package an upgrade brings is allowed: `gate --tree --enable deps` said allow (exit 0) for every lockfile version
(the patch gate reviewed, its hunks counting every entry direct). The package an importer's reference names is
direct now. Controls: a version with a peer suffix (v9 `4.17.21(react@18.3.1)`, v5 `4.17.21_react@18.3.1`) is
the key's own package, a plain bump and a `link:` stay allowed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tables import each_case
from test_deps_gate import Case, gate

from gatekeeper.deps.npm import parse_pnpm_lock


def _package_json(spec: str) -> str:
    return json.dumps({"name": "app", "version": "1.0.0", "dependencies": {"lodash": spec}}, indent=2) + "\n"


V9 = ("lockfileVersion: '9.0'\n\nsettings:\n  autoInstallPeers: true\n  excludeLinksFromLockfile: false\n\n"
      "importers:\n\n  .:\n    dependencies:\n      lodash:\n        specifier: {spec}\n        version: {ref}\n\n"
      "packages:\n\n  {key}:\n    resolution: {{integrity: sha512-AAAA}}\n\nsnapshots:\n\n  {key}: {{}}\n")
V6 = ("lockfileVersion: '6.0'\n\ndependencies:\n  lodash:\n    specifier: {spec}\n    version: {ref}\n\n"
      "packages:\n\n  {key}:\n    resolution: {{integrity: sha512-AAAA}}\n    dev: false\n")
V5 = ("lockfileVersion: 5.4\n\nspecifiers:\n  lodash: {spec}\n\ndependencies:\n  lodash: {ref}\n\n"
      "packages:\n\n  {key}:\n    resolution: {{integrity: sha512-AAAA}}\n    dev: false\n")
FORMS = {  # lockfile: (its text, the importer's reference and the packages key for a name and version)
    "v9": (V9, lambda name, version: (f"{name}@{version}", f"'{name}@{version}'")),
    "v6": (V6, lambda name, version: (f"/{name}@{version}", f"'/{name}@{version}'")),
    "v5": (V5, lambda name, version: (f"/{name}/{version}", f"/{name}/{version}")),
}


def _lock(form: str, spec: str, name: str, version: str, ref: str | None = None) -> str:
    text, shape = FORMS[form]
    own_ref, key = shape(name, version)
    ref = ref or own_ref
    return text.format(spec=spec, ref=f"'{ref}'" if ref.startswith("@") else ref, key=key)


def _case(form: str, target: str, version: str) -> tuple[dict[str, str], dict[str, str]]:
    base = {"package.json": _package_json("^4.17.20"), "pnpm-lock.yaml": _lock(form, "^4.17.20", "lodash", "4.17.20")}
    head = {"package.json": _package_json(f"^{version}"), "pnpm-lock.yaml": _lock(form, f"^{version}", target, version)}
    return base, head


ATTACKS = {f"{form} {what}": (form, target, version) for form in FORMS
           for what, target, version in (("same version", "evil", "4.17.20"), ("with a bump", "evil", "4.17.21"),
                                         ("scoped", "@evil/lodash", "4.17.21"))}


@pytest.mark.parametrize("tree", [False, True], ids=["patch", "tree"])
@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_a_package_locked_under_another_name_needs_a_human(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                          name: str, tree: bool) -> None:
    decision = gate(capsys, Case(tmp_path, *_case(*ATTACKS[name])), tree)
    assert decision["outcome"] == "review", decision["reasons"]
    reviewed = {p for reason in decision["reasons"] for p in reason.get("paths", ())}
    assert "pnpm-lock.yaml" in reviewed, decision["reasons"]


@each_case("form", sorted(FORMS))
def test_the_aliased_package_is_direct(form: str) -> None:
    _base, head = _case(form, "evil", "4.17.21")
    found = {d.name: d.direct for d in parse_pnpm_lock("pnpm-lock.yaml", head["pnpm-lock.yaml"].encode())}
    assert found == {"evil": True}


CONTROLS = {
    "v9 bump": ("v9", None),
    "v9 peer suffix": ("v9", "4.17.21(react@18.3.1)"),
    "v6 peer suffix": ("v6", "4.17.21(react@18.3.1)"),
    "v5 peer suffix": ("v5", "4.17.21_react@18.3.1"),
    "v6 bump": ("v6", None),
    "v5 bump": ("v5", None),
}


@pytest.mark.parametrize("name", sorted(CONTROLS))
def test_the_keys_own_package_is_an_upgrade(capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str) -> None:
    form, ref = CONTROLS[name]
    base = {"package.json": _package_json("^4.17.20"), "pnpm-lock.yaml": _lock(form, "^4.17.20", "lodash", "4.17.20")}
    head = {"package.json": _package_json("^4.17.21"),
            "pnpm-lock.yaml": _lock(form, "^4.17.21", "lodash", "4.17.21", ref)}
    decision = gate(capsys, Case(tmp_path, base, head), True)
    assert decision["outcome"] == "allow", decision["reasons"]


def test_a_link_names_no_package() -> None:
    text = V9.format(spec="link:../shared", ref="link:../shared", key="lodash@4.17.21")
    assert {d.name: d.direct for d in parse_pnpm_lock("pnpm-lock.yaml", text.encode())} == {"lodash": True}
