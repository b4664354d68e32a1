"""Attack 26 on the mix.exs reader: literals whose end the reader's lexer put where Elixir does not, so a real tuple
of the deps list was blanked as text (or text read as code). A heredoc's closing quotes count only first on their
line (three escaped quotes inside it do not close it); a lowercase sigil interpolates as a string does
(`~c(#{nil && ")"})` is one empty charlist). At 9dee36d `{:evil, …}` below such a heredoc was no dependency at
all and `--tree` allowed it riding on a dev-tool bump (12 of 12 heredoc variants). Now such a literal makes the
file unreadable (a problem). Also the hidden `deps` key (`"deps": [...]`, `:"deps"`, a computed atom) in a new
umbrella app: held by deps.unexplained."""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.deps import mixexs
from gatekeeper.deps.model import ManifestError
from tests.test_deps_gate import Case, gate

BASE = '''\
defmodule X.MixProject do
  use Mix.Project

  def project do
    [app: :x, version: "0.1.0", deps: deps()]
  end

  defp deps do
    [
      {:dialyxir, "== 1.4.7", only: [:dev, :test], runtime: false},
      {:plug, "~> 1.14", OPENER
        CLOSER
      },
      # FOOTER},
      {:jason, "~> 1.4"}
    ]
  end
end
'''
EVIL = "      {:evil, github: ~S(attacker/evil)},\n      # FOOTER},"
# (opener, its text's false closer, the real closer first on its line, the comment that ends the false literal)
HEREDOCS = [(f"~{s}{q}", f"x \\{q}", q, q) for s in ("c", "s", "S", "C", "w") for q in ('"""', "'''")] + \
    [(q, f"\\{q}", q, q) for q in ('"""', "'''")] + [(f"~c{q}", f"x {q} y", q, q) for q in ('"""', "'''")]
SIGILS = [(f"~{s}{o}#{{nil && \"{c}\"}}{c}", "", "", '"') for s in "cs" for o, c in
          (("(", ")"), ("[", "]"), ("{", "}"), ("<", ">"), ("|", "|"), ("/", "/"))] + \
    [(f"~{s}{o}#{{nil && '{c}'}}{c}", "", "", "'") for s in "cs" for o, c in (("(", ")"), ("[", "]"))]
CASES = {f"{opener}|{closer}": (opener, closer, real, footer) for opener, closer, real, footer in HEREDOCS + SIGILS}


def _body(case: str, evil: bool) -> str:
    opener, closer, real, footer = CASES[case]
    body = BASE.replace("      # FOOTER},", EVIL) if evil else BASE
    return body.replace("OPENER", opener).replace("CLOSER", f"{closer}\n      {real}" if real else "") \
        .replace("FOOTER", footer)


@each_case("case", sorted(CASES))
def test_a_literal_ended_elsewhere_than_elixir_ends_it_is_unreadable(case: str) -> None:
    for evil in (False, True):
        with pytest.raises(ManifestError):
            mixexs.parse_mix_exs("mix.exs", _body(case, evil).encode())


@pytest.mark.parametrize("tree", [True, False], ids=["tree", "patch"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_a_dependency_below_such_a_literal_is_not_allowed(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                        case: str, tree: bool) -> None:
    head = _body(case, True).replace('"== 1.4.7"', '"== 1.4.8"')
    decision = gate(capsys, Case(tmp_path, {"mix.exs": _body(case, False)}, {"mix.exs": head}), tree)
    assert decision["outcome"] != "allow", decision["reasons"]


PLAIN = '''\
defmodule Evil.MixProject do
  use Mix.Project

  def project do
    [app: :evil, version: "0.1.0", KEY]
  end
end
'''
KEYS = {
    "quoted-key": '"deps": [{:evil, github: "attacker/evil"}]',
    "charlist-key": "'deps': [{:evil, \"~> 1.0\"}]",
    "quoted-atom": '{:"deps", [{:evil, path: "../../../x"}]}',
    "computed-atom": '{String.to_atom("de" <> "ps"), [{:evil, "~> 1.0"}]}',
    "word-atom": '{hd(~w(deps)a), [{:evil, "~> 1.0"}]}',
}


@pytest.mark.parametrize("tree", [True, False], ids=["tree", "patch"])
@pytest.mark.parametrize("key", sorted(KEYS))
def test_a_new_mix_exs_with_a_hidden_deps_key_is_not_allowed(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                             key: str, tree: bool) -> None:
    decision = gate(capsys, Case(tmp_path, {"mix.exs": PLAIN.replace("KEY", "deps: []")},
                                 {"apps/evil/mix.exs": PLAIN.replace("KEY", KEYS[key])}), tree)
    assert decision["outcome"] != "allow", decision["reasons"]


@each_case("sigil", [opener for opener, _, _, _ in SIGILS])
def test_an_interpolated_sigil_is_no_requirement(sigil: str) -> None:
    # At 9dee36d `{:jason, ~c(#{nil && ")"})}` (Elixir: jason, no requirement) read the next lines as its
    # requirement, `{:evil, …}` in it (held only by deps.unordered: that text orders as no version).
    quote = sigil[-3]
    plug = "      {:plug, \"~> 1.14\", OPENER\n        CLOSER\n      },\n"
    body = BASE.replace(plug, f"      {{:jason, {sigil}}},\n") \
        .replace("# FOOTER}", f"# {quote}}}").replace('{:jason, "~> 1.4"}', '{:plug, "~> 1.14"}')
    with pytest.raises(ManifestError):
        mixexs.parse_mix_exs("mix.exs", body.encode())
