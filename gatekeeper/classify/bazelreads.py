"""Files a Bazel workspace reads for where its dependencies come from, whatever their names (issue 12, cfgarg2).

- The downloader configuration a `.bazelrc` names (`common --experimental_downloader_config=downloader.cfg`, also
  `--downloader_config`): its `rewrite`, `allow` and `block` lines decide which hosts every external archive is
  fetched from, as an index URL in `.npmrc` does. The `.bazelrc` line itself is already `deps` by content
  (platformshapes.py, `deps.content.bazel-module-source`); the file it names was `src` (distroless' `downloader.cfg`,
  the forty-sixth set).
- A `.bzl` file the workspace loads (`MODULE.bazel`'s `use_extension("//bazel:extensions.bzl", ...)`,
  `use_repo_rule`, `include`; a `WORKSPACE`'s `load("//third_party:repos.bzl", ...)`; followed through the `.bzl`
  files those load) that calls a repository fetch rule (`http_archive(`, `git_repository(`, `maybe(http_file, ...)`,
  `go_repository(`, `maven_install(`, ...): its URLs, commits and checksums pin external code as a lock file does.
  Names no rule knows (`private/extensions/busybox.bzl`) were `src`. A `.bzl` file that only defines rules or
  macros is build logic, not read so (the labelled sets' rule files stay as they were).

- A file a run-control file imports (`import`, `try-import`) under a name no `*bazelrc*` rule reads (`tools/bazel.cfg`;
  docs review 54), read as run control: a line that runs a program makes it `ci` (`ci.context.bazel-hook`), one that
  moves where modules come from `deps`.

Both trees are read (a change cannot drop the naming line to escape). Each file is `deps` (`deps.context.included`,
evidence `ORIGIN:LINE reads PATH`, manifestreads.Reads). Past MAX_READ files a tree, or at one longer than is read,
every changed file counts as read (fail closed).
"""

from __future__ import annotations

import posixpath
import re

from gatekeeper.classify.bazelrc import option_values, rc_lines
from gatekeeper.classify.platformshapes import bazel_line, is_bazelrc
from gatekeeper.classify.sniff import FULL_READ
from gatekeeper.classify.treepaths import where
from gatekeeper.classify.treereads import PastBound, Read, Tree, walked
from gatekeeper.lazy_pattern import lazy

__all__ = ["HOOK", "MAX_READ", "included"]

MAX_READ = 500  # run-control, workspace and .bzl files read per tree
HOOK = " imports as run control"  # what an imported file's origin says when a line of it runs a program

_WORKSPACES = frozenset({"module.bazel", "workspace", "workspace.bazel", "workspace.bzlmod"})
_DOWNLOADERS = ("downloader_config", "experimental_downloader_config")
# What a workspace or .bzl loads: `load("//x:y.bzl"`, `use_extension("@//x:y.bzl"`, `include("//:m.MODULE.bazel"`
_LOADS = lazy(r"\b(?:load|use_extension|use_repo_rule|include)\s*\(\s*(?:\w+\s*=\s*)?[\"']([^\"'\n]+)[\"']")
_FETCHES = (r"http_archive|http_file|http_jar|git_repository|new_git_repository|go_repository|maven_install|"
            r"jvm_maven_import_external|npm_translate_lock|pip_parse|crates_repository|oci_pull|container_pull|"
            r"archive_override|git_override")
# a fetch rule called, or loaded under another name (`_archive = "http_archive"`), or a repository rule or module
# extension defined here, whose implementation downloads or runs commands when Bazel fetches (attack 30)
_FETCH = lazy(rf"^(?![ \t]*def[ \t]).*?\b(?:{_FETCHES})\s*\(|\bmaybe\s*\(\s*(?:{_FETCHES})\b"
                    rf"|[\"'](?:{_FETCHES})[\"']|\b(?:repository_rule|module_extension)\s*\(", re.MULTILINE)


def _is_start(path: str) -> bool:
    name = path.rpartition("/")[2].lower()
    return name in _WORKSPACES or name.endswith(".module.bazel") or "bazelrc" in name


def included(trees: tuple[Tree, ...], read_blob: Read) -> dict[str, str] | bool:
    """{path a Bazel run-control or workspace file of either tree names as above: "ORIGIN:LINE"}; False past the
    bounds (every changed file then counts as read)."""
    found: dict[str, str] = {}
    try:
        for tree in trees:
            loaded_at: dict[str, str] = {}  # a file loaded or imported: "LOADER:LINE"
            queue = [(path, path) for path in where(trees, tree, _is_start)]
            # what each file is read as (run control: "rc/ROOT"; loads: "/ROOT"), ROOT its workspace's folder
            kinds = {path: ("rc" if "bazelrc" in path.rpartition("/")[2].lower() else "")
                     + f"/{path.rpartition('/')[0]}" for path, _ in queue}
            for path, _origin, entry in walked(tree, queue, MAX_READ, read_blob):
                data = read_blob(entry)
                if len(data) > FULL_READ:
                    raise PastBound
                text = data.decode("utf-8", "replace")
                kind, folder = kinds[path], path.rpartition("/")[0]
                if path.endswith(".bzl") and _FETCH.search(text) is not None:
                    found.setdefault(path, loaded_at.get(path, path))  # the line that loads it, which fetches
                if kind.startswith("rc") and not is_bazelrc(path.rpartition("/")[2]) \
                        and (shape := bazel_line(text, True)) is not None:  # imported by any name (docs review 54)
                    found.setdefault(path, loaded_at.get(path, path) + (HOOK if shape[0] == "ci" else ""))
                for target, at, named_kind in _named(text, kind, folder):
                    if named_kind == "":  # a downloader configuration: named, not read for more names
                        found.setdefault(target, f"{path}:{_line(text, at)}")
                    elif target not in kinds:
                        kinds[target] = named_kind
                        loaded_at.setdefault(target, f"{path}:{_line(text, at)}")
                        queue.append((target, path))
    except PastBound:
        return False
    return found


def _named(text: str, kind: str, folder: str) -> list[tuple[str, int, str]]:
    """(path, offset in `text`, what it is read as: "" for a downloader configuration) of each file `text` names: a
    run-control file's (`kind` "rc/ROOT") downloader configuration and imports, a workspace or .bzl file's loads of the
    main repository (`kind` "/ROOT")."""
    out: list[tuple[str, int, str]] = []
    rc, _, root = kind.partition("/")
    if rc:
        for line in rc_lines(text):  # as Bazel reads it (bazelrc.py)
            for _name, value in option_values(line, _DOWNLOADERS):
                out += [(p, line.start, "") for p in _resolved(value, root, folder)]
            if line.command in ("import", "try-import") and line.words:
                out += [(p, line.start, kind) for p in _resolved(line.words[0], root, folder)]
        return out
    for hit in _LOADS.finditer(text):
        if (target := _label(hit[1], root, folder)) is not None and target.endswith((".bzl", ".bazel")):
            out.append((target, hit.start(), kind))
    return out


def _resolved(value: str, root: str, folder: str) -> list[str]:
    """A run-control file's path value: `%workspace%/x` from its workspace's folder `root`, a relative one from there
    (where Bazel runs) or from the file's own `folder`; absolute paths, `~` and variables name nothing in the tree."""
    if value.startswith("%workspace%/"):
        value, folders = value.removeprefix("%workspace%/"), [root]
    else:
        folders = list(dict.fromkeys([root, folder]))
    if not value or value.startswith(("/", "~", "%")) or "$" in value:
        return []
    joined = [posixpath.normpath(posixpath.join(base, value)) for base in folders]
    return [path for path in joined if not path.startswith("..") and path != "."]


def _label(label: str, root: str, folder: str) -> str | None:
    """The main repository's file a load label names (`//pkg:f.bzl`, `@//pkg:f.bzl`, `:f.bzl` from the loading file's
    folder); another repository's (`@rules_go//...`) is None."""
    if label.startswith(("@//", "@@//")):
        label = label[label.index("//"):]
    elif label.startswith("@"):
        return None
    if label.startswith("//"):
        package, _, name = label[2:].partition(":")
        base = posixpath.join(root, package)
    else:
        package, _, name = label.lstrip(":").rpartition(":")
        base, name = folder, label.lstrip(":") if not package else posixpath.join(package, name)
    joined = posixpath.normpath(posixpath.join(base, name)) if name else posixpath.normpath(base)
    return None if joined.startswith("..") or joined == "." or "$" in joined else joined


def _line(text: str, at: int) -> int:
    return text.count("\n", 0, at) + 1
