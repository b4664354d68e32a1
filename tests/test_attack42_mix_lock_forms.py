"""Attack 42: mix.lock is an Elixir map literal; mix writes `"name": {...}` (a quoted atom key) one entry a line, and
reads the file with Elixir's own parser. The reader matched entries by a line starting with `"name":` and skipped
any other line: the same entry as an atom key (`jason: {:hex, ...}`), a `=>` key (`:jason => {...}`, `"jason" =>
{...}`) or a key on a line of its own with the tuple below it were read as no entry, so a version moved, a repository
switched or an entry added in those forms exited 0 under `--enable deps`. Now every line that is not the map's own
brace, a comment or blank must be an entry the reader knows, else the lock is a problem (`deps.unreadable`).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from gitrepo import two_commits
from incli import tree_gate

from gatekeeper.deps.elixir import parse_mix_lock
from gatekeeper.deps.model import ManifestError

SHA = "af1504e35f629ddcdd6addb3513c3853991f694921b1b9368b0bd32beb9f1b63"
ENTRY = '{:hex, :jason, "1.4.1", "' + SHA + '", [:mix], [], "hexpm", "' + SHA + '"},'
LOCK = '%{\n  "jason": ' + ENTRY + '\n}\n'
MIXEXS = ('defmodule App.MixProject do\n  use Mix.Project\n  def project, do: [app: :app, deps: [{:jason, "~> 1.4"}]]\n'
          'end\n')
HIDDEN = [
    '%{\n  jason: ' + ENTRY.replace("1.4.1", "1.4.99") + '\n}\n',
    '%{\n  jason: ' + ENTRY.replace('"hexpm"', '"evilrepo"') + '\n}\n',
    '%{\n  :jason => ' + ENTRY.replace("1.4.1", "1.4.99") + '\n}\n',
    '%{\n  "jason" => ' + ENTRY.replace("1.4.1", "1.4.99") + '\n}\n',
    LOCK.replace("\n}\n", '\n  evil: {:hex, :evil, "1.0.0", "' + SHA + '", [:mix], [], "hexpm", "' + SHA + '"},\n}\n'),
    '%{\n  "jason":\n    ' + ENTRY.replace("1.4.1", "1.4.99") + '\n}\n',
    '%{\n  "jason": ' + ENTRY + '\n  "evil": {:git, "https://example.com/e.git",\n'
    '    "0123456789abcdef0123456789abcdef01234567", []},\n}\n',
]
# mix's own layouts stay readable: the current one, the old one (the map opened and closed on entry lines), a comment
READ = [LOCK, '%{"jason": ' + ENTRY[:-1] + '}\n', '# the lock\n' + LOCK, LOCK + "\n"]


@pytest.mark.parametrize("text", HIDDEN)
def test_an_entry_in_another_form_is_a_problem(text: str) -> None:
    with pytest.raises(ManifestError):
        parse_mix_lock("mix.lock", text.encode())


@pytest.mark.parametrize("text", READ)
def test_mixs_own_layouts_read(text: str) -> None:
    assert [(d.name, d.version) for d in parse_mix_lock("mix.lock", text.encode())] == [("jason", "1.4.1")]


def test_the_lock_edit_needs_a_human(tmp_path: Path) -> None:
    base = {"mix.lock": LOCK, "mix.exs": MIXEXS, "lib/app.ex": "defmodule App do\nend\n"}
    _, first, second = two_commits(tmp_path, base, {"mix.lock": HIDDEN[0]})
    code, decision = tree_gate(tmp_path, first, second, None, "--enable", "deps")
    assert code == 3, decision["reasons"]
