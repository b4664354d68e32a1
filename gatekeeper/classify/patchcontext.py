"""The `patch` context: markers among the paths a patch names, content from the lines it shows.

A new file's hunk is its whole content and a deleted file's is its whole old content (complete);
a modified file shows only hunks (incomplete). The patch is read a second time, section by section
(sections are found by the `diff --git` line number the parser recorded), and only for candidates.
"""

from __future__ import annotations

import mmap
import os
from collections.abc import Iterable, Sequence
from io import BufferedReader, FileIO
from pathlib import Path
from typing import BinaryIO

from gatekeeper.classify import (
    appliedpatches,
    bazelhooks,
    ciforms,
    ciruns,
    codedeployhooks,
    heatfiles,
    inlinemeta,
    manifestreads,
    patchpipelines,
    zuuljobs,
)
from gatekeeper.classify.checkoutattrs import checkout_variants
from gatekeeper.classify.contextrules import ContextRules
from gatekeeper.classify.contexttypes import Shown
from gatekeeper.classify.iacprograms import mentions_library
from gatekeeper.classify.markers import MarkerIndex, ancestors
from gatekeeper.classify.patchpipelines import ShownNames
from gatekeeper.classify.sniff import LONG_WINDOW, is_candidate
from gatekeeper.classify.tasks import MAX_DEFINITIONS, folders_to_search, is_definition, names, run_paths
from gatekeeper.classify.tfrefs import Named, is_configuration, names_in
from gatekeeper.model import FileChange


class PatchContext:
    """Markers and content as far as one patch shows them. Sections are read on demand, in patch order."""

    kind = "patch"

    def __init__(self, patch: Path | None, changes: Iterable[FileChange], rules: ContextRules) -> None:
        changes = list(changes)
        paths = [p for c in changes for p in (c.path, c.old_path) if p is not None and c.status != "deleted"]
        # A marker the patch deletes still marks its folder (the base had it).
        paths += [c.old_path or c.path for c in changes if c.status in ("deleted", "renamed")]
        # A `stop` file the patch adds or changes is on the new side; one it changes (not adds) is on both.
        head = [c.path for c in changes if c.status != "deleted"]
        kept = [c.path for c in changes if c.status not in ("added", "deleted") and c.old_path in (None, c.path)]
        self.markers = MarkerIndex(paths, rules.markers, head, kept)
        self._sections = _Sections(patch)
        self._paths = frozenset(paths)  # every path the patch names (a task's script, for its helpers)
        self._definitions: dict[str, list[FileChange]] = {}  # YAML files the patch shows, by folder (either side)
        self._configurations: dict[str, list[FileChange]] = {}  # .tf/.hcl files the patch shows, by folder
        # what each configuration names (tfrefs.names_in), read once: every unread file asks (label 79)
        self._configuration_names: dict[tuple[str, str | None], list[tuple[str, Named]]] = {}
        # CI definitions the patch shows (workflows, pipelines, Earthfiles, Buildkite hooks), and what each names
        self._pipelines = [c for c in changes if c.status != "deleted"
                           and (ciruns.is_definition(c.path) or ciforms.is_hook(c.path))][:MAX_DEFINITIONS]
        self._pipeline_names: list[tuple[str, ShownNames, ShownNames]] | None = None
        self._named_by_any = ShownNames(())  # every pattern of _pipeline_names: a side none reaches needs no walk
        self._zuul = [c for c in changes if c.status != "deleted" and zuuljobs.is_config(c.path)][:MAX_DEFINITIONS]
        self._zuul_runs: tuple[tuple[str, str], ...] | None = None  # what the Zuul files shown name (classes52)
        self._bazelrcs = [c for c in changes if c.status != "deleted" and bazelhooks.is_rc(c.path)][:MAX_DEFINITIONS]
        self._hooks: dict[str, str] | None = None  # {path a .bazelrc shown makes Bazel run: the .bazelrc} (classes52)
        self._appspecs = [c for c in changes if c.status != "deleted" and codedeployhooks.is_appspec(c.path)
                          ][:MAX_DEFINITIONS]
        self._deploy_hooks: dict[str, tuple[str, ...]] | None = None  # {appspec shown: the hooks its lines run}
        # Manifests the patch shows that read other files by path (manifestreads.py), and what their lines name
        self._manifests = [c for c in changes if any(manifestreads.kind(side) or appliedpatches.is_manifest(side)
                                                     for side in c.sides())][:MAX_DEFINITIONS]
        self._manifest_reads: dict[str, tuple[str, bool]] | None = None
        self._shown = {c.path: c for c in changes if c.status != "deleted" and ciruns.may_be_named(c.path)}
        for c in changes:
            for side in {c.path, c.old_path or c.path}:
                if is_definition(side):
                    self._definitions.setdefault(side.rpartition("/")[0], []).append(c)
                if is_configuration(side):
                    self._configurations.setdefault(side.rpartition("/")[0], []).append(c)
        # Whether any source file of the patch may import an IaC library (one scan of the bytes, so that a
        # large patch without any is not read a second time file by file).
        self.programs = patch is not None and _mentions(patch)

    def close(self) -> None:
        """Close the patch file the sections are read from (reading again reopens it)."""
        self._sections.close()

    def may_hold_program(self, change: FileChange) -> bool:
        """The patch names an IaC library somewhere (one scan of its bytes, done once)."""
        return self.programs

    def head_blob(self, path: str, limit: int) -> tuple[str, bytes] | None:
        """A patch shows a file only as far as its hunks do (content)."""
        return None

    def link_targets(self) -> dict[str, tuple[str, ...]] | None:
        """A patch does not show the symlinks it leaves alone (run with --tree for the links of both trees)."""
        return {}

    def ci_include(self, change: FileChange) -> str | None:
        """Evidence that a Zuul file the patch shows names a side of `change` as a job's playbook, its folder or the
        roles (zuuljobs.py), as far as the patch shows it (a hunk's `run:` line counts). The pipeline files a patch
        leaves alone are not shown: a YAML file the catch-all names needs context."""
        if self._zuul_runs is None:
            self._zuul_runs = tuple(hit for config in self._zuul for shown in self.content(config, every_type=True)
                                    for hit in zuuljobs.named(config.path, shown.data.decode("utf-8", "replace")))
        return zuuljobs.include_evidence(self._zuul_runs, change) if self._zuul_runs else None

    def terraform_ref(self, change: FileChange) -> str | None:
        """Evidence that a Terraform, OpenTofu, Terragrunt, Packer HCL or Bicep file or a Dockerfile the patch shows, in
        the folder of a side of `change` or above it, names that side (tfrefs.py); the ones it leaves alone are not
        shown (--tree reads them), and a file is not tagged `needs-context` for them (every file of every patch would
        be)."""
        if not self._configurations:
            return None
        for side in [change.path] if change.old_path is None else [change.path, change.old_path]:
            for folder in ancestors(side):
                for configuration in self._configurations.get(folder, ())[:MAX_DEFINITIONS]:
                    key = (configuration.path, configuration.old_path)
                    if (read := self._configuration_names.get(key)) is None:
                        read = self._configuration_names[key] = [
                            (shown.path, names_in(shown.path, shown.data.decode("utf-8", "replace")))
                            for shown in self.content(configuration, every_type=True)]
                    for where, named in read:
                        if (how := named.reaches(side)) is not None:
                            return f"{where}: {how}"
        return None

    def requirements_include(self, change: FileChange) -> str | None:
        """A patch does not show the requirements files it leaves alone (a `.txt` file needs context)."""
        return None

    def godot_addon(self, change: FileChange) -> str | None:
        """A patch does not show the project.godot it leaves alone: a plugin's files keep their path-tier bucket."""
        return None

    def manifest_include(self, change: FileChange) -> str | None:
        """Evidence that a manifest the patch shows (either side's lines) reads a side of `change` by path; a build
        program's line that does not say it reads requirements counts when the lines shown of the file read as a
        requirements list. The manifests it leaves alone are not shown: context.py tags the names such a manifest
        may read `needs-context` (manifestreads.may_be_read)."""
        if not self._manifests:
            return None
        if self._manifest_reads is None:
            self._manifest_reads = {}
            for manifest in self._manifests:
                for shown in self.content(manifest, every_type=True):
                    if (reader := manifestreads.kind(shown.path)) is not None:
                        text = shown.data.decode("utf-8", "replace")
                        for target, number, says in manifestreads.named(shown.path, reader, text):
                            evaluated = says or reader != "python"  # a setup.py's read: if requirement-shaped
                            self._manifest_reads.setdefault(target, (f"{shown.path}:{number} reads", evaluated))
                    if appliedpatches.is_manifest(shown.path):  # a hunk too: read line by line (appliedpatches.py)
                        for target, number in appliedpatches.named(shown.path, shown.data.decode("utf-8", "replace")):
                            self._manifest_reads.setdefault(target, (f"{shown.path}:{number} applies", True))
        for side in change.sides():
            if (read := self._manifest_reads.get(side)) is not None and (read[1] or any(
                    manifestreads.requirement_shaped(shown.data.decode("utf-8", "replace"))
                    for shown in self.content(change, every_type=True))):
                return f"{read[0]} {side}"
        return None

    def checkout_rewrites(self, changes: Sequence[FileChange]) -> dict[str, str]:
        """None known: a patch shows no attributes but its own `.gitattributes` lines, which sniff reads."""
        return {}

    def inline_metadata(self, change: FileChange) -> str | None:
        """PEP 723 metadata in the lines the patch shows of a Python file or a file without a suffix (inlinemeta.py)."""
        return inlinemeta.evidence(self.content(change, every_type=True)) \
            if any(map(inlinemeta.may_run, change.sides())) or inlinemeta.executable(change) else None

    def ci_run(self, change: FileChange) -> tuple[str, str] | None:
        """(rule, evidence) when a CI definition the patch shows (its new side) runs a side of `change` by path or names
        it as a Compose file (walkpaths.shown_names). The definitions it leaves alone, and what the scripts run in turn,
        are not shown: docs tell CI to pass --tree. A Bazel run-control file the patch shows names the programs Bazel
        runs on every build (bazelhooks.py), as far as the patch shows its lines."""
        if self._hooks is None:
            self._hooks = {path: rc.path for rc in self._bazelrcs for shown in self.content(rc, every_type=True)
                           for path in bazelhooks.named(rc.path, shown.data)}
        if hook := next((side for side in change.sides() if side in self._hooks), None):
            return bazelhooks.RULE, f"{self._hooks[hook]} makes Bazel run {hook} on every build"
        if self._appspecs and any(map(heatfiles.may_ship, change.sides())):  # CodeDeploy's hooks, as --tree reads them
            if self._deploy_hooks is None:
                # either side's (as --tree reads both trees); a hunk's `location:` lines count without the `hooks:` key
                # above them (fail closed)
                self._deploy_hooks = {}
                for shown in (shown for appspec in self._appspecs for shown in self.content(appspec)
                              if shown.path == appspec.path):
                    self._deploy_hooks[shown.path] = self._deploy_hooks.get(shown.path, ()) + codedeployhooks.hooks(
                        shown.path, shown.data if shown.complete else b"hooks:\n" + shown.data)
            if hit := codedeployhooks.shown_hook(self._deploy_hooks, change.sides()):
                return hit
        if not self._pipelines:  # any type: an interpreter runs `bash tools/fix.patch` as a `.sh` (attack 16)
            return None
        if self._pipeline_names is None:
            self._pipeline_names = patchpipelines.read(self._pipelines, self._shown,
                                                       lambda change: self.content(change, every_type=True))
            self._named_by_any = ShownNames(pattern for _, scripts, composed in self._pipeline_names
                                            for pattern in (*scripts.patterns(), *composed.patterns()))
        for side in change.sides():
            if not self._named_by_any.reach(side):  # no definition names it: most files of a large patch
                continue
            for definition, scripts, composed in self._pipeline_names:
                if side != definition and scripts.reach(side):
                    return "ci.context.ci-run", f"{definition} runs {side}"
                if composed.reach(side):
                    return "iac.context.compose-file", f"{definition} names {side} as a Compose file"
        return None

    def local_action(self, change: FileChange) -> str | None:
        """A patch does not show the workflows it leaves alone (run with --tree for the local actions they run)."""
        return None

    def kustomize_reference(self, change: FileChange) -> str | None:
        """A patch does not show the kustomizations it leaves alone: a config-type file the catch-all names needs
        context."""
        return None

    def task_script(self, change: FileChange) -> str | None:
        """Evidence that a Concourse task definition the patch shows, in the folder of a side of `change` or the
        folder above, runs it by `run: path:` (tasks.py); None otherwise."""
        if not self._definitions:
            return None
        for side in [change.path] if change.old_path is None else [change.path, change.old_path]:
            for folder in folders_to_search(side):
                for definition in self._definitions.get(folder, ())[:MAX_DEFINITIONS]:
                    for shown in self.content(definition):
                        for value in run_paths(shown.data):
                            if names(value, side):
                                return f"{shown.path}: run.path {value}"
                            sibling = f"{side.rpartition('/')[0]}/{value.rpartition('/')[2]}".lstrip("/")
                            if sibling != side and names(value, sibling) and sibling in self._paths:
                                return f"{shown.path}: run.path {value} (the task's folder)"
        return None

    def content(self, change: FileChange, every_type: bool = False) -> list[Shown]:
        """What the patch shows of each side of `change` (new side: '+' and ' ' lines; old: '-' and ' ') that is
        a candidate (any type with `every_type`)."""
        wanted = (lambda path: True) if every_type else is_candidate
        if not change.line or not any(wanted(p) for p in (change.path, change.old_path) if p):
            return []
        found = self._sections.get(change.line)
        if found is None:
            return []
        old_text, new_text = found
        out = []
        # A side is complete when the patch shows all of it: an added (deleted) file's new (old) side, unless the
        # section was longer than what is kept of it (LONG_WINDOW).
        if change.status != "deleted" and wanted(change.path):
            whole = change.status == "added" and len(new_text) < LONG_WINDOW
            out.append(Shown(change.path, new_text, whole))
            # BASE's attributes are not in the patch: what a re-encoding checkout would write is read too (red team 32)
            out += [Shown(change.path, written, whole) for written in checkout_variants(new_text)]
        old = change.old_path or change.path
        if change.status != "added" and wanted(old):
            out.append(Shown(old, old_text, change.status == "deleted" and len(old_text) < LONG_WINDOW))
        return out


def _mentions(patch: Path) -> bool:
    try:
        with open(patch, "rb") as handle:
            if not os.fstat(handle.fileno()).st_size:
                return False
            with mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as data:
                return mentions_library(data)
    except (OSError, ValueError):
        return True  # cannot tell: take the careful road


_SKIP_BUFFER = 1 << 16  # the patch's read buffer: `_Sections._skip` counts the newlines of one at a time


class _Sections:
    """(old side text, new side text) of the section whose `diff --git` line is N, read forward once.

    Callers ask in increasing line order (files are classified in patch order); an earlier line
    restarts the read, so an out-of-order caller is slow, never wrong.
    """

    def __init__(self, patch: Path | None) -> None:
        self._patch = patch
        self._handle: BufferedReader | None = None
        self._number = 0  # lines read so far
        self._pending: int | None = None  # a `diff --git` line read but not yet handed out

    def get(self, line: int) -> tuple[bytes, bytes] | None:
        if self._patch is None:
            return None
        if self._handle is None or line < self._number and self._pending != line:
            self._restart()
        handle = self._handle
        assert handle is not None
        if self._number < line - 1:
            self._skip(handle, line - 1 - self._number)
        while self._pending != line:
            raw = handle.readline()
            if not raw:
                self.close()
                return None
            self._number += 1
            if self._number == line and raw.startswith(b"diff --git "):
                self._pending = line
            elif self._number > line:
                return None
        self._pending = None
        return self._collect(handle)

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None

    def _skip(self, handle: BufferedReader, count: int) -> None:
        """Read past up to `count` lines, whole buffers at a time while they end before the last of them: the sections
        of 10,000 source files before a lockfile's cost one `count` of newlines per buffer, not a `readline` each."""
        while True:
            data = handle.peek(_SKIP_BUFFER)
            ends = data.count(b"\n")
            if not data or ends >= count:
                return  # the rest, within this buffer, line by line (`get`)
            handle.read(len(data))
            self._number += ends
            count -= ends

    def _restart(self) -> None:
        self.close()
        assert self._patch is not None
        # Kept open across calls, closed on restart; its buffer is what _skip counts through.
        self._handle = BufferedReader(FileIO(self._patch), _SKIP_BUFFER)
        self._number, self._pending = 0, None

    def _collect(self, handle: BinaryIO) -> tuple[bytes, bytes]:
        old: list[bytes] = []
        new: list[bytes] = []
        sizes = [0, 0]
        in_hunk = False
        while True:
            raw = handle.readline()
            if not raw:
                break
            self._number += 1
            if raw.startswith(b"diff --git "):
                self._pending = self._number
                break
            if raw.startswith(b"@@"):
                in_hunk = True
                continue
            if not in_hunk:
                continue
            mark, body = raw[:1], raw[1:]
            if mark in (b" ", b"-") and sizes[0] < LONG_WINDOW:
                old.append(body)
                sizes[0] += len(body)
            if mark in (b" ", b"+") and sizes[1] < LONG_WINDOW:
                new.append(body)
                sizes[1] += len(body)
        return b"".join(old), b"".join(new)
