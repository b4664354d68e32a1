"""Red team 25: a param the manifest sets with the wrong JSON type must fail closed.

`"max_files": null` (a threshold blanked) or `[2]` in the manifest's `params.size`: regopy orders a number below null,
a boolean or an array (OPA above them), so `input.summary.files > max_files` never holds and `size.files` never fires:
a 3-file change was allowed with the size policy on (exit 0 on 2fdd260). A quoted `"2"` failed closed only by luck
(regopy puts a number above every string, OPA below; the message's `%d` then stopped the evaluation). A param is
read through `lib.param(data.gatekeeper.params, [path], fallback)`; now a manifest value whose JSON type differs
from the fallback's (a number's, a string's, a boolean's, an array's, an object's) stops the gate at the call
(exit 2), as a misspelt param name does.
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import Any

import pytest
from bundlecopy import bundle_copy
from conftest import POLICY_DIR
from gitrepo import GitRepo

from gatekeeper.cli import main
from gatekeeper.policy.bundle import load_bundle
from gatekeeper.policy.field_check import field_issues
from gatekeeper.policy.param_types import param_issues
from gatekeeper.testing.rego_source import blank

ERROR, ALLOW, REVIEW = 2, 0, 3
_CALL = re.compile(r'param\(data\.gatekeeper\.params, \[([^\]]*)\], ([^)\n]+)\)')
WRONG: dict[str, list[Any]] = {"number": ["100", True, [100], {"n": 1}, None], "string": [2, False, ["minor"], None],
                               "boolean": ["true", 1, [True], {"b": True}, None]}


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))


def _calls() -> list[tuple[str, int, list[str], Any]]:
    """(policy file, line, param path, fallback) of every lib.param call of the shipped bundle with a literal one."""
    out = []
    for path in sorted(POLICY_DIR.glob("*/policy.rego")):
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if (hit := _CALL.search(line)) is not None:
                try:
                    fallback = json.loads(hit.group(2))
                except ValueError:
                    continue  # a rule's value (default_metadata_hosts): no literal type
                out.append((f"{path.parent.name}/policy.rego", n, json.loads(f"[{hit.group(1)}]"), fallback))
    return out


def _issues(params: dict[str, Any]) -> list[str]:
    """The param-type issues of the shipped modules under `params` (param_issues alone: the rest of the field check
    reads no param's value)."""
    modules = _modules()
    return [f"{Path(i.file).parent.name}/{Path(i.file).name}:{i.line}: {i.message}"
            for i in param_issues(modules, {name: blank(text) for name, text in modules.items()}, params)]


@functools.cache
def _modules() -> dict[str, str]:
    return dict(load_bundle(POLICY_DIR, git_state=False).modules)


def test_every_wrongly_typed_param_is_refused_at_its_call() -> None:
    calls = _calls()
    assert len(calls) >= 4
    refused = total = 0
    for file, line, path, fallback in calls:
        kind = "boolean" if isinstance(fallback, bool) else "number" if isinstance(fallback, int | float) else "string"
        for wrong in WRONG[kind] if isinstance(fallback, int | float | str) else []:
            params: dict[str, Any] = {}
            node = params
            for key in path[:-1]:
                node = node.setdefault(key, {})
            node[path[-1]] = wrong
            found = _issues(params)
            total += 1
            refused += len(found) == 1 and found[0].startswith(f"{file}:{line}:")
        assert _issues({path[0]: {path[1]: fallback}}) == []  # the right type passes
    assert refused == total and total >= 15, (refused, total)


def test_the_shipped_manifest_passes() -> None:
    bundle = load_bundle(POLICY_DIR, git_state=False)
    assert [i for i in field_issues(bundle.modules, bundle.data()) if "param" in i.message] == []


@pytest.mark.parametrize("value", [None, [2]])
def test_a_mistyped_threshold_stops_the_gate_that_allowed_a_large_change(
        tmp_path: Path, git_repo: GitRepo, capsys: pytest.CaptureFixture[str], value: Any) -> None:
    root = bundle_copy(tmp_path)
    manifest = json.loads((root / ".manifest").read_text())
    manifest["metadata"]["params"]["size"]["max_files"] = value
    (root / ".manifest").write_text(json.dumps(manifest))
    git_repo.write("README.md", "base\n")
    git_repo.commit()
    for n in range(3):
        git_repo.write(f"src/m{n}.py", f"X = {n}\n")
    git_repo.git("add", "-A")
    patch, packet = tmp_path / "c.diff", tmp_path / "p.json"
    git_repo.save_patch(patch)
    assert main(["packet", str(patch), "--out", str(packet), "--policy", str(POLICY_DIR)]) == ALLOW
    capsys.readouterr()
    code = main(["gate", str(packet), "--patch", str(patch), "--policy", str(root), "--enable", "size"])
    assert code == ERROR, capsys.readouterr().out  # 2fdd260: 0 (allow)
    assert "params.size.max_files" in capsys.readouterr().err
    manifest["metadata"]["params"]["size"]["max_files"] = 2
    (root / ".manifest").write_text(json.dumps(manifest))
    assert main(["gate", str(packet), "--patch", str(patch), "--policy", str(root), "--enable", "size"]) == REVIEW
