"""Attack 16: the thirtieth set's `testdata.fixture-packages` (`**/fixtures/**/node_modules/**`, src and final) lowered
committed dependency code of every folder but two.

The rule says "a vendored module's own fixtures stay deps (deps.vendored-test-data above)", and that rule gained the
node_modules/ form only (vendor/ and _vendor/ had theirs). So a package's own fixture packages inside the other folders
the classifier calls committed dependency code, `third_party/x/fixtures/node_modules/y/index.js` (deps.vendored before
this stop), `.yarn/unplugged/x/fixtures/node_modules/y/index.js` (deps.npm.installed), `bower_components/`, `Pods/`,
`deps/`, came out src: with `--enable deps` an edit of them was no longer reviewed. Now each of those folders keeps
its fixture packages deps; a project's own fixtures folder (oxc's linter fixtures) stays src. Variants: 12 folders x
`fixtures`/`fixture` checked by path (24), 2 controls.
"""

from __future__ import annotations

import pytest
from tables import each_case

from gatekeeper.classify.ruleset import COPY_RULES
from tests.test_classify_context import RULES

FOLDERS = ("vendored/lib", "bower_components/lib", "third_party/lib", "third-party/lib", "deps/lib",
           ".yarn/unplugged/lib-npm-1.0.0/node_modules/lib", "web/.yarn/unplugged/lib-npm-1.0.0", "Pods/Lib",
           "ios/Pods/Lib", "Carthage/Checkouts/lib", "src/App/wwwroot/lib/lib", "cue.mod/pkg/example.com/lib")


@each_case("fixtures", ["fixtures", "fixture"])
@each_case("folder", FOLDERS)
def test_a_dependency_folders_fixture_packages_stay_deps(folder: str, fixtures: str) -> None:
    path = f"{folder}/{fixtures}/resolve/node_modules/dep/index.js"
    match = RULES.match(path)
    # the copy's own rule since classes56 (test data yields to an outer copy by mechanism, ruleset.copy_outer)
    assert match.bucket == "deps" and match.rule.startswith(COPY_RULES), (path, match)


@pytest.mark.parametrize("path", ["crates/oxc_linter/fixtures/import/node_modules/acorn/acorn.mjs",
                                  "packages/resolver/test/fixtures/node_modules/dep/index.js"])
def test_a_projects_own_fixture_packages_stay_src(path: str) -> None:
    match = RULES.match(path)
    assert (match.bucket, match.rule) == ("src", "testdata.fixture-packages"), (path, match)
