"""`BASE..HEAD` resolved in one git process (revrange.py), with every refusal of an ambiguous name kept.

A plain range used to cost a `for-each-ref` (is either name ambiguous?) beside the one `rev-parse`. git's own
rev-parse warns on stderr when more than one of its ref rules answer to a name, or a ref and an abbreviated object
(`core.warnAmbiguousRefs`, forced on whatever the clone's config says): only then, or for a name git's warning does not
cover (a short hex stem, a reflog `@{...}`), is the refs listing read. Every ambiguity class the listing refused is
generated here against the one-process path, with the clone's config turning git's warning off.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from gitrepo import GIT_ENV, GitRepo

from gatekeeper import revrange
from gatekeeper.revrange import RangeError, resolve_range


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> tuple[GitRepo, str, str]:
    """BASE on `main` (and origin/main, tag v1), HEAD on `pr` (and origin/pr): a linear pull request."""
    repo = GitRepo(tmp_path_factory.mktemp("rr-processes") / "r")
    repo.write("src/app.py", "print(1)\n")
    base = repo.commit("base")
    repo.git("checkout", "-q", "-b", "pr")
    repo.write("src/app.py", "print(2)\n")
    head = repo.commit("change")
    repo.git("update-ref", "refs/remotes/origin/main", base)
    repo.git("update-ref", "refs/remotes/origin/pr", head)
    repo.git("tag", "v1", base)
    repo.git("update-ref", "refs/keep/base", base)
    repo.git("update-ref", "refs/keep/head", head)
    return repo, base, head


def _counted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    started: list[str] = []
    real = revrange._git

    def counting(repo: Path, env: dict[str, str], args: list[str]) -> subprocess.CompletedProcess[bytes]:
        words = iter(args)
        for word in words:
            if word == "-c":
                next(words)  # a setting's value
            elif not word.startswith("-"):
                started.append(word)
                break
        return real(repo, env, args)

    monkeypatch.setattr(revrange, "_git", counting)
    return started


def _copy(repo: GitRepo, tmp_path: Path) -> Path:
    shutil.copytree(repo.root, tmp_path / "c", symlinks=True)
    return tmp_path / "c"


def _git(root: Path, *args: str, input: bytes | None = None) -> None:
    subprocess.run(["git", *args], cwd=root, env={**os.environ, **GIT_ENV}, input=input, check=True,
                   capture_output=True)


def _truth(repo: GitRepo, name: str) -> str:
    return repo.git("rev-parse", "--verify", "--end-of-options", f"{name}^{{commit}}").decode().strip()


PLAIN = ["main", "pr", "origin/main", "origin/pr", "refs/heads/main", "refs/remotes/origin/pr", "heads/pr",
         "remotes/origin/main", "v1", "tags/v1", "v1^{}", "main~0", "pr^0", "pr~1", "pr^1^0", "HEAD", "HEAD~1"]


def test_a_plain_range_is_one_git_process(clone: tuple[GitRepo, str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    repo, _, _ = clone
    started = _counted(monkeypatch)
    wrong = []
    for base, head in itertools.permutations(PLAIN, 2):
        started.clear()
        revs = resolve_range(f"{base}..{head}", repo.root)
        if (revs.base_commit, revs.head_commit) != (_truth(repo, base), _truth(repo, head)) or started != ["rev-parse"]:
            wrong.append((base, head, started[:]))
    assert not wrong, (len(wrong), wrong[:5])


def _rules(stem: str) -> list[str]:
    """git's ref_rev_parse_rules for `stem`, in its order (the stem itself only as git reads it: a `refs/` name)."""
    own = [stem] if stem.startswith("refs/") else []
    return [*own, f"refs/{stem}", f"refs/tags/{stem}", f"refs/heads/{stem}", f"refs/remotes/{stem}",
            f"refs/remotes/{stem}/HEAD"]


def _shadow_cases() -> list[tuple[str, str, str]]:
    cases = []
    for stem in ("feature", "team/feature", "release-1.2", "refs/heads/feature", "upstream"):
        for first, second in itertools.combinations(_rules(stem), 2):
            if second.startswith(first + "/"):
                continue  # git cannot hold a ref and a folder of refs under one name
            cases.append((stem, first, second))
    return cases


@pytest.mark.parametrize("warn_config", ["false", None])
def test_a_name_two_refs_answer_to_is_refused_on_the_one_process_path(
        clone: tuple[GitRepo, str, str], tmp_path: Path, warn_config: str | None) -> None:
    repo, base, head = clone
    root = _copy(repo, tmp_path)
    if warn_config is not None:  # the clone's own config silences git's warning: it must not silence the gate
        _git(root, "config", "core.warnAmbiguousRefs", warn_config)
    missed = []
    for stem, first, second in _shadow_cases():
        _git(root, "update-ref", "--stdin", input=f"create {first} {head}\ncreate {second} {base}\n".encode())
        for text in (f"{stem}..{head}", f"{base}..{stem}~0", f"{stem}^{{commit}}..pr"):
            try:
                resolve_range(text, root)
                missed.append((text, first, second))
            except RangeError as exc:
                if "ambiguous" not in str(exc):
                    missed.append((text, first, second, str(exc)))
        _git(root, "update-ref", "--stdin", input=f"delete {first}\ndelete {second}\n".encode())
    assert not missed, missed[:5]


def test_a_branch_named_like_an_abbreviated_commit_is_still_refused(clone: tuple[GitRepo, str, str],
                                                                     tmp_path: Path) -> None:
    repo, base, head = clone
    root = _copy(repo, tmp_path)
    _git(root, "config", "core.warnAmbiguousRefs", "false")
    for width in (4, 7, 12):
        _git(root, "branch", base[:width], head)
        with pytest.raises(RangeError, match="ambiguous"):
            resolve_range(f"{base[:width]}..pr", root)
        _git(root, "branch", "-D", base[:width])


def test_a_warning_only_sends_the_range_to_the_listing_whose_answer_stands(
        clone: tuple[GitRepo, str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A branch named HEAD makes git warn about `HEAD`, which the listing never judged ambiguous (git reads .git/HEAD
    # first): the answer is the one git gives, at the cost of the listing.
    repo, base, head = clone
    root = _copy(repo, tmp_path)
    _git(root, "update-ref", "refs/heads/HEAD", base)
    started = _counted(monkeypatch)
    revs = resolve_range("main..HEAD", root)
    assert (revs.base_commit, revs.head_commit) == (base, head)
    assert "for-each-ref" in started


def _blobs_sharing_a_prefix(width: int) -> tuple[str, bytes, bytes]:
    """Two blob texts whose ids start with the same `width` hex digits (a birthday search: ~300 tries at 4)."""
    seen: dict[str, bytes] = {}
    for n in itertools.count():
        text = f"blob text {n}\n".encode()
        prefix = hashlib.sha1(b"blob %d\0" % len(text) + text).hexdigest()[:width]
        if prefix in seen:
            return prefix, seen[prefix], text
        seen[prefix] = text
    raise AssertionError("unreachable")


def test_a_branch_named_like_an_abbreviation_of_several_objects_is_refused(
        clone: tuple[GitRepo, str, str], tmp_path: Path) -> None:
    # git's warning needs the abbreviation to name one object; two objects under it leave git silent, the listing not.
    repo, _, head = clone
    root = _copy(repo, tmp_path)
    _git(root, "config", "core.warnAmbiguousRefs", "false")
    prefix, first, second = _blobs_sharing_a_prefix(4)
    for text in (first, second):
        _git(root, "hash-object", "-w", "--stdin", input=text)
    _git(root, "branch", prefix, head)
    with pytest.raises(RangeError, match="ambiguous"):
        resolve_range(f"{prefix}..pr", root)


def test_a_reflog_name_two_refs_answer_to_is_refused(clone: tuple[GitRepo, str, str], tmp_path: Path) -> None:
    # git counts reflogs for `name@{n}`: a tag (no reflog) beside the branch leaves git silent, the listing not.
    repo, base, head = clone
    root = _copy(repo, tmp_path)
    _git(root, "branch", "feature", head)
    _git(root, "tag", "feature", base)
    for text in ("feature@{0}..pr", "main..feature@{0}"):
        with pytest.raises(RangeError, match="ambiguous"):
            resolve_range(text, root)
