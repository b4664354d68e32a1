"""Attack 48: the project code a linter or type checker CI runs loads from its settings (lintplugins.py): pylint's
`load-plugins` and `init-hook`, mypy's `plugins`, flake8's local plugins, RuboCop's `require:`/`plugins:` (and the
settings it inherits). The settings name the code by a module or a relative path, and an edit of it was exit 0 on
c315ac6c; the settings file that holds an `init-hook` runs code itself."""

from __future__ import annotations

from pathlib import Path

from citools import LINE_DEFINITIONS, tree_runs, with_line
from cpucost import assert_linear, repeated
from gitrepo import two_commits
from incli import tree_gate
from tables import each_case

from gatekeeper.classify import lintplugins

PY = {"tools/__init__.py": "", "tools/lint_plugin.py": "x", "tools/checks/__init__.py": "", "tools/checks/rule.py": "x",
      "src/app.py": "x", "tools/other.py": "x", "mypy_plugins/p.py": "x"}
RB = {"lib/cops/my_cop.rb": "x", "lib/app.rb": "x", "config/rubocop/extra.yml": "require:\n  - ../../lib/cops/extra\n",
      "lib/cops/extra.rb": "x"}
# (settings files, the command CI runs, a file it loads)
SETTINGS = [
    ({".pylintrc": "[MASTER]\nload-plugins=tools.lint_plugin\n"}, "pylint src", "tools/lint_plugin.py"),
    ({"pylintrc": "[MAIN]\nload-plugins = pylint.extensions.docparams,\n    tools.checks.rule\n"}, "pylint src",
     "tools/checks/rule.py"),
    ({"pylintrc": "[MAIN]\nload-plugins=tools.checks\n"}, "python -m pylint src", "tools/checks/__init__.py"),
    ({"pyproject.toml": "[tool.pylint.main]\nload-plugins = [\"tools.lint_plugin\"]\n"}, "pylint src",
     "tools/lint_plugin.py"),
    ({"pyproject.toml": "[tool.pylint.MASTER]\nload-plugins = \"tools.lint_plugin\"\n"}, "uv run pylint src",
     "tools/__init__.py"),
    ({"setup.cfg": "[pylint.MASTER]\nload-plugins=tools.lint_plugin\n"}, "pylint src", "tools/lint_plugin.py"),
    ({"ci/pylintrc": "[MASTER]\nload-plugins=tools.lint_plugin\n"}, "pylint --rcfile=ci/pylintrc src",
     "tools/lint_plugin.py"),
    ({"ci/pylintrc": "[MASTER]\nload-plugins=tools.lint_plugin\n"}, "pylint --rcfile ci/pylintrc src",
     "tools/lint_plugin.py"),
    ({".pylintrc": "[MASTER]\ninit-hook='import sys; sys.path.append(\"tools\"); import other'\n"}, "pylint src",
     "tools/other.py"),
    ({".pylintrc": "[MASTER]\ninit-hook='import sys; sys.path.append(\"tools\"); import other'\n"}, "pylint src",
     ".pylintrc"),
    ({"mypy.ini": "[mypy]\nplugins = mypy_plugins/p.py\n"}, "mypy src", "mypy_plugins/p.py"),
    ({".mypy.ini": "[mypy]\nplugins = pydantic.mypy, tools.lint_plugin:plugin\n"}, "mypy .", "tools/lint_plugin.py"),
    ({"setup.cfg": "[mypy]\nplugins =\n  tools.checks.rule\n"}, "python -m mypy src", "tools/checks/rule.py"),
    ({"pyproject.toml": "[tool.mypy]\nplugins = [\"tools.lint_plugin\"]\n"}, "mypy src", "tools/lint_plugin.py"),
    ({"ci/mypy.ini": "[mypy]\nplugins = ../mypy_plugins/p.py\n"}, "mypy --config-file ci/mypy.ini src",
     "mypy_plugins/p.py"),
    ({".flake8": "[flake8]\nmax-line-length=99\n\n[flake8:local-plugins]\nextension =\n    X1 = tools.lint_plugin:P\n"
                 "paths = .\n"}, "flake8 src", "tools/lint_plugin.py"),
    ({"tox.ini": "[flake8:local-plugins]\nextension = X = checks.rule:P\npaths = ./tools\n"}, "flake8",
     "tools/checks/rule.py"),
    ({".rubocop.yml": "require:\n  - ./lib/cops/my_cop\n"}, "bundle exec rubocop", "lib/cops/my_cop.rb"),
    ({".rubocop.yml": "plugins:\n  - rubocop-rails\n  - ./lib/cops/my_cop.rb\n"}, "rubocop --parallel",
     "lib/cops/my_cop.rb"),
    ({".rubocop.yml": "require: ./lib/cops/my_cop\n"}, "bin/rubocop", "lib/cops/my_cop.rb"),
    ({".rubocop.yml": "inherit_from:\n  - config/rubocop/extra.yml\n"}, "bundle exec rubocop", "lib/cops/extra.rb"),
    ({"ci/rubocop.yml": "require:\n  - ../lib/cops/my_cop\n"}, "rubocop -c ci/rubocop.yml", "lib/cops/my_cop.rb"),
]
CASES = [(*d, settings, line, target) for d in LINE_DEFINITIONS for settings, line, target in SETTINGS]


@each_case(("definition", "template", "settings", "line", "target"), CASES)
def test_what_a_linter_loads_is_ci(definition: str, template: str, settings: dict[str, str], line: str,
                                   target: str) -> None:
    assert target in tree_runs(with_line(definition, template, line, {**PY, **RB, **settings}))


# (settings, a command, a file that stays src)
LOOKALIKES = [
    ({".pylintrc": "[MASTER]\nload-plugins=tools.lint_plugin\n"}, "black src", "tools/lint_plugin.py"),
    ({".pylintrc": "[MASTER]\nload-plugins=tools.lint_plugin\n"}, "pylint src", "tools/other.py"),
    ({".pylintrc": "[MASTER]\nload-plugins=tools.lint_plugin\n"}, "pylint src", "src/app.py"),
    ({".pylintrc": "[MASTER]\n# load-plugins=tools.lint_plugin\n"}, "pylint src", "tools/lint_plugin.py"),
    ({".pylintrc": "[MASTER]\nload-plugins=tools.lint_plugin\n"}, "pylint src", ".pylintrc"),
    ({"mypy.ini": "[mypy]\nplugins = pydantic.mypy\n"}, "mypy src", "tools/lint_plugin.py"),
    ({"mypy.ini": "[mypy]\nplugins = mypy_plugins/p.py\n"}, "echo mypy src", "mypy_plugins/p.py"),
    ({".rubocop.yml": "require:\n  - rubocop-rspec\n"}, "bundle exec rubocop", "lib/app.rb"),
    ({".rubocop.yml": "require:\n  - ./lib/cops/my_cop\n"}, "bundle exec rspec", "lib/cops/my_cop.rb"),
    ({".rubocop.yml": "AllCops:\n  Exclude:\n    - lib/cops/my_cop.rb\n"}, "rubocop", "lib/cops/my_cop.rb"),
]


@each_case(("settings", "line", "target"), LOOKALIKES)
def test_what_no_linter_loads_stays_src(settings: dict[str, str], line: str, target: str) -> None:
    assert target not in tree_runs(with_line(*LINE_DEFINITIONS[0], line, {**PY, **RB, **settings}))


def test_an_unreadable_settings_file_names_what_it_may_load() -> None:
    settings = {"pyproject.toml": "[tool.mypy\nplugins = [\"tools.lint_plugin\"]\n"}  # not TOML: read by its lines
    assert "tools/lint_plugin.py" in tree_runs(with_line(*LINE_DEFINITIONS[0], "mypy src", {**PY, **settings}))


@each_case(("settings", "line", "edited"), [
    ({".pylintrc": "[MASTER]\nload-plugins=tools.lint_plugin\n"}, "pylint src", "tools/lint_plugin.py"),
    ({"mypy.ini": "[mypy]\nplugins = mypy_plugins/p.py\n"}, "mypy src", "mypy_plugins/p.py"),
    ({".rubocop.yml": "require:\n  - ./lib/cops/my_cop\n"}, "bundle exec rubocop", "lib/cops/my_cop.rb")])
def test_the_edit_needs_a_human(tmp_path: Path, settings: dict[str, str], line: str, edited: str) -> None:
    base = with_line(*LINE_DEFINITIONS[0], line, {**PY, **RB, **settings})
    _, first, second = two_commits(tmp_path / "repo", base, {edited: "import os\nos.system('id')\n"})
    code, decision = tree_gate(tmp_path / "repo", first, second, None)
    assert code == 3, decision["reasons"]


@each_case("text", [repeated("tools.a, ", "[MASTER]\nload-plugins=", "x\n"), repeated("  - ./x\n", "require:\n", ""),
                    repeated("[mypy]\nplugins = a\n", "", ""), repeated("X = a.b:P\n ", "[flake8:local-plugins]\n"
                                                                         "extension = ", "")])
def test_the_settings_are_read_in_linear_time(text: object) -> None:
    assert_linear(lintplugins.settings_loads, text, budget=1.0)  # type: ignore[arg-type]


@each_case(("settings", "line", "edit"), [
    (".pylintrc", "pylint src", "[MASTER]\nload-plugins=tools.lint_plugin\n"),
    ("mypy.ini", "mypy src", "[mypy]\nplugins = tools/lint_plugin.py\n"),
    (".rubocop.yml", "bundle exec rubocop", "require:\n  - ./lib/cops/my_cop\n"),
    ("ci/lint.cfg", "pylint --rcfile ci/lint.cfg src", "[MASTER]\nload-plugins=tools.lint_plugin\n")])
def test_a_plugin_the_change_adds_to_the_settings_needs_a_human(tmp_path: Path, settings: str, line: str,
                                                                 edit: str) -> None:
    base = with_line(*LINE_DEFINITIONS[0], line, {**PY, **RB, settings: "[MASTER]\n"})
    _, first, second = two_commits(tmp_path / "repo", base, {settings: edit, "tools/lint_plugin.py": "import os\n",
                                                             "lib/cops/my_cop.rb": "system('id')\n"})
    code, decision = tree_gate(tmp_path / "repo", first, second, None)
    assert code == 3, decision["reasons"]
