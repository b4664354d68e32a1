"""Red team: `.gitattributes` in the change under review decides what git calls binary.

git reads `.gitattributes` from the checkout's work tree when it diffs two commits. A pull request that adds
`*.yaml -diff` (or `binary`, or a macro that unsets `diff`) made git write its Deployment as a `GIT binary
patch` and count it +0 -0: the content tier skipped "binary" files, so `gate --tree` said allow, and the `size`
policy saw no changed lines at all. The gate's own git commands now diff without the checkout's attributes
(a private empty work tree and index); from a patch alone, a binary section of a configuration type is content
the patch does not show (needs-context); with the commits, the blobs are read whatever the patch calls them.
"""

from __future__ import annotations

import pytest
from gitrepo import GitRepo

from gatekeeper.cli import main

DEPLOYMENT = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n"
ATTRIBUTES = ["*.yaml -diff\n", "* binary\n", "app/** -text -diff\n", "[attr]opaque -diff\n*.yaml opaque\n",
              "*.yaml diff=nothing\n*.yaml -diff\n"]


def _pr(repo: GitRepo, files: dict[str, str], attributes: str) -> None:
    repo.write("app/README.md", "x\n")
    repo.commit("base")
    repo.git("checkout", "-q", "-b", "pr")
    repo.write(".gitattributes", attributes)
    for path, text in files.items():
        repo.write(path, text)
    repo.commit("pr")


@pytest.mark.parametrize("attributes", ATTRIBUTES)
def test_the_commits_are_judged_as_git_stores_them(git_repo: GitRepo, capsys: pytest.CaptureFixture[str],
                                                   attributes: str) -> None:
    _pr(git_repo, {"app/web.yaml": DEPLOYMENT}, attributes)
    assert main(["gate", "--tree", "main..pr", "--repo", str(git_repo.root)]) == 3
    out = capsys.readouterr().out
    assert "core.iac" in out and "app/web.yaml" in out


def test_real_binaries_stay_what_their_path_says(git_repo: GitRepo) -> None:
    """Read whatever the patch calls them, a compiled program without an extension and a large binary file
    (NUL bytes, as git decides without attributes) are not content to judge: no unread review, no signal."""
    from test_classify_context import tree_files

    from gatekeeper.classify.sniff import FULL_READ

    git_repo.write("app/README.md", "x\n")
    git_repo.commit("base")
    git_repo.write("bin/tool", b"\x7fELF\0\0" + b"FROM x\n" * (FULL_READ // 6))
    git_repo.write("app/data.json", b"\0" * 10 + b"{}" * FULL_READ)
    git_repo.commit("head")
    found = tree_files(git_repo)
    assert (found["bin/tool"].bucket, found["app/data.json"].bucket) == ("src", "src")


def test_the_size_policy_counts_the_lines(git_repo: GitRepo, capsys: pytest.CaptureFixture[str]) -> None:
    _pr(git_repo, {"app/big.py": "".join(f"x{i} = {i}\n" for i in range(3000))}, "* -diff\n")
    assert main(["gate", "--tree", "main..pr", "--repo", str(git_repo.root), "--enable", "size"]) == 3
    assert "size.lines" in capsys.readouterr().out


@pytest.mark.parametrize("tree", [True, False], ids=["tree", "patch-only"])
def test_a_patch_made_with_the_attributes_is_reviewed(git_repo: GitRepo, tmp_path: object,
                                                      capsys: pytest.CaptureFixture[str], tree: bool) -> None:
    """The runner's `git diff --cached --binary` runs in the agent's workspace, which holds the attributes too."""
    from pathlib import Path

    out_dir = Path(str(tmp_path))
    _pr(git_repo, {"app/web.yaml": DEPLOYMENT}, "*.yaml -diff\n")
    patch = out_dir / "change.diff"
    patch.write_bytes(git_repo.git("diff", "--binary", "main", "pr"))
    assert b"GIT binary patch" in patch.read_bytes()  # the attack is real: git wrote the YAML as binary
    packet = out_dir / "packet.json"
    tree_args = ["--tree", "main..pr", "--repo", str(git_repo.root)] if tree else []
    assert main(["packet", str(patch), "--out", str(packet), *tree_args]) == 0
    capsys.readouterr()
    assert main(["gate", str(packet), "--patch", str(patch), *tree_args]) == 3
    out = capsys.readouterr().out
    assert ("core.iac" if tree else "core.needs_context") in out and "app/web.yaml" in out
