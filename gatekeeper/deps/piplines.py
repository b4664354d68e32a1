"""Requirement lines pip reads that PEP 508 alone does not: a bare URL, a local path, and a marker glued to a direct
reference (pip/_internal/req/constructors.py `parse_req_from_line`)."""

from __future__ import annotations

import re

from gatekeeper.deps.loaders import url_version
from gatekeeper.deps.model import Dependency, Scope
from gatekeeper.lazy_pattern import lazy

_URL = lazy(r"^(?:(?:git|hg|svn|bzr)\+)?(?:https?|ssh|file|git)://\S+$")
# A local project or archive pip installs by its path: a line starting with `.` or `/` (`.[testutils,spelling]`,
# `./packages/core`, `../dist/x-1.0-py3-none-any.whl`), its extras after it.
_LOCAL = lazy(r"^(?:\.{1,2}(?:/[\w.+@-]+)*/?|(?:/[\w.+@-]+)+/?)(?:\[[\w\s,.-]*\])?$")
# `NAME[extras] @ REFERENCE;MARKER`: pip ends a line that is not itself a URL at its first `;` (its marker separator is
# `; ` only for a line that starts with a URL's scheme), PEP 508 a reference only at a blank (urllib3's dev
# requirements, round 54: `trio @ git+https://…@e4c8…;python_version == "3.13"`, which packaging refuses, and
# `…@v1;python_version<'3'`, which it reads as one URL holding the marker)
_GLUED = lazy(r"^(?P<req>[A-Za-z0-9][\w.-]*+\s*+(?:\[[^\]]*+\])?+\s*+@[^;]*+);(?P<marker>.*)$", re.DOTALL)


def spaced_marker(line: str) -> str:
    """`line` as pip splits it: a direct reference's glued marker set off by blanks (`a @ URL ; M`), a glued empty
    marker dropped; any other line as it is."""
    m = _GLUED.match(line)
    if m is None:
        return line
    return f"{m['req'].rstrip()} ; {m['marker'].strip()}" if m["marker"].strip() else m["req"].rstrip()


def url_requirement(line: str, path: str, scope: Scope) -> Dependency | None:
    """A bare URL line pip installs (`git+https://host/org/repo.git@ref#egg=name`): named by its
    `egg=` fragment, else by the URL's last path segment; its version is the URL itself. pip ends a URL at its first
    `; ` (a semicolon and a blank) and reads the rest as the marker (sqlalchemy's tox.ini: `git+https://…/greenlet.git
    #egg=greenlet; python_version >= '3.11'`, round 47); the entry's options keep the marker, as a requirement's."""
    from packaging.markers import InvalidMarker, Marker  # deferred as in pypi._requirement

    cut = re.search(r";\s", line)
    url, rest = (line[:cut.start()].strip(), line[cut.end():].strip()) if cut else (line, "")
    if not _URL.match(url):
        return None
    try:
        options = f"; {Marker(rest)}" if cut else ""
    except InvalidMarker:
        return None
    egg = re.search(r"[#&]egg=([A-Za-z0-9][\w.-]*)", url)
    stem = url.split("#")[0].split("?")[0].rstrip("/").rsplit("/", 1)[-1]
    name = egg.group(1) if egg else stem.split("@")[0].removesuffix(".git")
    return Dependency("pip", name, url_version(url), path, True, scope, options=options) if name else None


def local_requirement(line: str, path: str, scope: Scope) -> Dependency | None:
    """A local project pip installs, named by its path as `-e` names one; pip ends a path at its first `;` and reads
    the rest as the marker (sqlalchemy's tox.ini: `.[sqlcipher]; python_version < '3.10'`, round 47)."""
    from packaging.markers import InvalidMarker, Marker  # deferred as in pypi._requirement

    # only `; ` (a blank after the semicolon, sqlalchemy's form): `./x;python_version<'3'` stays refused (round 29)
    where, cut, rest = line.partition("; ")
    if (at_path := _LOCAL.match(where.strip() if cut else line)) is None:
        return None
    try:
        options = f"; {Marker(rest.strip())}" if cut else ""
    except InvalidMarker:
        return None
    return Dependency("pip", at_path.group(0), "local", path, True, scope, options=options)
