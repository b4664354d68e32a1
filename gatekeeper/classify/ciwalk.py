"""The files CI definitions run, read from both trees of a TreeContext (ciruns.py names them; red teams 18 and 19), with
what the walk follows beyond a definition's words: the scripts a Dockerfile a step builds runs (dockerbuilds.py)."""

from __future__ import annotations

import re
from functools import partial

from gatekeeper.classify import (
    autorun,
    ciforms,
    ciholders,
    ciimports,
    cireaches,
    ciruns,
    deployruns,
    goscripts,
    localactions,
    runsettings,
    tasktexts,
    taskunits,
    toolplugins,
    vendoredci,
    walknames,
    walkpaths,
    walkqueue,
    walktree,
)
from gatekeeper.classify.gotasks import GO_GENERATE, go_generated, mage_files, task_files
from gatekeeper.classify.ruleset import RuleSet
from gatekeeper.classify.treereads import PastBound, Read, Tree, walked
from gatekeeper.classify.walknames import Named
from gatekeeper.classify.walktree import WalkTree
from gatekeeper.lazy_pattern import lazy

__all__ = ["GO_GENERATE", "ci_runs", "go_generated"]

_HELMFILE = lazy(r"(?:\A|/)helmfile[^/]*\Z|(?:\A|/)helmfile\.d/[^/]+\.ya?ml\Z")  # one `helmfile -f DIR` reads


def ci_runs(trees: tuple[Tree, ...], read_blob: Read, actions: dict[str, str],
            rules: RuleSet | None = None) -> dict[str, tuple[str, str]] | bool:
    """{path a CI definition of a tree (ciruns.is_definition, a workflow through a linked folder) runs or names, or a
    script it runs names in turn, or the definition of a local action a workflow runs (`actions`: local_actions)
    does: (rule, evidence)} (ciruns.py: `ci` for a script, `iac` for a Compose file a command names). False
    (fail closed) past ciruns.MAX_FILES files or walktree.MAX_BYTES bytes read in a tree, ciruns.MAX_NAMED patterns
    of a definition, ciruns.MAX_WILD variable ones or one with more than four variable parts, or at a definition longer
    than is read (a script longer than that is read to FULL_READ, its first MAX_NAMED patterns: a bundled
    `dist/index.js`).
    With `rules`, a YAML file the fixed names and folders leave out is a definition too when the path rules call it
    `ci` (_pipeline_by_rules)."""
    found: dict[str, tuple[str, str]] = {}
    # by (blob id, path, the tree's cargo aliases, the tasks read of it): what it names
    read: dict[tuple[str, str, str, taskunits.Tasks | None, bool], Named] = {}
    built: dict[tuple[str, str], list[str]] = {}  # by (a Dockerfile's blob id, its context): the scripts it runs
    deploys: list[tuple[str, str]] = []  # (origin, a file or folder a deploy command names: deployruns.py)
    entries: dict[tuple[str, str, str], None] = {}  # (origin, runner, the file it starts from): cireaches.py
    wild = 0
    try:
        defines = partial(_defines, rules)  # one object for every tree: each path of them all is tested once
        for tree in trees:
            imports = _Imports(found, rules)
            walk = WalkTree.build(tree, read_blob)
            starts, scripts_run = walktree.starts(trees, tree, read_blob, actions, defines)
            queue = walkqueue.TaskQueue(starts, ciruns.MAX_FILES)
            tested = ""  # the first origin that runs `dotnet test` (runsettings.py)
            spent = 0  # bytes read of the tree's files (walktree.MAX_BYTES)
            for path, origin, entry in walked(tree, queue, ciruns.MAX_FILES, read_blob, queue.again):
                tasks = queue.reading(path)
                key = (entry.oid, path, walk.key(), tasks, vendoredci.inert(origin))  # an inert origin's bare names
                if key not in read or not walk.loads.seen.same(read[key].looked):  # BASE's reading where it holds
                    data = read_blob(entry)
                    spent += len(data)
                    if spent > walktree.MAX_BYTES:
                        return False  # what the files left would name is not known (fail closed, bounded work)
                    names = walknames.named(walk, path, origin, data, tasks,
                                            walknames.is_definition(path, origin, scripts_run), key[4])
                    if names is None:
                        continue
                    wild += names.wild
                    if wild > ciruns.MAX_WILD:
                        return False  # each is matched against every path: bounded work
                    read[key] = names
                names = read[key]
                tested = tested or (origin if names.tests_dotnet else "")
                # the JSON and YAML settings of the tools it runs: read for the code they load, not named
                queue += [(settings, origin) for settings in toolplugins.beside(path, names.scripts)
                          if settings in tree]
                for manifest in toolplugins.manifests(path, names.scripts):  # `npx jest`: package.json's `jest` key
                    queue.ask(manifest, origin, toolplugins.KEYS_ONLY) if manifest in tree else None
                # not a definition that came with an installed package and runs only at its root (vendoredci.py)
                if not (vendoredci.package_root(origin) and vendoredci.root_only(origin)):  # GO_GENERATE, GO_TEST
                    for marker in names.generates:
                        found.setdefault(marker, ("ci.context.ci-run", f"{origin} runs {marker[1:]}"))
                if origin == vendoredci.ROOT_TRAVIS and ciruns.is_yaml(path):  # what the root Travis file imports
                    queue += [(name, origin) for name in names.travis if name != path]
                scripts = walkpaths.expanded(tree, names.scripts) \
                    + walkpaths.built(tree, names.builds, built, read_blob) \
                    + walkpaths.started(tree, names.started, read_blob)  # its ENTRYPOINT, CMD (over-reads 4)
                # Queued in every tree, even when found in an earlier one: HEAD's copy of a file BASE's walk reached
                # (a package.json, an .npmrc, deps by name and so never reviewed as ci) may run more (red team 37).
                for named in scripts:
                    if named != path:
                        if named not in found and not vendoredci.own_package_file(origin, named, rules):
                            found[named] = ("ci.context.ci-run", f"{origin} runs {named}")
                        for link, how in ciholders.holders(tree, named):
                            found.setdefault(link, ("ci.context.ci-run", f"{origin} runs {named}, {how} {link}"))
                        queue.ask(named, origin, names.tasks.get(named))  # what the script runs in turn
                    elif tasks is not None and (named in names.tasks or tasktexts.runs_own_tasks(path)):
                        queue.ask(named, origin, names.tasks.get(named))  # its own other tasks (`npm run lint` in a
                        # script, `$(MAKE) docs`; not pytest's settings); one not literal: whole (over-reads 5, 6)
                for dockerfile, _context in names.builds:  # the image a step builds is what that file says (attack 30)
                    if dockerfile != path:
                        for marked in ciholders.with_link(tree, dockerfile):
                            found.setdefault(marked, ("iac.context.ci-build", f"{origin} builds an image from "
                                                                             f"{dockerfile}"))
                # the settings a release tool runs from (issue 12)
                for named in walkpaths.expanded(tree, names.configs):
                    if named != path:
                        if named not in found and not vendoredci.own_package_file(origin, named, rules):
                            found[named] = ("ci.context.ci-run", f"{origin} hands {named} to a tool as its settings")
                        for link, how in ciholders.holders(tree, named):  # hardening 50
                            found.setdefault(link, ("ci.context.ci-run", f"{origin} hands {named} to a tool as its "
                                                                         f"settings, {how} {link}"))
                        queue.append((named, origin))  # what its hooks run in turn
                queue += imports.seen(path, origin, walkpaths.expanded(tree, names.imports),
                                      scripts if ciimports.passes_runs(path) else [],
                                      {named for named in scripts if ciimports.is_test(named) and (
                                          path.endswith("package.json") or ciimports.through_runner(names.runners,
                                                                                                    named))})
                for named in walkpaths.expanded(tree, names.composed):
                    for marked in ciholders.with_link(tree, named):
                        found.setdefault(marked, ("iac.context.compose-file",
                                                  f"{origin} names {named} as a Compose file"))
                    entries[origin, "compose", named] = None
                deploys += [(origin, target) for target in names.deployed]
                entries.update(((origin, runner, target), None) for runner, target in names.entered)
            for project, named in runsettings.reached(tree, read_blob) if tested else []:  # cileft70
                found.setdefault(named, ("ci.context.ci-run", f"{tested} runs dotnet test with the run settings "
                                                              f"{project or 'a project file'} names"))
    except PastBound:
        return False
    # A chart or manifests CI deploys (red team 25): matched in every tree (a deploy target named in one tree only
    # counts in both, and a file the change adds to a deployed folder is in HEAD's only).
    # The bound counts targets, not (definition, target) pairs: many definitions deploying the same folders (a
    # scaffolder's test projects) are one match each; the first definition that names a target is its evidence.
    first_origin: dict[str, str] = {}
    for origin, target in deploys:
        first_origin.setdefault(target, origin)
    if len(first_origin) > ciruns.MAX_NAMED:
        return False  # each is matched against every path of both trees: bounded work (fail closed)
    for tree in trees:
        for target, origin in first_origin.items():
            for named in walkpaths.reached_in(tree, target):
                found.setdefault(named, (deployruns.RULE, f"{origin} deploys {target}"))
        # what a playbook, a Compose file or a helmfile CI runs reaches (issue 12); past the bounds, fail closed
        started = [[(path, origin) for origin, kind, target in entries if kind == runner
                    for path in (walkpaths.reached_in(tree, target) if runner not in ("compose", "terraform")
                                 else [target.partition(f"/{deployruns.HERE}")[0]])
                    if runner != "helmfile" or _HELMFILE.search(path)] for runner in cireaches.RUNNERS]
        if (reached := cireaches.reached(tree, read_blob, *started)) is None:
            return False
        for named, rule_evidence in reached:
            found.setdefault(named, rule_evidence)
        for named, rule_evidence in task_files(tree, read_blob, found):  # the Go task packages CI's programs import
            found.setdefault(named, rule_evidence)
        for named, rule_evidence in mage_files(tree, read_blob, found):  # what mage runs where CI runs it
            found.setdefault(named, rule_evidence)
        for named, rule_evidence in goscripts.started(tree, read_blob, found):  # what tests, directives run (attack 46)
            found.setdefault(named, rule_evidence)
    return found


class _Imports:
    """The files of one tree whose imports count (red team 12, second round; ciimports.py): those a CI definition, a
    shell script, a Makefile or a package.json runs (ciimports.passes_runs), and the modules they import, in turn. A
    file's imports are taken when it is known to run, whichever the walk reaches first: it may be read before."""

    def __init__(self, found: dict[str, tuple[str, str]], rules: RuleSet | None) -> None:
        self._found = found
        self._rules = rules  # an installed package's definition does not make its own files ci (vendoredci.py)
        self._run: set[str] = set()
        self._suite: set[str] = set()  # test files only a package.json's scripts run: their imports do not count
        self._imports: dict[str, tuple[str, list[str]]] = {}  # a file read: (its origin, what it imports)

    def seen(self, path: str, origin: str, imports: list[str], runs: list[str],
             suite: set[str]) -> list[tuple[str, str]]:
        """Note `path`, read with `imports`, running `runs`, of which `suite` are tests it runs as a suite (from a
        package.json's scripts or by a test runner: their imports do not count, review 55); the files to walk next
        (the imported modules)."""
        self._imports[path] = (origin, imports)
        queue: list[tuple[str, str]] = []
        todo = [path] if path in self._run and path not in self._suite else []
        for named in runs:
            if named not in self._run or named in self._suite and named not in suite:  # a suite's test run by path
                self._run.add(named)
                if named in suite:
                    self._suite.add(named)
                    continue
                self._suite.discard(named)
                todo += [named] if named in self._imports else []
        while todo:
            importer = todo.pop()
            origin, modules = self._imports[importer]
            for module in modules:
                if module != importer and not vendoredci.own_package_file(origin, module, self._rules):
                    self._found.setdefault(module, ("ci.context.ci-run", f"{origin} runs {importer}, which imports "
                                                                        f"{module}"))
                if module not in self._run or module in self._suite:
                    self._suite.discard(module)
                    self._run.add(module)
                    queue.append((module, origin))
                    todo += [module] if module in self._imports else []
        return queue


def _defines(rules: RuleSet | None, path: str) -> bool:
    """What ci_runs starts from: a CI definition (not a forge folder's settings file the `rules` know), a hook, a
    pipeline the `rules` know, a task or Dev Container file (autorun.py: read on only when it runs a command unasked);
    not one no service runs here (vendoredci.runs_here)."""
    return (ciruns.is_definition(path) and (rules is None or rules.match(path).rule not in ciruns.FORGE_SETTINGS)
            or ciforms.is_hook(path) or autorun.is_run_file(path) or rules is not None and _pipeline_by_rules(
                path, rules)) and vendoredci.runs_here(path)


def _pipeline_by_rules(path: str, rules: RuleSet) -> bool:
    """A pipeline under a name only the path rules know (`azure-pipelines-pr.yml`, a `.gitlab-ci/` folder's jobs,
    `cloudbuild-tf-apply.yaml`, GoReleaser's hooks; found by the sweep, docs/classification.md), or a CI file that
    runs commands (_ci_script).

    Not Arcade's shared `eng/common/` templates: its dependency flow rewrites them (and the scripts beside them) in
    every .NET repository, and the label sets call the build scripts they name `src` (two files would be lost). Nor
    an action's definition: its code is CI's only when a workflow runs it (localactions.py, red team 9)."""
    return (ciruns.is_yaml(path) or _ci_script(path)) and not path.startswith("eng/common/") \
        and path.rpartition("/")[2] not in localactions.DEFINITIONS and rules.match(path).bucket == "ci"


# The words of _ci_script's quick test in any case (`Ci/build.sh`, `vars/deploy.GROOVY`: the path rules match
# case-blind; attack 15), asked only of paths the plain spellings miss.
_ROOT_JOB_SCRIPTS = frozenset({"pr_check.sh", "build_deploy.sh"})  # ci.appsre-jobs: no CI word in their names
_CI_WORD = lazy(r"ci/|jenkins|earthfile|dangerfile|\.(?:star|groovy)\Z", re.IGNORECASE)


def _ci_script(path: str) -> bool:
    """A file the path rules may call `ci` that runs commands (red team 12, second round): a Jenkinsfile under any
    spelling (`Jenkinsfile.release`, `jenkins/Jenkinsfile.nightly`), an Earthfile, Drone's Starlark, a script in a CI
    system's folder (`.buildkite/hooks/pre-command`, `.github/scripts/release.sh`, `ci/build.sh`) — what each runs by
    path is CI's as a workflow's is, and the job scripts AppSRE's Jenkins runs at the root (over-reads 3). The cheap
    test before the rules: a dot-folder or a CI word in the path."""
    if path in _ROOT_JOB_SCRIPTS:
        return True
    if not (path[:1] == "." or "/." in path or "ci/" in path or "CI/" in path or "enkins" in path or "ENKINS" in path
            or "arthfile" in path or "angerfile" in path
            or path.endswith((".star", ".groovy", "ARTHFILE", "ANGERFILE"))) and (
            path.islower() or _CI_WORD.search(path) is None):  # (lower case: the tests above are every spelling)
        return False  # most paths of a tree, by substring tests (~0.5 µs a path; lower() alone costs ~1 µs)
    lower = path.lower()
    name = lower.rpartition("/")[2]
    if "jenkinsfile" in name or name.endswith((".star", ".groovy")) or name in ("earthfile", "dangerfile"):
        return True
    return ciruns.may_be_named(path) and (lower[:1] == "." or "/." in lower or "ci/" in lower or "jenkins" in lower)
