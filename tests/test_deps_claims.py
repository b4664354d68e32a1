"""What a bot's commit message claims (claims.py), and where the delta shows it: only beside an action
moved between bare commit shas, labelled as a claim, never as the change's version."""

from __future__ import annotations

from pathlib import Path

from cpucost import within_cpu
from tables import each_case

from gatekeeper.deps.claims import MAX_CLAIM_COMMITS, Claim, claimed_version, claims
from gatekeeper.deps.report import render_text
from gatekeeper.deps.sources import Delta, tree_delta
from gatekeeper.gitobjects import GitObjects
from gatekeeper.reports.dependencies import rows
from tests.gitrepo import GitRepo

OLD, NEW = "b4ffde65f46336ab88eb53be808477a3936bae11", "9bb56186c3b09b4f86b1c65136769dd318469633"


@each_case(("message", "want"), [
    ("Bump actions/checkout from 4.1.1 to 4.1.2 (#123)", [("actions/checkout", "4.1.2")]),
    ("build(deps-dev): bump eslint from 8.56.0 to 9.0.0 in /web", [("eslint", "9.0.0")]),
    ("chore(deps): update dependency @types/node to v20.11.5 (#9)", [("@types/node", "20.11.5")]),
    ("Update module github.com/slack-go/slack to v0.23.1 [SECURITY] (#2735)",
     [("github.com/slack-go/slack", "0.23.1")]),
    ("Update actions/setup-node action to v4", [("actions/setup-node", "4")]),
    ("chore(deps): update nginx docker tag to v1.25.3", [("nginx", "1.25.3")]),
    ("Bump the actions group with 2 updates\n\nBumps the actions group with 2 updates: [a/b](u) and [c/d](u).\n\n"
     "Updates `a/b` from 1.0.0 to 1.1.0\n- [Release notes](https://x)\n\nUpdates `c/d` from 2 to 3\n",
     [("a/b", "1.1.0"), ("c/d", "3")]),
    # Dependabot's summary line names a catalog's version alias; the Updates lines name the packages.
    ("Bump protobuf from 4.28.2 to 4.29.1\n\nBumps `protobuf` from 4.28.2 to 4.29.1.\n\n"
     "Updates `com.google.protobuf:protoc` from 4.28.2 to 4.29.1\n", [("com.google.protobuf:protoc", "4.29.1")]),
    # A squash merge repeats the subject as a bullet (zalando/logbook 797350b29926): still the subject, which
    # names a Maven property; the Updates lines name the packages.
    ("Bump json-path.version from 2.10.0 to 3.0.0 (#2254)\n\n* Bump json-path.version from 2.10.0 to 3.0.0\n\n"
     "Bumps `json-path.version` from 2.10.0 to 3.0.0.\n\nUpdates `com.jayway.jsonpath:json-path` from 2.10.0 to "
     "3.0.0\n- [Release notes](https://x)\n\nUpdates `com.jayway.jsonpath:json-path-assert` from 2.10.0 to 3.0.0\n",
     [("com.jayway.jsonpath:json-path", "3.0.0"), ("com.jayway.jsonpath:json-path-assert", "3.0.0")]),
    # A grouped update's member that did not move (martincostello/sqllocaldb f2d458eb15de): no claim, also
    # not from the machine-readable trailer.
    ("Bump A and B (#1163)\n\nBumps [A](u) and [B](u).\n\nUpdates `A` from 9.0.4 to 9.0.4\n- [Release notes](u)\n\n"
     "Updates `B` from 9.0.2 to 9.0.4\n\n---\nupdated-dependencies:\n- dependency-name: A\n"
     "  dependency-version: 9.0.4\n- dependency-name: B\n  dependency-version: 9.0.4\n", [("B", "9.0.4")]),
    # Renovate's table, wrapped as a squash commit wraps it; the plain subject names a group.
    ("chore(deps): update dotnet monorepo to 9.0.9\n\n| Package | Type | Update | Change |\n|---|---|---|---|\n|\n"
     "[Grpc.Core](https://x) | nuget | patch | `9.0.8` ->\n`9.0.9` |\n", [("Grpc.Core", "9.0.9")]),
    # Release notes below the claims name other packages: never read.
    ("Bump nokogiri from 1.16.2 to 1.16.5\n\n<details>\n<li>Bump libxml2 from 2.12.6 to 2.12.7</li>\n",
     [("nokogiri", "1.16.5")]),
    ("Update font to sans-serif", []),
    ("Fix the build", []),
])
def test_message_formats(message: str, want: list[tuple[str, str]]) -> None:
    assert [(c.name, c.to) for c in claims(message)] == want


def test_two_versions_claimed_for_one_name_claim_neither() -> None:
    found = (Claim("actions/checkout", "4.1.1"), Claim("actions/checkout", "4.1.2"))
    assert claimed_version(found, "actions/checkout") is None
    assert claimed_version((Claim("github/codeql-action/init", "3.2.0"),), "github/codeql-action") == "3.2.0"


def _workflow(ref: str, comment: str = "") -> str:
    return f"on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n      - uses: actions/checkout@{ref}{comment}\n"


def _delta(root: Path, base: str, head: str) -> Delta:
    with GitObjects(root) as git:
        return tree_delta(git, base, head)


def test_a_bare_sha_move_carries_the_message_claim_labelled(tmp_path: Path) -> None:
    r = GitRepo(tmp_path / "repo")
    r.write(".github/workflows/ci.yml", _workflow(OLD))
    base = r.commit("base")
    r.write(".github/workflows/ci.yml", _workflow(NEW))
    head = r.commit("Bump actions/checkout from 4.1.1 to 4.1.2\n\nBumps [actions/checkout](u) from 4.1.1 to 4.1.2.")
    [change] = _delta(r.root, base, head).changes
    assert (change.to_version, change.to_tag, change.claimed, change.pinned) == (NEW, None, "4.1.2", True)
    assert change.to_dict()["claimed"] == "4.1.2" and change.change == "changed"  # the claim orders nothing
    assert "(4.1.2 claimed by the commit message)" in render_text(Delta((change,), ()))
    [row] = rows([change.to_dict()])
    assert "4.1.2 claimed by the commit message" in row[4]


def test_no_claim_where_the_files_name_the_version_or_the_range_is_long(tmp_path: Path) -> None:
    r = GitRepo(tmp_path / "repo")
    r.write(".github/workflows/ci.yml", _workflow(OLD, " # v4.1.1"))
    base = r.commit("base")
    r.write(".github/workflows/ci.yml", _workflow(NEW, " # v4.1.2"))
    head = r.commit("Bump actions/checkout from 4.1.1 to 9.9.9")  # the comment, not the message, names it
    [change] = _delta(r.root, base, head).changes
    assert (change.to_tag, change.claimed) == ("v4.1.2", None)
    r.write(".github/workflows/ci.yml", _workflow(OLD))
    first = r.commit("back")
    for n in range(MAX_CLAIM_COMMITS):
        r.write("f.txt", str(n))
        r.commit("Bump actions/checkout from 4.1.1 to 4.1.2")
    r.write(".github/workflows/ci.yml", _workflow(NEW))
    last = r.commit("Bump actions/checkout from 4.1.1 to 4.1.2")
    [change] = _delta(r.root, first, last).changes
    assert change.claimed is None  # a pull request of many commits is no bot's update: no claim shown


@each_case("message", [
    "x\n\n|---|" + "| [a](b) |" * 6000 + " `1` ->",  # every row start rescanned every later row: 55 s
    "Bump a from 1 to 2 in " + "x " * 30000,
    "Update " + "a" * 60000 + " to v1",
    "x\n\n" + "|" * 60000,
])
def test_hostile_messages_are_read_in_linear_time(message: str) -> None:
    within_cpu(3, lambda: claims(message))  # CPU seconds: a loaded machine does not make it flaky
