"""Classes the seventy-ninth label set's blind run showed (bench/classify_accuracy/seventyninth.tsv).

1. A file a configuration names by path, of a type no tier reads. A Packer template's file provisioner uploads
   `files/client.cnf`, `files/configure-mariadb.exp`, `files/docker.service`, `files/jail.local` onto the image; a
   Terraform module reads `file("${path.module}/keys/deploy.pub")`. The fast path of `refine` passed over every file
   whose type no tier reads (unreadpaths.py) before the configurations were asked, so these stayed `src` (crouchr/
   packer's `tradr9/files/configure-mariadb.exp`), while a `.conf` beside them, a type the fast path lets through,
   was `iac`. Now a file the configurations name is never passed over. Look-alikes: the same types that no
   configuration names stay `src`.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gitrepo import two_commits
from incli import tree_classify, tree_gate
from tables import each_case

# Real-shaped names of files provisioners upload and modules read (crouchr/packer's tradr9/files/, cloud keys)
UNREAD_TYPES = ["client.cnf", "configure-mariadb.exp", "docker.service", "jail.local", "99-sysctl.rules",
                "nginx.vhost", "deploy.pub", "release.gpg"]


def _packer_json(sources: list[str]) -> str:
    provisioners = [{"type": "file", "source": f"files/{name}", "destination": f"/tmp/{name}"} for name in sources]
    return json.dumps({"builders": [{"type": "virtualbox-iso", "vm_name": "tradr9"}],
                      "provisioners": provisioners}, indent=2) + "\n"


def _packer_hcl(sources: list[str]) -> str:
    body = "".join(f'  provisioner "file" {{\n    source      = "${{path.root}}/files/{name}"\n'
                   f'    destination = "/tmp/{name}"\n  }}\n' for name in sources)
    return ('source "amazon-ebs" "img" {\n  ami_name = "img"\n}\n\nbuild {\n  sources = ["source.amazon-ebs.img"]\n'
            + body + "}\n")


def _terraform(sources: list[str]) -> str:
    return "".join(f'resource "aws_key_pair" "k{i}" {{\n  public_key = file("${{path.module}}/files/{name}")\n}}\n'
                   for i, name in enumerate(sources))


# configuration kind: (its path in the image folder, its text naming files/<name>)
CONFIGURATIONS = {"packer-json": ("tradr9-packer.json", _packer_json), "packer-hcl": ("main.pkr.hcl", _packer_hcl),
                  "terraform": ("main.tf", _terraform)}


@each_case("kind", sorted(CONFIGURATIONS))
@pytest.mark.parametrize("name", UNREAD_TYPES)
def test_a_file_of_an_unread_type_a_configuration_names_is_iac(tmp_path: Path, kind: str, name: str) -> None:
    where, text = CONFIGURATIONS[kind]
    target = f"images/tradr9/files/{name}"
    repo, base, head = two_commits(tmp_path / "repo", {f"images/tradr9/{where}": text([name]), target: "a = 1\n",
                                                       "README.md": "x\n"}, {target: "a = 2\n"})
    found = tree_classify(repo.root, base, head)[target]
    assert (found["bucket"], found["rule"]) == ("iac", "iac.context.terraform-file"), found
    code, decision = tree_gate(repo.root, base, head)
    assert code == 3, decision


@each_case("kind", sorted(CONFIGURATIONS))
def test_the_same_types_no_configuration_names_stay_src(tmp_path: Path, kind: str) -> None:
    # the configuration names one file; its neighbours of the same types are the project's own
    where, text = CONFIGURATIONS[kind]
    others = {f"images/tradr9/files/other-{name}": "a = 1\n" for name in UNREAD_TYPES}
    repo, base, head = two_commits(tmp_path / "repo", {f"images/tradr9/{where}": text(["ntp.conf"]),
                                                       "images/tradr9/files/ntp.conf": "server a\n", **others},
                                   {path: "a = 2\n" for path in others})
    found = tree_classify(repo.root, base, head)
    assert {path: found[path]["bucket"] for path in others} == {path: "src" for path in others}
