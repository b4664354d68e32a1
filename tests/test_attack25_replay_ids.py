"""Attack 25: `audit replay --tree` and a record whose range names its commits by other spellings of their ids.

Red team 31 binds a record decided with `--tree` to its commits: a side the record names by its full id must be the
commit replay resolves. It recognised only 40 or 64 lowercase hex digits; any other side counted as a name (a branch
that may have moved) and got a note. git takes a full id in capitals and a short id (`abc1234`) as well, and the gate
records the range as given, so a record of such a run was replayed on whatever commits the auditor named: on
76d38f3 a replay with other commits (HEAD..HEAD) ran and said only "a name, not a commit" (exit 1 or 0, never the
refusal a lowercase full id gets). Now a side made of hex digits only (4 or more: git's shortest abbreviation) must
be an id of the commit replay resolves, whatever its case. Real repository, patch, packet and log the gate wrote.
"""

from __future__ import annotations

from pathlib import Path

from conftest import POLICY_DIR
from incli import run_cli
from tables import each_case
from test_redteam31_replay_tree import VARIANTS, _made, _replay

SPELLINGS = {
    "capital full ids": lambda commit: commit.upper(),
    "short ids": lambda commit: commit[:12],
    "shortest ids": lambda commit: commit[:7],
    "capital short ids": lambda commit: commit[:10].upper(),
}


@each_case("spelling", SPELLINGS)
def test_a_record_naming_its_commits_by_another_spelling_is_bound_to_them(tmp_path: Path, spelling: str) -> None:
    repo, base, head, patch, packet = _made(tmp_path, VARIANTS[0][1], None)
    spell = SPELLINGS[spelling]
    recorded = f"{spell(base)}..{spell(head)}"
    log = tmp_path / "log.jsonl"
    assert run_cli(["gate", str(packet), "--patch", str(patch), "--policy", str(POLICY_DIR), "--format", "json",
                    "--tree", recorded, "--repo", str(repo.root), "--log", str(log)], text=True).returncode == 3
    code, out, err = _replay(log, packet, patch, "--tree", recorded, "--repo", str(repo.root))
    assert code == 0 and "same outcome and findings" in out and "not a commit" not in out, out + err
    for other in (f"{head}..{head}", f"{base}..{base}"):
        code, out, err = _replay(log, packet, patch, "--tree", other, "--repo", str(repo.root))
        assert code == 2 and err.count("\n") == 1 and "recorded" in err, (code, out, err)  # before: a note, ran


def test_a_record_naming_a_branch_still_gets_a_note(tmp_path: Path) -> None:
    repo, base, head, patch, packet = _made(tmp_path, VARIANTS[0][1], None)
    repo.git("branch", "-f", "topic", head)
    log = tmp_path / "log.jsonl"
    assert run_cli(["gate", str(packet), "--patch", str(patch), "--policy", str(POLICY_DIR), "--format", "json",
                    "--tree", f"{base}..topic", "--repo", str(repo.root), "--log", str(log)], text=True).returncode == 3
    code, out, err = _replay(log, packet, patch, "--tree", f"{base}..topic", "--repo", str(repo.root))
    assert code == 0 and "'topic', which is a name, not a commit" in out, out + err
