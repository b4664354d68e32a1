"""Review 66b: a held rule set (classify/ruleset.py) or bundle (policy/bundle_cache.py) is given back only for the
folder's current bytes. Attacks: edits that keep size and mtime, overlays added, removed, renamed (case only too), a
symlinked rules file swapped, a bundle past HELD_BYTES. Truth: the rule set a fresh process would build."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from gatekeeper.classify.contextrules import context_bytes
from gatekeeper.classify.rules import bytes_digest, rules_bytes
from gatekeeper.classify.ruleset import combined_digest, load_rules
from gatekeeper.policy import bundle as bundle_module
from gatekeeper.policy.bundle import bundle_digest, load_bundle

ROOT = Path(__file__).resolve().parent.parent
OVERLAY = ("rules:\n  - id: site.ops\n    bucket: iac\n    description: our ops scripts deploy\n"
           "    before: docs.readme\n    match: ['/ops/**']\n")


def _fresh_digest(folder: Path) -> str:
    return combined_digest(bytes_digest(rules_bytes(folder)), context_bytes(folder))


def _same_size_same_mtime(path: Path, old: bytes, new: bytes) -> None:
    assert len(old) == len(new)
    status = path.stat()
    path.write_bytes(new)
    os.utime(path, ns=(status.st_atime_ns, status.st_mtime_ns))


def _flip_byte(name: str) -> Callable[[Path], None]:
    def edit(folder: Path) -> None:
        path = folder / name
        old = path.read_bytes()
        at = old.index(b"#") if b"#" in old else len(old) - 2  # a comment's byte: same size, still valid
        new = old[:at + 1] + (b"X" if old[at + 1:at + 2] != b"X" else b"Y") + old[at + 2:]
        _same_size_same_mtime(path, old, new)
    return edit


def _overlay_add(folder: Path) -> None:
    (folder / "classification.d").mkdir(exist_ok=True)
    (folder / "classification.d" / "site.yaml").write_text(OVERLAY)


def _overlay_remove(folder: Path) -> None:
    (folder / "classification.d" / "site.yaml").unlink()


def _overlay_rename(folder: Path) -> None:
    (folder / "classification.d" / "site.yaml").rename(folder / "classification.d" / "zz.yaml")


def _overlay_case(folder: Path) -> None:
    (folder / "classification.d" / "site.yaml").rename(folder / "classification.d" / "Site.yaml")


def _overlay_hidden(folder: Path) -> None:
    (folder / "classification.d" / "site.yaml").rename(folder / "classification.d" / ".site.yaml")


def _symlink_swap(folder: Path) -> None:
    target = folder / "classification.yaml"
    other = folder.parent / "other.yaml"
    other.write_bytes(target.read_bytes().replace(b"description: ", b"description:  ", 1))
    (folder.parent / "one.yaml").write_bytes(target.read_bytes())
    target.unlink()
    target.symlink_to(folder.parent / "one.yaml")
    load_rules(folder)
    load_rules(folder)
    target.unlink()
    target.symlink_to(other)


EDITS = {"rules-byte": _flip_byte("classification.yaml"), "context-byte": _flip_byte("classification-context.yaml"),
         "overlay-add": _overlay_add, "overlay-remove": _overlay_remove, "overlay-rename": _overlay_rename,
         "overlay-case": _overlay_case, "overlay-hidden": _overlay_hidden, "symlink-swap": _symlink_swap}


@pytest.mark.parametrize("edit", list(EDITS))
def test_a_held_rule_set_is_never_given_for_other_bytes(tmp_path: Path, edit: str) -> None:
    folder = tmp_path / "bundle"
    folder.mkdir()
    for name in ("classification.yaml", "classification-context.yaml"):
        shutil.copy(ROOT / "policies" / name, folder / name)
    if edit in ("overlay-remove", "overlay-rename", "overlay-case", "overlay-hidden"):
        _overlay_add(folder)
    before = load_rules(folder)
    assert load_rules(folder) is before  # held
    EDITS[edit](folder)
    after = load_rules(folder)
    assert after.digest == _fresh_digest(folder) != before.digest
    assert load_rules(folder).digest == after.digest


def test_a_bundle_edited_in_place_is_loaded_again(tmp_path: Path) -> None:
    folder = tmp_path / "bundle"
    shutil.copytree(ROOT / "policies", folder, ignore=shutil.ignore_patterns("__pycache__"))
    first = load_bundle(folder, git_state=False)
    assert load_bundle(folder, git_state=False).digest == first.digest
    _flip_byte("classification.yaml")(folder)
    assert load_bundle(folder, git_state=False).digest == bundle_digest(folder) != first.digest
    big = folder / "data.bin"  # past HELD_BYTES: not held, still loaded from its bytes each time
    big.write_bytes(b"#" * (5 << 20))
    second = load_bundle(folder, git_state=False)
    assert load_bundle(folder, git_state=False).digest == second.digest == bundle_digest(folder)
    _same_size_same_mtime(big, big.read_bytes(), b"#" * ((5 << 20) - 1) + b"!")
    assert load_bundle(folder, git_state=False).digest == bundle_digest(folder) != second.digest


def test_a_module_changed_and_changed_back_during_a_load_is_not_held(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A-B-A during one load: the walk before and the digest after see A, the parser read B. The held bundle would
    give B's modules for the folder's A ever after."""
    folder = tmp_path / "bundle"
    shutil.copytree(ROOT / "policies", folder, ignore=shutil.ignore_patterns("__pycache__"))
    load_bundle(folder, git_state=False)  # a folder's second load is the first one held
    target = sorted((folder / "lib").glob("*.rego"))[0]
    a = target.read_text()
    b = a + "\n# changed while the bundle loaded\n"
    real = bundle_module._read_module

    def racing(path: Path) -> str:
        if path == target:
            target.write_text(b)
            try:
                return real(path)
            finally:
                target.write_text(a)
        return real(path)
    monkeypatch.setattr(bundle_module, "_read_module", racing)
    raced = load_bundle(folder, git_state=False)
    assert raced.modules[str(target)] == b
    monkeypatch.setattr(bundle_module, "_read_module", real)
    assert load_bundle(folder, git_state=False).modules[str(target)] == a


def test_a_manifest_changed_and_changed_back_during_a_load_is_not_held(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "bundle"
    shutil.copytree(ROOT / "policies", folder, ignore=shutil.ignore_patterns("__pycache__"))
    load_bundle(folder, git_state=False)
    target = folder / ".manifest"
    a = target.read_text()
    b = a.replace('"revision": "', '"revision": "raced-', 1)
    assert b != a
    real = bundle_module._read_manifest

    def racing(path: Path) -> dict[str, object]:
        target.write_text(b)
        try:
            return real(path)
        finally:
            target.write_text(a)
    monkeypatch.setattr(bundle_module, "_read_manifest", racing)
    assert load_bundle(folder, git_state=False).revision.startswith("raced-")
    monkeypatch.setattr(bundle_module, "_read_manifest", real)
    assert not load_bundle(folder, git_state=False).revision.startswith("raced-")


def test_an_unraced_bundle_is_still_held(tmp_path: Path) -> None:
    folder = tmp_path / "bundle"
    shutil.copytree(ROOT / "policies", folder, ignore=shutil.ignore_patterns("__pycache__"))
    for _ in range(2):
        load_bundle(folder, git_state=False)
    place = bundle_module._HELD.place(folder, "lint_tests=True")
    found = bundle_module.contents(folder)
    assert found is not None and bundle_module._HELD.get(place, found) is not None
