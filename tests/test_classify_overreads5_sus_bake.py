"""Over-reads 5: the files Ruby's sus test runner and bake-test load where CI runs them (issue 12, socketry's gems).

socketry's gems (async, falcon, protocol-http, ...) test with `bundle exec bake test`: bake-test's `test` task runs
sus, which loads `config/sus.rb` (a Ruby module: `require "covered/sus"`, environment, hooks) before any test;
`bake test:external` clones the projects `config/external.yaml` lists and runs the `command:` each names. Both stayed
`src` (exit 0). Now a line running `sus`/`sus-parallel` names `config/sus.rb`, `bake test` (or `test:…`) names it too,
and `bake test:external` names `config/external.yaml`. Look-alikes: `docker buildx bake test`, `rake test`,
`bake gem:release`, a word ending in bake."""

from __future__ import annotations

from citools import BLOCK_DEFINITIONS, one_tree_runs
from tables import each_case

FILES = {"config/sus.rb": "require \"covered/sus\"\ninclude Covered::Sus\n",
         "config/external.yaml": "async-pool:\n  url: https://github.com/socketry/async-pool.git\n"
                                 "  command: bundle exec sus\n",
         "gems.rb": "source \"https://rubygems.org\"\ngemspec\n", "lib/async.rb": "module Async; end\n"}


def _runs(line: str, definition: int) -> set[str]:
    path, text = BLOCK_DEFINITIONS[definition]
    runs = one_tree_runs({**FILES, path: text.format(line=line)})
    assert isinstance(runs, dict)
    return {name for name in runs if name in FILES and name != "gems.rb"}  # (`bundle exec` reads gems.rb: deps)


LINES = {  # a command line: what it loads
    "bundle exec bake test": {"config/sus.rb"}, "bake test": {"config/sus.rb"},
    "bundle exec bake test:external": {"config/sus.rb", "config/external.yaml"},
    "bundle exec sus": {"config/sus.rb"}, "bundle exec sus test/.agent/context": {"config/sus.rb"},
    "sus-parallel": {"config/sus.rb"}, "bundle exec bake test --verbose": {"config/sus.rb"},
    "bundle exec bake build test": {"config/sus.rb"},
}
LOOK_ALIKES = ["docker buildx bake test", "docker bake test", "rake test", "bundle exec bake gem:release",
               "bundle exec bake covered:validate", "./cupcake test", "echo sustain"]


@each_case("line, definition", [(line, definition) for line in LINES for definition in range(3)])
def test_what_sus_and_bake_test_load_is_ci(line: str, definition: int) -> None:
    assert _runs(line, definition) == LINES[line]


@each_case("line, definition", [(line, definition) for line in LOOK_ALIKES for definition in range(3)])
def test_look_alikes_load_nothing(line: str, definition: int) -> None:
    assert _runs(line, definition) == set()
