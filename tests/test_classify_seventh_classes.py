"""Classes of misses a seventh label set found (bench/classify_accuracy/seventh.tsv: breadth, 64 repositories, measured
blind first), each with the look-alikes it must leave alone: a root deps/ folder of vendored libraries (Redis, Node.js),
TaskCat and CloudFormation CLI project settings, Terraform kept as templates (`*.tf.tmpl`), community documents at the
root of .github/, editor folders of nested projects, test-runner, spelling-linter and scanner settings, helm-docs and
reno documentation, and source files named like governance files (license.go). All are path rules; the real
repository below checks them with the commits and from the patch alone, with renames out of a CI folder and a
vendored folder that must not hide the infrastructure it holds."""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from tests.gitrepo import GitRepo
from tests.test_classify_context import RULES, patch_files, tree_files


@each_case(("path", "bucket"), [
    # a root deps/ folder holds vendored libraries (redis/deps/jemalloc, nodejs/deps/v8), as third_party/ does
    ("deps/jemalloc/src/arena.c", "deps"), ("deps/jemalloc/.autom4te.cfg", "deps"),
    ("deps/hiredis/.github/release-drafter-config.yml", "deps"), ("deps/lua/doc/cover.png", "deps"),
    ("src/deps/graph.go", "src"), ("lib/deps.py", "src"), ("ci/deps/install.sh", "ci"),
    (".github/workflows/deps/setup.sh", "ci"),
    # TaskCat deploys the templates as test stacks in real regions; the CloudFormation CLI's project settings
    (".taskcat.yml", "iac"), (".taskcat_overrides.yml", "iac"), ("cfn-module/.rpdk-config", "iac"),
    ("docs/taskcat.md", "src"),
    # Terraform kept as a template the repository renders into its own modules
    ("autogen/main/variables.tf.tmpl", "iac"), ("modules/net/versions.tf.j2", "iac"), ("infra/main.tf.tpl", "iac"),
    ("{{cookiecutter.name}}/main.tf.tmpl", "src"),
    # community documents at the root of .github/ run nowhere; a Markdown file deeper in a CI folder may
    (".github/CODE-OF-CONDUCT.md", "other"), (".github/maintainers.md", "other"), (".github/holopin.yml", "other"),
    (".github/README.md", "src"), (".github/workflows/triage.md", "ci"), (".github/actions/x/notes.md", "ci"),
    (".github/scripts/release.md", "ci"), (".github/agents/reviewer.md", "other"),
    # editor settings of a nested project are editor settings; inside a CI folder they are CI
    ("src/ai-service/.vscode/launch.json", "other"), ("app/.idea/modules.xml", "other"),
    (".github/.vscode/settings.json", "ci"), (".circleci/.vscode/settings.json", "ci"),
    # test-runner, spelling-linter and scanner settings shared by people and CI
    ("phpunit.xml", "other"), ("phpunit.xml.dist", "other"), ("_typos.toml", "other"), (".typos.toml", "other"),
    (".fossa.yml", "other"), ("BannedSymbols.txt", "other"), ("ci/phpunit.xml", "ci"),
    # documentation: helm-docs templates of any name, reno release notes
    ("charts/jenkins/VALUES.md.gotmpl", "src"), ("charts/web/README.md.gotmpl", "src"),
    ("releasenotes/notes/fix-octavia-1234.yaml", "src"), ("charts/web/templates/NOTES.md.gotmpl", "iac"),
    ("deploy/releasenotes/values.yaml", "iac"),
    # source files named like governance files are code; the governance files stay what they are
    ("pkg/handlers/license.go", "src"), ("web/src/authors.ts", "src"), ("lib/notice.py", "src"),
    ("LICENSE", "other"), ("LICENSE.MIT", "other"), ("LICENSE.txt", "other"), ("NOTICE.md", "other"),
    (".github/workflows/license.py", "ci"),
    # tests of charts and of KCL: helm-unittest suites beside templates/, KCL tests; a chart's test hooks stay iac
    ("charts/jenkins/unittests/service-account-test.yaml", "src"), ("traefik/tests/ingress_test.yaml", "src"),
    ("charts/web/templates/tests/connection_test.yaml", "iac"),
    ("helm/web/templates/tests/connection_test.yaml", "iac"),
    ("k8s/tests/web_test.yaml", "iac"), ("tests/test-cluster/main.k", "src"), ("models/utils/quantity_test.k", "src"),
    ("functions/cluster/main.k", "iac"), ("app/tests/main.k", "iac"),
])
def test_path_rules_of_the_seventh_round(path: str, bucket: str) -> None:
    assert RULES.match(path).bucket == bucket, RULES.match(path)


DEPLOYMENT = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: sentinel
spec:
  template:
    spec:
      containers:
        - name: sentinel
          image: redis:7
"""
WORKFLOW = "on: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - run: make test\n"
TASKCAT = ("project:\n  name: quickstart-aws-vpc\n  regions:\n    - us-east-1\ntests:\n  defaults:\n"
           "    template: templates/aws-vpc.template.yaml\n")


def redis_like(repo: GitRepo) -> None:
    repo.write("src/server.c", "int main(void) { return 0; }\n")
    repo.write("deps/jemalloc/src/arena.c", "/* jemalloc */\n")
    repo.write("deps/hiredis/.github/release-drafter-config.yml", "name-template: 'v$NEXT_PATCH_VERSION'\n")
    repo.write("deps/README.md", "# vendored libraries\n")
    repo.write(".github/workflows/ci.yml", WORKFLOW)
    repo.write(".github/CODE-OF-CONDUCT.md", "# Code of conduct\n")
    repo.write(".taskcat.yml", TASKCAT)
    repo.write("pkg/handlers/license.go", "package handlers\n\nfunc Check() error { return nil }\n")


def test_the_classes_in_a_real_repository_with_commits_and_patch(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("README.md", "# server\n")
    git_repo.commit("base")
    redis_like(git_repo)
    git_repo.commit("head")
    want = {
        "deps/jemalloc/src/arena.c": "deps", "deps/hiredis/.github/release-drafter-config.yml": "deps",
        ".github/workflows/ci.yml": "ci", ".github/CODE-OF-CONDUCT.md": "other", ".taskcat.yml": "iac",
        "pkg/handlers/license.go": "src", "src/server.c": "src",
    }
    for files in (tree_files(git_repo), patch_files(git_repo, tmp_path)):
        assert {path: files[path].bucket for path in want} == want


def test_a_workflow_renamed_to_a_community_document_stays_ci(git_repo: GitRepo, tmp_path: Path) -> None:
    redis_like(git_repo)
    git_repo.commit("base")
    git_repo.move(".github/workflows/ci.yml", ".github/maintainers.md")
    git_repo.commit("head")
    for files in (tree_files(git_repo), patch_files(git_repo, tmp_path)):
        got = files[".github/maintainers.md"]
        assert got.change.old_path == ".github/workflows/ci.yml" and got.bucket == "ci", got


def test_a_vendored_folder_does_not_hide_the_infrastructure_it_holds(git_repo: GitRepo, tmp_path: Path) -> None:
    """deps/ is vendored code, but a Kubernetes object in it is still read: the content tier only raises."""
    redis_like(git_repo)
    git_repo.commit("base")
    git_repo.write("deps/sentinel/deploy.yaml", DEPLOYMENT)
    git_repo.move("src/server.c", "deps/server.c")
    git_repo.commit("head")
    tree = tree_files(git_repo)
    assert tree["deps/sentinel/deploy.yaml"].bucket == "iac"
    assert tree["deps/server.c"].bucket == "deps"  # moved into the vendored folder: reviewed under deps
    assert patch_files(git_repo, tmp_path)["deps/sentinel/deploy.yaml"].bucket == "iac"


SUITE = """\
suite: Controller Service Account
templates:
  - service-account.yaml
tests:
  - it: tests defaults
    asserts:
      - isKind:
          of: ServiceAccount
"""
POD = ("apiVersion: v1\nkind: Pod\nmetadata:\n  name: \"{{ .Release.Name }}-test\"\n  annotations:\n"
       "    helm.sh/hook: test\n")


def test_a_charts_unit_tests_are_tests_and_its_test_hooks_are_not(git_repo: GitRepo, tmp_path: Path) -> None:
    """A chart kept outside the chart-named and manifest folders: its marker claims the chart, but not its
    helm-unittest suites; the test hooks in templates/tests/ stay iac (Helm renders them), and so does a suite
    holding a Kubernetes object."""
    git_repo.write("packaging/storefront/Chart.yaml", "apiVersion: v2\nname: storefront\nversion: 1.0.0\n")
    git_repo.commit("base")
    git_repo.write("packaging/storefront/tests/service_test.yaml", SUITE)
    git_repo.write("packaging/storefront/templates/tests/connection_test.yaml", POD)
    git_repo.write("packaging/storefront/tests/pod_test.yaml", POD)
    git_repo.commit("head")
    for files in (tree_files(git_repo), patch_files(git_repo, tmp_path)):
        assert files["packaging/storefront/tests/service_test.yaml"].bucket == "src"
        assert files["packaging/storefront/templates/tests/connection_test.yaml"].bucket == "iac"
        assert files["packaging/storefront/tests/pod_test.yaml"].bucket == "iac"


def test_from_a_patch_a_named_test_file_stays_unsettled(git_repo: GitRepo, tmp_path: Path) -> None:
    """The `src.*` rules name files by a convention a chart's test hook can also follow: a patch that shows neither
    the chart's marker nor the object leaves such a file `needs-context` (the core policy reviews it), as the
    catch-all would; with the commits the chart's marker makes the hook iac and leaves the suite src."""
    labels = "".join(f"    example.invalid/label-{n}: \"{n}\"\n" for n in range(12))
    hook = POD.replace("  annotations:\n", "  labels:\n" + labels + "  annotations:\n")
    git_repo.write("packaging/storefront/Chart.yaml", "apiVersion: v2\nname: storefront\nversion: 1.0.0\n")
    git_repo.write("packaging/storefront/templates/tests/connection_test.yaml", hook)
    git_repo.write("packaging/storefront/tests/service_test.yaml", SUITE + labels.replace("    ", "# "))
    git_repo.commit("base")
    git_repo.write("packaging/storefront/templates/tests/connection_test.yaml",
                   hook + "    helm.sh/hook-weight: \"1\"\n")
    git_repo.write("packaging/storefront/tests/service_test.yaml", SUITE + labels.replace("    ", "# ") + "# more\n")
    git_repo.commit("head")
    patch = patch_files(git_repo, tmp_path)
    for path in ("packaging/storefront/templates/tests/connection_test.yaml",
                 "packaging/storefront/tests/service_test.yaml"):
        assert patch[path].bucket == "src" and "needs-context" in patch[path].tags, patch[path]
    tree = tree_files(git_repo)
    assert tree["packaging/storefront/templates/tests/connection_test.yaml"].bucket == "iac"
    assert tree["packaging/storefront/tests/service_test.yaml"].bucket == "src"
