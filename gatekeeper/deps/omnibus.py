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
from gatekeeper.deps.model import Dependency, ManifestError
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


def parse_definition(path: str, data: bytes) -> list[Dependency]:
    """The definition's version: its literal `default_version` (every such line one value), or the helper's version
    `default_version version.print` prints (every helper line one value). A written version beside another, or
    beside a `default_version` line of another form, is ManifestError, as from a patch (attack 32: naming nothing
    there read as the software's removal with `--tree`); a definition whose versions are all computed
    (`default_version current_ruby_version`, an environment lookup) names nothing, as before."""
    lines = text(data).splitlines()
    defaults = [line for line in lines if _SETS_DEFAULT.match(line)]
    literal = {m.group("version") for line in defaults if (m := _DEFAULT.match(line)) is not None}
    printed = sum(1 for line in defaults if _PRINTED.match(line))
    helpers = [line for line in lines if _SETS.match(line) and not _SETS_DEFAULT.match(line)]
    helped = {m.group("version") for line in helpers if (m := _HELPER.match(line)) is not None}
    if literal:
        if len(literal) > 1 or any(_DEFAULT.match(line) is None for line in defaults):
            raise ManifestError(_TWICE)
        version = next(iter(literal))
    elif printed and helped:
        if len(helped) > 1 or printed < len(defaults) or any(_HELPER.match(line) is None for line in helpers):
            raise ManifestError(_TWICE)
        version = next(iter(helped))
    else:
        return []
    return [Dependency(TOOL, _software(path), version, path, True, "runtime")]


_TWICE = ("default_version is set more than once or in a form not read: which version the build takes is the "
          "program's own logic")


def definition_edits(path: str, data: bytes) -> tuple[list[Dependency], list[Dependency]]:
    """(base, head) of a definition's hunks (edits.read): a changed literal `default_version` line or helper line,
    named by the file; another changed line setting a version is refused (ManifestError: a partial problem)."""
    name = _software(path)

    def line_reader(side: Sequence[tuple[str, bool]], index: int) -> list[tuple[str, ...]]:
        line = side[index][0]
        if (m := _DEFAULT.match(line) or _HELPER.match(line)) is not None:
            return [(name, m.group("version"))]
        if _SETS.match(line):
            raise ManifestError(f"a version not written in its line: {line.strip()[:80]!r}")
        return []

    return edits.read(TOOL, line_reader, path, data)
