"""What a manifest holds besides the dependency entries the delta reads: its residue.

The `deps` policy counts a deps file as explained when one change of the delta names it, so any other edit in the
same file rode on that change (red team 10): a Gradle script's build logic, a Gemfile's `send(:gem, 'evil')` or
source block, a requirements file's `-c URL` or `--trusted-host`, a package.json's `pnpm.packageExtensions` (which
adds dependencies to other packages), a composer.json's `config.secure-http: false`, a pyproject's
`[[tool.pdm.source]]`, a Pipfile's `[requires]`, each beside an ordinary bump. Each format's residue is what its
reader leaves unread (a structured manifest: the document without its dependency tables); a residue that differs
between the sides is a `partial` problem (reviewed), as an unexplained deps file with no bump already was.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from functools import partial
from typing import Any

from gatekeeper.deps import bundler, cargo, gemspec, golang, helmfile, mise, pypi, rebar, setupfiles, toolfiles
from gatekeeper.deps.devcontainer import jsonc
from gatekeeper.deps.gradle import code_changed
from gatekeeper.deps.loaders import load_json, load_toml, load_xml, load_yaml, xml_child, xml_local
from gatekeeper.deps.model import ManifestError
from gatekeeper.deps.npm import VOLTA_TOOLS
from gatekeeper.deps.registry import format_for
from gatekeeper.lazy_pattern import lazy

Path = tuple[str, ...]  # keys from the document's root; "*" is every key at that level
_CARGO_TABLES = ("dependencies", "dev-dependencies", "build-dependencies")
# The tables each structured manifest's reader reads whole: the dependencies, where they come from, their versions.
_READ: dict[str, tuple[Callable[[bytes], Any], tuple[Path, ...]]] = {
    # `scripts`: what installing runs is overrides.py's (install hooks); any other script is code a job runs on
    # purpose, as a test file is (red team: `npm test` changed beside a bump is no problem).
    "package.json": (load_json, (("dependencies",), ("devDependencies",), ("optionalDependencies",),
                                 ("peerDependencies",), ("packageManager",), ("scripts",), ("engines",),
                                 *(("volta", tool) for tool in VOLTA_TOOLS))),
    "composer.json": (load_json, (("require",), ("require-dev",))),
    # global.json's other keys choose the SDK too: `sdk.paths` (.NET 10) has `dotnet` run an SDK from the repository
    "global.json": (load_json, (("sdk", "version"), ("sdk", "workloadVersion"), ("msbuild-sdks",))),
    "Cargo.toml": (load_toml, (*((t,) for t in _CARGO_TABLES), *(("target", "*", t) for t in _CARGO_TABLES),
                               ("workspace", "dependencies"))),
    "pyproject.toml": (load_toml, (("project", "dependencies"), ("project", "optional-dependencies"),
                                   ("dependency-groups",), ("build-system", "requires"),
                                   ("tool", "pdm", "dev-dependencies"),
                                   ("tool", "poetry", "dependencies"), ("tool", "poetry", "dev-dependencies"),
                                   ("tool", "poetry", "group", "*", "dependencies"),
                                   ("tool", "hatch", "envs", "*", "dependencies"),
                                   ("tool", "hatch", "envs", "*", "extra-dependencies"))),
    # Every other top-level table of a Pipfile is a package category (`[packages]`, `[dev-packages]`, `[docs]`).
    "Pipfile": (load_toml, (("*",),)),
    # Red team 12: a pubspec's `workspace:` or `hooks:`, a pnpm workspace's settings (pnpm 10 reads them there: which
    # dependencies may run install scripts, `pnpmfile`, `registry`, the `packages:` globs), a Chart.lock's other
    # `repository:` rode on a bump. Chart.lock: what is left of each entry once its version is blanked (`_ENTRIES`).
    # (their override sections are overrides.py's, which names them)
    "pubspec.yaml": (load_yaml, (("dependencies",), ("dev_dependencies",), ("dependency_overrides",))),
    "pnpm-workspace.yaml": (load_yaml, (("catalog",), ("catalogs",), ("overrides",), ("patchedDependencies",),
                                        ("packageExtensions",))),
    "Chart.lock": (load_yaml, (("digest",), ("generated",))),
    # Deno's import map; `tasks` are code a job runs on purpose, as package.json's scripts (the rest — `lock`,
    # `nodeModulesDir`, `unstable`, compiler options — is residue)
    "deno.json": (jsonc, (("imports",), ("scopes",), ("tasks",))),
}
# Line-oriented formats whose residue is compared on hunk sides too.
_LINES: dict[str, Callable[[bytes], Any]] = {"go.mod": golang.residue,
                                             ".tool-versions": toolfiles.tool_versions_residue}
_PIPFILE_KEPT = frozenset({"source", "requires", "scripts", "pipenv"})
# XML build files (red team 11: a Maven plugin's `<executable>`, an MSBuild `<Target>`/`<Exec>` changed or added beside
# an in-level bump was allowed with --tree): their residue is the markup without comments and the dependency entries
# the delta reads, every version-shaped value blanked (a bump through a property, a plugin or the parent moves only
# those), whitespace between elements ignored.
_XML_FORMATS = frozenset({"pom.xml", "msbuild"})
_XML_ENTRIES = frozenset({"dependency", "parent", "packagereference", "packageversion", "globalpackagereference"})
# the name possessive: a name run every way split with the rest of the tag was quadratic (`</` and 4 KiB of `:`)
_XML_TAG = lazy(r"<(/?)([\w:.-]++)([^>]*?)(/?)>\Z", re.DOTALL)
_XML_VERSION = lazy(r"\s*[\[(]?v?\d[\w.+-]*(?:\s*,\s*v?[\w.+-]*)?[\])]?\s*\Z")
_XML_ATTRIBUTE = lazy(r"""(=\s*)(["'])([^"']*)\2""")
# A legacy project's `<Reference Include="Newtonsoft.Json, Version=13.0.0.0, ...">` and its `<HintPath>` into
# `packages/Newtonsoft.Json.13.0.1/`: a bump moves the numbers inside the values (12 of 754 real bump files were
# flagged before), so there a dotted number anywhere is a version.
_XML_REFERENCES = frozenset({"reference", "hintpath"})
_DOTTED = lazy(r"(?<!\d)\d+(?:\.\d+)+")  # from a run of digits' start (16 KiB of digits: 7 CPU-s from each)


def changed(path: str, base: bytes | None, head: bytes | None, whole: bool = True) -> bool:
    """Whether `path` changed beyond what the delta reads (both sides needed: a new or deleted file is read
    whole). `base`/`head` are whole files, or (`whole=False`) a patch's hunk sides, of which only line-oriented
    formats are compared: a structured manifest's hunks are edits.py's, which refuses any line that is not a
    dependency's."""
    if base is None or head is None:
        return False
    if code_changed(path, base, head):
        return True
    fmt = format_for(path)
    read: Callable[[bytes], Any] | None = None
    if fmt is not None and fmt.parse is bundler.parse_gemfile:
        read = bundler.residue
    elif fmt is not None and fmt.parse is gemspec.parse_gemspec:
        read = gemspec.residue
    elif fmt is not None and fmt.name == "requirements":
        read = pypi.requirements_residue
    elif fmt is not None and fmt.name in _LINES:
        read = _LINES[fmt.name]
    elif fmt is not None and fmt.name in _READ and whole:
        read = _structured(fmt.name)
    elif fmt is not None and fmt.name == "rust-toolchain" and whole:
        read = toolfiles.rust_toolchain_residue
    elif fmt is not None and fmt.name == "mise.toml" and whole:
        read = mise.residue
    elif fmt is not None and fmt.name == "rebar.config" and whole:
        read = rebar.residue
    elif fmt is not None and fmt.name == "helmfile.yaml" and whole:
        read = helmfile.residue
    elif fmt is not None and fmt.name in _XML_FORMATS and whole:
        read = xml_residue
    elif fmt is not None and fmt.name == "setup.py" and whole:
        read = partial(setupfiles.setup_py_residue, path)
    elif fmt is not None and fmt.name == "setup.cfg" and whole:
        read = setupfiles.setup_cfg_residue
    elif fmt is not None and fmt.name == "maven-extensions" and whole:
        read = _extensions_residue
    if read is None:
        return False
    try:
        return bool(read(base) != read(head))
    except (ManifestError, RecursionError):
        return False  # the parsers report an unreadable side themselves


def _extensions_residue(data: bytes) -> bytes:
    """`.mvn/extensions.xml` without its extensions' versions (jvm.parse_maven_extensions reads them): what else
    it says (another extension's coordinates, a `<classifier>`) stays, comments aside."""
    root = load_xml(data)
    for ext in root:
        if xml_local(ext.tag) == "extension" and (version := xml_child(ext, "version")) is not None:
            version.text = "V"
    return ET.tostring(root)


def _structured(name: str) -> Callable[[bytes], Any]:
    load, paths = _READ[name]

    def read(data: bytes) -> Any:
        doc = load(data)
        if not isinstance(doc, dict):
            return doc
        if name == "Pipfile":
            return {k: v for k, v in doc.items() if k in _PIPFILE_KEPT or not isinstance(v, dict)}
        for where in paths:
            doc = _without(doc, where)
        if name == "Cargo.toml":  # the `rust-version` strings cargo.py reads (the tool `rust`), no other value
            for where, _ in cargo.rust_versions(doc):
                doc = _without(doc, where)
        if name == "Chart.lock" and isinstance(doc.get("dependencies"), list):
            doc["dependencies"] = [{k: v for k, v in e.items() if k != "version"} if isinstance(e, dict) else e
                                   for e in doc["dependencies"]]
        return doc
    return read


def _without(doc: Any, where: Path) -> Any:
    """`doc` without the value at `where` (a copy of the containers on the way); a table left empty by the removal
    is dropped too, so a dependency table added or removed whole leaves the residue as it was."""
    if not isinstance(doc, dict) or not where:
        return doc
    key, rest = where[0], where[1:]
    keys = list(doc) if key == "*" else [key] if key in doc else []
    out = dict(doc)
    for k in keys:
        if not rest:
            del out[k]
            continue
        inner = _without(out[k], rest)
        if isinstance(inner, dict) and not inner and out[k]:
            del out[k]
        else:
            out[k] = inner
    return out


# Elements whose versions no reader reads (red team 12: a Maven build `<extension>`, code loaded into the build, moved
# to any version beside a bump; MSBuild's `<Sdk>`, an `<Import>`'s `Sdk`/`Version`, `<PackageDownload>`,
# `<DotNetCliToolReference>`): their values are kept as written, and so is the value of a property they use.
_XML_KEPT = frozenset({"extension", "sdk", "import", "packagedownload", "dotnetclitoolreference"})
_XML_USE = lazy(r"\$[{(]([\w.-]+)[})]")
_PROJECT_SDK = lazy(r"""(?<![\w:.-])Sdk\s*=\s*(["'])[^"']*\1""")
_SDK_VERSION = lazy(r"/\s*\d[\w.+-]*\s*(?=[;\"'])")
_SDK_ELEMENT = lazy(r'Name\s*=\s*"[^"$]*"\s+Version\s*=\s*"\s*\d[\w.+-]*\s*"|'
                          r'Version\s*=\s*"\s*\d[\w.+-]*\s*"\s+Name\s*=\s*"[^"$]*"')
_SDK_VERSION_ATTRIBUTE = lazy(r"""(\bVersion\s*=\s*")[^"]*(")""")


def xml_residue(data: bytes) -> list[str]:
    """A pom.xml's or MSBuild file's markup and text, in order, without comments and dependency entries, each
    version-shaped text or attribute value as `V` (but in `_XML_KEPT` elements and the properties they use). Two
    passes of `str.find` (no regular expression spans tags: a hostile file of unclosed comments or entries stays
    linear): the first finds the properties the kept elements use."""
    text = data.decode("utf-8", "replace").removeprefix("\ufeff")  # an XML parser's encoding signature, no text
    uses: set[str] = set()
    others: set[str] = set()
    _walk(text, set(), uses, others)
    return _walk(text, {use.lower() for use in uses | others}, set(), set())


# An MSBuild item's `Condition`, or its ItemGroup's (or Choose/When's), and the POM elements an entry's meaning
# depends on (attack 16: a reference moved out of a group whose condition never holds, or its condition changed, a
# managed version or an inactive profile's dependency moved into <dependencies>, beside an in-level bump of it, was
# read as that bump alone): each entry inside one is kept in the residue by its place.
_XML_CONDITION = lazy(r"""\sCondition\s*=\s*("[^"]*"|'[^']*')""", re.IGNORECASE)
_XML_SCOPES = frozenset({"dependencymanagement", "profile", "plugin"})


# Where a build file defines its properties: a use inside one (`<a.version>${b.version}</a.version>`) is the defining
# property's, resolved with it.
_XML_PROPERTY_BLOCKS = frozenset({"properties", "propertygroup"})


def _walk(text: str, properties: set[str], uses: set[str], others: set[str]) -> list[str]:
    """`uses`: the properties the kept elements use; `others`: those a value outside a `<version>`, an entry or a
    property definition uses (`<release>${java.version}</release>`, frontend-maven-plugin's `<nodeVersion>
    ${node.version}</nodeVersion>`, a `Condition`): no reader reads that use, so the property's value is kept as
    written — masked, its move was no change and no problem (round 47). A property this file does not use stays
    masked: other files' (mavenprops.py, msbuildprops.py)."""
    out: list[str] = []
    skip = at = loose = kept = defining = 0
    last = ""  # the element the text that follows belongs to
    held: list[str] = []  # the open elements that carry a Condition, innermost last
    while at < len(text):
        start = text.find("<", at)
        chunk = text[at:start if start >= 0 else len(text)].strip()
        if chunk and not skip:
            if kept:
                uses.update(_XML_USE.findall(chunk))
            elif last != "version" and not defining:
                others.update(_XML_USE.findall(chunk))
            plain = kept or last in properties
            out.append(chunk if plain else "V" if _XML_VERSION.match(chunk) else _DOTTED.sub("V", chunk) if loose
                       else chunk)
        if start < 0:
            break
        if text.startswith("<!--", start):
            end = text.find("-->", start + 4)
            at = len(text) if end < 0 else end + 3
            continue
        end = text.find(">", start)
        tag = text[start:] if end < 0 else text[start:end + 1]
        at = len(text) if end < 0 else end + 1
        m = _XML_TAG.match(tag)
        name = m.group(2).rpartition(":")[2].lower() if m is not None else ""
        last = name if m is not None and not m.group(1) else ""
        if m is not None and not skip and not m.group(4):
            if m.group(1) and held and held[-1] == name:
                held.pop()
            elif not m.group(1) and name not in _XML_ENTRIES and (name in _XML_SCOPES
                                                                   or _XML_CONDITION.search(m.group(3))):
                held.append(name)
        if m is not None and name in _XML_ENTRIES:
            own = _XML_CONDITION.search(m.group(3)) if not m.group(1) and not skip else None
            if own is not None or (held and not m.group(1) and not skip):
                # where a conditioned entry stands, and its own condition as written: a move between conditions is
                # a change of what the build restores, not a bump
                out.append(f"<{name} Condition={own.group(1) if own else ''}>")
            if m.group(1):
                skip = max(0, skip - 1)
            elif not m.group(4):
                skip += 1
            continue
        if m is not None and name in _XML_REFERENCES and not m.group(4):
            loose = max(0, loose - 1) if m.group(1) else loose + 1
        if m is not None and name in _XML_KEPT and not m.group(4):
            kept = max(0, kept - 1) if m.group(1) else kept + 1
        if m is not None and name in _XML_PROPERTY_BLOCKS and not m.group(4):
            defining = max(0, defining - 1) if m.group(1) else defining + 1
        if skip:
            continue
        if name == "sdk" and m is not None and m.group(4) and _SDK_ELEMENT.fullmatch(m.group(3).strip()):
            tag = _SDK_VERSION_ATTRIBUTE.sub(r"\1V\2", tag)  # `<Sdk Name="X" Version="1.0" />`: nuget.py reads it
        if kept or name in _XML_KEPT:
            uses.update(_XML_USE.findall(tag))
            out.append(tag)
            continue
        if name == "project" and m is not None and not m.group(1):
            # `<Project Sdk="Microsoft.Build.Traversal/4.1.82">`: the SDKs' versions are the delta's (nuget.py)
            tag = _PROJECT_SDK.sub(lambda a: _SDK_VERSION.sub("/V", a.group(0)), tag)
        if not skip:
            others.update(_XML_USE.findall(tag))  # an attribute's use (a `Condition`): no reader reads it
        wide = bool(loose) or name in _XML_REFERENCES
        out.append(_XML_ATTRIBUTE.sub(lambda a, wide=wide: _attribute(a, wide), tag))  # type: ignore[misc]
    return out


def _attribute(match: re.Match[str], loose: bool) -> str:
    value = match.group(3)
    value = "V" if _XML_VERSION.match(value) else _DOTTED.sub("V", value) if loose else value
    return f"{match.group(1)}{match.group(2)}{value}{match.group(2)}"
