"""rules_oci's `oci.pull(...)` in MODULE.bazel is the container image it pulls (issue 14, a class the rounds left).

bazelbuild/examples' "chore(deps): update distroless docker digest to 0c8eac8" moves the `digest` of an
`oci.pull(name = "distroless", image = "gcr.io/distroless/cc-debian12", …)` call; the delta named nothing and the
file's residue moved (`partial`). A call of literals is now read (`docker`, named by `image`, its `name` the alias),
with --tree; from the patch the call is seldom whole in the hunk (its `platforms` list pushes the `)` out of the
three context lines), so the move stays `partial` there. A call with any other argument stays in the residue.
"""

from __future__ import annotations

from pathlib import Path

from gatekeeper.deps.bazel import parse_module_bazel, residue
from tests.deltas import each_fast, moves, partial
from tests.deltas import tree as _tree
from tests.gitrepo import edited_commits

# bazelbuild/examples' rust-examples/09-oci-container/MODULE.bazel layout
MODULE = """\
module(name = "hello_oci", version = "0.0.0")

bazel_dep(name = "rules_rust", version = "0.68.1")
bazel_dep(name = "rules_oci", version = "2.2.6")

oci = use_extension("@rules_oci//oci:extensions.bzl", "oci")

# https://github.com/GoogleContainerTools/distroless
oci.pull(
    name = "distroless",
    digest = "sha256:00cc20b928afcc8296b72525fa68f39ab332f758c4f2a9e8d90845d3e06f1dc4",
    image = "gcr.io/distroless/cc-debian12",
    platforms = [
        "linux/amd64",
        "linux/arm64/v8",
    ],
)
use_repo(oci, "distroless", "distroless_linux_amd64", "distroless_linux_arm64_v8")
"""
OLD = "sha256:00cc20b928afcc8296b72525fa68f39ab332f758c4f2a9e8d90845d3e06f1dc4"
NEW = "sha256:0c8eac8ea42a167255d03c3ba6dfad2989c15427ed93d16c53ef9706ea4691df"


def test_the_distroless_digest_move_is_the_image_with_tree(tmp_path: Path) -> None:
    repo, base, head = edited_commits(tmp_path, {"MODULE.bazel": MODULE}, {"MODULE.bazel": {OLD: NEW}})
    tree = _tree(repo, base, head)
    assert moves(tree) == {("docker", "gcr.io/distroless/cc-debian12", f"@{OLD}", f"@{NEW}")}, tree
    assert tree.changes[0].alias == "distroless" and not partial(tree, "MODULE.bazel"), tree


def test_a_tag_and_the_image_are_read_and_other_arguments_stay_in_the_residue() -> None:
    tagged = MODULE.replace(f'    digest = "{OLD}",\n', '    tag = "nonroot",\n')
    found = [(d.ecosystem, d.name, d.version, d.alias) for d in parse_module_bazel("MODULE.bazel", tagged.encode())
             if d.ecosystem == "docker"]
    assert found == [("docker", "gcr.io/distroless/cc-debian12", "nonroot", "distroless")], found
    # an image from a variable, a list holding a variable, or no image at all: not read, and still in the residue
    for odd in ('image = IMAGE', 'platforms = [PLATFORM]', 'image = "a" + "b"'):
        body = MODULE.replace('image = "gcr.io/distroless/cc-debian12"', odd).replace(
            '"linux/amd64",', "PLATFORM," if "PLATFORM" in odd else '"linux/amd64",')
        assert not [d for d in parse_module_bazel("MODULE.bazel", body.encode()) if d.ecosystem == "docker"], odd
        assert "oci.pull" in residue(body.encode()), odd
    assert "oci.pull" not in residue(MODULE.encode())


def test_a_hostile_call_is_read_in_linear_time() -> None:
    blanks = "oci.pull(\n    name = \"x\",\n    platforms = [" + ' "a",' * 200_000 + " " * 200_000 + "\n)\n"
    unclosed = "oci.pull(platforms = [" + ' "a"' * 200_000 + "\n"
    each_fast([(lambda: parse_module_bazel("MODULE.bazel", blanks.encode()), "200,000 list items then blanks"),
               (lambda: residue(unclosed.encode()), "a list that never closes")], 2.0)
