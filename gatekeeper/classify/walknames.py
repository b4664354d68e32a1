"""What one file the CI walk (ciwalk.py) reads names: its text through every reader of what a CI step runs, loads,
builds, deploys or starts, resolved against the tree's state (walktree.py)."""

from __future__ import annotations

import posixpath
from typing import NamedTuple

from gatekeeper.classify import (
    autorun,
    bumphooks,
    cargorun,
    ciconfigs,
    cidefaults,
    ciforms,
    ciimports,
    ciruns,
    composerscripts,
    composeruns,
    deployruns,
    devcontainers,
    dockerbuilds,
    dotnetrun,
    gobuilds,
    goscripts,
    lefthookroots,
    lintplugins,
    localactions,
    nodeconfigs,
    npmbins,
    pipinstalls,
    runsettings,
    selfurls,
    tasktexts,
    taskunits,
    toolloads,
    toolplugins,
    treeconsults,
    vendoredci,
    walkpaths,
    walkqueue,
    yamlcomments,
    yamlnodes,
)
from gatekeeper.classify.sniff import FULL_READ
from gatekeeper.classify.treereads import PastBound
from gatekeeper.classify.walktree import WalkTree

__all__ = ["RUNNERS", "Named", "is_definition", "named"]

RUNNERS = ("ansible-playbook", "helmfile", "terraform")  # whose entry files cireaches.py reads (and Compose's)


class Named(NamedTuple):
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
    wild: int  # the patterns with a variable part it names (ciruns.MAX_WILD counts them in a tree)
    looked: treeconsults.Looked  # the tree's files its readers looked up: reused in a tree where they are the same


def named(walk: WalkTree, path: str, origin: str, data: bytes, tasks: taskunits.Tasks | None, definition: bool,
          inert: bool) -> Named | None:
    """What `path` (`data`, read for `tasks`, reached from `origin`; a `definition` or a script it runs; `inert`:
    vendoredci.inert) names; None for a task file run only by hand. Raises PastBound where what it names may be past
    what is read: a definition longer than FULL_READ or naming more than ciruns.MAX_NAMED patterns, more than MAX_NAMED
    deploy targets, a pattern of more than four variable parts."""
    # every lookup of the tree's files is recorded (review 68a): the reading is reused only where they are the same
    read_blob, seen = walk.read_blob, walk.loads.seen
    seen.take()
    if origin == path and autorun.is_run_file(path) and not autorun.runs_unasked(path, data):
        return None  # tasks run by hand, a container's commands: only what runs unasked (red team 35)
    # the root Travis file without a script runs its language's default (the seventy-fourth set)
    text = data[:FULL_READ].decode("utf-8", "replace")
    # a YAML comment is no step, whatever reader reads the lines (`#   make bootstrap`: the label92 round); cut before
    # composeruns.localized adds its own `#` lines (a mounted service's host paths) for the readers below
    text = cidefaults.with_default(path, yamlcomments.uncommented(text) if ciruns.is_yaml(path) else text)
    text = selfurls.localized(text, walk.mine, seen)  # the repository's own raw URLs (cileft68)
    text = composeruns.localized(text, seen, read_blob)  # a mounted service's paths (cileft68)
    text = tasktexts.restricted(path, text, tasks)  # the tasks a caller runs of it
    scripts, composed, folders, tasked = ciruns.named_tasks(path, text)
    folders = [*folders, *lefthookroots.roots(path, text)]  # lefthook's `root:` (misses 10)
    # what the command readers read: a package.json's scripts one a line, never its JSON text (a reader's words ran
    # into the next script: determinism 45); the text itself for any other file
    commands = tasktexts.command_text(path, text)
    # a release tool's settings; a folded `run: >` is one command over lines: its string too (attack 29)
    configs = ciconfigs.named("\n".join([text, *yamlnodes.folded_strings(text)]) if ciruns.is_yaml(path)
                              else commands) if ciconfigs.may_name(commands) else []
    if definition and (len(data) > FULL_READ or len(scripts) + len(composed) + len(configs) > ciruns.MAX_NAMED):
        raise PastBound  # what a definition runs may be past what is read
    modules = ciimports.imported(path, text)
    # a Node tool's settings module: its paths are the tool's data, its imports code (attack 41)
    scripts = [] if nodeconfigs.imports_only(path, text) or tasks == toolplugins.KEYS_ONLY \
        or path.rpartition("/")[2] in toolplugins.DATA_SETTINGS else scripts
    yaml = ciruns.is_yaml(path)
    joined = "\n".join([text, *yamlnodes.folded_strings(text)]) if commands == text else commands
    deployed = deployruns.targets(joined, yaml) if deployruns.may_deploy(commands, yaml) else []
    entered = [(runner, named) for runner in RUNNERS if deployruns.runs(runner, commands)
               for named in deployruns.targets(joined, False, runner)]
    if len(deployed) > ciruns.MAX_NAMED:
        raise PastBound  # what a file deploys may be past what is matched (fail closed, not cut)
    brought_up = [*devcontainers.configurations(commands), *pipinstalls.installed_projects(commands),
                  *cargorun.packages(commands, folders, walk.cargo, walk.projects, walk.crates),  # pip: a project
                  *walk.present.kept(gobuilds.packages(commands, path, folders, walk.gomods)),  # `go install ./t`
                  *walk.present.kept(npmbins.named(commands, path, folders, walk.npms)),  # `npx ./t`, a bin
                  *walk.present.kept(walk.nxs.run(commands)),  # `nx run-many`: its projects' commands
                  *lintplugins.loaded(commands, walk.lints),  # pylint's, mypy's, RuboCop's plugins
                  *dotnetrun.assemblies(commands, seen, read_blob),  # `dotnet run/build.dll`: its project
                  *composerscripts.classes(path, text, data[:FULL_READ]),  # `App\\Ci::run` (misses 7)
                  *bumphooks.hook_scripts(commands, seen, read_blob),  # its manifests' hooks (misses 7)
                  *toolplugins.loaded(path, text),  # a Babel/Jest/Mocha settings' local code (package.json's keys)
                  *toolloads.loaded(path, commands, folders, walk.loads),  # fixtures, go tool, TypeDoc: misses 8
                  *ciconfigs.script_env(path, text),  # the env.py an alembic.ini names (cileft69)
                  *[linked for linked in ciimports.json_loads(path, text)  # a link: its target loads
                    if (at := seen.get(linked)) is not None and at.mode == "120000"]]
    wild = sum(ciruns.ANY in pattern for pattern in (*scripts, *composed, *modules, *brought_up, *configs))
    if any(p.count(ciruns.ANY) > 4 for p in (*scripts, *composed, *configs)):
        raise PastBound  # each is matched against every path: bounded work (`.*` runs backtrack)
    resolved = [(p, tasked.get(named)) for named in scripts[:ciruns.MAX_NAMED]
                for p in ciruns.resolved(named, path, folders)
                if not (inert and vendoredci.bare_elsewhere(origin, named, p))]
    return Named(
        modules, [p for p, _ in resolved] + brought_up,
        [p for named in composed[:ciruns.MAX_NAMED] for p in ciruns.resolved(named, path, folders)],
        [(posixpath.normpath(posixpath.join(base, dockerfile)),
          posixpath.normpath(posixpath.join(base, context)).lstrip("."))
         for dockerfile, context in dockerbuilds.builds(commands)
         for base in ciruns.bases(path, folders)]
        # an Earthfile is read as the Dockerfile of its own folder too (COPY then RUN)
        + ([(path, path.rpartition("/")[0])] if ciforms.is_earthfile(path) else []),
        vendoredci.travis_imports(path, text) if ciruns.is_yaml(path) else [],
        [p for named in deployed for p in walkpaths.deployed(named, path, folders)],
        [(runner, p) for runner, named in entered for p in walkpaths.deployed(named, path, folders)],
        [p for named in configs[:ciruns.MAX_NAMED] for p in ciruns.resolved(named, path, folders)],
        goscripts.markers(commands), runsettings.runs_tests(commands), ciimports.runner_lines(commands),
        walkqueue.asked(resolved, brought_up),
        [(posixpath.normpath(posixpath.join(base, dockerfile)),
          posixpath.normpath(posixpath.join(base, context)).lstrip("."))
         for dockerfile, context in dockerbuilds.run_builds(commands) for base in ciruns.bases(path, folders)],
        wild, seen.take())


def is_definition(path: str, origin: str, scripts_run: set[str]) -> bool:
    """`path` is read as a definition (its bounds close the walk), not as a script a definition runs."""
    return (origin == path and path not in scripts_run) or path.endswith(localactions.DEFINITIONS)
