"""Past its bounds, the Helm `.Files` reader fails closed on the charts' files only, not on the whole repository.

Found by the stop's tree-mode regression over the mirrored sets: a chart whose `templates/crds/crds.yaml` is over the
full-read bound (Kyverno's CRDs, 2 MiB, vendored in openreplay's tooling chart) made every file of the repository `iac`
("more than 2000 kustomizations: any of them may name it"), 13 labelled files in 3 repositories. `.Files` reads only
inside its own chart, so past a bound every file of that chart (and of the charts whose helpers it may run with) may be
read, and nothing else is at stake.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gatekeeper.classify import chartfiles
from gatekeeper.classify.sniff import FULL_READ
from tests.gitrepo import two_commits
from tests.test_classify_context import tree_files

CHART = "apiVersion: v2\nname: web\nversion: 0.1.0\n"
CM = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n"
EDIT = {"charts/web/pint.json": '{"x": 2}\n', "src/app.py": "X = 2\n", "charts/api/pint.json": '{"x": 2}\n'}


def _files(templates: dict[str, str]) -> dict[str, str]:
    return {"charts/web/Chart.yaml": CHART, "charts/web/pint.json": '{"x": 1}\n', "src/app.py": "X = 1\n",
            "charts/api/Chart.yaml": CHART.replace("web", "api"), "charts/api/templates/cm.yaml": CM,
            "charts/api/pint.json": '{"x": 1}\n', **templates}


def _check(tmp_path: Path, templates: dict[str, str], other_chart: str) -> None:
    repo, first, head = two_commits(tmp_path / "repo", _files(templates), EDIT)
    found = tree_files(repo, f"{first}..{head}")
    assert (found["charts/web/pint.json"].bucket, found["charts/web/pint.json"].rule) == (
        "iac", "iac.context.chart-file")  # the chart past the bound: any template may read it
    assert found["src/app.py"].bucket == "src", found["src/app.py"]  # no chart reads outside itself
    assert (found["charts/api/pint.json"].rule == "iac.context.chart-file") == (other_chart == "claimed")


def test_a_template_over_the_read_bound_claims_its_chart_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Since classes58 a template is read whole up to chartfiles.MAX_TEMPLATE_BYTES (16 MiB; the real size is
    tests/test_classes58_chart_templates.py's): here the bound is set to FULL_READ, which the template passes."""
    monkeypatch.setattr(chartfiles, "MAX_TEMPLATE_BYTES", FULL_READ)
    crds = CM + "#" * (FULL_READ + 1) + "\n"
    _check(tmp_path, {"charts/web/templates/crds.yaml": crds}, "read in full: it reads nothing")


def test_more_templates_than_the_bound_claim_the_charts_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(chartfiles, "MAX_TEMPLATES", 1)
    _check(tmp_path, {"charts/web/templates/a.yaml": CM, "charts/web/templates/b.yaml": CM}, "claimed")
