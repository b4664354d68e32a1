"""NuGet dependency edits one line of a hunk shows: an MSBuild `<PackageReference>`/`<PackageVersion>` (or a project
SDK's line) and a packages.config `<package>`. Read as edits.py reads every manifest's hunk lines (its LineReader):
fail closed, a line that is not one plain reference raises ManifestError.
"""

from __future__ import annotations

from gatekeeper.deps import nuget
from gatekeeper.deps.edits import SECTION_MARK, with_options
from gatekeeper.deps.hunkreads import Side  # one side of a hunk, (line, changed)
from gatekeeper.deps.model import ManifestError, PartlyShown
from gatekeeper.lazy_pattern import lazy

_MSBUILD = lazy(r'^\s*<(?:PackageReference|PackageVersion|GlobalPackageReference)((?:\s+\w+\s*=\s*"[^"]*")+)'
                r"\s*/?>\s*$")
_MSBUILD_ATTR = lazy(r'(\w+)\s*=\s*"([^"]*)"')
_MSBUILD_KEYS = frozenset({"Include", "Update", "Version", "VersionOverride", "PrivateAssets", "IncludeAssets",
                           "ExcludeAssets"})
# An item may carry metadata of the project's own as attributes (VerifyTests/Verify's `Pinned="true"` on a
# PackageVersion): NuGet reads none of it. An item operation (`Remove`, `Exclude`), or a key NuGet reads spelled in
# another case, is refused. The item's `Condition` (Tyrrrz/CliWrap's `Condition="$([MSBuild]::IsTargetFramework…"`
# on a netstandard2.0 polyfill) is its line's section: a version moved under one unchanged condition is read, one
# whose condition changed, was added or dropped moves between sections and is refused.
_MSBUILD_SIGNIFICANT = frozenset(k.lower() for k in _MSBUILD_KEYS) | {"condition", "remove", "exclude"}
# NuGet also writes exact and interval versions: `[1.2.3]`, `[1.0,2.0)`.
_NUGET_RANGE = lazy(r"^[\[(]?\s*\d[\w.+-]*\s*(?:,\s*(?:\d[\w.+-]*)?\s*)?[\])]?$")


# A UTF-8 XML declaration, with or without the BOM before it (getsentry/sentry-dotnet's Dependabot "bump jQuery from
# 3.4.1 to 3.5.0" dropped packages.config's BOM beside the bump): the same document either way, no dependency; any
# other encoding or version is refused (the file would read otherwise).
_DECLARATION = lazy(r"""^\ufeff?<\?xml\s++version\s*+=\s*+(["'])1\.0\1(?:\s++encoding\s*+=\s*+(["'])(?i:utf-8)\2)?"""
                    r"""(?:\s++standalone\s*+=\s*+(["'])(?:yes|no)\3)?\s*+\?>\s*+$""")


def msbuild_line(side: Side, index: int) -> list[tuple[str, ...]]:
    """`<PackageReference Include="X" Version="Y" />` (or PackageVersion): name and version on one line; a
    project SDK's line (nuget.sdk_line); a UTF-8 XML declaration (_DECLARATION) holds none."""
    line = side[index][0]
    if _DECLARATION.match(line) is not None:
        return []
    if (sdks := nuget.sdk_line(line)) is not None:
        return [tuple(sdk) for sdk in sdks]
    if (named := _version_property(side, index)) is not None:
        raise PartlyShown(f"the property {named[0][:80]!r} moved: the items using it are not in the patch", [named])
    m = _MSBUILD.match(line)
    attrs = dict(_MSBUILD_ATTR.findall(m.group(1))) if m else {}
    name = attrs.get("Include") or attrs.get("Update")
    # a project's override of a central version; both on one line is left to --tree, which knows which wins
    version = attrs.get("Version", "") if "VersionOverride" not in attrs else \
        attrs["VersionOverride"] if "Version" not in attrs else ""
    other = [k for k in _MSBUILD_ATTR.findall(m.group(1)) if k[0] not in _MSBUILD_KEYS | {"Condition"}] if m else []
    if m is None or not name or SECTION_MARK in name or any(k.lower() in _MSBUILD_SIGNIFICANT for k, _ in other) \
            or len(attrs) != len(_MSBUILD_ATTR.findall(m.group(1))) or not _NUGET_RANGE.match(version.strip()):
        raise ManifestError(f"not a one-line package reference: {line.strip()[:80]!r}")
    # as written but its ends: blanks inside its quoted strings are MSBuild's to compare (`'a  b'` is not `'a b'`)
    condition = attrs.get("Condition", "").strip()
    pair = (f"{condition}{SECTION_MARK}{name}" if condition else name, version.strip())
    return [with_options(pair, "nuget", nuget.assets({k: attrs[k] for k in nuget.ASSETS if k in attrs}))]


_PROPERTY = lazy(r"^\s*<([A-Za-z_][\w.-]*)>\s*([^<>&$\s]+)\s*</\1>\s*$")
_ELEMENT = lazy(r"^\s*<([A-Za-z_][\w.-]*)>[^<>]*</\1>\s*$")  # another property: `<NoWarn>$(NoWarn),SA1</NoWarn>`
_REACH = 64
_GROUP_EDGE = lazy(r"^\s*</?PropertyGroup>\s*$")
_COMMENT = lazy(r"^\s*(?:<!--(?:(?!-->).)*-->)?\s*$")  # a blank line or one whole comment
# MSBuild's and the SDK's own settings named so: the project's, a tool's or a language's version, no package's
_OWN_VERSIONS = frozenset(v.lower() for v in (
    "Version", "VersionPrefix", "VersionSuffix", "PackageVersion", "AssemblyVersion", "FileVersion",
    "InformationalVersion", "LangVersion", "TargetFrameworkVersion", "RuntimeFrameworkVersion", "ApplicationVersion",
    "ApplicationDisplayVersion", "VisualStudioVersion", "MinimumVisualStudioVersion", "ToolsVersion", "ProductVersion",
    "NetCoreTargetingPackRootVersion", "TypeScriptToolsVersion", "AnalysisLevelVersion", "SupportedOSPlatformVersion",
    "TargetPlatformVersion", "TargetPlatformMinVersion", "WindowsTargetPlatformVersion", "PlatformToolsetVersion"))


def _version_property(side: Side, index: int) -> tuple[str, str] | None:
    """`$(XVersion)` and its value: a changed `<XVersion>1.2.0</XVersion>` line of a `<PropertyGroup>` the hunk shows
    it in as far as it shows anything (one-line elements, comments and the group's edges only, a context line at
    least; round 55): the items using it are elsewhere. None for any other line."""
    m = _PROPERTY.match(side[index][0])
    if m is None or not m.group(1).lower().endswith("version") or m.group(1).lower() in _OWN_VERSIONS \
            or not _NUGET_RANGE.match(m.group(2)):
        return None
    # _REACH lines each way at most: a longer group is left unread, so many changed lines cost linear time
    window = side[max(index - _REACH, 0):index + _REACH + 1]
    if all(changed for _, changed in window) or any(("<!--" in text or "-->" in text) and _COMMENT.match(text) is None
                                                    or "CDATA" in text for text, _ in window):
        return None  # nothing shown around it, or a comment spanning lines or CDATA: the line may be text
    for step in (-1, 1):
        at, walked = index + step, 0
        while 0 <= at < len(side) and not _GROUP_EDGE.match(side[at][0]):
            walked += 1
            if walked > _REACH or _ELEMENT.match(side[at][0]) is None and _COMMENT.match(side[at][0]) is None:
                return None  # an item's metadata, or the group's opening with a condition: not shown to be a property
            at += step
    return f"$({m.group(1)})", m.group(2)


_PACKAGES_CONFIG = lazy(r'^\s*<package((?:\s+\w+\s*=\s*"[^"]*")+)\s*/>\s*$')
_PACKAGES_CONFIG_KEYS = frozenset({"id", "version", "targetFramework", "developmentDependency", "allowedVersions",
                                   "requireReinstallation"})


def packages_config_line(side: Side, index: int) -> list[tuple[str, str]]:
    """`<package id="X" version="Y" targetFramework="net472" />` of a packages.config: one line each (and a UTF-8 XML
    declaration, which holds none)."""
    line = side[index][0]
    if _DECLARATION.match(line) is not None:
        return []
    m = _PACKAGES_CONFIG.match(line)
    attrs = dict(_MSBUILD_ATTR.findall(m.group(1))) if m else {}
    name, version = attrs.get("id"), attrs.get("version", "")
    if m is None or not name or not set(attrs) <= _PACKAGES_CONFIG_KEYS or not _NUGET_RANGE.match(version.strip()) \
            or attrs.get("developmentDependency", "false").lower() != "false":
        # a development dependency is `dev` in the whole file: from a hunk it would read as runtime
        raise ManifestError(f"not a one-line package of packages.config: {line.strip()[:80]!r}")
    return [(name, version.strip())]
