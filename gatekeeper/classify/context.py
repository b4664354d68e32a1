"""Tiers 2 and 3 on top of the path rules: ancestor markers and content, from the best context at hand.

A context is where markers and content come from (`Context`, contexttypes.py):
- `tree`: the git objects of BASE and HEAD (`TreeContext`, see treecontext.py): both tree listings
  for markers, the first 8 KiB of both blobs for content;
- `patch`: the patch alone (`PatchContext`): markers among the paths it names, content of the lines
  it shows. A file whose class may depend on what the patch does not show is tagged `needs-context`.

Every side counts and the most sensitive result wins; tiers only raise a bucket, except two
documented lowerings that need proof on every side (a deps manifest in test data; a setup.py that is
an Ansible module, a setup.cfg or pyproject.toml of tool settings only).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial
from itertools import repeat

from gatekeeper.classify import (
    autorun,
    chartfiles,
    composerefs,
    deployscripts,
    godotaddons,
    manifestreads,
    renovatemerge,
    zuuljobs,
)
from gatekeeper.classify.change import classify_changes
from gatekeeper.classify.checkoutattrs import RULE as CHECKOUT_RULE
from gatekeeper.classify.contexttypes import Context, Shown
from gatekeeper.classify.depsyaml import generic_keys, unsettled
from gatekeeper.classify.diagrams import by_head, read_by_head
from gatekeeper.classify.iacprograms import PROGRAM_EXTENSIONS, function_handler, iac_program, program_evidence
from gatekeeper.classify.localactions import action_package, action_readme
from gatekeeper.classify.lowering import lower_with_proof
from gatekeeper.classify.markers import CONFIG_EXTENSIONS, MAX_PATH, NOT_LISTED, MarkerHit, extension, test_file
from gatekeeper.classify.programfiles import settled_program
from gatekeeper.classify.ruleset import RuleSet
from gatekeeper.classify.shapes import inventory_named, inventory_script
from gatekeeper.classify.sniff import FULL_READ, UNREAD_RULE, WINDOW, Signal, is_candidate, sniff, unread
from gatekeeper.classify.symlinks import reached_at, tagged_at
from gatekeeper.classify.tasks import is_script
from gatekeeper.classify.testdatacontent import unlowered
from gatekeeper.classify.tfrefs import DOCKER_RUN, reference_rule
from gatekeeper.classify.unreadpaths import config_type, unread_by_path
from gatekeeper.classify.unshownbytes import binary_unshown, executable_unshown
from gatekeeper.classify.weakrules import WEAK_RULES, installed_code, refine_weak
from gatekeeper.model import SENSITIVITY, ClassifiedFile, FileChange

NEEDS_CONTEXT = "needs-context"
CONTEXTS = ("tree", "patch")
_RANK = {bucket: rank for rank, bucket in enumerate(SENSITIVITY)}
# A marker raises what the path tier could only call source by its catch-all rule; a file a specific rule named
# (LICENSE, .gitignore, editor settings, images, a README) keeps that name, except inside the folders the marker's
# tool reads whole (`whole:` in the context rules: a chart renders every file of `templates/`, Ansible copies every
# file of a role's `files/`). A ci marker also raises iac.
_RAISED_BY_MARKERS = frozenset({"src", "other"})
# Path rules whose files no marker raises: test-data folders (principle 1; content still shows ci or iac there:
# testdatacontent.py), the templates and man pages a product ships (principle 2: a skeleton's Dockerfile is text).
FINAL_RULES = ("testdata.", "docs.templates", "docs.man-pages")
# What the tree readers neither read nor count as a shipper (a Heat template, a kustomization): those files and
# reno's release notes (Qiskit keeps 2,097 in version folders; the forty-fifth set). Not final: content still raises.
UNDEPLOYED_RULES = (*FINAL_RULES, "src.reno-notes")
PAST_BOUND_RULE = "ci.context.path-past-bound"  # a side longer than MAX_PATH: no reader reads it (cost 44)


def refine(files: Sequence[ClassifiedFile], rules: RuleSet, context: Context,
           quiet: Callable[[], Sequence[bool]] | None = None) -> list[ClassifiedFile]:
    """Apply tiers 2 and 3 to path-classified files; the most sensitive decision wins. `quiet`: what returns
    `unread_by_path(files)` (a patch derived with two contexts asks it once: packet.Parsed)."""
    # Fast path, inlined: a large change is mostly source files no tier reads and no marker claims.
    markers = bool(context.markers)
    programs = context.programs  # a patch's source files may show an IaC library's import
    catch_all = rules.rules[-1].id
    unread = repeat(False, len(files)) if markers else (quiet or partial(unread_by_path, files))()
    out = []
    for item, unread_here in zip(files, unread, strict=True):
        change = item.change
        if any(len(side) > MAX_PATH for side in change.sides()):  # what is read per folder above it grows past it
            out.append(_raise(item, "ci", PAST_BOUND_RULE, "path", f"a path longer than {MAX_PATH} characters "
                                                                     "(PATH_MAX): not read, any may run it"))
            continue
        # (A program's source file past the path's tests only where a reader may claim it: programfiles.)
        # A configuration names a file of any type by path (a Packer file provisioner uploads `files/client.cnf`, a
        # module reads `file("id_rsa.pub")`): the fast path does not pass over one it names (the seventy-ninth set).
        if (unread_here
                and not (programs and extension(change.path.rpartition("/")[2]) in PROGRAM_EXTENSIONS
                         and not item.rule.startswith(FINAL_RULES) and not settled_program(item, catch_all, context))
                and context.terraform_ref(change) is None):
            out.append(item)
        else:
            out.append(refine_weak(item, rules, context, _refine_one))
    out = _through_links(_through_includes(out, context), rules, context)
    rewritten = context.checkout_rewrites([item.change for item in out])  # red team 28: checkoutattrs.py
    out = [_raise(item, "iac", CHECKOUT_RULE, "content", f"{item.change.path}: {rewritten[item.change.path]}")
           if item.change.path in rewritten else item for item in out] if rewritten else out
    out = [autorun.judged(item, context) for item in out]  # tasks run on folder open, agents' approvals (red team 35)
    out = [renovatemerge.judged(item, context) for item in out]  # Renovate merging unreviewed (attack 51)
    return [binary_unshown(item, context) if context.kind == "tree" else executable_unshown(item) for item in out]


def _through_includes(files: list[ClassifiedFile], context: Context) -> list[ClassifiedFile]:
    """A file a GitLab pipeline includes, or in the folder of a local action a workflow runs, is ci, and one a
    kustomization names by its path is iac, whatever any earlier rule called it: GitLab and GitHub run, and kustomize
    applies, a test-data folder's file or a dependency manifest's name as any other (no rule is final against them).
    """
    return [_included(item, item.change, context) for item in files]


def _included(item: ClassifiedFile, change: FileChange, context: Context, how: str = "") -> ClassifiedFile:
    """`item` raised by what the readers say of `change` (its own, or the path a symlink reaches it at: `how`)."""
    if item.bucket != "ci" and (evidence := context.ci_include(change)) is not None:
        item = _raise(item, "ci", zuuljobs.rule_of(evidence), "content", evidence + how)  # or ci.context.zuul-job
    if item.bucket != "ci" and not action_package(item) and not action_readme(item) \
            and (evidence := context.local_action(change)) is not None:
        item = _raise(item, "ci", "ci.context.local-action", "content", evidence + how)
    if item.bucket not in ("ci", "iac") and (evidence := context.kustomize_reference(change)) is not None:
        rule = "iac.context.compose-build" if composerefs.is_compose(evidence.partition(" ")[0]) else \
            "iac.context.chart-file" if evidence.startswith(chartfiles.EVIDENCE) else "iac.context.kustomize-reference"
        item = _raise(item, "iac", rule, "content", evidence + how)
    if item.bucket not in ("ci", "iac", "deps") and (evidence := context.requirements_include(change)):
        item = _raise(item, "deps", "deps.context.requirements-include", "content", evidence + how)
    if item.bucket not in ("ci", "iac", "deps") and (evidence := context.godot_addon(change)):
        item = _raise(item, "deps", godotaddons.RULE, "content", evidence + how)
    if item.bucket not in ("ci", "iac", "deps") and (evidence := context.manifest_include(change)):
        item = _raise(item, *manifestreads.raised_as(evidence), "content", evidence + how)  # deps; a Bazel hook: ci
    elif context.kind == "patch" and item.bucket in ("src", "other") and manifestreads.may_be_read(change.path):
        item = replace(item, tags=tuple(sorted({*item.tags, NEEDS_CONTEXT})))  # a manifest not shown may read it
    # A script CI runs by path, a Compose file a command names (red team 18); deps by name keeps (principle 3) but
    # installed code (attack 18), deps a reader above inferred (`-c tools/release-it.json` the requirements reader
    # took for pip's: attack 30), a PEP 723 script's own block (`uv run mirror.py`: the fifty-eighth set), a
    # submodule a step runs a file of (its files are no tree's: the walk names the gitlink, attack 44) and what an
    # image build runs (ci outranks iac: a Makefile both run, over-reads 3) or a deploy script (label 94) do not.
    if (item.bucket not in ("ci", "iac", "deps") or item.rule in WEAK_RULES or installed_code(item)
            or "submodule" in item.tags or item.rule == deployscripts.RULE
            or item.rule.startswith(("deps.context.", "deps.content.inline-script", DOCKER_RUN))) and (
            run := context.ci_run(change)):
        rule, evidence = run  # ci.context.ci-run, iac.context.compose-file, heat-file (red team 19), cdk-asset (32)
        item = _raise(item, rule.partition(".")[0], rule, "content", evidence + how)
    return item


def _through_links(files: list[ClassifiedFile], rules: RuleSet, context: Context) -> list[ClassifiedFile]:
    """A file a symlink points to, or into, is also at the link's path for whatever reads the checkout
    (`uses: ./.github/actions/setup` through `.github/actions/setup -> ../../tools/setup`): classified there too, a
    ci, iac or deps bucket wins (pip reads `requirements.txt -> reqs/base.txt`), the tag rules' tags join (`CLAUDE.md`).
    Every link and chain counts as the kernel follows it; past the bounds (too many links, a long chain) it is ci."""
    links = context.link_targets()
    if links is not None and not links:
        return files
    out = []
    for item in files:
        for side in item.change.sides():
            reached = reached_at(side, links) if links is not None else None
            if reached is None:
                item = _raise(item, "ci", "ci.symlink-bound", "context", "more symlinks or longer chains of them "
                              "than are read: it may be reached from a CI path (review)")
                continue
            if "submodule" in item.tags and links:  # a link to a file or folder inside the submodule stands for it
                reached = [*reached, *((link, link) for target, found in links.items()
                                       if target.startswith(f"{side}/") for link in found)]
            for path, link in reached:
                item = tagged_at(item, rules, path)
                if (match := rules.match(path)).bucket in ("ci", "iac", "deps"):
                    item = _raise(item, match.bucket, match.rule, "context",
                                  f"reached as {path} through the symlink {link}")
                # What a workflow, kustomization, pipeline or requirements file names there (red team 16: `uses:
                # ./tools/setup` with `tools/setup -> ../scripts/setup` runs scripts/setup/run.sh).
                item = _included(item, replace(item.change, path=path, old_path=None), context,
                                 f" (reached as {path} through the symlink {link})")
        out.append(item)
    return out


def _refine_one(item: ClassifiedFile, rules: RuleSet, context: Context) -> ClassifiedFile:
    if item.bucket == "ci":
        return item  # nothing is more sensitive than ci
    if "submodule" in item.tags:  # no content here, but its files may be what a task runs or a Terraform file reads
        if (evidence := context.task_script(item.change)) is not None:
            return _raise(item, "ci", "ci.context.task-script", "content", evidence)
        evidence = context.terraform_ref(item.change) if item.bucket != "iac" else None
        if evidence is not None:
            return _raise(item, "iac", "iac.context.terraform-file", "content", evidence)
        if context.kind == "patch" and item.bucket != "iac":
            # A patch shows neither the submodule's files nor the kustomizations, includes and workflows that read
            # them and are left alone (with the commits a gitlink is judged by its readers): unsettled.
            return replace(item, tags=tuple(sorted({*item.tags, NEEDS_CONTEXT})))
        return item
    if item.rule.startswith(FINAL_RULES):
        return unlowered(_moved_into_final(item, rules, context), rules, context, _raise)
    change = item.change
    best = item
    if context.markers and (item.bucket in ("src", "other", "iac") or installed_code(item)):  # red team 22
        for side in change.sides():
            hit = context.markers.claim(side, added=change.status == "added")
            if hit is not None and hit.stopped:
                best = _cut_program(best, hit, rules, context)
                break
            if hit is not None and _marker_may_raise(item, hit, rules):
                handler = _function_handler(item, context) if hit.rule.claims == "program" else None
                if handler is not None:  # application code the program deploys: stays src, with the evidence
                    where, proof = handler
                    best = replace(item, rule=proof.rule, tier="content", evidence=f"{where}: {proof.evidence}")
                else:
                    best = _raise(best, hit.rule.bucket, hit.rule.id, "marker", hit.marker)
                break
    # Whether a patch calls a file binary is the author's choice (`*.yaml -diff` in .gitattributes): with the
    # commits the blobs are read and sniff finds a NUL itself; a patch's binary section shows no content.
    binary, vendored = change.binary and context.kind != "tree", installed_code(item)  # attack 17/18: run, read
    sides = change.sides()
    listable = bool(context.markers) and any(_listable(side, context) for side in sides)
    candidate = (listable or any(map(is_candidate, sides))) and not binary
    signals: list[tuple[Shown, Signal | None]] = []
    if candidate:
        # src/other files, generic-named manifests (depsyaml.py) are also read as YAML, whole; too long: reviewed
        as_yaml = item.bucket in _RAISED_BY_MARKERS or generic_keys(item) is not None
        for shown in context.content(change, every_type=listable):
            signals.append((shown, sniff(shown.path, shown.data, rules.context, as_yaml)))
            if as_yaml and item.rule == rules.rules[-1].id and unread(shown.data):
                best = _raise(best, "iac", UNREAD_RULE, "content",
                              f"{shown.path}: longer than the {FULL_READ // 1024} KiB read as YAML")
    for shown, signal in signals:
        if signal is not None and signal.bucket != "src":
            best = _raise(best, signal.bucket, signal.rule, "content", f"{shown.path}: {signal.evidence}")
    if context.programs and best.bucket == "src" and item.rule == rules.rules[-1].id:
        best = _program_by_imports(best, context)
    if best.bucket in ("src", "other") and not binary and (evidence := context.inline_metadata(change)) is not None:
        best = _raise(best, "deps", "deps.content.inline-script-metadata", "content", evidence)  # PEP 723
    if best.bucket in ("src", "other") and not binary and any(map(inventory_named, sides)):
        best = _inventory_script(best, context)
    if (best.bucket in ("src", "other", "iac") or vendored) and not binary and any(map(is_script, sides)):
        if (evidence := context.task_script(change)) is not None:
            best = _raise(best, "ci", "ci.context.task-script", "content", evidence)
    if (best.bucket in ("src", "other") or vendored) and not binary and (evidence := context.terraform_ref(change)):
        best = _raise(best, "iac", reference_rule(evidence.partition(":")[0]), "content", evidence)
    if best.bucket in ("src", "other") and any(map(read_by_head, sides)):  # a packed chart or npm package, a diagram
        for shown in context.content(change, every_type=True):
            if (packed := by_head(shown.path, shown.data)) is not None:
                best = _raise(best, packed.bucket, packed.rule, "content", f"{shown.path}: {packed.evidence}")
    if best.bucket in ("src", "other") and not binary and any(map(deployscripts.is_script, sides)):
        for shown in context.content(change, every_type=True):  # label 94: a script that deploys or tears down
            if (line := deployscripts.deploys(shown.path, shown.data)) is not None:
                best = _raise(best, "iac", deployscripts.RULE, "content", f"{shown.path}: {line}")
    best = lower_with_proof(best, rules, signals)
    if context.kind == "patch" and (_needs_context(best, item, rules) or unsettled(best, item, signals)):
        best = replace(best, tags=tuple(sorted({*best.tags, NEEDS_CONTEXT})))
    return best


def _listable(path: str, context: Context) -> bool:
    """A file of any type but source code and documents below a kustomization, which may list it by any name."""
    return (extension(path.rpartition("/")[2]) not in NOT_LISTED and bool(context.markers)
            and context.markers.below_kustomization(path))


def _inventory_script(item: ClassifiedFile, context: Context) -> ClassifiedFile:
    """An Ansible dynamic inventory script, by its content (any side): which machines the playbooks reach."""
    for shown in context.content(item.change, every_type=True):
        text = shown.data[:FULL_READ].decode("utf-8", "replace")  # the whole file: `_meta` may come last
        if (found := inventory_script(text)) is not None:
            bucket, rule, evidence = found
            return _raise(item, bucket, rule, "content", f"{shown.path}: {evidence}")
    return item


def _moved_into_final(item: ClassifiedFile, rules: RuleSet, context: Context) -> ClassifiedFile:
    """Test data, templates: final, unless the change moved the file there from a path no final rule holds. Then
    the old side is judged as the deletion it is (a deployment leaving the folder it is applied from)."""
    change, old = item.change, item.change.old_path
    if old is None or old == change.path or rules.match(old).rule.startswith(FINAL_RULES):
        return item
    gone = replace(change, path=old, old_path=None, status="deleted")
    judged = _refine_one(replace(item, change=gone, rule=rules.match(old).rule), rules, context)
    tags = tuple(sorted({*item.tags, *judged.tags}))
    if _RANK[judged.bucket] >= _RANK[item.bucket]:
        return replace(item, tags=tags)  # a patch that does not show the old content: needs-context
    return replace(judged, change=change, tags=tags)


def _cut_program(item: ClassifiedFile, hit: MarkerHit, rules: RuleSet, context: Context) -> ClassifiedFile:
    """A file a `stop` file cut out of a program's claim: iac when its content shows a program (its imports, or
    code hiding them); in a patch that shows only hunks, needs-context unless a complete side cleared it."""
    if not _marker_may_raise(item, hit, rules) or hit.rule.bucket == item.bucket:
        return item
    if "symlink" in item.tags:  # its content is another file's: nothing here proves it is not a program
        return _raise(item, hit.rule.bucket, hit.rule.id, "marker", f"{hit.marker} (a symlink past a stop file)")
    shown = context.content(item.change, every_type=True)
    for side in shown:
        if (signal := program_evidence(side.data, side.path)) is not None:
            return _raise(item, hit.rule.bucket, hit.rule.id, "content",
                          f"{side.path}: {signal.evidence} (below {hit.marker}, past a stop file)")
    if any(len(side.data) >= WINDOW for side in shown):  # a program may import its library past the window
        return _raise(item, hit.rule.bucket, hit.rule.id, "content",
                      f"{item.change.path}: longer than the {WINDOW // 1024} KiB read (below {hit.marker}, past a "
                      "stop file)")
    if context.kind == "patch" and not any(side.complete for side in shown):
        return replace(item, tags=tuple(sorted({*item.tags, NEEDS_CONTEXT})))
    return item


def _program_by_imports(item: ClassifiedFile, context: Context) -> ClassifiedFile:
    """A source file that imports a CDK/CDKTF/cdk8s/Pulumi library is an IaC program even without a project
    marker (a Pulumi Automation API program has no Pulumi.yaml; a construct library no cdk.json). Read only when
    the context says it may be one: in a patch, when the patch's bytes name such a library at all; with the
    commits, when a dependency manifest in or above its folder does (reading every changed source file would
    cost a large change seconds)."""
    sides = item.change.sides()
    if not any(extension(side.rpartition("/")[2]) in PROGRAM_EXTENSIONS for side in sides):
        return item
    if not context.may_hold_program(item.change):  # before the test-name check: cheaper, and usually no
        return item
    if all(test_file(side) for side in sides):
        return item  # a test of a stack is not deployed (as a program marker's claim leaves tests out)
    for shown in context.content(item.change, every_type=True):
        if (signal := iac_program(shown.data, shown.path)) is not None:
            return _raise(item, "iac", signal.rule, "content", f"{shown.path}: {signal.evidence}")
    return item


def _function_handler(item: ClassifiedFile, context: Context) -> tuple[str, Signal] | None:
    """A serverless function's code inside a CDK/Pulumi project, proven on every side the change has (the whole
    first window of each blob: a patch's hunks are never proof), or None."""
    if item.bucket != "src":
        return None
    blobs = (item.change.status != "deleted") + (item.change.status != "added")
    shown = context.content(item.change, every_type=True)
    found = [(s.path, function_handler(s.data)) for s in shown if s.complete]
    if len(found) != blobs or not all(signal is not None for _, signal in found):
        return None
    path, signal = found[0]
    assert signal is not None
    return path, signal


_TEST_PACKAGES = "src.test-packages"  # packages committed in a test tree's node_modules/ (attack 22, label 46)


def _marker_may_raise(item: ClassifiedFile, hit: MarkerHit, rules: RuleSet) -> bool:
    if item.bucket == "iac":
        return hit.rule.bucket == "ci"
    # a test tree's committed packages are installed code too: a chart's own Chart.yaml there is raised (attack 29)
    installed = installed_code(item) or item.rule == _TEST_PACKAGES
    return (not hit.stopped) if installed else item.bucket in _RAISED_BY_MARKERS and (
        item.rule == rules.rules[-1].id or hit.whole)


def _raise(item: ClassifiedFile, bucket: str, rule: str, tier: str, evidence: str) -> ClassifiedFile:
    if _RANK[bucket] >= _RANK[item.bucket]:
        return item
    return replace(item, bucket=bucket, rule=rule, ecosystem=None, tier=tier, evidence=evidence)  # type: ignore[arg-type]


# Rules that name a file by a convention a manifest or pipeline can also follow (besides the catch-all).
_CONVENTION_RULES = ("src.", "other.editor-nested")


def _needs_context(best: ClassifiedFile, item: ClassifiedFile, rules: RuleSet) -> bool:
    """Patch only: could a marker, or content the patch does not show, still make this file ci or iac?

    Asked of files the path tier left in src/other under its catch-all rule, a `src.*` rule or the nested
    editor folders' rule (`_CONVENTION_RULES`): those
    name a file by a convention (a chart's `tests/*_test.yaml` suites) that a file the tiers would raise can
    also follow (a chart's `templates/tests/x_test.yaml` hook), so from a patch alone they stay as unsettled as
    the catch-all. Any other specific path rule (governance files, editor settings, docs) has said what they are.
    """
    if best.bucket in ("ci", "iac") or item.bucket not in _RAISED_BY_MARKERS:
        return False
    if item.rule != rules.rules[-1].id and not item.rule.startswith(_CONVENTION_RULES):
        return False
    if item.change.binary:
        # git writes a binary section for a text file whenever the author's .gitattributes say `-diff`: one named
        # as a text configuration type is content the patch does not show (a compiled program has no extension).
        return any(extension(side.rpartition("/")[2]) in CONFIG_EXTENSIONS for side in item.change.sides())
    return any(config_type(side) for side in item.change.sides())


def classify_in_context(changes: Sequence[FileChange], rules: RuleSet, context: Context) -> list[ClassifiedFile]:
    """All three tiers: path rules, then markers and content from `context`."""
    return refine(classify_changes(changes, rules), rules, context)
