"""Paths past PATH_MAX (cost 44, issue 13): the readers that build a string per folder above a path grow past it.

ciimports.imported named up to 8 ancestor bases for each of 128 modules, each as long as the file's folder (a 1 MiB
folder: 7.0 CPU-s and 2 GB RSS, cost 43); a Node module's 200 climbs cost more than the 40 CPU-s the sweep allowed;
markers.ancestors holds every folder above a path, so a path of a million one-letter folders asked for terabytes
(MemoryError at a 3 GB limit), and a change's path reaches it (Terraform files above, a Heat shipper, a CDK app). No
checkout holds a path longer than PATH_MAX (4096: Linux refuses to open one), so past it nothing is read: the CI walk
fails closed (every file it may name is `ci`, the reason in --explain), and a changed file at such a path is `ci`
(`ci.context.path-past-bound`) before any context reads it. Paths up to the bound read as before.
"""

from __future__ import annotations

import random
import tracemalloc
from pathlib import Path

import pytest
from citools import RUN_WORKFLOW, one_tree_runs
from cpucost import assert_linear

from gatekeeper.catfile import shared_processes
from gatekeeper.classify import ciimports, load_rules, manifestreads, markers
from gatekeeper.classify.context import classify_in_context
from gatekeeper.classify.treecontext import TreeContext
from gatekeeper.classify.treereads import PastBound
from gatekeeper.revrange import resolve_range
from tests.gitrepo import GitRepo

MAX_PATH = 4096  # PATH_MAX: markers.MAX_PATH
RULES = load_rules(Path(__file__).resolve().parent.parent / "policies")
# a long folder, many tooling folders, deep one-letter folders (each a `scripts` import's base or a Node climb's)
SHAPES = {
    "long": lambda size: "scripts/" + "a" * size + "/scripts/c",
    "many": lambda size: "scripts/" * (size // 8) + "c",
    "deep": lambda size: "scripts/" + "a/" * (size // 2) + "c",
}
PYTHON = "".join(f"import scripts.m{i}\nfrom scripts.f{i} import x\n" for i in range(200))
NODE = "".join(f"require('../lib/m{i}')\n" for i in range(200))


def test_the_bound_is_path_max() -> None:
    assert markers.MAX_PATH == MAX_PATH


def _imported(path: str, text: str) -> object:
    try:
        return ciimports.imported(path, text)
    except PastBound:
        return None


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize(("extension", "text"), [(".py", PYTHON), (".js", NODE)])
def test_imports_of_a_file_at_a_long_path_cost_little(shape: str, extension: str, text: str) -> None:
    # on ed28b952 0.17-0.5 CPU-s at 64 KiB (linear, but 7 CPU-s and 2 GB at 1 MiB): the budget is what a refusal costs
    assert_linear(lambda path: _imported(path, text), lambda size: SHAPES[shape](size) + extension, budget=0.05)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("extension", [".py", ".js", ".rb", ".rs"])
def test_a_path_past_the_bound_fails_closed(shape: str, extension: str) -> None:
    path = SHAPES[shape](MAX_PATH) + extension
    assert len(path) > MAX_PATH
    with pytest.raises(PastBound):
        ciimports.imported(path, "import helper\nrequire('./x')\nrequire_relative 'y'\ninclude!(\"z.rs\");\n")


@pytest.mark.parametrize("shape", SHAPES)
def test_a_path_at_the_bound_reads_as_before(shape: str) -> None:
    path = (SHAPES[shape](MAX_PATH) + ".py")[-MAX_PATH:].lstrip("/")
    folder = path.rpartition("/")[0]
    found = ciimports.imported(path, "import helper\n")
    assert f"{folder}/helper.py" in found
    node = path.removesuffix(".py") + ".js"
    assert f"{folder}/x.js" in ciimports.imported(node, "require('./x')\n")


def _walk(folder: str) -> dict[str, tuple[str, str]] | bool:
    return one_tree_runs({".github/workflows/ci.yml": RUN_WORKFLOW.format(run=f"python {folder}/release.py"),
                          f"{folder}/release.py": "import helper\n", f"{folder}/helper.py": "x = 1\n"})


@pytest.mark.parametrize("shape", SHAPES)
def test_the_ci_walk_fails_closed_at_a_script_past_the_bound(shape: str) -> None:
    folder = SHAPES[shape](MAX_PATH)
    assert _walk(folder) is False
    # look-alike: the same script at a path under the bound names its helper
    short = folder[-(MAX_PATH - 64):].strip("/")
    runs = _walk(short)
    assert isinstance(runs, dict) and f"{short}/helper.py" in runs


def _with_path(repo: GitRepo, path: str) -> dict[str, tuple[str, str, str]]:
    """A base commit of a README, then one adding `path` (a Terraform file: git writes it, no checkout can):
    {path: (bucket, rule, evidence)} as `classify --tree` says."""
    repo.write("README.md", "# proj\n")
    base = repo.commit("base")
    data = b'resource "null_resource" "x" {}\n'
    stream = (f"commit refs/heads/main\ncommitter a <a@127.0.0.1> 0 +0000\ndata 4\nhead\nfrom {base}\n"
              f"M 100644 inline {path}\ndata {len(data)}\n").encode() + data + b"\n"
    repo.git("fast-import", "--quiet", input=stream)
    with shared_processes(), TreeContext(resolve_range("main~1..main", repo.root), RULES) as context:
        files = classify_in_context(context.changes(), RULES, context)
    return {f.change.path: (f.bucket, f.rule, f.evidence or "") for f in files}


@pytest.mark.parametrize("shape", SHAPES)
def test_a_changed_file_past_the_bound_is_ci(tmp_path: Path, shape: str) -> None:
    path = SHAPES[shape](2 * MAX_PATH) + ".tf"
    found = _with_path(GitRepo(tmp_path / "r"), path)
    assert found[path][:2] == ("ci", "ci.context.path-past-bound")
    assert str(MAX_PATH) in found[path][2]


def test_a_changed_file_at_the_bound_reads_as_before(tmp_path: Path) -> None:
    path = ("a/" * MAX_PATH)[:MAX_PATH - 8] + "main.tf"
    found = _with_path(GitRepo(tmp_path / "r"), path)
    assert found[path][0] == "iac"


@pytest.mark.parametrize("shape", SHAPES)
def test_the_folders_above_a_long_path_are_bounded(shape: str) -> None:
    # ed28b952: every folder above, each a copy as long as itself (a path of 8,192 folders: 64 M characters)
    path = SHAPES[shape](4 * MAX_PATH) + ".tf"
    above = markers.ancestors(path)
    assert sum(map(len, above)) <= MAX_PATH * MAX_PATH // 2 and all(len(folder) <= MAX_PATH for folder in above)
    assert above[-1] == "" and all(path.startswith(folder + "/") for folder in above if folder)
    assert markers.against_ancestors(path, "x.sh")[-1] == "x.sh"


@pytest.mark.parametrize("shape", SHAPES)
def test_the_folders_above_and_a_tree_index_cost_linear(shape: str) -> None:
    assert_linear(markers.ancestors, lambda size: SHAPES[shape](size) + ".tf", budget=0.05)
    assert_linear(lambda path: markers.MarkerIndex([path, "README.md"], RULES.context.markers),
                  lambda size: SHAPES[shape](size) + "/group_vars/all.yml", budget=0.05)


@pytest.mark.parametrize("path", ["a/b/c.tf", "c.tf", "/".join(["a"] * 2000) + "/c.tf",
                                  "x" * (MAX_PATH - 1) + "/c.tf", "x" * MAX_PATH + "/c.tf"])
def test_the_folders_above_a_path_at_the_bound_are_all_there(path: str) -> None:
    folder, want = path.rpartition("/")[0], []
    while True:
        want.append(folder)
        if not folder:
            break
        folder = folder.rpartition("/")[0]
    assert markers.ancestors(path) == want


def _paths(count: int) -> list[str]:
    """Generated paths under the bound: one to eight parts of one to twelve letters, some with a dot or a dash."""
    rng = random.Random(44)
    parts = ["a", "b", "src", "scripts", "x.y", "-", "..a", "gradle", "ci", "deep-er"]
    return ["/".join(rng.choice(parts) + rng.choice(["", "1", "ab"]) for _ in range(rng.randint(1, 8)))
            for _ in range(count)]


@pytest.mark.parametrize("path", _paths(300))
def test_the_readers_that_took_their_own_folders_above_read_as_before(path: str) -> None:
    # manifestreads.named's Gradle roots and siblingrefs.reaches' bases now take markers.ancestors (bounded)
    folder, parts = path.rpartition("/")[0], path.split("/")
    old = [folder] + [folder.rsplit("/", depth)[0] for depth in range(1, folder.count("/") + 1)] + [""] \
        if folder else [""]
    assert markers.ancestors(path) == old
    assert markers.ancestors(path)[-2::-1] == ["/".join(parts[:n]) for n in range(1, len(parts))]


@pytest.mark.parametrize("shape", SHAPES)
def test_a_gradle_script_at_a_long_path_costs_linear(shape: str) -> None:
    # ed28b952: one rsplit per depth (cubic in a deep path's folders): the Gradle root's bases
    text = 'apply from: "$rootDir/gradle/x.gradle"\n'
    assert_linear(lambda path: manifestreads.named(path, "gradle", text),
                  lambda size: SHAPES[shape](size) + "/build.gradle", budget=0.05)
    near = "tools/a/build.gradle"
    assert {target for target, _, _ in manifestreads.named(near, "gradle", text)} >= {"gradle/x.gradle"}


@pytest.mark.parametrize("shape", ["deep", "many"])
def test_a_deep_tree_lists_as_git_does_without_a_prefix_per_folder(tmp_path: Path, shape: str) -> None:
    # ed28b952 held the prefix of every folder on the way (8,192 folders: 64 MB; 32,768: 1.1 GB, cost 44)
    repo = GitRepo(tmp_path / "r")
    repo.write("README.md", "# proj\n")
    base = repo.commit("base")
    deep = SHAPES[shape](8 * MAX_PATH) + ".tf"
    data = b"x\n"
    files = [deep, deep.rpartition("/")[0] + "/b.tf", "a/z.tf", "a/a/y.tf", "b.tf"]
    stream = f"commit refs/heads/main\ncommitter a <a@127.0.0.1> 0 +0000\ndata 4\nhead\nfrom {base}\n".encode() + \
        b"".join(f"M 100644 inline {path}\ndata {len(data)}\n".encode() + data + b"\n" for path in files)
    repo.git("fast-import", "--quiet", input=stream)
    listed = repo.git("ls-tree", "-r", "-z", "--name-only", "main").decode().split("\0")[:-1]
    tracemalloc.start()
    try:
        with repo.objects() as objects:
            tree = objects.tree(repo.git("rev-parse", "main").decode().strip())
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert list(tree) == listed and set(files) <= set(tree)
    assert peak < 24 << 20, peak
