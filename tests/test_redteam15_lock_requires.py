"""Red team 15, lockfiles: red team 12's injected requirement, in the lockfiles it did not read (yarn, pnpm, bun).

Red team 12 made an entry whose version stayed while its requirements grew a `partial` problem for npm, Poetry, uv
and Composer lockfiles (tests/test_redteam12_lock_requires.py). yarn (classic and berry), pnpm and bun install
what their lockfile's entries say they require just as `npm ci` does (`yarn install --frozen-lockfile` /
`--immutable`, `pnpm install --frozen-lockfile`, `bun install --frozen-lockfile` build the tree from the lockfile),
and their readers kept no requirement at all: `evil-helper` under an unchanged `chalk@5.3.0` was one new transitive
dependency (within `max_new`), and `gate --tree --enable deps` said allow (exit 0), alone or beside a lodash bump.
Variants: each format × each requirement list × alone / beside a bump, an alias swapped in (pnpm, bun); what must
stay quiet: a bump, a transitive bump pnpm writes into an unchanged parent's resolved versions, and a yarn berry
workspace whose own requirements follow its package.json.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tables import each_case
from test_deps_gate import Case, gate

from gatekeeper.deps.lockedsources import moved_sources

MANIFEST = '{"name": "app", "dependencies": {"lodash": "^4.17.20", "chalk": "^5.3.0"}}\n'
EVIL = {"evil-helper": "^1.0.0"}


def yarn1(lodash: str = "4.17.20", field: str = "", requires: dict[str, str] = EVIL) -> str:
    out = "# yarn lockfile v1\n\n\nchalk@^5.3.0:\n  version \"5.3.0\"\n" \
          "  resolved \"https://registry.yarnpkg.com/chalk/-/chalk-5.3.0.tgz#0a\"\n  integrity sha512-bb\n"
    if field:
        out += f"  {field}:\n" + "".join(f'    {name} "{value}"\n' for name, value in requires.items())
        out += '\nevil-helper@^1.0.0:\n  version "1.0.0"\n' \
               '  resolved "https://registry.yarnpkg.com/evil-helper/-/evil-helper-1.0.0.tgz#0c"\n'
    return out + f'\nlodash@^4.17.20:\n  version "{lodash}"\n' \
                 f'  resolved "https://registry.yarnpkg.com/lodash/-/lodash-{lodash}.tgz#0b"\n'


def berry(lodash: str = "4.17.20", field: str = "", workspace: str = "^4.17.20") -> str:
    out = "__metadata:\n  version: 8\n  cacheKey: 10c0\n\n" \
          f'"app@workspace:.":\n  version: 0.0.0-use.local\n  resolution: "app@workspace:."\n  dependencies:\n' \
          f'    chalk: "npm:^5.3.0"\n    lodash: "npm:{workspace}"\n  languageName: unknown\n  linkType: soft\n\n' \
          '"chalk@npm:^5.3.0":\n  version: 5.3.0\n  resolution: "chalk@npm:5.3.0"\n'
    if field:
        out += f'  {field}:\n    evil-helper: "npm:^1.0.0"\n'
    out += "  checksum: 10c0/bb\n  languageName: node\n  linkType: hard\n\n"
    if field:
        out += '"evil-helper@npm:^1.0.0":\n  version: 1.0.0\n  resolution: "evil-helper@npm:1.0.0"\n' \
               "  checksum: 10c0/cc\n  languageName: node\n  linkType: hard\n\n"
    return out + f'"lodash@npm:^4.17.20":\n  version: {lodash}\n  resolution: "lodash@npm:{lodash}"\n' \
                 "  checksum: 10c0/aa\n  languageName: node\n  linkType: hard\n"


def pnpm(lodash: str = "4.17.20", field: str = "", value: str = "1.0.0", v6: bool = False, styles: str = "") -> str:
    """lockfileVersion 9 (requirements in `snapshots`) or 6 (in `packages`)."""
    requires = {"ansi-styles": styles} if styles else {}
    if field:
        requires["evil-helper" if "@" not in value else "ansi-styles"] = value
    chalk = f"{field or 'dependencies'}:\n" + "".join(f"      {k}: {v}\n" for k, v in requires.items()) \
        if requires else ""
    extra = {"evil-helper@1.0.0": {}, **({"ansi-styles@" + styles: {}} if styles else {})} if field or styles else {}
    packages: dict[str, str] = {"chalk@5.3.0": "resolution: {integrity: sha512-bb}\n",
                                f"lodash@{lodash}": "resolution: {integrity: sha512-aa}\n",
                                **{key: "resolution: {integrity: sha512-cc}\n" for key in extra}}
    head = f"lockfileVersion: '{'6.0' if v6 else '9.0'}'\n\nimporters:\n  .:\n    dependencies:\n" \
           f"      chalk: {{specifier: ^5.3.0, version: 5.3.0}}\n" \
           f"      lodash: {{specifier: ^4.17.20, version: {lodash}}}\n"
    if v6:
        packages["chalk@5.3.0"] += "    " + chalk if chalk else ""
        return head + "\npackages:\n" + "".join(f"  /{k}:\n    {v}" for k, v in packages.items())
    snapshots = {"chalk@5.3.0": chalk, f"lodash@{lodash}": "", **{key: "" for key in extra}}
    return head + "\npackages:\n" + "".join(f"  {k}:\n    {v}" for k, v in packages.items()) + "\nsnapshots:\n" + \
        "".join(f"  {k}:\n    {v}" if v else f"  {k}: {{}}\n" for k, v in snapshots.items())


def bun(lodash: str = "4.17.20", field: str = "", value: str = "^1.0.0", name: str = "evil-helper") -> str:
    packages = {"chalk": ["chalk@5.3.0", "", {field: {name: value}} if field else {}, "sha512-bb"],
                "lodash": [f"lodash@{lodash}", "", {}, "sha512-aa"]}
    if field:
        packages["evil-helper"] = ["evil-helper@1.0.0", "", {}, "sha512-cc"]
    return json.dumps({"lockfileVersion": 1, "workspaces": {"": {"name": "app", "dependencies": {
        "lodash": "^4.17.20", "chalk": "^5.3.0"}}}, "packages": packages}, indent=2) + "\n"


def _attacks() -> dict[str, tuple[str, str, str]]:
    """name: (lockfile, BASE's text, HEAD's text)."""
    out: dict[str, tuple[str, str, str]] = {}
    for bump in ("4.17.20", "4.17.21"):
        for field in ("dependencies", "optionalDependencies"):
            out[f"yarn classic {field}, lodash {bump}"] = ("yarn.lock", yarn1(), yarn1(bump, field))
            out[f"pnpm 9 {field}, lodash {bump}"] = ("pnpm-lock.yaml", pnpm(), pnpm(bump, field))
            out[f"pnpm 6 {field}, lodash {bump}"] = ("pnpm-lock.yaml", pnpm(v6=True), pnpm(bump, field, v6=True))
        for field in ("dependencies", "optionalDependencies", "peerDependencies"):
            out[f"yarn berry {field}, lodash {bump}"] = ("yarn.lock", berry(), berry(bump, field))
            out[f"bun {field}, lodash {bump}"] = ("bun.lock", bun(), bun(bump, field))
    out["pnpm 9 an alias swapped in"] = ("pnpm-lock.yaml", pnpm(styles="6.2.1"),
                                         pnpm(field="dependencies", value="evil-helper@1.0.0", styles="6.2.1"))
    out["bun an alias swapped in"] = ("bun.lock", bun(field="dependencies", name="ansi-styles", value="^6.2.1"),
                                      bun(field="dependencies", name="ansi-styles", value="npm:evil-helper@^1"))
    return out


ATTACKS = _attacks()


def test_the_attacks_are_generated() -> None:
    assert len(ATTACKS) == 26


@each_case("name", sorted(ATTACKS))
def test_an_injected_requirement_is_a_moved_source(name: str) -> None:
    lockfile, base, head = ATTACKS[name]
    moved = moved_sources(lockfile, base.encode(), head.encode())
    assert any(m.startswith("the requirements of chalk@5.3.0") for m in moved), moved


@pytest.mark.parametrize("lockfile", ["yarn.lock", "pnpm-lock.yaml", "bun.lock"])
def test_the_gate_reviews_it_with_the_commits(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                              lockfile: str) -> None:
    """One gate per format, beside a lodash bump (alone would be the same file explained by nothing)."""
    _, base, head = ATTACKS[{"yarn.lock": "yarn berry dependencies, lodash 4.17.21", "bun.lock":
                             "bun dependencies, lodash 4.17.21"}.get(lockfile, "pnpm 9 dependencies, lodash 4.17.21")]
    case = Case(tmp_path, {"package.json": MANIFEST, lockfile: base}, {lockfile: head})
    decision = gate(capsys, case, True)
    problems = [r for r in decision["reasons"] if r["rule"] == "deps.unreadable"]
    assert decision["outcome"] == "review" and problems and lockfile in problems[0]["paths"], decision["reasons"]


QUIET = {
    "yarn classic bump": ("yarn.lock", yarn1(field="dependencies"), yarn1("4.17.21", "dependencies")),
    "yarn berry bump, the workspace's own range moved": ("yarn.lock", berry(), berry("4.17.21", workspace="^4.17.21")),
    "pnpm 9 a transitive bump under chalk": ("pnpm-lock.yaml", pnpm(styles="6.2.1"), pnpm(styles="6.2.3")),
    "pnpm 6 a transitive bump under chalk": ("pnpm-lock.yaml", pnpm(v6=True, styles="6.2.1"),
                                             pnpm(v6=True, styles="6.2.3")),
    "bun bump": ("bun.lock", bun(field="dependencies"), bun("4.17.21", "dependencies")),
}


@each_case("name", sorted(QUIET))
def test_ordinary_moves_move_no_requirement(name: str) -> None:
    lockfile, base, head = QUIET[name]
    assert moved_sources(lockfile, base.encode(), head.encode()) == []
