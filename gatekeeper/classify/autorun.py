"""Editor files read for what they run, or let an agent do, without anyone asking (red team 35,
tests/test_redteam35_tool_autorun.py; docs/classification.md, "Files developer tools run or obey").

Two kinds of settings file are read as JSON with comments (JSONC), as their editors read them:
- `run` files may start a program by themselves: VS Code runs a task whose `runOptions.runOn` is `folderOpen` when
  the folder opens (`.vscode/tasks.json` at any depth, the `tasks` of a `*.code-workspace`); the Dev Containers
  extension and CLI run a configuration's `initializeCommand` on the host before any container exists
  (`.devcontainer.json`, any `*.json` in a `.devcontainer/` folder). Either, on any side, makes the file `ci`
  (`RULE`), which the default policy reviews; an edit elsewhere in such a file counts too (the task a folder-open
  task depends on, its command ten lines from its `runOn`).
- `settings` files (`.vscode/settings.json` and `.zed/settings.json` at any depth, a `*.code-workspace`'s
  `settings`) hold such keys now and then: an agent's tools approved without asking (`chat.tools.autoApprove`, the
  terminal's auto-approve list: CVE-2025-53773), MCP servers, the terminal's environment and shell, tasks allowed to
  run automatically, the interpreter or server an extension starts. A key of `SETTINGS` (or a folder of one:
  `"chat": {"tools": ...}`), of `ZED` in Zed's file, or holding a word of `FRAGMENTS` tags the file `guardrail`
  (the optional guardrails policy); formatting settings and extension recommendations do not.
Fail closed: strings are decoded before they are compared (`"run\\u004fn"` is `runOn`); a side longer than FULL_READ,
holding a NUL (UTF-16) or not scanning as JSONC (an unterminated string or comment) holds every signal. From a patch
alone the lines it shows are read, and a side it does not show whole may hold a signal elsewhere: a `run` file is
`needs-context` (the core policy reviews it; `--tree` reads the blobs), a `settings` file is tagged `guardrail`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace

from gatekeeper.classify import envrcloads, nixshells
from gatekeeper.classify.contexttypes import Context, Shown
from gatekeeper.classify.sniff import FULL_READ
from gatekeeper.classify.symlinks import reached_at
from gatekeeper.lazy_pattern import lazy
from gatekeeper.model import ClassifiedFile

__all__ = ["RULE", "is_run_file", "judged", "plain_json", "runs_unasked"]

RULE = "ci.content.editor-autorun"
GUARDRAIL = "guardrail"
NEEDS_CONTEXT = "needs-context"
RUN, SETTINGS_FILE = "run", "settings"
# Keys (lowercase; a key names them, is below one, or is a folder of one) that let an agent act unasked or make the
# editor start a program or shell.
SETTINGS = (
    "chat", "github.copilot", "mcp", "amp", "cline", "roo-cline", "kilo-code", "claude-code", "claudecode",
    "continue", "codeium", "windsurf", "geminicodeassist", "cody", "augment", "chatgpt", "codex",
    "terminal.integrated.env", "terminal.integrated.profiles", "terminal.integrated.defaultprofile",
    "terminal.integrated.automationprofile", "terminal.integrated.shell", "terminal.integrated.shellargs",
    "task.allowautomatictasks", "security.workspace.trust",
)
# Zed's settings.json: its agent's tool permissions, MCP servers, terminal, the program a language server runs
# (`lsp.<name>.binary`; not `lsp` itself, which 4 of the 8 mirrored files set for a server's options only)
ZED = ("agent", "assistant", "context_servers", "language_models", "terminal", "binary")
# Not `typescript.tsdk` (36 of the 152 settings files of the mirrored repositories: VS Code asks before it runs a
# workspace's TypeScript) nor the retired `python.pythonPath`.
FRAGMENTS = ("autoapprove", "allowlist", "alwaysallow", "always_allow", "allowedcommands", "dangerous", "yolo",
             "mcpservers", "mcp_servers", "executablepath", "interpreterpath", "serverpath", "binarypath")
_RUN_WORDS = ("folderopen", "initializecommand")  # a decoded string holding one, key or value
# A JSONC token: a string (no line break inside, as JSON), a line comment, a block comment. Between tokens only
# punctuation, whitespace, literals and numbers may stand; a quote or slash there is a file that does not scan.
# Line breaks are VS Code's: LF, CR, U+2028 and U+2029 end a `//` comment there, and a string (attack 27).
# A block comment that never ends runs to the text's end (one token: a search from each `/*` after it was quadratic,
# review 69a); the readers call such a text one that does not scan (_open_comment)
_TOKEN = lazy(r'"(?:[^"\\\n\r\u2028\u2029]|\\.)*"|//[^\n\r\u2028\u2029]*|/\*.*?(?:\*/|\Z)', re.DOTALL)
_GAP_BAD = lazy(r'["/]')
_KEY_END = lazy(r"[\s\u200b\ufeff]*[:/]")  # VS Code skips U+200B and U+FEFF too; Python's \s does not


def judged(item: ClassifiedFile, context: Context) -> ClassifiedFile:
    """`item` raised to ci, tagged `guardrail` or `needs-context` by what its sides show (see the module)."""
    item = envrcloads.judged(item, context)  # a file an `.envrc` above it loads (classes52)
    if nixshells.is_shell(item.change.sides()):  # a Nix shell direnv enters (cfgarg2)
        return nixshells.judged(item, context)
    places = _places(item, context)
    kinds = {kind for side in places if (kind := _kind(side)) is not None}
    if "symlink" in item.tags:
        return _linked(item, kinds | {kind for side in places if (kind := _folder_kind(side)) is not None}, places)
    if not kinds:
        return item
    shown = context.content(item.change, every_type=True)
    run = RUN in kinds
    found = [(side, _signals(side, run, _settings_keys(places))) for side in shown]
    evidence = next((f"{side.path}: {what}" for side, (what, _) in found if what), None)
    guarded = any(guard for _, (_, guard) in found) or evidence is not None
    # a binary section shows no line of the file (UTF-16, a NUL): nothing of it is in sight (docs review 50)
    unshown = context.kind == "patch" and (
        not shown or "binary" in item.tags or not all(side.complete for side in shown))
    tags = set(item.tags)
    if evidence is not None and item.bucket != "ci":
        item = replace(item, bucket="ci", rule=RULE, ecosystem=None, tier="content", evidence=evidence)
    elif evidence is None and (run or _holds_tasks(places)) and unshown and item.bucket != "ci":
        tags.add(NEEDS_CONTEXT)  # the lines that decide may be the ones the patch leaves out
    if guarded or unshown:
        tags.add(GUARDRAIL)
    return replace(item, tags=tuple(sorted(tags))) if tags != set(item.tags) else item


def is_run_file(path: str) -> bool:
    """A task, workspace or Dev Container file (a `run` file); the last letter first: asked of every path of a tree."""
    return path[-1:] in "nNeE" and _kind(path) == RUN


def runs_unasked(path: str, data: bytes) -> bool:
    """Whether the `run` file at `path` holding `data` runs a command with nobody asking (folderOpen, initializeCommand;
    a file not read whole counts): the CI walk (ciwalk.py) then follows the scripts it names, as a workflow's."""
    return _signals(Shown(path, data, True), True, ())[0] is not None


def _holds_tasks(places: Iterable[str]) -> bool:
    """A VS Code settings file, whose `tasks` key is read as a task file's (a folder-open task there counts)."""
    return any(place.lower().split("/")[-2:] == [".vscode", "settings.json"] for place in places)


def _linked(item: ClassifiedFile, kinds: set[str], places: Iterable[str]) -> ClassifiedFile:
    """A symlink where an editor opens a task, workspace, settings or Dev Container file or folder: its target, which
    an earlier change may have brought in as an ordinary file, is what runs there. Not read through: a `run` place
    or a VS Code settings file (its `tasks` key) is ci, another `settings` one tagged guardrail (fail closed)."""
    if not kinds:
        return item
    tags = tuple(sorted({*item.tags, GUARDRAIL}))
    if (RUN in kinds or _holds_tasks(places)) and item.bucket != "ci":
        return replace(item, bucket="ci", rule=RULE, ecosystem=None, tier="content", tags=tags,
                       evidence=f"{item.change.path}: a symlink where a task or Dev Container file is opened")
    return replace(item, tags=tags)


def _folder_kind(path: str) -> str | None:
    """The kind of the files a symlinked folder holds (`.vscode`, `.devcontainer`: run files; `.zed`: settings)."""
    name = path.rpartition("/")[2].lower()
    return RUN if name in (".vscode", ".devcontainer") else SETTINGS_FILE if name == ".zed" else None


def _places(item: ClassifiedFile, context: Context) -> list[str]:
    """Where the file is opened: its sides, and the paths symlinks of either tree reach it at (`.vscode/tasks.json ->
    ../tools/tasks.json`: VS Code reads the target there). Past the symlinks read, context.py made the file ci."""
    sides = item.change.sides()
    links = context.link_targets()
    if not links:
        return sides
    return [*sides, *(path for side in sides for path, _ in reached_at(side, links) or ())]


def _settings_keys(places: list[str]) -> tuple[str, ...]:
    """The keys read as guardrail settings where the file is opened as an editor's settings (none in a task file: its
    `"task":` key is no setting; a Dev Container's files are tagged by path)."""
    lowered = [place.lower() for place in places]
    if any(place.endswith(".zed/settings.json") for place in lowered):
        return SETTINGS + ZED
    keyed = any(place.endswith(".code-workspace") or _kind(place) == SETTINGS_FILE for place in lowered)
    return SETTINGS if keyed else ()


def _kind(path: str) -> str | None:
    """`run`, `settings` or None for a path (compared in lowercase: a checkout on a case-insensitive disk opens
    `.VSCode/Tasks.json` as `.vscode/tasks.json`)."""
    if path[-1:] not in "nNeE":  # each name below ends in `json` or `workspace` (no other letter lowers to n or e)
        return None
    parts = path.lower().split("/")
    name, folder = parts[-1], parts[-2] if len(parts) > 1 else ""
    if name.endswith(".code-workspace") or name == "tasks.json" and folder == ".vscode":
        return RUN
    if name == ".devcontainer.json" or name.endswith(".json") and ".devcontainer" in parts[:-1]:
        return RUN
    if name == "settings.json" and folder in (".vscode", ".zed"):
        return SETTINGS_FILE
    return None


def _signals(side: Shown, run: bool, names: tuple[str, ...]) -> tuple[str | None, bool]:
    """(what makes the side ci, or None; whether it holds a guardrail key: one of `names`) for one side's bytes."""
    data = side.data
    if b"\0" in data or len(data) > FULL_READ:
        why = "holds a NUL byte" if b"\0" in data else f"longer than the {FULL_READ // 1024} KiB read"
        return (f"{why}: not read as JSONC, may run a task or host command" if run else None), True
    scanned = _strings(data.decode("utf-8", "replace"))
    if scanned is None:
        fail = run and side.complete  # a patch's hunk may cut a comment or string in two: needs-context instead
        return ("does not scan as JSONC: may run a task or host command" if fail else None), True
    # a settings file may hold tasks too (a `tasks` key, as a workspace file's): a folder-open one counts there
    if word := next((w for s, _ in scanned for w in (_RUN_WORDS if run else _RUN_WORDS[:1]) if w in s), None):
        return ("a task run on folder open (runOn: folderOpen)" if word == "folderopen" else
                "initializeCommand (run on the host)"), True
    return None, bool(names) and any(_guarded(s, names) for s, key in scanned if key)


def _guarded(key: str, names: Iterable[str]) -> bool:
    if any(fragment in key for fragment in FRAGMENTS):
        return True
    return any(key == name or key.startswith(f"{name}.") or name.startswith(f"{key}.") for name in names)


def _strings(text: str) -> list[tuple[str, bool]] | None:
    """Every string of a JSONC text, decoded and in lowercase, and whether it may be a key (a colon or a comment
    follows it), or None when the text does not scan."""
    out: list[tuple[str, bool]] = []
    end = 0
    for match in _TOKEN.finditer(text):
        if _GAP_BAD.search(text, end, match.start()):
            return None
        end = match.end()
        token = match.group()
        if _open_comment(token):
            return None
        if token.startswith('"'):
            if (decoded := _decoded(token[1:-1])) is None:
                return None  # an escape JSON does not know
            out.append((decoded.lower(), _KEY_END.match(text, end) is not None))
    return None if _GAP_BAD.search(text, end) else out


_ESCAPE = lazy(r'\\(?:u([0-9a-fA-F]{4})|(["\\/bfnrt]))|\\')
_SIMPLE = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}


def _decoded(body: str) -> str | None:
    """A JSON string's body with its escapes decoded (a lone surrogate stays one), or None at an escape JSON does not
    know. Not through a JSON reader: tests/test_redteam_limits.py keeps those to gatekeeper.bounded."""
    if "\\" not in body:
        return body
    bad = False

    def one(match: re.Match[str]) -> str:
        nonlocal bad
        if match.group(1):
            return chr(int(match.group(1), 16))
        if match.group(2):
            return _SIMPLE[match.group(2)]
        bad = True
        return ""

    decoded = _ESCAPE.sub(one, body)
    return None if bad else decoded


_TRAILING_COMMA = lazy(r",(\s*[}\]])")
_SEPARATORS = {0x2028: " ", 0x2029: " "}  # line breaks to VS Code, not whitespace to a strict JSON reader


def plain_json(text: str) -> str:
    """A JSONC text as strict JSON: comments blanked, trailing commas dropped, strings untouched (what VS Code's and
    Zed's readers accept, for agentreads.py's strict reader). A text that does not scan comes back as it is."""
    pieces: list[tuple[str, bool]] = []  # (text, a string token)
    end = 0
    for match in _TOKEN.finditer(text):
        pieces.append((text[end:match.start()].translate(_SEPARATORS), False))
        token = match.group()
        if _open_comment(token):
            return text
        pieces.append((token, True) if token.startswith('"') else (" ", False))
        end = match.end()
    pieces.append((text[end:].translate(_SEPARATORS), False))
    out: list[str] = []
    plain: list[str] = []  # the pieces between two strings, joined once (grown by `+`: a copy a piece, suite round 43)
    for piece, string in pieces:
        if string:
            out += [_TRAILING_COMMA.sub(r"\1", "".join(plain)), piece]
            plain = []
        else:
            plain.append(piece)
    return "".join([*out, _TRAILING_COMMA.sub(r"\1", "".join(plain))])


def _open_comment(token: str) -> bool:
    """A `/*` comment that never ends (_TOKEN runs it to the text's end)."""
    return token.startswith("/*") and (len(token) < 4 or not token.endswith("*/"))
