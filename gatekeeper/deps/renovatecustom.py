"""Versions a repository's own Renovate custom regex managers name: `--tree` reads them beside the formats.

Renovate's `customManagers` (`customType: regex`; the older `regexManagers`) tell it where a version no manager
knows is written and what it is: gotify/server's `GO_VERSION` file holds `1.26.0`, and its manager says that is the
`docker.io/gotify/build` image (`depNameTemplate`, `datasourceTemplate: docker`, `matchStrings: ["^(?<currentValue>
[0-9.]+)"]`), so Renovate's "update docker.io/gotify/build docker tag to v1.26.0" moves a file no reader reads. The
config is read at BASE only (what the change proposes cannot choose the patterns the gate runs), from the file
Renovate looks for first (its JSON and JSON5 names, in its order), as JSON and else as JSON5 (the `json5` package:
Renovate reads a config that is not JSON so); each manager's file patterns (`managerFilePatterns`: `/regex/` or a
glob; the older `fileMatch` regexes) select changed files no larger than `_MAX_FILE`, and its match strings
(JavaScript's named groups written as Python's) read `currentValue` at each side. A name written by a template with
`{{` in it, or a pattern Python cannot compile, names nothing: this is a reading of the author's own words, never a
finding. A config that cannot be read (neither JSON nor JSON5, a key given twice in one object, nested deeper than
the JSON bound, JSON5 past `MAX_JSON5`) and could hold such managers (it spells either key, or holds an escape that
could) is a `partial` problem on the config: what its managers would read is unread, reviewed by hand. Only
repositories whose BASE holds such a manager pay for more than the config lookups. The patterns are the repository's
and Python's `re` has no time limit: a pattern that backtracks (Renovate's own documented `(?<depName>.*?) ...
.*?_VERSION` form is cubic; `(\\w+/?)+` exponential) run on a path or text the change wrote could hold the gate for
hours. So the paths are selected and the texts read in a forked child under `_TIME_LIMIT` (policy/isolate.py); past
it, or when the child fails, each file the managers might read is a `partial` problem (review it by hand), never a
hang and never a silent pass.
"""

from __future__ import annotations

import fnmatch
import json
import re
from dataclasses import dataclass
from typing import Any

import json5

from gatekeeper import bounded
from gatekeeper.deps.delta import diff
from gatekeeper.deps.loaders import MAX_BYTES
from gatekeeper.deps.model import Change, Dependency, ManifestError, Problem
from gatekeeper.deps.tools import TOOL
from gatekeeper.deps.treeblobs import sibling_blob
from gatekeeper.errors import GatekeeperError, LimitError
from gatekeeper.gitobjects import GitObjects, GitObjectsError
from gatekeeper.lazy_pattern import lazy
from gatekeeper.policy.isolate import EngineTimedOut, run_isolated

# Renovate's own order of its config file names (the first found is the config); package.json's `renovate` key (no
# place for a regex manager in practice) is not read.
CONFIG_FILES = ("renovate.json", "renovate.json5", ".github/renovate.json", ".github/renovate.json5",
                ".gitlab/renovate.json", ".gitlab/renovate.json5", ".renovaterc", ".renovaterc.json",
                ".renovaterc.json5")
# The JSON5 parser is pure Python (~1 s of CPU for 30,000 values): a config past this is not read as JSON5. Renovate
# configs are a few KiB (the largest of the benchmarks' mirrors 18 KiB, read in 0.1 s).
MAX_JSON5 = 64 * 1024
_LIMITS = bounded.Limits(max_bytes=MAX_BYTES, max_depth=64, max_values=250_000)
# Either key, or an escape that could spell one (`custom\u004danagers`): what an unreadable config could name
_COULD_HOLD_MANAGERS = lazy(r"customManagers|regexManagers|\\")
_MAX_FILE = 64 * 1024  # a custom-managed file is a version file, a Makefile, a Dockerfile: larger ones are not read
_MAX_MANAGERS = 32
_TIME_LIMIT = 5.0  # seconds for each forked step (paths selected, texts read); a sane config takes milliseconds
# Renovate's datasource → the delta's ecosystem; any other (github-releases, github-tags, custom...) is a tool.
_ECOSYSTEMS = {"docker": "docker", "npm": "npm", "pypi": "pip", "go": "go", "maven": "maven", "nuget": "nuget",
               "rubygems": "bundler", "crate": "cargo", "packagist": "composer", "hex": "hex", "helm": "helm",
               "terraform-provider": "terraform", "terraform-module": "terraform"}
_NAMED_GROUP = lazy(r"\(\?<(?=[A-Za-z_])")  # JavaScript's `(?<name>`; `(?<=`, `(?<!` are lookbehinds


@dataclass(frozen=True, slots=True)
class Manager:
    """One custom regex manager: the files it reads and how, with its fixed name and datasource when it has them."""
    files: tuple[re.Pattern[str] | str, ...]  # a compiled regex, or a glob
    matches: tuple[re.Pattern[str], ...]
    name: str | None
    datasource: str | None

    def reads(self, path: str) -> bool:
        for pattern in self.files:
            if isinstance(pattern, str):
                if fnmatch.fnmatchcase(path, pattern) or (pattern.startswith("**/")
                                                          and fnmatch.fnmatchcase(path, pattern[3:])):
                    return True
            elif pattern.search(path):
                return True
        return False


def _compiled(text: object, flags: int = 0) -> re.Pattern[str] | None:
    if not isinstance(text, str) or not text or len(text) > 1000:
        return None
    try:
        return re.compile(_NAMED_GROUP.sub("(?P<", text), flags)
    except (re.error, RecursionError, OverflowError):
        return None


def _file_pattern(text: object) -> re.Pattern[str] | str | None:
    """`managerFilePatterns` entry: `/regex/flags` or a glob."""
    if not isinstance(text, str) or not text:
        return None
    if text.startswith("/") and text.rfind("/") > 0:
        body, _, flags = text[1:].rpartition("/")
        return _compiled(body, re.IGNORECASE if "i" in flags else 0) if set(flags) <= set("imsuy") else None
    return text


def _template(value: object) -> str | None:
    return value if isinstance(value, str) and value and "{{" not in value else None


def config_document(config: bytes) -> Any:
    """A Renovate config as Renovate reads it: JSON, else JSON5. ManifestError when it is neither, gives a key twice
    in one object (which value a reader takes is the reader's: the gate reads neither), or is nested deeper than 64
    levels (JSON5 past `MAX_JSON5` bytes is not read)."""
    try:
        body = config.decode("utf-8")
    except UnicodeDecodeError:
        raise ManifestError("not UTF-8 text") from None
    try:
        return bounded.load_json(body, "the Renovate config", _LIMITS, object_pairs_hook=bounded.no_duplicates)
    except LimitError as exc:
        raise ManifestError(exc.what) from None
    except json.JSONDecodeError:
        pass  # not JSON: JSON5 below
    except ValueError as exc:  # no_duplicates
        raise ManifestError(str(exc)) from None
    if len(config) > MAX_JSON5:
        raise ManifestError(f"not JSON, and larger than the {MAX_JSON5 // 1024} KiB read as JSON5")
    try:
        data = json5.loads(body, allow_duplicate_keys=False)
    except RecursionError:
        raise ManifestError(f"nested deeper than {_LIMITS.max_depth} levels") from None
    except (ValueError, OverflowError) as exc:
        raise ManifestError(f"neither JSON nor JSON5: {str(exc)[:120]}") from None
    if bounded.depth_of(data) > _LIMITS.max_depth:
        raise ManifestError(f"nested deeper than {_LIMITS.max_depth} levels")
    return data


def managers(config: bytes) -> list[Manager]:
    """The regex managers of a Renovate config (JSON or JSON5), in order; none when it cannot be read."""
    try:
        data = config_document(config)
    except ManifestError:
        return []
    return _managers(data)


def _managers(data: Any) -> list[Manager]:
    if not isinstance(data, dict):
        return []
    found = [m for key in ("customManagers", "regexManagers") if isinstance(data.get(key), list) for m in data[key]]
    out: list[Manager] = []
    for raw in found[:_MAX_MANAGERS]:
        if not isinstance(raw, dict) or raw.get("customType", "regex") != "regex":
            continue
        files = [_file_pattern(p) for p in raw.get("managerFilePatterns") or ()] if isinstance(
            raw.get("managerFilePatterns"), list) else []
        if isinstance(raw.get("fileMatch"), list):
            files += [_compiled(p) for p in raw["fileMatch"]]
        matches = [_compiled(p) for p in raw.get("matchStrings") or ()] if isinstance(
            raw.get("matchStrings"), list) else []
        kept = tuple(p for p in files if p is not None)
        strings = tuple(p for p in matches if p is not None and "currentValue" in p.groupindex)
        if kept and strings:
            out.append(Manager(kept, strings, _template(raw.get("depNameTemplate")),
                               _template(raw.get("datasourceTemplate"))))
    return out


def _read(manager: Manager, path: str, data: bytes | None) -> list[Dependency]:
    if data is None or len(data) > _MAX_FILE:
        return []
    body = data.decode("utf-8", errors="replace")
    out: list[Dependency] = []
    for pattern in manager.matches:
        for match in pattern.finditer(body):
            groups = match.groupdict()
            name = manager.name or groups.get("depName") or groups.get("packageName")
            version = groups.get("currentValue")
            source = manager.datasource or groups.get("datasource") or ""
            if not name or not version or not re.match(r"^v?\d", version):
                continue
            ecosystem = _ECOSYSTEMS.get(source, TOOL)
            dep = Dependency(ecosystem, name, version, path, True, "build" if ecosystem in ("docker", TOOL)
                             else "runtime")
            if dep not in out:
                out.append(dep)
    return out


def _config(git: GitObjects, base: str, path: str) -> bytes | None:
    """BASE's config file at `path`: from the tree's listing when the gate has listed it (no lookup for an absent
    file), else looked up."""
    listed = git.listed(base)
    if listed is None:
        return sibling_blob(git, base, path)
    entry = listed.get(path)
    return git.blob(entry.oid, MAX_BYTES + 1) if entry is not None and entry.mode in ("100644", "100755") else None


def _selected(found: list[Manager], paths: list[str]) -> list[list[int]]:
    """For each path, the indexes of the managers that read it (run in the child: the patterns are BASE's)."""
    return [[n for n, m in enumerate(found) if m.reads(path)] for path in paths]


def _read_all(jobs: list[tuple[str, list[Manager], bytes | None, bytes | None]]
              ) -> list[tuple[str, list[Dependency], list[Dependency]]]:
    """Each (path, managers, before, after): what each manager reads at each side (run in the child)."""
    return [(path, _read(m, path, old), _read(m, path, new)) for path, readers, old, new in jobs for m in readers]


def _unbounded(paths: list[str], exc: GatekeeperError) -> list[Problem]:
    why = f"ran past {_TIME_LIMIT:g} s" if isinstance(exc, EngineTimedOut) else "failed"
    return [Problem(path, "partial", f"the repository's Renovate custom regex managers {why} on it: the versions "
                    "they read are unread (review it by hand)") for path in paths]


def custom_moves(git: GitObjects, base: str, head: str, named: set[tuple[str, str | None]]
                 ) -> tuple[list[Change], list[Problem]]:
    """The moves BASE's custom regex managers read in the files the commits differ in, but for those the delta
    names already (`named`: (name, to version)); with the files whose reading ran past the time limit."""
    place, config = next(((path, blob) for path in CONFIG_FILES if (blob := _config(git, base, path)) is not None),
                         ("", None))
    if config is None:
        return [], []
    try:
        found = _managers(config_document(config))
    except ManifestError as exc:
        if not _COULD_HOLD_MANAGERS.search(config.decode("utf-8", errors="replace")):
            return [], []
        return [], [Problem(place, "partial", f"the repository's Renovate config cannot be read ({exc}): the versions "
                            "its custom regex managers name are unread (review them by hand)")]
    if not found:
        return [], []
    try:
        changed = [(path, before, after) for path, before, after in git.changed(base, head) if before is not None
                   and after is not None and {before.mode, after.mode} <= {"100644", "100755"}]
    except GitObjectsError:
        return [], []
    if not changed:
        return [], []
    try:
        selected = run_isolated(_selected, found, [path for path, _, _ in changed], timeout=_TIME_LIMIT)
    except GatekeeperError as exc:
        return [], _unbounded([path for path, _, _ in changed], exc)
    jobs = [(path, [found[n] for n in readers], git.blob(before.oid, _MAX_FILE + 1), git.blob(after.oid, _MAX_FILE + 1))
            for (path, before, after), readers in zip(changed, selected, strict=True) if readers]
    if not jobs:
        return [], []
    try:
        read = run_isolated(_read_all, jobs, timeout=_TIME_LIMIT)
    except GatekeeperError as exc:
        return [], _unbounded([path for path, _, _, _ in jobs], exc)
    out: list[Change] = []
    for path, old, new in read:
        out += [c for c in diff(old, new, path)
                if (c.name, c.to_version) not in named and c.change in ("upgraded", "downgraded", "changed")]
    return out, []
