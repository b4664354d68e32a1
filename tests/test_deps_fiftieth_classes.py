"""Classes of misses the fiftieth blind set (bench/deps_bumps_fiftieth.tsv) showed, each with look-alikes that must not
match and malformed variants that are a finding, never a crash or a silent pass."""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.deps.elixir import parse_mix_lock
from gatekeeper.deps.model import ManifestError
from tests.deltas import moves, partial
from tests.deltas import patch as patch_of
from tests.deltas import tree as tree_of
from tests.gitrepo import edited_commits

# mix.lock as mix wrote it before 1.5 (elixir-ecto/ecto, 2016): the map opens on the first entry's line and closes on
# the last one's, and an entry may be the bare `{:hex, :name, "version"}`. The first entry was skipped without a word
# and the last one a problem ("a hex entry whose repository this reader cannot find"), so "Update decimal to 1.3.1"
# named nothing.
_SUM = "462960fd71af282e570f7b477f6be56bf8968e68277d4d0b641a635269bf4b0d"
OLD_MIX_LOCK = (
    '%{"backoff": {:hex, :backoff, "1.1.1"},\n'
    f'  "connection": {{:hex, :connection, "1.0.4", "{_SUM}", [:mix], []}},\n'
    f'  "db_connection": {{:hex, :db_connection, "1.0.0-rc.5", "{_SUM}", [:mix], [{{:connection, "~> 1.0.2", '
    '[hex: :connection, optional: false]}, {:poolboy, "~> 1.5", [hex: :poolboy, optional: true]}]},\n'
    f'  "decimal": {{:hex, :decimal, "1.2.0", "{_SUM}", [:mix], []}},\n'
    f'  "poolboy": {{:hex, :poolboy, "1.5.1", "{_SUM}", [:rebar], []}},\n'
    f'  "sbroker": {{:hex, :sbroker, "1.0.0-beta.5", "{_SUM}", [:rebar3], []}}}}\n'
)


def test_an_old_mix_lock_names_its_first_and_last_entries() -> None:
    named = {d.name: d.version for d in parse_mix_lock("mix.lock", OLD_MIX_LOCK.encode())}
    assert named == {"backoff": "1.1.1", "connection": "1.0.4", "db_connection": "1.0.0-rc.5", "decimal": "1.2.0",
                     "poolboy": "1.5.1", "sbroker": "1.0.0-beta.5"}


@each_case("old, new, moved", [
    (f'"decimal": {{:hex, :decimal, "1.2.0", "{_SUM}"', f'"decimal": {{:hex, :decimal, "1.3.1", "{_SUM}"',
     ("decimal", "1.2.0", "1.3.1")),
    ('%{"backoff": {:hex, :backoff, "1.1.1"}', '%{"backoff": {:hex, :backoff, "1.2.0"}', ("backoff", "1.1.1", "1.2.0")),
    (f'"sbroker": {{:hex, :sbroker, "1.0.0-beta.5", "{_SUM}", [:rebar3], []}}}}',
     f'"sbroker": {{:hex, :sbroker, "1.0.0", "{_SUM}", [:rebar3], []}}}}', ("sbroker", "1.0.0-beta.5", "1.0.0")),
])
def test_an_old_mix_lock_bump_both_ways(tmp_path: Path, old: str, new: str, moved: tuple[str, str, str]) -> None:
    repo, base, head = edited_commits(tmp_path, {"mix.lock": OLD_MIX_LOCK}, {"mix.lock": {old: new}})
    for delta in (tree_of(repo, base, head), patch_of(repo, base, head)):
        assert moves(delta) == {("hex", *moved)}, delta
        assert not delta.problems, delta


# Look-alikes and malformed variants: a line holding two entries (the second would be read under the first's name, or
# skipped), a map opened twice, a map closed in the middle of the file, an entry after the map's end: each is a
# problem, never a silent pass.
@each_case("body", [
    f'%{{"a": {{:hex, :a, "1.0.0", "{_SUM}", [:mix], []}}, "b": {{:hex, :b, "2.0.0", "{_SUM}", [:mix], []}}}}\n',
    f'%{{%{{"a": {{:hex, :a, "1.0.0", "{_SUM}", [:mix], []}}}}}}\n',
    f'%{{"a": {{:hex, :a, "1.0.0", "{_SUM}", [:mix], []}}}}\n  "b": {{:hex, :b, "2.0.0", "{_SUM}", [:mix], []}}}}\n',
    f'%{{"a": {{:hex, :a, "1.0.0", "{_SUM}", [:mix], []}}}}}}\n',
    f'  "a": %{{:hex, :a, "1.0.0", "{_SUM}", [:mix], []}},\n',
])
def test_malformed_old_mix_locks_are_problems(body: str) -> None:
    with pytest.raises(ManifestError):
        parse_mix_lock("mix.lock", body.encode())


def test_a_malformed_old_mix_lock_from_a_patch_is_partial_or_refused(tmp_path: Path) -> None:
    two = f'  "x": {{:hex, :x, "1.0.0", "{_SUM}", [:mix], []}}, "y": {{:hex, :y, "1.0.0", "{_SUM}", [:mix], []}},\n'
    repo, base, head = edited_commits(tmp_path, {"mix.lock": OLD_MIX_LOCK},
                                      {"mix.lock": {'  "poolboy"': two + '  "poolboy"'}})
    for delta in (tree_of(repo, base, head), patch_of(repo, base, head)):
        assert delta.problems and not any(c.name == "y" for c in delta.changes), delta
        assert partial(delta, "mix.lock") or any(p.manifest == "mix.lock" for p in delta.problems)


# A requirement fetched from git at a release tag or a commit (AWX's requirements_git.txt, "Bump django-ansible-base to
# 2024.7.17": `django-ansible-base @ git+https://github.com/ansible/django-ansible-base@2024.7.17#egg=…[rbac]`) was
# named at the whole URL, so no version was read. The ref is the version now, with the rest of the URL as its source
# (`2024.7.17 from git+https://github.com/ansible/django-ansible-base#egg=…`, as a workflow's `pip install git+…@tag`
# names one since round 44): nothing of the URL is dropped, so a move of its host, path or `#subdirectory=` is still a
# change. A branch, a ref with a slash or a variable stays the URL as written.
_AWX = ("git+https://github.com/ansible/system-certifi.git@devel#egg=certifi\n"
        "# Remove pbr from requirements.in when moving ansible-runner to requirements.in\n"
        "git+https://github.com/ansible/ansible-runner.git@devel#egg=ansible-runner\n"
        "django-ansible-base @ git+https://github.com/ansible/django-ansible-base@devel"
        "#egg=django-ansible-base[rest_filters,jwt_consumer,resource_registry,rbac]\n")
_DAB = "https://github.com/ansible/django-ansible-base"
_SHA = "0e7658f8ee99ee5aa683e2a032b8880091b7a055"


@each_case("old, new, name, to", [
    (f"{_DAB}@devel#", f"{_DAB}@2024.7.17#", "django-ansible-base",
     f"2024.7.17 from git+{_DAB}#egg=django-ansible-base[rest_filters,jwt_consumer,resource_registry,rbac]"),
    ("ansible-runner.git@devel#", "ansible-runner.git@2.4.0#", "ansible-runner",
     "2.4.0 from git+https://github.com/ansible/ansible-runner.git#egg=ansible-runner"),
    ("ansible-runner.git@devel#", f"ansible-runner.git@{_SHA}#", "ansible-runner",
     f"{_SHA} from git+https://github.com/ansible/ansible-runner.git#egg=ansible-runner"),
    ("git+https://github.com/ansible/system-certifi.git@devel", "git+ssh://git@github.com/ansible/system-certifi.git@v3.1",
     "certifi", "v3.1 from git+ssh://git@github.com/ansible/system-certifi.git#egg=certifi"),
])
def test_a_requirement_from_git_at_a_tag_is_named_at_the_tag(tmp_path: Path, old: str, new: str, name: str,
                                                              to: str) -> None:
    repo, base, head = edited_commits(tmp_path, {"requirements/requirements_git.txt": _AWX},
                                      {"requirements/requirements_git.txt": {old: new}})
    for delta in (tree_of(repo, base, head), patch_of(repo, base, head)):
        assert [(c.name, c.to_version) for c in delta.changes] == [(name, to)], delta


@each_case("old, new", [
    ("@devel#egg=django", "@main#egg=django"),  # a branch
    ("@devel#egg=django", "@refs/tags/2024.7.17#egg=django"),  # a ref with a slash: pip's parse, not ours
    ("@devel#egg=django", "@${DAB_REF}#egg=django"),  # a variable
    ("https://github.com/ansible/django-ansible-base@devel", "https://github.com/ansible/django-ansible-base.git"),
])
def test_a_requirement_from_git_at_no_tag_stays_its_url(tmp_path: Path, old: str, new: str) -> None:
    repo, base, head = edited_commits(tmp_path, {"requirements.txt": _AWX}, {"requirements.txt": {old: new}})
    for delta in (tree_of(repo, base, head), patch_of(repo, base, head)):
        changed = [c for c in delta.changes if c.name == "django-ansible-base"]
        assert changed and all(" from " not in (c.to_version or "") for c in changed), delta


@each_case("old, new", [
    ("ansible-runner.git@devel#egg=ansible-runner", "ansible-runner.git@2.4.0#egg=ansible-runner&subdirectory=a"),
    ("ansible/ansible-runner.git@devel", "evil/ansible-runner.git@2.4.0"),
])
def test_a_tagged_git_requirement_keeps_the_rest_of_its_url(tmp_path: Path, old: str, new: str) -> None:
    at_tag = _AWX.replace("ansible-runner.git@devel", "ansible-runner.git@2.4.0")
    repo, base, head = edited_commits(tmp_path, {"requirements.txt": at_tag},
                                      {"requirements.txt": {old.replace("@devel", "@2.4.0"): new}})
    for delta in (tree_of(repo, base, head), patch_of(repo, base, head)):
        assert [c.name for c in delta.changes] == ["ansible-runner"], delta
        assert delta.changes[0].from_version != delta.changes[0].to_version


# A recipe's leading assignment whose value is a make function call with blanks (grafana/pyroscope's "Update
# golangci-lint to 1.48.0": `GOBIN=$(abspath $(@D)) $(GO) install github.com/golangci/…/golangci-lint@v1.48.0`) hid the
# install: the assignment ended at the blank and `$(@D))` was read as the command. A reference the reader does not
# resolve is now one unread word however it nests (`$(abspath $(@D))`, `$(shell go env GOPATH)`), so the command after
# it is read; an unresolved reference in the command itself still names nothing and holds the side (heldvars).
_PYROSCOPE_MAKE = """GO ?= go
BIN := $(CURDIR)/.tmp/bin

$(BIN)/golangci-lint: Makefile
\t@mkdir -p $(@D)
\tGOBIN=$(abspath $(@D)) $(GO) install github.com/golangci/golangci-lint/cmd/golangci-lint@v1.46.2

$(BIN)/buf: Makefile
\t@mkdir -p $(@D)
\tGOBIN=$(abspath $(dir $(lastword $(MAKEFILE_LIST)))) $(GO) install github.com/bufbuild/buf/cmd/buf@v1.5.0
"""


@each_case("old, new, moved", [
    ("golangci-lint@v1.46.2", "golangci-lint@v1.48.0", ("github.com/golangci/golangci-lint", "v1.46.2", "v1.48.0")),
    ("buf/cmd/buf@v1.5.0", "buf/cmd/buf@v1.6.0", ("github.com/bufbuild/buf", "v1.5.0", "v1.6.0")),
])
def test_a_recipe_install_after_a_function_call_assignment(tmp_path: Path, old: str, new: str,
                                                           moved: tuple[str, str, str]) -> None:
    repo, base, head = edited_commits(tmp_path, {"Makefile": _PYROSCOPE_MAKE}, {"Makefile": {old: new}})
    for delta in (tree_of(repo, base, head), patch_of(repo, base, head)):
        assert {(c.name, c.from_version, c.to_version) for c in delta.changes} == {moved}, delta


@each_case("old, new", [
    # the install itself behind a function call: what it installs is not read, and the side is held, never a removal
    ("$(GO) install github.com/golangci/golangci-lint/cmd/golangci-lint@v1.46.2",
     "$(GO) install github.com/golangci/golangci-lint/cmd/golangci-lint@$(shell cat .lint-version)"),
    ("$(GO) install github.com/golangci/golangci-lint/cmd/golangci-lint@v1.46.2",
     "$(shell echo go) install github.com/golangci/golangci-lint/cmd/golangci-lint@v1.48.0"),
])
def test_an_install_through_a_function_call_names_no_version(tmp_path: Path, old: str, new: str) -> None:
    repo, base, head = edited_commits(tmp_path, {"Makefile": _PYROSCOPE_MAKE}, {"Makefile": {old: new}})
    delta = tree_of(repo, base, head)
    assert not any(c.to_version == "v1.48.0" for c in delta.changes), delta
    assert not any(c.change == "removed" for c in delta.changes), delta


# pubspec.lock from a patch (dart-sass's Dependabot "Bump cli_pkg from 2.1.9 to 2.2.0"): the hunk shows the entry's
# `description:` `name:`, `url:`, `source: hosted` and the changed `version:` (and, in newer locks, the changed
# `sha256:` between them), seldom the entry's key two lines higher. Every pubspec.lock hunk was a `partial` problem
# naming nothing. A hosted entry's version line is read now where the hunk shows its source and its described name:
# named by the package it fetches (and by its host when not pub.dev), beside a `partial` problem unless the hunk
# also shows the key (a key other than the package's name is another package, as the whole-file reader names it).
_PUB_LOCK = """# Generated by pub
# See https://dart.dev/tools/pub/glossary#lockfile
packages:
  charcode:
    dependency: transitive
    description:
      name: charcode
      url: "https://pub.dartlang.org"
    source: hosted
    version: "1.3.1"
  cli_pkg:
    dependency: "direct dev"
    description:
      name: cli_pkg
      url: "https://pub.dartlang.org"
    source: hosted
    version: "2.1.9"
  cli_repl:
    dependency: transitive
    description:
      name: cli_repl
      sha256: "a2ee06d98f211cb960c777519cb3d14e882acd90fe5e078668e3ab4baab0ddd4"
      url: "https://pub.dev"
    source: hosted
    version: "0.2.3"
  dart_style:
    dependency: "direct dev"
    description:
      path: "../dart_style"
      relative: true
    source: path
    version: "2.2.4"
sdks:
  dart: ">=2.17.0 <3.0.0"
"""
_NEW_SHA = "b6ae06d98f211cb960c777519cb3d14e882acd90fe5e078668e3ab4baab0ddd4"


@each_case("edit, moved", [
    ({'name: cli_pkg\n      url: "https://pub.dartlang.org"\n    source: hosted\n    version: "2.1.9"':
      'name: cli_pkg\n      url: "https://pub.dartlang.org"\n    source: hosted\n    version: "2.2.0"'},
     ("cli_pkg", "2.1.9", "2.2.0")),
    ({'"a2ee06d98f211cb960c777519cb3d14e882acd90fe5e078668e3ab4baab0ddd4"': f'"{_NEW_SHA}"',
      'version: "0.2.3"': 'version: "0.3.0"'}, ("cli_repl", "0.2.3", "0.3.0")),
    ({'charcode\n      url: "https://pub.dartlang.org"\n    source: hosted\n    version: "1.3.1"':
      'charcode\n      url: "https://pub.example.com"\n    source: hosted\n    version: "1.3.1"'}, None),
])
def test_a_pubspec_lock_bump_from_a_patch(tmp_path: Path, edit: dict[str, str],
                                          moved: tuple[str, str, str] | None) -> None:
    repo, base, head = edited_commits(tmp_path, {"pubspec.lock": _PUB_LOCK}, {"pubspec.lock": edit})
    for context in ("-U3", "-U6"):  # git's default, and enough to show the entry's key
        delta = patch_of(repo, base, head, context)
        if moved is None:  # a package moved to another host: not read from the hunk, the file reviewed
            assert partial(delta, "pubspec.lock"), delta
            continue
        assert {(c.name, c.from_version, c.to_version) for c in delta.changes} == {moved}, (context, delta)
        assert partial(delta, "pubspec.lock") == (context == "-U3"), (context, delta)
    if moved is not None:
        assert moves(tree_of(repo, base, head)) == {("pub", *moved)}


@each_case("edit", [
    {'version: "2.2.4"': 'version: "2.3.0"'},  # a path package: its version is its own pubspec's, not read here
    {'"a2ee06d98f211cb960c777519cb3d14e882acd90fe5e078668e3ab4baab0ddd4"': f'"{_NEW_SHA}"'},  # a hash alone
    {"name: cli_pkg\n": "name: cli_pkg_evil\n"},  # another package under the key
    {'    source: hosted\n    version: "2.1.9"': '    source: hosted\n    version: "2.1.9"\n    version: "9.0.0"'},
    {'  cli_pkg:\n    dependency: "direct dev"\n    description:\n      name: cli_pkg\n':
     '  cli_pkg:\n    dependency: "direct dev"\n    description: |\n      name: cli_pkg\n'},  # a block scalar
])
def test_pubspec_lock_hunks_that_are_not_read(tmp_path: Path, edit: dict[str, str]) -> None:
    repo, base, head = edited_commits(tmp_path, {"pubspec.lock": _PUB_LOCK}, {"pubspec.lock": edit})
    delta = patch_of(repo, base, head)
    assert partial(delta, "pubspec.lock") or any(p.manifest == "pubspec.lock" for p in delta.problems), delta
