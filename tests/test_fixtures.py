"""Fixture cases: expect.yaml parsing, discovery, judging decisions, and byte-identical regeneration."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from shipped import shipped_only
from tables import each_case

from gatekeeper.cli import main
from gatekeeper.errors import FixtureError, PacketError
from gatekeeper.model import Decision
from gatekeeper.testing import suite
from gatekeeper.testing.expect import ExpectedFinding, PolicySet, load_expectation
from gatekeeper.testing.fixtures import discover_cases, judge

REPO_ROOT = Path(__file__).resolve().parent.parent
FIXTURES = REPO_ROOT / "fixtures"
POLICY_DIR = REPO_ROOT / "policies"


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_expectation_reads_sets_findings_and_packet_options(tmp_path: Path) -> None:
    expect = load_expectation(write(tmp_path / "expect.yaml", """\
description: a workflow edit
packet: {model_requested: m1, model_reported: m2}
default:
  outcome: review
  findings:
    - {policy: core, rule: core.ci, paths: [.github/workflows/ci.yml]}
deps: {enable: [deps], outcome: deny}
"""))
    assert expect.description == "a workflow edit"
    assert expect.packet_options == {"model_requested": "m1", "model_reported": "m2"}
    assert [(s.name, s.outcome, s.enable) for s in expect.sets] == [
        ("default", "review", ()),
        ("deps", "deny", ("deps",)),
    ]
    assert expect.sets[0].findings[0] == ExpectedFinding("core", "core.ci", paths=(".github/workflows/ci.yml",), line=6)


@each_case(("text", "line", "needle"), [
        ("default:\n  outcome: revew\n", 2, "unknown outcome"),
        ("default: {outcome: [}\n", 1, "not valid YAML"),
        ("default:\n  findings: []\n", 2, "has no outcome"),
        ("default:\n  outcome: review\n  findings:\n    - {rule: core.ci}\n", 4, "without `policy`"),
        ("default:\n  outcome: review\n  colour: red\n", 3, "unknown key 'colour'"),
        ("description: only words\n", 1, "no policy set"),
        ("packet: {model: x}\ndefault: {outcome: allow}\n", 1, "unknown option 'model'"),
        ("default: {outcome: allow, findings: [{policy: core, level: review}]}\n", 1, "cannot expect deny/review"),
        ("- a list\n", 1, "must be a mapping"),
    ])
def test_malformed_expectation_names_file_and_line(tmp_path: Path, text: str, line: int, needle: str) -> None:
    path = write(tmp_path / "expect.yaml", text)
    with pytest.raises(FixtureError) as caught:
        load_expectation(path)
    assert caught.value.where == f"{path}:{line}"
    assert needle in str(caught.value)


def test_discovery_finds_nested_cases_and_refuses_half_cases(tmp_path: Path) -> None:
    write(tmp_path / "group" / "one" / "patch.diff", "")
    write(tmp_path / "group" / "one" / "expect.yaml", "default: {outcome: allow}\n")
    write(tmp_path / "two" / "patch.diff", "")
    write(tmp_path / "two" / "expect.yaml", "default: {outcome: allow}\n")
    write(tmp_path / ".hidden" / "patch.diff", "")
    assert [c.name for c in discover_cases(tmp_path)] == ["group/one", "two"]
    write(tmp_path / "three" / "patch.diff", "")
    with pytest.raises(FixtureError, match="no expect.yaml"):
        discover_cases(tmp_path)


def test_discovery_refuses_a_missing_or_empty_folder(tmp_path: Path) -> None:
    with pytest.raises(FixtureError, match="not found"):
        discover_cases(tmp_path / "nope")
    with pytest.raises(FixtureError, match="no fixture cases"):
        discover_cases(tmp_path)


def _set(outcome: str, *findings: ExpectedFinding, error: str | None = None) -> PolicySet:
    return PolicySet("default", 1, (), (), outcome, findings, error)


CI = {"policy": "core", "rule": "core.ci", "level": "review", "msg": "ci", "bucket": "ci", "paths": ["a.yml", "b.yml"]}
WARN = {"policy": "size", "rule": "size.note", "level": "warn", "msg": "big"}


def decided(outcome: str, *reasons: dict) -> Decision:
    return Decision.from_dict({"outcome": outcome, "reasons": list(reasons)})


def test_judge_passes_on_outcome_and_subset_of_paths() -> None:
    status, message, asserted = judge(_set("review", ExpectedFinding("core", "core.ci", paths=("a.yml",))),
                                      decided("review", CI, WARN))
    assert (status, message, asserted) == ("pass", "", ("core.ci",))


@each_case(
    ("expected", "decision", "needle"),
    [
        (_set("review", ExpectedFinding("core", "core.ci")), decided("allow"), "outcome allow"),
        (_set("review", ExpectedFinding("core", "core.ci", paths=("c.yml",))), decided("review", CI),
         "missing finding"),
        (_set("review"), decided("review", CI), "unexpected review finding core/core.ci"),
        (_set("error", error="sha256"), PacketError("bad schema"), "does not mention"),
    ],
)
def test_judge_fails_with_a_reason(expected: PolicySet, decision: object, needle: str) -> None:
    status, message, _ = judge(expected, decision)  # type: ignore[arg-type]
    assert status == "fail"
    assert needle in message


def test_judge_an_unexpected_gate_error_is_an_error_not_a_pass() -> None:
    status, message, _ = judge(_set("allow"), PacketError("truncated", where="packet.json"))
    assert status == "error" and "could not decide" in message
    assert judge(_set("error", error="truncated"), PacketError("truncated"))[0] == "pass"


@shipped_only
def test_every_case_in_make_fixtures_has_a_folder_and_vice_versa() -> None:
    listed = subprocess.run([sys.executable, str(FIXTURES / "make_fixtures.py"), "--list"],
                            capture_output=True, text=True, check=True).stdout.split()
    folders = sorted(c.name for c in discover_cases(FIXTURES))
    assert sorted(listed) == folders


@shipped_only
def test_regeneration_is_byte_identical(tmp_path: Path) -> None:
    """`make_fixtures.py` rebuilds every patch with real git, byte for byte, and its packets deterministically.

    Shipped packets hold the classifier's rules digest, so a rules change makes them differ from a fresh
    build until someone reruns the script; what must never happen is two builds disagreeing.

    Every case is built once, here; the cases with a packet are built a second time in a process of their own
    (another interpreter: another hash seed, another set order) and the two compared byte for byte. A patch
    equal to the shipped one, which an earlier build wrote, is already two builds agreeing: building every patch
    a second time as well cost ~2 CPU-seconds and could only fail where the comparison with the shipped file does.
    """
    first, second = tmp_path / "first", tmp_path / "second"
    with_packet = sorted(p.parent.name for p in FIXTURES.glob("*/packet.json"))
    assert with_packet  # the cases whose packets the second build must reproduce
    # The second build runs beside the first (most of each is waiting on git processes).
    other = subprocess.Popen([sys.executable, str(FIXTURES / "make_fixtures.py"), "--out", str(second), *with_packet],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        assert make_fixtures().main(["--out", str(first)]) == 0
    finally:
        _, err = other.communicate(timeout=300)
    assert other.returncode == 0, err.decode(errors="replace")
    generated = sorted(p.relative_to(first) for p in first.rglob("*") if p.is_file())
    shipped = sorted(p.relative_to(FIXTURES) for p in FIXTURES.rglob("*") if p.name in ("patch.diff", "packet.json"))
    assert shipped == generated
    again = sorted(p.relative_to(second) for p in second.rglob("*") if p.is_file())
    assert again == [p for p in generated if p.parts[0] in with_packet]
    for relative in generated:
        if relative.parts[0] in with_packet:
            same = (first / relative).read_bytes() == (second / relative).read_bytes()
            assert same, f"{relative} is not deterministic"
        if relative.name == "patch.diff":
            assert (first / relative).read_bytes() == (FIXTURES / relative).read_bytes(), f"{relative} differs"


def make_fixtures() -> ModuleType:
    """fixtures/make_fixtures.py as a module (it is a script, not part of the package)."""
    spec = importlib.util.spec_from_file_location("make_fixtures", FIXTURES / "make_fixtures.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# --- the runner through the CLI: a passing case, a failing case, a malformed one ------------------


# `--run` with this pattern keeps every fixture case (`<case>[<set>]`) and no Rego unit test (plain names): these
# tests are about how cases are judged and reported; a selection also enforces no coverage floor.
EVERY_CASE = ("--run", r"\[")


def test_runner_passes_a_good_case_and_fails_a_wrong_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fixtures = tmp_path / "fixtures"
    shutil.copytree(FIXTURES / "k8sclient-go", fixtures / "good")
    shutil.copytree(FIXTURES / "k8sclient-go", fixtures / "wrong")
    (fixtures / "wrong" / "expect.yaml").write_text("default:\n  outcome: review\n")
    # Beside a set that decides, one that switches every default policy off: `gate` refuses that (no policy to
    # ask), and so must its set, though the run decides the case once with the policies of every set it runs.
    defaults = [name for name, on in json.loads((POLICY_DIR / ".manifest").read_text())["metadata"]["policies"].items()
                if on["default"]]
    shutil.copytree(FIXTURES / "k8sclient-go", fixtures / "off")
    (fixtures / "off" / "expect.yaml").write_text(
        f"default: {{outcome: allow}}\nnone: {{disable: [{', '.join(defaults)}], outcome: error, "
        "error: no policy is enabled}\n")
    code = main(
        ["test", "--policy", str(POLICY_DIR), "--fixtures", str(fixtures), "--format", "json", *EVERY_CASE]
    )
    report = json.loads(capsys.readouterr().out)
    statuses = {r["name"]: r["status"] for r in report["results"] if r["suite"] == "fixtures"}
    assert statuses == {"good[default]": "pass", "good[deps]": "pass", "good[guardrails]": "pass", "good[size]": "pass",
                        "wrong[default]": "fail", "off[default]": "pass", "off[none]": "pass"}
    assert code == 1
    shutil.rmtree(fixtures / "wrong")
    assert main(["test", "--policy", str(POLICY_DIR), "--fixtures", str(fixtures), *EVERY_CASE]) == 0


def test_text_report_names_the_failing_case_file_and_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fixtures = tmp_path / "fixtures"
    shutil.copytree(FIXTURES / "k8sclient-go", fixtures / "k8sclient-go")
    expect = fixtures / "k8sclient-go" / "expect.yaml"
    expect.write_text("default:\n  outcome: review\n")
    code = main(["test", "--policy", str(POLICY_DIR), "--fixtures", str(fixtures), *EVERY_CASE])
    out = capsys.readouterr().out
    assert code == 1
    assert "FAIL  fixtures/k8sclient-go/expect.yaml:1 k8sclient-go[default]: outcome allow, expected review" in out
    assert out.rstrip().splitlines()[-1].startswith("FAIL:")


def test_malformed_expectation_is_exit_2_with_file_and_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fixtures = tmp_path / "fixtures"
    shutil.copytree(FIXTURES / "k8sclient-go", fixtures / "k8sclient-go")
    (fixtures / "k8sclient-go" / "expect.yaml").write_text(
        "default:\n  outcome: allow\n  findings: [{policy: core, level: loud}]\n"
    )
    code = main(["test", "--policy", str(POLICY_DIR), "--fixtures", str(fixtures)])
    captured = capsys.readouterr()
    assert code == 2
    assert f"{fixtures / 'k8sclient-go' / 'expect.yaml'}:3: unknown level 'loud'" in captured.err
    assert captured.out == ""


def test_unknown_policy_in_a_set_is_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    fixtures = tmp_path / "fixtures"
    shutil.copytree(FIXTURES / "k8sclient-go", fixtures / "k8sclient-go")
    (fixtures / "k8sclient-go" / "expect.yaml").write_text("x:\n  enable: [nope]\n  outcome: allow\n")

    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("a bad fixture is exit 2 before any engine runs")

    monkeypatch.setattr(suite, "ReferenceRun", never)
    monkeypatch.setattr(suite, "run_test_files", never)
    assert main(["test", "--policy", str(POLICY_DIR), "--fixtures", str(fixtures)]) == 2
    assert "unknown policy 'nope'" in capsys.readouterr().err




def test_packet_option_of_the_wrong_type_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path / "expect.yaml", "packet:\n  sandbox: open\ndefault: {outcome: allow}\n")
    with pytest.raises(FixtureError, match="sandbox must be a mapping") as caught:
        load_expectation(path)
    assert caught.value.where == f"{path}:2"
