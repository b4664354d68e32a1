"""Pipenv's files: the Pipfile (TOML) and its Pipfile.lock (JSON)."""

from __future__ import annotations

from gatekeeper.deps.entryoptions import table_options
from gatekeeper.deps.loaders import load_json, load_toml, mapping, string
from gatekeeper.deps.model import Dependency, Scope

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
