"""Red team 14, the GitHub Action in a merge queue: the patch was not bound to the commits being merged.

docs/ci.md tells a repository whose branches need not be up to date to "gate the merge queue's commits", but the
action took `base`/`head` from a `pull_request` payload only. On a `merge_group` event it ran the gate without
`--tree`: the packet's harmless patch was judged, the merge group commit's real change (a workflow edit the patch
does not show, or a `gatekeeper.yaml` that switches `core` off, read from the working directory) was never compared
with it, and the step said allow (exit 0). The action now takes the merge group's `base_sha`/`head_sha`."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import pytest
from gitrepo import GitRepo
from test_treecheck import WORKFLOW, PullRequest

from gatekeeper.ci.github_action import gate_argv, read_inputs
from gatekeeper.cli import main
from gatekeeper.errors import UsageError


def _merge_group(tmp_path: Path) -> tuple[GitRepo, dict[str, str]]:
    """A pull request whose patch shows a code edit and whose commits also edit a workflow and switch `core` off,
    merged by the queue onto main (the merge group commit), and the `merge_group` event of that commit."""
    pr = PullRequest(GitRepo(tmp_path / "repo")).change({"src/app.py": "print(2)\n"})
    pr.sneak({WORKFLOW: "on: push\njobs: {steal: {}}\n", "gatekeeper.yaml": "enable: [size]\ndisable: [core]\n"})
    repo = pr.repo
    base = repo.git("rev-parse", "main").decode().strip()
    repo.git("checkout", "-q", "-b", "gh-readonly-queue/main/pr-1", "main")
    repo.git("merge", "-q", "--no-ff", "-m", "merge group", "pr")
    head = repo.head()
    event = {"action": "checks_requested",
             "merge_group": {"base_sha": base, "head_sha": head, "base_ref": "refs/heads/main",
                             "head_ref": "refs/heads/gh-readonly-queue/main/pr-1"}}
    path = tmp_path / "event.json"
    path.write_text(json.dumps(event), encoding="utf-8")
    return repo, {"INPUT_PACKET": ".agent/packet.json", "INPUT_PATCH": ".agent/patch.diff",
                  "GITHUB_EVENT_PATH": str(path)}


def test_a_merge_group_binds_the_patch_to_the_commits_it_merges(tmp_path: Path) -> None:
    repo, env = _merge_group(tmp_path)
    argv = gate_argv(read_inputs(env), tmp_path / "decision.json")
    with contextlib.chdir(repo.root):  # the action's working directory: the merge group commit checked out
        code = main(argv)
    decision = json.loads((tmp_path / "decision.json").read_text())
    assert code == 1 and decision["outcome"] == "deny", decision["reasons"]
    mismatch = [r for r in decision["reasons"] if r["rule"] == "gatekeeper.tree_mismatch"]
    assert mismatch and WORKFLOW in json.dumps(mismatch)


def test_a_merge_group_event_names_both_commits_or_none(tmp_path: Path) -> None:
    path = tmp_path / "event.json"
    for payload in ({"merge_group": "x"}, {"merge_group": {}}, {"merge_group": {"base_sha": 1, "head_sha": 2}}):
        path.write_text(json.dumps(payload), encoding="utf-8")
        inputs = read_inputs({"INPUT_PACKET": "k", "INPUT_PATCH": "p", "GITHUB_EVENT_PATH": str(path)})
        assert (inputs.base, inputs.head) == (None, None), payload
    path.write_text(json.dumps({"merge_group": {"base_sha": "b" * 40}}), encoding="utf-8")
    with pytest.raises(UsageError, match="the 'head' input is needed"):  # exit 2: the gate cannot decide
        read_inputs({"INPUT_PACKET": "k", "INPUT_PATCH": "p", "GITHUB_EVENT_PATH": str(path)})
