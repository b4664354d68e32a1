"""Bazel repository rules that download a GitHub release: `http_archive(...)` and `http_file(...)` calls of a
WORKSPACE file, a `.bzl` file or a MODULE.bazel (`http_file = use_repo_rule(...)`), also passed to `maybe(...)`
(`maybe(http_archive, name = …)`, or a file's own `_maybe`), which people bump by hand
("Bump Robolectric to 4.12.1": `urls = [".../robolectric-bazel/releases/download/4.12.1/…tar.gz"]`, and
rules_jvm_external's four `http_file`s of buildifier at `…/bazelbuild/buildtools/releases/download/v7.1.2/…`).

A call of literal keyword arguments (strings, lists of strings) whose `url`/`urls` are all GitHub downloads of one
repository at one tag or commit (`/releases/download/<tag>/…`, `/archive/refs/tags/<tag>.tar.gz`,
`/archive/<tag or 40-hex commit>.zip`, also behind `https://mirror.bazel.build/`) is the `tool` dependency named by
that repository at that tag, its `name` the alias. Any other call (a URL built by `+` or `.format()`, an argument
that is no literal — a variable only beside the download's own `name`/`url(s)`/`sha256`/`integrity`/`strip_prefix`,
round 56 —, a parenthesis inside, another host, two repositories or tags) names nothing; `http://github.com/…` is the
same repository as `https://` (round 56: a WORKSPACE's move off an `http://` URL was `unparsable`); `held` keeps the
`name` of each such call, so heldvars.py makes a dependency one side reads and the other side still downloads by a
call not read `unparsable`, never a removal. Calls are bounded: at most 4 KiB of arguments, 16 URLs each.
"""

from __future__ import annotations

import re

from gatekeeper.deps import bzlversions
from gatekeeper.deps.hunks import CHANGED, HUNK
from gatekeeper.deps.loaders import text
from gatekeeper.deps.model import Dependency, ManifestError, PartlyRead
from gatekeeper.deps.tools import TOOL, VERSIONISH
from gatekeeper.lazy_pattern import lazy

UNNAMED = "an http_archive or http_file call without a literal name"  # held for a call whose name is not read
_RULES = ("http_archive", "http_file")
# the rule called, or passed first to Bazel's `maybe` (@bazel_tools' utils.bzl), which declares a repository once
# (rules_swift's own `_maybe(http_archive, name = …, urls = […])`, round 54); any other wrapper may rewrite its URLs
_RULE_OPEN = r"^[ \t]*(?:(?:http_archive|http_file)[ \t]*\(|_?maybe[ \t]*\(\s*+(?:http_archive|http_file)\s*+,)"
_CALL = lazy(_RULE_OPEN + r"([^()]{0,4096})\)", re.MULTILINE)
_OPEN = lazy(_RULE_OPEN, re.MULTILINE)
_NAME = lazy(r'(?<![\w.])name\s*=\s*"([^"\\\n]{1,200})"')
# a literal argument: a string, a list of strings, True/False/None, a number; or a variable (round 56: rules_xcodeproj's
# `ignore_version_differences = ignore_version_differences`), read only where it cannot name the download (_OWN)
_ARG = lazy(r'\s*(\w+)\s*=\s*(?:"([^"\\\n]*)"|\[\s*((?:"[^"\\\n]*"\s*(?:,\s*)?){0,16})\]|True|False|None|\d+'
            r'|(?P<variable>[A-Za-z_]\w*))\s*(?:,|$)')
_OWN = frozenset({"name", "url", "urls", "sha256", "integrity", "strip_prefix"})  # what names and checks the download
_ITEM = lazy(r'"([^"\\\n]*)"')
_TEXT = lazy(r"\S")
_GITHUB = lazy(r"^https?://(?:mirror\.bazel\.build/)?github\.com/(?P<repo>[\w-][\w.-]{0,99}/[\w-][\w.-]{0,99})/"
               r"(?:releases/download/(?P<tag>[^/\s]{1,128})/[^/\s]{1,200}|"
               r"archive/(?:refs/tags/)?(?P<archive>[^/\s]{1,128}?)\.(?:tar\.gz|tgz|zip|tar\.xz|tar\.bz2))$")
_COMMIT = lazy(r"^[0-9a-f]{40}$")
# a mirror.bazel.build URL that is no GitHub path: Bazel's mirror, read only beside a GitHub URL of the same list
_MIRROR = lazy(r"^https://mirror\.bazel\.build/(?!github\.com/)\S{1,1000}$")
# a changed line of a download's own (its URL, digest or unpacked folder): from a patch, one must lie in a call shown
_DOWNLOAD_LINE = lazy(r"^\s*(?:(?:urls?|sha256|integrity|strip_prefix)\s*=|\"https?://)")
# a hunk's first line that is the rule passed first to a wrapper: the hunk cut only the wrapper's opening line above
_CUT_OPEN = lazy(r"^[ \t]*(?:http_archive|http_file)[ \t]*,[ \t]*$")
_CUT = "maybe("  # read in its place, as the file reader reads Bazel's `maybe`


def _arguments(call: str) -> tuple[dict[str, str], list[str]] | None:
    """The string arguments and the URLs of one call's text; None when one argument is no literal."""
    args: dict[str, str] = {}
    urls: list[str] = []
    at = 0
    while _TEXT.search(call, at) is not None:
        arg = _ARG.match(call, at)
        if arg is None:
            return None
        key, value, items = arg.group(1), arg.group(2), arg.group(3)
        if arg.group("variable") is not None and key in _OWN:
            return None
        if value is not None:
            args[key] = value
            if key == "url":
                urls.append(value)
        elif items is not None and key == "urls":
            urls += _ITEM.findall(items)
        at = arg.end()
    return args, urls


def _release(urls: list[str]) -> tuple[str, str] | None:
    """(repository, tag) every URL of `urls` downloads; None when one is no GitHub download or they differ."""
    found: set[tuple[str, str]] = set()
    for url in urls:
        m = _GITHUB.match(url)
        if m is None and _MIRROR.match(url):
            continue  # Bazel's own mirror of the download another URL of the list names (rules_java's java_tools)
        if m is None:
            return None
        version = m.group("tag") or m.group("archive")
        if (named := bzlversions.NAMED_TAG.match(version)) is not None:
            version = named.group(1)  # a tag led by its project's name: `java_v11.12` is java_tools' 11.12
        if not (VERSIONISH.match(version) or _COMMIT.match(version)):
            return None
        found.add((m.group("repo").removesuffix(".git"), version))
    return found.pop() if len(found) == 1 else None


def read(path: str, body: str) -> tuple[list[tuple[str, Dependency]], set[str]]:
    """(call name, dependency) of each call read, each dependency once; and the names of the calls not read
    (UNNAMED for one whose name is not a literal)."""
    if not any(rule in body for rule in _RULES):
        return [], set()
    found: dict[tuple[str, str], tuple[str, Dependency]] = {}
    read_at: set[int] = set()
    for call in _CALL.finditer(body):
        parsed = _arguments(call.group(1))
        if parsed is None or (release := _release(parsed[1])) is None or not parsed[1]:
            continue
        name = parsed[0].get("name", "")
        read_at.add(call.start())
        found.setdefault(release, (name or UNNAMED, Dependency(TOOL, release[0], release[1], path, True, "build",
                                                               alias=name)))
    held: set[str] = set()
    for opened in _OPEN.finditer(body):
        if opened.start() not in read_at:
            named = _NAME.search(body, opened.end(), opened.end() + 4096)
            held.add(named.group(1) if named is not None else UNNAMED)
    return list(found.values()), held


def parse_repos(path: str, data: bytes) -> list[Dependency]:
    """The GitHub releases a WORKSPACE or `.bzl` file's `http_archive`/`http_file` calls download (module doc), and
    its version records (bzlversions.py)."""
    body = strip_comments(text(data))
    return _once([dep for _, dep in read(path, body)[0]] + [dep for _, dep in bzlversions.read(path, body)]
                 + [dep for _, dep in bzlversions.literals(path, body, _calls(body))])


def _calls(body: str) -> list[tuple[int, int]]:
    """Each repository rule call's span, from its opening to the first `)` after it (or the text's end)."""
    return [(m.start(), close if (close := body.find(")", m.end())) >= 0 else len(body)) for m in _OPEN.finditer(body)]


def _once(deps: list[Dependency]) -> list[Dependency]:
    """Each (ecosystem, name, version) once: two records of one download are one dependency."""
    out: dict[tuple[str, str, str], Dependency] = {}
    for dep in deps:
        out.setdefault((dep.ecosystem, dep.name, dep.version), dep)
    return list(out.values())


def strip_comments(source: str) -> str:
    return re.sub(r"#[^\n\"]*$", "", source, flags=re.MULTILINE)  # comments (not inside a string's line)


def repos_hunks(path: str, data: bytes) -> list[Dependency]:
    """From a patch's one side (hunks.sides): the calls each hunk shows whole. A changed URL, digest or prefix line
    in no call read is a ManifestError (the caller's `partial`): the hunk cut its call, or the call is not read. A hunk
    whose first line is the rule passed first (`http_archive,`) cut only its wrapper's opening line: its call is read as
    `maybe(...)` and named beside a `partial` problem (PartlyRead), whether the wrapper is `maybe` not being shown."""
    out: list[Dependency] = []
    cut: list[Dependency] = []
    for chunk in text(data).split("\n" + HUNK + "\n"):
        lines = [line for line in chunk.splitlines() if line != HUNK]
        opened = bool(lines) and _CUT_OPEN.match(lines[0].removeprefix(CHANGED)) is not None
        if opened:
            lines.insert(0, _CUT)
        shown = [strip_comments(line.removeprefix(CHANGED)) for line in lines]
        body = "\n".join(shown)
        deps, _ = read(path, body)
        spans = [(m.start(), m.end()) for m in _CALL.finditer(body)
                 if (p := _arguments(m.group(1))) is not None and p[1] and _release(p[1]) is not None]
        if opened and spans and spans[0][0] == 0:
            first = _arguments(_CALL.match(body).group(1))  # type: ignore[union-attr] # spans[0] is its match
            cut += [dep for name, dep in deps if first is not None and name == (first[0].get("name") or UNNAMED)]
        records = bzlversions.read(path, body) + bzlversions.literals(path, body, _calls(body), keyed=True)
        spans += [span for span, _ in records]
        at = 0
        for line, bare in zip(lines, shown, strict=True):
            start, at = at, at + len(bare) + 1
            if line.startswith(CHANGED) and _DOWNLOAD_LINE.match(bare) and not any(s <= start < e for s, e in spans):
                raise ManifestError("a changed download line outside an http_archive/http_file call the hunk "
                                    "shows whole, of literal GitHub release URLs")
        out += [dep for _, dep in deps] + [dep for _, dep in records]
    if cut:
        names = ", ".join(sorted({dep.alias or dep.name for dep in cut})[:3])
        raise PartlyRead(f"the hunk cuts the opening line of the call downloading {names[:160]}: read as Bazel's "
                         "maybe(...), the wrapper it passes the rule to is not in the patch", _once(out))
    return _once(out)
