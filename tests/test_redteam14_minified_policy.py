"""Red team 14, second round, `--tree`: an IAM policy document written on one line was `src`.

The content tier reads an IAM policy (the policy language's one version `2012-10-17` and a `Statement` list: it
grants access, so it is `iac`) by its keys at a line's start — the way YAML and pretty-printed JSON write them. The
same policy minified (`{"Version":"2012-10-17","Statement":[…]}`, as `jq -c`, Terraform's `jsonencode` output or
the AWS console's copy write it) matched nothing: under `--tree` it was `src` and `gate` with the default policies
allowed a policy widened to `"Action": "*"` (exit 0; from a patch it needed context). A key after `{` or `,` counts
now. Controls: JSON holding the version without a statement, a package.json, stay `src`.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from incli import classify_and_gate

NARROW = [{"Effect": "Allow", "Action": "s3:GetObject", "Resource": "arn:aws:s3:::assets/*"}]
WIDE = [{"Effect": "Allow", "Action": "*", "Resource": "*"}]
TRUST = [{"Effect": "Allow", "Principal": {"Service": "ec2.amazonaws.com"}, "Action": "sts:AssumeRole"}]
TRUST_WIDE = [{"Effect": "Allow", "Principal": {"AWS": "*"}, "Action": "sts:AssumeRole"}]


def _compact(document: dict[str, object]) -> str:
    return json.dumps(document, separators=(",", ":")) + "\n"


ATTACKS = {
    "compact": ("ops/policy.json", _compact({"Version": "2012-10-17", "Statement": NARROW}),
                _compact({"Version": "2012-10-17", "Statement": WIDE})),
    "spaced one line": ("ops/policy.json", json.dumps({"Version": "2012-10-17", "Statement": NARROW}) + "\n",
                        json.dumps({"Version": "2012-10-17", "Statement": WIDE}) + "\n"),
    "statement first": ("iam/role.json", _compact({"Statement": NARROW, "Version": "2012-10-17"}),
                        _compact({"Statement": WIDE, "Version": "2012-10-17"})),
    "with an id": ("config/bucket-policy.json", _compact({"Id": "p1", "Version": "2012-10-17", "Statement": NARROW}),
                   _compact({"Id": "p1", "Version": "2012-10-17", "Statement": WIDE})),
    "trust policy": ("roles/trust.json", _compact({"Version": "2012-10-17", "Statement": TRUST}),
                     _compact({"Version": "2012-10-17", "Statement": TRUST_WIDE})),
}
CONTROLS = {
    "a version without a statement": ("data/release.json", _compact({"Version": "2012-10-17", "Notes": "a"}),
                                      _compact({"Version": "2012-10-17", "Notes": "b"})),
    "a package manifest": ("web/manifest.json", _compact({"name": "a", "version": "1.0.0"}),
                           _compact({"name": "a", "version": "1.0.1"})),
}


def _tree(tmp_path: Path, path: str, old: str, new: str) -> tuple[str, str]:
    buckets, decision = classify_and_gate(tmp_path / "repo", {"README.md": "app\n", path: old}, {path: new})
    return buckets[path], decision["outcome"]


@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_a_minified_policy_is_infrastructure(tmp_path: Path, name: str) -> None:
    assert _tree(tmp_path, *ATTACKS[name]) == ("iac", "review")


@pytest.mark.parametrize("name", sorted(CONTROLS))
def test_other_json_stays_source(tmp_path: Path, name: str) -> None:
    assert _tree(tmp_path, *CONTROLS[name]) == ("src", "allow")
