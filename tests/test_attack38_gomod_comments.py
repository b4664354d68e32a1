"""Attack 38: a go.mod line whose trailing comment holds `// indirect` beside other text, or follows a directive.

The go command splits a go.mod line at its first `//`: what is before is the directive, what is after a comment,
and the comment marks a requirement indirect only when its first word is `indirect` alone or `indirect;`
(golang.org/x/mod/modfile `isIndirect`). The delta's reader kept a whole line holding `// indirect` uncut and
matched a require pattern on it, so a `replace A => ../fork // indirect` (or a toolchain line) read as nothing,
while go.mod's residue, which does cut at `//`, read it as a directive the parser had read: beside a bump the fork
passed as that bump (`gate --tree --enable deps` allowed it, exit 0), and so did a new requirement or a moved one
whose comment went on after `indirect` (`// indirect x` is a direct requirement to Go). Each variant below names
the fork, the toolchain or the new requirement now, in both modes; the look-alikes stay a plain bump.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from gitdiffs import commit_patch
from gitrepo import two_commits
from incli import tree_gate
from tables import each_case

from gatekeeper.deps import golang
from gatekeeper.deps.sources import Delta, patch_delta, tree_delta

BASE = ("module example.com/x\n\ngo 1.21\n\n"
        "require (\n\tgithub.com/pkg/errors v0.9.0\n\tgolang.org/x/text v0.3.0 // indirect\n)\n")
BUMP = BASE.replace("v0.9.0", "v0.9.1")
# comments after a directive: the first four mark a requirement indirect to Go, the others do not
INDIRECT = ["// indirect", "//indirect", "// indirect; kept for x", "//\tindirect"]
DIRECT = ["// indirect x", "// indirect (why)", "// see // indirect", "// not indirect", "// indirect,x"]
COMMENTS = INDIRECT + DIRECT
# (what the attack does, the text it appends to BUMP or puts in its block, with {c} for the comment)
ATTACKS = [
    ("replace", "\nreplace github.com/pkg/errors => ../fork {c}\n"),
    ("replace-versioned", "\nreplace github.com/pkg/errors v0.9.1 => github.com/evil/errors v0.9.1 {c}\n"),
    ("replace-block", "\nreplace (\n\tgithub.com/pkg/errors => github.com/evil/errors v0.9.1 {c}\n)\n"),
    ("toolchain", "\ntoolchain go1.23.4 {c}\n"),
    ("require-new", "\nrequire github.com/evil/tool v1.0.0 {c}\n"),
    ("require-block-new", "\nrequire (\n\tgithub.com/evil/tool v1.0.0 {c}\n)\n"),
]
VARIANTS = [(what, c, BUMP + tail.format(c=c)) for what, tail in ATTACKS for c in COMMENTS]


def _deltas(tmp: Path, head: str) -> tuple[Delta, Delta]:
    repo, first, second = two_commits(tmp, {"go.mod": BASE}, {"go.mod": head})
    with repo.objects() as git:
        truth = tree_delta(git, first, second)
    return truth, patch_delta(None, io.BytesIO(commit_patch(repo, first, second)))


def _named(delta: Delta) -> set[tuple[str, str | None]]:
    return {(c.name, c.to_version) for c in delta.changes if c.name != "github.com/pkg/errors"}


def test_the_directive_before_a_comment_is_read_as_go_reads_it() -> None:
    """The parser: a directive is what is before `//`; indirect only by Go's rule."""
    for comment in COMMENTS:
        head = (BUMP + f"\nreplace a.b/c => ../fork {comment}\n"
                f"require d.e/f v1.0.0 {comment}\ntoolchain go1.23.4 {comment}\n")
        deps = golang.parse_go_mod("go.mod", head.encode())
        got = {(d.name, d.version, d.direct) for d in deps}
        assert ("a.b/c => ../fork", "", True) in got, comment
        assert ("d.e/f", "v1.0.0", comment not in INDIRECT) in got, comment
        assert ("go", "1.23.4", True) in got, comment


@each_case(("what", "comment", "head"), VARIANTS, ids=[f"{w}:{c}" for w, c, _ in VARIANTS])
def test_a_commented_directive_beside_a_bump_is_a_change(tmp_path: Path, what: str, comment: str, head: str) -> None:
    """Both modes name what the directive adds (the fork, the toolchain, the new module), not the bump alone."""
    for delta in _deltas(tmp_path, head):
        assert _named(delta) or delta.problems, (what, comment, delta)


@pytest.mark.parametrize("what", ["replace", "require-new", "toolchain"])
def test_the_gate_reviews_a_commented_directive(tmp_path: Path, what: str) -> None:
    """End to end, `gate --tree --enable deps` under the shipped policy: exit 3, not 0 (main 1dfd7bd: 0)."""
    tail = dict(ATTACKS)[what].format(c="// indirect x")
    repo, first, second = two_commits(tmp_path, {"go.mod": BASE}, {"go.mod": BUMP + tail})
    code, decision = tree_gate(tmp_path, first, second, None, "--enable", "deps")
    assert code == 3, decision


@each_case("comment", INDIRECT)
def test_a_bump_with_its_indirect_comment_stays_a_bump(tmp_path: Path, comment: str) -> None:
    """The look-alike: the indirect requirement bumped, its comment in any form Go reads as indirect."""
    head = BUMP.replace("v0.3.0 // indirect", f"v0.3.8 {comment}")
    base = BASE.replace("v0.3.0 // indirect", f"v0.3.0 {comment}")
    repo, first, second = two_commits(tmp_path, {"go.mod": base}, {"go.mod": head})
    with repo.objects() as git:
        delta = tree_delta(git, first, second)
    assert not delta.problems, delta
    assert {(c.name, c.from_version, c.to_version, c.direct) for c in delta.changes} == {
        ("github.com/pkg/errors", "v0.9.0", "v0.9.1", True), ("golang.org/x/text", "v0.3.0", "v0.3.8", False)}
    code, decision = tree_gate(tmp_path, first, second, None, "--enable", "deps")
    assert code == 0, decision
