"""docs/security-teams.md's walkthrough of adding a policy, followed step by step on a copy of the project:
the page's commands do what it says, and `make test`'s test commands still end green there.

`make test` is lint, pytest and `gatekeeper test`. Lint does not read the bundle. `gatekeeper test` as the
Makefile writes it is the page's step 4, which tests/test_docs.py runs after the same steps 1 to 3 on the same
bundle and fixtures, checking its exit, the new bundle's revision and full rule coverage, the new rule included
(one run of it: a second one here, on identical inputs, checked the same thing). Of the pytest suite this runs
the files that pin the bundle gatekeeper ships (the
ones `tests/shipped.py` guards) and the bundle-reading tests beside them: in a copy whose bundle has its own
name they must pass, with the shipped-bundle pins reported as skipped, never failed. (The whole suite on such
a copy was measured once by hand; see the commit message.)
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import REPO_ROOT
from gitrepo import GIT_ENV
from test_docs import BIN, blocks_of, console_commands, normalised, output_pattern, page_env, run_script

from gatekeeper.policy.bundle import load_bundle

PAGE = REPO_ROOT / "docs" / "security-teams.md"
# The test files that read the shipped bundle's facts (tests/shipped.py guards their pins).
# (test_packaging.py's pin is guarded too; it is left out here because building its wheel takes a minute.)
BUNDLE_TESTS = ("tests/test_docs.py", "tests/test_fixtures.py", "tests/test_policy_bundle.py",
                "tests/test_config_source.py")


def project_copy(dest: Path) -> Path:
    """The project's files as git sees them (tracked and untracked, not ignored: no .venv), copied to `dest` and
    committed there: a fork's checkout, as the page assumes.

    Two things of the developer's checkout come along that change no file of the copy: its git object store, as
    `git clone --shared` borrows it (objects/info/alternates), so `git add` finds the blobs it already holds
    instead of compressing and writing all of them again (0.5 CPU-s); and the bytecode Python compiled beside
    the sources (ignored `__pycache__` folders; copy2 keeps the sources' mtimes that it is checked against), so
    the pytest run below and its commands do not compile every module again (~1.2 CPU-s); of the test files'
    bytecode, that of the files the run collects."""
    listed = [rel for rel in subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                                            cwd=REPO_ROOT, capture_output=True, check=True).stdout.decode().split("\0")
              if rel]
    for rel in listed:
        source = REPO_ROOT / rel
        if source.is_file() and not source.is_symlink():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / rel)
    for folder in sorted({Path(rel).parent for rel in listed if rel.endswith(".py")}):
        if (REPO_ROOT / folder / "__pycache__").is_dir():
            shutil.copytree(REPO_ROOT / folder / "__pycache__", dest / folder / "__pycache__", dirs_exist_ok=True,
                            ignore=_unused_test_bytecode)
    git = {**os.environ, **GIT_ENV}
    objects = subprocess.run(["git", "rev-parse", "--path-format=absolute", "--git-path", "objects"], cwd=REPO_ROOT,
                             env=git, capture_output=True, text=True, check=True).stdout.strip()
    # No sample hooks (nothing runs them) and no automatic maintenance check (a second process per commit).
    subprocess.run(["git", "init", "-q", "-b", "main", "--template="], cwd=dest, env=git, capture_output=True,
                   check=True)
    (dest / ".git" / "objects" / "info" / "alternates").write_text(objects + "\n", encoding="utf-8")
    for args in (["add", "-A"], ["-c", "maintenance.auto=false", "commit", "-q", "-m", "the project"]):
        subprocess.run(["git", *args], cwd=dest, env=git, capture_output=True, check=True)
    return dest


def _unused_test_bytecode(folder: str, names: list[str]) -> list[str]:
    """Of tests/__pycache__, the bytecode of the test files the run below does not collect (~230 of ~240 files,
    each a file creation on this project's VMs); the helpers and conftest it imports are copied."""
    if Path(folder).parent != REPO_ROOT / "tests":
        return []
    collected = {Path(test).stem for test in BUNDLE_TESTS}
    return [name for name in names if name.startswith("test_") and name.split(".", 1)[0] not in collected]


def walkthrough_blocks() -> list:
    """Steps 1 to 3 of the page (the policy, its unit tests, its fixture case): every shell block before step 4."""
    text = PAGE.read_text(encoding="utf-8")
    step4 = text[: text.index("### 4. `gatekeeper test`")].count("\n") + 1
    return [b for b in blocks_of(PAGE) if b.line < step4 and b.lang in ("sh", "console") and b.skip is None]


def makefile_recipe(target: str) -> str:
    """The one command line of a Makefile target, with the Makefile's variables for this virtualenv."""
    makefile = (REPO_ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = re.search(rf"^{re.escape(target)}:.*\n\t(.+)\n", makefile, flags=re.M)
    assert recipe, target
    return recipe.group(1).replace("$(GK)", str(BIN / "gatekeeper")).replace("$(PY)", sys.executable)


def test_adding_a_policy_as_documented_keeps_make_test_green(tmp_path: Path) -> None:
    project = project_copy(tmp_path / "project")
    home = tmp_path / "home"
    home.mkdir()
    env = page_env(home)
    blocks = walkthrough_blocks()
    assert [b.lang for b in blocks] == ["sh", "sh", "console", "sh", "sh"], "the walkthrough changed: update this test"
    for block in blocks:
        if block.lang == "sh":
            done = run_script(block.text, project, env)
            assert done.returncode == 0, f"{PAGE.name}:{block.line}\n{done.stdout}"
            continue
        for command in console_commands(block):
            done = run_script(command.script, project, env)
            assert done.returncode == 0, done.stdout
            pattern = output_pattern(tuple(line for line in command.expected if line.strip()))
            assert pattern.match(normalised(done.stdout)), f"{PAGE.name}:{command.line}: output differs\n{done.stdout}"
    assert (project / "policies" / "migrations" / "policy.rego").is_file()
    assert (project / "fixtures" / "migration-added" / "expect.yaml").is_file()

    # make policy-test, as the Makefile writes it, is the page's step 4 (run and checked by tests/test_docs.py
    # on its own copy of this checkout's bundle and fixtures, changed by the same steps 1 to 3 as this one).
    [step4] = [c for b in blocks_of(PAGE) if b.lang == "console" for c in console_commands(b)
               if c.script.startswith("gatekeeper test ")]
    assert makefile_recipe("policy-test") == f"{BIN / 'gatekeeper'} {step4.script.strip().removeprefix('gatekeeper ')}"
    assert step4.expected[0].startswith("bundle acme-security revision 2026.12.07-9")
    assert "rule coverage … (100.0%, floor 100%)" in step4.expected[-1]
    declared = sum(len(p.rules) for p in load_bundle(project / "policies").policies)
    assert declared == sum(len(p.rules) for p in load_bundle(REPO_ROOT / "policies").policies) + 1

    # make pytest's command, on the files that pin the bundle; -rs lists what was skipped and why.
    pytest_cmd = makefile_recipe("pytest")
    assert re.fullmatch(r".* -m pytest -n 2( --dist \w+)?", pytest_cmd), pytest_cmd
    clean = {k: v for k, v in env.items() if not k.startswith(("PYTEST_", "COV_"))}
    done = subprocess.run([sys.executable, "-m", "pytest", "-n", "0", "-rs", "-p", "no:cacheprovider",
                           *BUNDLE_TESTS], cwd=project, env={**clean, "PATH": os.environ["PATH"]},
                          capture_output=True, text=True, timeout=1800)
    summary = done.stdout[-4000:]
    assert done.returncode == 0, summary
    assert " failed" not in summary and " error" not in summary, summary
    skipped = [line for line in done.stdout.splitlines() if line.startswith("SKIPPED")]
    assert skipped and all("site bundle 'acme-security'" in line for line in skipped), skipped
    assert re.search(r"\d+ passed", summary), summary
