"""The files a Helm chart's templates read into what it deploys (red team 24, tests/test_redteam24_chart_files.py).

`{{ .Files.Get "boot.sh" }}`, `.Files.Lines`, `.Files.GetBytes` and `(.Files.Glob "config/*").AsConfig` put a chart
file's bytes into the objects Helm installs: a ConfigMap's script, a Secret. A file the path rules name by a specific
rule (`README.md` as docs, `pint.json` or `.simplecov` as a developer tool's settings: the thirty-third set's rule took
them out of `iac.folders`) stayed src or other, and `gate --tree` allowed an edit the cluster runs. With the commits,
every file of a chart its templates read by a literal name or glob is iac (`iac.context.chart-file`). Not followed:
a read by a computed name (`.Files.Get (printf "%s.json" .Values.env)`): in the mirrored repositories those are a
library chart's (bjw-s' common library), and taking every file of the chart would make 680 of its unit tests iac.
`.Files` used as a value (`.Files.AsConfig`, `$f := .Files`, `with .Files`) reads every file of the chart (attack 22,
tests/test_attack22_chart_files.py; no template of the mirrored charts does).
"""

from __future__ import annotations

from gatekeeper.classify import chartglob
from gatekeeper.lazy_pattern import lazy

__all__ = ["EVIDENCE", "MAX_TEMPLATE_BYTES", "MAX_TEMPLATES", "is_chart", "is_template", "parents", "read_by"]

EVIDENCE = "the Helm template"  # how a read is told (context.py names its rule by it)
MAX_TEMPLATES = 4_000  # templates read per tree: past it, every file may be read
# A template is read whole up to this (a chart's vendored CRDs run to a few MiB: cloudnative-pg 1.2, Argo CD's
# ApplicationSet 1.4); past it, every file of its chart may be read (classes58)
MAX_TEMPLATE_BYTES = 16 * 1024 * 1024
_CALL = lazy(r"\.Files\.(?:Get|GetBytes|Lines|Glob)\b\s*(\"[^\"\n]*\"|`[^`\n]*`)?")
# `.Files` itself as a value: `.Files.AsConfig`/`.AsSecrets` (every file), `$f := .Files`, `with .Files`, `dict "f"
# .Files` (what reads through them is not followed): every file of the chart may be read (attack 22).
_WHOLE = lazy(r"\.Files\b(?!\.(?:Get|GetBytes|Lines|Glob)\b)")
_TEMPLATE_TYPES = (".yaml", ".yml", ".tpl", ".txt", ".json")


def is_chart(path: str) -> bool:
    return path == "Chart.yaml" or path.endswith("/Chart.yaml")


def parents(chart: str, charts: list[str]) -> list[str]:
    """The charts whose `charts/` folder holds `chart`: a subchart's helper (`include "common.files" .`, a library
    chart's) runs with its parent's context, so its `.Files` reads are the parent's files too (attack 22)."""
    return [other for other in charts if other != chart and chart.startswith(f"{other}charts/")]


def is_template(chart: str, path: str) -> bool:
    """A file Helm renders: below the chart's `templates/` folder, of a type it reads."""
    return path.startswith(f"{chart}templates/") and path.endswith(_TEMPLATE_TYPES)


def read_by(chart: str, text: str, paths: list[str]) -> list[str]:
    """The paths of the chart's files (`paths`, all below `chart`, which ends in `/` or is empty) outside `templates/`
    a template's `text` reads by a literal name or glob (`*`, `**`, `?`, `{a,b}`, `[...]`)."""
    if ".Files" not in text:
        return []
    if _WHOLE.search(text):
        return [path for path in paths if not path.startswith(f"{chart}templates/")]
    found: list[str] = []
    for call in _CALL.finditer(text):
        literal = call.group(1)
        if literal is None:
            continue  # a computed name: not followed (a library chart's reads would take its every file)
        matches = chartglob.matcher(literal[1:-1].lstrip("/").removeprefix("./"))  # linear in the path
        found += [path for path in paths if not path.startswith(f"{chart}templates/") and matches(path[len(chart):])]
    return list(dict.fromkeys(found))

