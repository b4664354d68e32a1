"""The globs attack 48's readers name are counted against the walk's variable-pattern bound only when they may name a
file (treeglobs.py): a monorepo whose CI runs its workspace packages' bins and builds its Go commands crossed
`ciruns.MAX_WILD` with `*.js`/`*.ts`/`*.go` globs of folders and extensions it does not have, and the walk then read
every script of the repository as CI's (apache/arrow-adbc, jahands/workers-packages on the merge of this stop)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from incli import classify_and_gate

from gatekeeper.classify import ciruns
from gatekeeper.classify.treeglobs import Present

ANY = ciruns.ANY


def _tree(*paths: str) -> dict[str, object]:
    return dict.fromkeys(paths, object())


def test_a_glob_naming_no_path_is_dropped_and_the_others_kept() -> None:
    present = Present(_tree("cmd/t/main.go", "pkgs/a/bin/a.js", "pkgs/a/lib/x.ts", "README.md"))  # type: ignore[arg-type]
    globs = [f"cmd/t/{ANY}.go", f"ci/cmd/t/{ANY}.go", f"pkgs/a/{ANY}.js", f"pkgs/a/{ANY}.mjs", f"pkgs/a/{ANY}.ts",
             "pkgs/a/bin/a.js", "gone/literal.sh", f"{ANY}.md", f"pkgs/{ANY}/lib/{ANY}.ts", f"pkgs/{ANY}/lib/{ANY}.rs"]
    assert present.kept(globs) == [f"cmd/t/{ANY}.go", f"pkgs/a/{ANY}.js", f"pkgs/a/{ANY}.ts", "pkgs/a/bin/a.js",
                                   "gone/literal.sh", f"{ANY}.md", f"pkgs/{ANY}/lib/{ANY}.ts"]


def test_a_head_and_tail_that_overlap_in_one_short_path_name_nothing() -> None:
    assert Present(_tree("ab")).kept([f"ab{ANY}b"]) == []  # type: ignore[arg-type]


def test_past_the_checked_count_every_glob_is_kept() -> None:
    globs = [f"none{n}/{ANY}.js" for n in range(300)]
    assert Present(_tree("a.js")).kept(globs) == globs  # type: ignore[arg-type]


def _monorepo(packages: int) -> dict[str, str]:
    check = " && ".join(f"tool{n} --check" for n in range(packages))
    files = {"package.json": json.dumps({"name": "root", "private": True, "workspaces": ["pkgs/*"],
                                         "scripts": {"check": check}}),
             ".github/workflows/ci.yml": "on: push\njobs:\n  ci:\n    runs-on: ubuntu-latest\n    steps:\n"
                                         "      - uses: actions/checkout@v4\n      - run: npm ci && npm run check\n"
                                         "      - run: go build -o bin/srv ./cmd/srv && ./bin/srv --selftest\n",
             "go.mod": "module example.com/mono\n\ngo 1.22\n", "cmd/srv/main.go": "package main\n\nfunc main() {}\n",
             "scripts/release.sh": "#!/bin/sh\necho release\n", "docs/notes.md": "notes\n"}
    for n in range(packages):
        files[f"pkgs/tool{n}/package.json"] = json.dumps({"name": f"tool{n}", "bin": {f"tool{n}": "bin/cli.js"}})
        files[f"pkgs/tool{n}/bin/cli.js"] = "#!/usr/bin/env node\nconsole.log(1)\n"
    return files


@pytest.mark.parametrize("packages", [3, 12])
def test_a_monorepo_running_its_bins_keeps_a_script_no_ci_runs_src(tmp_path: Path, packages: int) -> None:
    """12 packages named 8 globs each (96 > MAX_WILD) on the stop's merge: `scripts/release.sh`, which no CI runs,
    was `ci` as past the walk's bounds; the bins CI runs stay `ci` and the Go command CI builds and runs too."""
    base = _monorepo(packages)
    head = {"scripts/release.sh": "#!/bin/sh\necho release 2\n", "pkgs/tool1/bin/cli.js": "console.log(2)\n",
            "cmd/srv/main.go": "package main\n\nfunc main() { println(1) }\n"}
    buckets, decision = classify_and_gate(tmp_path / "repo", base, head)
    assert buckets == {"scripts/release.sh": "src", "pkgs/tool1/bin/cli.js": "ci", "cmd/srv/main.go": "ci"}
    assert decision["outcome"] == "review"
