"""Version records of a Starlark (`.bzl`) file: a call assigned to a name whose literal arguments give a `version` and
the download URL template(s) it fills (rules_kotlin's versions.bzl, round 58: "Update Kotlin to 2.3.10" moves
`KOTLIN_CURRENT_COMPILER_RELEASE = version(version = "2.3.10", url_templates = [".../JetBrains/kotlin/releases/
download/v{version}/kotlin-compiler-{version}.zip"], sha256 = …)`; `struct(version = …, url_template = …)` alike).

A record is read only when every template holds `{version}` and, filled, is a GitHub release download of one
repository at a tag that holds the version (the `tool` named by that repository, bazelrepos.py's reading), or a
Maven repository's `…/maven2/<group path>/<artifact>/<version>/<file>` (that `maven` artifact), all templates
naming the same one; the record's name is the alias. Any other record names nothing (a URL built by `+` or
`.format()`, a version that is no literal, templates naming different packages). Records are bounded: at most 4 KiB
of arguments, 16 templates each.

A line that is only a literal download URL, or a dict entry `"<key>url": "<URL>"` (rules_java's `JAVA_TOOLS_CONFIG`
`"github_url": ".../bazelbuild/java_tools/releases/download/java_v13.18/…"`; rules_python's coverage wheels, a tuple of
`"https://files.pythonhosted.org/packages/…/coverage-7.4.3-cp310-….whl"` and its digest), names the GitHub release
(`tool`, at its tag; a tag led by the project's name and `_v`/`-v` is that version) or the PyPI file's package
(`pip`, at the version its file name gives). Any other URL names nothing. From a patch a bare URL line is read only
right below a dict entry's tuple or list opening (`"aarch64-apple-darwin": (`), never a call's (round 59).
"""

from __future__ import annotations

import re

from gatekeeper.deps.model import Dependency
from gatekeeper.deps.tools import TOOL, VERSIONISH
from gatekeeper.lazy_pattern import lazy

# `NAME = version(` / `NAME = struct(` at a line's start (a module-level record or a `struct(...)` field), its
# arguments up to the first closing parenthesis: a nested call is not read
RECORD = lazy(r"^[ \t]*(?P<key>[A-Za-z_]\w{0,127})[ \t]*=[ \t]*[A-Za-z_]\w{0,63}\((?P<args>[^()]{0,4096})\)",
              re.MULTILINE)
_VERSION = lazy(r'(?<![\w.])version\s*=\s*"(?P<v>[^"\\\n]{1,128})"\s*(?:,|$)')
_TEMPLATES = lazy(r'(?<![\w.])url_templates?\s*=\s*(?:"(?P<one>[^"\\\n]{1,1000})"|\[(?P<many>[^\]]{0,4096})\])')
_ITEM = lazy(r'"([^"\\\n]{1,1000})"')
_GITHUB = lazy(r"^https?://(?:mirror\.bazel\.build/)?github\.com/(?P<repo>[\w-][\w.-]{0,99}/[\w-][\w.-]{0,99})/"
               r"releases/download/(?P<tag>[^/\s]{1,128})/[^/\s]{1,200}$")
_MAVEN = lazy(r"^https?://[\w.-]{1,253}(?:/[\w.-]{1,100}){0,3}?/maven2?/(?P<group>[\w.-]{1,100}(?:/[\w.-]{1,100}){0,15})"
              r"/(?P<artifact>[\w.-]{1,200})/(?P<version>[^/\s]{1,128})/[^/\s]{1,300}$")


# a tag led by its project's name: `java_v11.12` is java_tools' 11.12
NAMED_TAG = lazy(r"^[A-Za-z][A-Za-z0-9]{0,63}[_-]v(\d[\w.+-]{0,63})$")
_LITERAL = lazy(r'^[ \t]*(?P<key>"[\w.-]{0,64}url"[ \t]*:[ \t]*)?"(?P<url>https://[^"\s\\]{1,1000})"[ \t]*,?[ \t]*$',
                re.MULTILINE)
# a dict entry whose value is a tuple or list opened on its line: `"aarch64-apple-darwin": (`, `"cp310": [`
_ENTRY_OPEN = lazy(r'[ \t]*"[^"\\\n]{1,128}"[ \t]*:[ \t]*[(\[][ \t]*$')
_PYPI = lazy(r"^https://files\.pythonhosted\.org/packages/[0-9a-f/]{1,80}/(?P<name>[A-Za-z0-9][\w.]{0,99}?)-"
             r"(?P<version>\d[\w.+!]{0,63}?)(?:-\d\w*)?(?:-[\w.]{1,64}-[\w.]{1,64}-[\w.]{1,200}\.whl|\.tar\.gz|\.zip)$")


def _download(url: str) -> tuple[str, str, str] | None:
    """(ecosystem, name, version) a literal download URL names: a GitHub release, or a file of PyPI's."""
    if (m := _GITHUB.match(url)) is not None:
        tag = m.group("tag")
        version = named.group(1) if (named := NAMED_TAG.match(tag)) is not None else tag
        return (TOOL, m.group("repo").removesuffix(".git"), version) if VERSIONISH.match(version) else None
    if (m := _PYPI.match(url)) is not None:
        return "pip", m.group("name").replace("_", "-"), m.group("version")
    return None


def literals(path: str, body: str, calls: list[tuple[int, int]],
             keyed: bool = False) -> list[tuple[tuple[int, int], Dependency]]:
    """(span, dependency) of each line that is only a literal download URL or a `"…url": "…"` entry (module doc),
    outside the `calls` spans (a repository rule's URLs are its reader's to judge); only the entries when `keyed`
    (a patch's hunk may have cut a call's opening above a bare URL line)."""
    if "https://" not in body:
        return []
    out: list[tuple[tuple[int, int], Dependency]] = []
    for line in _LITERAL.finditer(body):
        if keyed and line.group("key") is None and not _under_entry(body, line.start()):
            continue
        if any(s <= line.start() < e for s, e in calls):
            continue
        if (found := _download(line.group("url"))) is not None:
            out.append(((line.start(), line.end()), Dependency(found[0], found[1], found[2], path, True, "build")))
    return out


def _under_entry(body: str, at: int) -> bool:
    """Whether the line above `at` opens a dict entry's tuple or list (`"aarch64-apple-darwin": (`): its items are
    data, not a repository rule call's arguments a hunk could have cut (round 59: rules_python's coverage wheels)."""
    if at == 0:
        return False
    start = body.rfind("\n", 0, at - 1) + 1
    return _ENTRY_OPEN.match(body, start, at - 1) is not None


def _named(template: str, version: str) -> tuple[str, str] | None:
    """(ecosystem, name) one filled template downloads; None when it is neither reading."""
    if "{version}" not in template:
        return None
    url = template.replace("{version}", version)
    if (m := _GITHUB.match(url)) is not None and version in m.group("tag"):
        return TOOL, m.group("repo").removesuffix(".git")
    if (m := _MAVEN.match(url)) is not None and m.group("version") == version:
        return "maven", f"{m.group('group').replace('/', '.')}:{m.group('artifact')}"
    return None


def read(path: str, body: str) -> list[tuple[tuple[int, int], Dependency]]:
    """(span, dependency) of each version record read (module doc)."""
    if "{version}" not in body:
        return []
    out: list[tuple[tuple[int, int], Dependency]] = []
    for record in RECORD.finditer(body):
        args = record.group("args")
        version, templates = _VERSION.search(args), _TEMPLATES.search(args)
        if version is None or templates is None or not VERSIONISH.match(version.group("v")):
            continue
        urls = [templates.group("one")] if templates.group("one") else _ITEM.findall(templates.group("many") or "")
        named = {_named(url, version.group("v")) for url in urls[:17]}
        if len(urls) > 16 or len(named) != 1 or (found := named.pop()) is None:
            continue
        out.append(((record.start(), record.end()),
                    Dependency(found[0], found[1], version.group("v"), path, True, "build", alias=record.group("key"))))
    return out
