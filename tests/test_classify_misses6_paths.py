"""Misses 6, path rules: a package archive committed for a build to load is a dependency (`deps.vendored-archives`:
slf4j's `integration/lib/junit-3.8.1.jar` was `other` as a picture is), and Julia's package preferences and artifact
pins are dependency settings (`deps.julia.settings`: CUDA.jl's `LocalPreferences.toml`, which picks the CUDA runtime
artifact the package loads, was `src`), and jQuery and its plugins under their own names are vendored code
(`deps.vendored-nested`: a saved WordPress site's `wp-includes/js/jquery/jquery.min9d52.js` was `src`; every
labelled jQuery file of the sets is `deps`). Look-alikes: an archive of a test tree or test data stays test data, a jar
outside a lib folder stays an asset, the build tools' wrapper jars keep their toolchain rule."""

from __future__ import annotations

import pytest
from tables import each_case

from gatekeeper.classify.ruleset import RuleSet, load_rules
from tests.test_classify_paths import REPO_ROOT

FOLDERS = ["", "integration/", "app/", "modules/core/", "src/main/webapp/WEB-INF/", "third/party/x/"]
ARCHIVES = [f"{folder}{lib}/{name}" for folder in FOLDERS for lib in ("lib", "libs")
            for name in ("junit-3.8.1.jar", "ant.jar", "play-services-base.aar", "x.JAR")] + [
    f"{folder}{name}" for folder in FOLDERS for name in (
        "numpy-1.26.0-cp311-cp311-manylinux_2_17_x86_64.whl", "Newtonsoft.Json.12.0.1.nupkg", "rake-13.1.0.gem")]
JULIA = [f"{folder}{name}" for folder in ("", "docs/", "test/", "benchmark/", "lib/CUDACore/")
         for name in ("LocalPreferences.toml", "JuliaLocalPreferences.toml", "Artifacts.toml", "JuliaArtifacts.toml")]
JQUERY = [f"{folder}{name}" for folder in ("", "static/js/", "MyWebApp/src/main/webapp/wp-includes/js/jquery/",
                                          "public/js/", "assets/javascripts/")
          for name in ("jquery.js", "jquery.min.js", "jquery-3.6.0.min.js", "jquery.min9d52.js",
                       "jquery.json.minc947.js", "jquery.validate.min.js", "jquery-ui.js", "jquery.flot.crosshair.js")]
LOOK_ALIKES = [
    ("tests/lib/x.jar", "src"), ("test/fixtures/lib/a.jar", "src"), ("src/test/resources/lib/a.jar", "src"),
    ("testdata/lib/a.jar", "src"), ("build/x.jar", "other"), ("lib/foo/bar.jar", "other"),
    ("docs/lib/diagram.png", "other"), ("lib/app.js", "src"), ("Preferences.toml", "src"),
    ("LocalPreferences.toml.md", "src"), ("src/jqueryHelpers.js", "src"), ("test/fixtures/jquery.js", "src"),
    (".github/workflows/jquery.yml", "ci"), ("docs/jquery.md", "src"),
]


@pytest.fixture(scope="module")
def rules() -> RuleSet:
    return load_rules(REPO_ROOT / "policies")


@each_case("path", ARCHIVES)
def test_a_committed_package_archive_is_deps(rules: RuleSet, path: str) -> None:
    match = rules.match(path)
    assert (match.bucket, match.rule) == ("deps", "deps.vendored-archives"), (path, match)


@each_case("path", JULIA)
def test_julia_preferences_and_artifact_pins_are_deps(rules: RuleSet, path: str) -> None:
    match = rules.match(path)
    assert (match.bucket, match.rule) == ("deps", "deps.julia.settings"), (path, match)


@each_case("path", JQUERY)
def test_jquery_by_its_name_is_vendored(rules: RuleSet, path: str) -> None:
    match = rules.match(path)
    assert (match.bucket, match.rule) == ("deps", "deps.vendored-nested"), (path, match)


@each_case("path, bucket", LOOK_ALIKES)
def test_look_alikes_keep_their_bucket(rules: RuleSet, path: str, bucket: str) -> None:
    assert rules.match(path).bucket == bucket, (path, rules.match(path))


@each_case("path", ["gradle/wrapper/gradle-wrapper.jar", ".mvn/wrapper/maven-wrapper.jar"])
def test_wrapper_jars_keep_their_toolchain_rule(rules: RuleSet, path: str) -> None:
    assert "toolchain" in rules.match(path).tags, path
