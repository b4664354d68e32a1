"""mix.exs git dependencies from a patch (round 59's patch misses, issue 14: edgurgel/httpoison's "Update hackney to
0.11.1" moved `[ { :hackney, github: "benoitc/hackney", tag: "0.10.1" } ]` to tag `0.11.1`). `--tree` names the app at
its git source and ref (mixexs.py; httpoison's own file, `deps: deps(Mix.env)`, is `unparsable` there); from a patch
the line was refused (a tuple without a requirement string, and a
one-line list), the file `partial` naming nothing.

Now a changed line that is one whole tuple, or a one-line list of one tuple, naming one git source (`github:`/`git:`)
and at most one ref (`tag:`/`ref:`/`branch:`) beside the plain options the patch already reads is named as the whole
file names it: the source is part of the name, so a swapped source is a new dependency. Look-alikes that stay
`partial`: a `path:` source, two sources, an option not read from a patch (`sparse:`, `submodules:`), two tuples on
one line.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from deltas import both_edited, partial

PATH = "mix.exs"


def _mix(line: str, httpoison: bool = False) -> str:
    """A mix.exs whose deps function returns `line`; httpoison's own (`deps: deps(Mix.env)` over `defp deps(:prod)`),
    which the whole-file reader refuses (`deps` used other than as one literal list), when `httpoison`."""
    call, head = ("deps(Mix.env)", "deps(:prod)") if httpoison else ("deps()", "deps")
    return ('defmodule HTTPoison.Mixfile do\n  use Mix.Project\n\n  def project do\n    [ app: :httpoison,\n'
            f'      version: "0.6.2",\n      elixir: "~> 1.0",\n      deps: {call} ]\n  end\n\n'
            f'  def application do\n    [applications: [:hackney]]\n  end\n\n  defp {head} do\n{line}\n  end\nend\n')


SOURCES = {"github": 'github: "benoitc/hackney"', "git": 'git: "https://github.com/benoitc/hackney.git"'}
REFS = {"tag": 'tag: "{v}"', "ref": 'ref: "{v}"', "branch": 'branch: "{v}"'}
SHAPES = {
    "list": "    [ {{ :hackney, {source}, {ref}{more} }} ]",
    "list comma": "    [{{:hackney, {source}, {ref}{more}}},]",
    "tuple": "      {{:hackney, {source}, {ref}{more}}},",
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
@pytest.mark.parametrize("source", sorted(SOURCES))
@pytest.mark.parametrize("ref", sorted(REFS))
@pytest.mark.parametrize("more", ["", ", only: :prod"])
def test_a_git_dependency_line_is_named_from_the_patch(tmp_path: Path, shape: str, source: str, ref: str,
                                                       more: str) -> None:
    old = SHAPES[shape].format(source=SOURCES[source], ref=REFS[ref].format(v="0.10.1"), more=more)
    new = old.replace('"0.10.1"', '"0.11.1"')
    if shape == "tuple":
        old = f"    [\n{old}\n      {{:idna, \"~> 1.0\"}}\n    ]"
        new = f"    [\n{new}\n      {{:idna, \"~> 1.0\"}}\n    ]"
    tree, patch = both_edited(tmp_path, {PATH: _mix(old)}, {PATH: {old: new}})
    named = {(c.ecosystem, c.name, c.from_version, c.to_version) for c in tree.changes}
    assert len(named) == 1 and "0.11.1" in str(next(iter(named))[3]), tree
    assert {(c.ecosystem, c.name, c.from_version, c.to_version) for c in patch.changes} == named
    assert not partial(patch, PATH), patch.problems


def test_httpoison_shape(tmp_path: Path) -> None:
    """httpoison's file: `--tree` refuses it (unparsable, a finding); the patch's line names the bump, as a
    requirement tuple's line is named wherever it sits."""
    old = '    [ { :hackney, github: "benoitc/hackney", tag: "0.10.1" } ]'
    tree, patch = both_edited(tmp_path, {PATH: _mix(old, httpoison=True)},
                              {PATH: {old: old.replace("0.10.1", "0.11.1")}})
    assert tree.changes == () and {p.kind for p in tree.problems} == {"unparsable"}
    assert [(c.name, c.from_version, c.to_version) for c in patch.changes] == [
        ("hackney@git+https://github.com/benoitc/hackney.git", "0.10.1", "0.11.1")]


# --- look-alikes: nothing named from the patch, `partial` ---

LOOKALIKES = {
    "path": '    [ { :hackney, path: "../hackney-0.10.1" } ]',
    "two sources": '    [ { :hackney, github: "benoitc/hackney", git: "https://127.0.0.1:9/h.git", tag: "0.10.1" } ]',
    "sparse": '    [ { :hackney, github: "benoitc/hackney", tag: "0.10.1", sparse: "src" } ]',
    "submodules": '    [ { :hackney, github: "benoitc/hackney", tag: "0.10.1", submodules: true } ]',
    "two tuples": '    [ { :hackney, github: "benoitc/hackney", tag: "0.10.1" }, { :idna, "~> 1.0" } ]',
}


@pytest.mark.parametrize("case", sorted(LOOKALIKES))
def test_lookalikes_stay_partial(tmp_path: Path, case: str) -> None:
    old = LOOKALIKES[case]
    _, patch = both_edited(tmp_path, {PATH: _mix(old)}, {PATH: {old: old.replace("0.10.1", "0.11.1")}})
    assert patch.changes == () and partial(patch, PATH), (case, patch)
