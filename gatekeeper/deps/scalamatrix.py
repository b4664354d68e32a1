"""The Scala versions a workflow's build matrix lists: `scala: ['2.12.19', '2.13.15', '3.3.4']` (or one,
`scala: [2.13.15]`, `- scala: 2.13.15` in an `include:`), the versions an sbt build cross-compiles and publishes for.
sbt-github-actions (and sbt-typelevel, which wraps it) writes the list from the build's `crossScalaVersions`, and
scala-steward moves it with the build; where the build takes its Scala versions from a plugin (zio-sbt), the list is
the only place the repository writes them. Each item is read as the Scala library at that version, as sbt.py reads
`crossScalaVersions`; unlike a list of `python-version:`s, which names versions a job is tested on, this one names
what the build is built with.

Only the key `scala` and only when every item is a Scala 2 or 3 release (`2.13.15`, `3.3.4`, `3.8.0-RC1`): an
expression (`${{ … }}`), a wildcard (`2.13.x`) or any other item leaves the line unread. One bounded pattern a line.

The same generated workflow runs a step for one of those versions alone: `if: matrix.scala == '2.13.8'` (the
build's `scalaVersion`, where sbt-github-actions publishes the site or the release from), which scala-steward moves
with the build. Each `matrix.scala == '<release>'` of an `if:` line is the Scala library at that release, read as
an item of the list is; a binary version (`matrix.scala == '2.13'`, sbt-typelevel's form) or any other value is
not a release, and is not read."""

from __future__ import annotations

from gatekeeper.deps.model import Dependency
from gatekeeper.deps.sbt import scala_library
from gatekeeper.lazy_pattern import lazy

_LINE = lazy(r"""^\s*+(?:-\s++)?scala\s*+:\s*+(?:\[(?P<items>[^\[\]#]{1,400}+)\]|(?P<one>[^\s#\[\]{},]{1,80}+))"""
             r"""\s*+(?:#.*)?$""")
_ITEM = lazy(r"""\s*+(?P<q>["']?)(?P<version>[23]\.\d{1,4}+\.\d{1,4}+(?:-[\w.]{1,40}+)?)(?P=q)\s*+""")
MAX_ITEMS = 16
_CONDITION = lazy(r"""^\s*+(?:-\s++)?if\s*+:""")
_COMPARED = lazy(r"""\bmatrix\.scala\s*+==\s*+'(?P<version>[23]\.\d{1,4}+\.\d{1,4}+(?:-[\w.]{1,40}+)?)'""")
MAX_LINE = 1000


def scala_versions(path: str, line: str) -> list[Dependency]:
    """The Scala library at each version a workflow line's `scala:` key lists; [] for any other line."""
    if "scala" not in line:
        return []
    m = _LINE.match(line)
    if m is None:
        return _compared(path, line)
    items = m.group("items").split(",") if m.group("items") is not None else [m.group("one")]
    if len(items) > MAX_ITEMS:
        return []
    versions = [_ITEM.fullmatch(item) for item in items]
    if not all(versions):
        return []
    return [Dependency("maven", scala_library(v.group("version")), v.group("version"), path, True, "build")
            for v in versions if v is not None]


def _compared(path: str, line: str) -> list[Dependency]:
    """The Scala library at each release an `if:` line compares `matrix.scala` with; [] for any other line."""
    if "matrix.scala" not in line or len(line) > MAX_LINE or _CONDITION.match(line) is None:
        return []
    versions = [c.group("version") for c in _COMPARED.finditer(line)][:MAX_ITEMS]
    return [Dependency("maven", scala_library(v), v, path, True, "build") for v in dict.fromkeys(versions)]
