"""Attack 18: attack 17 kept `*.framework/` inside .github/, .gitea/ and .forgejo/ `ci` (ci.forge-folders), but the
guard still left out the other installed-code rules: a local action named `pods` (`.github/actions/pods/`: the path
rules ignore case, and `Pods/` is CocoaPods' folder), a `Carthage/Checkouts/`, `vendored/` or `bower_components/`
folder inside an action were deps, so a patch changing the script such an action runs was allowed by the default
gate. Inside a forge's folder every file is what its jobs run: ci."""

from __future__ import annotations

from tables import each_case

from tests.test_classify_context import RULES

FORGED = [f"{forge}/{rest}" for forge in (".github", ".gitea", ".forgejo") for rest in (
    "actions/pods/entrypoint.sh", "actions/deploy/Pods/Sign/sign.sh", "actions/ios/Carthage/Checkouts/x/run.sh",
    "actions/build/vendored/tool/run.py", "actions/web/bower_components/lib/index.js")]


@each_case("path", FORGED)
def test_installed_code_inside_a_forge_folder_is_ci(path: str) -> None:
    assert RULES.match(path).bucket == "ci", (path, RULES.match(path).rule)


@each_case("path", ["Pods/Sign/sign.sh", "ios/Carthage/Checkouts/x/run.sh", "vendored/tool/run.py"])
def test_installed_code_elsewhere_stays_deps(path: str) -> None:
    assert RULES.match(path).bucket == "deps"
