"""A Nix `flake.lock` read from a patch's hunks (round 56: nix-community/nixd's Dependabot bumps of treefmt-nix and
flake-parts named nothing from a patch, only a `partial` problem). Nix writes the lock as JSON with sorted keys and
two-space indentation, so git's three context lines show a moved input's whole `locked` object; the patch names it
as `--tree` does. A changed line outside a `locked` object the hunk shows whole (an input retargeted, an `original`
ref, a node added, the lock's version, `-U0`) still leaves a `partial` problem, beside what the hunks do show."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from cpucost import assert_linear, repeated

from gatekeeper.deps.model import ManifestError
from gatekeeper.deps.nixflake import flake_lock_hunks
from tests.deltas import accuracy_bench, bench_change, moves, partial
from tests.deltas import patch as patch_of
from tests.deltas import tree as tree_of
from tests.gitrepo import two_commits


def _sha(seed: int) -> str:
    return f"{seed:08x}" * 5


def _node(kind: str, i: int) -> dict[str, Any]:
    locked: dict[str, Any] = {"lastModified": 1700000000 + i, "narHash": f"sha256-{i:043d}="}
    original: dict[str, Any] = {}
    if kind == "github":
        locked |= {"owner": f"owner{i}", "repo": f"input{i}", "rev": _sha(i), "type": "github"}
        original = {"owner": f"owner{i}", "ref": "nixos-unstable", "repo": f"input{i}", "type": "github"}
    elif kind == "gitlab":
        locked |= {"host": "gitlab.example.org", "owner": f"group{i}", "repo": f"input{i}", "rev": _sha(i),
                   "type": "gitlab"}
        original = {"host": "gitlab.example.org", "owner": f"group{i}", "repo": f"input{i}", "type": "gitlab"}
    elif kind == "git":
        locked |= {"ref": "refs/heads/main", "rev": _sha(i), "type": "git", "url": f"https://git.example.org/r{i}"}
        original = {"type": "git", "url": f"https://git.example.org/r{i}"}
    else:  # a tarball: pinned by its narHash
        locked |= {"type": "tarball", "url": f"https://example.org/archive/r{i}.tar.gz"}
        original = {"type": "tarball", "url": f"https://example.org/archive/r{i}.tar.gz"}
    node: dict[str, Any] = {"locked": locked, "original": original}
    if i % 3 == 0:
        node["inputs"] = {"nixpkgs": ["nixpkgs"]}
    return node


_KINDS = ("github", "gitlab", "git", "tarball")


def _lock(n: int = 10) -> dict[str, Any]:
    nodes = {f"in-{i}": _node(_KINDS[i % len(_KINDS)], i) for i in range(n)}
    nodes["root"] = {"inputs": {key: key for key in nodes}}
    return {"nodes": nodes, "root": "root", "version": 7}


def _text(doc: dict[str, Any]) -> str:
    return json.dumps(doc, indent=2, sort_keys=True) + "\n"


def _bump(doc: dict[str, Any], key: str, seed: int) -> None:
    locked = doc["nodes"][key]["locked"]
    locked["lastModified"] += 1000
    locked["narHash"] = f"sha256-{seed:043d}="
    if "rev" in locked:
        locked["rev"] = _sha(seed)


def _deltas(tmp_path: Path, base: dict[str, Any], head: dict[str, Any], *extra: str) -> tuple[Any, Any]:
    repo, first, last = two_commits(tmp_path / "repo", {"flake.lock": _text(base)}, {"flake.lock": _text(head)})
    return tree_of(repo, first, last), patch_of(repo, first, last, *extra)


# Each input of each source type moved alone, and two moved together (one hunk or two): the patch names what --tree
# names, with no problem.
_ONE = [(f"in-{i}",) for i in range(10)]
_TWO = [("in-1", "in-2"), ("in-0", "in-9"), ("in-4", "in-7"), ("in-3", "in-8")]


@pytest.mark.parametrize("keys", _ONE + _TWO, ids=lambda k: "+".join(k))
def test_a_moved_input_is_named_from_the_patch(tmp_path: Path, keys: tuple[str, ...]) -> None:
    base = _lock()
    head = copy.deepcopy(base)
    for n, key in enumerate(keys):
        _bump(head, key, 900 + n)
    tree, patch = _deltas(tmp_path, base, head)
    assert moves(tree) and len(tree.changes) == len(keys), tree
    assert moves(patch) == moves(tree), patch
    assert not patch.problems, patch.problems


def test_a_dependabot_shaped_hunk_names_its_key(tmp_path: Path) -> None:
    """nixd's hunk: the node's key is not shown, the source is; the key, when shown, is kept as the alias."""
    base = _lock()
    head = copy.deepcopy(base)
    _bump(head, "in-0", 77)
    tree, patch = _deltas(tmp_path, base, head)
    assert moves(patch) == moves(tree) == {("nix", "github:owner0/input0", _sha(0), _sha(77))}
    assert [(c.from_tag, c.to_tag) for c in patch.changes] == [(c.from_tag, c.to_tag) for c in tree.changes]
    assert [c.alias for c in tree.changes] == ["in-0"] and [c.alias for c in patch.changes] in (["in-0"], [None])


def test_the_key_shown_is_kept_as_the_alias(tmp_path: Path) -> None:
    base = _lock()
    head = copy.deepcopy(base)
    _bump(head, "in-1", 78)  # no `inputs` object: its key is two lines above the rev
    tree, patch = _deltas(tmp_path, base, head)
    assert [c.alias for c in patch.changes] == [c.alias for c in tree.changes] == ["in-1"]
    assert [(c.from_tag, c.to_tag) for c in patch.changes] == [(c.from_tag, c.to_tag) for c in tree.changes]


# Changed lines outside a `locked` object the hunks show whole: what they show is still named, beside `partial`.
def _retarget(doc: dict[str, Any]) -> None:
    doc["nodes"]["root"]["inputs"]["in-5"] = ["in-1", "nixpkgs"]


def _new_ref(doc: dict[str, Any]) -> None:
    doc["nodes"]["in-4"]["original"]["ref"] = "nixos-24.11"
    _bump(doc, "in-4", 55)


def _added(doc: dict[str, Any]) -> None:
    doc["nodes"]["in-new"] = _node("github", 42)
    doc["nodes"]["root"]["inputs"]["in-new"] = "in-new"


def _version(doc: dict[str, Any]) -> None:
    doc["version"] = 6


@pytest.mark.parametrize("change", [_retarget, _new_ref, _added, _version], ids=lambda f: f.__name__)
def test_other_changed_lines_stay_partial(tmp_path: Path, change: Any) -> None:
    base = _lock()
    head = copy.deepcopy(base)
    change(head)
    tree, patch = _deltas(tmp_path, base, head)
    assert partial(patch, "flake.lock"), patch
    assert moves(patch) <= moves(tree), (patch, tree)


def test_without_context_nothing_is_named(tmp_path: Path) -> None:
    """`-U0` shows the rev lines without their object: nothing can be named, the file stays partial."""
    base = _lock()
    head = copy.deepcopy(base)
    _bump(head, "in-2", 31)
    _, patch = _deltas(tmp_path, base, head, "-U0")
    assert partial(patch, "flake.lock") and not patch.changes, patch


def test_a_malformed_locked_object_is_a_finding(tmp_path: Path) -> None:
    """A source type the reader does not know, inside a hunk shown whole: a problem, never a crash."""
    base = _lock()
    head = copy.deepcopy(base)
    head["nodes"]["in-0"]["locked"]["type"] = "mercurial-ish"
    _, patch = _deltas(tmp_path, base, head)
    assert patch.problems, patch


def _read(text: str) -> object:
    try:
        return flake_lock_hunks("flake.lock", text.encode())
    except ManifestError as exc:  # PartlyRead among them: an answer as good as a list
        return exc


@pytest.mark.parametrize("head,unit", [
    ('      "locked": {\n', '        "narHash": "sha256-x",\n'),  # one object of many members, never closed
    ("", '    "n": {\n\0      "locked": {\n        "owner": "o",\n        "repo": "r",\n\0        "rev": "0",\n'
         '        "type": "github"\n      },\n'),  # many objects, each read
    ("", '\0        "k": "' + "\\\\" * 30 + '\n'),  # members that never close their string
    ("", '    "key": {\n      "original": {\n'),  # objects opened and left
])
def test_reading_hunks_is_linear(head: str, unit: str) -> None:
    assert_linear(_read, repeated(unit, head), budget=0.5)


# The benchmark names a flake input by its repository where the patch's hunk does not show the node's key (Dependabot's
# "bump treefmt-nix from `790751f` to `db94781`"); another repository's name, or a part of one, is another input.
@pytest.mark.parametrize("name,want,same", [
    ("github:numtide/treefmt-nix", "treefmt-nix", True),
    ("github:hercules-ci/flake-parts", "flake-parts", True),
    ("gitlab:gitlab.example.org/group/input", "input", True),
    ("github:numtide/treefmt-nix", "nix", False),
    ("github:numtide/treefmt-nix", "numtide", False),
    ("github:NixOS/nixpkgs", "nixpkgs-lib", False),
])
def test_the_benchmark_names_an_input_by_its_repository(name: str, want: str, same: bool) -> None:
    assert accuracy_bench()._same_name(want, bench_change("nix", name)) is same
