"""Classes of misses a twenty-second label set found (bench/classify_accuracy/twentysecond.tsv: 60 repositories, breadth
with infrastructure under ordinary names, measured blind first), each with the look-alikes it must leave alone:
GoReleaser settings named `.goreleaser.<part>.yml` (ci), a Go version pin named `GO_VERSION` (deps), tflint's
`.tflint.hcl` (other, not HCL configuration), developer tools' settings by name (Cluster API's
`clusterctl-settings.json`, JetBrains' HTTP client environments, the OSS Review Toolkit's `.ort.yml` and `.ort/`,
License Finder's decisions) and OpenSSH's `sshd_config` (other), a documentation site's pages named like governance
files (`docs/**/contributing.rst`, `license.mdx`: src, keeping the guardrail tag), test projects a test builds
(`test-project/`, `test/**/projects/`: src, not the repository's dependencies) and test assets (`test_assets/`,
`testfiles/`: src), a reckoner course (iac, by content),
and the files a NixOS or home-manager configuration reads by path literal (`builtins.readFile ./kitty`: iac). The real
repository below checks them with the commits and from the patch."""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from gatekeeper.classify.platformshapes import platform_shape
from gatekeeper.classify.sniff import sniff
from gatekeeper.classify.tfrefs import is_configuration, names_in
from tests.gitrepo import GitRepo
from tests.test_classify_context import RULES, patch_files, tree_files


@each_case(("path", "bucket"), [
    # GoReleaser settings split by purpose (a Homebrew tap's, a nightly's) are the release job's too
    (".goreleaser.brew.yml", "ci"), (".goreleaser.nightly.yaml", "ci"), ("goreleaser.pro.yml", "ci"),
    (".goreleaser.yml", "ci"), ("docs/goreleaser.md", "src"),
    # a Go version pin the Makefile and Dockerfile read
    ("GO_VERSION", "deps"), (".go-version", "deps"), ("docs/go_version.md", "src"),
    # tflint's settings are a linter's, not infrastructure; other HCL stays iac; in .github/linters CI decides
    (".tflint.hcl", "other"), ("modules/vpc/.tflint.hcl", "other"), (".github/linters/.tflint.hcl", "ci"),
    ("terragrunt.hcl", "iac"), ("vars.pkr.hcl", "iac"),
    # developer tools' settings by name
    ("clusterctl-settings.json", "other"), ("proxmox/cluster/ha/resources/http-client.env.json", "other"),
    ("http-client.private.env.json", "other"), (".ort.yml", "other"), (".ort/config/config.yml", "other"),
    ("doc/dependency_decisions.yml", "other"), (".license/dependency_decisions.yml", "other"),
    ("docs/ort/config.yml", "src"), ("settings.json", "src"),
    # OpenSSH's server settings by the name only sshd reads; a role's template of it stays iac
    ("azure-vote/sshd_config", "other"), ("roles/ssh/templates/sshd_config.j2", "iac"), ("ssh_config.md", "src"),
    # a documentation site's pages named like governance files are pages; the files themselves stay governance
    ("docs/contributing.rst", "src"), ("docs/getting_started/contributing.rst", "src"),
    ("docs/configuration/security.md", "src"), ("doc/reference/dune-project/license.rst", "src"),
    ("apps/docs/content/docs/self-hosting/configuration/license.mdx", "src"),
    ("CONTRIBUTING.md", "other"), ("SECURITY.md", "other"), ("docs/LICENSE", "other"), ("docs/AUTHORS.txt", "other"),
    ("docs/CODE_OF_CONDUCT.md", "other"), (".github/CONTRIBUTING.md", "other"),
    # test projects a test builds are test data, not the repository's dependencies
    ("containers/clojure/test-project/project.clj", "src"), ("src/dotnet/test-project/aspnetapp.csproj", "src"),
    ("test/maven/projects/hello-maven-settings/pom.xml", "src"), ("test/dotnet/projects/net6.0/app.csproj", "src"),
    ("core/test/data/test-projects/helm/Chart.yaml", "iac"),
    # ... but the test suite's own dependencies, and a project folder outside a test tree, are not
    ("test/requirements.txt", "deps"), ("tests/package.json", "deps"), ("projects/app/pom.xml", "deps"),
    ("test-projectile/package.json", "deps"),
    # test assets and files under the folder names tests give them
    ("pkg/config/test_assets/config_test_unknown.yaml", "src"), ("e2e_playwright/test_assets/sintel-short.webm", "src"),
    ("backend/googlephotos/testfiles/rclone-test-image2.jpg", "src"), ("tests/test_files/frame.csv", "src"),
    ("test_assets.py", "src"), ("assets/logo.png", "other"),
])
def test_path_rules_of_the_twenty_second_round(path: str, bucket: str) -> None:
    assert RULES.match(path).bucket == bucket, RULES.match(path)


def test_pages_named_like_governance_keep_the_guardrail_tag() -> None:
    assert "guardrail" in RULES.match("docs/contributing.rst").tags
    assert RULES.match("docs/contributing.rst").rule == "src.docs-named-like-governance"


COURSE = """repository: stable
namespace: demo
minimum_versions:
  helm: 2.13.1
  reckoner: 1.4.0
repositories:
  fairwinds-stable:
    url: https://charts.fairwinds.com/stable
charts:
  vpa:
    namespace: vpa
    version: "0.1.0"
    repository: fairwinds-stable
"""
COURSE_V2 = """schema: v2
namespace: infra
namespace_management:
  default:
    metadata:
      labels:
        team: platform
charts:
  cert-manager:
    repository: jetstack
    version: v1.14.0
"""
# look-alikes: an umbrella chart's list of subcharts, an app's settings naming a minimum version, a docs page
CHART = """apiVersion: v2
name: umbrella
charts:
  - name: web
minimum_versions:
  kubernetes: 1.25
"""
APP_SETTINGS = """minimum_versions:
  client: 2.0
  reckoner_ui: 1
features:
  charts: true
"""


@each_case(("name", "text", "bucket"), [
    ("course.yml", COURSE, "iac"), ("infra/course.yaml", COURSE_V2, "iac"),
    ("Chart.yaml", CHART, None), ("config/app.yaml", APP_SETTINGS, None), ("docs/course.md", COURSE, None),
])
def test_reckoner_courses_by_content(name: str, text: str, bucket: str | None) -> None:
    shape = platform_shape(name.rpartition("/")[2], text)
    assert (shape[0] if shape else None) == bucket, (name, shape)
    signal = sniff(name, text.encode(), RULES.context)
    assert (signal is not None and signal.rule == "iac.content.reckoner-course") == (bucket == "iac"), (name, signal)


HOME_MANAGER = """{ config, lib, pkgs, ... }:

{
  home.stateVersion = "18.09";
  home.packages = [ pkgs.ripgrep ];
  # ./old-kitty is not read any more
  /* xdg.configFile."x".source = ./unused; */
  home.file."rectangle/RectangleConfig.json".text = builtins.readFile ./RectangleConfig.json;
  xdg.configFile."nvim".source = ./nvim;
  programs.kitty = {
    enable = true;
    extraConfig = builtins.readFile ./kitty;
  };
  imports = [ ../common/fonts.nix ];
  home.sessionVariables.DOCS = "https://example.invalid/./guide";
}
"""
PACKAGE = """{ lib, stdenv }:
stdenv.mkDerivation {
  pname = "tool";
  version = "1.0";
  src = ./.;
  patches = [ ./fix-build.patch ];
}
"""


def test_machine_configurations_read_their_path_literals() -> None:
    named = names_in("users/me/home-manager.nix", HOME_MANAGER)
    assert {"users/me/RectangleConfig.json", "users/me/kitty", "users/me/nvim", "users/common/fonts.nix"} <= named.files
    assert named.reaches("users/me/nvim/init.lua") is not None  # a folder literal: every file below it
    assert named.reaches("users/me/old-kitty") is None and named.reaches("users/me/unused") is None  # comments
    assert named.reaches("users/me/guide") is None  # a URL's tail
    # only a machine's configuration by its names, and only when its content is one
    assert is_configuration("hosts/web/configuration.nix") and is_configuration("home.nix")
    assert not is_configuration("pkgs/tool/default.nix") and not is_configuration("manifests/stable/1.77.2.nix")
    assert names_in("home.nix", PACKAGE).files == frozenset()


def test_the_twenty_second_classes_in_a_real_repository(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("README.md", "# dotfiles and demo\n")
    git_repo.commit("base")
    texts = {
        # home-manager installs the settings its configuration reads by path literal
        "users/me/home-manager.nix": HOME_MANAGER,
        "users/me/kitty": "font_size 12.0\n",
        "users/me/RectangleConfig.json": '{"bundleId": "com.knollsoft.Rectangle"}\n',
        "users/me/nvim/coc-settings.json": "{\"suggest.noselect\": true}\n",
        "users/me/jujutsu.toml": '[user]\nname = "me"\n',  # named by nothing: stays src
        # a package's expression names its sources, not a machine's settings
        "pkgs/tool/default.nix": PACKAGE,
        "pkgs/tool/fix-build.patch": "--- a/x\n+++ b/x\n",
        # a reckoner course under an ordinary name
        "hack/kind/course.yml": COURSE,
        # a test project the image tests build
        "containers/node/test-project/package.json": '{"name": "test-project", "dependencies": {"express": "4"}}\n',
        # a config loader's test input shaped like a Kubernetes object is a test's asset
        "pkg/config/test_assets/config_test_unknown.yaml": "apiVersion: k3d.io/v1alpha2\nkind: Unknown\nfoo: bar\n",
        "package.json": '{"name": "demo", "devDependencies": {"jest": "29"}}\n',
    }
    want = {
        "users/me/kitty": "iac", "users/me/RectangleConfig.json": "iac", "users/me/nvim/coc-settings.json": "iac",
        # a package derivation's patch is no machine configuration (not iac); a committed patch is deps (sweep12)
        "users/me/jujutsu.toml": "src", "pkgs/tool/fix-build.patch": "deps", "hack/kind/course.yml": "iac",
        "containers/node/test-project/package.json": "src", "package.json": "deps",
        "pkg/config/test_assets/config_test_unknown.yaml": "iac",  # test data lowers deps only
    }
    for path, text in texts.items():
        git_repo.write(path, text)
    git_repo.commit("head")
    files = tree_files(git_repo)
    assert {path: files[path].bucket for path in want} == want
    assert files["users/me/kitty"].rule == "iac.context.nix-file"
    assert "users/me/home-manager.nix" in files["users/me/kitty"].evidence
    assert files["hack/kind/course.yml"].rule == "iac.content.reckoner-course"
    # the patch adds every file whole: the configuration that names them is in the patch too
    patched = patch_files(git_repo, tmp_path)
    assert {path: patched[path].bucket for path in want} == want
