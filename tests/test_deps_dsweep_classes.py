"""Classes of the misses left across the dependency sets (issue 14, the sweep of round 22), from a patch.

- A kustomize `images:` entry at the end of its file (bjw-s/home-ops: 6 commits of the twenty-first set): the hunk
  shows the entry's last key and nothing after it, so the reader could not tell whether a `newName:` follows and
  refused it. `git apply` holds a hunk without context after its changes to the file's end (git's
  t/t4113-apply-ending.sh); such a hunk with leading context, or one whose last line is git's `\\ No newline at end of
  file`, shows the file's end (one with less trailing than leading context does not: tests/test_attack16_hunk_ends.py).
- A pom.xml `<version>` whose `<dependency>` opening is above the hunk, its groupId and artifactId shown above it and
  `</dependency>` below it (apache/maven-dependency-plugin's asm, a comment line above the groupId): POM children come
  in any order (maven-4.0.0.xsd's `xs:all`); the closing tag says whose version it is when every line between is a
  child element or a comment of one line.
- A whole-line XML comment added beside a bump (apache/maven's "Keep version in sync with …" above mimir's
  `<dependency>`): no element and none of the document's data (XML 1.0 §2.5); it refused the file.
- A Helm values `tag:` whose mapping opens above the hunk (renovatebot/helm-charts: `registry: ghcr.io` above
  `repository: renovatebot/renovate`, 8 commits of the sixteenth set): named as shown, it was a wrong image named
  with no problem; now, when the hunk shows no `registry:` of the mapping, beside a `partial` problem, so the gate
  reviews it (deps.unreadable).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case
from test_deps_gate import Case, gate

from gatekeeper.deps.sources import Delta
from tests.deltas import moves, partial, patch, tree
from tests.gitrepo import GitRepo


def _delta(tmp_path: Path, path: str, before: str, after: str, *extra: str) -> tuple[Delta, Delta]:
    """(from the patch git makes, `--tree`) of one file's edit."""
    repo = GitRepo(tmp_path / "repo")
    repo.write(path, before)
    base = repo.commit("base")
    repo.write(path, after)
    head = repo.commit("head")
    return patch(repo, base, head, *extra), tree(repo, base, head)


def _problem(delta: Delta, path: str) -> str:
    return " ".join(p.msg for p in delta.problems if p.manifest == path and p.kind == "partial")


KUSTOMIZATION = ("---\napiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nnamespace: system-upgrade\n"
                 "resources:\n  - github.com/rancher/system-upgrade-controller?ref=v0.7.6\n  - plan.yaml\n"
                 "images:\n  - name: rancher/system-upgrade-controller\n    newTag: v0.7.6\n")
K_PATH = "cluster/core/system-upgrade-controller/kustomization.yaml"
K_IMAGE = ("docker", "rancher/system-upgrade-controller", "v0.7.6", "v0.7.7")


def test_an_images_entry_at_the_end_of_its_file_is_named_from_the_patch(tmp_path: Path) -> None:
    from_patch, whole = _delta(tmp_path, K_PATH, KUSTOMIZATION, KUSTOMIZATION.replace("newTag: v0.7.6",
                                                                                      "newTag: v0.7.7"))
    assert moves(from_patch) == moves(whole) == {K_IMAGE}
    assert not from_patch.problems


def test_an_images_entry_at_the_end_of_a_file_without_its_last_newline_is_named(tmp_path: Path) -> None:
    before = KUSTOMIZATION.rstrip("\n")
    from_patch, _ = _delta(tmp_path, K_PATH, before, before.replace("v0.7.6", "v0.7.7"))
    assert K_IMAGE in moves(from_patch)
    assert not from_patch.problems


@pytest.mark.parametrize("context", ["-U1", "-U0"])
def test_a_hunk_with_as_much_context_after_as_before_does_not_show_the_end(tmp_path: Path, context: str) -> None:
    # the same bump one line above a `newName:` (which renames the image): with one line of context (or none) the
    # hunk's leading and trailing context are alike, so nothing says the entry ends where the hunk does
    text = KUSTOMIZATION + "    newName: ghcr.io/example/suc-fork\n"
    from_patch, whole = _delta(tmp_path, K_PATH, text, text.replace("newTag: v0.7.6", "newTag: v0.7.7"), context)
    assert moves(whole) == {("docker", "ghcr.io/example/suc-fork", "v0.7.6", "v0.7.7")}
    assert not from_patch.changes and partial(from_patch, K_PATH)


def test_an_entry_followed_by_more_of_the_file_is_read_as_before(tmp_path: Path) -> None:
    text = KUSTOMIZATION + "    newName: ghcr.io/example/suc-fork\nlabels:\n  - pairs:\n      app: suc\n"
    from_patch, whole = _delta(tmp_path, K_PATH, text, text.replace("newTag: v0.7.6", "newTag: v0.7.7"))
    assert moves(from_patch) == moves(whole) == {("docker", "ghcr.io/example/suc-fork", "v0.7.6", "v0.7.7")}


POM = """<project>
  <modelVersion>4.0.0</modelVersion>
  <groupId>org.example</groupId>
  <artifactId>plugin</artifactId>
  <version>1.0.0-SNAPSHOT</version>
  <dependencyManagement>
    <dependencies>
      <dependency>
        <groupId>org.codehaus.plexus</groupId>
        <artifactId>plexus-utils</artifactId>
        <version>4.0.2</version>
      </dependency>
      <dependency>
        <!-- manage version to support a newer JDK -->
        <groupId>org.ow2.asm</groupId>
        <artifactId>asm</artifactId>
        <version>9.10</version>
      </dependency>
    </dependencies>
  </dependencyManagement>
</project>
"""
ASM = ("maven", "org.ow2.asm:asm", "9.10", "9.10.1")


def test_a_version_whose_dependency_opens_above_the_hunk_is_named_by_its_closing_tag(tmp_path: Path) -> None:
    from_patch, whole = _delta(tmp_path, "pom.xml", POM, POM.replace("<version>9.10</version>",
                                                                      "<version>9.10.1</version>"))
    assert moves(from_patch) == moves(whole) == {ASM}
    assert not from_patch.problems


@pytest.mark.parametrize("closing", ["</exclusion>", "</artifactItem>"])
def test_another_elements_closing_tag_names_no_dependency(tmp_path: Path, closing: str) -> None:
    # an exclusion has no version and an artifactItem is a plugin's configuration, not a dependency
    text = POM.replace("</dependency>\n    </dependencies>", f"{closing}\n    </dependencies>")
    from_patch, _ = _delta(tmp_path, "pom.xml", text, text.replace("<version>9.10</version>",
                                                                    "<version>9.10.1</version>"))
    assert not from_patch.changes and partial(from_patch, "pom.xml")


@pytest.mark.parametrize("between", ["<exclusions>", "<type>pom</type><scope>import</scope>", "text"])
def test_a_closing_tag_past_anything_but_one_line_children_names_nothing(tmp_path: Path, between: str) -> None:
    text = POM.replace("<version>9.10</version>\n", f"<version>9.10</version>\n        {between}\n")
    from_patch, _ = _delta(tmp_path, "pom.xml", text, text.replace("<version>9.10</version>",
                                                                    "<version>9.10.1</version>"))
    assert not from_patch.changes and partial(from_patch, "pom.xml")


def test_a_closing_tag_below_does_not_stand_for_an_id_the_hunk_does_not_show(tmp_path: Path) -> None:
    text = POM.replace("<groupId>org.ow2.asm</groupId>", "<type>jar</type>")
    from_patch, _ = _delta(tmp_path, "pom.xml", text, text.replace("<version>9.10</version>",
                                                                    "<version>9.10.1</version>"))
    assert not from_patch.changes and partial(from_patch, "pom.xml")


def test_a_whole_line_comment_added_beside_a_bump_is_no_edit(tmp_path: Path) -> None:
    after = POM.replace("<version>9.10</version>", "<version>9.10.1</version>").replace(
        "      <dependency>\n        <!--", "      <!-- keep in sync with ASM_VERSION in the workflow -->\n"
        "      <dependency>\n        <!--")
    from_patch, whole = _delta(tmp_path, "pom.xml", POM, after)
    assert moves(from_patch) == moves(whole) == {ASM}
    assert not from_patch.problems


@pytest.mark.parametrize("comment", ["<!-- spans", "-->", "<!-- a --> <version>1</version>"])
def test_a_line_that_is_not_one_whole_comment_still_refuses(tmp_path: Path, comment: str) -> None:
    after = POM.replace("<version>9.10</version>", "<version>9.10.1</version>").replace(
        "      <dependency>\n        <!--", f"      {comment}\n      <dependency>\n        <!--")
    from_patch, _ = _delta(tmp_path, "pom.xml", POM, after)
    assert partial(from_patch, "pom.xml")


VALUES = """# -- Number of replicas
replicaCount: 1

image:
  # -- Registry to pull the image from
  registry: ghcr.io
  # -- Image name to pull
  repository: renovatebot/renovate
  # -- Image tag to pull
  tag: 44.39.1
  # -- Pull policy
  pullPolicy: IfNotPresent

service:
  type: ClusterIP
"""
V_PATH = "charts/renovate/values.yaml"


def test_a_values_tag_whose_mapping_opens_above_the_hunk_is_named_beside_a_problem(tmp_path: Path) -> None:
    from_patch, whole = _delta(tmp_path, V_PATH, VALUES, VALUES.replace("tag: 44.39.1", "tag: 44.39.2"))
    assert moves(whole) == {("docker", "ghcr.io/renovatebot/renovate", "44.39.1", "44.39.2")}
    # as shown (the registry is out of the hunk): a name that may be wrong, so never without its problem
    assert moves(from_patch) == {("docker", "renovatebot/renovate", "44.39.1", "44.39.2")}
    assert "does not show where the mapping" in _problem(from_patch, V_PATH)


def test_a_values_mapping_the_hunk_shows_from_its_opening_needs_no_problem(tmp_path: Path) -> None:
    text = VALUES.replace("  # -- Registry to pull the image from\n  registry: ghcr.io\n", "").replace(
        "  # -- Image name to pull\n", "")
    from_patch, whole = _delta(tmp_path, V_PATH, text, text.replace("tag: 44.39.1", "tag: 44.39.2"))
    assert moves(from_patch) == moves(whole) == {("docker", "renovatebot/renovate", "44.39.1", "44.39.2")}
    assert not from_patch.problems


def test_a_values_mapping_whose_registry_the_hunk_shows_needs_no_problem(tmp_path: Path) -> None:
    # its opening is still above the hunk, but the one key that would rename the image is in sight
    text = VALUES.replace("  # -- Image name to pull\n", "").replace("  # -- Image tag to pull\n", "")
    from_patch, whole = _delta(tmp_path, V_PATH, text, text.replace("tag: 44.39.1", "tag: 44.39.2"))
    assert moves(from_patch) == moves(whole) == {("docker", "ghcr.io/renovatebot/renovate", "44.39.1", "44.39.2")}
    assert not from_patch.problems


@each_case(("repository", "problem"), [
    ("ghcr.io/maxmind/geoipupdate", False), ("localhost:5000/geoipupdate", False), ("localhost/geoipupdate", False),
    ("maxmind/geoipupdate", True), ("geoipupdate", True), ("maxmind.io", True)])
def test_a_values_repository_that_names_its_registry_needs_no_problem(tmp_path: Path, repository: str,
                                                                      problem: bool) -> None:
    # a first component with a dot, a port or `localhost` is a registry host: no `registry:` key joins it
    text = ("geoip:\n  enabled: false\n  image:\n    # -- The repository for the geoip image.\n"
            f"    repository: {repository}\n    # -- The docker tag for the geoip image.\n    tag: v7.1.1\n"
            "  accountId: ''\n")
    from_patch, _ = _delta(tmp_path, V_PATH, text, text.replace("v7.1.1", "v8.0.0"))
    assert moves(from_patch) == {("docker", repository, "v7.1.1", "v8.0.0")}
    assert bool(_problem(from_patch, V_PATH)) is problem


def test_a_values_list_item_opens_its_own_mapping(tmp_path: Path) -> None:
    text = ("extraContainers:\n  - name: sidecar\n    args: [run]\n    env: []\n    ports: []\n  - repository: "
            "library/busybox\n    tag: 1.36.0\n    pullPolicy: Always\n")
    from_patch, _ = _delta(tmp_path, V_PATH, text, text.replace("tag: 1.36.0", "tag: 1.37.0"), "-U1")
    assert moves(from_patch) == {("docker", "library/busybox", "1.36.0", "1.37.0")}
    assert not from_patch.problems


def test_the_gate_reviews_a_values_tag_whose_mapping_the_patch_does_not_show(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    case = Case(tmp_path, {V_PATH: VALUES}, {V_PATH: VALUES.replace("tag: 44.39.1", "tag: 44.39.2")})
    from_patch = gate(capsys, case, False)
    assert from_patch["outcome"] == "review"
    assert "deps.unreadable" in [r["rule"] for r in from_patch["reasons"]]
    with_tree = gate(capsys, case, True)
    assert "deps.unreadable" not in [r["rule"] for r in with_tree["reasons"]]
