"""Classes of misses the sixty-fourth label set showed (bench/classify_accuracy/sixtyfourth.tsv: 27 repositories
fetched for it, weighted to infrastructure, measured blind first), each with the look-alikes it must leave alone.

- Ansible roles kept one folder deeper (`roles/<group>/<role>/`, as OpenSearch's playbook keeps
  `roles/linux/opensearch`: a role name may hold a slash below the roles path). Their tasks were `iac` by the generic
  `tasks/*.yml` rule, but the templates and files in them were `src` from a patch alone (a systemd unit, a TLS tool's
  settings).
- kumogata programs: Ruby that builds a CloudFormation template (`AWSTemplateFormatVersion "2010-09-09"`, a
  `Resources do` block) and the fragments its programs `_include` (a `Type "AWS::EC2::Subnet"` call on its own line).
  cfndsl's programs were known (the fifty-fourth set); kumogata's neither with the commits nor from a patch.
- Checkov's settings (`.checkov.yaml`, `.checkov.yml`): a scanner's settings, whose `skip-check:` silences findings on
  the infrastructure it scans; `other` with the guardrail tag, as Trivy's and tfsec's are.
- An application's `.argocd/` folder: the YAML there is its own Argo CD Application or ApplicationSet (empty
  placeholders in dasdevrishi/labber were `src` in every mode).
"""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from gatekeeper.classify.iacprograms import iac_program
from tests.gitrepo import GitRepo
from tests.test_classify_context import RULES, patch_files, tree_files

# A role one folder deeper, as opensearch-project/ansible-playbook lays it out (roles/linux/opensearch/...).
NESTED_ROLE_FILES = [
    "8-Eighth/opensearch/roles/linux/opensearch/templates/opensearch.service",
    "8-Eighth/opensearch/roles/linux/opensearch/templates/jvm.options",
    "roles/linux/opensearch/templates/tlsconfig.yml",
    "roles/linux/opensearch/files/root-ca.pem",
    "roles/linux/dashboards/vars/main.yml",
    "roles/linux/dashboards/defaults/main.yml",
    "roles/linux/dashboards/handlers/main.yml",
    "roles/linux/dashboards/meta/main.yml",
    "roles/linux/dashboards/library/opensearch_user.py",
    "ansible/roles/common/ntp/templates/chrony.conf.j2",
    "playbooks/roles/db/postgres/files/pg_hba.conf",
]
NESTED_ROLE_LOOK_ALIKES = [
    ("roles/linux/opensearch/README.md", "src"),  # a role's documentation
    ("roles/linux/opensearch/LICENSE", "other"),
    ("roles/linux/opensearch/tests/test.yml", "src"),  # ansible-galaxy's test playbook skeleton, not deployed
    ("src/roles/linux/opensearch.py", "src"),  # code below a folder named roles
    ("docs/roles/linux/templates.md", "src"),
]


@each_case("path", NESTED_ROLE_FILES)
def test_a_role_one_folder_deeper_is_ansible(path: str) -> None:
    match = RULES.match(path)
    assert (match.bucket, match.rule) == ("iac", "iac.ansible"), match


@each_case(("path", "bucket"), NESTED_ROLE_LOOK_ALIKES)
def test_nested_role_look_alikes_keep_their_bucket(path: str, bucket: str) -> None:
    assert RULES.match(path).bucket == bucket, RULES.match(path)


# amimoto-ami/amimoto-enterprise-cfn's shape: a kumogata program and a fragment it includes.
KUMOGATA_PROGRAM = """AWSTemplateFormatVersion "2010-09-09"
Description (<<-EOS).undent
  A VPC and a web server
EOS

Parameters do
  _include "params/keyname.rb"
end

Resources do
  _include 'include/vpc/vpc.rb'
end
"""
KUMOGATA_FRAGMENT = """PublicSubnet do
  Type "AWS::EC2::Subnet"
  Properties do
    CidrBlock "10.0.1.0/24"
    VpcId do
      Ref "VPC"
    end
  end
end
"""
KUMOGATA_PARENTHESES = "Bucket do\n  Type('AWS::S3::Bucket')\n  Properties do\n    BucketName 'media'\n  end\nend\n"
# A resource whose Metadata block comes before its Properties, and a parameter fragment (a parameter's type).
KUMOGATA_METADATA_FIRST = ("EC2 do\n  Type \"AWS::EC2::Instance\"\n  Metadata do\n    AWS__CloudFormation__Init do\n"
                           "      _include \"include/ec2/metadata.rb\"\n    end\n  end\n  Properties do\n"
                           "    ImageId \"ami-0\"\n  end\nend\n")
KUMOGATA_PARAMETER = ('KeyName do\n  Description "Name of an existing EC2 key pair"\n'
                      '  Type "AWS::EC2::KeyPair::KeyName"\n  MinLength 1\nend\n')
KUMOGATA_LOOK_ALIKES = [
    # Ruby that handles CloudFormation types as data: a hash, a comparison, a comment, a string in a call.
    "TYPES = { 'Type' => 'AWS::EC2::Subnet' }\n",
    "return if resource['Type'] == \"AWS::EC2::Subnet\"\n",
    "# Type \"AWS::EC2::Subnet\" is created by the stack\nputs 'done'\n",
    "logger.info(\"Type 'AWS::EC2::Subnet' created\")\n",
    # A YAML template quoted in a heredoc is text, and `Type:` with a colon is YAML's form, not the DSL's.
    "TEMPLATE = <<~YAML\n  Resources:\n    Subnet:\n      Type: AWS::EC2::Subnet\nYAML\n",
    # Version strings that are not the template's format line.
    "VERSION = \"2010-09-09\"\nAWSTemplateFormatVersion = VERSION\n",
    "template['AWSTemplateFormatVersion'] = '2010-09-09'\n",
    # A resource's type as a keyword argument or a symbol-keyed hash entry (SDK calls, Ruby 1.9 hashes).
    "client.create(Type: \"AWS::EC2::Subnet\")\n",
    "resource = {\n  Type: 'AWS::EC2::Subnet',\n}\n",
]


@each_case("text", [KUMOGATA_PROGRAM, KUMOGATA_FRAGMENT, KUMOGATA_PARENTHESES, KUMOGATA_METADATA_FIRST,
                                  KUMOGATA_PARAMETER])
def test_kumogata_programs_and_fragments_are_iac_programs(text: str) -> None:
    signal = iac_program(text.encode(), "include/vpc/subnet.rb")
    assert signal is not None and (signal.bucket, signal.rule) == ("iac", "iac.content.iac-program"), signal


@each_case("text", KUMOGATA_LOOK_ALIKES)
def test_kumogata_look_alikes_are_not_programs(text: str) -> None:
    assert iac_program(text.encode(), "lib/stack.rb") is None


def test_kumogata_programs_in_a_repository(git_repo: GitRepo, tmp_path: Path) -> None:
    """With the commits: below a Gemfile naming kumogata, the programs and the fragments they include are iac; a
    helper without the shapes and a spec keep their bucket, and so does the same fragment below a Gemfile naming no IaC
    library (not read). From a patch alone, a fragment the patch adds, or changes with its `Type` call in the hunk, is
    read for the shape itself (a hunk that shows neither call proves nothing: run with --tree)."""
    base = {"cfn/Gemfile": "source 'https://rubygems.org'\n\ngem 'kumogata'\ngem 'rake'\n",
            "cfn/001.rb": KUMOGATA_PROGRAM,
            "cfn/include/vpc/public_subnet.rb": KUMOGATA_FRAGMENT,
            "cfn/tasks/ami_ids.rb": "require 'aws-sdk'\ndef latest(owner)\n  owner.to_s\nend\n",
            "cfn/spec/spec_helper.rb": "require 'rspec'\n",
            "web/Gemfile": "source 'https://rubygems.org'\ngem 'rails'\n",
            "web/lib/notes.rb": KUMOGATA_FRAGMENT}
    for path, text in base.items():
        git_repo.write(path, text)
    git_repo.commit("base")
    for path, text in base.items():
        if path.endswith(".rb"):
            git_repo.write(path, text.replace("10.0.1.0/24", "10.0.2.0/24") + "# touched\n")
    git_repo.write("cfn/include/vpc/private_subnet.rb", KUMOGATA_FRAGMENT.replace("Public", "Private"))  # shown whole
    git_repo.commit("head")
    files = tree_files(git_repo)
    for path in ("cfn/001.rb", "cfn/include/vpc/public_subnet.rb", "cfn/include/vpc/private_subnet.rb"):
        assert (files[path].bucket, files[path].rule) == ("iac", "iac.content.iac-program"), files[path]
    for path in ("cfn/tasks/ami_ids.rb", "cfn/spec/spec_helper.rb", "web/lib/notes.rb"):
        assert files[path].bucket not in ("ci", "iac"), files[path]
    patched = patch_files(git_repo, tmp_path)
    for path in ("cfn/include/vpc/public_subnet.rb", "cfn/include/vpc/private_subnet.rb"):  # the hunk shows the call
        assert patched[path].bucket == "iac", patched[path]
    assert patched["cfn/tasks/ami_ids.rb"].bucket not in ("ci", "iac"), patched["cfn/tasks/ami_ids.rb"]


@each_case("path", [".checkov.yaml", ".checkov.yml", "infra/.checkov.yaml"])
def test_checkov_settings_are_other_with_the_guardrail_tag(path: str) -> None:
    match = RULES.match(path)
    assert match.bucket == "other" and "guardrail" in match.tags, match


def test_checkov_look_alikes_keep_their_bucket() -> None:
    assert RULES.match(".trunk/configs/.checkov.yaml").rule == "other.dev-tool-settings"  # trunk's copy, as before
    assert RULES.match("checkov/checks/s3.yaml").bucket != "other"  # custom checks a run loads are not settings
    assert RULES.match(".github/workflows/checkov.yml").bucket == "ci"


# An application repository's own Argo CD objects in a `.argocd/` folder (pantalasa's services, faulty-technology's
# sites; an empty placeholder of one in dasdevrishi/labber): the YAML there is what Argo CD syncs, even before it
# holds anything a content reader could see.
@each_case("path", [".argocd/application.yaml", ".argocd/applicationset.yaml", ".argocd/projects.yaml",
                                  ".argocd/root-app.yaml", "services/web/.argocd/app.yml",
                                  ".argocd/prod/guestbook.yaml"])
def test_the_yaml_of_an_argocd_folder_is_gitops(path: str) -> None:
    match = RULES.match(path)
    assert (match.bucket, match.rule) == ("iac", "iac.gitops"), match


@each_case(("path", "bucket"), [(".argocd/README.md", "src"), (".argocd/notes.txt", "src"),
                                              ("docs/argocd.md", "src"), ("src/argocd.yaml.go", "src")])
def test_argocd_folder_look_alikes_keep_their_bucket(path: str, bucket: str) -> None:
    assert RULES.match(path).bucket == bucket, RULES.match(path)
