"""The seventy-seventh set's classes (issue 12): a toolchain environment read as infrastructure.

- **Hermit's environment is a toolchain pin** (`deps.hermit`). Hermit (cashapp/hermit) keeps a project's tools in
  its `bin/` folder: `bin/hermit.hcl` (the environment's settings: package sources, environment variables, GitHub
  token auth; empty in alecthomas/kong), one hidden `.<package>-<version>.pkg` (or `.<package>@<channel>.pkg`) per
  pinned tool, and the launcher scripts `bin/hermit` and `bin/activate-hermit` that download and run Hermit, as
  `gradlew` runs Gradle. `hermit.hcl` was `iac` by the `*.hcl` rule (an over-claim: no HashiCorp tool reads it) and the
  pins and launchers `src`. 79 repositories of the code index keep a `bin/hermit.hcl` (go-task/task,
  elastic/cloudbeat, block/ftl, the TBD54566975 projects). Other HCL in `bin/`, a root `hermit.hcl`, macOS installer
  packages and a Hermit package repository's manifests stay what they were; one in a CI folder stays `ci`, and a
  launcher CI runs is `ci` with the commits.
"""

from __future__ import annotations

from pathlib import Path

from citools import one_tree_runs
from tables import each_case

from gatekeeper.classify.ruleset import load_rules

POLICIES = Path(__file__).resolve().parent.parent / "policies"

# Real shapes (alecthomas/kong, block/ftl, elastic/cloudbeat, go-task/task), at the root and in a subproject.
ENVS = ["", "frontend/", "tools/go/"]
HERMIT_FILES = ["bin/hermit.hcl", "bin/hermit", "bin/activate-hermit", "bin/activate-hermit.fish",
                "bin/.go-1.26.5.pkg", "bin/.golangci-lint-1.64.5.pkg", "bin/.lefthook-2.1.10.pkg",
                "bin/.node-20.11.0.pkg", "bin/.go@latest.pkg", "bin/.openjdk@17.pkg", "bin/.just-1.16.0.pkg",
                "bin/.protoc-25.1.pkg", "bin/.rust-1.75.0.pkg", "bin/.terraform-1.6.6.pkg"]
HERMIT = [(env + name,) for env in ENVS for name in HERMIT_FILES]

# Look-alikes: other HCL in bin/ and elsewhere, HCL named hermit outside bin/, installer packages, a Hermit package
# repository's manifests (root `*.hcl`), the README Hermit writes (a document), and names in a CI system's folder (in
# `.github/` a toolchain pin stays `deps`, as `.github/.tool-versions` and `.github/workflows/gradlew` are).
LOOKALIKES = [
    ("hermit.hcl", "iac"), ("config/hermit.hcl", "iac"), ("bin/config.hcl", "iac"), ("bin/docker-bake.hcl", "iac"),
    ("bin/app.pkr.hcl", "iac"), ("bin/hermit.hcl.bak", "src"), ("bin/hermit.go", "src"), ("cmd/hermit/main.go", "src"),
    ("go.hcl", "iac"), ("terraform.hcl", "iac"), ("bin/README.hermit.md", "src"),
    ("dist/installer.pkg", "src"), ("bin/installer.pkg", "src"), ("bin/go-1.26.5.pkg", "src"),
    ("pkg/.go-1.26.5.pkg", "src"), ("bin/.env", "src"),
    ("ci/bin/hermit", "ci"), ("ci/bin/hermit.hcl", "ci"), (".circleci/bin/activate-hermit", "ci"),
    (".gitlab/ci/bin/.go-1.26.5.pkg", "ci"), (".buildkite/bin/hermit.hcl", "ci"),
]


def test_hermits_environment_files_are_toolchain_pins_in_every_place() -> None:
    rules = load_rules(POLICIES)
    wrong = [(path, rules.match(path)) for (path,) in HERMIT if rules.match(path).rule != "deps.hermit"]
    assert wrong == []
    assert rules.match("bin/hermit.hcl").bucket == "deps"
    assert "toolchain" in rules.match("bin/.go-1.26.5.pkg").tags


@each_case("path, bucket", LOOKALIKES)
def test_look_alikes_of_hermits_files_stay_what_they_were(path: str, bucket: str) -> None:
    assert load_rules(POLICIES).match(path).bucket == bucket


# kong's workflow runs the launcher; the walk keeps it ci (the more sensitive side), the settings it reads stay deps.
WORKFLOW = ("on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
            "      - name: Init Hermit\n        run: ./bin/hermit env -r >> \"$GITHUB_ENV\"\n"
            "      - run: go test ./...\n")


def test_a_launcher_ci_runs_stays_ci_with_the_commits() -> None:
    files = {".github/workflows/ci.yml": WORKFLOW, "bin/hermit": "#!/bin/bash\nset -eo pipefail\n",
             "bin/hermit.hcl": "", "bin/.go-1.26.5.pkg": "hermit", "main.go": "package main\n"}
    runs = one_tree_runs(files)
    assert isinstance(runs, dict)
    assert "bin/hermit" in runs
    assert "bin/hermit.hcl" not in runs and "main.go" not in runs
