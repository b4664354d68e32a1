"""An item added deep inside a PEP 723 block whose header and keys the patch's hunk does not show (docs review of
stop 48): `#   "evil-pkg==1.0",` among twenty listed dependencies is all the hunk shows, three context lines each
side. It was `src.default` from a patch, with no `needs-context`, and `gate --enable deps` allowed it (exit 0). From a
patch, a changed comment line shaped like a block's line (a quoted list item, a `# ]` or a `# ///` line) is now what
the inline-metadata rule reads: the file is reviewed as `deps`; with `--tree` the whole file is read and decides.
A Python file whose changed comments are prose stays `src`.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

from gitrepo import GitRepo, two_commits
from incli import run_cli
from tables import each_case

from gatekeeper.classify.contexttypes import Shown
from gatekeeper.classify.inlinemeta import evidence

ITEMS = "".join(f'#   "pkg{i}>=1.{i}",\n' for i in range(20))
BLOCK = f'# /// script\n# requires-python = ">=3.11"\n# dependencies = [\n{ITEMS}# ]\n# ///\n'
# Where the new line goes and how it is written: quotes, a trailing comma or none, CRLF, the block's last item.
VARIANTS = {
    "middle": ('#   "pkg9>=1.9",\n', '#   "pkg9>=1.9",\n#   "evil-pkg==1.0",\n'),
    "single-quotes": ('#   "pkg9>=1.9",\n', "#   \"pkg9>=1.9\",\n#   'evil-pkg==1.0',\n"),
    "no-comma": ('#   "pkg9>=1.9",\n', '#   "pkg9>=1.9",\n#   "evil-pkg==1.0"\n'),
    "moved-item": ('#   "pkg9>=1.9",\n', '#   "pkg9>=2.0",\n'),
    "last": ('#   "pkg19>=1.19",\n# ]\n', '#   "pkg19>=1.19",\n#   "evil-pkg",\n# ]\n'),
}


def _patch(tmp: Path, base_text: str, head_text: str) -> bytes:
    repo, old, new = two_commits(tmp / "repo", {"tools/report.py": base_text}, {"tools/report.py": head_text})
    return GitRepo(repo.root).git("diff", "--binary", old, new)


@each_case("crlf, name", [(crlf, name) for crlf in [False, True] for name in sorted(VARIANTS)])
def test_a_hidden_item_is_read_from_the_hunk(tmp_path: Path, name: str, crlf: bool) -> None:
    before, after = VARIANTS[name]
    base = "import sys\n" * 3 + BLOCK + "print(1)\n"
    head = base.replace(before, after)
    if crlf:
        base, head = base.replace("\n", "\r\n"), head.replace("\n", "\r\n")
    patch = _patch(tmp_path, base, head)
    assert b"# /// script" not in patch and b"dependencies" not in patch  # the hunk hides the header and the key
    assert evidence([Shown("tools/report.py", patch, False)]) is not None
    assert evidence([Shown("tools/report.py", head.encode(), True)]) is not None  # --tree: the whole file


def test_the_deps_gate_reviews_it_from_the_patch(tmp_path: Path) -> None:
    before, after = VARIANTS["middle"]
    base = BLOCK + "print(1)\n"
    repo, old, new = two_commits(tmp_path / "repo", {"tools/report.py": base},
                                 {"tools/report.py": base.replace(before, after)})
    patch, packet = tmp_path / "change.diff", tmp_path / "packet.json"
    patch.write_bytes(GitRepo(repo.root).git("diff", "--binary", old, new))
    with contextlib.chdir(repo.root):
        assert run_cli(["packet", patch, "--out", packet]).returncode == 0
    done = run_cli(["gate", packet, "--patch", patch, "--format", "json", "--enable", "deps"], text=True)
    decision = json.loads(done.stdout)
    assert done.returncode == 3, decision["reasons"]


@each_case("comment", ['#   the "fast" path,\n', "# see ]\n", "#   ///  \n#\n", "# TODO: x\n",
                                     '    s = "#   not a comment",\n'])
def test_prose_comments_stay_src(tmp_path: Path, comment: str) -> None:
    base = "import sys\n" * 10 + "def f():\n    return 1\n" + "print(1)\n" * 10
    head = base.replace("def f():\n", "def f():\n" + comment)
    patch = _patch(tmp_path, base, head)
    assert evidence([Shown("tools/report.py", patch, False)]) is None, comment


def test_long_blank_runs_are_read_in_linear_time() -> None:
    # `[ \t]*,?[ \t]*` backtracked quadratically on a run of blanks after a quoted item with no line end; one
    # optional comma group does not (red team 20's regex discipline)
    hostile = b'+#   "x"' + b" " * 200_000 + b"z\n"
    assert evidence([Shown("tools/report.py", hostile * 3, False)]) is None
