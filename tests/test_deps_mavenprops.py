"""Maven properties across POMs (mavenprops.py), as zalando/logbook's Dependabot bumps write them: a property
moved in the parent POM (`logbook-parent/pom.xml`) moves a dependency of a module the commit does not touch.
Before this reader the delta showed nothing and no problem for such a commit. Real git repositories: the
module POMs are found through BASE's and HEAD's trees."""

from __future__ import annotations

from pathlib import Path

import pytest

from gatekeeper.deps import mavenprops
from gatekeeper.deps.sources import Delta, tree_delta
from tests.gitrepo import edited_commits

ROOT = """<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
    <modelVersion>4.0.0</modelVersion>
    <groupId>org.zalando</groupId>
    <artifactId>logbook</artifactId>
    <version>4.1.0-SNAPSHOT</version>
    <packaging>pom</packaging>
    <modules>
        <module>logbook-parent</module>
        <module>logbook-openfeign</module>
    </modules>
</project>
"""
PARENT = """<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
    <modelVersion>4.0.0</modelVersion>
    <parent>
        <groupId>org.zalando</groupId>
        <artifactId>logbook</artifactId>
        <version>4.1.0-SNAPSHOT</version>
    </parent>
    <artifactId>logbook-parent</artifactId>
    <packaging>pom</packaging>
    <properties>
        <jackson3.version>3.1.2</jackson3.version>
        <feign.version>13.11</feign.version>
        <spring.version>7.0.6</spring.version>
    </properties>
    <dependencyManagement>
        <dependencies>
            <dependency>
                <groupId>org.springframework</groupId>
                <artifactId>spring-framework-bom</artifactId>
                <version>${spring.version}</version>
                <type>pom</type>
                <scope>import</scope>
            </dependency>
        </dependencies>
    </dependencyManagement>
</project>
"""
MODULE = """<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
    <modelVersion>4.0.0</modelVersion>
    <parent>
        <groupId>org.zalando</groupId>
        <artifactId>logbook-parent</artifactId>
        <version>4.1.0-SNAPSHOT</version>
        <relativePath>../logbook-parent/pom.xml</relativePath>
    </parent>
    <artifactId>logbook-openfeign</artifactId>
    <dependencies>
        <dependency>
            <groupId>io.github.openfeign</groupId>
            <artifactId>feign-core</artifactId>
            <version>${feign.version}</version>
        </dependency>
        <dependency>
            <groupId>tools.jackson.core</groupId>
            <artifactId>jackson-databind</artifactId>
            <version>${jackson3.version}</version>
            <scope>test</scope>
        </dependency>
    </dependencies>
</project>
"""
FILES = {"pom.xml": ROOT, "logbook-parent/pom.xml": PARENT, "logbook-openfeign/pom.xml": MODULE}


def _delta(tmp_path: Path, files: dict[str, str], edits: dict[str, dict[str, str]]) -> Delta:
    repo, base, head = edited_commits(tmp_path / "repo", files, edits)
    with repo.objects() as git:
        return tree_delta(git, base, head)


def _rows(delta: Delta) -> set[tuple[object, ...]]:
    return {(c.manifest, c.name, c.from_version, c.to_version, c.change, c.scope) for c in delta.changes}


def test_a_parent_property_bump_moves_the_module_dependency(tmp_path: Path) -> None:
    delta = _delta(tmp_path, FILES, {"logbook-parent/pom.xml": {"<feign.version>13.11": "<feign.version>13.12"}})
    assert _rows(delta) == {("logbook-parent/pom.xml", "io.github.openfeign:feign-core", "13.11", "13.12",
                             "upgraded", "runtime")}
    assert delta.problems == ()


def test_a_property_used_in_the_parent_and_in_a_module_is_reported_once_per_package(tmp_path: Path) -> None:
    files = {**FILES, "logbook-openfeign/pom.xml": MODULE.replace("${feign.version}", "${spring.version}")}
    delta = _delta(tmp_path, files, {"logbook-parent/pom.xml": {"7.0.6": "7.0.7"}})
    assert _rows(delta) == {
        ("logbook-parent/pom.xml", "org.springframework:spring-framework-bom", "7.0.6", "7.0.7", "upgraded", "runtime"),
        ("logbook-parent/pom.xml", "io.github.openfeign:feign-core", "7.0.6", "7.0.7", "upgraded", "runtime")}


def test_a_touched_module_resolves_its_parents_properties(tmp_path: Path) -> None:
    # the module moves from the parent's property to its own literal version: 3.1.2 → 3.1.3, not `${…}` → 3.1.3
    delta = _delta(tmp_path, FILES, {"logbook-openfeign/pom.xml": {"${jackson3.version}": "3.1.3"}})
    assert _rows(delta) == {("logbook-openfeign/pom.xml", "tools.jackson.core:jackson-databind", "3.1.2", "3.1.3",
                             "upgraded", "dev")}


def test_a_module_overriding_the_property_is_not_moved(tmp_path: Path) -> None:
    own = MODULE.replace("<dependencies>", "<properties><feign.version>12.0</feign.version></properties>\n"
                                           "    <dependencies>", 1)
    delta = _delta(tmp_path, {**FILES, "logbook-openfeign/pom.xml": own},
                   {"logbook-parent/pom.xml": {"<feign.version>13.11": "<feign.version>13.12"}})
    assert _rows(delta) == set()


@pytest.mark.parametrize("relative", [
    "<relativePath/>",  # from a repository, not this tree
    "<relativePath>../../../../etc/pom.xml</relativePath>",  # outside the repository
    "<relativePath>../elsewhere</relativePath>",  # no POM there
])
def test_a_parent_not_in_this_tree_lends_no_properties(tmp_path: Path, relative: str) -> None:
    module = MODULE.replace("<relativePath>../logbook-parent/pom.xml</relativePath>", relative)
    delta = _delta(tmp_path, {**FILES, "logbook-openfeign/pom.xml": module},
                   {"logbook-parent/pom.xml": {"<feign.version>13.11": "<feign.version>13.12"}})
    assert _rows(delta) == set()


def test_another_projects_pom_at_the_parent_path_lends_no_properties(tmp_path: Path) -> None:
    module = MODULE.replace("<artifactId>logbook-parent</artifactId>", "<artifactId>spring-boot-parent</artifactId>")
    delta = _delta(tmp_path, {**FILES, "logbook-openfeign/pom.xml": module},
                   {"logbook-parent/pom.xml": {"<feign.version>13.11": "<feign.version>13.12"}})
    assert _rows(delta) == set()


def test_a_parent_cycle_ends(tmp_path: Path) -> None:
    # the parent names the module as its own parent: a cycle Maven refuses; read once each, then stop
    parent = PARENT.replace("""<groupId>org.zalando</groupId>
        <artifactId>logbook</artifactId>
        <version>4.1.0-SNAPSHOT</version>""", """<groupId>org.zalando</groupId>
        <artifactId>logbook-openfeign</artifactId>
        <version>4.1.0-SNAPSHOT</version>
        <relativePath>../logbook-openfeign/pom.xml</relativePath>""")
    delta = _delta(tmp_path, {**FILES, "logbook-parent/pom.xml": parent},
                   {"logbook-parent/pom.xml": {"<feign.version>13.11": "<feign.version>13.12"}})
    assert ("logbook-parent/pom.xml", "io.github.openfeign:feign-core", "13.11", "13.12", "upgraded",
            "runtime") in _rows(delta)


def test_a_malformed_or_entity_laden_module_is_a_problem_of_the_touched_pom(tmp_path: Path) -> None:
    bad = MODULE.replace("<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
                         "<?xml version=\"1.0\"?>\n<!DOCTYPE p [<!ENTITY a \"aaaa\">]>")
    delta = _delta(tmp_path, {**FILES, "logbook-openfeign/pom.xml": bad},
                   {"logbook-parent/pom.xml": {"<feign.version>13.11": "<feign.version>13.12"}})
    assert [(p.manifest, p.kind) for p in delta.problems] == [("logbook-parent/pom.xml", "partial")]
    assert "logbook-openfeign/pom.xml" in delta.problems[0].msg


def test_a_malformed_parent_makes_the_touched_module_unreadable(tmp_path: Path) -> None:
    files = {**FILES, "logbook-parent/pom.xml": PARENT.replace("</project>", "")}
    delta = _delta(tmp_path, files, {"logbook-openfeign/pom.xml": {"${jackson3.version}": "3.1.3"}})
    assert {(p.manifest, p.kind) for p in delta.problems} == {("logbook-openfeign/pom.xml", "unparsable")}
    assert delta.changes == ()


def test_more_modules_than_are_read_is_a_partial_problem(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mavenprops, "_MAX_POMS", 3)
    files = dict(FILES)
    for n in range(5):
        files[f"m{n}/pom.xml"] = MODULE.replace("logbook-openfeign</artifactId>", f"m{n}</artifactId>")
    delta = _delta(tmp_path, files, {"logbook-parent/pom.xml": {"<feign.version>13.11": "<feign.version>13.12"}})
    assert [(p.manifest, p.kind) for p in delta.problems] == [("logbook-parent/pom.xml", "partial")]
    assert "feign.version" in delta.problems[0].msg


def test_a_self_referencing_property_is_refused_not_substituted_once(tmp_path: Path) -> None:
    # Maven refuses the cycle; read once, `${feign.version}1` stood as a version that moved within itself
    parent = PARENT.replace("<feign.version>13.11</feign.version>", "<feign.version>${feign.version}1</feign.version>")
    delta = _delta(tmp_path, {**FILES, "logbook-parent/pom.xml": parent},
                   {"logbook-parent/pom.xml": {"${feign.version}1<": "${feign.version}2<"}})
    # (and, since red team 11, the non-version value that moved is the XML residue's partial problem too)
    assert {(p.manifest, p.kind) for p in delta.problems} == {("logbook-parent/pom.xml", "partial")}
    assert any("expands without end" in p.msg for p in delta.problems)
