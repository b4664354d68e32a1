"""Red team: file modes and symlinks in every form a patch can carry them.

git reads any 12xxxx mode as a symlink, 16xxxx (and any type it does not know) as a gitlink and
the user-exec bit as executable, but writes only 100644, 100755, 120000 and 160000; everything
else is refused. A symlink is classified by its target whatever form carries it (text hunk,
`GIT binary patch` literal); where the patch cannot show the target (a delta, a mode change, a
partial hunk), it is classified `ci` (builtin.symlink-unknown-target) so the default policy
sends it to a human. Every case is checked against what real `git apply` does with it.
"""

from __future__ import annotations

import hashlib
import io
import itertools
import subprocess
from pathlib import Path

import pytest
from gitrepo import GitRepo
from tables import each_case

from gatekeeper.classify import RuleSet, classify_change, load_rules
from gatekeeper.cli import main
from gatekeeper.diff import parse_patch_stream
from gatekeeper.errors import PatchError
from gatekeeper.model import ClassifiedFile, FileChange

REAL = {"100644", "100755", "120000", "160000"}
# Type digits git knows or not, with permission bits git keeps, drops or never writes.
MODES = sorted(
    {
        f"{kind}{perm}"
        for kind, perm in itertools.product(
            ["00", "04", "10", "12", "14", "16", "17"], ["0644", "0755", "0711", "0664", "0000", "0777", "4755"]
        )
    }
    | REAL
)


def parse(patch: bytes) -> list[FileChange]:
    return list(parse_patch_stream(io.BytesIO(patch), "p.diff"))


@pytest.fixture(scope="module")
def rules() -> RuleSet:
    return load_rules(Path(__file__).resolve().parents[1] / "policies")


def classified(patch: bytes, rules: RuleSet) -> dict[str, ClassifiedFile]:
    return {c.path: classify_change(c, rules) for c in parse(patch)}


def _sections(mode: str) -> list[bytes]:
    m = mode.encode()
    return [
        b"diff --git a/f b/f\nnew file mode " + m + b"\nindex 0000000..e69de29\n",
        b"diff --git a/f b/f\ndeleted file mode " + m + b"\nindex e69de29..0000000\n",
        b"diff --git a/f b/f\nold mode 100644\nnew mode " + m + b"\n",
        b"diff --git a/f b/f\nold mode " + m + b"\nnew mode 100644\n",
        b"diff --git a/f b/f\nindex 1111111..2222222 " + m + b"\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n",
    ]


@each_case("mode", MODES)
def test_only_the_modes_git_writes_are_accepted(mode: str) -> None:
    for patch in _sections(mode):
        if patch.count(b"100644") == 2 and mode == "100644":
            continue  # old mode == new mode: a section that changes nothing
        if mode in REAL and b"old mode" in patch and mode[:2] != "10":
            with pytest.raises(PatchError, match="type change inside one section"):
                parse(patch)
        elif mode in REAL:
            parse(patch)
        else:
            with pytest.raises(PatchError, match=f"file mode {mode} is not one git writes"):
                parse(patch)


@each_case(("mode", "git_writes"), [("120644", "120000"), ("100711", "100755"), ("100664", "100644"),
                                    ("160644", "160000"), ("000644", "100644")])
def test_git_normalises_the_modes_we_refuse(git_repo: GitRepo, mode: str, git_writes: str) -> None:
    # Why they are refused: git makes a link, an executable or a gitlink of them.
    git_repo.write("README.md", "x\n")
    git_repo.commit()
    line = b"Subproject commit " + b"1" * 40 if git_writes == "160000" else b"content"
    patch = (
        b"diff --git a/f b/f\nnew file mode " + mode.encode() + b"\nindex 0000000..1111111\n--- /dev/null\n+++ b/f\n"
        b"@@ -0,0 +1 @@\n+" + line + b"\n\\ No newline at end of file\n"
    )
    git_repo.git("apply", "--cached", input=patch)
    assert git_repo.git("ls-files", "-s", "f").decode().startswith(git_writes + " ")
    with pytest.raises(PatchError, match=mode):
        parse(patch)


def test_symlink_into_workflows_with_a_disguised_mode_is_refused(git_repo: GitRepo) -> None:
    git_repo.write("README.md", "x\n")
    git_repo.commit()
    body = b"@@ -0,0 +1 @@\n+.github/workflows/ci.yml\n\\ No newline at end of file\n"
    patch = b"diff --git a/ci b/ci\nnew file mode 120644\nindex 0000000..1111111\n--- /dev/null\n+++ b/ci\n" + body
    git_repo.git("apply", "--cached", input=patch)
    assert git_repo.git("ls-files", "-s", "ci").startswith(b"120000 ")  # git made a symlink of it
    with pytest.raises(PatchError, match="120644"):
        parse(patch)


def _binary_patch_for(git_repo: GitRepo, path: str, content: bytes, *, modify_from: bytes | None) -> bytes:
    """A `GIT binary patch` git wrote for a regular file holding `content` (a delta when git finds one smaller)."""
    (git_repo.root / ".git/info").mkdir(exist_ok=True)
    (git_repo.root / ".git/info/attributes").write_text("* binary\n")
    if modify_from is not None:
        git_repo.write(path, modify_from)
        git_repo.commit("old content")
    git_repo.write(path, content)
    patch = git_repo.staged_patch("--full-index", "--", path)
    git_repo.git("reset", "-q")
    if modify_from is not None:
        git_repo.git("checkout", "--", path)
    else:
        (git_repo.root / path).unlink()
    return patch


def test_symlink_as_a_binary_literal_is_classified_by_its_target(git_repo: GitRepo, rules: RuleSet) -> None:
    git_repo.write("README.md", "x\n")
    git_repo.commit()
    target = b"../.github/workflows/ci.yml"
    patch = _binary_patch_for(git_repo, "docs/ci", target, modify_from=None).replace(
        b"new file mode 100644", b"new file mode 120000"
    )
    assert b"GIT binary patch\nliteral" in patch
    git_repo.git("apply", "--cached", input=patch)
    staged = git_repo.git("ls-files", "-s", "docs/ci").split()
    assert staged[0] == b"120000" and git_repo.git("cat-file", "blob", staged[1].decode()) == target
    (change,) = parse(patch)
    assert (change.symlink_target, change.symlink_unknown) == ("../.github/workflows/ci.yml", False)
    entry = classified(patch, rules)["docs/ci"]
    assert entry.bucket == "ci" and "symlink" in entry.tags and "binary" in entry.tags


def _symlink_delta(git_repo: GitRepo) -> bytes:
    """A real symlink in the base and a patch retargeting it by a binary delta, which git applies."""
    noise = hashlib.sha256(b"seed").hexdigest().encode() * 20  # incompressible enough for git to pick a delta
    old, new = b"../harmless/" + noise, b"../.github/" + noise
    patch = _binary_patch_for(git_repo, "link", new, modify_from=old)
    assert b"\ndelta " in patch  # the new target is not in the patch
    patch = patch.replace(b" 100644\n", b" 120000\n")
    git_repo.git("rm", "-q", "--cached", "link")
    (git_repo.root / "link").unlink()
    git_repo.symlink("link", old.decode())
    git_repo.commit("a link")
    git_repo.git("apply", "--cached", "--check", input=patch)
    return patch


def test_symlink_retargeted_by_a_binary_delta_is_reviewed(git_repo: GitRepo, rules: RuleSet) -> None:
    patch = _symlink_delta(git_repo)
    git_repo.git("apply", "--cached", input=patch)
    staged = git_repo.git("ls-files", "-s", "link").split()
    assert staged[0] == b"120000" and git_repo.git("cat-file", "blob", staged[1].decode()).startswith(b"../.github/")
    (change,) = parse(patch)
    assert change.symlink_target is None and change.symlink_unknown
    entry = classified(patch, rules)["link"]
    assert (entry.bucket, entry.rule) == ("ci", "builtin.symlink-unknown-target") and "symlink" in entry.tags


def test_gate_reviews_a_symlink_whose_target_is_unknown(git_repo: GitRepo, tmp_path: Path) -> None:
    patch = tmp_path / "p.diff"
    patch.write_bytes(_symlink_delta(git_repo))
    packet = tmp_path / "packet.json"
    assert main(["packet", str(patch), "--out", str(packet)]) == 0
    assert main(["gate", str(packet), "--patch", str(patch)]) == 3


@each_case(("old", "new"), [(b"100644", b"120000"), (b"120000", b"100644"), (b"100755", b"160000")])
def test_a_type_change_inside_one_section_is_refused_as_git_does(git_repo: GitRepo, old: bytes, new: bytes) -> None:
    # git writes a type change as a deletion and an addition; one section that changes the type
    # (a file whose content would become a link target) is refused by git apply, and by us.
    git_repo.write("notes.txt", ".github/workflows/ci.yml")
    git_repo.commit()
    patch = b"diff --git a/notes.txt b/notes.txt\nold mode " + old + b"\nnew mode " + new + b"\n"
    done = subprocess.run(["git", "apply", "--cached", "-"], input=patch, cwd=git_repo.root, capture_output=True)
    assert done.returncode != 0 and (b"does not match old mode" in done.stderr or b"wrong type" in done.stderr)
    with pytest.raises(PatchError, match="type change inside one section"):
        parse(patch)


def _link_repo(git_repo: GitRepo) -> bytes:
    git_repo.symlink("docs/link", "../README.md")
    git_repo.write("README.md", "x\n")
    git_repo.commit()
    git_repo.symlink("docs/link", "../.github/workflows")
    patch = git_repo.staged_patch()
    git_repo.git("reset", "-q", "--hard")
    return patch


def test_symlink_retarget_without_an_index_line_is_refused(git_repo: GitRepo) -> None:
    patch = _link_repo(git_repo)
    assert b" 120000\n" in patch
    bare = b"".join(line for line in patch.splitlines(keepends=True) if not line.startswith(b"index "))
    git_repo.git("apply", "--cached", "--check", input=bare)  # git applies it: the tree says it is a link
    with pytest.raises(PatchError, match="without an 'index' line"):
        parse(bare)
    # An index line that calls the link a regular file: git refuses to apply it, we refuse to read it
    # as a plain file only through git's check, so the mode is what we report.
    lying = patch.replace(b" 120000\n", b" 100644\n")
    done = subprocess.run(
        ["git", "apply", "--cached", "--check", "-"], input=lying, cwd=git_repo.root, capture_output=True
    )
    assert done.returncode != 0 and b"wrong type" in done.stderr


@each_case(
    ("hunk", "target"),
    [
        (
            b"@@ -1 +1 @@\n-../README.md\n\\ No newline at end of file\n+../.github/workflows\n"
            b"\\ No newline at end of file\n",
            "../.github/workflows",
        ),
        # no marker: the new content ends with a newline, a target git would not read as shown
        (b"@@ -1 +1 @@\n-../README.md\n\\ No newline at end of file\n+../.github/workflows\n", None),
        # more than one line of content: the hunk does not show the whole link
        (
            b"@@ -1 +1,2 @@\n-../README.md\n\\ No newline at end of file\n+../.github\n+workflows\n"
            b"\\ No newline at end of file\n",
            None,
        ),
        (
            b"@@ -1,2 +1,2 @@\n ../\n-README.md\n\\ No newline at end of file\n+.github\n"
            b"\\ No newline at end of file\n",
            None,
        ),
    ],
)
def test_symlink_hunks_show_a_target_only_when_whole(hunk: bytes, target: str | None, rules: RuleSet) -> None:
    patch = b"diff --git a/docs/link b/docs/link\nindex 1111111..2222222 120000\n--- a/docs/link\n+++ b/docs/link\n"
    (change,) = parse(patch + hunk)
    assert (change.symlink_target, change.symlink_unknown) == (target, target is None)
    entry = classify_change(change, rules)
    assert entry.bucket == "ci" and "symlink" in entry.tags


def test_tags_survive_every_real_form(git_repo: GitRepo, rules: RuleSet) -> None:
    git_repo.write("tool.sh", "echo\n")
    git_repo.write("file", "x\n")
    git_repo.commit()
    (git_repo.root / "tool.sh").chmod(0o755)
    git_repo.write("new.sh", "echo\n", mode=0o755)
    (git_repo.root / "file").unlink()
    git_repo.symlink("file", ".github")
    sub = GitRepo(git_repo.root / "vendor/lib")
    sub.write("a", "a\n")
    sub.commit()
    tags = {path: entry.tags for path, entry in classified(git_repo.staged_patch(), rules).items()}
    assert "executable" in tags["tool.sh"] and "executable" in tags["new.sh"]
    assert "symlink" in tags["file"] and "submodule" in tags["vendor/lib"]


@each_case("lines", [
        b"old mode 100755\nnew mode 100644\nindex 1111111..2222222 100644\n",  # git takes 100644 as the old mode
        b"new file mode 100644\nindex 0000000..2222222 120000\n",
        b"deleted file mode 100644\nindex 1111111..0000000 100644\n",
    ])
def test_index_mode_beside_mode_lines_is_refused(lines: bytes) -> None:
    hunk = b"--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n" if lines.startswith(b"old") else b""
    with pytest.raises(PatchError, match="index' line with a mode beside mode lines"):
        parse(b"diff --git a/f b/f\n" + lines + hunk)


@pytest.mark.parametrize("form", ["hunk", "literal"])
def test_a_link_target_too_long_for_any_system_is_unknown(git_repo: GitRepo, rules: RuleSet, form: str) -> None:
    # A reader that keeps only a long line's head must not classify a link by it: the rest of
    # `src/aaa…/../../.github/workflows` is where it points.
    target = b"src/" + b"a" * 70_000 + b"/../../.github/workflows"
    if form == "hunk":
        patch = (
            b"diff --git a/docs/x b/docs/x\nnew file mode 120000\nindex 0000000..1111111\n--- /dev/null\n"
            b"+++ b/docs/x\n@@ -0,0 +1 @@\n+" + target + b"\n\\ No newline at end of file\n"
        )
    else:
        git_repo.write("README.md", "x\n")
        git_repo.commit()
        patch = _binary_patch_for(git_repo, "docs/x", target, modify_from=None).replace(
            b"new file mode 100644", b"new file mode 120000"
        )
    (change,) = parse(patch)
    assert change.symlink_target is None and change.symlink_unknown
    assert classify_change(change, rules).rule == "builtin.symlink-unknown-target"
