"""mise's configuration (`mise.toml`, `.mise.toml`, `mise.<env>.toml`, `.config/mise.toml`, `.mise/config.toml`,
`.rtx.toml`): the tools of its `[tools]` table, each at the version mise installs (`node = "22.11.0"`,
`"npm:prettier" = "3.3.3"`, `python = ["3.12", "3.11"]`, `go = { version = "1.23.4" }`).

Renovate's mise manager bumps these lines. What else the file holds is code or settings mise acts on (`[tasks]` run
commands, `[env]` sets variables, a tool's `postinstall` runs after it installs): that is its residue, compared
between the sides (residue.py), so an edit of it beside a bump is a problem. Any value is read as written:
`latest`, `lts`, `system` too (attack 23: dropped, a pin moved to one read as the tool's removal), and so is one naming
where the tool comes from (`ref:main`, `path:…`, `sub-1:latest`).
"""

from __future__ import annotations

import json
import re
import tomllib

from gatekeeper.deps.edits import SECTION_MARK
from gatekeeper.deps.loaders import load_toml, mapping, string
from gatekeeper.deps.model import Dependency, ManifestError, PartlyShown
from gatekeeper.deps.tools import TOOL, VERSIONISH, tool_name
from gatekeeper.lazy_pattern import lazy

_ASDF = {"nodejs": "node", "golang": "go"}  # plugin names for the tools the rest of the delta names otherwise
_CONFIG_NAME = lazy(r"^\.?(?:mise|rtx)(?:\.[\w-]++)?\.toml$")
_CONFIG_FOLDERS = (".mise", "mise", ".config/mise")
# `node = "22.11.0"`, `"npm:prettier" = '3.3.3'` directly under a `[tools]` header: a changed line of a patch; so is
# a one-line array of such strings (`go = ["1.23.4"]`, `python = ["3.12", "3.11"]`: each version mise installs).
_STRING = r"""(?:"[^"\\\n]*+"|'[^'\n]*+')"""
_TOOL_LINE = lazy(r"""^\s*+(?:([\w-]++)|"([^"\\\n]++)"|'([^'\n]++)')\s*+=\s*+"""
                  rf"""({_STRING}|\[\s*+{_STRING}(?:\s*+,\s*+{_STRING}){{0,15}}+\s*+,?\s*+\])\s*+(?:#.*+)?$""")
_HEADER = lazy(r"^\s*+\[")
# Keys a line under a table the hunk does not show may hold that are no tool: a `[tools.node]` table's `version`, the
# root's `min_version`, an `[env]` variable (upper case by convention: `GO_VERSION = "1.23.4"`)
_NOT_TOOL = lazy(r"^(?:version|min_version|[A-Z][A-Z0-9_]*+)$")


def is_config(folder: str, base: str) -> bool:
    """Whether `folder/base` is a file mise reads its configuration from."""
    if _CONFIG_NAME.match(base):
        return True
    last = folder.rsplit("/", 2)
    return base == "config.toml" and ("/".join(last[-2:]) in _CONFIG_FOLDERS or last[-1] in _CONFIG_FOLDERS) \
        or base == "mise.toml" and last[-1] == ".config"


def tool_of(key: str) -> str:
    """The tool a mise or asdf key names, as the rest of the delta names it (`nodejs` is `node`, `core:go` is `go`)."""
    key = key.removeprefix("core:")
    return tool_name(_ASDF.get(key, key))


# A version requirement the backend resolves (`"cargo:cargo-deny" = "=0.20.2"`, Renovate keeps the operator): an
# operator, then a release number. Without this a bump of such a value read as nothing at all, in both modes.
_REQUIREMENT = lazy(r"^(?:[=!<>]=?|==|[\^~]=?)\s*+v?\d[\w.+-]*+$")
# An inline table's keys a hunk may show beside `version`: how the backend builds the tool. Anything else (a `path`,
# `postinstall`, `install_env`) is no plain bump.
_BUILD_OPTIONS = frozenset({"features", "default-features", "os"})
_INLINE_TABLE = lazy(r"""^\s*+(?:[\w-]++|"[^"\\\n]++"|'[^'\n]++')\s*+=\s*+\{""")


def _version(value: str) -> bool:
    """Any value is read as written: `latest`, `lts`, `system` too (attack 23: dropped, a pin moved to one was read as
    the tool's removal, which the deps policy lets pass)."""
    return bool(value.strip())


def _versions(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [v for item in value for v in _versions(item)]
    if isinstance(value, dict):
        return [string(value.get("version"))] if "version" in value else []
    raise ManifestError(f"a [tools] value that is no version: {str(value)[:80]!r}")


def parse_mise(path: str, data: bytes) -> list[Dependency]:
    """Each `[tools]` entry at each version it names."""
    tools = mapping(load_toml(data).get("tools"), "[tools]")
    return [Dependency(TOOL, tool_of(key), version, path, True, "build")
            for key, value in tools.items() for version in _versions(value) if _version(version)]


def residue(data: bytes) -> object:
    """The document without the versions parse_mise reads: a tool's other options (`postinstall`, `os`) stay."""
    doc = load_toml(data)
    tools = mapping(doc.get("tools"), "[tools]")
    kept: dict[str, object] = {}
    for key, value in tools.items():
        if isinstance(value, dict):
            kept[key] = {k: v for k, v in value.items() if k != "version"}
        elif isinstance(value, list):
            kept[key] = [({k: v for k, v in item.items() if k != "version"} if isinstance(item, dict) else "")
                         for item in value]
    return {**doc, "tools": kept}


def mise_line(side: list[tuple[str, bool]], index: int) -> list[tuple[str, ...]]:
    """A changed `tool = "version"` line whose nearest header above it in the hunk is `[tools]`, or a one-line
    inline table there whose keys besides `version` are build options (_inline_table); any other changed line (a task,
    another inline table, a line below a triple quote of its hunk) is refused."""
    line = side[index][0]
    # Up to the nearest header, or to the changed line read before this one (edits.read reads a side's changed lines
    # in order and stops at the first refusal, so that line was read under `[tools]` with no multi-line string above
    # it, or under a table the hunk does not show, which makes the file a `partial` problem all the same): each
    # stretch of a hunk is looked at once, and a hunk of many lines stays linear.
    header: str | None = None
    k = index
    while k >= 0 and header is None:
        shown, changed = side[k]
        if '"""' in shown or "'''" in shown:
            raise ManifestError("a hunk holding a multi-line string: read the whole file (--tree)")
        if k < index and _HEADER.match(shown):
            header = re.sub(r"\s+", "", shown.split("#")[0])
        elif k < index and changed and shown.strip():
            header = "[tools]"
        k -= 1
    m = _TOOL_LINE.match(line)
    if m is None and header in (None, "[tools]") and (table := _inline_table(line)) is not None:
        if header is None:  # as a string value's below: named, its table unknown
            raise PartlyShown(f"the hunk does not show the table of {line.strip()[:80]!r} ([tools] or another): read "
                              "as a tool", table)
        return table
    key = "" if m is None else m.group(1) or m.group(2) or m.group(3)
    versions = [] if m is None else _versions(load_toml(f"v = {m.group(4)}".encode())["v"])
    if m is not None and header is None and versions \
            and all(VERSIONISH.match(v) or _REQUIREMENT.match(v) for v in versions) \
            and not _NOT_TOOL.match(key):
        # No header (nor a changed line read under one) above it in the hunk: a tool and its version are shown, not
        # that its table is `[tools]` (nor that no multi-line string above holds the line)
        raise PartlyShown(f"the hunk does not show the table of {key[:80]!r} ([tools] or another): read as a tool",
                          [(tool_of(key), version) for version in versions])
    if m is None or header != "[tools]":
        raise ManifestError(f"not a tool's version under a [tools] header the hunk shows: {line.strip()[:80]!r}")
    return [(tool_of(key), version) for version in versions if _version(version)]


def _inline_table(line: str) -> list[tuple[str, ...]] | None:
    """A one-line inline table under `[tools]` (`"cargo:diesel_cli" = { version = "=2.3.11", features = "postgres",
    default-features = false }`): its tool at its version, the build options the line's section (edits.SECTION_MARK),
    so an option changed beside the bump is a move between sections, refused. None for any other line."""
    if _INLINE_TABLE.match(line) is None:  # a dotted key (`node.version = …`) parses to a table too
        return None
    try:
        doc = tomllib.loads(line.strip())
    except (tomllib.TOMLDecodeError, RecursionError):
        return None
    if len(doc) != 1:
        return None
    [(key, value)] = doc.items()
    if _NOT_TOOL.match(key) or SECTION_MARK in key or not isinstance(value, dict) \
            or not isinstance(value.get("version"), str) \
            or not set(value) - {"version"} <= _BUILD_OPTIONS or not _version(value["version"]):
        return None
    options = json.dumps({k: v for k, v in value.items() if k != "version"}, sort_keys=True)
    return [(f"{options}{SECTION_MARK}{tool_of(key)}", value["version"])]
