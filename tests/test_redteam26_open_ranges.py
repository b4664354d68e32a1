"""Red team 26, the deps policy: a pinned or bounded requirement opened to `>=` read as an in-level upgrade.

A single-bound constraint orders by its bound (`^1.2` < `^1.3`), and `>=` was one of them: `"lodash": "4.17.20"` →
`">=4.17.21"`, `requests==2.31.0` → `requests>=2.31.1`, Cargo's `"1.0.190"` → `">=1.0.191"`, a gem's `'7.0.1'` →
`'>= 7.0.2'` were patch upgrades and queued (`gate --enable deps`: allow, from the patch and with `--tree`). But a
lower bound alone has no upper one: the installer may now take any later release, the next major included, which
is an upgrade beyond every level. A move from a constraint with an upper bound (an exact pin, `^`, `~`, `~>`,
`~=`, `==`) to a bare `>=` is now `changed` (`deps.unordered`, reviewed); a bare `>=` moved to a higher `>=` (what
Dependabot writes for a floor) still orders, as does a move back to a bounded constraint.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_deps_gate import Case, Cases, gate, gate_together, together

# ecosystem: (file, its text with `{}` for the one entry's constraint, the constraints BASE may hold, the new bound)
FILES = {
    "npm": ("package.json", '{{\n  "name": "app",\n  "dependencies": {{\n    "lodash": "{}"\n  }}\n}}\n',
            ["4.17.20", "^4.17.20", "~4.17.20", "=4.17.20", "v4.17.20"], "4.17.21"),
    "composer": ("composer.json", '{{\n  "require": {{\n    "monolog/monolog": "{}"\n  }}\n}}\n',
                 ["3.5.0", "^3.5.0", "~3.5.0"], "3.5.1"),
    "pip": ("requirements.txt", "requests{}\n", ["==2.31.0", "~=2.31.0", "===2.31.0"], "2.31.1"),
    "pyproject": ("pyproject.toml", '[project]\nname = "a"\nversion = "1"\ndependencies = [\n  "requests{}",\n]\n',
                  ["==2.31.0", "~=2.31.0"], "2.31.1"),
    "cargo": ("Cargo.toml", '[package]\nname = "app"\nversion = "0.1.0"\n\n[dependencies]\nserde = "{}"\n',
              ["1.0.190", "^1.0.190", "~1.0.190", "=1.0.190"], "1.0.191"),
    "bundler": ("Gemfile", "source 'https://rubygems.org'\ngem 'rails', '{}'\n", ["7.0.1", "~> 7.0.1", "= 7.0.1"],
                "7.0.2"),
}
OPEN = [">={}", ">= {}", "  >=  {}"]


def attacks() -> Cases:
    cases: Cases = {}
    for ecosystem, (path, text, olds, bound) in FILES.items():
        for old in olds:
            for spelling in OPEN:
                new = spelling.format(bound)
                if ecosystem in ("pip", "pyproject"):
                    new = new.strip()  # pip's own spelling: `requests>=2.31.1`
                cases[f"{ecosystem} {old!r} -> {new!r}"] = ({path: text.format(old)}, {path: text.format(new)})
    return cases


def test_the_attacks_are_what_they_say() -> None:
    assert len(attacks()) == 60


@pytest.mark.parametrize("tree", [False, True], ids=["patch", "tree"])
def test_a_requirement_opened_to_any_later_release_needs_a_human(capsys: pytest.CaptureFixture[str],
                                                                  tmp_path: Path, tree: bool) -> None:
    gate_together(capsys, tmp_path, attacks(), tree)


# A floor raised (Dependabot's "Update requests requirement from >=2.31.0 to >=2.31.1") and a bounded bump still queue.
QUIET: Cases = {
    "pip floor raised": ({"requirements.txt": "requests>=2.31.0\n"}, {"requirements.txt": "requests>=2.31.1\n"}),
    "npm floor raised": (
        {"package.json": '{\n  "dependencies": {\n    "lodash": ">=4.17.20"\n  }\n}\n'},
        {"package.json": '{\n  "dependencies": {\n    "lodash": ">=4.17.21"\n  }\n}\n'}),
    "npm caret bump": (
        {"package.json": '{\n  "dependencies": {\n    "lodash": "^4.17.20"\n  }\n}\n'},
        {"package.json": '{\n  "dependencies": {\n    "lodash": "^4.17.21"\n  }\n}\n'}),
    "pip floor pinned": ({"requirements.txt": "flask>=3.0.0\n"}, {"requirements.txt": "flask==3.0.1\n"}),
}


@pytest.mark.parametrize("tree", [False, True], ids=["patch", "tree"])
def test_a_floor_raised_or_a_bounded_bump_queues(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                 tree: bool) -> None:
    base, head, _ = together(QUIET)
    decision = gate(capsys, Case(tmp_path, base, head), tree)
    assert decision["outcome"] == "allow", decision["reasons"]
