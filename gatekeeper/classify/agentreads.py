"""The files a coding agent's own configuration loads or runs: guardrails as much as the configuration naming them.

Claude Code reads `CLAUDE.md` with the files it imports (`@docs/rules.md`, relative to the importing file; Gemini
CLI's `GEMINI.md` likewise), runs the commands the hooks of `.claude/settings.json` name (`"command":
"$CLAUDE_PROJECT_DIR/.claude/hooks/check.sh"`, from the project folder: a PreToolUse hook is the agent's own guard),
and an MCP client starts the servers `.mcp.json` names (`"args": ["tools/server.js"]`). An edit of such a file
changes what the agent is told, or what guards it, as an edit of the file naming it does (red team 13, second
round: each was allowed by `gate --tree --enable guardrails`). Read from BASE (what guards the agent now) and HEAD
(what will), at most MAX_FILES files; a name is kept when it stays in the repository (no `/`, `~`, `..` out).
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Iterable, Iterator
from itertools import product

from gatekeeper.bounded import Limits, load_json
from gatekeeper.classify.autorun import plain_json
from gatekeeper.errors import LimitError
from gatekeeper.gitobjects import TreeEntry
from gatekeeper.lazy_pattern import lazy

MAX_FILES = 200  # agent configuration files read per gate (a repository has a handful)
_IMPORT_HOPS = 5  # imports of imports Claude Code follows
_MEMORY = frozenset({"claude.md", "claude.local.md", "gemini.md"})
_SETTINGS = frozenset({"settings.json", "settings.local.json"})
# and the editors' settings that hold MCP servers (red team 35: VS Code's `mcp` key, Zed's `context_servers`, Amp's
# `amp.mcpServers`), read as JSON with comments (autorun.plain_json)
_MCP = frozenset({".mcp.json", ".cursor/mcp.json", ".vscode/mcp.json", ".gemini/settings.json", ".vscode/settings.json",
                  ".zed/settings.json", ".amp/settings.json"})
_IMPORT = lazy(r"(?:^|\s)@([^\s@`'\"()\[\]<>]+)")
_WORD = lazy(r"""[^\s'"`;&|<>()=]+""")
# The project folder a hook command may start from, quoted or not (`"$CLAUDE_PROJECT_DIR"/.claude/hooks/x.sh`).
_PROJECT = lazy(r"""["']?\$\{?CLAUDE_PROJECT_DIR\}?["']?/""")
# Every spelling of the endings of the files _kind reads (names match in any case), tested after the last letter: a
# 20-way `endswith` on each of 42,000 paths took 33 ms, the one-letter test first 4.5 ms (load 12, 2 cores).
_ENDINGS = tuple({"".join(chars) for word in (".md", "json") for chars in product(*({c, c.upper()} for c in word))})
_LIMITS = Limits(max_bytes=1 << 16, max_depth=32, max_values=20_000)  # a settings file of a few hooks and servers
_RUN_KEYS = frozenset({"command", "args", "apiKeyHelper"})  # settings values that name what runs

Read = Callable[[TreeEntry], bytes]


def agent_reads(trees: Iterable[dict[str, TreeEntry]], read: Read) -> dict[str, str]:
    """{repository path: the configuration file naming it} for the files agents load or run."""
    named: dict[str, str] = {}
    done: set[tuple[str, str]] = set()
    for tree in trees:
        # (path, kind, hops): an imported file's own imports are read too, as Claude Code does (5 hops deep)
        queue = [(path, _kind(path), 0) for path in tree if path[-1:] in "dDnN" and path.endswith(_ENDINGS)]
        while queue:
            path, kind, hops = queue.pop()
            entry = tree.get(path)
            if kind is None or entry is None or entry.mode not in ("100644", "100755") or (path, entry.oid) in done:
                continue
            done.add((path, entry.oid))
            if len(done) > MAX_FILES:
                return named
            text = read(entry).decode("utf-8", "replace")
            folder, root = path.rpartition("/")[0], _project(path)
            words = _imports(text) if kind == "memory" else _commands(text, kind)
            for word in words:
                found = _join(folder if kind == "memory" else root, word)
                if found is not None:
                    named.setdefault(found, named.get(path, path))
                    if kind == "memory" and hops < _IMPORT_HOPS:
                        queue.append((found, "memory", hops + 1))
    return named


def reached(path: str, named: dict[str, str]) -> str | None:
    """The configuration file that names `path` or a folder above it, or None."""
    here = path
    while here:
        if here in named:
            return named[here]
        here = here.rpartition("/")[0]
    return None


def _kind(path: str) -> str | None:
    lower = path.lower()
    name = lower.rpartition("/")[2]
    if name in _MEMORY:
        return "memory"
    tail = "/".join(lower.split("/")[-2:])
    if name in _MCP or tail in _MCP:
        return "mcp"
    if name in _SETTINGS and tail.startswith(".claude/"):
        return "settings"
    return None


def _project(path: str) -> str:
    """The project folder a settings or MCP file belongs to (the folder above `.claude/`, `.cursor/`, ...)."""
    folder = path.rpartition("/")[0]
    last = folder.rpartition("/")[2]
    return folder.rpartition("/")[0] if last.startswith(".") else folder


def _imports(text: str) -> Iterator[str]:
    for match in _IMPORT.finditer(text):
        yield match.group(1).rstrip(".,:;")


def _commands(text: str, kind: str) -> Iterator[str]:
    try:
        document = load_json(text, "an agent's settings", _LIMITS)
    except (ValueError, LimitError):
        try:  # VS Code and Zed write comments and trailing commas (red team 35)
            document = load_json(plain_json(text), "an agent's settings", _LIMITS)
        except (ValueError, LimitError):
            return  # nothing read names nothing; the file itself is a guardrail by its own name
    for value in _run_values(document):
        yield from _WORD.findall(_PROJECT.sub("", value))


def _run_values(node: object, key: str = "") -> Iterator[str]:
    if isinstance(node, dict):
        for name, value in node.items():
            yield from _run_values(value, str(name))
    elif isinstance(node, list):
        for value in node:
            yield from _run_values(value, key)
    elif isinstance(node, str) and key in _RUN_KEYS:
        yield node


def _join(folder: str, word: str) -> str | None:
    if not word or word.startswith(("/", "~", "$", "-", "@")) or "://" in word:
        return None
    found = posixpath.normpath(posixpath.join(folder, word))
    return None if found == "." or found.startswith("../") or found == ".." else found
