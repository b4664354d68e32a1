"""The local files a GitLab pipeline includes (`include:` of `.gitlab-ci.yml`, of the files it includes, and of a
job's `trigger:` child pipeline): GitLab merges them into a pipeline, so each is CI whatever its name or place (a
job needs no `stage:`).

Read twice, and every path either reading finds counts (fail closed): as YAML (libyaml's events, yamlroots.py:
quoted, escaped and explicit keys, flow style, anchors, aliases and merge keys, tags such as `!reference`, a BOM,
CR line breaks — every form GitLab's YAML reader takes), and by lines, for what follows a YAML error. A value may
name a file by a variable (`ci/$CI_COMMIT_REF_NAME.yml`): the variable matches anything. Other projects' files
(`project:`/`file:`), `remote:` URLs, `template:` names and components are not this repository's files, unless the
project is named by a variable (`$CI_PROJECT_PATH`: this repository, maybe). Globs (`/ci/*.yml`) match as fnmatch
does, `*` across folders too (wider than GitLab's, never narrower).
"""

from __future__ import annotations

import fnmatch
import posixpath
import re
from collections.abc import Iterable

from gatekeeper.classify.ansible import lines_from
from gatekeeper.classify.yamlnodes import Node, values_under
from gatekeeper.lazy_pattern import lazy

ROOT = ".gitlab-ci.yml"
MAX_FILES = 64  # included files followed per tree; past it every YAML file counts as included (fail closed)
# What counts as included when a pipeline cannot be read whole (too many files, too long): every YAML file, by
# GitLab's own test of a local include's name (`.yml`/`.yaml`, any case).
EVERY_YAML = ("*.[yY][mM][lL]", "*.[yY][aA][mM][lL]")
_INCLUDE = lazy(r"^include[ \t]*:(.*)$", re.MULTILINE)
# A YAML path in a line: a run of path characters, from the line's start, a blank, `[{,:'"` or a `-` in it.
_RUN = lazy(r"[\w.*/-]+")
_RUN_PATH = lazy(r"/?([\w.*/-]*[\w*]\.ya?ml)\b", re.IGNORECASE)
_BEFORE_PATH = "[{,:'\""
_ELSEWHERE = lazy(r"\b(?:project|file|remote|template|component)[ \t]*:")
_VARIABLE = lazy(r"\$(?:\{[^}]*\}?|\w+)")


def included(text: str, own: frozenset[str] = frozenset()) -> list[str]:
    """The local paths (globs kept, a variable made `*`) the `include:` values of a GitLab CI file name, without a
    leading `/`. `own`: this repository's project paths, lower case (`project_path`): a `project:` or component
    named by one of them is this repository (red team 16: `project: acme/app` in acme/app itself was another's)."""
    return list(dict.fromkeys([*_by_yaml(text, own), *_by_lines(text)]))


def project_path(url: str) -> str | None:
    """The GitLab project path (`group/sub/app`, lower case) a remote URL names: `https://host/group/app.git`,
    `ssh://git@host:2222/group/app`, `git@host:group/app.git`; None for a local path or a URL without one."""
    url = url.strip()
    if "://" in url:
        path = url.partition("://")[2].partition("/")[2]
    elif ":" in url.partition("/")[0]:  # scp-like `user@host:path`
        path = url.partition(":")[2]
    else:
        return None
    path = path.strip("/").removesuffix(".git").strip("/").lower()
    return path or None


def _by_yaml(text: str, own: frozenset[str]) -> list[str]:
    """Every `include:` value at any depth of every document (the root's, a child pipeline's under `trigger:`)."""
    found: list[str] = []
    for spec in values_under(text, "include"):
        found += _local(spec, set(), own)
    return found


def _this(project: str, own: frozenset[str]) -> bool:
    """Whether a `project:` value may be this repository: a variable (`$CI_PROJECT_PATH`), or one of its paths."""
    return "$" in project or project.strip().strip("/").lower() in own


def _local(spec: Node, seen: set[int], own: frozenset[str]) -> list[str]:
    """The repository paths one include value names: a string, a list of them, or a mapping."""
    if isinstance(spec, str):
        return [] if "://" in spec else [_normal(spec)]
    if not isinstance(spec, dict | list) or id(spec) in seen:
        return []
    seen.add(id(spec))
    if isinstance(spec, list):
        return [path for item in spec for path in _local(item, seen, own)]
    found = [_normal(path) for path in _strings(spec, "local")]
    if any(_this(project, own) for project in _strings(spec, "project")):  # maybe this project: its files count
        found += [_normal(path) for path in _strings(spec, "file")]
    for component in _strings(spec, "component"):
        project, _, name = (component.rpartition("@")[0] or component).rpartition("/")
        # `FQDN/group/app/NAME@version`: the project is the path after the server's name
        if name and (_this(project, own) or _this(project.partition("/")[2], own)):
            # a component of this project: templates/NAME.yml or templates/NAME/template.yml
            found += [_normal(f"templates/{name}.yml"), _normal(f"templates/{name}/template.yml")]
    return found


def _strings(mapping: dict[str, list[Node]], key: str) -> list[str]:
    """The strings `key` holds in `mapping` and the mappings it merges (`<<:`), a list's items too; each merged
    mapping once."""
    found: list[str] = []
    seen: set[int] = set()
    stack: list[Node] = [mapping]
    while stack:
        node = stack.pop()
        if not isinstance(node, dict) or id(node) in seen:
            continue
        seen.add(id(node))
        for value in node.get(key, ()):
            found += [value] if isinstance(value, str) else [v for v in value if isinstance(v, str)] \
                if isinstance(value, list) else []
        for merged in node.get("<<", ()):
            stack += merged if isinstance(merged, list) else [merged]
    return found


def _normal(path: str) -> str:
    """The repository path GitLab reads: no leading `/`, `./` or doubled `/`; a variable matches anything."""
    return posixpath.normpath("/" + _VARIABLE.sub("*", path.strip())).lstrip("/")


def _by_lines(text: str) -> list[str]:
    found: list[str] = []
    for match in _INCLUDE.finditer(text):
        block = [match.group(1)]
        for line in lines_from(text, match.end() + 1):
            if line and not line[0].isspace() and not line.startswith(("#", "-")):
                break  # the next top-level key
            block.append(line)
        for line in block:
            line = line.partition(" #")[0]
            if not _ELSEWHERE.search(line) and "://" not in line:  # a URL is remote
                found += [path.lstrip("/") for path in _line_paths(line)]
    return found


def _line_paths(line: str) -> list[str]:
    """The YAML paths of a line, as `(?:^|[\\s\\[{,:'"-])/?([\\w.*/-]*[\\w*]\\.ya?ml)\\b` finds them (IGNORECASE), read
    once per run of path characters: found by that pattern, a run with no path was read again from each of its `-`
    (quadratic: 4 KiB of them 0.4 CPU-s). Every match of the pattern starts at its run's first start (the run's own
    start after a blank, `[{,:'"` or the line's start; else after its first `-`) and ends at the run's last path
    end, so one match per run, tried once, is the same list."""
    out = []
    for run in _RUN.finditer(line):
        at = run.start()
        if at and not (line[at - 1].isspace() or line[at - 1] in _BEFORE_PATH):
            at = line.find("-", at, run.end()) + 1
            if not at:
                continue
        if (found := _RUN_PATH.match(line, at)) is not None:
            out.append(found.group(1))
    return out


def is_glob(pattern: str) -> bool:
    return any(c in pattern for c in "*?[")


def matches(pattern: str, path: str) -> bool:
    return path == pattern or (is_glob(pattern) and fnmatch.fnmatchcase(path, pattern))


def expand(pattern: str, paths: Iterable[str]) -> list[str]:
    """The paths `pattern` names (a glob: every match, up to MAX_FILES; a plain path: itself when present)."""
    if not is_glob(pattern):
        return [pattern] if pattern in paths else []
    return [path for path in paths if fnmatch.fnmatchcase(path, pattern)][:MAX_FILES]
