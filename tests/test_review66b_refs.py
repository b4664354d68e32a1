"""Review 66b: names the one-process `git rev-parse` (revrange.py) must refuse as ambiguous, as git itself warns.

Generated: every pair of the namespaces git searches for a name (refs/X, refs/tags/X, refs/heads/X, refs/remotes/X,
refs/remotes/X/HEAD), loose and packed, with suffixes (`^{}`, `~0`), on either side of the range, for plain names
and for names shaped like git's pseudo-refs (`FETCH_HEAD`, `MERGE_HEAD`, `MY_HEAD`) when no such file is in the git
folder: git then reads them as refs like any other, picks one by its order, and warns. Real git is the truth: each
case first checks that git itself calls the name ambiguous. Look-alikes that must still resolve: one ref per name,
HEAD, a full commit id a ref is named like.
"""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from gitrepo import GIT_ENV

from gatekeeper.revrange import RangeError, resolve_range

SPACES = ("refs/{}", "refs/tags/{}", "refs/heads/{}", "refs/remotes/{}", "refs/remotes/{}/HEAD")
NAMES = ("feat", "FETCH_HEAD", "MERGE_HEAD", "MY_HEAD")
# refs/remotes/X and refs/remotes/X/HEAD cannot both exist (a ref is no folder).
PAIRS = [pair for pair in itertools.combinations(SPACES, 2) if pair != (SPACES[3], SPACES[4])]


def _git(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**GIT_ENV, "PATH": os.environ["PATH"], "GIT_CONFIG_GLOBAL": os.devnull}
    return subprocess.run(["git", *args], cwd=repo, env=env, capture_output=True, text=True)


@pytest.fixture(scope="module")
def seed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    repo = tmp_path_factory.mktemp("r66b") / "seed"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main", "--template=")
    for n in (1, 2):
        (repo / "f").write_text(f"{n}\n")
        _git(repo, "add", "f")
        _git(repo, "commit", "-q", "-m", f"c{n}")
    a = _git(repo, "rev-parse", "HEAD~1").stdout.strip()
    b = _git(repo, "rev-parse", "HEAD").stdout.strip()
    return repo, a, b


def _repo(seed: tuple[Path, str, str], tmp_path: Path, refs: dict[str, str], packed: bool) -> Path:
    repo = tmp_path / "r"
    shutil.copytree(seed[0], repo, symlinks=True)
    for ref, commit in refs.items():
        assert _git(repo, "update-ref", ref, commit).returncode == 0, ref
    if packed:
        _git(repo, "pack-refs", "--all")
    return repo


def _git_says_ambiguous(repo: Path, name: str) -> bool:
    done = _git(repo, "-c", "core.warnAmbiguousRefs=true", "rev-parse", "--end-of-options", name)
    return "ambiguous" in done.stderr


@pytest.mark.parametrize("packed", [False, True], ids=["loose", "packed"])
@pytest.mark.parametrize("name", NAMES)
def test_two_refs_for_one_name_are_refused(seed: tuple[Path, str, str], tmp_path: Path, name: str,
                                           packed: bool) -> None:
    _, a, b = seed
    failed = []
    for i, (first, second) in enumerate(PAIRS):
        case = tmp_path / str(i)
        case.mkdir()
        repo = _repo(seed, case, {first.format(name): a, second.format(name): b}, packed)
        assert _git_says_ambiguous(repo, name), (first, second)
        for suffix, side in zip(("", "^{}", "~0"), ("base", "head", "base"), strict=True):
            rev = name + suffix
            text = f"{rev}..{b}" if side == "base" else f"{a}..{rev}"
            try:
                got = resolve_range(text, repo)
            except RangeError as exc:
                assert "ambiguous" in str(exc), (text, str(exc))
            else:
                failed.append((first, second, text, got.base_commit[:7], got.head_commit[:7]))
    assert not failed, f"{len(failed)} of {len(PAIRS) * 3} cases resolved: {failed}"


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("space", SPACES)
def test_one_ref_per_name_still_resolves(seed: tuple[Path, str, str], tmp_path: Path, name: str, space: str) -> None:
    _, a, b = seed
    repo = _repo(seed, tmp_path, {space.format(name): a}, packed=False)
    assert not _git_says_ambiguous(repo, name)
    got = resolve_range(f"{name}..{b}", repo)
    assert (got.base_commit, got.head_commit) == (a, b)


def test_look_alikes_resolve(seed: tuple[Path, str, str], tmp_path: Path) -> None:
    _, a, b = seed
    # A full commit id is the object even when a ref is named like it (git takes the object); HEAD is HEAD.
    repo = _repo(seed, tmp_path, {f"refs/heads/{a}": b, f"refs/tags/{a}": b}, packed=False)
    got = resolve_range(f"{a}..HEAD", repo)
    assert (got.base_commit, got.head_commit) == (a, b)
    got = resolve_range("HEAD~1..@", repo)
    assert (got.base_commit, got.head_commit) == (a, b)


def test_previous_branch_naming_an_ambiguous_name_is_refused(seed: tuple[Path, str, str], tmp_path: Path) -> None:
    """`@{-1}` is the branch checked out before: git reads its name through the same ref order (a tag first)."""
    _, a, b = seed
    repo = _repo(seed, tmp_path, {"refs/heads/feat": b, "refs/tags/feat": a}, packed=False)
    _git(repo, "checkout", "-q", "feat")
    _git(repo, "checkout", "-q", "main")
    assert _git_says_ambiguous(repo, "@{-1}")
    with pytest.raises(RangeError, match="ambiguous"):
        resolve_range(f"@{{-1}}..{b}", repo)


@pytest.mark.parametrize("name", ["HEAD", "FETCH_HEAD", "ORIG_HEAD"])
def test_a_pseudo_ref_file_is_read_before_refs_named_like_it(seed: tuple[Path, str, str], tmp_path: Path,
                                                            name: str) -> None:
    """git reads HEAD (FETCH_HEAD…) from the git folder before any ref: refs pushed under that name do not change
    what it names, so the name still resolves (to the file's commit)."""
    _, a, b = seed
    repo = _repo(seed, tmp_path, {f"refs/tags/{name}": a, f"refs/heads/{name}": a}, packed=False)
    if name != "HEAD":
        (repo / ".git" / name).write_text(f"{b}\n")
    assert _git_says_ambiguous(repo, name)
    got = resolve_range(f"{a}..{name}", repo)
    assert (got.base_commit, got.head_commit) == (a, b)


def test_a_bare_repository_refuses_every_name_git_warns_of(seed: tuple[Path, str, str], tmp_path: Path) -> None:
    _, a, b = seed
    bare = tmp_path / "bare.git"
    _git(seed[0], "clone", "-q", "--bare", str(seed[0]), str(bare))
    for ref in ("refs/tags/MY_HEAD", "refs/heads/MY_HEAD"):
        _git(bare, "update-ref", ref, a)
    with pytest.raises(RangeError, match="ambiguous"):
        resolve_range(f"MY_HEAD..{b}", bare)
    assert resolve_range(f"{a}..{b}", bare).head_commit == b


@pytest.mark.parametrize("how", ["config", "includeIf", "env"])
def test_the_clone_cannot_turn_the_warning_off(seed: tuple[Path, str, str], tmp_path: Path, how: str,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    _, a, b = seed
    repo = _repo(seed, tmp_path, {"refs/tags/feat": a, "refs/heads/feat": b}, packed=False)
    if how == "config":
        _git(repo, "config", "core.warnAmbiguousRefs", "false")
    elif how == "includeIf":
        (tmp_path / "inc").write_text("[core]\n\twarnAmbiguousRefs = false\n")
        _git(repo, "config", f"includeIf.gitdir:{repo}/.git.path", str(tmp_path / "inc"))
    else:
        monkeypatch.setenv("GIT_CONFIG_PARAMETERS", "'core.warnambiguousrefs'='false'")
    with pytest.raises(RangeError, match="ambiguous"):
        resolve_range(f"feat..{b}", repo)


def test_a_sha256_shaped_name_is_a_ref_name_in_a_sha1_repository(seed: tuple[Path, str, str], tmp_path: Path) -> None:
    _, a, b = seed
    name = "ab" * 32
    repo = _repo(seed, tmp_path, {f"refs/tags/{name}": a, f"refs/heads/{name}": b}, packed=False)
    assert _git_says_ambiguous(repo, name)
    with pytest.raises(RangeError, match="ambiguous"):
        resolve_range(f"{name}..{b}", repo)
