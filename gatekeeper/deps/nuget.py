"""NuGet: packages.lock.json, MSBuild project files (PackageReference / PackageVersion) and the
legacy packages.config of .NET Framework projects."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping

from gatekeeper.deps.loaders import expand_properties, load_json, load_xml, mapping, string, xml_local, xml_text
from gatekeeper.deps.model import Dependency, ManifestError
from gatekeeper.lazy_pattern import lazy


def parse_packages_lock(path: str, data: bytes) -> list[Dependency]:
    doc = mapping(load_json(data), "packages.lock.json")
    out: list[Dependency] = []
    seen: set[tuple[str, str]] = set()
    for framework in mapping(doc.get("dependencies"), "dependencies").values():
        for name, entry in mapping(framework, "framework").items():
            entry = entry if isinstance(entry, dict) else {}
            key = (name, string(entry.get("resolved")))
            if key in seen or entry.get("type") == "Project":
                continue
            seen.add(key)
            direct = entry.get("type") == "Direct"
            out.append(Dependency("nuget", name, key[1], path, direct, "runtime"))
    return out


_PROPERTY = lazy(r"\$\(([A-Za-z_][\w.-]*)\)")


def properties_of(root: ET.Element) -> dict[str, str]:
    """The file's own MSBuild properties (`<PropertyGroup><XUnitV3Version>4.0.0</XUnitV3Version>`): a name
    given different values (under conditions) holds them all, sorted and joined by `|`, so that a move of
    any of them moves its uses (left out, a conditional `Evil.Json` passed as unmoved). Each definition
    counts, a repeated value too: Humanizer's `RoslynAnalyzerVersion` set 3.0.0 under two conditions and
    3.11.0 under a third; one of the 3.0.0s moved to 3.11.0 leaves the same set of values, a move all the same."""
    values: dict[str, list[str]] = {}
    for group in root.iter():
        if xml_local(group.tag) == "PropertyGroup":
            for prop in group:
                values.setdefault(xml_local(prop.tag), []).append((prop.text or "").strip())
    return {name: "|".join(sorted(found) if len(set(found)) > 1 else found[:1]) for name, found in values.items()}


def _resolved(value: str, properties: Mapping[str, str]) -> str:
    """`value` with every `$(Name)` the properties define substituted to the end, as MSBuild evaluates them:
    in a package's name too (`Include="$(JsonPackage)"`) and inside an expression (`$(Major).0.1`). A name
    no property defines stays as written; a cycle or a doubling chain is a ManifestError."""
    return expand_properties(value, properties, _PROPERTY, "an MSBuild property")


# An MSBuild project SDK fetched from NuGet by version: `<Project Sdk="Microsoft.Build.Traversal/4.1.82">` (several
# joined by `;`) or `<Sdk Name="…" Version="…" />`. An SDK named without a version comes with the .NET SDK itself.
_SDK = lazy(r"^\s*([A-Za-z0-9_][\w.-]{0,199})\s*/\s*(\d[\w.+-]{0,99})\s*$")
SDK_KEYS = frozenset({"Name", "Version"})


def project_sdks(value: str) -> list[tuple[str, str]]:
    """The (name, version) pairs of a `<Project Sdk="…">` value that name a version; the rest come with .NET."""
    return [(m.group(1), m.group(2)) for part in value.split(";")[:32] if (m := _SDK.match(part)) is not None]


_SDK_PROJECT_LINE = lazy(r'^\s*<Project\s+Sdk\s*=\s*"([^"]*)"\s*>\s*$')
_SDK_LINE = lazy(r'^\s*<Sdk((?:\s+\w+\s*=\s*"[^"]*")+)\s*/>\s*$')
_SDK_ATTRIBUTE = lazy(r'(\w+)\s*=\s*"([^"]*)"')
_SDK_VERSION = lazy(r"^\d[\w.+-]{0,99}$")


def sdk_line(line: str) -> list[tuple[str, str]] | None:
    """A project SDK's line of a hunk (nugetedits.msbuild_line): `<Project Sdk="X/1.0">` (with no other attribute: the
    hunk's other side is not compared, and an attribute beside it would pass unread) or `<Sdk Name="X" Version="1.0"
    />`; None for any other line. The SDKs named without a version are none; an `Sdk` value holding a property, or a
    `<Sdk>` with other attributes, is refused."""
    if (m := _SDK_PROJECT_LINE.match(line)) is not None:
        value = m.group(1)
        if "$" in value or len(project_sdks(value)) != value.count("/"):
            raise ManifestError(f"a project SDK the reader cannot name: {line.strip()[:80]!r}")
        return project_sdks(value)
    if (m := _SDK_LINE.match(line)) is not None:
        attrs = dict(_SDK_ATTRIBUTE.findall(m.group(1)))
        if set(attrs) != SDK_KEYS or not _SDK_VERSION.match(attrs["Version"].strip()):
            raise ManifestError(f"not a one-line project SDK with its version: {line.strip()[:80]!r}")
        return [(attrs["Name"], attrs["Version"].strip())]
    return None


def _sdks(path: str, root: ET.Element) -> list[Dependency]:
    pairs = project_sdks(root.get("Sdk") or "") if xml_local(root.tag) == "Project" else []
    # a `<Sdk>` whose version is a property's, or with more than its name and version, is the residue's (kept as
    # written there: residue.py)
    pairs += [(node.get("Name") or "", (node.get("Version") or "").strip()) for node in root
              if xml_local(node.tag) == "Sdk" and _SDK_VERSION.match((node.get("Version") or "").strip())
              and set(node.keys()) == SDK_KEYS]
    return [Dependency("nuget", name, version, path, True, "build") for name, version in pairs if name]


# What of a package a project takes: `ExcludeAssets="all"` takes nothing (no build targets, analyzers or code run),
# and dropped beside a bump the package's build logic runs where it never did (red team 26; entryoptions.py's class).
ASSETS = ("IncludeAssets", "ExcludeAssets")


def assets(values: Mapping[str, str | None]) -> str:
    """A reference's asset options, as one text (`ExcludeAssets=all`), its values' case and blanks aside."""
    return ", ".join(f"{k}={v.strip().lower()}" for k, v in values.items() if v and v.strip())


def parse_msbuild(path: str, data: bytes, inherited: Mapping[str, str] | None = None) -> list[Dependency]:
    """Package references and central versions; the `$(Property)` uses of a name or version are resolved
    with the same file's properties (and `inherited`: the Directory.Build.props it imports, msbuildprops.py),
    which win over inherited ones as MSBuild's later definitions do; an unknown property is kept as written.
    Project SDKs named with a version (`_SDK`) are `build` dependencies."""
    if path.endswith(".props") and not data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<"):
        return []  # a `.props` file that is no XML: some tools' `key=value` properties, no MSBuild file
    root = load_xml(data)
    out: list[Dependency] = _sdks(path, root)
    properties: dict[str, str] | None = None
    for node in root.iter():
        if xml_local(node.tag) not in ("PackageReference", "PackageVersion", "GlobalPackageReference"):
            continue
        name = node.get("Include") or node.get("Update") or ""
        version = node.get("Version") or xml_text(node, "Version") or node.get("VersionOverride") or ""
        if "$(" in name or "$(" in version:
            properties = {**(inherited or {}), **properties_of(root)} if properties is None else properties
            name, version = _resolved(name, properties), _resolved(version.strip(), properties)
        if name:
            dev = (node.get("PrivateAssets") or xml_text(node, "PrivateAssets")).lower() == "all"
            options = assets({k: node.get(k) or xml_text(node, k) for k in ASSETS})
            out.append(Dependency("nuget", name, version, path, True, "dev" if dev else "runtime", options=options))
    return out


def parse_packages_config(path: str, data: bytes) -> list[Dependency]:
    """`<packages><package id="X" version="Y" developmentDependency="true"? /></packages>`: every
    package a .NET Framework project restores is listed, so each counts as direct."""
    root = load_xml(data)
    if xml_local(root.tag) != "packages":
        raise ManifestError("the root element is not <packages>")
    out: list[Dependency] = []
    for node in root:
        if xml_local(node.tag) == "package" and node.get("id"):
            dev = (node.get("developmentDependency") or "").lower() == "true"
            out.append(Dependency("nuget", node.get("id") or "", node.get("version") or "", path, True,
                                  "dev" if dev else "runtime"))
    return out


def parse_dotnet_tools(path: str, data: bytes) -> list[Dependency]:
    """`.config/dotnet-tools.json`, the .NET local tools manifest: `{"tools": {"dotnet-ef": {"version": …}}}`.
    A tool runs in the build (`dotnet tool restore`), so each is a direct `build` dependency."""
    doc = mapping(load_json(data), "dotnet-tools.json")
    out: list[Dependency] = []
    for name, entry in mapping(doc.get("tools"), "tools").items():
        entry = mapping(entry, f"tool {name}")
        out.append(Dependency("nuget", str(name), string(entry.get("version")), path, True, "build"))
    return out
