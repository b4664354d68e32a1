"""Attack 25: deps 35's patch reader of a code-quality block's `toolVersion` walked back to the block for every line.

`gradle_line` names a changed `toolVersion = "…"` line by the block the hunk shows it in (`checkstyle {`), found by
walking back over the lines above it. Every such line walked the whole way again, so a hunk of n of them cost n²
steps: on 39d2717 `gatekeeper deps PATCH` took 0.6 CPU-s for 1,000 changed toolVersion lines (each below a comment
line, so that no two share an edit), 1.9 for 2,000, 7.2 for 4,000; a 1.6 MB patch of 40,000 would take about
12 minutes (the gate with --enable deps reads it the same way). The walk now stops after MAX_BLOCK_WALK lines
and the line is unreadable beyond that (a `partial` problem, pass --tree), as one whose block the hunk does not show
is.
"""

from __future__ import annotations

import json
from pathlib import Path

from cpucost import within_cpu
from gitrepo import GitRepo
from incli import run_cli

from gatekeeper.deps.gradle import MAX_BLOCK_WALK, gradle_line
from gatekeeper.deps.model import ManifestError


def _script(version: int, count: int) -> str:
    return "checkstyle {\n" + "".join(f'    // tool {i}\n    toolVersion = "{version}.{i}"\n'
                                      for i in range(count)) + "}\n"


def test_a_hunk_of_many_tool_versions_is_read_in_linear_time(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.write("build.gradle", _script(1, 4000))
    first = repo.commit("base")
    repo.write("build.gradle", _script(2, 4000))
    second = repo.commit("head")
    patch = tmp_path / "change.diff"
    patch.write_bytes(repo.git("diff", first, second))
    # in this process; before: 7.2 CPU-s
    done = within_cpu(2.5, lambda: run_cli(["deps", str(patch), "--format", "json"], text=True))
    assert done.returncode == 0, done.stderr
    [problem] = json.loads(str(done.stdout))["problems"]
    assert problem["kind"] == "partial"  # as before: one tool edited in many places is not named


def test_a_tool_version_far_below_its_block_is_unreadable_and_one_near_it_is_read() -> None:
    near = [("spotbugs {", False)] + [("    effort = 'max'", False)] * (MAX_BLOCK_WALK - 1)
    assert gradle_line([*near, ('    toolVersion = "4.9.4"', True), ("}", False)], len(near)) == [
        ("com.github.spotbugs:spotbugs", "4.9.4", "maven", "", "spotbugs")]
    far = [*near, ("    effort = 'max'", False)]
    try:
        gradle_line([*far, ('    toolVersion = "4.9.4"', True), ("}", False)], len(far))
    except ManifestError as exc:
        assert "block" in str(exc)
    else:
        raise AssertionError("read a toolVersion whose block is past the walk")
