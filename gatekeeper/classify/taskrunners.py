"""The task runners and package managers a CI command runs, and the files each one reads (ciruns.py's readers).

`make release` in a workflow runs the Makefile, `npm run build` the package.json's scripts and the package manager's
own settings and hooks, `tox -e lint` tox.ini's commands: each is the job's code as a script it names by path is.
"""

from __future__ import annotations

import posixpath
import re
import tomllib

import yaml

from gatekeeper.bounded import load_json, load_yaml
from gatekeeper.classify import nodeconfigs, noderuns, rakeloads, runnersetups, taskunits, toolreads
from gatekeeper.classify.pipinstalls import ONE
from gatekeeper.errors import LimitError
from gatekeeper.lazy_pattern import lazy

# A task runner at a command's start (a line's, or after `;`, `&&`, `|`, `(`, `then`, a YAML `run:`/`script:` key or a
# Jenkinsfile `sh '…'`); its words up to the command's end. Behind a wrapper (`sudo`, `npx`, `bundle exec`, `uv run`)
# it is read from the command wrappers.commands gives (the one table of wrappers).
# Possessive quantifiers: a run of blanks is taken once (red team 18's own hostile input: 20,000 blanks after `run`
# took 23 s of CPU with `[:\s'"]*[ \t]*`).
TOOL = lazy(r"(?:^|[;&|(`]|\$\(|\b(?:then|do|run|script|sh|bat|command|entry)\b:?+[ \t]*+['\"]?+)[ \t]*+"
                   r"(?:-[ \t]++)?+[@+-]*+(?:\./)?+(?:node_modules/\.bin/|bin/)?+"
                   r"(g?make|\$[({]MAKE[)}]|just|task|npm|yarn|pnpm|bun|tox|nox|pre-commit|prek|rake|gulp|grunt|invoke"
                   r"|inv|fab|mage|cargo[ \t]++make|makers|doit|scons|bundle|go|cargo|composer|poetry|pipenv|uv|pdm|poe"
                   r"|mvnw?|gradlew?|mix|swift|dart|flutter|lefthook|thor)(?:\.exe)?(?=[ \t;&|)]|$)"  # `(cd x; make)`
                   r"([^;&|\n]*)",
                   re.IGNORECASE)
# The files each runner reads, and for a package manager the code and settings it loads on every command (red team
# 18: `.pnpmfile.cjs` hooks, `.yarnrc.yml`'s `yarnPath` and plugins, `.npmrc`'s `node-options=--require`, bunfig's
# `preload` run code in the CI job; as deps settings the default policy never reviewed them).
# lefthook's settings (misses 8; review 68a: its TOML and JSON forms, the local file's other spellings)
LEFTHOOK = tuple(f"{folder}{dot}lefthook{local}.{kind}" for folder, dot in (("", ""), ("", "."), (".config/", ""))
                 for local in ("", "-local") for kind in ("yml", "yaml", "toml", "json", "jsonc"))
_LEFTHOOK_NAMES = frozenset(path.rpartition("/")[2] for path in LEFTHOOK)
_TOOL_FILES = {"make": ("Makefile", "makefile", "GNUmakefile"), "just": ("justfile", "Justfile", ".justfile"),
               "task": ("Taskfile.yml", "Taskfile.yaml", "taskfile.yml"),
               "npm": ("package.json", ".npmrc"), "yarn": ("package.json", ".yarnrc.yml", ".yarnrc", ".npmrc"),
               "pnpm": ("package.json", ".pnpmfile.cjs", ".npmrc", "pnpm-workspace.yaml"),
               "bun": ("package.json", "bunfig.toml", ".npmrc"),
               # red team 19: the commands tox.ini's environments, a noxfile's sessions and pre-commit's hooks run
               "tox": ("tox.ini", "tox.toml"), "nox": ("noxfile.py",),
               "pre-commit": (".pre-commit-config.yaml", ".pre-commit-config.yml"),
               "prek": (".pre-commit-config.yaml", ".pre-commit-config.yml"),
               # misses 8: lefthook's hooks' `run:` commands, and the `scripts:` it runs from `.lefthook/HOOK/`
               "lefthook": (*LEFTHOOK, ".lefthook/${x}", ".lefthook-local/${x}"),
               # red team 12 (second round): the task runners of other ecosystems; rake also loads `rakelib/*.rake`
               # and a Rails Rakefile `lib/tasks/*.rake`, SCons every SConscript its SConstruct names
               "rake": ("Rakefile", "rakefile", "Rakefile.rb", "rakefile.rb", "rakelib/${x}.rake",
                        "lib/tasks/${x}.rake"),
               # label 91: Thor's runner loads the task files of the folder it runs in before any task
               # (Thor::Util.globs_for: `Thorfile`, `*.thor`, `tasks/*.thor`, `lib/tasks/**/*.thor`); the folder's
               # own `*.thor` by a one-folder part (label 94: a walk's `*` spans folders, rails/thor's fixtures)
               "thor": ("Thorfile", f"{ONE}.thor", "tasks/${x}.thor", "lib/tasks/${x}.thor"),
               "gulp": ("gulpfile.js", "gulpfile.mjs", "gulpfile.cjs", "gulpfile.ts", "gulpfile.babel.js",
                        "Gulpfile.js"),
               "grunt": ("Gruntfile.js", "Gruntfile.coffee", "Gruntfile.ts", "gruntfile.js"),
               "invoke": ("tasks.py", "tasks/__init__.py"), "fab": ("fabfile.py", "fabfile/__init__.py"),
               "mage": ("magefile.go", "magefiles/${x}.go"), "cargo-make": ("Makefile.toml",),
               "doit": ("dodo.py",), "scons": ("SConstruct", "Sconstruct", "sconstruct", "${x}SConscript"),
               # the manifests a package manager installs from where it runs: one that the path rules left in a test
               # tree (`cd tests/fixtures/app && bundle install`) is what the job installs (a deps one stays deps)
               "bundle": ("Gemfile", "Gemfile.lock", "gems.rb", "gems.locked"), "go": ("go.mod", "go.sum", "go.work"),
               "cargo": ("Cargo.toml", "Cargo.lock", ".cargo/config.toml"),
               "composer": ("composer.json", "composer.lock"),
               "poetry": ("pyproject.toml", "poetry.lock"), "pipenv": ("Pipfile", "Pipfile.lock"),
               "uv": ("pyproject.toml", "uv.lock"), "mvn": ("pom.xml",), "mvnw": ("pom.xml",),
               # PDM's scripts and poethepoet's tasks live in pyproject.toml (poe also reads poe_tasks.toml)
               "pdm": ("pyproject.toml", "pdm.lock"), "poe": ("pyproject.toml", "poe_tasks.toml"),
               "gradle": ("build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts"),
               "gradlew": ("build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts"),
               "mix": ("mix.exs", "mix.lock"), "swift": ("Package.swift", "Package.resolved"),
               "dart": ("pubspec.yaml", "pubspec.lock"), "flutter": ("pubspec.yaml", "pubspec.lock")}
# The options that name the file a runner reads instead of its default names, by runner (`tox -c`, `nox -f`).
_FILE_OPTIONS = {"tox": ("-c", "--conf", "--config"), "nox": ("-f", "--noxfile"),
                 "pre-commit": ("-c", "--config"), "prek": ("-c", "--config")}
_MAKE_FILE_OPTIONS = ("-f", "--file", "--makefile", "--justfile", "-t", "--taskfile")
_FILE_OPTIONS.update({"gradle": ("-b", "--build-file", "-c", "--settings-file"),
                      "gradlew": ("-b", "--build-file", "-c", "--settings-file")})
def line_files(line: str) -> list[str]:
    """The files the task runners a line's commands run read (tool_files), and those of pytest and Nix (toolreads.py:
    also after another runner, `uv run pytest`, `nix develop --command make`)."""
    return [name for name, _ in line_tasks(line)] + side_files(line)


def side_files(line: str) -> list[str]:
    """The files a line's Node tools and pytest or Nix read (line_files but the task runners')."""
    files = nodeconfigs.line_files(line)  # a Node tool's settings module (`webpack`: webpack.config.js, attack 41)
    files += runnersetups.line_files(line)  # RSpec's, PHPUnit's, testthat's and prove's setup files (attack 45)
    files += toolreads.build_configs(line)  # Meson's cross and native files, CMake's toolchain and cache (80th set)
    files += toolreads.ruby_tests(line)  # sus's config/sus.rb, bake-test-external's list (over-reads 5)
    files += toolreads.settings_code(line)  # bump-my-version's hooks, the Steepfile, qlty's plugins (review 66a)
    files += noderuns.line_files(line)  # `node tools/gen`: the folder's index (the eighty-seventh set)
    return files + toolreads.line_files(line) if "test" in line or "nix" in line or "PYTEST_" in line else files


# A program's call that hands a shell its string (`execSync("npm run build")`, `subprocess.check_call("make dist",
# shell=True)`, `system("yarn build")`): the string is a command line of its own (the eighty-eighth set: helmet's test
# builds the package with `exec("npm run build")`)
_CALL = lazy(r"\b(?:exec|execSync|execa|execaSync|execaCommand|execaCommandSync|spawn|spawnSync|system|popen"
             r"|check_call|check_output|getoutput|getstatusoutput|Popen|call|run)[ \t]*+\([ \t]*+(['\"`])"
             r"((?:(?!\1)[^\n\\])*+)\1")


def line_tasks(line: str) -> list[tuple[str, taskunits.Tasks | None]]:
    """(a file a task runner a line runs reads, the tasks it runs of it: taskunits.asked; None, all of them)."""
    found = TOOL.findall(line)
    found += [pair for _, called in _CALL.findall(line) if called[:1].isalpha() for pair in TOOL.findall(called)]
    # a package manager that runs lefthook's bin by name (`yarn lefthook run x`): its own files, and lefthook's
    found += [("lefthook", bin_rest) for tool, rest in found if tool.lower() in ("yarn", "pnpm", "bun")
              and (bin_rest := rest.lstrip()).startswith("lefthook") and bin_rest[8:9] in ("", " ", "\t")]
    return [(name, tasks) for tool, rest in found
            for tasks in (taskunits.asked(_tool(tool.lower()), rest),) for name in tool_files(tool.lower(), rest)]


def _tool(tool: str) -> str:
    """A runner's name as _TOOL_FILES knows it (`$(MAKE)`, `gmake`: make; `cargo make`: cargo-make)."""
    tool = "cargo-make" if tool.split() == ["cargo", "make"] or tool == "makers" else "invoke" if tool == "inv" \
        else tool
    return "make" if "make" in tool and tool != "cargo-make" else tool


def tool_files(tool: str, rest: str) -> list[str]:
    """The files a task runner's command reads: its default names in the folder it runs in (`-C`, `--prefix`,
    `--cwd`, `--dir`), or the file named by `-f`/`--file`/`--makefile`/`--justfile`/`-t`/`--taskfile` (tox's `-c`,
    nox's `-f`, pre-commit's `-c`). A recipe's `$(MAKE)` is make."""
    tool = _tool(tool)
    words = [word for word in re.split(r"[\s'\"]+", rest) if word]
    files: list[str] = []
    folder = ""
    options = _FILE_OPTIONS.get(tool, _MAKE_FILE_OPTIONS)
    for index, word in enumerate(words):
        option, equals, value = word.partition("=")
        value = value if equals else words[index + 1] if index + 1 < len(words) else ""
        if option in options:
            files.append(value)
        elif option in ("-C", "--directory", "--prefix", "--cwd", "--dir", "--working-directory", "-d"):
            folder = value
        elif tool == "make" and word[:2] in ("-C", "-f") and len(word) > 2:  # `make -Cnative`, `-fci.mk` (cileft63)
            folder, files = (word[2:], files) if word[1] == "C" else (folder, [*files, word[2:]])
    names = files or list(_TOOL_FILES[tool])
    names += rakeloads.rakelib_options(words) if tool == "rake" else []  # `rake -R tasks` (review 68b)
    if tool in ("gradle", "gradlew"):  # its init scripts, beside the build it runs (`-I x.gradle`, `--init-script=x`)
        names += [value for index, word in enumerate(words) for value in _gradle_init(word, words[index + 1:index + 2])]
    return [posixpath.join(folder, name) if folder else name for name in names if name]


def _gradle_init(word: str, after: list[str]) -> list[str]:
    """The init script a Gradle option names (`-I x`, `-Ix`, `--init-script x`, `--init-script=x`), or none."""
    if word in ("-I", "--init-script"):
        return after
    if word.startswith("--init-script="):
        return [word.partition("=")[2]]
    return [word[2:]] if word.startswith("-I") and len(word) > 2 else []


# just's imports (`import 'x.just'`, `import? …`) and modules (`mod name 'path'`, `mod? name`): red team 36.
_JUST_IMPORT = lazy(r"""^[ \t]*import\??[ \t]+(?:'([^'\n]*)'|"([^"\n]*)")""", re.MULTILINE)
_JUST_MOD = lazy(r"""^[ \t]*mod\??[ \t]+([A-Za-z_][\w-]*)(?:[ \t]+(?:'([^'\n]*)'|"([^"\n]*)"))?[ \t]*(?:#.*)?$""",
                       re.MULTILINE)
_TASKFILES = ("Taskfile.yml", "Taskfile.yaml", "taskfile.yml", "taskfile.yaml", "Taskfile.dist.yml",
              "Taskfile.dist.yaml", "taskfile.dist.yml", "taskfile.dist.yaml")


def is_justfile(name: str) -> bool:
    """A file just reads as recipes: a justfile, or a `.just` file a justfile imports."""
    return name.lower() in ("justfile", ".justfile") or name.lower().endswith(".just")


def is_taskfile(name: str) -> bool:
    """A Taskfile (Task's default names, and a `.yml` a Taskfile includes is read through `included` too)."""
    return name in _TASKFILES


def is_lefthook(name: str) -> bool:
    """lefthook's settings, which may extend others and move its scripts' folder (included reads them)."""
    return name in _LEFTHOOK_NAMES


def is_rakefile(name: str) -> bool:
    """A Rakefile (rake's default names) or a `.rake` task file, which may load others (rakeloads.py)."""
    return name.lower() in ("rakefile", "rakefile.rb") or name.lower().endswith(".rake")


def includes_files(name: str) -> bool:
    """A runner's file that pulls in others by itself: a justfile, a Taskfile, a Rakefile, lefthook's settings
    (included reads them)."""
    return is_justfile(name) or is_taskfile(name) or is_rakefile(name) or is_lefthook(name)


def included(name: str, text: str) -> list[str]:
    """The files a justfile imports and declares as modules (a module's path, else `NAME.just`, `NAME/mod.just`,
    `NAME/justfile`), a Taskfile's `includes:` (a file, a `taskfile:` key, a folder's Taskfile), or the task files a
    Rakefile loads (rakeloads.py), each relative to the including file's folder; a Taskfile that does not parse
    includes every YAML file (fail closed: `*.yml`)."""
    if is_rakefile(name):
        return rakeloads.loaded(text)
    if is_lefthook(name):
        return lefthook_included(text, name)
    if is_justfile(name):
        found = [single or double for single, double in _JUST_IMPORT.findall(text)]
        for module, single, double in _JUST_MOD.findall(text):
            found += [single or double] if single or double else \
                [f"{module}.just", f"{module}/mod.just", f"{module}/justfile", f"{module}/.justfile"]
        return [path for path in found if path]
    if "includes" not in text:
        return []
    try:
        document = load_yaml(text, name)
    except (yaml.YAMLError, LimitError):
        return ["*.yml", "*.yaml"]
    includes = document.get("includes") if isinstance(document, dict) else None
    out: list[str] = []
    for value in includes.values() if isinstance(includes, dict) else ():
        value = value.get("taskfile") if isinstance(value, dict) else value
        if not isinstance(value, str) or "://" in value or not value.strip():
            continue
        value = value.strip()
        out += [value] if value.lower().endswith((".yml", ".yaml")) else \
            [posixpath.join(value, taskfile) for taskfile in _TASKFILES]
    return out


def lefthook_included(text: str, name: str = "lefthook.yml") -> list[str]:
    """The files lefthook's settings (`name`) `extends` (not a remote one), and the scripts of a `source_dir`/
    `source_dir_local` (reviews 68a, 68b); past a parse, every YAML file beside it (fail closed)."""
    if "extends" not in text and "source_dir" not in text:
        return []
    try:
        document = load_json(text, name) if name.endswith((".json", ".jsonc")) else \
            tomllib.loads(text) if name.endswith(".toml") else load_yaml(text, name)
    except (yaml.YAMLError, LimitError, ValueError):
        return ["*.yml", "*.yaml"]
    document = document if isinstance(document, dict) else {}
    extends = document.get("extends")
    found = [extends] if isinstance(extends, str) else [item for item in extends if isinstance(item, str)] \
        if isinstance(extends, list) else []
    folders = [document.get(key) for key in ("source_dir", "source_dir_local")]
    return [item for item in found if "://" not in item] + [
        f"{folder.strip().rstrip('/')}/${{x}}/${{x}}" for folder in folders
        if isinstance(folder, str) and folder.strip().strip("/.")]


def workspaces(text: str) -> list[str]:
    """The `packages:` globs of a pnpm-workspace.yaml (a `!` exclusion names nothing)."""
    try:
        document = load_yaml(text, "pnpm-workspace.yaml")
    except (yaml.YAMLError, LimitError):
        return []
    globs = document.get("packages") if isinstance(document, dict) else None
    return [glob for glob in globs if isinstance(glob, str) and not glob.startswith("!")] \
        if isinstance(globs, list) else []


# A recipe line's prefixes (`@` silent, `-` errors ignored, `+` run under -n), glued to the command they prefix
_RECIPE_PREFIX = lazy(r"^(\t[ \t]*)[@+-]+[ \t]*", re.MULTILINE)


def recipe_lines(text: str) -> str:
    """A Makefile's text with each recipe line's `@`/`-`/`+` prefixes taken off its command (`@./tools/gen` runs
    `./tools/gen`: attack 36; the command word was read with them and named nothing)."""
    return _RECIPE_PREFIX.sub(r"\1", text) if "\t" in text else text
