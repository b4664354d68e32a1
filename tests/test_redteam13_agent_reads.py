"""Red team 13, second round, `--tree`: the files a coding agent's configuration imports or runs.

The `guardrail` tag marks the files that instruct or configure agents (CLAUDE.md, .claude/, .mcp.json, ...), and
`--enable guardrails` sends their edits to a human. What those files pull in was left out: the memory file's
imports (`@docs/rules.md` in CLAUDE.md or GEMINI.md: the agent reads that file as its instructions), the scripts
the hooks of `.claude/settings.json` run (a PreToolUse hook is the guard that blocks a tool call: `exit 0` disables
it), and the programs an MCP configuration starts. `gate --tree --enable guardrails` allowed an edit of each (exit
0; 13 variants on d650397). Each case checks out the two commits and asserts the named file is where the
configuration says, from the folder the agent resolves it in.
"""

from __future__ import annotations

import json
import os
import posixpath
from pathlib import Path

from tables import each_case

from tests.gitrepo import GitRepo
from tests.incli import reviewed_paths, tree_gate


def _hooks(command: str) -> str:
    return json.dumps({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
                                                                              "command": command}]}]}})


def _servers(key: str, command: str, args: list[str]) -> str:
    return json.dumps({key: {"tools": {"command": command, "args": args}}})


# name: (the configuration file, its text, the folder the agent resolves names from, the name as written there)
CASES: dict[str, tuple[str, str, str, str]] = {
    "claude-import": ("CLAUDE.md", "# Team rules\n\nSee @docs/agent-rules.md for the rest.\n", "",
                      "docs/agent-rules.md"),
    "claude-import-relative": ("services/api/CLAUDE.md", "@../shared/style.md\n", "services/api", "../shared/style.md"),
    "claude-local-import": ("CLAUDE.local.md", "- @notes/me.md\n", "", "notes/me.md"),
    "dot-claude-memory": (".claude/CLAUDE.md", "@../docs/review.md\n", ".claude", "../docs/review.md"),
    "gemini-import": ("GEMINI.md", "@./notes/style.md\n", "", "./notes/style.md"),
    "hook-script": (".claude/settings.json", _hooks("scripts/check.sh"), "", "scripts/check.sh"),
    "hook-project-dir": (".claude/settings.json", _hooks('"$CLAUDE_PROJECT_DIR"/tools/guard.py --strict'), "",
                         "tools/guard.py"),
    "hook-interpreter": (".claude/settings.local.json", _hooks("python3 ${CLAUDE_PROJECT_DIR}/tools/guard.py"), "",
                         "tools/guard.py"),
    "hook-subproject": ("web/.claude/settings.json", _hooks("./hooks/lint.sh"), "web", "./hooks/lint.sh"),
    "mcp-args": (".mcp.json", _servers("mcpServers", "node", ["tools/server.js"]), "", "tools/server.js"),
    "mcp-command": (".cursor/mcp.json", _servers("mcpServers", "./bin/tools-server", []), "", "./bin/tools-server"),
    "mcp-vscode": (".vscode/mcp.json", _servers("servers", "python", ["-u", "mcp/server.py"]), "", "mcp/server.py"),
    "mcp-nested": ("apps/bot/.mcp.json", _servers("mcpServers", "bash", ["run/server.sh"]), "apps/bot",
                   "run/server.sh"),
}
BEFORE = "keep it safe\n"
AFTER = "keep it safe\nexit 0  # allow everything\n"


def _repo(root: Path, config: str, text: str, named: str) -> tuple[GitRepo, str, str]:
    repo = GitRepo(root)
    repo.write("src/app.py", "print('hello')\n")
    repo.write(config, text)
    repo.write(named, BEFORE)
    base = repo.commit("base")
    repo.write(named, AFTER)
    return repo, base, repo.commit("head")


@each_case("case", list(CASES))
def test_a_file_an_agent_configuration_imports_or_runs_is_a_guardrail(tmp_path: Path, case: str) -> None:
    config, text, folder, written = CASES[case]
    assert written in text
    named = posixpath.normpath(posixpath.join(folder, written))
    repo, base, head = _repo(tmp_path / "repo", config, text, named)
    assert os.path.isfile(os.path.join(repo.root, folder, written))  # where the agent opens it, in the checkout
    code, decision = tree_gate(repo.root, base, head, None, "--enable", "guardrails")
    assert (code, decision["outcome"]) == (3, "review"), decision["reasons"]
    assert reviewed_paths(decision, "guardrails.edit") == {named}


# What names no file for the agent: prose, an e-mail address, a home or absolute path, a path out of the repository,
# a JSON key that runs nothing.
QUIET = {
    "agents-prose": ("AGENTS.md", "Read docs/agent-rules.md before you start.\n"),
    "email": ("CLAUDE.md", "Ask ops@docs/agent-rules.md.example or me@example.com\n"),
    "home-import": ("CLAUDE.md", "@~/docs/agent-rules.md\n@/docs/agent-rules.md\n@../../docs/agent-rules.md\n"),
    "description": (".mcp.json", json.dumps({"mcpServers": {"x": {"command": "npx", "description":
                                                                     "docs/agent-rules.md"}}})),
}


@each_case("case", list(QUIET))
def test_a_path_the_agent_does_not_load_stays_allowed(tmp_path: Path, case: str) -> None:
    config, text = QUIET[case]
    repo, base, head = _repo(tmp_path / "repo", config, text, "docs/agent-rules.md")
    code, decision = tree_gate(repo.root, base, head, None, "--enable", "guardrails")
    assert (code, decision["outcome"], decision["reasons"]) == (0, "allow", [])


def test_an_import_of_an_import_is_read_too(tmp_path: Path) -> None:
    """Claude Code follows imports in imported files (five hops): CLAUDE.md -> docs/team.md -> docs/style/git.md."""
    repo = GitRepo(tmp_path / "repo")
    repo.write("CLAUDE.md", "@docs/team.md\n")
    repo.write("docs/team.md", "Team conventions: @style/git.md\n")
    repo.write("docs/style/git.md", BEFORE)
    base = repo.commit("base")
    repo.write("docs/style/git.md", AFTER)
    code, decision = tree_gate(repo.root, base, repo.commit("head"), None, "--enable", "guardrails")
    assert (code, decision["outcome"]) == (3, "review"), decision["reasons"]
    assert reviewed_paths(decision, "guardrails.edit") == {"docs/style/git.md"}
