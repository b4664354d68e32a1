"""What a bundle's load and check remember within a process: the `# METADATA` of a module, the context file's
tables, a module's blanked code and its field-check issues. Each is remembered by the bytes it is read from (a copy in
a new folder is the same read, with its own path), and a load only when valid: a refusal is raised again, naming its
own file. A module's field-check issues are remembered with all else they read (the bundle's keys, params, data)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import POLICY_DIR

from gatekeeper.classify.contextrules import CONTEXT_FILE, read_context_rules
from gatekeeper.errors import PolicyError, RulesError
from gatekeeper.policy import field_check, field_memo, metadata
from gatekeeper.policy.bundle import load_bundle
from gatekeeper.policy.field_check import field_issues
from gatekeeper.testing.rego_source import blank

_MODULE = """# METADATA
# title: Example
# description: An example policy.
# custom:
#   version: 1.2.3
#   owner: team
#   rules: [example.one]
package gatekeeper.policies.example
"""


def test_metadata_is_read_once_per_source_and_the_path_only_places_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    real = metadata.load_yaml

    def counting(text: str, source: str, *args: object, **kwargs: object) -> object:
        calls.append(source)
        return real(text, source, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(metadata, "load_yaml", counting)
    monkeypatch.setattr(metadata, "_VALID", {})
    first = metadata.parse_metadata(_MODULE, "a/example/policy.rego", "example")
    again = metadata.parse_metadata(_MODULE, "b/example/policy.rego", "example")
    assert again is first and calls == ["a/example/policy.rego"]
    assert (first.version, first.rules, first.line) == ("1.2.3", ("example.one",), 1)
    with pytest.raises(PolicyError, match="must look like `other.<name>`"):  # another policy: its own check
        metadata.parse_metadata(_MODULE, "c/other/policy.rego", "other")
    bad = _MODULE.replace("1.2.3", "1.2")
    for path in ("d/example/policy.rego", "e/example/policy.rego"):  # a refusal is never remembered
        with pytest.raises(PolicyError, match="not semver") as refused:
            metadata.parse_metadata(bad, path, "example")
        assert refused.value.where.startswith(path)


def test_context_tables_are_shared_by_bytes_and_each_copy_names_its_file(tmp_path: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    shutil.copytree(POLICY_DIR, one)
    shutil.copytree(POLICY_DIR, two)
    rules_one, data_one = read_context_rules(one)
    rules_two, data_two = read_context_rules(two)
    assert data_one == data_two == (POLICY_DIR / CONTEXT_FILE).read_bytes()
    assert rules_one.markers and rules_two.markers is rules_one.markers and rules_two.api_groups is rules_one.api_groups
    assert (rules_one.source, rules_two.source) == (str(one / CONTEXT_FILE), str(two / CONTEXT_FILE))
    edited = data_one.replace(b"version: 1", b"version: 2", 1)
    assert edited != data_one
    for folder in (one, two):  # an edited file is read again, and refused in each folder's own name
        (folder / CONTEXT_FILE).write_bytes(edited)
        with pytest.raises(RulesError, match="unsupported version 2") as refused:
            read_context_rules(folder)
        assert refused.value.where == str(folder / CONTEXT_FILE)


def test_a_copied_bundle_loads_as_the_original(tmp_path: Path) -> None:
    original = load_bundle(POLICY_DIR, git_state=False)
    copy = tmp_path / "policies"
    shutil.copytree(POLICY_DIR, copy)
    copied = load_bundle(copy, git_state=False)
    assert [(p.name, p.version, p.title, p.rules) for p in copied.policies] == [
        (p.name, p.version, p.title, p.rules) for p in original.policies]
    assert copied.rules.context.markers == original.rules.context.markers
    assert copied.rules.context.source == str(copy / CONTEXT_FILE)


def test_blank_remembers_by_text() -> None:
    source = 'x := "a # b" # comment\ny := `raw\n"q"`\n'
    assert blank(source) == 'x := "     "          \ny := `   \n   `\n'
    assert blank(source) is blank(source)
    assert blank(source + "z") == blank(source) + "z"


def test_field_issues_of_an_unchanged_module_are_remembered_under_the_same_context(
        monkeypatch: pytest.MonkeyPatch) -> None:
    bundle = load_bundle(POLICY_DIR, git_state=False)
    modules = bundle.modules_for(p.name for p in bundle.policies)
    core = next(key for key in modules if key.endswith("core/policy.rego"))
    monkeypatch.setattr(field_memo, "_REMEMBERED", {})
    read: list[str] = []
    real = field_check._module_issues

    def counting(name: str, *args: object) -> object:
        read.append(name)
        return real(name, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(field_check, "_module_issues", counting)
    assert field_issues(modules, bundle.data()) == [] and sorted(read) == sorted(modules)
    read.clear()
    assert field_issues(modules, bundle.data()) == [] and read == []  # the same bundle: nothing read again
    typo = dict(modules, **{core: modules[core].replace("input.summary.buckets.ci.files",
                                                        "input.summary.bucket.ci.files", 1)})
    found = field_issues(typo, bundle.data())
    assert read == [core] and [i.file for i in found] == [core] and "bucket" in found[0].message
    read.clear()
    assert field_issues(typo, {"gatekeeper": {"params": {}}}) == found  # another context: every module read again
    assert sorted(read) == sorted(modules)
    read.clear()
    keyed = dict(typo, **{core: typo[core] + '# {"a_new_key": 1}\n'})  # an object key (in a comment too): known to all
    assert [(i.line, i.message) for i in field_issues(keyed, bundle.data())] == [(i.line, i.message) for i in found]
    assert sorted(read) == sorted(modules)
