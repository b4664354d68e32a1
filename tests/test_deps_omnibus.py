"""Omnibus software definitions (omnibus.py): gitlabhq/omnibus-gitlab's `config/software/rubygems.rb`
(`default_version '3.5.6'` → `'3.5.7'`, "Bump rubygems to version 3.5.7") and its helper form (`version =
Gitlab::Version.new('alertmanager', '0.27.0')` printed by `default_version version.print`). Before, neither mode read
these files. Attack cases first (a definition is a Ruby program: only literal lines set once are read), then the
classes and look-alikes, through real git repositories (--tree and the patch)."""

from __future__ import annotations

from pathlib import Path

from cpucost import within_cpu
from deltas import both_edited
from tables import each_case

from gatekeeper.deps.omnibus import parse_definition
from gatekeeper.deps.registry import format_for
from gatekeeper.deps.sources import Delta

RUBYGEMS = """\
#
# Copyright:: Copyright (c) 2012-2014 Chef Software, Inc.
# License:: Apache License, Version 2.0
#

name 'rubygems'
default_version '3.5.6'

license 'MIT'
license_file 'LICENSE.txt'

skip_transitive_dependency_licensing true

dependency 'ruby'

build do
  env = with_standard_compiler_flags(with_embedded_path)

  gem "update --no-document --system #{version}", env: env
end
"""
ALERTMANAGER = """\
require "#{Omnibus::Config.project_root}/lib/gitlab/version"

name 'alertmanager'
version = Gitlab::Version.new('alertmanager', '0.27.0')
default_version version.print

license 'APACHE-2.0'

source git: version.remote

build do
  env = { 'GOPATH' => "#{Omnibus::Config.source_dir}/alertmanager" }
  make 'build', env: env
end
"""


def _delta(tmp_path: Path, files: dict[str, str], edits: dict[str, dict[str, str]]) -> tuple[Delta, Delta]:
    return both_edited(tmp_path, files, edits)


def _rows(delta: Delta) -> set[tuple[object, ...]]:
    return {(c.manifest, c.ecosystem, c.name, c.from_version, c.to_version, c.scope) for c in delta.changes}


# --- attack cases ---

@each_case("body", [
    "default_version '1.0'\nif ENV['X']\n  default_version '9.9'\nend\n",  # set twice: the program decides
    "default_version ENV['RUBYGEMS_VERSION'] || '3.5.6'\n",  # not a literal
    "default_version 'master'\n",  # a branch, no version
    "default_version '1.0'\x00\n",  # a NUL after the literal
])
def test_a_version_the_program_decides_names_nothing(body: str) -> None:
    assert parse_definition("config/software/x.rb", body.encode()) == []


def test_a_huge_definition_is_read_in_linear_time() -> None:
    body = "default_version '1.0'\n" + "version = 1\n" * 200_000
    def timed() -> None:
        assert parse_definition("config/software/x.rb", body.encode()) == []  # `version =` 200,000 times: not read
    within_cpu(5, timed)


def test_a_changed_version_line_the_patch_cannot_read_is_partial(tmp_path: Path) -> None:
    tree, patch = _delta(tmp_path, {"config/software/rubygems.rb": RUBYGEMS},
                         {"config/software/rubygems.rb": {"default_version '3.5.6'": "default_version ENV['V']"}})
    # --tree: the literal is gone, the definition still sets a version it does not read: unparsable, no removal
    # (heldvars.py; before, a removal the gate allowed)
    assert tree.changes == ()
    assert [p.kind for p in tree.problems] == ["unparsable"]
    assert patch.changes == ()
    assert [p.kind for p in patch.problems] == ["partial"]


# --- the classes ---

def test_a_literal_default_version_bump(tmp_path: Path) -> None:
    tree, patch = _delta(tmp_path, {"config/software/rubygems.rb": RUBYGEMS},
                         {"config/software/rubygems.rb": {"'3.5.6'": "'3.5.7'"}})
    row = ("config/software/rubygems.rb", "tool", "rubygems", "3.5.6", "3.5.7", "runtime")
    assert _rows(tree) == {row}
    assert _rows(patch) == {row}
    assert tree.problems == ()


def test_the_gitlab_helper_form(tmp_path: Path) -> None:
    tree, patch = _delta(tmp_path, {"omnibus/config/software/alertmanager.rb": ALERTMANAGER},
                         {"omnibus/config/software/alertmanager.rb": {"'0.27.0'": "'0.28.1'"}})
    row = ("omnibus/config/software/alertmanager.rb", "tool", "alertmanager", "0.27.0", "0.28.1", "runtime")
    assert _rows(tree) == {row}
    assert _rows(patch) == {row}


# --- look-alikes ---

@each_case("path", ["lib/software/rubygems.rb", "config/software/rubygems.rb.erb",
                                  "config/softwares/rubygems.rb", "spec/config/software_spec.rb"])
def test_other_ruby_files_are_not_definitions(path: str) -> None:
    assert format_for(path) is None


def test_a_helper_version_not_printed_is_not_the_default() -> None:
    body = ALERTMANAGER.replace("default_version version.print", "default_version '1.2.3'")
    assert [d.version for d in parse_definition("config/software/a.rb", body.encode())] == ["1.2.3"]
    body = ALERTMANAGER.replace("default_version version.print\n", "")
    assert parse_definition("config/software/a.rb", body.encode()) == []
