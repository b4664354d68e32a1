"""A rebar.lock entry fetched from a git repository's subfolder (round 56: opentelemetry-erlang's lock holds
`{<<"eqwalizer_support">>, {git_subdir, "https://github.com/whatsapp/eqwalizer.git", {ref, "…"}, "eqwalizer_support"},
0}`): rebar3 locks a `git_subdir` dependency with its folder as a fourth element, which the reader refused, so the whole
lock was unparsable and its bump of grpcbox named nothing with `--tree` or from a patch. The entry is the app at its
commit, its url and folder part of what is fetched (a move of either is a change); any other four-element source, or a
folder that is not a string, is still refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from gatekeeper.deps.model import ManifestError
from gatekeeper.deps.rebar import parse_rebar_lock
from tests.deltas import moves
from tests.deltas import patch as patch_of
from tests.deltas import tree as tree_of
from tests.gitrepo import edited_commits

_REF = "1a787cb604f6083ebe8763e358ea362e4677e500"
_NEW = "2b898dc715f7194fcf9874f469fb473f5788f611"


def _lock(subdir_entry: str, grpcbox: str = "0.17.0") -> str:
    return ('{"1.2.0",\n'
            '[{<<"acceptor_pool">>,{pkg,<<"acceptor_pool">>,<<"1.0.0">>},1},\n'
            ' {<<"chatterbox">>,{pkg,<<"ts_chatterbox">>,<<"0.15.1">>},1},\n'
            f"{subdir_entry}"
            ' {<<"gproc">>,{pkg,<<"gproc">>,<<"0.9.1">>},1},\n'
            f' {{<<"grpcbox">>,{{pkg,<<"grpcbox">>,<<"{grpcbox}">>}},0}},\n'
            ' {<<"hpack">>,{pkg,<<"hpack_erl">>,<<"0.3.0">>},2}]}.\n'
            '[\n{pkg_hash,[\n'
            ' {<<"grpcbox">>, <<"6E040AB3EF16FE699FFB513B0EF8E2E896DA7B18931A1EF817143037C454BCCE">>}]}\n].\n')


def _subdir(ref: str = _REF, folder: str = '"eqwalizer_support"', app: str = "eqwalizer_support", level: int = 0,
            url: str = "https://github.com/whatsapp/eqwalizer.git") -> str:
    return (f' {{<<"{app}">>,\n  {{git_subdir,"{url}",\n              {{ref,"{ref}"}},\n'
            f"              {folder}}},\n  {level}}},\n")


@pytest.mark.parametrize("app,level", [("eqwalizer_support", 0), ("sub_app", 1), ("a", 2)])
def test_a_git_subdir_entry_is_read(app: str, level: int) -> None:
    deps = {(d.name, d.version, d.direct) for d in parse_rebar_lock("rebar.lock", _lock(_subdir(app=app,
                                                                                                level=level)).encode())}
    assert (app, _REF, level == 0) in deps
    assert ("grpcbox", "0.17.0", True) in deps


def test_the_bump_beside_it_is_named_both_ways(tmp_path: Path) -> None:
    repo, base, head = edited_commits(tmp_path, {"rebar.lock": _lock(_subdir())},
                                      {"rebar.lock": {"<<\"0.17.0\">>": "<<\"0.17.1\">>"}})
    for delta in (tree_of(repo, base, head), patch_of(repo, base, head)):
        assert ("hex", "grpcbox", "0.17.0", "0.17.1") in moves(delta), delta
        assert not [p for p in delta.problems if p.kind == "unparsable"], delta.problems


@pytest.mark.parametrize("edit", [{_REF: _NEW}, {'"eqwalizer_support"}': '"other_folder"}'},
                                  {"whatsapp/eqwalizer.git": "someone/eqwalizer.git"}])
def test_a_moved_commit_folder_or_url_is_a_change(tmp_path: Path, edit: dict[str, str]) -> None:
    repo, base, head = edited_commits(tmp_path, {"rebar.lock": _lock(_subdir())}, {"rebar.lock": edit})
    tree = tree_of(repo, base, head)
    assert [c.name for c in tree.changes] == ["eqwalizer_support"], tree
    assert not tree.problems, tree.problems


@pytest.mark.parametrize("entry", [
    _subdir(folder="eqwalizer_support"),  # an atom, not a string
    _subdir(folder='<<"eqwalizer_support">>'),  # a binary
    _subdir().replace("git_subdir", "git"),  # a plain git source with a fourth element
    _subdir().replace("git_subdir", "hg"),
    _subdir().replace('"eqwalizer_support"},', '"eqwalizer_support", "extra"},'),  # five elements
    _subdir().replace("{ref,", "{tag,"),  # a lock pins a ref, never a tag
])
def test_other_shapes_stay_refused(entry: str) -> None:
    with pytest.raises(ManifestError):
        parse_rebar_lock("rebar.lock", _lock(entry).encode())
