"""Classes of misses the forty-second label set found (bench/classify_accuracy/fortysecond.tsv: 58 repositories of
game engines, data and ML libraries, Android apps, firmware, scientific Python, CMSs and browser extensions, measured
blind first), each with the look-alikes it must leave alone.

- CI scripts in a developer-tools folder's `ci/` (openmm's `devtools/ci/`, whose conda environments the workflows
  install; psalm's `bin/ci/`) are ci, as `scripts/ci/` and `tools/ci/` are: a dependency file there feeds CI jobs
  only (principle 0), so the conda-environment content signal must not pull it to deps.
- Vendored code one level further down a source folder (qBittorrent's `src/base/3rdparty/lua/`) and in a root
  `cextern/` (where astropy and its affiliated packages keep the C libraries they bundle) is deps; a test tree's
  `tests/3rdparty/` stays the tests' code.
- pip requirements in a folder named `*_requirements/` or `*-requirements/` (django CMS' `test_requirements/`) are
  manifests under any file name, as in `requirements/`.
- Governance and tool settings: the root `CREDITS` and `THANKS` lists are governance as `AUTHORS` is (a
  `Credits.vue` component is code, an example's asset `credits.txt` is the example's); Uncrustify's
  `uncrustify.cfg`, Landscape's `.landscape.yaml` and a project's own Vale styles in `vale-styles/` are settings
  (other).
- The reference images of an Android screenshot-test source set (`src/screenshotTestDebug/reference/`) are test
  data (src), as a `test/` tree's images are; an app's own `src/main/res/` images stay binary assets.
"""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from tests.gitrepo import GitRepo
from tests.test_classify_context import assert_path_rule, both_ways


@each_case(("path", "bucket", "rule"), [
    ("devtools/ci/gh-actions/conda-envs/build-ubuntu-latest.yml", "ci", "ci.script-folders"),
    ("devtools/ci/gh-actions/scripts/run-tests.sh", "ci", "ci.script-folders"),
    ("bin/ci/build-phar.sh", "ci", "ci.script-folders"), ("dev/ci/lint.sh", "ci", "ci.script-folders"),
    ("utils/ci/requirements.txt", "ci", "ci.script-folders"),
    ("src/devtools/ci/helpers.py", "src", None),  # a package's own module of that name
    ("devtools/packaging/scripts/source/build.sh", "src", None),
    ("src/base/3rdparty/lua/CMakeLists.txt", "deps", "deps.vendored-nested"),
    ("src/core/thirdparty/miniz/miniz.c", "deps", "deps.vendored-nested"),
    ("cextern/wcslib/C/wcs.c", "deps", "deps.vendored-nested"),
    ("cextern/trim_cfitsio.sh", "deps", "deps.vendored-nested"),
    ("tests/3rdparty/catch.hpp", "src", None),  # a test tree's copy stays the tests' code
    ("astropy/wcs/src/cextern_helpers.c", "src", None), ("lib/cextern/x.c", "src", None),
    ("src/base/3rdparty/Dockerfile", "iac", "iac.containers"),  # what the IaC rules name keeps its bucket
    ("test_requirements/django-5.2.txt", "deps", "deps.pip.manifest"),
    ("ci-requirements/base.txt", "deps", "deps.pip.manifest"),
    ("test_requirements/README.md", "src", None),
    ("CREDITS", "other", "other.governance"), ("CREDITS.md", "other", "other.governance"),
    ("THANKS", "other", "other.governance"), ("THANKS.txt", "other", "other.governance"),
    ("addons/phantom_camera/examples/credits.txt", "src", None),  # an example's asset credits (thirty-eighth set)
    ("docs/THANKS.txt", "src", None),
    ("src/components/Credits.vue", "src", None), ("src/credits.ts", "src", None),
    (".uncrustify.cfg", "other", "other.build-tool-settings"),
    ("tools/uncrustify.cfg", "other", "other.build-tool-settings"),
    (".github/uncrustify.cfg", "ci", "ci.github-other"),  # principle 0: the .github folder decides first
    (".landscape.yaml", "other", "other.code-services"), (".landscape.yml", "other", "other.code-services"),
    ("docs/vale-styles/Homebrew/Terms.yml", "other", "other.lint-format"),
    ("docs/styles/terms.yml", "src", None),
    ("common/src/screenshotTestDebug/reference/io/app/CardTest/Card_Light_0.png", "src", "src.test-assets"),
    ("app/src/screenshotTest/kotlin/io/app/CardTest.kt", "src", None),
    ("app/src/main/res/drawable/logo.png", "other", "other.binary-assets"),
])
def test_path_rules_of_the_fortysecond_round(path: str, bucket: str, rule: str | None) -> None:
    assert_path_rule(path, bucket, rule)


_CONDA = "name: build\nchannels:\n  - conda-forge\ndependencies:\n  - cmake\n  - swig\n  - numpy\n"


def test_the_fortysecond_classes_in_a_real_repository(git_repo: GitRepo, tmp_path: Path) -> None:
    """An edit of each kind, read with the tree's context and as a patch: the path decides, content does not undo it."""
    git_repo.write("README.md", "# simulation toolkit\n")
    git_repo.commit("base")
    texts = {
        "devtools/ci/gh-actions/conda-envs/build-ubuntu-latest.yml": _CONDA,
        "environment.yml": _CONDA,  # the developers' environment at the root stays a manifest
        "src/base/3rdparty/lua/CMakeLists.txt": "add_library(lua STATIC lapi.c lcode.c)\n",
        "cextern/cfitsio/lib/fitscore.c": "/* FITS file core routines */\nint ffvers(float *version);\n",
        "tests/3rdparty/catch.hpp": "#pragma once\n#define CATCH_VERSION 2\n",
        "test_requirements/django-5.2.txt": "-r requirements_base.txt\nDjango>=5.2a1,<6.0\n",
        "CREDITS": "Authors and maintainers:\n  A. Maintainer\n\nContributors:\n  B. Contributor\n",
        ".uncrustify.cfg": "indent_columns = 4\nsp_after_comma = add\n",
        "common/src/screenshotTestDebug/reference/io/app/Card_Light_0.png": b"\x89PNG\r\n\x1a\n\x00",
    }
    want = {"devtools/ci/gh-actions/conda-envs/build-ubuntu-latest.yml": "ci", "environment.yml": "deps",
            "src/base/3rdparty/lua/CMakeLists.txt": "deps", "cextern/cfitsio/lib/fitscore.c": "deps",
            "tests/3rdparty/catch.hpp": "src", "test_requirements/django-5.2.txt": "deps", "CREDITS": "other",
            ".uncrustify.cfg": "other", "common/src/screenshotTestDebug/reference/io/app/Card_Light_0.png": "src"}
    both_ways(git_repo, tmp_path, texts, want)
