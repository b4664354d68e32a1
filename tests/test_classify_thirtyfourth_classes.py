"""Classes of misses the thirty-fourth label set found (bench/classify_accuracy/thirtyfourth.tsv: 62 platform,
operator, ML-pipeline, self-hosting and CI repositories, measured blind first), each with the look-alikes it must
leave alone: a Kedro project's settings in `conf/base/` (a kustomize base's folder name, not one), a CircleCI orb's
commands, jobs and executors from a patch alone (`ci`), Renovate presets in `.github/renovate/`, REUSE licence
sidecars beside Ansible variables, prose-linter (Vale) styles and output templates, a security scanner's baseline,
mirrord's settings, a golangci-lint backup copy and JetBrains run configurations (`other`); terraform-docs'
one-argument `include` is not Helm's (content), and an IAM policy document written in the 2008 policy language (ECR
and SQS keep it) grants access as a 2012 one does (content). The real repository below checks the content classes
with the commits and from the patch."""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from tests.gitrepo import GitRepo
from tests.test_classify_context import assert_path_rule, patch_files, tree_files


@each_case(("path", "bucket", "rule"), [
    # Kedro: the data catalog, parameters and logging of a pipeline project (also a starter template's copy)
    ("conf/base/catalog.yml", "src", "src.kedro-config"),
    ("features/starter/{{ cookiecutter.repo_name }}/conf/base/catalog.yml", "src", "src.kedro-config"),
    ("conf/base/parameters_data_science.yml", "src", "src.kedro-config"),
    ("conf/base/parameters/training.yml", "src", "src.kedro-config"),
    ("conf/base/logging.yml", "src", "src.kedro-config"),
    # ... but a kustomize base stays infrastructure, also one kept under conf/
    ("deploy/base/deployment.yaml", "iac", "iac.kubernetes"),
    ("conf/base/kustomization.yaml", "iac", "iac.kubernetes"),
    ("conf/base/service.yml", "iac", "iac.kubernetes"),
    # Renovate presets a repository's renovate.json extends (read by the Renovate app)
    (".github/renovate/k3s.json", "other", "other.github-apps"),
    (".github/renovate/groups.json5", "other", "other.github-apps"),
    (".github/renovate-configs/platform.json5", "ci", "ci.github-other"),  # a workflow's self-hosted settings
    (".github/scripts/renovate.sh", "ci", "ci.github-other"),
    # REUSE licence sidecars: Ansible reads no *.license file from group_vars/
    ("group_vars/matrix_servers.license", "other", "other.reuse-sidecars"),
    ("roles/web/defaults/main.yml.license", "other", "other.reuse-sidecars"),
    ("group_vars/matrix_servers", "iac", "iac.ansible"),
    ("group_vars/all.yml", "iac", "iac.ansible-variable-folders"),  # attack 30: the folder rule before deps names
    ("charts/app/templates/deployment.yaml.license", "iac", "iac.chart-templates"),
    (".github/workflows/ci.yml.license", "ci", None),
    # a CircleCI orb's commands, jobs and executors (the steps users' jobs run), also without the orb's @orb.yml
    ("src/commands/push_image.yml", "ci", "ci.circleci"),
    ("src/jobs/deploy.yml", "ci", "ci.circleci"),
    ("src/executors/default.yml", "ci", "ci.circleci"),
    ("src/examples/push.yml", "src", None), ("app/src/commands/build.yml", "src", None),
    ("src/commands/cluster-setslot.json", "src", None),
    # prose linters, scanners' baselines, developer tools, a linter settings copy, IDE run configurations
    ("docs/styles/Microsoft/Adverbs.yml", "other", "other.lint-format"),
    ("docs/styles/Microsoft/meta.json", "other", "other.lint-format"),
    ("doc/styles/write-good/Weasel.yml", "other", "other.lint-format"),
    ("docs/.vale/vale.tmpl", "other", "other.lint-format"),
    (".config/guardian/.gdnbaselines", "other", "other.lint-format"),
    ("mirrord.json", "other", "other.lint-format"),
    ("infra/feast-operator/.golangci.bck.yml", "other", "other.lint-format"),
    (".run/Template Ginkgo.run.xml", "other", "other.editor"),
    ("src/styles/main.scss", "src", None), ("docs/styles/site.css", "src", None),
    ("infra/feast-operator/main.tf", "iac", None), ("src/run.xml", "src", None),
])
def test_path_rules_of_the_thirty_fourth_round(path: str, bucket: str, rule: str | None) -> None:
    assert_path_rule(path, bucket, rule)


TERRAFORM_DOCS = """formatter: "markdown document"
content: |-
  {{ .Header }}

  ```hcl
  {{ include "main.tf" }}
  ```

  {{ .Inputs }}
sort:
  enabled: true
"""
HELM_SNIPPET = """metadata:
  labels:
    {{- include "shop.labels" . | nindent 4 }}
"""
ECR_POLICY = """{
  "Version" : "2008-10-17",
  "Statement" : [
    {
      "Sid" : "pull-from-ci",
      "Effect" : "Allow",
      "Principal" : { "AWS" : "arn:aws:iam::111122223333:root" },
      "Action" : [ "ecr:BatchGetImage", "ecr:GetDownloadUrlForLayer" ]
    }
  ]
}
"""
RELEASES = """{
  "Version": "2008-10-17",
  "notes": ["first public release"]
}
"""


def test_the_thirty_fourth_content_classes_in_a_real_repository(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("README.md", "# a Terraform module with an ECR sample and a Helm snippet\n")
    git_repo.commit("base")
    texts = {
        "examples/.terraform-docs.yml": TERRAFORM_DOCS,
        "snippets/labels.tpl": HELM_SNIPPET,
        "sample/repo-policy.json": ECR_POLICY,
        "sample/releases.json": RELEASES,
    }
    want = {
        "examples/.terraform-docs.yml": "other", "snippets/labels.tpl": "iac",
        "sample/repo-policy.json": "iac", "sample/releases.json": "src",
    }
    for path, text in texts.items():
        git_repo.write(path, text)
    git_repo.commit("head")
    files = tree_files(git_repo)
    assert {path: files[path].bucket for path in want} == want
    assert files["sample/repo-policy.json"].rule == "iac.content.iam-policy"
    assert files["snippets/labels.tpl"].rule == "iac.content.helm-template"
    patched = patch_files(git_repo, tmp_path)
    assert {path: patched[path].bucket for path in want} == want
