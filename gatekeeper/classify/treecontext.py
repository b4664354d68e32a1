"""The `tree` context: markers and content from the git objects of BASE and HEAD, never the working tree.

One tree listing per commit (BASE, HEAD, and their merge base when it differs), one marker index
over all of them, and blob prefixes (8 KiB) through GitObjects' one `git cat-file --batch`, read
only for candidate files. The change itself (`--tree` without a patch) is `git diff-tree -M` of the
merge base and HEAD: what a pull request's "files changed" shows.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial

from gatekeeper.classify import (
    ciruns,
    ciwalk,
    godotaddons,
    heatfiles,
    inlinemeta,
    kustomizerefs,
    localactions,
    manifestreads,
    saltfiles,
    siblingrefs,
    tfrefs,
    treereads,
    zuuljobs,
)
from gatekeeper.classify.change import folded
from gatekeeper.classify.checkoutattrs import rewritten as checkout_rewritten
from gatekeeper.classify.context import UNDEPLOYED_RULES
from gatekeeper.classify.contexttypes import Shown
from gatekeeper.classify.iacprograms import MANIFEST_ENDINGS, is_manifest, mentions_library
from gatekeeper.classify.markers import MarkerIndex, ancestors
from gatekeeper.classify.mergedcopy import MergedCopies
from gatekeeper.classify.ruleset import RuleSet
from gatekeeper.classify.sniff import FULL_READ, is_candidate
from gatekeeper.classify.submodules import named_inside
from gatekeeper.classify.symlinks import every_path, links_by_target, opened
from gatekeeper.classify.tasks import MAX_DEFINITIONS, folders_to_search, is_definition, names, run_paths
from gatekeeper.classify.treechanges import tree_changes
from gatekeeper.classify.treepaths import where as passing
from gatekeeper.gitobjects import GitObjects, TreeEntry
from gatekeeper.model import FileChange
from gatekeeper.revrange import RevRange


class TreeContext:
    """Markers and content of BASE..HEAD; use as a context manager (it holds a git process)."""

    kind = "tree"
    programs = True  # source files are read only below a dependency manifest that names an IaC library

    def __init__(self, revs: RevRange, rules: RuleSet) -> None:
        self.objects = GitObjects(revs.repo, git_dir=revs.git_dir)
        self._rules = rules
        try:
            self.base_commit, self.head_commit = revs.base_commit, revs.head_commit
            # The pull request's change starts at the merge base; BASE's own tree adds its markers too.
            self.old_commit = revs.merge_base or self.base_commit
            commits = dict.fromkeys((self.old_commit, self.base_commit, self.head_commit))
            self.old_tree = self.objects.tree(self.old_commit)
            self.new_tree = self.objects.tree(self.head_commit)
            self.base_tree = self.objects.tree(self.base_commit)
            # Every tree whose files decide what a changed file is: the merge base, BASE and HEAD (each once).
            # Merging HEAD into BASE puts the change beside what BASE gained since the merge base: the workflow
            # that runs a local action, the kustomization that names a file, the content that makes a YAML file a
            # manifest (red team 13: a branch forked before them was judged without them).
            self.trees = tuple(self.objects.tree(commit) for commit in commits)
            paths = set[str]().union(*self.trees)
            kept = self.old_tree.keys() & self.new_tree.keys()  # a `stop` file on both sides (markers.py)
            self.markers = MarkerIndex(paths, rules.context.markers, self.new_tree.keys(), kept)
            self._manifests: dict[str, list[TreeEntry]] | None = None  # by folder, built on first use
            self._names_iac: dict[str, bool] = {}  # by blob id: does the manifest name an IaC library?
            self._folders_iac: dict[str, bool] = {}  # by folder: does a manifest there or above name one?
            self._definitions: dict[str, list[tuple[str, TreeEntry]]] | None = None  # YAML files by folder
            self._run_paths: dict[str, tuple[str, ...]] = {}  # by blob id: a Concourse definition's run paths
            # HEAD blobs task_script read of changed files, kept for the content tier: each blob is read once.
            self._heads: dict[str, bytes] = {}
            self._links: dict[str, tuple[str, ...]] | bool | None = None  # by target; False: past MAX_LINKS
            self._included: tuple[tuple[str, str], ...] | None = None  # (GitLab include or Zuul run path, evidence)
            self._tf_files: dict[str, list[tuple[str, TreeEntry, bool]]] | None = None  # .tf/Dockerfiles by folder
            self._siblings: siblingrefs.Siblings | None = None  # what they name through ../, on first use
            self._tf_named: dict[tuple[str, str, bool], tfrefs.Named] = {}  # (folder, blob, Dockerfile)
            # paths the kustomizations of both trees name: {path: kustomization}, and the folders of the local actions
            # workflows run: {folder: workflow}; None: not read yet; False: past MAX_FILES (every file counts)
            self._kustomized: dict[str, str] | bool | None = None
            self._actions: dict[str, str] | bool | None = None
            self._by_case: dict[str, dict[str, str]] = {}  # those maps' keys casefolded: {folded: key}
            self._requirements: dict[str, str] | bool | None = None  # files requirements files include: {path: by}
            self._runs: dict[str, tuple[str, str]] | bool | None = None  # files CI runs: {path: (rule, evidence)}
            self._shipped = tuple(heatfiles.Shipped(self.trees, self._head, self._is_data, shipper)  # files Heat
                                  for shipper in saltfiles.SHIPPERS)  # ships, CDK apps upload, Salt states install
            self._godot = godotaddons.Addons(self.trees, self._head)  # Godot projects' vendored plugins
            self._manifest_reads = manifestreads.Reads(self.trees, self._head, rules.match)  # on first use
            self._inline = inlinemeta.Reads(self.new_tree, self.old_tree)  # scripts read for PEP 723 metadata
            self._merged = MergedCopies(revs, (self.old_tree, self.base_tree, self.new_tree))  # merged on first use
            self.checkout_rewrites = partial(checkout_rewritten, self.objects, (self.head_commit, self.base_commit))
        except BaseException:
            self.objects.close()
            raise

    def __enter__(self) -> TreeContext:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._merged.close()
        self.objects.close()

    def content(self, change: FileChange, every_type: bool = False) -> list[Shown]:
        """The first 8 KiB of each side (HEAD's new path, the merge base's old path, BASE's copy of either when BASE
        moved on since the merge base, and the merged file when both changed it: mergedcopy.py, red team 28) that is a
        regular file and a candidate (any type with `every_type`)."""
        out = []
        if change.status != "deleted":
            out.append((change.path, self.new_tree.get(change.path)))
        if change.status != "added":
            old = change.old_path or change.path
            out.append((old, self.old_tree.get(old)))
        if self.base_tree is not self.old_tree:
            for side in dict.fromkeys((change.path, change.old_path or change.path)):
                entry = self.base_tree.get(side)
                if (side, entry) not in out:  # the same blob at the same path is read once
                    out.append((side, entry))
        shown = []
        for path, entry in out:
            if entry is not None and entry.mode in ("100644", "100755") and (every_type or is_candidate(path)):
                data = self._heads.pop(entry.oid) if entry.oid in self._heads else self._head(entry)
                if is_definition(path) and entry.oid not in self._run_paths:
                    self._run_paths[entry.oid] = run_paths(data[:FULL_READ])  # task_script need not read it again
                shown.append(Shown(path, data, True))
        return shown + self._merged.shown(change, every_type)

    def may_hold_program(self, change: FileChange) -> bool:
        """A dependency manifest (go.mod, package.json, requirements.txt, pyproject.toml, *.csproj, pom.xml, ...) in
        the folder of a side of `change` or above it, on either side, names an IaC library (IAC_LIBRARY_NEEDLES).
        Each manifest blob is read once, whole (up to FULL_READ)."""
        if self._manifests is None:
            self._manifests = {}
            for tree in self.trees:
                for path, entry in tree.items():
                    if path[-4:].lower() in MANIFEST_ENDINGS:
                        folder, _, name = path.rpartition("/")
                        if is_manifest(name) and (file := self._file(tree, path, entry)) is not None:
                            self._manifests.setdefault(folder, []).append(file)
        if not self._manifests:
            return False
        for side in [change.path] if change.old_path is None else [change.path, change.old_path]:
            folder = side.rpartition("/")[0]
            named = self._folders_iac.get(folder)  # answered already: the common case, without a call
            if named is None:
                named = self._below_iac_manifest(folder)
            if named:
                return True
        return False

    def _below_iac_manifest(self, folder: str) -> bool:
        """Whether a manifest in `folder` or above names an IaC library; one answer per folder (a loop, not
        recursion: a path may be thousands of folders deep)."""
        chain = []  # the folders from `folder` up to the first one already answered
        while folder not in self._folders_iac:
            chain.append(folder)
            if not folder:
                break
            folder = folder.rpartition("/")[0]
        named = self._folders_iac.get(folder, False) if not chain or chain[-1] != folder else False
        for current in reversed(chain):  # from the top down: a folder is named when its parent is
            named = named or self._names_in(current)
            self._folders_iac[current] = named
        return named

    def _names_in(self, folder: str) -> bool:
        assert self._manifests is not None
        for entry in self._manifests.get(folder, ()):
            if entry.oid not in self._names_iac:
                # Whole (red team 11: a package.json whose `@pulumi/aws` came after 64 KiB of `description`
                # named nothing); one longer than FULL_READ may name one past it (fail closed).
                data = self.objects.blob(entry.oid, FULL_READ + 1)
                self._names_iac[entry.oid] = len(data) > FULL_READ or mentions_library(data)
            if self._names_iac[entry.oid]:
                return True
        return False

    def head_blob(self, path: str, limit: int) -> tuple[str, bytes] | None:
        entry = self.new_tree.get(path)
        ok = entry is not None and entry.mode in ("100644", "100755")
        return (entry.mode, self.objects.blob(entry.oid, limit)) if entry is not None and ok else None

    def link_targets(self) -> dict[str, tuple[str, ...]] | None:
        """Every symlink of BASE and HEAD by the repository path it points to (a file or a folder): {target:
        every link to it}. A checkout follows them: what a link in a CI path points to is read as that path.
        None past symlinks.MAX_LINKS symlinks: the ones not read could reach anything (context.py fails closed)."""
        if self._links is None:
            found = links_by_target(self.trees, self.objects.blob)
            self._links = False if found is None else found
        return self._links if isinstance(self._links, dict) else None

    def ci_include(self, change: FileChange) -> str | None:
        """Evidence that the root `.gitlab-ci.yml` of either tree, or a file it includes (followed to MAX_FILES),
        includes a side of `change` (past MAX_FILES every YAML file counts), or a Zuul job runs it (zuuljobs.py)."""
        if self._included is None:  # and what Zuul jobs run (zuuljobs.py, classes52)
            self._included = zuuljobs.ci_included(self.trees, self._head, self.objects.git_dir)
        return zuuljobs.include_evidence(self._included, change)

    def kustomize_reference(self, change: FileChange) -> str | None:
        """Evidence that a kustomization of either tree names a side of `change` by its path (kustomizerefs.py)."""
        if self._kustomized is None:
            self._kustomized = treereads.applied_references(self.trees, self._head, self._is_data, self.objects.blob)
        if self._kustomized is False:
            return f"more than {kustomizerefs.MAX_FILES} kustomizations: any of them may name it"
        assert isinstance(self._kustomized, dict)
        for side in change.sides() if self._kustomized else ():  # none found: no path to fold and look up
            if (spelled := self._spelled("kustomized", self._kustomized, side)) is not None:
                return f"{self._kustomized[spelled]} names {spelled}"
            if change.submodule:  # the submodule's files: what a kustomization names inside its folder
                inside = next((named for named in self._kustomized if named.startswith(f"{side}/")), None)
                if inside is not None:
                    return f"{self._kustomized[inside]} names {inside}, inside the submodule {side}"
        return None

    def local_action(self, change: FileChange) -> str | None:
        """Evidence that a side of `change` is in the folder of a local action a workflow (or a local action) of
        either tree runs (`uses: ./tools/setup`, localactions.py)."""
        if self._actions is None:
            self._actions = treereads.local_actions(self.trees, self._head)
        if self._actions is False:
            return f"more than {localactions.MAX_FILES} workflows and actions: any of them may run it"
        assert isinstance(self._actions, dict)
        if not self._actions:
            return None
        for side in [change.path] if change.old_path is None else [change.path, change.old_path]:
            if change.submodule and (inside := next((f for f in self._actions if f.startswith(f"{side}/")), None)):
                return f"{self._actions[inside]}: uses ./{inside}, inside the submodule {side}"
            folder = folded(side)  # the file itself (a root action's entry file), then each folder above it
            while folder:
                if (spelled := self._spelled("actions", self._actions, folder)) is not None:
                    return f"{self._actions[spelled]}: uses ./{spelled}"
                folder = folder.rpartition("/")[0]
        return None

    def requirements_include(self, change: FileChange) -> str | None:
        """Evidence that a requirements file of either tree includes a side of `change` (`-r`/`-c`, followed)."""
        if self._requirements is None:
            self._requirements = treereads.requirements_includes(self.trees, self._head)
        if self._requirements is False:
            return f"more than {treereads.MAX_REQUIREMENTS} requirements files (or installers): any may include it"
        assert isinstance(self._requirements, dict)
        for side in change.sides() if self._requirements else ():  # none found: no path to fold and look up
            if (spelled := self._spelled("requirements", self._requirements, side)) is not None:
                return f"{self._requirements[spelled]} includes {spelled}"
        return None

    def manifest_include(self, change: FileChange) -> str | None:
        """Evidence that a manifest or build program of either tree reads a side of `change` (manifestreads.py)."""
        return self._manifest_reads.evidence(change.sides())

    def read_as(self) -> dict[str, str]:
        """{path either tree's requirements files or manifests read: a name whose format the delta reads it in}."""
        if self._requirements is None:
            self._requirements = treereads.requirements_includes(self.trees, self._head)
        return self._manifest_reads.read_as(self._requirements)

    def ci_run(self, change: FileChange) -> tuple[str, str] | None:
        """(rule, evidence) when a CI definition of either tree (or a script it runs) runs a side of `change` by path
        (`ci`), names it as a Compose file, a Heat template ships it, a CDK app uploads it or a Salt state installs it
        (`iac`): ciruns.py, heatfiles.py, cdkassets.py, saltfiles.py. Any type (`bash tools/fix.patch`: attack 16);
        past the walk's bound, every file of a type ciruns.may_be_named takes (closed)."""
        if (runs := self._ci_runs()) is False and any(map(ciruns.may_be_named, change.sides())):
            return "ci.context.ci-run", ("past the CI walk's bounds (files or bytes read, patterns or deploy "
                                         "targets named, variable patterns, a path past PATH_MAX): any may run it")
        runs = runs if isinstance(runs, dict) else {}
        for side in change.sides() if runs else ():
            if (spelled := self._spelled("runs", runs, side)) is not None:
                return runs[spelled]
        return ciwalk.go_generated(runs, change.sides(), self.trees, self._head) or heatfiles.first_shipped(
            self._shipped, change.sides())

    def godot_addon(self, change: FileChange) -> str | None:
        """Evidence that a side of `change` lies in a plugin vendored into a Godot project's addons/."""
        return next((found for side in change.sides() if (found := self._godot.evidence(side))), None)

    def inline_metadata(self, change: FileChange) -> str | None:
        """Evidence that a side of `change` holds PEP 723 inline script metadata (inlinemeta.Reads)."""
        return self._inline.evidence(change, lambda: self.content(change, every_type=True))

    def _spelled(self, name: str, found: Mapping[str, object], path: str) -> str | None:
        """`path` as `found` spells it, folded as some checkout folds names (`folded`): a case-insensitive checkout
        (macOS, Windows runners) writes `tools/setup/run.sh` into the folder `tools/Setup` a workflow runs (red team
        15), a Mac `tools/café` in NFD into the NFC folder, and Windows runs `tools/setup` for `uses: ./tools/setup.`
        (red team 16)."""
        if name not in self._by_case:
            self._by_case[name] = {folded(key): key for key in found}
        return self._by_case[name].get(folded(path))

    def terraform_ref(self, change: FileChange) -> str | None:
        """Evidence that a Terraform, OpenTofu, Terragrunt, Packer HCL or Bicep file or a Dockerfile of either tree
        names a side of `change` (tfrefs.py): one in its folder or above (past MAX_TF_FILES read, a file above one not
        read counts as named), or one in a folder beside it, through `../` (siblingrefs.py)."""
        if self._tf_files is None:
            self._tf_files = {}
            seen: set[tuple[str, str]] = set()
            for tree in self.trees:
                for path in passing(self.trees, tree, tfrefs.is_configuration):
                    if (file := self._file(tree, path, tree[path])) is not None and (path, file.oid) not in seen:
                        seen.add((path, file.oid))
                        self._tf_files.setdefault(path.rpartition("/")[0], []).append(
                            (path, file, tfrefs.is_dockerfile(path)))
        if not self._tf_files:
            return None
        for side in (sides := [change.path] if change.old_path is None else [change.path, change.old_path]):
            # A submodule's files are named from anywhere (`source = "../modules/net"`): every configuration counts.
            for folder in self._tf_files if change.submodule else ancestors(side):
                for where, entry, dockerfile in self._tf_files.get(folder, ()):
                    key = (folder, entry.oid, dockerfile)
                    if key not in self._tf_named:
                        if len(self._tf_named) >= tfrefs.MAX_TF_FILES:
                            return f"more than {tfrefs.MAX_TF_FILES} configurations above it: {where} not read (review)"
                        text = self.objects.blob(entry.oid, FULL_READ).decode("utf-8", "replace")
                        self._tf_named[key] = tfrefs.names_in(where, text)
                    if (how := self._tf_named[key].reaches(side)) is not None:
                        return f"{where}: {how}"
                    if change.submodule and (inside := named_inside(side, self._tf_named[key])) is not None:
                        return f"{where}: names {inside}, inside the submodule {side}"
        if self._siblings is None:  # the configurations beside it that name it through ../ (siblingrefs.py)
            self._siblings = siblingrefs.Siblings(self._tf_files, lambda oid: self.objects.blob(oid, FULL_READ))
        return None if change.submodule else self._siblings.first(sides)

    def task_script(self, change: FileChange) -> str | None:
        """Evidence that a Concourse task definition (either side) in the folder of a side of `change`, or the
        folder above, runs it by `run: path:` (tasks.py); None otherwise. Each definition is read once."""
        if self._definitions is None:
            self._definitions = {}
            for tree in self.trees:
                for path in passing(self.trees, tree, is_definition):
                    if (file := self._file(tree, path, tree[path])) is not None:
                        self._definitions.setdefault(path.rpartition("/")[0], []).append((path, file))
        if not self._definitions:
            return None
        for side in [change.path] if change.old_path is None else [change.path, change.old_path]:
            # A submodule's files directly inside it are searched from the folder above it: a value there names one.
            for where, entry in self._definitions.get(side.rpartition("/")[0], ())[:2 * MAX_DEFINITIONS] \
                    if change.submodule else ():
                if entry.oid not in self._run_paths:
                    self._run_paths[entry.oid] = run_paths(self._head(entry)[:FULL_READ])
                for value in self._run_paths[entry.oid]:
                    if names(value, f"{side}/{value.rpartition('/')[2]}"):
                        return f"{where}: run.path {value}, inside the submodule {side}"
            for folder in folders_to_search(side):
                for where, entry in self._definitions.get(folder, ())[:2 * MAX_DEFINITIONS]:
                    if entry.oid not in self._run_paths:
                        data = self._head(entry)
                        self._run_paths[entry.oid] = run_paths(data[:FULL_READ])
                        old, new = self.old_tree.get(where), self.new_tree.get(where)
                        if old is None or new is None or old.oid != new.oid:  # in the change: content() wants it
                            self._heads[entry.oid] = data
                    for value in self._run_paths[entry.oid]:
                        if names(value, side):
                            return f"{where}: run.path {value}"
                        # A helper beside the script a task runs is part of that task (run.sh calls run.py).
                        sibling = f"{side.rpartition('/')[0]}/{value.rpartition('/')[2]}".lstrip("/")
                        if sibling != side and names(value, sibling) and (
                                any(sibling in tree for tree in self.trees)):
                            return f"{where}: run.path {value} (the task's folder)"
        return None

    def _file(self, tree: dict[str, TreeEntry], path: str, entry: TreeEntry) -> TreeEntry | None:
        """The regular file a checkout opens at `path`: a link is read from its target, in the link's folder, as
        terraform, docker and Concourse read it (red team 16: a linked `main.tf` named nothing); else None."""
        if entry.mode != "120000":
            return entry if entry.mode in ("100644", "100755") else None
        return opened(tree, path, lambda link: self.objects.blob(link.oid, 4096).decode("utf-8", "replace"))

    def _ci_runs(self) -> dict[str, tuple[str, str]] | bool:
        if self._runs is None:
            if self._actions is None:
                self._actions = treereads.local_actions(self.trees, self._head)
            actions = self._actions if isinstance(self._actions, dict) else {}  # False: local_action says ci
            self._runs = ciwalk.ci_runs(self.trees, self._head, actions, self._rules)
        return self._runs

    def _is_data(self, path: str) -> bool:
        # A test's file, a reno note: left unread (nothing applies it) unless CI runs, composes or deploys it, or a link
        # puts it elsewhere (`kubectl apply -k testdata/overlay`, `deploy -> testdata`: attack 31); past bounds, read.
        if not self._rules.first_rule(path).startswith(UNDEPLOYED_RULES):
            return False
        paths, runs = every_path(path, self.link_targets()), self._ci_runs()
        return paths is not None and isinstance(runs, dict) and all(self._rules.first_rule(at).startswith(
            UNDEPLOYED_RULES) and self._spelled("runs", runs, at) is None for at in paths)

    def _head(self, entry: TreeEntry) -> bytes:
        # The whole blob up to one byte past FULL_READ (sniff reads its windows from it, and the file as YAML;
        # a longer one is not read): git streams the whole object through the pipe either way.
        return self.objects.blob(entry.oid, FULL_READ + 1)

    def changes(self) -> list[FileChange]:
        """Every file the change touches (merge base → HEAD), renames paired, with line counts (treechanges.py)."""
        return tree_changes(self.objects, self.old_commit, self.head_commit)
