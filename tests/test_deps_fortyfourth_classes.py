"""Classes of misses the forty-fourth blind set of update commits found (bench/deps_bumps_fortyfourth.tsv).

- pip's git URL at a tag in a CI run line, `pip3 install "git+https://github.com/linux-system-roles/tox-lsr@3.12.0"`
  (linux-system-roles/firewall's workflows, "ci: bump tox-lsr to 3.13.0", 1), was read by nothing: a run line's pip
  operand counted only as `NAME==VERSION` (or a runner's `NAME@VERSION`). A git URL at a tag or a commit is named now
  by the repository's last part, its version the ref with its source (`3.13.0 from git+https://github.com/…`, as a
  git-sourced Cargo entry's), in a workflow's, CircleCI's or GitLab's lines, a Dockerfile's RUN lines and a Makefile's
  recipes (they share runlines.installs), both modes. A branch, a variable or no ref names nothing, as `@latest`.

Real-shaped files written for these tests (the layouts of those repositories), look-alikes and hostile input first.
"""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from gatekeeper.deps import actions, dockerruns, runlines
from tests.deltas import accuracy_bench, both_edited, each_fast, moves, partial

TOX_LSR = "git+https://github.com/linux-system-roles/tox-lsr"

# linux-system-roles/firewall's .github/workflows/ansible-lint.yml (its shape: tox-lsr installed from its repository)
FIREWALL_LINT = """\
name: Ansible Lint
on:
  pull_request:
  push:
    branches:
      - main
jobs:
  ansible_lint:
    runs-on: ubuntu-latest
    steps:
      - name: Check out code
        uses: actions/checkout@v4

      - name: Install tox, tox-lsr
        run: |
          set -euxo pipefail
          pip3 install "git+https://github.com/linux-system-roles/tox-lsr@3.12.0"

      - name: Run ansible-lint
        run: tox -e collection,ansible-lint
"""

# the same repository's python-unit-test.yml (its shape: tox and virtualenv chosen by variables on the same line)
FIREWALL_UNIT = """\
name: Python Unit Tests
on: [pull_request]
jobs:
  python:
    runs-on: ubuntu-22.04
    steps:
      - uses: actions/checkout@v4
      - name: Install tox, tox-lsr
        run: |
          set -euxo pipefail
          tox=tox
          virtualenv=virtualenv
          pip install "$tox" "$virtualenv" "git+https://github.com/linux-system-roles/tox-lsr@3.12.0"
"""


# --- hostile input first: bounded, no traceback, nothing named from a broken operand -------------------------------

@each_case("line", [
    "pip install git+https://" + "a" * 200_000 + "@v1.2.3",  # a path past the bound: not read
    "pip install git+https://github.com/o/r@" + "1" * 200_000,  # a ref past the bound
    "pip install git+https://" + "@" * 100_000,  # nothing but separators
    "pip install git+https://" + "x@" * 50_000 + "/o/r@v1",  # user parts one after another
    "pip install " + "git+https://github.com/o/r@v1 " * 20_000,  # many operands: each read, linearly
    "pip install git+https://github.com/o/r@v1.2.3" + "#" * 100_000,
])
def test_hostile_vcs_operands_are_fast_and_raise_nothing(line: str) -> None:
    each_fast([(lambda: runlines.installs("w.yml", line), line[:40])], 1.0)


def test_an_oversized_path_or_ref_names_nothing() -> None:
    assert runlines.installs("w.yml", "pip install git+https://" + "a" * 400 + "/r@v1.2.3") == []
    assert runlines.installs("w.yml", "pip install git+https://github.com/o/r@" + "1" * 200) == []


def test_a_hostile_workflow_with_vcs_lines_parses_without_traceback() -> None:
    body = "on: push\njobs:\n  a:\n    steps:\n      - run: |\n" + "".join(
        f"          pip install git+https://github.com/o/r{i}@{'v' * (i % 3)}{i}.0\0\n" for i in range(2000))
    each_fast([(lambda: actions.parse_workflow("w.yml", body.encode()), "2000 vcs lines")], 5.0)


# --- the commit's shape, both modes ---------------------------------------------------------------------------------

def test_firewall_tox_lsr_bump_is_read_with_tree_and_from_the_patch(tmp_path: Path) -> None:
    lint, unit = ".github/workflows/ansible-lint.yml", ".github/workflows/python-unit-test.yml"
    tree, patch = both_edited(tmp_path, {lint: FIREWALL_LINT, unit: FIREWALL_UNIT},
                              {lint: {"tox-lsr@3.12.0": "tox-lsr@3.13.0"}, unit: {"tox-lsr@3.12.0": "tox-lsr@3.13.0"}})
    want = {("pip", "tox-lsr", f"3.12.0 from {TOX_LSR}", f"3.13.0 from {TOX_LSR}")}
    assert moves(tree) == moves(patch) == want, (tree, patch)
    assert not partial(patch, lint) and not partial(patch, unit)
    bench = accuracy_bench()
    change = tree.changes[0]
    assert bench._same_name("tox-lsr", change) and bench._same_version("3.13.0", change.to_version)
    assert not bench._same_version("3.12.0", change.to_version)


def test_the_source_is_part_of_the_version() -> None:
    # the same name from PyPI and from a repository are two sources: the version carries which
    [(_, registry)] = [(d.name, d.version) for d in runlines.installs("w.yml", "pip install tox-lsr==3.13.0")]
    [(_, git)] = [(d.name, d.version) for d in runlines.installs("w.yml", f'pip install "{TOX_LSR}@3.13.0"')]
    assert registry == "3.13.0" and git == f"3.13.0 from {TOX_LSR}"


@each_case("line, named", [
    ('pip3 install "git+https://github.com/linux-system-roles/tox-lsr@3.12.0"', ("tox-lsr", f"3.12.0 from {TOX_LSR}")),
    ("pip install git+https://github.com/o/tool.git@v1.2.3", ("tool", "v1.2.3 from git+https://github.com/o/tool.git")),
    # a fragment (`#egg=`) is cut with the line's comment: the repository names it
    ("pip install 'git+https://gitlab.com/g/sub/tool.git@v1.2.3#egg=other'",
     ("tool", "v1.2.3 from git+https://gitlab.com/g/sub/tool.git")),
    ("python3 -m pip install -e git+https://github.com/o/r.git@0a1b2c3d4e5f#egg=r",
     ("r", "0a1b2c3d4e5f from git+https://github.com/o/r.git")),
    # the user part (a token as often as `git@`) is left out of what the delta prints
    ("pip install git+ssh://git@github.com/o/r.git@v2.0.0", ("r", "v2.0.0 from git+ssh://github.com/o/r.git")),
    ("pip install git+https://${{ secrets.TOKEN }}@github.com/o/r@1.0", None),  # the token's blanks split the word
    ("pip install git+https://x-token:abc123@github.com/o/r@1.0", ("r", "1.0 from git+https://github.com/o/r")),
    ("uv pip install --system git+https://github.com/o/r@v0.4.0", ("r", "v0.4.0 from git+https://github.com/o/r")),
    ("pipx install git+https://github.com/o/r@v0.4.0", ("r", "v0.4.0 from git+https://github.com/o/r")),
    ("sudo pip install -U pip && pip install git+https://github.com/o/r@v3", ("r", "v3 from git+https://github.com/o/r")),
])
def test_vcs_operand_shapes(line: str, named: tuple[str, str] | None) -> None:
    found = [(d.ecosystem, d.name, d.version) for d in runlines.installs("w.yml", line)]
    assert found == ([("pip", *named)] if named else []), found


@each_case("line", [
    "pip install git+https://github.com/o/r@main",  # a branch moves: no version
    "pip install git+https://github.com/o/r@master",
    "pip install git+https://github.com/o/r@${REF}",  # a variable
    "pip install git+https://github.com/o/r@$REF",
    "pip install git+https://github.com/o/r",  # no ref at all
    "pip install git+https://github.com/o/r@",
    "pip install git+https://github.com/@v1.2.3",  # no repository
    "pip install git+https://github.com@v1.2.3",
    "pip install hg+https://hg.example.org/r@1.2.3",  # another VCS: not read
    "pip install https://github.com/o/r/archive/v1.2.3.zip",  # an archive URL: not read here
    "echo git+https://github.com/o/r@v1.2.3",  # no install
    "pip download git+https://github.com/o/r@v1.2.3",  # downloads, installs nothing
    "npm install git+https://github.com/o/r@v1.2.3",  # npm's operand is npm's
    "pip install mygit+https://github.com/o/r@v1.2.3",  # not the git+ prefix
    "pip install git+ftp://github.com/o/r@v1.2.3",  # a scheme pip's git does not take here
])
def test_vcs_look_alikes_name_nothing(line: str) -> None:
    assert [d for d in runlines.installs("w.yml", line) if d.ecosystem == "pip"] == []


def test_a_dockerfile_run_line_reads_the_vcs_install(tmp_path: Path) -> None:
    body = ("FROM python:3.12-slim\n"
            "RUN pip install --no-cache-dir git+https://github.com/o/tool@v1.4.0 && rm -rf /root/.cache\n")
    tree, patch = both_edited(tmp_path, {"Dockerfile": body}, {"Dockerfile": {"tool@v1.4.0": "tool@v1.5.0"}})
    want = {("pip", "tool", "v1.4.0 from git+https://github.com/o/tool", "v1.5.0 from git+https://github.com/o/tool")}
    assert moves(tree) == moves(patch) == want, (tree, patch)
    read = dockerruns.parse_dockerfile("Dockerfile", body.encode())
    assert [d.name for d in read if d.ecosystem == "pip"] == ["tool"]


def test_a_gitlab_script_reads_the_vcs_install(tmp_path: Path) -> None:
    path = ".gitlab-ci.yml"
    body = "lint:\n  image: python:3.12\n  script:\n    - pip install git+https://gitlab.com/g/linter.git@v0.9.1\n"
    tree, patch = both_edited(tmp_path, {path: body}, {path: {"@v0.9.1": "@v0.10.0"}})
    source = "from git+https://gitlab.com/g/linter.git"
    assert moves(tree) == moves(patch) == {("pip", "linter", f"v0.9.1 {source}", f"v0.10.0 {source}")}, (tree, patch)


def test_a_move_to_a_branch_is_the_pin_removed(tmp_path: Path) -> None:
    # a tag replaced by a branch: the pinned install is gone (what the line installs now moves)
    lint = ".github/workflows/ansible-lint.yml"
    tree, patch = both_edited(tmp_path, {lint: FIREWALL_LINT}, {lint: {"tox-lsr@3.12.0": "tox-lsr@main"}})
    assert moves(tree) == moves(patch) == {("pip", "tox-lsr", f"3.12.0 from {TOX_LSR}", None)}, (tree, patch)
