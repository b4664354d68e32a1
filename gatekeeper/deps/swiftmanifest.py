"""Swift packages: `Package.swift`'s `.package(...)` calls, read by their literal arguments.

Package.swift is a Swift program, but SwiftPM's dependency declarations are calls Renovate and Dependabot edit in
place: `.package(url: "https://github.com/o/r", from: "1.2.0")`, `exact:`, `branch:`, `revision:`, a range
(`"1.0.0"..<"2.0.0"`, `"1.0.0"..."1.2.0"`), a requirement (`.upToNextMajor(from: "1.0.0")`, `.upToNextMinor(…)`,
`.exact(…)`, `.branch(…)`, `.revision(…)`), a registry `id:` or a local `path:`; its `traits:` list is kept in the
residue. A library commits no
`Package.resolved` (SwiftPM's guidance), so there this file is the only one naming its dependencies.

Each call is read only when every argument is such a literal; a `.package(` that is not read that way (a variable, an
interpolated string) makes the file unreadable (a problem), never skipped. A call on a line that starts
with `//` is a comment and is not read. What the reader leaves (`residue`: the program without the calls it read)
is compared between the sides (overrides.py), so build logic edited beside a bump is a problem, as in MODULE.bazel.
The requirement is kept in its kind: `from:` is `^1.2.0`, `.upToNextMinor` `~1.2.0`, `exact:` `1.2.0`, a branch
`branch:main`, so a move between kinds at one number is `changed` (reviewed), never "no change".
"""

from __future__ import annotations

import bisect
import re

from gatekeeper.deps.loaders import text
from gatekeeper.deps.model import Dependency, ManifestError
from gatekeeper.deps.swift import pin_name
from gatekeeper.lazy_pattern import lazy

# `.package(` and its arguments: a string literal without escapes, one level of parentheses (a requirement call), or
# any other character but a quote or a parenthesis. Each alternative starts with its own character, so a failed
# attempt ends at the next parenthesis or line break and the search stays linear in the file.
_CALL = lazy(r'\.package\s*+\(((?:[^()"]++|"[^"\\\n]*+"|\([^()]*+\))*+)\)')
_OPENING = lazy(r"\.package\s*+\(")
_STRING = r'"([^"\\\n]*+)"'
# Swift 6.1's package traits (`traits: [.defaults, "Feature"]`): which of the package's features it builds. Not a
# version, and kept in the residue, so traits edited beside a bump are a problem.
_TRAITS = r"traits\s*+:\s*+\[[^\[\]()]*+\]"
_ARG = lazy(rf"""\s*+(?:(?P<traits>{_TRAITS})|(?:(\w++)\s*+:\s*+)?(?:{_STRING}(?:\s*+(\.\.[.<])\s*+{_STRING})?"""
            rf"""|\.(upToNextMajor|upToNextMinor|exact|branch|revision)\s*+\(\s*+(?:from\s*+:\s*+)?{_STRING}\s*+\)))"""
            r"""\s*+(?:,|$)""")
_TRAITS_ARG = lazy(_TRAITS)
_COMMENT_LINE = lazy(r"^[ \t]*+//[^\n]*+", re.MULTILINE)
# What a changed line may hold besides its call: a comma, and a comment to the end of the line.
_LINE_REST = lazy(r"^,?+(?: ?+//.*+)?+$")
_WHERE = frozenset({"url", "id", "path", "name"})
_KINDS = {"from": "^", "upToNextMajor": "^", "upToNextMinor": "~", "exact": "", "revision": "", "branch": "branch:"}


def _comments(body: str) -> tuple[list[int], list[int]]:
    """The (starts, ends) of the lines that start with `//`, in order: found in one pass, so a line of many calls
    stays linear."""
    spans = [(m.start(), m.end()) for m in _COMMENT_LINE.finditer(body)]
    return [s for s, _ in spans], [e for _, e in spans]


def _commented(comments: tuple[list[int], list[int]], at: int) -> bool:
    i = bisect.bisect_right(comments[0], at) - 1
    return i >= 0 and at < comments[1][i]


def _requirement(label: str | None, args: tuple[str | None, ...]) -> str | None:
    """The version a requirement argument names, in its kind; None when the argument names a location."""
    value, dots, upper, call, called = args
    if call is not None and label is None:
        return f"{_KINDS[call]}{called}"
    if dots is not None and label is None:
        return f">={value} {'<' if dots == '..<' else '<='}{upper}"
    if label in _KINDS and dots is None and call is None:
        return f"{_KINDS[label]}{value}"
    return None


def _call(path: str, arguments: str) -> Dependency:
    where: dict[str, str] = {}
    version: str | None = None
    traits = False
    rest = arguments.strip()
    while rest:
        arg = _ARG.match(rest)
        if arg is None:
            raise ManifestError(f"a .package argument that is not a literal: {rest[:80]!r}")
        label, values = arg.group(2), arg.group(3, 4, 5, 6, 7)
        if arg.group("traits") is not None and not traits:
            traits = True  # the residue keeps it; each argument is taken once, so the loop ends within a few
        elif label in _WHERE and label not in where and values[1] is None and values[3] is None:
            where[label] = values[0] or ""
        elif version is None and (found := _requirement(label, values)) is not None:
            version = found
        else:
            raise ManifestError(f"a .package argument not read: {rest[:80]!r}")
        rest = rest[arg.end():].strip()
    if "url" in where and version is not None:
        return Dependency("swift", pin_name(where["url"]), version, path, True, "runtime")
    if "id" in where and version is not None:  # a package registry's `scope.name`
        return Dependency("swift", where["id"], version, path, True, "runtime")
    if "path" in where and version is None:  # a local package: no version, its path names it
        return Dependency("swift", f"path:{where['path']}", "", path, True, "runtime")
    raise ManifestError(f"a .package call without a location and requirement: {arguments.strip()[:80]!r}")


def _calls(body: str) -> list[tuple[int, int, str]]:
    """(start, end, arguments) of every `.package(...)` call not commented out; ManifestError for an opening that
    no call of literal arguments starts at."""
    comments = _comments(body)
    calls = [(m.start(), m.end(), m.group(1)) for m in _CALL.finditer(body) if not _commented(comments, m.start())]
    starts = {start for start, _, _ in calls}
    for opening in _OPENING.finditer(body):
        if opening.start() not in starts and not _commented(comments, opening.start()):
            line = body.count("\n", 0, opening.start()) + 1
            raise ManifestError(f"line {line}: a .package call whose arguments are not literals")
    return calls


def parse_package_swift(path: str, data: bytes) -> list[Dependency]:
    """Every `.package(...)` call of literal arguments, named as Package.resolved names its pin."""
    return [_call(path, arguments) for _, _, arguments in _calls(text(data))]


def residue(data: bytes) -> str:
    """The program without the calls parse_package_swift reads, blanks collapsed: anything else edited beside a
    bump (a target's `unsafeFlags`, a plugin, a `#if`) must not ride on the bump's explanation."""
    body = text(data)
    kept, at = [], 0
    for start, end, arguments in _calls(body):
        kept.append(body[at:start])
        kept += (" ".join(t.split()) for t in _TRAITS_ARG.findall(arguments))
        at = end
    kept.append(body[at:])
    return " ".join("".join(kept).split())


def package_swift_line(side: list[tuple[str, bool]], index: int) -> list[tuple[str, ...]]:
    """A changed line that is one whole `.package(...)` call (a trailing comma and comment allowed) and nothing else;
    any other changed line, or one below a triple quote of its hunk (a multi-line string), is refused."""
    line = side[index][0]
    # The lines above, up to the changed line read before this one: edits.read reads a side's changed lines in order
    # and stops at the first refusal, so each stretch is looked at once and a hunk of many lines stays linear.
    k = index
    while k >= 0 and (k == index or not (side[k][1] and side[k][0].strip())):
        if '"""' in side[k][0]:
            raise ManifestError("a hunk holding a multi-line string: read the whole file (--tree)")
        k -= 1
    calls = _calls(line)
    if len(calls) != 1 or not _LINE_REST.match(residue(line.encode())):
        raise ManifestError(f"not one whole .package call of literal arguments: {line.strip()[:80]!r}")
    dep = _call("", calls[0][2])
    return [(dep.name, dep.version)]
