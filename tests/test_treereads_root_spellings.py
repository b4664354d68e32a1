"""A walk's missing file is looked up under every spelling a folding checkout opens (spellings._spellings); for a
root file only the root's entries are folded (spellings.spelled). Both answer the same, in the tree's order: a
`\\` turns into a folder separator (`a\\.gitlab-ci.yml` is no root file), zero-width characters and a trailing dot
go, case and Unicode forms fold."""

from __future__ import annotations

from tables import each_case

from gatekeeper.classify import spellings
from gatekeeper.classify.change import folded
from gatekeeper.gitobjects import TreeEntry

_ENTRY = TreeEntry("100644", "0" * 40)
_TREE = {name: _ENTRY for name in (
    "README", ".GitLab-CI.yml", "x/.gitlab-ci.yml", ".gitlab-ci.yml\u200c", "a\\.gitlab-ci.yml", ".GITLAB-CI.YML.",
    "Readme\u0301", "re\u0301adme", "r\u00e9adme", "docs/README", "caf\u00e9", "cafe\u0301", ".Gitlab-ci.yml",
)}


@each_case("path", [
    ".gitlab-ci.yml", "README", "readme", "r\u00e9adme", "caf\u00e9", "a/.gitlab-ci.yml", "x\\.gitlab-ci.yml",
    "docs/readme", "missing", "x/.GITLAB-CI.YML",
])
def test_root_lookup_answers_as_the_whole_index(path: str) -> None:
    spellings._FOLDED.clear()
    expected = spellings._spellings(_TREE).get(folded(path), [])
    assert spellings.spelled(_TREE, path) == expected


def test_a_root_file_finds_each_spelling_in_the_tree_order() -> None:
    found = spellings.spelled(_TREE, ".gitlab-ci.yml")
    assert found == [".GitLab-CI.yml", ".gitlab-ci.yml\u200c", ".GITLAB-CI.YML.", ".Gitlab-ci.yml"]
    assert "a\\.gitlab-ci.yml" not in found  # a Windows checkout opens it as a/.gitlab-ci.yml
