"""Attack 23 on red team 25's `iac.context.deployed` (`--tree`): a deploy command handed its target by other means.

Red team 25 reads the paths a CI deploy command names. A command deploys a test-data chart or manifest it names no
path of just as well: `cd testdata/chart && helm upgrade --install web .`, a step's `working-directory:` with
`terraform apply` or `kubectl apply -k .`, flags run together (`kubectl apply -Rf testdata/m/`), a comma list
(`-f a.yaml,b.yaml`), standard input (`cat X | kubectl apply -f -`, `-f - < X`, `envsubst < X |`), a loop's variable
(`for f in testdata/*.yaml; do kubectl apply -f $f; done`), `xargs`, and `openstack stack create -t` (a Heat template
the Heat reader skips as test data). Each edited file below was `src` (test data)
and `gate --tree` allowed the change (exit 0) on integ 2e50026 (26 of the 42 files of each form of
reach); now each is `iac` (deployruns.HERE, walkpaths.reached_in).
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
CM = "kind: ConfigMap\n"

# name: (the command with {d} for its folder, the folder it runs in or None, base files below {d}, the edited file)
FORMS: dict[str, tuple[str, str | None, dict[str, str], str]] = {
    "cd helm .": ("cd {d} && helm upgrade --install web .", None,
                  {"Chart.yaml": CHART, "templates/a.yaml": CM}, "templates/a.yaml"),
    "wd helm ./": ("helm upgrade --install web ./ -n prod", "{d}", {"Chart.yaml": CHART, "templates/a.yaml": CM},
                   "templates/a.yaml"),
    "wd terraform": ("terraform apply -auto-approve", "{d}", {"main.tf": "\n"}, "main.tf"),
    "pushd tofu": ("pushd {d} && tofu apply", None, {"main.tf": "\n"}, "iam.tf"),
    "cd kubectl -k .": ("cd {d} && kubectl apply -k .", None, {"kustomization.yaml": "resources: [a.yaml]\n",
                                                             "a.yaml": CM}, "a.yaml"),
    "wd kustomize build": ("kustomize build | kubectl apply -f -", "{d}",
                           {"kustomization.yaml": "resources: [a.yaml]\n", "a.yaml": CM}, "a.yaml"),
    "-Rf": ("kubectl apply -Rf {d}/", None, {"a.yaml": CM}, "b.yaml"),
    "comma": ("kubectl apply -f {d}/x.yaml,{d}/rbac.yaml", None, {"x.yaml": CM, "rbac.yaml": CM}, "rbac.yaml"),
    "cat pipe": ("cat {d}/rbac.yaml | kubectl apply -f -", None, {"rbac.yaml": CM}, "rbac.yaml"),
    "stdin": ("kubectl apply -f - < {d}/rbac.yaml", None, {"rbac.yaml": CM}, "rbac.yaml"),
    "envsubst": ("envsubst < {d}/rbac.yaml | kubectl apply -f -", None, {"rbac.yaml": CM}, "rbac.yaml"),
    "loop": ("for f in {d}/*.yaml; do kubectl apply -f \"$f\"; done", None, {"a.yaml": CM}, "a.yaml"),
    "xargs": ("ls {d}/*.yaml | xargs -n 1 kubectl apply -f", None, {"a.yaml": CM}, "a.yaml"),
    # a Heat template: the Heat reader skips test data (label 37), and no deploy command named `openstack stack`
    "openstack stack": ("openstack stack create --wait -t {d}/stack.yaml web", None,
                        {"stack.yaml": "heat_template_version: 2018-08-31\nresources: {}\n"}, "stack.yaml"),
}
FOLDERS = ["testdata/{n}", "fixtures/{n}", "test/fixtures/{n}"]  # test data by principle 1


def variants(how: str) -> tuple[dict[str, str], dict[str, str]]:
    """Every form in every test-data folder, each in a folder of its own and each form in a definition of its own (a
    workflow, or a script the one workflow runs): (base, head)."""
    base: dict[str, str] = {"README.md": "x\n"}
    head: dict[str, str] = {}
    scripts = []
    for number, (command, run_in, files, edited) in enumerate(FORMS.values()):
        steps, lines = [], []
        for spelling in FOLDERS:
            folder = spelling.format(n=f"f{number}")
            base |= {f"{folder}/{name}": text for name, text in files.items()}
            head[f"{folder}/{edited}"] = RBAC if edited.endswith(".yaml") else TF
            line = command.format(d=folder)
            lines.append(f"( cd {folder} && {line} )" if run_in else line)
            steps.append(f"      - run: {line}\n        working-directory: {folder}\n" if run_in and number % 2
                         else f"      - run: {lines[-1]}\n")
        if how == "step":
            base[f".github/workflows/deploy{number}.yml"] = WORKFLOW.format(steps="".join(steps))
        else:
            base[f"ops/deploy{number}.sh"] = "#!/bin/sh\nset -e\n" + "".join(f"{line}\n" for line in lines)
            scripts.append(f"      - run: sh ops/deploy{number}.sh\n")
    if how == "script":
        base[".github/workflows/deploy.yml"] = WORKFLOW.format(steps="".join(scripts))
    return base, head


def test_the_variants_are_what_they_say() -> None:
    assert len(variants("step")[1]) == len(variants("script")[1]) == 42


@pytest.mark.parametrize("how", ["step", "script"])
def test_what_a_deploy_command_is_handed_without_naming_it_is_iac(tmp_path: Path, how: str) -> None:
    base, head = variants(how)
    repo, first, last = two_commits(tmp_path / "r", base, head)
    found = tree_classify(repo.root, first, last)
    assert {path: found[path]["bucket"] for path in head} == dict.fromkeys(head, "iac"), found
    code, decision = tree_gate(repo.root, first, last)
    assert code == 3 and decision["outcome"] == "review"  # 2e50026: 0, allow


def test_a_folder_no_deploy_runs_in_stays_src(tmp_path: Path) -> None:
    """`.` is only the folders a definition runs in, never the root or the workflow's own folder; a definition that
    deploys `.` nowhere leaves the folders it cds to alone."""
    steps = ("      - run: cd testdata/docs && make html\n"
             "      - run: kubectl get pods -o yaml > testdata/pods.yaml\n")
    base = {".github/workflows/ci.yml": WORKFLOW.format(steps=steps), "testdata/docs/a.yaml": CM,
            "testdata/pods.yaml": CM}
    head = {"testdata/docs/a.yaml": "a: 2\n", "testdata/pods.yaml": "a: 2\n"}  # (a Kubernetes object there is iac)
    repo, first, last = two_commits(tmp_path / "r", base, head)
    found = tree_classify(repo.root, first, last)
    assert {path: found[path]["bucket"] for path in head} == dict.fromkeys(head, "src")


@each_case(("line", "expected"), [
    ("cd charts/web && helm upgrade --install web .", ["./Chart.yaml"]),  # the folders it runs in, holding one
    ("terraform apply -auto-approve && terraform fmt -check",
     ["./*.tf", "./*.tf.json", "./*.tofu", "./terragrunt.hcl"]),
    ("terraform -chdir=live apply", ["live"]),
    ("helmfile -f hf.yaml apply && helmfile lint", ["hf.yaml"]),
    ("kubectl apply -Rf deploy/ -n prod", ["deploy"]),
    ("kubectl apply -f a.yaml,b/c.yaml", ["a.yaml,b/c.yaml", "a.yaml", "b/c.yaml"]),
    ("cat deploy/x.yaml | kubectl apply -f -", ["deploy/x.yaml"]),
    ("kubectl get -f - < x.yaml", []),  # a reading command
    ("openstack stack create -t heat/a.yaml -e heat/env.yaml s && openstack server list",
     ["heat/a.yaml", "heat/env.yaml"]),
    ("heat stack-create -f heat/b.yaml s", ["heat/b.yaml"]),
])
def test_the_paths_a_deploy_command_is_handed(line: str, expected: list[str]) -> None:
    assert targets(line) == expected
