"""A process that loads a bundle twice holds the first load by its bytes (gatekeeper/policy/bundle_cache.py): every
change of a byte is loaded and checked again, and what the walk cannot vouch for is never held. Each attack loads a
real copy of the shipped bundle, loads it again after breaking it, and must see the break; the held load must equal a
fresh one."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from bundlecopy import bundle_copy, edit
from conftest import POLICY_DIR

from gatekeeper.errors import PolicyError
from gatekeeper.policy import bundle as bundle_module
from gatekeeper.policy import bundle_cache
from gatekeeper.policy.bundle import bundle_digest, load_bundle
from gatekeeper.policy.bundle_cache import Contents, Held, contents, contents_digest
from gatekeeper.policy.ref_check import unknown_refs

# A stray bracket: regopy would drop the rest of the rule body; the loader's lint refuses it.
BROKEN = "\ndeny contains f if { ]\n"


def _held(root: Path) -> None:
    """Load `root` until this process holds it (its first load is the plain one), and check that it does."""
    load_bundle(root)
    load_bundle(root)
    place = bundle_module._HELD.place(root, "lint_tests=True")
    found = contents(root)
    assert found is not None and bundle_module._HELD.get(place, found) is not None


def _fresh(monkeypatch: pytest.MonkeyPatch, root: Path) -> bundle_module.Bundle:
    """A load of `root` by a process that holds nothing."""
    with monkeypatch.context() as patched:
        patched.setattr(bundle_module, "_HELD", Held(8))
        return load_bundle(root)


def test_the_walk_gives_the_bundle_digest(tmp_path: Path) -> None:
    root = bundle_copy(tmp_path)
    (root / ".hidden").mkdir()
    (root / ".hidden" / "notes.txt").write_text("a hidden folder is part of the digest\n")
    assert contents_digest(root) == bundle_digest(root)
    assert contents_digest(POLICY_DIR) == bundle_digest(POLICY_DIR)


def test_a_held_load_equals_a_fresh_one_and_is_not_shared(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = bundle_copy(tmp_path)
    _held(root)
    first = load_bundle(root)
    first.modules.clear()  # a caller that spoils its copy spoils no other load's
    first.params.clear()
    again = load_bundle(root)
    assert again == _fresh(monkeypatch, root)
    assert again.modules and again.params


@pytest.mark.parametrize("where", ["core/policy.rego", "lib/findings.rego", "core/policy_test.rego"])
def test_a_changed_module_is_checked_again(tmp_path: Path, where: str) -> None:
    root = bundle_copy(tmp_path)
    _held(root)
    path = root / where
    stat = path.stat()
    path.write_text(path.read_text() + BROKEN)
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # the same mtime: only the bytes say it changed
    with pytest.raises(PolicyError):
        load_bundle(root)


def test_a_same_size_edit_changes_what_is_loaded(tmp_path: Path) -> None:
    root = bundle_copy(tmp_path)
    _held(root)
    before = load_bundle(root)
    manifest = root / ".manifest"
    text = manifest.read_text()
    revision = before.revision
    changed = revision[:-1] + ("0" if revision[-1] != "0" else "1")
    stat = manifest.stat()
    manifest.write_text(text.replace(f'"{revision}"', f'"{changed}"', 1))
    os.utime(manifest, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    after = load_bundle(root)
    assert (after.revision, after.digest != before.digest) == (changed, True)


def test_a_new_or_removed_file_is_loaded_again(tmp_path: Path) -> None:
    root = bundle_copy(tmp_path)
    _held(root)
    (root / "size" / "extra_test.rego").write_text("package gatekeeper.policies.size_test\n" + BROKEN)
    with pytest.raises(PolicyError):
        load_bundle(root)
    (root / "size" / "extra_test.rego").unlink()
    _held(root)
    (root / "size" / "policy.rego").unlink()
    with pytest.raises(PolicyError, match="no size/policy.rego"):
        load_bundle(root)


def test_a_file_renamed_with_its_bytes_is_loaded_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The held load is compared with the walk's (name, bytes) whole (suite round 33): the same bytes under another
    # name are another bundle (a test file moved to a policy nothing lists is refused).
    root = bundle_copy(tmp_path)
    _held(root)
    (root / "lib" / "findings.rego").rename(root / "lib" / "findings2.rego")
    again = load_bundle(root)
    assert again == _fresh(monkeypatch, root) and "findings2.rego" in " ".join(again.modules)


@pytest.mark.parametrize("over", [-1, 0])
def test_a_bundle_past_the_held_size_is_never_held(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   over: int) -> None:
    root = bundle_copy(tmp_path)
    size = sum(len(data) for _, data in contents(root) or ())
    monkeypatch.setattr(bundle_cache, "HELD_BYTES", size + over)
    load_bundle(root)
    load_bundle(root)
    place = bundle_module._HELD.place(root, "lint_tests=True")
    found = contents(root)
    assert (found is None) == (over < 0)
    assert (found is not None and bundle_module._HELD.get(place, found) is not None) == (over == 0)
    path = root / "core" / "policy.rego"
    stat = path.stat()
    path.write_text(path.read_text() + BROKEN)
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    with pytest.raises(PolicyError):
        load_bundle(root)


def test_a_folder_the_digest_skips_is_never_held(tmp_path: Path) -> None:
    root = bundle_copy(tmp_path)
    (root / "__pycache__").mkdir()
    assert contents_digest(root) is None
    load_bundle(root)
    load_bundle(root)
    # The test-file lint reads it, the digest does not: a second load must lint it again.
    (root / "__pycache__" / "x_test.rego").write_text("package gatekeeper.policies.x_test\n" + BROKEN)
    with pytest.raises(PolicyError):
        load_bundle(root)


def test_a_symlinked_folder_is_never_held(tmp_path: Path) -> None:
    root = bundle_copy(tmp_path)
    outside = tmp_path / "outside-lib"
    shutil.move(root / "lib", outside)
    (root / "lib").symlink_to(outside, target_is_directory=True)
    assert contents_digest(root) is None
    load_bundle(root)
    load_bundle(root)
    target = outside / "findings.rego"
    target.write_text(target.read_text() + BROKEN)  # the digest does not follow the link; the loader does
    with pytest.raises(PolicyError):
        load_bundle(root)


def test_a_relative_folder_is_its_working_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    good, bad = bundle_copy(tmp_path / "a"), bundle_copy(tmp_path / "b")
    edit(bad / "core" / "policy.rego", "package gatekeeper.policies.core", "package gatekeeper.policies.other")
    monkeypatch.chdir(good.parent)
    load_bundle("policies")
    load_bundle("policies")
    monkeypatch.chdir(bad.parent)
    with pytest.raises(PolicyError, match="package gatekeeper.policies.core"):
        load_bundle("policies")


def test_a_folders_first_load_is_not_walked_for_a_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A one-gate process (the CLI) reads and hashes the bundle once, as before the cache."""
    root = bundle_copy(tmp_path)
    walks: list[Path] = []

    def counted(folder: Path) -> Contents | None:
        walks.append(folder)
        return contents(folder)

    monkeypatch.setattr(bundle_module, "contents", counted)
    load_bundle(root)
    assert walks == []
    load_bundle(root)
    load_bundle(root)
    assert walks == [root, root]


def test_unknown_refs_answers_by_the_exact_sources() -> None:
    lib = "package gatekeeper.lib\n\nlimit := 3\n"
    policy = "package gatekeeper.policies.x\n\nimport data.gatekeeper.lib\n\ndeny contains 1 if lib.limit > 2\n"
    assert unknown_refs({"lib.rego": lib, "x.rego": policy}) == []
    typo = policy.replace("lib.limit", "lib.limmit")
    found = unknown_refs({"lib.rego": lib, "x.rego": typo})
    assert [issue.file for issue in found] == ["x.rego"]
    found.clear()  # the caller's list, not the held answer
    assert [issue.file for issue in unknown_refs({"lib.rego": lib, "x.rego": typo})] == ["x.rego"]
    # The same sources under another name: the issue names that file.
    assert [issue.file for issue in unknown_refs({"lib.rego": lib, "y.rego": typo})] == ["y.rego"]
