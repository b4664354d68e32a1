"""Classes of misses the forty-seventh label set found (bench/classify_accuracy/fortyseventh.tsv: 40 repositories taken
from the mirrors the deps rounds and other rounds left — monorepos, Rust, JVM, PHP, Elixir, Haskell, Flutter apps —,
measured blind first), each with the look-alikes it must leave alone.

- The reference screenshots Vitest's browser mode keeps in `__screenshots__/` (Ariakit's examples) are test data (src),
  as `__snapshots__/` is; images only, so a definition written there keeps its kind.
- nginx's and supervisord's settings in a `docker/` folder, copied into an image (LinkAce's `resources/docker/`), are a
  server application's settings (other), as `php.ini` beside them is; a chart's template of one stays iac.
- Tool settings under names no rule knew (other): the Haskell language server's `hie.yaml`, Ember's Testem
  (`testem.js`), Behat (`behat.yml`), the spelling word lists of Canonical's documentation starter pack
  (`.custom_wordlist.txt`, `.wordlist.txt`), the Rust project's triage bot (`triagebot.toml`, at the root).
- Formatter settings under names no rule knew (other): the properties a `spotless/` folder keeps for Spotless
  (Accompanist's `greclipse.properties`) and Eclipse import orders (`*.importorder`); the licence-header template
  beside them (`spotless/copyright.xml`, `copyright.kt`) stays src.
- A patch in an end-to-end suite's `e2e/` folder (PHPStan's `e2e/result-cache-6/patch-1.patch`, which the test applies
  to its own project) was made test data (src) here, and taken back at the merge (docs review 52): pnpm applies a patch
  there when package.json's `pnpm.patchedDependencies` names it, so it stays deps (tests/test_lead51_open_names.py).
- The build logic of an included `build-logic/` build (Accompanist's and ktor's convention plugins) is deps, as
  `buildSrc/` is.
- typeshed's `stubs/<distribution>/METADATA.toml` (the version and dependencies each stub package is published with)
  is a manifest (deps).
"""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from tests.gitrepo import GitRepo
from tests.test_classify_context import assert_path_rule, both_ways, tree_files


@each_case(("path", "bucket", "rule"), [
    ("app/src/examples/disclosure/group/__screenshots__/react-hover-default-dark-safari.webp", "src",
     "testdata.snapshot-files"),
    ("tests/browser/__screenshots__/button.test.ts/primary-chromium-darwin.png", "src", "testdata.snapshot-files"),
    ("src/screenshots/home.png", "other", "other.binary-assets"),
    ("deploy/__screenshots__/Dockerfile", "iac", None),
    (".github/workflows/__screenshots__/release.yml", "ci", None),
    ("resources/docker/nginx/nginx.conf", "other", "other.app-server-settings"),
    (".docker/nginx.conf", "other", "other.app-server-settings"),
    ("resources/docker/supervisord.ini", "other", "other.app-server-settings"),
    ("docker/supervisord.conf", "other", "other.app-server-settings"),
    ("charts/web/templates/docker/nginx.conf", "iac", None),
    ("deploy/nginx.conf", "iac", None),
    (".github/docker/supervisord.conf", "ci", None),
    ("hie.yaml", "other", "other.editor"), ("cachix/hie.yaml", "other", "other.editor"),
    ("webapp/testem.js", "other", "other.lint-format"), ("testem.json", "other", "other.lint-format"),
    ("src/testem/index.js", "src", None),
    ("tests/config/behat.yml", "other", "other.lint-format"), ("behat.yml.dist", "other", "other.lint-format"),
    ("features/bootstrap/FeatureContext.php", "src", None),
    ("docs/.custom_wordlist.txt", "other", "other.lint-format"), ("docs/.wordlist.txt", "other", "other.lint-format"),
    (".github/wordlist.txt", "ci", None), ("wordlist.txt", "src", None),
    ("triagebot.toml", "other", "other.outside-apps"), ("crates/bot/triagebot.toml", "src", None),
    ("build-logic/convention/src/main/kotlin/com/google/accompanist/KotlinAndroid.kt", "deps", "deps.gradle.manifest"),
    ("build-logic/src/main/kotlin/ktorbuild/dsl/Collections.kt", "deps", "deps.gradle.manifest"),
    ("gradle/build-logic/src/main/java/Conventions.java", "deps", "deps.gradle.manifest"),
    ("app/src/main/kotlin/com/example/BuildLogic.kt", "src", None),
    ("build-logic/README.md", "src", None), ("docs/build-logic.md", "src", None),
    ("spotless/greclipse.properties", "other", "other.lint-format"),
    ("ide-config/eclipse.importorder", "other", "other.lint-format"),
    ("spotless/copyright.xml", "src", None), ("spotless/copyright.kt", "src", None),
    ("e2e/result-cache-6/patch-1.patch", "deps", "deps.patch-files"),  # taken back at the merge (docs review 52)
    ("packages/app/__tests__/fixtures/fix.patch", "src", None),
    ("patches/left-pad+1.3.0.patch", "deps", None), ("third_party/zlib-fix.patch", "deps", None),
    ("deploy/e2e/fix.patch", "iac", None),
    ("stubs/hnswlib/METADATA.toml", "deps", "deps.build-ecosystems"),
    ("stubs/requests/requests/api.pyi", "src", None),
    ("src/stubs/x/METADATA.toml", "src", None), ("METADATA.toml", "src", None),
])
def test_path_rules_of_the_fortyseventh_round(path: str, bucket: str, rule: str | None) -> None:
    assert_path_rule(path, bucket, rule)


def test_the_fortyseventh_classes_in_a_real_repository(git_repo: GitRepo, tmp_path: Path) -> None:
    """An edit of each kind, read with the tree's context and as a patch: the path decides, content does not undo it."""
    git_repo.write("README.md", "# bookmarks\n")
    git_repo.write("resources/docker/Dockerfile", "FROM php:8.3-fpm\nCOPY resources/docker/nginx/nginx.conf "
                                                  "/etc/nginx/http.d/default.conf\n")
    git_repo.commit("base")
    texts = {
        "app/src/examples/menu/__screenshots__/react-default.png": "\x89PNG\r\n\x1a\n fake image bytes\n",
        "resources/docker/nginx/nginx.conf": "server {\n    root /app/public;\n    index index.php;\n}\n",
        "resources/docker/supervisord.ini": "[supervisord]\nnodaemon=true\n[program:php]\ncommand=php-fpm\n",
        "hie.yaml": "cradle:\n  stack:\n    - path: \"./src\"\n      component: \"app:lib\"\n",
        "webapp/testem.js": "module.exports = {\n  test_page: 'tests/index.html?hidepassed',\n"
                            "  launch_in_ci: ['Chrome'],\n};\n",
        "tests/config/behat.yml": "default:\n  suites:\n    features:\n      paths:\n        - features\n",
        "docs/.custom_wordlist.txt": "autoinstall\nhostnames\n",
        "triagebot.toml": "[assign]\nwarn_non_default_branch = true\n",
        "build-logic/convention/src/main/kotlin/KotlinAndroid.kt": "package conventions\n\n"
                                                                   "internal fun configureKotlin() {}\n",
        "stubs/hnswlib/METADATA.toml": 'version = "0.8.*"\ndependencies = ["numpy>=1.21"]\n',
        "spotless/greclipse.properties": "groovy.formatter.indent=4\n",
        "e2e/result-cache-6/patch-1.patch": "--- a/src/Baz.php\n+++ b/src/Baz.php\n@@ -1,2 +1,1 @@\n class Baz\n-{}\n",
    }
    want = {"app/src/examples/menu/__screenshots__/react-default.png": "src",
            "resources/docker/nginx/nginx.conf": "other", "resources/docker/supervisord.ini": "other",
            "hie.yaml": "other", "webapp/testem.js": "other", "tests/config/behat.yml": "other",
            "docs/.custom_wordlist.txt": "other", "triagebot.toml": "other",
            "build-logic/convention/src/main/kotlin/KotlinAndroid.kt": "deps", "stubs/hnswlib/METADATA.toml": "deps",
            "spotless/greclipse.properties": "other", "e2e/result-cache-6/patch-1.patch": "deps"}
    both_ways(git_repo, tmp_path, texts, want)


def test_a_definition_in_a_screenshots_folder_keeps_its_kind(git_repo: GitRepo) -> None:
    """Only images there are test data: a workflow or a Dockerfile written into `__screenshots__/` is still raised."""
    git_repo.write("README.md", "# widgets\n")
    git_repo.commit("base")
    git_repo.write(".github/workflows/__screenshots__/release.yml",
                   "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo hi\n")
    git_repo.write("app/__screenshots__/Dockerfile", "FROM alpine:3.20\nRUN apk add curl\n")
    git_repo.commit("head")
    found = tree_files(git_repo)
    assert found[".github/workflows/__screenshots__/release.yml"].bucket == "ci"
    assert found["app/__screenshots__/Dockerfile"].bucket == "iac"
