"""Whether a program CI runs hands what a read call reads to something that runs it (attack 41; datawords.unread's
guard, ciruns.named_in calls it once a text).

datawords.unread lowers a read call's literal path to data (`File.read('lib/x/version.rb')` in a Rakefile) unless the
line runs what it read. The value also travels: `s = open('tools/x.py').read()` then `exec(s)` on the next line,
`with open(x) as f:` then `exec(f.read())`, `src = File.read(x)` then `binding.eval(src)`, a method that returns the
read then a `system` of the method, `subprocess.run(['bash'], stdin=open(x))`. Each runs the file's text in the job.

The flow is followed through names, not proven: the names a read line binds (`s = …`, `const s = …`, `as f`, a block's
`|f|`; where it binds none, the function it stands in), then the names each line mentioning one of them binds (up to
MAX_HOPS hops); a line that mentions one and calls a runner (RUNNERS: an evaluator, a loader, a process launcher, a
dynamic call such as `send` or `getattr`) runs the read. A text with no runner at all reads data only.
"""

from __future__ import annotations

import re

from gatekeeper.lazy_pattern import lazy

__all__ = ["RUNNERS", "runs_read"]

# What runs text or a file it is handed: evaluators (a method too: `binding.eval`, `vm.runInThisContext`), loaders
# (`load`/`require`/`compile` only as functions: a JSON module's load of a file and `re.compile(x)` read data), process
# launchers, and the dynamic calls that reach any of them by a computed name (`Kernel.send`, `getattr(builtins, …)`)
RUNNERS = lazy(r"(?<![\w$])(?:eval|exec|execfile|instance_eval|class_eval|module_eval|instance_exec|class_exec|"
               r"Function|runInThisContext|runInNewContext|runInContext|Script|compileFunction|run_path|run_module|"
               r"exec_module|import_module|__import__|spawn|spawnSync|execSync|execFile|execFileSync|fork|system|"
               r"popen|popen2|popen3|Popen|capture2|capture2e|capture3|subprocess|check_call|check_output|getoutput|"
               r"getstatusoutput|send|public_send|__send__|getattr|builtins|method|binding|sh)(?![\w$])|"
               r"(?<![\w$.])(?:load|require|require_relative|compile)(?![\w$])|%x|`")
_READ = lazy(r"(?<![\w.])(?:(?:File|IO)\.(?:read|readlines|binread|foreach|open)|(?:fs\.|fsp\.|fs\.promises\.)?+"
             r"(?:readFile|createReadStream)(?:Sync)?+|open|read_text|read_bytes)[ \t]*+\(")
# the names a line binds: an assignment's targets, `with … as f`, `for x in`, a Ruby block's `|f|`
_ASSIGNED = lazy(r"^[ \t]*+(?:(?:const|let|var|local|my|our|export)[ \t]++)?+([A-Za-z_$][\w$]*+(?:[ \t]*+,[ \t]*+"
                 r"[A-Za-z_$][\w$]*+)*+)[ \t]*+(?:[-+*/|&]|\|\||&&|\?\?)?+=(?![=~>])")
_AS = lazy(r"(?<![\w$])(?:as|for)[ \t]++([A-Za-z_]\w*+)|\|[ \t]*+([A-Za-z_]\w*+)[ \t]*+\|")
_DEFINES = lazy(r"^[ \t]*+(?:def|function|async[ \t]++function|func|sub)[ \t]++(?:self\.)?+([A-Za-z_$][\w$]*+)")
MAX_HOPS = 8  # names passed on from a read (past them: runs, fail closed)
MAX_NAMES = 64


def runs_read(text: str) -> bool:
    """Whether `text` may run what one of its read calls reads (module docstring); False where it reads nothing or
    runs nothing."""
    if RUNNERS.search(text) is None or _READ.search(text) is None:
        return False
    lines = text.splitlines()
    tainted: set[str] = set()
    defined = ""
    for line in lines:
        defined = hit[1] if (hit := _DEFINES.match(line)) is not None else defined
        if _READ.search(line) is None:
            continue
        if RUNNERS.search(line) is not None:
            return True
        bound = _binds(line)
        if not bound and not defined:
            return True  # its value goes where no name follows it (an argument spread over lines): fail closed
        tainted |= bound or {defined}
    for _ in range(MAX_HOPS):
        if len(tainted) > MAX_NAMES:
            return True
        mention = re.compile(r"(?<![\w$])(?:" + "|".join(re.escape(name) for name in sorted(tainted)) + r")(?![\w$])")
        grown = set(tainted)
        for line in lines:
            if mention.search(line) is not None:
                if RUNNERS.search(line) is not None:
                    return True
                grown |= _binds(line)
        if grown == tainted:
            return False
        tainted = grown
    return True


def _binds(line: str) -> set[str]:
    """The names `line` binds."""
    names = {name.strip() for hit in _ASSIGNED.finditer(line) for name in hit[1].split(",")}
    return names | {name for hit in _AS.finditer(line) for name in hit.groups() if name}
