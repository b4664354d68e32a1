"""The requirements files a workflow's `pip install -r FILE` steps install (docs/classification.md, "Requirements
includes"): pip reads such a file as requirements whatever its name (`ci/deps.txt`), as it reads one a requirements
file includes by `-r`. Read from the workflow's text, line by line (a `run:` block's continued lines joined), not as
YAML: a `pip install` in any step, of any shell, counts. A path is resolved against the repository's root and against
every `working-directory:` the workflow names (over-reading a folder is a review, never an allow); a path with an
expression (`${{ matrix.req }}`, `$REQ`), a URL, an absolute path or one above the root names nothing.
"""

from __future__ import annotations

import posixpath
import re

# `pip install`, `pip3 install`, `python -m pip install`, `uv pip install` (and `pip download`, which resolves the
# same way), up to the end of the logical line.
_PIP = re.compile(r"(?:^|[\s;&|(`])(?:pip3?(?:\.\d+)?|-m[ \t]+pip|uv[ \t]+pip)[ \t]+(?:install|download|sync)\b(.*)$")
_OPTION = re.compile(r"^(?:-r|-c|--requirement|--constraint)(?:=(.*)|(.+))?$")
_WORKING_DIRECTORY = re.compile(r"^[ \t]*(?:-[ \t]+)?working-directory[ \t]*:[ \t]*['\"]?([^'\"#\n]+?)['\"]?[ \t]*$",
                                re.MULTILINE)
_EXPRESSION = ("$", "{{", "%", "`")


def installed_requirements(text: str) -> list[str]:
    """The repository paths the `pip install -r/-c` commands of a workflow's `text` name."""
    words: list[str] = []
    for line in _logical_lines(text):
        if (m := _PIP.search(line)) is not None:
            words += _requirement_words(m.group(1).split())
    if not words:
        return []
    folders = [""] + [folder.strip().strip("/") for folder in _WORKING_DIRECTORY.findall(text)]
    found: list[str] = []
    for word in words:
        for folder in folders:
            if (path := _resolved(folder, word)) is not None and path not in found:
                found.append(path)
    return found


def _logical_lines(text: str) -> list[str]:
    """`text`'s lines, a line ending in a backslash joined with the next (a shell command continued)."""
    out: list[str] = []
    pending = ""
    for line in text.splitlines():
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        out.append(pending + line)
        pending = ""
    if pending:
        out.append(pending)
    return out


def _requirement_words(tokens: list[str]) -> list[str]:
    """The file arguments of `-r`/`-c` options among a command's `tokens` (`-r FILE`, `-rFILE`, `-r=FILE`)."""
    found: list[str] = []
    for index, token in enumerate(tokens):
        if token in (";", "&&", "||", "|"):
            break  # the next command
        if (m := _OPTION.match(token)) is None:
            continue
        value = m.group(1) if m.group(1) is not None else m.group(2)
        if value is None:
            value = tokens[index + 1] if index + 1 < len(tokens) else ""
        value = value.strip("'\"")
        if value and not value.startswith("-"):
            found.append(value)
    return found


def _resolved(folder: str, word: str) -> str | None:
    if any(mark in word for mark in _EXPRESSION) or "://" in word or word.startswith(("/", "~")) \
            or any(mark in folder for mark in _EXPRESSION):
        return None
    path = posixpath.normpath(posixpath.join(folder, word))
    if path.startswith("../") or path in ("..", ".") or path.startswith("/"):
        return None
    return path
