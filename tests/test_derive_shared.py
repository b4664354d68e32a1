"""A gate that checks a patch packet under `--tree` derives the patch twice, once per context, from one parse and one
path tier (packet.parse / derive_parsed): each derivation must classify exactly as one made from scratch."""

from __future__ import annotations

from pathlib import Path

from gitdiffs import commit_patch

from gatekeeper.catfile import shared_processes
from gatekeeper.classify import load_rules
from gatekeeper.classify.context import classify_in_context
from gatekeeper.classify.patchcontext import PatchContext
from gatekeeper.classify.treecontext import TreeContext
from gatekeeper.diff import parse_patch
from gatekeeper.packet import derive_parsed, parse
from gatekeeper.revrange import resolve_range
from tests import manifests as m
from tests.gitrepo import two_commits

RULES = load_rules(Path(__file__).resolve().parent.parent / "policies")
CHART = "apiVersion: v2\nname: web\nversion: 1.0.0\n"
KUSTOMIZATION = "resources:\n  - deploy.k8s\n  - ../shared/base.txt\n"
WORKFLOW = "on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n      - uses: ./tools/setup\n"
PULUMI_PACKAGE = '{"dependencies": {"@pulumi/aws": "^6.0.0"}}\n'
PROGRAM = 'import * as aws from "@pulumi/aws";\nnew aws.s3.Bucket("b");\n'


def test_one_path_tier_classifies_as_two_fresh_derivations(tmp_path: Path) -> None:
    base = {
        "README.md": "# shop\n",
        "go.mod": "module example.invalid/shop\n",
        "cmd/main.go": "package main\n",
        "platform/web/Chart.yaml": CHART,
        "platform/web/templates/deploy.yaml": m.HELM_TEMPLATE,
        "ops/kustomization.yaml": KUSTOMIZATION,
        "ops/deploy.k8s": "kind: Deployment\n",
        "shared/base.txt": "x\n",
        ".github/workflows/ci.yml": WORKFLOW,
        "tools/setup/action.yml": m.COMPOSITE_ACTION,
        "stack/package.json": PULUMI_PACKAGE,
        "requirements.txt": "-r tools/dev.txt\nrequests==2.31.0\n",
        "tools/dev.txt": "pytest==8.0.0\n",
        "config/app.yaml": m.APP_SETTINGS,
        "docs/guide.md": "# guide\n",
    }
    head = {
        "cmd/main.go": "package main\n\nfunc main() {}\n",
        "platform/web/extra/config.toml": "a = 1\n",  # below a chart only the tree shows (a marker)
        "ops/deploy.k8s": "kind: Deployment\nspec: {}\n",  # named by a kustomization the patch does not show
        "shared/base.txt": "y\n",
        "tools/setup/run.sh": "echo hi\n",  # in a local action's folder
        "stack/index.ts": PROGRAM,  # below a manifest that names Pulumi
        "tools/dev.txt": "pytest==8.1.0\n",  # a requirements file includes it
        "config/app.yaml": m.APP_SETTINGS + "# more\n",
        "config/new.yaml": m.DEPLOYMENT,
        "docs/guide.md": "# guide\n\nmore\n",
        "src/lib.py": "print(1)\n",
    }
    repo, first, _ = two_commits(tmp_path / "repo", base, head)
    repo.git("rm", "-q", "README.md")
    repo.git("mv", "docs/guide.md", "docs/manual.md")
    third = repo.commit("move")
    patch = tmp_path / "change.diff"
    patch.write_bytes(commit_patch(repo, first, third, "--binary", "-M"))
    changes = list(parse_patch(patch))
    parsed = parse(patch, RULES)
    assert parsed.changes == tuple(changes)

    # As the gate runs them: the tree derivation first, then the patch one from the same parse and path tier.
    with shared_processes(), TreeContext(resolve_range(f"{first}..{third}", repo.root), RULES) as context:
        shared_tree = derive_parsed(parsed, RULES, context)
    shared_patch = derive_parsed(parsed, RULES)
    with shared_processes(), TreeContext(resolve_range(f"{first}..{third}", repo.root), RULES) as context:
        fresh_tree = classify_in_context(changes, RULES, context)
    own = PatchContext(patch, changes, RULES.context)
    try:
        fresh_patch = classify_in_context(changes, RULES, own)
    finally:
        own.close()

    assert shared_tree.files == tuple(fresh_tree) and shared_tree.context == "tree"
    assert shared_patch.files == tuple(fresh_patch) and shared_patch.context == "patch"
    # The two contexts disagree on these files, so neither derivation can have borrowed the other's result.
    tree_buckets = {f.change.path: f.bucket for f in shared_tree.files}
    patch_buckets = {f.change.path: f.bucket for f in shared_patch.files}
    assert {path for path in tree_buckets if tree_buckets[path] != patch_buckets[path]} >= {
        "platform/web/extra/config.toml", "ops/deploy.k8s", "shared/base.txt", "tools/setup/run.sh", "tools/dev.txt"}
    assert {"ci", "iac", "deps", "src", "other"} >= set(tree_buckets.values()) >= {"ci", "iac", "deps", "src"}
    assert any(f.change.status == "renamed" for f in shared_patch.files)
    assert any(f.change.status == "deleted" for f in shared_patch.files)
