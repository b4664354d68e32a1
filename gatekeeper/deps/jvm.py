"""JVM: Maven pom.xml (DTDs refused) and Gradle version catalogs (libs.versions.toml)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping

from gatekeeper.deps.loaders import (
    expand_properties,
    load_toml,
    load_xml,
    mapping,
    string,
    xml_child,
    xml_local,
    xml_text,
)
from gatekeeper.deps.model import Dependency, ManifestError, Scope
from gatekeeper.lazy_pattern import lazy

_PROPERTY = lazy(r"\$\{([^}]+)\}")
# The Spotless Maven plugin's formatter steps that take the formatter's version (`<java><palantirJavaFormat>
# <version>2.97.0</version></palantirJavaFormat></java>`): the plugin resolves that artifact and runs it in the build,
# and bots bump it by that artifact's name (jenkinsci/plugin-pom). The artifacts are Spotless's documented ones.
_SPOTLESS_STEPS = {
    "palantirJavaFormat": "com.palantir.javaformat:palantir-java-format",
    "googleJavaFormat": "com.google.googlejavaformat:google-java-format",
    "ktfmt": "com.facebook:ktfmt",
}


def pom_properties(root: ET.Element) -> dict[str, str]:
    """The POM's `<properties>`, and its profiles': a profile may be active (by JDK, OS, a file, or by
    default), so a name a profile also defines holds every value, sorted and `|`-joined. Left out, a
    profile's `<lib.name>evil-lang3</lib.name>` moved nothing the delta saw. A profile's value that is the property
    itself (getsentry/sentry-java's `<junit.version>${junit.version}</junit.version>` in its `pitest` profile) names no
    value of its own: joined in, the name expanded into itself without end and the whole POM was unreadable."""
    values: dict[str, set[str]] = {}
    for model in [root, *(xml_child(root, "profiles") or [])]:
        for prop in xml_child(model, "properties") or []:
            name, value = xml_local(prop.tag), (prop.text or "").strip()
            if model is not root and value == f"${{{name}}}":
                continue
            values.setdefault(name, set()).add(value)
    return {name: "|".join(sorted(found)) for name, found in values.items()}


def parse_pom(path: str, data: bytes, inherited: Mapping[str, str] | None = None) -> list[Dependency]:
    """The POM's dependencies; `inherited`: its parents' properties (mavenprops.py), which its own override."""
    root = load_xml(data)
    if xml_local(root.tag) != "project":
        raise ManifestError("the root element is not <project>")
    props = {**(inherited or {}), **pom_properties(root)}
    props["project.version"] = xml_text(root, "version")

    def resolve(value: str) -> str:
        return expand_properties(value, props, _PROPERTY, "a property")

    out: list[Dependency] = []
    holders: list[tuple[ET.Element | None, Scope]] = []
    spotless: list[ET.Element] = []
    # The project and each of its profiles declare dependencies, managed versions and build plugins
    # (also under pluginManagement); a plugin's own <dependencies> run in the build too.
    for model in [root, *(xml_child(root, "profiles") or [])]:
        holders.append((xml_child(model, "dependencies"), "runtime"))
        management = xml_child(model, "dependencyManagement")
        if management is not None:
            holders.append((xml_child(management, "dependencies"), "runtime"))
        build = xml_child(model, "build")
        # `<reporting>` plugins run in `mvn site`: build code as much as `<build>` plugins
        for plugins in [xml_child(build, "plugins"), xml_child(xml_child(build, "pluginManagement"), "plugins"),
                        xml_child(xml_child(model, "reporting"), "plugins")]:
            holders.append((plugins, "build"))
            for plugin in plugins if plugins is not None else []:
                holders.append((xml_child(plugin, "dependencies"), "build"))
                # the compiler's annotation processors (error_prone_core, lombok, mapstruct) run in the build
                holders.append((xml_child(xml_child(plugin, "configuration"), "annotationProcessorPaths"), "build"))
                # artifacts a plugin's configuration has it resolve (japicmp's `<configuration><dependencies>`, the
                # old release an API check compares against): Dependabot bumps them as it bumps any <dependency>
                holders.append((xml_child(xml_child(plugin, "configuration"), "dependencies"), "build"))
                if xml_local(plugin.tag) == "plugin" and xml_text(plugin, "artifactId") == "spotless-maven-plugin":
                    spotless.append(plugin)
    parent = xml_child(root, "parent")
    if parent is not None:
        out.append(Dependency("maven", f"{xml_text(parent, 'groupId')}:{xml_text(parent, 'artifactId')}",
                              resolve(xml_text(parent, "version")), path, True, "build"))
    for holder, default in holders:
        for dep in holder if holder is not None else []:
            if xml_local(dep.tag) not in ("dependency", "plugin", "path"):
                continue
            group = xml_text(dep, "groupId") or ("org.apache.maven.plugins" if default == "build" else "")
            scope: Scope = "dev" if xml_text(dep, "scope") == "test" else default
            version = resolve(xml_text(dep, "version"))
            # `<scope>system</scope>` takes the jar at `<systemPath>`, not the repository's artifact (red team 14,
            # second round): where it comes from is part of its version, as a Cargo table's `path` is
            if (system := xml_text(dep, "systemPath")) or xml_text(dep, "scope") == "system":
                version = f"{version} from systemPath {resolve(system)}"
            out.append(Dependency("maven", f"{resolve(group)}:{resolve(xml_text(dep, 'artifactId'))}",
                                  version, path, True, scope, options=_options(dep, resolve)))
    for plugin in spotless:
        for language in xml_child(plugin, "configuration") or []:
            for step in language:
                artifact = _SPOTLESS_STEPS.get(xml_local(step.tag))
                if artifact is not None and (version := xml_text(step, "version")):
                    out.append(Dependency("maven", artifact, resolve(version), path, True, "build"))
    return out


def _options(dep: ET.Element, resolve: Callable[[str], str]) -> str:
    """What of an artifact the build takes (red team 26, entryoptions.py's class): another `classifier` or `type` is
    another file of the coordinates (`pom` with `<scope>import</scope>`: a BOM's versions), and an exclusion dropped
    lets its transitive dependency in."""
    held = xml_child(dep, "exclusions")
    exclusions = sorted(f"{resolve(xml_text(e, 'groupId'))}:{resolve(xml_text(e, 'artifactId'))}"
                        for e in (held if held is not None else ()) if xml_local(e.tag) == "exclusion")
    options = [f"{key}={value}" for key in ("classifier", "type") if (value := resolve(xml_text(dep, key)))]
    return ", ".join(options + ([f"exclusions={' '.join(exclusions)}"] if exclusions else []))


def parse_maven_extensions(path: str, data: bytes) -> list[Dependency]:
    """`.mvn/extensions.xml`: the core extensions Maven loads into itself before it reads a POM (Develocity's, a
    build-cache's), each `<extension>` at its version (hibernate-validator's Dependabot group bumps
    `com.gradle:common-custom-user-data-maven-extension` there). Code the build runs, read as a POM's plugins are;
    a version is taken as written (no POM's properties reach this file)."""
    root = load_xml(data)
    if xml_local(root.tag) != "extensions":
        raise ManifestError("the root element is not <extensions>")
    out: list[Dependency] = []
    for ext in root:
        if xml_local(ext.tag) != "extension":
            continue
        group, artifact = xml_text(ext, "groupId"), xml_text(ext, "artifactId")
        if not group or not artifact:
            raise ManifestError("an <extension> without its groupId or artifactId")
        out.append(Dependency("maven", f"{group}:{artifact}", xml_text(ext, "version"), path, True, "build"))
    return out


def parse_version_catalog(path: str, data: bytes) -> list[Dependency]:
    doc = load_toml(data)
    versions = {k: string(v) for k, v in mapping(doc.get("versions"), "[versions]").items()}

    def version_of(entry: dict[str, object]) -> tuple[str, str]:
        """The entry's version and the `[versions]` key it names it by ("" when written in the entry)."""
        version = entry.get("version")
        if isinstance(version, dict):
            ref = version.get("ref")
            if ref:
                return versions.get(str(ref), ""), str(ref) if str(ref) in versions else ""
            return string(version.get("strictly") or version.get("require")), ""
        return string(version), ""

    out: list[Dependency] = []
    # Each entry keeps its key as its alias: the build names it so (`libs.plugins.spotless`), and so do bots.
    for key, entry in mapping(doc.get("libraries"), "[libraries]").items():
        if isinstance(entry, str):
            group, _, rest = entry.partition(":")
            artifact, _, version = rest.partition(":")
            out.append(Dependency("maven", f"{group}:{artifact}", version, path, True, "runtime", alias=key))
        elif isinstance(entry, dict):
            module = string(entry.get("module")) or f"{string(entry.get('group'))}:{string(entry.get('name'))}"
            version, ref = version_of(entry)
            out.append(Dependency("maven", module, version, path, True, "runtime", alias=key, version_ref=ref))
    for key, entry in mapping(doc.get("plugins"), "[plugins]").items():
        if isinstance(entry, str):
            plugin, _, version = entry.partition(":")
            out.append(Dependency("maven", plugin, version, path, True, "build", alias=key))
        elif isinstance(entry, dict):
            version, ref = version_of(entry)
            out.append(Dependency("maven", string(entry.get("id")), version, path, True, "build", alias=key,
                                  version_ref=ref))
    return out
