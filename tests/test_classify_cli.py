"""`gatekeeper classify` as a user runs it: real files, real git patches, the CLI's output and exit codes.

Most calls run the CLI in-process (tests/incli.py): the subject is what the command prints and returns.
One success and one refusal (exit 0 and exit 2) run as a real subprocess (`process`).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from incli import run_cli
from tables import each_case

REPO_ROOT = Path(__file__).resolve().parent.parent
POLICY = REPO_ROOT / "policies"


def run(*args: str, stdin: bytes | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess[bytes]:
    done = run_cli(["classify", *args], cwd=cwd or REPO_ROOT, input=stdin)
    assert isinstance(done.stdout, bytes)
    return done  # type: ignore[return-value]


def process(*args: str, stdin: bytes | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess[bytes]:
    """`gatekeeper classify ARGS` as a real process."""
    return subprocess.run(
        [sys.executable, "-m", "gatekeeper", "classify", *args],
        input=stdin,
        capture_output=True,
        cwd=cwd or REPO_ROOT,
        timeout=60,
    )


def ok(done: subprocess.CompletedProcess[bytes]) -> str:
    assert done.returncode == 0, done.stderr.decode()
    assert done.stderr == b""
    return done.stdout.decode()


def failed(done: subprocess.CompletedProcess[bytes]) -> str:
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    err = done.stderr.decode()
    assert "Traceback" not in err
    assert done.stdout == b""
    return err


PATHS = ".github/workflows/ci.yml\n./src/k8sclient.go\r\n\nJenkinsfile\npackage-lock.json\n.circleci/config.yml\n"


def test_paths_file_text_table(tmp_path: Path) -> None:
    listing = tmp_path / "paths.txt"
    listing.write_text(PATHS)
    out = ok(process("--paths", str(listing), "--policy", str(POLICY)))
    lines = out.splitlines()
    assert lines[0].split() == ["BUCKET", "RULE", "TAGS", "PATH"]
    rows = [line.split() for line in lines[1:-1]]
    assert [(r[0], r[-1]) for r in rows] == [
        ("ci", ".github/workflows/ci.yml"),
        ("src", "src/k8sclient.go"),  # "./" dropped, CRLF stripped, blank line skipped
        ("ci", "Jenkinsfile"),
        ("deps", "package-lock.json"),
        ("ci", ".circleci/config.yml"),
    ]
    # Aligned: every row's path starts in the same column as the header's PATH.
    column = lines[0].index("PATH")
    assert all(line[column - 2 : column] == "  " and line[column] != " " for line in lines[1:-1])
    assert lines[-1] == "5 files: ci 3, iac 0, deps 1, src 1, other 0"


def test_paths_from_stdin_as_json_in_input_order() -> None:
    out = ok(run("--paths", "-", "--format", "json", stdin=PATHS.encode()))
    doc = json.loads(out)
    assert [f["path"] for f in doc["files"]] == [
        ".github/workflows/ci.yml", "src/k8sclient.go", "Jenkinsfile", "package-lock.json", ".circleci/config.yml",
    ]
    first = doc["files"][0]
    assert (first["bucket"], first["rule"], first["status"], first["old_path"]) == (
        "ci",
        "ci.workflows-folder",
        "modified",
        None,
    )
    lock = doc["files"][3]
    assert (lock["ecosystem"], lock["tags"]) == ("npm", ["lockfile"])
    assert len(doc["rules_digest"]) == 64


def test_empty_path_list() -> None:
    assert json.loads(ok(run("--paths", "-", "--format", "json", stdin=b"")))["files"] == []
    assert ok(run("--paths", "-", stdin=b"\n\n")).splitlines()[-1].startswith("0 files:")


def test_non_utf8_and_unsafe_paths_survive(tmp_path: Path) -> None:
    listing = tmp_path / "paths.txt"
    listing.write_bytes(b"src/caf\xe9.go\n../outside\n")
    text = run("--paths", str(listing))
    assert text.returncode == 0
    # The byte that is not UTF-8 is shown as \xe9, never raw: on an 8-bit terminal a raw 0x9b is a CSI.
    assert b"src/caf\\xe9.go" in text.stdout
    assert b"[unsafe: '..' path component]" in text.stdout
    doc = json.loads(ok(run("--paths", str(listing), "--format", "json")))
    assert doc["files"][0]["path"].encode("utf-8", "surrogateescape") == b"src/caf\xe9.go"
    assert doc["files"][1]["unsafe"] == "'..' path component"


def test_patch_mode_with_a_real_git_patch(git_repo, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    git_repo.write(".github/workflows/ci.yml", "on: push\n" + "x: 1\n" * 30)
    git_repo.write("main.tf", 'resource "x" "y" {}\n')
    git_repo.write("src/app.go", "package main\n")
    git_repo.commit()
    (git_repo.root / "docs").mkdir()
    git_repo.git("mv", ".github/workflows/ci.yml", "docs/ci.yml")
    git_repo.write("main.tf", 'resource "x" "z" {}\n')
    git_repo.write("src/app.go", "package main\n\nfunc main() {}\n")
    git_repo.write("go.sum", "example.com/x v1.0.0 h1:abc=\n")
    patch = git_repo.save_patch(tmp_path / "change.diff", "-M")

    doc = json.loads(ok(run(str(patch), "--format", "json", "--policy", str(POLICY))))
    by_path = {f["path"]: f for f in doc["files"]}
    assert set(by_path) == {"docs/ci.yml", "main.tf", "src/app.go", "go.sum"}
    moved = by_path["docs/ci.yml"]
    assert (moved["status"], moved["old_path"], moved["bucket"], moved["rule"]) == (
        "renamed", ".github/workflows/ci.yml", "ci", "ci.workflows-folder"
    )
    assert (by_path["main.tf"]["bucket"], by_path["main.tf"]["additions"], by_path["main.tf"]["deletions"]) == (
        "iac",
        1,
        1,
    )
    assert (by_path["src/app.go"]["bucket"], by_path["src/app.go"]["additions"]) == ("src", 2)
    assert (by_path["go.sum"]["bucket"], by_path["go.sum"]["status"], by_path["go.sum"]["ecosystem"]) == (
        "deps",
        "added",
        "go",
    )

    text = ok(run(str(patch)))
    header = text.splitlines()[0].split()
    assert header == ["STATUS", "BUCKET", "RULE", "TAGS", "PATH"]
    assert ".github/workflows/ci.yml -> docs/ci.yml" in text


def test_malformed_patch_exits_2(tmp_path: Path) -> None:
    patch = tmp_path / "bad.diff"
    patch.write_bytes(b"diff --git a/x b/x\n@@ -1,2 +1,2 @@\n-a\n")
    err = failed(process(str(patch)))
    assert str(patch) in err


def test_explain_text() -> None:
    out = ok(run("--explain", ".github/actions/setup/package.json", "--explain", "CLAUDE.md"))
    first, second = out.split("\n\n")
    lines = first.splitlines()
    assert lines[0] == ".github/actions/setup/package.json: deps (rule deps.npm.manifest, ecosystem npm, tags manifest)"
    assert lines[1] == "  tier path"  # no --tree: the path tier decided
    kinds = [line.split()[:2] for line in lines[2:]]
    assert kinds == [
        ["decides", "deps.npm.manifest"],
        ["also", "ci.github-actions"],
        ["also", "ci.github-other"],
        ["also", "src.default"],
    ]
    assert "classification.yaml:" in lines[2]
    assert any(line.split()[:2] == ["tag", "guardrail.agents"] for line in second.splitlines())


def test_explain_json() -> None:
    doc = json.loads(ok(run("--explain", "testdata/Dockerfile", "--format", "json")))
    entry = doc["explain"][0]
    # Test data lowers deps only: the Dockerfile rule below the test-data rule decides (issue 12 item 6).
    assert (entry["path"], entry["bucket"], entry["rule"]) == ("testdata/Dockerfile", "iac", "iac.containers")
    ids = [m["id"] for m in entry["matches"]]  # the deciding rule first, then the others in file order
    assert ids == ["iac.containers", "testdata.folders", "src.default"]
    assert [m["decides"] for m in entry["matches"]] == [True, False, False]
    assert entry["matches"][0]["pattern"] == "Dockerfile"
    assert entry["matches"][0]["line"] > 0 and entry["matches"][0]["source"].endswith("classification.yaml")


def test_bad_rules_exit_2_with_file_and_line(tmp_path: Path) -> None:
    (tmp_path / "classification.yaml").write_text(
        "version: 1\nrules:\n  - id: a\n    bucket: pipeline\n    description: d\n    match: ['x']\n"
    )
    err = failed(run("--paths", "-", "--policy", str(tmp_path), stdin=b"x\n"))
    assert err.startswith(f"gatekeeper: error: {tmp_path / 'classification.yaml'}:4: unknown bucket 'pipeline'")
    assert err.count("\n") == 1


def test_overlay_through_the_cli(tmp_path: Path) -> None:
    bundle = tmp_path / "bundle"
    bundle.mkdir()
    (bundle / "classification.yaml").write_bytes((POLICY / "classification.yaml").read_bytes())
    (bundle / "classification.d").mkdir()
    (bundle / "classification.d" / "site.yaml").write_text(
        "rules:\n  - id: site.ops\n    bucket: iac\n    description: our ops scripts deploy\n"
        "    before: docs.readme\n    match: ['/ops/**']\n"
    )
    doc = json.loads(ok(run("--paths", "-", "--format", "json", "--policy", str(bundle), stdin=b"ops/README.md\n")))
    assert (doc["files"][0]["bucket"], doc["files"][0]["rule"]) == ("iac", "site.ops")


@each_case(
    "args",
    [
        (),
        ("some.diff", "--paths", "-"),
        ("--paths", "-", "--explain", "x"),
        ("--paths", "/nonexistent/paths.txt"),
        ("/nonexistent/change.diff",),
        ("--paths", "-", "--format", "yaml"),
        ("--paths", "-", "--policy", "/nonexistent/bundle"),
    ],
)
def test_usage_errors_exit_2(args: tuple[str, ...]) -> None:
    err = failed(run(*args, stdin=b"x\n"))
    assert err.strip()


def test_path_list_fast_path_equals_the_general_pipeline() -> None:
    # `--paths` skips FileChange objects for speed; its output must be what the general path gives.
    import io

    from gatekeeper.classify import classify_changes, load_rules, render
    from gatekeeper.classify.pathlist import as_changes, classify_paths, read_paths

    rules = load_rules(POLICY)
    data = (
        b"a/b.go\n.github/workflows/x.yml\r\nAGENTS.md\n../x\nyarn.lock\n"
        b"\nsrc/caf\xe9.go\n./docs/ci.md\npolicies/x.rego\n"
    )
    listed = read_paths(io.BytesIO(data))
    matches = classify_paths(listed, rules)
    files = classify_changes(as_changes(listed), rules)
    # The general pipeline adds what only it knows (context, tier, evidence); the rest is identical.
    general = json.loads(render.files_json(files, rules, "patch"))
    assert general.pop("context") == "patch"
    for entry in general["files"]:
        assert (entry.pop("tier"), entry.pop("evidence")) == ("path", None)
    assert json.loads(render.paths_json(listed, matches, rules)) == general
    assert render.paths_text(listed, matches) == render.files_text(files, show_status=False)
    assert [e.line for e in listed] == [1, 2, 3, 4, 5, 7, 8, 9]
