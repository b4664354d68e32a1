"""Scripts a Dockerfile runs while it builds the image: part of the image definition, as a Packer template's
provisioning scripts are.

`COPY . /` then `RUN /build.sh` (ingress-nginx's nginx image), `COPY tools/install/ /install/` then
`RUN /install/trivy.sh`: the script decides what the image holds, yet nothing in its name or content says so; the
Dockerfile that copies it in and runs it does. A Dockerfile is read as its build context's definition (the
context is taken to be the Dockerfile's folder, as `docker build DIR` and compose's default have it): every
`COPY`/`ADD` from the context (not `--from` another stage or image) maps a container path to repository paths, and
every command a `RUN` starts (first word of each `&&`/`;`/`|` part, after variable assignments, `sudo`, `exec`
and a shell: `bash /tmp/x.sh`, `. ./env.sh`), when it is a path or a script name, is looked up in that map.
Only what a RUN executes counts: a script copied for the entrypoint (`COPY docker-entrypoint.sh /usr/local/bin/`,
run when a container starts) is the application's, and a `chmod +x` of it runs nothing.

A RUN may also reach the scripts through a BuildKit bind mount instead of a COPY into the image: `RUN
--mount=type=bind,source=scripts,target=/s /s/build.sh` mounts a context folder, and the image-template convention
(`FROM scratch AS ctx`, `COPY build_files /`, then `RUN --mount=type=bind,from=ctx,source=/,target=/ctx
/ctx/build.sh`) mounts what an earlier stage copied. A COPY source is relative to the context even when it starts
with `/` (`COPY /build_files /`).
"""

from __future__ import annotations

import posixpath
import re
import shlex
from collections.abc import Callable, Iterator

from gatekeeper.classify import shellwords
from gatekeeper.lazy_pattern import lazy

# Words that start a command without being it: the command is the next word.
_PREFIXES = frozenset({
    "sudo", "exec", "env", "time", "nice", "bash", "sh", "ash", "dash", "zsh", "/bin/bash", "/bin/sh",
    "/usr/bin/env", "/usr/bin/bash", "source", ".", "pwsh", "powershell", "powershell.exe", "cmd", "/c", "call",
    # shell keywords a command follows (`if [ -x /m/prebuild ]; then /m/prebuild; fi`, `for f in ...; do /x.sh; done`)
    "then", "do", "else", "if", "elif", "while", "until", "!",
})
# What a RUN command must look like to be a file of the context: a path (`./install.sh`, `/build.sh`) or a script
# found on PATH (`build.sh`). `python manage.py collectstatic` runs the application's code, not a build script:
# an interpreter other than a shell is the command, and it is no file of the repository.
_SCRIPT_TYPES = (".sh", ".bash", ".ps1", ".cmd", ".bat")
_MAKES = frozenset({"make", "gmake"})
_MAKE_NAMES = ("GNUmakefile", "makefile", "Makefile")  # the names make tries, in its order
_MAKE_OPTIONS = ("-C", "--directory", "-f", "--file", "--makefile")
_EXEC_WORD = lazy(r'"((?:[^"\\\n]|\\.){0,1024}+)"')  # a word of an exec form's JSON array
_SEPARATORS = lazy(r"&&|\|\||;|\|")
_ASSIGNMENT = lazy(r"^[A-Za-z_][A-Za-z0-9_]*=")
_INSTRUCTION = lazy(r"^\s*([A-Za-z]+)\s+(.*)$", re.DOTALL)
_MOUNT = lazy(r"--mount=(\S+)")
_STAGE = lazy(r"\s[Aa][Ss]\s+(\S+)\s*$")
MAX_INSTRUCTIONS = 2000  # per Dockerfile: bounded work on a hostile one
MAX_CONTEXTS = 8  # ancestor folders a subfolder's Dockerfile is also read against (each a reading of the text)
MAX_DEPTH = 32  # folders above a Dockerfile that may be its context


def is_dockerfile(path: str) -> bool:
    """A Dockerfile or Containerfile by its name (`Dockerfile`, `Dockerfile.prod`, `app.Dockerfile`)."""
    name = path.rpartition("/")[2].lower()
    return name in ("dockerfile", "containerfile") or name.startswith(("dockerfile.", "containerfile.")) or \
        name.endswith((".dockerfile", ".containerfile"))


Wild = tuple[str, str, str]  # (the command as written, a repository folder, a regular expression over file names)


def run_scripts(folder: str, text: str) -> tuple[set[str], set[Wild]]:
    """The repository paths of the files the Dockerfile in `folder` copies in and then runs in a RUN instruction,
    and the folders (with a name pattern) a command with a variable part or a glob may run files of
    (`/scripts/${VARIANT}.sh`, `$DIR/prod.sh`, `for f in /scripts/*.sh`, `run-parts /scripts`: red team 11)."""
    found: set[str] = set()
    wild: set[Wild] = set()
    for workdir, rest, mounted, copies in _runs(folder, text):
        for command in _commands(rest):
            found |= _sources(_absolute(workdir, command), command, mounted)
        makefiles, wild_makefiles = _makefiles(rest)  # no script, but what make reads is the build's (over-reads 3)
        for makefile in makefiles:
            found |= _sources(_absolute(workdir, makefile), "/", mounted)
        for makefile in wild_makefiles:
            wild |= _wild_sources(workdir, makefile, copies)
        for command in _wild_commands(rest):
            wild |= _wild_sources(workdir, command, copies)
    return found, wild


def contexts(folder: str, text: str) -> list[str]:
    """The build contexts the Dockerfile in `folder` is read against: its own folder, then the ancestor folders
    from which a COPY/ADD source names the Dockerfile's folder (`COPY ./containers/build.sh /build.sh` in
    `containers/Dockerfile.client`: the image is built from the repository's root, and the copied script is in
    `containers/`; the eighty-fourth set), the nearest first, at most MAX_CONTEXTS of them (the root always among
    them when named). A source that starts elsewhere says nothing about the context."""
    if not folder:
        return [folder]
    parts = folder.split("/")
    # the folder as seen from each ancestor up to MAX_DEPTH folders above it: {"docker": "build", "build/docker": ""}
    tails = {"/".join(parts[cut:]): "/".join(parts[:cut]) for cut in range(max(0, len(parts) - MAX_DEPTH), len(parts))}
    named: set[str] = set()
    for number, (keyword, rest) in enumerate(_instructions(text)):
        if number >= MAX_INSTRUCTIONS:
            break
        words = _words(rest) if keyword in ("COPY", "ADD") else []
        if any(w.startswith("--from=") for w in words):
            continue
        for word in [w for w in words if not w.startswith("--")][:-1]:
            if not _literal(word) or "://" in word:
                continue
            prefix = ""
            for part in posixpath.normpath(word.lstrip("/")).split("/")[:MAX_DEPTH]:
                prefix = f"{prefix}/{part}" if prefix else part
                if (ancestor := tails.get(prefix)) is not None:
                    named.add(ancestor)
    kept = sorted(named, key=len, reverse=True)[:MAX_CONTEXTS]
    if "" in named and "" not in kept:
        kept[-1] = ""
    return [folder, *kept]


def entry_scripts(folder: str, text: str) -> set[str]:
    """The repository paths of the files the Dockerfile in `folder` copies in and its ENTRYPOINT or CMD runs (exec
    form too: `["bash", "/x/run.sh"]`): what the image runs when a container of it starts (over-reads 4)."""
    found: set[str] = set()
    for workdir, rest, mounted, _copies in _runs(folder, text, ("ENTRYPOINT", "CMD")):
        words = _EXEC_WORD.findall(rest) if rest.lstrip().startswith("[") else []
        for command in _commands(" ".join(shlex.quote(word) for word in words) if words else rest):
            found |= _sources(_absolute(workdir, command), command, mounted)
    return found


def run_reads(folder: str, text: str, reads: Callable[[str], list[str]]) -> set[str]:
    """The repository paths of the files a RUN instruction reads by the paths `reads(RUN's arguments)` gives
    (`pip install -r /tmp/req.txt` after `COPY tools/deps.txt /tmp/req.txt`: pipinstalls.py), through its COPYs and
    bind mounts."""
    found: set[str] = set()
    for workdir, rest, mounted, _copies in _runs(folder, text):
        for path in reads(rest):
            found |= _sources(_absolute(workdir, path), path, mounted)
    return found


Copies = list[tuple[list[str], str, bool]]  # (repository sources, image destination, destination a folder)


def _runs(folder: str, text: str, keywords: tuple[str, ...] = ("RUN",)) -> Iterator[tuple[str, str, Copies, Copies]]:
    """(WORKDIR, arguments, what the COPYs and its bind mounts put in the image, the COPYs) of each RUN. A `COPY
    --from=STAGE` takes what that stage copied from the context along (red team 17: `COPY tools/deps.txt /app/r.txt`
    in a builder stage, `COPY --from=builder /app/r.txt /r.txt` then `RUN pip install -r /r.txt`)."""
    copies: Copies = []
    stages: dict[str, Copies] = {}  # what each stage (by name and by number) copied from the context
    here: Copies = []
    workdir = "/"
    for number, (keyword, rest) in enumerate(_instructions(text)):
        if number >= MAX_INSTRUCTIONS:
            break
        if keyword == "FROM":
            here = []
            stages[str(sum(1 for key in stages if key.isdigit()))] = here
            if (m := _STAGE.search(" " + rest)) is not None:
                stages[m.group(1).lower()] = here
        elif keyword == "WORKDIR":
            workdir = posixpath.normpath(posixpath.join(workdir, rest.strip().strip('"')))
        elif keyword in ("COPY", "ADD"):
            words = _words(rest)
            origin = next((w.partition("=")[2].lower() for w in words if w.startswith("--from=")), None)
            words = [w for w in words if not w.startswith("--")]
            if len(words) < 2:
                continue
            destination = _absolute(workdir, words[-1])
            into = words[-1].endswith("/") or len(words) > 2
            if origin is not None:
                taken = [entry for word in words[:-1]
                         for entry in _from_stage(_absolute("/", word), destination, into, stages.get(origin, []))]
            else:
                sources = [_in_context(folder, w) for w in words[:-1]]
                taken = [([s for s in sources if s is not None], destination, into)]
            copies += taken
            here += taken
        elif keyword in keywords:
            yield workdir, rest, copies + _mounts(folder, workdir, rest, stages), copies


def _from_stage(taken: str, destination: str, into: bool, stage: Copies) -> Copies:
    """What `COPY --from=STAGE taken destination` puts where, of the files STAGE copied from the context."""
    out: Copies = []
    for sources, placed, placed_into in stage:
        if placed == taken and placed_into:  # the folder the stage copied into, whole
            out.append((sources, destination, True))
        elif placed == taken:  # the file the stage copied
            where = f"{destination.rstrip('/')}/{taken.rpartition('/')[2]}" if into else destination
            out.append((sources, posixpath.normpath(where), False))
        elif placed.startswith(taken.rstrip("/") + "/"):  # a copy below the folder taken
            out.append((sources, posixpath.normpath(destination + placed[len(taken.rstrip("/")):]), placed_into))
        elif taken.startswith(placed.rstrip("/") + "/"):  # a file or folder inside a folder the stage copied
            rel = taken[len(placed.rstrip("/")) + 1:]
            out.append(([f"{source}/{rel}" if source else rel for source in sources], destination, into))
    return out


def _mounts(folder: str, workdir: str, run: str, stages: dict[str, list[tuple[list[str], str, bool]]]) \
        -> list[tuple[list[str], str, bool]]:
    """What a RUN's bind mounts put where, as COPY entries: a context folder (no `from`), or what a named stage copied
    below the mounted `source` (`from=ctx,source=/,target=/ctx`). Another image's files are none of the repository's."""
    out: list[tuple[list[str], str, bool]] = []
    for match in _MOUNT.finditer(run):
        options = dict(part.partition("=")[::2] for part in match.group(1).split(","))
        target = options.get("target") or options.get("dst") or options.get("destination")
        if options.get("type", "bind") != "bind" or not target:
            continue
        target = _absolute(workdir, target)
        source = options.get("source") or options.get("src") or "/"
        origin = options.get("from")
        if origin is None:
            if (inside := _in_context(folder, source)) is not None:
                out.append(([inside], target, True))
            continue
        root = _absolute("/", source)
        for sources, destination, into in stages.get(origin.lower(), []):
            if destination == root or root == "/" or destination.startswith(root.rstrip("/") + "/"):
                out.append((sources, posixpath.normpath(target + "/" + destination[len(root):]), into))
    return out


def _instructions(text: str) -> list[tuple[str, str]]:
    """(KEYWORD, arguments) of each instruction, continuation lines joined and comments dropped. As Docker's parser
    does, a comment line or a blank line inside a continued instruction is dropped and the instruction goes on (the
    nineteenth label set: a RUN whose `# note` lines sat between its `\\` lines ended at the first of them, and the
    script it ran after them was not seen)."""
    out: list[tuple[str, str]] = []
    pending: list[str] = []  # the continued lines, joined once (grown by `+`, each line copied all: suite round 43)
    for line in text.splitlines():
        if line.lstrip().startswith("#") or pending and not line.strip():
            continue
        if line.rstrip().endswith("\\"):
            pending.append(line.rstrip()[:-1] + " ")
            continue
        whole, pending = "".join([*pending, line]), []
        if (match := _INSTRUCTION.match(whole)) is not None:
            out.append((match.group(1).upper(), match.group(2)))
    return out


def _words(text: str) -> list[str]:
    try:
        return shellwords.split(text)
    except ValueError:
        return text.split()


def _commands(run: str) -> list[str]:
    """The first word of every command a RUN line starts (`a && b; c | d`), after prefixes and assignments."""
    out = []
    for part in _SEPARATORS.split(run):
        words = [w for w in _words(part) if w not in ("(", ")", "{", "}")]
        while words and (words[0] in _PREFIXES or _ASSIGNMENT.match(words[0]) or words[0].startswith("-")):
            words.pop(0)
        if words and not words[0].startswith("$") and ("/" in words[0] or words[0].lower().endswith(_SCRIPT_TYPES)):
            out.append(words[0])
    return out


def _makefiles(run: str) -> tuple[list[str], list[str]]:
    """The files each `make` a RUN line starts reads, from WORKDIR: `GNUmakefile`, `makefile` and `Makefile` of its
    folder (a `cd` before it in the same RUN, `-C DIR`), or the files of `-f` (hraftd's `RUN make release/linux`);
    and, where a variable names the folder or the file, the same as a path with a variable part (NUL) for
    _wild_sources (fail closed)."""
    files: list[str] = []
    wild: list[str] = []
    here: str | None = "."
    for part in _SEPARATORS.split(run):
        words = [w for w in _words(part) if w not in ("(", ")", "{", "}")]
        while words and (words[0] in _PREFIXES or _ASSIGNMENT.match(words[0]) or words[0].startswith("-")):
            words.pop(0)
        if words[:1] == ["cd"] and len(words) > 1:
            here = posixpath.join(here, words[1]) if here is not None and _literal(words[1]) else None
        elif words and words[0].rpartition("/")[2] in _MAKES:
            read = _make_reads(here, words[1:])
            files += [name for name in read if "\x00" not in name]
            wild += [name for name in read if "\x00" in name]
    return files, wild


def _make_reads(here: str | None, args: list[str]) -> list[str]:
    """The makefiles `make ARGS` run in `here` (None: a folder a variable names) reads (`-C` is applied before `-f`, as
    make does); a part a variable names is NUL."""
    files: list[str] = []
    at = 0
    while at < len(args):
        arg, value = args[at], None
        for option in _MAKE_OPTIONS:
            if arg == option and at + 1 < len(args):
                value, at = args[at + 1], at + 1
            elif arg.startswith(option) and (option.startswith("--") and arg[len(option):len(option) + 1] == "="
                                             or len(option) == 2 and len(arg) > 2 and not arg.startswith("--")):
                value = arg[len(option) + (1 if option.startswith("--") else 0):]
            if value is not None:
                value = value if _literal(value) else "\x00"
                if option in ("-C", "--directory"):
                    here = posixpath.join(here, value) if here is not None and value != "\x00" else None
                elif value != "-":
                    files.append(value)
                break
        at += 1
    if here is None:
        return [f"\x00/{name.rpartition('/')[2]}" if name != "\x00" else name for name in (files or _MAKE_NAMES)]
    return [posixpath.normpath(posixpath.join(here, name)) for name in (files or _MAKE_NAMES)]


def _literal(word: str) -> bool:
    return "$" not in word and "`" not in word and not word.startswith(("~", "-"))


def _in_context(folder: str, source: str) -> str | None:
    """A COPY source as a repository path (the build context is the Dockerfile's folder); None outside it."""
    if "://" in source or "$" in source:
        return None
    source = source.lstrip("/") or "."  # the context's root: `COPY /build_files /` copies build_files
    joined = posixpath.normpath(posixpath.join(folder, source)) if folder else posixpath.normpath(source)
    if joined.startswith("../"):
        return None
    return "" if joined == "." else joined


def _absolute(workdir: str, path: str) -> str:
    return posixpath.normpath(path if path.startswith("/") else posixpath.join(workdir, path))


def _sources(target: str, written: str, copies: list[tuple[list[str], str, bool]]) -> set[str]:
    """The repository files a COPY put at `target` (the command as the RUN wrote it, made absolute)."""
    found: set[str] = set()
    name = target.rpartition("/")[2]
    for sources, destination, _into in copies:
        prefix = destination.rstrip("/") + "/"
        for source in sources:
            base = source.rpartition("/")[2]
            # the file itself, copied to that name or into that folder (`COPY x.sh /usr/local/bin`: a folder the
            # base image holds takes it in without the trailing slash)
            if target == destination or target == prefix + base:
                found.add(source)
            if target.startswith(prefix):
                rel = target[len(prefix):]
                found.add(f"{source}/{rel}" if source else rel)  # a folder copied there: the file below it
            if "/" not in written and base == name:
                found.add(source)  # `RUN build.sh` found on PATH after `COPY build.sh /usr/local/bin/`
    return found


_VARIABLE = lazy(r"\$(?:\{[^}]*\}|[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])")
# and past a line's last `}`, where no `${…}` can close: `_VARIABLE` tried at each `${` there scans to the line's end
# (64 KiB of `${`: 1.2 CPU-s; cost round 40)
_UNCLOSED_VARIABLE = lazy(r"\$(?:[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])")
_WILD = lazy(r"[*?\x00]")


def _wild_commands(run: str) -> list[str]:
    """The files a RUN line may run by a path with a variable part or a glob, variables as NUL: a command's first
    word (`/scripts/${V}.sh`, `$D/prod.sh`), the words a `for … in` loops over, `run-parts DIR` (`DIR/*`)."""
    out = []
    closed = run.rfind("}") + 1  # no match crosses it: a `${…}` ends at a `}`, and a name or `$x` at none
    for part in _SEPARATORS.split(_VARIABLE.sub("\x00", run[:closed]) + _UNCLOSED_VARIABLE.sub("\x00", run[closed:])):
        words = [w for w in _words(part) if w not in ("(", ")", "{", "}")]
        if words[:1] == ["run-parts"]:
            out += [f"{w.rstrip('/')}/*" for w in words[1:] if not w.startswith("-")]
            continue
        if len(words) > 2 and words[0] == "for" and "in" in words:
            out += [w for w in words[words.index("in") + 1:] if _WILD.search(w) and "/" in w]
            continue
        while words and (words[0] in _PREFIXES or _ASSIGNMENT.match(words[0]) or words[0].startswith("-")):
            words.pop(0)
        name = words[0].rpartition("/")[2] if words else ""
        if words and _WILD.search(words[0]) and ("/" in words[0] and name.strip("\x00*?.")
                                                 or name.lower().endswith(_SCRIPT_TYPES)):
            out.append(words[0])  # a path with a literal name, or a script type: `$INSTALLER`, `${APP}-bin` are not
    return out


def _wild_sources(workdir: str, command: str, copies: list[tuple[list[str], str, bool]]) -> set[Wild]:
    """(command, repository folder, name pattern) for each COPY whose destination holds what `command` may name."""
    first = _WILD.search(command)
    assert first is not None
    head = command[:first.start()]
    anchored = bool(head)
    prefix = _absolute(workdir, head.rpartition("/")[0] or ".") if anchored and "/" in head else workdir
    if not anchored:
        prefix = "/"
    name = command.rpartition("/")[2]
    if "\x00" in name:
        name = "\x00" + name.rpartition("\x00")[2]  # the variable may hold folders: the name follows its last one
    pattern = "".join(".*" if c == "\x00" else "[^/]*" if c == "*" else "[^/]" if c == "?" else re.escape(c)
                      for c in name)
    shown = command.replace("\x00", "$…")
    found: set[Wild] = set()
    for sources, destination, _into in copies:
        below = prefix == destination or prefix.startswith(destination.rstrip("/") + "/")
        above = destination.startswith(prefix.rstrip("/") + "/") or prefix == "/"
        for source in sources:
            if below:
                rel = prefix[len(destination):].strip("/")
                found.add((shown, f"{source}/{rel}".strip("/") if rel else source, pattern))
            elif above:
                found.add((shown, source, pattern))
    return found
