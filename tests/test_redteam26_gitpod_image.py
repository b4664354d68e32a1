"""Red team 26, the deps policy: a Gitpod workspace's image moved with no finding.

`.gitpod.yml`'s `image:` names the container a Gitpod workspace of the repository runs in, with the checkout and
the developer's git credentials inside, as a Dev Container's `image` does (read since round 22). No reader read it
and the file is `other`, so a workspace image swapped to another registry or repository queued normally: `gate
--enable deps` (the core policy on) said allow, from the patch and with `--tree`. Its `image:` lines are now read as
a Compose file's are, so a move is a `docker` change (`deps.base_image`, reviewed).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_deps_gate import Case, gate

from gatekeeper.deps.registry import format_for

IMAGE = "gitpod/workspace-full:2024-01-01-10-00-00"
MOVES = [
    ("ghcr.io/evil/workspace-full:2024-01-01-10-00-00", "another registry"),
    ("evil/workspace-full:2024-01-01-10-00-00", "another repository"),
    ("gitpod/workspace-full:2024-02-01-10-00-00", "another tag"),
    (f"{IMAGE}@sha256:{'e' * 64}", "a digest"),
]
SPELLINGS = ["image: {}", 'image: "{}"', "image: '{}'", "image:   {}  # the workspace"]
TASKS = "tasks:\n  - init: make setup\n"


def _variants() -> list[tuple[str, str, str]]:
    """(file name, BASE, HEAD): each move in each spelling, in both names Gitpod reads."""
    out = []
    for name in (".gitpod.yml", ".gitpod.yaml"):
        for new, _ in MOVES:
            for spelling in SPELLINGS:
                out.append((name, f"{spelling.format(IMAGE)}\n{TASKS}", f"{spelling.format(new)}\n{TASKS}"))
    return out


def test_the_variants_are_what_they_say() -> None:
    variants = _variants()
    assert len(variants) == 32 and all(base != head for _, base, head in variants)


@pytest.mark.parametrize("tree", [False, True], ids=["patch", "tree"])
@pytest.mark.parametrize("name", [".gitpod.yml", ".gitpod.yaml"])
def test_a_workspace_image_moved_needs_a_human(capsys: pytest.CaptureFixture[str], tmp_path: Path, tree: bool,
                                               name: str) -> None:
    variants = [(base, head) for file, base, head in _variants() if file == name]
    base = {f"v{n}/{name}": old for n, (old, _) in enumerate(variants)}
    head = {f"v{n}/{name}": new for n, (_, new) in enumerate(variants)}
    # Gitpod reads the file at the root only; the folders keep the variants apart for one gate of all of them
    decision = gate(capsys, Case(tmp_path, base, head), tree)
    named = {p for reason in decision["reasons"] if reason["rule"] == "deps.base_image" for p in reason["paths"]}
    assert decision["outcome"] == "review" and named == set(head), (sorted(set(head) - named), decision["reasons"])


def test_a_workspace_file_is_read_as_compose_is() -> None:
    assert format_for(".gitpod.yml") is format_for("compose.yaml") is format_for(".gitpod.yaml")
    assert format_for("gitpod.yml") is None
