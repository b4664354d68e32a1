"""Tiers 2 and 3 with real repositories: markers from both trees, content from both blobs, renames,
marker removal, patch-only mode (needs-context), test-data lowering, and the --tree plumbing."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from gitdiffs import commit_patch
from tables import each_case

from gatekeeper.catfile import shared_processes
from gatekeeper.classify import load_rules
from gatekeeper.classify.context import NEEDS_CONTEXT, classify_in_context
from gatekeeper.classify.markers import MarkerIndex
from gatekeeper.classify.patchcontext import PatchContext
from gatekeeper.classify.treecontext import TreeContext
from gatekeeper.diff import parse_patch
from gatekeeper.model import ClassifiedFile
from gatekeeper.revrange import resolve_range
from tests import manifests as m
from tests.gitrepo import GitRepo
from tests.incli import run_cli

POLICIES = Path(__file__).resolve().parent.parent / "policies"
RULES = load_rules(POLICIES)

CHART_YAML = "apiVersion: v2\nname: storefront\nversion: 1.4.2\nappVersion: '2.0'\ndependencies: []\n"
NOTES = "Thank you for installing {{ .Chart.Name }}.\nVisit http://{{ .Release.Name }}.example.invalid\n"


def tree_files(repo: GitRepo, rng: str = "main~1..main") -> dict[str, ClassifiedFile]:
    base, head = rng.split("..")
    with shared_processes(), TreeContext(resolve_range(f"{base}..{head}", repo.root), RULES) as context:
        files = classify_in_context(context.changes(), RULES, context)
    return {f.change.path: f for f in files}


def added_files(repo: GitRepo, files: dict[str, str], readme: str = "# proj\n") -> dict[str, ClassifiedFile]:
    """A commit of a README alone, then one adding `files`: how `--tree` classifies the second."""
    repo.write("README.md", readme)
    repo.commit("base")
    for path, text in files.items():
        repo.write(path, text)
    repo.commit("head")
    return tree_files(repo)


def patch_files(repo: GitRepo, tmp: Path, rng: str = "main~1..main") -> dict[str, ClassifiedFile]:
    base, head = rng.split("..")
    patch = tmp / "change.diff"
    patch.write_bytes(commit_patch(repo, base, head, "--binary", "-M"))
    changes = list(parse_patch(patch))
    files = classify_in_context(changes, RULES, PatchContext(patch, changes, RULES.context))
    return {f.change.path: f for f in files}


def assert_path_rule(path: str, bucket: str, rule: str | None) -> None:
    """The path rules alone put `path` in `bucket` (by `rule`, when one is named): the label rounds' path tables."""
    match = RULES.match(path)
    assert match.bucket == bucket, match
    assert rule is None or match.rule == rule, match


def both_ways(repo: GitRepo, tmp: Path, texts: dict[str, str],
              want: dict[str, str]) -> tuple[dict[str, ClassifiedFile], dict[str, ClassifiedFile]]:
    """`texts` committed as the change on `main`, then classified with the commits' context and from its patch alone:
    each path of `want` in its bucket both ways. Returns (tree, patch) files for further checks."""
    for path, text in texts.items():
        repo.write(path, text)
    repo.commit("head")
    files = tree_files(repo)
    assert {path: files[path].bucket for path in want} == want
    patched = patch_files(repo, tmp)
    assert {path: patched[path].bucket for path in want} == want
    return files, patched


def shop(repo: GitRepo) -> None:
    """A realistic service repository: code, a Helm chart outside any chart-named folder, settings."""
    repo.write("README.md", "# storefront\n")
    repo.write("go.mod", "module example.invalid/storefront\n\ngo 1.22\n")
    repo.write("cmd/server/main.go", "package main\n\nfunc main() {}\n")
    repo.write("config/app.yaml", m.APP_SETTINGS)
    repo.write("platform/storefront/Chart.yaml", CHART_YAML)
    repo.write("platform/storefront/values.yaml", "replicaCount: 2\n")
    repo.write("platform/storefront/templates/deployment.yaml", m.HELM_TEMPLATE)
    repo.write("platform/storefront/templates/_names.tpl", m.HELM_HELPERS)
    repo.commit("base")


# --- tier 2: markers -------------------------------------------------------------------------


def test_a_real_repository_every_kind_in_ordinary_folders(git_repo: GitRepo) -> None:
    shop(git_repo)
    git_repo.write("platform/storefront/templates/NOTES.txt", NOTES)
    git_repo.write("platform/storefront/templates/_names.tpl", m.HELM_HELPERS + "{{/* more */}}\n")
    git_repo.write("platform/storefront/files/dashboard.json", '{"title": "storefront"}\n')
    git_repo.write("gitops/guestbook.yaml", m.ARGO_APPLICATION)
    git_repo.write("kubernetes-manifests/frontend.yaml", m.DEPLOYMENT)
    git_repo.write("aws/logs.yaml", m.CLOUDFORMATION)
    git_repo.write("build/pipeline.yaml", m.TEKTON_PIPELINE)
    git_repo.write("catalog-info.yaml", m.BACKSTAGE)
    git_repo.write("api/openapi.yaml", m.OPENAPI)
    git_repo.write("contrib/html.tpl", m.GO_REPORT_TEMPLATE)
    git_repo.write("config/app.yaml", m.APP_SETTINGS + "  dark_mode: true\n")
    git_repo.write("cmd/server/main.go", "package main\n\nfunc main() { println() }\n")
    git_repo.commit("head")
    got = {path: (f.bucket, f.rule, f.tier) for path, f in tree_files(git_repo).items()}
    assert got == {
        "platform/storefront/templates/NOTES.txt": ("iac", "iac.helm", "path"),  # a chart's name, by path
        "platform/storefront/templates/_names.tpl": ("iac", "iac.marker.helm-chart", "marker"),
        "platform/storefront/files/dashboard.json": ("iac", "iac.marker.helm-chart", "marker"),
        "gitops/guestbook.yaml": ("iac", "iac.content.argocd", "content"),
        "kubernetes-manifests/frontend.yaml": ("iac", "iac.content.kubernetes", "content"),
        "aws/logs.yaml": ("iac", "iac.content.cloudformation", "content"),
        "build/pipeline.yaml": ("ci", "ci.content.tekton", "content"),
        "catalog-info.yaml": ("other", "other.content.backstage", "content"),
        "api/openapi.yaml": ("src", "src.default", "path"),
        "contrib/html.tpl": ("src", "src.default", "path"),
        "config/app.yaml": ("src", "src.default", "path"),
        "cmd/server/main.go": ("src", "src.default", "path"),
    }
    helpers = tree_files(git_repo)["platform/storefront/templates/_names.tpl"]
    assert helpers.evidence == "platform/storefront/Chart.yaml"
    assert not any(NEEDS_CONTEXT in f.tags for f in tree_files(git_repo).values())


def test_a_change_cannot_delete_its_own_marker_to_escape(git_repo: GitRepo) -> None:
    shop(git_repo)
    (git_repo.root / "platform/storefront/Chart.yaml").unlink()
    git_repo.write("platform/storefront/templates/_names.tpl", m.HELM_HELPERS + "{{- /* evil */ -}}\n")
    git_repo.commit("head")
    files = tree_files(git_repo)
    helpers = files["platform/storefront/templates/_names.tpl"]
    assert (helpers.bucket, helpers.rule, helpers.evidence) == (
        "iac", "iac.marker.helm-chart", "platform/storefront/Chart.yaml")
    assert files["platform/storefront/Chart.yaml"].bucket == "iac"


def test_a_marker_added_by_the_change_counts_too(git_repo: GitRepo) -> None:
    git_repo.write("README.md", "x\n")
    git_repo.commit("base")
    git_repo.write("svc/kustomization.yaml", "resources: [deployment.yaml]\n")
    git_repo.write("svc/deployment.yaml", m.HELM_TEMPLATE)  # no apiVersion a sniff accepts: the marker decides
    git_repo.commit("head")
    assert tree_files(git_repo)["svc/deployment.yaml"].rule == "iac.marker.kustomize"


def test_both_sides_of_a_rename_out_of_a_chart(git_repo: GitRepo) -> None:
    shop(git_repo)
    git_repo.move("platform/storefront/templates/_names.tpl", "docs/helpers-example.tpl")
    git_repo.commit("head")
    files = tree_files(git_repo)
    moved = files["docs/helpers-example.tpl"]
    assert moved.change.old_path == "platform/storefront/templates/_names.tpl"
    assert (moved.bucket, moved.rule) == ("iac", "iac.marker.helm-chart")


def test_base_content_counts_when_head_hides_it(git_repo: GitRepo) -> None:
    git_repo.write("ops/frontend.yaml", m.DEPLOYMENT)
    git_repo.commit("base")
    git_repo.write("ops/frontend.yaml", "# moved elsewhere\n")
    git_repo.commit("head")
    got = tree_files(git_repo)["ops/frontend.yaml"]
    assert (got.bucket, got.rule) == ("iac", "iac.content.kubernetes")
    assert got.evidence is not None and got.evidence.startswith("ops/frontend.yaml: apiVersion: apps/v1")


def test_rename_with_content_on_the_old_side_only(git_repo: GitRepo) -> None:
    git_repo.write("ops/pipeline.yaml", m.TEKTON_PIPELINE)
    git_repo.commit("base")
    git_repo.move("ops/pipeline.yaml", "notes/pipeline.txt")
    git_repo.commit("head")
    assert tree_files(git_repo)["notes/pipeline.txt"].bucket == "ci"


def test_content_comes_from_commits_never_the_working_tree(git_repo: GitRepo) -> None:
    git_repo.write("ops/a.yaml", m.APP_SETTINGS)
    git_repo.commit("base")
    git_repo.write("ops/a.yaml", m.APP_SETTINGS + "# edited\n")
    git_repo.commit("head")
    git_repo.write("ops/a.yaml", m.ARGO_APPLICATION)  # uncommitted: not what is under review
    assert tree_files(git_repo)["ops/a.yaml"].bucket == "src"


@each_case(("marker", "inside", "bucket"), [
    ("Chart.yaml", "files/nginx.conf", "iac"),
    ("kustomization.yml", "patches/replicas.yaml", "iac"),
    ("Kustomization", "base/service.json", "iac"),
    ("Pulumi.yaml", "index.ts", "iac"),
    ("Pulumi.yaml", "README.md", "src"),
    ("Pulumi.yaml", "tests/index.test.ts", "src"),
    ("PulumiPolicy.yaml", "policies/s3.py", "iac"),
    ("cdk.json", "lib/network-stack.ts", "iac"),
    ("cdktf.json", "main.go", "iac"),
    ("samconfig.toml", "env.json", "iac"),
    # the sample events `sam local invoke -e` reads are a test's input, as the label sets have them (fortyfirst)
    ("samconfig.toml", "events/event.json", "src"),
    ("serverless.yml", "resources/dynamo.yml", "iac"),
    ("ansible.cfg", "site.yml", "iac"),
    ("ansible.cfg", "vars/main.yml", "iac"),
    ("galaxy.yml", "playbooks/files/motd", "iac"),
    ("PROJECT", "config/manager/manager.yaml", "iac"),
    ("PROJECT", "api/v1/types.go", "src"),
    ("helmfile.yaml", "environments/prod.yaml", "iac"),
])
def test_each_marker_claims_what_it_says(git_repo: GitRepo, marker: str, inside: str, bucket: str) -> None:
    """At three depths: the marker's folder, one below the root, and two below."""
    for depth, root in enumerate(("", "infra-x/", "a/b/")):
        git_repo.write(f"{root}{marker}", "name: x\n")
        git_repo.write(f"{root}{inside}", "value: 1\n" if depth else "value: 0\n")
    git_repo.commit("base")
    for root in ("", "infra-x/", "a/b/"):
        git_repo.write(f"{root}{inside}", "value: 2\n")
    git_repo.commit("head")
    files = tree_files(git_repo)
    for root in ("", "infra-x/", "a/b/"):
        got = files[f"{root}{inside}"]
        assert got.bucket == bucket, (root, got)
        if bucket == "iac" and got.tier == "marker":
            assert got.evidence == f"{root}{marker}"


def test_ansible_layout_marks_its_project(git_repo: GitRepo) -> None:
    git_repo.write("provisioning/group_vars/all.yml", "ntp_server: time.example.invalid\n")
    git_repo.write("provisioning/roles/web/tasks/main.yml", m.ANSIBLE_TASKS_SHORT)
    git_repo.write("provisioning/upgrade.yml", "- import_playbook: site.yml\n")
    git_repo.write("src/roles/admin.ts", "export const admin = 1;\n")
    git_repo.commit("base")
    git_repo.write("provisioning/includes/packages.yml", "packages: [git]\n")
    git_repo.write("src/roles/admin.ts", "export const admin = 2;\n")
    git_repo.commit("head")
    files = tree_files(git_repo)
    assert files["provisioning/includes/packages.yml"].rule in ("iac.marker.ansible-layout",)
    assert files["src/roles/admin.ts"].bucket == "src"  # a folder named roles is not Ansible by itself


def test_marker_index_is_built_from_folders_not_file_scans() -> None:
    paths = [f"svc{i}/src/file{j}.go" for i in range(200) for j in range(50)] + ["svc7/Chart.yaml"]
    index = MarkerIndex(paths, RULES.context.markers)
    assert index.claim("svc7/src/file3.go") is not None
    assert index.claim("svc8/src/file3.go") is None
    assert index.claim("svc7/Chart.yaml") is not None


# --- test data, setup.py ----------------------------------------------------------------------


def test_test_data_lowers_deps_only(git_repo: GitRepo) -> None:
    git_repo.write("README.md", "x\n")
    git_repo.commit("base")
    git_repo.write("tests/expected/Cargo.toml", '[package]\nname = "fixture"\nversion = "0.1.0"\n')
    git_repo.write("test/assets/package.json", '{"name": "fixture", "dependencies": {"left-pad": "1.3.0"}}\n')
    git_repo.write("crates/core/Cargo.toml", '[package]\nname = "core"\nversion = "0.1.0"\n')
    git_repo.write("tests/expected/deploy.yaml", m.DEPLOYMENT)
    git_repo.write("tests/assets/Dockerfile", m.DOCKERFILE)
    git_repo.commit("head")
    files = tree_files(git_repo)
    assert (files["tests/expected/Cargo.toml"].bucket, files["tests/expected/Cargo.toml"].rule) == (
        "src", "src.context.deps-test-data")
    assert files["test/assets/package.json"].bucket == "src"
    assert files["crates/core/Cargo.toml"].bucket == "deps"
    assert files["tests/expected/deploy.yaml"].bucket == "iac"  # never ci or iac
    assert files["tests/assets/Dockerfile"].bucket == "iac"


def test_a_setup_py_that_is_an_ansible_module_is_not_deps(git_repo: GitRepo) -> None:
    git_repo.write("README.md", "x\n")
    git_repo.write("setup.py", m.PACKAGING_SETUP_PY)
    git_repo.commit("base")
    git_repo.write("plugins/modules/setup.py", m.ANSIBLE_MODULE_SETUP_PY)
    git_repo.write("setup.py", m.PACKAGING_SETUP_PY.replace("0.3.0", "0.4.0"))
    git_repo.commit("head")
    files = tree_files(git_repo)
    assert (files["plugins/modules/setup.py"].bucket, files["plugins/modules/setup.py"].rule) == (
        "src", "src.content.ansible-module")
    assert files["setup.py"].bucket == "deps"


def test_a_modified_ansible_module_setup_py_stays_src(git_repo: GitRepo) -> None:
    git_repo.write("library/setup.py", m.ANSIBLE_MODULE_SETUP_PY)
    git_repo.commit("base")
    git_repo.write("library/setup.py", m.ANSIBLE_MODULE_SETUP_PY.replace("Gathers", "Collects"))
    git_repo.commit("head")
    assert tree_files(git_repo)["library/setup.py"].rule == "src.content.ansible-module"


def test_lowering_setup_py_needs_proof_on_both_sides(git_repo: GitRepo) -> None:
    git_repo.write("setup.py", m.PACKAGING_SETUP_PY)
    git_repo.commit("base")
    git_repo.write("setup.py", m.ANSIBLE_MODULE_SETUP_PY)  # the change rewrites packaging as a "module"
    git_repo.commit("head")
    assert tree_files(git_repo)["setup.py"].bucket == "deps"


# --- patch-only mode --------------------------------------------------------------------------


def test_patch_only_mode_sniffs_what_the_patch_shows_and_tags_the_rest(git_repo: GitRepo, tmp_path: Path) -> None:
    lines = "".join(f"    key{i}: value{i}\n" for i in range(60))
    configmap = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\ndata:\n  settings: |\n" + lines
    shop(git_repo)
    git_repo.write("ops/web-config.yaml", configmap)
    git_repo.commit("base2")
    git_repo.write("ops/web-config.yaml", configmap.replace("value55", "changed"))
    git_repo.write("gitops/guestbook.yaml", m.ARGO_APPLICATION)
    git_repo.write("config/app.yaml", m.APP_SETTINGS + "  x: 1\n")
    git_repo.write("platform/storefront/templates/_names.tpl", m.HELM_HELPERS + "{{/* x */}}\n")
    git_repo.write("cmd/server/main.go", "package main\n\nfunc main() { println() }\n")
    git_repo.commit("head")
    files = patch_files(git_repo, tmp_path)
    # A new file shows all of itself: content decides.
    guestbook = files["gitops/guestbook.yaml"]
    assert (guestbook.bucket, NEEDS_CONTEXT in guestbook.tags) == ("iac", False)
    # A modified file whose header the hunk leaves out: the patch cannot tell.
    assert files["ops/web-config.yaml"].bucket == "src"
    assert NEEDS_CONTEXT in files["ops/web-config.yaml"].tags
    assert NEEDS_CONTEXT in files["config/app.yaml"].tags
    assert NEEDS_CONTEXT not in files["cmd/server/main.go"].tags
    # The same change with the commits: the ConfigMap is iac, settings are plainly src.
    with_tree = tree_files(git_repo)
    assert with_tree["ops/web-config.yaml"].bucket == "iac"
    assert with_tree["config/app.yaml"].bucket == "src" and not with_tree["config/app.yaml"].tags


def test_patch_only_markers_in_the_patch_itself_count(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("README.md", "x\n")
    git_repo.commit("base")
    git_repo.write("deploy-x/web/Chart.yaml", CHART_YAML)
    git_repo.write("deploy-x/web/templates/_names.tpl", m.HELM_HELPERS)
    git_repo.commit("head")
    got = patch_files(git_repo, tmp_path)["deploy-x/web/templates/_names.tpl"]
    assert (got.bucket, got.rule) == ("iac", "iac.marker.helm-chart")


# --- the command line and the gate ------------------------------------------------------------


def process(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """`gatekeeper ARGS` as a real process."""
    return subprocess.run([sys.executable, "-m", "gatekeeper", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=120)


def gk(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """`gatekeeper ARGS` in-process (tests/incli.py): the subject is the output and the exit code; the first
    `classify --tree` call below runs as a real process."""
    done = run_cli(list(args), cwd=cwd, text=True)
    assert isinstance(done.stdout, str)
    return done  # type: ignore[return-value]


def test_cli_contract_classify_tree_json_inside_the_repository(git_repo: GitRepo) -> None:
    shop(git_repo)
    git_repo.move("platform/storefront/templates/deployment.yaml", "platform/old-deployment.yaml")
    git_repo.write("gitops/guestbook.yaml", m.ARGO_APPLICATION)
    (git_repo.root / "README.md").unlink()
    git_repo.commit("head")
    done = process("classify", "--tree", "main~1..main", "--format", "json", "--policy", str(POLICIES),
                   cwd=git_repo.root)
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert doc["context"] == "tree"
    by_path = {f["path"]: f for f in doc["files"]}
    expected = git_repo.git("diff", "--name-only", "-M", "main~1", "main").decode().split()
    assert set(by_path) == set(expected)  # every path the change touches (a rename by its new path)
    renamed = by_path["platform/old-deployment.yaml"]
    assert renamed["old_path"] == "platform/storefront/templates/deployment.yaml"
    assert (renamed["bucket"], renamed["rule"], renamed["tier"]) == ("iac", "iac.marker.helm-chart", "marker")
    assert by_path["README.md"]["status"] == "deleted"
    # --explain with the same context names tier and evidence; --repo works from elsewhere.
    done = gk("classify", "--tree", "main~1..main", "--repo", str(git_repo.root), "--explain",
              "gitops/guestbook.yaml", "--policy", str(POLICIES), cwd=git_repo.root.parent)
    assert done.returncode == 0, done.stderr
    assert "tier content: gitops/guestbook.yaml: apiVersion: argoproj.io/v1alpha1 / kind: Application" in done.stdout


def test_cli_bad_range_and_unknown_revision_are_one_line_exit_2(git_repo: GitRepo) -> None:
    shop(git_repo)
    for rng in ("main", "main..nope", "-x..main"):
        done = gk("classify", "--tree", rng, "--policy", str(POLICIES), cwd=git_repo.root)
        assert done.returncode == 2, (rng, done)
        assert "Traceback" not in done.stderr and done.stderr.count("\n") <= 2


def test_packet_verify_and_gate_with_tree_context(git_repo: GitRepo, tmp_path: Path) -> None:
    shop(git_repo)
    lines = "".join(f"  key{i}: value{i}\n" for i in range(60))
    git_repo.write("ops/settings.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: s\ndata:\n" + lines)
    git_repo.commit("base2")
    git_repo.write("ops/settings.yaml", (git_repo.root / "ops/settings.yaml").read_text().replace("value50", "x"))
    git_repo.commit("head")
    patch = tmp_path / "change.diff"
    patch.write_bytes(commit_patch(git_repo, "main~1", "main", "--binary"))
    root = git_repo.root
    policy = ("--policy", str(POLICIES))
    tree_packet, patch_packet = tmp_path / "tree.json", tmp_path / "patch.json"
    built = gk("packet", str(patch), "--out", str(tree_packet), "--tree", "main~1..main", *policy, cwd=root)
    assert built.returncode == 0, built.stderr
    assert gk("packet", str(patch), "--out", str(patch_packet), *policy, cwd=root).returncode == 0
    tree_doc, patch_doc = json.loads(tree_packet.read_text()), json.loads(patch_packet.read_text())
    assert tree_doc["classifier"]["context"] == "tree" and tree_doc["files"][0]["bucket"] == "iac"
    assert patch_doc["classifier"]["context"] == "patch" and patch_doc["files"][0]["tags"] == [NEEDS_CONTEXT]
    # verify re-derives with the packet's own context.
    assert gk("verify", str(tree_packet), "--patch", str(patch), "--tree", "main~1..main", cwd=root).returncode == 0
    lost = gk("verify", str(tree_packet), "--patch", str(patch), cwd=root)
    assert lost.returncode == 1 and "classifier.context" in lost.stderr
    assert gk("verify", str(patch_packet), "--patch", str(patch), cwd=root).returncode == 0
    # The gate: with --tree the file is iac (review by core.iac); a patch-context packet still verifies.
    for packet in (tree_packet, patch_packet):
        done = gk("gate", str(packet), "--patch", str(patch), "--tree", "main~1..main", "--format", "json", *policy,
                  cwd=root)
        decision = json.loads(done.stdout)
        assert done.returncode == 3, done.stderr
        assert decision["classifier"] == {"context": "tree"}
        assert [r["rule"] for r in decision["reasons"]] == ["core.iac"]
    # Without --tree the patch alone cannot tell: core asks a human because of needs-context.
    done = gk("gate", str(patch_packet), "--patch", str(patch), "--format", "json", *policy, cwd=root)
    decision = json.loads(done.stdout)
    assert done.returncode == 3 and [r["rule"] for r in decision["reasons"]] == ["core.needs_context"]
    assert decision["classifier"] == {"context": "patch"}
    # A tree-context packet gated without --tree cannot be re-derived: deny (integrity).
    done = gk("gate", str(tree_packet), "--patch", str(patch), "--format", "json", *policy, cwd=root)
    assert done.returncode == 1
    assert any(r["rule"] == "gatekeeper.integrity" for r in json.loads(done.stdout)["reasons"])


def test_argo_applications_among_many_new_files_are_iac_by_content(git_repo: GitRepo, tmp_path: Path) -> None:
    from gatekeeper.packet import derive

    git_repo.write("README.md", "x\n")
    git_repo.write("ops/web.yaml", m.DEPLOYMENT)
    git_repo.commit("base")
    for i in range(300):
        text = m.ARGO_APPLICATION if i % 5 == 0 else f"v: {i}\n"
        git_repo.write(f"pkg{i % 7}/f{i}.{'yaml' if i % 3 else 'go'}", text)
    git_repo.write("ops/web.yaml", m.DEPLOYMENT.replace("replicas: 3", "replicas: 4"))
    git_repo.commit("head")
    patch = tmp_path / "c.diff"
    patch.write_bytes(commit_patch(git_repo, "main~1", "main", "--binary"))
    whole = derive(patch, RULES)
    assert sum(f.bucket == "iac" for f in whole.files) == 40  # the Argo CD apps among the new YAML files


def test_sections_read_out_of_order_are_still_right(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("README.md", "x\n")
    git_repo.commit("base")
    git_repo.write("a/one.yaml", m.TEKTON_PIPELINE)
    git_repo.write("b/two.yaml", m.ARGO_APPLICATION)
    git_repo.commit("head")
    patch = tmp_path / "c.diff"
    patch.write_bytes(commit_patch(git_repo, "main~1", "main", "--binary"))
    changes = list(parse_patch(patch))
    context = PatchContext(patch, changes, RULES.context)
    backwards = classify_in_context(changes[::-1], RULES, context)
    context.close()
    assert [(f.change.path, f.bucket) for f in backwards] == [("b/two.yaml", "iac"), ("a/one.yaml", "ci")]


def test_role_and_puppet_markers_and_what_a_marker_never_renames(git_repo: GitRepo) -> None:
    """A role kept as its own repository (meta/main.yml) and a Puppet control repository (hiera.yaml) are
    infrastructure through and through; a marker raises only what the path tier left to its catch-all, except
    in the folders a chart reads whole (a packaged subchart is installed, a chart's LICENSE is not)."""
    git_repo.write("README.md", "x\n")
    git_repo.commit("base")
    git_repo.write("meta/main.yml", "galaxy_info:\n  role_name: docker\n")
    git_repo.write("tasks/main.yml", "- name: install\n  package: {name: docker}\n")
    git_repo.write("vars/Debian.yml", "docker_package: docker-ce\n")
    git_repo.write("templates/daemon.json.j2", '{"log-driver": "{{ docker_log_driver }}"}\n')
    git_repo.write("control/hiera.yaml", "version: 5\n")
    git_repo.write("control/data/nodes/web.yaml", "profile::web::port: 8080\n")
    git_repo.write("charts-src/web/Chart.yaml", "apiVersion: v2\nname: web\nversion: 1.0.0\n")
    git_repo.write("charts-src/web/charts/redis-17.0.0.tgz", b"\x1f\x8b\x08\x00" + bytes(64))
    git_repo.write("charts-src/web/LICENSE", "Apache-2.0\n")
    git_repo.write("charts-src/web/templates/README.md", m.DEPLOYMENT)
    git_repo.commit("head")
    files = tree_files(git_repo)
    assert files["vars/Debian.yml"].bucket == "iac"  # a role's per-platform variables, by path since the tenth set
    assert (files["templates/daemon.json.j2"].bucket, files["templates/daemon.json.j2"].rule) == \
        ("iac", "iac.marker.ansible-role")
    assert files["control/data/nodes/web.yaml"].rule == "iac.marker.puppet"
    assert files["charts-src/web/charts/redis-17.0.0.tgz"].bucket == "iac"
    assert files["charts-src/web/templates/README.md"].bucket == "iac"  # a chart renders every template
    assert files["charts-src/web/LICENSE"].bucket == "other"


def test_a_nested_marker_matches_whole_path_segments_only() -> None:
    index = MarkerIndex(["x/meta/main.yml", "y/xmeta/main.yml", "meta/main.yaml.bak"], RULES.context.markers)
    assert index.claim("x/vars/a.yml") is not None
    assert index.claim("y/vars/a.yml") is None and index.claim("vars/a.yml") is None
