"""setuptools' `setup.py` and `setup.cfg` from a patch (round 49): the literal requirement lines a hunk shows inside
a requirement list (edits.py's `LineReader`s; the whole files are setupfiles.py's).

A changed `setup.py` line is read when it is one string literal — a list item (`"requests==2.32.0",`) or an extras
mapping's `"certs": "certifi==2016.8.8",` — and the hunk shows, above it with only such items, blank and comment lines
between, the opening of `install_requires`, `setup_requires`, `tests_require` or `extras_require` (`install_requires=[`,
`extras_require={` then `"socks": [`). It is named beside a `partial` problem (PartlyShown): whether that list reaches
`setup()` — a keyword of the call, or a module name bound once and never changed — is code the patch does not show
(pass `--tree`). A `setup.cfg` line is read when it is a requirement of `[options]`' `install_requires`,
`setup_requires` or `tests_require`, or of a key of `[options.extras_require]`, on the key's line or its indented
continuation lines: named alone when the hunk shows the section's header, beside a `partial` problem when the header is
above the hunk. Any other changed line (code, the package's own metadata, a tool's settings, a computed item) is
refused: the hunk is a `partial` problem naming nothing, as every hunk of these files was before.
"""

from __future__ import annotations

from gatekeeper.deps import pypi
from gatekeeper.deps.edits import Side
from gatekeeper.deps.model import ManifestError, PartlyShown
from gatekeeper.lazy_pattern import lazy

_KEYWORDS = ("install_requires", "setup_requires", "tests_require", "extras_require")
_BLANK = lazy(r"^\s*(?:#.*)?$")
_STRING = r"""(?P<q>["'])(?P<req>[^"'\\\n]+)(?P=q)"""
# `"requests==2.32.0",` — one literal item of a list or tuple
# (possessive: `\s*,?\s*` before a line's end split a run of blanks every way, quadratic in it; attack 41)
_ITEM = lazy(rf"^\s*+{_STRING}\s*+,?+\s*+(?:#.*)?$")
# `"certs": "certifi==2016.8.8",` — an extras mapping's entry whose value is one requirement string
_EXTRA_ENTRY = lazy(rf"""^\s*+(?P<kq>["'])[\w.\-]++(?P=kq)\s*+:\s*+{_STRING}\s*+,?+\s*+(?:#.*)?$""")
# `"socks": [` — an extras mapping's entry opening its list
_EXTRA_OPEN = lazy(r"""^\s*(?P<kq>["'])[\w.\-]+(?P=kq)\s*:\s*[\[(]\s*(?:#.*)?$""")
# `install_requires=[`, `extras_require = {` — the opening of a requirement keyword's literal
_OPEN = lazy(r"^\s*(?P<key>install_requires|setup_requires|tests_require|extras_require)\s*=\s*(?P<bracket>[\[({])"
             r"\s*(?:#.*)?$")
_CFG_HEADER = lazy(r"^\[(?P<section>[^\]\n]+)\]\s*(?:[#;].*)?$")
_CFG_KEY = lazy(r"^(?P<key>[\w.\-]+)\s*[=:]\s*(?P<value>.*)$")
_CFG_KEYS = frozenset({"install_requires", "setup_requires", "tests_require"})
# How far above a changed line its list's opening (or its value's key) is looked for: a walk to the top from every line
# of a long hunk is quadratic (attack 25's lesson); a list longer than this is not read from the patch (pass --tree).
MAX_WALK = 100


def _refuse(line: str) -> ManifestError:
    return ManifestError(f"not a literal requirement of a list the hunk shows: {line.strip()[:80]!r}")


def _pair(requirement: str, line: str) -> tuple[str, ...]:
    try:
        dep = pypi.pep508(requirement.strip(), "setup", "runtime")
    except ManifestError:
        raise _refuse(line) from None
    return (dep.name, dep.version, "pip")


def setup_py_line(side: Side, index: int) -> list[tuple[str, ...]]:
    """One changed line of a setup.py hunk (module docstring)."""
    line = side[index][0]
    if _BLANK.match(line):
        return []
    entry = _EXTRA_ENTRY.match(line)
    item = entry or _ITEM.match(line)
    if item is None:
        raise _refuse(line)
    in_extra = False  # below an extras entry's own list (`"socks": [`)
    for text, _ in reversed(side[max(0, index - MAX_WALK):index]):
        if _BLANK.match(text) or _ITEM.match(text) or _EXTRA_ENTRY.match(text):
            continue
        if _EXTRA_OPEN.match(text) and not in_extra and entry is None:
            in_extra = True
            continue
        opening = _OPEN.match(text)
        if opening is None:
            break
        extras = opening.group("key") == "extras_require"
        if extras != (entry is not None or in_extra) or extras != (opening.group("bracket") == "{"):
            break  # a list item directly in extras_require's mapping, an extras entry in a list: no such literal
        raise PartlyShown(f"{opening.group('key')} read as the hunk shows it: whether it reaches setup() is code "
                          "the patch does not show (pass --tree)", [_pair(item.group("req"), line)])
    raise _refuse(line)


def setup_cfg_line(side: Side, index: int) -> list[tuple[str, ...]]:
    """One changed line of a setup.cfg hunk (module docstring)."""
    line = side[index][0]
    if not line.strip() or line.strip().startswith(("#", ";")):
        return []  # configparser's comment lines, indented or not
    at = index
    while side[at][0][:1].isspace() or side[at][0].strip().startswith(("#", ";")):
        at -= 1  # up the value's continuation lines to its key's line
        if at < 0 or at < index - MAX_WALK or not side[at][0].strip():
            raise _refuse(line)  # the key is not shown (or a blank line between: refused, not guessed)
    found = _CFG_KEY.match(side[at][0])
    if found is None:
        raise _refuse(line)
    key = found.group("key")
    if at == index:  # `install_requires = x`: one item, `;`-separated ones (or a marker's `;`) refused
        value = found.group("value").strip()
        if ";" in value:
            raise _refuse(line)
        requirements = [value] if value else []
    else:
        requirements = [line.strip()]
    header = next((m.group("section") for text, _ in reversed(side[max(0, at - MAX_WALK):at])
                   if (m := _CFG_HEADER.match(text))), None)
    if header is not None and not (header == "options" and key in _CFG_KEYS or header == "options.extras_require"):
        raise _refuse(line)
    if header is None and key not in _CFG_KEYS:
        raise _refuse(line)  # an extras key is any name: only its section shows it
    pairs = [_pair(requirement, line) for requirement in requirements]
    if header is None and pairs:
        raise PartlyShown(f"the hunk does not show the section of {key!r}: read as [options]'", pairs)
    return pairs
