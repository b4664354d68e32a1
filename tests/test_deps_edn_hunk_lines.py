"""deps.edn lines from a patch (round 58's misses, all `partial` naming nothing): cljdoc's lucene entries end in a
`;; search engine` comment, clojurescript's first library follows the `:deps` map's bare `{` on its line, malli's
alias holds a git coordinate on one line (`{:git/tag "v0.4.28" :git/sha "81ad8d3"}`). Each is now named from the
hunk, beside `partial` where the hunk does not show the top-level `{:deps {` (gatekeeper/deps/cljdeps.py). Look-alikes
and refusals: a git coordinate its line does not close, one without a sha, one key twice, a discard `#_`."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.deltas import both_edited, moves

LUCENE = """\
{:paths ["src" "resources"]
 :deps {org.clojure/clojure {:mvn/version "1.12.0"}
        com.taoensso/nippy {:mvn/version "3.6.0"}            ;; fast compact serializer

        ;; full text search database
        org.apache.lucene/lucene-core {:mvn/version "10.2.2"} ;; search engine
        org.apache.lucene/lucene-queries {:mvn/version "10.2.2"}
        org.asciidoctor/asciidoctorj {:mvn/version "3.0.0"} ;; render adoc to html
        }}
"""
CLOSURE = """\
{:paths ["src/main/clojure" "src/main/cljs" "resources"]
 :deps
 {com.google.javascript/closure-compiler-unshaded {:mvn/version "v20220502"}
  com.cognitect/transit-java {:mvn/version "1.0.362"}
  org.clojure/clojure {:mvn/version "1.10.0"}}}
"""
CHERRY = """\
{:paths ["src"]
 :aliases {:sci {:extra-deps {org.babashka/sci {:mvn/version "0.9.45"}}}
           :cherry {:extra-deps {io.github.squint-cljs/cherry {:git/tag "v0.4.27" :git/sha "9c5e46b"}}}
           :test {:extra-paths ["test"]}}}
"""
GIT = "io.github.squint-cljs/cherry@git+https://github.com/squint-cljs/cherry.git"


Moves = set[tuple[str, str, str | None, str | None]]


def _patch_moves(tmp_path: Path, body: str, old: str, new: str) -> tuple[Moves, Moves]:
    tree, patch = both_edited(tmp_path, {"deps.edn": body}, {"deps.edn": {old: new}})
    return moves(tree), moves(patch)


@pytest.mark.parametrize("comment", [" ;; search engine", " ; x", ";;"])
@pytest.mark.parametrize(("old", "new"), [("10.2.2", "10.3.0"), ("10.2.2", "11.0.0-beta1")])
def test_an_entry_with_a_trailing_comment(tmp_path: Path, comment: str, old: str, new: str) -> None:
    body = LUCENE.replace(" ;; search engine", comment)
    tree, patch = _patch_moves(tmp_path, body, f'lucene-core {{:mvn/version "{old}"}}',
                               f'lucene-core {{:mvn/version "{new}"}}')
    want = ("maven", "org.apache.lucene:lucene-core", old, new)
    assert want in tree and want in patch, (tree, patch)


@pytest.mark.parametrize("new", ["v20231112", "v20240317"])
def test_an_entry_after_a_bare_map_opening(tmp_path: Path, new: str) -> None:
    tree, patch = _patch_moves(tmp_path, CLOSURE, '"v20220502"', f'"{new}"')
    want = {("maven", "com.google.javascript:closure-compiler-unshaded", "v20220502", new)}
    assert tree == want == patch, (tree, patch)


@pytest.mark.parametrize("order", ["tag-sha", "sha-tag", "url"])
def test_a_one_line_git_coordinate(tmp_path: Path, order: str) -> None:
    coord = {"tag-sha": ':git/tag "{t}" :git/sha "{s}"', "sha-tag": ':git/sha "{s}" :git/tag "{t}"',
             "url": ':git/url "https://github.com/squint-cljs/cherry.git" :git/sha "{s}" :git/tag "{t}"'}[order]
    body = CHERRY.replace(':git/tag "v0.4.27" :git/sha "9c5e46b"', coord.format(t="v0.4.27", s="9c5e46b"))
    tree_d, patch_d = both_edited(tmp_path, {"deps.edn": body}, {"deps.edn": {
        coord.format(t="v0.4.27", s="9c5e46b"): coord.format(t="v0.4.28", s="81ad8d3")}})
    want = {("maven", GIT, "9c5e46b", "81ad8d3")}
    assert moves(tree_d) == want == moves(patch_d), (tree_d, patch_d)
    assert [c.to_tag for c in patch_d.changes] == ["v0.4.28"], patch_d


@pytest.mark.parametrize("line", [
    'io.github.o/r {:git/tag "v2" :git/sha "bbbbbbb"',  # the line does not close its coordinate
    'io.github.o/r {:git/tag "v2"}',  # no sha
    'io.github.o/r {:git/sha "bbbbbbb" :git/sha "ccccccc"}',  # one key twice
    '#_io.github.o/r {:git/tag "v2" :git/sha "bbbbbbb"}',  # a discard
])
def test_unreadable_git_lines_name_nothing_and_are_partial(tmp_path: Path, line: str) -> None:
    old = 'io.github.o/r {:git/tag "v1" :git/sha "aaaaaaa"}'
    body = "{:paths [\"src\"]\n :aliases {:x {:extra-deps {\n" + "  " + old + "\n}}}}\n"
    _, patch = both_edited(tmp_path, {"deps.edn": body}, {"deps.edn": {old: line}})
    assert not patch.changes and patch.problems, patch
