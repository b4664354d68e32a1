"""The rules file: the index against a plain-regex reference on the shipped rules, validation, overlays."""

from __future__ import annotations

import hashlib
import os
import random
import re
import shutil
import textwrap
import threading
from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.classify import load_rules
from gatekeeper.classify.glob import full_regex
from gatekeeper.classify.index import GlobIndex
from gatekeeper.errors import LimitError, RulesError

REPO_ROOT = Path(__file__).resolve().parent.parent
SHIPPED = REPO_ROOT / "policies"

CATCH_ALL = """
  - id: src.default
    bucket: src
    description: everything else
    match: ["**"]
"""


def write_rules(folder: Path, body: str, *, catch_all: bool = True) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    text = "version: 1\nrules:\n" + textwrap.indent(textwrap.dedent(body).strip("\n"), "  ") + "\n"
    if catch_all:
        text += CATCH_ALL.lstrip("\n")
    (folder / "classification.yaml").write_text(text)
    return folder


def line_of(folder: Path, needle: str, name: str = "classification.yaml") -> int:
    for number, line in enumerate((folder / name).read_text().splitlines(), start=1):
        if needle in line:
            return number
    raise AssertionError(f"{needle!r} not in the file")


# -- the index agrees with one regex per glob, on the shipped rules ---------------------------

_WORDS = [
    "src",
    "lib",
    "pkg",
    "app",
    "test",
    "tests",
    "spec",
    "testdata",
    "fixtures",
    "data",
    ".github",
    "workflows",
    "actions",
    ".gitlab",
    "ci",
    ".circleci",
    "deploy",
    "k8s",
    "charts",
    "templates",
    "roles",
    "tasks",
    "docs",
    "man",
    "examples",
    "vendor",
    "gradle",
    "wrapper",
    ".yarn",
    "releases",
    "infra",
    "cloudformation",
    "manifests",
    "playbooks",
    "helm",
    "{{cookiecutter.x}}",
    "node_modules",
    "a",
    "B",
]
_NAMES = [
    "main.go",
    "index.ts",
    "README.md",
    "package.json",
    "yarn.lock",
    "Dockerfile",
    "Dockerfile.prod",
    "x.Dockerfile",
    "main.tf",
    "values.yaml",
    "values-prod.yaml",
    "Chart.yaml",
    "Chart.lock",
    "ci.yml",
    "config.yml",
    "deployment.yaml",
    "Jenkinsfile",
    "Jenkinsfile.release",
    "git.1.md",
    "foo.tt",
    "requirements-dev.txt",
    "gradle-wrapper.properties",
    "libs.versions.toml",
    "CODEOWNERS",
    "AGENTS.md",
    "logo.PNG",
    "data.csv",
    "x.pp",
    "init.sls",
    ".gitlab-ci.yml",
    "a.gitlab-ci.yml",
    "action.yml",
    "MODULE.bazel",
    "x.MODULE.bazel",
    "maven_install.json",
    "site.yml",
    "LICENSE-MIT",
    "",
    "\0",
]


def _random_paths(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    paths = []
    for _ in range(count):
        depth = rng.randint(0, 5)
        name = rng.choice(_NAMES) or "x"
        paths.append("/".join([*(rng.choice(_WORDS) for _ in range(depth)), name]))
    return paths


def test_index_agrees_with_plain_regexes_on_the_shipped_rules() -> None:
    rules = load_rules(SHIPPED)
    globs = [g for rule in (*rules.rules, *rules.tag_rules) for g in rule.globs]
    fullmatches = [full_regex(g).fullmatch for g in globs]
    index = GlobIndex(globs)
    answers: dict[str, int] = {}  # the 3000 draws hold ~2440 distinct paths: each is matched against the regexes once
    for path in _random_paths(3000, seed=7):
        if path not in answers:
            answers[path] = sum(1 << i for i, fullmatch in enumerate(fullmatches) if fullmatch(path))
        expected = answers[path]
        assert index.mask(path) == expected, path
        assert index.uncached_mask(path) == expected, path


def test_match_is_the_first_rule_of_explain_and_explain_is_in_file_order() -> None:
    rules = load_rules(SHIPPED)
    order = {rule.id: i for i, rule in enumerate(rules.rules)}
    for path in _random_paths(500, seed=11):
        hits = rules.explain(path)
        assert hits and hits[0].decides and not any(h.decides for h in hits[1:])
        assert hits[0].rule.id == rules.match(path).rule
        # The deciding rule first, the others in file order; it is the first in file order too, unless a ci or iac
        # rule decided for an open-ended name or a test-data rule before it (classes52; test data lowers deps only).
        rest = [order[h.rule.id] for h in hits[1:]]
        assert rest == sorted(rest)
        assert order[hits[0].rule.id] < min(rest, default=len(order)) or hits[0].rule.bucket in ("ci", "iac")
        assert hits[-1].rule.id == "src.default"


def test_first_match_wins_whatever_the_index_kind(tmp_path: Path) -> None:
    # A regex-only glob early in the list must beat an exact-name glob later on, and the reverse.
    folder = write_rules(
        tmp_path,
        """
        - id: early.regex
          bucket: other
          description: a class, so only a regex can say it
          match: ["[Mm]akefile"]
        - id: later.exact
          bucket: ci
          description: exact name
          match: ["Makefile", "build.sh"]
        - id: later.regex
          bucket: iac
          description: regex after exact
          match: ["b[u]ild.sh"]
        """,
    )
    rules = load_rules(folder)
    assert rules.match("x/Makefile").rule == "early.regex"
    assert rules.match("build.sh").rule == "later.exact"
    assert [h.rule.id for h in rules.explain("build.sh")] == ["later.exact", "later.regex", "src.default"]
    assert rules.explain("build.sh")[1].pattern == "b[u]ild.sh"


def test_shipped_rules_load_with_a_digest_over_the_file() -> None:
    rules = load_rules(SHIPPED)
    data = (SHIPPED / "classification.yaml").read_bytes()
    expected = hashlib.sha256(b"classification.yaml\0" + str(len(data)).encode() + b"\0" + data).hexdigest()
    context = (SHIPPED / "classification-context.yaml").read_bytes()
    # The context tiers' data is part of the digest too (docs/classification.md).
    combined = hashlib.sha256(f"{expected}\0context\0{len(context)}\0".encode() + context).hexdigest()
    assert rules.digest == combined
    assert rules.rules[-1].id == "src.default"
    assert {r.bucket for r in rules.rules} == {"ci", "iac", "deps", "src", "other"}
    assert all(r.description and r.line > 0 for r in (*rules.rules, *rules.tag_rules))


def test_a_bundle_is_built_once_per_content_and_an_edit_is_read_again(tmp_path: Path) -> None:
    body = """
        - id: first.ci
          bucket: ci
          description: the first version
          match: ["build.sh"]
        """
    folder = write_rules(tmp_path, body)
    first = load_rules(folder)
    assert load_rules(folder) is first  # same bytes, same folder: the built set is reused
    # One byte more in an overlay (same size of the main file, same second): read again, never the stale set.
    overlay = folder / "classification.d"
    overlay.mkdir()
    (overlay / "x.yaml").write_text("version: 1\nremove: [first.ci]\n")
    edited = load_rules(folder)
    assert edited is not first and edited.digest != first.digest
    assert edited.match("build.sh").rule == "src.default"
    (overlay / "x.yaml").unlink()
    (folder / "classification.yaml").write_bytes(
        (folder / "classification.yaml").read_bytes().replace(b"bucket: ci", b"bucket: iac")
    )
    assert load_rules(folder).match("build.sh").bucket == "iac"


_MAIN_BODY = """
    - id: main.rule
      bucket: iac
      description: the main file's rule
      match: ["build.sh"]
    """
_OVERLAY = "version: 1\nrules:\n  - id: over.rule\n    bucket: iac\n    description: d\n    match: [\"ops.sh\"]\n"
_CONTEXT_FILES = {"main": "classification.yaml", "overlay": "classification.d/10-x.yaml",
                  "context": "classification-context.yaml"}


def _same_size_edit(data: bytes, where: str) -> bytes:
    """One edit that keeps the file's size: the bucket word (`iac` to `src`, what the rule decides), or one byte of a
    trailing comment at its start or end (the digest alone tells)."""
    if where == "bucket":
        return data.replace(b"bucket: iac", b"bucket: src", 1)
    return data[:-2] + b"y\n" if where == "comment-end" else data[:-10] + b"Z" + data[-9:]


@each_case(("name", "where", "keep_mtime"), [(name, where, keep) for name in _CONTEXT_FILES
                                             for where in ("bucket", "comment-end", "comment-start")
                                             if not (name == "context" and where == "bucket")
                                             for keep in (True, False)])
def test_an_in_place_edit_of_any_rules_file_is_read_again(tmp_path: Path, name: str, where: str,
                                                          keep_mtime: bool) -> None:
    # The built set is held by folder and compared byte for byte (suite round 33): an edit that keeps the size and the
    # timestamp (what a checkout, or a test, may do) is a new set; the same bytes are the same set.
    folder = write_rules(tmp_path / "bundle", _MAIN_BODY)
    (folder / "classification.yaml").write_text((folder / "classification.yaml").read_text() + "# comment xxxxxxxxxx\n")
    (folder / "classification.d").mkdir()
    (folder / "classification.d/10-x.yaml").write_text(_OVERLAY + "# comment xxxxxxxxxx\n")
    (folder / "classification-context.yaml").write_bytes(
        (SHIPPED / "classification-context.yaml").read_bytes() + b"# comment xxxxxxxxxx\n")
    first = load_rules(folder)
    assert load_rules(folder) is first
    path = folder / _CONTEXT_FILES[name]
    path.write_bytes(path.read_bytes())  # the same bytes again, a new timestamp: the same set
    assert load_rules(folder) is first
    status = path.stat()
    edited = _same_size_edit(path.read_bytes(), where)
    assert len(edited) == status.st_size and edited != path.read_bytes()
    path.write_bytes(edited)
    if keep_mtime:
        os.utime(path, ns=(status.st_atime_ns, status.st_mtime_ns))
    again = load_rules(folder)
    assert again is not first and again.digest != first.digest
    fresh = load_rules(_copy_of(folder, tmp_path / "fresh"))  # what a process that never saw the first bytes builds
    assert again.digest == fresh.digest
    assert [again.match(p).bucket for p in ("build.sh", "ops.sh")] == [fresh.match(p).bucket for p in ("build.sh",
                                                                                                          "ops.sh")]
    if where == "bucket":
        assert again.match("build.sh" if name == "main" else "ops.sh").bucket == "src"


@each_case("change", ["add", "remove", "rename"])
def test_an_overlay_added_removed_or_renamed_is_read_again(tmp_path: Path, change: str) -> None:
    folder = write_rules(tmp_path / "bundle", _MAIN_BODY)
    (folder / "classification.d").mkdir()
    overlay = folder / "classification.d/10-x.yaml"
    if change != "add":
        overlay.write_text(_OVERLAY)
    first = load_rules(folder)
    if change == "add":
        overlay.write_text(_OVERLAY)
    elif change == "remove":
        overlay.unlink()
    else:
        overlay.rename(folder / "classification.d/20-x.yaml")  # same bytes, another name: another digest
    again = load_rules(folder)
    assert again is not first and again.digest != first.digest
    assert again.match("ops.sh").bucket == ("src" if change == "remove" else "iac")


def _copy_of(folder: Path, to: Path) -> Path:
    shutil.copytree(folder, to)
    return to


# -- validation: every error names FILE:LINE and what to do -----------------------------------


@each_case(("body", "needle", "message"), [
        (
            """
            - id: a
              bucket: pipelines
              description: d
              match: ["x"]
            """,
            "bucket: pipelines",
            "unknown bucket 'pipelines'",
        ),
        (
            """
            - id: a
              bucket: ci
              description: d
              match: ["ok", "a[b"]
            """,
            'match: ["ok", "a[b"]',
            "bad glob 'a[b'",
        ),
        (
            """
            - id: a
              bucket: ci
              description: d
              match: ["x"]
            - id: a
              bucket: src
              description: d
              match: ["y"]
            """,
            "bucket: src",
            "duplicate rule id 'a'",
        ),
        (
            """
            - id: a
              bucket: ci
              match: ["x"]
            """,
            "id: a",
            "missing 'description'",
        ),
        (
            """
            - id: a
              bucket: ci
              description: d
              matches: ["x"]
            """,
            "matches:",
            "unknown key 'matches'",
        ),
        (
            """
            - id: a
              bucket: deps
              description: d
              tags: [lockfile, pinned]
              match: ["x"]
            """,
            "tags: [lockfile, pinned]",
            "unknown tag 'pinned'",
        ),
        (
            """
            - id: a
              bucket: deps
              description: d
              tags: [binary]
              match: ["x"]
            """,
            "tags: [binary]",
            "comes from the patch",
        ),
        (
            """
            - id: a
              bucket: ci
              description: d
              match: "x"
            """,
            'match: "x"',
            "'match' must be a list",
        ),
        (
            """
            - id: Bad Id
              bucket: ci
              description: d
              match: ["x"]
            """,
            "id: Bad Id",
            "bad rule id",
        ),
        (
            """
            - id: a
              bucket: ci
              description: d
              match: [12]
            """,
            "match: [12]",
            "must be a string",
        ),
        (
            """
            - id: a
              bucket: ci
              description: d
              match: ["x"]
              match: ["y"]
            """,
            'match: ["y"]',
            "given twice",
        ),
    ])
def test_invalid_rules_name_the_line(tmp_path: Path, body: str, needle: str, message: str) -> None:
    folder = write_rules(tmp_path, body)
    with pytest.raises(RulesError) as caught:
        load_rules(folder)
    # For the duplicate, the second definition is the one reported.
    line = line_of(folder, needle) - (1 if needle == "bucket: src" else 0)
    assert message in str(caught.value)
    assert caught.value.where == f"{folder / 'classification.yaml'}:{line}"
    assert caught.value.hint or "must be" in message or "given twice" in message


def test_missing_catch_all_is_refused(tmp_path: Path) -> None:
    folder = write_rules(
        tmp_path,
        """
        - id: a
          bucket: ci
          description: d
          match: ["x"]
        """,
        catch_all=False,
    )
    with pytest.raises(RulesError, match="catch-all") as caught:
        load_rules(folder)
    assert caught.value.where.endswith(f"classification.yaml:{line_of(folder, 'id: a')}")


@each_case(("text", "message", "line"), [
        ("version: 1\nrules: [\n", "invalid YAML", 3),
        ("version: 2\nrules: []\n", "unsupported version", 1),
        ("rules: []\n", "missing 'version: 1'", 1),
        ("version: 1\n", "missing 'rules:'", 1),
        ("version: 1\nrules: {}\n", "'rules' must be a list", 2),
        ("version: 1\nrules: []\nextra: 1\n", "unknown key 'extra'", 3),
        ("", "empty rules file", None),
    ])
def test_malformed_files(tmp_path: Path, text: str, message: str, line: int | None) -> None:
    (tmp_path / "classification.yaml").write_text(text)
    with pytest.raises(RulesError, match=re.escape(message)) as caught:
        load_rules(tmp_path)
    expected = f"{tmp_path / 'classification.yaml'}" + (f":{line}" if line else "")
    assert caught.value.where == expected


def test_unquoted_star_glob_gets_a_hint(tmp_path: Path) -> None:
    (tmp_path / "classification.yaml").write_text("version: 1\nrules:\n  - id: a\n    match:\n      - *.tf\n")
    with pytest.raises(RulesError, match="invalid YAML") as caught:
        load_rules(tmp_path)
    assert caught.value.where.endswith("classification.yaml:5") and '"*.tf"' in (caught.value.hint or "")


def test_missing_and_non_utf8_files(tmp_path: Path) -> None:
    with pytest.raises(RulesError, match="not found"):
        load_rules(tmp_path)
    (tmp_path / "classification.yaml").write_bytes(b"version: 1\nrules: [\xff]\n")
    with pytest.raises(RulesError, match="not UTF-8"):
        load_rules(tmp_path)


# -- overlays: classification.d/*.yaml ---------------------------------------------------------

BASE = """
- id: ci.github
  bucket: ci
  description: workflows
  match: [".github/workflows/**"]
- id: iac.docker
  bucket: iac
  description: dockerfiles
  match: ["Dockerfile"]
"""


def write_overlay(folder: Path, name: str, text: str) -> Path:
    target = folder / "classification.d" / name
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(textwrap.dedent(text).lstrip("\n"))
    return target


def test_overlay_replaces_in_place_inserts_and_removes(tmp_path: Path) -> None:
    folder = write_rules(tmp_path, BASE)
    before = load_rules(folder).digest
    write_overlay(
        folder,
        "10-site.yaml",
        """
        rules:
          - id: iac.docker            # same id: replaced where it stands
            bucket: ci
            description: our Dockerfiles build CI images
            match: ["Dockerfile", "Containerfile"]
          - id: site.testdata         # new, no position: at the top
            bucket: src
            description: our test data
            match: ["qa-data/"]
          - id: site.deploy
            bucket: iac
            description: deploy scripts
            after: ci.github
            match: ["/ops/**"]
          - id: site.workflow-docs
            bucket: src
            description: workflow notes
            before: ci.github
            match: [".github/workflows/*.txt"]
        tag_rules:
          - id: site.guardrail
            tags: [guardrail]
            description: our gate config
            match: ["ops/gate.yaml"]
        """,
    )
    write_overlay(folder, "20-trim.yaml", "remove: [site.workflow-docs]\n")
    rules = load_rules(folder)
    assert [r.id for r in rules.rules] == ["site.testdata", "ci.github", "site.deploy", "iac.docker", "src.default"]
    assert rules.match("Containerfile").bucket == "ci"
    assert rules.match("qa-data/Dockerfile").rule == "site.testdata"
    assert rules.match(".github/workflows/notes.txt").rule == "ci.github"  # removed again by 20-trim
    match = rules.match("ops/gate.yaml")
    assert (match.rule, match.tags) == ("site.deploy", frozenset({"guardrail"}))
    assert rules.digest != before
    assert len(rules.sources) == 3 and rules.sources[1].endswith("10-site.yaml")
    # The replacing rule reports where it now comes from.
    assert rules.rules[3].source.endswith("10-site.yaml")


@each_case(("text", "message"), [
        (
            "rules:\n  - id: x\n    bucket: ci\n    description: d\n    before: nope\n    match: [a]\n",
            "no rule with id 'nope'",
        ),
        (
            "rules:\n  - id: ci.github\n    bucket: ci\n    description: d\n    after: iac.docker\n    match: [a]\n",
            "cannot also move",
        ),
        (
            "rules:\n  - id: x\n    bucket: ci\n    description: d\n    before: a\n    after: b\n    match: [a]\n",
            "not both",
        ),
        ("remove: [nope]\n", "no such rule"),
        ("remove: [src.default]\n", "catch-all"),
        (
            "tag_rules:\n  - id: ci.github\n    tags: [guardrail]\n    description: d\n    match: [a]\n",
            "is a bucket rule",
        ),
    ])
def test_bad_overlays(tmp_path: Path, text: str, message: str) -> None:
    folder = write_rules(tmp_path, BASE)
    write_overlay(folder, "site.yaml", text)
    with pytest.raises(RulesError, match=re.escape(message)):
        load_rules(folder)


def test_overlay_folder_refuses_stray_files(tmp_path: Path) -> None:
    folder = write_rules(tmp_path, BASE)
    write_overlay(folder, "notes.txt", "hello\n")
    with pytest.raises(RulesError, match="unexpected entry"):
        load_rules(folder)


def test_very_deep_paths_do_not_recurse(tmp_path: Path) -> None:
    rules = load_rules(SHIPPED)
    deep = "/".join(["d"] * 3000) + "/main.tf"
    assert rules.match(deep).bucket == "iac"
    assert rules.match("/".join(["testdata"] + ["d"] * 3000) + "/main.tf").bucket == "iac"  # test data lowers deps only
    assert rules.match("/".join(["testdata"] + ["d"] * 3000) + "/main.go").bucket == "src"


def test_the_context_file_is_read_as_bounded_as_the_rules(tmp_path: Path) -> None:
    """classification-context.yaml goes through bounded.read_bytes like classification.yaml: a FIFO there (no writer:
    a plain read blocks forever) is refused at once, and a file past the YAML cap is refused before it is read whole
    (review 66b's Left)."""
    bundle = tmp_path / "bundle"
    shutil.copytree(SHIPPED, bundle)
    context = bundle / "classification-context.yaml"
    context.unlink()
    os.mkfifo(context)
    outcome: list[BaseException | None] = []

    def load() -> None:
        try:
            load_rules(bundle)
            outcome.append(None)
        except BaseException as exc:  # noqa: BLE001 (reported by the assertions below)
            outcome.append(exc)

    worker = threading.Thread(target=load, daemon=True)
    worker.start()
    worker.join(30)  # returns in milliseconds when the reader refuses; a blocking open() never would
    assert not worker.is_alive(), "a FIFO context file blocked the rules' load"
    assert isinstance(outcome[0], RulesError) and "not a regular file" in str(outcome[0])
    context.unlink()
    with open(context, "wb") as handle:
        handle.truncate(1 << 30)  # sparse: costs nothing unless read whole
    with pytest.raises(LimitError, match="larger than 4 MiB"):
        load_rules(bundle)
