"""sbt builds: `build.sbt` and any `*.sbt`, `project/*.scala`, `project/build.properties`.

A module line names a Maven coordinate (`"org.typelevel" %% "cats-effect" % "3.5.4"`, `%%%` for Scala.js and
Native, `% Test` for a test scope), `addSbtPlugin("org.scalameta" % "sbt-scalafmt" % "2.5.2")` a build plugin,
`scalaVersion := "2.13.14"` and `crossScalaVersions := Seq(Scala213, "3.3.3")` the Scala library, and
`sbt.version=1.10.0` the build tool. scala-steward bumps the version where it is written: often a definition
(`val catsEffectV = "3.5.4"`, `lazy val`) that module lines use by name. A file's definitions are resolved within
the file; one no module line of the file uses (its uses sit in another file) is reported by its own name.

An sbt file is a Scala program; these lines are read as written, nothing is evaluated. Each line is read alone
(a module line split over lines is not read), lines over MAX_LINE characters are skipped, and every pattern is
bounded and possessive, so reading is linear in the file's size.
"""

from __future__ import annotations

from collections.abc import Callable

from gatekeeper.deps.loaders import text
from gatekeeper.deps.model import Dependency, ManifestError, PartlyShown, Scope
from gatekeeper.deps.sbtscopes import Scopes, ambiguous
from gatekeeper.deps.tools import VERSIONISH
from gatekeeper.lazy_pattern import lazy

MAX_LINE = 4000
MAX_DEFINITIONS = 2000
NEAR = 100  # lines of a hunk's side looked at around a changed line for a definition it uses
SBT = "org.scala-sbt:sbt"
_REF = r"[A-Za-z_][\w.]{0,200}+"
_LIT = r'"(?P<v>[^"\\\n]{1,100}+)"'
# The group may be a definition too (`val org = "com.disneystreaming.smithy"` then `org %% "smithytranslate-proto" %
# v`, smithy4s): resolved as a version's definition is, and only to a string that is a group id.
_GROUP = lazy(r"^[A-Za-z][\w\-]{0,100}+(?:\.[A-Za-z_][\w\-]{0,100}+){1,20}+$")
# A version the environment may override, its default written in the file: `Option(System.getenv("SCALAJS_VERSION"))
# .getOrElse("1.3.0")`, `sys.env.getOrElse("SCALAJS_VERSION", "1.3.0")`, `customScalaJSVersion.getOrElse("1.3.0")`
# (scalameta/munit, whose scala-steward bumps the default): a build without the variable uses the default, the version
# the definition is read at (as tools.shell_default reads `${V:-1.3.0}`).
_ENV = (r'(?:(?:Option\(\s*+(?:System\.getenv|System\.getProperty|sys\.env\.get|sys\.props\.get)\(\s*+"[\w.\-]{1,100}+"'
        r'\s*+\)\s*+\)|sys\.(?:env|props)\.get\(\s*+"[\w.\-]{1,100}+"\s*+\)|[A-Za-z_]\w{0,100}+)\s*+\.getOrElse\(\s*+'
        r'|sys\.(?:env|props)\.getOrElse\(\s*+"[\w.\-]{1,100}+"\s*+,\s*+)')
# A module line's version may be an environment default too (play-json's `addSbtPlugin("com.typesafe.play" %
# "play-docs-sbt-plugin" % sys.props.getOrElse("play.version", "2.8.2"))`): the default, as a definition's is read.
_MODULE = lazy(rf'(?:"(?P<g>[\w.\-]{{1,200}}+)"|(?<![\w."])(?P<gref>{_REF}))\s*+%%?%?\s*+"(?P<a>[\w.\-]{{1,200}}+)"'
               rf'\s*+%\s*+(?:{_LIT}|{_ENV}"(?P<dv>[^"\\\n]{{1,100}}+)"\s*+\)(?!\s*+\.)|(?P<ref>{_REF}))'
               rf'(?:\s*+%\s*+"?(?P<scope>[A-Za-z]{{1,20}}+)"?)?')
_OPEN_VAL = (r'^\s*+(?:(?:private|protected|final|override|lazy)\s++){0,4}+(?:val|def)\s++(?P<name>\w{1,200}+)\s*+'
             r'(?::\s*+String\s*+)?=')
_VAL = lazy(rf'{_OPEN_VAL}\s*+(?P<env>{_ENV})?{_LIT}(?(env)\s*+\))\s*+(?://.*+)?$')
# `val scalaJSVersion =` alone, its value on the next line (munit's project/plugins.sbt): read as one line when that
# line is an environment default and nothing else.
_VAL_OPENS = lazy(rf'{_OPEN_VAL}\s*+$')
_DEFAULT_ALONE = lazy(rf'^\s*+{_ENV}{_LIT}\s*+\)\s*+(?://.*+)?$')
_SCALA = lazy(rf'^\s*+(?:ThisBuild\s*+/\s*+)?scalaVersion\s*+:=\s*+(?:{_LIT}|(?P<ref>{_REF}))')
_CROSS = lazy(r'crossScalaVersions\s*+:=\s*+(?:Seq|List)\((?P<items>[^()\n]{0,2000}+)\)')
_PROPERTY = lazy(r"^\s*+sbt\.version\s*+[=:]\s*+(?P<v>[^\s#]{1,100}+)\s*+$")
# `val Scala213 = "2.13.14"`, `scala_3`, `scala212Version`, `Scala213V` (circe/circe): by sbt builds' convention, the
# Scala version itself
_SCALA_NAME = lazy(r"^(?i:scala)_?[23](?:_?\d{1,3}+)?(?:(?i:_?version)|V)?$")
_TEST_SCOPES = {"test", "it", "integrationtest", "bench"}
# `libraryDependencySchemes += "org.scala-lang.modules" %% "scala-xml" % VersionScheme.Always` (or `% "always"`): how
# sbt judges an eviction of that module, no version of it (scala-steward commits add them beside bumps). The whole-file
# reader skips them (no version); a hunk's changed line of them names nothing rather than refusing the file.
_SCHEME_SETTING = lazy(r"^\s*+(?:ThisBuild\s*+/\s*+)?libraryDependencySchemes\s*+(?:\+\+?+=|:=)")
_SCHEMES = frozenset({"always", "early-semver", "semver-spec", "pvp", "strict"})


def is_build_file(folder: str, base: str) -> bool:
    """Whether `folder/base` is a file sbt reads its build from."""
    in_project = folder == "project" or folder.endswith("/project")
    return base.endswith(".sbt") or in_project and (base.endswith(".scala") or base == "build.properties")


def _lines(data: bytes) -> list[str]:
    out: list[str] = []
    for line in text(data).splitlines():
        stripped = line.lstrip()
        if len(line) <= MAX_LINE and not stripped.startswith(("//", "/*", "*")):
            if out and _DEFAULT_ALONE.match(line) and _VAL_OPENS.match(out[-1]):
                out[-1] = f"{out[-1].rstrip()} {stripped}"  # a definition's value on the line below it
                continue
            out.append(line)
    return out


def _joined(side: list[tuple[str, bool]], index: int) -> str:
    """A hunk's changed line, or, where it is an environment default alone under `val NAME =`, the two as one line."""
    line = side[index][0]
    if index > 0 and _DEFAULT_ALONE.match(line) and _VAL_OPENS.match(above := side[index - 1][0]):
        return f"{above.rstrip()} {line.strip()}"
    return line


def scala_library(version: str) -> str:
    """The Scala library a Scala version names: `scala3-library` for 3.x, else `scala-library`."""
    return "org.scala-lang:scala3-library" if version.startswith("3") else "org.scala-lang:scala-library"


def _scope(found: str | None, line: str) -> Scope:
    if found is not None and found.lower() in _TEST_SCOPES:
        return "dev"
    return "build" if "addSbtPlugin" in line or "addCompilerPlugin" in line else "runtime"


def _uses(line: str, group: Callable[[str], str | None]) -> list[tuple[str, str | None, str | None, Scope]]:
    """(name, literal version, referenced definition, scope) of each module and Scala version a line writes; a
    group written as a definition's name is what `group` resolves it to (a module whose group it does not resolve
    to a group id is left out)."""
    out: list[tuple[str, str | None, str | None, Scope]] = []
    for m in _MODULE.finditer(line):
        g = m["g"]
        if g is None and ((g := group(m["gref"])) is None or not _GROUP.match(g)):
            continue
        out.append((f"{g}:{m['a']}", m["v"] or m["dv"], m["ref"], _scope(m["scope"], line)))
    if (s := _SCALA.match(line)) is not None:
        out.append(("", s["v"], s["ref"], "runtime"))
    if (c := _CROSS.search(line)) is not None:
        for item in c["items"].split(",")[:50]:
            item = item.strip()
            if item.startswith('"') and item.endswith('"') and len(item) > 2:
                out.append(("", item[1:-1], None, "runtime"))
            elif item:
                out.append(("", None, item, "runtime"))
    return out


def _defined(name: str, version: str) -> str:
    """What a definition no module line of its file uses is reported as: the Scala library for a Scala version's
    conventional name, else the definition's own name."""
    return scala_library(version) if _SCALA_NAME.match(name) else name


def parse_build(path: str, data: bytes) -> list[Dependency]:
    """Each module, plugin and Scala version at its version, a definition it uses resolved within the file; a
    version definition no line of the file uses, by its own name."""
    lines = _lines(data)
    definitions: dict[str, str] = {}
    for line in lines:
        if (d := _VAL.match(line)) is not None and len(definitions) < MAX_DEFINITIONS:
            definitions.setdefault(d["name"], d["v"])
    scopes = Scopes(lines, _VAL)
    used: set[str] = set()
    out: list[Dependency] = []

    def group(ref: str) -> str | None:
        if (name := ref.rsplit(".", 1)[-1]) in definitions:
            used.add(name)
        return scopes.resolve(ref, definitions)

    for line in lines:
        scopes.read(line)
        for name, version, ref, scope in _uses(line, group):
            alias = ""
            if ref is not None:
                alias = ref.rsplit(".", 1)[-1]  # `V.catsEffect`: a definition inside an object of the file
                if alias not in definitions:
                    continue  # defined in another file, or computed: that file reports the definition
                used.add(alias)
                version = scopes.resolve(ref, definitions)
            if version is None or not VERSIONISH.match(version):
                continue
            out.append(Dependency("maven", name or scala_library(version), version, path, True, scope, alias=alias))
    out += [Dependency("maven", _defined(name, version), version, path, True, "build", alias=name)
            for name, version in definitions.items() if name not in used and VERSIONISH.match(version)]
    return out


def parse_properties(path: str, data: bytes) -> list[Dependency]:
    """`project/build.properties`: the sbt version the launcher runs the build with."""
    out = []
    for line in _lines(data):
        if (m := _PROPERTY.match(line)) is not None and VERSIONISH.match(m["v"]):
            out.append(Dependency("maven", SBT, m["v"], path, True, "build"))
    return out


def _shown(side: list[tuple[str, bool]], index: int, name: str) -> str | None:
    """The version a definition within NEAR lines of the hunk's side gives `name`: a changed line using
    `Scala213` next to `val Scala213 = "2.13.14"` (bounded, so a hunk of many such lines stays linear)."""
    near = [shown for shown, _ in side[max(0, index - NEAR):index + NEAR] if name in shown]
    if name in ambiguous(near, _VAL):  # two blocks' definitions (attack 15): which one a line uses is not told here
        raise ManifestError(f"the hunk defines {name[:80]!r} more than once: which definition a line uses")
    for shown in near:
        if (d := _VAL.match(shown)) is not None and d["name"] == name:
            return str(d["v"])
    return None


def _using(side: list[tuple[str, bool]], index: int, name: str, version: str) -> list[tuple[str, ...]]:
    """The modules that unchanged lines within NEAR lines of the definition `name` in the hunk's side use it for
    (`"io.circe" %% "circe-core" % circeVersion` under `val circeVersion = "0.14.10"`): each at `version`."""
    found: list[tuple[str, ...]] = []
    def group(g: str) -> str | None:
        return _shown(side, index, g.rsplit(".", 1)[-1])  # a group written as a definition's name, defined near too
    for shown, changed in side[max(0, index - NEAR):index + NEAR]:
        if not changed and name in shown and len(shown) <= MAX_LINE and not shown.lstrip().startswith(("//", "/*")):
            found += [(module or scala_library(version), version, "maven", "", name)
                      for module, _, ref, _ in _uses(shown, group)
                      if ref is not None and ref.rsplit(".", 1)[-1] == name]
    return list(dict.fromkeys(found))  # a module used on two lines (its JVM and JS builds) is one entry


def sbt_line(side: list[tuple[str, bool]], index: int) -> list[tuple[str, ...]]:
    """A changed line of a build file's hunk (edits.py's LineReader): a module line with its version written in it,
    a Scala version, or a version definition (by its own name beside a `partial` problem: its uses are outside the
    hunk, or may be). A comment or a
    blank line holds none; any other changed line is build code, and refused (read the whole file: --tree)."""
    line = _joined(side, index)
    stripped = line.strip()
    if not stripped or stripped.startswith(("//", "/*", "*")):
        return []
    if len(line) > MAX_LINE:
        raise ManifestError("a build line too long to read")
    if (d := _VAL.match(line)) is not None:
        version = d["v"]
        if not VERSIONISH.match(version):
            return []
        # The modules whose unchanged lines near it in the hunk use it, else by its own name, as the whole-file reader
        # names a definition its file does not use (a key is no library); its other uses are not in the hunk, so the
        # move is reviewed, not allowed as an upgrade
        uses = _using(side, index, d["name"], version)
        shown = "its other uses are" if uses else "which modules use it is"
        raise PartlyShown(f"definition {d['name'][:80]!r} moves; {shown} not in the hunk",
                          uses or [(_defined(d["name"], version), version, "maven", "", d["name"])])
    found: list[tuple[str, ...]] = []
    cross = _CROSS.search(line) is not None
    modules = _uses(line, lambda ref: _shown(side, index, ref.rsplit(".", 1)[-1]))
    if (modules or _SCHEME_SETTING.match(line)) and all((version or "").lower() in _SCHEMES
                                                        or (ref or "").startswith("VersionScheme.")
                                                        for _, version, ref, _ in modules):
        return []  # an eviction scheme setting, or its modules' schemes (a Seq over lines): no dependency's version
    for name, version, ref, _ in modules:
        if cross and not name and ref is not None:
            continue  # `Seq("2.12.20", Scala213)`: the definition's own line shows where its version moves
        alias = "" if ref is None else ref.rsplit(".", 1)[-1]
        if version is None and (version := _shown(side, index, alias)) is None:
            raise ManifestError(f"a module line whose version is a name the hunk does not define: {stripped[:80]!r}")
        if VERSIONISH.match(version):
            found.append((name or scala_library(version), version, "maven", "", alias))
    if not found:
        raise ManifestError(f"not a dependency line of the build: {stripped[:80]!r}")
    return found
