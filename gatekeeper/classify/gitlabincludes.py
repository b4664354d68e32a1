"""The local files a GitLab pipeline includes (`include:` of `.gitlab-ci.yml`, and of the files it includes):
GitLab merges them into the pipeline, so each is CI whatever its name or place (a job needs no `stage:`).

Read by lines, not parsed: `!reference` tags and anchors break YAML loaders, and only path-shaped values of an
`include:` block count. Other projects' files (`project:`/`file:`), `remote:` URLs, `template:` and `component:`
names are not this repository's files. Globs (`/ci/*.yml`) match as fnmatch does, `*` across folders too (wider
than GitLab's, never narrower).
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Iterable

from gatekeeper.lazy_pattern import lazy

ROOT = ".gitlab-ci.yml"
MAX_FILES = 64  # included files followed per tree; past it every YAML file counts as included (fail closed)
_INCLUDE = lazy(r"^include[ \t]*:(.*)$", re.MULTILINE)
_PATH = lazy(r"""(?:^|[\s\[{,:'"-])/?([\w.*/-]*[\w*]\.ya?ml)\b""")
_ELSEWHERE = lazy(r"\b(?:project|file|remote|template|component)[ \t]*:")


def included(text: str) -> list[str]:
    """The local paths (globs kept) the `include:` blocks of a GitLab CI file name, without a leading `/`."""
    found: list[str] = []
    for match in _INCLUDE.finditer(text):
        block = [match.group(1)]
        for line in text[match.end() + 1:].splitlines():
            if line and not line[0].isspace() and not line.startswith(("#", "-")):
                break  # the next top-level key
            block.append(line)
        for line in block:
            if not _ELSEWHERE.search(line):
                found += [path.lstrip("/") for path in _PATH.findall(line.partition(" #")[0])]
    return found


def _is_glob(pattern: str) -> bool:
    return any(c in pattern for c in "*?[")


def matches(pattern: str, path: str) -> bool:
    return path == pattern or (_is_glob(pattern) and fnmatch.fnmatchcase(path, pattern))


def expand(pattern: str, paths: Iterable[str]) -> list[str]:
    """The paths `pattern` names (a glob: every match, up to MAX_FILES; a plain path: itself when present)."""
    if not _is_glob(pattern):
        return [pattern] if pattern in paths else []
    return [path for path in paths if fnmatch.fnmatchcase(path, pattern)][:MAX_FILES]
