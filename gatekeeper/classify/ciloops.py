"""What a CI command runs through a loop, a `find -exec`, `run-parts` or the checkout's root variable (red team 12,
second round; tests/test_redteam12_ci_loops.py).

The files-CI-runs reader (ciruns.py) takes a glob for a filter (`paths: ['**/*.sh']`) and names nothing by it. A glob a
command *runs* is another thing: `for f in tools/ci/*.sh; do bash "$f"; done`, `find hooks -name '*.sh' -exec bash {}
\\;` and `run-parts tools/hooks.d` run every file it matches, so an edit of any of them is an edit of the job. Only a
loop whose body runs its variable (at a command's place, or after an interpreter: `bash "$f"`, `"$f"`, `. "$f"`) counts:
`for f in *.sh; do shellcheck "$f"; done` reads the files, it does not run them. And a path written from the checkout's
root variable (`${{ github.workspace }}/tools/release`, `$CI_PROJECT_DIR/bin/x`, Azure's `$(Build.SourcesDirectory)`)
is the path from the root: `rooted` rewrites the variable to `.` before the words are read (an extension-less script
named so was not found). Since the cileft64 round also what a command lists and then runs: a loop over listed paths
(`for s in tools/a tools/b; do ./$s; done`, `for f in $(find ci -name '*.sh'); do sh $f; done`, a variable holding
`$(ls ci/*.sh)`: `listed`, read by runvars.values), and `find`/`ls` piped into `xargs` with an interpreter or `{}`
(`| xargs -n1 bash`) or into `while read f` whose body runs `$f`; `| xargs shellcheck` reads the files. Since the
eightieth set also PowerShell's listing piped into a block that runs each file (`Get-ChildItem "$PSScriptRoot\\*.ps1"
-Recurse | % { & $_ }`, `-Path DIR -Filter *.ps1`, `. $_`, `& $_.FullName`: AArnott's Library.Template, whose
pipelines run `tools/artifacts/_all.ps1` and `tools/variables/_define.ps1`); `| % { Write-Host $_.Name }` runs none.
"""

from __future__ import annotations

import itertools
import posixpath
import re

from gatekeeper.classify.wrappers import innermost
from gatekeeper.lazy_pattern import lazy

__all__ = ["globbed", "listed", "rooted"]

# PowerShell's listing piped into a script block (`Get-ChildItem ARGS | % {`, `|ForEach-Object {`), and a block that
# runs the item it is handed (`& $_`, `. $_`, `& $_.FullName`, `$x = & $_`)
_PS_LIST = lazy(r"(?<![\w-])(?:Get-ChildItem|gci|dir|ls)(?![\w-])([^|\n]{0,512}+)\|[ \t]*+(?:%|ForEach-Object|foreach)"
                r"[ \t]*+\{", re.IGNORECASE)
_PS_RUNS_ITEM = lazy(r"(?:^|[\s;{(=])[&.][ \t]++\$_(?:\.FullName)?+(?![\w.])")
_PS_OWN = lazy(r"^\$(?:PSScriptRoot|\{PSScriptRoot\})(?=/|$)")
_PS_WORD = lazy(r"""'[^'\n]*+'|"[^"\n]*+"|[^\s'"]++""")

# An environment variable as a shell (`$X`, `${X}`), PowerShell (`$env:X`, `${env:X}`) or cmd (`%X%`) spells it, its
# name in any case as PowerShell and cmd read it (attack 53: a Windows job's `& $env:GITHUB_WORKSPACE/scripts/x.ps1`
# named nothing)
_VARIABLE = r"(?:\$\{?(?i:env:)?+|%)"
# The checkout's root and an action's own folder, as a GitHub expression or a CI system's variable (the one list of
# them: ciforms.rooted marks a workflow's chosen folders after these are written as `.`; ciruns.bases resolves `.`).
_ROOT_TEXT = (r"\$\{\{\s*(?:github\.(?:workspace|action_path)|env\.GITHUB_(?:WORKSPACE|ACTION_PATH))\s*\}\}"
              r"|" + _VARIABLE + r"(?i:GITHUB_WORKSPACE|GITHUB_ACTION_PATH|CI_PROJECT_DIR|CI_WORKSPACE"
              r"|BUILDKITE_BUILD_CHECKOUT_PATH|CIRCLE_WORKING_DIRECTORY|TRAVIS_BUILD_DIR|DRONE_WORKSPACE"
              r"|BITBUCKET_CLONE_DIR|CODEBUILD_SRC_DIR|BUILD_SOURCESDIRECTORY|SYSTEM_DEFAULTWORKINGDIRECTORY)\b[}%]?"
              r"|\$\((?:Build\.SourcesDirectory|System\.DefaultWorkingDirectory)\)"
              r"|\$\{?CI_BUILDS_DIR\}?/\$\{?CI_PROJECT_PATH\b\}?")  # GitLab's project folder spelt whole
_ROOT = lazy(_ROOT_TEXT)
# The folder the checkout lands in (GitHub's `runner.workspace`, `/home/runner/work/app`, holds `app/`, the checkout;
# Azure's agent build folder and pipeline workspace hold `s/`; `$(dirname "$GITHUB_WORKSPACE")`) written as `..`,
# GitLab's builds folder as the `/builds` it is and a home folder as `~` (attack 53): a path through any of them comes
# back into the checkout through its own folder's name (ciruns.resolved, checkoutpaths.reentered) or ends with a path of
# it (checkoutpaths.tails)
_ABOVE = lazy(r"\$\{\{\s*(?:runner\.workspace|env\.RUNNER_WORKSPACE)\s*\}\}"
              r"|" + _VARIABLE + r"(?i:RUNNER_WORKSPACE|AGENT_BUILDDIRECTORY|PIPELINE_WORKSPACE)\b[}%]?"
              r"|\$\((?:Agent\.BuildDirectory|Pipeline\.Workspace)\)"
              r"|\$\(dirname[ \t]++(['\"]?+)(?:" + _ROOT_TEXT + r"|\$\{?PWD\}?|\$\(pwd\))\1\)")
_BUILDS = lazy(_VARIABLE + r"(?i:CI_BUILDS_DIR)\b[}%]?")
_HOME = lazy(_VARIABLE + r"(?i:HOME)\b[}%]?(?=[/\\])|\$\{\{\s*env\.HOME\s*\}\}(?=/)")
_FOR = lazy(r"\bfor[ \t]++([A-Za-z_]\w{0,63})[ \t]++in[ \t]++([^;\n]{1,1000})")
_RUNNER = r"(?:(?:ba|z|k|da)?sh|source|\.|python[0-9.]*|node|ruby|perl|pwsh|php|exec|sudo|command)"
# launchers and options bounded (attack 37: unbounded, each `-exec` of a line of them without `{}` read the rest of the
# line again: 64 KiB 3.9 CPU-s, 256 KiB ~60)
_EXEC = lazy(r"-exec(?:dir)?[ \t]++(?:" + _RUNNER + r"[ \t]++){0,8}+(?:-[-\w]*[ \t]++){0,32}+['\"]?\{\}")
_DONE = lazy(r"\bdone\b")
_BODY = 4096  # a loop's body read for what it runs, at most
# what may stand before a variable a command runs: the start of a command, launchers and an interpreter, a quote, `./`
# (also a condition's command: `if bash "$t" &> /dev/null; then`, spf13/pflag's verify/all.sh, the seventy-fifth set);
# a `(` opens a subshell or a substitution, not a bash array's elements (`bad+=("$f")`, `all=( "$f" )`: bomctl's
# header check collects the Go files its loop reads; cileft65 found 91 of them over-claimed)
_RUNS_BEFORE = lazy(r"(?:^|[;&|]|(?<!=)\(|\bdo|\bthen|\belse|\bif|\belif|\bwhile|\buntil)[ \t]*+(?:" + _RUNNER
                    + r"[ \t]++(?:-\S+[ \t]++)*)*"
                          r"['\"]?(?:\./)?\Z")
_RUNNER_WORD = lazy(_RUNNER)
_NAME = lazy(r"-i?name[ \t]++['\"]?([^'\"\s]+)")
_RUN_PARTS = lazy(r"\brun-parts[ \t]++(?:-[^\s]+[ \t]++)*([^\s;|&'\"]+)")
_GLOB = lazy(r"^['\"]?[\w./-]*(?:\*|\?|\[[^\]/]+\])[\w./*?-]*['\"]?;?$")  # `tools/*.sh`, `hooks/[0-9]*`
# what a command lists (cileft64): `$(ls ci/*.sh)`, `` `ls ci` ``, `$(find ci -name '*.sh')`, `git ls-files '*.sh'` (its
# pathspecs as ls's words: cileft65), and the same piped into a
# command that runs each line (`| xargs -n1 bash`, `| while read -r f; do "$f"; done`)
_LISTING = lazy(r"\$\((ls|find|git[ \t]++ls-files)[ \t]++([^()`\n]{0,512}+)\)"
                      r"|`(ls|find|git[ \t]++ls-files)[ \t]++([^()`\n]{0,512}+)`")
_PIPED = lazy(r"(?<![\w-])(ls|find|git[ \t]++ls-files)[ \t]++([^|;&()`\n]{0,512}+)\|[ \t]*+"
                    r"(?:xargs\b([^|;&\n]{0,512}+)"
                    r"|while[ \t]++read\b(?:[ \t]++-\w++)*+[ \t]++(\w{1,64}+))")
_XARGS_REPLACE = lazy(r"(?<![\w-])xargs[ \t]++([^\n]{0,512}+)")
_COMMAND_END = lazy(r"""'[^']*+'?|"[^"]*+"?|([|;&])""")  # a quoted part, or an operator that ends a command
_XARGS_VALUES = frozenset({"-n", "-P", "-L", "-d", "-s", "-E", "-a", "--max-args", "--max-procs", "--delimiter"})
_LITERAL = lazy(r"[\w.-]++(?:/[\w.-]++)++")  # a loop's word that is a path (`tools/a`), not `$x` or `1`
MAX_LOOPS = 32  # loops with a glob whose bodies are read in one text (past it: each later loop's globs count)
MAX_MENTIONS = 256  # mentions of a loop's variable read in its body
_CONTINUED = lazy(r"\\\r?\n")  # a line continued on the next (`for f in \` then the words)


def _runs_variable(text: str, var: str) -> bool:
    """Whether a command of `text` (a loop's body) runs `$var` (or `${var}`): at a command's place, or after an
    interpreter. Past MAX_MENTIONS mentions it may (fail closed: review12 found `echo "step: $f"` lines before the
    `bash "$f"` past the bound of 32 that was here, and a body of nothing but `$f` costs a search each)."""
    mentions = 0
    for spelled in (f"${var}", f"${{{var}}}"):
        at = text.find(spelled)
        while at != -1:
            mentions += 1
            if mentions > MAX_MENTIONS:
                return True
            end = at + len(spelled)
            if end == len(text) or not (text[end].isalnum() or text[end] == "_"):
                start = text.rfind("\n", max(0, at - 200), at) + 1  # the line before it, its last 200 at most
                if _RUNS_BEFORE.search(text[max(start, at - 200):at]) is not None:
                    return True
            at = text.find(spelled, end)
    return False


def rooted(text: str) -> str:
    """`text` with the checkout's root (and an action's own folder) written as `.`, the folder above it as `..`,
    GitLab's builds folder as `/builds` and a home folder as `~`."""
    if "$" not in text and "%" not in text:
        return text
    return _HOME.sub("~", _BUILDS.sub("/builds", _ROOT.sub(".", _ABOVE.sub("..", text))))


def globbed(text: str) -> list[str]:
    """The globs (`*`, `?`, `[...]` kept) of the files `text`'s commands run by a loop, `find -exec` or `run-parts`
    (a folder: every file below it, `dir/*`)."""
    if "for" not in text and "-exec" not in text and "run-parts" not in text and "|" not in text \
            and "xargs" not in text:
        return []
    found: list[str] = []
    text = listed(_CONTINUED.sub(" ", text) if "\\" in text else text)
    loops = [(loop, globs) for loop in _FOR.finditer(text)
             if (globs := [word.strip("'\"") for word in loop[2].split()
                           if _GLOB.search(word) is not None or _LITERAL.fullmatch(word.strip("'\"")) is not None])]
    for loop, globs in loops[:MAX_LOOPS]:  # a program's `for x in items:` has no glob: it is not read further
        done = _DONE.search(text, loop.end(), loop.end() + _BODY)
        if _runs_variable(text[loop.end():done.start() if done else loop.end() + _BODY], loop[1]):
            found += globs
    found += [glob for _, globs in loops[MAX_LOOPS:] for glob in globs]  # bodies past the bound unread: they may run
    for run in itertools.islice(_EXEC.finditer(text), MAX_LOOPS) if "-exec" in text else ():
        start = text.rfind("\n", 0, run.start()) + 1
        at = text.rfind("find ", start, run.start())  # the `find` whose `-exec` runs each file it lists
        if at != -1 and (at == 0 or not text[at - 1].isalnum()):
            options = text[at + 5:run.start()]
            folder = options.split()[0] if options.split() else "."
            name = _NAME.search(options)  # every file below the folder, or the `-name` ones
            found.append(posixpath.join(folder.strip("'\"").rstrip("/"), "*" + name[1] if name else "*"))
    for piped in itertools.islice(_PIPED.finditer(text), MAX_LOOPS) if "|" in text else ():
        if piped[4] is not None:  # `| while read f; do "$f"; done`
            done = _DONE.search(text, piped.end(), piped.end() + _BODY)
            runs = _runs_variable(text[piped.end():done.start() if done else piped.end() + _BODY], piped[4])
        else:  # `| xargs [options] bash`, `| xargs -I{} sh {}`: each line is a command's file
            rest = piped[3].split()
            words = [word for before, word in zip(["", *rest], rest, strict=False)
                     if not word.startswith("-") and before not in _XARGS_VALUES]
            runs = bool(words) and (_RUNNER_WORD.fullmatch(words[0]) is not None or "{}" in words[0])
        found += _listing(piped[1], piped[2]) if runs else []
    found += _replaced(text) if "xargs" in text else []
    if "run-parts" in text:
        found += [f"{folder.rstrip('/')}/*" for folder in _RUN_PARTS.findall(text)[:MAX_LOOPS]]
    found += _ps_listed(text) if "|" in text else []
    return [glob for glob in found if glob.strip("./*")]


def _ps_listed(text: str) -> list[str]:
    """The globs of the files a PowerShell listing hands to a block that runs each (`Get-ChildItem X | % { & $_ }`)."""
    found: list[str] = []
    for listing in itertools.islice(_PS_LIST.finditer(text), MAX_LOOPS):
        if _PS_RUNS_ITEM.search(text, listing.end(), listing.end() + _BODY) is None:
            continue
        path, name, recurse, words = "", "", False, _PS_WORD.findall(listing[1])
        for before, word in zip(["", *words], words, strict=False):
            value = _PS_OWN.sub(".", word.strip("'\"").replace("\\", "/"))  # the script's folder: `.`
            if word.lower() == "-recurse":
                recurse = True
            elif before.lower() in ("-path", "-literalpath") or not word.startswith("-") and not before.startswith("-"):
                path = path or value
            elif before.lower() in ("-filter", "-include"):
                name = value
        if path:
            glob = f"{path.rstrip('/')}/{name or '*'}" if name or not any(c in path for c in "*?[") else path
            folder, _, base = glob.rpartition("/")
            found += [glob, f"{folder}/**/{base}"] if recurse and folder else [glob]
    return found


def _replaced(text: str) -> list[str]:
    """The globs of the files an interpreter `xargs -I R` starts runs, each input line read in R's place (`echo gen
    | xargs -I{} sh tools/{}`, `xargs -i bash tools/{}`, `--replace=% env sh tools/%`): attack 43; the input is
    anything."""
    found = []
    for hit in itertools.islice(_XARGS_REPLACE.finditer(text), MAX_LOOPS):
        words = _unquoted_part(hit[1]).split()
        token, at = "", 0
        while at < len(words) and words[at].startswith("-") and not token:
            word, at = words[at], at + 1
            if word == "-I" and at < len(words):
                token, at = words[at], at + 1
            elif word.startswith(("-I", "--replace=")):
                token = word.partition("=")[2] if word.startswith("--") else word[2:]
            elif word == "--replace" or word.startswith("-i"):  # `--replace`'s value only after `=`
                token = "{}" if word == "--replace" else word[2:] or "{}"
            elif word in _XARGS_VALUES:
                at += 1
        while at < len(words) and words[at].startswith("-"):
            at += 1 + (words[at] in _XARGS_VALUES)
        # behind `env`, `sudo`, `timeout 60`; the replacement is made in the arguments, not the program's name
        command = innermost([word.strip("'\"") for word in words[at:]])
        if token and command and _RUNNER_WORD.fullmatch(command[0]) is not None:
            found += [word.replace(token, "*") for word in command[1:] if token in word and "/" in word]
    return found


def _unquoted_part(line: str) -> str:
    """`line` up to its first operator outside quotes (`sh -c 'a; b' | c` is `sh -c 'a; b' `)."""
    for hit in _COMMAND_END.finditer(line):
        if hit[1] is not None:
            return line[:hit.start()]
    return line


def listed(text: str) -> str:
    """`text` with what a command substitution lists written as its globs (`$(ls ci/*.sh)`: `ci/*.sh`)."""
    if "ls" not in text and "find" not in text:
        return text  # `git ls-files` holds `ls` too
    return _LISTING.sub(lambda hit: " ".join(_listing(hit[1] or hit[3], hit[2] or hit[4])) or hit[0], text)


def _listing(command: str, words: str) -> list[str]:
    """The globs of the files `ls WORDS`, `git ls-files WORDS` or `find WORDS` lists (a folder: every file below it;
    a pathspec's `*` crosses folders as the glob's does)."""
    if command == "find":
        parts = words.split()
        folder = parts[0].strip("'\"").rstrip("/") if parts and not parts[0].startswith("-") else "."
        name = _NAME.search(words)
        return [posixpath.join(folder, "*" + name[1] if name else "*")]
    paths = [word.strip("'\"").rstrip("/") for word in words.split() if not word.startswith("-")]
    return [path if _GLOB.search(path) is not None else f"{path}/*" for path in paths if "$" not in path]
