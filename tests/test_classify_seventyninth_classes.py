"""Classes the seventy-ninth label set's blind run showed (bench/classify_accuracy/seventyninth.tsv).

1. A file a configuration names by path, of a type no tier reads. A Packer template's file provisioner uploads
   `files/client.cnf`, `files/configure-mariadb.exp`, `files/docker.service`, `files/jail.local` onto the image; a
   Terraform module reads `file("${path.module}/keys/deploy.pub")`. The fast path of `refine` passed over every file
   whose type no tier reads (unreadpaths.py) before the configurations were asked, so these stayed `src` (crouchr/
   packer's `tradr9/files/configure-mariadb.exp`), while a `.conf` beside them, a type the fast path lets through,
   was `iac`. Now a file the configurations name is never passed over. Look-alikes: the same types that no
   configuration names stay `src`.
2. A container image's reference in a Terraform file is no path (below).
3. Hygen's generator templates are src (below).
4. A bare name an installed package's root-only CI definition gives is its own package's file (below).
5. A top-level `cdk/` folder is an infrastructure folder like `infra/` (below).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gitrepo import two_commits
from incli import tree_classify, tree_gate
from tables import each_case

from gatekeeper.classify import RuleSet, load_rules
from gatekeeper.classify.markers import CONFIG_EXTENSIONS
from tests.gitrepo import GitRepo
from tests.test_classify_context import tree_files


@pytest.fixture(scope="module")
def rules() -> RuleSet:
    return load_rules(Path(__file__).resolve().parent.parent / "policies")


# Real-shaped names of files provisioners upload and modules read (crouchr/packer's tradr9/files/, cloud keys)
UNREAD_TYPES = ["client.cnf", "configure-mariadb.exp", "docker.service", "jail.local", "99-sysctl.rules",
                "nginx.vhost", "deploy.pub", "release.gpg"]


def _packer_json(sources: list[str]) -> str:
    provisioners = [{"type": "file", "source": f"files/{name}", "destination": f"/tmp/{name}"} for name in sources]
    return json.dumps({"builders": [{"type": "virtualbox-iso", "vm_name": "tradr9"}],
                      "provisioners": provisioners}, indent=2) + "\n"


def _packer_hcl(sources: list[str]) -> str:
    body = "".join(f'  provisioner "file" {{\n    source      = "${{path.root}}/files/{name}"\n'
                   f'    destination = "/tmp/{name}"\n  }}\n' for name in sources)
    return ('source "amazon-ebs" "img" {\n  ami_name = "img"\n}\n\nbuild {\n  sources = ["source.amazon-ebs.img"]\n'
            + body + "}\n")


def _terraform(sources: list[str]) -> str:
    return "".join(f'resource "aws_key_pair" "k{i}" {{\n  public_key = file("${{path.module}}/files/{name}")\n}}\n'
                   for i, name in enumerate(sources))


# configuration kind: (its path in the image folder, its text naming files/<name>)
CONFIGURATIONS = {"packer-json": ("tradr9-packer.json", _packer_json), "packer-hcl": ("main.pkr.hcl", _packer_hcl),
                  "terraform": ("main.tf", _terraform)}


def _marker_claims(kind: str, name: str) -> bool:
    """A `*.pkr.hcl` template is a tier-2 marker: its folder's configuration types (keys among them since over-reads 3)
    are iac by the marker whether or not the template names them."""
    return kind == "packer-hcl" and name.rpartition(".")[2] in CONFIG_EXTENSIONS


@each_case("kind", sorted(CONFIGURATIONS))
@pytest.mark.parametrize("name", UNREAD_TYPES)
def test_a_file_of_an_unread_type_a_configuration_names_is_iac(tmp_path: Path, kind: str, name: str) -> None:
    where, text = CONFIGURATIONS[kind]
    target = f"images/tradr9/files/{name}"
    repo, base, head = two_commits(tmp_path / "repo", {f"images/tradr9/{where}": text([name]), target: "a = 1\n",
                                                       "README.md": "x\n"}, {target: "a = 2\n"})
    found = tree_classify(repo.root, base, head)[target]
    rule = "iac.marker.packer" if _marker_claims(kind, name) else "iac.context.terraform-file"
    assert (found["bucket"], found["rule"]) == ("iac", rule), found
    code, decision = tree_gate(repo.root, base, head)
    assert code == 3, decision


@each_case("kind", sorted(CONFIGURATIONS))
def test_the_same_types_no_configuration_names_stay_src(tmp_path: Path, kind: str) -> None:
    # the configuration names one file; its neighbours of the same types are the project's own
    where, text = CONFIGURATIONS[kind]
    others = {f"images/tradr9/files/other-{name}": "a = 1\n" for name in UNREAD_TYPES}
    repo, base, head = two_commits(tmp_path / "repo", {f"images/tradr9/{where}": text(["ntp.conf"]),
                                                       "images/tradr9/files/ntp.conf": "server a\n", **others},
                                   {path: "a = 2\n" for path in others})
    found = tree_classify(repo.root, base, head)
    assert {path: found[path]["bucket"] for path in others} == {
        path: "iac" if _marker_claims(kind, path) else "src" for path in others}


# 2. A container image's reference is no path. `image_uri = "${local.account}.dkr.ecr.us-west-2.amazonaws.com/
#    lambda_hauliday:${var.lambda_image_tag}"` read as a path whose name is the tag's variable part named every file
#    below the module's folder (nolantcrook/eks_with_gpu_support's module README was iac). A last segment holding a
#    `:` before a variable part is an image's tag; a path with a variable part elsewhere still names its files.
IMAGE_WORDS = ['"${data.aws_caller_identity.current.account_id}.dkr.ecr.us-west-2.amazonaws.com/app:${var.tag}"',
               '"${var.registry}/app:${var.tag}"', '"ghcr.io/acme/app:${var.tag}"',
               '"${local.registry}/acme/app:${var.tag}-${var.arch}"', '"acme/app@sha256:${var.digest}"',
               'format("%s/app:%s", var.registry, var.tag)']


@pytest.mark.parametrize("word", IMAGE_WORDS)
def test_an_image_reference_names_no_file_below_the_module(tmp_path: Path, word: str) -> None:
    config = f'resource "aws_lambda_function" "fn" {{\n  function_name = "fn"\n  image_uri     = {word}\n}}\n'
    others = ["svc/compute/cluster_module/README.md", "svc/compute/docs/notes.md",
              "svc/compute/app/handler.py"]
    repo, base, head = two_commits(tmp_path / "repo", {"svc/compute/lambda.tf": config,
                                                       **{path: "x\n" for path in others}},
                                   {path: "y\n" for path in others})
    found = tree_classify(repo.root, base, head)
    assert {path: found[path]["bucket"] for path in others} == {path: "src" for path in others}


# what a module reads through a variable part is still read (tfrefs' red team 11 words, beside an image's reference)
READ_WORDS = {'templatefile("${path.module}/tpl/${var.name}.sh", {})': "svc/compute/tpl/boot.sh",
              'file("${path.module}/${var.key_file}")': "svc/compute/keys/deploy.pub",
              'file("${path.module}/conf/${var.env}:${var.port}.conf")': "svc/compute/conf/a:1.conf"}


@each_case("word", sorted(READ_WORDS))
def test_a_path_with_a_variable_part_still_names_its_files(tmp_path: Path, word: str) -> None:
    target = READ_WORDS[word]
    config = (f'resource "aws_instance" "vm" {{\n  user_data = {word}\n'
              f'  tags = {{ image = "${{var.registry}}/app:${{var.tag}}" }}\n}}\n')
    repo, base, head = two_commits(tmp_path / "repo", {"svc/compute/main.tf": config, target: "a\n"},
                                   {target: "b\n"})
    assert tree_classify(repo.root, base, head)[target]["bucket"] == "iac"


# 3. Hygen's generator templates (`_templates/<generator>/<action>/*.ejs.t`, front matter `to: <path>`) are text the
#    generator writes into new projects (principle 2), as a Thor `Dockerfile.tt` is: italomaia/hygen-axum-podman-
#    template's `Dockerfile.rust-axum-dev.ejs.t` was iac by its name. Look-alikes: a Dockerfile or workflow that is no
#    Hygen template keeps its bucket.
HYGEN = ["_templates/axum-podman/init/infra/images/Dockerfile.rust-axum-dev.ejs.t",
         "_templates/service/new/Dockerfile.ejs.t", "_templates/service/new/.github/workflows/ci.yml.ejs.t",
         "_templates/service/new/docker-compose.yml.ejs.t", "tools/gen/_templates/chart/new/values.yaml.t",
         "packages/cli/_templates/app/new/Jenkinsfile.ejs.t"]
NOT_HYGEN = {"deploy/Dockerfile.ejs": "iac", "_templates/Dockerfile": "iac", "docker/Dockerfile.rust-axum-dev": "iac",
             ".github/workflows/ci.yml": "ci", "Jenkinsfile": "ci"}


@each_case("path", HYGEN)
def test_a_hygen_template_is_src(rules: RuleSet, path: str) -> None:
    assert (rules.match(path).bucket, rules.match(path).rule) == ("src", "docs.templates"), path


@each_case("path", sorted(NOT_HYGEN))
def test_what_is_no_hygen_template_keeps_its_bucket(rules: RuleSet, path: str) -> None:
    assert rules.match(path).bucket == NOT_HYGEN[path], path


def test_a_hygen_dockerfile_template_is_src_with_the_commits(tmp_path: Path) -> None:
    path = HYGEN[0]
    text = "---\nto: infra/images/Dockerfile.rust-axum-dev\n---\nFROM docker.io/rust:alpine3\n"
    repo, base, head = two_commits(tmp_path / "repo", {"package.json": '{"name": "hygen-axum"}\n'}, {path: text})
    assert tree_classify(repo.root, base, head)[path]["bucket"] == "src"


# 4. A bare file name an installed package's root-only CI definition gives (`make check` names `Makefile`, `./build.sh`
#    names `build.sh`) is that package's file: Travis and GitHub would run the definition from the package's own root,
#    and never run it here at all (vendoredci.py). It was resolved against this repository's root too, so a Go
#    service's root `Makefile` was `ci` because `vendor/github.com/pkg/errors/.travis.yml` runs `make check`
#    (0Hoag/Go-Social-Feed, which has no CI of its own). A name with a folder stays `ci` (the sweep14 round's
#    decision), and what a running definition (the root's, or a vendored one the root Travis file imports) names is
#    `ci` as before.
VENDORED_DEFINITIONS = {
    "go-travis-make": ("vendor/github.com/pkg/errors/.travis.yml", "language: go\nscript:\n  - make check\n",
                       "Makefile"),
    "npm-travis-make": ("node_modules/debug/.travis.yml", "language: node_js\nscript:\n  - make lint\n", "Makefile"),
    "composer-workflow-make": ("vendor/pimple/pimple/.github/workflows/tests.yml",
                               "on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n"
                               "      - run: make test\n", "Makefile"),
    "go-travis-script": ("vendor/github.com/acme/tool/.travis.yml", "language: go\nscript:\n  - ./build.sh\n",
                         "build.sh"),
    "go-travis-gnumake": ("vendor/golang.org/x/sys/.travis.yml", "script: make -j2 all\n", "GNUmakefile"),
}
ROOT_MAKEFILE = "run-api:\n\tgo run cmd/api/main.go\n\nswagger:\n\tswag init\n"


def _vendored_repo(repo: GitRepo, definitions: dict[str, str], root: dict[str, str]) -> None:
    repo.write("go.mod", "module example.invalid/feed\n\ngo 1.22\n")
    repo.write("main.go", "package main\n\nfunc main() {}\n")
    repo.commit("base")
    for path, text in {**definitions, **root}.items():
        repo.write(path, text, mode=0o755 if path.endswith(".sh") else 0o644)
    repo.commit("head")


@each_case("case", sorted(VENDORED_DEFINITIONS))
def test_a_bare_name_a_vendored_definition_gives_is_not_the_roots_file(git_repo: GitRepo, case: str) -> None:
    definition, text, named = VENDORED_DEFINITIONS[case]
    own = f"{definition.split('/.')[0]}/{named}"
    _vendored_repo(git_repo, {definition: text, own: "check:\n\tgo vet ./...\n"},
                   {named: ROOT_MAKEFILE if not named.endswith(".sh") else "#!/bin/sh\ngo build ./...\n"})
    files = tree_files(git_repo)
    assert files[named].bucket == "src", (files[named].rule, files[named].evidence)
    assert files[own].bucket == "deps"


ROOT_RUNS = {
    "root-travis": {".travis.yml": "language: go\nscript:\n  - make check\n"},
    "root-workflow": {".github/workflows/ci.yml": "on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n"
                                                  "      - uses: actions/checkout@v4\n      - run: make check\n"},
    "root-imports-it": {".travis.yml": "language: go\nimport:\n  - vendor/github.com/pkg/errors/.travis.yml\n"},
}


@each_case("case", sorted(ROOT_RUNS))
def test_what_a_running_definition_names_stays_ci(git_repo: GitRepo, case: str) -> None:
    _vendored_repo(git_repo, {"vendor/github.com/pkg/errors/.travis.yml": "language: go\nscript:\n  - make check\n"},
                   {"Makefile": ROOT_MAKEFILE, **ROOT_RUNS[case]})
    assert tree_files(git_repo)["Makefile"].bucket == "ci"


def test_a_name_with_a_folder_a_vendored_definition_gives_stays_ci(git_repo: GitRepo) -> None:
    # the sweep14 round's decision: a vendored definition's name outside its install folder stays ci
    _vendored_repo(git_repo, {"vendor/github.com/acme/tool/.travis.yml": "script:\n  - scripts/release.sh\n"},
                   {"scripts/release.sh": "#!/bin/sh\necho release\n"})
    assert tree_files(git_repo)["scripts/release.sh"].bucket == "ci"


# 5. A top-level `cdk/` folder is an infrastructure folder like `infra/` and `pulumi/` (iac.folders): its notes, lint
#    and test-runner settings and ignore lists are what they are elsewhere. `iac.aws` claimed all of `/cdk/**`
#    before the docs and lint rules (masahide/spot-fleet-7dtd's `cdk/.eslintrc.js`, tankhuu/aws's `cdk/init.md`
#    were iac). Look-alikes: the CDK app's code, settings and synthesised output stay iac, its manifests deps, its
#    tests src.
CDK_FOLDER = {"cdk/init.md": "src", "cdk/docs/architecture.md": "src", "cdk/.eslintrc.js": "other",
              "cdk/jest.config.js": "other", "cdk/.prettierrc": "other", "cdk/.gitignore": "other",
              "cdk/.npmignore": "other",
              # look-alikes
              "cdk/bin/app.ts": "iac", "cdk/lib/network-stack.ts": "iac", "cdk/cdk.json": "iac", "cdk/app.py": "iac",
              "cdk/tsconfig.json": "iac", "cdk/cdk.out/manifest.json": "iac", "cdk/lambda/handler.py": "iac",
              "cdk/package.json": "deps", "cdk/requirements.txt": "deps", "cdk/test/app.test.ts": "src",
              "cdk/README.md": "src", "services/api/cdk/cdk.json": "iac", "cdk.json": "iac"}


@each_case("path", sorted(CDK_FOLDER))
def test_a_top_level_cdk_folder_is_an_infrastructure_folder(rules: RuleSet, path: str) -> None:
    assert rules.match(path).bucket == CDK_FOLDER[path], (path, rules.match(path).rule)


def test_a_file_named_as_an_image_reference_would_be_is_still_named(tmp_path: Path) -> None:
    # fail closed: read as a path, `app:${var.tag}` is a file whose name starts with `app:`
    config = 'resource "aws_instance" "vm" {\n  user_data = file("${path.module}/app:${var.tag}")\n}\n'
    target = "svc/compute/app:v1"
    repo, base, head = two_commits(tmp_path / "repo", {"svc/compute/main.tf": config, target: "a\n",
                                                       "svc/compute/README.md": "x\n"},
                                   {target: "b\n", "svc/compute/README.md": "y\n"})
    found = tree_classify(repo.root, base, head)
    assert (found[target]["bucket"], found["svc/compute/README.md"]["bucket"]) == ("iac", "src")
