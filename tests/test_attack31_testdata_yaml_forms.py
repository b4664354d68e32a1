"""Attack 31 on issue 12 item 6's content tier: a test-data file whose content shows infrastructure is `iac` — unless
it is written in a YAML form the patterns do not read.

testdatacontent.py read a test-data candidate with tier 3's patterns only, which look for block-style keys at a
line's start (`kind: ClusterRoleBinding`). The same object written in flow style (`{apiVersion: ..., kind: ...}`,
valid YAML that kubectl applies), or with its keys merged from an anchor (`<<: *base`), was `src` (testdata.*) and
the default gate allowed it from a patch and with `--tree` on integ f046511, while outside test data the catch-all's
whole-YAML reading made both `iac.content.kubernetes`. Now a test-data candidate is read whole as YAML too (up to
FULL_READ, as the catch-all; a longer one is not `iac.content.unread`: its data stays a test's). The plain form was
already `iac` and stays; a fixture that is no object (a list of them, kubectl applies no bare list) stays `src`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from changecase import committed, gated_rules

FLOW = ("{apiVersion: rbac.authorization.k8s.io/v1, kind: ClusterRoleBinding, metadata: {name: all}, roleRef: "
        "{apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cluster-admin}, subjects: [{kind: Group, "
        "name: 'system:authenticated', apiGroup: rbac.authorization.k8s.io}]}\n")
ANCHORS = ("rbac: &rbac\n  apiVersion: rbac.authorization.k8s.io/v1\n  kind: ClusterRoleBinding\n<<: *rbac\n"
           "metadata: {name: all}\nroleRef: {kind: ClusterRole, name: cluster-admin}\n")
FORMS = {"flow": FLOW, "anchors": ANCHORS}
FOLDERS = ["testdata", "tests/fixtures", "src/test/resources", "__fixtures__"]


@pytest.mark.parametrize("tree", [True, False], ids=["tree", "patch"])
@pytest.mark.parametrize("form", sorted(FORMS))
@pytest.mark.parametrize("folder", FOLDERS)
def test_a_kubernetes_object_in_any_yaml_form_is_iac_in_test_data(tmp_path: Path, folder: str, form: str,
                                                                  tree: bool) -> None:
    path = f"{folder}/rbac.yaml"
    case = committed(tmp_path, {path: "kind: ConfigMap\n"}, {path: FORMS[form]})
    code, named = gated_rules(case, tree)
    assert code == 3 and path in named.get("core.iac", []), named


@pytest.mark.parametrize("tree", [True, False], ids=["tree", "patch"])
def test_a_fixture_that_is_no_object_stays_a_tests(tmp_path: Path, tree: bool) -> None:
    path = "testdata/cases.yaml"
    case = committed(tmp_path, {path: "- name: a\n"}, {path: "- {name: b, want: {kind: Pod}}\n- name: c\n"})
    code, named = gated_rules(case, tree)
    assert code == 0, named
