"""Tier 3: every content signal, per kind, on real-shaped files; the look-alikes; the read window."""

from __future__ import annotations

from pathlib import Path

from cpucost import within_cpu
from tables import each_case

from gatekeeper.classify import load_rules
from gatekeeper.classify.sniff import WINDOW, is_candidate, only_comments, sniff
from tests import manifests as m

RULES = load_rules(Path(__file__).resolve().parent.parent / "policies")

KINDS = [
    ("deploy/frontend.yaml", m.DEPLOYMENT, "iac", "iac.content.kubernetes"),
    ("guestbook/redis.json", m.DEPLOYMENT_JSON, "iac", "iac.content.kubernetes"),
    ("apps/guestbook.yaml", m.ARGO_APPLICATION, "iac", "iac.content.argocd"),
    ("projects/payments.yml", m.ARGO_PROJECT, "iac", "iac.content.argocd"),
    ("pipelines/build.yaml", m.ARGO_WORKFLOW, "ci", "ci.content.argo-workflows"),
    ("pipelines/nightly.yaml", m.ARGO_CRON_WORKFLOW, "ci", "ci.content.argo-workflows"),
    ("clusters/prod/podinfo.yaml", m.FLUX_HELMRELEASE, "iac", "iac.content.flux"),
    ("clusters/prod/infra.yaml", m.FLUX_KUSTOMIZATION, "iac", "iac.content.flux"),
    ("package/composition.yaml", m.CROSSPLANE_COMPOSITION, "iac", "iac.content.crossplane"),
    ("policy/required-labels.yaml", m.GATEKEEPER_TEMPLATE, "iac", "iac.content.policy-controllers"),
    ("build/pipeline.yaml", m.TEKTON_PIPELINE, "ci", "ci.content.tekton"),
    ("aws/logs.yaml", m.CLOUDFORMATION, "iac", "iac.content.cloudformation"),
    ("aws/queue.template", m.CLOUDFORMATION_NO_VERSION, "iac", "iac.content.cloudformation"),
    ("thumbnail/template.yml", m.SAM_TEMPLATE, "iac", "iac.content.sam"),
    ("azure/storage.json", m.ARM_TEMPLATE, "iac", "iac.content.arm"),
    ("ops/webservers.yml", m.ANSIBLE_PLAY, "iac", "iac.content.ansible-play"),
    ("ops/databases.yml", m.ANSIBLE_PLAY_ROLES, "iac", "iac.content.ansible-play"),
    ("provisioning/tasks/packages.yml", m.ANSIBLE_TASKS_SHORT, "iac", "iac.content.ansible-tasks"),
    ("ops/hosts.yml", m.ANSIBLE_INVENTORY_YAML, "iac", "iac.content.ansible-inventory"),
    ("ops/production", m.ANSIBLE_INVENTORY_INI, "iac", "iac.content.ansible-inventory"),
    ("images/worker", m.DOCKERFILE, "iac", "iac.content.dockerfile"),
    ("automation/release.yml", m.GITHUB_WORKFLOW, "ci", "ci.content.github-workflow"),
    ("tools/setup-go/action.yaml", m.COMPOSITE_ACTION, "ci", "ci.content.github-action"),
    ("library/setup.py", m.ANSIBLE_MODULE_SETUP_PY, "src", "src.content.ansible-module"),
    ("examples/stackCreationPolicy.json", m.IAM_POLICY, "iac", "iac.content.iam-policy"),
    ("functions/trust.yml", m.IAM_TRUST_POLICY_YAML, "iac", "iac.content.iam-policy"),
    ("wordpress-nginx/hosts.example", m.ANSIBLE_INVENTORY_BARE, "iac", "iac.content.ansible-inventory"),
    ("staging", m.ANSIBLE_INVENTORY_BARE.replace(" ansible_port=2222", ""), "iac", "iac.content.ansible-inventory"),
    # A chart's templates and helpers shown without their Chart.yaml (a patch), and helmfile's templates.
    ("web/templates/deployment.yaml", m.HELM_TEMPLATE, "iac", "iac.content.helm-template"),
    ("web/templates/_helpers.tpl", m.HELM_HELPERS, "iac", "iac.content.helm-template"),
    ("traefik/templates/_podtemplate.tpl", m.HELM_POD_TEMPLATE, "iac", "iac.content.helm-template"),
    ("bootstrap/helmfile/templates/release.yaml.gotmpl", m.HELMFILE_RELEASE_TEMPLATE, "iac",
     "iac.content.helm-template"),
    ("pipeline/build-spec/projen-release.yml", m.CODEBUILD_BUILDSPEC, "ci", "ci.content.codebuild"),
    ("tasks/testflight/task.yml", m.CONCOURSE_TASK, "ci", "ci.content.concourse"),
    ("pipelines/helm-chart.yml", m.CONCOURSE_PIPELINE, "ci", "ci.content.concourse"),
    ("MultiRegion/setup-dns-record.json", m.ROUTE53_CHANGE_BATCH, "iac", "iac.content.route53-change"),
    ("system/bootstrap.yml", m.ANSIBLE_PLAY_AFTER_COMMENTS, "iac", "iac.content.ansible-play"),
    ("ops/web.yml", m.ANSIBLE_PLAY_WIDE, "iac", "iac.content.ansible-play"),
    ("ops/all.yml", m.ANSIBLE_PLAYBOOK_IMPORTS, "iac", "iac.content.ansible-play"),
    ("azure/templates/steps.yml", m.AZURE_STEPS_TEMPLATE, "ci", "ci.content.azure-pipelines"),
    ("pipelines/build.yml", m.AZURE_PIPELINE, "ci", "ci.content.azure-pipelines"),
    ("build/jobs.yml", m.GITLAB_INCLUDED_JOBS, "ci", "ci.content.gitlab-ci"),
    ("circleci/config.yml", m.CIRCLECI_CONFIG, "ci", "ci.content.circleci"),
    ("build/pipeline.yml", m.DRONE_PIPELINE, "ci", "ci.content.drone-woodpecker"),
    ("config/bitbucket.yml", m.BITBUCKET_PIPELINES, "ci", "ci.content.bitbucket"),
    ("pipelines/main.yml", m.BUILDKITE_PIPELINE, "ci", "ci.content.buildkite"),
]

LOOK_ALIKES = [
    ("catalog-info.yaml", m.BACKSTAGE, "other", "other.content.backstage"),
    ("config/kubeconfig.yaml", m.KUBECONFIG, "other", "other.content.kubeconfig"),
    ("api/openapi.yaml", m.OPENAPI, None, None),
    ("contrib/html.tpl", m.GO_REPORT_TEMPLATE, None, None),
    ("rules/helm.yaml", m.SEMGREP_RULES, None, None),
    ("charts/web/README.md.gotmpl", m.HELM_DOCS_TEMPLATE, None, None),
    ("roles/web/templates/nginx.conf.j2", m.JINJA_WITH_VALUES, None, None),
    ("config/release.yaml", m.GORELEASER_TEMPLATE_LINE, None, None),
    ("template/catalog.yaml", m.SCAFFOLDER_VALUES, None, None),
    ("config/lint.yaml", m.NOT_CODEBUILD, None, None),
    ("config/packages.yaml", m.NOT_CONCOURSE, None, None),
    ("automation/release.yml", m.GITHUB_WORKFLOW, "ci", "ci.content.github-workflow"),  # jobs: but no plan:
    ("data/changes.json", m.NOT_ROUTE53, None, None),
    ("config/pools.yml", m.NOT_A_PLAY, None, None),
    ("recipes/pancakes.yml", m.RECIPE_STEPS, None, None),
    ("e2e/scenarios/fixtures/02_step_failure.yaml", m.WOODPECKER_STEPS, None, None),  # the path rules' job
    ("config/queue.yml", m.QUEUE_SETTINGS, None, None),
    ("rollout/stages.yml", m.STAGED_ROLLOUT, None, None),
    ("ops/app.yml", m.DEPLOYMENT, "iac", "iac.content.kubernetes"),  # a Deployment's `image:` is not a CI step
    # A compose service's `image:` and `command:` are no CI step; since the sixth round the file is a compose
    # file by content (iac, as its path rule says), never ci.
    ("docker-compose.override.yml", "services:\n  web:\n    image: nginx\n    command: [nginx]\n", "iac",
     "iac.content.compose"),
    ("config/app.yaml", m.APP_SETTINGS, None, None),
    ("setup.py", m.PACKAGING_SETUP_PY, None, None),
    # Short Ansible module names count only in a task folder: a workflow's steps also say `- name:`.
    ("ops/packages.yml", m.ANSIBLE_TASKS_SHORT, None, None),
    ("setup.cfg", m.SETUP_CFG, None, None),
    ("widget.egg-info/entry_points.txt", m.ENTRY_POINTS_TXT, None, None),
    ("Cargo.toml.example", '[dependencies]\nserde = "1"\n', None, None),
    ("release.json", m.NOT_IAM, None, None),
    ("template/template.yaml", m.BACKSTAGE_SCAFFOLDER, "other", "other.content.backstage"),
]


@each_case(("path", "text", "bucket", "rule"), KINDS + LOOK_ALIKES, ids=lambda v: str(v)[:40])
def test_each_signal_and_each_look_alike(path: str, text: str, bucket: str | None, rule: str | None) -> None:
    signal = sniff(path, text.encode(), RULES.context)
    if bucket is None:
        assert signal is None, signal
        return
    assert signal is not None
    assert (signal.bucket, signal.rule) == (bucket, rule)
    assert signal.evidence and "\n" not in signal.evidence
    # The evidence is a line of the file (or two, for apiVersion / kind), so --explain can show it.
    assert all(part.strip() in text for part in signal.evidence.split(" / "))


def test_most_sensitive_document_wins_in_a_multi_document_file() -> None:
    mixed = m.DEPLOYMENT + "---\n" + m.TEKTON_PIPELINE
    signal = sniff("deploy/all.yaml", mixed.encode(), RULES.context)
    assert signal is not None and signal.bucket == "ci"


def test_a_workflow_inside_a_json_array_or_flow_style_still_counts() -> None:
    flow = '{"apiVersion": "tekton.dev/v1beta1", "kind": "Task", "metadata": {"name": "lint"}}\n'
    assert sniff("x/task.json", flow.encode(), RULES.context).rule == "ci.content.tekton"  # type: ignore[union-attr]


def test_signal_past_the_window_is_read_as_yaml_and_after_only_comments_by_the_patterns() -> None:
    filler = "data:\n" + "".join(f"  key{i}: {'x' * 60}\n" for i in range(200))
    assert len(filler) > WINDOW
    late = filler + m.ARGO_APPLICATION
    # The patterns read 8 KiB first, then, finding nothing, the whole file (red team 11:
    # tests/test_redteam11_windows.py); the file read as YAML, whole, shows the forms no line pattern sees (red
    # team: a manifest padded past the window was `src`; tests/test_redteam_yaml_forms.py).
    assert sniff("a.yaml", late.encode()[:WINDOW], RULES.context) is None  # the window alone
    for as_yaml in (False, True):
        found = sniff("a.yaml", late.encode(), RULES.context, as_yaml=as_yaml)
        assert found is not None and found.rule == "iac.content.argocd" and "(read as YAML)" not in found.evidence
    explicit = filler + "---\n? apiVersion\n: argoproj.io/v1alpha1\nkind: Application\n"  # no line pattern's form
    assert sniff("a.yaml", explicit.encode(), RULES.context) is None
    found = sniff("a.yaml", explicit.encode(), RULES.context, as_yaml=True)
    assert found is not None and found.rule == "iac.content.argocd" and "(read as YAML)" in found.evidence
    padded = "".join(f"# licence line {i} {'-' * 60}\n" for i in range(200)) + m.ARGO_APPLICATION
    assert only_comments(padded.encode()[:WINDOW])
    assert sniff("a.yaml", padded.encode(), RULES.context).rule == "iac.content.argocd"  # type: ignore[union-attr]


def test_binary_content_is_never_sniffed() -> None:
    data = b"\x00\x01" + m.DEPLOYMENT.encode()
    assert sniff("deploy.yaml", data, RULES.context) is None


def test_undecodable_bytes_do_not_break_the_sniff() -> None:
    data = m.DEPLOYMENT.encode() + b"\xff\xfe\xc3("
    assert sniff("deploy.yaml", data, RULES.context).bucket == "iac"  # type: ignore[union-attr]


@each_case(("path", "expected"), [
    ("a/b.yaml", True), ("a/b.YML", True), ("a/b.json", True), ("x/_helpers.tpl", True), ("NOTES.txt", True),
    ("Dockerfile", True), ("bin/run", True), ("setup.py", True), ("a/b.go", False), ("a/b.py", False),
    ("a/b.png", False), (".gitignore", True), ("hosts.example", True), ("values.yaml.sample", True),
    (".env.dist", True), ("app.py.example", False), ("logo.png.sample", False),
])
def test_candidates(path: str, expected: bool) -> None:
    assert is_candidate(path) is expected


@each_case("api", ["apiVersion: {{ .Values.api }}", "apiVersion: not a version", "apiVersion: ''"])
def test_not_an_api_version_is_not_kubernetes(api: str) -> None:
    signal = sniff("x.yaml", f"{api}\nkind: Deployment\n".encode(), RULES.context)
    # A templated apiVersion is not a Kubernetes object; `.Values` makes it a Helm template (its own signal).
    assert signal is None or signal.rule == "iac.content.helm-template", signal


def test_hostile_variants_of_the_header_still_match() -> None:
    """Quoting, CRLF line ends, trailing comments and a leading document marker are all YAML the cluster takes."""
    for header in ('"apiVersion": "argoproj.io/v1alpha1"\r\n"kind": "Application"\r\n',
                   "---\napiVersion: 'argoproj.io/v1alpha1'  # pinned\nkind: Application\n",
                   "--- # first\napiVersion: argoproj.io/v1alpha1\nkind:   Application\n"):
        signal = sniff("a.yaml", (header + "metadata:\n  name: x\n").encode(), RULES.context)
        assert signal is not None and signal.rule == "iac.content.argocd", header


def test_iac_program_imports_in_each_language_and_their_look_alikes() -> None:
    from gatekeeper.classify.iacprograms import iac_program

    programs = [
        "import * as cdk from 'aws-cdk-lib';\n", "from aws_cdk import Stack\n", "import pulumi_aws as aws\n",
        "\ufeffusing Amazon.CDK;\nusing Constructs;\n", "import software.amazon.awscdk.App;\n",
        'import (\n\t"fmt"\n\ts3 "github.com/pulumi/pulumi-aws/sdk/v6/go/aws/s3"\n)\n',
        "const aws = require('@pulumi/aws');\n", "import { App } from 'cdktf';\n",
    ]
    for text in programs:
        assert iac_program(text.encode()) is not None, text
    for text in ["# we deploy with pulumi\nimport os\n", "from pulumiclient import api\n",
                 'import "github.com/gorilla/mux"\n', "// see aws-cdk-lib docs\n"]:
        assert iac_program(text.encode()) is None, text


@each_case("fill", ["{{", "{{- ", "{{ ", "{{ include ", "- a:\n  ", "steps:\n", "pipelines:\n \n"])
def test_a_hostile_window_costs_a_linear_scan(fill: str) -> None:
    # 8 KiB of `{{` took 18 s before the Helm action's span was bounded (a quadratic scan); now milliseconds.
    text = (fill * (WINDOW // len(fill) + 1))[:WINDOW].encode()
    within_cpu(2.0, lambda: sniff("templates/x.yaml", text, RULES.context))
