"""Classes of misses the twenty-eighth label set found (bench/classify_accuracy/twentyeighth.tsv: 60 repositories in
sixteen languages, many repositories and few files each, measured blind first), each with the look-alikes it must
leave alone: Bower's `bower_components/` and libraries copied with their version in the folder name under a root
`lib/` (deps; a first-party `lib/utils/` and Python's `lib/python3.11/` are not), Zig's `.zigversion` pin and
cargo-vet's `supply-chain/` store (deps), the licence banners webpack extracts beside a bundle and a site's funding
manifest list (other), HAProxy's and Babel's settings (other; an image test's `haproxy.cfg` and a Nomad pack's stay
what their tree makes them), funding settings in
`.forgejo/` and `.gitea/` (other, while their workflows stay ci), Porter bundle manifests (iac), Cloudflare's
`cfsetup.yaml` (ci), and a Tiltfile that no longer claims a template of a non-manifest type (a WiX installer's
`vector.wxs.tmpl`: src, while a `configmap.yaml.tmpl` beside it stays iac). The real repository below checks them with
the commits and from the patch."""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from tests.gitrepo import GitRepo
from tests.test_classify_context import assert_path_rule, patch_files, tree_files


@each_case(("path", "bucket", "rule"), [
    # Bower's install folder, at any depth (a Spring Boot admin's static resources, an Angular 1 app)
    ("admin/src/main/resources/static/adminlte/bower_components/font-awesome/fonts/FontAwesome.otf", "deps",
     "deps.vendored"),
    ("app/bower_components/angular/angular.min.js", "deps", "deps.vendored"),
    ("bower.json", "deps", None),  # the manifest keeps its own rule
    ("app/components/bower_like/view.js", "src", None),
    # libraries copied with their version in the folder name under a root lib/, libs/, external/, extern/, contrib/
    ("lib/librdkafka-2.15.0/src/rdkafka.c", "deps", "deps.vendored-nested"),
    ("lib/c-ares-1.34.6/docs/ares_init.3", "deps", "deps.vendored-nested"),
    ("lib/wasm-micro-runtime-WAMR-2.4.1/tests/fuzz/portal/osv-scanner.toml", "deps", "deps.vendored-nested"),
    ("lib/librdkafka-2.15.0/LICENSE.nanopb", "deps", "deps.vendored-nested"),
    ("external/glfw-v3.4/src/window.c", "deps", "deps.vendored-nested"),
    ("contrib/zstd-1.5.6/lib/zstd.h", "deps", "deps.vendored-nested"),
    ("lib/utils/strings.go", "src", None), ("lib/python3.11/site.py", "src", None),
    ("lib/api-v2/handler.go", "src", None),  # a version without a dot is an API generation, not a release copy
    ("src/lib/foo-1.2/x.c", "src", None),  # anchored at the root
    # Zig's version pin and cargo-vet's store
    (".zigversion", "deps", "deps.toolchain.managers"), (".zig-version", "deps", "deps.toolchain.managers"),
    ("supply-chain/imports.lock", "deps", "deps.cargo.vet"), ("supply-chain/audits.toml", "deps", "deps.cargo.vet"),
    ("supply-chain/config.toml", "deps", "deps.cargo.vet"),
    ("docs/supply-chain/imports.lock", "src", None),  # anchored at the root, where cargo-vet keeps its store
    # licence banners webpack's terser plugin extracts, a site's funding manifest list
    ("public/js/build/app.js.LICENSE.txt", "other", "other.governance"),
    ("dist/vendor.mjs.LICENSE.txt", "other", "other.governance"),
    (".well-known/funding-manifest-urls", "other", "other.governance"),
    ("static/.well-known/funding-manifest-urls", "other", "other.governance"),
    ("public/js/build/app.js", "src", None),
    # server settings and tool settings
    ("docker/haproxy/config/haproxy.cfg", "other", "other.app-server-settings"),
    ("haproxy.cfg", "other", "other.app-server-settings"),
    ("rootfs/etc/haproxy/haproxy.cfg", "other", "other.app-server-settings"),
    ("packs/haproxy/haproxy.cfg", "src", None),  # a Nomad pack's copy: its marker claims it with the commits
    (".ci/haproxy/haproxy.cfg", "ci", None),  # a CI folder keeps everything
    ("test/tests/haproxy-basics/haproxy.cfg", "src", None),  # an image test's input
    ("babel.cfg", "other", "other.lint-format"), ("core/admin/babel.cfg", "other", "other.lint-format"),
    ("babel.config.js", "src", None),  # JavaScript's Babel: a build script
    # funding settings in a forge folder; the forge's workflows stay ci
    (".forgejo/FUNDING.yml", "other", "other.forge-community"),
    (".gitea/FUNDING.yaml", "other", "other.forge-community"),
    (".forgejo/workflows/ci.yml", "ci", None), (".gitea/actions/setup/action.yml", "ci", None),
    # Porter bundles and Cloudflare's cfsetup
    ("templates/shared_services/gitea/porter.yaml", "iac", "iac.platforms"),
    ("porter.yaml", "iac", "iac.platforms"), ("docs/porter.md", "src", None),
    ("cfsetup.yaml", "ci", "ci.other-systems"), ("docs/cfsetup.yaml", "src", None),
])
def test_path_rules_of_the_twenty_eighth_round(path: str, bucket: str, rule: str | None) -> None:
    assert_path_rule(path, bucket, rule)


WIX_TEMPLATE = """<?xml version="1.0" encoding="utf-8"?>
<Wix xmlns="http://schemas.microsoft.com/wix/2006/wi">
  <Product Id="*" UpgradeCode="0596ECAA-4D39-48E9-AB23-DA89A85AE67E" Name="Agent" Version="$VERSION"
           Manufacturer="Example" Language="1033">
    <Package InstallerVersion="200" Compressed="yes" InstallScope="perMachine" />
  </Product>
</Wix>
"""
TILTFILE = """load('ext://helm_resource', 'helm_resource')
docker_build('agent', '.', dockerfile='distribution/docker/Dockerfile')
k8s_yaml(local('gomplate -f tilt/agent-configmap.yaml.tmpl'))
"""
PORTER = """schemaVersion: 1.0.0
name: tre-shared-service-wiki
version: 0.4.1
description: "A wiki shared service"
dockerfile: Dockerfile.tmpl
registry: example
mixins:
  - exec
  - terraform:
      clientVersion: "1.9.8"
install:
  - terraform:
      description: "Deploy the shared service"
      vars:
        tre_id: ${ bundle.parameters.tre_id }
"""


def test_the_twenty_eighth_classes_in_a_real_repository(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("README.md", "# an agent with its packaging and deployment\n")
    git_repo.commit("base")
    texts = {
        "Tiltfile": TILTFILE,
        "distribution/msi/agent.wxs.tmpl": WIX_TEMPLATE,  # a Tiltfile's claim no longer reaches it
        "tilt/agent-configmap.yaml.tmpl": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: agent\ndata:\n"
                                          "  level: {{ .Env.LEVEL }}\n",  # a manifest template stays claimed
        "lib/librdkafka-2.15.0/src/rdkafka.c": "int rd_kafka_version(void) { return 0x020f00ff; }\n",
        "web/static/bower_components/jquery/dist/jquery.js": "/*! jQuery v3.7.1 */\n",
        "templates/shared_services/wiki/porter.yaml": PORTER,
        "supply-chain/imports.lock": "# cargo-vet imports lock\n\n[[audits.bytecode-alliance.audits.anyhow]]\n"
                                     'who = "A Reviewer <reviewer@example.com>"\ncriteria = "safe-to-deploy"\n'
                                     'version = "1.0.86"\n',
        ".forgejo/FUNDING.yml": "liberapay: example\n",
        "public/js/build/app.js.LICENSE.txt": "/*!\n * Bootstrap v3.3.4 (http://getbootstrap.com)\n */\n",
    }
    want = {
        "distribution/msi/agent.wxs.tmpl": "src", "tilt/agent-configmap.yaml.tmpl": "iac",
        "lib/librdkafka-2.15.0/src/rdkafka.c": "deps", "web/static/bower_components/jquery/dist/jquery.js": "deps",
        "templates/shared_services/wiki/porter.yaml": "iac", "supply-chain/imports.lock": "deps",
        ".forgejo/FUNDING.yml": "other", "public/js/build/app.js.LICENSE.txt": "other",
    }
    for path, text in texts.items():
        git_repo.write(path, text)
    git_repo.commit("head")
    files = tree_files(git_repo)
    assert {path: files[path].bucket for path in want} == want
    assert files["tilt/agent-configmap.yaml.tmpl"].rule == "iac.marker.deploy-tooling"
    patched = patch_files(git_repo, tmp_path)
    assert {path: patched[path].bucket for path in want if path != "tilt/agent-configmap.yaml.tmpl"} \
        == {path: bucket for path, bucket in want.items() if path != "tilt/agent-configmap.yaml.tmpl"}
