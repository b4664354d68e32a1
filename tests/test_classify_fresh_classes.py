"""Classes of misses a fourth label set found (bench/classify_accuracy/fresh.tsv, measured blind first), each in a
real repository built here, with the commits (`--tree`) and from the patch alone: Helm and helmfile templates
without their Chart.yaml, CodeBuild buildspecs and Concourse files by shape, plays in any key order, Route 53
change batches, and IaC programs that no project marker announces (a Pulumi Automation API program).
Both sides of renames and changes that remove their own evidence are covered for each."""

from __future__ import annotations

from pathlib import Path

from gatekeeper.catfile import shared_processes
from gatekeeper.classify import load_rules
from gatekeeper.classify.context import NEEDS_CONTEXT, classify_in_context
from gatekeeper.classify.treecontext import TreeContext
from gatekeeper.model import ClassifiedFile
from gatekeeper.revrange import resolve_range
from tests import manifests as m
from tests.gitrepo import GitRepo
from tests.test_classify_context import patch_files, tree_files

RULES = load_rules(Path(__file__).resolve().parent.parent / "policies")

GO_MOD_PULUMI = """\
module example.invalid/automation

go 1.22

require (
\tgithub.com/aws/aws-sdk-go-v2 v1.30.0
\tgithub.com/pulumi/pulumi-aws/sdk/v6 v6.45.0
\tgithub.com/pulumi/pulumi/sdk/v3 v3.120.0
)
"""
GO_MOD_PLAIN = "module example.invalid/web\n\ngo 1.22\n\nrequire github.com/gorilla/mux v1.8.1\n"
AUTOMATION_PROGRAM = """\
package main

import (
\t"context"
\t"fmt"

\t"github.com/pulumi/pulumi-aws/sdk/v6/go/aws/s3"
\t"github.com/pulumi/pulumi/sdk/v3/go/auto"
\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
\tdeployFunc := func(ctx *pulumi.Context) error {
\t\tbucket, err := s3.NewBucket(ctx, "site", nil)
\t\tif err != nil {
\t\t\treturn err
\t\t}
\t\tctx.Export("bucket", bucket.ID())
\t\treturn nil
\t}
\tstack, _ := auto.UpsertStackInlineSource(context.Background(), "dev", "inline", deployFunc)
\tfmt.Println(stack.Name())
}
"""
WEB_SERVER = 'package main\n\nimport "github.com/gorilla/mux"\n\nfunc main() { _ = mux.NewRouter() }\n'


def both(repo: GitRepo, tmp: Path) -> dict[str, tuple[ClassifiedFile, ClassifiedFile]]:
    """Each file as the commits classify it and as the patch alone does."""
    tree, patch = tree_files(repo), patch_files(repo, tmp)
    assert tree.keys() == patch.keys()
    return {path: (tree[path], patch[path]) for path in tree}


# --- Helm and helmfile templates without their Chart.yaml --------------------------------------------------------


def test_chart_templates_are_iac_from_the_patch_alone_and_look_alikes_are_not(git_repo: GitRepo,
                                                                            tmp_path: Path) -> None:
    git_repo.write("README.md", "# x\n")
    git_repo.write("deploy-web/Chart.yaml", "apiVersion: v2\nname: web\nversion: 1.0.0\n")
    git_repo.commit("base")
    git_repo.write("deploy-web/templates/_podtemplate.tpl", m.HELM_POD_TEMPLATE)  # Chart.yaml not in the patch
    git_repo.write("bootstrap/helmfile/templates/release.yaml.gotmpl", m.HELMFILE_RELEASE_TEMPLATE)
    git_repo.write("rules/helm.yaml", m.SEMGREP_RULES)
    git_repo.write("roles-lookalike/nginx.conf.j2", m.JINJA_WITH_VALUES)
    git_repo.write("report/html.tpl", m.GO_REPORT_TEMPLATE)
    git_repo.commit("head")
    files = both(git_repo, tmp_path)
    tree_pod, patch_pod = files["deploy-web/templates/_podtemplate.tpl"]
    assert (tree_pod.bucket, tree_pod.rule) == ("iac", "iac.marker.helm-chart")  # the marker, with the commits
    assert (patch_pod.bucket, patch_pod.rule, patch_pod.tier) == ("iac", "iac.content.helm-template", "content")
    assert patch_pod.evidence is not None and ".Values.deployment.podAnnotations" in patch_pod.evidence
    for tree, patch in [files["bootstrap/helmfile/templates/release.yaml.gotmpl"]]:
        assert (tree.bucket, patch.bucket) == ("iac", "iac")
    for path in ("rules/helm.yaml", "roles-lookalike/nginx.conf.j2", "report/html.tpl"):
        tree, patch = files[path]
        assert (tree.bucket, patch.bucket) == ("src", "src"), path


def test_a_helm_template_renamed_to_a_text_file_is_judged_by_its_old_side_too(git_repo: GitRepo,
                                                                              tmp_path: Path) -> None:
    git_repo.write("ops/web.yaml.tmpl", m.HELM_TEMPLATE)
    git_repo.commit("base")
    git_repo.move("ops/web.yaml.tmpl", "notes/web.txt")
    git_repo.commit("head")
    tree, patch = both(git_repo, tmp_path)["notes/web.txt"]
    assert tree.change.old_path == "ops/web.yaml.tmpl"
    assert (tree.bucket, tree.rule) == ("iac", "iac.content.helm-template")
    assert patch.bucket == "iac" or NEEDS_CONTEXT in patch.tags  # a pure rename shows no line of it


def test_emptying_a_helm_template_does_not_hide_it(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("ops/web.yaml.tmpl", m.HELM_TEMPLATE)
    git_repo.commit("base")
    git_repo.write("ops/web.yaml.tmpl", "# retired\n")
    git_repo.commit("head")
    tree, patch = both(git_repo, tmp_path)["ops/web.yaml.tmpl"]
    assert (tree.bucket, tree.rule) == ("iac", "iac.content.helm-template")  # the base blob shows it
    assert (patch.bucket, patch.rule) == ("iac", "iac.content.helm-template")  # the removed lines show it


# --- CI definitions by shape ----------------------------------------------------------------------------------


def test_a_buildspec_with_any_name_is_ci_even_inside_a_cdk_project(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("construct-lib/cdk.json", '{"app": "npx ts-node bin/app.ts"}\n')
    git_repo.write("construct-lib/bin/app.ts", "import * as cdk from 'aws-cdk-lib';\n")
    git_repo.commit("base")
    git_repo.write("construct-lib/pipeline/build-spec/projen-release.yml", m.CODEBUILD_BUILDSPEC)
    git_repo.write("config/lint.yaml", m.NOT_CODEBUILD)
    git_repo.commit("head")
    files = both(git_repo, tmp_path)
    for got in files["construct-lib/pipeline/build-spec/projen-release.yml"]:
        assert (got.bucket, got.rule) == ("ci", "ci.content.codebuild")  # more sensitive than the CDK marker's iac
    assert [got.bucket for got in files["config/lint.yaml"]] == ["src", "src"]


def test_concourse_pipelines_and_tasks_are_ci_and_a_workflow_stays_a_workflow(git_repo: GitRepo,
                                                                              tmp_path: Path) -> None:
    git_repo.write("README.md", "# concourse ci\n")
    git_repo.commit("base")
    git_repo.write("pipelines/helm-chart.yml", m.CONCOURSE_PIPELINE)
    git_repo.write("tasks/testflight/task.yml", m.CONCOURSE_TASK)
    git_repo.write("automation/release.yml", m.GITHUB_WORKFLOW)
    git_repo.write("config/packages.yaml", m.NOT_CONCOURSE)
    git_repo.commit("head")
    files = both(git_repo, tmp_path)
    for path in ("pipelines/helm-chart.yml", "tasks/testflight/task.yml"):
        assert [(f.bucket, f.rule) for f in files[path]] == [("ci", "ci.content.concourse")] * 2, path
    assert [f.rule for f in files["automation/release.yml"]] == ["ci.content.github-workflow"] * 2
    assert [f.bucket for f in files["config/packages.yaml"]] == ["src", "src"]


# --- infrastructure by shape ----------------------------------------------------------------------------------


def test_plays_in_any_key_order_and_their_renames(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("system/bootstrap.yml", m.ANSIBLE_PLAY_AFTER_COMMENTS)
    git_repo.write("config/pools.yml", m.NOT_A_PLAY)
    git_repo.commit("base")
    git_repo.move("system/bootstrap.yml", "docs/bootstrap-example.txt")  # moved out, renamed to text
    git_repo.write("ops/web.yml", m.ANSIBLE_PLAY_WIDE)
    git_repo.write("ops/all.yml", m.ANSIBLE_PLAYBOOK_IMPORTS)
    git_repo.write("config/pools.yml", m.NOT_A_PLAY + "- name: us\n  hosts: [192.0.2.21]\n")
    git_repo.commit("head")
    files = both(git_repo, tmp_path)
    for path in ("docs/bootstrap-example.txt", "ops/web.yml", "ops/all.yml"):
        tree, patch = files[path]
        assert (tree.bucket, tree.rule) == ("iac", "iac.content.ansible-play"), path
        # New files show all of themselves; a pure rename shows no line, so the patch cannot tell (a human looks).
        assert patch.bucket == "iac" or NEEDS_CONTEXT in patch.tags, path
    tree, patch = files["config/pools.yml"]
    assert tree.bucket == "src" and patch.bucket == "src"


def test_a_route53_change_batch_is_iac_and_an_app_change_log_is_not(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("README.md", "# x\n")
    git_repo.commit("base")
    git_repo.write("MultiRegion/3_Replication/setup-dns-record.json", m.ROUTE53_CHANGE_BATCH)
    git_repo.write("data/changes.json", m.NOT_ROUTE53)
    git_repo.commit("head")
    files = both(git_repo, tmp_path)
    assert [f.rule for f in files["MultiRegion/3_Replication/setup-dns-record.json"]] == [
        "iac.content.route53-change"] * 2
    assert [f.bucket for f in files["data/changes.json"]] == ["src", "src"]


# --- IaC programs without a project marker --------------------------------------------------------------------


def test_an_automation_api_program_is_iac_with_the_commits_and_from_the_patch(git_repo: GitRepo,
                                                                             tmp_path: Path) -> None:
    git_repo.write("go/inline_s3/go.mod", GO_MOD_PULUMI)
    git_repo.write("go/web/go.mod", GO_MOD_PLAIN)
    git_repo.commit("base")
    git_repo.write("go/inline_s3/main.go", AUTOMATION_PROGRAM)  # no Pulumi.yaml anywhere
    git_repo.write("go/inline_s3/main_test.go", AUTOMATION_PROGRAM.replace("func main()", "func testMain()"))
    git_repo.write("go/web/main.go", WEB_SERVER)
    git_repo.commit("head")
    files = both(git_repo, tmp_path)
    tree, patch = files["go/inline_s3/main.go"]
    assert (tree.bucket, tree.rule, tree.tier) == ("iac", "iac.content.iac-program", "content")
    assert tree.evidence is not None and "github.com/pulumi/" in tree.evidence
    assert (patch.bucket, patch.rule) == ("iac", "iac.content.iac-program")
    # A test of the program is not deployed; a web server beside a manifest without an IaC library is source.
    assert [f.bucket for f in files["go/inline_s3/main_test.go"]] == ["src", "src"]
    assert [f.bucket for f in files["go/web/main.go"]] == ["src", "src"]


def test_a_change_cannot_drop_the_library_from_its_manifest_to_hide_its_program(git_repo: GitRepo) -> None:
    git_repo.write("deployer/go.mod", GO_MOD_PULUMI)
    git_repo.write("deployer/main.go", WEB_SERVER)
    git_repo.commit("base")
    git_repo.write("deployer/go.mod", GO_MOD_PLAIN)  # the head's manifest no longer names Pulumi...
    git_repo.write("deployer/main.go", AUTOMATION_PROGRAM)  # ...but its program imports it
    git_repo.commit("head")
    got = tree_files(git_repo)["deployer/main.go"]
    assert (got.bucket, got.rule) == ("iac", "iac.content.iac-program")


def test_a_program_renamed_out_of_its_manifest_folder_keeps_its_old_side(git_repo: GitRepo) -> None:
    git_repo.write("automation/go.mod", GO_MOD_PULUMI)
    git_repo.write("automation/main.go", AUTOMATION_PROGRAM)
    git_repo.write("web/go.mod", GO_MOD_PLAIN)
    git_repo.commit("base")
    git_repo.move("automation/main.go", "web/deploy.go")
    git_repo.commit("head")
    got = tree_files(git_repo)["web/deploy.go"]
    assert got.change.old_path == "automation/main.go"
    assert (got.bucket, got.rule) == ("iac", "iac.content.iac-program")  # its content still imports Pulumi


def test_source_files_are_not_read_where_no_manifest_names_an_iac_library(git_repo: GitRepo) -> None:
    git_repo.write("go.mod", GO_MOD_PLAIN)
    git_repo.commit("base")
    for i in range(20):
        git_repo.write(f"pkg/p{i}/p.go", f"package p{i}\n")
    git_repo.write("pkg/hidden/main.go", AUTOMATION_PROGRAM)  # imports Pulumi, but no manifest names it
    git_repo.commit("head")
    with shared_processes(), TreeContext(resolve_range("main~1..main", git_repo.root), RULES) as context:
        reads: list[str] = []
        blob = context.objects.blob

        def counting(oid: str, limit: int) -> bytes:
            reads.append(oid)
            return blob(oid, limit)

        context.objects.blob = counting  # type: ignore[method-assign]
        files = {f.change.path: f for f in classify_in_context(context.changes(), RULES, context)}
    assert len(reads) == 1  # go.mod, once; no source file
    # The cost bound has a price, written down in docs/classification.md: without a manifest naming the
    # library (a vendored or replaced module), the commits do not read the program; the patch would.
    assert files["pkg/hidden/main.go"].bucket == "src"


def test_a_deeply_nested_source_file_is_looked_up_without_recursion(git_repo: GitRepo) -> None:
    git_repo.write("go.mod", GO_MOD_PULUMI)
    git_repo.commit("base")
    deep = "/".join(["d"] * 1500) + "/main.go"  # deeper than Python's recursion limit (and than PATH_MAX: git only)
    oid = git_repo.git("hash-object", "-w", "--stdin", input=AUTOMATION_PROGRAM.encode()).decode().strip()
    git_repo.git("update-index", "--add", "--cacheinfo", f"100644,{oid},{deep}")
    git_repo.git("commit", "-q", "-m", "head")
    got = tree_files(git_repo)[deep]
    assert (got.bucket, got.rule) == ("iac", "iac.content.iac-program")
