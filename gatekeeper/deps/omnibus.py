"""Omnibus software definitions (`config/software/<name>.rb`): the version of each piece of software an Omnibus
package builds from source and ships.

gitlabhq/omnibus-gitlab's `config/software/rubygems.rb` says `name 'rubygems'` and `default_version '3.5.7'`; its bump
commits ("Bump rubygems to version 3.5.7") move that line. Most of its definitions write the version through GitLab's
helper instead (`version = Gitlab::Version.new('alertmanager', '0.27.0')` then `default_version version.print`), so
that form is read too. A definition is a Ruby program: only a literal `default_version` line, or the helper's line
with a literal version when `default_version` prints it, is read, each set exactly once in the file; anything else
(`default_version current_ruby_version`, an environment variable, a checksum of the file) names nothing. The
software is named by the file's name (Omnibus' convention: the definition of `rubygems` is `rubygems.rb`), so both
modes name it alike; the ecosystem is `tool`, scope `runtime` (the package ships it). From a patch, a changed
`default_version '…'` line or helper line is read as shown (edits.py's rules).
"""

from __future__ import annotations

import posixpath
from collections.abc import Sequence

from gatekeeper.deps import edits
from gatekeeper.deps.loaders import text
from gatekeeper.deps.model import Dependency, ManifestError, PartialEdits
from gatekeeper.deps.tools import TOOL
from gatekeeper.lazy_pattern import lazy

_DEFAULT = lazy(r"""^\s*default_version\s*\(?\s*(?P<q>["'])(?P<version>[\w.+-]{1,100})(?P=q)\s*\)?\s*(?:#.*)?$""")
_PRINTED = lazy(r"^\s*default_version\s*\(?\s*version\.print\b")
_HELPER = lazy(r"""^\s*version\s*=\s*Gitlab::Version\.new\(\s*(?:name|(?P<q>["'])[\w.+-]{1,100}(?P=q))\s*,\s*"""
               r"""(?P<vq>["'])(?P<version>[\w.+-]{1,100})(?P=vq)\s*\)\s*(?:#.*)?$""")
_SETS = lazy(r"^\s*(?:default_version\b|version\s*=)")
_SETS_DEFAULT = lazy(r"^\s*default_version\b")


def is_definition(folder: str, base: str) -> bool:
    """`config/software/<name>.rb` at any depth (an Omnibus project's software definitions)."""
    return base.endswith(".rb") and (folder == "config/software" or folder.endswith("/config/software"))


def _software(path: str) -> str:
    return posixpath.basename(path).removesuffix(".rb")


def setting(line: str) -> bool:
    """Whether the line sets the version (`default_version …` or `version = …`), read or not (heldvars.py)."""
    return _SETS.match(line) is not None


def parse_definition(path: str, data: bytes) -> list[Dependency]:
    lines = text(data).splitlines()
    defaults = sum(1 for line in lines if _SETS_DEFAULT.match(line))
    if defaults > 1 or sum(1 for line in lines if _SETS.match(line)) - defaults > 1:
        return []  # set more than once (branches of the program): which one the build takes is the program's
    default = next((m.group("version") for line in lines if (m := _DEFAULT.match(line)) is not None), None)
    if default is None and any(_PRINTED.match(line) for line in lines):
        default = next((m.group("version") for line in lines if (m := _HELPER.match(line)) is not None), None)
    if default is None or default in ("master", "main", "HEAD"):
        return []
    return [Dependency(TOOL, _software(path), default, path, True, "runtime")]


def definition_edits(path: str, data: bytes) -> tuple[list[Dependency], list[Dependency]]:
    """(base, head) of a definition's hunks (edits.read): a changed literal `default_version` line or helper line,
    named by the file; another changed line setting a version is refused (ManifestError: a partial problem), and a
    version line the hunks change on one side only is named beside a partial problem (PartialEdits)."""
    name = _software(path)

    def line_reader(side: Sequence[tuple[str, bool]], index: int) -> list[tuple[str, ...]]:
        line = side[index][0]
        if (m := _DEFAULT.match(line) or _HELPER.match(line)) is not None:
            return [(name, m.group("version"))]
        if _SETS.match(line):
            raise ManifestError(f"a version not written in its line: {line.strip()[:80]!r}")
        return []

    base, head = edits.read(TOOL, line_reader, path, data)
    if bool(base) != bool(head):  # a version line gone (or come) alone: the definition may set it elsewhere
        raise PartialEdits("its hunks change a version line on one side only: whether the definition still sets "
                           "another is out of sight (heldvars.py)", (base, head))
    return base, head
