"""The words of a CI text that name data, not code a job runs (issue 12, the cileft66 round; ciruns.named reads them).

ciruns reads every word of a definition that is a script's path as a file CI runs: the safe side, but three kinds of
word are never run, and the blind sets found each made a file `ci` that no job runs:

- **An exclude list.** `flake8 --exclude gudpy/core/isotopes.py,gudpy/test/x.py .`, `mypy --exclude=a.py`, `pytest
  --ignore tests/slow.py`, `coverage report --omit '*/x.py'`, `isort --skip a.py`: the option's value is what the tool
  leaves out (EXCLUDES, exact option names that take a value).
- **A reading command's operands.** `VERSION=$(sed -n 's/…/\\1/p' pkg/_version.py)`, `grep -q 1.2 pkg/_version.py`,
  `sha256sum tools/x.sh`: the file is read as data (a text, a version). Only where every command of the line is a
  reader, an assignment, a test or an `echo` (READERS, _SAFE), no reader's output goes to a file or into another
  program (`cat x.sh | bash`, `cat x.sh > y.sh`: commandlines.py reads those), no `sed` script holds an `e` (sed runs
  its pattern space) and the line continues on no next one; else every word stays named (fail closed).
- **A package list's names.** A requirement (`pytest`, `tox`, `pre-commit` alone on a line of a requirements file),
  tox's `deps =`, `extras =`, `envlist =` values and a conda environment's `dependencies:` are packages, not commands:
  read as a command line they ran pytest (every `conftest.py` `ci`), tox or pre-commit. Their lines that name a file
  (`-r dev.txt`, `-e ./tools/plugin`, `./vendor/pkg`) stay (pipinstalls.py reads those too).

- **A build's input** (cileft67). `ncc build src/setup.ts`, `obuild src/index.ts`, `tsdown src/index.ts`, `esbuild
  src/x.ts --bundle`, `swag init -g routes.go`: a bundler, compiler or generator turns the product's source into an
  artefact; the source is read, not run (BUILDERS; a line of builders, readers and `rm`/`mkdir` only, as above). The
  value of an option that loads a file as the tool's own code (`-c rollup.config.mjs`, `--config`, `--plugin`,
  `--project`) stays named; a line that runs what it built (`&& node dist/x.js`), `ncc run`, `bun x.ts` are no builds,
  nor any builder of a text whose later line or step runs or enters its output (`node o.js`, `cd dist && node x.js`:
  built_runs, attack 41).
- **pyproject.toml's data keys** (pyproject_data, over-reads 1). A dependency list's `"pytest>=8",` read as a command
  ran pytest (every `conftest.py` `ci`); ruff's `per-file-ignores` keys, exclude, include and coverage lists, the
  version file a build writes name product files as data. Dropped where the text is TOML; commands, a build hook's
  `path` and a dependency line naming a path stay.
- **A program's read call** (unread). `File.read('lib/acme/version.rb')` in a Rakefile, `open('pkg/_version.py')`,
  `Path("pkg/_version.py").read_text()` (over-reads 1),
  `fs.readFileSync('src/x.ts')`: its literal path is data, unless the line hands something to `eval`, `exec`,
  `instance_eval`, `load`, `require`, `Function`, `compile` (then every word stays).

Loading stays `ci`: a settings file a tool loads, a module a program imports, a script a shell sources are code CI runs
(docs/classification.md, "ci left 66" and "ci left 67").
"""

from __future__ import annotations

import re
import tomllib

from gatekeeper.classify import nixstrings, wrappers
from gatekeeper.lazy_pattern import lazy

__all__ = ["BUILDERS", "EXCLUDES", "READERS", "built_runs", "is_package_list", "package_commands", "unread", "unrun"]

# The options whose value is a list of paths a tool leaves out (flake8, pycodestyle, mypy, black, ruff, pylint, pytest,
# coverage, isort, bandit, codespell, grep/rsync/tar, cargo's `--exclude`).
EXCLUDES = frozenset({"--exclude", "--extend-exclude", "--exclude-dir", "--exclude-dirs", "--ignore", "--ignore-glob",
                      "--ignore-paths", "--ignore-patterns", "--omit", "--skip", "--skip-glob", "--extend-skip",
                      "--extend-skip-glob", "--per-file-ignores", "--extend-ignore-paths", "--deselect",
                      "--force-exclude", "--exclude-from"})  # black's regex; rsync's and tar's file of patterns
_EXCLUDE = lazy(r"(?<![\w-])(--[a-z][a-z-]{1,30}+)(?:=|[ \t]++)(?!-)(?:'[^'\n]{0,4096}+'|\"[^\"\n]{0,4096}+\"|"
                      r"[^\s;&|)]{1,4096}+)")
# Programs that only read their operands (or print them): a file they are handed is data. `awk` is not one (its
# program's `system()` runs lines), nor `cat … | sh` (the pipe rule), nor `source`/`.`.
READERS = frozenset({"cat", "head", "tail", "grep", "egrep", "fgrep", "rg", "sed", "wc", "cut", "sort", "uniq", "diff",
                     "cmp", "sha256sum", "sha1sum", "sha512sum", "md5sum", "shasum", "cksum", "b2sum", "stat", "file",
                     "ls", "du", "test", "[", "[[", "echo", "printf", "true", "basename", "dirname", "realpath",
                     "readlink"})
# Bundlers, compilers and generators whose operands are the product's source they build (cileft67), with the
# subcommand that builds where the program also runs things (`ncc run`, `bun x.ts`, `vite` serving); and commands that
# only remove or make folders (`rimraf dist && tsup …`)
BUILDERS: dict[str, frozenset[str] | None] = {
    **dict.fromkeys(("obuild", "tsdown", "tsup", "unbuild", "esbuild", "rollup", "rolldown", "webpack", "microbundle",
                     "tsc", "babel", "swc", "pkgroll", "bunchee", "rm", "rimraf", "mkdir"), None),
    "ncc": frozenset({"build"}), "bun": frozenset({"build"}), "vite": frozenset({"build"}),
    "parcel": frozenset({"build"}), "swag": frozenset({"init", "fmt"})}
# a builder's options whose value it loads as its own code or settings (a config, a plugin, a tsconfig): named
_LOADS = frozenset({"-c", "--config", "--configPlugin", "-p", "--plugin", "--project", "--tsconfig", "--config-file",
                    "--configFile", "--config-name", "--require", "-r", "--plugins", "--presets", "--import",
                    "--loader"})  # babel's `--plugins ./tools/p.js` (attack 41)
# a builder's option whose value is a command it runs after building (tsup's `--onSuccess "bash x.sh"`, tsdown's
# `--on-success`): no build (attack 41)
_THEN_RUNS = frozenset({"--onSuccess", "--on-success", "--onsuccess", "--exec"})
_MAY_READ = lazy(r"(?<![\w.-])(?:" + "|".join(sorted(re.escape(name) for name in {*READERS, *BUILDERS}))
                 + r")(?![\w.-])")
_REMOVERS = frozenset({"rm", "rimraf", "mkdir"})
# a builder's output option and its value (`--outfile=o.js`, `-o dist/pre`, `--outDir dist`): where what it built lands
_OUTPUT = lazy(r"(?<![\w-])(?:--outfile|--outdir|--out-dir|--outDir|--out-file|--dist-dir|--file|--output|-o|-d)"
               r"(?:=|[ \t]++)['\"]?+([\w.@+/${}-]{1,1024}+)")
MAX_OUTPUTS = 64  # builders' outputs a text names (past it: its builders' inputs stay named)
# where a later line runs it: at a command's start, after a runtime or shell (`node o.js`, `deno run`, `bash`), or
# entering it (`cd dist && node x.js`); `git diff dist`, `ls dist`, an upload's `path: dist` run nothing
_RUN_OUTPUT = (r"(?:(?:^|[;&|(`]|\$\()[ \t]*+(?:-[ \t]++)?+|(?<![\w-])(?:node|nodejs|bun|deno|run:?+|tsx|ts-node|sh|"
               r"bash|zsh|source|exec|cd|\.)[ \t]++(?:-[\w=-]*+[ \t]++)*+)")
_RUNS_TEXT = lazy(r"(?<![\w-])(?:eval|source)(?![\w-])")
# A program's read call with a literal path (Ruby, Python, Node); a line that may run what it read keeps its words
# (and pathlib's `Path("pkg/_version.py").read_text()`: the lookahead holds the read the path is made for)
_READ_CALL = lazy(r"(?<![\w.])(?:(?:File|IO)\.(?:read|readlines|binread|foreach)|(?:fs\.|fsp\.|fs\.promises\.)?+"
                  r"readFile(?:Sync)?+|open|(?:pathlib\.)?+Path(?=\([ \t]*+['\"][^'\"\n]{1,1024}+['\"][ \t]*+\)\."
                  r"(?:read_text|read_bytes|open)\())[ \t]*+\(?+[ \t]*+(['\"])([^'\"\n]{1,1024}+)\1")
_EVALS = lazy(r"(?<![\w.])(?:eval|exec|instance_eval|class_eval|module_eval|load|require|require_relative|Function|"
              r"compile|run_path|runInNewContext|runInThisContext|execfile)(?!\w)")
# A shell word before a command that runs nothing of its own (a keyword, an export of an assignment)
_SAFE = frozenset({"if", "then", "elif", "else", "fi", "!", "export", "local", "readonly", "declare", "-", "]", "]]"})
_ASSIGNMENT = lazy(r"^[A-Za-z_][A-Za-z0-9_]*\+?=")
_SEGMENT = lazy(r"(\$\(|&&|\|\||[;&|()`{}])")
_QUOTE = lazy(r"""'[^'\n]*+'|"(?:[^"\\\n]|\\.)*+\"""")
_WORD = lazy(r"""[^\s'"]++|'[^'\n]*+'|"(?:[^"\\\n]|\\.)*+\"""")
# sed's `e` command or flag (it runs the pattern space as a command) and its `w`/`W` (it writes a copy): any `e` or `w`
# a script could mean so, quoted or not (`sed e x.sh`, `sed s/^//e x.sh`, `sed -n 'w y.sh' x.sh`); read widely
# (a flag run after a `/` is read once: the run is checked to end the script, then scanned for the letter)
_SED_E = lazy(r"(?:^|[;{}\s\d/$!,=])[ewW](?:[\s;}/\\]|$)|/(?=[A-Za-z0-9]*+(?:[\s;}\\]|$))[A-Za-z0-9]*?[ewW]")
# a reader's option that writes a file or runs a program (sed's script file, sort's output and compressor, ripgrep's
# preprocessor; GNU long options may be abbreviated: `sort --out y.sh`)
_WRITES = {"sed": lazy(r"^(?:-[a-zA-Z]*f|--f)"), "sort": lazy(r"^(?:-[a-zA-Z]*o|--o|--com)"),
           "rg": lazy(r"^--pre(?!-glob)")}
# an output redirection and its target; a target that is an fd (`2>&1`) or a sink (`/dev/null`) writes no copy
_REDIRECT = lazy(r"(?:>\||>>|>)(&?+)[ \t]*+([^\s;&|<>()]*+)")
_SINKS = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr"})
_FD_COPY = lazy(r"(?<![0-9])[0-9]*+>&(?:[0-9]++|-)(?![^\s;&|<>()])")  # `2>&1`, `>&2`: no file, and its `&` no operator
# a command substitution's opening; one in a command's place runs the text it reads (`$(cat x.sh)`)
_SUBSTITUTION = ("$(", "`")
# a word that hands the words after it to a shell or a loop: `bash -c '"$2"' _ --skip ./x.sh` runs ./x.sh
_POSITIONAL = lazy(r"\$\{?+[@*0-9]|(?<![\w-])(?:for|select|xargs|parallel|-exec|-execdir|set)(?![\w-])")
_CONTINUED = ("\\", "|", "&&", "||", "(", "$(", "`")
_REQUIREMENTS = lazy(r"(?:^|[._-])(?:requirements|requires|constraints)(?:[._-][\w.-]*)?\.(?:txt|in)$"
                           r"|^(?:requirements|constraints)[\w.-]*\.(?:txt|in)$", re.IGNORECASE)
_CONDA = lazy(r"^(?:environment|conda)[\w.-]*\.ya?ml$", re.IGNORECASE)
_CONDA_LIST = lazy(r"^dependencies:[ \t]*$", re.MULTILINE)  # and a conda environment's list at its top
# tox's and setuptools' keys that hold package names, environment names or prose, not commands (tox.ini, setup.cfg)
_INI_DATA = frozenset({"deps", "extras", "envlist", "env_list", "description", "basepython", "base_python", "labels",
                       "depends", "passenv", "pass_env", "requires", "platform", "package", "skip_install",
                       "usedevelop", "use_develop", "minversion", "min_version", "skipsdist", "isolated_build",
                       "dependency_groups", "ignore_errors", "ignore_outcome", "parallel_show_output",
                       "install_requires", "setup_requires", "tests_require", "python_requires"})
# tox's interpreter keys: a value with a path (`base_python = {toxinidir}/tools/py.sh`) is a program tox runs
_INTERPRETERS = frozenset({"basepython", "base_python"})
_PATHLIKE = lazy(r"[/\\{$~]")
_INI_KEY = lazy(r"^([A-Za-z_][\w.-]*)[ \t]*[=:]")
# a TOML key (`pytest = "^8"` of a dependency table); not a key whose value is a command (`script = "…"`) or cwd
_TOML_KEY = lazy(r"^[ \t]*+(?!(?:run|script|scripts|command|commands|cmd|exec|shell|entry|entrypoint|args"
                       r"|change_dir)[ \t]*+=)(?:[\w-]++|\"[\w.-]{0,128}+\")[ \t]*+=", re.MULTILINE | re.IGNORECASE)
# pyproject.toml's keys (a dotted key's or table's last part) whose values are packages, files a tool reads or writes
# as data, or prose (over-reads 1); where one part of the key is in _PYPROJECT_TABLES, every key below it is
_PYPROJECT_PACKAGES = frozenset({"dependencies", "optional-dependencies", "dev-dependencies", "extra-dependencies",
                                 "requires", "deps", "extras"})
_PYPROJECT_DATA = _PYPROJECT_PACKAGES | {
    "exclude", "extend-exclude", "force-exclude", "include", "extend-include", "only-include", "omit", "source", "src",
    "known-first-party", "known-third-party", "known-local-folder", "version-file", "version_file", "write_to",
    "write-to", "ignore-regex", "ignore-words-list", "classifiers", "keywords", "description", "readme",
    "license-files", "packages"}
_PYPROJECT_TABLES = frozenset({"per-file-ignores", "extend-per-file-ignores", "optional-dependencies",
                               "dependency-groups", "package-data", "exclude-package-data", "shared-data",
                               "force-include", "authors", "maintainers"})
_COMMAND_TABLES = frozenset({"tasks", "scripts"})  # tables whose keys name commands (poe, Hatch, PDM, taskipy, Rye)
_TOML_HEADER = lazy(r"[ \t]*+\[\[?+([^\[\]\n]*+)\]\]?+[ \t]*+(?:#.*+)?+")
_TOML_PARTS = r"""(?:[\w-]++|"[^"\n]*+"|'[^'\n]*+')"""  # a key's part: bare, quoted or literal
_TOML_ASSIGN = lazy(rf"[ \t]*+({_TOML_PARTS}(?:[ \t]*+\.[ \t]*+{_TOML_PARTS})*+)[ \t]*+=")
_TOML_PART = lazy(r"\"[^\"]*+\"|'[^']*+'|[^.\s\"']++")
_FILE_LINE = lazy(r"^[ \t]*(?:-[rce]|--(?:requirement|constraint|editable)|\.{0,2}/|[\w.-]+/|[\w.+-]+[ \t]*@)"
                        r"|\.(?:txt|in|py|whl|gz|zip|toml|cfg)\b|\$\{?\w", re.IGNORECASE)


def unread(line: str) -> str:
    """`line` without the literal paths a program's read calls name (`File.read('lib/x/version.rb')`), unless it may
    run what it reads; else `line` itself."""
    if "(" not in line and "File." not in line and "IO." not in line or _READ_CALL.search(line) is None:
        return line
    if _EVALS.search(line) is not None:
        return line
    return _READ_CALL.sub(lambda hit: hit[0].replace(hit[2], "Q"), line)


def built_runs(lines: list[str]) -> bool:
    """Whether a line of `lines` runs what a builder's line of them built (`esbuild x.ts --outfile=o.js`, then `node
    o.js` on a later line or step): that builder's input is the job's code (attack 41), as on one line (`&& node
    o.js`, _read_only)."""
    outputs: dict[str, int] = {}
    for at, line in enumerate(lines):
        if _MAY_READ.search(line) is not None and _OUTPUT.search(line) is not None and \
                any(_builds(words) for words in [_WORD.findall(part) for part in _SEGMENT.split(line)[::2]]):
            for value in _OUTPUT.findall(line):  # the file, and its folder (`cd dist && node x.js`)
                outputs.update(dict.fromkeys((value.strip("/").removeprefix("./"), value.rpartition("/")[0]), at))
    outputs = {output: at for output, at in outputs.items() if output.strip("./")}
    if not outputs or len(outputs) > MAX_OUTPUTS:
        return bool(outputs)  # past the bound: any line may run one (fail closed)
    builders = set(outputs.values())
    run = re.compile(_RUN_OUTPUT + r"(?:\./)?+(?:" + "|".join(re.escape(output) for output in sorted(outputs))
                     + r")(?![\w.-])")
    return any(at not in builders and run.search(line) is not None for at, line in enumerate(lines))


def unrun(line: str, following: str = "", builds: bool = True) -> str:
    """`line` with the words it names as data blanked (an exclude list's value, a read-only line's operands); the rest
    as it was. `following` is the next line (a `| bash` there continues this one); `builds` False where the text runs
    what its builders build (built_runs: a builder's operands stay named)."""
    if "--" in line and _POSITIONAL.search(line) is None:
        line = _EXCLUDE.sub(_unexclude, line)
    if _MAY_READ.search(line) is None:
        return line  # most lines: no reader at all
    masked = _QUOTE.sub(_mask, line)  # `sed -n 's/(x)/\\1/p'`: a quoted `(` or `|` is no operator
    if not _read_only(line, masked, following, builds):
        return line
    return " ".join(_command_words(segment) for segment in _SEGMENT.split(masked)[::2])


def _unexclude(hit: re.Match[str]) -> str:
    """An exclude option with its value blanked; a value holding a substitution (`--exclude=`./x.sh``) as it was."""
    return hit[0] if hit[1] not in EXCLUDES or "`" in hit[0] or "$(" in hit[0] else f"{hit[1]} "


def _mask(quoted: re.Match[str]) -> str:
    """A quoted word as one plain word, unless it holds a substitution the shell runs (`"$(cat x.sh | sh)"`)."""
    text = quoted[0]
    return text if text[0] == '"' and ("$(" in text or "`" in text) else "Q"


def _read_only(line: str, masked: str, following: str, builds: bool = True) -> bool:
    """Whether every command of `line` is a reader (or a test, an echo, an assignment) whose output goes nowhere but
    the job's log or a variable."""
    stripped = masked.rstrip()
    if not stripped or stripped.endswith(_CONTINUED) or following.lstrip().startswith(("|", "&&", "||")):
        return False
    if "<(" in masked or ">(" in masked or _RUNS_TEXT.search(line) is not None:
        return False
    if any(hit[2] not in _SINKS and not (hit[1] and (hit[2].isdigit() or hit[2] == "-"))
           for hit in _REDIRECT.finditer(masked)):
        return False  # `cat x.sh > y.sh 2>/dev/null`, `cat x.sh>y.sh`: a copy a later line may run
    read = False
    parts = _SEGMENT.split(_FD_COPY.sub(" ", masked))
    for at in range(0, len(parts), 2):
        segment = parts[at]
        words = [word for word in _WORD.findall(segment) if word]
        first = next((at for at, word in enumerate(words) if word not in _SAFE and _ASSIGNMENT.match(word) is None),
                     len(words))
        if first == len(words) and at + 1 < len(parts) and parts[at + 1] in _SUBSTITUTION and \
                not segment.rstrip('"').endswith("="):
            return False  # `$(cat x.sh)`, `! "$(cat x.sh)"`: the substitution's words are a command
        words = words[first:]
        if not words:
            continue
        if not (words[0] in READERS and _reads_only(words, segment, line)) and not (builds and _builds(words)):
            return False
        read = True
    return read


def _builds(words: list[str]) -> bool:
    """Whether `words` run a builder (behind a launcher: `npx ncc build`, `pnpm exec tsup`) with its building
    subcommand."""
    start = wrappers.command_start(words)
    if start < 0 or start >= len(words) or (name := words[start].rpartition("/")[2]) not in BUILDERS:
        return False
    subcommands = BUILDERS[name]
    if any(word.partition("=")[0] in _THEN_RUNS for word in words[start + 1:]):
        return False
    return subcommands is None or start + 1 < len(words) and words[start + 1] in subcommands


def _reads_only(words: list[str], segment: str, line: str) -> bool:
    """Whether the reader command `words` (its masked `segment`, on `line`) writes no file and runs nothing."""
    name = words[0]
    if name == "sed" and (_SED_E.search(segment) or any(_SED_E.search(script[1:-1])
                                                         for script in _QUOTE.findall(line))):
        return False
    if name in _WRITES and any(_WRITES[name].match(word) for word in words[1:]):
        return False
    return name != "uniq" or sum(not word.startswith("-") for word in words[1:]) < 2  # `uniq IN OUT` writes OUT


def _command_words(segment: str) -> str:
    """The words of a segment that are no reader's or builder's operand: the command's own name, its options and the
    value of a builder's option that loads code or settings (`rollup -c rollup.config.mjs`; a reader's `uniq -c`,
    `grep -r` or `rm -r` loads nothing)."""
    words = _WORD.findall(segment)
    builds = any((name := word.rpartition("/")[2]) in BUILDERS and name not in _REMOVERS for word in words)
    return " ".join(word for at, word in enumerate(words) if word.startswith("-") or word in READERS
                    or word in BUILDERS or builds and at and words[at - 1] in _LOADS)


def is_package_list(path: str) -> bool:
    """A requirements or constraints file (`requirements-dev.txt`, `requirements/test.in`), or a conda environment
    file: a list of packages."""
    name = path.rpartition("/")[2]
    return _REQUIREMENTS.search(name) is not None or _CONDA.match(name) is not None or \
        (path.startswith("requirements/") or "/requirements/" in path) and name.endswith((".txt", ".in"))


def package_commands(path: str, text: str) -> str:
    """`text` of the file at `path` without what only names packages: a requirements file's or a conda environment's
    specifiers, tox's and setup.cfg's data keys' values, a TOML file's keys (`pytest = "^8"`); the lines that name a
    file stay."""
    name = path.rpartition("/")[2]
    if nixstrings.is_nix(name):  # a Nix file's strings, never its package lists (nixstrings.py)
        return nixstrings.commands(text)
    if name in ("tox.ini", "setup.cfg"):
        return _ini_commands(text)
    if name == "pyproject.toml":
        text = pyproject_data(text)
    if name.endswith(".toml"):
        return _TOML_KEY.sub("", text) if "=" in text else text
    if not is_package_list(path) or _CONDA.match(name) is not None and _CONDA_LIST.search(text) is None:
        return text
    return "\n".join(line if _FILE_LINE.search(line) or line.rstrip().endswith(":") and not line[:1].isspace()
                     else "" for line in text.splitlines())


def _ini_commands(text: str) -> str:
    """tox's or setup.cfg's settings without their data keys' values (a key's line and the indented lines that continue
    it; every key of `[options.extras_require]`)."""
    out: list[str] = []
    data = extras = interpreter = False
    for line in text.splitlines():
        if line[:1] in (" ", "\t") and line.strip():
            out.append("" if data and not (interpreter and _PATHLIKE.search(line)) else line)
            continue
        if line.startswith("["):
            extras = line.strip().lower() == "[options.extras_require]"
        key = _INI_KEY.match(line)
        interpreter = key is not None and key[1].lower() in _INTERPRETERS
        data = key is not None and (extras or key[1].lower() in _INI_DATA) and \
            not (interpreter and _PATHLIKE.search(line, key.end()))
        out.append(line.partition("=")[0].partition(":")[0] if data else line)
    return "\n".join(out)


def pyproject_data(text: str) -> str:
    """A pyproject.toml without the values of its data keys (_PYPROJECT_DATA, _PYPROJECT_TABLES: a requirement read as a
    command ran pytest; ruff's `per-file-ignores` named product files); a package list's line naming a path or a direct
    reference (`@`, `file:`) stays. The text itself where it is no TOML or a data value holds a multi-line string."""
    try:
        tomllib.loads(text)
    except (tomllib.TOMLDecodeError, ValueError):
        return text  # no tool reads it as TOML either: every word stays (fail closed)
    out: list[str] = []
    table: list[str] = []
    depth = 0  # the brackets a data value still has open
    packages = False
    quoted = ""  # the quotes of a multi-line string a kept line opened
    kept = 0  # the brackets a kept value (`commands = [`) still has open: its lines are no headers or keys
    for line in text.splitlines():
        if quoted:
            out.append(line)
            quoted = "" if line.count(quoted) % 2 else quoted
            continue
        if kept > 0:
            if '"""' in line or "'''" in line:
                return text
            kept += _depth(line)
            out.append(line)
            continue
        if depth > 0:
            if '"""' in line or "'''" in line:
                return text
            depth += _depth(line)
            out.append(line if packages and ("/" in line or "@" in line or "file:" in line) else "")
            continue
        if (header := _TOML_HEADER.fullmatch(line)) is not None:
            table = _TOML_PART.findall(header[1])
            out.append(line)
            continue
        if line.lstrip().startswith("["):
            return text  # a header this reader cannot split (`[tool.poe.tasks."a]"]`): every word stays (attack 43)
        if (assign := _TOML_ASSIGN.match(line)) is not None:
            parts = [part.strip("\"'") for part in (*table, *_TOML_PART.findall(assign[1]))]
            # a task or script table's keys are commands, whatever their names (`[tool.poe.tasks] readme = "…"`,
            # `[tool.hatch.envs.authors.scripts]`: attack 43)
            if (parts[-1] in _PYPROJECT_DATA or any(part in _PYPROJECT_TABLES for part in parts)) \
                    and _COMMAND_TABLES.isdisjoint(parts[:-1]):
                value = line[assign.end():]
                if '"""' in value or "'''" in value:
                    return text
                depth = _depth(value)
                packages = any(part in _PYPROJECT_PACKAGES or part == "dependency-groups" for part in parts)
                # the key goes too: `lint.per-file-ignores."src/x/venv.py" = [...]` names the file in its key
                out.append(line if packages and ("/" in value or "@" in value) else "")
                continue
        quoted = next((quotes for quotes in ('"""', "'''") if line.count(quotes) % 2), "")
        kept = _depth(line[assign.end():]) if assign is not None and not quoted else 0
        out.append(line)
    return text if depth > 0 or kept > 0 else "\n".join(out)


def _depth(value: str) -> int:
    """The brackets and braces `value` opens less those it closes, outside its strings and its comment."""
    depth = 0
    quote = ""
    escaped = False
    for char in value:
        if quote:
            if escaped:
                escaped = False
            elif char == "\\" and quote == '"':
                escaped = True
            elif char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
        elif char == "#":
            break
        elif char in "[{":
            depth += 1
        elif char in "]}":
            depth -= 1
    return depth
