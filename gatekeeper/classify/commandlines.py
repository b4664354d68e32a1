"""The files a command line runs by a path without an extension (red team 19; read by ciruns.named).

A command's first word with a `/` (`bin/release`, after the shell's own words and assignments), or the script an
interpreter runs (`sh tools/publish`, `python3 -u tools/gen`, `python -m tools.release`). ciruns reads each line again
from the command behind a wrapper (`sudo`, `env`, `timeout 60`, ...), a redirection or `$(`: wrappers.py's one table.
"""

from __future__ import annotations

import posixpath
import re

from gatekeeper.classify.wrappers import PLAIN, innermost
from gatekeeper.lazy_pattern import lazy

__all__ = ["HOLE", "expanded", "scripts", "unquoted"]

HOLE = "\x01"  # a `${{ … }}` expression while the words are split (`${x}` to path_pattern: a variable part)
_GLOB = lazy(r"[*?]")
# A command's place in a line (red team 19's extension-less scripts): after an operator, a keyword, a YAML key that
# holds commands (attack 36: `shell: tools/myshell {0}`, Azure's `filePath:`/`scriptPath:`, `entrypoint:`; a Jenkins
# step's quoted command, `sh 'python3 tools/gen'`); the words before it; the interpreters whose first word they run.
_SEGMENTS = lazy(r"&&|\|\||[;&|(`{]|\$\(|\b(?:then|do|else)\b")
_KEY = lazy(r"^[ \t]*+(?:-[ \t]++)?+(?:(?:run|script|entry|command|commands|before_script|after_script|sh|bat"
                  r"|pwsh|exec|install|before_install|shell|filepath|scriptpath|scriptfile|script[-_]path"
                  r"|entry[-_]?point)[ \t]*+[:=][ \t]*+(?:[|>][-+]?[ \t]*+)?(?:-[ \t]++)?+"
                  r"|(?:sh|bat|pwsh|powershell)[ \t]++(?=['\"]))?+",
                  re.IGNORECASE)
_SHELL_OPTION = lazy(r"[-+][a-zA-Z]*[oO]")  # a shell's option whose value is the next word
_SHELL = lazy(r"(?:ba|z|k|da|a)?sh")
_ASSIGNMENT = lazy(r"[A-Za-z_][A-Za-z0-9_]*=")
# What a line must hold for _commands to find anything: a `/` (a path) or a word an interpreter or `.` may be.
_MAY_RUN = lazy(r"(?:^|[\s;&|(`'\"])(?:\.|source|[a-z]*sh|py[a-z]*[0-9.]*w?|node\w*|ruby|perl|pwsh|powershell"
                      r"|php|lua|tclsh|rscript|deno|bun|tsx|ts-node|groovy|uv|rpmbuild)(?:\.exe)?[ \t]", re.IGNORECASE)
_INTERPRETER = lazy(r"(?:ba|z|k|da|a|fi)?sh|python[0-9.]*w?|pypy[0-9.]*|node(?:js)?|ruby|perl|pwsh|powershell"
                          r"(?:\.exe)?|php|lua|tclsh|rscript|deno|bun|tsx|ts-node|source|\.|groovy|uv|-file")
# Builders that run the recipe file they are handed (the sixty-seventh set): a PyInstaller spec is a Python program
# (`pyinstaller app.spec`, `python -m PyInstaller app.spec`), an RPM spec's `%build`/`%install` sections are shell.
_RECIPE_BUILDER = lazy(r"pyinstaller|rpmbuild", re.IGNORECASE)

# Programs that pass a file's text on (attack 38: `cat tools/gen | bash`, `source <(sed … tools/gen)`, `eval "$(cat
# tools/gen)"`), and the words that name an interpreter's standard input rather than a script (`bash 0< f`, `bash
# /dev/stdin < f`, `python3 - < f`).
_READERS = frozenset({"cat", "tac", "head", "tail", "sed", "tee", "envsubst", "tr", "grep", "egrep", "fgrep", "cut",
                      "awk", "gawk", "mawk", "sort", "uniq", "dos2unix", "iconv", "base64", "zcat", "gunzip", "gzip",
                      "bzcat", "xzcat", "expand", "unexpand", "fold", "nl", "strings", "m4", "cpp"})
_STDIN = frozenset({"", "-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"})
_INPUT = lazy(r"^\d*<+")
_OUTPUT = lazy(r"<<[-<]?|\d*>>?|&>>?")  # an operator whose next word is a here-document's delimiter or a target
_OPERAND = lazy(r"[\w.][\w.+/-]*")  # a reader's operand that may be a file of the repository
_INSTALLERS = frozenset({"install", "cp", "mv", "ln", "rsync", "chmod"})
_RUN_PLACE = lazy(r"(?:^|/)(?:s?bin|libexec|hooks)(?:/|$)"
                        r"|^(?:/tmp|/var/tmp|~|\$\{?(?:HOME|RUNNER_TEMP|TMPDIR)\}?)(?:/|$)")
_VALUED = frozenset({"-m", "--mode", "-o", "-g", "--owner", "--group", "-t", "--target-directory", "-S", "--suffix"})
_WORKSPACE = lazy(r"^(?:\$\{?(?:PWD|GITHUB_WORKSPACE|CI_PROJECT_DIR)\}?|\x01)/")
_MODE = lazy(r"[ugoa]*[-+=][rwxXst]*(?:,[ugoa]*[-+=][rwxXst]*)*")
_ASSIGNED = lazy(r"[A-Za-z_][A-Za-z0-9_]*=")  # an assignment whose value the first reading split off
# a quoted part of a word (single, double, `$'…'`, `$"…"`) or a backslash-escaped character: bash's quote removal
_QUOTED = lazy(r"""\$?'([^'\n]*+)'|\$?"((?:[^"\\\n]|\\.)*+)"|\\(.)""")
_EXECUTABLE = lazy(r"^[0-7]*[1357][0-7]{0,2}$|\+[rwst]*[xX]")  # an octal mode with an execute bit, or `+x`
# attack 39: what bash expands before it runs a word. A brace list (`{gen,lint}`, not `${x}`, `{}` or `{ cmd; }`), a
# parameter's default or alternative (`${S:-tools/gen}`, `${D=tools}`, `${X:+x}`), the working folder before a `/`
# (`$PWD`, `${PWD}`, `$(pwd)`, `` `pwd` ``, a word's `~+`); a glob's parts (`*`, `?`, `[...]`) as a pattern's `*`;
# a shell option that makes its next words the command string (`-c`, `-ec`, `-xc`)
_BRACES = lazy(r"(?<![$\\])\{([^{}\s$,]*+(?:,[^{}\s$,]*+)++)\}")
_DEFAULT = lazy(r"\$\{[A-Za-z_]\w*+:?+[-=+]([^{}$\s'\"`]*+)\}")
_CWD = lazy(r"(?:\$\{PWD\}|\$PWD\b|\$\(pwd\)|`pwd`)(?=[\"']?/)|(?<![^\s'\"=:])~\+(?=/)")
_GLOB_PART = lazy(r"\*+|\?|\[[^\]/]*\]")
_COMMAND_STRING = lazy(r"-[a-zA-Z]*c[a-zA-Z]*")
_ALTERNATIVES = 16  # words one word's braces expand to, at most
_WORD_MAX = 1024  # a longer word's braces are not expanded
_MORE_SEGMENTS = 8  # command strings (`bash -c '…'`) of a line read as lines of their own, at most


def scripts(line: str) -> list[str]:
    """The files a line's commands run by a path without an extension: a command's first word with a `/`
    (`bin/release`, after `if`/`!`/assignments), or the script an interpreter runs (`sh tools/publish`,
    `python3 -u tools/gen`): red team 19. And the files a reader hands to an interpreter (or `eval`) that names no
    script of its own, through a pipe (`cat tools/gen | bash`) or a substitution it opens (`source <(cat tools/gen)`,
    `eval "$(cat tools/gen)"`): attack 38."""
    found: list[str] = []
    read: list[str] = []  # the operands of the readers since the last interpreter: a pipe may hand them on
    substituted = False  # the last interpreter's segment ends where a substitution opens: its readers feed it
    ran: list[str] = []  # every file a command of the line runs by its path, whatever its type (attack 39)
    globs: set[str] = set()  # the globs an interpreter's script holds (`bash tools/*.sh`: bash runs the first match)
    copies: list[tuple[str, list[str], bool]] = []  # (a copy's target, its sources, a symbolic link)
    line = line.replace("$(pwd)/", "$PWD/")  # the working folder, not a command substitution to split at
    segments = _SEGMENTS.split(line) if "/" in line or _MAY_RUN.search(line) is not None else []
    extra = len(segments) + _MORE_SEGMENTS
    for segment in segments:  # grows by the command strings it holds (`bash -c 'bash tools/gen'`), a bounded few
        words = _KEY.sub("", segment, count=1).replace("'", " ").replace('"', " ").split(None, 12)
        at = 0
        while at < len(words) and (words[at] in PLAIN or _ASSIGNMENT.match(words[at]) is not None):
            at += 1
        if at == len(words):
            continue
        words, at = innermost(words[at:]), 0
        if not words:
            continue
        first = words[at].rstrip(":")
        program = first.rpartition("/")[2].lower()
        builder = program.removesuffix(".exe")
        if program in _INSTALLERS and (first == program or first.startswith("/")):
            found += _installed(program, words[at + 1:])
            copies += [_copied(program, words[at + 1:])] if program != "chmod" else []
        elif program in _READERS and (first == program or first.startswith("/")):  # `bin/head` is the project's
            operands = [word for word in (_INPUT.sub("", word).rstrip(")`") for word in words[at + 1:])
                        if _OPERAND.fullmatch(word) is not None]
            found += operands if substituted else []
            read += operands
        elif _RECIPE_BUILDER.fullmatch(builder) is not None or (
                program.startswith("py") and _RECIPE_BUILDER.fullmatch(_module_name(words[at + 1:])) is not None):
            found += [word for word in words[at + 1:] if word.lower().endswith(".spec")]
        elif _INTERPRETER.fullmatch(program) is not None or program == "eval":
            found += _module(words[at + 1:]) if program.startswith("py") else []
            rest = _script_words(program, words[at:])
            string = _command_string(words[at + 1:]) if _SHELL.fullmatch(program) is not None else None
            if string is not None and len(segments) < extra:
                segments.append(string)  # the line the string holds, read as a line (attack 39)
            script = rest[:1] if program != "eval" and string is None else []
            found += script
            ran += script
            globs.update(script)
            fed = not rest or (_SHELL.fullmatch(program) is not None and "-s" in words[at + 1:])
            found += read if fed else []
            read = []
            substituted = fed and (program == "eval" or segment.rstrip().endswith(("<", '"', "'")))
        elif "/" in first and not first.startswith(("/", "-", "~")):
            # a glob here (`./tools/*`) is left unread: a YAML path list (`path: |` then `./*.html`) and a program's
            # `glob("./**/*.py")` read as commands named 2,039 files of 11 mirrors' trees (attack 39's walk)
            found += [first] if "." not in first.rpartition("/")[2] else []
            ran.append(first)
    found += _run_copies(copies, ran) if copies and ran else []
    # a variable part would name every file of a folder (`'packages/${{ matrix.package }}'`, a quoted input read as a
    # line), `@` is an action's or a package's version (`owner/action@v2`); a glob only where a command runs it
    return [_GLOB_PART.sub("*", word) if word in globs else word for word in found
            if (_GLOB.search(word) is None or word in globs) and "://" not in word and word.strip("./*")
            and not any(mark in word for mark in ("$", HOLE, "@", "%"))]


def expanded(line: str) -> str | None:
    """`line` after bash's expansions that need no state (attack 39): brace lists (`./tools/{gen,lint}` is
    `./tools/gen ./tools/lint`), a parameter's default (`${S:-tools/gen}`), the working folder (`$PWD/tools/gen`,
    `~+/tools/gen` is `./tools/gen`); None when it has none of them."""
    if "{" not in line and "PWD" not in line and "pwd" not in line and "~+" not in line:
        return None
    done = _CWD.sub(".", line)
    done = _DEFAULT.sub(r"\1", done) if "${" in done else done
    if "{" in done and "," in done:
        budget = 4 * len(done) + 4096  # the expanded line's length, at most (a line of brace lists)
        words = []
        for word in done.split(" "):
            more = _braced(word) if len(word) <= _WORD_MAX and budget > 0 and "{" in word else [word]
            budget -= sum(map(len, more)) - len(word)
            words.append(" ".join(more))
        done = " ".join(words)
    return None if done == line else done


def _braced(word: str) -> list[str]:
    """The words a word's brace lists expand to (at most _ALTERNATIVES; past it, the word as it is)."""
    out, pending = [], [word]
    while pending:
        word = pending.pop()
        hit = _BRACES.search(word)
        if hit is None:
            out.append(word)
        else:
            pending += [word[:hit.start()] + part + word[hit.end():] for part in reversed(hit[1].split(","))]
        if len(out) + len(pending) > _ALTERNATIVES:
            return [word]
    return out


def _command_string(words: list[str]) -> str | None:
    """The command string a shell's options hand it (`-c`, `-ec`: the words after it), or None."""
    for before, word in zip(["", *words], words, strict=False):
        if _COMMAND_STRING.fullmatch(word) is not None:
            return " ".join(words[words.index(word) + 1:]) or None
        if not word.startswith(("-", "+")) and _SHELL_OPTION.fullmatch(before) is None:
            return None
    return None


def _run_copies(copies: list[tuple[str, list[str], bool]], ran: list[str]) -> list[str]:
    """The sources of the copies, moves and links whose target a command of the same line runs (`mv tools/gen run.sh
    && ./run.sh`, `ln -s ../tools/gen bin/g && bin/g`: attack 39); a symbolic link's source from its folder."""
    runs = {posixpath.normpath(word) for word in ran}
    out = []
    for target, sources, link in copies:
        target = posixpath.normpath(target)
        for source in sources:
            inside = posixpath.join(target, posixpath.basename(source))
            if target in runs or inside in runs:
                folder = target if inside in runs else posixpath.dirname(target)
                out.append(posixpath.normpath(posixpath.join(folder, source)) if link else source)
    return out


def unquoted(line: str) -> str | None:
    """`line` with the shell's quote removal done inside its words (`t'ools'/gen`, `tools/ge''n`, `"tools"/gen`,
    `$'tools/gen'`, `tools/g\\en` all run `tools/gen`: red team 38's lead), or None when that reads no other path than
    reading each quote as a blank does (the line's first reading): a second reading only where quoting glues a word
    together."""
    if "'" not in line and '"' not in line and "\\" not in line:
        return None
    done = _QUOTED.sub(r"\1\2\3", line)  # the part a match holds (an unmatched group is empty)
    if done == line:
        return None
    first, words = line.replace("'", " ").replace('"', " ").split(), done.split()
    if words == first:
        return None
    # only where it may name a file: a new word with a folder or an extension (`tools/gen`, `build.sh`), a word the
    # first reading split off (`$'tools/gen'` read as `$`, `tools/gen`), or an assignment's quoted value (`FOO="x"
    # ./tools/gen` read as `FOO=`, `x`: the command was `x`)
    if len(words) != len(first) and any("/" in word or "." in word for word in words) or any(
            "/" in word or "." in word for word in set(words).difference(first)) or any(
            _ASSIGNED.fullmatch(word) for word in first):
        return done
    return None


def _installed(program: str, words: list[str]) -> list[str]:
    """The files `install` copies, `cp`/`mv`/`ln`/`rsync` copy into a folder programs run from (`bin`, `sbin`,
    `libexec`, git `hooks`) or a scratch one (`/tmp`, `$RUNNER_TEMP`, `$HOME`, `~`), or `chmod` makes executable:
    attack 38 (`sudo cp tools/gen /usr/local/bin/ && gen`)."""
    if program == "chmod":
        operands = _operands(program, words)[0]
        adds = bool(operands) and _EXECUTABLE.search(operands[0]) is not None
        return [word for word in operands[1:] if adds and _OPERAND.fullmatch(word) is not None]
    target, sources, _ = _copied(program, words)
    # `install -Dm644 README.md "$PKG/usr/share/doc/"` copies data, as `cp` does (cileft68: sharkdp/bat's Debian step
    # made README.md a script and the `src/*.rs` its usage names `ci`); install's own mode, 0755, may run
    mode = _install_mode(words) if program == "install" else None
    copies = program != "install" or (mode is not None and _EXECUTABLE.search(mode) is None
                                      and (mode.isdigit() or "x" not in mode.lower()))
    if not target or (copies and _RUN_PLACE.search(target) is None):
        return []
    return [word for word in sources if _OPERAND.fullmatch(word) is not None]


def _install_mode(words: list[str]) -> str | None:
    """The last mode `install`'s words give (`-m 644`, `-m644`, `-Dm644`, `--mode=u=rw`), or None: its default."""
    mode = None
    for before, word in zip(["", *words], words, strict=False):
        if before in ("-m", "--mode"):
            mode = word
        elif word.startswith("--mode="):
            mode = word.removeprefix("--mode=")
        elif word[:1] == "-" and word[1:2] != "-" and "m" in word and word.index("m") < len(word) - 1:
            mode = word[word.index("m") + 1:]
    return mode


def _copied(program: str, words: list[str]) -> tuple[str, list[str], bool]:
    """(the target, the sources, whether it makes a symbolic link) of a copy, move or link; no target when it makes
    none (`install -d`, one operand)."""
    operands, target = _operands(program, words)
    link = program == "ln" and any(word == "--symbolic" or (word[:2] != "--" and word[:1] == "-" and "s" in word)
                                   for word in words)
    if "-d" in words or "--directory" in words or (not target and len(operands) < 2):
        return "", [], link
    sources, target = (operands, target) if target else (operands[:-1], operands[-1])
    return target, [word for word in sources if _OPERAND.fullmatch(word) is not None], link


def _operands(program: str, words: list[str]) -> tuple[list[str], str]:
    """(the operands, the `-t`/`--target-directory` folder) of an installer's words."""
    operands: list[str] = []
    target = option = ""  # option: the one whose value the next word is
    for word in words:
        if option:
            target, option = (word if option in ("-t", "--target-directory") else target), ""
        elif word in _VALUED:
            option = word
        elif word.startswith(("-t", "--target-directory=")) and program != "chmod":
            target = word.removeprefix("--target-directory=").removeprefix("-t")
        elif not word.startswith("-") or (program == "chmod" and _MODE.fullmatch(word) is not None):
            operands.append(_WORKSPACE.sub("", word.rstrip(";)`")))
    return operands, target


def _script_words(program: str, words: list[str]) -> list[str]:
    """The words after an interpreter that may name its script: not its options (a shell's `-o pipefail`/`-euo
    pipefail`/`+O extglob` takes the word after it: attack 36), a here-document's delimiter, or its standard input
    (`bash < steps.txt` reads the script there: red team 12, second round; `bash 0< f`, `bash /dev/stdin < f`)."""
    rest = []
    for before, word in zip(words, words[1:], strict=False):
        if word.startswith("-") or word in ("run", "exec", "<") or _OUTPUT.fullmatch(before) is not None \
                or word.startswith("<<") or ">" in word \
                or (_SHELL_OPTION.fullmatch(before) is not None and _SHELL.fullmatch(program) is not None):
            continue
        if (word := _INPUT.sub("", word)) not in _STDIN:
            rest.append(word)
    return rest


def _module_name(words: list[str]) -> str:
    """The module `python -m NAME` runs (empty when the words hold no `-m NAME`)."""
    return words[words.index("-m") + 1] if "-m" in words[:-1] else ""


def _module(words: list[str]) -> list[str]:
    """The files `python -m tools.release` runs: the module's file or its package's `__main__.py` (red team 12, second
    round: the release job's code, named by its module)."""
    module = _module_name(words)
    if not module or re.fullmatch(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*", module) is None:
        return []
    path = module.replace(".", "/")
    return [f"{path}.py", f"{path}/__main__.py"]
