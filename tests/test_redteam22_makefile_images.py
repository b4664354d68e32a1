"""Red team 22: a Makefile's run image swapped while `deps` showed no change.

toolfiles.image_pairs names the image a recipe runs by an image and a tag variable (`DOCKER_IMAGE_X := cft/tools`
beside `DOCKER_TAG_VERSION_X := 1.21`), reading each variable's plain assignment. Make decides by other forms too:
an earlier `:=` above the `?=` read (`?=` then sets nothing), `override`, `define`, a target-specific value or
`$(eval)`. Each swapped the image `docker run` uses while `deps --tree` (and from a patch) reported nothing, so the
`deps` policy's base-image review never fired. Now a pair variable set more than once, or in those forms, is a
problem (`unparsable` with the commits, from a patch's hunks too): the deps policy reviews it (deps.unreadable).
"""

from __future__ import annotations

import json
from pathlib import Path

from tables import each_case

from tests.gitrepo import two_commits
from tests.incli import run_cli

MAKEFILE = """DOCKER_IMAGE_DEVELOPER_TOOLS := cft/developer-tools
DOCKER_TAG_VERSION_DEVELOPER_TOOLS := 1.21
{extra}
.PHONY: docker_run
docker_run:
\tdocker run --rm -it \\
\t\t-v $(CURDIR):/workspace \\
\t\t$(DOCKER_IMAGE_DEVELOPER_TOOLS):$(DOCKER_TAG_VERSION_DEVELOPER_TOOLS) \\
\t\t/bin/bash
"""
EVIL = "evil.example.net/tools"
SWAPS = {
    "earlier_set": (f"DOCKER_IMAGE_DEVELOPER_TOOLS := {EVIL}\n"
                    + MAKEFILE.replace(":= cft", "?= cft")).format(extra=""),
    "override": MAKEFILE.format(extra=f"override DOCKER_IMAGE_DEVELOPER_TOOLS := {EVIL}"),
    "define": MAKEFILE.format(extra=f"define DOCKER_IMAGE_DEVELOPER_TOOLS\n{EVIL}\nendef"),
    "target_specific": MAKEFILE.format(extra=f"docker_run: DOCKER_IMAGE_DEVELOPER_TOOLS := {EVIL}"),
    "eval": MAKEFILE.format(extra=f"$(eval DOCKER_IMAGE_DEVELOPER_TOOLS := {EVIL})"),
}


def _deps(repo_root: Path, *args: str) -> dict:
    done = run_cli(["deps", *args, "--format", "json"], cwd=repo_root, text=True)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@each_case("swap", sorted(SWAPS))
def test_a_swapped_run_image_is_a_problem(tmp_path: Path, swap: str) -> None:
    repo, base, head = two_commits(tmp_path / "repo", {"Makefile": MAKEFILE.format(extra="")},
                                   {"Makefile": SWAPS[swap]})
    tree = _deps(repo.root, "--tree", f"{base}..{head}")
    assert tree["changes"] or tree["problems"], tree  # a8393f2: neither
    patch = tmp_path / "change.diff"
    patch.write_bytes(repo.git("diff", f"{base}..{head}"))
    shown = _deps(repo.root, str(patch))
    assert shown["changes"] or shown["problems"], shown


def test_a_plain_bump_and_an_unrelated_edit_read_as_before(tmp_path: Path) -> None:
    bumped = MAKEFILE.replace("1.21", "1.22").format(extra="LINT := golangci-lint")
    repo, base, head = two_commits(tmp_path / "repo", {"Makefile": MAKEFILE.format(extra="")}, {"Makefile": bumped})
    tree = _deps(repo.root, "--tree", f"{base}..{head}")
    assert [(c["name"], c["from"], c["to"]) for c in tree["changes"]] == [("cft/developer-tools", "1.21", "1.22")]
    assert tree["problems"] == []
