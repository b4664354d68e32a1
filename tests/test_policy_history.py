"""`policy history` over a real git repository whose commits change policies, rules and versions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gitrepo import GitRepo

from gatekeeper.cli import main
from gatekeeper.errors import AuditError
from gatekeeper.policy.history import policy_history, render_text, rule_index
from gatekeeper.policy.history_metadata import read_metadata, version_of


def rego(name: str, version: str, body: str = "", rules: tuple[str, ...] = ()) -> str:
    declared = "".join(f"#     - {r}\n" for r in rules)
    return (
        "# METADATA\n"
        f"# title: The {name} policy\n"
        "# description: test policy\n"
        "# custom:\n"
        f"#   version: {version}\n"
        "#   owner: security\n"
        + ("#   rules:\n" + declared if rules else "")
        + f"package gatekeeper.policies.{name}\n\nimport rego.v1\n\n{body}\n"
    )


def rules(*items: tuple[str, str, str]) -> str:
    lines = ["version: 1", "rules:"]
    for rid, glob, bucket in items:
        lines += [f"  - id: {rid}", f"    match: ['{glob}']", f"    bucket: {bucket}", f"    description: {rid}"]
    return "\n".join(lines) + "\n"


def manifest(revision: str, policies: dict[str, bool]) -> str:
    return json.dumps({"revision": revision, "roots": ["gatekeeper"],
                       "metadata": {"name": "test", "policies": {n: {"default": d} for n, d in policies.items()}}})


def commit(repo: GitRepo, message: str, author: str) -> str:
    return repo.commit(message, author)


@pytest.fixture
def history_repo(git_repo: GitRepo) -> tuple[GitRepo, list[str]]:
    repo = git_repo
    repo.write("policies/.manifest", manifest("1", {"core": True}))
    repo.write(
        "policies/classification.yaml", rules(("ci.github", ".github/workflows/**", "ci"), ("src.any", "**", "src"))
    )
    repo.write("policies/core/policy.rego", rego("core", "1.0.0", rules=("core.ci",)))
    repo.write("policies/lib/results.rego", "package gatekeeper.lib\n")
    first = commit(repo, "Add the core policy", "Alice <alice@example.invalid>")
    repo.write("README.md", "not part of the bundle\n")
    commit(repo, "Docs only", "Bob <bob@example.invalid>")
    repo.write("policies/.manifest", manifest("2", {"core": True}))
    repo.write(
        "policies/classification.yaml",
        rules(
            ("ci.github", ".github/workflows/*.yml", "ci"),
            ("ci.gitlab", ".gitlab-ci.yml", "ci"),
            ("src.any", "**", "src"),
        ),
    )
    repo.write(
        "policies/core/policy.rego", rego("core", "1.1.0", "review contains 1 if false", rules=("core.ci", "core.iac"))
    )
    second = commit(repo, "Tighten CI rules\n\nTicket SEC-42.", "Carol <carol@example.invalid>")
    repo.write("policies/.manifest", manifest("3", {"core": True, "deps": False}))
    repo.write("policies/deps/policy.rego", rego("deps", "0.1.0"))
    repo.write("policies/classification.yaml", rules(
        ("ci.github", ".github/workflows/*.yml", "ci"), ("ci.gitlab", ".gitlab-ci.yml", "ci")))
    third = commit(repo, "Add deps policy, drop catch-all", "Dave <dave@example.invalid>")
    repo.write("policies/classification.yaml", rules(
        ("ci.gitlab", ".gitlab-ci.yml", "ci"), ("ci.github", ".github/workflows/*.yml", "ci")))
    repo.write("policies/.manifest", manifest("4", {"core": True, "deps": True}))
    fourth = commit(repo, "Reorder, deps on by default", "Erin <erin@example.invalid>")
    repo.write("policies/classification.d/team.yaml",
               "version: 1\nremove: [ci.gitlab]\n" + rules(("team.infra", "infra/**", "iac")).split("\n", 1)[1])
    fifth = commit(repo, "Team overlay", "Frank <frank@example.invalid>")
    return repo, [fifth, fourth, third, second, first]


def test_history_lists_only_bundle_commits_newest_first(history_repo: tuple[GitRepo, list[str]]) -> None:
    repo, commits = history_repo
    changes = policy_history(repo.root / "policies")
    assert [c.commit for c in changes] == commits
    assert [c.author for c in changes] == [
        "Frank <frank@example.invalid>", "Erin <erin@example.invalid>", "Dave <dave@example.invalid>",
        "Carol <carol@example.invalid>", "Alice <alice@example.invalid>"]
    assert changes[3].message == "Tighten CI rules\n\nTicket SEC-42."
    assert changes[0].date.startswith("2026-01-01T00:00:00")


def test_history_names_policies_rules_and_version_bumps(history_repo: tuple[GitRepo, list[str]]) -> None:
    repo, _ = history_repo
    fifth, fourth, third, second, first = policy_history(repo.root / "policies")
    assert fifth.rules.added == ("team.infra",) and fifth.rules.removed == ("ci.gitlab",)
    assert fifth.policies == ()  # the overlay folder is rules, not a policy

    assert first.parent is None and first.policies == ("core", "lib")
    assert first.rules.added == ("ci.github", "src.any") and first.versions == (("core", None, "1.0.0"),)
    assert ("A", "core/policy.rego") in first.files

    assert second.policies == ("core",)
    assert second.rules.added == ("ci.gitlab",) and second.rules.changed == ("ci.github",)
    assert second.rules.removed == () and not second.rules.reordered
    assert second.versions == (("core", "1.0.0", "1.1.0"),) and second.revision == ("1", "2")
    assert second.policy_rules == (("core", ("core.iac",), ()),)
    assert first.policy_rules == (("core", ("core.ci",), ()),)

    assert third.policies == ("deps",) and third.versions == (("deps", None, "0.1.0"),)
    assert third.rules.removed == ("src.any",) and third.rules.added == ()
    assert third.defaults == (("deps", None, False),)

    assert fourth.policies == () and fourth.rules.reordered and not fourth.rules.changed
    assert fourth.defaults == (("deps", False, True),) and fourth.revision == ("3", "4")


def test_history_cli_text_and_json(history_repo: tuple[GitRepo, list[str]], capsys: pytest.CaptureFixture[str]) -> None:
    repo, commits = history_repo
    bundle = str(repo.root / "policies")
    assert main(["policy", "history", "--policy", bundle]) == 0
    text = capsys.readouterr().out
    assert f"commit {commits[3]}" in text and "version  core: 1.0.0 -> 1.1.0" in text
    assert (
        "rules    added: ci.gitlab" in text
        and "findings core: +core.iac" in text
        and "rules    changed: ci.github" in text
    )
    assert "Docs only" not in text
    assert main(["policy", "history", "--policy", bundle, "--format", "json", "-n", "3"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [d["commit"] for d in data] == commits[:3]
    assert data[2]["rules"]["removed"] == ["src.any"]
    assert render_text([]) == "(no commits changed the bundle)"


def test_history_of_one_policy_follows_its_folder_and_its_default_switch(
        history_repo: tuple[GitRepo, list[str]]) -> None:
    repo, (fifth, fourth, third, second, first) = history_repo
    bundle = repo.root / "policies"
    # deps: added in the third commit, switched on in the fourth (a manifest-only change that concerns it).
    assert [c.commit for c in policy_history(bundle, policy="deps")] == [fourth, third]
    # core: its folder changed in the first two; the manifest edits of later commits leave its switch alone.
    assert [c.commit for c in policy_history(bundle, policy="core")] == [second, first]
    # -n counts the policy's commits, not the bundle's.
    assert [c.commit for c in policy_history(bundle, policy="core", limit=1)] == [second]
    # The whole bundle, compared with git itself: every commit that touched the folder is listed.
    every = repo.git("log", "--format=%H", "--", "policies").decode().split()
    assert [c.commit for c in policy_history(bundle)] == every


@pytest.mark.parametrize("name", ["../core", "core/x", ":(glob)**", "*", "-n", "", "a" * 200, "core\n"])
def test_history_policy_name_is_a_folder_name_never_a_pathspec(history_repo: tuple[GitRepo, list[str]],
                                                              name: str) -> None:
    repo, _ = history_repo
    with pytest.raises(AuditError, match="not a policy name"):
        policy_history(repo.root / "policies", policy=name)


def test_history_policy_name_cli(history_repo: tuple[GitRepo, list[str]], capsys: pytest.CaptureFixture[str],
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    repo, commits = history_repo
    bundle = str(repo.root / "policies")
    assert main(["policy", "history", "--policy", bundle, "--policy-name", "deps", "--format", "json"]) == 0
    assert [d["commit"] for d in json.loads(capsys.readouterr().out)] == commits[1:3]
    assert main(["policy", "history", "--policy", bundle, "--policy-name", "nosuch"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no policy 'nosuch'" in err
    # `--policy core` is the mistake a new user makes: one line pointing at --policy-name.
    monkeypatch.chdir(repo.root)
    assert main(["policy", "history", "--policy", "core"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--policy-name core" in err


def test_history_outside_git_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bundle = tmp_path / "policies"
    bundle.mkdir()
    (bundle / ".manifest").write_text(manifest("1", {}))
    with pytest.raises(AuditError, match="not inside a git repository"):
        policy_history(bundle)
    assert main(["policy", "history", "--policy", str(bundle)]) == 2
    assert "not inside a git repository" in capsys.readouterr().err


def test_metadata_and_rule_parsing() -> None:
    assert read_metadata(rego("core", "2.0.0"))["title"] == "The core policy"
    assert version_of(rego("core", "2.0.0")) == "2.0.0" and version_of("package x\n") is None
    index = rule_index(rules(("a", "*", "src"), ("b", "*", "ci")).encode())
    assert [rid for rid, _ in index["rules"]] == ["a", "b"]
    assert rule_index(b": not yaml: [") == {}


def test_policy_list(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("gatekeeper.policy.bundle", reason="the bundle loader has not landed yet")
    bundle = tmp_path / "policies"
    (bundle / "core").mkdir(parents=True)
    (bundle / "extra").mkdir()
    (bundle / ".manifest").write_text(manifest("7", {"core": True, "extra": False}))
    (bundle / "classification.yaml").write_text(
        rules(("ci.github", ".github/workflows/**", "ci"), ("src.any", "**", "src"))
    )
    (bundle / "core" / "policy.rego").write_text(rego("core", "1.2.0", rules=("core.ci",)))
    (bundle / "extra" / "policy.rego").write_text(rego("extra", "0.3.0", rules=("extra.thing",)))
    assert main(["policy", "list", "--policy", str(bundle)]) == 0
    text = capsys.readouterr().out.splitlines()
    assert text[0] == "bundle test revision 7"
    assert text[1].split() == ["policy", "version", "default", "title"]
    assert text[2].split() == ["core", "1.2.0", "on", "The", "core", "policy"]
    assert text[3].split() == ["extra", "0.3.0", "off", "The", "extra", "policy"]
    assert main(["policy", "list", "--policy", str(bundle), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["bundle"]["revision"] == "7" and data["bundle"]["commit"] is None
    assert [(p["name"], p["version"], p["default"]) for p in data["policies"]] == [
        ("core", "1.2.0", True), ("extra", "0.3.0", False)]
