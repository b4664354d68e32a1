"""The files a CI definition runs or hands to an action by path (red team 18, tests/test_redteam18_ci_runs.py).

`run: bash scripts/release.sh` in `.github/workflows/release.yml` makes `scripts/release.sh` the release job's own
code: it runs with the job's token and secrets as the step's inline text would, and an edit of it is an edit of the
job. So does a third-party action's input that names a file it runs or loads (`with: script: tools/go.sh`,
`actions/github-script`'s `require('./scripts/label.js')`), a GitLab job's `script:` line, and whatever such a
script runs in turn. Two earlier rounds measured "a script CI names is ci" against blind labels and left it out for
its false alarms (helpers people run too, labelled `src`); a gate that lets an agent rewrite what the release job runs
is the larger cost, so under `--tree` such a file is `ci` (`ci.context.ci-run`) — the safe direction.

Read as text, not as YAML keys: every word of the definition's lines and of its YAML strings (folded and quoted
scalars decoded) that is a path with a script's extension (SCRIPT_TYPES), or a program run by its path (`./gradlew`),
names a file below the root, below the definition's own folder (`${{ github.action_path }}/x.sh`, `$(dirname
"$0")/lib.sh`) or below a folder its commands run in (`working-directory:`, `cd`); a `${{ matrix.os }}` part matches
anything, a word that is all variable or a glob names nothing. Over-reading makes a file ci, a review; never an allow.
Three kinds of word name data, not a run (datawords.py, cileft66): an exclude list's value, a read-only line's operands
(`grep -q 1.2 pkg/_version.py`), a package list's names (a requirement `pytest`). Not suffixes: `run.sh`, `index.js`
and `build.sh` are in every folder of a large repository.

The Compose files a command names (`docker compose -f deploy/stack.yml`, `--file=…`, `docker stack deploy -c …`,
`COMPOSE_FILE=a.yml:b.yml`, also in the `.env` Compose reads) are Compose definitions whatever their name: `iac`
(`iac.context.compose-file`); so are its settings files (`--env-file`, `COMPOSE_ENV_FILES`).
"""
from __future__ import annotations

import posixpath
import re

from gatekeeper.bounded import load_json
from gatekeeper.classify import (
    ansiquotes,
    checkoutpaths,
    cienv,
    ciforms,
    ciimports,
    ciloops,
    commandlines,
    compiledruns,
    composerefs,
    daggermods,
    datawords,
    dotnetrun,
    envrcloads,
    exprliterals,
    fedruns,
    gitlabincludes,
    gorun,
    jobdsl,
    jobenv,
    nxtargets,
    ownfolders,
    pytasks,
    readflows,
    remoterunners,
    runvars,
    settingsexcludes,
    shellvars,
    submakes,
    taskrunners,
    tasktexts,
    taskunits,
    toolreads,
    wrappers,
    yamlnodes,
)
from gatekeeper.classify.markers import extension
from gatekeeper.classify.pipinstalls import ANY, path_pattern
from gatekeeper.classify.taskunits import Tasks
from gatekeeper.errors import LimitError
from gatekeeper.lazy_pattern import lazy

__all__ = ["ANY", "FORGE_SETTINGS", "MAX_FILES", "SOURCES", "bases", "is_definition", "is_yaml", "may_be_named",
           "named", "named_in", "resolved"]

# Source files a language's runner runs by their path (red team 12, second round: `go run build/ci.go`, `dotnet fsi
# build.fsx`, `swift x.swift`, `java X.java`, `cmake -P x.cmake`, `awk -f x.awk`, `rake`'s `rakelib/*.rake`); read as
# programs, not as shell (_PROGRAM_TYPES).
SOURCES = frozenset({"go", "swift", "dart", "java", "exs", "jl", "fsx", "csx", "cake", "cmake", "awk", "sc", "scala",
                     "rake"})
# The types of file a CI step runs by path (an interpreter's script, a program without an extension).
SCRIPT_TYPES = frozenset({"sh", "bash", "zsh", "ksh", "fish", "ps1", "psm1", "py", "rb", "pl", "js", "mjs", "cjs",
                          "ts", "mts", "cts", "bat", "cmd", "php", "lua", "groovy", "gvy", "kts", "r", "tcl", "nu",
                          *SOURCES})  # gvy: Groovy's other extension (a Jenkinsfile's `load "lib/deploy.gvy"`)
# The rules of forge-folder files no runner loads (issue forms, `release.yml`, Codecov's and stale's settings): no
# definition for ciwalk (the sixty-second set: crowdsec's `.github/codecov.yml` named generated Go files as run by CI).
FORGE_SETTINGS = frozenset({"other.github-community", "other.github-apps", "other.github-agents", "other.gitlab-agents",
                            "other.forge-community"})
MAX_FILES = 1_000  # definitions and scripts read per tree; past it every script counts (fail closed)
MAX_NAMED = 256  # patterns a definition names (past it: fail closed); a script's past it are not read (bundled code)
MAX_WILD = 64  # patterns with a variable part a tree's files name, each matched against every path (then: closed)
_NAMES = frozenset({"appveyor.yml", "azure-pipelines.yaml", "azure-pipelines.yml",
    ".appveyor.yml", ".drone.yml", ".gitlab-ci.yaml", ".gitlab-ci.yml", ".travis.yml", ".woodpecker.yml",
    "bitbucket-pipelines.yml", "buildspec.yml", "buildspec.yaml", "cloudbuild.yaml", "cloudbuild.yml", "codefresh.yml",
    "jenkinsfile", ".gocd.yaml", "atlantis.yaml", ".env", "earthfile",
})
_CI_FOLDERS = (".github/", ".gitlab/", ".circleci/", ".buildkite/", ".azure-pipelines/", ".woodpecker/", ".tekton/",
               ".ci/", "ci/", ".pipelines/", ".gitea/", ".forgejo/", ".drone/", ".semaphore/", ".builds/", ".kokoro/",
               "kokoro/")
_DEFINITION_TYPES = frozenset({"yml", "yaml", "groovy", "jenkinsfile"})
_ENDINGS = ("yml", "yaml", "groovy", "file", ".env", ".cfg")  # how every definition's name ends (lower case)
_LAST = frozenset("lLyYeEvVgG")  # and their last letters
_SPLIT = lazy(r"[\s'\"=,;|&()<>\[\]{}`]+")
_GLOB = lazy(r"[*?]")
_HOLE = commandlines.HOLE
_MAKE_INCLUDE = lazy(r"^[ \t]*(?:-|s)?include[ \t]+([^#\n]+)", re.MULTILINE)
_GITLAB_INCLUDE = lazy(r"^include[ \t]*:", re.MULTILINE)
_MAKE_GLOB = lazy(r"(?:\*|\?|\[[^\]/]{0,64}\])+")  # a run of glob parts: one `*` (ANY)
_PROGRAM_TYPES = frozenset({"js", "mjs", "cjs", "jsx", "ts", "mts", "cts", "tsx", "json", "php", "lua", "r", "pl",
                            "rb", *SOURCES})
_GLOB_PART = lazy(r"\*+|\?|\[[^\]/]*\]")
_FOLDER_WORDS = frozenset({"cd", "pushd", "-C", "--directory", "--project-directory", "Set-Location"})
_FOLDER_KEYS = frozenset({"working-directory", "workingdirectory", "workdir", "dir", "changedir", "change-dir"})
_FOLDER_MARKS = ("cd", "-C", "pushd", "dir", "Dir", "DIR", "Set-Location")  # in every line that holds one of them


def is_definition(path: str) -> bool:
    """A CI system's definition (a workflow, a pipeline), or the `.env` Compose reads by itself. An action's
    definition outside the CI folders is read when a workflow runs it (treereads.ci_runs: `actions`)."""
    if path[-1:] not in _LAST or not path[-6:].lower().endswith(_ENDINGS):
        return False  # most paths of a tree, at the cost of a slice (the full test costs 1.5 µs: 90 ms a gate)
    name = path.rpartition("/")[2].lower()
    if name in _NAMES or name.endswith((".gitlab-ci.yml", ".gitlab-ci.yaml")) or name.startswith(".pre-commit-config"):
        return True
    if checkoutpaths.is_kokoro_config(path):
        return True  # a Kokoro job's configuration (its build_file: checkoutpaths.py)
    return path.lower().startswith(_CI_FOLDERS) and extension(name) in _DEFINITION_TYPES


def is_yaml(path: str) -> bool:
    """A YAML file: the type of every definition whose name the path rules, not `is_definition`, know."""
    return path[-4:].lower() == ".yml" or path[-5:].lower() == ".yaml"


# and Compose files (`-f app/stack.json`: JSON is YAML), the configuration tox reads (tox.ini) and the files a
# Makefile includes (`include rules/release.mk`), a text a shell reads on its standard input (`bash < steps.txt`), and
# the manifests a package manager a step runs installs from (`go.mod`, `Gemfile.lock`, `pom.xml`: red team 12)
_NAMED_TYPES = SCRIPT_TYPES | {"yml", "yaml", "json", "ini", "toml", "cfg", "conf", "mk", "mak", "make", "inc", "txt",
                               "env", "mod", "sum", "work", "lock", "locked", "exs", "xml", "gradle", "just"}

_STRUCTURED = frozenset({"toml", "json", "jsonc", "ini", "cfg", "xml", "lock", "mod", "sum", "work", "properties"})


def may_be_named(path: str) -> bool:
    """A file type a CI step can run by its path, or a Compose command name: the cheap first test of a changed file
    (a file without an extension too)."""
    dot = path.rfind(".")
    return dot <= path.rfind("/") + 1 or path[dot + 1:].lower() in _NAMED_TYPES


def named_in(path: str, text: str) -> tuple[list[str], list[str], list[str]]:
    """named_tasks() but the tasks."""
    return named_tasks(path, text)[:3]


def named_tasks(path: str, text: str) \
        -> tuple[list[str], list[str], list[str], dict[str, Tasks]]:
    """named() of the file at `path`, and {the pattern of a task file only runners' commands name: the tasks they run
    of it} (taskunits.py); of a package.json, its
    `scripts` alone (what `npm run` and `npm ci`'s lifecycle run: its `main` is the package's code, not CI's) and the
    package.json of each workspace and `file:` dependency (npm installs them and runs their lifecycle scripts: red
    team 19); of a Makefile, also the files it includes; of a GitLab pipeline's file, the local files it includes (red
    team 19: their jobs' scripts)."""
    name = path.rpartition("/")[2]
    tasked: dict[str, Tasks] = {}
    if name == "package.json":
        return *_package(path, text, tasked), tasked
    if name == "dagger.json":  # the code of a Dagger module CI calls, the local modules it uses (daggermods.py)
        return daggermods.module_code(path, text), [], [], {}
    if name == "pnpm-workspace.yaml":
        return [f"{_GLOB_PART.sub(ANY, g).rstrip('/')}/package.json" for g in taskrunners.workspaces(text)], [], [], {}
    if name in nxtargets.PROJECT_FILES:  # an Nx project's or workspace's targets' commands alone (nxtargets.py)
        return *named(nxtargets.commands(text, path), strings=False, tasked=tasked), tasked
    modules = _patterns(pytasks.called(text)) if name == "pyproject.toml" else []  # poe's `script`, PDM's `call`
    text = composerefs.uncommented_env(text) if name.lower() == ".env" \
        else runvars.make_text(text) if tasktexts.is_makefile(name) else text
    text = ownfolders.localized(path, text)  # its own folder (`$PSScriptRoot`, `$(dirname "$0")`): attack 47
    text = settingsexcludes.unexcluded(name, text)  # a Python tool's exclude list names data (the seventy-fifth set)
    # bash's reading of its quotes (ansiquotes.py, attack 44): not a program's text, nor a structured file's (its
    # parser reads the text whole: a line added breaks it)
    if extension(name) not in _PROGRAM_TYPES | _STRUCTURED and (decoded := ansiquotes.lines_again(text)) is not None:
        text = f"{text}\n{decoded}"
    # its variables' values where it uses them (runvars.py); every reader of a text that is no YAML reads the copies
    known = runvars.values(text) if extension(name) not in _PROGRAM_TYPES else {}
    if shellvars.is_shell(name) and (again := shellvars.resolved_lines(path, text)):
        text = f"{text}\n{again}"  # its lines again with the folders its own variables hold (`"$DIR/lib/x"`)
    text, known = (ciforms.untold(text), known) if is_yaml(path) else (runvars.expanded(text, known), {})
    # a program's text is no shell's: `e/t` in a bundled `dist/index.js` is a division, not a command; a test's
    # imports are no commands (ciimports.unimported)
    text = ciimports.unimported(path, cienv.up_from_action(path, text))  # `${{ github.action_path }}/../x`: attack 36
    text = ciimports.uncommented(name, text)  # a JS/TS comment line runs nothing (over-reads 3)
    commands = ciforms.earthly_commands(text) if ciforms.is_earthfile(path) else \
        taskrunners.recipe_lines(text) if tasktexts.is_makefile(name) else datawords.package_commands(path, text)
    # (a recipe's `@./tools/gen`: its command, attack 36; a package list's names: no command, datawords.py)
    # a YAML or JSON file's folded and quoted strings are read again as one line each (composer.json's `"npm run
    # build"`); a script's or a Jenkinsfile's text is no YAML (its lines folded into one ran nothing: cileft66)
    strings = is_yaml(path) or name.lower().endswith(".json")
    scripts, composed, folders = named(commands, extension(name) not in _PROGRAM_TYPES, known, strings, tasked)
    scripts, folders = checkoutpaths.unfoldered(path, text, scripts, folders)  # below a checkout's folder (misses 7)
    scripts += modules
    ran = len(scripts)
    # Buildkite's local plugins' hooks and uploaded pipelines, Azure's templates, CircleCI's continuations (red team 36)
    azure = is_yaml(path) and not _is_gitlab(name, text)
    scripts += _patterns([*ciforms.plugin_hooks(text), *ciforms.pipeline_uploads(text),
                          *ciforms.copied_definitions(text), *ciforms.orb_includes(text),
                          *ciforms.orb_paths(path, text), *ciforms.packit_specs(name, text),
                          *(ciforms.pipeline_files(path, text) if azure else ()),
                          *daggermods.named(text), *jobdsl.named(name, text), *envrcloads.ci_loaded(name, text),
                          *toolreads.plugins(name, text, "/" not in path),
                          *(toolreads.nix_imports(text) if name.endswith(".nix") else ()),
                          *(toolreads.gradle_applied(text) if name.endswith((".gradle", ".gradle.kts")) else ())])
    scripts += _patterns(cienv.handed(text)) if is_yaml(path) else []  # a local action's `with:` paths (attack 36)
    scripts += remoterunners.runner_files(text) if is_yaml(path) else []  # a remote workflow's tox (misses 6)
    if tasktexts.is_makefile(name):
        scripts += _patterns(submakes.entered(text))  # `$(MAKE) -C $@` over `SUBDIRS` (cileft63)
        # `include a.mk $(wildcard mk/*.mk)`: each word, a function's parentheses aside; a glob's `?` and character
        # classes (`scripts/make/[0-9][0-9][0-9]_*.mk`: the seventy-fourth set) stand for any text, as `*` does
        scripts += _patterns([_MAKE_GLOB.sub("*", word) for line in _MAKE_INCLUDE.findall(text)
                              for word in re.split(r"[\s()]+", line) if word and not word.startswith("$")])
    if taskrunners.includes_files(name):  # just's imports, Task's includes, a Rakefile's task files
        scripts += _patterns(taskrunners.included(name, text))
    if extension(name) in ("yml", "yaml") and _GITLAB_INCLUDE.search(text) is not None:
        scripts += [_GLOB_PART.sub(ANY, pattern) for pattern in gitlabincludes.included(text)]
    others = set(scripts[ran:])  # named by other words too: the whole file
    return scripts, composed, folders, {pattern: tasks for pattern, tasks in tasked.items() if pattern not in others}


def _package(path: str, text: str, tasked: dict[str, Tasks]) -> tuple[list[str], list[str], list[str]]:
    """What a package.json's `scripts` run, and the package.json of its workspaces (globs: patterns) and of the local
    packages its dependencies install (`file:`, `link:` paths)."""
    try:
        manifest = load_json(text, path)
        assert isinstance(manifest, dict)
    except (ValueError, AssertionError, LimitError):
        return [], [], []
    # one command line a script, each read alone: its values joined are no YAML scalar to fold into one (cileft67);
    # the commands of its `nx` key's targets (misses 9)
    lines = [*tasktexts.package_lines(manifest), *nxtargets.package_commands(manifest, path)]
    found = named("\n".join(lines), strings=False, tasked=tasked) if lines else ([], [], [])
    workspaces = manifest.get("workspaces")
    workspaces = workspaces.get("packages") if isinstance(workspaces, dict) else workspaces
    packages = [str(glob) for glob in workspaces if isinstance(glob, str)] if isinstance(workspaces, list) else []
    for key in ("dependencies", "devDependencies", "optionalDependencies"):
        if isinstance(dependencies := manifest.get(key), dict):
            packages += [str(spec).partition(":")[2] for spec in dependencies.values()
                         if str(spec).startswith(("file:", "link:"))]
    globbed = [_GLOB_PART.sub(ANY, package.rstrip("/")) + "/package.json" for package in packages
               if package.strip("./")]
    return [*found[0], *dict.fromkeys(globbed)], found[1], found[2]


def _is_gitlab(name: str, text: str) -> bool:
    """A GitLab pipeline file, whose `include: - template:` names one of GitLab's own templates, not a file here."""
    return name.lower().endswith((".gitlab-ci.yml", ".gitlab-ci.yaml")) or _GITLAB_INCLUDE.search(text) is not None


def named(text: str, commands: bool = True, known: dict[str, list[str]] | None = None, strings: bool = True,
          tasked: dict[str, Tasks] | None = None) -> tuple[list[str], list[str], list[str]]:
    """(the patterns of the scripts `text` runs or names, the patterns of the Compose files its commands name, the
    folders its commands run in: `working-directory:` values, `cd`/`pushd` arguments). A task runner a command runs
    (`make release`, `just ship`, `task up`, `npm run release`) names its file too: the Makefile is run as a script is
    (`ci`), a package.json stays a manifest and is read for its scripts. `tasked` gets the patterns of the task files
    named only by runners' commands, with the tasks they run of them (taskunits.py)."""
    scripts: list[str] = []
    hits: list[tuple[str, Tasks | None]] = []
    composed: list[str] = []
    folders: list[str] = []
    globs: list[str] = []
    absolute: list[str] = []  # the absolute paths its commands run (checkoutpaths.commanded)
    known = (runvars.values(text) if known is None else known) if commands else {}  # its YAML strings' copies too
    copies = 0  # the sources at the end of the list that are read through copies (attack 43)
    text = ciforms.rooted(ciforms.expand_matrix(text))  # a workflow's root expressions and listed matrix values
    sources = [text, *(yamlnodes.folded_strings(text, quoted_data=False) if strings else ())]  # determinism 45
    # a YAML string's lines as bash reads them (ansiquotes.py: attack 44), with the values their assignments give
    bashed = [line for source in sources[1:] if (line := ansiquotes.lines_again(source)) is not None]
    for name, values in (runvars.values("\n".join(bashed)) if bashed and commands else {}).items():
        known = {**known, name: [*known.get(name, []), *values]}
    sources += bashed
    for index, source in enumerate(sources):  # grows by the sources read with their copies as their sources
        if index < len(sources) - copies:
            source = commandlines.printed(ciloops.rooted(runvars.expanded(source, known)))  # attack 46: printf
            source = ownfolders.DIRNAME.sub(".", exprliterals.holed(source))  # and its literals in place
        globs += ciloops.globbed(source) + gorun.packages(source) + dotnetrun.projects(source) \
            + compiledruns.sources(source) if commands else []  # misses 6: compiled, then run
        absolute += checkoutpaths.commanded(source) if commands else []
        # red team 36: $GITHUB_ENV; red team 40: BASH_ENV, git's include.path, ...
        scripts += ciimports.inline(source) + jobenv.fed(source) + jobenv.loaded(source) + cienv.path_folders(source) \
            + fedruns.function_runs(source) + commandlines.env_modules(source) if commands else []  # cileft67
        lines = source.splitlines()
        scripts += commandlines.copied_runs(lines) if commands else []  # a later line runs a copy (attack 42)
        if commands and index < len(sources) - copies:  # and what a line does with a copy, as with its source (43)
            again, past = commandlines.copies_read(lines)
            scripts += past
            if again is not None:
                sources.append(again)
                copies += 1
        runs_read = readflows.runs_read(source)  # `s = open(x).read()` then `exec(s)`: no read is data (attack 41)
        builds = commands and not datawords.built_runs(lines)  # `esbuild x.ts --outfile=o.js`, then `node o.js`
        for at, line in enumerate(lines):
            words = [word for word in _SPLIT.split(line) if word]
            # an exclude list's paths, a read-only line's operands are data (datawords.py); a folder's words stay
            # and a program's read call's literal path (`File.read('lib/x/version.rb')`, cileft67)
            read = line if runs_read else datawords.unread(line)
            data = datawords.unrun(read, lines[at + 1] if at + 1 < len(lines) else "", builds) if commands else read
            scanned = words if data is line else [word for word in _SPLIT.split(data) if word]
            distinct = dict.fromkeys(scanned)  # each word read once (a line of 50,000 `a.sh`: 0.5 CPU-s)
            scripts += [word for word in distinct if _runnable(word)]  # and `-r./boot.rb` (ruby, RUBYOPT: red team 40)
            scripts += fedruns.xargs_runs(line) if commands else []  # `echo tools/gen | xargs bash` (cileft67)
            scripts += [word[2:] for word in distinct
                        if word[:1] == "-" and word[1:2].isalpha() and _runnable(word[2:])]
            if "compose" in line.lower() or "stack" in line:
                composed += composerefs.command_files(line)
            # and behind `timeout 60`, `2>&1`, `$(` (attack 37); a program's `f(a, b)` and `a > b` are no shell's (of
            # the lines the walk reads, nine in ten are a program's: reading them for wrappers cost most of its CPU)
            for command in (line, *wrappers.commands(line)) if commands else (line,):
                scripts += commandlines.scripts(command) if commands else []
                ran = taskrunners.line_tasks(command)  # and what of a task file it runs (taskunits.py)
                scripts += [file for file, _ in ran] + taskrunners.side_files(command)
                hits += ran
                if command is not line and command[:2] == "./":  # a container's `/src/x.sh` mounted from the root
                    scripts += [first] if _runnable(first := command.split(None, 1)[0]) else []
            if any(mark in line for mark in _FOLDER_MARKS):
                folders += [words[at + 1] for at, word in enumerate(words[:-1])
                            if word in _FOLDER_WORDS or word.lower().rstrip(":").replace("_", "-") in _FOLDER_KEYS]
            # and as the shell reads it after its expansions (`./tools/{gen,lint}`, `${S:-tools/gen}`, `$PWD/tools/gen`:
            # attack 39) and quote removal, where quoting glues a path together (`t'ools'/gen`); a data word stays data
            wide = commandlines.expanded(line) if commands else None
            data_words = set() if data is line else set(words) - set(scanned)
            for again in (wide, commandlines.unquoted(wide or line)) if commands else ():
                if again is not None:
                    scripts += [word for word in dict.fromkeys(_SPLIT.split(again))
                                if word and word not in data_words and _runnable(word)]
                    for command in (again, *wrappers.commands(again)):
                        scripts += commandlines.scripts(command)
        composed += composerefs.compose_file_values(source)
    looped = [_GLOB_PART.sub(ANY, glob) for glob in dict.fromkeys(globs) if _HOLE not in glob and "$" not in glob]
    if tasked is not None:
        tasked.update(taskunits.tasked(scripts, hits, lambda words: _patterns(words, commands)))
    # a program's `../x.js` is an import (ciimports.py reads those), not a command's path from a folder
    # a command's absolute path into the checkout, by its last parts (checkoutpaths.py: the seventy-eighth set)
    tails = [tail for word in dict.fromkeys(absolute) if _runnable(word) for tail in checkoutpaths.tails(word)]
    return _patterns(scripts, commands) + looped + tails, _patterns(composed), \
        _patterns(folders) + runvars.folders(folders)


def resolved(pattern: str, definition: str, folders: list[str]) -> list[str]:
    """Where a pattern a definition names may be: below the root, the definition's folder (an action's
    `${{ github.action_path }}`, a script's `$(dirname "$0")`) or a folder its commands run in (below the root or the
    definition's folder: a recipe's `cd sub && $(MAKE)`); `..` resolved."""
    out = []
    for base in bases(definition, folders):
        path = posixpath.normpath(posixpath.join(base, pattern))
        if path != "." and not path.startswith(("../", "/")) and path != "..":
            out.append(path)
        elif (back := checkoutpaths.reentered(path)) is not None:
            out.append(back)  # `../app/tools/x.sh`: back into the checkout through its own folder (attack 53)
    return out


def bases(definition: str, folders: list[str]) -> list[str]:
    """The folders a definition's commands may run in: the root, its own, one its commands `cd` to; for a makefile,
    every folder above its own too (an included makefile's recipes run where make runs)."""
    own = definition.rpartition("/")[0]
    above = [own[:at] for at, char in enumerate(own) if char == "/"] \
        if tasktexts.is_makefile(definition.rpartition("/")[2]) else []
    return list(dict.fromkeys(["", own, *above, *folders, *(posixpath.join(own, f) for f in folders if own)]))


def _runnable(word: str) -> bool:
    """A word that names a script by its path: a script type, or a program run from a folder (`./gradlew`)."""
    if "." not in word:
        return False  # most words: a script's type or `./` needs a dot
    word = word.replace("\\", "/").rstrip(":.")
    name = word.rpartition("/")[2]
    if not name or _GLOB.search(word) is not None or "://" in word:
        return False  # a glob (`paths: ['**/*.py']`), a URL
    if extension(name) in SCRIPT_TYPES:
        # `$NAME.sh` alone names no file; `tools/${{ inputs.tool }}.py` names the folder's files of that type
        return bool(re.sub(r"\$\w*|\x01", "", name.rpartition(".")[0])) or _fixed_folder(word)
    return word.startswith("./") and "." not in name and name.strip(_HOLE) != ""


def _fixed_folder(word: str) -> bool:
    """A path whose folder part is written out (`tools/${{ x }}.py`, not `${{ x }}.py` or `${{ x }}/${{ y }}.py`):
    a variable file name there stands for the folder's files, a bounded set."""
    folder = word.removeprefix("./").rpartition("/")[0]
    return _HOLE in word and not folder.startswith(_HOLE) and bool(folder.replace(_HOLE, "").strip("/."))


def _patterns(words: list[str], ups: bool = True) -> list[str]:
    out = []
    for word in dict.fromkeys(words):  # each name once: a text naming `a.sh` 50,000 times converted it each time
        pattern = path_pattern(word.replace(_HOLE, "${x}").rstrip(":"))
        if pattern is not None and pattern != ANY and pattern.replace(ANY, "").strip("/"):
            if pattern.startswith(f"{ciforms.ANY_FOLDER}/"):  # a chosen first folder: below any folder (ciforms.py)
                pattern = pattern.partition("/")[2]
                out += [pattern, f"{ANY}/{pattern}"] if pattern.replace(ANY, "").strip("/") else []
                continue
            out += [pattern, f"{steps}{pattern}"] if ups and (steps := runvars.up(word)) else [pattern]  # cileft63
    return list(dict.fromkeys(out))
