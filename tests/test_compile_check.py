"""The compile check: OPA compiles every module the gate evaluates; a policy mistake never fails open.

Each mistake of issue 19 is a test here (the gate refuses with exit 2 at the right file, line,
column and name), plus generated mutations over every shipped module: a renamed variable and a
misspelt helper must each be caught at their own line.
"""

from __future__ import annotations

import itertools
import json
import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from bundlecopy import bundle_copy, check_bundle, edit, failure
from conftest import POLICY_DIR
from gitrepo import GitRepo, two_commits
from incli import tree_gate

from gatekeeper.cli import main
from gatekeeper.errors import PolicyError
from gatekeeper.policy import compile_check, reference
from gatekeeper.policy.bundle import load_bundle
from gatekeeper.policy.compile_check import CompileFailed, cache_key
from gatekeeper.policy.isolate import start_isolated
from gatekeeper.policy.reference import CompileIssue, compile_issues, parse_errors

ERROR = 2


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A compile cache of this test's own: a cold check every time."""
    folder = tmp_path / "xdg-cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(folder))
    return folder


# --- the mistakes of the issue, each at its place --------------------------------------------------


def test_undefined_variable_is_refused_at_its_line_column_and_name(tmp_path: Path) -> None:
    root = bundle_copy(tmp_path)
    line = edit(root / "size" / "policy.rego", "max_files := lib.param", "max_filez := lib.param")
    error = failure(root)
    (issue,) = [i for i in error.issues if i.name == "max_files"]
    assert issue.file == str(root / "size" / "policy.rego")
    assert issue.code == "rego_unsafe_var_error"
    text = (root / "size" / "policy.rego").read_text().splitlines()
    assert issue.line != line and "max_files" in text[issue.line - 1]  # the use, not the renamed assignment
    assert text[issue.line - 1][issue.column - 1:].startswith("max_files")


def test_helper_typo_is_an_unknown_function_in_its_own_file(tmp_path: Path) -> None:
    root = bundle_copy(tmp_path)
    policy = root / "guardrails" / "policy.rego"
    line = edit(policy, "lib.paths_finding(", "lib.pathz_finding(")
    error = failure(root)
    (issue,) = error.issues
    assert (issue.file, issue.line) == (str(policy), line)
    assert "undefined function data.gatekeeper.lib.pathz_finding" in issue.message
    assert policy.read_text().splitlines()[line - 1][issue.column - 1:].startswith("lib.pathz_finding")
    assert "unknown function" in str(error)
    assert "regopy" not in issue.message


def test_undefined_variable_inside_count_names_the_variable(tmp_path: Path) -> None:
    root = bundle_copy(tmp_path)
    policy = root / "size" / "policy.rego"
    text = policy.read_text()
    assert "count(" in text
    policy.write_text(text + "\nwarn contains lib.finding(\"size.files\", \"x\") if {\n\tcount(filez) > 3\n}\n")
    error = failure(root)
    (issue,) = error.issues
    assert (issue.name, issue.line, issue.column) == ("filez", len(text.splitlines()) + 3, 8)


def test_every_error_is_shown_not_the_first_and_a_count(tmp_path: Path) -> None:
    root = bundle_copy(tmp_path)
    policy = root / "size" / "policy.rego"
    policy.write_text(policy.read_text() + "\nwarn contains 1 if {\n\tcount(filez) > 3\n}\n\n"
                      "deny contains 2 if {\n\tcount(filey) > 3\n}\n")
    error = failure(root)
    assert {i.name for i in error.issues} == {"filez", "filey"}
    assert "filez" in error.what and "filey" in error.what and "more error" not in error.what


def test_review_contain_typo_is_a_parse_error_with_every_message(tmp_path: Path) -> None:
    modules = {"p.rego": "package gatekeeper.policies.p\n\nimport rego.v1\n\nreview contain finding if {\n\ttrue\n}\n"}
    issues = compile_issues(modules, {}, timeout=20)
    assert issues and all(i.file == "p.rego" and i.line == 5 and i.code == "rego_parse_error" for i in issues)


def test_the_gate_exits_2_naming_file_line_and_variable(tmp_path: Path, git_repo: GitRepo,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    root = bundle_copy(tmp_path)
    manifest = json.loads((root / ".manifest").read_text())
    manifest["metadata"]["policies"]["size"]["default"] = True
    (root / ".manifest").write_text(json.dumps(manifest))
    policy = root / "size" / "policy.rego"
    text = policy.read_text()
    use = re.search(r"> max_files\b", text)
    assert use is not None
    policy.write_text(text[:use.start()] + "> max_addd" + text[use.end():])
    git_repo.write("README.md", "base\n")
    git_repo.commit()
    git_repo.write("src/a.go", "package a\n")
    patch, packet = tmp_path / "c.diff", tmp_path / "p.json"
    git_repo.save_patch(patch)
    assert main(["packet", str(patch), "--out", str(packet), "--policy", str(POLICY_DIR)]) == 0
    capsys.readouterr()
    assert main(["gate", str(packet), "--patch", str(patch), "--policy", str(root)]) == ERROR
    err = capsys.readouterr().err
    line = text[:use.start()].count("\n") + 1
    assert f"{policy}:{line}:" in err and "max_addd" in err and "rego_unsafe_var_error" in err


# --- generated mutations over every shipped module -------------------------------------------------

_ASSIGN = re.compile(r"^\t+([a-z_][a-z0-9_]*) :=", re.M)
_HELPER = re.compile(r"\blib\.([a-z_]+)\(")


def _modules() -> list[Path]:
    return sorted(p for p in POLICY_DIR.rglob("*.rego") if not p.name.endswith("_test.rego"))


def _variable_mutations() -> list[tuple[str, str, int]]:
    """(module, variable, line of its first use after the assignment) for each local assignment."""
    found = []
    for path in _modules():
        text = path.read_text()
        for hit in _ASSIGN.finditer(text):
            name = hit.group(1)
            rest = text[hit.end():]
            use = re.search(rf"(?<![\w.\"]){name}\b", rest)
            if use is None or rest[:use.start()].count("\n}") or name in ("some",):
                continue
            line = text[:hit.end() + use.start()].count("\n") + 1
            found.append((path.relative_to(POLICY_DIR).as_posix(), name, line))
    return found


def _helper_mutations() -> list[tuple[str, str, int]]:
    found = []
    for path in _modules():
        text = path.read_text()
        seen = set()
        for hit in _HELPER.finditer(text):
            if hit.group(1) in seen:
                continue
            seen.add(hit.group(1))
            found.append((path.relative_to(POLICY_DIR).as_posix(), hit.group(1), text[:hit.start()].count("\n") + 1))
    return found


VARIABLES = _variable_mutations()


@pytest.fixture(scope="module")
def shipped_modules() -> dict[str, str]:
    """The shipped bundle's modules as loaded once (each test edits its own copy of the mapping, in memory:
    the subject is what the compile check reports, so no bundle copy on disk is read again per mutation)."""
    modules = load_bundle(POLICY_DIR).modules
    assert all(name.startswith(str(POLICY_DIR)) for name in modules)
    return dict(modules)
HELPERS = _helper_mutations()


def _renamed_variable(modules: dict[str, str], path: str, name: str, line: int) -> None:
    lines = modules[path].split("\n")
    lines[line - 1] = re.sub(rf"(?<![\w.\"]){name}\b", f"{name}_typo", lines[line - 1], count=1)
    modules[path] = "\n".join(lines)


def _misspelt_helper(modules: dict[str, str], path: str, name: str, line: int) -> None:
    lines = modules[path].split("\n")
    lines[line - 1] = lines[line - 1].replace(f"lib.{name}(", f"lib.{name}x(", 1)
    modules[path] = "\n".join(lines)


def _renamed_lib_helper(modules: dict[str, str], path: str, name: str, line: int) -> None:
    modules[path] = re.sub(rf"^{name}\(", f"{name}_old(", modules[path], flags=re.M)


Mutate = Callable[[dict[str, str], str, str, int], None]  # edits a copy of the modules in place
_DATA = {"gatekeeper": {"params": {}}}
_BATCH = 16  # module sets a child compiles; the last test of a batch split between two xdist workers redoes at most one


class Mutations:
    """`compile_issues(mutated modules, _DATA)` of every generated mutation, asked in batches: one forked child
    compiles `_BATCH` module sets, each in an OPA engine of its own (`reference._compile_here`, what
    `compile_issues` runs), so a batch pays one fork and one load of OPA's runtime instead of one per mutation
    (~40 of the ~80 ms of CPU each cost alone). Each set's issues are mapped back as `compile_issues` maps them."""

    def __init__(self, shipped: dict[str, str], mutations: list[tuple[Mutate, str, str, int]]) -> None:
        self._shipped, self._mutations = shipped, mutations
        self._issues: dict[int, list[CompileIssue]] = {}

    def issues(self, mutate: Mutate, module: str, name: str, line: int) -> list[CompileIssue]:
        index = self._mutations.index((mutate, module, name, line))
        if index not in self._issues:
            start = index - index % _BATCH
            sets = [self._mutated(*mutation) for mutation in self._mutations[start:start + _BATCH]]
            job = start_isolated(_compile_each, [list(modules.values()) for modules in sets], _DATA,
                                 timeout=20 * len(sets))
            for offset, (raw, modules) in enumerate(zip(job.result(), sets, strict=True)):
                self._issues[start + offset] = [reference._issue(item, list(modules), modules) for item in raw]
        return self._issues[index]

    def _mutated(self, mutate: Mutate, module: str, name: str, line: int) -> dict[str, str]:
        modules = dict(self._shipped)
        mutate(modules, str(POLICY_DIR / module), name, line)
        return modules


def _compile_each(sets: list[list[str]], data: dict[str, object]) -> list[list[tuple[int, int, str, str]]]:
    return [reference._compile_here(sources, dict(data)) for sources in sets]


@pytest.fixture(scope="module")
def mutations(shipped_modules: dict[str, str]) -> Mutations:
    return Mutations(shipped_modules, [(_renamed_variable, *m) for m in VARIABLES]
                     + [(_misspelt_helper, *m) for m in HELPERS]
                     + [(_renamed_lib_helper, *m) for m in LIB_DEFINITIONS])


def test_the_mutations_cover_every_shipped_policy() -> None:
    mutated = {module.split("/")[0] for module, _, _ in VARIABLES + HELPERS}
    assert mutated >= {"core", "deps", "guardrails", "provenance", "sandbox", "size"}, mutated


@pytest.mark.parametrize(("module", "name", "line"), VARIABLES, ids=[f"{m}:{n}" for m, n, _ in VARIABLES])
def test_a_renamed_variable_use_is_caught_at_its_line(mutations: Mutations, module: str, name: str,
                                                      line: int) -> None:
    path = str(POLICY_DIR / module)
    issues = mutations.issues(_renamed_variable, module, name, line)
    assert any(i.file == path and i.line == line and i.name == f"{name}_typo" for i in issues), issues


@pytest.mark.parametrize(("module", "name", "line"), HELPERS, ids=[f"{m}:{n}" for m, n, _ in HELPERS])
def test_a_misspelt_helper_is_caught_at_its_line(mutations: Mutations, module: str, name: str, line: int) -> None:
    path = str(POLICY_DIR / module)
    issues = mutations.issues(_misspelt_helper, module, name, line)
    assert any(i.file == path and i.line == line and "undefined function" in i.message for i in issues), issues


# --- the cache -------------------------------------------------------------------------------------


def test_a_pass_is_cached_by_the_bytes_and_a_failure_never(tmp_path: Path, own_cache: Path) -> None:
    root = bundle_copy(tmp_path)
    check_bundle(root)
    cached = list((own_cache / "gatekeeper" / "compile").glob("*.json"))
    assert len(cached) == 1
    edit(root / "size" / "policy.rego", "max_files := lib.param", "max_filez := lib.param")
    failure(root)
    failure(root)  # still refused: the failure was not remembered, and the new bytes have a new key
    assert len(list((own_cache / "gatekeeper" / "compile").glob("*.json"))) == 1


def test_a_cache_entry_for_other_bytes_is_not_trusted(tmp_path: Path, own_cache: Path) -> None:
    root = bundle_copy(tmp_path)
    edit(root / "size" / "policy.rego", "max_files := lib.param", "max_filez := lib.param")
    bundle = load_bundle(root)
    modules = bundle.modules_for(["size"])
    key = cache_key(modules, bundle.data())
    folder = own_cache / "gatekeeper" / "compile"
    folder.mkdir(parents=True)
    (folder / f"{key}.json").write_text(json.dumps({"key": "0" * 64, "compiles": True}))  # a planted entry
    with pytest.raises(CompileFailed):
        compile_check.check(modules, bundle.data(), timeout=20)


def test_keys_differ_for_any_byte_and_for_name_boundaries() -> None:
    assert cache_key({"a": "bc"}, {}) != cache_key({"ab": "c"}, {})
    assert cache_key({"a": "x"}, {}) != cache_key({"a": "x "}, {})
    assert cache_key({"a": "x"}, {"p": 1}) != cache_key({"a": "x"}, {"p": 2})
    assert cache_key({"a": "x"}, {}) != cache_key({"a": "x", "b": "x"}, {})  # a module twice is another check


def test_a_key_is_the_sources_not_where_the_files_lie() -> None:
    # OPA is given the sources alone: the same bundle in another folder is the same check.
    assert cache_key({"/tmp/a/lib/x.rego": "p", "/tmp/a/core/policy.rego": "q"}, {"d": 1}) == cache_key(
        {"/tmp/b/core/policy.rego": "q", "/tmp/b/lib/x.rego": "p"}, {"d": 1})


def test_tree_gates_over_the_same_bundle_from_base_compile_it_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Each --tree gate exports BASE's bundle to a temporary folder of its own; the check that passed for the first
    # gate's copy is the second's (it compiled again on every gate while the key held the folder's paths).
    compiled: list[int] = []
    real = compile_check.start_compile
    monkeypatch.setattr(compile_check, "start_compile",
                        lambda modules, data, **kw: compiled.append(len(modules)) or real(modules, data, **kw))
    bundle = {f"policies/{p.relative_to(POLICY_DIR).as_posix()}": p.read_text(encoding="utf-8")
              for p in POLICY_DIR.rglob("*") if p.is_file() and "__pycache__" not in p.parts}
    decisions = []
    for name in ("one", "two"):
        repo, base, head = two_commits(tmp_path / name, {**bundle, "README.md": "hi\n"},
                                       {".github/workflows/ci.yml": "on: push\njobs: {}\n"})
        code, decision = tree_gate(repo.root, base, head)
        decisions.append((code, decision["outcome"], sorted(r["rule"] for r in decision["reasons"])))
    assert len(compiled) == 1 and compiled[0] > 1
    assert decisions[0] == decisions[1] and decisions[0][1] == "review" and "core.ci" in decisions[0][2]


def test_without_the_reference_engine_the_gate_refuses(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compile_check, "missing_reason", lambda: "the reference Rego engine is not installed")
    with pytest.raises(PolicyError, match="not installed"):
        check_bundle(bundle_copy(tmp_path))


def test_without_the_reference_engine_an_evaluation_refuses_and_leaves_no_engine_child(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The engine child is forked before the compile check starts (the check's work runs beside it): a check that
    # refuses must end the child it came after, as a gate that fails before collecting does.
    from gatekeeper.policy import engine
    from gatekeeper.policy.findings import Evaluation

    started: list[engine.Evaluating] = []
    real = engine.start_evaluating

    def recorded(*args: object, **kwargs: object) -> engine.Evaluating:
        started.append(real(*args, **kwargs))  # type: ignore[arg-type]
        return started[-1]

    monkeypatch.setattr(engine, "start_evaluating", recorded)
    monkeypatch.setattr(compile_check, "missing_reason", lambda: "the reference Rego engine is not installed")
    bundle = load_bundle(POLICY_DIR)
    for late in (False, True):
        with pytest.raises(PolicyError, match="not installed"):
            Evaluation(bundle, ["core"], [{"files": []}], timeout=10, late=late)
    assert len(started) == 2
    for job in started:
        pid = job._job._pid  # type: ignore[attr-defined]
        with pytest.raises(ChildProcessError):  # killed and reaped: no longer this process's child
            os.waitpid(pid, os.WNOHANG)


def test_error_text_parses_every_error_and_drops_duplicates() -> None:
    text = ("bundle activation failed: 2 errors occurred: m0.rego:5: rego_unsafe_var_error: var a is unsafe\n"
            "m1.rego:7: rego_type_error: undefined ref: f.bucket\n\thave: x\nm1.rego:7: rego_type_error: "
            "undefined ref: f.bucket\n\thave: x")
    assert parse_errors(text) == [(0, 5, "rego_unsafe_var_error", "var a is unsafe"),
                                  (1, 7, "rego_type_error", "undefined ref: f.bucket have: x")]


# --- refs into the bundle's own packages -----------------------------------------------------------


def test_a_ref_to_an_undefined_rule_of_a_bundle_package_is_refused(tmp_path: Path) -> None:
    root = bundle_copy(tmp_path)
    policy = root / "size" / "policy.rego"
    text = policy.read_text()
    policy.write_text(text + '\nwarn contains lib.finding("size.files", "x") if {\n'
                      "\tdata.gatekeeper.policies.size.max_filez > 1\n}\n")
    error = failure(root)  # OPA alone would accept it: the rule would just never fire
    (issue,) = error.issues
    assert (issue.file, issue.line, issue.column) == (str(policy), len(text.splitlines()) + 3, 2)
    assert issue.name == "data.gatekeeper.policies.size.max_filez" and "defines no rule `max_filez`" in issue.message


def test_ref_check_reads_aliases_and_ignores_comments_strings_and_outside_data() -> None:
    from gatekeeper.policy.ref_check import unknown_refs

    lib = "package gatekeeper.lib\n\nimport rego.v1\n\nfinding(r, m) := {\"rule\": r, \"msg\": m}\n"
    policy = ("package gatekeeper.policies.x\n\nimport rego.v1\n\nimport data.gatekeeper.lib as l\n\n"
              "review contains l.finding(\"a\", \"b\") if {\n\t# l.nope\n\ts := \"l.nope\"\n"
              "\tdata.gatekeeper.params.anything\n\tinput.files.nope\n\tcount(data.gatekeeper.policies.x.deny) == 0\n"
              "\tl.nope\n\tl.nope_fn(1)\n}\n")
    issues = unknown_refs({"lib.rego": lib, "x.rego": policy})
    assert [(i.line, i.column, i.name) for i in issues] == [(13, 2, "l.nope")]


def test_the_keyword_before_a_ref_is_found_as_by_stripping_everything_before_it() -> None:
    from gatekeeper.policy.ref_check import _follows_keyword

    words = ("package", "import", "port", " ", "\n", "\t", "\u2028", "x", "l.a")
    for size in range(4):  # every sequence of up to three words, cut at every offset
        for chosen in itertools.product(words, repeat=size):
            code = "".join(chosen)
            for start in range(len(code) + 1):
                expected = code[:start].rstrip().endswith(("package", "import"))
                assert _follows_keyword(code, start) == expected, (code, start)


def test_the_shipped_bundle_has_no_unknown_refs() -> None:
    from gatekeeper.policy.ref_check import unknown_refs

    modules = {str(p): p.read_text() for p in POLICY_DIR.rglob("*.rego")}
    assert unknown_refs(modules) == []


# --- runtime errors name their place ---------------------------------------------------------------


def test_a_runtime_error_names_its_file_line_and_rule_never_another_file(tmp_path: Path) -> None:
    from gatekeeper.policy.findings import Evaluation

    root = bundle_copy(tmp_path)
    policy = root / "size" / "policy.rego"
    text = policy.read_text()
    policy.write_text(text + '\nwarn contains lib.finding("size.files", "odd run id") if {\n'
                      "\tto_number(input.packet.run_id) > 0\n}\n")
    bundle = load_bundle(root)
    summary = {"files": 0, "additions": 0, "deletions": 0, "buckets": {}, "tags": {}}
    doc = {"files": [], "summary": summary, "packet": {"run_id": "abc"}}
    (error,) = Evaluation(bundle, ["size", "guardrails"], [doc], timeout=20).results()
    assert isinstance(error, PolicyError)
    assert error.where == f"{policy}:{len(text.splitlines()) + 3}"
    assert "to_number" in error.what and "(in rule `warn`)" in error.what
    assert "guardrails" not in str(error)


def test_rule_at_finds_the_enclosing_rule() -> None:
    from gatekeeper.policy.rego_errors import rule_at

    source = "package p\n\nimport rego.v1\n\nx := 1\n\nreview contains f if {\n\tf := 1\n}\n"
    assert [rule_at(source, n) for n in (1, 3, 5, 8, 9)] == [None, None, "x", "review", "review"]


def _lib_definitions() -> list[tuple[str, str, int]]:
    """(lib module, helper, line of its first definition) for each helper a shipped policy calls."""
    called = {name for _, name, _ in HELPERS}
    found = []
    for path in sorted((POLICY_DIR / "lib").glob("*.rego")):
        text = path.read_text()
        for name in sorted(called):
            hit = re.search(rf"^{name}\(", text, re.M)
            if hit:
                found.append((path.relative_to(POLICY_DIR).as_posix(), name, text[:hit.start()].count("\n") + 1))
    return found


LIB_DEFINITIONS = _lib_definitions()


@pytest.mark.parametrize(("module", "name", "line"), LIB_DEFINITIONS, ids=[n for _, n, _ in LIB_DEFINITIONS])
def test_a_renamed_lib_helper_is_caught_at_every_caller(mutations: Mutations, module: str, name: str,
                                                        line: int) -> None:
    issues = mutations.issues(_renamed_lib_helper, module, name, line)
    callers = {(module, line) for module, helper, line in HELPERS if helper == name}
    reported = {(Path(i.file).relative_to(POLICY_DIR).as_posix(), i.line) for i in issues
                if f"undefined function data.gatekeeper.lib.{name}" in i.message}
    assert callers <= reported, (callers, issues)
