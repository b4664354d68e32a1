"""The eighty-first set: a workflow that checks its repository out into a folder (`actions/checkout` with `path: pr`)
runs the repository's scripts through that folder (`./pr/tools/buildSizeReport.js`).

highlight.js' size-report workflow checks the base and the pull request out into `base/` and `pr/` and runs
`./pr/tools/buildSizeReport.js` with the job's token; the walk read `pr/tools/buildSizeReport.js` from the root, found
nothing, and the script was `src`. actions/checkout's `path:` input is the truth ("relative path under
$GITHUB_WORKSPACE to place the repository"). On 13d71d3 every positive case below failed; a checkout of another
repository (`repository: org/tools`), another action's `path:` (upload-artifact's) and a path no checkout made name
nothing new.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from citools import tree_runs
from cpucost import assert_linear, repeated
from gitrepo import two_commits
from incli import tree_gate

from gatekeeper.classify import checkoutpaths

HEAD = "on: pull_request\njobs:\n  r:\n    runs-on: ubuntu-latest\n    steps:\n"
FILES = {"tools/report.js": "console.log(1)\n", "scripts/ci.sh": "echo hi\n", "ci/check.py": "print(1)\n",
         "README.md": "x\n"}
# how a step checks the repository out into {f}
CHECKOUTS = [
    "      - uses: actions/checkout@v4\n        with:\n          path: {f}\n",
    "      - name: Checkout PR\n        uses: actions/checkout@v7\n        with:\n          ref: main\n"
    "          path: '{f}'\n          fetch-depth: 0\n",
    "      - uses: actions/checkout@de0fac2e4500dabe0009e67214ff5f5447ce83dd # v6\n        with:\n"
    "          path: \"./{f}/\"\n",
    "      - with:\n          path: {f}\n        uses: actions/checkout@v3\n",
    "      - uses: actions/checkout@v4\n        with:\n          repository: ${{{{ github.repository }}}}\n"
    "          path: {f}\n",
]
# (a command through the folder {f}, the file it runs)
RUNS = [("./{f}/tools/report.js ./base/build", "tools/report.js"), ("node {f}/tools/report.js", "tools/report.js"),
        ("bash ./{f}/scripts/ci.sh", "scripts/ci.sh"), ("python3 {f}/ci/check.py --all", "ci/check.py"),
        ("REPORT=$(./{f}/tools/report.js a b)", "tools/report.js")]


def _tree(checkout: str, run: str, folder: str) -> dict[str, str]:
    step = f"      - run: {run.format(f=folder)}\n"
    return {".github/workflows/size.yml": HEAD + checkout.format(f=folder) + step, **FILES}


@pytest.mark.parametrize("folder", ["pr", "main", "repo/src"])
@pytest.mark.parametrize(("run", "target"), RUNS)
def test_a_script_run_through_the_checkout_folder_is_run(folder: str, run: str, target: str) -> None:
    missed = [at for at, checkout in enumerate(CHECKOUTS) if target not in tree_runs(_tree(checkout, run, folder))]
    assert missed == [], (folder, run)


# another repository checked out there, another action's `path:`, no checkout path, a checkout path of a variable
LOOK_ALIKES = [
    "      - uses: actions/checkout@v4\n        with:\n          repository: org/tools\n          path: {f}\n",
    "      - uses: actions/upload-artifact@v4\n        with:\n          path: {f}\n",
    "      - uses: actions/checkout@v4\n",
    "      - uses: actions/checkout@v4\n        with:\n          path: ${{{{ env.DIR }}}}\n",
    "      - uses: actions/checkout@v4\n      - uses: actions/cache@v4\n        with:\n          path: {f}\n",
]


@pytest.mark.parametrize("checkout", LOOK_ALIKES)
def test_a_look_alike_names_nothing_new(checkout: str) -> None:
    named = tree_runs(_tree(checkout, "./{f}/tools/report.js && bash {f}/scripts/ci.sh", "pr"))
    assert not {"tools/report.js", "scripts/ci.sh"} & named


def test_a_file_the_tree_holds_below_the_folder_stays_named() -> None:
    tree = _tree(CHECKOUTS[0], "./{f}/tools/report.js", "pr")
    tree["pr/tools/report.js"] = "console.log(2)\n"
    assert {"pr/tools/report.js", "tools/report.js"} <= tree_runs(tree)


def test_the_gated_edit_needs_a_human(tmp_path: Path) -> None:
    base = _tree(CHECKOUTS[1], "./{f}/tools/report.js ./base/build ./pr/build", "pr")
    _, first, second = two_commits(tmp_path, base, {"tools/report.js": "require('child_process').execSync('x')\n"})
    code, decision = tree_gate(tmp_path, first, second, None, "--enable", "deps")
    assert code == 3, decision["reasons"]
    assert any(reason["rule"] == "core.ci" for reason in decision["reasons"])


def test_many_checkouts_are_read_in_linear_time() -> None:
    unit = "      - uses: actions/checkout@v4\n        with:\n          path: pr\n"
    assert_linear(lambda text: checkoutpaths.checked_out(".github/workflows/x.yml", text, ["pr/tools/x.js"]),
                  repeated(unit, head=HEAD), budget=0.5)
