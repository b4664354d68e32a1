"""One sha-pinned action at one sha, labelled `# v2` on some lines and `# v2.9.2` on another (ratatui's ci.yml:
Renovate moved Swatinem/rust-cache's sha on three lines, one of which names the full release): the version the delta
names was the first line's label, `v2`, so "Update Swatinem/rust-cache to v2.9.2" was not found, with `--tree` or from
the patch. A label that refines another of the same sha (`v2` → `v2.9.2`, its dot-separated parts a prefix of the
other's) now names the version; labels that disagree (`v2` beside `v3`) stay as they were (the first). Round 55."""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from tests.deltas import both_edited

OLD, NEW = "c19371144df3bb44fab255c43d04cbc2ab54d1c4", "6323deb102c322ba6fcbdcafc7e3dddab59af2b6"
WORKFLOW = ".github/workflows/ci.yml"


def _workflow(labels: list[str], sha: str) -> str:
    jobs = "".join(f"  job{n}:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
                   f"      - uses: Swatinem/rust-cache@{sha} # {label}\n      - run: cargo test\n"
                   for n, label in enumerate(labels))
    return f"name: CI\non: [push]\njobs:\n{jobs}"


@each_case(("before", "after", "want"), [
    (["v2", "v2.9.1", "v2"], ["v2", "v2.9.2", "v2"], ("v2.9.1", "v2.9.2")),  # ratatui's
    (["v2.9.1", "v2"], ["v2.9.2", "v2"], ("v2.9.1", "v2.9.2")),
    (["v2", "v2"], ["v2", "v2.9.2"], ("v2", "v2.9.2")),
    (["v2", "v2.9"], ["v2", "v2.10"], ("v2.9", "v2.10")),
    (["v2.9", "v2.9.1"], ["v2.10.0", "v2.10"], ("v2.9.1", "v2.10.0")),
])
def test_the_most_specific_label_of_one_sha_names_it(tmp_path: Path, before: list[str], after: list[str],
                                                      want: tuple[str | None, str | None]) -> None:
    base, head = _workflow(before, OLD), _workflow(after, NEW)
    for delta in both_edited(tmp_path, {WORKFLOW: base}, {WORKFLOW: {base: head}}):
        changes = [c for c in delta.changes if c.name == "Swatinem/rust-cache"]
        assert [(c.from_tag, c.to_tag) for c in changes] == [want], delta


@each_case(("before", "after", "want"), [
    (["v2", "v3"], ["v2", "v3"], (None, None)),  # labels that disagree: the first, `v2` both sides, names neither
    (["v2", "v20.1"], ["v2", "v20.2"], (None, None)),  # `v2` is no prefix of `v20.1`'s parts
    (["v2.9.1", "v2"], ["v2.9.2", "v2.9.3"], ("v2.9.1", "v2.9.2")),  # disagreeing refinements: the first
])
def test_labels_that_do_not_refine_keep_the_first(tmp_path: Path, before: list[str], after: list[str],
                                                  want: tuple[str | None, str | None]) -> None:
    base, head = _workflow(before, OLD), _workflow(after, NEW)
    for delta in both_edited(tmp_path, {WORKFLOW: base}, {WORKFLOW: {base: head}}):
        changes = [c for c in delta.changes if c.name == "Swatinem/rust-cache"]
        assert [(c.from_tag, c.to_tag) for c in changes] == [want], delta
