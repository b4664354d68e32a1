"""Classes of misses the thirteenth blind set of bot update commits found (bench/deps_bumps_thirteenth.tsv): a renamed
Cargo dependency whose inline table spans lines (oxc's `miette = { package = "oxc-miette", version = "3.0.0",
features = [` …, which Renovate calls "rust crate miette"), a pnpm-lock.yaml key written as a YAML complex key (elk's
`? '@nuxt/vite-builder@4.4.2(…)'`, over 1,024 characters) from a patch, a pnpm lockfile copy dropped from one scope
onto a copy another scope keeps (rotki's dev `tough-cookie@4.1.2` beside a runtime 4.1.3), a hunk block that changes
only the file's last newline (GitVersion's `-</Project>` `\\ No newline at end of file` `+</Project>`), a PEP 508
list item with a trailing comment from a patch (mitmproxy's `"cryptography>=42.0,<=49.0.0",  # relaxed …`), and,
from the known weak spots, Cargo.lock dependency edges a patch moves onto a version no changed entry explains (a
`partial` problem now, where they read as nothing). Real-shaped files, look-alikes and attacks that must not match;
one git repository per class, the line readers in-process."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.deps.cargo import cargo_line, parse_cargo_toml
from gatekeeper.deps.edits import read
from gatekeeper.deps.hunks import cargo_edge_moves, pnpm_lock_hunks, sides
from gatekeeper.deps.model import ManifestError
from tests.deltas import each_fast, refused
from tests.deltas import partial as _partial
from tests.deltas import patch as _patch
from tests.deltas import tree as _tree
from tests.gitrepo import edited_commits

CARGO = """\
[workspace]
members = ["crates/*"]

[workspace.dependencies]
lazy-regex = "3.6.0" # Lazy regex compilation
markdown = "1.0.0" # Markdown parsing
memchr = "2.8.2" # Fast byte searching
miette = { package = "oxc-miette", version = "3.0.0", features = [
  "fancy-no-syscall",
] } # Error reporting
mimalloc-safe = "0.1.64" # Fast allocator
nonmax = "0.5.5"
"""


def test_renamed_crate_is_named_by_the_crate_it_fetches() -> None:
    by_name = {d.name: d for d in parse_cargo_toml("Cargo.toml", CARGO.encode())}
    assert (by_name["oxc-miette"].version, by_name["oxc-miette"].alias) == ("3.0.0", "miette")
    assert "miette" not in by_name and by_name["memchr"].alias == ""


def test_renamed_crate_bump_tree_and_patch(tmp_path: Path) -> None:
    repo, base, head = edited_commits(tmp_path, {"Cargo.toml": CARGO},
                                      {"Cargo.toml": {'version = "3.0.0"': 'version = "4.0.0"'}})
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert [(c.name, c.alias, c.from_version, c.to_version, c.change) for c in delta.changes] == [
            ("oxc-miette", "miette", "3.0.0", "4.0.0", "upgraded")], delta
        assert not delta.problems


@pytest.mark.parametrize("edit", [
    {'package = "oxc-miette", version = "3.0.0"': 'package = "evil-miette", version = "3.0.1"'},  # retargeted
    {'package = "oxc-miette", ': ""},  # the rename dropped: the key's own crate
    {'memchr = "2.8.2"': 'memchr = { package = "evil-memchr", version = "2.8.2" }'},  # a rename added
])
def test_renamed_crate_pointed_elsewhere_is_another_crate(tmp_path: Path, edit: dict[str, str]) -> None:
    repo, base, head = edited_commits(tmp_path, {"Cargo.toml": CARGO}, {"Cargo.toml": edit})
    tree = _tree(repo, base, head)
    assert {c.change for c in tree.changes} == {"added", "removed"}, tree  # a new direct dependency, reviewed
    patched = _patch(repo, base, head)
    assert _partial(patched, "Cargo.toml") and not patched.changes, patched  # from hunks: only where both sides show it


@pytest.mark.parametrize("edit", [
    {'version = "3.0.0", features = [\n  "fancy-no-syscall",': 'version = "4.0.0", features = [\n  "fancy",'},
    {'"fancy-no-syscall",\n]': '"fancy-no-syscall",\n] , x = 1'},  # the table's other lines changed too
    {'package = "oxc-miette"': 'package = { a = 1 }'},  # no crate's name
])
def test_renamed_crate_look_alikes_fail_closed(tmp_path: Path, edit: dict[str, str]) -> None:
    repo, base, head = edited_commits(tmp_path, {"Cargo.toml": CARGO}, {"Cargo.toml": edit})
    assert _partial(_patch(repo, base, head), "Cargo.toml")


def test_inline_table_reader_joins_only_a_table_it_can_close() -> None:
    lines = [('miette = { package = "oxc-miette", version = "4", features = [', True)] + [('  "a",', False)] * 20
    with pytest.raises(ManifestError):  # never closed within 16 lines: one line, which TOML refuses
        cargo_line(lines + [("] }", False)], 0)
    joined = cargo_line([('x = { version = "1.2", features = [', True), ('"a" ] }', False)], 0)
    assert joined == [("x", "1.2", "cargo", "", "", '{"features": ["a"]}')]  # the features read as its options


PNPM = """\
lockfileVersion: '6.0'

importers:
  .:
    devDependencies:
      jsdom:
        specifier: ^22.1.0
        version: 22.1.0

packages:

  /jsdom@22.1.0:
    resolution: {integrity: sha512-a}
    dependencies:
      tough-cookie: 4.1.2
    dev: true

  /request@2.88.2:
    resolution: {integrity: sha512-b}
    dependencies:
      tough-cookie: 4.1.3

  /tough-cookie@4.1.2:
    resolution: {integrity: sha512-c}
    engines: {node: '>=6'}
    dev: true

  /tough-cookie@4.1.3:
    resolution: {integrity: sha512-d}
    engines: {node: '>=6'}
"""
DROP_DEV_COPY = {"      tough-cookie: 4.1.2\n": "      tough-cookie: 4.1.3\n",
                 "  /tough-cookie@4.1.2:\n    resolution: {integrity: sha512-c}\n    engines: {node: '>=6'}\n"
                 "    dev: true\n\n": ""}
FILES = {"frontend/package.json": '{"devDependencies": {"jsdom": "^22.1.0"}}', "frontend/pnpm-lock.yaml": PNPM}


def test_copy_dropped_onto_another_scopes_copy_is_an_upgrade(tmp_path: Path) -> None:
    repo, base, head = edited_commits(tmp_path, FILES, {"frontend/pnpm-lock.yaml": DROP_DEV_COPY})
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert [(c.name, c.from_version, c.to_version, c.change) for c in delta.changes] == [
            ("tough-cookie", "4.1.2", "4.1.3", "upgraded")], delta


def test_copy_dropped_beside_a_lower_copy_is_a_removal(tmp_path: Path) -> None:
    body = PNPM.replace("4.1.3", "4.1.1")  # the other scope keeps a lower copy: nothing says it took over
    edits = {"  /tough-cookie@4.1.2:\n    resolution: {integrity: sha512-c}\n    engines: {node: '>=6'}\n"
             "    dev: true\n\n": "", "      tough-cookie: 4.1.2\n": ""}
    repo, base, head = edited_commits(tmp_path, {**FILES, "frontend/pnpm-lock.yaml": body},
                                      {"frontend/pnpm-lock.yaml": edits})
    assert [(c.name, c.to_version, c.change) for c in _tree(repo, base, head).changes] == [
        ("tough-cookie", None, "removed")]


def test_direct_copy_dropped_stays_a_removal(tmp_path: Path) -> None:
    files = {**FILES, "frontend/package.json": '{"devDependencies": {"jsdom": "^22.1.0", "tough-cookie": "4.1.2"}}'}
    edits = {"frontend/pnpm-lock.yaml": DROP_DEV_COPY,
             "frontend/package.json": {', "tough-cookie": "4.1.2"': ""}}
    repo, base, head = edited_commits(tmp_path, files, edits)
    assert ("tough-cookie", "4.1.2", None, "removed") in {
        (c.name, c.from_version, c.to_version, c.change) for c in _tree(repo, base, head).changes}


PROPS = """\
<Project>
  <ItemGroup>
    <PackageVersion Include="Microsoft.Build" Version="17.3.2" />
    <PackageVersion Include="MSBuild.ProjectCreation" Version="8.3.0" />
    <PackageVersion Include="NUnit" Version="3.13.3" />
  </ItemGroup>
</Project>"""


def test_last_newline_block_is_context(tmp_path: Path) -> None:
    path = "src/Directory.Packages.props"
    repo, base, head = edited_commits(tmp_path, {path: PROPS}, {path: {'"8.3.0" />': '"9.0.1" />',
                                                                       "</Project>": "</Project>\n"}})
    delta = _patch(repo, base, head)
    assert [(c.name, c.from_version, c.to_version) for c in delta.changes] == [
        ("MSBuild.ProjectCreation", "8.3.0", "9.0.1")], delta
    assert not delta.problems


def test_block_whose_text_moves_is_still_read() -> None:
    def reader(side: list[tuple[str, bool]], index: int) -> list[tuple[str, ...]]:
        raise ManifestError(side[index][0])

    same = b"@@ -1,2 +1,2 @@\n a\n-</Project>\n\\ No newline at end of file\n+</Project>\n"
    assert read("nuget", reader, "p.props", same) == ([], [])
    for hunk in (b"@@ -1 +1 @@\n-</Project>\n\\ No newline at end of file\n+</Project >\n",
                 b"@@ -1,2 +1,2 @@\n-a\n-b\n\\ No newline at end of file\n+b\n+a\n",
                 b"@@ -1 +1,2 @@\n-x\n\\ No newline at end of file\n+x\n+y\n",
                 b"@@ -1 +1 @@\n-x\n+x\n"):  # the same text without git's marker: not the last newline
        with pytest.raises(ManifestError):
            read("nuget", reader, "p.props", hunk)


def test_requirement_with_a_trailing_comment_from_a_patch(tmp_path: Path) -> None:
    body = ('[project]\nname = "mitmproxy"\ndependencies = [\n    "brotli>=1.0,<=1.2.0",\n'
            '    "cryptography>=42.0,<=49.0.0",  # relaxed upper bound here to get security fixes\n'
            '    "flask>=3.0,<=3.1.3",\n]\n')
    repo, base, head = edited_commits(tmp_path, {"pyproject.toml": body}, {"pyproject.toml": {"49.0.0": "50.0.0"}})
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert [(c.name, c.to_version) for c in delta.changes] == [("cryptography", "<=50.0.0,>=42.0")], delta
        assert not delta.problems


def _entry(name: str, version: str, deps: list[str], member: bool = False) -> str:
    source = "" if member else 'source = "registry+https://github.com/rust-lang/crates.io-index"\nchecksum = "ab"\n'
    listed = "dependencies = [\n" + "".join(f' "{d}",\n' for d in deps) + "]\n" if deps else ""
    return f'[[package]]\nname = "{name}"\nversion = "{version}"\n{source}{listed}\n'


LOCK = ("version = 4\n\n" + _entry("app", "0.1.0", ["serde", "syn 2.0.119", "tokio"], member=True)
        + _entry("errno", "0.3.14", ["libc", "windows-sys 0.61.2"]) + _entry("libc", "0.2.180", [])
        + _entry("serde", "1.0.228", []) + _entry("syn", "2.0.119", []) + _entry("syn", "3.0.3", [])
        + _entry("tokio", "1.49.0", ["libc"]) + _entry("windows-sys", "0.52.0", [])
        + _entry("windows-sys", "0.61.2", []))


@pytest.mark.parametrize("edit", [
    {'"syn 2.0.119",\n "tokio"': '"syn 3.0.3",\n "tokio"'},  # a workspace member moved onto a locked copy
    {'"libc",\n "windows-sys 0.61.2"': '"libc",\n "windows-sys 0.52.0"'},  # a kept release moved down
])
def test_cargo_lock_edge_moved_onto_a_held_version_is_partial_from_a_patch(tmp_path: Path,
                                                                           edit: dict[str, str]) -> None:
    # beside a bump the hunks do read: still named, and the file is reviewed
    edit = {**edit, 'name = "serde"\nversion = "1.0.228"': 'name = "serde"\nversion = "1.0.229"'}
    repo, base, head = edited_commits(tmp_path, {"Cargo.lock": LOCK}, {"Cargo.lock": edit})
    delta = _patch(repo, base, head)
    assert _partial(delta, "Cargo.lock") and "dependency edge" in delta.problems[0].msg
    assert ("serde", "1.0.229") in {(c.name, c.to_version) for c in delta.changes}


@pytest.mark.parametrize("edit", [
    # the entry that lists the edge moved: a new release depends on another copy
    {'name = "errno"\nversion = "0.3.14"': 'name = "errno"\nversion = "0.3.15"',
     '"libc",\n "windows-sys 0.61.2"': '"libc",\n "windows-sys 0.52.0"'},
    # the edge's copies themselves moved (both written in the hunks)
    {'"syn 2.0.119",\n "tokio"': '"syn 2.0.120",\n "tokio"', 'name = "syn"\nversion = "2.0.119"':
     'name = "syn"\nversion = "2.0.120"'},
    # a second copy locked: every edge spells its version out, the same copy
    {'"libc",\n]\n\n[[package]]\nname = "windows-sys"\nversion = "0.52.0"':
     '"libc",\n]\n\n[[package]]\nname = "windows-sys"\nversion = "0.52.0"', '"tokio",\n]': '"tokio",\n "libc",\n]'},
])
def test_cargo_lock_edges_entries_explain_are_not_a_problem(tmp_path: Path, edit: dict[str, str]) -> None:
    repo, base, head = edited_commits(tmp_path, {"Cargo.lock": LOCK}, {"Cargo.lock": edit})
    assert not _partial(_patch(repo, base, head), "Cargo.lock")


def test_cargo_lock_bare_edge_gaining_its_version() -> None:
    raw = ["@@ -1,5 +1,5 @@", ' name = "errno"', ' version = "0.3.14"', " dependencies = [", '- "libc",',
           '+ "libc 0.2.180",', " ]"]
    assert cargo_edge_moves(raw) is None
    assert cargo_edge_moves(raw[:4] + ['- "libc 0.2.179",'] + raw[5:]) == '"libc 0.2.179",'


PEERS = "(@babel/plugin-syntax-jsx@7.27.1(@babel/core@7.29.0))" + "(@types/node@25.8.0)" * 60  # over 1,024 characters


def _complex_key(version: str) -> str:
    return (f"  ? '@nuxt/vite-builder@{version}{PEERS}'\n  : dependencies:\n      '@nuxt/kit': {version}\n"
            f"      vite: 7.3.1\n\n")


def test_pnpm_complex_key_from_a_patch(tmp_path: Path) -> None:
    # pnpm writes a key over 1,024 characters as a YAML complex key (elk's `? '@nuxt/vite-builder@4.4.2(…)'`): its
    # snapshot's hunk failed the whole file closed
    package = "  '@nuxt/vite-builder@{}':\n    resolution: {{integrity: sha512-a}}\n\n"
    body = ("lockfileVersion: '9.0'\n\npackages:\n\n" + package.format("4.4.2") + "snapshots:\n\n"
            + _complex_key("4.4.2") + "  vite@7.3.1:\n    dependencies: {}\n")
    edit = {_complex_key("4.4.2"): _complex_key("4.4.6"), package.format("4.4.2"): package.format("4.4.6")}
    repo, base, head = edited_commits(tmp_path, {"pnpm-lock.yaml": body}, {"pnpm-lock.yaml": edit})
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert [(c.name, c.from_version, c.to_version) for c in delta.changes] == [
            ("@nuxt/vite-builder", "4.4.2", "4.4.6")], delta
        assert not delta.problems
    hunk = ["@@ -1,2 +1,2 @@", "-" + _complex_key("4.4.2").split("\n")[0], "+" + _complex_key("4.4.6").split("\n")[0],
            "   : dependencies:"]
    assert [[(d.name, d.version) for d in pnpm_lock_hunks("l.yaml", side)] for side in sides(hunk)] == [
        [("@nuxt/vite-builder", "4.4.2")], [("@nuxt/vite-builder", "4.4.6")]]


@each_case("line", [
    "  ? '@nuxt/vite-builder@4.4.6(a)",  # the key runs on to the next line: not read from the hunk
    '  ? "@nuxt/vite-builder@4.4.6"',
    "  ? '@nuxt/vite-builder@4.4.6' # x",
    "  ? [a@1.0.0]",
])
def test_pnpm_complex_key_look_alikes_fail_closed(line: str) -> None:
    with pytest.raises(ManifestError):
        pnpm_lock_hunks("pnpm-lock.yaml", sides(["@@ -1 +1 @@", "+" + line])[1])


def test_new_readers_are_linear_on_hostile_lines() -> None:
    # each pattern and walk added here, fed 1 MiB input built against it: a linear reader takes milliseconds
    # 20,000 marked blocks (a walk of the hunk per block would take 8 * 10^8 steps; the hunk reader itself is
    # linear but not cheap, so not 1 MiB of them on a loaded machine)
    many_blocks = b"@@ -1 +1 @@\n" + b"-x\n\\ No newline\n+x\n a\n" * 20_000
    calls: list[tuple[Callable[[], object], str]] = [
        (lambda: cargo_edge_moves(["@@ -1 +1 @@", '- "' + "a" * 1_000_000 + " 1 (" + '"' * 1000 + '",']), "edge"),
        (lambda: cargo_edge_moves(["@@ -1 +1 @@"] + ['+ "a",', '- "a 1",'] * 50_000), "edges"),
        (lambda: read("nuget", lambda side, i: [], "p.props", many_blocks), "same-text blocks"),
        (lambda: refused(lambda: pnpm_lock_hunks("l.yaml", ("\0  ? 'a@1" + "(" * 1_000_000 + " '").encode())),
         "complex key"),
        (lambda: refused(lambda: cargo_line([("x = {" + "[" * 500_000, True)] + [("[" * 1000, False)] * 20, 0)),
         "inline table"),
    ]
    each_fast(calls, 2)
