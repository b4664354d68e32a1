"""Attack 44: a submodule whose files a CI step runs.

A gitlink's files are not in the tree: `bash vendor/tool/run.sh` after `actions/checkout` with `submodules: true`
runs the file the submodule's pinned commit holds, so moving the gitlink to another commit changes what the job runs.
The walk named `vendor/tool/run.sh`, found no such file and raised nothing, and the gitlink stayed `deps`
(`builtin.submodule`), which the default policy allows: exit 0 with `gate --tree` on main 55d0fa69 (a submodule a
local action lives in was `ci` already). Now a file CI runs inside a submodule's folder makes the gitlink `ci`, as
installed code a definition runs is (attack 18). A submodule no step runs stays `deps`. Real git writes the gitlinks.
"""

from __future__ import annotations

from pathlib import Path

from citools import BLOCK_DEFINITIONS
from gitrepo import GitRepo
from incli import tree_gate
from tables import each_case

MODULES = '[submodule "{p}"]\n\tpath = {p}\n\turl = https://example.invalid/tool.git\n'
# (the line CI runs, the submodule's path)
LINES = [("bash vendor/tool/run.sh", "vendor/tool"), ("./third_party/ci-scripts/lint.sh --all",
                                                      "third_party/ci-scripts"),
         ("python tools/release/cli.py publish", "tools/release"), ("make -C deps/builder", "deps/builder"),
         ("source vendor/env/setup.sh && make", "vendor/env"), ("node vendor/gen/bin/gen.js", "vendor/gen"),
         ("bash vendor/tool/sub/deep/x.sh", "vendor/tool")]


def _gitlinked(root: Path, definition: str, text: str, link: str, oid: str, repo: GitRepo | None = None) \
        -> tuple[GitRepo, str]:
    repo = repo or GitRepo(root)
    repo.write(definition, text)
    repo.write(".gitmodules", MODULES.format(p=link))
    repo.git("add", "-A")
    repo.git("update-index", "--add", "--cacheinfo", f"160000,{oid},{link}")
    repo.git("commit", "-q", "-m", "x")
    return repo, repo.git("rev-parse", "HEAD").decode().strip()


@each_case(("line", "link"), LINES)
def test_a_submodule_ci_runs_needs_a_human(tmp_path: Path, line: str, link: str) -> None:
    for index, (definition, template) in enumerate(BLOCK_DEFINITIONS[:2]):
        text = template.format(line=line)
        repo, first = _gitlinked(tmp_path / f"r{index}", definition, text, link, "a" * 40)
        _, second = _gitlinked(tmp_path, definition, text, link, "b" * 40, repo)
        code, decision = tree_gate(repo.root, first, second, None)
        assert code == 3, (definition, decision["reasons"])
        assert decision["reasons"][0]["rule"] == "core.ci", decision["reasons"]


# a submodule no step runs (a library built by the project's own build), or one a step only lists: stays deps
@each_case("line", ["make test", "ls vendor/tool", "echo vendor/tool/run.sh", "git submodule status"])
def test_a_submodule_no_step_runs_stays_deps(tmp_path: Path, line: str) -> None:
    definition, template = BLOCK_DEFINITIONS[0]
    repo, first = _gitlinked(tmp_path, definition, template.format(line=line), "vendor/tool", "a" * 40)
    _, second = _gitlinked(tmp_path, definition, template.format(line=line), "vendor/tool", "b" * 40, repo)
    code, decision = tree_gate(repo.root, first, second, None)
    assert code == 0, decision["reasons"]
