"""Classes of misses a twenty-third label set found (bench/classify_accuracy/twentythird.tsv: 60 repositories, breadth,
measured blind first), each with the look-alikes it must leave alone: images deeper in `.github/` and the legacy
`ISSUE_TEMPLATE.txt` (other; images in workflows/ and actions/ stay ci), sbt's scripted tests (`src/sbt-test/`) and a
test suite's nimble packages (src, not the repository's dependencies), PHP's and a renamed PostgreSQL's server settings,
DDEV's folder, fourmolu's and terraform-docs' settings and `.git_archival.txt` (other), scripts and templates named
like governance files (src), llmstxt.org's `llms.txt` (src, and not read for content), the AWS Solutions layout's
packaging scripts below `deployment/` (src), and CloudFormation templates of registry types
(`AWSUtility::CloudFormation::CommandRunner`: iac by content). The real repository below checks them with the commits
and from the patch."""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from gatekeeper.classify.sniff import is_candidate, sniff
from tests.gitrepo import GitRepo
from tests.test_classify_context import RULES, patch_files, tree_files


@each_case(("path", "bucket"), [
    # images deeper in .github/ are pictures the forge's pages show; in workflows/ and actions/ they stay ci
    (".github/readme-images/jetbrains.svg", "other"), (".github/readme/oauth2-flow.gif", "other"),
    (".github/docs/screens/a.png", "other"), (".github/logo.png", "other"),
    (".github/workflows/assets/check.png", "ci"), (".github/workflows/tests/a.png", "ci"),
    (".github/actions/setup/icon.svg", "ci"), (".github/scripts/testdata/a.png", "ci"),
    (".github/readme/build.sh", "ci"), (".github/readme/settings.yml", "ci"),
    # the legacy single issue and pull request templates, under any extension
    (".github/ISSUE_TEMPLATE.txt", "other"), (".github/PULL_REQUEST_TEMPLATE.txt", "other"),
    (".github/issue_template.md", "other"), (".github/workflows/issue_template.yml", "ci"),
    # sbt's scripted tests are test projects, not the build's dependencies
    ("sbt-app/src/sbt-test/dependency-management/pom-classpaths/pom.xml", "src"),
    ("plugin/src/sbt-test/lib/project/build.properties", "src"), ("src/sbt-test/a/b/build.sbt", "src"),
    ("src/sbt-test/a/b/expected/licenses.txt", "src"), ("src/sbt-test/a/b/lib.jar.md5", "src"),
    ("project/build.properties", "deps"), ("build.sbt", "deps"), ("src/main/resources/pom.xml", "deps"),
    # a test suite's nimble packages; the package's own manifest stays deps
    ("tests/package_level_objects/mypackage.nimble", "src"), ("tests/recursive/recursive.nimble", "src"),
    ("nimble.nimble", "deps"), ("src/mylib.nimble", "deps"),
    # server settings by the names only those servers read
    ("docker/shared/root/docker/templates/usr/local/etc/php/php.ini", "other"), ("php.ini-production", "other"),
    ("docker/development/etc/php/conf.d/zzz-custom-php.ini", "other"), ("dev/docker/php/conf.d/xdebug.ini", "other"),
    ("docker/customPostgresql.conf", "other"), ("roles/php/templates/php.ini.j2", "iac"),
    ("conf.d/app.ini", "src"), ("settings.ini", "src"),
    # developer tools' settings and git archive metadata; a compose file or Dockerfile in .ddev/ keeps its kind, as in
    # .devcontainer/
    (".ddev/config.yaml", "other"), (".ddev/docker-compose.redis.yaml", "iac"), (".ddev/web-build/Dockerfile", "iac"),
    ("fourmolu.yaml", "other"),
    (".terraform-docs.yaml", "other"), (".terraform-docs.yml", "other"), (".git_archival.txt", "other"),
    ("ddev/config.yaml", "src"), ("docs/terraform-docs.md", "src"),
    # scripts and templates named like governance files are code; the licences themselves stay governance
    ("enos/modules/aws_vault/templates/vault-write-license.sh", "src"),
    ("templates/third-party-licenses.tmpl", "src"), ("hack/LICENSE.tpl", "src"), ("NOTICE.tmpl", "src"),
    ("THIRD-PARTY-LICENSES.txt", "other"), ("LICENSE-MIT", "other"), ("vendor-LICENSE", "other"),
    ("LICENSE", "other"), ("NOTICE", "other"),
    # llmstxt.org's documents for language models
    ("public/llms-full.txt", "src"), ("llms.txt", "src"), ("docs/_vendor/github.com/x/theme/layouts/llms.txt", "deps"),
    # the AWS Solutions layout's packaging and test scripts; the rest of deployment/ stays infrastructure
    ("deployment/build-s3-dist.sh", "src"), ("deployment/build-open-source-dist.sh", "src"),
    ("deployment/run-unit-tests.sh", "src"), ("deployment/deploy.sh", "iac"), ("deployment/template.yaml", "iac"),
    ("app/deployment/build-s3-dist.sh", "src"),
])
def test_path_rules_of_the_twenty_third_round(path: str, bucket: str) -> None:
    assert RULES.match(path).bucket == bucket, RULES.match(path)


COMMAND_RUNNER = """Resources:
    Command:
        Type: AWSUtility::CloudFormation::CommandRunner
        Properties:
            Command: 'aws ssm get-parameter --name RepositoryName > /command-output.txt'
            Role: EC2AdminRole
Outputs:
    Output:
        Value:
            Fn::GetAtt: Command.Output
"""
REGISTRY_JSON = """{
  "Resources": {
    "Scan": {"Type": "MyOrg::Security::Scanner::MODULE", "Properties": {"Bucket": "b"}}
  }
}
"""
FLOW_STYLE = "{Resources: {Runner: {Type: AWSUtility::CloudFormation::CommandRunner}}}\n"
TWO_PARTS = """Resources:
  cpu:
    Type: Limits::Cpu
    value: 2
"""
NO_RESOURCES = """connection:
  Type: MyOrg::Database::Client
"""


@each_case(("name", "text", "iac"), [
    ("examples/awscli-ssm-get-parameter-template.yaml", COMMAND_RUNNER, True),
    ("modules/scan.json", REGISTRY_JSON, True),
    ("stack.yaml", FLOW_STYLE, True),
    ("config/limits.yaml", TWO_PARTS, False),
    ("config/db.yaml", NO_RESOURCES, False),
])
def test_cloudformation_registry_types_by_content(name: str, text: str, iac: bool) -> None:
    signal = sniff(name, text.encode(), RULES.context, as_yaml=True)
    assert (signal is not None and signal.rule == "iac.content.cloudformation") == iac, (name, signal)


LLMS_FULL = """# Bagisto Developer Documentation

> The comprehensive guide to developing with Bagisto

## Docker

```yaml
services:
  app:
    image: webkul/bagisto:2.3
    ports:
      - "80:80"
```
"""


def test_llms_texts_are_documents_not_read_for_content() -> None:
    assert not is_candidate("public/llms-full.txt") and not is_candidate("llms.txt")
    assert is_candidate("public/notes.txt") and is_candidate("llms.yaml")
    # the compose service it quotes is what made it iac: the same text under another name still is
    signal = sniff("public/notes.txt", LLMS_FULL.encode(), RULES.context)
    assert signal is not None and signal.rule == "iac.content.compose"


ROLE_TASKS = """- name: Install PHP
  ansible.builtin.apt:
    name: php-fpm
- name: Configure PHP
  ansible.builtin.copy:
    src: php.ini
    dest: /etc/php/8.2/fpm/php.ini
"""


def test_the_twenty_third_classes_in_a_real_repository(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("README.md", "# shop\n")
    git_repo.commit("base")
    texts = {
        "examples/awscli-ssm-get-parameter-template.yaml": COMMAND_RUNNER,
        "public/llms-full.txt": LLMS_FULL,
        "docker/php/conf.d/custom.ini": "memory_limit = 512M\nupload_max_filesize = 256M\n",
        "docker/customPostgresql.conf": "max_connections = 200\nshared_buffers = 3GB\n",
        ".ddev/config.yaml": "type: laravel\ndocroot: public\nphp_version: \"8.1\"\n",
        ".github/readme/flow.gif": "GIF89a\x01\x00\x01\x00",
        "plugin/src/sbt-test/deps/pom-classpaths/pom.xml": "<project><modelVersion>4.0.0</modelVersion></project>\n",
        "deployment/build-s3-dist.sh": "#!/bin/bash\nset -e\nnpx cdk synth\n",
        # an Ansible role copies its php.ini onto hosts: the role's marker claims its files/ folder whole
        "provisioning/roles/php/tasks/main.yml": ROLE_TASKS,
        "provisioning/roles/php/files/php.ini": "memory_limit = 256M\n",
    }
    want = {
        "examples/awscli-ssm-get-parameter-template.yaml": "iac", "public/llms-full.txt": "src",
        "docker/php/conf.d/custom.ini": "other", "docker/customPostgresql.conf": "other", ".ddev/config.yaml": "other",
        ".github/readme/flow.gif": "other", "plugin/src/sbt-test/deps/pom-classpaths/pom.xml": "src",
        "deployment/build-s3-dist.sh": "src", "provisioning/roles/php/tasks/main.yml": "iac",
        "provisioning/roles/php/files/php.ini": "iac",
    }
    for path, text in texts.items():
        git_repo.write(path, text)
    git_repo.commit("head")
    files = tree_files(git_repo)
    assert {path: files[path].bucket for path in want} == want
    template = files["examples/awscli-ssm-get-parameter-template.yaml"]
    assert template.rule == "iac.content.cloudformation" and "CommandRunner" in template.evidence
    assert files["public/llms-full.txt"].rule == "docs.markdown"
    # the patch adds every file whole: the role's tasks are in it too
    patched = patch_files(git_repo, tmp_path)
    assert {path: patched[path].bucket for path in want} == want
