"""Classes of misses the twenty-seventh label set found (bench/classify_accuracy/twentyseventh.tsv: 60 repositories for
breadth, measured blind first), each with the look-alikes it must leave alone: client libraries copied into a web app's
`assets/vendors/` (deps; a first-party `vendors` page is not), Gradle `buildSrc/` build logic in Groovy and Java (deps,
as in Kotlin), GitLab Duo's review instructions (other; the Duo Agent Platform's runner settings stay ci), Scala
Steward's and tea.xyz's settings (outside apps), revive's and Kotlin knit's settings and Vite+'s git hooks, an Eclipse
`.project` below the root and Xcode's workspace checks (editor settings; SwiftPM's pins beside them stay deps), and the
archives and tables of .NET test projects (`NzbDrone.Core.Test/Files/`: test data; the app project's images stay
other). The real repository below checks them with the commits and from the patch."""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from tests.gitrepo import GitRepo
from tests.test_classify_context import RULES, patch_files, tree_files


@each_case(("path", "bucket", "rule"), [
    # client libraries, fonts and images copied into a web app's vendors/ folder are vendored code
    ("src/main/webapp/assets/vendors/bootstrap-3.4.1/fonts/glyphicons-halflings-regular.eot", "deps",
     "deps.vendored-nested"),
    ("src/main/webapp/assets/vendors/AdminLTE-2.4.2/img/boxed-bg.jpg", "deps", "deps.vendored-nested"),
    ("web/static/vendors/jquery/jquery.min.js", "deps", "deps.vendored-nested"),
    ("public/vendors/chart.js/chart.umd.js", "deps", "deps.vendored-nested"),
    # a first-party page or model named vendors (suppliers) is code, and an app's own image stays an asset
    ("src/pages/vendors/index.tsx", "src", "src.default"),
    ("app/models/vendors/supplier.rb", "src", "src.default"),
    ("src/main/webapp/assets/common/images/logo.png", "other", "other.binary-assets"),
    # Gradle buildSrc build logic in every JVM language Gradle compiles there
    ("buildSrc/src/main/groovy/UploadBundleTask.groovy", "deps", "deps.gradle.manifest"),
    ("buildSrc/src/main/java/org/example/build/ReleasePlugin.java", "deps", "deps.gradle.manifest"),
    ("buildSrc/src/main/kotlin/conventions.kt", "deps", "deps.gradle.manifest"),
    ("app/src/main/groovy/org/example/Report.groovy", "src", "src.default"),
    # GitLab Duo's text for the agent is other; the agent platform's runner settings stay CI
    (".gitlab/duo/mr-review-instructions.yaml", "other", "other.gitlab-agents"),
    (".gitlab/duo/chat-rules.md", "other", "other.gitlab-agents"),
    (".gitlab/duo/agent-config.yml", "ci", "ci.system-folders"),
    (".gitlab/ci/review.gitlab-ci.yml", "ci", "ci.system-folders"),
    # Scala Steward (root, .config/ or .github/) and tea.xyz (root) are outside apps
    (".scala-steward.conf", "other", "other.outside-apps"),
    (".config/.scala-steward.conf", "other", "other.outside-apps"),
    (".github/.scala-steward.conf", "other", "other.github-apps"),
    ("tea.yaml", "other", "other.outside-apps"),
    ("docs/tea.yaml", "src", "src.default"),
    # linter, docs-tool and git-hook settings
    ("scripts/revive.toml", "other", "other.lint-format"),
    ("revive.toml", "other", "other.lint-format"),
    ("docs/topics/knit.properties", "other", "other.lint-format"),
    (".vite-hooks/_/pre-commit", "other", "other.lint-format"),
    ("src/vite-hooks/plugin.ts", "src", "src.default"),
    # found by the sweep of the set's repositories: gomodguard's settings in each Go module, Context7's claim
    ("client/v3/.gomodguard.yaml", "other", "other.lint-format"), (".gomodguard.yml", "other", "other.lint-format"),
    ("context7.json", "other", "other.outside-apps"), ("web/src/context7.json", "src", "src.default"),
    # editor settings below the root; SwiftPM's pins in the same folder stay a lock file
    ("bundles/org.openhab.core.karaf/.project", "other", "other.editor"),
    ("Nuke.xcodeproj/project.xcworkspace/xcshareddata/IDEWorkspaceChecks.plist", "other", "other.editor"),
    ("Nuke.xcodeproj/project.xcworkspace/xcshareddata/swiftpm/Package.resolved", "deps", "deps.swiftpm.lockfile"),
    # .NET test projects' archives and tables are test data; their code and the app's assets keep their rules
    ("src/NzbDrone.Core.Test/Files/TestArchive.zip", "src", "testdata.test-trees"),  # Files/: the classes57 round
    ("src/Shop.Api.IntegrationTests/Data/orders.csv", "src", "src.test-assets-dotnet"),
    ("tests/Shop.UnitTests/Images/avatar.png", "src", "src.test-assets"),
    ("src/Shop.Api/wwwroot/images/logo.png", "other", "other.binary-assets"),
    ("src/NzbDrone.Core.Test/NzbDrone.Core.Test.csproj", "deps", "deps.nuget.manifest"),
])
def test_path_rules_of_the_twenty_seventh_round(path: str, bucket: str, rule: str) -> None:
    got = RULES.match(path)
    assert (got.bucket, got.rule) == (bucket, rule), got


GITLAB_DUO_REVIEW = """instructions:
  - name: Omnibus recipes
    fileFilters:
      - "files/gitlab-cookbooks/**/*.rb"
    instructions: |
      Check that every new attribute has a default in attributes/default.rb and a line in gitlab.rb.template.
"""
GITLAB_CI = """stages: [test]
rspec:
  stage: test
  script:
    - bundle exec rspec
"""
BUILD_SRC_TASK = """import org.gradle.api.DefaultTask
import org.gradle.api.tasks.TaskAction

abstract class UploadBundleTask extends DefaultTask {
    @TaskAction
    void upload() {
        logger.lifecycle("uploading the console bundle")
    }
}
"""


def test_the_twenty_seventh_classes_in_a_real_repository(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("README.md", "# gitshelf\n")
    git_repo.commit("base")
    texts = {
        ".gitlab-ci.yml": GITLAB_CI,
        ".gitlab/duo/mr-review-instructions.yaml": GITLAB_DUO_REVIEW,
        "buildSrc/src/main/groovy/UploadBundleTask.groovy": BUILD_SRC_TASK,
        "src/main/webapp/assets/vendors/font-awesome-4.7.0/css/font-awesome.min.css": ".fa{display:inline-block}\n",
        "src/main/webapp/assets/common/css/site.css": "body { margin: 0 }\n",
        ".scala-steward.conf": 'updates.limit = 3\n'
                               'updates.pin = [ { groupId = "org.eclipse.jetty", version = "10." } ]\n',
        "scripts/revive.toml": "[rule.blank-imports]\n[rule.context-as-argument]\n[rule.error-return]\n",
        "bundles/core.karaf/.project": "<?xml version=\"1.0\"?>\n<projectDescription><name>core.karaf</name>"
                                       "</projectDescription>\n",
        "src/Shelf.Core.Test/Files/sample.csv": "title,author\nDune,Herbert\n",
    }
    want = {
        ".gitlab-ci.yml": "ci", ".gitlab/duo/mr-review-instructions.yaml": "other",
        "buildSrc/src/main/groovy/UploadBundleTask.groovy": "deps",
        "src/main/webapp/assets/vendors/font-awesome-4.7.0/css/font-awesome.min.css": "deps",
        "src/main/webapp/assets/common/css/site.css": "src", ".scala-steward.conf": "other",
        "scripts/revive.toml": "other", "bundles/core.karaf/.project": "other",
        "src/Shelf.Core.Test/Files/sample.csv": "src",
    }
    for path, text in texts.items():
        git_repo.write(path, text)
    git_repo.commit("head")
    files = tree_files(git_repo)
    assert {path: files[path].bucket for path in want} == want
    assert files[".gitlab/duo/mr-review-instructions.yaml"].rule == "other.gitlab-agents"
    patched = patch_files(git_repo, tmp_path)
    assert {path: patched[path].bucket for path in want} == want
