"""Classes of misses the fortieth label set found (bench/classify_accuracy/fortieth.tsv: 69 repositories of
applications and libraries in JavaScript, Python, Go, Rust, Java/Kotlin, .NET, PHP, Ruby, Swift, C/C++, Erlang, Lua
and V, measured blind first), each with the look-alikes it must leave alone.

- Vendored code in a root `thirdparty/` (V's mbed TLS) or a `3rdparty/`/`thirdparty/` folder of a source folder
  (xmrig's `src/3rdparty/rapidjson/`) is deps, as `third_party/` is; a test tree's `tests/thirdparty/` stays the
  tests' code (the seventh set labels nlohmann/json's fuzzer there `src`). A minified client library that keeps its
  release in its name (`jquery-1.11.0.min.js`) is a copy of that release: deps.
- Manifests of embedded ecosystems: an Arduino library's `library.properties`, an ESP-IDF component's
  `idf_component.yml`; refreshVersions' root `versions.properties` pins a Gradle build's dependency versions.
- CI that is not a forge's workflow: JitPack's root `jitpack.yml` (the build JitPack runs to publish), zizmor's root
  settings (what the workflow audit ignores), cargo-release's root `release.toml`/`.release.toml`.
- PowerShell DSC v3 configuration documents (`*.dsc.yaml`, `*.dsc.config.yaml`) declare a machine's desired state:
  iac, in a test tree too (test data never lowers iac).
- Governance: `NOTICES`, `SECURITY.txt` and Zenodo's root `.zenodo.json` are other; a Vue component named
  `Contributors.vue` is not a contributors list.
"""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from tests.gitrepo import GitRepo
from tests.test_classify_context import assert_path_rule, both_ways, patch_files, tree_files


@each_case(("path", "bucket", "rule"), [
    ("thirdparty/mbedtls/library/dhm.c", "deps", "deps.vendored-nested"),
    ("src/3rdparty/rapidjson/license.txt", "deps", "deps.vendored-nested"),
    ("src/3rdparty/libethash/CMakeLists.txt", "deps", "deps.vendored-nested"),
    ("lib/core/src/thirdparty/miniz/miniz.c", "deps", "deps.vendored-nested"),
    ("examples/blog/static/js/jquery-1.11.0.min.js", "deps", "deps.vendored-nested"),
    ("public/css/bootstrap-3.3.7.min.css", "deps", "deps.vendored-nested"),
    ("tests/thirdparty/Fuzzer/build.sh", "src", None),  # a test tree's copy stays the tests' code
    ("thirdparty/modules/main.tf", "iac", "iac.terraform"),  # what the IaC rules name keeps its bucket
    ("src/thirdparty/Dockerfile", "iac", "iac.containers"),
    ("dist/app.min.js", "src", None), ("docs/thirdparty.md", "src", None),
    ("library.properties", "deps", "deps.other.manifest"),
    ("components/sensor/idf_component.yml", "deps", "deps.other.manifest"),
    ("versions.properties", "deps", "deps.gradle.manifest"),
    ("src/main/resources/versions.properties", "src", None),  # an application's resource of that name
    ("jitpack.yml", "ci", "ci.other-systems"), ("docs/jitpack.yml", "src", None),
    ("zizmor.yml", "ci", "ci.other-systems"), (".zizmor.yaml", "ci", "ci.other-systems"),
    ("docs/zizmor.yml", "src", None),
    (".release.toml", "ci", "ci.release-tools"), ("release.toml", "ci", "ci.release-tools"),
    ("crates/cli/release.toml", "src", None),
    ("test/powershell/dsc/psprofile_export.dsc.yaml", "iac", "iac.config-management"),
    ("config/web.dsc.config.yaml", "iac", "iac.config-management"),
    ("dsc/resources/profile.dsc.resource.json", "src", None),  # a resource's manifest is its code, not a state
    ("NOTICES", "other", "other.governance"), ("SECURITY.txt", "other", "other.governance"),
    (".zenodo.json", "other", "other.governance"), ("AUTHORS.md", "other", "other.governance"),
    ("CONTRIBUTORS.txt", "other", "other.governance"), ("CONTRIBUTORS", "other", "other.governance"),
    ("docs/.vuepress/components/Contributors.vue", "src", None), ("web/src/Authors.tsx", "src", None),
    ("docs/.zenodo.json", "src", None),
    ("src/AdapterTestUtilities/.github/FUNDING.yml", "other", "other.nested-github-community"),
    ("packages/ui/.github/ISSUE_TEMPLATE/bug.yml", "other", "other.nested-github-community"),
    ("src/AsyncAwsS3/.github/workflows/close-subsplit-prs.yaml", "src", None),  # never run here
    ("assets/vendor/hint.css/.github/FUNDING.yml", "deps", "deps.vendored"),  # part of the vendored copy
])
def test_path_rules_of_the_fortieth_round(path: str, bucket: str, rule: str | None) -> None:
    assert_path_rule(path, bucket, rule)


_DSC = ("# the profile every user gets\n$schema: https://aka.ms/dsc/schemas/v3/bundled/config/document.json\n"
        "resources:\n- name: UserProfile\n  type: Microsoft.PowerShell/Profile\n  properties:\n"
        "    profileType: AllUsers\n")
_REFRESH = "## pinned by the refreshVersions plugin\n\nversion.okhttp3=4.12.0\nplugin.com.android.application=8.5.0\n"


def test_the_fortieth_classes_in_a_real_repository(git_repo: GitRepo, tmp_path: Path) -> None:
    """An edit of each kind, read with the tree's context and as a patch: the path decides, content does not undo it."""
    git_repo.write("README.md", "# firmware\n")
    git_repo.commit("base")
    texts = {
        "src/3rdparty/rapidjson/document.h": "#ifndef RAPIDJSON_DOCUMENT_H_\n#define RAPIDJSON_DOCUMENT_H_\n#endif\n",
        "thirdparty/mbedtls/library/dhm.c": "/* Diffie-Hellman-Merkle key exchange */\nint mbedtls_dhm_x(void);\n",
        "tests/thirdparty/Fuzzer/build.sh": "#!/bin/sh\nclang++ -c -g -O2 *.cpp\n",
        "library.properties": "name=TinySensor\nversion=1.2.0\nauthor=Example Maker\narchitectures=*\n",
        "idf_component.yml": "version: \"1.2.0\"\ndescription: sensor driver\ndependencies:\n  idf: \">=5.0\"\n",
        "versions.properties": _REFRESH,
        "jitpack.yml": "jdk:\n  - openjdk17\ninstall:\n  - ./gradlew publishToMavenLocal\n",
        "zizmor.yml": "rules:\n  unpinned-uses:\n    config:\n      policies:\n        actions/*: ref-pin\n",
        "test/powershell/dsc/psprofile_export.dsc.yaml": _DSC,
        "NOTICES": "This product bundles a JSON parser under the MIT licence.\n",
        "docs/.vuepress/components/Contributors.vue": "<template>\n  <div class=\"contributors\"></div>\n</template>\n",
        "src/main/resources/versions.properties": "app.version=1.2.0\n",
    }
    want = {"src/3rdparty/rapidjson/document.h": "deps", "thirdparty/mbedtls/library/dhm.c": "deps",
            "tests/thirdparty/Fuzzer/build.sh": "src", "library.properties": "deps", "idf_component.yml": "deps",
            "versions.properties": "deps", "jitpack.yml": "ci", "zizmor.yml": "ci",
            "test/powershell/dsc/psprofile_export.dsc.yaml": "iac", "NOTICES": "other",
            "docs/.vuepress/components/Contributors.vue": "src", "src/main/resources/versions.properties": "src"}
    both_ways(git_repo, tmp_path, texts, want)


_PROGRAM = "#!/usr/bin/env node\n\nimport { Command } from 'commander';\nconst program = new Command();\n"
_R_PACKAGE = "Package: tidyfoo\nType: Package\nTitle: Tidy Foo\nVersion: 0.1.0\nImports:\n    dplyr (>= 1.0.0)\n"


@each_case(("path", "text", "bucket"), [
    ("examples/description", _PROGRAM, "src"),  # Commander's example program of that name
    ("docs/DESCRIPTION", "A short text about the tool, shown on the download page.\n", "src"),
    ("DESCRIPTION", _R_PACKAGE, "deps"),  # an R package's own
    ("pkg/DESCRIPTION", "# generated\n" + _R_PACKAGE, "deps"),
    ("examples/Description", "Title: an example\nLicense: MIT\n", "deps"),  # one R field is enough to stay deps
])
def test_a_file_named_like_rs_description_is_deps_only_with_its_fields(
        git_repo: GitRepo, tmp_path: Path, path: str, text: str, bucket: str) -> None:
    git_repo.write("README.md", "# tool\n")
    git_repo.commit("base")
    git_repo.write(path, text)
    git_repo.commit("head")
    found = tree_files(git_repo)[path]
    assert found.bucket == bucket, found
    assert bucket == "deps" or found.rule == "src.content.not-r-description", found
    assert patch_files(git_repo, tmp_path)[path].bucket == bucket  # an added file: the patch shows it whole


def test_an_r_description_rewritten_as_a_program_stays_deps(git_repo: GitRepo, tmp_path: Path) -> None:
    """The proof is needed on every side: the old side names an R package, so the edit is a dependency change."""
    git_repo.write("DESCRIPTION", _R_PACKAGE)
    git_repo.commit("base")
    git_repo.write("DESCRIPTION", _PROGRAM)
    git_repo.commit("head")
    assert tree_files(git_repo)["DESCRIPTION"].bucket == "deps"
    assert patch_files(git_repo, tmp_path)["DESCRIPTION"].bucket == "deps"
