"""The gate with the dependency delta: real repositories, real patches, both sources (`--tree` and the patch).

Each case commits BASE, then HEAD, and gates the patch git makes between them twice: from the patch alone
and with `--tree BASE..HEAD` (the TreeContext's git objects). The `deps` policy 2.0.0 must decide alike.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from conftest import POLICY_DIR
from gitdiffs import commit_patch
from gitrepo import GitRepo
from tables import each_case

from gatekeeper.cli import main
from gatekeeper.gate_input import build_input
from gatekeeper.packet import derive
from gatekeeper.policy.bundle import load_bundle
from gatekeeper.policy.input_schema import validate_input

SHA = "b4ffde65f46336ab88eb53be808477a3936bae11"
GO_MOD = "module example.invalid/app\n\ngo 1.22\n\nrequire golang.org/x/text v0.14.0\n"
GO_SUM = ("golang.org/x/text v0.14.0 h1:ScX5w1eTa3QqT8oi6+ziP7dTV1S2+ALU0bI+0zXKWiQ=\n"
          "golang.org/x/text v0.14.0/go.mod h1:18ZOQIKpY8NJVqYksKHtTdi31H5itFRjB5/qKTNYzSU=\n")
WORKFLOW = "on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@{ref}\n"
RANGE = {"type": "ECOSYSTEM", "events": [{"introduced": "2.32.0"}, {"fixed": "2.32.4"}]}
ADVISORY = {"id": "GHSA-gk00-test-0001", "modified": "2026-01-01T00:00:00Z",
            "affected": [{"package": {"ecosystem": "PyPI", "name": "requests"}, "ranges": [RANGE]}]}


class Case:
    def __init__(self, root: Path, base: dict[str, str], head: dict[str, str]) -> None:
        self.repo = GitRepo(root / "repo")
        self.repo.write("README.md", "app\n")
        for path, text in base.items():
            self.repo.write(path, text)
        self.base = self.repo.commit("base")
        for path, text in head.items():
            self.repo.write(path, text)
        self.head = self.repo.commit("head")
        self.patch = root / "change.diff"
        self.patch.write_bytes(commit_patch(self.repo, self.base, self.head, "--binary"))
        self.packet = root / "packet.json"
        assert main(["packet", str(self.patch), "--out", str(self.packet), "--policy", str(POLICY_DIR)]) == 0


Cases = dict[str, tuple[dict[str, str], dict[str, str]]]  # name: (files at BASE, files at HEAD)


def together(cases: Cases) -> tuple[dict[str, str], dict[str, str], dict[str, set[str]]]:
    """Every case in a folder of its own of one repository (one gate for all): base, head, the paths of each."""
    base: dict[str, str] = {}
    head: dict[str, str] = {}
    paths: dict[str, set[str]] = {}
    for number, (name, (old, new)) in enumerate(cases.items()):
        base |= {f"c{number}/{path}": text for path, text in old.items()}
        head |= {f"c{number}/{path}": text for path, text in new.items()}
        paths[name] = {f"c{number}/{path}" for path in new if old.get(path) != new[path]}
    return base, head, paths


def unreviewed(decision: dict[str, Any], paths: dict[str, set[str]]) -> dict[str, list[str]]:
    """The cases (of `together`) none of whose changed files a review finding names."""
    reviewed = {p for reason in decision["reasons"] if reason["level"] == "review" for p in reason.get("paths", ())}
    return {name: sorted(files - reviewed) for name, files in paths.items() if not files & reviewed}


def gate(capsys: pytest.CaptureFixture[str], case: Case, tree: bool, *args: str) -> dict[str, Any]:
    capsys.readouterr()
    where = ["--tree", f"{case.base}..{case.head}", "--repo", str(case.repo.root)] if tree else []
    code = main(["gate", str(case.packet), "--patch", str(case.patch), "--policy", str(POLICY_DIR),
                 "--format", "json", "--disable", "core", "--enable", "deps", *where, *args])
    out = capsys.readouterr()
    assert "Traceback" not in out.err and out.out.strip(), out.err
    decision: dict[str, Any] = json.loads(out.out)
    assert code == {"allow": 0, "deny": 1, "review": 3}[decision["outcome"]]
    return decision


def gate_together(capsys: pytest.CaptureFixture[str], tmp_path: Path, cases: Cases, tree: bool) -> dict[str, Any]:
    """Every case in a folder of its own of one repository (`together`), one gate: it must review, with each case's
    files named by a review finding. The decision."""
    base, head, paths = together(cases)
    decision = gate(capsys, Case(tmp_path, base, head), tree)
    assert decision["outcome"] == "review", decision["reasons"]
    missed = unreviewed(decision, paths)
    assert not missed, missed
    return decision


# A go.sum before and after `go get google.golang.org/grpc@v1.53.0` (shaped as the go command writes it): the
# new version's graph brings `/go.mod` lines of older versions of modules already there (minimal version
# selection read their go.mod files) and code lines of the versions that are built.
GRPC_MOD = "module example.invalid/app\n\ngo 1.14\n\nrequire google.golang.org/grpc {v}\n"
GRPC_SUM = (
    "github.com/golang/protobuf v1.4.2 h1:P3YflyNX/ehuJFLhxviNdFxQPkGK5cDcApsge1SqnvM=\n"
    "github.com/golang/protobuf v1.4.2/go.mod h1:oDoupMAO8OvCJWAcko0GGGIgR6R6ocIYbsSw735rRwI=\n"
    "google.golang.org/grpc v1.37.0 h1:uSZWeQJX5j11bIQ4AJoj+McDBo29cY1MCoC1wO3ts+c=\n"
    "google.golang.org/grpc v1.37.0/go.mod h1:NREThFqKR1f3iQ6oBuvc5LadQuXVGo9rkm5ZGrQdJfM=\n"
)
GRPC_SUM_BUMPED = (
    "github.com/golang/protobuf v1.2.0/go.mod h1:6lQm79b+lXiMfvg/cZm0SGofjICqVBUtrP5yJMmIC1U=\n"
    "github.com/golang/protobuf v1.3.2/go.mod h1:6lQm79b+lXiMfvg/cZm0SGofjICqVBUtrP5yJMmIC1U=\n"
    "github.com/golang/protobuf v1.4.2/go.mod h1:oDoupMAO8OvCJWAcko0GGGIgR6R6ocIYbsSw735rRwI=\n"
    "github.com/golang/protobuf v1.5.2 h1:ROPKBNFfQgOUMifHyP+KYbvpjbdoFNs+aK7DXlji0Tw=\n"
    "github.com/golang/protobuf v1.5.2/go.mod h1:XVQd3VNwM+JqD3oG2Ue2ip4fOMUkwXdXDdiuN0vRsmY=\n"
    "golang.org/x/net v0.0.0-20180724234803-3673e40ba225/go.mod h1:mL1N/T3taQHkDXs73rZJwtUhF3w3ftmwwsq0BUmARs4=\n"
    "golang.org/x/net v0.5.0/go.mod h1:DivGGAXEgPSlEBzxGzZI+ZLohi+xUj054jfeKui00ws=\n"
    "google.golang.org/grpc v1.19.0/go.mod h1:mqu4LbDTu4XGKhr4mRzUsmM4RtVoemTSY81AxZiDr8c=\n"
    "google.golang.org/grpc v1.37.0/go.mod h1:NREThFqKR1f3iQ6oBuvc5LadQuXVGo9rkm5ZGrQdJfM=\n"
    "google.golang.org/grpc v1.53.0 h1:LAv2ds7cmFV/XTS3XG1NneeENYrXGmorPxsBbptIjNc=\n"
    "google.golang.org/grpc v1.53.0/go.mod h1:OnIrk0ipVdj4N5d9IUoFUx72/VlD7+jUsHwZgwSMQpw=\n"
)

CASES = {
    # One minor bump: go.sum's older /go.mod lines are no dependencies (x/net's graph only), its code lines
    # move with the bump (protobuf's code: an upgrade within the allowed level).
    "go bump with go.sum's graph": ({"go.mod": GRPC_MOD.format(v="v1.37.0"), "go.sum": GRPC_SUM},
                                    {"go.mod": GRPC_MOD.format(v="v1.53.0"), "go.sum": GRPC_SUM_BUMPED}, "allow", []),
    # Two modules whose code moves down: one finding naming go.sum (and go.mod) once each.
    "go.sum downgrades": ({"go.sum": GRPC_SUM_BUMPED},
                          {"go.sum": GRPC_SUM_BUMPED.replace("v1.53.0 h1:", "v1.37.0 h1:").replace(
                              "protobuf v1.5.2 h1:", "protobuf v1.4.2 h1:")}, "review", ["deps.downgrade"]),
    "new dependency": ({"requirements.txt": "requests==2.31.0\n"},
                       {"requirements.txt": "requests==2.31.0\nleftpad-py==0.1.0\n"}, "review", ["deps.new_direct"]),
    "patch bump": ({"go.mod": GO_MOD, "go.sum": GO_SUM},
                   {"go.mod": GO_MOD.replace("v0.14.0", "v0.14.1"), "go.sum": GO_SUM.replace("v0.14.0", "v0.14.1")},
                   "allow", []),
    "minor bump": ({"requirements.txt": "requests==2.31.0\n"}, {"requirements.txt": "requests==2.32.0\n"}, "allow", []),
    "major bump": ({"requirements.txt": "requests==2.31.0\n"}, {"requirements.txt": "requests==3.0.0\n"},
                   "review", ["deps.upgrade_level"]),
    "downgrade": ({"requirements.txt": "requests==2.31.0\n"}, {"requirements.txt": "requests==2.30.0\n"},
                  "review", ["deps.downgrade"]),
    "unpinned action": ({".github/workflows/ci.yml": WORKFLOW.format(ref=SHA)},
                        {".github/workflows/ci.yml": WORKFLOW.format(ref="main")}, "review", ["deps.unpinned_action"]),
    # a move between bare shas names no version (the delta's `unversioned`): no level to compare (deps 2.2.0)
    "pinned action bump": ({".github/workflows/ci.yml": WORKFLOW.format(ref=SHA)},
                           {".github/workflows/ci.yml": WORKFLOW.format(ref="1" * 40)}, "review",
                           ["deps.unversioned"]),
    "named pinned action bump": ({".github/workflows/ci.yml": WORKFLOW.format(ref=SHA + " # v4.1.1")},
                                 {".github/workflows/ci.yml": WORKFLOW.format(ref="1" * 40 + " # v4.1.2")}, "allow",
                                 []),
    "base image": ({"Dockerfile": "FROM python:3.12-slim\nRUN true\n"},
                   {"Dockerfile": "FROM ghcr.io/x/python:3.12-slim\nRUN true\n"}, "review",
                   ["deps.base_image", "deps.new_direct"]),
    "new index": ({"requirements.txt": "requests==2.31.0\n"},
                  {"requirements.txt": "--extra-index-url https://127.0.0.1:9/simple\nrequests==2.31.0\n"},
                  "review", ["deps.new_registry"]),
    "lockfile checksum only": ({"go.sum": GO_SUM}, {"go.sum": GO_SUM.replace("ScX5", "AAAA")}, "review",
                               ["deps.unexplained"]),
}


@pytest.mark.parametrize("tree", [False, True], ids=["patch", "tree"])
@pytest.mark.parametrize("name", list(CASES))
def test_the_gate_judges_what_a_change_moves(capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str,
                                             tree: bool) -> None:
    base, head, outcome, expected = CASES[name]
    decision = gate(capsys, Case(tmp_path, base, head), tree)
    assert decision["outcome"] == outcome, decision["reasons"]
    assert sorted(r["rule"] for r in decision["reasons"]) == expected
    assert decision["policies"] == [{"name": "deps", "version": "2.2.0"}]
    for reason in decision["reasons"]:  # each path once, however many changes the policy listed it for
        assert len(reason["paths"]) == len(set(reason["paths"])), reason
    if name == "go.sum downgrades":
        assert decision["reasons"][0]["paths"] == ["go.sum"]
    if name != "lockfile checksum only" and name != "new index":
        assert decision["dependencies"]["changes"], "the decision carries the delta"


@pytest.mark.parametrize("tree", [False, True], ids=["patch", "tree"])
@pytest.mark.parametrize(("setting", "code"), [(None, 3), (False, 3), (True, 0), ("true", 2)])
def test_a_bundle_may_let_unversioned_moves_queue(capsys: pytest.CaptureFixture[str], tmp_path: Path, tree: bool,
                                                  setting: object, code: int) -> None:
    """`params.deps.allow_unversioned` in the bundle's manifest: only `true` lets an action's move between bare shas
    queue (exit 0); unset or false it is reviewed (3); a string is refused as a param of the wrong type (2)."""
    bundle = tmp_path / "bundle"
    shutil.copytree(POLICY_DIR, bundle)
    manifest = json.loads((bundle / ".manifest").read_text())
    if setting is not None:
        manifest["metadata"]["params"]["deps"]["allow_unversioned"] = setting
    (bundle / ".manifest").write_text(json.dumps(manifest))
    path = ".github/workflows/ci.yml"
    case = Case(tmp_path, {path: WORKFLOW.format(ref=SHA)}, {path: WORKFLOW.format(ref="1" * 40)})
    where = ["--tree", f"{case.base}..{case.head}", "--repo", str(case.repo.root)] if tree else []
    capsys.readouterr()
    got = main(["gate", str(case.packet), "--patch", str(case.patch), "--policy", str(bundle), "--format", "json",
                "--disable", "core", "--enable", "deps", *where])
    out = capsys.readouterr()
    assert got == code, out.err
    if code != 2:
        decision = json.loads(out.out)
        assert [r["rule"] for r in decision["reasons"]] == (["deps.unversioned"] if code == 3 else []), decision
        [change] = decision["dependencies"]["changes"]
        assert change["unversioned"] is True, change


@pytest.mark.parametrize("tree", [False, True], ids=["patch", "tree"])
def test_an_advisory_on_the_new_version_is_denied(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                  tree: bool) -> None:
    osv = tmp_path / "osv" / "PyPI"
    osv.mkdir(parents=True)
    (osv / "GHSA-gk00-test-0001.json").write_text(json.dumps(ADVISORY))
    case = Case(tmp_path, {"requirements.txt": "requests==2.31.0\n"}, {"requirements.txt": "requests==2.32.0\n"})
    decision = gate(capsys, case, tree, "--advisories", str(tmp_path / "osv"))
    assert decision["outcome"] == "deny"
    assert [r["rule"] for r in decision["reasons"]] == ["deps.vulnerable"]
    assert "GHSA-gk00-test-0001" in decision["reasons"][0]["msg"]
    assert decision["dependencies"]["changes"][0]["vulnerabilities"] == ["GHSA-gk00-test-0001"]
    # Without the advisories the same bump (minor) queues normally.
    assert gate(capsys, case, tree)["outcome"] == "allow"


def test_a_bad_advisories_folder_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    osv = tmp_path / "osv"
    osv.mkdir()
    (osv / "bad.json").write_text("{not json")
    case = Case(tmp_path, {"requirements.txt": "a==1\n"}, {"requirements.txt": "a==1.0.1\n"})
    capsys.readouterr()
    code = main(["gate", str(case.packet), "--patch", str(case.patch), "--policy", str(POLICY_DIR),
                 "--advisories", str(osv)])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err and "bad.json" in err


def test_facts_sit_beside_their_files_and_the_input_fits_its_schema(tmp_path: Path) -> None:
    wf = ("on:\n  pull_request_target:\npermissions:\n  contents: write\njobs:\n  t:\n    runs-on: x\n"
          "    steps:\n      - uses: actions/checkout@v4\n")
    case = Case(tmp_path, {"requirements.txt": "a==1\n"},
                {".github/workflows/new.yml": wf, "Dockerfile": "FROM python:3.13\n",
                 "requirements.txt": "-i https://127.0.0.1:9/simple\na==1\n"})
    derived = derive(case.patch, load_bundle(POLICY_DIR).rules)
    doc = build_input(json.loads(case.packet.read_text()), derived, [])
    validate_input(doc, "input")
    facts = {f["path"]: f.get("facts") for f in doc["files"]}
    assert facts["README.md"] is None if "README.md" in facts else True
    assert facts[".github/workflows/new.yml"]["risky_triggers_added"] == ["pull_request_target"]
    assert facts[".github/workflows/new.yml"]["permissions_added"] == ["contents:write"]
    assert facts[".github/workflows/new.yml"]["unpinned_actions"] == 1
    assert facts["Dockerfile"]["images_added"] == [{"name": "python", "tag": "3.13", "digest": ""}]
    assert facts["requirements.txt"]["registries_added"] == ["https://127.0.0.1:9/simple"]
    names = {(c["ecosystem"], c["name"]) for c in doc["dependencies"]["changes"]}
    assert names == {("github-actions", "actions/checkout"), ("docker", "python")}


def test_text_and_markdown_reports_show_the_dependency_table(capsys: pytest.CaptureFixture[str],
                                                             tmp_path: Path) -> None:
    evil = "left\u202epad"  # a bidi override would reorder the row a reviewer reads
    manifest = json.dumps({"name": "app", "dependencies": {evil: "1.0.0"}}, ensure_ascii=False)  # added: shown whole
    case = Case(tmp_path, {"requirements.txt": "requests==2.31.0\n"},
                {"requirements.txt": "requests==2.32.0\n", "web/package.json": manifest})
    for fmt in ("text", "markdown"):
        capsys.readouterr()
        main(["gate", str(case.packet), "--patch", str(case.patch), "--policy", str(POLICY_DIR), "--format", fmt,
              "--enable", "deps"])
        out = capsys.readouterr().out
        assert "\u202e" not in out and "\\u202e" in out
        assert "2.31.0" in out and "2.32.0" in out and "upgraded" in out and "added" in out
        assert ("| change | ecosystem | name |" in out) == (fmt == "markdown")


def _patches() -> list[Path]:
    return sorted((POLICY_DIR.parent / "fixtures").glob("*/patch.diff"))


@each_case("patch", _patches(), ids=lambda p: p.parent.name)
def test_the_gates_shortcuts_give_the_full_parses_delta(patch: Path) -> None:
    """The gate skips non-candidate sections (and patches with none): the delta must be the same."""
    from gatekeeper.deps.patchscan import may_hold_dependencies
    from gatekeeper.deps.sources import patch_delta
    from gatekeeper.errors import GatekeeperError

    try:
        full = patch_delta(patch)
    except GatekeeperError:
        return  # a malformed fixture: the gate's own parse refuses it first
    assert patch_delta(patch, parse_all=False) == full
    if not may_hold_dependencies(patch):
        assert full.changes == () and full.problems == () and full.facts == ()


def test_a_gitlink_of_any_name_among_many_source_files_is_still_seen(tmp_path: Path) -> None:
    from gatekeeper.deps.patchscan import may_hold_dependencies
    from gatekeeper.deps.sources import patch_delta

    repo = GitRepo(tmp_path / "repo")
    repo.write("README.md", "x\n")
    repo.commit()
    for i in range(300):
        repo.write(f"src/m{i}.py", f"x = {i}\n")
    repo.write("Sub/REQUIREMENTS-Dev.TXT", "flask==3.0.0\n")
    repo.git("add", "-A")
    repo.git("update-index", "--add", "--cacheinfo", f"160000,{'3' * 40},lib/thing")
    patch = tmp_path / "p.diff"
    patch.write_bytes(repo.git("diff", "--cached", "--binary"))
    assert may_hold_dependencies(patch)
    delta = patch_delta(patch, parse_all=False)
    assert delta == patch_delta(patch)
    assert {c.name for c in delta.changes} >= {"lib/thing"}
