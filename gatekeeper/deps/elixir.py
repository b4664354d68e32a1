"""Elixir packages (Hex): `mix.lock`, an Elixir map literal with one entry per line.

`mix.exs` is an Elixir program, not data, and is not read: every lock entry counts as direct (fail closed).
"""

from __future__ import annotations

import re

from gatekeeper.deps.loaders import text
from gatekeeper.deps.model import Dependency, ManifestError

# `"name": {:hex, :package, "1.2.3", "<sha256>", [:mix], [...], "hexpm", "<sha256>"},`
_HEX = re.compile(r'^\s*"([\w.-]+)":\s*\{:hex,\s*:"?([\w.-]+)"?,\s*"([^"]+)"')
# `"name": {:git, "https://github.com/o/r.git", "<commit>", [branch: "main"]},`
_GIT = re.compile(r'^\s*"([\w.-]+)":\s*\{:git,\s*"([^"]+)",\s*"([0-9a-f]{7,40})"')
_ENTRY = re.compile(r'^\s*"[^"]*":')


def parse_mix_lock(path: str, data: bytes) -> list[Dependency]:
    """Hex packages at their version, git dependencies at their commit (`git:` + url is not modelled: the
    name and commit are). A line that opens an entry in another form is a problem, never skipped."""
    out: list[Dependency] = []
    for number, line in enumerate(text(data).splitlines(), 1):
        if (hex_entry := _HEX.match(line)) is not None:
            out.append(Dependency("hex", hex_entry.group(1), hex_entry.group(3), path, None, None))
        elif (git := _GIT.match(line)) is not None:
            out.append(Dependency("hex", git.group(1), git.group(3), path, None, None))
        elif _ENTRY.match(line):
            raise ManifestError(f"line {number}: a lock entry in a form this reader does not know")
    return out
