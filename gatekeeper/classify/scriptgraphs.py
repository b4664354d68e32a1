"""The commands a package.json's script graph runs besides its `scripts` (misses 6).

wireit (Google's npm script runner: Lit, jsdom) moves a script's command into the manifest's `wireit` object: the
script says only `"prepare": "wireit"`, and `wireit.prepare.command` (`node ./scripts/generate-event-sets.js`) is what
`npm run prepare` — and so `npm ci`, `npm test`'s `pretest` — runs. The CI walk read `scripts` alone, so jsdom's
generators, which its CI runs through `npm ci` and `npm test`, were `src` (the eighty-first set). Each entry's
`command` is read as a script's line; an entry of `dependencies` only runs what those name (their own commands).
"""

from __future__ import annotations

__all__ = ["MAX_ENTRIES", "wireit_commands"]

MAX_ENTRIES = 1024  # entries read of one graph; past it the rest are not read (a real one has a few dozen)


def wireit_commands(graph: object) -> list[str]:
    """The `command` of each entry of a package.json's `wireit` object (`graph`, as parsed), in order."""
    if not isinstance(graph, dict):
        return []
    out: list[str] = []
    for count, entry in enumerate(graph.values()):
        if count >= MAX_ENTRIES:
            break
        command = entry.get("command") if isinstance(entry, dict) else None
        if isinstance(command, str) and command.strip():
            out.append(command)
    return out
