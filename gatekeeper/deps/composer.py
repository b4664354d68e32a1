"""PHP Composer: composer.json (require, require-dev) and composer.lock (packages, packages-dev)."""

from __future__ import annotations

from gatekeeper.deps.edits import NPM_PAIR, RANGE, SECTION_MARK, Side, json_line, json_value, opening
from gatekeeper.deps.loaders import listing, load_json, mapping, string
from gatekeeper.deps.model import Dependency, ManifestError, Scope
from gatekeeper.deps.tools import TOOL


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
            elif name == "php" and section == "require":
                # the PHP the project requires (laravel/laravel's "Update PHP requirement from 8.2 to 8.4", round 47):
                # the tool `php`, as Cargo's rust-version is `rust`; dropped as a platform package, its move was no
                # change and no problem. Extensions (`ext-*`) and `require-dev`'s php stay platform checks.
                out.append(Dependency(TOOL, "php", string(spec), path, True, "build"))
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


def composer_line(side: Side, index: int) -> list[tuple[str, ...]]:
    """A composer.json dependency line of a patch (edits.read); `"php": "range"` under a `"require": {` opening the
    hunk shows is the tool `php`, as parse_composer_json names it (round 59); any other platform requirement is
    refused."""
    pair = NPM_PAIR.match(side[index][0])
    if pair is not None and pair.group(1) == '"php"' and opening(side, index) == "require":
        value = json_value(pair.group(2), side[index][0])
        if isinstance(value, str) and RANGE.match(value.strip()):
            return [(f"require{SECTION_MARK}php", value.strip(), TOOL)]
    found: list[tuple[str, ...]] = list(json_line(side, index))
    if any("/" not in name for name, _ in found):
        raise ManifestError("a platform requirement or no package")
    return found
