"""The binary, example or workspace package a CI cargo command runs (attack 47, tests/test_attack47_cargo_bins.py).

`cargo run --bin cihelper` (or an alias `ci = "run --bin cihelper"` and a step `cargo ci`), `cargo run --example gen`
and `cargo run -p tool` run a program of the repository that is not the product CI tests: the job's own tooling. Its
entry file and the module tree below it are `ci` (the lead's decision): `src/bin/X.rs`, `src/bin/X/**`,
`examples/X.rs`, `examples/X/**`, a `[[bin]]`/`[[example]]` target's `path =` and the folder of the package `-p`
names (its manifest read for its name). The library the program links stays `src`, and so does the product's own
binary (`src/main.rs`, red team 23's stance: `go run .`). `default-run` stands for `--bin` when no target is named.
A target by a variable name (`--bin "$TOOL"`) is every target of that kind (fail wide); a `-p` naming a package no
manifest read declares names the folders of that name at any depth and those of the manifests cargo cannot read.
"""

from __future__ import annotations

import posixpath
import re
import tomllib
from typing import NamedTuple

from gatekeeper.classify.pipinstalls import ANY
from gatekeeper.lazy_pattern import lazy

__all__ = ["MAX_DEPTH", "Crates", "crates", "installed", "targets"]

MAX_DEPTH = 3  # manifests read this deep (`tools/lsp/Cargo.toml`); a deeper `-p` package is found by its folder name
_OPTION = lazy(r"(?:^|[ \t])(--bin|--example|-p|--package)(?:[ \t]++|=|(?<=-p)(?=[\w$]))['\"]?([^\s'\"]*+)")
_INSTALL_PATH = lazy(r"(?:^|[ \t])--path(?:[ \t]++|=)['\"]?([^\s'\"]++)")
_KINDS = {"--bin": "bin", "--example": "example"}
_DEFAULT = {"bin": "src/bin", "example": "examples"}


class Crates(NamedTuple):
    """What the tree's manifests say of the programs cargo may run."""

    folders: dict[str, str]  # package name -> its folder ("." for the root)
    entries: dict[tuple[str, str], tuple[str, ...]]  # (bin|example, name) -> a declared target's entry files
    default_runs: dict[str, str]  # a package's folder -> its `default-run` binary
    unread: tuple[str, ...] = ()  # the folders of manifests cargo cannot read: any `-p` not found may be theirs


def crates(manifests: dict[str, str]) -> Crates:
    """The packages, declared targets and default binaries of `manifests` ({folder: its Cargo.toml}); a manifest cargo
    cannot read declares nothing, and a `-p` no manifest declares names its folder (fail closed)."""
    folders: dict[str, str] = {}
    entries: dict[tuple[str, str], list[str]] = {}
    default_runs: dict[str, str] = {}
    unread: list[str] = []
    for folder, text in manifests.items():
        folder = posixpath.normpath(folder or ".")
        try:
            table = tomllib.loads(text)
        except tomllib.TOMLDecodeError:
            unread.append(folder)
            continue
        package = table.get("package")
        if isinstance(package, dict):
            if isinstance(name := package.get("name"), str):
                folders.setdefault(name, folder)
            if isinstance(default := package.get("default-run"), str):
                default_runs[folder] = default
        for kind in ("bin", "example"):
            for target in table.get(kind, []) if isinstance(table.get(kind), list) else []:
                if isinstance(target, dict) and isinstance(name := target.get("name"), str) \
                        and isinstance(path := target.get("path"), str):
                    entries.setdefault((kind, name), []).append(posixpath.normpath(posixpath.join(folder, path)))
    return Crates(folders, {key: tuple(paths) for key, paths in entries.items()}, default_runs, tuple(unread))


def targets(options: str, folders: list[str], found: Crates, projects: frozenset[str]) -> list[str]:
    """The globs of the files a `cargo run` with `options` (cargo's, before `--`) runs as the job's own program: the
    targets `--bin`/`--example` name (or the `default-run` of the root and of `folders`, where its commands run) and
    the folder of the package `-p` names but the root and `projects` (workspaces: the product)."""
    named = [(_KINDS.get(option, "package"), value) for option, value in _OPTION.findall(options)]
    chosen = [_target(kind, value, found) for kind, value in named if kind != "package"]
    # `-p gen --bin gen`: the package's own binary, its `src/main.rs` and what it declares (the package's files)
    chosen += [_package(value, found, projects) for kind, value in named if kind == "package"
               and ("bin", value) in named]
    if chosen:  # `-p core --bin dump`: the binary alone, not the library of its package
        return list(dict.fromkeys(glob for globs in chosen for glob in globs))
    out = [glob for kind, value in named for glob in _package(value, found, projects)]
    for folder in ["."] + [posixpath.normpath(f) for f in folders]:
        if folder in found.default_runs:
            out += _target("bin", found.default_runs[folder], found)
    return list(dict.fromkeys(out))


def installed(options: str) -> list[str]:
    """The globs of the package `cargo install --path P` builds and puts on PATH for the job to run (not the root's:
    the product, as `pip install .` is)."""
    out = []
    for path in _INSTALL_PATH.findall(options):
        folder = posixpath.normpath(path)
        if folder != "." and not folder.startswith(("/", "..")) and re.fullmatch(r"[\w./-]+", folder):
            out.append(f"{folder}/{ANY}.rs")
    return out


def _package(name: str, found: Crates, projects: frozenset[str]) -> list[str]:
    if not name or not re.fullmatch(r"[\w-]+", name):
        return []  # a variable package: `-p "$CRATE"` is often the product (a matrix of the workspace's crates)
    folder = found.folders.get(name)
    if folder is None:
        # not declared where read: by its folder's name, and wherever a manifest could not be read (fail closed)
        return [f"{name}/{ANY}.rs", f"{ANY}/{name}/{ANY}.rs", *(f"{f}/{ANY}.rs" for f in found.unread if f != ".")]
    if folder == "." or folder.startswith("..") or folder in projects:
        return []  # the project itself, as `go run .`
    return [f"{folder}/{ANY}.rs"]


def _target(kind: str, name: str, found: Crates) -> list[str]:
    """A binary's or example's entry file and the module tree below it, wherever a package keeps it."""
    if not re.fullmatch(r"[\w-]+", name):
        name = ANY  # `--bin "$TOOL"`: any of them
    base = _DEFAULT[kind]
    out = [f"{base}/{name}.rs", f"{ANY}/{base}/{name}.rs", f"{base}/{name}/{ANY}.rs", f"{ANY}/{base}/{name}/{ANY}.rs"]
    declared = [path for (k, n), paths in found.entries.items() if k == kind and (n == name or name == ANY)
                for path in paths]
    for entry in declared:
        folder, _, file = entry.rpartition("/")
        if (folder == "src" or folder.endswith("/src")) and file in ("main.rs", "lib.rs"):
            continue  # the product's own binary (`[[bin]] path = "src/main.rs"`): red team 23's stance
        below = f"{folder}/{ANY}.rs" if file == "main.rs" and folder else f"{entry.removesuffix('.rs')}/{ANY}.rs"
        out += [entry, below]  # `mod x;` of `main.rs` is its folder's; of `relay.rs`, `relay/x.rs`
    return out
