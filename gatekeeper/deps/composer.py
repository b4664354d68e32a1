"""PHP Composer: composer.json (require, require-dev) and composer.lock (packages, packages-dev)."""

from __future__ import annotations

from gatekeeper.deps.loaders import listing, load_json, mapping, string
from gatekeeper.deps.model import Dependency, Scope


def _platform(name: str) -> bool:
    return name == "php" or name.startswith(("ext-", "lib-", "composer-")) or "/" not in name


def parse_composer_json(path: str, data: bytes) -> list[Dependency]:
    doc = mapping(load_json(data), "composer.json")
    out: list[Dependency] = []
    sections: tuple[tuple[str, Scope], ...] = (("require", "runtime"), ("require-dev", "dev"))
    for section, scope in sections:
        for name, spec in mapping(doc.get(section), section).items():
            if not _platform(name):
                out.append(Dependency("composer", name, string(spec), path, True, scope))
    return out


def parse_composer_lock(path: str, data: bytes) -> list[Dependency]:
    doc = mapping(load_json(data), "composer.lock")
    out: list[Dependency] = []
    sections: tuple[tuple[str, Scope], ...] = (("packages", "runtime"), ("packages-dev", "dev"))
    for section, scope in sections:
        for entry in listing(doc.get(section), section):
            if isinstance(entry, dict) and isinstance(entry.get("name"), str):
                version = string(entry.get("version"))
                out.append(Dependency("composer", entry["name"], version.removeprefix("v"), path, None, scope))
    return out
