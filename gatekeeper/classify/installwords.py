"""What `install`, `cp`, `mv`, `ln`, `rsync` copy where and what `chmod` makes executable (read by commandlines.py).

Each program's words are read as its own option parser reads them (attack 42): a short option cluster's valued
letter takes the rest of the word or the next word (`-Dm 755`, `-vt bin`, `-Sm644` is the suffix `m644`), a long
option may be abbreviated (`--mod=755`, `--target bin`), `--` ends the options, the last mode wins; rsync's
`-t`/`-o`/`-g`/`-m` are flags. `install`'s copy is data (its source not named, ci left 68) only for a literal mode with
no execute bit: a mode in a variable, an operator followed by octal digits (`=755`) or one this reader cannot read
may run.
"""

from __future__ import annotations

from dataclasses import dataclass

from gatekeeper.lazy_pattern import lazy

__all__ = ["INSTALLERS", "copied", "installed"]

INSTALLERS = frozenset({"install", "cp", "mv", "ln", "rsync", "chmod"})
_OPERAND = lazy(r"[\w.][\w.+/-]*")  # an operand that may be a file of the repository
_SOURCE = lazy(r"[\w.*?\[][\w.+/*?\[\]-]*")  # a copy's source that may be files of the repository
_RUN_PLACE = lazy(r"(?:^|/)(?:s?bin|libexec|hooks)(?:/|$)"
                  r"|^(?:/tmp|/var/tmp|~|\$\{?(?:HOME|RUNNER_TEMP|TMPDIR)\}?)(?:/|$)")
_WORKSPACE = lazy(r"^(?:\$\{?(?:PWD|GITHUB_WORKSPACE|CI_PROJECT_DIR)\}?|\x01)/")
_MODE = lazy(r"[ugoa]*[-+=][rwxXst]*(?:,[ugoa]*[-+=][rwxXst]*)*")
_EXECUTABLE = lazy(r"^[0-7]*[1357][0-7]{0,2}$|\+[rwst]*[xX]")  # an octal mode with an execute bit, or `+x`
# a mode that gives no execute bit: octal, or symbolic whose permissions hold no `x`/`X` and no octal digits
_DATA_MODE = lazy(r"[0-7]+|[ugoa]*[-+=][rwstugo]*(?:,[ugoa]*[-+=][rwstugo]*)*")

# the short options that take a value, the long options that require one (coreutils 9 `--help`, rsync(1))
_SHORT_VALUED = {"install": "gmoSt", "cp": "St", "mv": "St", "ln": "St", "rsync": "eBfTM@"}
_LONG_VALUED = {
    "install": ("group", "mode", "owner", "suffix", "target-directory", "strip-program"),
    "cp": ("no-preserve", "suffix", "target-directory"),
    "mv": ("suffix", "target-directory"),
    "ln": ("suffix", "target-directory"),
    "rsync": ("rsh", "rsync-path", "filter", "exclude", "include", "exclude-from", "include-from", "files-from",
              "temp-dir", "partial-dir", "backup-dir", "suffix", "chmod", "chown", "usermap", "groupmap",
              "compare-dest", "copy-dest", "link-dest", "log-file", "log-file-format", "out-format", "password-file",
              "block-size", "max-size", "min-size", "max-delete", "timeout", "contimeout", "port", "sockopts",
              "bwlimit", "modify-window", "remote-option", "iconv", "checksum-choice", "compress-choice",
              "compress-level", "skip-compress", "info", "debug", "stop-after", "stop-at", "write-batch",
              "only-write-batch", "read-batch", "protocol", "outbuf", "address", "max-alloc", "copy-as",
              "early-input", "checksum-seed"),
}


@dataclass(frozen=True, slots=True)
class Words:
    """An installer's words as its parser reads them."""

    operands: tuple[str, ...]
    target: str  # the `-t`/`--target-directory` folder, "" without one
    mode: str | None  # install's last `-m`/`--mode`, None: its default (0755)
    directory: bool  # `install -d`: makes folders, copies nothing
    link: bool  # `ln -s`


def _long(name: str, valued: tuple[str, ...]) -> str | None:
    """The valued long option `--name` names (exactly or as a unique abbreviation), or None."""
    if name in valued:
        return name
    named = [option for option in valued if option.startswith(name)] if name else []
    return named[0] if len(named) == 1 else None


def parsed(program: str, words: list[str]) -> Words:
    """`words` (after the program's name) as `program`'s getopt reads them."""
    short, valued = _SHORT_VALUED.get(program, ""), _LONG_VALUED.get(program, ())
    operands: list[str] = []
    target, mode, directory, link, ended, at = "", None, False, False, False, 0
    while at < len(words):
        word, at = words[at], at + 1
        if ended or word == "-" or not word.startswith("-"):
            operands.append(word)
        elif word == "--":
            ended = True
        elif word.startswith("--"):
            name, equals, value = word[2:].partition("=")
            option = _long(name, valued)
            directory |= program == "install" and len(name) > 1 and "directory".startswith(name)
            link |= program == "ln" and len(name) > 1 and "symbolic".startswith(name)
            if option is not None and not equals:
                value, at = (words[at] if at < len(words) else ""), at + 1
            mode = value if option == "mode" else mode
            target = value if option == "target-directory" else target
        else:
            for place, letter in enumerate(word[1:], 2):
                if letter in short:
                    value = word[place:]
                    if not value:
                        value, at = (words[at] if at < len(words) else ""), at + 1
                    mode = value if letter == "m" else mode
                    target = value if letter == "t" else target
                    break
                directory |= program == "install" and letter == "d"
                link |= program == "ln" and letter == "s"
    return Words(tuple(operands), target, mode, directory, link)


def copied(program: str, words: list[str]) -> tuple[str, list[str], bool]:
    """(the target, the sources, whether it makes a symbolic link) of a copy, move or link; no target when it makes
    none (`install -d`, one operand)."""
    read = parsed(program, words)
    operands = [_WORKSPACE.sub("", word.rstrip(";)`")) for word in read.operands]
    if read.directory or (not read.target and len(operands) < 2):
        return "", [], read.link
    sources, target = (operands, read.target) if read.target else (operands[:-1], operands[-1])
    # a glob's copies too (`cp tools/* /opt/x/`: attack 43 reads the copy's folder as the source's)
    return target, [word for word in sources if _SOURCE.fullmatch(word) is not None], read.link


def installed(program: str, words: list[str]) -> list[str]:
    """The files `install` copies, `cp`/`mv`/`ln`/`rsync` copy into a folder programs run from (`bin`, `sbin`,
    `libexec`, git `hooks`) or a scratch one (`/tmp`, `$RUNNER_TEMP`, `$HOME`, `~`), or `chmod` makes executable:
    attack 38 (`sudo cp tools/gen /usr/local/bin/ && gen`)."""
    if program == "chmod":
        operands = [_WORKSPACE.sub("", word.rstrip(";)`")) for word in words
                    if not word.startswith("-") or _MODE.fullmatch(word) is not None]
        adds = bool(operands) and _EXECUTABLE.search(operands[0]) is not None
        return [word for word in operands[1:] if adds and _OPERAND.fullmatch(word) is not None]
    target, sources, _ = copied(program, words)
    # `install -Dm644 README.md "$PKG/usr/share/doc/"` copies data, as `cp` does (cileft68: sharkdp/bat's Debian step
    # made README.md a script and the `src/*.rs` its usage names `ci`); install's own mode, 0755, may run
    mode = parsed(program, words).mode if program == "install" else None
    data = program != "install" or (mode is not None and _DATA_MODE.fullmatch(mode) is not None
                                    and _EXECUTABLE.search(mode) is None)
    if not target or (data and _RUN_PLACE.search(target) is None):
        return []
    return sources
