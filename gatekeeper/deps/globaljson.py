""".NET's `global.json`: the SDK a build runs on and the MSBuild project SDKs it fetches.

`{"sdk": {"version": "9.0.304", "rollForward": "latestFeature"}, "msbuild-sdks": {"Microsoft.Build.Traversal":
"4.1.0"}}`. `dotnet` selects the SDK by `sdk.version` (the tool `dotnet`, as setup-dotnet's `dotnet-version` names it:
Dependabot's "Bump dotnet-sdk from 9.0.303 to 9.0.304", Renovate's "Update dotnet-sdk to v9.0.304") and restores each
`msbuild-sdks` entry from NuGet at its version (Renovate's nuget manager bumps them). A file that is not JSON (the
SDK's reader skips comments; the project's bounded reader does not) is a problem, never a pass.

From a patch, a changed line is read when the hunk shows the object it sits in (`"sdk": {`, `"msbuild-sdks": {`):
the file is a handful of lines, so git's context almost always shows it; else, and for any key the reader does not
know, the file is a `partial` problem (edits.py).
"""

from __future__ import annotations

from gatekeeper.deps.hunkreads import Side  # one side of a hunk, (line, changed)
from gatekeeper.deps.loaders import load_json, mapping, string
from gatekeeper.deps.model import Dependency, ManifestError
from gatekeeper.deps.tools import TOOL
from gatekeeper.lazy_pattern import lazy

SDK = "dotnet"  # the tool's name across the delta (tools.py: setup-dotnet's `dotnet-version`)
# `sdk.workloadVersion` (.NET 9's SDK and later): the workload set `dotnet workload` installs and restores (MAUI,
# Android, iOS, WebAssembly tooling at that set's versions), which Dependabot moves with the SDK ("bump dotnet-sdk from
# 10.0.302 to 10.0.400" writes both, getsentry/sentry-dotnet): a download of its own, read as this tool
WORKLOADS = "dotnet-workload-set"
# `sdk` keys that choose among installed SDKs or word an error, and `test`'s runner: no version of anything fetched
_SETTINGS = {"sdk": frozenset({"rollForward", "allowPrerelease", "errorMessage"}), "test": frozenset({"runner"})}
_PAIR = lazy(r'^\s*+"([^"\\\n]{1,200})"\s*+:\s*+("[^"\\\n]*+"|true|false|null)\s*+,?\s*+$')
_OPEN = lazy(r'^\s*+"([^"\\\n]{1,200})"\s*+:\s*+\{\s*+$')
_BRACE = lazy(r"^\s*+[{}],?\s*+$")


def parse_global_json(path: str, data: bytes) -> list[Dependency]:
    """The SDK's version (the tool `dotnet`), its workload set's and each MSBuild project SDK (NuGet) at its version."""
    doc = mapping(load_json(data), "global.json")
    out: list[Dependency] = []
    sdk = mapping(doc.get("sdk"), "sdk")
    for key, tool in (("version", SDK), ("workloadVersion", WORKLOADS)):
        if (version := sdk.get(key)) is not None:
            if not isinstance(version, str):
                raise ManifestError(f"sdk.{key} is not a string")
            out.append(Dependency(TOOL, tool, version, path, True, "build"))
    for name, value in mapping(doc.get("msbuild-sdks"), "msbuild-sdks").items():
        if not isinstance(value, str) or not name:
            raise ManifestError(f"msbuild-sdks entry {name[:80]!r} is not a name and a version string")
        out.append(Dependency("nuget", name, string(value), path, True, "build"))
    return out


def _object(side: Side, index: int) -> str | None:
    """The key of the object the line at `index` sits in, as the hunk shows it above ("" for the root's `{`);
    None when the hunk does not show it."""
    depth = 0
    for shown, _ in reversed(side[:index]):
        stripped = shown.strip()
        if stripped.startswith("}"):
            depth += 1
        elif (opened := _OPEN.match(shown)) is not None or stripped == "{":
            if depth == 0:
                return opened.group(1) if opened is not None else ""
            depth -= 1
        elif stripped.endswith(("{", "[")) or stripped.startswith("]"):
            return None  # an array or a form this reader does not follow: what it holds is not known
    return None


def global_json_line(side: Side, index: int) -> list[tuple[str, ...]]:
    """A changed line of a global.json hunk: the SDK's `"version"` or `"workloadVersion"` under `"sdk": {`, an entry
    under `"msbuild-sdks": {`, a known setting, a brace or an object's opening; any other line is refused."""
    line = side[index][0]
    if not line.strip() or _BRACE.match(line):
        return []
    if (opened := _OPEN.match(line)) is not None and opened.group(1) in ("sdk", "msbuild-sdks", "test") \
            and _object(side, index) == "":
        return []
    pair = _PAIR.match(line)
    where = _object(side, index) if pair is not None else None
    if pair is None or where is None:
        raise ManifestError(f"not a global.json line under an object the hunk shows: {line.strip()[:80]!r}")
    key, value = pair.group(1), pair.group(2)
    if where == "sdk" and key in ("version", "workloadVersion") and value.startswith('"'):
        return [(SDK if key == "version" else WORKLOADS, value.strip('"'), TOOL)]
    if where == "msbuild-sdks" and value.startswith('"'):
        return [(key, value.strip('"'), "nuget")]
    if key in _SETTINGS.get(where, ()):
        return []
    raise ManifestError(f"a global.json key this reader does not know: {line.strip()[:80]!r}")
