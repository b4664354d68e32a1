"""What tiers 2 and 3 ask of a change alone (unreadpaths.py): asked once per file of a patch that a gate derives with
two contexts (the gate's `--tree` derivation and a patch packet's claims re-derived from the patch), and the same
derivations as when each context asks it itself."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from gatekeeper.classify import load_rules, unreadpaths
from gatekeeper.classify.change import classify_changes
from gatekeeper.classify.context import refine
from gatekeeper.classify.patchcontext import PatchContext
from gatekeeper.classify.treecontext import TreeContext
from gatekeeper.model import FileChange
from gatekeeper.packet import derive_parsed, parse
from gatekeeper.revrange import resolve_range
from tests.gitrepo import GitRepo

RULES = load_rules(Path(__file__).resolve().parent.parent / "policies")

# Real-shaped: the kinds of file the fast path's tests tell apart (each seen in the label sets' repositories).
NAMES = ["src/app/main.go", "web/src/cart.ts", "lib/util.py", "tools/sync.pyw", "bin/sync.uv", "scripts/release.sh",
         "deploy/inventory/hosts", "inventory/prod.ini", "docs/arch.drawio", "docs/flow.mmd", "Dockerfile",
         "config/app.yaml", "settings.json", "setup.py", "requirements.txt", "go.mod", "package.json", "Makefile",
         ".env.production", "README.md", "LICENSE", "images/logo.png", "ops/site.yml", "Taskfile.yml", "run",
         "tests/__snapshot__/deploy.snap", "CMakeLists.txt", ".bazelrc", "requirements/dev.in", "hosts.example"]
MODES = [None, "100644", "100755"]


def _changes(count: int, seed: int) -> list[FileChange]:
    """Generated changes over NAMES: edits, additions, renames and mode changes, under folders of several depths."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        name = rng.choice(NAMES)
        path = "/".join([f"d{rng.randrange(5)}"] * rng.randrange(3) + [name])
        status = rng.choice(["modified", "added", "renamed", "deleted"])
        old = f"old/{path}" if status == "renamed" else None
        mode = rng.choice(MODES)
        out.append(FileChange(path=path, old_path=old, status=status, additions=i % 3, deletions=i % 2, binary=False,
                              old_mode=mode and "100644", new_mode=mode, line=4 * i + 1))
    return out


@pytest.mark.parametrize("seed", range(3))
def test_refine_given_the_flags_decides_as_asking_them_itself(seed: int) -> None:
    changes = _changes(400, seed)
    files = classify_changes(changes, RULES)
    context = PatchContext(None, changes, RULES.context)
    flags = unreadpaths.unread_by_path(files)
    assert True in flags and False in flags  # both sides of the fast path are tried
    assert refine(files, RULES, context, lambda: flags) == refine(files, RULES, context)


def test_a_patch_derived_with_two_contexts_asks_each_file_once(git_repo: GitRepo, tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    for i in range(30):
        git_repo.write(f"src/pkg{i % 3}/file{i}.go", f"package pkg{i % 3}\n")
    git_repo.write("tools/sync.pyw", "print('x')\n")
    git_repo.commit("base")
    for i in range(30):
        git_repo.write(f"src/pkg{i % 3}/file{i}.go", f"package pkg{i % 3}\n\n// {i}\n")
    git_repo.write("tools/sync.pyw", "print('y')\n")
    git_repo.commit("change")
    patch = tmp_path / "change.diff"
    patch.write_bytes(git_repo.git("diff", "--binary", "main~1", "main"))
    asked: list[str] = []
    real = unreadpaths.inline_executable
    monkeypatch.setattr(unreadpaths, "inline_executable", lambda change: asked.append(change.path) or real(change))
    parsed = parse(patch, RULES)
    with TreeContext(resolve_range("main~1..main", git_repo.root), RULES) as context:
        assert not context.markers
        tree = derive_parsed(parsed, RULES, context)
    claims = derive_parsed(parsed, RULES)
    go = sorted(c.path for c in parsed.changes if c.path.endswith(".go"))
    assert sorted(asked) == go and len(go) == 30  # once each, not once per context (the `.pyw` is told before)
    assert tree.context == "tree" and claims.context == "patch"
    paths = [c.path for c in parsed.changes]
    assert [f.change.path for f in tree.files] == [f.change.path for f in claims.files] == paths
