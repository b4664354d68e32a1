"""Classes of misses a twentieth label set found (bench/classify_accuracy/twentieth.tsv: 60 repositories, Heat and
TripleO, Juju, PaaS tools, GitOps, Terraform providers, mobile and JVM/.NET apps), measured blind first, each with the
look-alikes it must leave alone: fastlane's settings files beside its Fastfile (ci) and its store listing's text
(src, not a copyright notice), Docker Hub's automated-build hooks (ci; git's hyphenated hooks stay other), a Puppet
manifest under any name by its content (a Heat software config's, not Pascal's `.pp`), `_fixtures/` in test trees,
source code named after a Dockerfile, documentation pages and header templates named like a licence, and names that are
`other` (changie, markdownlint's `.mdl_config.yaml`, adr-tools, modd, PostgreSQL's settings, a THIRD-PARTY notice,
the Supabase CLI's local state). The real repository below checks them with the commits and from the patch."""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from gatekeeper.classify.shapes import shape
from tests.gitrepo import GitRepo
from tests.test_classify_context import RULES, patch_files, tree_files


@each_case(("path", "bucket"), [
    # fastlane: the Fastfile's lanes and the settings its actions read are CI; its store listing is the app's text
    ("fastlane/Appfile", "ci"), ("fastlane/Matchfile", "ci"), ("ios/fastlane/Gymfile", "ci"),
    ("fastlane/Fastfile", "ci"), ("fastlane/metadata/copyright.txt", "src"),
    ("fastlane/metadata/android/en-US/full_description.txt", "src"), ("fastlane/Pluginfile", "deps"),
    ("COPYRIGHT.txt", "other"),
    # Docker Hub's automated-build hooks beside a Dockerfile; git's hooks (hyphenated) stay other
    ("hooks/build", "ci"), ("hooks/post_push", "ci"), ("docker/hooks/pre_build", "ci"),
    ("hooks/pre-commit", "other"), ("hooks/init.py", "src"),
    # test data folders named _fixtures inside test trees; outside a test tree the lock stays deps
    ("test/e2e/bundle/_fixtures/complex/.helm/requirements.lock", "src"),
    ("tests/_fixtures/app/package.json", "src"), ("_fixtures/requirements.lock", "deps"),
    # source code named after a Dockerfile is code; the Dockerfiles themselves stay iac
    ("cli/azd/pkg/project/dockerfile_builder.go", "src"), ("tools/dockerfile-gen.py", "src"),
    ("Dockerfile_builder", "iac"), ("Dockerfile-dev", "iac"), ("Dockerfile.go-builder", "iac"),
    # pages and templates named like a licence; the licences themselves stay other
    ("docs/license-scanning.md", "src"), ("hack/license-template.txt", "src"), ("hack/license-header.txt", "src"),
    ("LICENSE-MIT", "other"), ("LICENSE-APACHE.txt", "other"), ("docs/LICENSE", "other"),
    # other by name
    (".changie.yaml", "other"), (".mdl_config.yaml", "other"), (".adr-dir", "other"), ("docs/modd.conf", "other"),
    ("internal/testserver/datastore/config/postgres.conf", "other"), ("docker/postgresql.conf", "other"),
    ("THIRD-PARTY", "other"), ("Tests/IntegrationTests/supabase/.branches/_current_branch", "other"),
    ("supabase/.temp/cli-latest", "other"), ("supabase/migrations/20240101_init.sql", "src"),
])
def test_path_rules_of_the_twentieth_round(path: str, bucket: str) -> None:
    assert RULES.match(path).bucket == bucket, RULES.match(path)


def test_a_postgres_settings_file_an_ansible_role_renders_stays_iac() -> None:
    assert RULES.match("roles/db/templates/postgresql.conf.j2").bucket == "iac"


PUPPET_FILE = "file { 'barfile':\n    ensure  => file,\n    mode    => '0644',\n    content => \"$::foo\",\n}\n"
PUPPET_CLASS = "class profile::web (\n  String $root = '/srv',\n) {\n  include nginx\n}\n"
PUPPET_NODE = "node 'web1.example.com' {\n  include role::web\n}\n"
PASCAL_PROGRAM = "program Hello;\n{ prints a greeting }\nbegin\n  writeln('Hello');\nend.\n"
PASCAL_UNIT = ("unit Shapes;\ninterface\ntype\n  TShape = class(TObject)\n    class function Make: TShape;\n  end;\n"
               "implementation\nclass function TShape.Make: TShape;\nbegin\n  Result := TShape.Create;\nend;\nend.\n")


@each_case(("name", "text", "bucket"), [
    ("example-puppet-manifest.pp", PUPPET_FILE, "iac"), ("web.pp", PUPPET_CLASS, "iac"),
    ("site-nodes.pp", PUPPET_NODE, "iac"), ("hello.pp", PASCAL_PROGRAM, None), ("shapes.pp", PASCAL_UNIT, None),
    # the shape is asked of `.pp` files only: a Ruby hash or a Perl file with `=>` is no manifest
    ("notes.txt", PUPPET_FILE, None),
])
def test_a_puppet_manifest_by_its_content(name: str, text: str, bucket: str | None) -> None:
    found = shape(name, text)
    assert (found[0] if found else None) == bucket, found


def test_the_puppet_shape_is_not_slowed_by_long_lines() -> None:
    # a name of a megabyte after `class`, and many long `node` lines without a brace: bounded spans, no quadratic scan
    assert shape("x.pp", "class " + "a" * 1_000_000) is None
    assert shape("x.pp", ("node " + "b" * 5000 + "\n") * 200) is None


def test_the_twentieth_classes_in_a_real_repository(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("README.md", "# stack\n")
    git_repo.commit("base")
    texts = {
        "hot/software-config/config-scripts/example-puppet-manifest.pp": PUPPET_FILE,
        "tools/pascal/hello.pp": PASCAL_PROGRAM,
        "fastlane/Fastfile": "lane :beta do\n  build_app\nend\n",
        "fastlane/Appfile": 'app_identifier("com.example.app")\n',
        "fastlane/metadata/copyright.txt": "2024 Example Ltd\n",
        "hooks/build": "#!/bin/sh\ndocker build --build-arg=VERSION=$DOCKER_TAG -t $IMAGE_NAME .\n",
        "test/e2e/apply/_fixtures/state0/.helm/requirements.lock": "dependencies:\n- name: sub\n  version: 0.1.0\n",
        "pkg/project/dockerfile_builder.go": "package project\n\n// FROM lines are written by Build.\n",
    }
    want = {
        "hot/software-config/config-scripts/example-puppet-manifest.pp": "iac", "tools/pascal/hello.pp": "src",
        "fastlane/Fastfile": "ci", "fastlane/Appfile": "ci", "fastlane/metadata/copyright.txt": "src",
        "hooks/build": "ci", "test/e2e/apply/_fixtures/state0/.helm/requirements.lock": "src",
        "pkg/project/dockerfile_builder.go": "src",
    }
    for path, text in texts.items():
        git_repo.write(path, text)
    git_repo.commit("head")
    files = tree_files(git_repo)
    assert {path: files[path].bucket for path in want} == want
    assert files["hot/software-config/config-scripts/example-puppet-manifest.pp"].rule == "iac.content.puppet"
    # the patch adds the manifest whole: its content decides without the commits too
    patched = patch_files(git_repo, tmp_path)
    assert {path: patched[path].bucket for path in want} == want
    # an edit that shows only a hunk of the manifest is still read whole from the commits
    git_repo.write("hot/software-config/config-scripts/example-puppet-manifest.pp", PUPPET_FILE + "# owner: ops\n")
    git_repo.commit("edit")
    assert tree_files(git_repo)["hot/software-config/config-scripts/example-puppet-manifest.pp"].bucket == "iac"
