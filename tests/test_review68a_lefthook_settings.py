"""Review 68a: what lefthook reads beyond `lefthook.yml`'s own `run:` lines (taskrunners.py).

On 58f4e83c a `source_dir:` (where lefthook takes the hooks' `scripts:` from, `.lefthook/` by default), the files
`extends:` merges in (outside the CI folder's path rules), and lefthook's TOML and JSON settings names were not read:
the script or command a CI run of lefthook runs stayed `src`. A lefthook.yml that does not parse reads every YAML file
its folder holds (fail closed, as a Taskfile's)."""

from __future__ import annotations

from citools import tree_runs
from tables import each_case

WORKFLOW = ("name: ci\non: [push]\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n"
            "      - uses: actions/checkout@v4\n      - run: {command}\n")
COMMANDS = ["npx lefthook run pre-commit", "pnpm exec lefthook run pre-commit --all-files"]
RUN = "pre-commit:\n  commands:\n    lint:\n      run: bash tools/lint.sh\n"
CASES = [
    ({"lefthook.yml": "source_dir: tools/hooks/\npre-commit:\n  scripts:\n    \"x.sh\":\n      runner: bash\n"},
     "tools/hooks/pre-commit/x.sh"),
    ({"lefthook.yml": "source_dir_local: tools/local/\n"}, "tools/local/pre-commit/x.sh"),
    ({"lefthook.yml": "extends:\n  - conf/common.yml\n", "conf/common.yml": RUN}, "tools/lint.sh"),
    ({".lefthook.yml": "extends: [conf/a.yml, conf/b.yml]\n", "conf/b.yml": RUN}, "tools/lint.sh"),
    ({"lefthook.toml": "[pre-commit.commands.lint]\nrun = \"bash tools/lint.sh\"\n"}, "tools/lint.sh"),
    ({"lefthook.json": '{"pre-commit": {"commands": {"lint": {"run": "bash tools/lint.sh"}}}}'}, "tools/lint.sh"),
    ({"lefthook.yml": "extends: [conf/other.yml\n", "conf/other.yml": RUN}, "conf/other.yml"),
]


@each_case("command, files, reached", [(command, files, reached) for command in COMMANDS for files, reached in CASES])
def test_what_lefthook_reads_is_read(command: str, files: dict[str, str], reached: str) -> None:
    tree = {".github/workflows/ci.yml": WORKFLOW.format(command=command), **files, reached: "echo x\n",
            "README.md": "x\n"}
    assert reached in tree_runs(tree), files  # before: 14 of 14 missed


@each_case("command, files", [
    ("npm test", {"lefthook.yml": "extends:\n  - conf/common.yml\n", "conf/common.yml": RUN}),
    ("npx lefthook run pre-commit", {"lefthook.yml": "pre-commit:\n  commands:\n    a:\n      run: echo hi\n",
                                     "conf/common.yml": RUN}),
])
def test_look_alikes_read_nothing_more(command: str, files: dict[str, str]) -> None:
    tree = {".github/workflows/ci.yml": WORKFLOW.format(command=command), **files, "tools/lint.sh": "echo x\n",
            "README.md": "x\n"}
    assert "tools/lint.sh" not in tree_runs(tree), files
