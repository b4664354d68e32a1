"""Classes of misses the thirtieth label set found (bench/classify_accuracy/thirtieth.tsv: 63 repositories in
seventeen languages, many repositories and few files each, measured blind first), each with the look-alikes it must
leave alone: MongoDB's Evergreen CI folder `.evergreen/` and its root and `etc/` project files (ci, a requirements file
in the folder too), Stack project files named for a resolver (`stack-lts-22.yaml`, deps; in a workflows folder ci; a
CloudFormation `stack-prod.yaml` is not one) and a named crate's `*.Cargo.lock` (deps), packages shaped like
`node_modules/` inside a linter's fixtures folder and Kotlin test source sets' resources without `src/` (src; an
installed package's own fixture packages stay deps), a docs site's `blog/authors.yml` (src; the governance `AUTHORS`
stays other), the ASF's `DISCLAIMER` (other), and settings of tools and outside services (`.coderabbit.yml`,
Code Climate, StyleCI, neoconf, StyLua, swift-format, PHPStan, ls-lint, Cucumber profiles: other). The real repository
below checks them with the commits and from the patch."""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from tests.gitrepo import GitRepo
from tests.test_classify_context import assert_path_rule, patch_files, tree_files


@each_case(("path", "bucket", "rule"), [
    # Evergreen, MongoDB's CI system: its folder is CI through and through (principle 0)
    (".evergreen/config.yml", "ci", "ci.system-folders"),
    (".evergreen/setup-system.sh", "ci", "ci.system-folders"),
    (".evergreen/ocsp-requirements.txt", "ci", "ci.system-folders"),
    (".evergreen.yml", "ci", "ci.system-folders"),
    ("etc/evergreen.yml", "ci", "ci.system-folders"),
    ("etc/evergreen_yml_components/tasks/compile_tasks.yml", "ci", "ci.system-folders"),
    ("docs/evergreen.md", "src", None), ("src/evergreen/client.go", "src", None),
    ("services/etc/evergreen.yml", "src", None),  # anchored at the root, as the server keeps it
    # Stack project files named for a resolver, a named crate's Cargo lock
    ("stack-lts-22.yaml", "deps", "deps.haskell.manifest"),
    ("stack-ghc-9.8.yaml", "deps", "deps.haskell.manifest"),
    ("stack-nightly.yaml", "deps", "deps.haskell.manifest"),
    ("stack-lts-22.yaml.lock", "deps", "deps.haskell.lockfile"),
    (".github/workflows/stack-lts-22.yaml", "ci", "ci.workflows-folder"),  # the forge runs it
    (".gitea/workflows/stack-nightly.yml", "ci", "ci.workflows-folder"),
    ("deploy/stack-prod.yaml", "iac", None),  # a CloudFormation stack is no Stack project
    ("templates/stack.template.yaml", "src", None),
    ("crate_locks/atc_router.Cargo.lock", "deps", "deps.cargo.lockfile"),
    ("crate_locks/README.md", "src", None),
    # test data: fixture packages shaped like node_modules/, Kotlin test resources without src/
    ("crates/oxc_linter/fixtures/import/node_modules/acorn/acorn.mjs", "src", "testdata.fixture-packages"),
    ("crates/oxc_linter/fixtures/import/node_modules/acorn/package.json", "src", "testdata.fixture-packages"),
    ("node_modules/resolve/fixtures/node_modules/dep/index.js", "deps", "deps.vendored-test-data"),
    ("node_modules/acorn/dist/acorn.mjs", "deps", "deps.npm.installed"),  # installed code stays deps
    ("packages/app/node_modules/left-pad/index.js", "deps", "deps.npm.installed"),
    ("formats/json-tests/jvmTest/resources/corpus.zip", "src", "testdata.fixture-packages"),
    ("core/commonTest/resources/sample.json", "src", "testdata.fixture-packages"),
    ("core/jvmMain/resources/logo.png", "other", "other.binary-assets"),  # main resources are not test data
    ("app/latest/resources/icon.png", "other", "other.binary-assets"),
    # documentation content and governance
    ("docs/blog/authors.yml", "src", "docs.blog-authors"),
    ("website/blog/authors.yml", "src", "docs.blog-authors"),
    ("AUTHORS.yml", "other", "other.governance"),
    ("AUTHORS", "other", "other.governance"),
    ("DISCLAIMER", "other", "other.governance"),
    ("DISCLAIMER-WIP", "other", "other.governance"),
    ("src/disclaimer.ts", "src", None),
    # settings of tools and outside services
    (".coderabbit.yml", "other", "other.outside-apps"),
    (".codeclimate.yml", "other", "other.outside-apps"),
    (".styleci.yml", "other", "other.outside-apps"),
    (".neoconf.json", "other", "other.editor"),
    ("stylua.toml", "other", "other.lint-format"), (".stylua.toml", "other", "other.lint-format"),
    (".swift-format", "other", "other.lint-format"),
    ("phpstan.neon.dist", "other", "other.lint-format"), ("phpstan-baseline.neon", "other", "other.lint-format"),
    (".ls-lint.yml", "other", "other.lint-format"),
    ("cucumber.yml", "other", "other.lint-format"), ("config/cucumber.yml", "other", "other.lint-format"),
    (".github/workflows/cucumber.yml", "ci", None),
    (".github/.coderabbit.yml", "ci", None),  # CodeRabbit reads the root file only
    ("lua/plugins/stylua.lua", "src", None), ("Sources/SwiftFormat/Format.swift", "src", None),
])
def test_path_rules_of_the_thirtieth_round(path: str, bucket: str, rule: str | None) -> None:
    assert_path_rule(path, bucket, rule)


EVERGREEN = """functions:
  setup-system:
    - command: subprocess.exec
      params:
        binary: bash
        args: [.evergreen/setup-system.sh]
tasks:
  - name: test-standalone
    commands:
      - func: setup-system
buildvariants:
  - name: ubuntu2204
    run_on: ubuntu2204-small
    tasks: [test-standalone]
"""
STACK = """resolver: lts-22.43
packages:
- ./web-core
- ./web-forms
extra-deps:
- wai-extra-3.1.14
"""
CARGO_LOCK = """# This file is automatically @generated by Cargo.
# It is not intended for manual editing.
version = 3

[[package]]
name = "memchr"
version = "2.7.4"
source = "registry+https://github.com/rust-lang/crates.io-index"
checksum = "78ca9ab1a0babb1e7d5695e3530886289c18cf2f87ec19a3d6e6d3e6c6a6f1e4"
"""
BLOG_AUTHORS = """team:
  name: The Docs Team
  url: https://example.org/team
  image_url: https://example.org/team.png
"""
PHPSTAN = """parameters:
\tlevel: 8
\tpaths:
\t\t- src
"""


def test_the_thirtieth_classes_in_a_real_repository(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("README.md", "# a driver with Evergreen CI, a Haskell site build and a linter's fixtures\n")
    git_repo.commit("base")
    texts = {
        ".evergreen/config.yml": EVERGREEN,
        ".evergreen/setup-system.sh": "#!/usr/bin/env bash\nset -eu\nmake build\n",
        ".evergreen/ocsp-requirements.txt": "asn1crypto==1.3.0\noscrypto==1.2.0\n",
        "stack-lts-22.yaml": STACK,
        "crate_locks/router.Cargo.lock": CARGO_LOCK,
        "crates/linter/fixtures/import/node_modules/acorn/index.mjs": "export function parse() {}\n",
        "formats/json-tests/jvmTest/resources/sample.json": '{"a": 1}\n',
        "docs/blog/authors.yml": BLOG_AUTHORS,
        "DISCLAIMER": "This project is undergoing incubation at the Apache Software Foundation.\n",
        ".coderabbit.yml": "language: en-US\nreviews:\n  auto_review:\n    enabled: true\n",
        "phpstan.neon.dist": PHPSTAN,
        "stylua.toml": 'indent_type = "Spaces"\nindent_width = 2\n',
    }
    want = {
        ".evergreen/config.yml": "ci", ".evergreen/setup-system.sh": "ci", ".evergreen/ocsp-requirements.txt": "ci",
        "stack-lts-22.yaml": "deps", "crate_locks/router.Cargo.lock": "deps",
        "crates/linter/fixtures/import/node_modules/acorn/index.mjs": "src",
        "formats/json-tests/jvmTest/resources/sample.json": "src", "docs/blog/authors.yml": "src",
        "DISCLAIMER": "other", ".coderabbit.yml": "other", "phpstan.neon.dist": "other", "stylua.toml": "other",
    }
    for path, text in texts.items():
        git_repo.write(path, text)
    git_repo.commit("head")
    files = tree_files(git_repo)
    assert {path: files[path].bucket for path in want} == want
    assert files["stack-lts-22.yaml"].rule == "deps.haskell.manifest"
    patched = patch_files(git_repo, tmp_path)
    assert {path: patched[path].bucket for path in want} == want
