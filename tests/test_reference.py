"""Policy mistakes never fail open: OPA compiles every bundle, and `gatekeeper test` cross-checks regopy with it.

Each mistake of issue 19 is a test here (the gate refuses with exit 2 at the right file, line,
column and name), plus generated mutations over every shipped module: a renamed variable and a
misspelt helper must each be caught at their own line.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from conftest import POLICY_DIR
from gitrepo import GitRepo

from gatekeeper.cli import main
from gatekeeper.errors import PolicyError
from gatekeeper.policy import compile_check
from gatekeeper.policy.bundle import load_bundle
from gatekeeper.policy.compile_check import CompileFailed, cache_key
from gatekeeper.policy.reference import compile_issues, parse_errors

ERROR = 2


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A compile cache of this test's own: a cold check every time."""
    folder = tmp_path / "xdg-cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(folder))
    return folder


def bundle_copy(tmp_path: Path) -> Path:
    root = tmp_path / "policies"
    shutil.copytree(POLICY_DIR, root, ignore=shutil.ignore_patterns("__pycache__"))
    return root


def edit(path: Path, old: str, new: str) -> int:
    """Replace the first `old` in `path` by `new`; the 1-based line of the edit."""
    text = path.read_text()
    at = text.index(old)
    path.write_text(text[:at] + new + text[at + len(old):])
    return text[:at].count("\n") + 1


def check_bundle(root: Path, names: tuple[str, ...] = ("core", "deps", "guardrails", "provenance", "sandbox", "size")):
    bundle = load_bundle(root)
    compile_check.check(bundle.modules_for(names), bundle.data(), timeout=20)


def failure(root: Path) -> CompileFailed:
    with pytest.raises(CompileFailed) as caught:
        check_bundle(root)
    return caught.value


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
HELPERS = _helper_mutations()


def test_the_mutations_cover_every_shipped_policy() -> None:
    mutated = {module.split("/")[0] for module, _, _ in VARIABLES + HELPERS}
    assert mutated >= {"core", "deps", "guardrails", "provenance", "sandbox", "size"}, mutated


@pytest.mark.parametrize(("module", "name", "line"), VARIABLES, ids=[f"{m}:{n}" for m, n, _ in VARIABLES])
def test_a_renamed_variable_use_is_caught_at_its_line(tmp_path: Path, module: str, name: str, line: int) -> None:
    root = bundle_copy(tmp_path)
    path = root / module
    lines = path.read_text().split("\n")
    lines[line - 1] = re.sub(rf"(?<![\w.\"]){name}\b", f"{name}_typo", lines[line - 1], count=1)
    path.write_text("\n".join(lines))
    issues = compile_issues(load_bundle(root).modules, {"gatekeeper": {"params": {}}}, timeout=20)
    assert any(i.file == str(path) and i.line == line and i.name == f"{name}_typo" for i in issues), issues


@pytest.mark.parametrize(("module", "name", "line"), HELPERS, ids=[f"{m}:{n}" for m, n, _ in HELPERS])
def test_a_misspelt_helper_is_caught_at_its_line(tmp_path: Path, module: str, name: str, line: int) -> None:
    root = bundle_copy(tmp_path)
    path = root / module
    lines = path.read_text().split("\n")
    lines[line - 1] = lines[line - 1].replace(f"lib.{name}(", f"lib.{name}x(", 1)
    path.write_text("\n".join(lines))
    issues = compile_issues(load_bundle(root).modules, {"gatekeeper": {"params": {}}}, timeout=20)
    assert any(i.file == str(path) and i.line == line and "undefined function" in i.message for i in issues), issues


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


def test_without_the_reference_engine_the_gate_refuses(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compile_check, "missing_reason", lambda: "the reference Rego engine is not installed")
    with pytest.raises(PolicyError, match="not installed"):
        check_bundle(bundle_copy(tmp_path))


def test_error_text_parses_every_error_and_drops_duplicates() -> None:
    text = ("bundle activation failed: 2 errors occurred: m0.rego:5: rego_unsafe_var_error: var a is unsafe\n"
            "m1.rego:7: rego_type_error: undefined ref: f.bucket\n\thave: x\nm1.rego:7: rego_type_error: "
            "undefined ref: f.bucket\n\thave: x")
    assert parse_errors(text) == [(0, 5, "rego_unsafe_var_error", "var a is unsafe"),
                                  (1, 7, "rego_type_error", "undefined ref: f.bucket have: x")]


# --- the cross-check: a construct the engines disagree on fails `gatekeeper test` ------------------

# regopy evaluates `with ... as <rule>` as undefined; OPA substitutes the rule's value (REGOPY.md).
DIVERGENT_RULES = """
_divergent_limit := 0

_divergent_over if {
\tinput.summary.files == 0
}

_divergent if {
\t_divergent_over with input.summary.files as _divergent_limit
}
"""


def test_a_unit_test_the_engines_disagree_on_fails_naming_both(tmp_path: Path) -> None:
    from gatekeeper.testing.suite import run_suite

    root = bundle_copy(tmp_path)
    (root / "size" / "policy.rego").write_text((root / "size" / "policy.rego").read_text() + DIVERGENT_RULES)
    tests = root / "size" / "policy_test.rego"
    tests.write_text(tests.read_text() + "\ntest_divergent if {\n\t_divergent with input.summary as {}\n}\n")
    run = run_suite(root, None, select=re.compile("test_divergent"))
    (result,) = run.results
    assert (result.name, result.status) == ("test_divergent", "fail")
    assert "regopy and OPA disagree: regopy fail" in result.message and "OPA pass" in result.message
    assert not run.passed


def test_a_fixture_case_the_engines_disagree_on_fails_naming_both(tmp_path: Path) -> None:
    from gatekeeper.testing.suite import run_suite

    root = bundle_copy(tmp_path)
    policy = root / "guardrails" / "policy.rego"
    policy.write_text(policy.read_text() + DIVERGENT_RULES + '\nreview contains lib.finding("guardrails.edit", '
                      '"divergent") if {\n\t_divergent\n}\n')
    fixtures = POLICY_DIR.parent / "fixtures"
    run = run_suite(root, fixtures, select=re.compile(r"^guardrail-files\[guardrails\]$"))
    (result,) = run.results
    assert result.name == "guardrail-files[guardrails]" and result.status == "error"
    assert "regopy and OPA disagree" in result.message and "divergent" in result.message
    assert not run.passed


def test_the_shipped_bundle_passes_in_both_engines() -> None:
    from gatekeeper.testing.suite import run_suite

    run = run_suite(POLICY_DIR, POLICY_DIR.parent / "fixtures", select=re.compile("."))
    assert run.notes == ()
    assert [r for r in run.results if r.status != "pass"] == []
    assert sum(r.suite == "rego" for r in run.results) >= 30


# --- unit tests judge findings as the gate does ----------------------------------------------------


def test_a_finding_with_message_instead_of_msg_fails_the_unit_test_that_produced_it(tmp_path: Path) -> None:
    from gatekeeper.testing.suite import run_suite

    root = bundle_copy(tmp_path)
    edit(root / "guardrails" / "policy.rego", 'lib.paths_finding("guardrails.edit", msg, paths)',
         '{"rule": "guardrails.edit", "message": msg, "paths": paths}')
    run = run_suite(root, None, select=re.compile("guardrail"))
    by_name = {r.name: r for r in run.results}
    failed = by_name["test_guardrail_file_needs_review"]
    assert failed.status == "fail" and "breaks the contract" in failed.message and "`msg`" in failed.message
    assert failed.rule_ids == ()  # coverage does not count it
    assert by_name["test_untagged_files_pass"].status == "pass"  # it produced no finding


def test_findings_bound_reads_the_forms_tests_use() -> None:
    from gatekeeper.testing.crosscheck import findings_bound

    bundle = load_bundle(POLICY_DIR)
    body = ("test_x if {\n\tfound := review with input.files as f\n\tsome g in deps.deny with input.files as f\n"
            "\td := [x | some x in data.gatekeeper.policies.core.warn]\n\t# y := review\n}\n")
    assert findings_bound(body, "gatekeeper.policies.size", bundle) == [
        ("found", True, "review", "size"), ("d", True, "warn", "core"), ("g", False, "deny", "deps")]


def test_without_the_reference_engine_the_test_run_says_so_in_one_line_and_runs(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from gatekeeper.testing import crosscheck
    from gatekeeper.testing.report import render_text
    from gatekeeper.testing.suite import run_suite

    monkeypatch.setattr(crosscheck, "missing_reason", lambda: "the reference Rego engine is not installed")
    run = run_suite(POLICY_DIR, None, select=re.compile("guardrail"))
    assert [r.status for r in run.results] == ["pass", "pass"]
    assert len(run.notes) == 1 and "not installed" in run.notes[0]
    assert render_text(run).count("not installed") == 1


def test_a_helper_typo_in_gatekeeper_test_names_the_helper_and_its_line(tmp_path: Path) -> None:
    from gatekeeper.testing.suite import run_suite

    root = bundle_copy(tmp_path)
    line = edit(root / "guardrails" / "policy.rego", "lib.paths_finding(", "lib.bukket_finding(")
    run = run_suite(root, None, select=re.compile("guardrail"))
    located = [r for r in run.results if r.file == str(root / "guardrails" / "policy.rego") and r.line == line]
    assert any("undefined function data.gatekeeper.lib.bukket_finding" in r.message for r in located), run.results
    assert not run.passed
    assert all("not available in regopy" not in r.message for r in run.results)


def test_a_fixture_error_is_reported_under_the_set_that_caused_it_only(tmp_path: Path) -> None:
    from gatekeeper.testing.suite import run_suite

    root = bundle_copy(tmp_path)
    edit(root / "guardrails" / "policy.rego", 'lib.paths_finding("guardrails.edit", msg, paths)',
         '{"rule": "guardrails.edit", "message": msg, "paths": paths}')
    run = run_suite(root, POLICY_DIR.parent / "fixtures", select=re.compile(r"^guardrail-files\["))
    by_name = {r.name: r for r in run.results if r.suite == "fixtures"}
    assert by_name["guardrail-files[default]"].status == "pass"
    broken = by_name["guardrail-files[guardrails]"]
    assert broken.status == "error" and str(root / "guardrails" / "policy.rego") in broken.message


# --- runtime errors name their place ---------------------------------------------------------------


def test_a_runtime_error_names_its_file_line_and_rule_never_another_file(tmp_path: Path) -> None:
    from gatekeeper.policy.findings import run_policies

    root = bundle_copy(tmp_path)
    policy = root / "size" / "policy.rego"
    text = policy.read_text()
    policy.write_text(text + '\nwarn contains lib.finding("size.files", "odd run id") if {\n'
                      "\tto_number(input.packet.run_id) > 0\n}\n")
    bundle = load_bundle(root)
    summary = {"files": 0, "additions": 0, "deletions": 0, "buckets": {}, "tags": {}}
    with pytest.raises(PolicyError) as caught:
        run_policies(bundle, ["size", "guardrails"], {"files": [], "summary": summary, "packet": {"run_id": "abc"}},
                     timeout=20)
    error = caught.value
    assert error.where == f"{policy}:{len(text.splitlines()) + 3}"
    assert "to_number" in error.what and "(in rule `warn`)" in error.what
    assert "guardrails" not in str(error)


def test_rule_at_finds_the_enclosing_rule() -> None:
    from gatekeeper.policy.rego_errors import rule_at

    source = "package p\n\nimport rego.v1\n\nx := 1\n\nreview contains f if {\n\tf := 1\n}\n"
    assert [rule_at(source, n) for n in (1, 3, 5, 8, 9)] == [None, None, "x", "review", "review"]


# --- versions are not honour-system -----------------------------------------------------------------


def _bundle_repo(git_repo: GitRepo) -> Path:
    shutil.copytree(POLICY_DIR, git_repo.root / "policies", ignore=shutil.ignore_patterns("__pycache__"))
    git_repo.commit()
    return git_repo.root / "policies"


def _set_version(policy: Path, version: str) -> None:
    text = policy.read_text()
    policy.write_text(re.sub(r"(#   version: )\S+", rf"\g<1>{version}", text, count=1))


def _versions(root: Path, since: str) -> dict[str, tuple[str, str]]:
    from gatekeeper.testing.versions import check_versions

    return {r.name: (r.status, r.message) for r in check_versions(load_bundle(root), since)}


def test_since_fails_a_changed_policy_without_a_bump_and_passes_with_one(git_repo: GitRepo) -> None:
    root = _bundle_repo(git_repo)
    policy = root / "size" / "policy.rego"
    edit(policy, "max_files := lib.param", "max_files := lib.param")  # same bytes: nothing to bump
    edit(root / "size" / "policy_test.rego", "import rego.v1", "import rego.v1\n")  # a test change needs none
    assert {status for status, _ in _versions(root, "HEAD").values()} == {"pass"}
    edit(policy, '"max_files"], 100)', '"max_files"], 101)')
    status, message = _versions(root, "HEAD")["version size"]
    assert status == "fail" and "policy.rego changed" in message and "patch bump" in message
    old = re.search(r"#   version: (\d+)\.(\d+)\.(\d+)", policy.read_text())
    assert old is not None
    _set_version(policy, f"{old.group(1)}.{old.group(2)}.{int(old.group(3)) + 1}")
    assert _versions(root, "HEAD")["version size"][0] == "pass"


def test_since_needs_a_minor_bump_for_a_new_rule_id_and_a_major_for_a_removed_one(git_repo: GitRepo) -> None:
    root = _bundle_repo(git_repo)
    policy = root / "size" / "policy.rego"
    text = policy.read_text()
    old = re.search(r"#   version: (\d+)\.(\d+)\.(\d+)", text)
    assert old is not None
    major, minor, patch = int(old.group(1)), int(old.group(2)), int(old.group(3))
    policy.write_text(text.replace("#     - size.files", "#     - size.files\n#     - size.new", 1))
    _set_version(policy, f"{major}.{minor}.{patch + 1}")
    status, message = _versions(root, "HEAD")["version size"]
    assert status == "fail" and "size.new" in message and "minor bump" in message
    _set_version(policy, f"{major}.{minor + 1}.0")
    assert _versions(root, "HEAD")["version size"][0] == "pass"
    policy.write_text(text.replace("#     - size.files\n", "", 1))
    _set_version(policy, f"{major}.{minor + 1}.0")
    status, message = _versions(root, "HEAD")["version size"]
    assert status == "fail" and "removed" in message and "major bump" in message


@pytest.mark.parametrize("rev", ["--output=/tmp/x", "no-such-rev", ""])
def test_since_refuses_what_is_not_a_revision(git_repo: GitRepo, rev: str) -> None:
    from gatekeeper.errors import UsageError

    root = _bundle_repo(git_repo)
    with pytest.raises(UsageError):
        _versions(root, rev)


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


def test_the_shipped_bundle_has_no_unknown_refs() -> None:
    from gatekeeper.policy.ref_check import unknown_refs

    modules = {str(p): p.read_text() for p in POLICY_DIR.rglob("*.rego")}
    assert unknown_refs(modules) == []


def test_the_decision_says_when_the_bundle_had_uncommitted_changes(git_repo: GitRepo, tmp_path: Path) -> None:
    root = _bundle_repo(git_repo)
    clean = load_bundle(root).describe()
    assert clean["uncommitted"] is False and clean["commit"] == git_repo.git("rev-parse", "HEAD").decode().strip()
    edit(root / "size" / "policy.rego", '"max_files"], 100)', '"max_files"], 101)')
    dirty = load_bundle(root).describe()
    assert dirty["uncommitted"] is True and dirty["commit"] == clean["commit"] and dirty["digest"] != clean["digest"]
    (root / "size" / "policy.rego").write_text((POLICY_DIR / "size" / "policy.rego").read_text())
    (root / "size" / "notes.txt").write_text("an untracked file counts too\n")
    assert load_bundle(root).describe()["uncommitted"] is True
    assert load_bundle(bundle_copy(tmp_path)).describe()["uncommitted"] is None  # not in a repository


def test_audit_show_prints_that_the_bundle_had_uncommitted_changes(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    from gatekeeper.audit.log import append_decision

    log = tmp_path / "decisions.jsonl"
    base = {"outcome": "allow", "reasons": [], "policies": [{"name": "core", "version": "1.0.0"}],
            "packet": {"run_id": "run-1", "diff_sha256": "0" * 64, "digest": "p" * 64}, "input_digest": "i" * 64,
            "summary": {"files": 1, "additions": 1, "deletions": 0, "buckets": {}}, "dry_run": False,
            "tool": {"name": "gatekeeper", "version": "0.1.0"}, "decided_at": "2026-11-29T12:00:00Z"}
    append_decision(log, {**base, "bundle": {"name": "d", "revision": "r1", "commit": "c" * 40,
                                             "uncommitted": True, "digest": "e" * 64}})
    append_decision(log, {**base, "bundle": {"name": "d", "revision": "r1", "commit": "c" * 40,
                                             "uncommitted": False, "digest": "f" * 64}})
    assert main(["audit", "show", str(log)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert sum("uncommitted" in line for line in out) == 1 and any("eeeeeeeeeeee" in line for line in out)
