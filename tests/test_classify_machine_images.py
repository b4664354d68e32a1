"""Machine images and stacks no path rule names: Packer's JSON templates and OpenStack Heat templates under any
name are iac by content, with the commits (`--tree`) and from the patch alone; Elastic Beanstalk's
`Dockerrun.aws.json` and Vercel's older `now.json` by name. Each signal has a look-alike it must leave alone."""

from __future__ import annotations

from pathlib import Path

from gatekeeper.classify.sniff import sniff
from tests.gitrepo import GitRepo
from tests.test_classify_context import RULES, patch_files, tree_files

PACKER = """\
{
  "variables": {"region": "eu-west-1"},
  "builders": [
    {
      "type": "amazon-ebs",
      "region": "{{user `region`}}",
      "source_ami_filter": {"filters": {"name": "ubuntu/images/*22.04*"}, "owners": ["099720109477"]},
      "instance_type": "t3.small",
      "ssh_username": "ubuntu",
      "ami_name": "web-{{timestamp}}"
    }
  ],
  "provisioners": [{"type": "shell", "script": "scripts/setup.sh"}]
}
"""
PACKER_DOCKER = """\
{"builders": [{"type": "docker", "image": "debian:12", "commit": true}],
 "post-processors": [{"type": "docker-tag", "repository": "acme/base", "tags": ["latest"]}]}
"""
# A build tool's settings with a `builders` list of typed objects, and nothing of Packer's.
BUILDERS_LOOKALIKE = '{"builders": [{"type": "esbuild", "entry": "src/index.ts"}], "outDir": "dist"}\n'

HEAT = """\
heat_template_version: 2021-04-16
description: A web server and its port
parameters:
  image:
    type: string
resources:
  server:
    type: OS::Nova::Server
    properties:
      image: { get_param: image }
      flavor: m1.small
"""
HEAT_JSON = '{"heat_template_version": "2018-08-31", "resources": {"net": {"type": "OS::Neutron::Net"}}}\n'
# A document that talks about Heat without being a template.
HEAT_LOOKALIKE = "notes:\n  - heat_template_version is the first key of a Heat template\nowner: platform\n"

FILES = {
    "images/web.json": PACKER,
    "build/base-image.json": PACKER_DOCKER,
    "stacks/web.yaml": HEAT,
    "stacks/net.json": HEAT_JSON,
    "Dockerrun.aws.json": '{"AWSEBDockerrunVersion": "1", "Image": {"Name": "nginx:1.25"}}\n',
    "now.json": '{"version": 2, "builds": [{"src": "index.js", "use": "@vercel/node"}]}\n',
}
LOOKALIKES = {"web/build.json": BUILDERS_LOOKALIKE, "docs/heat.yaml": HEAT_LOOKALIKE,
              "web/now.json": '{"now": "2024-01-01"}\n'}


def repo_with_images(repo: GitRepo) -> None:
    repo.write("README.md", "# images\n")
    repo.commit("base")
    for path, text in {**FILES, **LOOKALIKES}.items():
        repo.write(path, text)
    repo.commit("images and stacks")


def test_packer_and_heat_templates_are_iac_with_the_commits_and_from_the_patch(
    git_repo: GitRepo, tmp_path: Path,
) -> None:
    repo_with_images(git_repo)
    for files in (tree_files(git_repo), patch_files(git_repo, tmp_path)):
        assert {path: files[path].bucket for path in FILES} == dict.fromkeys(FILES, "iac")
        assert {path: files[path].bucket for path in LOOKALIKES} == dict.fromkeys(LOOKALIKES, "src")


def test_each_content_signal_names_its_rule_and_the_line_it_saw() -> None:
    for path, text, rule in (("a/web.json", PACKER, "iac.content.packer"),
                             ("a/base.json", PACKER_DOCKER, "iac.content.packer"),
                             ("a/web.yaml", HEAT, "iac.content.heat"),
                             ("a/net.json", HEAT_JSON, "iac.content.heat")):
        signal = sniff(path, text.encode(), RULES.context)
        assert signal is not None and (signal.bucket, signal.rule) == ("iac", rule), (path, signal)
        assert signal.evidence.strip(), path
    for path, text in (("a/build.json", BUILDERS_LOOKALIKE), ("a/heat.yaml", HEAT_LOOKALIKE)):
        assert sniff(path, text.encode(), RULES.context) is None, path
