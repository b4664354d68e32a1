"""The Rego engine wrapper: results through a binding, located errors, and crash/hang containment."""

from __future__ import annotations

import ctypes
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from forkcli import fork_cli
from incli import run_cli

from gatekeeper.errors import PacketError, PatchError, PolicyError
from gatekeeper.policy import engine, forkserver
from gatekeeper.policy.isolate import EngineCrashed, EngineTimedOut, run_isolated
from gatekeeper.policy.rego_errors import diagnostics, line_col

REPO = Path(__file__).resolve().parent.parent
HEAD = "package p\n\nimport rego.v1\n\n"


def evaluate_one(modules: dict[str, str], input: dict, query: str, *, timeout: float) -> object:
    """The value of `query` over one input; its PolicyError raised."""
    (value,) = engine.start_evaluating(modules, {}, [input], query, timeout=timeout).result()
    if isinstance(value, PolicyError):
        raise value
    return value


def evaluate(source: str, query: str, input: dict | None = None, *, timeout: float = 5.0) -> object:
    return evaluate_one({"pol/p.rego": HEAD + source}, input or {}, query, timeout=timeout)


def test_values_come_back_through_a_binding_false_included() -> None:
    assert evaluate("a := false\nb := {\"k\": [1, 2.5, null, true]}\n", "data.p.a") is False
    assert evaluate("b := {\"k\": [1, 2.5, null, true]}\n", "data.p.b") == {"k": [1, 2.5, None, True]}
    assert evaluate("s contains x if { some x in input.xs }\n", "data.p.s", {"xs": [3, 1]}) == [1, 3]
    assert evaluate("a := 1\n", "data.p.missing") is engine.UNDEFINED


def test_strings_regopy_mangles_survive_the_round_trip() -> None:
    awkward = ['a"b', "back\\slash", "new\nline", "tab\t", "caf\u00e9", "latin1-\udce9.yml", "nul\x00byte"]
    got = evaluate("v := input.xs\nm := [sprintf(\"<%s>\", [x]) | some x in input.xs]\n", "data.p.v", {"xs": awkward})
    assert got == awkward
    messages = evaluate("m := [sprintf(\"<%s>\", [x]) | some x in input.xs]\n", "data.p.m", {"xs": awkward})
    assert isinstance(messages, list) and len(messages) == len(awkward)  # readable, never a JSON error


def test_numbers_the_engine_would_wrap_are_refused() -> None:
    with pytest.raises(PolicyError, match="out of the engine's range"):
        evaluate("a := input.n\n", "data.p.a", {"n": 2**70})


def test_compile_error_names_file_line_and_column() -> None:
    with pytest.raises(PolicyError) as caught:
        evaluate("x := 1 if {\n  y = \n}\n", "data.p.x")
    assert caught.value.where == "pol/p.rego:6:5"
    assert "does not compile" in caught.value.what


def test_unknown_builtin_is_located_at_its_call() -> None:
    with pytest.raises(PolicyError) as caught:
        evaluate("ok := 1\nx := foo.bar(1)\n", "data.p.x")
    assert caught.value.where == "pol/p.rego:6:6"
    assert "foo.bar" in caught.value.what


def test_re2_regex_syntax_is_an_error_with_the_dialect_hint() -> None:
    with pytest.raises(PolicyError) as caught:
        evaluate('x if { regex.match("(?i)abc", "ABC") }\n', "data.p.x")
    assert (caught.value.where or "").startswith("pol/p.rego:5:")
    assert "std::regex" in (caught.value.hint or "")


def test_builtin_errors_are_strict_not_undefined() -> None:
    with pytest.raises(PolicyError, match="evaluation failed"):
        evaluate('x := to_number("not a number")\n', "data.p.x")


def test_diagnostics_parse_length_prefixed_strings_and_spans() -> None:
    found = diagnostics("(rego-errorseq (error 10:dir/p.rego|43|1 (errormsg 14:a (tricky) msg) (rego-errorcode 3:x)))")
    assert found[0].message == "a (tricky) msg"
    span = found[0].span
    assert span is not None and (span.name, span.offset) == ("dir/p.rego", 43)
    assert line_col("é\nab", 4) == (2, 2)  # byte offsets, multibyte characters counted once


def test_run_isolated_returns_reraises_and_contains_crashes() -> None:
    assert run_isolated(sum, [1, 2, 3], timeout=5) == 6
    with pytest.raises(PacketError) as caught:
        run_isolated(_raise_packet_error, timeout=5)
    assert (caught.value.where, caught.value.hint) == ("p.json", "fix it")
    with pytest.raises(PolicyError, match="ZeroDivisionError"):
        run_isolated(_divide, 1, 0, timeout=5)
    with pytest.raises(EngineCrashed) as crashed:
        run_isolated(ctypes.string_at, 0, timeout=5)  # a real segfault in the child
    assert crashed.value.signal_number == signal.SIGSEGV
    assert "SIGSEGV" in str(crashed.value)


def _raise_packet_error() -> None:
    raise PacketError("bad", where="p.json", hint="fix it")


def _divide(a: int, b: int) -> float:
    return a / b


def test_a_module_that_crashes_the_engine_is_an_error_not_a_dead_process() -> None:
    crashing = "n := count(input.files)\ntest_x if { n == 2 with input as {\"files\": [1, 2]} }\n"
    with pytest.raises(EngineCrashed):
        evaluate(crashing, "data.p.n", {"files": []})
    assert evaluate("a := 1\n", "data.p.a") == 1  # the parent is fine


def test_a_catastrophic_regex_is_killed_at_the_time_limit() -> None:
    started = time.monotonic()
    with pytest.raises(EngineTimedOut, match="ran past 0.3 s"):
        evaluate(
            'x if { regex.match("^(a+)+$", concat("", [input.s, "b"])) }\n', "data.p.x", {"s": "a" * 40}, timeout=0.3
        )
    assert time.monotonic() - started < 10  # the regex alone runs for hours; the margin is for a loaded machine


def test_rego_tests_pass_fail_error_and_crash_per_test() -> None:
    module = (
        HEAD
        + 'test_ok if { 1 == 1 }\ntest_no if { 1 == 2 }\ntest_false := false\ntest_err if { to_number("x") == 1 }\n'
    )
    outcomes = {
        o.name: o
        for o in engine.run_tests(
            {"t.rego": module}, {}, "p", ["test_ok", "test_no", "test_false", "test_err"], timeout=5
        )
    }
    assert outcomes["test_ok"].status == "pass"
    assert outcomes["test_no"].status == "fail"
    assert outcomes["test_false"].status == "fail" and "false" in outcomes["test_false"].message
    assert outcomes["test_err"].status == "error" and outcomes["test_err"].where == "t.rego:8:25"
    assert not any(o.died for o in outcomes.values())  # an evaluation error is not a dead engine


def test_a_hanging_rego_test_is_pinned_on_that_test() -> None:
    module = (
        HEAD
        + 'test_ok if { 1 == 1 }\ntest_hang if { regex.match("^(a+)+$", "' + "a" * 40 + 'b") }\n'
    )
    outcomes = {o.name: o for o in engine.run_tests({"t.rego": module}, {}, "p", ["test_ok", "test_hang"], timeout=1)}
    assert outcomes["test_ok"].status == "pass"
    assert outcomes["test_hang"].status == "error" and "ran past 1 s" in outcomes["test_hang"].message
    assert outcomes["test_hang"].died and not outcomes["test_ok"].died


def test_evaluating_many_inputs_builds_once_and_keeps_each_inputs_error_in_its_place() -> None:
    modules = {"pol/p.rego": HEAD + 'v := to_number(input.n) + 1\n'}
    inputs = [{"n": "1"}, {"n": "x"}, {"m": 1}, {"n": "2"}]
    got = engine.start_evaluating(modules, {}, inputs, "data.p.v", timeout=10).result()
    assert got[0] == 2 and got[3] == 3 and got[2] is engine.UNDEFINED
    with pytest.raises(PolicyError) as alone:
        evaluate_one(modules, {"n": "x"}, "data.p.v", timeout=10)
    assert isinstance(got[1], PolicyError) and "evaluation failed" in got[1].what
    assert (got[1].what, got[1].where, got[1].hint) == (alone.value.what, alone.value.where, alone.value.hint)
    with pytest.raises(PolicyError, match="does not compile"):
        engine.start_evaluating({"pol/p.rego": HEAD + "v := \n"}, {}, [{}], "data.p.v", timeout=10).result()


def test_a_child_on_the_parents_bundle_answers_exactly_as_one_that_built_its_own(
        fork_path: forkserver.Server | None) -> None:
    # engine._BUILT holds the bundle the parent (or the fork server, `fork_path`) built on a key's second use, after
    # a child built it and answered; later children evaluate on the parent's copy. Values, mangled strings, data
    # strings through sprintf (a bundle regopy saved and loaded again quotes those), false, undefined and a builtin
    # error must come back the same either way, and other data is another bundle.
    awkward = ['a"b', "back\\slash", "new\nline", "caf\u00e9", "latin1-\udce9.yml", "nul\x00byte"]
    modules = {"pol/p.rego": HEAD + 'v := {"xs": input.xs, "m": [sprintf("<%s>", [x]) | some x in input.xs], '
               '"d": data.cfg.level, "s": sprintf("(%s)", [data.cfg.level]), "f": false, "n": to_number(input.n)}\n'}
    data = {"cfg": {"level": "review"}}
    inputs = [{"xs": awkward, "n": "1"}, {"xs": [], "n": "x"}, {"n": "2"}]
    engine._BUILT.clear()  # the server's is new (fork_path)

    def held() -> list[str]:
        return engine.held_keys() if fork_path is None else fork_path.call(engine.held_keys)

    engine._ANSWERED.clear()
    built = engine.start_evaluating(modules, data, inputs, "data.p.v", timeout=10).result()
    assert not held()  # a key's first use builds in the child only: a one-gate process never builds twice
    runs = [engine.start_evaluating(modules, data, inputs, "data.p.v", timeout=10).result() for _ in range(3)]
    (key,) = held()  # the parent built it once, for the second use and every later one
    assert built[0]["s"] == "(review)"
    for got in (built, *runs):
        assert {k: v for k, v in got[0].items() if k != "m"} == {"xs": awkward, "d": "review", "s": "(review)",
                                                                "f": False, "n": 1}
        assert got[0] == built[0]
        assert isinstance(got[1], PolicyError) and "evaluation failed" in got[1].what
        assert (built[1].what, built[1].where, built[1].hint) == (got[1].what, got[1].where, got[1].hint)
        assert got[2] is engine.UNDEFINED
    for _ in range(2):
        (other,) = engine.start_evaluating(modules, {"cfg": {"level": "deny"}}, inputs[:1], "data.p.v",
                                           timeout=10).result()
        assert (other["d"], other["s"]) == ("deny", "(deny)")
    assert len(held()) == 2 and key in held()
    broken = {"pol/p.rego": HEAD + "v := \n"}
    for _ in range(2):  # a bundle no child built is never built in the parent
        with pytest.raises(PolicyError, match="does not compile"):
            engine.start_evaluating(broken, {}, [{}], "data.p.v", timeout=10).result()
    assert len(held()) == 2


def test_children_that_answered_are_reaped_without_waiting_for_their_exit() -> None:
    from gatekeeper.policy import isolate

    pids = [run_isolated(os.getpid, timeout=5) for _ in range(4)]
    _until(lambda: all(_exited(pid) for pid in pids))  # exited, not reaped: zombies until the next fork
    assert run_isolated(os.getpid, timeout=5) not in pids  # this fork reaped the ones that had exited
    _until(lambda: all(_exited(pid) for pid in isolate._EXITING))
    isolate._reap_exited()
    assert isolate._EXITING == []
    assert not any(Path(f"/proc/{pid}").exists() for pid in pids)  # no zombies left behind


def _exited(pid: int) -> bool:
    """Whether a child has finished (a zombie, or reaped already)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] in ("Z", "X")
    except OSError:
        return True


def _until(predicate, timeout: float = 10.0) -> None:  # type: ignore[no-untyped-def]
    until = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < until, "condition not reached in time"
        time.sleep(0.01)


# --- through the CLI: exit 2 with one clear line, nothing from the C library on stdout ---------


def _bundle_with(tmp_path: Path, name: str, source: str) -> Path:
    bundle = tmp_path / "bundle"
    shutil.copytree(REPO / "policies", bundle)
    (bundle / "core" / "policy.rego").write_text((REPO / "policies" / "core" / "policy.rego").read_text() + source)
    return bundle


def _gate(tmp_path: Path, bundle: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    """The gate as a cold process: what the C library writes to fd 1 shows only there (a forked one ends with
    os._exit, which leaves the C library's buffered output unwritten)."""
    patch = _patch_and_packet(tmp_path)
    return subprocess.run([sys.executable, "-m", "gatekeeper", "gate", str(tmp_path / "p.json"), "--patch", str(patch),
                           "--policy", str(bundle), *extra], capture_output=True, text=True, timeout=60)


def _gate_in(tmp_path: Path, bundle: Path) -> subprocess.CompletedProcess[str]:
    """The gate in-process, for refusals decided in Python (the exit code and the one line are the subject)."""
    patch = _patch_and_packet(tmp_path)
    done = run_cli(["gate", tmp_path / "p.json", "--patch", patch, "--policy", bundle], text=True)
    return done  # type: ignore[return-value]


def _patch_and_packet(tmp_path: Path) -> Path:
    """A one-file change and its packet (p.json beside it), made once per test."""
    patch = tmp_path / "p.diff"
    if not patch.exists():
        repo = tmp_path / "repo"
        repo.mkdir()
        env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e.invalid", "GIT_COMMITTER_NAME": "t",
               "GIT_COMMITTER_EMAIL": "t@e.invalid", "HOME": str(tmp_path)}
        for args in (["init", "-q", "-b", "main"], ["commit", "-q", "--allow-empty", "-m", "base"]):
            subprocess.run(["git", *args], cwd=repo, env=env, check=True)
        (repo / "main.go").write_text("package main\n")
        subprocess.run(["git", "add", "-A"], cwd=repo, env=env, check=True)
        patch.write_bytes(subprocess.run(["git", "diff", "--cached", "--binary"], cwd=repo, env=env, check=True,
                                         capture_output=True).stdout)
        made = run_cli(["packet", patch, "--out", tmp_path / "p.json", "--policy", REPO / "policies"])  # setup
        assert made.returncode == 0, made.stderr
    return patch


def test_cli_engine_crash_is_exit_2_naming_the_policy_file(tmp_path: Path) -> None:
    # `_boom`: a rule no module reads must be private (`_`), else the field check refuses it first (red team 21)
    crash = "\nn := count(input.files)\n\n_boom if { n == 2 with input as {\"files\": [1, 2]} }\n"
    done = _gate(tmp_path, _bundle_with(tmp_path, "core", crash))
    assert done.returncode == 2
    assert "the Rego engine crashed evaluating" in done.stderr and "core/policy.rego" in done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""


def test_cli_hang_is_exit_2_after_the_timeout(tmp_path: Path) -> None:
    hang = (
        '\nreview contains {"rule": "core.ci", "msg": "x"} if '
        '{ regex.match("^(a+)+$", "' + "a" * 40 + 'b") }\n'
    )
    bundle = _bundle_with(tmp_path, "core", hang)
    _patch_and_packet(tmp_path)  # not timed: only the gate is
    # A process of its own, forked from this one (tests/forkcli.py): the subject is the gate's time limit on its
    # engine child, not the interpreter's start (~0.35 CPU-s a cold one); were the limit broken, the wait's own
    # limit would stop it, not this test's worker.
    started = time.monotonic()
    done = fork_cli(["gate", str(tmp_path / "p.json"), "--patch", str(tmp_path / "p.diff"), "--policy", str(bundle),
                     "--timeout", "0.5"], tmp_path / "forked").wait(timeout=60)
    assert done.returncode == 2
    assert "policy evaluation ran past 0.5 s" in done.stderr
    assert time.monotonic() - started < 30  # the regex alone runs for hours


def test_cli_compile_error_is_exit_2_with_file_and_line(tmp_path: Path) -> None:
    bundle = _bundle_with(tmp_path, "core", "\nbroken := 1 if {\n  y = \n}\n")
    lines = (bundle / "core" / "policy.rego").read_text().splitlines()
    done = _gate(tmp_path, bundle)
    assert done.returncode == 2
    assert f"core/policy.rego:{len(lines) - 1}:" in done.stderr
    assert done.stdout == ""  # the C library's own error print never reaches our stdout


def test_cli_finding_without_msg_is_exit_2_naming_the_policy(tmp_path: Path) -> None:
    bad = '\nreview contains {"rule": "core.ci"} if { true }\n'
    done = _gate_in(tmp_path, _bundle_with(tmp_path, "core", bad))
    assert done.returncode == 2
    assert "has no `msg`" in done.stderr and "core/policy.rego" in done.stderr


def test_cli_undeclared_rule_id_is_exit_2(tmp_path: Path) -> None:
    bad = '\nreview contains {"rule": "core.surprise", "msg": "m"} if { true }\n'
    done = _gate_in(tmp_path, _bundle_with(tmp_path, "core", bad))
    assert done.returncode == 2 and "core.surprise" in done.stderr and "custom.rules" in done.stderr


def test_cli_unsupported_builtin_is_exit_2_naming_the_policy(tmp_path: Path) -> None:
    bad = '\nreview contains {"rule": "core.ci", "msg": "m"} if { crypto.x509.parse_certificates("x") }\n'
    done = _gate_in(tmp_path, _bundle_with(tmp_path, "core", bad))
    assert done.returncode == 2
    assert "core/policy.rego" in done.stderr and "Traceback" not in done.stderr


def test_the_engine_sees_the_gate_input_exactly_as_built() -> None:
    """Every fixture case's policy input, read back from the engine as `input`, is the Python document
    byte for byte (canonical JSON): the C input builder drops, reorders or retypes nothing (strings the
    engine mangles reach it percent-encoded and come back restored, see rego_values)."""
    from gatekeeper.gate import canonical_json
    from gatekeeper.gate_input import build_input
    from gatekeeper.packet import build_packet, derive
    from gatekeeper.policy.bundle import load_bundle
    from gatekeeper.verify import compare

    rules = load_bundle(REPO / "policies").rules
    inputs = []
    for patch in sorted((REPO / "fixtures").glob("*/patch.diff")):
        try:
            derived = derive(patch, rules)
            packet = build_packet(derived, rules)
        except PatchError:  # the cases of malformed or unsafe patches never reach the engine
            continue
        inputs.append(build_input(packet, derived, compare(packet, derived)))
    # A path the engine would mangle, a number at the edge of int64, and a float ride along.
    inputs[0]["files"][0]["path"] = 'we"ird\\na\tme\udce9'
    inputs[0]["summary"]["additions"] = 2**63 - 1
    inputs[0]["packet"]["ratio"] = 0.25
    assert len(inputs) >= 25
    seen = engine.start_evaluating({"pol/p.rego": HEAD + "v := input\n"}, {}, inputs, "data.p.v", timeout=60).result()
    for built, got in zip(inputs, seen, strict=True):
        assert canonical_json(got) == canonical_json(built)


def _fed_length(receive: object) -> int:
    assert callable(receive)
    return len(receive())


def _stuck(receive: object) -> None:
    time.sleep(60)


def test_a_fed_child_gets_what_the_parent_sends_after_the_fork_even_past_the_pipe_buffer() -> None:
    from gatekeeper.policy.isolate import start_isolated

    job = start_isolated(_fed_length, timeout=10, fed=True)
    job.feed(b"x" * (1 << 20))  # 16 pipe buffers: the rest is written at result(), while the child reads
    with pytest.raises(RuntimeError, match="fed already"):
        job.feed(b"again")
    assert job.result() == 1 << 20
    unfed = start_isolated(_fed_length, timeout=10, fed=True)
    with pytest.raises(PolicyError, match="EOFError: the parent ended its feed"):  # the pipe closed before a feed
        unfed.result()
    started = time.monotonic()
    stuck = start_isolated(_stuck, timeout=0.5, fed=True)
    stuck.feed(b"x" * (1 << 20))  # more than the pipe holds, to a child that never reads it
    with pytest.raises(EngineTimedOut, match="ran past 0.5 s"):
        stuck.result()  # the limit holds while the rest of the feed waits for the child
    cancelled = start_isolated(_fed_length, timeout=10, fed=True)
    cancelled.cancel()  # a gate that fails between the fork and the feed: the waiting child is killed, not awaited
    assert time.monotonic() - started < 8  # 0.5 s, and a loaded machine's margin


def test_an_input_completed_after_the_fork_is_the_engine_input_exactly_as_one_built_whole() -> None:
    """The gate forks the engine child with the files (gate.input_first) and sends `integrity` and `dependencies`
    after (gate.input_rest): the engine sees the same document as when it gets it whole, strings it mangles in
    either part restored, and a rest larger than a pipe's buffer arrives whole."""
    from gatekeeper.gate import canonical_json

    first = {"packet": {"run_id": "r"}, "files": [{"path": f"src/f{i}.go", "additions": i} for i in range(3000)],
             "summary": {"files": 3000}, "attestation": {"verified": False}}
    rest = {"integrity": {"ok": False, "differences": ['we"ird\\n\udce9']},
            "dependencies": {"changes": [{"name": f"p{i}", "to": "1.0.1"} for i in range(5000)], "problems": []}}
    module = {"pol/p.rego": HEAD + "v := input\n"}
    whole = {**first, **rest}
    job = engine.start_evaluating(module, {}, [first], "data.p.v", timeout=60, late=True)
    job.complete([rest])
    (seen,) = job.result()
    (alone,) = engine.start_evaluating(module, {}, [whole], "data.p.v", timeout=60).result()
    assert canonical_json(seen) == canonical_json(whole) == canonical_json(alone)


def test_an_evaluation_started_late_refuses_results_before_its_rest_and_a_key_given_twice() -> None:
    from gatekeeper.policy.bundle import load_bundle
    from gatekeeper.policy.findings import Evaluation

    bundle = load_bundle(REPO / "policies")
    waiting = Evaluation(bundle, ["core"], [{"files": []}], timeout=10, late=True)
    with pytest.raises(RuntimeError, match="before complete"):
        waiting.results()
    with pytest.raises(ValueError, match="keys given twice: \\['files'\\]"):
        waiting.complete([{"files": [], "summary": {}}])
    waiting.complete([{"summary": {}}])  # still waiting: the refused call sent nothing
    assert waiting.results() == [[]]
    whole = Evaluation(bundle, ["core"], [{"files": []}], timeout=10)
    with pytest.raises(RuntimeError, match="without late=True"):
        whole.complete([{}])
    whole.cancel()
