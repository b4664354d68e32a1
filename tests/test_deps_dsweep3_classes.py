"""Classes of the misses left across the dependency sets (issue 14, the third sweep), from a patch.

- One hunk that cannot be read safely no longer hides the others (gatekeeper/deps/hunkreads.py). A pre-commit.ci
  autoupdate that also touches a local hook's options (tox-dev/tox, pytest-dev/pytest: `require_serial: true` added,
  an extra's floor `tomli>=2.2.1` raised), or a .tf file whose provider bump sits eight lines from a changed module
  input, named nothing from the patch: every changed line of the file had to be a dependency line. Each hunk is now
  read all or none: the hunks whose lines all read are named, the others are a `partial` problem beside them, so the
  gate still reviews the file (deps.unreadable) but says which bumps the patch does show.
- Terraform's required_providers entry in its form before 0.13, `azurerm = "~> 4.0"`, under the `required_providers {`
  the hunk shows (particuleio/terraform-kubernetes-addons): read by `--tree` as hashicorp/azurerm, refused from the
  patch as "not a version line". Now named as the whole-file reader names it.
- A registry module's `source = "ns/name/provider//subdir"` right above its `version`, the `module "…" {` opening
  above the hunk (a `count` argument between): refused, since another block could hold a source and a version. Now
  named as shown beside a `partial` problem (PartlyShown), reviewed as every such reading is.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case
from test_deps_gate import Case, gate

from gatekeeper.deps import edits, hcllines, hunklines
from gatekeeper.deps.model import ManifestError, PartialEdits, PartlyShown
from gatekeeper.deps.sources import Delta
from tests.deltas import moves, patch, tree
from tests.gitrepo import GitRepo

PRE_COMMIT = """ci:
  autofix_prs: false
  autoupdate_schedule: monthly
repos:
  - repo: https://github.com/pre-commit/pre-commit-hooks
    rev: v5.0.0
    hooks:
      - id: end-of-file-fixer
      - id: trailing-whitespace
      - id: check-toml
      - id: check-yaml
  - repo: https://github.com/astral-sh/ruff-pre-commit
    rev: "v0.9.4"
    hooks:
      - id: ruff-format
      - id: ruff
        args: ["--fix", "--unsafe-fixes", "--exit-non-zero-on-fix"]
  - repo: https://github.com/codespell-project/codespell
    rev: v2.4.1
    hooks:
      - id: codespell
        additional_dependencies: ["tomli>=2.1"]
  - repo: https://github.com/rbubley/mirrors-prettier
    rev: "v3.4.2"
    hooks:
      - id: prettier
        types_or: [yaml, markdown, json]
        exclude: ^docs/changelog/
  - repo: local
    hooks:
      - id: pylint
        name: pylint
        entry: pylint
        language: system
        types: [python]
        args: ["-rn", "-sn"]
        stages: [manual]
"""
PC = ".pre-commit-config.yaml"
RUFF = ('rev: "v0.9.4"', 'rev: "v0.9.6"')
PRETTIER = ('rev: "v3.4.2"', 'rev: "v3.5.0"')
SERIAL = ('args: ["-rn", "-sn"]\n', 'args: ["-rn", "-sn"]\n        require_serial: true\n')
TOMLI = ('["tomli>=2.1"]', '["tomli>=2.2.1"]')
# a hook dependency's range is read since the thirty-third round (tests/test_deps_thirtythird_classes.py); one with a
# marker still is not: the unreadable hunk of this test
MARKED = ('["tomli>=2.1"]', '["tomli>=2.2.1; python_version < \'3.11\'"]')
NAMED = {("pre-commit", "astral-sh/ruff-pre-commit", "v0.9.4", "v0.9.6"),
         ("pre-commit", "rbubley/mirrors-prettier", "v3.4.2", "v3.5.0")}


def _edit(text: str, *pairs: tuple[str, str]) -> str:
    for old, new in pairs:
        assert old in text
        text = text.replace(old, new)
    return text


def _delta(tmp_path: Path, path: str, before: str, after: str) -> tuple[Delta, Delta]:
    """(from the patch git makes, `--tree`) of one file's edit."""
    repo = GitRepo(tmp_path / "repo")
    repo.write(path, before)
    base = repo.commit("base")
    repo.write(path, after)
    head = repo.commit("head")
    return patch(repo, base, head), tree(repo, base, head)


def _problem(delta: Delta, path: str) -> str:
    return " ".join(p.msg for p in delta.problems if p.manifest == path and p.kind == "partial")


# the local hook's option in a hunk of its own; the extra's floor in prettier's hunk (three lines above its rev)
@pytest.mark.parametrize(("other", "named"), [(SERIAL, NAMED), (MARKED, {min(NAMED)})])
def test_the_hunks_that_read_are_named_beside_the_one_that_does_not(tmp_path: Path, other: tuple[str, str],
                                                                    named: set[tuple[str, ...]]) -> None:
    from_patch, whole = _delta(tmp_path, PC, PRE_COMMIT, _edit(PRE_COMMIT, RUFF, PRETTIER, other))
    assert NAMED <= moves(whole)
    assert moves(from_patch) == named
    assert all(c.partial for c in from_patch.changes)
    assert "a hunk cannot be read safely" in _problem(from_patch, PC)


def test_the_extras_floor_raised_is_read_beside_the_revs(tmp_path: Path) -> None:
    from_patch, whole = _delta(tmp_path, PC, PRE_COMMIT, _edit(PRE_COMMIT, RUFF, PRETTIER, TOMLI))
    want = NAMED | {("pip", "tomli", ">=2.1", ">=2.2.1")}
    assert moves(whole) == want and moves(from_patch) == want and not from_patch.problems, from_patch


def test_a_file_whose_hunks_all_read_has_no_problem(tmp_path: Path) -> None:
    from_patch, _ = _delta(tmp_path, PC, PRE_COMMIT, _edit(PRE_COMMIT, RUFF, PRETTIER))
    assert moves(from_patch) == NAMED and not from_patch.problems


def test_a_bump_in_the_refused_hunk_is_not_named(tmp_path: Path) -> None:
    # prettier's rev and the local hook's new option fall in one hunk (five lines apart): none of it is named
    after = _edit(PRE_COMMIT, RUFF, PRETTIER, ("        exclude: ^docs/changelog/\n", ""), SERIAL)
    from_patch, _ = _delta(tmp_path, PC, PRE_COMMIT, after)
    assert moves(from_patch) == {("pre-commit", "astral-sh/ruff-pre-commit", "v0.9.4", "v0.9.6")}
    assert _problem(from_patch, PC)


def test_nothing_readable_is_the_whole_file_refused_as_before(tmp_path: Path) -> None:
    from_patch, _ = _delta(tmp_path, PC, PRE_COMMIT, _edit(PRE_COMMIT, SERIAL, MARKED))
    assert not from_patch.changes
    assert "cannot be read safely" in _problem(from_patch, PC)


def test_a_name_moved_between_two_readable_hunks_is_still_refused_whole(tmp_path: Path) -> None:
    # ruff's entry dropped in one place and written, at another rev, far below: a move, refused for the whole file
    entry = '  - repo: https://github.com/astral-sh/ruff-pre-commit\n    rev: "v0.9.4"\n    hooks:\n' \
            '      - id: ruff-format\n      - id: ruff\n        args: ["--fix", "--unsafe-fixes", ' \
            '"--exit-non-zero-on-fix"]\n'
    after = PRE_COMMIT.replace(entry, "") + entry.replace("v0.9.4", "v0.9.6").replace("  - repo", "  - repo", 1)
    after = _edit(after, SERIAL)
    from_patch, _ = _delta(tmp_path, PC, PRE_COMMIT, after)
    assert ("pre-commit", "astral-sh/ruff-pre-commit", "v0.9.4", "v0.9.6") not in moves(from_patch)
    assert _problem(from_patch, PC)


PACKAGE = """{
  "name": "@example/site",
  "private": true,
  "scripts": {
    "build": "vite build",
    "lint": "eslint .",
    "test": "vitest run",
    "preview": "vite preview",
    "format": "prettier --write ."
  },
  "engines": {
    "node": ">=20"
  },
  "browserslist": [
    "defaults"
  ],
  "dependencies": {
    "react": "^19.1.0",
    "react-dom": "^19.1.0"
  }
}
"""


def test_a_package_json_script_hunk_does_not_hide_a_dependency_hunk(tmp_path: Path) -> None:
    after = _edit(PACKAGE, ('"vitest run"', '"vitest run --coverage"'), ('"react": "^19.1.0"', '"react": "^19.2.0"'))
    from_patch, whole = _delta(tmp_path, "package.json", PACKAGE, after)
    assert moves(whole) == moves(from_patch) == {("npm", "react", "^19.1.0", "^19.2.0")}
    assert _problem(from_patch, "package.json")


def test_the_gate_still_reviews_the_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    case = Case(tmp_path, {PC: PRE_COMMIT}, {PC: _edit(PRE_COMMIT, RUFF, PRETTIER, SERIAL)})
    decided = gate(capsys, case, False)
    assert decided["outcome"] == "review"
    assert "deps.unreadable" in [r["rule"] for r in decided["reasons"]]


@each_case("raw", [
    b"@@ -1 +1 @@\n-  rev: v1\n+  rev: v2\n@@ -9 +9 @@\n+\x00\n",
    b"@@\n@@\n", b"", b"+\n-\n", b"@@ -1,2 +1,2 @@\n-  - repo: a\n+  - repo: b\n\\ No newline at end of file\n",
])
def test_malformed_hunks_do_not_crash(raw: bytes) -> None:
    try:
        edits.read("pre-commit", hunklines.precommit_line, PC, raw)
    except PartialEdits as exc:
        assert all(d.ecosystem == "pre-commit" for d in exc.found[0] + exc.found[1])
    except ManifestError:
        pass


VERSIONS_TF = """terraform {
  required_version = ">= 1.3.2"
  required_providers {
    azurerm    = "~> 3.0"
    helm       = "~> 2.0"
    kubernetes = "~> 2.0, != 2.12"
    kubectl = {
      source  = "alekc/kubectl"
      version = "~> 2.0"
    }
  }
}
"""
AZURERM = ('azurerm    = "~> 3.0"', 'azurerm    = "~> 4.0"')


def test_a_legacy_required_providers_entry_is_read_from_the_hunk(tmp_path: Path) -> None:
    from_patch, whole = _delta(tmp_path, "version.tf", VERSIONS_TF, _edit(VERSIONS_TF, AZURERM))
    assert moves(whole) == moves(from_patch) == {("terraform", "hashicorp/azurerm", "~> 3.0", "~> 4.0")}
    assert not from_patch.problems


def _side(text: str, line: str) -> tuple[list[tuple[str, bool]], int]:
    lines = text.splitlines()
    return [(t, t == line) for t in lines], lines.index(line)


@each_case("text", [
    # not under required_providers: a variable's default, a local, an entry below an object entry's opening
    'variable "azurerm" {\n  azurerm = "~> 4.0"\n}',
    "locals {\n  azurerm = \"~> 4.0\"\n}",
    'required_providers {\n  kubectl = {\n  azurerm = "~> 4.0"',
    'azurerm = "~> 4.0"',  # the opening above the hunk
    'required_providers {\n  azurerm = "${var.v}"',  # no version
    'required_providers {\n  azurerm = "latest"',
    'required_providers {\n  count = length(var.x)\n  azurerm = "~> 4.0"',  # an argument no legacy entry has
])
def test_legacy_look_alikes_are_refused(text: str) -> None:
    changed = [t for t in text.splitlines() if t.strip().startswith("azurerm =")][-1]
    side, index = _side(text, changed)
    with pytest.raises(ManifestError) as caught:
        hcllines.terraform_line(side, index)
    assert not isinstance(caught.value, PartlyShown)


MODULE_TF = """locals {
  bucket = "logs"
}

module "loki_bucket" {
  count = local.enabled ? 1 : 0

  source     = "terraform-google-modules/cloud-storage/google//modules/simple_bucket"
  version    = "~> 5.0"
  project_id = var.project_id
  location   = var.region
  name       = local.bucket
}
"""
MODULE_BUMP = ('"~> 5.0"', '"~> 6.0"')
BUCKET = "terraform-google-modules/cloud-storage/google//modules/simple_bucket"


def test_a_registry_module_version_whose_opening_is_above_the_hunk_is_named_beside_a_problem(tmp_path: Path) -> None:
    from_patch, whole = _delta(tmp_path, "loki.tf", MODULE_TF, _edit(MODULE_TF, MODULE_BUMP))
    assert moves(whole) == moves(from_patch) == {("terraform", BUCKET, "~> 5.0", "~> 6.0")}
    assert "does not show the opening" in _problem(from_patch, "loki.tf")


def test_a_registry_module_whose_opening_the_hunk_shows_needs_no_problem(tmp_path: Path) -> None:
    text = MODULE_TF.replace("  count = local.enabled ? 1 : 0\n\n", "")
    from_patch, _ = _delta(tmp_path, "loki.tf", text, _edit(text, MODULE_BUMP))
    assert moves(from_patch) == {("terraform", BUCKET, "~> 5.0", "~> 6.0")} and not from_patch.problems


@each_case("source", [
    "./modules/bucket", "../bucket", "git::https://example.com/bucket.git", "s3::https://b/x.zip",
    "gcs/bucket", "a/b/c/d", "https://example.com/m.zip", "a/b/${var.c}",
])
def test_other_sources_above_the_hunk_stay_refused(source: str) -> None:
    text = f'  count = 1\n  source = "{source}"\n  version = "~> 6.0"'
    side, index = _side(text, '  version = "~> 6.0"')
    try:
        hcllines.terraform_line(side, index)
    except PartlyShown:
        pytest.fail(f"{source} named as a registry module")
    except ManifestError:
        return
    # a two-part source is a provider's form (read before this sweep): named without a problem
    assert source == "gcs/bucket"


@pytest.mark.parametrize("between", ['  settings {\n    a = 1\n  }\n', '  labels = <<EOT\nx\nEOT\n'])
def test_a_nested_block_between_source_and_version_stays_refused(between: str) -> None:
    text = f'  source = "{BUCKET}"\n{between}  version = "~> 6.0"'
    side, index = _side(text, '  version = "~> 6.0"')
    with pytest.raises(ManifestError) as caught:
        hcllines.terraform_line(side, index)
    assert not isinstance(caught.value, PartlyShown)
