"""`gatekeeper gate` end to end on real git-made patches: every shipped policy, tampering, options."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from conftest import POLICY_DIR
from gitrepo import GitRepo

from gatekeeper.cli import main
from gatekeeper.errors import ExitCode, GatekeeperError, PolicyError
from gatekeeper.gate import canonical_json, digest, exit_code, gate_findings, start_deciding_many
from gatekeeper.gate_input import FILE_DEFAULTS, build_input, file_entry, notable
from gatekeeper.model import ClassifiedFile, Decision, FileChange
from gatekeeper.policy.bundle import load_bundle
from gatekeeper.policy.findings import Evaluation
from gatekeeper.policy.input_schema import schema as input_schema
from gatekeeper.policy.input_schema import validate_input

ALLOW, DENY, ERROR, REVIEW = 0, 1, 2, 3


class Change:
    """A real repository: a base commit, then staged changes; the patch git made and its packet."""

    def __init__(self, repo: GitRepo, folder: Path, base: dict[str, str] | None = None) -> None:
        self.repo, self.folder = repo, folder
        repo.write("README.md", "base\n")
        for path, text in (base or {}).items():
            repo.write(path, text)
        repo.commit()
        self.patch, self.packet = folder / "change.diff", folder / "packet.json"

    def make(
        self,
        files: Mapping[str, str | bytes],
        *,
        modes: dict[str, int] | None = None,
        packet_args: tuple[str, ...] = (),
    ) -> Change:
        for path, data in files.items():
            self.repo.write(path, data, mode=(modes or {}).get(path))
        self.repo.save_patch(self.patch)
        assert (
            main(["packet", str(self.patch), "--out", str(self.packet), "--policy", str(POLICY_DIR), *packet_args]) == 0
        )
        return self

    def edit_packet(self, change: Any) -> None:
        doc = json.loads(self.packet.read_text())
        change(doc)
        self.packet.write_text(json.dumps(doc))


@pytest.fixture
def change(git_repo: GitRepo, tmp_path: Path) -> Change:
    return Change(git_repo, tmp_path)


def gate(capsys: pytest.CaptureFixture[str], case: Change, *args: str) -> tuple[int, dict[str, Any]]:
    capsys.readouterr()
    code = main(
        ["gate", str(case.packet), "--patch", str(case.patch), "--policy", str(POLICY_DIR), "--format", "json", *args]
    )
    out = capsys.readouterr()
    assert "Traceback" not in out.err
    return code, (json.loads(out.out) if out.out.strip() else {"stderr": out.err})


def rules(decision: dict[str, Any]) -> list[str]:
    return [reason["rule"] for reason in decision["reasons"]]


# --- core reproduces the proposal ------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "code", "outcome"),
    [
        ("src/k8sclient.go", ALLOW, "allow"),
        ("Jenkinsfile", REVIEW, "review"),
        (".circleci/config.yml", REVIEW, "review"),
        ("go.mod", ALLOW, "allow"),
    ],
)
def test_core_reproduces_the_proposal(
    capsys: pytest.CaptureFixture[str], change: Change, path: str, code: int, outcome: str
) -> None:
    change.make({path: "content\n"})
    got, decision = gate(capsys, change)
    assert (got, decision["outcome"]) == (code, outcome)
    assert decision["policies"] == [{"name": "core", "version": "1.1.3"}]
    if outcome == "review":
        assert decision["reasons"] == [
            {
                "policy": "core",
                "rule": "core.ci",
                "level": "review",
                "bucket": "ci",
                "paths": [path],
                "msg": decision["reasons"][0]["msg"],
            }
        ]


def test_go_mod_needs_review_with_deps_enabled(capsys: pytest.CaptureFixture[str], change: Change) -> None:
    change.make({"go.mod": "module example.com/x\n"})
    code, decision = gate(capsys, change, "--enable", "deps")
    assert (code, decision["outcome"]) == (REVIEW, "review")
    # deps 2.0.0: a go.mod that requires nothing moves no dependency, yet a deps file changed: a human looks.
    assert rules(decision) == ["deps.unexplained"]


def test_core_one_finding_per_bucket_with_all_paths(capsys: pytest.CaptureFixture[str], change: Change) -> None:
    change.make(
        {
            "Jenkinsfile": "x\n",
            ".github/workflows/ci.yml": "on: push\n",
            "deploy/main.tf": "x\n",
            "src/a.go": "package a\n",
        }
    )
    code, decision = gate(capsys, change)
    assert code == REVIEW
    by_rule = {r["rule"]: r for r in decision["reasons"]}
    assert set(by_rule) == {"core.ci", "core.iac"}
    assert sorted(by_rule["core.ci"]["paths"]) == [".github/workflows/ci.yml", "Jenkinsfile"]
    assert by_rule["core.iac"]["paths"] == ["deploy/main.tf"] and by_rule["core.iac"]["bucket"] == "iac"


# --- the optional policies: allow and review (deny below, with tampering) ---------------------


def test_deps_file_the_delta_cannot_explain(capsys: pytest.CaptureFixture[str], change: Change) -> None:
    # go.sum adds x (not required by go.mod: transitive, one new one is fine); go.mod moves nothing.
    change.make({"go.mod": "module x\n", "go.sum": "x v1 h1:abc\n"})
    code, decision = gate(capsys, change, "--enable", "deps")
    assert code == REVIEW and rules(decision) == ["deps.unexplained"]
    assert decision["reasons"][0]["paths"] == ["go.mod"]


def test_deps_lock_file_without_its_manifest(
    capsys: pytest.CaptureFixture[str], git_repo: GitRepo, tmp_path: Path
) -> None:
    case = Change(git_repo, tmp_path, base={"web/package.json": "{}\n"}).make({"web/package-lock.json": "{}\n"})
    code, decision = gate(capsys, case, "--enable", "deps")
    assert code == REVIEW and rules(decision) == ["deps.unexplained"]  # an empty lock file moves nothing
    assert decision["reasons"][0]["paths"] == ["web/package-lock.json"]


def test_deps_allows_source_only_changes(capsys: pytest.CaptureFixture[str], change: Change) -> None:
    change.make({"src/main.go": "package main\n"})
    assert gate(capsys, change, "--enable", "deps")[0] == ALLOW


def test_guardrails(capsys: pytest.CaptureFixture[str], change: Change) -> None:
    change.make({"AGENTS.md": "be careful\n", "src/a.py": "x = 1\n"})
    assert gate(capsys, change)[0] == ALLOW
    code, decision = gate(capsys, change, "--enable", "guardrails")
    assert (
        code == REVIEW and rules(decision) == ["guardrails.edit"] and decision["reasons"][0]["paths"] == ["AGENTS.md"]
    )


@pytest.mark.parametrize(
    ("args", "code", "expected"),
    # A packet from `gatekeeper packet` is unsigned: its model facts are unverified (tests/test_attest_flow.py
    # signs them).
    [(("--model-requested", "m-1", "--model-reported", "m-1"), REVIEW, ["provenance.unverified"]),
     (("--model-requested", "m-1", "--model-reported", "m-2"), REVIEW,
      ["provenance.mismatch", "provenance.unverified"]),
     (("--model-requested", "m-1"), REVIEW, ["provenance.unreported", "provenance.unverified"])],
)
def test_provenance(
    capsys: pytest.CaptureFixture[str], change: Change, args: tuple[str, ...], code: int, expected: list[str]
) -> None:
    change.make({"src/a.py": "x = 1\n"}, packet_args=args)
    got, decision = gate(capsys, change, "--enable", "provenance")
    assert (got, rules(decision)) == (code, expected)


def test_sandbox(capsys: pytest.CaptureFixture[str], change: Change) -> None:
    change.make({"src/a.py": "x = 1\n"})
    code, decision = gate(capsys, change, "--enable", "sandbox")
    assert code == REVIEW and rules(decision) == ["sandbox.egress_unchecked", "sandbox.network", "sandbox.unverified"]
    from gatekeeper.packet import build_packet, derive, write_packet

    bundle = load_bundle(POLICY_DIR)
    isolated = {"backend": "unshare", "network": "denied", "egress_checked": True, "env_passed": ["PATH"],
                "egress": {"recording": "recorded", "reason": None, "refused": 0, "refused_by_host": [],
                           "unrecorded": 0}}
    write_packet(change.packet, build_packet(derive(change.patch, bundle.rules), bundle.rules, sandbox=isolated))
    assert rules(gate(capsys, change, "--enable", "sandbox")[1]) == ["sandbox.unverified"]  # unsigned claims


def test_size_thresholds_and_binary_executables(
    capsys: pytest.CaptureFixture[str], git_repo: GitRepo, tmp_path: Path
) -> None:
    many = {f"src/f{i}.go": "package src\n" for i in range(101)}
    case = Change(git_repo, tmp_path).make(many)
    code, decision = gate(capsys, case, "--enable", "size")
    assert code == REVIEW and rules(decision) == ["size.files"]
    case.make({"src/long.txt": "line\n" * 2001})
    assert "size.lines" in rules(gate(capsys, case, "--enable", "size")[1])


def test_size_denies_binary_executables(capsys: pytest.CaptureFixture[str], change: Change) -> None:
    change.make(
        {"bin/tool": b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)), "img/logo.png": b"\x89PNG\r\n\x1a\n\x00\x01"},
        modes={"bin/tool": 0o755},
    )
    assert gate(capsys, change)[0] == ALLOW
    code, decision = gate(capsys, change, "--enable", "size")
    assert (code, decision["outcome"]) == (DENY, "deny")
    assert decision["reasons"][0]["rule"] == "size.binary_executable" and decision["reasons"][0]["paths"] == [
        "bin/tool"
    ]


# --- tampering: deny or exit 2, never allow, never a traceback --------------------------------

TRIGGERS = {
    "core": {"Jenkinsfile": "x\n"},
    "deps": {"go.mod": "module x\n"},
    "guardrails": {"AGENTS.md": "x\n"},
    "provenance": {"src/a.go": "package x\n"},
    "sandbox": {"src/a.go": "package x\n"},
    "size": {"src/a.go": "package x\n"},
}


@pytest.mark.parametrize("policy", sorted(TRIGGERS))
def test_patch_changed_after_its_packet_is_denied_whatever_the_policy(
    capsys: pytest.CaptureFixture[str], change: Change, policy: str
) -> None:
    change.make(TRIGGERS[policy])
    head, _, tail = change.patch.read_bytes().rpartition(b"x\n")
    change.patch.write_bytes(head + b"y\n" + tail)  # same shape, other bytes: only the hash tells
    code, decision = gate(capsys, change, "--enable", policy)
    assert (code, decision["outcome"]) == (DENY, "deny")
    assert decision["reasons"][0]["rule"] == "gatekeeper.integrity" and "diff.sha256" in decision["reasons"][0]["msg"]


def test_appended_file_after_the_packet_is_denied(capsys: pytest.CaptureFixture[str], change: Change) -> None:
    change.make({"src/a.go": "package a\n"})
    packet = change.packet.read_bytes()
    change.make({".github/workflows/x.yml": "on: push\n"})
    change.packet.write_bytes(packet)
    code, decision = gate(capsys, change)
    assert code == DENY
    integrity = decision["reasons"][0]
    assert integrity["rule"] == "gatekeeper.integrity" and ".github/workflows/x.yml" in integrity["msg"]
    assert "core.ci" in rules(decision)  # the policies still saw the truth


def test_packet_under_claiming_buckets_is_denied(capsys: pytest.CaptureFixture[str], change: Change) -> None:
    change.make({"Jenkinsfile": "x\n", "src/a.go": "package a\n"})

    def hide_ci(doc: dict[str, Any]) -> None:
        for entry in doc["files"]:
            entry["bucket"] = "src"
        doc["blast_radius"]["src"]["files"] += doc["blast_radius"]["ci"]["files"]
        doc["blast_radius"]["ci"] = {"files": 0, "additions": 0, "deletions": 0}

    change.edit_packet(hide_ci)
    code, decision = gate(capsys, change)
    assert code == DENY
    msg = decision["reasons"][0]["msg"]
    assert "blast_radius.ci.files" in msg and "bucket" in msg


def test_packet_under_claiming_files_is_denied(capsys: pytest.CaptureFixture[str], change: Change) -> None:
    change.make({"Jenkinsfile": "x\n", "src/a.go": "package a\n"})

    def drop_ci(doc: dict[str, Any]) -> None:
        doc["files"] = [e for e in doc["files"] if e["bucket"] != "ci"]

    change.edit_packet(drop_ci)
    code, decision = gate(capsys, change)
    assert code == DENY and "does not list it" in decision["reasons"][0]["msg"]


@pytest.mark.parametrize(
    ("mangle", "message"),
    [(lambda text: text[: len(text) // 2], "not valid JSON"),
     (lambda text: "[1, 2, 3]", ""),
     (lambda text: json.dumps({k: v for k, v in json.loads(text).items() if k != "diff"}), "diff"),
     (lambda text: "", "not valid JSON"),
     # Checked beside the engine child: a packet the gate's own steps trip over is still refused as one.
     (lambda text: json.dumps({**json.loads(text), "files": "src/a.go"}), "files"),
     (lambda text: json.dumps({**json.loads(text), "classifier": "tree"}), "classifier"),
     (lambda text: json.dumps({**json.loads(text), "run_id": 7}), "run_id")],
    ids=["truncated", "not-an-object", "missing-field", "empty", "files-not-a-list", "classifier-text",
         "run-id-number"],
)
def test_broken_packets_cannot_be_decided(
    capsys: pytest.CaptureFixture[str], change: Change, mangle: Any, message: str
) -> None:
    change.make({"src/a.go": "package a\n"})
    change.packet.write_text(mangle(change.packet.read_text()))
    code, decision = gate(capsys, change)
    assert code == ERROR
    assert decision["stderr"].startswith("gatekeeper: error:") and message in decision["stderr"]
    assert decision["stderr"].count("\n") == 1


def test_a_packet_refused_by_its_schema_is_reported_before_a_later_step_fails(
    capsys: pytest.CaptureFixture[str], change: Change, tmp_path: Path
) -> None:
    # The schema check runs late (beside the engine child), but its error still comes first.
    change.make({"src/a.go": "package a\n"})
    change.edit_packet(lambda doc: doc.update(run_id=7))
    code, decision = gate(capsys, change, "--advisories", str(tmp_path / "missing"))
    assert code == ERROR and "run_id" in decision["stderr"] and "advisories" not in decision["stderr"].lower()


@pytest.mark.parametrize("later", ["advisories", "patch", "trust"])
def test_an_unreadable_packet_is_reported_before_a_later_step_fails(
    capsys: pytest.CaptureFixture[str], change: Change, tmp_path: Path, later: str
) -> None:
    # The packet file is read once the engine child is forked (gate.decide), but its error still comes first: before
    # a missing advisories folder, a malformed patch, a missing trust file, as when it was read before them.
    change.make({"src/a.go": "package a\n"})
    change.packet.write_text(change.packet.read_text()[:100])
    extra: tuple[str, ...] = ()
    if later == "advisories":
        extra = ("--advisories", str(tmp_path / "missing"))
    elif later == "patch":
        change.patch.write_bytes(change.patch.read_bytes().replace(b"@@ -", b"@@ x", 1))
    else:
        extra = ("--trust", str(tmp_path / "missing"))
    code, decision = gate(capsys, change, *extra)
    assert code == ERROR and "not valid JSON" in decision["stderr"] and decision["stderr"].count("\n") == 1


def test_unsafe_path_is_denied(capsys: pytest.CaptureFixture[str], change: Change) -> None:
    change.make({"src/a.go": "package a\n"})
    evil = change.patch.read_bytes().replace(b"src/a.go", b"../outside.go")
    change.patch.write_bytes(evil)
    code, decision = gate(capsys, change)
    assert code == DENY
    unsafe = [r for r in decision["reasons"] if r["rule"] == "gatekeeper.unsafe_path"]
    assert unsafe and unsafe[0]["paths"] == ["../outside.go"]


def test_tampering_through_a_real_process_prints_one_line(change: Change) -> None:
    change.make({"src/a.go": "package a\n"})
    change.packet.write_text(change.packet.read_text()[:100])
    done = subprocess.run(
        [sys.executable, "-m", "gatekeeper", "gate", str(change.packet), "--patch", str(change.patch)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == ERROR and done.stdout == ""
    assert done.stderr.startswith("gatekeeper: error:") and done.stderr.count("\n") == 1


# --- options ----------------------------------------------------------------------------------


def test_dry_run_reports_the_real_decision_and_exits_0(capsys: pytest.CaptureFixture[str], change: Change) -> None:
    change.make({"Jenkinsfile": "x\n"})
    code, decision = gate(capsys, change, "--dry-run")
    assert code == ALLOW and decision["outcome"] == "review" and decision["dry_run"] is True


def test_output_file_and_decision_log(capsys: pytest.CaptureFixture[str], change: Change, tmp_path: Path) -> None:
    change.make({"Jenkinsfile": "x\n"})
    report, log = tmp_path / "out" / "decision.json", tmp_path / "decisions.jsonl"
    capsys.readouterr()
    code = main(
        [
            "gate",
            str(change.packet),
            "--patch",
            str(change.patch),
            "--format",
            "json",
            "--output",
            str(report),
            "--log",
            str(log),
        ]
    )
    out = capsys.readouterr()
    assert code == REVIEW and out.out == "" and "review" in out.err
    decision = json.loads(report.read_text())
    record = json.loads(log.read_text().splitlines()[-1])
    assert record["outcome"] == decision["outcome"] == "review"
    assert record["input_digest"] == decision["input_digest"]


def test_project_config_enables_and_flags_win(capsys: pytest.CaptureFixture[str], change: Change, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    change.make({"go.mod": "module x\n"})
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    (work / "gatekeeper.yaml").write_text(f"policy_dir: {POLICY_DIR}\nenable: [deps]\nformat: json\n")
    capsys.readouterr()
    assert main(["gate", str(change.packet), "--patch", str(change.patch)]) == REVIEW
    assert json.loads(capsys.readouterr().out)["enabled"] == ["core", "deps"]
    assert main(["gate", str(change.packet), "--patch", str(change.patch), "--disable", "deps"]) == ALLOW
    (work / "gatekeeper.yaml").write_text("policy_dir: x\nenabel: [deps]\n")
    capsys.readouterr()
    assert main(["gate", str(change.packet), "--patch", str(change.patch)]) == ERROR
    assert "gatekeeper.yaml:2" in capsys.readouterr().err
    (work / "gatekeeper.yaml").write_text(f"policy_dir: {POLICY_DIR}\nenable: [nope]\n")
    assert main(["gate", str(change.packet), "--patch", str(change.patch)]) == ERROR
    assert "unknown policy 'nope'" in capsys.readouterr().err


def test_unknown_policy_flag_is_exit_2(capsys: pytest.CaptureFixture[str], change: Change) -> None:
    change.make({"src/a.go": "package a\n"})
    code, decision = gate(capsys, change, "--enable", "nope")
    assert code == ERROR and "the bundle has: core" in decision["stderr"]


# --- the decision itself ---------------------------------------------------------------------


def test_decision_records_bundle_packet_and_input_digests(capsys: pytest.CaptureFixture[str], change: Change) -> None:
    change.make({"Jenkinsfile": "x\n", "go.sum": "y\n"})
    code, decision = gate(capsys, change, "--enable", "deps")
    bundle = load_bundle(POLICY_DIR)
    packet = json.loads(change.packet.read_text())
    # What the decision records, derived here from the bundle's files and git (not from describe()).
    manifest = json.loads((POLICY_DIR / ".manifest").read_text())
    files = sorted((p.relative_to(POLICY_DIR).as_posix(), p) for p in POLICY_DIR.rglob("*")
                   if p.is_file() and "__pycache__" not in p.parts)
    listing = b"".join(name.encode() + b"\0" + hashlib.sha256(p.read_bytes()).hexdigest().encode() + b"\n"
                       for name, p in files)
    repo_git = ["git", "-C", str(POLICY_DIR)]
    last = subprocess.run([*repo_git, "log", "-1", "--format=%H", "--", "."], capture_output=True, text=True)
    dirty = subprocess.run([*repo_git, "status", "--porcelain", "--", "."], capture_output=True, text=True)
    commit = last.stdout.strip() or None
    assert decision["bundle"] == {
        "name": manifest["metadata"]["name"], "revision": manifest["revision"],
        "commit": commit, "uncommitted": bool(dirty.stdout.strip()) if commit else None,
        "digest": hashlib.sha256(listing).hexdigest(),
    }
    assert decision["packet"] == {
        "run_id": packet["run_id"],
        "diff_sha256": hashlib.sha256(change.patch.read_bytes()).hexdigest(),
        "digest": hashlib.sha256(canonical_json(packet)).hexdigest(),
    }
    assert decision["summary"]["buckets"]["ci"]["files"] == 1 and decision["summary"]["files"] == 2
    assert decision["tool"]["name"] == "gatekeeper" and decision["decided_at"].endswith("Z")
    from gatekeeper.packet import derive
    from gatekeeper.verify import compare

    derived = derive(change.patch, bundle.rules)
    input_doc = build_input(packet, derived, compare(packet, derived))
    assert "files" not in input_doc["packet"] and input_doc["files"][0]["dir"] == ""
    validate_input(input_doc, "input")
    assert digest(input_doc) == decision["input_digest"]
    (found,) = Evaluation(bundle, ["core", "deps"], [input_doc], timeout=10).results()
    assert isinstance(found, list)
    assert [finding.to_dict() for finding in gate_findings(input_doc) + found] == decision["reasons"]


def test_a_file_entry_leaves_out_exactly_the_fields_at_their_documented_default() -> None:
    # The same information as the packet's entry (defaults filled back in), with fewer engine nodes.
    documented = input_schema()["properties"]["files"]["items"]["properties"]
    assert {name: spec["default"] for name, spec in documented.items() if "default" in spec} == FILE_DEFAULTS
    plain = ClassifiedFile(FileChange("src/a.go", None, "modified", 3, 1, old_mode="100644", new_mode="100644"),
                           "src", "src.default")
    odd = ClassifiedFile(FileChange("a/b.json", "old/b.json", "renamed", binary=True, old_mode="100644",
                                    new_mode="120000", symlink_target="x", unsafe="why"),
                         "deps", "deps.npm", ("binary", "symlink"), "npm")
    for item in (plain, odd):
        entry = file_entry(item)
        assert {**FILE_DEFAULTS, **entry} == {**item.to_dict(), "dir": item.change.path.rpartition("/")[0]}
        assert not [name for name, value in entry.items() if name in FILE_DEFAULTS and value == FILE_DEFAULTS[name]]
    assert set(FILE_DEFAULTS) - set(file_entry(plain)) == set(FILE_DEFAULTS) - {"old_mode", "new_mode"}
    assert set(FILE_DEFAULTS) <= set(file_entry(odd))


def test_the_summary_lists_the_notable_files_policies_walk_instead_of_every_file() -> None:
    def item(path: str, bucket: str, tags: tuple[str, ...] = ()) -> ClassifiedFile:
        return ClassifiedFile(FileChange(path, None, "modified", 1, 1), bucket, f"test.{bucket}", tags)  # type: ignore[arg-type]

    entries = [file_entry(item("a.go", "src")), file_entry(item(".github/workflows/x.yml", "ci")),
               file_entry(item("b.go", "src")), file_entry(item("CODEOWNERS", "other", ("guardrail",))),
               file_entry(item("go.sum", "deps")), file_entry(item("main.tf", "iac")), file_entry(item("c", "other")),
               {**file_entry(item("Dockerfile", "other")), "facts": {"kind": "dockerfile"}}]
    assert notable(entries) == [1, 3, 4, 5, 7]
    assert notable([file_entry(item(f"src/{n}.go", "src")) for n in range(50)]) == []


def test_deciding_many_equals_deciding_each_case_alone(git_repo: GitRepo, tmp_path: Path) -> None:
    from gatekeeper.gate import decide
    from gatekeeper.verify import load_packet

    bundle = load_bundle(POLICY_DIR)
    ci = Change(git_repo, tmp_path).make({".circleci/config.yml": "x\n", "go.sum": "y\n"})
    tampered_packet = load_packet(ci.packet)
    tampered_packet["diff"]["additions"] += 1
    missing = tmp_path / "absent.diff"
    cases = [(load_packet(ci.packet), ci.patch, None), (tampered_packet, ci.patch, None),
             (load_packet(ci.packet), missing, None)]
    together = start_deciding_many(cases, bundle, ["core", "deps"])()
    assert len(together) == 3 and isinstance(together[2], GatekeeperError)
    for (packet, patch, _), batched in zip(cases[:2], together[:2], strict=True):
        alone = decide(packet, patch, bundle, ["core", "deps"])
        assert isinstance(batched, Decision)
        assert replace(batched, decided_at="") == replace(alone, decided_at="")
    assert [d.outcome for d in together[:2] if isinstance(d, Decision)] == ["review", "deny"]


def test_deciding_many_after_an_engine_crash_reports_each_case_as_decide_does(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    import shutil

    from gatekeeper.gate import decide
    from gatekeeper.verify import load_packet

    folder = tmp_path / "bundle"
    shutil.copytree(POLICY_DIR, folder)
    module = folder / "core" / "policy.rego"
    # `_boom`: an unread public rule is refused by the field check before the engine runs (red team 21)
    crash = '\nn := count(input.files)\n\n_boom if { n == 2 with input as {"files": [1]} }\n'
    module.write_text(module.read_text() + crash)
    bundle = load_bundle(folder)
    change = Change(git_repo, tmp_path).make({"Jenkinsfile": "x\n"})
    cases = [(load_packet(change.packet), change.patch, None)] * 2
    together = start_deciding_many(cases, bundle, ["core"])()
    with pytest.raises(PolicyError) as alone:
        decide(load_packet(change.packet), change.patch, bundle, ["core"])
    assert "the Rego engine crashed evaluating" in alone.value.what
    assert [str(d) for d in together] == [str(alone.value)] * 2


def test_the_input_schema_refuses_an_input_document_from_a_file_without_summary() -> None:
    with pytest.raises(PolicyError, match="summary"):
        validate_input({"packet": {}, "files": [], "integrity": {"ok": True, "differences": []}}, "input")


def test_exit_codes() -> None:
    assert [exit_code(Decision.from_dict({"outcome": o})) for o in ("allow", "deny", "review")] == [
        ExitCode.OK,
        ExitCode.FAILED,
        ExitCode.REVIEW,
    ]
    assert exit_code(Decision.from_dict({"outcome": "deny", "dry_run": True})) == ExitCode.OK
    assert exit_code(Decision.from_dict({"outcome": "???"})) == ExitCode.ERROR
    assert os.sep == "/"


def test_decide_adds_tree_differences_as_a_built_in_deny(change: Change) -> None:
    from gatekeeper.gate import TREE_RULE, decide
    from gatekeeper.verify import load_packet

    change.make({"src/a.go": "package a\n"})
    bundle = load_bundle(POLICY_DIR)
    packet = load_packet(change.packet)
    assert decide(packet, change.patch, bundle, ["core"]).outcome == "allow"
    decision = decide(packet, change.patch, bundle, ["core"], tree_differences=["x.yml: in pr, not in main + patch"])
    assert decision.outcome == "deny"
    [finding] = decision.reasons
    assert finding.rule == TREE_RULE == "gatekeeper.tree_mismatch" and finding.policy == "gatekeeper"
    assert "x.yml: in pr, not in main + patch" in finding.msg


def test_gatekeeper_yaml_is_read_once_per_gate(
    change: Change, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from gatekeeper import project_config

    change.make({"src/a.go": "package a\n"})
    home = tmp_path / "ci"
    home.mkdir()
    (home / "gatekeeper.yaml").write_text("format: json\n")  # no policy_dir: the default bundle order
    monkeypatch.chdir(home)
    reads: list[str] = []
    real = project_config.read_bytes

    def counted(path: Path, *args: Any, **kwargs: Any) -> bytes:
        reads.append(Path(path).name)
        return real(path, *args, **kwargs)

    monkeypatch.setattr(project_config, "read_bytes", counted)
    capsys.readouterr()
    assert main(["gate", str(change.packet), "--patch", str(change.patch)]) == ALLOW
    assert json.loads(capsys.readouterr().out)["outcome"] == "allow"  # the file's format was used
    assert reads == ["gatekeeper.yaml"]


@pytest.mark.parametrize("tree", [False, True], ids=["patch", "tree"])
def test_decide_hands_the_engine_verifys_input_though_in_two_parts(tmp_path: Path, tree: bool) -> None:
    """decide forks the engine child with the files and sends the claims' comparison and the dependency delta after
    (computed meanwhile, under --tree the delta from git objects): what it decides on is the input verify builds
    whole, byte for byte (its digest), and the policies saw the rest (the delta's bump reviewed, the integrity)."""
    from gitdiffs import commit_patch

    from gatekeeper.classify.treecontext import TreeContext
    from gatekeeper.gate import decide, verify
    from gatekeeper.revrange import resolve_range

    repo = GitRepo(tmp_path / "repo")
    repo.write("requirements.txt", "requests==2.31.0\n")
    repo.write("src/app.py", "print(1)\n")
    base = repo.commit("base")
    repo.write("requirements.txt", "requests==3.0.0\n")
    repo.write("src/app.py", "print(2)\n")
    head = repo.commit("head")
    patch = tmp_path / "change.diff"
    patch.write_bytes(commit_patch(repo, base, head, "--binary"))
    assert main(["packet", str(patch), "--out", str(tmp_path / "p.json"), "--policy", str(POLICY_DIR)]) == 0
    packet = json.loads((tmp_path / "p.json").read_text())
    packet["diff"]["additions"] += 1  # a claim the patch does not bear out: integrity is in the late part
    bundle = load_bundle(POLICY_DIR)
    names = ["core", "deps"]
    context = TreeContext(resolve_range(f"{base}..{head}", repo.root), bundle.rules) if tree else None
    try:
        whole = verify(packet, patch, bundle, names, context=context)
        decision = decide(packet, patch, bundle, names, context=context, timeout=30)
    finally:
        if context is not None:
            context.close()
    assert decision.input_digest == digest(whole.input)
    assert whole.input["integrity"]["ok"] is False and whole.input["dependencies"]["changes"]
    found = {(reason.rule, reason.msg) for reason in decision.reasons}
    assert any(rule == "gatekeeper.integrity" for rule, _ in found), found
    # (the level reads `minor` from a freshly built bundle, `"minor"` from one the process saved: regopy's sprintf)
    assert any(rule == "deps.upgrade_level" and msg.endswith(": requests 3.0.0") for rule, msg in found), found
