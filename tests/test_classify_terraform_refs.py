"""Files a Terraform module reads by path are what it puts into the infrastructure: cloud-config it renders,
IAM policy documents, external data-source programs, local-exec scripts (ninth label set: a `.conf` rendered
by `templatefile("${path.module}/assets/default.conf")` and a script run as `program` were src under --tree).
Named from either tree, from the module's folder or one above; a name only the change removes still counts."""

from __future__ import annotations

import random
from pathlib import Path

from cpucost import within_cpu
from tables import each_case

from gatekeeper.classify import tfrefs
from gatekeeper.classify.tfrefs import is_configuration, named_paths
from tests.gitrepo import GitRepo
from tests.test_classify_context import patch_files, tree_files

FORMS = {
    'user_data = templatefile("${path.module}/assets/default.conf", { port = 443 })\n': "mod/assets/default.conf",
    'policy = file("${path.module}/policies/s3.json")\n': "mod/policies/s3.json",
    'program = ["bash", "${path.module}/bin/delay-vault-aws"]\n': "mod/bin/delay-vault-aws",
    'program = ["./bin/delay-vault-aws"]\n': "mod/bin/delay-vault-aws",
    'provisioner "local-exec" {\n  command = "sh ${path.module}/scripts/seed.sh ${var.x}"\n}\n':
        "mod/scripts/seed.sh",
    'content = file("policies/s3.json")\n': "mod/policies/s3.json",
    'content = filebase64("${path.root}/certs/ca.pem")\n': "mod/certs/ca.pem",
    'for_each = fileset("${path.module}/policies", "*.json")\n': "mod/policies/app.json",
}


@each_case("form", list(FORMS))
def test_a_file_a_module_reads_is_iac(git_repo: GitRepo, form: str) -> None:
    target = FORMS[form]
    git_repo.write("mod/main.tf", f'resource "x" "y" {{\n  {form}}}\n')
    git_repo.write(target, "placeholder\n")
    git_repo.write("mod/docs/notes.conf", "# unread\n")
    git_repo.commit("base")
    git_repo.write(target, "changed by the agent\n")
    git_repo.write("mod/docs/notes.conf", "# still unread\n")
    git_repo.commit("change")
    files = tree_files(git_repo)
    assert (files[target].bucket, files[target].rule) == ("iac", "iac.context.terraform-file"), form
    assert files[target].evidence is not None and files[target].evidence.startswith("mod/main.tf: ")
    assert files["mod/docs/notes.conf"].rule != "iac.context.terraform-file"


def test_a_reference_the_change_removes_still_counts(git_repo: GitRepo) -> None:
    git_repo.write("svc/main.tf", 'resource "aws_iam_policy" "p" {\n  policy = file("${path.module}/p.json")\n}\n')
    git_repo.write("svc/p.json", '{"Statement": []}\n')
    git_repo.commit("base")
    git_repo.write("svc/main.tf", 'resource "aws_iam_policy" "p" {\n  policy = "{}"\n}\n')
    git_repo.write("svc/p.json", '{"Statement": [{"Effect": "Allow", "Action": "*"}]}\n')
    git_repo.commit("change")
    got = tree_files(git_repo)["svc/p.json"]
    assert (got.bucket, got.rule) == ("iac", "iac.context.terraform-file")


def test_a_module_above_names_a_file_below_and_a_sibling_module_does_not(git_repo: GitRepo) -> None:
    git_repo.write("stack/main.tf", 'locals {\n  x = file("${path.module}/config/app/settings.ini")\n}\n')
    git_repo.write("stack/config/app/settings.ini", "a=1\n")
    git_repo.write("other/main.tf", 'locals {\n  y = file("${path.module}/data.ini")\n}\n')
    git_repo.write("unrelated/data.ini", "b=1\n")
    git_repo.commit("base")
    git_repo.write("stack/config/app/settings.ini", "a=2\n")
    git_repo.write("unrelated/data.ini", "b=2\n")
    git_repo.commit("change")
    files = tree_files(git_repo)
    assert files["stack/config/app/settings.ini"].rule == "iac.context.terraform-file"
    assert files["unrelated/data.ini"].rule != "iac.context.terraform-file"


def test_patch_mode_does_not_see_the_module(git_repo: GitRepo, tmp_path: Path) -> None:
    """From a patch alone the .tf files it leaves alone are not shown (documented: pass --tree)."""
    git_repo.write("mod/main.tf", 'locals {\n  x = file("${path.module}/a.json")\n}\n')
    git_repo.write("mod/a.json", "{}\n")
    git_repo.commit("base")
    git_repo.write("mod/a.json", '{"a": 1}\n')
    git_repo.commit("change")
    assert patch_files(git_repo, tmp_path)["mod/a.json"].rule != "iac.context.terraform-file"


LOCAL_EXEC = """\
resource "null_resource" "confirm_rollout" {
  provisioner "local-exec" {
    command     = "${path.module}/scripts/confirm-rollout-status.sh ${var.name} ${var.namespace}"
    interpreter = ["/bin/bash", "-c"]
  }
}
"""


@each_case(("configuration", "text", "script", "named"), [
    ("modules/audit/main.tf", LOCAL_EXEC, "modules/audit/scripts/confirm-rollout-status.sh", True),
    ("main.tf", 'data "external" "ip" {\n  program = ["bash", "./get-ip.sh"]\n}\n', "get-ip.sh", True),
    ("live/terragrunt.hcl", 'terraform {\n  before_hook "x" {\n    execute = ["scripts/check.sh"]\n  }\n}\n',
     "live/scripts/check.sh", True),
    ("live/terragrunt.hcl", 'x = "${get_terragrunt_dir()}/hooks/pre.sh"\n', "live/hooks/pre.sh", True),
    ("packer/web.pkr.hcl", 'build {\n  provisioner "shell" {\n    script = "install.sh"\n  }\n}\n',
     "packer/install.sh", True),
    ("m/main.tf", 'command = <<-EOT\n    bash scripts/seed.sh --all\n  EOT\n', "m/scripts/seed.sh", True),
    # look-alikes: another folder's file of that name, a longer name, a comment, a script of another module
    ("modules/audit/main.tf", 'command = "/usr/local/bin/confirm-rollout-status.sh"\n',
     "modules/audit/confirm-rollout-status.sh", False),
    ("modules/audit/main.tf", 'command = "${path.module}/scripts/pre-confirm-rollout-status.sh"\n',
     "modules/audit/scripts/confirm-rollout-status.sh", False),
    ("modules/audit/main.tf", '# run scripts/confirm-rollout-status.sh by hand\n',
     "modules/audit/scripts/confirm-rollout-status.sh", False),
    ("modules/audit/main.tf", LOCAL_EXEC, "modules/other/scripts/confirm-rollout-status.sh", False),
    ("modules/audit/main.tf", 'command = "${var.dir}/other/scripts/confirm-rollout-status.sh"\n',
     "modules/audit/scripts/confirm-rollout-status.sh", False),
    ("m/main.tf", 'source = "git::https://example.invalid/m.git//scripts/x.sh"\n', "m/scripts/x.sh", False),
])
def test_a_configuration_names_its_script(configuration: str, text: str, script: str, named: bool) -> None:
    assert (script in named_paths(configuration.rpartition("/")[0], text).files) == named


@each_case("text", [
    "# " + " x.sh" * 200_000,  # a comment line: skipped whole
    'command = "' + "/x.sh" * 200_000 + '"',
    ("a" * 50 + "\n") * 20_000,
    'x = "' + "a/" * 300_000 + '"',
])
def test_reading_a_configuration_is_linear(text: str) -> None:
    """1 MiB of hostile configuration is read in one pass (a long word, a long comment, many lines)."""
    within_cpu(2.0, lambda: named_paths("m", text))


@each_case(("text", "files", "folders"), [
    ('x = "${path.module}/../up/a.sh"', {"up/a.sh"}, set()),
    ('x = "../../../../escape.sh"', set(), set()),  # above the repository: nothing
    ('x = "${var.dir}/a.sh"', set(), set()),  # a variable: not a path this reads
    ('x = file("${path.module}/a.txt")  # and "./b.txt"', {"m/a.txt", "m/b.txt"}, set()),
    ('x = fileset(path.module, "*.json")', set(), set()),
    ('region = "us-east-1"\ncount = 3', set(), set()),
    # what Terraform writes is no input (terraform-aws-eks's rendered test outputs)
    ('resource "local_file" "r" {\n  content  = "x"\n  filename = "${path.module}/rendered/a.sh"\n}\n', set(), set()),
    ('output_path = "${path.module}/build/fn.zip"\nsource_file = "${path.module}/src/fn.py"', {"m/src/fn.py"}, set()),
    ('x = fileset("${path.module}", "*.json")', set(), {"m"}),
])
def test_named_paths(text: str, files: set[str], folders: set[str]) -> None:
    named = named_paths("m", text)
    assert (named.files, named.folders) == (files, folders)


@each_case(("path", "configuration"), [
    ("main.tf", True), ("m/x.tofu", True), ("terragrunt.hcl", True), ("live/prod/terragrunt.hcl", True),
    ("packer/web.pkr.hcl", True), (".copywrite.hcl", False), (".tflint.hcl", False), ("jobs/web.nomad.hcl", False),
    (".terraform.lock.hcl", False), ("main.tf.json", True), ("main.json", False),
])
def test_which_files_are_read(path: str, configuration: bool) -> None:
    assert is_configuration(path) == configuration


def test_the_cheap_first_test_of_a_configuration_name_rejects_none() -> None:
    """is_configuration's first test (none of the endings, no Dockerfile, Containerfile or Vagrantfile in the name)
    only ever says no where the five tests after it say no too: every configuration name in every case spelling,
    and 4,000 other names."""

    def full(path: str) -> bool:
        name = path.rpartition("/")[2]
        return f"/{path}".endswith(tfrefs.CONFIGURATION_SUFFIXES) or tfrefs.is_dockerfile(path) \
            or tfrefs.is_machine_definition(path) or tfrefs._PACKER_JSON.fullmatch(name) is not None \
            or tfrefs._NIX_CONFIGURATION.fullmatch(name) is not None

    stems = ["main", "terragrunt", "packer", "ubuntu.packer", "packer-base", "configuration", "home", "home-manager",
             "hardware-configuration", "kitchen", ".kitchen.vagrant", "Dockerfile", "app", "Containerfile", "x"]
    ends = [*tfrefs.CONFIGURATION_SUFFIXES, ".nix", ".yml", ".yaml", ".json", "", ".prod", ".Dockerfile", "file",
            ".containerfile", ".go", ".md", ".hcl", ".tf.bak", ".txt", ".sh"]
    names = {f"{stem}{end.lstrip('/')}" for stem in stems for end in ends}
    names |= {"Vagrantfile", "vagrantfile", "dockerfile", "Dockerfile.dev", "dev.dockerfile", "CONTAINERFILE.x",
              "file1.go", "Makefile", "profile", "Vagrantfile.local", "app.Containerfile"}
    names |= {name.upper() for name in list(names)} | {name.swapcase() for name in list(names)}
    rng = random.Random(14)
    letters = "abcdefgklmnoprstuvwxyzFKT.-_"
    names |= {"".join(rng.choice(letters) for _ in range(rng.randint(1, 12))) for _ in range(4000)}
    for name in sorted(names):
        for path in (name, f"infra/{name}", f"a/b/{name}"):
            assert tfrefs.is_configuration(path) == full(path), path
    assert sum(full(name) for name in names) > 100  # the corpus holds configurations
