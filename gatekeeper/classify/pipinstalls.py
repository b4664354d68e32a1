"""The requirements files the installs a CI or build file runs read (docs/classification.md, "Requirements includes"):
pip reads a file named by `pip install -r FILE` as requirements whatever its name (`ci/deps.txt`), as it reads one a
requirements file includes by `-r`; so do `uv pip install -r`/`--requirements`, `uv pip sync FILE`, `pip-sync FILE`,
`uv add -r`, `uv run --with-requirements` and the `PIP_REQUIREMENT`/`PIP_CONSTRAINT` settings.

Read as a shell reads the command, not as YAML keys: every line of the file's text (continued lines joined: `\\`, a
PowerShell backtick, cmd's `^`) and every string of its YAML documents (folded and quoted scalars decoded), split into
words and commands as a shell splits them; a `pip`/`pip3`/`pip3.12`/`.venv/bin/pip` or `python -mpip` command with
global options before its subcommand counts, and an option as pip's option parser takes it (`-Ur FILE`, `-rFILE`,
`--requirem=FILE`, `--cons FILE`). Red team 17 (tests/test_redteam17_pip_installs.py): each of those forms, and a
`cd tools && pip install -r deps.txt`, a `;` or `>` right after the path, and `-r $REQ`, left the file `src`.

What a command names is a pattern, matched against the trees' paths as a suffix (`deps.txt` after a `cd`, below a
`working-directory:` or `${{ github.workspace }}/`: every `…/deps.txt`), with a variable part matching anything
(`requirements/${{ matrix.python }}.txt`); a value that is all variable (`-r $REQ`, `-r ${{ matrix.req }}`) names
every path the file's words name (its `env:`, its matrix). Over-reading makes a file deps, a review; never an allow.
"""

from __future__ import annotations

import posixpath
import re
import tomllib
from collections.abc import Iterable

import yaml

from gatekeeper.classify import shellwords
from gatekeeper.classify.change import folded
from gatekeeper.classify.enclosures import GITHUB_EXPRESSION as _GITHUB_EXPRESSION
from gatekeeper.classify.enclosures import Enclosed, Enclosures
from gatekeeper.classify.startcommands import StartCommands
from gatekeeper.lazy_pattern import lazy

ANY = "*"  # a pattern that is all variable: every path the file's words name
ONE = "\x02"  # a variable part that stays in one folder (walkpaths.py; label 94: Thor's `*.thor`)
# in every text that names such a file
_MARKS = ("pip", "uv", "requirement", "constraint", "override", "-r", "-c", "conda", "mamba", "environment")
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
# A command that installs or resolves requirements files: its last word (a path's name), lower case, `.exe` aside.
_PIP = lazy(r"pip(?:3(?:\.\d+)?)?")
_PYTHON = lazy(r"(?:python|py|pypy)(?:\d+(?:\.\d+)?)?[w]?")
_SUBCOMMANDS = frozenset({"install", "download", "wheel", "sync", "lock", "compile", "add", "run", "tool", "pip",
                          "uv", "x"})
_CONDAS = frozenset({"conda", "mamba", "micromamba"})
_SYNCS = frozenset({"pip-sync", "pip-sync.exe"})  # every plain word is a requirements file
# pip's and uv's options that take a requirements (or constraints, overrides) file, spelled in full; optparse and
# clap take an unambiguous prefix of a long one (`--requirem`), and an ambiguous one is read too (fail closed).
_LONG = ("--requirement", "--requirements", "--constraint", "--constraints", "--with-requirements", "--override",
         "--overrides", "--build-constraint", "--build-constraints", "--requirements-from-script")
_SHORT = "rcb"  # -r, -c, and uv's -b (build constraints)
# pip's and uv's settings naming such files (`env: PIP_CONSTRAINT: ci/pins.txt`, `ENV PIP_REQUIREMENT=...`), or the
# settings file that may move the index (`PIP_CONFIG_FILE: ci/pip.ini`, `UV_CONFIG_FILE`), and the
# keys of tools that install a requirements file they name (Read the Docs' `python.install[].requirements`, an
# action's `requirements-file:` input).
_SETTINGS = lazy(r"(?:\b(?:PIP_[A-Z_]*(?:REQUIREMENT|CONSTRAINT)[A-Z_]*|UV_[A-Z_]*(?:CONSTRAINT|OVERRIDE)[A-Z_]*"
                       r"|PIP_CONFIG_FILE|UV_CONFIG_FILE)"
                       r"|(?:^|[\s{,])['\"]?(?:requirements?(?:[-_ ]?(?:files?|paths?|txt))?|environment[-_]file))"
                       r"['\"]?[ \t]*[:=][ \t]*(.*)$",
                       re.MULTILINE | re.IGNORECASE)
_LEADING = lazy(r"\A(?:\.\./|\./|/|~/|\*/)*+")  # what a path pattern starts with that names no folder
_EXPRESSION = Enclosures(*_GITHUB_EXPRESSION.alternatives, Enclosed(r"\$\{[^}]*\}", "${", "}"),
                         Enclosed(r"\$\(\([^)]*\)\)", "$((", ")", then=")"), Enclosed(r"\$\([^)]*\)", "$(", ")"),
                         r"\$[A-Za-z_0-9@*#?!-]+", r"%[A-Za-z_0-9]+%", Enclosed(r"`[^`]*`", "`", "`"))
# A requirements option among a program's string literals (`session.install("-r", "ci/deps.txt")`,
# `["pip", "install", "-rci/deps.txt"]`).
_CALLS = lazy(r"""["'](?:-r|-c|--requirements?|--constraints?)["']\s*,\s*[a-z]?["']([^"'\n]+)["']"""
                    r"""|["'](?:-[rc]|--(?:requirements?|constraints?)=)([^"'\s]+)["']""")
MAX_COMMANDS = 16  # installer words of one command segment read as commands of their own (past it: ANY)
_OPERATORS = frozenset({";", "&&", "||", "|", "&", "(", ")", ";;", "|&", "{", "}", "!", "then", "do", "else"})
_REDIRECTS = lazy(r"^\d*(?:>>?|<|&>|>&|<<<?)")
# a folder below the root (a `/` in it: `flask` is a package's name), not a file (a wheel, a requirements list) or a URL
_PROJECT = lazy(r"(?!-)(?:\./)?+[\w.-]++(?:/[\w.-]++)++/?+(?:\[[\w,.-]*+\])?+"
                r"(?<!\.whl)(?<!\.txt)(?<!\.in)(?<!\.gz)(?<!\.zip)(?<!\.tar)(?<!\.bz2)(?<!\.xz)(?<!\.egg)"
                r"|\./[\w-][\w.-]*+/?+(?:\[[\w,.-]*+\])?+")
_WORD_SPLIT = lazy(r"[\s'\"=,\[\]{}()<>;|&]+")


def installed_requirements(text: str) -> list[str]:
    """The patterns of the files the installs `text` (a workflow, an action, a pipeline, a Dockerfile, a tox.ini)
    runs read as requirements; ANY for a value that is all variable."""
    lower = text.lower()
    if not any(mark in lower for mark in _MARKS):
        return []
    found: list[str] = []
    for source in (text, *_yaml_strings(text)):
        for line in _logical_lines(source):
            found += _line_values(line)
        calls = list(_CALLS.finditer(source))
        starts = StartCommands(source) if any(_short_c(call) for call in calls) else None
        found += [value for call in calls if not (starts and _short_c(call) and starts.programs_own(call.start()))
                  for value in call.groups() if value]  # a server's own `-c FILE` where a container starts: no pin
        for setting in _SETTINGS.findall(source):
            first = _words(setting)[:1]
            found += first[0].split() if first else []
    return list(dict.fromkeys(pattern for value in found if (pattern := path_pattern(value)) is not None))


def installed_projects(text: str) -> list[str]:
    """The packaging files of each project folder below the root a `pip install` or `uv pip install` of `text`
    installs (`-e ./tools/plugin`, `tools/lint[test]`; cileft68): pip runs its setup.py, and its plugins, console
    scripts and modules are what CI loads. The root's (`.`) stays the product's."""
    found: list[str] = []
    for line in _logical_lines(text) if "install" in text else ():
        commands = _commands(_words(line))[0] if "pip" in line or "uv" in line else []
        for words in commands:
            words = words[1:] if words[:1] == ["pip"] else words
            found += [w.partition("[")[0].rstrip("/") for w in words[1:] if words[:1] == ["install"]
                      and _PROJECT.fullmatch(w) is not None and w.partition("[")[0].strip("./")]
    return [f"{posixpath.normpath(folder)}/{name}" for folder in dict.fromkeys(found)
            for name in ("pyproject.toml", "setup.py", "setup.cfg") if not folder.startswith("..")]


def _short_c(call: re.Match[str]) -> bool:
    """Whether a requirements option among string literals is `-c` (`"-c", "FILE"`, `"-cFILE"`)."""
    return call.group()[1:3] == "-c"


def requirement_words(text: str) -> list[str]:
    """The requirements files `text`'s installs read, as written (a Dockerfile's RUN: dockerrefs.run_reads maps them
    through its COPYs)."""
    return [value.strip("'\"") for line in _logical_lines(text) for value in _line_values(line)]


def _line_values(line: str) -> list[str]:
    """The requirements files a logical line's installs read: their options' values, and in a line that installs,
    what `cat FILE` prints or `< FILE` feeds (`xargs pip install < FILE`, `pip install $(cat FILE)`); a line that
    is a list of requirement options (tox's `deps = -r FILE`, a requirements file's own line) too."""
    found: list[str] = []
    lower = line.lower()
    if "pip" in lower or "uv" in lower or "conda" in lower or "mamba" in lower:  # an installer may run: split it
        line = _GITHUB_EXPRESSION.sub(lambda m: re.sub(r"\s+", "", m.group()), line)  # one word, as the runner's
        words = _words(line)
        commands, over = _commands(words)
        found += [value for command in commands for value in _requirement_values(command)]
        found += [ANY] if over else []  # the commands past the bound: every word the line names may be one
        if commands:
            found += [words[i + 1] for i, word in enumerate(words[:-1]) if word == "cat" or word.endswith("<")]
            found += re.findall(r"(?:\$\(|`)\s*cat\s+([^\s)`]+)", line)
    lead = line.strip().removeprefix("- ").strip()
    lead = re.sub(r"^(?:deps|requires)[ \t]*=[ \t]*", "", lead)
    if lead.startswith(("-r", "-c", "--r", "--c")):
        found += _requirement_values(["deps", *_words(lead)])
    return found


def words_named(text: str) -> list[str]:
    """Every word of `text` that could be a path (what an all-variable value may stand for)."""
    return [word.strip("./") for word in _WORD_SPLIT.split(text.replace("\\", "/"))
            if word.strip("./") and not any(mark in word for mark in "*$%`?")]


class PathIndex:
    """The paths of the trees, by folded name, to match patterns against."""

    def __init__(self, paths: Iterable[str]) -> None:
        self._paths = paths
        self.every: list[str] = []
        self.by_name: dict[str, list[tuple[str, str]]] = {}

    def _indexed(self) -> None:
        """Built at the first match: most trees hold no install that names a file."""
        if self.every or not self._paths:
            return
        self.every = list(dict.fromkeys(self._paths))
        for path in self.every:
            key = folded(path)
            self.by_name.setdefault(key.rpartition("/")[2], []).append((key, path))

    def matching(self, patterns: list[str], text: str) -> list[str]:
        """The paths each pattern names, folded as checkouts fold names (a pattern is a suffix of a path at a `/`;
        `*` is any run of characters); ANY stands for every word of `text`."""
        self._indexed()
        written = set(patterns)
        expanded: list[str] = []
        for pattern in patterns:
            expanded += words_named(text) if pattern == ANY else [pattern]
        found: list[str] = []
        for pattern in dict.fromkeys(expanded):
            key = folded(pattern)
            if ANY in key:
                regex = re.compile(".*/" + ".*".join(re.escape(part) for part in key.split(ANY)))
                found += [path for path in self.every if regex.fullmatch("/" + folded(path))]
                continue
            found += [path for full, path in self.by_name.get(key.rpartition("/")[2], ())
                      if full == key or full.endswith("/" + key)]
            if pattern in written:  # as written too: a checkout may open it through a linked folder (`req -> tools`)
                found.append(pattern)
        return list(dict.fromkeys(found))


_CI_FOLDERS = (".github/", ".gitlab/", ".circleci/", ".buildkite/", ".azure-pipelines/", ".azure/", ".woodpecker/",
               ".tekton/", ".ci/", "ci/", ".pipelines/", "pipelines/", ".gitea/", ".forgejo/", ".drone/")
_CI_EXTENSIONS = ("yml", "yaml", "sh", "bash", "ps1", "py", "cmd", "bat", "")
_INSTALLER_NAMES = frozenset({
    ".appveyor.yml", ".devcontainer.json", ".drone.yml", ".gitlab-ci.yaml", ".gitlab-ci.yml", ".gitpod.yml",
    ".pre-commit-config.yaml", ".pre-commit-config.yml", ".readthedocs.yaml", ".readthedocs.yml", ".travis.yml",
    ".woodpecker.yml", "action.yaml", "action.yml", "appveyor.yml", "azure-pipelines.yaml", "azure-pipelines.yml",
    "bitbucket-pipelines.yml", "buildspec.yml", "cloudbuild.yaml", "cloudbuild.yml", "compose.yaml", "compose.yml",
    "devcontainer.json", "docker-compose.yaml", "docker-compose.yml", "earthfile", "environment.yaml",
    "environment.yml", "gnumakefile", "jenkinsfile", "justfile", "makefile", "meta.yaml", "noxfile.py", "pip.conf",
    "pip.ini", "pixi.toml", "pyproject.toml", "readthedocs.yaml", "readthedocs.yml", "setup.cfg", "snapcraft.yaml",
    "taskfile.yaml", "taskfile.yml", "tox.ini", "uv.toml",
})


def is_installer(path: str) -> bool:
    """A file whose text may install a requirements file: CI definitions and the scripts of CI folders, image
    builds, task runners, the tools' settings (read for `pip install -r` lines and the settings that name one)."""
    name = path.rpartition("/")[2].lower()
    if name in _INSTALLER_NAMES or name.startswith(("dockerfile", "containerfile")) \
            or name.endswith((".dockerfile", ".containerfile", ".gitlab-ci.yml", ".gitlab-ci.yaml")):
        return True
    extension = name.rpartition(".")[2] if "." in name.lstrip(".") else ""
    return extension in _CI_EXTENSIONS and path.lower().startswith(_CI_FOLDERS)  # the type first: most paths fail it


_NOT_REQUIREMENTS = frozenset({"long_description", "description", "version", "license", "license_file",
                               "license_files", "readme"})


def project_requirements(path: str, text: str) -> list[str]:
    """The requirements files a project's build reads its dependencies from, resolved against its folder: setuptools'
    `dependencies = {file = [...]}` and `optional-dependencies` (`pyproject.toml`), `install_requires = file: ...`
    (`setup.cfg`), hatch-requirements-txt's `files`; `pip install .` installs every line of them."""
    name = path.rpartition("/")[2].lower()
    folder = path.rpartition("/")[0]
    found: list[str] = []
    if name == "pyproject.toml":
        try:
            tool = tomllib.loads(text).get("tool", {})
        except (tomllib.TOMLDecodeError, UnicodeError):
            return []
        dynamic = tool.get("setuptools", {}).get("dynamic", {}) if isinstance(tool, dict) else {}
        hook = tool.get("hatch", {}).get("metadata", {}).get("hooks", {}).get("requirements_txt", {}) \
            if isinstance(tool, dict) else {}
        if isinstance(dynamic, dict):
            found += _strings([dynamic.get("dependencies"), dynamic.get("optional-dependencies")])
        if isinstance(hook, dict):
            found += _strings([hook.get("files"), hook.get("optional-dependencies")])
    elif name == "setup.cfg":
        for key, value in re.findall(r"^[ \t]*([\w.-]+)[ \t]*=[ \t]*file:[ \t]*(.*)$", text, re.MULTILINE):
            if key.lower() not in _NOT_REQUIREMENTS:
                found += [part.strip() for part in value.split(",")]
    joined = (posixpath.join(folder, value) for value in found if value)
    return [pattern for path in joined if (pattern := path_pattern(path)) is not None]


def _strings(node: object) -> list[str]:
    """Every string held in `node` (TOML values: tables, arrays, strings)."""
    if isinstance(node, str):
        return [node]
    if isinstance(node, dict):
        return [s for value in node.values() for s in _strings(value)]
    if isinstance(node, list):
        return [s for value in node for s in _strings(value)]
    return []


def _yaml_strings(text: str) -> list[str]:
    """Every string of `text`'s YAML documents that could hold a command (what a runner hands its shell), as far
    as libyaml reads them; none when `text` is not YAML."""
    out: list[str] = []
    try:
        for event in yaml.parse(text, Loader=_LOADER):
            if isinstance(event, yaml.ScalarEvent) and any(mark in event.value.lower() for mark in _MARKS):
                out.append(event.value)
    except yaml.YAMLError:
        pass
    return out


def _logical_lines(text: str) -> list[str]:
    """`text`'s lines, a line ending in a shell's continuation (`\\`, PowerShell's backtick, cmd's `^`) joined with
    the next."""
    out: list[str] = []
    pending: list[str] = []  # joined once: a string grown by `+` copies every line (suite round 43)
    for line in text.splitlines():
        stripped = line.rstrip()
        if stripped.endswith(("\\", "`", "^")):
            pending.append(stripped[:-1] + " ")
            continue
        out.append("".join([*pending, line]))
        pending = []
    if pending:
        out.append("".join(pending))
    return out


def _words(line: str) -> list[str]:
    """`line` split as a shell splits it (quotes joined, operators apart), and as a plain split too: a Windows
    shell's `\\` is a separator, not an escape, and an unbalanced quote stops shlex (the union is read)."""
    plain = [word.strip("'\"") for word in re.split(r"[ \t]+|(?=[;|&()<>])|(?<=[;|&()<>])", line) if word]
    try:
        return [*shellwords.split(line.replace("\\", "/"), punctuation=";&|()<>"), "\n", *plain]
    except ValueError:
        return plain


def _commands(words: list[str]) -> tuple[list[list[str]], bool]:
    """The words of each installer command among `words`, from its subcommand to the command's end; and whether a
    segment (the words between two operators) held more than MAX_COMMANDS installer words, whose later ones were not
    read (each is read to the segment's end: 7,000 in one folded line took minutes; label round 69)."""
    out: list[list[str]] = []
    seen, over = 0, False
    for index, word in enumerate(words):
        if word in _OPERATORS or word == "\n":
            seen = 0
            continue
        name = word.replace("\\", "/").rpartition("/")[2].lower().removesuffix(".exe")
        if name in _SYNCS or name in _CONDAS or name in ("uvx", "uv", "pipenv", "pipx") or _PIP.fullmatch(name) \
                or _PYTHON.fullmatch(name):
            seen += 1
            if seen > MAX_COMMANDS:
                over = True
                continue
        if name in _SYNCS:
            out.append(["pip-sync", *_until_end(words, index + 1)])
        elif name == "uvx":
            out.append(["uvx", *_until_end(words, index + 1)])
        elif name in _CONDAS:  # `conda env create -f FILE`, `mamba install --file FILE`: an environment file
            out.append(["conda", *_until_end(words, index + 1)])
        elif _PIP.fullmatch(name) or name in ("uv", "pipenv", "pipx") \
                or (_PYTHON.fullmatch(name) and _runs_pip(words, index + 1)):
            rest = _until_end(words, index + 1)
            command = next((i for i, w in enumerate(rest) if w.lower() in _SUBCOMMANDS), None)
            if command is not None:
                out.append(rest[command:])
    return out, over


def _runs_pip(words: list[str], start: int) -> bool:
    """A Python command line running pip or uv as a module (`-m pip`, `-mpip`, `-I -m uv`)."""
    rest = _until_end(words, start)
    return any(w in ("-mpip", "-muv") or (w == "-m" and i + 1 < len(rest) and rest[i + 1] in ("pip", "uv"))
               or re.fullmatch(r"-[A-Za-z]*m(?:pip|uv)", w) is not None for i, w in enumerate(rest))


def _until_end(words: list[str], start: int) -> list[str]:
    end = start
    while end < len(words) and words[end] not in _OPERATORS and words[end] != "\n":
        end += 1
    return words[start:end]


def _requirement_values(words: list[str]) -> list[str]:
    """The file arguments of a command's requirement options (`-r FILE`, `-rFILE`, `-Ur FILE`, `--requirem=FILE`), and
    every plain word of a sync (`uv pip sync FILE…`, `pip-sync FILE…`) or after a redirection of its input. uv's
    project `uv sync` (and `pipenv sync`) takes no file: its plain words are group, extra and package names (the
    thirty-third set: `uv sync "${args[@]}"` in a justfile made every word of it a requirements file)."""
    found: list[str] = []
    sync = False
    for index, word in enumerate(words):
        sync = sync or (word == "pip-sync" and index == 0) or (word == "sync" and "pip" in words[:index])
        following = words[index + 1] if index + 1 < len(words) else ""
        if words[0] == "conda":
            if word in ("-f", "--file"):
                found.append(following)
            elif word.startswith(("--file=", "-f")) and len(word) > 2:
                found.append(word.partition("=")[2] if word.startswith("--") else word[2:])
            continue
        if word.startswith("--"):
            option, equals, value = word.partition("=")
            if len(option) > 3 and any(name.startswith(option) for name in _LONG):
                found.append(value if equals else following)
        elif word.startswith("-") and len(word) > 1 and (at := _short_at(word)) is not None:
            value = word[at + 1:] or following
            found += [value, value[1:]] if value.startswith("=") else [value]  # pip opens `=FILE`; uv `FILE`
        elif _REDIRECTS.match(word) and word.lstrip("0123456789").startswith("<"):
            found.append(_REDIRECTS.sub("", word) or following)
        elif sync and word not in ("sync", "pip-sync") and not word.startswith("-"):
            found.append(word)
    return [value for value in found if value and not value.startswith("-")]


def _short_at(word: str) -> int | None:
    """Where a cluster of short options (`-Ur`, `-qqr`) reaches one that takes a requirements file."""
    for at, letter in enumerate(word[1:], start=1):
        if letter in _SHORT:
            return at
        if not letter.isalpha():
            return None
    return None


def path_pattern(value: str) -> str | None:
    """A file argument as a path pattern: variable parts `*`, a suffix of any folder; None for a URL."""
    value = value.strip().strip("'\"").replace("\\", "/")
    if not value or "://" in value or value.startswith(("git+", "hg+", "svn+", "bzr+")):
        return None
    pattern = _EXPRESSION.sub(ANY, value)
    pattern = re.sub(r"\*+", ANY, pattern)
    pattern = posixpath.normpath(pattern) if pattern not in ("", ".") else ""
    pattern = _LEADING.sub("", pattern, count=1)  # one pass (cileft63: a loop cut 1 MiB of `../` in 6 CPU-s)
    if pattern in ("", ".", "..", "~"):
        return None
    if not pattern.replace(ANY, "").strip("/."):
        return ANY
    return pattern
