"""Diagrams are `other`, by name and by their root element (issue 12, classes53; diagrams.py, other.diagrams).

Five labelled files of five sets were draw.io diagrams kept as `.xml` or without an extension (wgpu's
`etc/big-picture.xml`, Atlassian's `docs/docs/assets/images/KubernetesOverview.xml`, a Fargate sample's
`drawio/alb-fargate-rds-ssm.xml`, two AWS workshops'); the fallback made them `src`. A diagram is a picture, as an
image is (principle 8). The content only raises `src` to `other`: an infrastructure file stays what it was, whatever
its text holds, and an XML document that is not a diagram keeps its class.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gitdiffs import commit_patch
from gitrepo import two_commits
from incli import run_cli, tree_classify
from tables import each_case

from gatekeeper.classify.diagrams import by_head, read_by_head

# Real shapes, written here: the editor's saved file (one line, the page compressed), an uncompressed page, a
# declaration and a comment first, a byte order mark, a bare graph model.
COMPRESSED = ('<mxfile host="app.diagrams.net" modified="2024-01-02T10:00:00.000Z" agent="Mozilla/5.0" '
              'version="22.1.5" type="device"><diagram id="p1" name="Page-1">'
              '7V1bc6O4Ev41rso+xMUd8+</diagram></mxfile>\n')
PLAIN = ('<mxfile host="Electron" version="24.0.0">\n  <diagram name="Page-1" id="a1">\n'
         '    <mxGraphModel dx="829" dy="896" grid="1" gridSize="10">\n      <root>\n        <mxCell id="0" />\n'
         '        <mxCell id="1" parent="0" />\n      </root>\n    </mxGraphModel>\n  </diagram>\n</mxfile>\n')
DECLARED = '<?xml version="1.0" encoding="UTF-8"?>\n<!-- exported by draw.io -->\n' + PLAIN
BOM = "\ufeff" + PLAIN
MODEL = '<mxGraphModel dx="1000" dy="600"><root><mxCell id="0"/></root></mxGraphModel>\n'
DIAGRAMS = {"COMPRESSED": COMPRESSED, "PLAIN": PLAIN, "DECLARED": DECLARED, "BOM": BOM, "MODEL": MODEL}

# Look-alikes that must not move: XML of other kinds, and a diagram's element further down another document.
POM = ('<?xml version="1.0"?>\n<project xmlns="http://maven.apache.org/POM/4.0.0">\n'
       '  <modelVersion>4.0.0</modelVersion>\n  <groupId>x</groupId><artifactId>y</artifactId>'
       '<version>1</version>\n</project>\n')
LAYOUT = ('<?xml version="1.0" encoding="utf-8"?>\n<LinearLayout xmlns:android="http://schemas.android.com/apk/res/'
          'android" android:layout_width="match_parent" />\n')
EMBEDDED = '<?xml version="1.0"?>\n<fixtures>\n  <case name="drawio">&lt;mxfile&gt;</case>\n  <mxfile/>\n</fixtures>\n'
NEAR = '<mxfilelist><item/></mxfilelist>\n'  # an element whose name only starts like draw.io's
K8S = ("# drawn in <mxfile> too\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n"
       "  template:\n    spec:\n      containers:\n        - name: web\n          image: nginx:1.25\n")


@each_case("shape", sorted(DIAGRAMS))
def test_the_root_element_says_diagram(shape: str) -> None:
    signal = by_head("docs/architecture.xml", DIAGRAMS[shape].encode())
    assert signal is not None and (signal.bucket, signal.rule) == ("other", "other.content.diagram"), signal


@each_case("text", [POM, LAYOUT, EMBEDDED, NEAR, K8S, "", "<"], ids=["pom", "layout", "embedded", "near",
                                                                                    "k8s", "empty", "lt"])
def test_other_xml_is_no_diagram(text: str) -> None:
    assert by_head("docs/architecture.xml", text.encode()) is None


@each_case(("path", "read"), [
    ("docs/a.xml", True), ("workshop/diagrams/private-construct-hub", True), ("etc/Big.XML", True),
    ("charts/x-1.0.0.tgz", True), (".env", False), ("src/main.py", False), ("docs/a.md", False), ("src/x.go", False),
])
def test_which_names_are_read_by_their_head(path: str, read: bool) -> None:
    assert read_by_head(path) is read


def test_hostile_heads_stay_bounded() -> None:
    # An unclosed declaration, endless comments, a root after the bounded prefix: no match, and no quadratic scan.
    for head in (b"<?xml " + b"a" * 8192, b"<!--" * 2048, b" " * 300 + b"<mxfile>", b"<!-- x -->" * 5 + b"<mxfile>"):
        assert by_head("a.xml", head) is None


FILES = {  # path -> (base text, bucket with the commits)
    "etc/big-picture.xml": (COMPRESSED, "other"),
    "docs/docs/assets/images/KubernetesOverview.xml": (PLAIN, "other"),
    "drawio/alb-fargate-rds-ssm.xml": (DECLARED, "other"),
    "workshop/diagrams/private-construct-hub": (COMPRESSED, "other"),
    "MachineLearning/assets/WildRydesML.xml": (BOM, "other"),
    "pom.xml": (POM, "deps"),
    "app/src/main/res/layout/main.xml": (LAYOUT, "src"),
    "test/fixtures/cases.xml": (EMBEDDED, "src"),
    "charts/web/templates/overview.xml": (PLAIN, "iac"),  # a chart's template is rendered whatever it holds
    "deploy/web": (K8S, "iac"),  # raised by its content; no diagram lowers it
}


@pytest.fixture(scope="module")
def commits(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    base = {path: text for path, (text, _) in FILES.items()}
    base["charts/web/Chart.yaml"] = "apiVersion: v2\nname: web\nversion: 1.0.0\n"
    head = {path: text.replace("Page-1", "Page-2") + "\n" for path, (text, _) in FILES.items()}
    repo, first, second = two_commits(tmp_path_factory.mktemp("diagrams") / "repo", base, head)
    return repo.root, first, second


@each_case("path", sorted(FILES))
def test_with_the_commits(commits: tuple[Path, str, str], path: str) -> None:
    entry = tree_classify(*commits)[path]
    assert entry["bucket"] == FILES[path][1], entry


def test_an_added_diagram_from_a_patch(tmp_path: Path) -> None:
    # The patch shows the whole new file: its root element decides without the commits.
    repo, base, head = two_commits(tmp_path / "repo", {"README.md": "x\n"},
                                   {"docs/flow.xml": PLAIN, "docs/arch": COMPRESSED, "pom.xml": POM})
    patch = tmp_path / "change.patch"
    patch.write_bytes(commit_patch(repo, base, head))
    done = run_cli(["classify", patch, "--format", "json"], text=True)
    assert done.returncode == 0, done.stderr
    got = {e["path"]: (e["bucket"], e["rule"]) for e in json.loads(done.stdout)["files"]}
    assert got["docs/flow.xml"] == ("other", "other.content.diagram"), got
    assert got["docs/arch"] == ("other", "other.content.diagram"), got
    assert got["pom.xml"][0] == "deps", got


@each_case(("path", "bucket"), [
    ("docs/overview.drawio", "other"), ("docs/flow.dio", "other"), ("docs/sketch.excalidraw", "other"),
    ("images/architecture-overview.graffle/data.plist", "other"), ("images/deploy.cast", "other"),
    ("docs/system.vsdx", "other"), ("terraform/network.drawio", "other"),  # a picture in an IaC folder, as a .png is
    # what a CI, chart or role folder holds by its rule stays so
    (".github/workflows/ci.cast", "ci"), ("charts/web/templates/a.drawio", "iac"),
    ("roles/web/files/a.drawio", "iac"), ("docs/diagram.mmd", "src"), ("docs/model.puml", "src"),
])
def test_diagram_names(tmp_path: Path, path: str, bucket: str) -> None:
    listing = tmp_path / "paths.txt"
    listing.write_text(path + "\n")
    done = run_cli(["classify", "--paths", listing, "--format", "json"], text=True)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["files"][0]["bucket"] == bucket, done.stdout


# Maven settings under an ordinary name (argo-workflows' `sdks/java/settings.xml`, labelled deps): the repositories,
# mirrors and credentials every dependency is fetched with. Raised to deps by the root element, never lowered.
SETTINGS_NS = ('<settings xmlns="http://maven.apache.org/SETTINGS/1.0.0"\n'
               '  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"\n'
               '  xsi:schemaLocation="http://maven.apache.org/SETTINGS/1.0.0 '
               'http://maven.apache.org/xsd/settings-1.0.0.xsd">\n  <servers>\n    <server>\n      <id>ossrh</id>\n'
               '      <username>${env.OSSRH_USER}</username>\n    </server>\n  </servers>\n</settings>\n')
SETTINGS_BARE = ('<?xml version="1.0" encoding="UTF-8"?>\n<!-- CI mirror -->\n<settings>\n  <mirrors>\n    <mirror>\n'
                 '      <id>corp</id><url>https://repo.example.invalid/maven</url><mirrorOf>*</mirrorOf>\n'
                 '    </mirror>\n  </mirrors>\n</settings>\n')
ANDROID_PREFS = ('<?xml version="1.0" encoding="utf-8"?>\n<PreferenceScreen xmlns:android="http://schemas.android.com/apk/'
                 'res/android">\n  <SwitchPreference android:key="sync" />\n</PreferenceScreen>\n')
APP_SETTINGS = '<settings>\n  <theme>dark</theme>\n  <servers>later</servers>\n</settings>\n'  # an app's own settings


@each_case(("text", "rule"), [(SETTINGS_NS, "deps.content.maven-settings"),
                                            (SETTINGS_BARE, "deps.content.maven-settings"),
                                            (ANDROID_PREFS, None), (APP_SETTINGS, None)],
                         ids=["namespace", "bare", "android", "app"])
def test_maven_settings_by_root(text: str, rule: str | None) -> None:
    signal = by_head("sdks/java/settings.xml", text.encode())
    assert (signal.rule if signal is not None else None) == rule, signal
    assert by_head("sdks/java/settings", text.encode()) is None or rule is None  # `.xml` names only


def test_maven_settings_with_the_commits(tmp_path: Path) -> None:
    files = {"sdks/java/settings.xml": SETTINGS_NS, "tools/maven-settings.xml": SETTINGS_BARE,
             "app/src/main/res/xml/settings.xml": ANDROID_PREFS, "conf/settings.xml": APP_SETTINGS}
    repo, base, head = two_commits(tmp_path / "repo", files, {p: t + "\n" for p, t in files.items()})
    got = {p: e["bucket"] for p, e in tree_classify(repo.root, base, head).items()}
    assert got == {"sdks/java/settings.xml": "deps", "tools/maven-settings.xml": "deps",
                   "app/src/main/res/xml/settings.xml": "src", "conf/settings.xml": "src"}, got
