"""An Xcode project's Swift packages (`*.xcodeproj/project.pbxproj`): the repositories Xcode and `xcodebuild` fetch.

An app's packages are not in a `Package.swift` but in the project file, as `XCRemoteSwiftPackageReference` objects
(`repositoryURL = "https://github.com/apple/swift-log.git"; requirement = { kind = upToNextMajorVersion;
minimumVersion = 1.5.3; };`). `xcodebuild` resolves them anew when they no longer match the `Package.resolved` beside
the project, so a reference added or pointed at a fork in the project file alone brings in a package (red team 29,
tests/test_redteam29_xcode_packages.py: the file is `src`, read by no delta, and `gate --enable deps` allowed it).
Each reference is a `swift` dependency named by its repository as `Package.resolved`'s pins are (`pin_name`), its
requirement written as `Package.swift`'s reader writes one (`^1.5.3` up to the next major, `~` the next minor, an
exact version as is, `>=a <b` a range, `branch:main`, a revision as is).

The file is an old-style (OpenStep) property list, parsed here whole (bounded by loaders.MAX_BYTES): a file that does
not parse, or a reference without a URL or a requirement of a kind not read, is a ManifestError (a problem). From a
patch a modified project file is read from its hunks only to see whether a changed line may touch a package (its
keys, a URL, a value split off its key): such a hunk fails closed; any other edit (a source file added) names nothing.
"""

from __future__ import annotations

import re
from typing import Any

from gatekeeper.deps.hunks import CHANGED
from gatekeeper.deps.loaders import text
from gatekeeper.deps.model import Dependency, ManifestError
from gatekeeper.deps.swift import pin_name
from gatekeeper.lazy_pattern import lazy

_TOKEN = lazy(r'\s+|//[^\n]*|/\*.*?\*/|"(?:[^"\\]|\\.)*"|[A-Za-z0-9_$+/:.\-]+|[{}()=;,]|.', re.DOTALL)
_MAX_DEPTH = 64
# The escapes of a quoted string, as Xcode's property list reader takes them (`\U0053` is `S`, `\123` octal): a
# reference's `isa` may be spelled with them.
_ESCAPE = lazy(r"\\(U[0-9A-Fa-f]{4}|[0-7]{1,3}|.)", re.DOTALL)
_NAMED = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "f": "\f", "v": "\v"}
_KINDS = {"upToNextMajorVersion": "^", "upToNextMinorVersion": "~", "exactVersion": ""}
# A changed hunk line that may touch a package: its objects' and keys' names, a URL, a value split from its key, or
# an escape (`\\U0053` spells a name without its letters).
_PACKAGE_LINE = lazy(r"Package|\\U|\\[0-7]|repositoryURL|requirement|minimumVersion|maximumVersion|\bkind\b|"
                           r"\bbranch\b|\brevision\b|\bversion\b|packageReferences|packageProductDependencies|"
                           r"relativePath|://|^\s*=|^[^=/]*[^;,{}()\s]\s*;\s*$")


def _tokens(body: str) -> list[str]:
    out = []
    for m in _TOKEN.finditer(body):
        token = m.group()
        if token.isspace() or token.startswith(("//", "/*")):
            continue
        if token == "/" and body.startswith("/*", m.start()):
            raise ManifestError("an unterminated /* comment")
        if token == '"':
            raise ManifestError("an unterminated string")
        out.append(token)
    return out


def _value(tokens: list[str], at: int, depth: int) -> tuple[Any, int]:
    if depth > _MAX_DEPTH:
        raise ManifestError("nested too deeply")
    if at >= len(tokens):
        raise ManifestError("ends inside a value")
    token = tokens[at]
    if token == "{":
        found: dict[str, Any] = {}
        at += 1
        while at < len(tokens) and tokens[at] != "}":
            key, at = _value(tokens, at, depth + 1)
            if not isinstance(key, str) or at >= len(tokens) or tokens[at] != "=":
                raise ManifestError("a dictionary entry without `=`")
            value, at = _value(tokens, at + 1, depth + 1)
            if at >= len(tokens) or tokens[at] != ";":
                raise ManifestError("a dictionary entry without `;`")
            found[key] = value
            at += 1
        return found, at + 1
    if token == "(":
        items: list[Any] = []
        at += 1
        while at < len(tokens) and tokens[at] != ")":
            item, at = _value(tokens, at, depth + 1)
            items.append(item)
            if at < len(tokens) and tokens[at] == ",":
                at += 1
        return items, at + 1
    if token in "{}()=;,":
        raise ManifestError(f"an unexpected {token!r}")
    if token.startswith('"'):
        return _ESCAPE.sub(_unescape, token[1:-1]), at + 1
    return token, at + 1


def _unescape(m: re.Match[str]) -> str:
    escape = m.group(1)
    if escape[0] == "U" and len(escape) == 5:
        return chr(int(escape[1:], 16))
    if escape[0] in "01234567":
        return chr(int(escape, 8))
    return _NAMED.get(escape, escape)


def _requirement(found: Any) -> str:
    if not isinstance(found, dict) or not isinstance(kind := found.get("kind"), str):
        raise ManifestError("a package requirement without a kind")
    if kind in _KINDS and isinstance(low := found.get("minimumVersion" if kind != "exactVersion" else "version"), str):
        return f"{_KINDS[kind]}{low}"
    if kind == "versionRange" and isinstance(low := found.get("minimumVersion"), str) \
            and isinstance(high := found.get("maximumVersion"), str):
        return f">={low} <{high}"
    if kind in ("branch", "revision") and isinstance(ref := found.get(kind), str):
        return f"branch:{ref}" if kind == "branch" else ref
    raise ManifestError(f"a package requirement of a kind not read ({kind!r})")


def parse_pbxproj(path: str, data: bytes) -> list[Dependency]:
    if b"SwiftPackage" not in data and b"\\" not in data:
        return []  # no reference can be spelled without the type's name or an escape (a large project: ~0.1 s a MiB)
    tokens = _tokens(text(data))
    root, at = _value(tokens, 0, 0)
    if at != len(tokens) or not isinstance(root, dict) or not isinstance(objects := root.get("objects", {}), dict):
        raise ManifestError("not an Xcode project file")
    out: list[Dependency] = []
    for obj in objects.values():
        kind = obj.get("isa") if isinstance(obj, dict) else None
        if kind == "XCRemoteSwiftPackageReference":
            url = obj.get("repositoryURL")
            if not isinstance(url, str) or not url:
                raise ManifestError("a remote package reference without a repositoryURL")
            out.append(Dependency("swift", pin_name(url), _requirement(obj.get("requirement")), path, True, "runtime"))
        elif kind == "XCLocalSwiftPackageReference":
            where = obj.get("relativePath")
            if not isinstance(where, str):
                raise ManifestError("a local package reference without a relativePath")
            out.append(Dependency("swift", f"path:{where}", "", path, True, "runtime"))
    return out


def pbxproj_hunks(path: str, data: bytes) -> list[Dependency]:
    """Nothing, when no changed line of the hunks may touch a package; else a ManifestError (read with --tree)."""
    for raw in text(data).splitlines():
        if raw.startswith(CHANGED) and _PACKAGE_LINE.search(raw.lstrip(CHANGED)):
            raise ManifestError(f"a changed line may move a Swift package: {raw.lstrip(CHANGED).strip()[:80]!r}")
    return []
