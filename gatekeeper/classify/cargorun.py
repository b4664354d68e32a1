"""The Rust package a CI command runs (red team 23, tests/test_redteam23_cargo_run.py).

`cargo xtask dist` runs the repository's `xtask` package (the convention's `.cargo/config.toml` alias `xtask = "run
--package xtask --"`: diesel and slint run theirs in CI), and `cargo run --manifest-path tools/gen/Cargo.toml`
builds and runs the package named: its `.rs` files are the job's code, as `go run ./cmd/release`'s
are (gorun.py). They stayed `src`, and `gate --tree` allowed an edit to what the CI job runs. Named here, as globs of
`.rs` files from the root: `xtask/`'s for `cargo xtask`, the manifest's folder for `--manifest-path`, and `xtask/`'s for
`-p xtask` the alias spelt out. Any other `-p NAME` is not followed: the workspace's manifests are not read to find
its folder (`-p slint-lsp` is `tools/lsp/`), and it is often the product itself, as a root `--manifest-path` is.
"""

from __future__ import annotations

import posixpath
import re

from gatekeeper.classify.pipinstalls import ANY

__all__ = ["packages"]

# cargo's global options may come before the command (`cargo -q run`, `cargo --locked xtask`, `cargo -C dir run`),
# and `r` is cargo's own alias of `run` (red team 21, tests/test_attack21_cargo_spellings.py).
_GLOBAL = r"(?:[ \t]++(?:\+[\w.-]++|(?:--color|--config|-Z|-C)[ \t]++[^\s;&|]++|-[\w-]++(?:=[^\s;&|]*+)?))*+"
_CARGO = re.compile(rf"\bcargo{_GLOBAL}[ \t]++(xtask(?![\w-])|(?:run|r)(?![\w-])[^\n;&|]*)")
_MANIFEST = re.compile(r"--manifest-path(?:[ \t]++|=)['\"]?([^\s'\"$]+)")
_XTASK = re.compile(r"(?:^|[ \t])(?:-p(?:[ \t]*+|=)|--package(?:[ \t]++|=))['\"]?xtask(?![\w-])")
_ARGUMENTS = re.compile(r"[ \t]--(?:[ \t].*)?$")  # after `--`: the program's own arguments, not cargo's


def packages(text: str) -> list[str]:
    """The globs (ANY: a variable part) of the `.rs` files of each package `text`'s commands run with cargo."""
    if "cargo" not in text:
        return []
    found: list[str] = []
    for match in _CARGO.finditer(text):
        if match.group(1) == "xtask":
            found.append(f"xtask/{ANY}.rs")
            continue
        options = _ARGUMENTS.sub("", match.group(1))
        for manifest in _MANIFEST.findall(options):
            folder = posixpath.normpath(manifest.rpartition("/")[0] or ".")
            if folder != "." and not folder.startswith(("/", "..")):  # the root's: the project itself, as `go run .`
                found.append(f"{folder}/{ANY}.rs")
        if _XTASK.search(options):  # the alias spelt out: `cargo run --package xtask --`
            found.append(f"xtask/{ANY}.rs")
    return list(dict.fromkeys(found))
