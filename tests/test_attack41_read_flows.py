"""Attack 41: a program CI runs reads a file with a literal path (data since cileft67, datawords.unread) and runs what
it read on another line, through a name, a function or a method the line-wise guard did not know.

`s = open('tools/x.py').read()` then `exec(s)`, `with open(x) as fh:` then `exec(fh.read())`, `compile` of a variable,
`getattr(builtins, 'ex' + 'ec')`, `subprocess.run(['python3'], stdin=open(x))`, Node's `vm.runInThisContext(s)` and
`(0, eval)(s)`, Ruby's `binding.eval(src)`, `Kernel.public_send('ev' + 'al', …)`, `system(File.read(x))`. On main
7022fb12 each named nothing, and the gated edit of the read file exited 0. Real python3 and node run the read file in
every Python and Node form (ran.txt); Ruby is not installed here (its forms are Ruby's documented calls).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from citools import RUN_WORKFLOW, named_paths
from cpucost import assert_linear, repeated
from gitrepo import two_commits
from incli import tree_gate

from gatekeeper.classify import readflows

# (the program's path, its text; {f} the file it reads, whose kind is the path's extension)
PY = [
    "s = open('{f}').read()\nexec(s)\n",
    "src = open('{f}').read()\ncode = compile(src, 'x', 'exec')\nexec(code)\n",
    "with open('{f}') as fh:\n    text = fh.read()\nexec(text)\n",
    "with open('{f}') as fh:\n    exec(fh.read())\n",
    "import builtins\ngetattr(builtins, 'ex' + 'ec')(open('{f}').read())\n",
    "import subprocess\nsubprocess.run(['python3', '-c', open('{f}').read()], check=True)\n",
    "import subprocess\nsubprocess.run(['python3'], stdin=open('{f}'), check=True)\n",
    "import os, shlex\nbody = open('{f}').read()\nos.system('python3 -c ' + shlex.quote(body))\n",
    "def body():\n    return open('{f}').read()\n\n\nexec(body())\n",
    "a = open('{f}').read()\nb = a\nc = b.strip()\nexec(c)\n",
    "exec(\n    open('{f}').read()\n)\n",
    "box = {{}}\nbox['s'] = open('{f}').read()\nexec(box['s'])\n",
    "import types\nm = types.ModuleType('m')\n"
    "exec(compile(open('{f}', encoding='utf-8').read(), 'm', 'exec'), m.__dict__)\n",
]
NODE = [
    "const fs = require('fs');\nconst s = fs.readFileSync('{f}', 'utf8');\nnew Function(s)();\n",
    "const fs = require('fs');\nconst vm = require('vm');\nconst s = fs.readFileSync('{f}', 'utf8');\n"
    "vm.runInThisContext(s);\n",
    "const fs = require('fs');\nconst s = fs.readFileSync('{f}', 'utf8');\n(0, eval)(s);\n",
    "const fs = require('fs');\nconst vm = require('vm');\nconst code = fs.readFileSync('{f}', 'utf8');\n"
    "new vm.Script(code).runInThisContext();\n",
    "const fs = require('fs');\nlet text = fs.readFileSync('{f}', 'utf8');\nconst run = text.trim();\n"
    "global.eval(run);\n",
    "const {{ readFileSync }} = require('fs');\nconst src = readFileSync('{f}', 'utf8');\nsetTimeout(src.length ? "
    "() => eval(src) : null, 0);\n",
]
RUBY = [
    "s = File.read('{f}')\neval(s)\n", "src = File.read('{f}')\nbinding.eval(src)\n",
    "Kernel.public_send('ev' + 'al', File.read('{f}'))\n", "system(File.read('{f}'))\n",
    "puts `#{{File.read('{f}')}}`\n",
    "code = File.read('{f}')\nKernel.send(:eval, code)\n", "def body\n  File.read('{f}')\nend\ninstance_eval(body)\n",
    "task :gen do\n  s = IO.read('{f}')\n  eval s\nend\n",
    "lines = File.readlines('{f}')\nlines.each {{ |l| system(l) }}\n",
]
FORMS = [("ci/run.py", "tools/x.py", form) for form in PY] + [("ci/run.js", "tools/x.js", form) for form in NODE] + \
    [("Rakefile", "tools/x.rb", form) for form in RUBY]
# a read whose value no runner takes: data still (a version for a tag, a length, a JSON document)
STILL_DATA = [
    ("Rakefile", "tools/x.rb",
     "VERSION = File.read('{f}')[/\\d+/]\ntask :release do\n  sh \"gem build acme.gemspec\"\nend\n"),
    ("ci/run.py", "tools/x.py", "import subprocess\nversion = open('{f}').read().strip()\nsubprocess.run(['true'])\n"),
    ("ci/run.py", "tools/x.py", "import json, subprocess\nmeta = json.load(open('{f}'))\nsubprocess.run(['true'])\n"),
    ("ci/run.js", "tools/x.js", "const fs = require('fs');\nconst pkg = fs.readFileSync('{f}', 'utf8');\n"
                                "console.log(pkg.length);\nrequire('child_process').execSync('true');\n"),
    ("ci/run.py", "tools/x.py", "import re\ntext = open('{f}').read()\nprint(re.compile('x').search(text))\n"),
]
HELPERS = {".py": "open('ran.txt', 'w').write('1')\n", ".rb": "File.write('ran.txt', '1')\n",
           ".js": "process.mainModule.require('fs').writeFileSync('ran.txt', '1');\n"}


@pytest.mark.parametrize(("program", "target", "form"), FORMS)
def test_a_read_a_runner_takes_names_the_file(program: str, target: str, form: str) -> None:
    assert target in named_paths(program, form.format(f=target)), form


@pytest.mark.parametrize(("program", "target", "form"), STILL_DATA)
def test_a_read_no_runner_takes_stays_data(program: str, target: str, form: str) -> None:
    assert target not in named_paths(program, form.format(f=target)), form


def _runs(tmp_path: Path, program: str, target: str, text: str) -> bool:
    """The truth: real python3 or node runs `text` as `program` beside the helper at `target` (ran.txt)."""
    for path, body in ((program, text.format(f=target)), (target, HELPERS[Path(target).suffix])):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(body)
    command = ["python3" if program.endswith(".py") else "node", program]
    subprocess.run(command, cwd=tmp_path, capture_output=True, timeout=60, check=False,
                   env={"PATH": os.environ["PATH"], "HOME": str(tmp_path)})
    return (tmp_path / "ran.txt").exists()


@pytest.mark.parametrize(("program", "target", "form"), [case for case in FORMS if case[0] != "Rakefile"][::2])
def test_python_and_node_run_the_read_file(tmp_path: Path, program: str, target: str, form: str) -> None:
    assert _runs(tmp_path, program, target, form), form


def test_the_look_alikes_run_nothing(tmp_path: Path) -> None:
    for at, (program, target, form) in enumerate(STILL_DATA[1:]):
        assert not _runs(tmp_path / str(at), program, target, form), form


@pytest.mark.parametrize("at", [0, 2, 7, 13, 19])
def test_the_gated_edit_needs_a_human(tmp_path: Path, at: int) -> None:
    program, target, form = FORMS[at]
    run = {"ci/run.py": "python3 ci/run.py", "ci/run.js": "node ci/run.js", "Rakefile": "bundle exec rake gen"}[program]
    base = {".github/workflows/ci.yml": RUN_WORKFLOW.format(run=run), program: form.format(f=target),
            target: HELPERS[Path(target).suffix], "README.md": "x\n"}
    _, first, second = two_commits(tmp_path, base, {target: HELPERS[Path(target).suffix] + "# more\n"})
    code, decision = tree_gate(tmp_path, first, second, None, "--enable", "deps")
    assert code == 3, decision["reasons"]


@pytest.mark.parametrize("unit", ["s = open('a').read()\nt = s\n", "x = y\n", "def f():\n    open('a')\n",
                                  "a, b = open('x').read(), 1\nexec(c)\n", "v = w\nexec(u)\n"])
def test_a_long_text_is_read_in_linear_time(unit: str) -> None:
    def read(text: str) -> object:
        return readflows.runs_read(text)

    head = "q = open('z').read()\n"
    assert_linear(read, repeated(unit, head, "exec(q2)\n"), budget=0.5)
