"""The Rust package a CI command runs (red team 23, tests/test_redteam23_cargo_run.py).

`cargo xtask dist` runs the repository's `xtask` package (the convention's `.cargo/config.toml` alias `xtask = "run
--package xtask --"`: diesel and slint run theirs in CI), and `cargo run --manifest-path tools/gen/Cargo.toml`
builds and runs the package named: its `.rs` files are the job's code, as `go run ./cmd/release`'s
are (gorun.py). They stayed `src`, and `gate --tree` allowed an edit to what the CI job runs. Named here, as globs of
`.rs` files from the root: `xtask/`'s for `cargo xtask`, the manifest's folder for `--manifest-path`, and `xtask/`'s for
`-p xtask` the alias spelt out. Any other `-p NAME`, `--bin`, `--example` and `default-run`: cargobins.py (attack 47,
the manifests read for a package's folder; the root package is the product itself, as a root `--manifest-path` is).
Red team 24 (tests/test_redteam24_cargo_runs.py): with the commits, the root's `.cargo/config.toml` aliases (`cargo
codegen`), a bare `cargo run` in a folder CI `cd`s to or names as `working-directory:`, and the wrappers, runners and
linkers that configuration has every cargo command run (`build.rustc-wrapper = "tools/wrap.sh"`).
"""

from __future__ import annotations

import posixpath
import tomllib
from typing import NamedTuple

from gatekeeper.classify import cargobins, ciforms, runvars
from gatekeeper.classify.pipinstalls import ANY
from gatekeeper.lazy_pattern import lazy

__all__ = ["CONFIGS", "Config", "config", "packages"]

# cargo's global options may come before the command (`cargo -q run`, `cargo --locked xtask`, `cargo -C dir run`),
# and `r` is cargo's own alias of `run` (red team 21, tests/test_attack21_cargo_spellings.py).
_GLOBAL = r"(?:[ \t]++(?:\+[\w.-]++|(?:--color|--config|-Z|-C)[ \t]++[^\s;&|]++|-[\w-]++(?:=[^\s;&|]*+)?))*+"
_CARGO = lazy(rf"\bcargo{_GLOBAL}[ \t]++([\w-]++)([^\n;&|]*)")
_MANIFEST = lazy(r"--manifest-path(?:[ \t]++|=)['\"]?([^\s'\"$]+)")
_XTASK = lazy(r"(?:^|[ \t])(?:-p(?:[ \t]*+|=)|--package(?:[ \t]++|=))['\"]?xtask(?![\w-])")
_PACKAGE = lazy(r"(?:^|[ \t])(?:-p|--package)(?![\w-])")
_ARGUMENTS = lazy(r"[ \t]--(?:[ \t].*)?$")  # after `--`: the program's own arguments, not cargo's
# The root's cargo configuration: its `[alias]` table names what `cargo x`, `cargo codegen` run (red team 24).
CONFIGS = (".cargo/config.toml", ".cargo/config")
_BUILD_PROGRAMS = ("rustc-wrapper", "rustc-workspace-wrapper", "rustc", "rustdoc")
_BUILT_IN = frozenset({"run", "r", "build", "b", "check", "c", "test", "t", "doc", "d", "bench", "install"})


class Config(NamedTuple):
    """What the root's cargo configuration makes a cargo command run (red team 24)."""

    aliases: dict[str, str]  # `[alias]`: name -> its command line
    programs: tuple[str, ...]  # the files its wrappers, runners and linkers name by a relative path


def config(texts: list[str]) -> Config:
    """The root's cargo configuration files (`.cargo/config.toml` first; a broken one is skipped, as cargo stops on
    it): its aliases, and the programs any cargo command of CI runs (`build.rustc-wrapper`, `target.*.runner`, ...)."""
    aliases: dict[str, str] = {}
    programs: list[str] = []
    for text in texts:
        try:
            table = tomllib.loads(text)
        except tomllib.TOMLDecodeError:
            continue
        alias = table.get("alias", {})
        for name, value in alias.items() if isinstance(alias, dict) else ():
            line = " ".join(v for v in value if isinstance(v, str)) if isinstance(value, list) else value
            if isinstance(line, str) and name not in aliases:
                aliases[name] = line
        build = table.get("build", {})
        targets = table.get("target", {})
        values = [build.get(key) for key in _BUILD_PROGRAMS] if isinstance(build, dict) else []
        values += [t.get(key) for t in (targets.values() if isinstance(targets, dict) else ()) if isinstance(t, dict)
                   for key in ("runner", "linker", "rustc-wrapper")]
        for value in values:
            words = value if isinstance(value, list) else str(value or "").split()
            programs += [w for w in words if isinstance(w, str) and "/" in w and not w.startswith(("/", "../", "$"))]
    return Config(aliases, tuple(posixpath.normpath(p) for p in dict.fromkeys(programs)))


def workspaces(manifests: dict[str, str]) -> frozenset[str]:
    """The folders of `manifests` ({folder: its Cargo.toml}) that declare a workspace with members: the project's own,
    where a bare `cargo run` runs the product, as at the root (quickwit's `working-directory: ./quickwit`). A tool
    opting out of its parent's workspace has an empty `[workspace]`; a manifest cargo cannot read is no workspace."""
    found = set()
    for folder, text in manifests.items():
        try:
            workspace = tomllib.loads(text).get("workspace")
        except tomllib.TOMLDecodeError:
            continue
        if isinstance(workspace, dict) and workspace.get("members"):
            found.add(posixpath.normpath(folder))
    return frozenset(found)


def packages(text: str, folders: list[str] | None = None, settings: Config | None = None,
             projects: frozenset[str] = frozenset(), crates: cargobins.Crates | None = None) -> list[str]:
    """The globs (ANY: a variable part) of the `.rs` files of each package `text`'s commands run with cargo: through
    an alias of the root's configuration, and a bare `cargo run` in each of `folders` (where its commands `cd` to, a
    step's `working-directory:`) but the root and `projects` (workspaces()); and, when a command runs cargo at all,
    the programs the configuration has cargo run (red team 24); the binary, example or package a `cargo run` names
    (`crates`: the tree's manifests, cargobins.py); a matrix's and the text's own variables read with their values."""
    if "cargo" not in text:
        return []
    if "$" in text:  # `-p ${{ matrix.crate }}`, `--bin "$BIN"`: each value the workflow lists or gives (misses 8)
        text = runvars.expanded(ciforms.expand_matrix(text), runvars.values(text))
    found: list[str] = []
    alias = settings.aliases if settings else {}
    for match in _CARGO.finditer(text):
        found += _run(*_expand(match.group(1), match.group(2), alias), folders or [], projects,
                      crates or cargobins.Crates({}, {}, {}))
        found += settings.programs if settings else ()
    return list(dict.fromkeys(found))


def _expand(command: str, rest: str, alias: dict[str, str]) -> tuple[str, str]:
    """The command an alias chain ends in, with its arguments. Cargo follows a chain of any length (a cycle is its
    error): so does this, each alias once (attack 22: a depth bound of 4 let a chain of five hide what CI runs)."""
    seen: set[str] = set()
    tails = [rest]
    while command in alias and command not in _BUILT_IN and command not in seen:  # no alias shadows a built-in
        seen.add(command)
        command, _, tail = alias[command].strip().partition(" ")
        tails.append(f" {tail}")
    return command, "".join(reversed(tails))


def _run(command: str, rest: str, folders: list[str], projects: frozenset[str], crates: cargobins.Crates) -> list[str]:
    if command == "xtask":
        return [f"xtask/{ANY}.rs"]
    if command == "install":  # `cargo install --path tools/gen && gen`: a tool of the tree (attack 47)
        return cargobins.installed(_ARGUMENTS.sub("", rest))
    if command not in ("run", "r"):
        return []
    found: list[str] = []
    options = _ARGUMENTS.sub("", rest)
    found += cargobins.targets(options, folders, crates, projects)  # `--bin X`, `--example X`, `-p X` (attack 47)
    for manifest in _MANIFEST.findall(options):
        folder = posixpath.normpath(manifest.rpartition("/")[0] or ".")
        if folder != "." and not folder.startswith(("/", "..")):  # the root's: the project itself, as `go run .`
            found.append(f"{folder}/{ANY}.rs")
    if _XTASK.search(options):  # the alias spelt out: `cargo run --package xtask --`
        found.append(f"xtask/{ANY}.rs")
    if not _MANIFEST.search(options) and not _PACKAGE.search(options) and "-p=" not in options \
            and "--package=" not in options:  # the package of the folder it runs in
        for folder in (posixpath.normpath(f) for f in folders):
            if folder != "." and not folder.startswith(("/", "..")) and folder not in projects:
                found.append(f"{folder}/{ANY}.rs")
    return found
