"""Classes of misses a sixteenth label set found (bench/classify_accuracy/sixteenth.tsv: 63 repositories chosen for
breadth, as the held-out sets are), measured blind first, each with the look-alikes it must leave alone: Nomad jobs
under other names (`nomad.job`), OS installer answer files (Debian preseed, Red Hat kickstart), Consul service
definitions, helmfile's `*.yaml.gotmpl` templates, HashiCorp's release pipeline settings (`.release/ci.hcl`),
pre-commit's alternative settings files, an `etc/ci/` script folder, vendored code's own test data and the Blazor
templates' vendored CSS libraries, and tool settings that are `other` by name (Ameba, Orchestra Testbench, cross,
Eclipse, `CITATION.cff`, a Numbers spreadsheet). The new `other` names are lowerings: content still raises a manifest
saved under one of them (the attack test below). The real repository below checks the content classes with the
commits and from the patch alone."""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from gatekeeper.classify.sniff import sniff
from tests.gitrepo import GitRepo
from tests.test_classify_context import RULES, patch_files, tree_files


@each_case(("path", "bucket"), [
    # HashiCorp's release pipeline settings (crt-workflows): CI, not HashiCorp configuration; other .hcl stays iac
    (".release/ci.hcl", "ci"), (".release/release-metadata.hcl", "ci"), (".release/security-scan.hcl", "ci"),
    (".release/linux/package/etc/nomad.d/nomad.hcl", "iac"), ("deploy/ci.hcl", "iac"), ("ci.hcl", "iac"),
    # pre-commit's alternative settings files (`pre-commit run -c ...`)
    (".pre-commit-config-non-nix.yaml", "ci"), (".pre-commit-config.ci.yml", "ci"), (".pre-commit-config.yaml", "ci"),
    (".pre-commit-hooks.yaml", "src"), ("docs/pre-commit-config.md", "src"),
    # etc/ci/ is a CI script folder, as tools/ci/ and build/ci/ are; a ci/ package in source is not
    ("etc/ci/before_deploy.sh", "ci"), ("etc/ci/run.sh", "ci"), ("src/etc/ci/client.go", "src"),
    ("etc/config.yaml", "src"),
    # helmfile's values and state templates
    ("releases/values/gateway.yaml.gotmpl", "iac"), ("config/datadog.yml.gotmpl", "iac"),
    ("helmfile.yaml.gotmpl", "iac"), ("README.md.gotmpl", "src"), ("templates/main.go.gotmpl", "src"),
    # vendored code's own test data is vendored code; a vendor/ folder inside test data stays test data
    ("vendor/github.com/onsi/gomega/matchers/test_data/xml/sample_02.xml", "deps"),
    ("vendor/github.com/go-openapi/spec/fixtures/expansion/schemas1.json", "deps"),
    # a vendored module's test Dockerfile: test data yields to ci/iac before the copy (classes56; never lowers)
    ("vendor/github.com/x/y/testdata/Dockerfile", "iac"), ("lib/_vendor/pkg/tests/data.json", "deps"),
    ("testdata/mod/vendor/github.com/x/y/y.go", "src"), ("pkg/testdata/input.json", "src"),
    (".github/actions/x/vendor/lib/testdata/action.yml", "ci"),
    # ... but Helm renders a chart's templates wherever they sit: in a vendor/ folder, or vendored (vendir)
    ("charts/web/templates/vendor/lib/test/hook.yaml", "iac"),
    ("vendor/charts/web/templates/tests/test-connection.yaml", "iac"),
    # the Blazor templates' vendored client libraries under wwwroot/css/
    ("App/wwwroot/css/open-iconic/font/fonts/open-iconic.ttf", "deps"),
    ("App/wwwroot/css/open-iconic/ICON-LICENSE", "deps"),
    ("App/wwwroot/css/bootstrap/bootstrap.min.css", "deps"), ("App/wwwroot/css/site.css", "src"),
    # other by name: tool settings, editor project files at the root, citation metadata, a spreadsheet
    (".ameba.yml", "other"), ("testbench.yaml", "other"), ("Cross.toml", "other"), (".project", "other"),
    (".classpath", "other"), ("CITATION.cff", "other"), ("setup/benchmarks/Storage.numbers", "other"),
    ("test/java/.classpath", "src"), ("config/testbench.yaml", "src"), ("src/citation.py", "src"),
    # a manifest folder's YAML stays the Kubernetes rules' whatever its name
    ("deploy/testbench.yaml", "iac"),
])
def test_path_rules_of_the_sixteenth_round(path: str, bucket: str) -> None:
    assert RULES.match(path).bucket == bucket, RULES.match(path)


NOMAD_JOB = """\
job "gitea" {
  region      = var.region
  datacenters = ["dc1"]
  type        = "service"

  group "web" {
    task "gitea" {
      driver = "docker"
    }
  }
}
"""
JOB_DSL = "job('seed') {\n  steps {\n    shell('make')\n  }\n}\n"  # a Jenkins Job DSL script: parentheses
SLURM = "#!/bin/bash\n#SBATCH --job-name=train\n#SBATCH --time=01:00:00\nsrun python train.py\n"
PRESEED = """\
choose-mirror-bin mirror/http/proxy string
d-i apt-setup/use_mirror boolean true
d-i base-installer/kernel/override-image string linux-server
d-i passwd/root-password password vagrant
"""
KICKSTART = """\
lang en_US.UTF-8
keyboard us
rootpw --plaintext vagrant
bootloader --location=mbr
clearpart --all --initlabel
autopart

%packages
@core
%end
"""
PRESEED_PROSE = "Preseeding answers the installer's questions, e.g. d-i with a question and a type.\n"
PACKAGE_LIST = "%packages\n@core\nvim\n%end\n"  # a kickstart fragment with no disk or boot-loader command
CONSUL_SERVICE = """\
{
  "Service": {
    "Name": "beefcake",
    "ID": "beefcake-instance-1",
    "Port": 80,
    "Check": {
      "HTTP": "http://192.168.50.208:80",
      "Interval": "10s"
    }
  }
}
"""
CONSUL_SERVICES = ('{"services": [{"name": "web", "port": 80, "checks": [{"args": ["/bin/check"], '
                   '"interval": "30s"}]}]}\n')
APP_SETTINGS = '{\n  "service": {\n    "name": "billing",\n    "port": 8080\n  },\n  "interval": "10s"\n}\n'


def test_each_content_signal_names_its_rule_and_the_line_it_saw() -> None:
    for path, text, rule in (("nomad_jobs/misc/gitea/nomad.job", NOMAD_JOB, "iac.content.nomad-job"),
                             ("jobs/web.nomad.j2", NOMAD_JOB, "iac.content.nomad-job"),
                             ("debian11/http/preseed.cfg", PRESEED, "iac.content.installer-answers"),
                             ("rhel9/http/ks.cfg", KICKSTART, "iac.content.installer-answers"),
                             ("http/centos.ks", KICKSTART, "iac.content.installer-answers"),
                             ("services/beefcake.json", CONSUL_SERVICE, "iac.content.consul-service"),
                             ("consul/web.json", CONSUL_SERVICES, "iac.content.consul-service")):
        signal = sniff(path, text.encode(), RULES.context)
        assert signal is not None and (signal.bucket, signal.rule) == ("iac", rule), (path, signal)
        assert signal.evidence.strip() not in ("", "{"), path
    for path, text in (("jobs/seed.job", JOB_DSL), ("cluster/train.job", SLURM), ("docs/preseed.txt", PRESEED_PROSE),
                       ("packages.cfg", PACKAGE_LIST), ("config/app.json", APP_SETTINGS)):
        found = sniff(path, text.encode(), RULES.context)
        assert found is None or found.bucket not in ("ci", "iac"), (path, found)


def test_the_sixteenth_classes_in_a_real_repository(git_repo: GitRepo, tmp_path: Path) -> None:
    # a homelab adds its files: each is seen whole, with the commits and in the patch
    git_repo.write("README.md", "# homelab\n")
    git_repo.commit("base")
    want = {"nomad_jobs/misc/gitea/nomad.job": ("iac", NOMAD_JOB), "boxes/debian11/http/preseed.cfg": ("iac", PRESEED),
            "boxes/rhel9/http/ks.cfg": ("iac", KICKSTART), "services/beefcake.json": ("iac", CONSUL_SERVICE),
            "config/app.json": ("src", APP_SETTINGS), "cluster/train.job": ("src", SLURM),
            "jobs/seed.job": ("src", JOB_DSL)}
    for path, (_, text) in want.items():
        git_repo.write(path, text)
    git_repo.commit("head")
    buckets = {path: bucket for path, (bucket, _) in want.items()}
    for files in (tree_files(git_repo), patch_files(git_repo, tmp_path)):
        assert {path: files[path].bucket for path in want} == buckets
    # a later edit of the Nomad job: the commits read the whole file
    git_repo.write("nomad_jobs/misc/gitea/nomad.job", NOMAD_JOB.replace('"service"', '"batch"'))
    git_repo.commit("edit")
    assert tree_files(git_repo)["nomad_jobs/misc/gitea/nomad.job"].rule == "iac.content.nomad-job"


# The sixteenth round's new `other` names, then the seventeenth's.
@each_case("path", [".ameba.yml", "testbench.yaml", ".project", ".markdown-lint.yml",
                                  ".chglog/config.yml", ".dredd/dredd.local.yml",
                                  ".github/.well-known/funding-manifest-urls"])
def test_a_manifest_saved_under_a_new_other_name_is_still_reviewed(
        git_repo: GitRepo, tmp_path: Path, path: str) -> None:
    # the new `other` names lower a file by name only: a Kubernetes object or a workflow written into one is raised
    git_repo.write("README.md", "# app\n")
    git_repo.write(path, "rules: {}\n")
    git_repo.commit("base")
    git_repo.write(path, "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: agent\nspec:\n  template: {}\n")
    git_repo.commit("head")
    assert tree_files(git_repo)[path].bucket == "iac"
    assert patch_files(git_repo, tmp_path)[path].bucket == "iac"
