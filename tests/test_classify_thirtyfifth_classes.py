"""Classes of misses the thirty-fifth label set found (bench/classify_accuracy/thirtyfifth.tsv: 60 ordinary
applications and libraries in many languages, measured blind first), each with the look-alikes it must leave alone:
PHPStan settings under a variant name, doctor-rst's settings, PhpStorm
Meta Storm metadata and Netflix's OSSMETADATA are `other`; packages committed in a test tree's `node_modules/` are a
bundler's resolution fixtures (`src`); and a justfile whose recipe takes a default argument under an attribute
(`[no-cd]`, then `test filter='.*':`) is no INI inventory of hosts (content). The real repository below checks the
content class with the commits and from the patch."""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from tests.gitrepo import GitRepo
from tests.test_classify_context import assert_path_rule, patch_files, tree_files


@each_case(("path", "bucket", "rule"), [
    # linter, docs-linter and IDE settings, project metadata
    ("phpstan-7x.dist.neon", "other", "other.lint-format"),
    ("phpstan-baseline-8x.neon", "other", "other.lint-format"),
    ("doc/.doctor-rst.yaml", "other", "other.lint-format"),
    ("framework/.meta-storm/html.meta-storm.xml", "other", "other.editor"),
    ("OSSMETADATA", "other", "other.governance"),
    ("src/storm.xml", "src", None), ("config/phpstan.php", "src", None),
    # packages committed in a test tree's node_modules/: a bundler's resolution fixtures
    ("test/node_modules/external-esm/package.json", "src", "src.test-packages"),
    ("tests/node_modules/dep/index.js", "src", "src.test-packages"),
    ("packages/vite/src/__tests__/glob/fixture-a/node_modules/framework/page.js", "src", "src.test-packages"),
    # ... but installed or vendored packages and a test project's own manifest stay deps
    ("node_modules/left-pad/package.json", "deps", None),
    ("web/node_modules/react/index.js", "deps", None),
    ("test/package.json", "deps", None),
])
def test_path_rules_of_the_thirty_fifth_round(path: str, bucket: str, rule: str | None) -> None:
    assert_path_rule(path, bucket, rule)


JUSTFILE = """set dotenv-load

bin := "tool"

# Run all tests
test filter='.*':
\t@go test ./... -run={{filter}}

[no-cd]
test-pkg filter='.*':
  @go test ./... -json -run={{filter}}

[private]
build:
  go build -o {{bin}} .
"""
HOSTS = """# staging machines
[web]
web1.example.internal http_port=8080 maxRequestsPerChild=808

[db]
db1.example.internal
"""


def test_a_justfile_with_recipe_arguments_is_no_inventory_in_a_real_repository(
        git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("README.md", "# a Go command-line tool with a justfile and a staging inventory\n")
    git_repo.commit("base")
    git_repo.write("justfile", JUSTFILE)
    git_repo.write("staging/machines.ini", HOSTS)
    git_repo.commit("head")
    want = {"justfile": "src", "staging/machines.ini": "iac"}
    files = tree_files(git_repo)
    assert {path: files[path].bucket for path in want} == want
    assert files["staging/machines.ini"].rule == "iac.content.ansible-inventory"
    patched = patch_files(git_repo, tmp_path)
    assert {path: patched[path].bucket for path in want} == want
