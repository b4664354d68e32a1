"""The bounded walks of gatekeeper/classify/treereads.py: each followed chain past its bound answers "everything"
(fail closed), a chain within it answers what it names, and a file named twice (a cycle) is read once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gatekeeper.classify import gitlabincludes, localactions, spellings, treereads
from gatekeeper.classify.change import folded
from gatekeeper.gitobjects import TreeEntry


def tree_of(files: dict[str, str]) -> tuple[dict[str, TreeEntry], dict[str, bytes]]:
    tree = {path: TreeEntry("100644", f"{n:040x}") for n, path in enumerate(files)}
    return tree, {tree[path].oid: text.encode() for path, text in files.items()}


def walk(files: dict[str, str], reader: Callable[..., Any]) -> tuple[Any, list[str]]:
    tree, blobs = tree_of(files)
    reads: list[str] = []

    def read(entry: TreeEntry) -> bytes:
        reads.append(entry.oid)
        return blobs[entry.oid]

    return reader((tree,), read), reads


def gitlab_chain(length: int) -> dict[str, str]:
    files = {".gitlab-ci.yml": "include:\n  - local: ci/0.yml\n"}
    files |= {f"ci/{n}.yml": f"include:\n  - local: ci/{n + 1}.yml\n" for n in range(length)}
    return files


def test_gitlab_includes_are_followed_within_the_bound_and_everything_past_it() -> None:
    found, _ = walk(gitlab_chain(gitlabincludes.MAX_FILES - 2), treereads.gitlab_includes)
    assert "ci/3.yml" in found and found != gitlabincludes.EVERY_YAML
    found, _ = walk(gitlab_chain(gitlabincludes.MAX_FILES + 1), treereads.gitlab_includes)
    assert found == gitlabincludes.EVERY_YAML


def requirements_chain(length: int) -> dict[str, str]:
    files = {"requirements.txt": "-r reqs/0.txt\nflask==3.0.0\n"}
    files |= {f"reqs/{n}.txt": f"-r {n + 1}.txt\n" for n in range(length)}
    return files


def test_requirements_includes_are_followed_within_the_bound_and_everything_past_it() -> None:
    found, _ = walk(requirements_chain(5), treereads.requirements_includes)
    assert found == {**{f"reqs/{n}.txt": "requirements.txt" for n in range(6)}}
    found, _ = walk(requirements_chain(treereads.MAX_REQUIREMENTS + 1), treereads.requirements_includes)
    assert found is False


def test_a_cycle_of_includes_is_read_once() -> None:
    files = {"requirements.txt": "-r dev.txt\n", "dev.txt": "-r requirements.txt\n"}
    found, reads = walk(files, treereads.requirements_includes)
    assert found == {"dev.txt": "requirements.txt", "requirements.txt": "requirements.txt"}
    assert len(reads) == 2


def test_local_actions_past_the_bound_are_everything() -> None:
    workflow = "jobs:\n  a:\n    steps:\n      - uses: ./actions/a0\n"
    files = {".github/workflows/ci.yml": workflow}
    files |= {f"actions/a{n}/action.yml": f"runs:\n  using: composite\n  steps:\n    - uses: ./actions/a{n + 1}\n"
              for n in range(localactions.MAX_FILES + 1)}
    found, _ = walk(files, treereads.local_actions)
    assert found is False
    found, _ = walk({".github/workflows/ci.yml": workflow, "actions/a0/action.yml": "runs:\n  using: node20\n"},
                    treereads.local_actions)
    assert found == {"actions/a0": ".github/workflows/ci.yml"}


def test_the_spelling_index_folds_every_path_as_folded_does() -> None:
    """_spellings folds a plain ASCII path by lower() and keeps each path's fold for the next tree: the index is the
    one `folded` gives, for plain paths and for every kind of other spelling, in both trees that share paths."""
    paths = ["Tools/Setup/Action.YML", "tools/setup/action.yml", ".GitLab-CI.yml", "ci/Build.SH", "a/b.",
             "a/b ", "a\\b", "ci/cafe\u0301.sh", "ci/caf\u00e9.sh", ".git\u200chub/workflows/x.yml", "STRASSE/x",
             "stra\u00dfe/x", "docs/./x.md", "x/ /y", "K\u212aLVIN.txt", "kelvin.txt"]
    entry = TreeEntry("100644", "0" * 40)
    base = {path: entry for path in paths}
    head = {**{path: entry for path in paths[::2]}, "new/Only.txt": entry}
    for tree in (base, head):
        expected: dict[str, list[str]] = {}
        for path in tree:
            expected.setdefault(folded(path), []).append(path)
        assert spellings._spellings(tree) == expected
    assert len(spellings._spellings(base)) < len(base)  # some paths share a spelling
