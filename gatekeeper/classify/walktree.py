"""What the CI walk (ciwalk.py) knows of one tree before it reads a file: the state its readers resolve names with
(cargo's aliases and workspaces, Go modules, npm packages, an Nx workspace, lint settings, tool loads), built once per
tree, and the files the walk starts from."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, partial

from gatekeeper.classify import (
    autorun,
    cargobins,
    cargorun,
    ciruns,
    gobuilds,
    jobdsl,
    lintplugins,
    localactions,
    npmbins,
    nxtargets,
    selfurls,
    taskstarts,
    toolloads,
    treeglobs,
    vendoredci,
)
from gatekeeper.classify.sniff import FULL_READ
from gatekeeper.classify.treepaths import where
from gatekeeper.classify.treereads import Read, Tree, linked_workflows

__all__ = ["FILE_MODES", "MAX_BYTES", "WalkTree", "starts"]

FILE_MODES = ("100644", "100755", "120000")  # a regular file, an executable, a symlink
# Bytes of the files the walk reads in a tree (each up to FULL_READ + 1): past it every file it may name is `ci` (fail
# closed). MAX_FILES files of 1 MiB cost ~1,000 CPU-s (cost40's Left 2); docs/classification.md has the measurement.
MAX_BYTES = 16 << 20


@dataclass(frozen=True, slots=True)
class WalkTree:
    """One tree's state the walk's readers name files with (walknames.py)."""

    tree: Tree
    read_blob: Read
    cargo: cargorun.Config  # `cargo x`: this tree's aliases
    projects: frozenset[str]  # its Cargo workspaces
    crates: cargobins.Crates  # the binaries, examples and packages `cargo run` names (attack 47)
    gomods: gobuilds.Modules  # which folder `go run example.com/x/cmd/t` runs (attack 48)
    npms: npmbins.Packages  # bins
    nxs: nxtargets.Workspace  # Nx projects
    lints: lintplugins.Settings  # its linters' settings (attack 48)
    present: treeglobs.Present  # which of their globs name a file at all (treeglobs.py)
    loads: toolloads.Reads  # go.mod's tools, TypeDoc's options (misses 8)
    mine: Callable[[], frozenset[tuple[str, str]]]  # its own names (cileft68)
    aliased: str

    @classmethod
    def build(cls, tree: Tree, read_blob: Read) -> WalkTree:
        """The state of `tree`, each reader's files read once."""
        cargo = cargorun.config([read_blob(tree[name]).decode("utf-8", "replace") for name in cargorun.CONFIGS
                                 if name in tree and tree[name].mode in FILE_MODES])
        manifests = {path.rpartition("/")[0]: read_blob(tree[path])[:FULL_READ].decode("utf-8", "replace")
                     for path in tree if path.endswith("Cargo.toml") and path.count("/") <= cargobins.MAX_DEPTH
                     and path.rpartition("/")[2] == "Cargo.toml" and tree[path].mode in FILE_MODES}
        projects = cargorun.workspaces({folder: text for folder, text in manifests.items()
                                        if folder and folder.count("/") <= 1})  # deeper: followed, the safe side
        crates = cargobins.crates(manifests)
        gomods = gobuilds.Modules(tree, read_blob)
        npms, nxs = npmbins.Packages(tree, read_blob), nxtargets.Workspace(tree, read_blob)
        loads = toolloads.Reads(tree, read_blob, gomods)
        lints = lintplugins.Settings(loads.seen, read_blob)  # what it looks up is recorded (treeconsults.py)
        present = treeglobs.Present(tree)
        return cls(tree, read_blob, cargo, projects, crates, gomods, npms, nxs, lints, present, loads,
                   cache(partial(selfurls.own, tree, read_blob)),
                   repr((cargo, projects, crates, gomods, npms, lints, loads, nxs)))

    def key(self) -> str:
        """What a file's names depend on beyond its text (a text read under one key is not parsed again)."""
        return self.aliased


def starts(trees: tuple[Tree, ...], tree: Tree, read_blob: Read, actions: dict[str, str],
           defines: Callable[[str], bool]) -> tuple[list[tuple[str, str]], set[str]]:
    """The walk's first queue of (path, origin) in `tree`, popped last first, and the scripts of it that are run, not
    definitions: the files `defines` calls definitions (less the idle ones), workflows through linked folders, the
    local actions' definitions, the root action, the task runners' and Job DSL's starts."""
    queue = [(path, path) for path in where(trees, tree, defines) if tree[path].mode in FILE_MODES]
    idle = _idle(tree, queue, read_blob)  # dead-end task and Dev Container files: asked outside the bound
    queue = [item for item in queue if item[0] not in idle]
    # an installed package's own definitions last (popped last): what a running one reaches is walked
    # first, with its origin (vendoredci.py); the root Travis file first, and what it imports (attack19)
    queue.sort(key=lambda item: (vendoredci.package_root(item[0]) is None, item[0] == vendoredci.ROOT_TRAVIS))
    # a CI folder's script is read as the scripts it runs are: a bundle past what is read is no bound
    scripts_run = {path for path, _ in queue if not ciruns.is_yaml(path) and not ciruns.is_definition(path)}
    queue += [(path, path) for path in linked_workflows(tree, read_blob)]
    queue += [(f"{folder}/{name}", origin) for folder, origin in actions.items() if folder
              for name in localactions.DEFINITIONS]
    # the root action (`action.yml`, ci by path: the action this repository publishes, and the one a `uses: ./`
    # step runs) is a definition: a script its composite steps run by `${{ github.action_path }}` is its code
    # (the fiftieth set: codecov-action's dist/codecov.sh)
    queue += [(path, path) for path in tree if "/" not in path and path.lower() in localactions.DEFINITIONS]
    queue += taskstarts.starts(trees, tree, read_blob) + jobdsl.starts(trees, tree, read_blob)  # cileft62
    return queue, scripts_run


def _idle(tree: Tree, queue: list[tuple[str, str]], read_blob: Read) -> set[str]:
    """The task and Dev Container files the walk starts from (`queue`) that run nothing unasked (autorun.runs_unasked):
    dead ends, each read once outside ciruns.MAX_FILES. A monorepo holds hundreds (TanStack/table: 352 examples'
    `.devcontainer/devcontainer.json` naming an image), and counted against the bound they closed the walk (every
    script `ci`; cileft69). At most MAX_FILES are asked; the rest, and symlinks, are walked and counted as before."""
    idle: set[str] = set()
    asked = 0
    for path, origin in queue:
        if path == origin and autorun.is_run_file(path) and tree[path].mode != "120000":
            if asked >= ciruns.MAX_FILES:
                break
            asked += 1
            if not autorun.runs_unasked(path, read_blob(tree[path])):
                idle.add(path)
    return idle
