"""Attack 16: a hunk that "shows the file's end" when it does not (deps/hunkends.py, this stop).

A kustomize `images:` entry at the end of its hunk is closed there only if the hunk reaches the file's end: below it a
`newName:` would rename the image. hunkends took fewer trailing than leading context lines for the end, saying `git
apply` applies such a hunk only there; git holds a hunk to the file's end only when it has no trailing context
(apply.c `match_end = !trailing`). So a patch with three lines of context above the bump and one below it, which
`git apply` applies in the middle of a file whose entry goes on with `newName: evil.example/…`, was read as a bump
of `rancher/system-upgrade-controller`, no problem raised. Likewise a `\\ No newline at end of file` line inside a
hunk (after an added line, more lines following) marked the hunk as the file's end; git joins the two lines instead.
Now: no trailing context (with some leading) or the marker as the hunk's last line; else the entry is refused
(`partial`: reviewed). And from git's own patch (at the base commit too): a blank line or a comment at the left margin
inside the entry, the `newName:` after it shown in the hunk, closed the entry there (a YAML mapping goes on across
both), naming `rancher/suc` for `evil.example/suc`; now the reader looks past them. Variants: 2 forged (1 trailing
line under 3 leading; a marker inside the hunk, refused already: a guard), 2 from git (blank, comment); git's own
end-of-file hunks still read (tests/test_deps_dsweep_classes.py). A docker move is reviewed anyway
(deps.base_image): what was wrong is the name the reviewer is shown.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from gatekeeper.deps.sources import patch_delta

BASE = ("resources:\n  - plan.yaml\nimages:\n  - name: rancher/system-upgrade-controller\n    digest: sha256:"
        + "1" * 64 + "\n    newTag: v0.7.6\n    newName: evil.example/suc\n")
_HEADER = "diff --git a/k/kustomization.yaml b/k/kustomization.yaml\nindex {old}..{new} 100644\n" \
          "--- a/k/kustomization.yaml\n+++ b/k/kustomization.yaml\n"
_OLD_DIGEST = "-    digest: sha256:" + "1" * 64
_NEW_DIGEST = "+    digest: sha256:" + "2" * 64
FORGED = {
    "one-trailing-line": ["@@ -2,5 +2,5 @@", "   - plan.yaml", " images:",
                          "   - name: rancher/system-upgrade-controller", _OLD_DIGEST, _NEW_DIGEST,
                          "     newTag: v0.7.6"],
}


def _blob(text: str) -> str:
    return subprocess.run(["git", "hash-object", "--stdin"], input=text.encode(), capture_output=True,
                          check=True).stdout.decode().strip()


@pytest.mark.parametrize("case", sorted(FORGED))
def test_a_hunk_with_trailing_context_does_not_show_the_files_end(tmp_path: Path, case: str) -> None:
    head = BASE.replace("1" * 64, "2" * 64)
    text = _HEADER.format(old=_blob(BASE)[:7], new=_blob(head)[:7]) + "\n".join(FORGED[case]) + "\n"
    if case == "one-trailing-line":  # git applies it in the middle of the file: the entry goes on with newName
        repo = tmp_path / "repo"
        (repo / "k").mkdir(parents=True)
        (repo / "k" / "kustomization.yaml").write_text(BASE)
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
        subprocess.run(["git", "-C", str(repo), "apply", "-"], input=text.encode(), check=True)
        assert (repo / "k" / "kustomization.yaml").read_text() == head
    patch = tmp_path / "change.patch"
    patch.write_text(text)
    delta = patch_delta(patch)
    assert not [c for c in delta.changes if c.name == "rancher/system-upgrade-controller"], delta
    assert [p.kind for p in delta.problems] == ["partial"], delta


def test_a_marker_inside_a_hunk_does_not_show_the_files_end(tmp_path: Path) -> None:
    base = BASE.replace("    newName: evil.example/suc\n", "    newName: evil.example/suc\n# end\n")
    lines = ["@@ -4,5 +4,6 @@", "   - name: rancher/system-upgrade-controller", _OLD_DIGEST, _NEW_DIGEST,
             "\\ No newline at end of file", "+", "     newTag: v0.7.6", "     newName: evil.example/suc", " # end"]
    patch = tmp_path / "change.patch"
    patch.write_text(_HEADER.format(old=_blob(base)[:7], new="1234567") + "\n".join(lines) + "\n")
    delta = patch_delta(patch)
    assert not [c for c in delta.changes if c.name == "rancher/system-upgrade-controller"], delta


@pytest.mark.parametrize("between", ["", "# pinned by the platform team"])
def test_a_blank_or_comment_line_inside_an_entry_does_not_close_it(tmp_path: Path, between: str) -> None:
    base = f"resources:\n  - plan.yaml\nimages:\n  - name: rancher/suc\n    newTag: v0.7.6\n{between}\n" \
           "    newName: evil.example/suc\n"
    repo = tmp_path / "repo"
    repo.mkdir()
    git = ["git", "-C", str(repo), "-c", "user.email=a@example.com", "-c", "user.name=a"]
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / "kustomization.yaml").write_text(base)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "base"], check=True)
    (repo / "kustomization.yaml").write_text(base.replace("v0.7.6", "v0.7.7"))
    patch = tmp_path / "change.patch"
    patch.write_bytes(subprocess.run([*git, "diff", "--binary"], check=True, capture_output=True).stdout)
    delta = patch_delta(patch)
    assert not [c for c in delta.changes if c.name == "rancher/suc"], delta
