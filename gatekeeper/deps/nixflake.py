"""Nix flakes' `flake.lock`: each input a flake fetches, at the commit (or hash) the lock pins it to.

A lock is JSON: `nodes` maps each node's key to its `locked` source (`type` github/gitlab/sourcehut with `owner`,
`repo`, `rev`, maybe `host`; git/hg with `url` and `rev`; tarball/file with `url`; path with `path`) and the
`original` reference flake.nix wrote (its `ref`: `nixos-unstable`, `devenv-2.35`); the `root` node's `inputs` name
the flake's own inputs. An input is named by where it comes from (`github:NixOS/nixpkgs`), so another owner,
repository, host or URL is a new dependency, never the old one's bump; its node key (`nixpkgs`, `nixpkgs_2`), the
name flake.nix gives it and people and bots call it by ("bump nixpkgs to 3eb07ee"), is kept as its `alias`; the
locked commit is its version, labelled with the original's ref as a sha-pinned action's comment labels its sha.
A root input is direct, any other node transitive. A lock version this reader does not know, a node without
`locked`, a source type it does not know or a source missing what names it is a problem, never skipped. Round 51
(NixOS/nixfmt's "bump nixpkgs to 3eb07eeafb" named nothing). From a patch (round 56, nix-community/nixd's bumps of
treefmt-nix and flake-parts): Nix writes the lock with sorted keys and two-space indentation, so a moved input's
`locked` object sits whole within its hunk; each object a hunk shows whole is read (`flake_lock_hunks`), and a changed
line anywhere else (an input retargeted, an `original` ref, a node added, the lock's version) leaves a `partial` problem
beside what the hunks do show.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from gatekeeper.deps.hunks import CHANGED, HUNK
from gatekeeper.deps.loaders import load_json, mapping, string, text
from gatekeeper.deps.model import Dependency, ManifestError, PartlyRead
from gatekeeper.lazy_pattern import lazy

ECOSYSTEM = "nix"
_VERSIONS = range(4, 8)  # Nix 2.4's lock (version 7 since 2.7; 4-6 read alike)
_FORGES = ("github", "gitlab", "sourcehut")
_URLS = frozenset({"git", "hg", "tarball", "file"})  # source types read by their url
# Lines of a lock as Nix writes it: a node's key at four spaces, its `locked`/`original` objects at six, their flat
# string, number or boolean members at eight.
_NODE = lazy(r'^ {4}"((?:[^"\\]|\\.)*)": \{$')
_OBJECT = lazy(r'^ {6}"(locked|original)": \{$')
_MEMBER = lazy(r'^ {8}("(?:[^"\\]|\\.)*": (?:"(?:[^"\\]|\\.)*"|-?\d+|true|false)),?$')
_CLOSE = lazy(r"^ {6}\},?$")


def _source(key: str, locked: dict[str, Any]) -> tuple[str, str]:
    """(where the node comes from, the version its lock pins) for one node's `locked`."""
    kind = string(locked.get("type"))
    if kind in _FORGES:
        owner, repo, rev = (string(locked.get(k)) for k in ("owner", "repo", "rev"))
        if not (owner and repo and rev):
            raise ManifestError(f"flake input {key!r}: a {kind} source without owner, repo and rev")
        host = string(locked.get("host"))
        return f"{kind}:{host + '/' if host else ''}{owner}/{repo}", rev
    if kind in _URLS:
        url = string(locked.get("url"))
        pin = string(locked.get("rev")) or string(locked.get("narHash"))
        if not url or not pin:
            raise ManifestError(f"flake input {key!r}: a {kind} source without url and rev or narHash")
        if kind in {"git", "hg"}:
            extra = [f"{k}={string(locked.get(k))}" for k in ("dir", "submodules") if k in locked]
            url = f"{kind}+{url}" + (f"?{'&'.join(extra)}" if extra else "")
        return url, pin
    if kind == "path":
        where, digest = string(locked.get("path")), string(locked.get("narHash"))
        if not where or not digest:
            raise ManifestError(f"flake input {key!r}: a path source without path and narHash")
        return f"path:{where}", digest
    raise ManifestError(f"flake input {key!r}: a source of type {kind!r} this reader does not know")


def parse_flake_lock(path: str, data: bytes) -> list[Dependency]:
    doc = mapping(load_json(data), "flake.lock")
    version = doc.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version not in _VERSIONS:
        raise ManifestError(f"a flake.lock of version {version!r}, which this reader does not know")
    nodes = mapping(doc.get("nodes"), "nodes")
    root_key = string(doc.get("root", "root"))
    if root_key not in nodes:
        raise ManifestError(f"a flake.lock without its root node {root_key!r}")
    root = mapping(nodes[root_key], "the root node")
    direct = {target for target in mapping(root.get("inputs", {}), "the root's inputs").values()
              if isinstance(target, str)}  # a list is a `follows` path: another node's input, no node of its own
    out: list[Dependency] = []
    for key, node in nodes.items():
        if key == root_key:
            continue
        node = mapping(node, f"node {key!r}")
        if "locked" not in node:
            raise ManifestError(f"flake input {key!r} has no locked source")
        name, pinned = _source(key, mapping(node["locked"], f"node {key!r}'s locked"))
        ref = string(mapping(node.get("original", {}), f"node {key!r}'s original").get("ref"))
        out.append(Dependency(ECOSYSTEM, name, pinned, path, key in direct, "runtime",
                              tag=ref, alias=key))
    return out


def flake_lock_hunks(path: str, data: bytes) -> list[Dependency]:
    """The inputs whose `locked` object one side of a flake.lock's hunks (hunks.sides) shows whole, labelled with the
    `original` ref shown after it. A changed line outside such an object raises PartlyRead with what was read."""
    out: list[Dependency] = []
    loose = False
    node = ""
    block: tuple[str, list[str], bool] | None = None  # (locked/original, its members, a changed line among them)
    for raw in text(data).splitlines():
        changed, line = raw.startswith(CHANGED), raw.lstrip(CHANGED)
        if block is not None:
            kind, members, moved = block
            if (m := _MEMBER.match(line)) is not None:
                members.append(m.group(1))
                block = (kind, members, moved or changed)
                continue
            if _CLOSE.match(line) is not None:
                fields = mapping(load_json("{" + ",".join(members) + "}"), "a locked source")
                if kind == "locked":
                    name, pinned = _source(node or "?", fields)
                    out.append(Dependency(ECOSYSTEM, name, pinned, path, True, "runtime", alias=node))
                elif out and out[-1].alias == node and node:
                    out[-1] = dataclasses.replace(out[-1], tag=string(fields.get("ref")))
                loose = loose or changed or (moved and kind != "locked")
                block = None
                continue
            loose = loose or moved  # an object the hunk does not show whole, or of a shape Nix does not write
            block = None
        if raw == HUNK:
            node = ""
        elif (m := _NODE.match(line)) is not None:
            node = m.group(1)
        elif (m := _OBJECT.match(line)) is not None:
            block = (m.group(1), [], changed)
            continue
        loose = loose or changed
    if block is not None:
        loose = loose or block[2]
    if loose:
        raise PartlyRead("a changed line outside a locked source the hunk shows whole", out)
    return out
