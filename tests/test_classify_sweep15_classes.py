"""Classes of the recall misses left across the 32 labelled sets (the sweep15 round), each with the look-alikes it
must leave alone:

- A CDK cloud assembly's stack templates (`iac.cdk-assembly-templates`): integ-runner keeps the assembly each
  integration test synthesises in a `*.snapshot/` folder beside the test (`integ.<name>.js.snapshot/`, the older
  `<name>.integ.snapshot/`) and fails the test when a fresh synthesis differs; `cdk synth` writes the same assembly to
  `cdk.out/`. Every `<stack id>.template.json` there is a CloudFormation template, also the one of a stack without
  resources (an empty assertion stack holds only the bootstrap-version parameter and its rule), which the content
  tier reads as plain JSON. The assembly's other files (its manifest, tree, asset lists) and a Jest `__snapshots__/`
  folder are not claimed.
- The scripts of a Puppet environment (`iac.marker.puppet-environment-scripts`): environment.conf's `config_version`
  names a script the Puppet server runs for every catalog it compiles (Puppet's environment.conf reference: a relative
  path is the environment's), and Puppet's control-repo template keeps those scripts in `scripts/`
  (`config_version.sh`, which runs `config_version-r10k.rb` or `config_version-rugged.rb`). The marker claims that
  folder; a `scripts/` folder without an environment.conf (an application's, a Puppet module's) is not claimed.

The real repositories below checks them with the commits and from the patch."""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from tests.gitrepo import GitRepo
from tests.test_classify_context import assert_path_rule, patch_files, tree_files


@each_case(("path", "bucket", "rule"), [
    # CloudFormation templates of a CDK cloud assembly: integ-runner snapshots and cdk synth's output
    ("test/integ/agent-mem.integ.snapshot/AgentMemoryTestIntegDefaultTestDeployAssertA6B9969F.template.json", "iac",
     "iac.cdk-assembly-templates"),
    ("packages/core/test/integ.bucket.js.snapshot/aws-cdk-s3-bucket.template.json", "iac",
     "iac.cdk-assembly-templates"),
    ("test/integ.pipeline.js.snapshot/assembly-Prod/ProdServiceStack.template.json", "iac",
     "iac.cdk-assembly-templates"),
    ("cdk.out/NetworkStack.template.json", "iac", "iac.cdk-assembly-templates"),
    ("infra/cdk.out/assembly-Beta/BetaApi.nested.template.json", "iac", "iac.cdk-assembly-templates"),
    # look-alikes: the assembly's other files, Jest snapshots, an app's own templates named so
    ("test/integ/agent-mem.integ.snapshot/integ.json", "src", None),
    ("test/integ/agent-mem.integ.snapshot/manifest.json", "src", None),
    ("test/integ/agent-mem.integ.snapshot/AgentMemoryTest.assets.json", "src", None),
    ("test/__snapshots__/stack.template.json", "src", "testdata.folders"),
    ("src/templates/invoice.template.json", "src", "src.default"),
    ("docs/snapshot/report.template.json", "src", None),
    ("test/fixtures/app.snapshot/Stack.template.json", "iac", "iac.cdk-assembly-templates"),  # test data: deps only
])
def test_path_rules_of_the_sweep15_round(path: str, bucket: str, rule: str | None) -> None:
    assert_path_rule(path, bucket, rule)


# The template CDK synthesises for a stack with no resources of its own (an integ test's assertion stack).
EMPTY_STACK = """{
 "Parameters": {
  "BootstrapVersion": {
   "Type": "AWS::SSM::Parameter::Value<String>",
   "Default": "/cdk-bootstrap/hnb659fds/version",
   "Description": "Version of the CDK Bootstrap resources in this environment. [cdk:skip]"
  }
 },
 "Rules": {
  "CheckBootstrapVersion": {
   "Assertions": [
    {
     "Assert": {"Fn::Not": [{"Fn::Contains": [["1", "2", "3", "4", "5"], {"Ref": "BootstrapVersion"}]}]},
     "AssertDescription": "CDK bootstrap stack version 6 required."
    }
   ]
  }
 }
}
"""

QUEUE_STACK = """{
 "Resources": {
  "OrdersQueue4B1A3C2D": {
   "Type": "AWS::SQS::Queue",
   "Properties": {"VisibilityTimeout": 300},
   "UpdateReplacePolicy": "Delete",
   "DeletionPolicy": "Delete"
  }
 }
}
"""

INTEG_MANIFEST = """{
 "version": "36.0.0",
 "testCases": {
  "OrdersIntegTest/DefaultTest": {
   "stacks": ["orders-integ"],
   "assertionStack": "OrdersIntegTest/DefaultTest/DeployAssert",
   "assertionStackName": "OrdersIntegTestDefaultTestDeployAssert1F2E3D4C"
  }
 }
}
"""

INTEG_TEST = """import * as cdk from 'aws-cdk-lib';
import { IntegTest } from '@aws-cdk/integ-tests-alpha';
import { OrdersStack } from '../../src';

const app = new cdk.App();
const stack = new OrdersStack(app, 'orders-integ');
new IntegTest(app, 'OrdersIntegTest', { testCases: [stack] });
"""

# An application's own template named the same way, outside any assembly: a mail template, not infrastructure.
APP_TEMPLATE = '{"subject": "Your order {{orderId}}", "body": "Thanks, {{name}}!"}\n'


def test_the_sweep15_classes_in_a_real_repository(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("README.md", "# a construct library with integration tests\n")
    git_repo.write("package.json", '{"name": "orders-constructs", "version": "1.0.0"}\n')
    git_repo.write("src/index.ts", "export class OrdersStack {}\n")
    git_repo.commit("base")
    snap = "test/integ/orders.integ.snapshot"
    git_repo.write("test/integ/integ.orders.ts", INTEG_TEST)
    git_repo.write(f"{snap}/OrdersIntegTestDefaultTestDeployAssert1F2E3D4C.template.json", EMPTY_STACK)
    git_repo.write(f"{snap}/orders-integ.template.json", QUEUE_STACK)
    git_repo.write(f"{snap}/integ.json", INTEG_MANIFEST)
    git_repo.write("src/templates/order.template.json", APP_TEMPLATE)
    git_repo.write("src/templates/empty.template.json", EMPTY_STACK)  # the same bytes outside an assembly
    git_repo.commit("head")
    want = {
        f"{snap}/OrdersIntegTestDefaultTestDeployAssert1F2E3D4C.template.json": "iac",
        f"{snap}/orders-integ.template.json": "iac",
        f"{snap}/integ.json": "src",
        "src/templates/order.template.json": "src",
        "src/templates/empty.template.json": "src",
    }
    files = tree_files(git_repo)
    assert {path: files[path].bucket for path in want} == want
    assert files[f"{snap}/OrdersIntegTestDefaultTestDeployAssert1F2E3D4C.template.json"].rule == \
        "iac.cdk-assembly-templates"
    patched = patch_files(git_repo, tmp_path)
    assert {path: patched[path].bucket for path in want} == want


ENVIRONMENT_CONF = """modulepath     = site-modules:modules:$basemodulepath
config_version = 'scripts/config_version.sh $environmentpath $environment'
"""

CONFIG_VERSION_SH = """#!/bin/sh
# Prints the version of the environment's code for each catalog the server compiles.
if [ -e "$1/$2/.r10k-deploy.json" ]; then
  ruby "$1/$2/scripts/config_version-r10k.rb" "$1" "$2"
else
  git --git-dir "$1/$2/.git" rev-parse HEAD
fi
"""

CONFIG_VERSION_RB = """require 'json'
deploy = JSON.parse(File.read(File.join(ARGV[0], ARGV[1], '.r10k-deploy.json')))
puts "#{deploy['signature'][0, 12]} by #{deploy['deployed_by']}"
"""

SITE_PP = "node default {\n  include role::example\n}\n"


def test_a_puppet_environments_scripts_in_a_real_repository(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("environment.conf", ENVIRONMENT_CONF)
    git_repo.write("hiera.yaml", "---\nversion: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n")
    git_repo.write("manifests/site.pp", SITE_PP)
    git_repo.write("tools/web/scripts/build.sh", "#!/bin/sh\nnpm run build\n")
    git_repo.write("tools/web/package.json", '{"name": "web"}\n')
    git_repo.commit("base")
    git_repo.write("scripts/config_version.sh", CONFIG_VERSION_SH)
    git_repo.write("scripts/config_version-r10k.rb", CONFIG_VERSION_RB)
    git_repo.write("tools/web/scripts/build.sh", "#!/bin/sh\nnpm ci\nnpm run build\n")
    git_repo.commit("head")
    files = tree_files(git_repo)
    assert {path: files[path].bucket for path in files} == {
        "scripts/config_version.sh": "iac",
        "scripts/config_version-r10k.rb": "iac",
        "tools/web/scripts/build.sh": "src",  # a scripts/ folder of another project, below no environment.conf
    }
    assert files["scripts/config_version.sh"].rule == "iac.marker.puppet-environment-scripts"


def test_a_scripts_folder_without_an_environment_conf_is_not_claimed(git_repo: GitRepo, tmp_path: Path) -> None:
    # A Puppet module's (its metadata.json and manifests/init.pp, no environment) and an application's scripts/.
    git_repo.write("metadata.json", '{"name": "acme-ntp", "version": "1.0.0", "dependencies": []}\n')
    git_repo.write("manifests/init.pp", "class ntp {\n  package { 'chrony': ensure => installed }\n}\n")
    git_repo.write("hiera.yaml", "---\nversion: 5\n")
    git_repo.commit("base")
    git_repo.write("scripts/release.rb", "puts File.read('metadata.json')\n")
    git_repo.commit("head")
    files = tree_files(git_repo)
    assert files["scripts/release.rb"].bucket == "src"
    patched = patch_files(git_repo, tmp_path)
    assert patched["scripts/release.rb"].bucket == "src"


def test_from_a_patch_a_puppet_script_is_claimed_when_the_patch_shows_the_environment(git_repo: GitRepo,
                                                                                       tmp_path: Path) -> None:
    git_repo.write("README.md", "# control repository\n")
    git_repo.commit("base")
    git_repo.write("environment.conf", ENVIRONMENT_CONF)
    git_repo.write("scripts/config_version.sh", CONFIG_VERSION_SH)
    git_repo.commit("head")
    patched = patch_files(git_repo, tmp_path)
    assert patched["scripts/config_version.sh"].bucket == "iac"
    assert patched["scripts/config_version.sh"].rule == "iac.marker.puppet-environment-scripts"
