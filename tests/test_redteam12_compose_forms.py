"""Red team 12 (second round): a Compose file in a form the line patterns do not read.

`iac.content.compose` was a line pattern (`^services:` then an indented service with an `image:`/`build:` line).
Compose reads YAML, and JSON is YAML: `docker compose -f deploy/app.json up` runs the same services written as JSON,
in flow style, with quoted keys, with the image through a merge key, or under a comment-only line before the
services. Each form below, under a name no path rule knows, was `src` with the commits and `gate --tree` exit 0 (a
privileged service mounting the host's root); now `iac` (`iac.content.compose`, read as YAML by yamlroots.py).

Not raised: a GitLab job's `services:` list (a list of images, not a mapping of services), an application's
`services:` mapping of URLs.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gitrepo import GitRepo, two_commits
from incli import tree_gate
from tables import each_case
from test_classify_context import tree_files

from gatekeeper.model import ClassifiedFile

SERVICE = {"image": "alpine:3", "privileged": True, "volumes": ["/:/host"]}
FORMS = {
    "json": ("ops/app.json", json.dumps({"services": {"web": SERVICE}}, indent=2)),
    "json-compact": ("ops/app2.json", json.dumps({"name": "x", "services": {"web": SERVICE}})),
    "flow": ("ops/app.yaml", "{services: {web: {image: 'alpine:3', privileged: true, volumes: ['/:/host']}}}\n"),
    "flow-value": ("ops/app2.yaml", "services:\n  web: {image: 'alpine:3', privileged: true}\n"),
    "quoted-keys": ("ops/app3.yaml", '"services":\n  "web":\n    "image": "alpine:3"\n    "privileged": true\n'),
    "merge-key": ("ops/app4.yml", "x-base: &base\n  image: alpine:3\n  privileged: true\nservices:\n  web:\n"
                                  "    <<: *base\n"),
    "build-only": ("ops/app5.yml", "services:\n  web: {build: ., privileged: true}\n"),
}
LEFT = {
    "gitlab-services": ("ops/job.yml", "test:\n  services:\n    - postgres:15\n  script:\n    - make test\n"),
    "app-services": ("ops/settings.json", json.dumps({"services": {"billing": {"url": "https://billing.invalid"}}})),
}


@each_case("form", sorted(FORMS))
def test_a_compose_file_in_any_yaml_form_is_iac(git_repo: GitRepo, form: str) -> None:
    got = _added(git_repo, *FORMS[form])
    assert (got.bucket, got.rule) == ("iac", "iac.content.compose"), (got.rule, got.evidence)


@pytest.mark.parametrize("form", sorted(LEFT))
def test_other_services_keys_keep_their_class(git_repo: GitRepo, form: str) -> None:
    assert _added(git_repo, *LEFT[form]).bucket == "src"


def _added(git_repo: GitRepo, path: str, text: str) -> ClassifiedFile:
    """How `--tree` classifies `path` added with `text` over a one-file base commit."""
    git_repo.write("README.md", "x\n")
    git_repo.commit("base")
    git_repo.write(path, text)
    git_repo.commit("head")
    return tree_files(git_repo)[path]


def test_the_gate_reviews_a_json_compose_edit(tmp_path: Path) -> None:
    old_text = json.dumps({"services": {"web": {"image": "alpine:3"}}}, indent=2)
    repo, old, new = two_commits(tmp_path / "repo", {"ops/app.json": old_text, "README.md": "x\n"},
                                 {"ops/app.json": json.dumps({"services": {"web": SERVICE}}, indent=2)})
    code, decision = tree_gate(repo.root, old, new)
    assert code == 3, decision["reasons"]
