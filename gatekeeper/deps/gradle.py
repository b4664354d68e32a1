"""Gradle build scripts (`build.gradle`, `build.gradle.kts`, `settings.gradle(.kts)`) and the Gradle and
Maven wrappers' `distributionUrl`.

A build script is a program; what is read is what Dependabot's and Renovate's Gradle managers read: string
coordinates `"group:artifact:version"` in any configuration (`implementation("…")`, `testImplementation '…'`,
`classpath(…)`, `platform(…)`), plugins `id("x") version "1.2"` / `kotlin("jvm") version "2.0.0"`, Kotlin's
`kotlin("reflect", "2.0.0")` notation (`org.jetbrains.kotlin:kotlin-reflect`), and a
version written as a variable of the same script (`val ktor = "2.3.7"`, `ext.ktor = '2.3.7'`,
`def ktor = "2.3.7"`) and used as `$ktor` / `${ktor}` (one level, as pom.xml properties). With `--tree`, the
variables of gradle.properties and of the build scripts of the folders above resolve too (gradleprops.py); a
version from anywhere else (a buildSrc constant) is not resolved: the entry is kept with the version as written,
so a move of the reference is still seen.

From a patch (`gradle_line`, edits.py's rules): a changed line must be a coordinate or plugin line with
its version written in it; a variable's definition cannot be tied to its package there (fail closed).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Mapping

from gatekeeper.deps.loaders import text
from gatekeeper.deps.model import Dependency, ManifestError, Scope
from gatekeeper.deps.tools import TOOL, VERSIONISH
from gatekeeper.lazy_pattern import lazy

COORDINATE = _COORD = lazy(r"""(?P<q>["'])(?P<group>[\w.-]+):(?P<artifact>[\w.-]+):(?P<version>[^"'\s:@]+)"""
                           r"""(?::[\w.-]+)?(?:@[\w]+)?(?P=q)""")
# blanks read once each around the optional parentheses (attack 39's census: `id` and 16 KiB of blanks, quadratic)
# `id "x" version "1"`, and Kotlin's call `id("x").version("1")` (a settings script's plugins block); the version a
# literal or a Gradle property read as `extra["kotlin.version"]` (compose-multiplatform's templates, round 49), or a
# variable (`val dokkaVersion: String by settings` over `version dokkaVersion`: kotlinx-datetime's settings, round 56)
_PLUGIN = lazy(r"""\b(?:id\s*+(?:\(\s*+)?(?P<q>["'])(?P<id>[\w.-]+)(?P=q)(?:\s*+\))?"""
               r"""|kotlin\s*+\(\s*+"(?P<kotlin>[\w.-]+)"\s*+\))(?:\s++|\s*+\.\s*+)version\s*+(?:\(\s*+)?"""
               r"""(?:(?P<vq>["'])(?P<version>[^"']+)(?P=vq)|extra\s*+\[\s*+"(?P<extra>[\w.-]{1,128})"\s*+\]"""
               r"""|(?P<ident>[A-Za-z_]\w{0,127})(?![\w.(\[]))""")
# Kotlin's dependency notation `kotlin("reflect", kotlinVersion)` / `kotlin("stdlib", version = "2.0.0")`: the module
# `org.jetbrains.kotlin:kotlin-<module>` at a literal or a variable of the script (openrewrite's rewrite-kotlin, round
# 45); `kotlin("stdlib")` takes the plugin's version and names none
_KOTLIN_MODULE = lazy(r"""\bkotlin\s*\(\s*"(?P<module>[\w.-]{1,128})"\s*,\s*(?:version\s*=\s*)?"""
                      r"""(?:"(?P<version>[^"\s]{1,128})"|(?P<name>[A-Za-z_]\w{0,127}))\s*\)""")
_VARIABLE = lazy(r"""^\s*(?:(?:const\s+)?(?:val|var|def|String)\s+|ext\.|project\.ext\.|set\(\s*["'])"""
                 r"""(?P<name>[A-Za-z_]\w*)["']?\s*(?::\s*String\s*)?[=,]\s*(?P<q>["'])(?P<value>[^"'$]+)(?P=q)""")
_EXT_ENTRY = lazy(r"""^\s*(?P<name>[A-Za-z_]\w*)\s*=\s*(?P<q>["'])(?P<value>[^"'$]+)(?P=q)\s*$""")
# `$name`, `${ext.name}`, `$rootProject.name`, `${rootProject.ext.name}`, `$project.name`
# and `${versions.kotlin}`: an entry of an `ext.versions = [...]` map (_MAP_START)
_REFERENCE = lazy(r"^\$\{?(?:rootProject\.|project\.rootProject\.)?(?:(?:ext|extra|project)\.)?"
                  r"([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?)\}?$")
# the catalog's `[versions]` key in a Kotlin string template (`"g:a:${libs.versions.kotlin.get()}"`, LeoColman/Petals'
# buildscript classpath; round 53): the variable `libs.versions.kotlin` (gradleprops.catalog_variables)
_CATALOG_REF = lazy(r"^\$\{(libs\.versions(?:\.[A-Za-z_]\w{0,100}){1,8})\.get\(\)\}$")
# `ext.versions = [` … `]` (JakeWharton/timber's root build.gradle): its flat `'kotlin': '1.3.21',` entries are the
# variables `versions.kotlin`; a nested map's entries (`'lint': [ 'core': "…" ]`) are coordinates, not read as such.
# Also written without `ext.`: inside an `ext { versions = [` block (k-9's root build.gradle), or appended to an ext
# map declared empty, `versions += [` (Kafka's gradle/dependencies.gradle, after `ext { versions = [:] }`; round 46)
_MAP_START = lazy(r"^\s*(?:(?:project\.)?ext\.)?(?P<name>[A-Za-z_]\w*)\s*\+?=\s*\[\s*$")
_MAP_ENTRY = lazy(r"""^\s*(?P<kq>["']?)(?P<key>[A-Za-z_]\w*)(?P=kq)\s*:\s*"""
                  r"""(?P<q>["'])(?P<value>[^"'$:\s]+)(?P=q)\s*,?\s*$""")
_CONFIGURATION = lazy(r"^\s*(\w+)\s*[(\s]")
MAX_VARIABLES = 10_000
# How far above a changed `toolVersion` line a patch's block is looked for: every such line walking back to the top
# made a hunk of many of them quadratic (attack 25); a block further up is not read from the patch (pass --tree).
MAX_BLOCK_WALK = 100
# The code-quality plugins (Gradle's own checkstyle, pmd, jacoco and codenarc; detekt's and SpotBugs') fetch their tool
# at the version their extension block's `toolVersion` sets (`checkstyle { toolVersion = '12.3.1' }`), and Renovate's
# Gradle manager names an update of it by the block ("Update dependency checkstyle to v14"): the tool's artifact, with
# the block as its alias. Only a literal (or a variable of the same script) set directly inside such a block is read,
# and a local of the block named so (pgjdbc's `val toolVersion = "4.9.4"` then `this.toolVersion.set(toolVersion)`,
# written for Renovate, which reads that line).
QUALITY_TOOLS = {"checkstyle": "com.puppycrawl.tools:checkstyle", "pmd": "net.sourceforge.pmd:pmd-java",
                 "jacoco": "org.jacoco:jacoco", "codenarc": "org.codenarc:CodeNarc",
                 "spotbugs": "com.github.spotbugs:spotbugs", "detekt": "io.gitlab.arturbosch.detekt:detekt-core"}
_TOOL_BLOCK = lazy(r"^\s*(?P<tool>checkstyle|pmd|jacoco|codenarc|spotbugs|detekt)\s*\{(?P<rest>.*)$")
# the extension's setting written on its own: `checkstyle.toolVersion = "10.12.5"`
_TOOL_DOTTED = lazy(r"^\s*(?P<tool>checkstyle|pmd|jacoco|codenarc|spotbugs|detekt)\s*\.\s*(?P<rest>toolVersion\b.*)$")
_TOOL_VERSION = lazy(r"""(?:^\s*(?:val\s+|def\s+)?|[{;]\s*)toolVersion\s*(?:=\s*|\.set\(\s*|\(\s*|(?<=n)\s+)"""
                     r"""(?P<q>["'])(?P<version>[^"'\s]+)(?P=q)\s*\)?\s*;?\s*(?:}\s*)?$""")
# `toolVersion = pmdVersion`: a variable of the same script by its bare name (Kotlin, Groovy)
_TOOL_VARIABLE = lazy(r"(?:^\s*|[{;]\s*)toolVersion\s*(?:=\s*|\.set\(\s*)(?P<name>[A-Za-z_]\w*)\s*\)?\s*;?\s*"
                      r"(?:}\s*)?$")


def _scope(line: str) -> Scope:
    m = _CONFIGURATION.match(line)
    word = m.group(1).lower() if m else ""
    if word.startswith(("test", "androidtest")) or "test" in word and word.endswith(("implementation", "only")):
        return "dev"
    if word in ("classpath", "kapt", "ksp", "annotationprocessor", "id", "kotlin", "detektplugins", "lintchecks"):
        return "build"
    return "runtime"


def _resolve(version: str, variables: dict[str, str]) -> tuple[str, str]:
    """The version and, when a variable of the script gave it, the variable's name: Dependabot names such an
    update by the variable (`Bump kotlin_version from 1.9.0 to 1.9.10`), as a catalog's by its key."""
    m = _CATALOG_REF.match(version) or _REFERENCE.match(version)
    return (variables[m.group(1)], m.group(1)) if m and m.group(1) in variables else (version, "")


def _variables(lines: list[str]) -> dict[str, str]:
    variables: dict[str, str] = {}
    for _, name, value in _definitions(lines):
        if len(variables) < MAX_VARIABLES:
            variables.setdefault(name, value)
    return variables


def _definitions(lines: list[str]) -> Iterator[tuple[int, str, str]]:
    """(line index, name, value) of each variable definition the readers resolve: `val x = "1"`, `ext.x = '1'`, an
    `ext {}` block's `xVersion = '1'`, an `ext.versions = [` map's `'x': '1',` entry (`versions.x`)."""
    mapping, depth = "", 0  # inside `ext.NAME = [`: its name and the brackets' depth
    for index, line in enumerate(lines):
        if mapping:
            code = _code(line)
            if depth == 1 and (entry := _MAP_ENTRY.match(code)) is not None:
                yield index, f"{mapping}.{entry.group('key')}", entry.group("value")
            depth += code.count("[") - code.count("]")
            mapping = mapping if depth > 0 else ""
            continue
        if (start := _MAP_START.match(line)) is not None:
            mapping, depth = start.group("name"), 1
            continue
        m = _VARIABLE.match(line) or (_EXT_ENTRY.match(line) if "version" in line.lower() else None)
        if m is not None:
            yield index, m.group("name"), m.group("value")


def script_variables(data: bytes) -> dict[str, str]:
    """The variables a script defines (`ext.x = '1'`, an `ext {}` block's `xVersion = '1'`, `val x = "1"`)."""
    return _variables(text(data).splitlines())


def parse_build_script(path: str, data: bytes, inherited: Mapping[str, str] | None = None) -> list[Dependency]:
    """`inherited`: variables of other files of the build (gradleprops.py), which the script's own override."""
    lines = text(data).splitlines()
    variables = _variables(lines)
    for name, value in (inherited or {}).items():
        if len(variables) < MAX_VARIABLES:
            variables.setdefault(name, value)
    out: list[Dependency] = _quality_tools(path, lines, variables)
    for line in lines:
        out += _line_dependencies(path, _code(line), variables)
    return out


def _line_dependencies(path: str, code: str, variables: dict[str, str]) -> list[Dependency]:
    """The coordinates, `kotlin(module, version)` modules and plugins one line of a script names."""
    out: list[Dependency] = []
    for coord in _COORD.finditer(code):
        name = f"{coord.group('group')}:{coord.group('artifact')}"
        version, variable = _resolve(coord.group("version"), variables)
        out.append(Dependency("maven", name, version, path, True, _scope(code), alias=variable))
    for module in _KOTLIN_MODULE.finditer(code):
        version, variable = _resolve(module.group("version") or "$" + module.group("name"), variables)
        out.append(Dependency("maven", f"org.jetbrains.kotlin:kotlin-{module.group('module')}", version, path,
                              True, _scope(code), alias=variable))
    for plugin in _PLUGIN.finditer(code):
        name = plugin.group("id") or f"org.jetbrains.kotlin.{plugin.group('kotlin')}"
        if (extra := plugin.group("extra") or plugin.group("ident")) is not None:
            version, variable = (variables[extra], extra) if extra in variables else (f"${extra}", "")
        else:
            version, variable = _resolve(plugin.group("version"), variables)
        out.append(Dependency("maven", name, version, path, True, "build", alias=variable))
    return out


def _code(line: str) -> str:
    return line.split("//", 1)[0] if "//" in line and "://" not in line else line


def _quality_tools(path: str, lines: list[str], variables: dict[str, str]) -> list[Dependency]:
    """`toolVersion` set directly inside a code-quality plugin's block (QUALITY_TOOLS), at depth one of it."""
    out: list[Dependency] = []
    tool, depth = "", 0
    for line in lines:
        code = _code(line)
        if not depth and (dotted := _TOOL_DOTTED.match(code)) is not None:
            tool, depth, code = dotted.group("tool"), 1, dotted.group("rest") + "}"
        elif not depth and (block := _TOOL_BLOCK.match(code)) is not None:
            tool, depth, code = block.group("tool"), 1, block.group("rest")
        if not depth:
            continue
        if depth == 1 and (found := _TOOL_VERSION.search(code) or _TOOL_VARIABLE.search(code)) is not None:
            version, _ = _resolve(found.group("version") if "version" in found.re.groupindex
                                  else "$" + found.group("name"), variables)
            if "$" not in version:
                out.append(Dependency("maven", QUALITY_TOOLS[tool], version, path, True, "build", alias=tool))
        depth += code.count("{") - code.count("}")
    return out


def _enclosing_tool(side: list[tuple[str, bool]], index: int) -> str:
    """The code-quality block a hunk shows `side[index]` directly inside, within MAX_BLOCK_WALK lines above it, else
    ManifestError (fail closed)."""
    depth = 0
    for line, _ in reversed(side[max(0, index - MAX_BLOCK_WALK):index]):
        code = _code(line)
        depth += code.count("}") - code.count("{")
        if depth < 0:
            if depth == -1 and (block := _TOOL_BLOCK.match(code)) is not None and "}" not in block.group("rest"):
                return block.group("tool")
            break
    raise ManifestError(f"a toolVersion whose block the hunk does not show: {side[index][0].strip()[:80]!r}")


def gradle_line(side: list[tuple[str, bool]], index: int) -> list[tuple[str, ...]]:
    """A changed build-script line with its version written in it (edits.py's LineReader); a code-quality plugin's
    `toolVersion` line when the hunk shows the block it sits in."""
    line = side[index][0]
    if line.strip().startswith(("//", "/*", "*")):
        return []  # a comment holds no dependency the build reads
    if tools := _quality_tools("", [line], {}):  # `checkstyle { toolVersion = "10.12.0" }` on one line
        return [(d.name, d.version, "maven", "", d.alias) for d in tools]
    if _TOOL_VARIABLE.search(_code(line)) is not None:
        raise ManifestError(f"a toolVersion not written in its line: {line.strip()[:80]!r}")
    if (setting := _TOOL_VERSION.search(_code(line))) is not None:
        tool = _enclosing_tool(side, index)
        if "$" in setting.group("version"):
            raise ManifestError(f"a toolVersion not written in its line: {line.strip()[:80]!r}")
        return [(QUALITY_TOOLS[tool], setting.group("version"), "maven", "", tool)]
    found: list[tuple[str, ...]] = [(d.name, d.version) for d in parse_build_script("", line.encode())]
    if not found or any("$" in pair[1] for pair in found):
        raise ManifestError(f"not a dependency line with its version written in it: {line.strip()[:80]!r}")
    return found


# gradle/wrapper/gradle-wrapper.properties and .mvn/wrapper/maven-wrapper.properties:
# `distributionUrl=https\://services.gradle.org/distributions/gradle-8.5-bin.zip`.
_DISTRIBUTION = lazy(r"^\s*distributionUrl\s*[=:]\s*\S*?/(?P<tool>gradle|apache-maven)-(?P<version>[\w.+-]+?)"
                     r"(?:-bin|-all)?\.zip\s*$")


# The Maven wrapper's own release (its jar and scripts, org.apache.maven.wrapper:maven-wrapper): `wrapperVersion=3.3.4`
# from 3.3.1, the jar's `wrapperUrl=…/maven-wrapper/3.2.0/maven-wrapper-3.2.0.jar` before, and the scripts' header line
# (`# Apache Maven Wrapper startup batch script, version 3.3.0`, `@REM` in mvnw.cmd), where a 3.3.0 `only-script`
# wrapper alone writes it.
MAVEN_WRAPPER = "org.apache.maven.wrapper:maven-wrapper"
_WRAPPER_VERSION = lazy(r"^\s*wrapperVersion\s*[=:]\s*(?P<version>\S+)\s*$")
_WRAPPER_URL = lazy(r"^\s*wrapperUrl\s*[=:]\s*\S*?/maven-wrapper/(?P<version>[\w.+-]+)/maven-wrapper-(?P=version)"
                    r"\.jar\s*$")
_SCRIPT_HEADER = lazy(r"^(?:#|@REM) Apache Maven Wrapper startup batch script, version (?P<version>\S+)\s*$")
SCRIPTS = frozenset({"mvnw", "mvnw.cmd"})


def parse_wrapper(path: str, data: bytes) -> list[Dependency]:
    out: list[Dependency] = []
    script = path.rsplit("/", 1)[-1] in SCRIPTS
    for line in text(data).splitlines():
        if script:
            found = _SCRIPT_HEADER.match(line)
        elif (m := _DISTRIBUTION.match(line)) is not None:
            if VERSIONISH.match(m.group("version")):
                tool = "maven" if m.group("tool") == "apache-maven" else "gradle"
                out.append(Dependency(TOOL, tool, m.group("version"), path, True, "build"))
            continue
        else:
            found = _WRAPPER_VERSION.match(line) or _WRAPPER_URL.match(line)
        if found is not None and VERSIONISH.match(found.group("version")):
            dep = Dependency("maven", MAVEN_WRAPPER, found.group("version"), path, True, "build")
            if dep not in out:
                out.append(dep)
    return out


_VERSION_VALUE = lazy(r"""(?P<q>["'])v?\d[\w.+-]*(?P=q)""")
# blanks before the key on its own line only (`^\s*` read every blank line below each line start: quadratic); a
# match no longer takes the blank lines above the key, which its replacement kept anyway
_CHECKSUM = lazy(r"^([^\S\n]*+distributionSha256Sum\s*[=:]\s*)\S+", re.MULTILINE)
_WRAPPERS = frozenset({"gradle-wrapper.properties", "maven-wrapper.properties"})
# Keys Gradle's own `wrapper` task adds with a release (7.6: `networkTimeout`; 8.2: `validateDistributionUrl`,
# the check that the URL answers before it is used; 9.5: `retries` and `retryBackOffMs`, how often and how soon a
# failed download is tried again): a bump writes them; none names where the tool comes from, and only `true` is the
# check on (`false` turns it off: that stays an edit beside the bump).
_WRAPPER_KEYS = lazy(r"^\s*(?:networkTimeout\s*[=:]\s*\d{1,9}|validateDistributionUrl\s*[=:]\s*true"
                     r"|retries\s*[=:]\s*\d{1,3}|retryBackOffMs\s*[=:]\s*\d{1,9})\s*$")

_PROPERTIES_COMMENT = lazy(r"^\s*[#!]")


def is_script(name: str) -> bool:
    """A Gradle script: `build.gradle(.kts)`, `settings.gradle(.kts)` and any script a build applies
    (`apply from: "dependencies.gradle"`, `gradle/libs.gradle.kts`), where projects keep coordinates too."""
    return name.endswith((".gradle", ".gradle.kts"))


def _masked(name: str, data: bytes) -> str:
    body = text(data)
    if name in SCRIPTS:  # a program: only its header's version moves with a bump (a comment is code here too)
        return "\n".join(line.replace(m.group("version"), "VERSION") if (m := _SCRIPT_HEADER.match(line)) else line
                         for line in body.splitlines())
    if name in _WRAPPERS:  # the URL's version (Maven's twice) and the checksum move with a bump; never the host
        raw = _CHECKSUM.sub(r"\1SUM", body).splitlines()
        # a line after one ending in `\` continues that line's value: never dropped
        # and a comment line (Gradle's `wrapper` task wrote a `#Fri Dec 19 09:04:47 CET 2025` timestamp before 8.x,
        # which a bump drops): a properties file's comment is no setting
        lines = [line for n, line in enumerate(raw)
                 if not ((_WRAPPER_KEYS.match(line) or _PROPERTIES_COMMENT.match(line))
                         and not (n and raw[n - 1].endswith("\\")))]
        versioned = (_DISTRIBUTION, _WRAPPER_URL, _WRAPPER_VERSION)
        return "\n".join(line.replace(m.group("version"), "VERSION")
                         if (m := next((found for p in versioned if (found := p.match(line))), None)) else line
                         for line in lines)
    lines = body.splitlines(keepends=True)  # line ends as written: a `\r\n` or final newline change stays a change
    read = {index for index, _, _ in _definitions([line.rstrip("\r\n") for line in lines])}
    return "".join(_masked_line(line.rstrip("\r\n"), index in read) + line[len(line.rstrip("\r\n")):]
                   for index, line in enumerate(lines))


def _masked_line(line: str, defines: bool) -> str:
    """A script line with the versions the readers read blanked: a coordinate's, and every version literal of a line
    that reads a dependency (a coordinate, `kotlin()` module, plugin), defines a variable (`defines`; its uses are
    _unexplained_variables') or sets a code-quality `toolVersion`. A version literal anywhere else is kept as written
    (round 47): Spring Boot's bom DSL `library("Git Commit ID Maven Plugin", "5.0.1")`, a Groovy map notation
    `group: 'g', name: 'a', version: '1'`, `dependencySet(group:, version:)`, `extra["kotlin_version"] = "2.0"` version
    something no reader reads, and masked their move was no change and no problem — a silent pass."""
    line = _COORD.sub(lambda m: m.group(0).replace(f":{m.group('version')}", ":VERSION", 1), line)
    code = _code(line)
    if defines or _TOOL_VERSION.search(code) or _TOOL_DOTTED.match(code) or _line_dependencies("", code, {}):
        return _VERSION_VALUE.sub('"VERSION"', line)
    return line



_WORD = lazy(r"[A-Za-z_]\w*")
# a name with its dots (`rootProject.versions.ktlint`): a map entry's use is the entry's `map.key` pair within it
_DOTTED = lazy(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")
# the project's own coordinates (`version = "5.3.0"` in `allprojects {}`, okhttp): a release, not a dependency; and the
# code-quality blocks' `toolVersion`, a property _quality_tools reads (a block's `val toolVersion = "4.9.3"` too)
_OWN = frozenset({"version", "group", "toolVersion"})


def _unexplained_variables(path: str, base: bytes, head: bytes) -> bool:
    """A script variable whose version value moved and that a line of the script uses which reads no dependency
    through it: what that use versions is unknown — a call the readers do not know (`create("g", "a", v)`, `"g:a:" +
    v`), a toolchain setting, the project's own version. Masked as a version literal, such a move was no change at
    all: a silent pass (round 45's rewrite-kotlin shape, before `kotlin(module, v)` was read). A use is explained by a
    coordinate, `kotlin()` module or plugin of its line resolved through the variable, or a code-quality block's
    `toolVersion = v`; a root script's `ext` versions that only other scripts read are not used here, and stay the
    modules' (their moves name the packages, with --tree). Linear: one pass over the head's lines."""
    before, after = _variables(text(base).splitlines()), _variables(text(head).splitlines())
    moved = {name for name in before.keys() & after.keys() if before[name] != after[name] and name not in _OWN}
    if not moved:
        return False
    dotted = any("." in name for name in moved)
    for line in text(head).splitlines():
        code = _code(line)  # a name in a `//` comment is no use
        named = {word for word in _WORD.findall(code) if word in moved}
        if dotted:  # `versions.ktlint`, `rootProject.versions.ktlint`: each adjacent pair of a dotted name
            named |= {pair for words in _DOTTED.findall(code) if "." in words
                      for pair in map(".".join, itertools.pairwise(words.split("."))) if pair in moved}
        defined = _VARIABLE.match(line) or (_EXT_ENTRY.match(line) if "version" in line.lower() else None)
        if not named or defined is not None and {defined.group("name")} == named:
            continue  # the variable's own definition
        explained = {d.alias for d in _line_dependencies(path, code, after)}
        if (tool := _TOOL_VARIABLE.search(code)) is not None:
            explained.add(tool.group("name"))
        if named - explained:
            return True
    return False


def code_changed(path: str, base: bytes | None, head: bytes | None) -> bool:
    """Whether a build script or wrapper changed beyond its versions (and the wrapper's checksum): a build
    script is a program and a wrapper's URL names where the build tool is downloaded from, so any other
    edit beside a bump must not ride on the bump's explanation (the caller reports a `partial` problem). A
    script's version variable that moved and versions nothing the readers read counts too (_unexplained_variables)."""
    name = path.rsplit("/", 1)[-1]
    if base is None or head is None or not (is_script(name) or name in _WRAPPERS or name in SCRIPTS):
        return False
    try:
        return _masked(name, base) != _masked(name, head) or is_script(name) and \
            _unexplained_variables(path, base, head)
    except ManifestError:
        return False  # the parsers report an unreadable side themselves
