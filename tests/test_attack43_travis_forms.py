"""Attack 43: the forms of `.travis.yml` attack 42's default script did not read.

Attack 42 added a language's default script where the root Travis file (or a job of `jobs: include:`) names a language
and no script. It read the first `language:` value only, as a string, of the mapping as written: a job or a top level
whose `language:` comes from a merge key (`<<: *node`, Travis' parser is YAML 1.1's, which merges), a repeated key (the
YAML parser keeps the last), a list (`language: [node_js]`), one job given as a mapping, and a script list of nothing
but empty items (`script: [null]`, `['']`, `' '`) kept the default out, and with it the file the default runs. PyYAML
is the truth for what a job's keys are after the merges; the reader takes every value of a repeated key (the safe side).
"""

from __future__ import annotations

from pathlib import Path

import yaml
from citools import one_tree_runs
from cpucost import assert_linear
from gitrepo import two_commits
from incli import tree_gate
from tables import each_case

from gatekeeper.classify import cidefaults

PACKAGE = '{"name": "x", "scripts": {"test": "node tools/test.js"}}\n'
NODE = {"package.json": PACKAGE, "tools/test.js": "console.log(1);\n"}
RAKEFILE = "task default: :spec\ntask :spec do\n  sh 'rspec'\nend\n"
RUBY = {"Rakefile": RAKEFILE}

# (the Travis file, the files, the file the default runs)
HIDDEN = [
    ("node: &node\n  language: node_js\njobs:\n  include:\n    - <<: *node\n", NODE, "tools/test.js"),
    ("node: &node\n  language: node_js\njobs:\n  include:\n    - <<: [*node]\n      os: linux\n", NODE,
     "tools/test.js"),
    ("base: &base\n  language: node_js\nnode: &node\n  <<: *base\n  dist: jammy\njobs:\n  include:\n    - <<: *node\n",
     NODE, "tools/test.js"),
    ("<<: {language: node_js}\n", NODE, "tools/test.js"),
    ("defaults: &d\n  language: node_js\n<<: *d\nscript: []\n", NODE, "tools/test.js"),
    ("language: python\nlanguage: node_js\n", NODE, "tools/test.js"),
    ("language: [node_js]\n", NODE, "tools/test.js"),
    ("language: python\njobs:\n  include:\n    language: node_js\n", NODE, "tools/test.js"),
    ("language: python\nmatrix:\n  include:\n    language: node_js\n    node_js: 20\n", NODE, "tools/test.js"),
    ("language: ruby\nscript: [null]\n", RUBY, "Rakefile"),
    ("language: ruby\nscript: ['']\n", RUBY, "Rakefile"),
    ("language: ruby\nscript: [~, '']\n", RUBY, "Rakefile"),
    ("language: ruby\nscript: ' '\n", RUBY, "Rakefile"),
    ("language: python\njobs:\n  include:\n    - language: node_js\n      script: [null]\n", NODE, "tools/test.js"),
]
# a script of its own, merged in or written, runs instead of the default; Python has none
HELD = [
    ("node: &node\n  language: node_js\n  script: node -v\njobs:\n  include:\n    - <<: *node\n", NODE,
     "tools/test.js"),
    ("s: &s\n  script: rspec\nlanguage: python\njobs:\n  include:\n    - <<: *s\n      language: node_js\n", NODE,
     "tools/test.js"),
    ("language: python\nlanguage: python\n", NODE, "tools/test.js"),
    ("language: [python]\n", NODE, "tools/test.js"),
    ("language: ruby\nscript: [rspec, null]\n", RUBY, "Rakefile"),
    ("p: &p\n  language: python\n<<: *p\n", RUBY, "Rakefile"),
]


def _merged_language(text: str) -> set[str]:
    """The languages PyYAML's reading gives the top level and the jobs (merges resolved)."""
    root = yaml.safe_load(text)
    jobs = [root] + [job for key in ("jobs", "matrix") if isinstance(root.get(key), dict)
                     for job in (lambda inc: inc if isinstance(inc, list) else [inc])(root[key].get("include", []))]
    out = set()
    for job in jobs:
        value = job.get("language") if isinstance(job, dict) else None
        out |= set(value) if isinstance(value, list) else {value} if value else set()
    return out


@each_case(("travis", "files", "path"), HIDDEN + HELD)
def test_the_forms_a_language_and_script_take(travis: str, files: dict[str, str], path: str) -> None:
    if "merge" in travis or "<<" in travis:  # the merged mapping names the language the table says it does
        assert _merged_language(travis) & {"node_js", "ruby", "python"}, travis
    runs = one_tree_runs({".travis.yml": travis, **files})
    assert isinstance(runs, dict)
    assert (path in runs) == ((travis, files, path) in HIDDEN), (travis, path)


def test_the_edited_package_script_needs_a_human(tmp_path: Path) -> None:
    base = {".travis.yml": HIDDEN[0][0], **NODE, "README.md": "x\n"}
    _, first, second = two_commits(tmp_path, base, {"tools/test.js": "require('child_process').execSync('id');\n"})
    code, decision = tree_gate(tmp_path, first, second)
    assert code == 3, decision["reasons"]


def test_merges_of_merges_cost_linear_time() -> None:
    """Each anchor merges the one before ten times (aliases share nodes: read once each, not 10^depth times)."""
    def text(depth: int) -> str:
        lines = ["a0: &a0\n  language: node_js\n"]
        lines += [f"a{n}: &a{n}\n  <<: [{', '.join([f'*a{n - 1}'] * 10)}]\n" for n in range(1, depth)]
        return "".join(lines) + f"jobs:\n  include:\n    - <<: *a{depth - 1}\n"
    assert_linear(lambda t: cidefaults.with_default(".travis.yml", t), lambda size: text(size // 92), budget=0.5)
