"""tox's configuration (`tox.ini`, `tox.toml`): what tox installs before it runs anything.

tox installs the `requires` of its core settings (plugins, a newer tox) into its own environment first, then each
environment's `deps`, with the installer that `install_command`, `set_env` (`PIP_INDEX_URL`, `UV_INDEX_URL`),
`pip_pre` and a `deps` line's own options (`-i URL`, `-c constraints.txt`) choose (red team 30,
tests/test_redteam30_tox.py: a new plugin, a new or swapped dependency, a new index were allowed by `gate --enable
deps`, the files being `other` and read by no delta). The files stay `other` (tool settings); this reader gives the
delta their entries:

- each requirement of `requires` and of every environment's `deps` is a `pip` dependency (scope `dev`), the section
  it sits in and its factor condition (`py312: x`) part of its options, so a move between environments is `changed`;
  a `-r FILE` or `-e PATH` line names what it installs, as a requirements file's does;
- every other `deps` line (an option, a substitution `{[testenv]deps}`, a TOML item that is not a string) and every
  installer setting (`INSTALLER_KEYS`, `set_env`'s `PIP_*`/`UV_*` variables and `file|` lines) is an entry of the
  `tox` ecosystem named by where it sits and its text, so one added, removed or moved is reviewed (a new entry or
  `changed`).

The other settings (`commands`, `env_list`, tool sections such as `[flake8]`) are not read. tox.ini is read as tox
reads it (configparser without interpolation; a section or key given twice is a problem), tox.toml as TOML; a value
of another shape than tox reads, a file past 1 MiB are problems (fail closed). Whole files only: a modified file from
a patch is a `partial` problem (pass `--tree`). pyproject's `[tool.tox]` is residue of pyproject.toml (residue.py).
"""

from __future__ import annotations

import configparser
import re
from collections.abc import Iterator
from typing import Any

from gatekeeper.deps import pypi
from gatekeeper.deps.loaders import load_toml, text
from gatekeeper.deps.model import Dependency, ManifestError
from gatekeeper.lazy_pattern import lazy

_MAX_BYTES = 1 << 20
# Settings that choose how or from where tox installs (tox 4 names; tox-uv's `uv_*`), read as entries of their own.
INSTALLER_KEYS = frozenset({
    "install_command", "list_dependencies_command", "pip_pre", "indexserver", "runner", "uv_resolution", "uv_seed",
    "dependency_groups", "virtualenv_spec", "download", "constraints", "constrain_package_deps",
    "use_frozen_constraints", "provision_tox_env", "min_version",
})
_ALIASES = {"setenv": "set_env", "minversion": "min_version", "requires": "requires", "deps": "deps"}
_ENV_VARIABLE = lazy(r"^(?:PIP_|UV_|VIRTUALENV_|file\|)", re.IGNORECASE)
# A deps line's factor condition: `py312: x`, `!py38,py39: x`, `{py311,py312}-django: x` (a colon and a space:
# `pkg @ https://...` has none before its URL's `//`).
_FACTORS = lazy(r"^(!?[\w.{}-]+(?:[ \t]*,[ \t]*!?[\w.{}-]+)*)[ \t]*:[ \t]+(?=\S)")
_COMMENT = lazy(r"(?:^|\s)#.*$")


def parse_tox(path: str, data: bytes) -> list[Dependency]:
    """The entries of a tox.ini or tox.toml (module docstring)."""
    if len(data) > _MAX_BYTES:
        raise ManifestError(f"larger than {_MAX_BYTES >> 20} MiB: not read")
    sections = _toml_sections(data) if path.endswith(".toml") else _ini_sections(text(data))
    out: list[Dependency] = []
    seen: set[str] = set()
    for where, settings in sections:
        for key, value in settings:
            if key in ("requires", "deps"):
                for item in _items(value, f"{where} {key}"):
                    out.extend(_entry(path, f"{where} {key}", item))
            elif key == "set_env":
                out.extend(_setting(path, f"{where} set_env", line) for line in _env_lines(value))
            elif key in INSTALLER_KEYS:
                out.append(_setting(path, f"{where} {key}", _flat(value)))
    for dep in out:
        if dep.ecosystem == "tox" and dep.name in seen:
            raise ManifestError(f"{dep.name[:80]!r} given twice")
        seen.add(dep.name)
    return out


def _ini_sections(body: str) -> Iterator[tuple[str, list[tuple[str, Any]]]]:
    # tox 4 reads its INI file with configparser's defaults: `=` and `:` both set a key (`basepython: python3`)
    parser = configparser.ConfigParser(interpolation=None, strict=True, comment_prefixes=("#", ";"))
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # tox reads keys as written
    try:
        parser.read_string(body)
    except configparser.Error as exc:
        raise ManifestError(f"not read as tox reads an INI file: {str(exc).splitlines()[0][:120]}") from exc
    if parser.defaults():  # merged into every section by configparser: not a shape tox configurations have
        raise ManifestError("a [DEFAULT] section: not read")
    for section in parser.sections():
        if section == "tox" or section == "testenv" or section.startswith(("testenv:", "pkgenv")):
            yield section, [(_key(key), value) for key, value in parser.items(section, raw=True)]


def _toml_sections(data: bytes) -> Iterator[tuple[str, list[tuple[str, Any]]]]:
    doc = load_toml(data)
    yield "core", [(_key(k), v) for k, v in doc.items() if not isinstance(v, dict) or _key(k) == "set_env"]
    for base in ("env_run_base", "env_pkg_base"):
        if base in doc:
            yield base, list(_table(doc[base], base).items())
    for name, env in _table(doc.get("env", {}), "env").items():
        yield f"env.{name}", [(_key(k), v) for k, v in _table(env, f"env.{name}").items()]


def _table(value: Any, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ManifestError(f"{what}: not a table")
    return {_key(k): v for k, v in value.items()}


def _key(key: str) -> str:
    key = key.strip().lower().replace("-", "_")
    return _ALIASES.get(key, key)


def _items(value: Any, what: str) -> list[Any]:
    """A `requires`/`deps` value as its items: an INI value's lines, a TOML list's items (a non-string item is kept)."""
    if isinstance(value, str):
        lines = (_COMMENT.sub("", line).strip() for line in pypi.logical_lines(value))
        return [line for line in lines if line]
    if isinstance(value, list):
        return value
    raise ManifestError(f"{what}: neither lines nor a list")


def _entry(path: str, where: str, item: Any) -> list[Dependency]:
    if not isinstance(item, str):  # a TOML conditional or reference (`{ replace = "if", ... }`)
        return [_setting(path, where, _flat(item))]
    line, factors = item.strip(), ""
    if (condition := _FACTORS.match(line)) is not None:
        factors, line = re.sub(r"[ \t]+", "", condition.group(1)), line[condition.end():]
    place = f"{where}{' ' + factors if factors else ''}"
    # `-r FILE` / `-e PATH` name what they install, as in a requirements file; any other option (`-i URL`, `-c FILE`,
    # `-r{toxinidir}/x.txt`) or a substitution (`{[testenv]deps}`) is an entry by its text
    found = [] if line.startswith("{") else pypi.parse_requirements(path, line.encode())
    if not found and line.startswith(("-", "{")):
        return [_setting(path, place, line)]
    if len(found) != 1:
        raise ManifestError(f"{where}: not one requirement: {line[:80]!r}")
    place = f"tox {place}"
    return [Dependency(dep.ecosystem, dep.name, dep.version, path, True, "dev", alias=dep.alias,
                       options=f"{place}; {dep.options}" if dep.options else place) for dep in found]


def _env_lines(value: Any) -> list[str]:
    """The `set_env` entries that steer an installer (`PIP_*`, `UV_*`, `VIRTUALENV_*`) or load a file."""
    if isinstance(value, dict):
        lines = [f"{key}={_flat(item)}" for key, item in value.items()]
    elif isinstance(value, str):
        lines = [line.strip() for line in value.splitlines() if line.strip() and not line.strip().startswith("#")]
    else:
        raise ManifestError("set_env: neither lines nor a table")
    return [line for line in lines if _ENV_VARIABLE.match(line) or "replace" in line]


def _setting(path: str, where: str, value: str) -> Dependency:
    return Dependency("tox", f"{where}: {value}"[:300], "", path, True, "dev")


def _flat(value: Any) -> str:
    if isinstance(value, str):
        return " ".join(value.split())
    if isinstance(value, list):
        return "[" + ", ".join(_flat(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key} = {_flat(item)}" for key, item in sorted(value.items())) + "}"
    return str(value).lower() if isinstance(value, bool) else str(value)
