"""Every command the docs show runs, offline, in a prepared folder, and does what the docs say.

Shell blocks of README.md and docs/*.md (```console with `$ ` prompts, ```sh, ```bash) run in
order, one page per test, in a copy of a prepared folder: a git repository holding the shipped
bundle and fixtures, an allowed change (`patch.diff`, `packet.json`) and a change that needs
review (`run/patch.diff`, `run/packet.json`), all made by real git and gatekeeper. Markers in
the Markdown, on the line before a block:

    <!-- docs-test: skip REASON -->   the block is not run (REASON is required)
    <!-- docs-test: exit N -->        the block (every `$ ` command of a console block) exits N

Output under a console command is checked: whitespace runs compare equal, `…` inside a line
matches any text, and a line `...` matches any number of lines. Usage synopses (plain ```
blocks, inline `gatekeeper ...` code) are checked against each command's `--help`.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import POLICY_DIR, REPO_ROOT
from gitrepo import GIT_ENV
from incli import run_cli
from mdtables import table_rows
from shipped import shipped_only
from warmcli import served

from gatekeeper.policy.bundle import load_bundle

BIN = Path(sys.executable).parent
PAGES = [REPO_ROOT / "README.md", *sorted((REPO_ROOT / "docs").glob("*.md"))]
SHELL_LANGS = {"console", "sh", "bash"}
MARKER = re.compile(r"^<!--\s*docs-test:\s*(\w+)\s*(.*?)\s*-->\s*$")
FENCE = re.compile(r"^(`{3,})([\w-]*)\s*$")


@dataclass(frozen=True, slots=True)
class Block:
    page: str
    line: int
    lang: str
    text: str
    skip: str | None = None
    exit: int = 0


@dataclass(frozen=True, slots=True)
class Command:
    line: int
    script: str
    expected: tuple[str, ...]


def blocks_of(page: Path) -> list[Block]:
    """Fenced blocks of one page with the docs-test marker that precedes each (skipping blank lines)."""
    lines = page.read_text(encoding="utf-8").splitlines()
    found: list[Block] = []
    index = 0
    while index < len(lines):
        fence = FENCE.match(lines[index].strip())
        if not fence:
            index += 1
            continue
        start = index
        end = next(i for i in range(start + 1, len(lines)) if lines[i].strip() == fence.group(1))
        indent = len(lines[start]) - len(lines[start].lstrip())
        body = "\n".join(line[indent:] for line in lines[start + 1 : end])
        marks: dict[str, str] = {}
        back = start - 1
        while back >= 0 and (MARKER.match(lines[back].strip()) or not lines[back].strip()):
            mark = MARKER.match(lines[back].strip())
            if mark:
                marks[mark.group(1)] = mark.group(2)
            back -= 1
        unknown = set(marks) - {"skip", "exit"}
        assert not unknown, f"{page.name}:{start + 1}: unknown docs-test marker {unknown}"
        found.append(
            Block(
                page.name,
                start + 1,
                fence.group(2),
                body + "\n",
                skip=marks.get("skip"),
                exit=int(marks.get("exit", "0")),
            )
        )
        index = end + 1
    return found


def console_commands(block: Block) -> list[Command]:
    """Split a console block into `$ ` commands (with `\\` continuations and heredocs) and their output."""
    lines = block.text.splitlines()
    commands: list[Command] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        assert line.startswith("$ "), f"{block.page}:{block.line}: output before any `$ ` command: {line!r}"
        start = index
        script = [line[2:]]
        index += 1
        while script[-1].endswith("\\") and index < len(lines):
            script.append(lines[index])
            index += 1
        heredoc = re.search(r"<<-?\s*'?(\w+)'?", script[0])
        if heredoc:
            while index < len(lines) and lines[index] != heredoc.group(1):
                script.append(lines[index])
                index += 1
            script.append(lines[index])
            index += 1
        output = []
        while index < len(lines) and not lines[index].startswith("$ "):
            output.append(lines[index])
            index += 1
        commands.append(Command(block.line + start + 1, "\n".join(script) + "\n", tuple(output)))
    return commands


def output_pattern(expected: tuple[str, ...]) -> re.Pattern[str]:
    """Documented output as a regex: runs of blanks match runs of blanks, `…` any text, `...` any lines."""
    parts = []
    for line in expected:
        if line.strip() == "...":
            parts.append(r"(?:[^\n]*\n)*?")
            continue
        words = [re.escape(word).replace("…", r"[^\n]*?") for word in re.sub(r"\s*…", "…", line).split()]
        parts.append(r"[ \t]*" + r"[ \t]+".join(words) + r"\n")
    return re.compile("".join(parts) + r"\Z")


def normalised(output: str) -> str:
    return "".join(line.rstrip() + "\n" for line in output.splitlines() if line.strip())


# -- the prepared folder ---------------------------------------------------------------------------


def git(cwd: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", *args], cwd=cwd, env={**os.environ, **GIT_ENV}, capture_output=True, text=True, check=True
    )
    return done.stdout


def init_repo(folder: Path, files: dict[str, str]) -> None:
    """A real repository whose one commit holds `files`."""
    folder.mkdir(parents=True)
    git(folder, "init", "-q", "-b", "main", "--template=")  # no sample hooks: nothing here runs them
    write_files(folder, files)
    git(folder, "add", "-A")
    git(folder, "-c", "maintenance.auto=false", "commit", "-q", "-m", "base")  # no maintenance check process


def write_files(folder: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(text, encoding="utf-8")


def make_change(
    folder: Path, base: dict[str, str], change: dict[str, str], out: Path, run_id: str, policy: Path
) -> None:
    """Commit `base`, write `change`, save the staged patch and its packet (built by the CLI) in `out`."""
    init_repo(folder, base)
    write_files(folder, change)
    git(folder, "add", "-A")
    out.mkdir(parents=True, exist_ok=True)
    patch = subprocess.run(
        ["git", "diff", "--cached", "--binary", "--no-color", "--no-ext-diff", "--no-textconv"],
        cwd=folder,
        env={**os.environ, **GIT_ENV},
        capture_output=True,
        check=True,
    ).stdout
    (out / "patch.diff").write_bytes(patch)
    made = run_cli(  # setup, in-process: the documented commands themselves run as real processes
        ["packet", out / "patch.diff", "--out", out / "packet.json", "--policy", policy, "--run-id", run_id,
         "--model-requested", "model-a"]
    )
    assert made.returncode == 0, made.stderr


BASE_FILES = {
    "README.md": "# sample\n",
    "src/main.go": "package main\n\nfunc main() {}\n",
    ".github/workflows/ci.yml": (
        "name: ci\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: go test ./...\n"
    ),
    "go.mod": "module example.com/sample\n\ngo 1.22\n",
}


@pytest.fixture(scope="module")
def prepared(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A git repository with the bundle and fixtures committed, an allowed and a review change beside them."""
    root = tmp_path_factory.mktemp("docs")
    ws = root / "ws"
    ws.mkdir()
    git(ws, "init", "-q", "-b", "main", "--template=")
    shutil.copytree(POLICY_DIR, ws / "policies")
    shutil.copytree(REPO_ROOT / "fixtures", ws / "fixtures", ignore=shutil.ignore_patterns("__pycache__"))
    git(ws, "add", "-A")
    git(ws, "-c", "maintenance.auto=false", "commit", "-q", "-m", "Policy bundle and fixtures")
    make_change(
        root / "sample-allow",
        BASE_FILES,
        {"src/main.go": "package main\n\nfunc main() { println(1) }\n"},
        ws,
        "run-0041",
        ws / "policies",
    )
    make_change(
        root / "sample-review",
        BASE_FILES,
        {
            ".github/workflows/ci.yml": BASE_FILES[".github/workflows/ci.yml"] + "      - run: go vet ./...\n",
            "go.mod": "module example.com/sample\n\ngo 1.23\n",
        },
        ws / "run",
        "run-0042",
        ws / "policies",
    )
    init_repo(ws / "sample", BASE_FILES)  # a repository the runner examples clone
    # Every page with a block to run copies this folder. Packed, as a clone is, a repository is a few files
    # instead of one per object and fan-out folder: a copy creates ~170 entries, not ~430, where creating a
    # file on this project's VMs costs 0.1 to 1 ms of system CPU.
    for repo in (ws, ws / "sample"):
        git(repo, "repack", "-a", "-d", "-q")
    return ws


def page_env(home: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("GITHUB_", "GATEKEEPER_"))}
    return {
        **env,
        **{k: v for k, v in GIT_ENV.items() if k != "HOME"},
        "HOME": str(home),
        "XDG_STATE_HOME": str(home / "state"),
        "LC_ALL": "C.UTF-8",
        "COLUMNS": "80",
        "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
    }


def run_script(script: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-eo", "pipefail", "-c", script],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=120,
    )


@pytest.fixture(scope="module")
def warm_gatekeeper(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The folder of a `gatekeeper` served from a warm interpreter (tests/warmcli.py), for the pages' scripts."""
    root = tmp_path_factory.mktemp("warm")
    (root / "home").mkdir()
    with served(root / "server", page_env(root / "home")) as folder:
        yield folder


def run_page(page: Path, prepared: Path, tmp_path: Path, warm: Path | None = None) -> tuple[Path, Path, int]:
    """Run every shell block of `page` in order in a fresh copy of the prepared folder; count the blocks run.

    `warm`: a folder put first on PATH, whose `gatekeeper` the scripts run (tests/warmcli.py).
    """
    ws = tmp_path / "ws"
    home = tmp_path / "home"
    home.mkdir()
    env = page_env(home)
    if warm is not None:
        env["PATH"] = f"{warm}{os.pathsep}{env['PATH']}"
    ran = 0
    for block in blocks_of(page):
        if block.lang not in SHELL_LANGS or block.skip is not None:
            continue
        if not ran:  # a page without a block to run needs no copy
            shutil.copytree(prepared, ws, symlinks=True)
        ran += 1
        if block.lang != "console":
            done = run_script(block.text, ws, env)
            assert done.returncode == block.exit, (
                f"{block.page}:{block.line}: exit {done.returncode}, expected {block.exit}\n{block.text}\n{done.stdout}"
            )
            continue
        for command in console_commands(block):
            done = run_script(command.script, ws, env)
            where = f"{block.page}:{command.line}: $ {command.script.strip()}"
            assert done.returncode == block.exit, (
                f"{where}\nexit {done.returncode}, expected {block.exit}\n{done.stdout}"
            )
            if command.expected:
                pattern = output_pattern(tuple(line for line in command.expected if line.strip()))
                assert pattern.match(normalised(done.stdout)), f"{where}\noutput differs from the docs:\n{done.stdout}"
    return ws, home, ran


# -- the tests -------------------------------------------------------------------------------------


def test_every_page_is_checked() -> None:
    names = {page.name for page in PAGES}
    assert {"README.md", "ci.md", "policies.md", "security-teams.md", "audit.md", "packet.md"} <= names


@shipped_only
@pytest.mark.parametrize("page", PAGES, ids=[page.name for page in PAGES])
def test_shell_blocks_run_as_documented(page: Path, prepared: Path, warm_gatekeeper: Path, tmp_path: Path) -> None:
    ws, home, ran = run_page(page, prepared, tmp_path, warm_gatekeeper)
    shell = [block for block in blocks_of(page) if block.lang in SHELL_LANGS]
    assert ran == len([block for block in shell if block.skip is None])
    CHECKS.get(page.name, lambda ws, home: None)(ws, home)


def test_every_skipped_block_says_why_and_the_list_stays_short() -> None:
    skipped = [block for page in PAGES for block in blocks_of(page) if block.skip is not None]
    for block in skipped:
        assert len((block.skip or "").split()) >= 3, f"{block.page}:{block.line}: a skipped block must say why"
        assert block.lang in SHELL_LANGS, f"{block.page}:{block.line}: only shell blocks are run, no skip needed"
    assert len(skipped) <= 6, [f"{b.page}:{b.line}" for b in skipped]


def test_prompts_only_in_console_blocks() -> None:
    """A `$ ` line in a plain block would never run: it must be a console block."""
    for page in PAGES:
        for block in blocks_of(page):
            if block.lang not in SHELL_LANGS:
                prompts = [line for line in block.text.splitlines() if line.startswith("$ ")]
                assert not prompts, f"{block.page}:{block.line}: `$ ` prompt in a ```{block.lang} block"


# -- synopses and inline commands name options the commands have -----------------------------------


def help_text(words: tuple[str, ...], cache: dict[tuple[str, ...], str]) -> str:
    if words not in cache:
        # In-process (tests/incli.py): the subject is the option list; the installed script's own --help
        # runs as a real process in leaf_commands below.
        done = run_cli([*words, "--help"], text=True)
        assert done.returncode == 0, f"`gatekeeper {' '.join(words)}` is not a command: {done.stderr}"
        cache[words] = done.stdout
    return cache[words]


def mentioned_commands(page: Path) -> list[tuple[int, str]]:
    """`gatekeeper ...` command lines of non-shell blocks, and inline code spans starting with `gatekeeper `."""
    text = page.read_text(encoding="utf-8")
    found = []
    for block in blocks_of(page):
        if block.lang in SHELL_LANGS:
            continue
        joined = re.sub(r"\n\s+(?=\[|--)", " ", block.text)  # synopsis continuation lines
        found += [(block.line, line) for line in joined.splitlines() if line.startswith("gatekeeper ")]
    for match in re.finditer(r"(?<!`)`(gatekeeper [^`]+)`", text):
        found.append((text.count("\n", 0, match.start()) + 1, match.group(1)))
    return found


def test_documented_commands_and_options_exist() -> None:
    cache: dict[tuple[str, ...], str] = {}
    groups = {"audit", "policy"}
    for page in PAGES:
        for line, command in mentioned_commands(page):
            tokens = command.replace("…", " ").split()[1:]
            if not tokens or not re.fullmatch(r"[a-z]+", tokens[0]):
                continue
            words = (
                tuple(tokens[:2]) if tokens[0] in groups and len(tokens) > 1 and tokens[1].isalpha() else (tokens[0],)
            )
            usage = help_text(words, cache)
            for option in re.findall(r"(?<![\w-])--[a-z][a-z-]*", command.split(" -- ")[0]):
                assert re.search(rf"(?<![\w-]){option}\b", usage), (
                    f"{page.name}:{line}: `gatekeeper {' '.join(words)}` has no {option}"
                )


# -- page-specific checks on what the commands left behind -----------------------------------------


def check_ci(ws: Path, home: Path) -> None:
    import xml.etree.ElementTree as ET

    assert ET.parse(ws / "gatekeeper-junit.xml").getroot().tag == "testsuites"
    assert (ws / "gatekeeper.sarif").read_text().count('"version": "2.1.0"') == 1
    assert (ws / "comment.md").read_text().startswith("### ")
    bash = (home / ".gatekeeper-complete.bash").read_text()
    assert "_GATEKEEPER_COMPLETE=bash_complete" in bash
    assert "compdef gatekeeper" in (home / ".gatekeeper-complete.zsh").read_text()
    assert "complete" in (home / ".gatekeeper-complete.fish").read_text()
    # The generated bash function really completes: the subcommands of `audit`.
    probe = (
        f'. {home}/.gatekeeper-complete.bash; COMP_WORDS=(gatekeeper audit ""); COMP_CWORD=2; '
        '_gatekeeper_completion gatekeeper; printf "%s\\n" "${COMPREPLY[@]}"'
    )
    done = subprocess.run(
        ["bash", "-c", probe], env=page_env(home), capture_output=True, text=True, check=True, timeout=60
    )
    assert {"verify", "show", "stats", "replay"} <= set(done.stdout.split())


def check_security_teams(ws: Path, home: Path) -> None:
    assert (ws / "policies" / "migrations" / "policy.rego").is_file()
    # Step 4's `gatekeeper test` (make policy-test's command; tests/test_walkthrough.py) reported full coverage
    # of the bundle's declared rules: the shipped ones and the new one.
    declared = sum(len(p.rules) for p in load_bundle(ws / "policies").policies)
    assert declared == sum(len(p.rules) for p in load_bundle(POLICY_DIR).policies) + 1
    assert (ws / "fixtures" / "migration-added" / "patch.diff").read_bytes().startswith(b"diff --git ")


def check_audit(ws: Path, home: Path) -> None:
    import json

    lines = (ws / "decisions.jsonl").read_text().splitlines()
    assert len(lines) == 2 and (ws / "decisions.jsonl.head").is_file()
    doc = (REPO_ROOT / "docs" / "audit.md").read_text(encoding="utf-8")
    documented: set[str] = set()
    for row in table_rows(doc, "| field |"):
        documented |= set(re.findall(r"`(\w+)`", row[0]))
    assert documented == set(json.loads(lines[0])), "docs/audit.md's record table and a real record differ"


CHECKS = {"ci.md": check_ci, "security-teams.md": check_security_teams, "audit.md": check_audit}


# -- README tables say what the code does ----------------------------------------------------------

README = (REPO_ROOT / "README.md").read_text(encoding="utf-8")


def leaf_commands() -> dict[str, object]:
    import click

    from gatekeeper.cli import cli

    found: dict[str, object] = {}

    def walk(command: click.Command, words: tuple[str, ...]) -> None:
        if isinstance(command, click.Group):
            ctx = click.Context(command)
            for name in command.list_commands(ctx):
                walk(command.get_command(ctx, name), (*words, name))  # type: ignore[arg-type]
        else:
            found[" ".join(words)] = command

    done = subprocess.run([str(BIN / "gatekeeper"), "--help"], capture_output=True, text=True, check=True, timeout=60)
    walk(cli, ())
    assert set(re.findall(r"^  (\w+)  ", done.stdout, flags=re.M)) == {name.split()[0] for name in found}
    return found


def test_readme_command_table_matches_every_commands_help() -> None:
    rows = {row[0].strip("`"): row[1] for row in table_rows(README, "| command |")}
    cache: dict[tuple[str, ...], str] = {}
    documented = {}
    for usage, summary in rows.items():
        words = tuple(word for word in usage.split()[1:] if re.fullmatch(r"[a-z]+", word))
        text = help_text(words, cache)
        usage_line = re.search(r"^Usage: (.*)$", text, flags=re.M)
        assert usage_line and usage_line.group(1) == usage, f"README says `{usage}`, --help says `{usage_line}`"
        first_paragraph = " ".join(text.split("\n\n")[1].split())
        assert " ".join(summary.split()) == first_paragraph, (
            f"`{usage}`: README {summary!r} != --help {first_paragraph!r}"
        )
        documented[" ".join(words)] = summary
    assert set(documented) == set(leaf_commands())


def test_readme_exit_code_table_matches_the_enum() -> None:
    from gatekeeper.errors import ExitCode

    rows = {int(row[0]): row[1] for row in table_rows(README, "| code |")}
    assert set(rows) == {int(code) for code in ExitCode}
    assert rows[ExitCode.OK].startswith("allow") and rows[ExitCode.FAILED].startswith("deny")
    assert rows[ExitCode.ERROR].startswith("could not decide") and rows[ExitCode.REVIEW].startswith("review")


def test_readme_configuration_keys_are_the_loaders() -> None:
    from gatekeeper import project_config

    keys: set[str] = set()
    for row in table_rows(README, "| key |"):
        keys |= set(re.findall(r"`(\w+)`", row[0]))
    assert keys == set(project_config._KEYS)


@shipped_only
def test_readme_policy_table_matches_the_bundle() -> None:
    import json

    manifest = json.loads((POLICY_DIR / ".manifest").read_text(encoding="utf-8"))
    rows = {row[0].strip("`"): row for row in table_rows(README, "| policy | version |")}
    assert set(rows) == set(manifest["metadata"]["policies"])
    for name, row in rows.items():
        text = (POLICY_DIR / name / "policy.rego").read_text(encoding="utf-8")
        version = re.search(r"^#\s+version:\s*(\S+)", text, flags=re.M)
        assert version and row[1] == version.group(1), name
        assert row[2] == ("on" if manifest["metadata"]["policies"][name]["default"] else "off"), name


def test_every_input_schema_field_is_described_in_policies_md() -> None:
    import json

    schema = json.loads((REPO_ROOT / "gatekeeper" / "schemas" / "input-v1.schema.json").read_text(encoding="utf-8"))
    doc = (REPO_ROOT / "docs" / "policies.md").read_text(encoding="utf-8")
    section = doc[doc.index("## 2. The input document") : doc.index("## 3.")]
    props = schema["properties"]
    for top in props:
        assert f"`input.{top}" in section, top
    for name in props["files"]["items"]["properties"]:
        assert f"`{name}`" in section, f"files[].{name}"
    for name in props["summary"]["properties"]:
        assert re.search(rf"`{name}[`.]|\b{name}\b", section), f"summary.{name}"
    for name in props["integrity"].get("properties", {}):
        assert f"`{name}`" in section, f"integrity.{name}"


LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def anchors(page: Path) -> set[str]:
    """GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens."""
    found = set()
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            found.add(re.sub(r"[^\w\- ]", "", title).replace(" ", "-"))
    return found


def test_relative_links_and_anchors_resolve() -> None:
    for page in PAGES:
        for target in LINK.findall(page.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", target):
                continue
            path, _, anchor = target.partition("#")
            resolved = (page.parent / path).resolve() if path else page
            assert resolved.exists(), f"{page.name}: broken link {target}"
            if anchor:
                assert anchor in anchors(resolved), f"{page.name}: no heading #{anchor} in {path or page.name}"


def test_quick_start_describes_what_make_test_runs() -> None:
    makefile = (REPO_ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = re.search(r"^test:.*\n((?:\t.*\n)+)", makefile, flags=re.M)
    invocations = re.findall(r"\$\(MAKE\)((?: [^\s]+)+)", recipe.group(1)) if recipe else []
    steps = [word for words in invocations for word in words.split() if not word.startswith("-")]
    said = README[README.index("- `make test`") :].split("\n- ")[0].split("\n\n")[0]
    words = {"lint": "lint", "pytest": "pytest", "policy-test": "`gatekeeper test`"}
    assert steps and all(words.get(step, step) in said for step in steps), (steps, said)


@shipped_only
def test_policies_md_table_lists_each_policys_declared_rules() -> None:
    doc = (REPO_ROOT / "docs" / "policies.md").read_text(encoding="utf-8")
    rows = table_rows(doc, "| policy | default |")
    assert len(rows) == len([p for p in POLICY_DIR.iterdir() if (p / "policy.rego").is_file()])
    for row in rows:
        name, version = row[0].split()
        text = (POLICY_DIR / name / "policy.rego").read_text(encoding="utf-8")
        declared = re.findall(r"^#\s+-\s+([\w.]+)\s*$", text, flags=re.M)
        assert set(re.findall(r"`([a-z_]+\.[a-z_]+)`", row[2])) == set(declared), name
        assert re.search(rf"^#\s+version:\s*{re.escape(version)}\s*$", text, flags=re.M), name


def test_rego_examples_in_the_docs_compile_and_pass(tmp_path: Path) -> None:
    """policies.md's example policy and its test, and testing.md's example tests, run in a copy of the bundle."""
    import json

    bundle = tmp_path / "policies"
    shutil.copytree(POLICY_DIR, bundle)
    policy, unit = [b.text for b in blocks_of(REPO_ROOT / "docs" / "policies.md") if b.lang == "rego"]
    (bundle / "submodules").mkdir()
    (bundle / "submodules" / "policy.rego").write_text(policy, encoding="utf-8")
    (bundle / "submodules" / "policy_test.rego").write_text(unit, encoding="utf-8")
    [core_tests] = [b.text for b in blocks_of(REPO_ROOT / "docs" / "testing.md") if b.lang == "rego"]
    (bundle / "core" / "docs_example_test.rego").write_text(core_tests, encoding="utf-8")
    manifest = json.loads((bundle / ".manifest").read_text(encoding="utf-8"))
    manifest["metadata"]["policies"]["submodules"] = {"default": False}
    (bundle / ".manifest").write_text(json.dumps(manifest), encoding="utf-8")
    # In-process: the subject is the examples' Rego; the shell blocks above run `gatekeeper test` as a process.
    # Only the examples' tests run (--run): each test file is built with every policy module of the bundle, the
    # example policy among them, and the shipped tests' own run is tests/test_test_cmd.py's.
    tests = re.findall(r"^(test_\w+) if", policy + unit + core_tests, flags=re.M)
    assert tests
    done = run_cli(["test", "--policy", bundle, "--format", "json", "--run", f"^(?:{'|'.join(tests)})$"],
                   cwd=tmp_path, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    ran = {result["name"] for result in json.loads(done.stdout)["results"] if result["status"] == "pass"}
    assert ran == set(tests), f"{sorted(set(tests) - ran)} did not run and pass"


def test_the_output_check_is_strict_where_the_docs_are_literal() -> None:
    pattern = output_pattern(("gatekeeper: review required", "...", "  REVIEW core.ci …", "done"))
    assert pattern.match("gatekeeper:  review required\nx\ny\nREVIEW core.ci (policy core)\ndone\n")
    assert not pattern.match("gatekeeper: allow\nREVIEW core.ci\ndone\n")
    assert not pattern.match("gatekeeper: review required\nREVIEW core.ci\ndone\nmore\n")


def test_console_blocks_split_into_commands_with_heredocs_and_continuations() -> None:
    text = "$ cat <<'EOF'\n$ not a prompt\nEOF\n$ printf a \\\n  b\nout\n"
    [first, second] = console_commands(Block("x.md", 1, "console", text))
    assert first.script == "cat <<'EOF'\n$ not a prompt\nEOF\n" and first.expected == ()
    assert second.script == "printf a \\\n  b\n" and second.expected == ("out",)


def test_classification_overlay_example_loads_and_decides_as_described(tmp_path: Path) -> None:
    import json

    [overlay] = [b.text for b in blocks_of(REPO_ROOT / "docs" / "classification.md") if "classification.d/" in b.text]
    bundle = tmp_path / "policies"
    shutil.copytree(POLICY_DIR, bundle)
    (bundle / "classification.d").mkdir(exist_ok=True)
    (bundle / "classification.d" / "10-acme.yaml").write_text(overlay, encoding="utf-8")
    paths = "Dockerfile\nops/README.md\nqa-data/Dockerfile\nops/approvers.txt\nrenovate.json\n"
    done = run_cli(["classify", "--policy", bundle, "--paths", "-", "--format", "json"], input=paths, text=True)
    assert done.returncode == 0, done.stderr
    files = {f["path"]: f for f in json.loads(done.stdout)["files"]}
    assert (files["Dockerfile"]["bucket"], files["Dockerfile"]["rule"]) == ("ci", "iac.containers")
    assert (files["ops/README.md"]["bucket"], files["ops/README.md"]["rule"]) == ("iac", "acme.ops")
    assert files["qa-data/Dockerfile"]["rule"] == "acme.qa-data"
    assert "guardrail" in files["ops/approvers.txt"]["tags"]
    assert files["renovate.json"]["rule"] != "other.outside-apps"


# A signal's id in the code or the context tiers' data: tier 2 (markers, API groups) and tier 3 (content).
SIGNAL_ID = re.compile(r"\b(?:ci|iac|deps|src|other)\.(?:content|context|marker)\.[a-z0-9][a-z0-9.-]*[a-z0-9]")


def test_every_signal_is_named_in_classification_md() -> None:
    # Issue 12: docs/classification.md explains every signal; a reader of `--explain` output finds its id there.
    code = sorted((REPO_ROOT / "gatekeeper" / "classify").glob("*.py"))
    sources = [POLICY_DIR / "classification-context.yaml", *code]
    ids = {m for path in sources for m in SIGNAL_ID.findall(path.read_text(encoding="utf-8"))}
    assert len(ids) > 60, sorted(ids)  # the pattern still finds them
    page = (REPO_ROOT / "docs" / "classification.md").read_text(encoding="utf-8")
    assert sorted(i for i in ids if i not in page) == []


def test_fixture_expectation_example_is_a_valid_passing_case(tmp_path: Path) -> None:
    [expect] = [b.text for b in blocks_of(REPO_ROOT / "docs" / "testing.md") if b.text.startswith("description:")]
    case = tmp_path / "fixtures" / "ci-workflow"
    case.mkdir(parents=True)
    shutil.copyfile(REPO_ROOT / "fixtures" / "ci-workflow" / "patch.diff", case / "patch.diff")
    (case / "expect.yaml").write_text(expect, encoding="utf-8")
    done = run_cli(
        [
            "test",
            "--policy",
            POLICY_DIR,
            "--fixtures",
            tmp_path / "fixtures",
            "--run",
            r"\[",  # every fixture case (`<case>[<set>]`), no Rego unit test: the subject is the example case
        ],
        cwd=tmp_path,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "fixtures: 2 pass 0 fail" in done.stdout


def test_readme_index_links_every_docs_page() -> None:
    index = README[README.index("## Documentation") :]
    for page in (REPO_ROOT / "docs").glob("*.md"):
        assert f"(docs/{page.name})" in index, f"README's index does not link docs/{page.name}"
