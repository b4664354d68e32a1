"""Over-reads 4, a deps miss: a pip requirements file named in the singular (`requirement.txt`,
`cibuildwheel-requirement.txt`, `requirement-dev.txt`) was not known as one. Below `.github/` it was `ci` by the
folder's rule (cython's `.github/cibuildwheel-requirement.txt`, which a workflow installs with `pip install -r`: the
seventy-eighth set), elsewhere `src`. A requirements file stays `deps` wherever the plural one would (principle 1c/d:
no forge loads it); inside one CI system's folder it stays `ci`, as the plural one does.

The class: the singular forms the plural rule already knows (`requirement.txt`, `requirement-x.txt`,
`requirement_x.txt`, `x-requirement.txt`, `x_requirement.txt`, `.in` and `.pip` alike). Look-alikes: other
extensions and names that only contain the word stay where they were."""

from __future__ import annotations

from conftest import POLICY_DIR
from tables import each_case

from gatekeeper.classify.ruleset import load_rules

STEMS = ["requirement", "requirement-dev", "requirement_test", "cibuildwheel-requirement", "docs_requirement"]
FOLDERS = ["", ".github/", "docs/", ".github/workflows/", "services/api/"]
SINGULAR = [folder + stem + ext for folder in FOLDERS for stem in STEMS for ext in (".txt", ".in", ".pip")]

# (path, bucket): what must not move
LOOK_ALIKES = [
    (".circleci/requirement.txt", "ci"),  # one CI system's folder: CI through and through (principle 1c)
    ("ci/requirement.txt", "ci"),
    ("requirement.md", "src"),
    ("frequirement.txt", "src"),
    ("requirements_met.txt.bak", "src"),
    (".github/requirement.yml", "ci"),
    ("docs/requirement.rst", "src"),
    ("requirementx.txt", "src"),
]


@each_case("path", SINGULAR)
def test_a_singular_requirements_file_is_pip_deps(path: str) -> None:
    hit = load_rules(POLICY_DIR).match(path)
    assert (hit.bucket, hit.rule) == ("deps", "deps.pip.manifest"), (path, hit)


@each_case("path, bucket", LOOK_ALIKES)
def test_look_alikes_keep_their_bucket(path: str, bucket: str) -> None:
    assert load_rules(POLICY_DIR).match(path).bucket == bucket, path
