"""The files a CI step feeds whole to the runner's environment files (red team 36, test_redteam36_job_environment.py).

GitHub's runner sets every `NAME=value` line of the file `$GITHUB_ENV` names in the environment of the job's later
steps, and puts every line of `$GITHUB_PATH`'s file before PATH. A file of the repository dumped into either
(`cat build/ci.env >> "$GITHUB_ENV"`, `grep … FILE`, `… done < FILE`, an action's `env-file:` input) chooses
`BASH_ENV`, `LD_PRELOAD`, `NODE_OPTIONS` or the programs later steps find: it is the job's code as a script it runs is.
Read from a text that mentions either file: on a line that names one, the path arguments of the commands that print a
file (cat, grep, sed, ...) and what a `<` redirects from, outside `$(…)`; a loop's input (`done < FILE`) anywhere. A
path written as a value (`echo "CONFIG=config/app.yml"`) feeds nothing. *Limit:* a value a step reads out of a file
(`$(jq -r .version package.json)`) is not followed, though a newline in it would add a line of its own; but the files
read by `$(…)` on a line that sets a matrix are (`matrix=$(cat versions.yaml | yq …)`, `echo "matrix=$(jq -c . m.json)"
>> $GITHUB_OUTPUT`: a job's matrix is its definition; over-reads 3, _matrix_reads).

And the files a variable or a git setting makes every later process load (red team 40, `loaded`): `BASH_ENV` (every
non-interactive bash sources it: each later `run:` step), `GIT_CONFIG_GLOBAL`/`GIT_CONFIG_SYSTEM`/`GIT_CONFIG`,
`PYTHONSTARTUP`, `include.path` and `core.sshCommand`/`core.fsmonitor` (git obeys or runs them), each folder of
`PYTHONPATH` (its `sitecustomize.py` and `usercustomize.py` run first) and of `core.hooksPath` (git runs its hooks),
set as a YAML key, an assignment, an `export`, a line written to `$GITHUB_ENV` or a `git config`/`git -c` argument.

And (the cileft63 round, `_preloaded`, outside comment lines) what other variables make a program load before its
own code: `LD_PRELOAD`'s libraries (`:` or blank separated; the dynamic loader maps them into every process),
`-javaagent:PATH` and `-agentpath:PATH` anywhere (`JAVA_TOOL_OPTIONS`, `MAVEN_OPTS`, `_JAVA_OPTIONS`, a `java` command:
the JVM runs the agent first), `ZDOTDIR`'s `.zshenv`, `.zprofile`, `.zshrc` and `.zlogin` (zsh reads them from there),
`MAKEFILES`' makefiles (make reads them before any other), `ENV`'s script (an interactive `sh` sources it; only a
value with a `/` or a script's type: `ENV: production` is no file), `RUBYOPT`'s `-r` features (`-rtools/boot`: also
`tools/boot.rb`, below each `RUBYLIB`/`-I` folder too) and `PERL5OPT`'s `-M`/`-m` modules (`-MCI::Hook`:
`CI/Hook.pm` below the root, `lib/` and each `PERL5LIB`/`-I` folder the text sets), and the same switches on a
`perl`/`prove` command line (`perl -Ilib -MFoo::Bar t/x.t`: attack 48). *Limit:* a folder of libraries
(`LD_LIBRARY_PATH`) and a module path alone (`PERL5LIB`, `RUBYLIB`, `NODE_PATH`) name nothing: what they load is the
code a test imports, and a folder would be a variable pattern against the walk's MAX_WILD.
"""

from __future__ import annotations

import posixpath
import re

from gatekeeper.classify.wrappers import PLAIN, command_start
from gatekeeper.lazy_pattern import lazy

__all__ = ["fed", "loaded"]

_MAX_VALUE = 1_000  # characters of a loader variable's value read

_MARKS = ("GITHUB_ENV", "GITHUB_PATH")
# Commands whose output is a file's lines (or some of them), as they were.
_DUMPERS = frozenset({"cat", "tac", "grep", "egrep", "fgrep", "rg", "sed", "awk", "gawk", "sort", "uniq", "envsubst",
                      "head", "tail", "cut", "tr", "column", "xargs"})
# Commands that put a file where $GITHUB_ENV/$GITHUB_PATH point (docs review 52: `cp FILE "$GITHUB_ENV"`).
# A line that sets a job's matrix (a variable, a step output, the old `::set-output`), and what reads a file there
_MATRIX_SET = lazy(r"matrix[\w-]*+(?:=|::)", re.IGNORECASE)
_MATRIX_READERS = _DUMPERS | {"jq", "gojq", "jaq", "yq", "xq", "tomlq"}
_FILTER_FIRST = frozenset({"jq", "gojq", "jaq", "yq", "xq", "tomlq", "sed", "awk", "gawk", "grep", "egrep", "fgrep",
                           "rg"})
_COPIERS = frozenset({"cp", "mv", "install", "ln", "rsync", "dd"})
_SEGMENTS = lazy(r"&&|\|\||[;|(`{]|\b(?:then|do|else)\b")
_BACKQUOTED = lazy(r"`[^`\n]*`")
_LOOP_INPUT = lazy(r"\bdone[ \t]*<[ \t]*(?!\()['\"]?([^\s'\"<>|;&()]+)")
_KEYS = frozenset({"run:", "run"})  # a YAML key left before a command (its wrappers are wrappers.WRAPPERS' rows)
_REDIRECT = lazy(r"(?<![<>&0-9])<[ \t]*(?!\()['\"]?([^\s'\"<>|;&()]+)")
_ENV_FILE_INPUT = lazy(r"""^[ \t]*['"]?(?:env[-_]?files?|dotenv(?:[-_]?(?:file|path))?)['"]?[ \t]*:[ \t]*['"]?"""
                             r"""([^\s'"#]+)""", re.MULTILINE | re.IGNORECASE)


# A variable whose value is one file the shell, git or python loads; PYTHONPATH's is a list of folders.
# YAML, shell, make (`:=`, `?=`); a `${VAR}` in the value is part of it (`${PYTHONPATH}:tools`: attack 34), a
# `{value: …}` is not
_LOADER = lazy(r"""\b(BASH_ENV|GIT_CONFIG_GLOBAL|GIT_CONFIG_SYSTEM|GIT_CONFIG|PYTHONSTARTUP|PYTHONPATH)['"]?"""
                     r"""[ \t]*(?:[:?+]?=|:)[ \t]*['"]?((?:\$\{[^\s'"{}]{1,100}\}|[^\s'"#;&|{])+)""")
# The same as a `value:` key: Azure's `- name: BASH_ENV` / `value: x`, GitLab's `BASH_ENV: {value: x}` or the block form
_LOADER_VALUE = lazy(r"""\b(BASH_ENV|GIT_CONFIG_GLOBAL|GIT_CONFIG_SYSTEM|GIT_CONFIG|PYTHONSTARTUP|PYTHONPATH)"""
                           r"""['"]?[ \t]*(?::[ \t]*)?(?:\{[ \t]*)?(?:\r?\n[ \t]*(?:-[ \t]*)?)?value[ \t]*:"""
                           r"""[ \t]*['"]?([^\s'"#;&|,}]+)""")  # each optional token with its own blanks: linear
# A git setting naming a file git reads, a program it runs or a folder of hooks (`include.path=x`, `core.hooksPath x`);
# attack 34: every other setting whose value git runs as a program (`credential.helper '!tools/cred'`, `core.askPass`,
# `gpg.program`, a filter's `smudge`, a diff or merge driver, the pager and editors)
# (a condition or URL in the key up to 1,000 characters: each start scans at most that far, linear)
_GIT_SETTING = lazy(r"""\b(include(?:If\.[^\s=]{0,1000})?\.path|core\.(?:hookspath|sshcommand|fsmonitor|"""
                          r"""askpass|pager|editor|gitproxy)|credential(?:\.[^\s=]{0,1000})?\.helper|"""
                          r"""gpg(?:\.[a-z0-9]{1,20})?\.program|"""
                          r"""diff\.external|sequence\.editor|(?:diff|filter|merge)\.[^\s=]{1,1000}\."""
                          r"""(?:command|textconv|clean|smudge|process|driver))['"]?"""
                          r"""(?:[ \t]*=[ \t]*|[ \t]+)['"]?!?([^\s'"#;&|!]+)""", re.IGNORECASE)
# red team 40's names take any value (an include.path too); attack 34's programs only a path with a folder
_READS = frozenset({"bash_env", "git_config_global", "git_config_system", "git_config", "pythonstartup",
                    "core.sshcommand", "core.fsmonitor"})
# The same settings given through the environment: GIT_CONFIG_KEY_<n> and GIT_CONFIG_VALUE_<n> (git 2.31+)
_CONFIG_PAIR = lazy(r"""\bGIT_CONFIG_(KEY|VALUE)_(\d{1,4})['"]?[ \t]*[:=][ \t]*['"]?([^\s'"#;&|]+)""")


# cileft63: a variable whose value names files a program loads before its own code (`_preloaded`); a YAML key, an
# assignment, `export`; the value to the line's end, a closing quote or a shell operator
_PRELOAD = lazy(r"""(?<![\w$])(LD_PRELOAD|ZDOTDIR|MAKEFILES|ENV|RUBYOPT|RUBYLIB|PERL5OPT|PERL5LIB)['"]?+"""
                      r"""(?:[ \t]*+[:?+]?=|:(?=[ \t]))[ \t]*+(?:(['"])([^'"\n]{0,1000}+)|([^\s'"#;&|]{1,1000}+))""")
_AGENT = lazy(r"""-(?:javaagent|agentpath):['"]?+([^\s'"=,;]{1,1000}+)""")
_ZSH_FILES = (".zshenv", ".zprofile", ".zshrc", ".zlogin")
_COMMENT = lazy(r"^[ \t]*+#[^\n]*+$", re.MULTILINE)


def _preloaded(text: str) -> list[str]:
    """The files `text`'s loader variables and JVM agent options name (the module docstring, cileft63)."""
    if not any(mark in text for mark in ("LD_PRELOAD", "agent", "ZDOTDIR", "MAKEFILES", "ENV", "RUBYOPT", "PERL5OPT")):
        return []
    text = _COMMENT.sub("", text)
    values: dict[str, list[str]] = {}
    for name, _quote, quoted, plain in _PRELOAD.findall(text):
        values.setdefault(name, []).append(quoted or plain)
    found = [path for path in _AGENT.findall(text) if not path.startswith("$")]
    for value in values.get("LD_PRELOAD", []):
        found += [word for word in re.split(r"[:\s]+", value) if word and "/" in word or ".so" in word]
    for value in values.get("ZDOTDIR", []):
        found += [f"{value.split()[0].rstrip('/')}/{name}" for name in _ZSH_FILES] if value.split() else []
    for value in values.get("MAKEFILES", []):
        found += value.split()
    for value in values.get("ENV", []):
        first = value.split()[0] if value.split() else ""
        found += [first] if "/" in first or first.endswith((".sh", ".bash", ".ksh")) else []
    folders = ["", "lib"]
    for name in ("RUBYLIB", "PERL5LIB"):
        folders += [folder for value in values.get(name, []) for folder in value.split(":") if folder]
    for name, flags, suffix in (("RUBYOPT", ("-r",), ".rb"), ("PERL5OPT", ("-M", "-m"), ".pm")):
        options = [word for value in values.get(name, []) for word in value.split()]
        folders += [word[2:] for word in options if word.startswith("-I") and len(word) > 2]
        for word in options:
            if word[:2] in flags and len(word) > 2:
                feature = word[2:].partition("=")[0].replace("::", "/")
                found += [word[2:]] if "/" in word else []
                found += [f"{folder.rstrip('/')}/{feature}{suffix}".lstrip("/") for folder in dict.fromkeys(folders)
                          if not feature.endswith(suffix)]
    return [path for path in found if not path.startswith(("/", "~"))]  # the machine's own files


# attack 48: a `perl`/`prove` command line's own `-M`/`-m` switches (`perl -Ilib -MFoo::Bar t/x.t`) and `-I` folders
_PERL = lazy(r"(?<![\w./-])(?:perl|prove)(?![\w.-])([^\n;&|`)]{0,2048}+)")
_PERL_SWITCH = lazy(r"""(?:^|[\s'"])-([IMm])[ \t]*+([^\s'"]++)""")
# Before `perl` on its line, an `echo`/`printf` with no command separator after it, or a comment: it runs nothing.
# Read once over the text, the marks between one `perl` and the next (a search of each one's line up to it cost
# 0.87 CPU-s on a 1 MiB line of `echo perl `: quadratic, suite round 40).
_PRINT_MARKS = lazy(r"\b(?:echo|printf)\b|[;&|(`\n]")
_COMMENT_LINE = lazy(r"[ \t]*+#")


def _perl_switches(text: str) -> list[str]:
    """The modules (`Foo/Bar.pm` below the root, `lib/` and each `-I` folder) a perl or prove command's `-M`/`-m`
    switches load before its script (not `-M-warnings`: `no warnings`)."""
    found: list[str] = []
    scanned, comment, printing = 0, bool(_COMMENT_LINE.match(text)), False  # printing: an echo since a separator
    for match in _PERL.finditer(text) if "perl" in text or "prove" in text else []:
        for mark in _PRINT_MARKS.finditer(text, scanned, match.start()):
            if mark.group() == "\n":
                comment, printing = bool(_COMMENT_LINE.match(text, mark.end())), False
            else:
                printing = mark.group() in ("echo", "printf")
        scanned = match.start()
        if comment or printing:
            continue
        switches = _PERL_SWITCH.findall(match.group(1))
        folders = ["", "lib", *(value.removeprefix("./").rstrip("/") for flag, value in switches if flag == "I")]
        for flag, value in switches:
            feature = value.partition("=")[0].replace("::", "/")
            if flag != "I" and not feature.startswith("-"):
                found += [f"{folder}/{feature}.pm".lstrip("/") for folder in dict.fromkeys(folders)]
    return found


# multibuild (the wheel builders' CI library): its steps scripts source the project's hooks, CONFIG_PATH's file and by
# default the root `config.sh`, into every build and test step (the sixty-fifth set's onnx/wheel-builder)
_MULTIBUILD = lazy(r"(?:^|[\s;&|(])(?:source|\.)[ \t]+['\"]?[^\s'\";&|]*multibuild/[\w-]*steps\.sh\b",
                         re.MULTILINE)


# review 67a: what a step copies or links into git's own hooks folder git runs at the job's next commit, push or merge:
# `.git/hooks`, also spelled through `git rev-parse` or `$GIT_DIR`, and the commands that put files there
_GIT_DIR = lazy(r"""\$\([ \t]*+git[ \t]++rev-parse[ \t]++--(?:absolute-)?+git-(?:common-)?+dir[ \t]*+\)"""
                r"""|`git[ \t]++rev-parse[ \t]++--git-(?:common-)?+dir`|\$\{?+GIT_DIR\b\}?+""")
_HOOKS_PATH = lazy(r"\$\([ \t]*+git[ \t]++rev-parse[ \t]++--git-path[ \t]++hooks[ \t]*+\)")
_INSTALL_SEGMENTS = lazy(r"&&|\|\||[;|\n]")
_INSTALLERS = frozenset({"cp", "mv", "install", "ln", "rsync"})
_HOOKS_DEST = lazy(r"(?:\./)?+\.git/hooks(?:/[^/\s]*+)?+/?+")


def _hooks_installed(text: str) -> list[str]:
    """The files (a folder's: `folder/${x}`) a copy, move, install or link puts into `.git/hooks/` (review 67a)."""
    if "hooks" not in text:
        return []
    text = _HOOKS_PATH.sub(".git/hooks", _GIT_DIR.sub(".git", text))
    found: list[str] = []
    for segment in _INSTALL_SEGMENTS.split(text) if ".git/hooks" in text else ():
        if ".git/hooks" not in segment:
            continue
        words = _shell_words(segment)
        keys = next((at for at, word in enumerate(words) if word not in _KEYS and word not in PLAIN), len(words))
        start = command_start(words[keys:])
        words = words[keys + start:] if start >= 0 else []
        if not words or words[0].rpartition("/")[2] not in _INSTALLERS:
            continue
        target = next((word.partition("=")[2] or after for word, after in zip(words, [*words[1:], ""], strict=True)
                       if word in ("-t", "--target-directory") or word.startswith("--target-directory=")), "")
        operands = [word for word in words[1:] if not word.startswith("-") and not word.isdigit() and word != target]
        target = target or (operands.pop() if operands else "")
        if _HOOKS_DEST.fullmatch(target) is None:
            continue
        folder = target if target.rstrip("/").endswith("hooks") else target.rpartition("/")[0]
        for source in operands:
            if source.startswith("../"):  # a link's target, read from the hooks folder
                source = posixpath.normpath(posixpath.join(folder, source))
            source = source.removeprefix("$PWD/").removeprefix("${PWD}/").removeprefix("./")
            if source.startswith(("$", "/", ".git/")) or not source.strip("./"):
                continue
            whole = source.endswith(("/", "/.")) or {"-r", "-R", "-a", "--recursive"} & set(words)
            found.append(f"{source.removesuffix('.').rstrip('/')}/${{x}}" if whole else source)
    return found


def loaded(text: str) -> list[str]:
    """The paths (patterns) of the files `text` makes every later process load through a variable or a git setting,
    and the hooks multibuild's steps load (_MULTIBUILD); the modules a perl command's `-M` switches load (attack 48)."""
    found: list[str] = _preloaded(text) + _perl_switches(text) + _hooks_installed(text) \
        + (["config.sh"] if "multibuild" in text and _MULTIBUILD.search(text) else [])
    for name, value in [*_LOADER.findall(text), *_LOADER_VALUE.findall(text), *_GIT_SETTING.findall(text),
                        *_GIT_SETTING.findall(_config_pairs(text))]:
        name = name.lower()
        if name == "pythonpath":  # a folder after a variable (`$PWD/tools`) is one; a bare `$PYTHONPATH` is not
            found += [f"{folder}/{file}" for folder in value.split(":") if folder and "/" in folder.lstrip("$/")
                      or folder and not folder.startswith("$") for file in ("sitecustomize.py", "usercustomize.py")]
        elif name == "core.hookspath":
            found.append(f"{value.rstrip('/')}/${{x}}")  # every hook of the folder
        elif name in _READS or name.endswith(".path") or "/" in value:  # else a program on PATH (`store`)
            found.append(value)
    return found


def _config_pairs(text: str) -> str:
    """`key=value` lines of the GIT_CONFIG_KEY_<n>/GIT_CONFIG_VALUE_<n> pairs `text` sets (for _GIT_SETTING)."""
    if "GIT_CONFIG_" not in text:
        return ""
    keys: dict[str, str] = {}
    values: dict[str, str] = {}
    for part, index, word in _CONFIG_PAIR.findall(text):
        (keys if part == "KEY" else values)[index] = word
    return "\n".join(f"{key}={values[index]}" for index, key in keys.items() if index in values)


def fed(text: str) -> list[str]:
    """The paths `text` (a definition, a script, one YAML string of a definition) feeds to the runner's environment."""
    found = [value for value in _ENV_FILE_INPUT.findall(text) if not value.startswith(("$", "-"))] \
        if "env" in text.lower() else []
    found += _matrix_reads(text)
    if not any(mark in text for mark in _MARKS):
        return found
    found += [path for path in _LOOP_INPUT.findall(text) if not path.startswith("$")]  # `while read …; done < FILE`
    for line in text.splitlines():
        if not any(mark in line for mark in _MARKS):
            continue
        line = _without_substitutions(_BACKQUOTED.sub(" ", line))  # a value read out of a file (the limit above)
        found += [path for path in _REDIRECT.findall(line) if not path.startswith("$")]
        for segment in _SEGMENTS.split(line):
            words = [word.strip("'\"") for word in segment.split()]
            keys = next((at for at, word in enumerate(words) if word not in _KEYS and word not in PLAIN), len(words))
            words = words[keys:]
            start = command_start(words)  # behind `sudo -E`, `timeout 60`, `env -i` (the one table, issue 13)
            words = words[start:] if start >= 0 else []
            copier = bool(words) and words[0].rpartition("/")[2] in _COPIERS and any(m in segment for m in _MARKS)
            if words and (words[0].rpartition("/")[2] in _DUMPERS or copier):
                found += [word for word in words[1:] if word and not word.startswith(("-", "$", ">", "<", "^"))
                          and ("/" in word or "." in word) and "=" not in word]
    return list(dict.fromkeys(found))


def _matrix_reads(text: str) -> list[str]:
    """The files the readers inside a `$(…)` read on a line that sets a matrix (`matrix=$(cat v.yaml | yq …)`, `echo
    "matrix=$(jq -c . m.json)" >> $GITHUB_OUTPUT`): a job's matrix is its definition (over-reads 3)."""
    if "$(" not in text or "atrix" not in text and "ATRIX" not in text:
        return []  # most texts: two substring tests
    found: list[str] = []
    for line in text.splitlines():
        if "$(" not in line or _MATRIX_SET.search(line) is None:
            continue
        for inner in _substitutions(line):
            for segment in _pipeline(inner):
                words = _shell_words(segment)
                start = command_start(words)
                words = words[start:] if start >= 0 else []
                if words and (name := words[0].rpartition("/")[2]) in _MATRIX_READERS:
                    found += _operands(name, words[1:])
    return found


def _operands(name: str, args: list[str]) -> list[str]:
    """The files a reader's arguments name: its positional words past a filter or script that comes first."""
    positional = [arg for arg in args if not arg.startswith("-")]
    if name in ("yq", "xq", "tomlq") and positional[:1] and positional[0] in ("eval", "e", "eval-all", "ea"):
        positional = positional[1:]
    if name in _FILTER_FIRST and not {"-f", "--from-file", "-e", "--expression"} & set(args):
        positional = positional[1:]
    return [arg for arg in positional if ("/" in arg or "." in arg) and arg.strip("./")
            and not arg.startswith(("$", "<", ">", "'", '"')) and "=" not in arg and " " not in arg]


def _shell_words(command: str) -> list[str]:
    """`command`'s words as a shell splits them at blanks outside quotes, quotes removed (one pass: shlex builds a
    long word one character at a time, quadratic)."""
    words: list[str] = []
    word: list[str] = []
    quote, started = "", False
    for char in command:
        if quote:
            if char == quote:
                quote = ""
            else:
                word.append(char)
        elif char in "'\"":
            quote, started = char, True
        elif char.isspace():
            if started or word:
                words.append("".join(word))
            word, started = [], False
        else:
            word.append(char)
    if started or word:
        words.append("".join(word))
    return words


def _pipeline(command: str) -> list[str]:
    """`command`'s parts between `|`, `&&`, `;` outside quotes."""
    parts: list[str] = []
    quote, at = "", 0
    for index, char in enumerate(command):
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char in "|;&":
            parts.append(command[at:index])
            at = index + 1
    return [*parts, command[at:]]


def _spans(line: str) -> list[tuple[int, int]]:
    """Where each outermost `$(…)` of `line` starts and ends: to its matching parenthesis (quoted ones skipped) or the
    line's end."""
    out: list[tuple[int, int]] = []
    at = 0
    while (start := line.find("$(", at)) >= 0:
        depth, quote, end = 0, "", start + 1
        while end < len(line):
            char = line[end]
            if quote:
                quote = "" if char == quote else quote
            elif char in "'\"":
                quote = char
            elif char == "(":
                depth += 1
            elif char == ")":
                depth -= 1
                if not depth:
                    break
            end += 1
        out.append((start, end))
        at = end + 1
    return out


def _substitutions(line: str) -> list[str]:
    """The text inside each outermost `$(…)` of `line` (_spans)."""
    return [line[start + 2:end] for start, end in _spans(line)]


def _without_substitutions(line: str) -> str:
    """`line` with each outermost `$(…)` blanked (_spans)."""
    out: list[str] = []
    at = 0
    for start, end in _spans(line):
        out += [line[at:start], " "]
        at = end + 1
    out.append(line[at:])
    return "".join(out)
