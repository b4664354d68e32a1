"""Classes of misses the eleventh blind set of bot update commits found (bench/deps_bumps_eleventh.tsv): a mix.lock
git entry fetched by a tag (nerves_hub_web's `lucide`, `[tag: "1.31.0", sparse: "icons"]`), a version an npm-family
override section pins (authelia's pnpm 10 `overrides:` in pnpm-workspace.yaml, bumped by Renovate), and a
package-lock.json hunk showing a local package's entry keyed by its folder (`"../deps/phoenix": {`). Real-shaped
files, look-alikes that must not match; one git repository per class, the hunk reader in-process."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from cpucost import within_cpu
from tables import each_case

from gatekeeper.deps.elixir import parse_mix_lock
from gatekeeper.deps.hunks import package_lock_hunks, sides
from gatekeeper.deps.model import ManifestError
from gatekeeper.deps.overridepins import _package, override_pins
from tests.deltas import partial as _partial
from tests.deltas import patch as _patch
from tests.deltas import tree as _tree
from tests.gitrepo import edited_commits

OLD_SHA, NEW_SHA = "249af14dc6c09d846fada19455ac074ed29ee407", "b7b6ecf1316d0af64c97a6b0392abe5e816a8e30"
_HEX = '[:mix], [], "hexpm", "c5eb0cab91f094599f94d55bc63409236a8ec69a21a67814529e8d5f6cc90b3b"'
MIX_LOCK = "".join([
    "%{\n",
    f'  "jason": {{:hex, :jason, "1.4.4", "b9226785a9aa77b6857ca22832cffa5d5011a667207eb2a0ad56adb5db443b8a", '
    f"{_HEX}}},\n",
    f'  "lucide": {{:git, "https://github.com/lucide-icons/lucide.git", "{OLD_SHA}", '
    '[tag: "1.30.0", sparse: "icons", depth: 1]},\n',
    '  "heroicons": {:git, "https://github.com/tailwindlabs/heroicons.git", '
    '"88ab3a0d790e6a47404cba02800a6b25d2afae50", '
    '[tag: "v2.1.1", sparse: "optimized"]},\n',
    '  "phoenix_html": {:git, "https://github.com/phoenixframework/phoenix_html.git", '
    '"0a1e7ad6ce4a8a4e4bbc2de9cf8d33c44b2ba9e0", [branch: "release-tag"]},\n',
    "}\n",
])


def test_mix_git_entry_takes_the_tag_it_is_fetched_by() -> None:
    by_name = {d.name: d for d in parse_mix_lock("mix.lock", MIX_LOCK.encode())}
    assert (by_name["lucide"].version, by_name["lucide"].tag) == (OLD_SHA, "1.30.0")
    assert by_name["heroicons"].tag == "v2.1.1"
    assert by_name["phoenix_html"].tag == ""  # a branch named like a tag is no tag
    assert by_name["jason"].tag == ""


@each_case("options", ['[ref: "1.30.0"]', '[branch: "tag"]', '[sparse: "icons", subtag: "1.30.0"]'])
def test_mix_git_options_that_name_no_tag(options: str) -> None:
    line = f'  "lucide": {{:git, "https://github.com/lucide-icons/lucide.git", "{OLD_SHA}", {options}}},\n'
    assert [d.tag for d in parse_mix_lock("mix.lock", line.encode())] == [""]


def test_mix_git_tag_bump_tree_and_patch(tmp_path: Path) -> None:
    edit = {f'"{OLD_SHA}", [tag: "1.30.0"': f'"{NEW_SHA}", [tag: "1.31.0"'}
    repo, base, head = edited_commits(tmp_path, {"mix.lock": MIX_LOCK}, {"mix.lock": edit})
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert [(c.name, c.from_version, c.to_version, c.from_tag, c.to_tag, c.change) for c in delta.changes] == [
            ("lucide", OLD_SHA, NEW_SHA, "1.30.0", "1.31.0", "upgraded")], delta


WORKSPACE = """\
packages:
  - internal/templates/src
onlyBuiltDependencies:
  - esbuild
overrides:
  "@babel/runtime": 7.29.7
  rollup: 4.62.4
  debug: npm:obug@^2
  vite@<7>esbuild: ^0.25.0
  sharp: 0.35.3
"""
PACKAGE = """\
{
  "name": "web",
  "private": true,
  "dependencies": {"react": "19.2.0"},
  "overrides": {"semver": "7.7.2", "@storybook/react": {".": "9.1.0", "glob": "11.0.1"}, "lodash": "$lodash"},
  "resolutions": {"**/minimist": "1.2.8", "@types/node": "link:./types", "js-yaml@npm:^4.1.1": "npm:4.3.0",
                  "tar@npm:^7": "npm:tar@7.5.21", "@s/x": "npm:@s/x@^2.0.0", "brace-expansion": "npm:evil@1.1.18"},
  "pnpm": {"overrides": {"@scope/parent>@scope/child@^1": "1.4.0"}}
}
"""


def test_override_pins_read_plain_versions_only() -> None:
    pins = {(d.name, d.version) for d in override_pins("pnpm-workspace.yaml", WORKSPACE.encode())}
    assert pins == {("@babel/runtime", "7.29.7"), ("rollup", "4.62.4"), ("esbuild", "^0.25.0"), ("sharp", "0.35.3")}
    pins = {(d.name, d.version) for d in override_pins("web/package.json", PACKAGE.encode())}
    assert pins == {("semver", "7.7.2"), ("@storybook/react", "9.1.0"), ("glob", "11.0.1"), ("minimist", "1.2.8"),
                    ("@scope/child", "1.4.0"), ("js-yaml", "4.3.0"), ("tar", "7.5.21"), ("@s/x", "^2.0.0")}
    # not `$lodash`, `link:`, `npm:obug@^2`, `npm:evil@…` (another package under the key's name), nor `dependencies`
    assert override_pins("Cargo.toml", b'[patch.crates-io]\nfoo = "1.0.0"\n') == []
    assert override_pins("package.json", b"{not json") == []


@each_case(("key", "name"), [
    ("rollup", "rollup"), ("foo@<2", "foo"), ("bar>foo", "foo"), ("@s/a@^1", "@s/a"), ("@s/p>@s/c@1", "@s/c"),
    ("**/foo", "foo"), ("parent/foo", "foo"), ("@s/parent/@s/name", "@s/name"), ("a@1>b@2", "b")])
def test_override_key_names_its_last_package(key: str, name: str) -> None:
    assert _package(key) == name


def test_override_bump_is_named_and_still_reviewed(tmp_path: Path) -> None:
    edits = {"pnpm-workspace.yaml": {"rollup: 4.62.4": "rollup: 4.62.5", "debug: npm:obug@^2": "debug: npm:obug@^3"},
             "web/package.json": {'"**/minimist": "1.2.8"': '"**/minimist": "1.2.6"'}}
    repo, base, head = edited_commits(tmp_path, {"pnpm-workspace.yaml": WORKSPACE, "web/package.json": PACKAGE}, edits)
    delta = _tree(repo, base, head)
    assert {(c.manifest, c.name, c.from_version, c.to_version, c.change) for c in delta.changes} == {
        ("pnpm-workspace.yaml", "rollup", "4.62.4", "4.62.5", "upgraded"),
        ("web/package.json", "minimist", "1.2.8", "1.2.6", "downgraded")}  # the `npm:` alias moves no named pin
    assert _partial(delta, "pnpm-workspace.yaml") and _partial(delta, "web/package.json")  # reviewed, as before


def test_yarn_npm_protocol_resolution_bump_is_named_and_still_reviewed(tmp_path: Path) -> None:
    """grafana/pyroscope d3ba21f (Renovate, "update dependency js-yaml to v4.3.1 [security]"): a yarn resolution
    written `npm:4.3.0` moved to `npm:js-yaml@4.3.1`, the same package. It named nothing (`partial` alone); an
    `npm:` value naming another package still names no pin."""
    edits = {"web/package.json": {'"npm:4.3.0"': '"npm:js-yaml@4.3.1"', '"npm:evil@1.1.18"': '"npm:evil@1.1.19"'}}
    repo, base, head = edited_commits(tmp_path, {"web/package.json": PACKAGE}, edits)
    delta = _tree(repo, base, head)
    assert {(c.name, c.from_version, c.to_version, c.change) for c in delta.changes} == {
        ("js-yaml", "4.3.0", "4.3.1", "upgraded")}
    assert _partial(delta, "web/package.json")  # an override section changed: reviewed, as before


LOCK_HUNK = [
    "@@ -62,19 +62,14 @@",
    "       }",
    "     },",
    '     "../deps/phoenix": {',
    '-      "version": "1.7.21",',
    '-      "license": "MIT"',
    '+      "version": "0.0.1"',
    "     },",
    '     "packages/ui": {',
    '-      "version": "1.0.0",',
    '+      "version": "1.1.0",',
    '       "dependencies": {',
    "@@ -1724,7 +1720,7 @@",
    "     },",
    '     "node_modules/@eslint/eslintrc/node_modules/js-yaml": {',
    '-      "version": "4.1.0",',
    '+      "version": "4.1.1",',
    '       "dev": true,',
]


def _hunk_pairs(raw: list[str]) -> tuple[set[tuple[str, str]], set[tuple[str, str]]]:
    old, new = sides(raw)
    return ({(d.name, d.version) for d in package_lock_hunks("npm", "assets/package-lock.json", old)},
            {(d.name, d.version) for d in package_lock_hunks("npm", "assets/package-lock.json", new)})


def test_package_lock_hunk_local_package_entries_are_the_projects_own() -> None:
    assert _hunk_pairs(LOCK_HUNK) == ({("js-yaml", "4.1.0")}, {("js-yaml", "4.1.1")})


@each_case(("key", "name"), [
    ('"@types/node": {', "@types/node"),  # a scoped name: a v1 lockfile's entry, read as one
    ('"dependencies": {', "dependencies"),  # no path: a v1 entry's key
    ('"packages/app/node_modules/z": {', "z"),  # a member's own node_modules: a package
    ('"node_modules/x/../y": {', None),  # neither a package key nor a plain folder: fails closed
])
def test_package_lock_hunk_look_alike_keys_do_not_hide_a_version_move(key: str, name: str | None) -> None:
    raw = ["@@ -1,4 +1,4 @@", f"     {key}", '-      "version": "1.0.0",', '+      "version": "1.0.1",', "     },"]
    if name is None:
        with pytest.raises(ManifestError):
            _hunk_pairs(raw)
    else:
        assert _hunk_pairs(raw) == ({(name, "1.0.0")}, {(name, "1.0.1")})


def test_package_lock_hunk_version_without_its_key_still_fails_closed() -> None:
    with pytest.raises(ManifestError):
        _hunk_pairs(["@@ -1,3 +1,3 @@", '       "dev": true,', '-      "version": "1.0.0",',
                     '+      "version": "1.0.1",'])


def test_new_readers_are_linear_on_hostile_lines() -> None:
    # each pattern and walk added here, fed 1 MiB lines built against it: a linear reader takes milliseconds
    sha = "a" * 40
    lines: list[tuple[Callable[[], object], str]] = [
        (lambda: _package("@a/" * 350_000 + ">" + "x/" * 500_000), "override key"),
        (lambda: package_lock_hunks("npm", "package-lock.json", ('    "' + "a/" * 500_000 + '": [').encode()),
         "package-lock key"),
        (lambda: parse_mix_lock("mix.lock", f'  "x": {{:git, "u", "{sha}", [tag:{" " * 1_000_000}x]}}'.encode()),
         "mix tag"),
        (lambda: override_pins("package.json", json.dumps({"overrides": {"x": "1" + "-1" * 500_000 + "!"}}).encode()),
         "override version"),
    ]
    for call, what in lines:
        within_cpu(0.5, call, what)
