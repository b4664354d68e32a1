"""Rust crates: Cargo.toml (dependencies, dev-, build-, target-specific, workspace; its `rust-version`, the tool `rust`)
and Cargo.lock."""

from __future__ import annotations

import tomllib
from typing import Any

from gatekeeper.deps.cargogit import locked_version
from gatekeeper.deps.delta import diff
from gatekeeper.deps.edits import CARGO_TABLE_KEYS, RANGE, SECTION_MARK, Side, table_version, toml_pair, with_options
from gatekeeper.deps.entryoptions import table_options
from gatekeeper.deps.loaders import listing, load_toml, mapping, sourced_version, string
from gatekeeper.deps.model import Change, Dependency, ManifestError, PartlyShown, Scope
from gatekeeper.deps.tools import TOOL, VERSIONISH
from gatekeeper.lazy_pattern import lazy

# Where a dependency table says its crate comes from instead of crates.io.
_SOURCES = ("path", "git", "registry", "registry-index")
# A table's keys its version and alias already carry.
_READ = frozenset({"version", "package", "workspace", *_SOURCES})
# Which commit of a `git` source Cargo checks out: named in the version (as Cargo.lock's `revision:`), so a bot's
# "update uv-virtualenv digest to 6df4b71" (a `rev` moved) is the crate at that revision, not an options edit.
_GIT_REFS = (("rev", "revision"), ("tag", "tag"), ("branch", "branch"))
_TABLES: dict[str, Scope] = {"dependencies": "runtime", "dev-dependencies": "dev", "build-dependencies": "build"}
# The minimum Rust a manifest declares (its MSRV, `rust-version = "1.85"`): the tool `rust`, as go.mod's `go` line
# names `go` (clap's "Bump MSRV to 1.85", round 45); an inherited `rust-version.workspace = true` names none.
_MSRV_TABLES = (("package",), ("workspace", "package"))
MAX_MSRV = 128


def rust_versions(doc: dict[str, Any]) -> list[tuple[tuple[str, ...], str]]:
    """Where (the key's path) and what each `rust-version` string of `[package]` and `[workspace.package]` that names
    a version says; any other value is not read (residue.py keeps it, so its change is a `partial` problem)."""
    found: list[tuple[tuple[str, ...], str]] = []
    for where in _MSRV_TABLES:
        table: Any = doc
        for key in where:
            table = table.get(key) if isinstance(table, dict) else None
        value = table.get("rust-version") if isinstance(table, dict) else None
        if isinstance(value, str) and len(value) <= MAX_MSRV and VERSIONISH.match(value):
            found.append(((*where, "rust-version"), value))
    return found


def _tables(doc: dict[str, Any]) -> list[tuple[dict[str, Any], Scope, str]]:
    """Each dependency table with its scope and where it builds: "" for everywhere, `target cfg(…)` for one
    platform's (a `cfg(any())` table builds nowhere), `workspace` for what members may inherit (red team 26)."""
    found = [(mapping(doc.get(t), t), s, "") for t, s in _TABLES.items()]
    for cfg, target in mapping(doc.get("target"), "target").items():
        found += [(mapping(mapping(target, "target").get(t), t), s, f"target {cfg}") for t, s in _TABLES.items()]
    workspace = mapping(mapping(doc.get("workspace"), "workspace").get("dependencies"), "workspace")
    found.append((workspace, "runtime", "workspace"))
    return found


def _git_version(spec: dict[str, Any], version: str) -> tuple[str, frozenset[str]]:
    """`version` with the one `rev`, `tag` or `branch` of a `git` source (`https://github.com/astral-sh/uv
    revision:6df4b71…`), and the keys it carries; a table with two of them, or one that is no string, is left to
    the entry's options (read as they are)."""
    given = [(key, label, spec[key]) for key, label in _GIT_REFS if key in spec]
    if not isinstance(spec.get("git"), str) or len(given) != 1 or not isinstance(given[0][2], str) or not given[0][2]:
        return version, _READ
    key, label, ref = given[0]
    return f"{version} {label}:{ref}", _READ | {key}


def parse_cargo_toml(path: str, data: bytes) -> list[Dependency]:
    out: list[Dependency] = []
    doc = load_toml(data)
    for table, scope, where in _tables(doc):
        for key, spec in table.items():
            name, alias, options = key, "", table_options({}, (), where)
            if isinstance(spec, dict):
                # a renamed dependency (`miette = { package = "oxc-miette", … }`): the crate it fetches, the key
                # kept as its alias (what its bots call it: Renovate's "update rust crate miette to v4")
                name = string(spec.get("package")) or key
                alias = key if name != key else ""
                version, read = _git_version(spec, sourced_version(spec, _SOURCES))
                if spec.get("workspace") is True:
                    version = "workspace"
                # `features`, `default-features`, `optional`: what the crate builds and whether (red team 26)
                options = table_options(spec, read, where)
            else:
                version = string(spec)
            out.append(Dependency("cargo", name, version, path, True, scope, alias=alias, options=options))
    return out + [Dependency(TOOL, "rust", version, path, True, "build") for _, version in rust_versions(doc)]


def parse_cargo_lock(path: str, data: bytes) -> list[Dependency]:
    doc = load_toml(data)
    out: list[Dependency] = []
    for entry in listing(doc.get("package"), "[[package]]"):
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            continue
        if "source" not in entry:
            continue  # a workspace member, not a dependency
        out.append(Dependency("cargo", entry["name"], locked_version(string(entry.get("version")),
                                                                   string(entry.get("source"))), path, None, None))
    return out


def _member_edges(path: str, data: bytes) -> list[Dependency]:
    """What the workspace's own packages (entries without a `source`) depend on at a version the lockfile spells out
    (`"syn 3.0.3"`, written so where two versions of a crate are locked), each once per version."""
    out: dict[tuple[str, str], Dependency] = {}
    for entry in listing(load_toml(data).get("package"), "[[package]]"):
        if not isinstance(entry, dict) or "source" in entry:
            continue
        for edge in listing(entry.get("dependencies"), "dependencies"):
            name, _, rest = string(edge).partition(" ")
            version = rest.split(" ")[0]
            if name and version:
                out.setdefault((name, version), Dependency("cargo", name, version, path, True, "runtime"))
    return list(out.values())


def edge_moves(path: str, base: bytes, head: bytes, moved: set[tuple[str, str | None]]) -> list[Change]:
    """A workspace member moved onto another version a Cargo.lock already held (`"syn 2.0.119"` → `"syn 3.0.3"` in its
    `dependencies`, with both copies locked before and after): the package list shows no change, the edges do. Only
    an upgrade or downgrade the package list does not already show (`moved`: name and new version) is added; an
    edge that appears or goes alone is the package list's to tell."""
    try:
        before, after = _member_edges(path, base), _member_edges(path, head)
    except ManifestError:
        return []  # the whole-file reader reports an unreadable side itself
    return [c for c in diff(before, after, path)
            if c.change in ("upgraded", "downgraded") and (c.name, c.to_version) not in moved]


def _inline_table(side: Side, index: int) -> str:
    """The changed line `side[index]`, or, where it opens an inline table its line does not close (`miette = {
    package = "oxc-miette", version = "4.0.0", features = [` with the array's items below), it and the lines the
    hunk shows after it up to the first that makes it one TOML key (at most 16): what `edits.toml_pair` reads. A later
    changed line of the table is still read on its own, and fails closed."""
    line = side[index][0]
    if line.count("{") <= line.count("}") and line.count("[") <= line.count("]"):
        return line
    parts = [line]
    for later, _ in side[index + 1:index + 16]:
        parts.append(later)
        try:
            tomllib.loads("\n".join(parts).strip())
        except (tomllib.TOMLDecodeError, RecursionError):
            continue
        return "\n".join(parts)
    return line


def _git_line(name: str, value: dict[str, Any]) -> tuple[str, ...]:
    """`uv-cache = { git = "https://github.com/astral-sh/uv", rev = "6df4b71…" }` on one changed line: the crate at
    that repository and revision, as the whole-file reader names it (a version beside it, features and the like
    read too). Any other key (`path`, `registry`, a second ref) or a ref that is no string: refused."""
    version, read = _git_version(value, sourced_version(value, _SOURCES))
    if read == _READ or not set(value) <= CARGO_TABLE_KEYS | read - {"package", "workspace", "path", "registry",
                                                                      "registry-index"}:
        raise ManifestError(f"{name!r}: a git source is read from a hunk only with one rev, tag or branch")
    if "version" in value and not (isinstance(value["version"], str) and RANGE.match(value["version"].strip())):
        raise ManifestError(f"{name!r}: not a plain version requirement")
    if not isinstance(value["git"], str) or not value["git"].startswith("https://") or SECTION_MARK in value["git"]:
        raise ManifestError(f"{name!r}: not a git repository's address")
    return with_options((name, version), "cargo", table_options(value, read))


# A hunk's MSRV line (round 48: thiserror's and log's "bump MSRV" hunks show it below `[package]`'s other keys, not
# under the header): a literal string only; its table is the header the hunk shows above it, if any.
_MSRV_LINE = lazy(r'^\s*rust-version\s*=\s*"(?P<v>[^"\\]{1,128})"\s*(?:#.*)?$')
_HEADER = lazy(r"^\s*\[")
_MSRV_HEADER = lazy(r"^\s*\[\s*(?:package|workspace\s*\.\s*package)\s*\]\s*(?:#.*)?$")


def _msrv_line(side: Side, index: int) -> list[tuple[str, ...]] | None:
    """`rust-version = "1.81"`: the tool `rust`, as the whole file names it, under a `[package]` or
    `[workspace.package]` header the hunk shows; with no header shown, named beside a `partial` problem (PartlyShown:
    in a dependency table the key would be a crate's); None for any other line or table (read as the others are)."""
    m = _MSRV_LINE.match(side[index][0])
    if m is None or not VERSIONISH.match(m["v"]) or any('"""' in line or "'''" in line for line, _ in side):
        return None  # (a line of a multi-line string is no key)
    pair: list[tuple[str, ...]] = [("rust", m["v"], TOOL)]
    for line, _ in reversed(side[:index]):
        if _HEADER.match(line):
            return pair if _MSRV_HEADER.match(line) else None
    raise PartlyShown("the hunk does not show the table of its rust-version line (the MSRV under [package])", pair)


# A dependency's own table (`[dependencies.polars]`, `[target.'cfg(windows)'.dependencies.windows-sys]`): its
# `version = "…"` line names the crate, read from a hunk that shows the header (round 54: mio's windows-sys, explorer's
# polars). A key beside it that makes it another crate or source (`package`, `git`, `path`, `registry`) refuses it.
_TABLE_VERSION = lazy(r'^\s*version\s*=\s*"(?P<v>[^"\\\n]{1,128})"\s*(?:#.*)?$')
_TABLE_KEY = lazy(r"""^\s*(?P<key>[\w-]+|"[^"\n]*"|'[^'\n]*')\s*[.=]""")
_OTHER_CRATE = frozenset({"package", *_SOURCES, "workspace"})


def _table_path(header: str) -> tuple[str, ...]:
    """The keys of a `[a.b.c]` header line, as TOML reads them (quoted keys too); () when it is no one table header."""
    try:
        table: Any = tomllib.loads(header.strip())
    except (tomllib.TOMLDecodeError, RecursionError):
        return ()
    path: list[str] = []
    while isinstance(table, dict) and len(table) == 1:
        [(key, table)] = table.items()
        path.append(key)
    return tuple(path) if table == {} else ()


def _table_crate(path: tuple[str, ...]) -> str | None:
    """The crate a dependency table's path names: `dependencies.X` (dev-, build-), `workspace.dependencies.X`,
    `target.T.dependencies.X`; None for any other table."""
    if len(path) == 2 and path[0] in _TABLES or len(path) == 3 and path[:2] == ("workspace", "dependencies") \
            or len(path) == 4 and path[0] == "target" and path[2] in _TABLES:
        return path[-1]
    return None


def _table_version_line(side: Side, index: int) -> list[tuple[str, ...]] | None:
    """A dependency table's `version = "…"` line (_TABLE_VERSION): the crate at that requirement when the hunk shows
    its header, beside a `partial` problem (PartlyShown) when the hunk ends before the table does; None for any other
    line or table (read, and refused, as a key); ManifestError when the table's other keys make it another crate."""
    m = _TABLE_VERSION.match(side[index][0])
    if m is None or any('"""' in line or "'''" in line for line, _ in side):
        return None
    for line, _ in reversed(side[:index]):
        if _HEADER.match(line):
            crate = _table_crate(_table_path(line))
            if crate is None:
                return None
            break
        if (key := _TABLE_KEY.match(line)) is not None and key["key"].strip("\"'") in _OTHER_CRATE:
            raise ManifestError("a dependency table naming another crate or source")
    else:
        raise ManifestError("the hunk does not show the table of its version line")
    pair: list[tuple[str, ...]] = [(crate, m["v"])]
    for line, _ in side[index + 1:]:
        if _HEADER.match(line):
            return pair
        if (key := _TABLE_KEY.match(line)) is not None and key["key"].strip("\"'") in _OTHER_CRATE:
            raise ManifestError("a dependency table naming another crate or source")
    raise PartlyShown("the hunk ends inside the dependency table of its version line", pair)


def cargo_line(side: Side, index: int) -> list[tuple[str, ...]]:
    """`name = "req"` or an inline table (`{ version = "1", features = [...] }`, its array may span lines); a
    renamed dependency (`miette = { package = "oxc-miette", version = "4.0.0" }`) is named by the crate it fetches,
    the key kept as its alias, as the whole-file reader names it; the MSRV line (`_msrv_line`); a dependency table's
    version line (`_table_version_line`)."""
    if (msrv := _msrv_line(side, index)) is not None:
        return msrv
    if (table := _table_version_line(side, index)) is not None:
        return table
    name, value = toml_pair(_inline_table(side, index))
    package = value.get("package") if isinstance(value, dict) else None
    options = table_options(value, _READ) if isinstance(value, dict) else ""
    if isinstance(value, dict) and "git" in value and package is None:
        return [_git_line(name, value)]
    if package is None:
        return [with_options((name, table_version(name, value, CARGO_TABLE_KEYS)), "cargo", options)]
    if not isinstance(package, str) or not package or SECTION_MARK in package:
        raise ManifestError(f"{name!r}: not a crate's name: {package!r:.80}")
    assert isinstance(value, dict)
    version = table_version(name, {k: v for k, v in value.items() if k != "package"}, CARGO_TABLE_KEYS)
    return [with_options((package, version, "cargo", "", name if package != name else ""), "cargo", options)]
