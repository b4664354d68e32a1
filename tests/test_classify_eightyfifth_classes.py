"""The eighty-fifth set's classes (docs/classification.md, "The eighty-fifth set").

GitHub reads a repository's issue and pull request templates from three places: the root, `docs/` and `.github/`
(docs.github.com, "Creating a pull request template for your repository"); the rules named only `.github/`, so
ex_aws' root `ISSUE_TEMPLATE.md` was documentation (`src`) rather than a forge community file (`other`). A template
anywhere else is a document GitHub never reads and stays `src`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gatekeeper.classify import RuleSet, load_rules

REPO_ROOT = Path(__file__).resolve().parents[1]

NAMES = ["ISSUE_TEMPLATE", "PULL_REQUEST_TEMPLATE", "issue_template", "pull_request_template"]
EXTENSIONS = ["", ".md", ".txt", ".markdown"]
TEMPLATES = [f"{folder}{name}{ext}" for folder in ("", "docs/") for name in NAMES for ext in EXTENSIONS]
TEMPLATES += [f"{folder}{name}/{file}" for folder in ("", "docs/")
              for name in ("ISSUE_TEMPLATE", "PULL_REQUEST_TEMPLATE")
              for file in ("bug_report.md", "feature.md", "release.md")]
# a template GitHub does not read: deeper in docs/, in a package folder, in an example project's root
LOOK_ALIKES = ["docs/guide/ISSUE_TEMPLATE.md", "packages/core/ISSUE_TEMPLATE.md", "src/pull_request_template.md",
               "examples/app/PULL_REQUEST_TEMPLATE.md", "doc/ISSUE_TEMPLATE.md", "ISSUE_TEMPLATES.md",
               "docs/issue-template.md"]


@pytest.fixture(scope="module")
def rules() -> RuleSet:
    return load_rules(REPO_ROOT / "policies")


@pytest.mark.parametrize("path", TEMPLATES)
def test_a_template_github_reads_is_a_community_file(rules: RuleSet, path: str) -> None:
    assert (rules.match(path).bucket, rules.match(path).rule) == ("other", "other.github-community")


@pytest.mark.parametrize("path", LOOK_ALIKES)
def test_a_template_github_does_not_read_stays_documentation(rules: RuleSet, path: str) -> None:
    assert rules.match(path).bucket == "src"
