"""Classes of misses the forty-sixth label set found (bench/classify_accuracy/fortysixth.tsv: 42 repositories taken
from the deps rounds' mirrors — mobile apps, Elixir/Erlang, C#, PHP, Rust and TypeScript monorepos, a homelab —,
measured blind first), each with the look-alikes it must leave alone.

- rebar3 builds the projects checked out in a `_checkouts/` folder in place of the dependencies of those names
  (ejabberd's `_checkouts/configure_deps/`): vendored code (deps).
- Packages a test tree commits in a `node_modules/` folder deeper than its top (rolldown's
  `crates/rolldown/tests/esbuild/default/node_modules/`) are what the tests resolve: src, not final, as
  `tests/node_modules/` is; an installed package's own test packages (`node_modules/x/test/y/node_modules/`) stay deps.
- Code named like a governance file with a separator (EventStore's `copying_metadata.cs` test) is src; `COPYING_7z`
  and `COPYING-GPL` stay governance.
- A script a fastlane folder keeps beside its Fastfile (lichess' `android/fastlane/add-debug-symbols.sh`, which a lane
  runs with `sh`) is ci, as the Ruby there is; fastlane's own `lib/` stays src.
- Tool settings under names no rule knew: PHPUnit's suite variants (`phpunit.integration.xml`, Flarum's extensions),
  protolock's `proto.lock` state, ccls' `.ccls` (other).
- A documentation tree's `conventions.md` is a page (src), while the root `CONVENTIONS.md` stays agent instructions.
"""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from tests.gitrepo import GitRepo
from tests.test_classify_context import assert_path_rule, both_ways, tree_files


@each_case(("path", "bucket", "rule"), [
    ("_checkouts/configure_deps/src/configure_deps_prv.erl", "deps", "deps.vendored"),
    ("_checkouts/configure_deps/rebar.config", "deps", None),
    ("apps/chat/_checkouts/lager/src/lager.erl", "deps", "deps.vendored"),
    ("src/checkouts/cart.erl", "src", None), ("lib/checkout.ex", "src", None),
    ("crates/rolldown/tests/esbuild/default/node_modules/artifacts.snap", "src", "src.test-packages"),
    ("crates/rolldown/tests/rolldown/cjs/node_modules/namespace-barrel/package.json", "src", "src.test-packages"),
    ("packages/vite/src/node/__tests__/fixtures/x/node_modules/y/index.js", "src", None),
    ("test/cases/resolve/node_modules/pkg/index.js", "src", None),
    ("node_modules/resolve/test/resolver/node_modules/dep/index.js", "deps", "deps.vendored-test-data"),
    ("node_modules/resolve/tests/a/node_modules/dep/package.json", "deps", "deps.vendored-test-data"),
    (".yarn/unplugged/resolve/test/a/node_modules/dep/index.js", "deps", "deps.vendored-test-data"),
    ("web/node_modules/react/index.js", "deps", "deps.npm.installed"),
    ("src/EventStore.Core.Tests/copying_metadata.cs", "src", "src.code-named-like-governance"),
    ("pkg/copying-rules.go", "src", "src.code-named-like-governance"),
    ("lib/copying_helpers.py", "src", "src.code-named-like-governance"),
    ("COPYING_7z", "other", "other.governance"), ("COPYING-GPL", "other", "other.governance"),
    ("COPYING", "other", "other.governance"), ("COPYING_LGPL.txt", "other", "other.governance"),
    ("android/fastlane/add-debug-symbols.sh", "ci", "ci.fastlane-code"),
    ("fastlane/upload.sh", "ci", "ci.fastlane-code"),
    ("fastlane/lib/fastlane/helper/sh_helper.sh", "src", None),  # fastlane's own source tree
    ("scripts/fastlane.sh", "src", None),
    ("extensions/likes/tests/phpunit.integration.xml", "other", "other.lint-format"),
    ("phpunit.unit.xml", "other", "other.lint-format"), ("phpunit.xml", "other", "other.lint-format"),
    ("tests/fixtures/phpunit_result.xml", "src", None),
    ("proto.lock", "other", "other.lint-format"),
    ("lib/.ccls", "other", "other.editor"), (".ccls", "other", "other.editor"),
    ("Cargo.lock", "deps", None), ("protos/protos.lock.go", "src", None),
    ("docs/conventions.md", "src", "src.docs-named-like-governance"),
    ("doc/dev/conventions.md", "src", "src.docs-named-like-governance"),
    ("CONVENTIONS.md", "other", "other.agent-instructions"),
])
def test_path_rules_of_the_fortysixth_round(path: str, bucket: str, rule: str | None) -> None:
    assert_path_rule(path, bucket, rule)


def test_the_fortysixth_classes_in_a_real_repository(git_repo: GitRepo, tmp_path: Path) -> None:
    """An edit of each kind, read with the tree's context and as a patch: the path decides, content does not undo it."""
    git_repo.write("README.md", "# chat server\n")
    git_repo.write("android/fastlane/Fastfile", 'lane :deploy do\n  sh "./add-debug-symbols.sh"\n'
                                                '  upload_to_play_store\nend\n')
    git_repo.commit("base")
    texts = {
        "_checkouts/configure_deps/src/configure_deps_prv.erl": "-module(configure_deps_prv).\n-export([init/1]).\n"
                                                                "init(State) -> {ok, State}.\n",
        "crates/bundler/tests/esm/node_modules/barrel/package.json": '{"name": "barrel", "version": "1.0.0", '
                                                                     '"type": "module", "exports": "./index.js"}\n',
        "src/Core.Tests/copying_metadata.cs": "namespace Core.Tests;\npublic class CopyingMetadata { }\n",
        "android/fastlane/add-debug-symbols.sh": "#!/bin/sh\nset -e\nmkdir -p native-debug-symbols\n",
        "extensions/likes/tests/phpunit.integration.xml": '<?xml version="1.0"?>\n<phpunit bootstrap="x.php">\n'
                                                          '  <testsuites><testsuite name="i"><directory>integration'
                                                          '</directory></testsuite></testsuites>\n</phpunit>\n',
        "proto.lock": '{"definitions": [{"protopath": "api:/:events.proto", "def": {"messages": []}}]}\n',
        "lib/.ccls": "-std=c99\n-Isrc\n",
        "docs/conventions.md": "# Contributing\n\n## Development philosophy\n",
    }
    want = {"_checkouts/configure_deps/src/configure_deps_prv.erl": "deps",
            "crates/bundler/tests/esm/node_modules/barrel/package.json": "src",
            "src/Core.Tests/copying_metadata.cs": "src", "android/fastlane/add-debug-symbols.sh": "ci",
            "extensions/likes/tests/phpunit.integration.xml": "other", "proto.lock": "other", "lib/.ccls": "other",
            "docs/conventions.md": "src"}
    both_ways(git_repo, tmp_path, texts, want)


def test_a_workflow_in_a_deep_test_package_folder_is_still_raised(git_repo: GitRepo) -> None:
    """The test packages are not final: a Dockerfile written into one is still a Dockerfile (fail closed)."""
    git_repo.write("README.md", "# bundler\n")
    git_repo.commit("base")
    git_repo.write("crates/bundler/tests/esm/node_modules/barrel/Dockerfile", "FROM alpine:3.20\nRUN apk add curl\n")
    git_repo.commit("head")
    found = tree_files(git_repo)["crates/bundler/tests/esm/node_modules/barrel/Dockerfile"]
    assert found.bucket == "iac", found
