"""Pipenv's files: the Pipfile (TOML) and its Pipfile.lock (JSON); a Pipfile's changed lines from a patch."""

from __future__ import annotations

from gatekeeper.deps.edits import SECTION_MARK, toml_pair, with_options
from gatekeeper.deps.entryoptions import table_options
from gatekeeper.deps.hunkreads import Side
from gatekeeper.deps.loaders import load_json, load_toml, mapping, string
from gatekeeper.deps.model import Dependency, ManifestError, Scope
from gatekeeper.lazy_pattern import lazy

# A Pipfile table's keys the version already carries (its version, where the package comes from).
_READ = frozenset({"version", "git", "path", "file", "ref", "index"})


def parse_pipfile(path: str, data: bytes) -> list[Dependency]:
    """Pipenv's Pipfile (TOML): `[packages]` at scope runtime, `[dev-packages]` and any other category at dev;
    a value is the version specifier (`"==2.31.0"`, `"*"`) or a table naming one (`version`) and where the
    package comes from (`git` with its `ref`, `path`, `file`, `index`), which the version carries."""
    doc = load_toml(data)
    out: list[Dependency] = []
    for section, entries in doc.items():
        if section in ("source", "requires", "scripts", "pipenv") or not isinstance(entries, dict):
            continue
        scope: Scope = "runtime" if section == "packages" else "dev"
        for name, value in entries.items():
            if isinstance(value, dict):
                # The index a package is pinned to is where it comes from, as a git URL or a path is (red team 10:
                # `{version = "==2.31.1", index = "mirror"}` under a bump is no upgrade of the default index's).
                where = string(value.get("git") or value.get("path") or value.get("file"))
                where = f"{where}@{string(value.get('ref'))}" if where and value.get("ref") else where
                version = string(value.get("version"))
                index = string(value.get("index"))
                spec = version or where or (f"index {index}" if index else "")
                if version and (where or index):
                    spec += f" from {where or f'index {index}'}"
            else:
                spec = string(value)
            # `extras`, `markers`, `sys_platform`…: whether and what it installs (entryoptions.py, red team 26)
            options = table_options(value, _READ) if isinstance(value, dict) else ""
            out.append(Dependency("pip", name, spec, path, True, scope, options=options))
    return out


def parse_pipfile_lock(path: str, data: bytes) -> list[Dependency]:
    doc = mapping(load_json(data), "Pipfile.lock")
    out: list[Dependency] = []
    sections: tuple[tuple[str, Scope], ...] = (("default", "runtime"), ("develop", "dev"))
    for section, scope in sections:
        for name, entry in mapping(doc.get(section), section).items():
            entry = entry if isinstance(entry, dict) else {}
            version = string(entry.get("version")).lstrip("=") or string(entry.get("git") or entry.get("path"))
            out.append(Dependency("pip", name, version, path, None, scope))
    return out


# Tables of a Pipfile that hold no packages (a `[[source]]`'s `url`, `[requires]`' `python_version`, scripts).
_NOT_PACKAGES = frozenset({"source", "requires", "scripts", "pipenv"})
_HEADER = lazy(r"^\s*\[\[?\s*(?P<table>[^\[\]]*?)\s*\]\]?\s*(?:#.*)?$")
_NO_PACKAGE_KEYS = frozenset({"python_version", "python_full_version", "url", "verify_ssl", "allow_prereleases"})
_LINE_KEYS = frozenset({"version", "extras", "markers"})  # a table line read from a hunk: its version and options


_last: tuple[Side, list[str]] | None = None  # the side a hunk's lines are read from, and each line's table


def _tables(side: Side) -> list[str]:
    """The table each line of `side` sits under as far as the side shows it ("" above its first header), worked out
    once a side: hunk_pairs asks for every changed line of one side in turn, and a walk back from each line over a
    hunk of many lines and no header would cost their square."""
    global _last
    last = _last
    if last is not None and last[0] is side and len(last[1]) == len(side):
        return last[1]
    tables, table = [], ""
    for text, _ in side:
        tables.append(table)  # a line's own header is not above it
        if (m := _HEADER.match(text)) is not None:
            table = m["table"]
    _last = (side, tables)
    return tables


def pipfile_line(side: Side, index: int) -> list[tuple[str, ...]]:
    """A Pipfile's changed line from a patch (edits.read): `name = "~=14.0"` or `name = {version = "==2.0",
    extras = [...]}` (Renovate's and Dependabot's Pipfile bumps, whose hunk seldom shows `[packages]`). The version
    must be a PEP 440 specifier; a line under a table the hunk shows holding no packages (`[[source]]`,
    `[requires]`, `[scripts]`, `[pipenv]`), a `python_version`, a git, path, file or index entry or `"*"` is refused
    (ManifestError: `partial`, read it with --tree). The table the hunk shows is the line's section, so a package
    moved between `[packages]` and `[dev-packages]` is refused too."""
    from packaging.specifiers import InvalidSpecifier, SpecifierSet  # deferred: only a Pipfile's hunk needs it

    table = _tables(side)[index]
    if table in _NOT_PACKAGES:
        raise ManifestError(f"a line of the Pipfile's [{table}] table: no package")
    name, value = toml_pair(side[index][0])
    if name in _NO_PACKAGE_KEYS or SECTION_MARK in name:
        raise ManifestError(f"{name[:80]!r} names no package")
    if isinstance(value, dict) and set(value) <= _LINE_KEYS:
        options, value = table_options(value, ("version",)), value.get("version")
    elif isinstance(value, str):
        options = ""
    else:
        raise ManifestError(f"{name[:80]!r}: only a version (and extras, markers) can be read from a hunk")
    try:
        if not isinstance(value, str) or not value.strip() or "===" in value or not str(SpecifierSet(value)):
            raise InvalidSpecifier(str(value))
    except InvalidSpecifier:
        raise ManifestError(f"{name[:80]!r}: not a version specifier: {str(value)[:80]!r}") from None
    named = f"{table}{SECTION_MARK}{name}" if table else name
    return [with_options((named, value), "pip", options)]
