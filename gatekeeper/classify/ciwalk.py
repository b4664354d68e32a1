"""The files CI definitions run, read from both trees of a TreeContext (ciruns.py names them; red teams 18 and 19), with
what the walk follows beyond a definition's words: the scripts a Dockerfile a step builds runs (dockerbuilds.py)."""

from __future__ import annotations

import posixpath
import re
from functools import cache, partial
from typing import NamedTuple

from gatekeeper.classify import (
    autorun,
    bumphooks,
    cargobins,
    cargorun,
    ciconfigs,
    cidefaults,
    ciforms,
    ciholders,
    ciimports,
    cireaches,
    ciruns,
    composerscripts,
    composeruns,
    deployruns,
    devcontainers,
    dockerbuilds,
    dotnetrun,
    gobuilds,
    goscripts,
    jobdsl,
    lintplugins,
    localactions,
    nodeconfigs,
    npmbins,
    nxtargets,
    pipinstalls,
    runsettings,
    selfurls,
    taskstarts,
    tasktexts,
    taskunits,
    toolloads,
    toolplugins,
    treeconsults,
    treeglobs,
    vendoredci,
    walkpaths,
    walkqueue,
    yamlnodes,
)
from gatekeeper.classify.gotasks import GO_GENERATE, go_generated, mage_files, task_files
from gatekeeper.classify.ruleset import RuleSet
from gatekeeper.classify.sniff import FULL_READ
from gatekeeper.classify.treepaths import where
from gatekeeper.classify.treereads import PastBound, Read, Tree, linked_workflows, walked
from gatekeeper.lazy_pattern import lazy

__all__ = ["GO_GENERATE", "ci_runs", "go_generated"]

_RUNNERS = ("ansible-playbook", "helmfile", "terraform")  # whose entry files cireaches.py reads (and Compose's)
_HELMFILE = lazy(r"(?:\A|/)helmfile[^/]*\Z|(?:\A|/)helmfile\.d/[^/]+\.ya?ml\Z")  # one `helmfile -f DIR` reads
_FILE_MODES = ("100644", "100755", "120000")  # a regular file, an executable, a symlink


def ci_runs(trees: tuple[Tree, ...], read_blob: Read, actions: dict[str, str],
            rules: RuleSet | None = None) -> dict[str, tuple[str, str]] | bool:
    """{path a CI definition of a tree (ciruns.is_definition, a workflow through a linked folder) runs or names, or a
    script it runs names in turn, or the definition of a local action a workflow runs (`actions`: local_actions)
    does: (rule, evidence)} (ciruns.py: `ci` for a script, `iac` for a Compose file a command names). False
    (fail closed) past ciruns.MAX_FILES files read in a tree, ciruns.MAX_NAMED patterns of a definition,
    ciruns.MAX_WILD variable ones or one with more than four variable parts, or at a definition longer than is read
    (a script longer than that is read to FULL_READ, its first MAX_NAMED patterns: a bundled `dist/index.js`).
    With `rules`, a YAML file the fixed names and folders leave out is a definition too when the path rules call it
    `ci` (_pipeline_by_rules)."""
    found: dict[str, tuple[str, str]] = {}
    # by (blob id, path, the tree's cargo aliases, the tasks read of it): what it names
    read: dict[tuple[str, str, str, taskunits.Tasks | None, bool], _Named] = {}
    built: dict[tuple[str, str], list[str]] = {}  # by (a Dockerfile's blob id, its context): the scripts it runs
    deploys: list[tuple[str, str]] = []  # (origin, a file or folder a deploy command names: deployruns.py)
    entries: dict[tuple[str, str, str], None] = {}  # (origin, runner, the file it starts from): cireaches.py
    wild = 0
    try:
        defines = partial(_defines, rules)  # one object for every tree: each path of them all is tested once
        for tree in trees:
            imports = _Imports(found, rules)
            cargo = cargorun.config([read_blob(tree[name]).decode("utf-8", "replace") for name in cargorun.CONFIGS
                                     if name in tree and tree[name].mode in _FILE_MODES])
            manifests = {path.rpartition("/")[0]: read_blob(tree[path])[:FULL_READ].decode("utf-8", "replace")
                         for path in tree if path.endswith("Cargo.toml") and path.count("/") <= cargobins.MAX_DEPTH
                         and path.rpartition("/")[2] == "Cargo.toml" and tree[path].mode in _FILE_MODES}
            projects = cargorun.workspaces({folder: text for folder, text in manifests.items()
                                            if folder and folder.count("/") <= 1})  # deeper: followed, the safe side
            crates = cargobins.crates(manifests)  # the binaries, examples and packages `cargo run` names (attack 47)
            gomods = gobuilds.Modules(tree, read_blob)  # which folder `go run example.com/x/cmd/t` runs (attack 48)
            npms, nxs = npmbins.Packages(tree, read_blob), nxtargets.Workspace(tree, read_blob)  # bins, Nx projects
            loads = toolloads.Reads(tree, read_blob, gomods)  # go.mod's tools, TypeDoc's options (misses 8)
            lints = lintplugins.Settings(loads.seen, read_blob)  # its linters' settings (attack 48)
            present = treeglobs.Present(tree)  # which of their globs name a file at all (treeglobs.py)
            aliased = repr((cargo, projects, crates, gomods, npms, lints, loads, nxs))  # `cargo x`: this tree's alias
            mine = cache(partial(selfurls.own, tree, read_blob))  # its own names (cileft68)
            queue = [(path, path) for path in where(trees, tree, defines) if tree[path].mode in _FILE_MODES]
            tested = ""  # the first origin that runs `dotnet test` (runsettings.py)
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
            queue = walkqueue.TaskQueue(queue, ciruns.MAX_FILES)
            for path, origin, entry in walked(tree, queue, ciruns.MAX_FILES, read_blob, queue.again):
                tasks = queue.reading(path)
                key = (entry.oid, path, aliased, tasks, vendoredci.inert(origin))  # an inert origin's bare names
                if key not in read or not loads.seen.same(read[key].looked):  # BASE's reading is HEAD's where it held
                    data, _ = read_blob(entry), loads.seen.take()  # what it looks up: from here
                    if origin == path and autorun.is_run_file(path) and not autorun.runs_unasked(path, data):
                        continue  # tasks run by hand, a container's commands: only what runs unasked (red team 35)
                    # the root Travis file without a script runs its language's default (the seventy-fourth set)
                    text = cidefaults.with_default(path, data[:FULL_READ].decode("utf-8", "replace"))
                    text = selfurls.localized(text, mine, loads.seen)  # the repository's own raw URLs (cileft68)
                    text = composeruns.localized(text, loads.seen, read_blob)  # a mounted service's paths (cileft68)
                    text = tasktexts.restricted(path, text, tasks)  # the tasks a caller runs of it
                    scripts, composed, folders, tasked = ciruns.named_tasks(path, text)
                    definition = (origin == path and path not in scripts_run) \
                        or path.endswith(localactions.DEFINITIONS)
                    # a release tool's settings; a folded `run: >` is one command over lines: its string too (attack 29)
                    configs = ciconfigs.named("\n".join([text, *yamlnodes.folded_strings(text)]) if ciruns.is_yaml(path)
                                              else text) if ciconfigs.may_name(text) else []
                    if definition and (len(data) > FULL_READ
                                       or len(scripts) + len(composed) + len(configs) > ciruns.MAX_NAMED):
                        return False  # what a definition runs may be past what is read
                    modules = ciimports.imported(path, text)
                    # a Node tool's settings module: its paths are the tool's data, its imports code (attack 41)
                    scripts = [] if nodeconfigs.imports_only(path, text) or tasks == toolplugins.KEYS_ONLY \
                        or path.rpartition("/")[2] in toolplugins.DATA_SETTINGS else scripts
                    yaml = ciruns.is_yaml(path)
                    joined = "\n".join([text, *yamlnodes.folded_strings(text)])
                    deployed = deployruns.targets(joined, yaml) if deployruns.may_deploy(text, yaml) else []
                    entered = [(runner, named) for runner in _RUNNERS if deployruns.runs(runner, text)
                               for named in deployruns.targets(joined, False, runner)]
                    if len(deployed) > ciruns.MAX_NAMED:
                        return False  # what a file deploys may be past what is matched (fail closed, not cut)
                    brought_up = [*devcontainers.configurations(text), *pipinstalls.installed_projects(text),
                                  *cargorun.packages(text, folders, cargo, projects, crates),  # pip: a tree's project
                                  *present.kept(gobuilds.packages(text, path, folders, gomods)),  # `go install ./t`
                                  *present.kept(npmbins.named(text, path, folders, npms)),  # `npx ./t`, a bin
                                  *present.kept(nxs.run(text)),  # `nx run-many`: its projects' commands
                                  *lintplugins.loaded(text, lints),  # pylint's, mypy's, RuboCop's plugins
                                  *dotnetrun.assemblies(text, loads.seen, read_blob),  # `dotnet x.dll`: its project
                                  *composerscripts.classes(path, text, data[:FULL_READ]),  # `App\\Ci::run` (misses 7)
                                  *bumphooks.hook_scripts(text, loads.seen, read_blob),  # manifests' hooks (misses 7)
                                  *toolplugins.loaded(path, text),  # a Babel/Jest/Mocha settings' local code
                                  *toolloads.loaded(path, text, folders, loads),  # fixtures, go tool, TypeDoc: misses 8
                                  *ciconfigs.script_env(path, text),  # the env.py an alembic.ini names (cileft69)
                                  *[linked for linked in ciimports.json_loads(path, text)  # a link: its target loads
                                    if (at := loads.seen.get(linked)) is not None and at.mode == "120000"]]
                    wild += sum(ciruns.ANY in pattern for pattern in (*scripts, *composed, *modules, *brought_up,
                                                                      *configs))
                    if wild > ciruns.MAX_WILD or any(p.count(ciruns.ANY) > 4 for p in (*scripts, *composed, *configs)):
                        return False  # each is matched against every path: bounded work (`.*` runs backtrack)
                    resolved = [(p, tasked.get(named)) for named in scripts[:ciruns.MAX_NAMED]
                                for p in ciruns.resolved(named, path, folders)
                                if not (key[4] and vendoredci.bare_elsewhere(origin, named, p))]
                    read[key] = _Named(
                        modules, [p for p, _ in resolved] + brought_up,
                        [p for named in composed[:ciruns.MAX_NAMED] for p in ciruns.resolved(named, path, folders)],
                        [(posixpath.normpath(posixpath.join(base, dockerfile)),
                          posixpath.normpath(posixpath.join(base, context)).lstrip("."))
                         for dockerfile, context in dockerbuilds.builds(text)
                         for base in ciruns.bases(path, folders)]
                    # an Earthfile is read as the Dockerfile of its own folder too (COPY then RUN)
                    + ([(path, path.rpartition("/")[0])] if ciforms.is_earthfile(path) else []),
                    vendoredci.travis_imports(path, text) if ciruns.is_yaml(path) else [],
                    [p for named in deployed for p in walkpaths.deployed(named, path, folders)],
                    [(runner, p) for runner, named in entered for p in walkpaths.deployed(named, path, folders)],
                    [p for named in configs[:ciruns.MAX_NAMED] for p in ciruns.resolved(named, path, folders)],
                    goscripts.markers(text), runsettings.runs_tests(text), ciimports.runner_lines(text),
                    walkqueue.asked(resolved, brought_up),
                    [(posixpath.normpath(posixpath.join(base, dockerfile)),
                      posixpath.normpath(posixpath.join(base, context)).lstrip("."))
                     for dockerfile, context in dockerbuilds.run_builds(text) for base in ciruns.bases(path, folders)],
                    loads.seen.take())
                names = read[key]
                tested = tested or (origin if names.tests_dotnet else "")
                # the JSON and YAML settings of the tools it runs: read for the code they load, not named
                queue += [(name, origin) for name in toolplugins.beside(path, names.scripts) if name in tree]
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
        # the Go task packages CI's programs import, what mage runs where CI runs it, what tests and directives run
        for reader in (task_files, mage_files, goscripts.started):  # (attack 46)
            for named, rule_evidence in reader(tree, read_blob, found):
                found.setdefault(named, rule_evidence)
    return found


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


class _Named(NamedTuple):
    imports: list[str]  # the modules a script imports by a relative name (ciimports.py), from the root; patterns
    scripts: list[str]  # patterns, resolved
    composed: list[str]
    builds: list[tuple[str, str]]  # (a Dockerfile, its build context), resolved
    travis: list[str]  # the files it may import when the root `.travis.yml` reaches it (vendoredci.travis_imports)
    deployed: list[str]  # the files and folders its deploy commands name (deployruns.py), resolved
    entered: list[tuple[str, str]]  # (runner, the file its `ansible-playbook`/`helmfile` starts from), resolved
    configs: list[str]  # the settings files it hands a release or pipeline tool (ciconfigs.py), resolved
    generates: list[str]  # it runs `go generate`, `go test` (GO_GENERATE, goscripts.GO_TEST)
    tests_dotnet: bool  # it runs `dotnet test`: the run settings the tree's project files name (runsettings.py)
    runners: str  # its lines that start a test runner: the tests they name are a suite (ciimports.through_runner)
    tasks: dict[str, taskunits.Tasks]  # the task files of `scripts` runners' commands alone name: what they run of them
    started: list[tuple[str, str]]  # the builds of `builds` whose image it then runs (dockerbuilds.run_builds)
    looked: treeconsults.Looked  # the tree's files its readers looked up: reused in a tree where they are the same


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
