"""Two things docs review 54 found this stop's classes broke, each checked against main's rules as well:

- `gitleaks.toml` (no dot, the name gitleaks also reads) became `other` without the `guardrail` tag `.gitleaks.toml`
  carries: an allowlist added to it was allowed with `--enable guardrails` in both modes.
- Jest's `__tests__/data/` became a test-data folder, which lowers `deps` to `src`, and so lowered test data inside
  vendored and installed copies (`third_party/lib/__tests__/data/`, `node_modules/pkg/__tests__/data/`) that were
  `deps`: a vendored copy's files are the copy's, whatever folder of it they lie in (`deps.vendored-test-data`).
"""

from __future__ import annotations

from itertools import product
from pathlib import Path

import pytest
from changecase import committed, gated_rules
from tables import each_case

from gatekeeper.classify import load_rules
from gatekeeper.policy_dir import shipped_policy_dir

RULES = load_rules(shipped_policy_dir())
GITLEAKS = '[extend]\nuseDefault = true\n'
ALLOW_ALL = GITLEAKS + '\n[allowlist]\ndescription = "noise"\npaths = [".*"]\n'

VENDORED_ROOTS = ["third_party/lib", "third-party/lib", "deps/lib", "node_modules/pkg", "web/node_modules/@s/pkg",
                  "vendor/lib", "_vendor/lib", "vendored/lib", "bower_components/lib"]
TEST_FOLDERS = ["__tests__/data", "__tests__/fixtures", "src/__tests__/data/deep"]
FILES = ["go.mod", "package.json", "x.js"]


@pytest.mark.parametrize("path", ["gitleaks.toml", "config/gitleaks.toml", ".gitleaks.toml"])
@pytest.mark.parametrize("tree", [False, True], ids=["patch", "tree"])
def test_an_allowlist_added_to_gitleaks_settings_is_reviewed(tmp_path: Path, path: str, tree: bool) -> None:
    case = committed(tmp_path, {path: GITLEAKS}, {path: ALLOW_ALL})
    code, rules = gated_rules(case, tree, "guardrails")
    assert code != 0 and path in rules.get("guardrails.edit", []), rules


@each_case(("root", "folder", "name"), list(product(VENDORED_ROOTS, TEST_FOLDERS, FILES)))
def test_test_data_inside_a_vendored_copy_stays_deps(root: str, folder: str, name: str) -> None:
    path = f"{root}/{folder}/{name}"
    found = RULES.match(path)
    assert found.bucket == "deps", (path, found.rule)


@each_case("path", ["__tests__/data/go.mod", "packages/a/__tests__/data/package.json",
                                  "src/__tests__/data/.tool-versions"])
def test_a_projects_own_jest_test_data_is_still_lowered(path: str) -> None:
    found = RULES.match(path)
    assert found.bucket == "src" and found.rule.startswith("testdata."), (path, found.rule)
