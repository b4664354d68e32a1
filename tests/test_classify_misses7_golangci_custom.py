"""Misses 7: the module plugins `golangci-lint custom` builds into the linter CI then runs are the job's code
(lintplugins.py). `.custom-gcl.yml`'s `plugins:` list a `module:` with a local `path:`; the command compiles that
folder's Go files into `./custom-gcl`, which the job runs over the product. An edit of the plugin was exit 0 on
b493f73c. Look-alikes: `golangci-lint run` (no custom build), a plugin fetched by version (no `path:`)."""

from __future__ import annotations

from pathlib import Path

from changecase import committed, gated_rules
from tables import each_case

from gatekeeper.classify.lintplugins import Settings, loaded

WORKFLOW = ("name: lint\non: [push]\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n"
            "      - uses: actions/checkout@v4\n      - run: {command}\n")
GCL = "version: v1.62.0\nplugins:\n  - module: 'example.com/lint'\n    import: 'example.com/lint/x'\n    path: {path}\n"
VARIANTS = [  # (command, settings name, plugin folder in the file, the plugin's file)
    ("golangci-lint custom && ./custom-gcl run ./...", ".custom-gcl.yml", "./tools/mylint", "tools/mylint/plugin.go"),
    ("golangci-lint custom -v", ".custom-gcl.yaml", "tools/lint", "tools/lint/analyzer/a.go"),
    ("go run github.com/golangci/golangci-lint/cmd/golangci-lint@v1.62.0 custom", ".custom-gcl.yml",
     "./linters", "linters/plugin.go"),
]


@each_case("command, settings, folder, plugin", VARIANTS)
def test_a_custom_linter_plugin_is_ci(tmp_path: Path, command: str, settings: str, folder: str, plugin: str) -> None:
    text = "module example.com/lint\n" if plugin.endswith("go.mod") else "package lint\n"
    base = {".github/workflows/lint.yml": WORKFLOW.format(command=command), "README.md": "x\n",
            settings: GCL.format(path=folder), plugin: text}
    case = committed(tmp_path, base, {plugin: text + "// x\n"})
    code, named = gated_rules(case, True)
    assert (code, named.get("core.ci")) == (3, [plugin]), named  # before: src, exit 0


class _Entry:
    def __init__(self, data: str) -> None:
        self.data, self.mode, self.oid = data.encode(), "100644", str(hash(data))


@each_case("ci, text", [("golangci-lint run ./...", GCL.format(path="./tools/mylint")),
                        ("golangci-lint custom",
                         "version: v1.62.0\nplugins:\n  - module: 'x.com/l'\n    version: v1\n")])
def test_look_alikes_name_nothing(ci: str, text: str) -> None:
    tree = {".custom-gcl.yml": _Entry(text), "tools/mylint/plugin.go": _Entry("package lint\n")}
    assert loaded(ci, Settings(tree, lambda entry: entry.data)) == [], (ci, text)  # type: ignore[arg-type]
