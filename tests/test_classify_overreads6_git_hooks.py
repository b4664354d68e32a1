"""Over-reads 6, `other` read as `src`: a git hook kept outside a hooks folder (issue 12; the eighty-first and
eighty-second sets: infection's `devTools/pre-push`, re2's `lib/git/commit-msg.hook`).

git runs a client-side hook by its name (`pre-push`, `commit-msg`, ...) once a person links or copies it into
`.git/hooks/` or points `core.hooksPath` at its folder; the path rules knew such names only in `.husky/`, `.githooks/`
and a `hooks/` folder. The sets label every git hook `other` (git-hook settings, principle 8), wherever it is kept.
Now a file named as one of the client-side hooks that rule names in a `hooks/` folder (`pre-commit`, `pre-push`,
`commit-msg`, ...), bare or with git's `.hook` suffix, is `other.lint-format` at any depth.

What must not move: a hook a CI definition runs is `ci` (real git repositories, `--tree`); server-side hook names
(`update`, `post-receive`, `pre-receive`: `update` is any script's name), other suffixes (`pre-commit.sh`, a
`.pre-commit-config.yaml`) and names that only contain a hook's name keep their bucket."""

from __future__ import annotations

import itertools
from pathlib import Path

from conftest import POLICY_DIR
from tables import each_case

from gatekeeper.classify.ruleset import load_rules
from tests.gitrepo import two_commits
from tests.test_classify_context import tree_files

# the hooks the git-hook settings rule names in a `hooks/` folder (`other.lint-format`); the rarer ones stay there only
# (tests/test_classify_fiftysixth_classes.py keeps a bare `post-rewrite` `src`)
CHECKS = ["pre-commit", "pre-push", "commit-msg", "prepare-commit-msg", "post-checkout", "post-merge", "post-commit",
          "pre-rebase"]
FOLDERS = ["", "devTools/", "lib/git/", "scripts/dev/", "tools/git/hooks-src/"]
HOOK_PATHS = [folder + hook + suffix for folder, hook, suffix in itertools.product(FOLDERS, CHECKS, ("", ".hook"))]

# (path, bucket): what must not move
LOOK_ALIKES = [
    ("update", "src"),  # a server-side hook's name is any script's name
    ("post-rewrite", "src"),  # a rarer client hook, bare: as the fifty-sixth round decided
    ("scripts/post-receive", "src"),
    ("e2e/assets/gitrepo/post-receive.sh", "src"),
    ("scripts/pre-commit.sh", "src"),
    ("tools/pre-push.py", "src"),
    (".pre-commit-config.yaml", "ci"),
    ("docs/pre-commit.md", "src"),
    ("src/commit-msg-parser", "src"),
    ("lib/git/commit-msg.hook.bak", "src"),
    (".github/workflows/pre-commit.yml", "ci"),
]


@each_case("path", HOOK_PATHS)
def test_a_git_hook_anywhere_is_other(path: str) -> None:
    hit = load_rules(POLICY_DIR).match(path)
    assert (hit.bucket, hit.rule) == ("other", "other.lint-format"), (path, hit)


@each_case("path, bucket", LOOK_ALIKES)
def test_look_alikes_keep_their_bucket(path: str, bucket: str) -> None:
    assert load_rules(POLICY_DIR).match(path).bucket == bucket, path


WORKFLOW = ("on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
            "      - run: {line}\n")
RUN_LINES = ["./{path}", "sh {path}", "bash ./{path} origin main", "git config core.hooksPath {folder} && ./{path}"]


def test_a_hook_ci_runs_stays_ci(tmp_path: Path) -> None:
    base = {"README.md": "# proj\n"}
    head: dict[str, str] = {}
    cases = [(f"{folder}{hook}{suffix}", line) for (folder, hook, suffix), line in zip(
        itertools.product(("devTools/", "lib/git/", "ci/hooks-src/"), ("pre-push", "commit-msg", "pre-commit"),
                          ("", ".hook")), itertools.cycle(RUN_LINES))]
    for index, (path, line) in enumerate(cases):
        head[path] = "#!/bin/sh\nexit 0\n"
        folder = path.rpartition("/")[0] or "."
        head[f".github/workflows/hook{index}.yml"] = WORKFLOW.format(line=line.format(path=path, folder=folder))
    head["tools/post-merge"] = "#!/bin/sh\nexit 0\n"  # nothing runs it (core.hooksPath names devTools/): other
    repo, _, _ = two_commits(tmp_path / "repo", base, head)
    files = tree_files(repo)
    wrong = [(path, files[path].bucket, files[path].rule) for path, _ in cases if files[path].bucket != "ci"]
    assert not wrong, wrong
    assert files["tools/post-merge"].bucket == "other", files["tools/post-merge"]
