"""The files a command line runs by a path without an extension (red team 19; read by ciruns.named).

A command's first word with a `/` (`bin/release`, after the shell's own words and assignments), or the script an
interpreter runs (`sh tools/publish`, `python3 -u tools/gen`, `python -m tools.release`). ciruns reads each line again
from the command behind a wrapper (`sudo`, `env`, `timeout 60`, ...), a redirection or `$(`: wrappers.py's one table.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass

from gatekeeper.classify import printfs, pymodules
from gatekeeper.classify.installwords import INSTALLERS, copied, installed
from gatekeeper.classify.pipinstalls import ANY
from gatekeeper.classify.wrappers import PLAIN, innermost
from gatekeeper.lazy_pattern import lazy

__all__ = ["HOLE", "copied_runs", "copies_read", "env_modules", "expanded", "printed", "scripts", "unquoted"]

HOLE = "\x01"  # a `${{ … }}` expression while the words are split (`${x}` to path_pattern: a variable part)
_GLOB = lazy(r"[*?]")
# a printf format's conversion (`%s`, `%02d`, `%-8.3s`) on a line that runs `printf` (attack 46)
_CONVERSION = lazy(r"%[-#0+']{0,4}+\d{0,3}+(?:\.\d{1,3}+)?+[sdiuxXc]")
# A command's place in a line (red team 19's extension-less scripts): after an operator, a keyword, a YAML key that
# holds commands (attack 36: `shell: tools/myshell {0}`, Azure's `filePath:`/`scriptPath:`, `entrypoint:`; a Jenkins
# step's quoted command, `sh 'python3 tools/gen'`); the words before it; the interpreters whose first word they run.
_SEGMENTS = lazy(r"&&|\|\||[;&|(`]|(?<!\$)\{|\$\(|\b(?:then|do|else)\b")  # not `${x}`: a word (attack 42)
_KEY = lazy(r"^[ \t]*+(?:-[ \t]++)?+(?:(?:run|script|entry|command|commands|before_script|after_script|sh|bat"
                  r"|pwsh|exec|install|before_install|shell|filepath|scriptpath|scriptfile|script[-_]path"
                  r"|entry[-_]?point)[ \t]*+[:=][ \t]*+(?:[|>][-+]?[ \t]*+)?(?:-[ \t]++)?+"
                  r"|(?:sh|bat|pwsh|powershell)[ \t]++(?=['\"]))?+",
                  re.IGNORECASE)
# a YAML key that sets PYTHONPATH (a step's, a job's, a workflow's `env:`), read as the assignment (misses 11)
_ENV_KEY = lazy(r"""^[ \t]*+(?:-[ \t]++)?+['"]?+PYTHONPATH['"]?+[ \t]*+:[ \t]++""", re.MULTILINE)
_ENV_PATHS = 16  # entries of a PYTHONPATH set off the line read, at most
_MODULE_LINES = 128  # lines that may run `python -m` read below such a PYTHONPATH, at most (then: every module)
_SHELL_OPTION = lazy(r"[-+][a-zA-Z]*[oO]")  # a shell's option whose value is the next word
_SHELL = lazy(r"(?:ba|z|k|da|a)?sh")
_ASSIGNMENT = lazy(r"[A-Za-z_][A-Za-z0-9_]*=")
# What a line must hold for _commands to find anything: a `/` (a path) or a word an interpreter or `.` may be.
_MAY_RUN = lazy(r"(?:^|[\s;&|(`'\"])(?:\.|source|[a-z]*sh|py[a-z]*[0-9.]*w?|node\w*|ruby|perl|pwsh|powershell"
                      r"|php|lua|tclsh|rscript|deno|bun|tsx|ts-node|groovy|uv|rpmbuild|coverage)(?:\.exe)?[ \t]",
                 re.IGNORECASE)
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
_ASSIGNED = lazy(r"[A-Za-z_][A-Za-z0-9_]*=")  # an assignment whose value the first reading split off
# a quoted part of a word (single, double, `$'…'`, `$"…"`) or a backslash-escaped character: bash's quote removal
_QUOTED = lazy(r"""\$?'([^'\n]*+)'|\$?"((?:[^"\\\n]|\\.)*+)"|\\(.)""")
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
_INSTALLER_WORDS = 64  # an installer's words read, at most (its options may be many: attack 42)
# a line that may copy a file (copied_runs reads such lines again for their copies)
_COPIER = lazy(r"(?:^|[\s;&|(`{/])(?:install|cp|mv|ln|rsync)[ \t]")
_NAME = lazy(r"[^\s'\"/;&|()`<>]+")  # a file name a line may hold
# a word of a line where a copy's path may stand (attack 43: `$G`, `xargs`, `cd /opt/x`, `PATH=/opt/x:$PATH`)
_PATH_WORD = lazy(r"[^\s'\"=:(`;|&<>,{}]+")
# a reader's output written to a file: `cat S > T`, `cat S >> T`, `cat S | [sudo] tee [-a] T`; dd's operands
_CAT_COPY = lazy(r"(?<![\w-])cat[ \t]++([\w.][\w./+-]{0,255}+)[ \t]*+(?:>>?+|\|[ \t]*+(?:sudo[ \t]++)?+tee"
                 r"(?:[ \t]++-a)?+)[ \t]*+['\"]?+([^\s'\";&|()`<>]{1,256}+)")
_DD = lazy(r"(?<![\w-])dd[ \t]++([^\n;&|]{0,512}+)")
_NAME_OPERAND = lazy(r"[\w.][\w.+/-]*")
_COPIES_MAPPED = 256  # copies a definition's text is read through, at most (past it, every copied source runs)
_MORE_SEGMENTS = 8  # command strings (`bash -c '…'`) of a line read as lines of their own, at most


def scripts(line: str) -> list[str]:
    """The files a line's commands run by a path without an extension: a command's first word with a `/`
    (`bin/release`, after `if`/`!`/assignments), or the script an interpreter runs (`sh tools/publish`,
    `python3 -u tools/gen`): red team 19. And the files a reader hands to an interpreter (or `eval`) that names no
    script of its own, through a pipe (`cat tools/gen | bash`) or a substitution it opens (`source <(cat tools/gen)`,
    `eval "$(cat tools/gen)"`): attack 38."""
    read = _read(line)
    found = read.found + (_run_copies(read.copies, read.ran) if read.copies and read.ran else [])
    return _kept(found, read.globs)


def env_modules(text: str) -> list[str]:
    """The files `python -m` runs on a line of the definition `text` below a PYTHONPATH set off that line: a YAML
    `PYTHONPATH:` key (a step's, a job's or the workflow's: read for every line, fail wide), an earlier line's
    `export PYTHONPATH=…`, a `PYTHONPATH=…` line written to `$GITHUB_ENV` (misses 11)."""
    if "PYTHONPATH" not in text or "-m" not in text:
        return []
    paths = pymodules.python_paths(_ENV_KEY.sub("PYTHONPATH=", text))[:_ENV_PATHS]
    lines = list(dict.fromkeys(line.strip() for line in text.splitlines() if "-m" in line and (
        "py" in line or "coverage" in line or "uv" in line))) if paths else []
    if len(lines) > _MODULE_LINES:  # fail wide: every module below them (a text of 4,000 module lines: 3 CPU-s)
        wide = [f"{path}/{ANY}{tail}" for path in paths for tail in (".py", "/__main__.py", "/__init__.py")]
        return _kept(wide, set(wide))
    return _kept([file for line in lines for file in _read(line, paths).found], set())


def copied_runs(lines: list[str]) -> list[str]:
    """The sources of the copies one line makes that a command of another line of the same definition runs by the
    copy's path (`install -m644 tools/gen /opt/x/gen`, then a later step's `sh /opt/x/gen`: attack 42)."""
    copies = [copy for line in lines if _COPIER.search(line) is not None for copy in _read(line).copies if copy[1]]
    if not copies:
        return []
    names = {posixpath.basename(posixpath.normpath(target)) for target, _, _ in copies} | {
        posixpath.basename(source) for _, sources, _ in copies for source in sources}
    names.discard("")
    ran = [word for line in lines if not names.isdisjoint(_NAME.findall(line)) for word in _read(line).ran]
    return _kept(_run_copies(copies, ran), set()) if ran else []


def copies_read(lines: list[str]) -> tuple[str | None, list[str]]:
    """(the lines with each path a copy, move or link makes read as its source's path, or None where no line names
    one; the sources past the bound). The walk then reads what a later line does with the copy as it reads what it
    does with the source: run through a variable, `xargs`, `find -exec`, a pipe into a shell, `$(…)`, a `cd` into the
    copy's folder, a `PATH` holding it (attack 43; attack 42 joined only a command run by the copy's own path)."""
    copies = [copy for line in lines if _COPIER.search(line) is not None
              for copy in _read(expanded(line) or line).copies if copy[1]]  # `cp tools/{gen,lint} /opt/x/`
    copies += [(target, [source], False) for line in lines if "cat" in line or "dd" in line
               for source, target in _redirected(line)]
    copies = [copy for copy in copies if not copy[0].startswith(("/dev/", "&"))]  # a sink (`>/dev/null`) is no copy
    if not copies:
        return None, []
    if len(copies) > _COPIES_MAPPED:  # fail closed: every source a copy of the text has may run
        return None, [source for _, sources, _ in copies for source in sources]
    mapped: dict[str, str] = {}
    for target, sources, link in copies:
        folder = target.endswith("/") or len(sources) > 1
        target = posixpath.normpath(target)
        for source in sources:
            if _GLOB.search(source) is not None or source.endswith(("/", "/.")):  # a folder's files, by its own names
                home = posixpath.dirname(source) if _GLOB.search(source) else source.rstrip("/.")
                mapped.setdefault(target, home or ".")
                continue
            if link:  # a symbolic link's source is read from the link's folder
                source = posixpath.normpath(posixpath.join(target if folder else posixpath.dirname(target), source))
            base, home = posixpath.basename(posixpath.normpath(source)), posixpath.dirname(posixpath.normpath(source))
            mapped.setdefault(posixpath.join(target, base), source)  # a copy into a folder keeps its name
            mapped.setdefault(target, (home or ".") if folder else source)  # a copy by its own name, a folder's copy
            if not folder and posixpath.basename(target) == base and posixpath.dirname(target).strip("/."):
                mapped.setdefault(posixpath.dirname(target), home or ".")  # `cd /opt/x && ./gen`
    mapped = {key: value for key, value in mapped.items() if key.strip("/.") and key != value}
    done, changed = [], False
    for line in lines:
        again = _PATH_WORD.sub(lambda word: _as_source(word[0], mapped), line)
        changed |= again != line
        done.append(again)
    return ("\n".join(done) if changed else None), []


def _redirected(line: str) -> list[tuple[str, str]]:
    """(source, target) of the copies a line makes with a reader's output: `cat S > T`, `cat S >> T`, `cat S | tee
    T`, `dd if=S of=T` (attack 43)."""
    found = [(hit[1], hit[2]) for hit in _CAT_COPY.finditer(line)]
    for hit in _DD.finditer(line):
        words = dict(word.partition("=")[::2] for word in hit[1].split() if "=" in word)
        found += [(words["if"], words["of"])] if "if" in words and "of" in words else []
    return [(source, target) for source, target in found if _NAME_OPERAND.fullmatch(source) is not None]


def _as_source(word: str, mapped: dict[str, str]) -> str:
    """`word` with its longest leading path a copy makes read as the copy's source (`/opt/x/gen` as `tools/gen`)."""
    lead = "./" if word.startswith("./") else ""
    path = word[len(lead):]
    cut = len(path)
    while cut > 0:
        head = path[:cut].rstrip("/") or path[:cut]
        if head in mapped:
            return mapped[head] + path[len(head):]
        cut = path.rfind("/", 0, cut - 1) if "/" in path[:cut - 1] else 0
    return word


def _kept(found: list[str], globs: set[str]) -> list[str]:
    """The words of `found` that may name files of the tree (patterns where a command runs a glob)."""
    # a variable part would name every file of a folder (`'packages/${{ matrix.package }}'`, a quoted input read as a
    # line), `@` is an action's or a package's version (`owner/action@v2`); a glob only where a command runs it
    return [_GLOB_PART.sub("*", word) if word in globs else word for word in found
            if (_GLOB.search(word) is None or word in globs) and "://" not in word and word.strip("./*")
            and not any(mark in word for mark in ("$", HOLE, "@", "%"))]


@dataclass(frozen=True, slots=True)
class _Line:
    """What one line's commands run (`found`), run by their path whatever their type (`ran`), copy (target, sources,
    a symbolic link), and the globs an interpreter's script holds."""

    found: list[str]
    ran: list[str]
    copies: list[tuple[str, list[str], bool]]
    globs: set[str]


def _words(segment: str, bound: int) -> list[str]:
    """The words of the command a segment runs behind its shell words, assignments and wrappers (`bound` splits)."""
    words = _KEY.sub("", segment, count=1).replace("'", " ").replace('"', " ").split(None, bound)
    at = 0
    while at < len(words) and (words[at] in PLAIN or _ASSIGNMENT.match(words[at]) is not None):
        at += 1
    return innermost(words[at:]) if at < len(words) else []


def _read(line: str, paths: list[str] | None = None) -> _Line:
    """One line's commands read (scripts() and copied_runs()); `paths`: a PYTHONPATH set off the line (env_modules)."""
    found: list[str] = []
    read: list[str] = []  # the operands of the readers since the last interpreter: a pipe may hand them on
    substituted = False  # the last interpreter's segment ends where a substitution opens: its readers feed it
    ran: list[str] = []  # every file a command of the line runs by its path, whatever its type (attack 39)
    globs: set[str] = set()  # the globs an interpreter's script holds (`bash tools/*.sh`: bash runs the first match)
    copies: list[tuple[str, list[str], bool]] = []  # (a copy's target, its sources, a symbolic link)
    line = line.replace("$(pwd)/", "$PWD/")  # the working folder, not a command substitution to split at
    segments = _SEGMENTS.split(line) if "/" in line or _MAY_RUN.search(line) is not None else []
    extra = len(segments) + _MORE_SEGMENTS
    python_paths: list[str] | None = None  # the line's PYTHONPATH entries, read once (review 70)
    for segment in segments:  # grows by the command strings it holds (`bash -c 'bash tools/gen'`), a bounded few
        words, at = _words(segment, 12), 0
        if not words:
            continue
        first = words[at].rstrip(":")
        program = first.rpartition("/")[2].lower()
        builder = program.removesuffix(".exe")
        if program in INSTALLERS and (first == program or first.startswith("/")):
            cut = any(blank in words[-1] for blank in " \t")  # the split's last word holds the rest of the line
            words = _words(segment, _INSTALLER_WORDS) if cut else words  # its options may be many (attack 42)
            found += installed(program, words[at + 1:])
            copies += [copied(program, words[at + 1:])] if program != "chmod" else []
        elif program in _READERS and (first == program or first.startswith("/")):  # `bin/head` is the project's
            operands = [word for word in (_INPUT.sub("", word).rstrip(")`") for word in words[at + 1:])
                        if _OPERAND.fullmatch(word) is not None]
            found += operands if substituted else []
            read += operands
        elif _RECIPE_BUILDER.fullmatch(builder) is not None or (program.startswith("py") and _RECIPE_BUILDER.fullmatch(
                pymodules.module_name(words[at + 1:])) is not None):
            found += [word for word in words[at + 1:] if word.lower().endswith(".spec")]
        elif _INTERPRETER.fullmatch(program) is not None or program == "eval":
            python_paths = [*pymodules.python_paths(line), *(paths or ())] if python_paths is None else python_paths
            found += pymodules.module_files(words[at + 1:], python_paths) if program.startswith("py") else []
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
        elif first.startswith(("/", "~/")):  # a copy's absolute path (`cp tools/gen /opt/g && /opt/g`: attack 42)
            ran.append(first)
    return _Line(found, ran, copies, globs)


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


def printed(text: str) -> str:
    """`text` with the conversions of `printf`'s formats as HOLEs, on the lines that run it: the path a
    `$(printf lib/%s.sh ci)` or `printf -v S "lib/%s.sh" ci` computes stands for the folder's files of its type, as
    `lib/$X.sh` does (attack 46)."""
    if "printf" not in text or "%" not in text and "\\" not in text:  # an escape alone prints another text too
        return text
    # a call of literal arguments prints what bash prints (printfs.py: attack 47); the others' conversions vary
    return "\n".join(_CONVERSION.sub(HOLE, printfs.evaluated(line)) if "printf" in line else line
                     for line in text.split("\n"))
