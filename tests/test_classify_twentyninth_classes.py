"""Classes of misses the twenty-ninth label set found (bench/classify_accuracy/twentyninth.tsv: 58 repositories in
sixteen languages, many repositories and few files each, measured blind first), each with the look-alikes it must
leave alone: Symfony Flex's `symfony.lock` and zigmod's `zig.mod`/`zigmod.yml`/`zigmod.lock` (deps), a Zephyr west
manifest named `west.yaml` (deps; one in a workflows folder stays ci), pdf.js's prebuilt viewer copied as `pdfjs/`
(deps; pdf.js's own `web/` and a first-party `src/pdfjs/` module are not), client libraries in `css/libs/` and
`js/libs/` (deps; an Nx workspace's `libs/` is not), prebuilt assemblies in a .NET app's `Libraries/` (deps; its
README and Chef's `libraries/` are not), Checkstyle's settings folder and the Swift Package Index's `.spi.yml` (other;
a Maven module named `checkstyle` keeps its `pom.xml`, `.github/` keeps its files), PHP's `opcache.ini` and
`xdebug.ini` (other), and a Locust load test's `locustfile.py` below `deploy/` (src, while the deploy folder's other
files stay iac). The real repository below checks them with the commits and from the patch."""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from tests.gitrepo import GitRepo
from tests.test_classify_context import assert_path_rule, patch_files, tree_files


@each_case(("path", "bucket", "rule"), [
    # locks and manifests of ecosystems without a Renovate manager
    ("symfony.lock", "deps", "deps.build-ecosystems.locks"),
    ("app/symfony.lock", "deps", "deps.build-ecosystems.locks"),
    ("zigmod.lock", "deps", "deps.build-ecosystems.locks"),
    ("zig.mod", "deps", "deps.build-ecosystems"), ("zigmod.yml", "deps", "deps.build-ecosystems"),
    ("demos/zephyr-common/west.yaml", "deps", "deps.build-ecosystems"),
    ("west.yml", "deps", "deps.build-ecosystems"),
    (".github/workflows/west.yaml", "ci", None),  # the forge runs every YAML file in its workflows folder
    ("ci/zig.mod", "ci", None),  # a CI folder keeps everything
    ("src/mod.zig", "src", None), ("docs/symfony.md", "src", None), ("config/packages/symfony.yaml", "src", None),
    # pdf.js's prebuilt viewer, client libraries in css/libs/ and js/libs/, .NET's Libraries/ assemblies
    ("cookbook/static/pdfjs/web/locale/sr/viewer.ftl", "deps", "deps.vendored-nested"),
    ("public/pdfjs/build/pdf.worker.mjs", "deps", "deps.vendored-nested"),
    ("assets/pdf.js/web/viewer.html", "deps", "deps.vendored-nested"),
    ("web/viewer.js", "src", None),  # pdf.js's own repository
    ("src/pdfjs/loader.ts", "src", None),  # a first-party module that loads pdf.js
    ("internal/view/assets/css/libs/fonts/fa-solid-900.woff", "deps", "deps.vendored-nested"),
    ("internal/view/assets/css/libs/fontawesome.min.css", "deps", "deps.vendored-nested"),
    ("static/js/libs/jquery.min.js", "deps", "deps.vendored-nested"),
    ("libs/ui/src/index.ts", "src", None),  # an Nx workspace's libraries are first-party code
    ("static/css/app.css", "src", None),
    ("src/Libraries/Interop.NetFwTypeLib.dll", "deps", "deps.vendored-nested"),
    ("src/Libraries/Readme.md", "src", None), ("libraries/helpers.rb", "src", None),
    ("bin/Release/App.dll", "other", "other.binary-assets"),
    # settings of tools and outside services
    ("config/checkstyle/suppressions.xml", "other", "other.lint-format"),
    ("config/checkstyle/checkstyle.xml", "other", "other.lint-format"),
    ("src/checkstyle/nohttp-checkstyle.xml", "other", "other.lint-format"),
    ("checkstyle/pom.xml", "deps", "deps.maven.manifest"),  # a Maven module named checkstyle
    (".github/checkstyle/rules.xml", "ci", None),
    (".spi.yml", "other", "other.outside-apps"),
    ("docker/configurations/opcache.ini", "other", "other.app-server-settings"),
    ("docker/php/xdebug.ini", "other", "other.app-server-settings"),
    ("src/opcache.php", "src", None),
    # a Locust load test below deploy/ is a test, the deploy folder's other files stay iac
    ("deploy/docker/common/locust-scripts/locustfile.py", "src", "src.dev-scripts"),
    ("deploy/docker/common/locust-scripts/load.py", "iac", "iac.folders"),
    ("src/loadgenerator/locustfile.py", "src", None),
])
def test_path_rules_of_the_twenty_ninth_round(path: str, bucket: str, rule: str | None) -> None:
    assert_path_rule(path, bucket, rule)


SYMFONY_LOCK = """{
    "doctrine/doctrine-bundle": {
        "version": "2.13",
        "recipe": {
            "repo": "github.com/symfony/recipes",
            "branch": "main",
            "version": "2.13",
            "ref": "8d96c0b51591ffc26794d865ba3ee7d193438a83"
        },
        "files": [
            "config/packages/doctrine.yaml",
            "src/Entity/.gitignore"
        ]
    }
}
"""
ZIG_MOD = """id: 8mdbh0zuneb0i3hs5jby5je0heem1i6yxusl7c8y8qx68hqc
name: imagekit
main: src/main.zig
license: MIT
description: Image decoding for Zig
dependencies:
  - src: git https://github.com/example/zig-deflate
"""
WEST = """manifest:
  remotes:
    - name: zephyrproject-rtos
      url-base: https://github.com/zephyrproject-rtos
  projects:
    - name: zephyr
      remote: zephyrproject-rtos
      revision: v3.7.0
      import: true
"""
LOCUST = """from locust import HttpUser, between, task


class Shopper(HttpUser):
    wait_time = between(1, 5)

    @task
    def browse(self):
        self.client.get("/products")
"""
CHECKSTYLE = """<?xml version="1.0"?>
<!DOCTYPE suppressions PUBLIC "-//Checkstyle//DTD SuppressionFilter Configuration 1.2//EN"
    "https://checkstyle.org/dtds/suppressions_1_2.dtd">
<suppressions>
  <suppress checks="MissingJavadocMethod" files="[\\\\/]internal[\\\\/]"/>
</suppressions>
"""


def test_the_twenty_ninth_classes_in_a_real_repository(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("README.md", "# a shop with its load test, its vendored viewer and its build settings\n")
    git_repo.commit("base")
    texts = {
        "symfony.lock": SYMFONY_LOCK,
        "zig.mod": ZIG_MOD,
        "demos/zephyr/west.yaml": WEST,
        "deploy/load/locustfile.py": LOCUST,
        "deploy/load/compose.yaml": "services:\n  locust:\n    image: locustio/locust:2.31.0\n"
                                    "    volumes:\n      - ./locustfile.py:/home/locust/locustfile.py\n",
        "config/checkstyle/suppressions.xml": CHECKSTYLE,
        "shop/static/pdfjs/web/viewer.css": ":root { --sidebar-width: 200px; }\n",
        "docker/php/opcache.ini": "opcache.enable=1\nopcache.jit_buffer_size=64M\n",
    }
    want = {
        "symfony.lock": "deps", "zig.mod": "deps", "demos/zephyr/west.yaml": "deps",
        "deploy/load/locustfile.py": "src", "deploy/load/compose.yaml": "iac",
        "config/checkstyle/suppressions.xml": "other", "shop/static/pdfjs/web/viewer.css": "deps",
        "docker/php/opcache.ini": "other",
    }
    for path, text in texts.items():
        git_repo.write(path, text)
    git_repo.commit("head")
    files = tree_files(git_repo)
    assert {path: files[path].bucket for path in want} == want
    assert files["symfony.lock"].rule == "deps.build-ecosystems.locks"
    patched = patch_files(git_repo, tmp_path)
    assert {path: patched[path].bucket for path in want} == want
