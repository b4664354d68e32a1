"""The tree context's shared path tests (gatekeeper/classify/treepaths.py) and the tree-object parser behind every
listing (gatekeeper/catfile.py): each answers what testing, or reading, entry by entry answers."""

from __future__ import annotations

import pytest
from tables import each_case

from gatekeeper.catfile import CatFileError, tree_entries
from gatekeeper.classify.treepaths import where
from gatekeeper.gitobjects import TreeEntry

_FILE = TreeEntry("100644", "a" * 40)


def _yaml(path: str) -> bool:
    return path.endswith(".yml")


def test_where_gives_each_tree_its_own_passing_paths_in_its_order() -> None:
    base = {p: _FILE for p in ("z.yml", "a/b.yml", "gone.yml", "src/x.go")}
    head = {p: _FILE for p in ("new.yml", "src/x.go", "a/b.yml", "z.yml")}
    trees = (base, head)
    assert where(trees, base, _yaml) == ["z.yml", "a/b.yml", "gone.yml"]
    assert where(trees, head, _yaml) == ["new.yml", "a/b.yml", "z.yml"]
    # a tree that is not one of `trees` is tested path by path, not against their answers
    other = {"elsewhere.yml": _FILE, "b.txt": _FILE}
    assert where(trees, other, _yaml) == ["elsewhere.yml"]
    # other trees of the same paths (another context): answered for them, not from the last context's
    again = ({"z.yml": _FILE, "late.yml": _FILE}, {"z.yml": _FILE})
    assert where(again, again[0], _yaml) == ["z.yml", "late.yml"]


def _tree_object(*entries: tuple[bytes, bytes, bytes]) -> bytes:
    return b"".join(mode + b" " + name + b"\0" + raw for mode, name, raw in entries)


def test_tree_entries_reads_every_entry_and_canonical_modes() -> None:
    data = _tree_object((b"100644", b"a file", b"\x01" * 20), (b"40000", b"dir", b"\x02" * 20),
                        (b"100775", b"run.sh", b"\x00 \n" + b"\x03" * 17), (b"120000", b"link", b"\x04" * 20),
                        (b"160000", b"sub", b"\x05" * 20))
    assert list(tree_entries(data, 20, "t")) == [
        ("100644", b"a file", "01" * 20), ("040000", b"dir", "02" * 20),
        ("100755", b"run.sh", "00200a" + "03" * 17), ("120000", b"link", "04" * 20), ("160000", b"sub", "05" * 20)]


@each_case(("data", "what"), [
    (_tree_object((b"100644", b"ok", b"\x01" * 20)) + b"100644 cut\0" + b"\x01" * 5, "a malformed tree object"),
    (_tree_object((b"100644", b"ok", b"\x01" * 20), (b"100844", b"bad", b"\x01" * 20)),
     "a malformed mode in a tree object"),
    (_tree_object((b"100644", b"", b"\x01" * 20)), "a malformed tree object"),
])
def test_tree_entries_refuses_what_git_would(data: bytes, what: str) -> None:
    with pytest.raises(CatFileError, match=what):
        list(tree_entries(data, 20, "t"))
