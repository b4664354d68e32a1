"""Classes of misses the fifty-first label set showed (bench/classify_accuracy/fiftyfirst.tsv), one test each:
cloud-init embedded in another machine definition (a Multipass blueprint, an LXD profile), the files a CDK app in the
JVM layout (`src/main/scala/...`, `src/main/java/...`) puts onto its machines, and the files a README's deploy
commands name (a tutorial's Helm values under a generic name)."""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from gatekeeper.classify.docdeploys import named
from gatekeeper.classify.sniff import sniff
from gatekeeper.policy.isolate import run_isolated
from tests.cpucost import assert_linear
from tests.gitrepo import GitRepo
from tests.test_classify_context import RULES, patch_files, tree_files

# canonical/multipass-blueprints' shape: an instance whose cloud-init vendor data boots the VM
_BLUEPRINT = """description: Docker host
version: latest

runs-on:
- x86_64

instances:
  docker:
    image: 24.04
    limits:
      min-cpu: 2
      min-mem: 4G
    timeout: 600
    cloud-init:
      vendor-data: |
        packages:
        - docker.io
        runcmd:
        - usermod -aG docker ubuntu

health-check: |
  multipass exec docker -- docker ps
"""
# LXD's profile YAML (`lxc profile edit`): the configuration key carries the user data
_LXD_PROFILE = """config:
  limits.cpu: "2"
  cloud-init.user-data: |
    #cloud-config
    packages:
    - nginx
description: web servers
devices: {}
name: web
"""
_INCUS_OLD_KEY = "config:\n  'user.user-data': |\n    #cloud-config\n    runcmd: [touch /tmp/ok]\n"


@each_case(("path", "text"), [
    ("v1/docker.yaml", _BLUEPRINT),
    ("v1/minikube.yml", _BLUEPRINT.replace("vendor-data", "user-data")),
    ("profiles/web.yaml", _LXD_PROFILE),
    ("lxd/old-profile.yaml", _INCUS_OLD_KEY),
    ("v1/docker.yaml.j2", _BLUEPRINT),  # a template of one is read as the file it renders
])
def test_cloud_init_embedded_in_a_machine_definition(path: str, text: str) -> None:
    signal = sniff(path, text.encode(), RULES.context)
    assert signal is not None and (signal.bucket, signal.rule) == ("iac", "iac.content.cloud-init-embedded"), signal


@each_case(("path", "text"), [
    # an application's settings naming cloud-init as a word, or user data of another kind
    ("config/app.yaml", "features:\n  cloud-init: enabled\nuser-data: /srv/data\n"),
    ("settings.yaml", "cloud-init:\n  enabled: true\n  timeout: 30\nuser-data: x\n"),
    # a docs site's navigation and a chart's values that mention the words in other keys
    ("mkdocs.yml", "nav:\n  - cloud-init: docs/cloud-init.md\n  - user-data: docs/user-data.md\n"),
    ("values.yaml", "vm:\n  cloudInit: true\n  userData: ''\n"),
    # a JSON file is not read for this shape
    ("blueprint.json", '{"instances": {"a": {"cloud-init": {"vendor-data": "x"}}}}'),
])
def test_embedded_cloud_init_look_alikes_keep_their_bucket(path: str, text: str) -> None:
    signal = sniff(path, text.encode(), RULES.context)
    assert signal is None or signal.rule != "iac.content.cloud-init-embedded", signal


_SCALA_STACK = """package me.example.server

import software.amazon.awscdk.services.ec2._
import software.constructs.Construct

class GameServer(scope: Construct, id: String) extends Construct(scope, id) {
  // InitFile.fromFileInline("/etc/x", "src/main/resources/ec2/commented.service") is a comment
  val init = CloudFormationInit.fromElements(
    InitFile.fromFileInline("/etc/systemd/system/game.service", "src/main/resources/ec2/game.service"),
    InitCommand.shellCommand("systemctl enable game.service"))
}
"""
_JAVA_STACK = """package com.myorg;

import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.s3.assets.Asset;

public class AppStack extends Stack {
    public AppStack(final Construct scope, final String id) {
        super(scope, id);
        Asset nginx = new Asset(this, "Nginx", AssetProps.builder().path("assets/nginx.conf").build());
    }
}
"""
_SCALA_SPEC = """package me.example.server

import software.amazon.awscdk.services.ec2._

class GameServerSpec {
  val f = InitFile.fromFileInline("/tmp/x", "src/test/resources/fixture.service")
}
"""


def test_files_a_jvm_cdk_app_puts_onto_its_machines(git_repo: GitRepo, tmp_path: Path) -> None:
    """ericljiang/valheim-server-cdk-app's layout: `cdk.json` at the root, the stacks five folders down below
    `src/main/scala/`, the unit file below `src/main/resources/`. With the commits the unit file (and the Java app's
    asset) is iac; a file only a comment or a test names, and a resource nothing names, keep their bucket; a patch
    alone shows no program and raises nothing."""
    git_repo.write("cdk.json", '{"app": "sbt run"}\n')
    git_repo.write("build.sbt", 'libraryDependencies += "software.amazon.awscdk" % "aws-cdk-lib" % "2.100.0"\n')
    git_repo.write("src/main/scala/me/example/server/compute/GameServer.scala", _SCALA_STACK)
    git_repo.write("src/test/scala/me/example/server/GameServerSpec.scala", _SCALA_SPEC)
    git_repo.write("java-app/cdk.json", '{"app": "mvn -e -q compile exec:java"}\n')
    git_repo.write("java-app/src/main/java/com/myorg/AppStack.java", _JAVA_STACK)
    units = ("src/main/resources/ec2/game.service", "src/main/resources/ec2/commented.service",
             "src/main/resources/ec2/unused.service", "src/test/resources/fixture.service")
    for path in units:
        git_repo.write(path, "[Unit]\nDescription=game\n[Service]\nExecStart=/usr/bin/docker start -a game\n")
    git_repo.write("java-app/assets/nginx.conf", "events {}\n")
    git_repo.commit("base")
    for path in units:
        git_repo.write(path, "[Unit]\nDescription=game\n[Service]\nExecStart=/usr/bin/docker start -a game2\n")
    git_repo.write("java-app/assets/nginx.conf", "events { worker_connections 64; }\n")
    git_repo.commit("head")
    files = tree_files(git_repo)
    for path in ("src/main/resources/ec2/game.service", "java-app/assets/nginx.conf"):
        assert (files[path].bucket, files[path].rule) == ("iac", "iac.context.cdk-asset"), files[path]
    assert "GameServer.scala" in files["src/main/resources/ec2/game.service"].evidence
    for path in ("src/main/resources/ec2/commented.service", "src/main/resources/ec2/unused.service",
                 "src/test/resources/fixture.service"):
        assert files[path].rule != "iac.context.cdk-asset", files[path]
    patched = patch_files(git_repo, tmp_path)
    assert all(item.rule != "iac.context.cdk-asset" for item in patched.values()), patched


def test_a_jvm_program_outside_a_cdk_app_is_not_read(git_repo: GitRepo) -> None:
    """No `cdk.json` above it: the same Scala program names nothing (no other program is read)."""
    git_repo.write("src/main/scala/me/example/server/compute/GameServer.scala", _SCALA_STACK)
    git_repo.write("src/main/resources/ec2/game.service", "[Unit]\nDescription=game\n")
    git_repo.commit("base")
    git_repo.write("src/main/resources/ec2/game.service", "[Unit]\nDescription=game 2\n")
    git_repo.commit("head")
    files = tree_files(git_repo)
    assert files["src/main/resources/ec2/game.service"].rule != "iac.context.cdk-asset", files


# hashicorp-education/learn-consul-kubernetes' api-gateway/local/README.md, in our words
_TUTORIAL = """# Local API gateway

1. Create the cluster: `kind create cluster --config=kind/cluster.yaml`
1. Install Consul with these values:

    ```shell-session
    $ helm install --values consul/config.yaml consul hashicorp/consul --namespace consul
    ```

1. Deploy the services: `kubectl apply --filename two-services/`
1. Apply the gateway:

    ```
    kubectl apply -f api-gw/gateway.yaml && kubectl apply -f https://example.com/crds.yaml
    ```

The file `notes/prose.yaml` explains more; kubectl apply -f notes/other.yaml in prose is no command.
"""


def test_readme_deploy_commands_name_paths() -> None:
    got = named("api-gateway/local/README.md", _TUTORIAL.encode())
    for path in ("api-gateway/local/consul/config.yaml", "consul/config.yaml", "api-gateway/local/api-gw/gateway.yaml",
                 "api-gateway/local/two-services"):
        assert path in got, got
    assert not any(p.endswith(("prose.yaml", "other.yaml", "crds.yaml")) for p in got), got
    assert named("api-gateway/local/GUIDE.md", _TUTORIAL.encode()) == ()  # only README documents are read
    assert named("README.md", b"# app\n\nRun `make deploy`.\n") == ()


def test_files_a_readme_tells_its_reader_to_deploy(git_repo: GitRepo, tmp_path: Path) -> None:
    """With the commits: the Helm values and the manifest the README's commands name are iac (the values under a name
    no rule knows); a file only the prose names, a file in a folder the README names (a folder claims nothing), and a
    file of another folder's same name keep their bucket. A README in test data is not read. A patch alone shows no
    README and raises nothing."""
    git_repo.write("api-gateway/local/README.md", _TUTORIAL)
    git_repo.write("api-gateway/local/consul/config.yaml", "global:\n  name: consul\n  datacenter: dc1\n")
    git_repo.write("api-gateway/local/api-gw/gateway.yaml", "listeners: []\n")
    git_repo.write("api-gateway/local/notes/prose.yaml", "note: a\n")
    git_repo.write("api-gateway/local/two-services/settings.cfg", "[a]\nb = 1\n")
    git_repo.write("other/consul/config.yaml", "global:\n  name: app\n")
    git_repo.write("testdata/README.md", "```\nhelm install x ./c -f fixture/values.yaml\n```\n")
    git_repo.write("testdata/fixture/values.yaml", "a: 1\n")
    git_repo.commit("base")
    edits = {"api-gateway/local/consul/config.yaml": "global:\n  name: consul\n  datacenter: dc2\n",
             "api-gateway/local/api-gw/gateway.yaml": "listeners: [{port: 8443}]\n",
             "api-gateway/local/notes/prose.yaml": "note: b\n",
             "api-gateway/local/two-services/settings.cfg": "[a]\nb = 2\n",
             "other/consul/config.yaml": "global:\n  name: app2\n",
             "testdata/fixture/values.yaml": "a: 2\n"}
    for path, text in edits.items():
        git_repo.write(path, text)
    git_repo.commit("head")
    files = tree_files(git_repo)
    for path in ("api-gateway/local/consul/config.yaml", "api-gateway/local/api-gw/gateway.yaml"):
        assert (files[path].bucket, files[path].rule) == ("iac", "iac.context.doc-deployed"), files[path]
        assert "api-gateway/local/README.md tells its reader to deploy" in files[path].evidence
    for path in ("api-gateway/local/notes/prose.yaml", "api-gateway/local/two-services/settings.cfg",
                 "other/consul/config.yaml", "testdata/fixture/values.yaml"):
        assert files[path].rule != "iac.context.doc-deployed", files[path]
    patched = patch_files(git_repo, tmp_path)
    assert all(item.rule != "iac.context.doc-deployed" for item in patched.values()), patched


def test_a_readme_renamed_away_still_names_what_it_deployed(git_repo: GitRepo) -> None:
    """Both trees are read: a change that renames the README away and edits the values it named keeps them iac."""
    git_repo.write("lab/README.md", "```\nhelm upgrade --install web charts/web -f env/prod.yaml\n```\n")
    git_repo.write("lab/env/prod.yaml", "replicas: 2\n")
    git_repo.commit("base")
    git_repo.git("mv", "lab/README.md", "lab/NOTES.txt")
    git_repo.write("lab/env/prod.yaml", "replicas: 20\n")
    git_repo.commit("head")
    files = tree_files(git_repo)
    assert (files["lab/env/prod.yaml"].bucket, files["lab/env/prod.yaml"].rule) == ("iac", "iac.context.doc-deployed")


# The README reader's regexes (fences with a back-reference, inline spans, prompts) on hostile READMEs: generated
# shapes at two sizes, CPU in a child (no wall clock); a quadratic reading would cost 16 times for 4 times the text.
HOSTILE_READMES = {
    "unclosed fences": "```\nhelm install web -f a.yaml\n",
    "tilde fences": "~~~~\n",
    "open backticks": "`helm install -f a.yaml ",
    "double backticks": "``kubectl apply -f x.yaml` ",
    "prompts": "$ kubectl apply -f x.yaml\n",
    "rst literal": "::\n\n    helm install web -f v.yaml\n",
}


def _readme_cost(unit: str) -> tuple[float, float]:
    """`assert_linear` at 32 and 128 KiB (512 far) in a child: this child of a big pytest worker would otherwise pay
    for a garbage collection walking the worker's heap (11 times the small size's CPU once in `make test`, 4 times
    alone)."""
    def read(data: bytes) -> None:
        named("docs/README.md", data)

    return assert_linear(read, lambda size: (unit * (size * 2 // len(unit))).encode(), budget=1.0, floor=0.05)


@each_case("shape", list(HOSTILE_READMES))
def test_a_hostile_readme_is_read_in_linear_time(shape: str) -> None:
    run_isolated(_readme_cost, HOSTILE_READMES[shape], timeout=120)
