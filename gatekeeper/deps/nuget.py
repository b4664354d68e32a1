"""NuGet: packages.lock.json, MSBuild project files (PackageReference / PackageVersion) and the
legacy packages.config of .NET Framework projects."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping

from gatekeeper.deps.loaders import expand_properties, load_json, load_xml, mapping, string, xml_local, xml_text
from gatekeeper.deps.model import Dependency, ManifestError


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


_PROPERTY = re.compile(r"\$\(([A-Za-z_][\w.-]*)\)")


def properties_of(root: ET.Element) -> dict[str, str]:
    """The file's own MSBuild properties (`<PropertyGroup><XUnitV3Version>4.0.0</XUnitV3Version>`): a name
    given different values (under conditions) holds them all, sorted and joined by `|`, so that a move of
    any of them moves its uses (left out, a conditional `Evil.Json` passed as unmoved)."""
    values: dict[str, set[str]] = {}
    for group in root.iter():
        if xml_local(group.tag) == "PropertyGroup":
            for prop in group:
                values.setdefault(xml_local(prop.tag), set()).add((prop.text or "").strip())
    return {name: "|".join(sorted(found)) for name, found in values.items()}


def _resolved(value: str, properties: Mapping[str, str]) -> str:
    """`value` with every `$(Name)` the properties define substituted to the end, as MSBuild evaluates them:
    in a package's name too (`Include="$(JsonPackage)"`) and inside an expression (`$(Major).0.1`). A name
    no property defines stays as written; a cycle or a doubling chain is a ManifestError."""
    return expand_properties(value, properties, _PROPERTY, "an MSBuild property")


def parse_msbuild(path: str, data: bytes, inherited: Mapping[str, str] | None = None) -> list[Dependency]:
    """Package references and central versions; the `$(Property)` uses of a name or version are resolved
    with the same file's properties (and `inherited`: the Directory.Build.props it imports, msbuildprops.py),
    which win over inherited ones as MSBuild's later definitions do; an unknown property is kept as written."""
    out: list[Dependency] = []
    root = load_xml(data)
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
            out.append(Dependency("nuget", name, version, path, True, "dev" if dev else "runtime"))
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
