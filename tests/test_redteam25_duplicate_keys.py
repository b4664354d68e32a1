"""Red team 25: a key given twice in the gate's own configuration is refused, not read as its last value.

JSON and YAML parsers keep the LAST of two equal keys, silently. In the bundle's `.manifest` a policy switched on
above (`"size": {"default": true}`) and its old entry left below (`"size": {"default": false}`) kept the policy off,
and a change over its limit was allowed (exit 0 on 2fdd260); in `gatekeeper.yaml` a second `enable:` dropped the
first; in `classification-context.yaml` a marker's second `names:` or `claims:` replaced the first. The packet and the
signed envelopes already refused duplicate keys; now these three do too (exit 2, the key and its line), while the
change's own files (a workflow, a manifest under review) are still read as their tools read them.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from bundlecopy import bundle_copy
from conftest import POLICY_DIR
from gitrepo import GitRepo

from gatekeeper.classify.contextrules import read_context_rules
from gatekeeper.classify.rules import RulesError
from gatekeeper.cli import main
from gatekeeper.errors import UsageError
from gatekeeper.policy.bundle import load_bundle
from gatekeeper.project_config import parse_project_config

ERROR, ALLOW, REVIEW = 2, 0, 3


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))


def _manifests() -> list[str]:
    """The shipped manifest with one object's key repeated: each policy's entry, each params group, each param."""
    text = (POLICY_DIR / ".manifest").read_text()
    out = []
    for line in text.splitlines(keepends=True):
        stripped = line.strip()
        if stripped.startswith('"') and ":" in stripped and not stripped.startswith(('"revision"', '"roots"')) \
                and stripped.endswith(","):
            out.append(text.replace(line, line + line, 1))
    return out


def test_every_repeated_manifest_key_is_refused(tmp_path: Path) -> None:
    variants = _manifests()
    refused = 0
    for n, text in enumerate(variants):
        root = bundle_copy(tmp_path / str(n))
        (root / ".manifest").write_text(text)
        try:
            load_bundle(root, git_state=False)
        except Exception as exc:  # noqa: BLE001 - any refusal counts; the message is checked below
            refused += "twice" in str(exc)
    assert len(variants) >= 8 and refused == len(variants), (refused, len(variants))


def test_a_policy_switched_on_above_its_old_entry_stops_the_gate(
        tmp_path: Path, git_repo: GitRepo, capsys: pytest.CaptureFixture[str]) -> None:
    root = bundle_copy(tmp_path)
    manifest = root / ".manifest"
    text = manifest.read_text().replace('"size": {"default": false}', '"size": {"default": true}, '
                                        '"size": {"default": false}')
    manifest.write_text(text.replace('"max_files": 100', '"max_files": 2'))
    git_repo.write("README.md", "base\n")
    git_repo.commit()
    for n in range(3):
        git_repo.write(f"src/m{n}.py", f"X = {n}\n")
    git_repo.git("add", "-A")
    patch, packet = tmp_path / "c.diff", tmp_path / "p.json"
    git_repo.save_patch(patch)
    assert main(["packet", str(patch), "--out", str(packet), "--policy", str(POLICY_DIR)]) == ALLOW
    capsys.readouterr()
    assert main(["gate", str(packet), "--patch", str(patch), "--policy", str(root)]) == ERROR  # 2fdd260: 0 (allow)
    assert "`size` given twice" in capsys.readouterr().err


@pytest.mark.parametrize(("first", "second"), list(itertools.permutations(
    ["enable: [deps]", "enable: []", "disable: [deps]", "timeout: 30"], 2)))
def test_a_setting_given_twice_in_gatekeeper_yaml_is_refused(tmp_path: Path, first: str, second: str) -> None:
    text = f"{first}\nformat: text\n{second}\n"
    key = first.partition(":")[0]
    if key != second.partition(":")[0]:
        parse_project_config(text.encode(), tmp_path / "gatekeeper.yaml", "gatekeeper.yaml")  # distinct keys pass
        return
    with pytest.raises(UsageError) as caught:
        parse_project_config(text.encode(), tmp_path / "gatekeeper.yaml", "gatekeeper.yaml")
    assert f"`{key}` given twice" in str(caught.value) and caught.value.where == "gatekeeper.yaml:3"


@pytest.mark.parametrize("key", ["names", "claims", "whole", "skip", "description"])
def test_a_marker_field_given_twice_in_the_context_rules_is_refused(tmp_path: Path, key: str) -> None:
    root = bundle_copy(tmp_path)
    path = root / "classification-context.yaml"
    text = path.read_text()
    start = text.index("  - id: iac.marker.helm-chart\n")
    line = next(ln for ln in text[start:].splitlines(keepends=True) if ln.startswith(f"    {key}:"))
    at = text.index(line, start)
    path.write_text(text[:at] + line + text[at:])
    with pytest.raises(RulesError) as caught:
        read_context_rules(root)
    assert f"`{key}` given twice" in str(caught.value)
