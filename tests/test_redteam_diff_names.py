"""Red team: every name in a patch is read as `git apply` reads it, or the patch is refused.

Headers, `---`/`+++` lines and rename/copy lines are generated from words that trip parsers
(quotes, backslashes, ` b/`, tabs, octal escapes, CR, 3+ path-like words, missing or other
prefixes); each generated patch goes to `git apply --numstat -z` (and for renames to a real
`git apply --cached` in a repository) and to our parser. Either both read the same paths, or
we refuse (PatchError, or a path marked unsafe, which the gate denies). Seeds are fixed.
"""

from __future__ import annotations

import io
import os
import random
import subprocess
from pathlib import Path

import pytest
from gitrepo import GIT_ENV, GitRepo
from tables import each_case

from gatekeeper.cli import main
from gatekeeper.diff import parse_patch_stream
from gatekeeper.diff.gitnames import git_header_name
from gatekeeper.errors import PatchError

REFUSED = "refused"
# Words that trip name readers; the generators glue them together.
WORDS = [
    b"x",
    b"y z",
    b"Dockerfile",
    b".gitlab-ci.yml",
    b" b/",
    b" a/",
    b"b/",
    b"c/",
    b" ",
    b"\t",
    b'"',
    b"\\",
    b"/",
    b"//",
    b"\\t",
    b'\\"',
    b"\\303\\251",
    b"\\000",
    b"\\n",
    b"\r",
    b"\xc3\xa9",
    b'"b/x"',
    b" c/x",
]
NAMES = [
    b"x",
    b"y z",
    b"x b/x",
    b"a b/c d",
    b"Dockerfile",
    b".gitlab-ci.yml",
    b'q"uote',
    b"back\\slash",
    b"tab\there",
    b"caf\xc3\xa9",
    b"sub/dir/f",
    b'Dockerfile "b/Dockerfile"',
    b"x b/x b/x",
]
PREFIXES = [b"a/", b"b/", b"c/", b"i/", b"w/", b"", b"/", b"ab/", b"a/b/"]


def quote(name: bytes, octal: bool = True) -> bytes:
    """C-quote `name` as git does (octal escapes for bytes >= 0x80 when `octal`)."""
    out = bytearray(b'"')
    for byte in name:
        if byte in b'"\\':
            out += b"\\" + bytes([byte])
        elif byte in b"\a\b\t\n\v\f\r":
            out += b"\\" + b"abtnvfr"[b"\a\b\t\n\v\f\r".index(byte)].to_bytes(1, "big")
        elif byte < 0x20 or byte == 0x7F or (octal and byte >= 0x80):
            out += b"\\%03o" % byte
        else:
            out.append(byte)
    return bytes(out + b'"')


def written(name: bytes, prefix: bytes, rng: random.Random) -> bytes:
    """`prefix + name` as some writer might put it: quoted (maybe needlessly) or bare."""
    whole = prefix + name
    return quote(whole, octal=rng.random() < 0.5) if rng.random() < 0.4 else whole


def ours(patch: bytes) -> list[tuple[bytes, bytes | None]] | str:
    """(path, old path of a rename) per file as our parser reads them, or REFUSED."""
    try:
        changes = list(parse_patch_stream(io.BytesIO(patch), "p.diff"))
    except PatchError:
        return REFUSED
    if any(c.unsafe for c in changes):
        return REFUSED  # the gate denies an unsafe path (gatekeeper.unsafe_path); packet refuses it
    return [
        (
            c.path.encode("utf-8", "surrogateescape"),
            None if c.old_path is None else c.old_path.encode("utf-8", "surrogateescape"),
        )
        for c in changes
    ]


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("numstat")
    subprocess.run(["git", "init", "-q", str(folder)], check=True)
    return folder


def git_numstat(patch: bytes, cwd: Path) -> list[bytes] | None:
    """The names `git apply --numstat -z` reads (the new name, or the old one for a deletion); None when git refuses."""
    done = subprocess.run(
        ["git", "apply", "--numstat", "-z", "-"],
        input=patch,
        capture_output=True,
        cwd=cwd,
        env={**os.environ, **GIT_ENV},
    )
    if done.returncode:
        return None
    return [field.split(b"\t", 2)[2] for field in done.stdout.split(b"\0") if field]


def _sections(header: bytes) -> list[bytes]:
    # Sections that carry no ---/+++ lines: git names them from the header alone.
    head = b"diff --git " + header + b"\n"
    return [
        head + b"old mode 100644\nnew mode 100755\n",
        head + b"new file mode 100644\nindex 0000000..e69de29\n",
        head + b"deleted file mode 100644\nindex e69de29..0000000\n",
        head + b"index " + b"1" * 40 + b".." + b"2" * 40 + b" 100644\nGIT binary patch\nliteral 0\nHcmV?d00001\n\n"
        b"literal 0\nHcmV?d00001\n\n",
    ]


def _check(patch: bytes, cwd: Path, tally: dict[str, int]) -> None:
    mine = ours(patch)
    if mine == REFUSED:  # nothing to compare: git is asked about every patch we read (~1,300 processes fewer)
        tally["refused"] += 1
        return
    gits = git_numstat(patch, cwd)
    assert gits is not None, f"we read {mine} where git reads nothing: {patch!r}"
    assert [path for path, _ in mine] == gits, f"git reads {gits}, we read {mine}: {patch!r}"
    tally["agreed"] += 1


def _generated_headers(seed: int, count: int) -> list[bytes]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        kind = rng.random()
        if kind < 0.35:  # token soup
            out.append(b"".join(rng.choice(WORDS) for _ in range(rng.randint(1, 10))))
        else:  # two to four path-like words, quoted or not, same or other names
            same = rng.choice(NAMES) if rng.random() < 0.7 else None
            words = [
                written(same or rng.choice(NAMES), rng.choice(PREFIXES[:3]) if same else rng.choice(PREFIXES), rng)
                for _ in range(rng.choice((2, 2, 2, 3, 4)))
            ]
            out.append(rng.choice([b" ", b" ", b"\t", b"  "]).join(words) + rng.choice([b"", b"", b" ", b'"', b"\r"]))
    return out


def test_header_names_match_git_or_are_refused(scratch: Path) -> None:
    tally = {"agreed": 0, "refused": 0}
    for header in _generated_headers(seed=11, count=260):
        for patch in _sections(header):
            _check(patch, scratch, tally)
    # Most generated headers are not as git writes them and are refused; the rest must be read
    # exactly (and test_headers_as_git_writes_them_are_read covers every name git writes).
    assert tally["agreed"] >= 20, tally


@each_case("name", NAMES)
@each_case("octal", [True, False])
def test_headers_as_git_writes_them_are_read(scratch: Path, name: bytes, octal: bool) -> None:
    needs = any(b < 0x20 or b in b'"\\' or b == 0x7F for b in name) or (octal and any(b >= 0x80 for b in name))
    header = (quote(b"a/" + name, octal) + b" " + quote(b"b/" + name, octal)) if needs else b"a/" + name + b" b/" + name
    for patch in _sections(header):
        mine = ours(patch)
        if b"\t" in name:
            assert mine == REFUSED  # a control character: an unsafe path
            continue
        assert mine == [(name, None)] and git_numstat(patch, scratch) == [name]


def test_the_reported_header_is_refused_and_git_applies_dockerfile(git_repo: GitRepo, tmp_path: Path) -> None:
    # The reported bypass: a binary section whose header git reads as `Dockerfile`.
    for path in ("Dockerfile", ".gitlab-ci.yml"):
        git_repo.write(path, "FROM a\n")
    git_repo.commit()
    (git_repo.root / ".git/info").mkdir(exist_ok=True)
    (git_repo.root / ".git/info/attributes").write_text("* binary\n")
    for path in ("Dockerfile", ".gitlab-ci.yml"):
        git_repo.write(path, "FROM evil\n")
        real = git_repo.staged_patch("--", path)
        git_repo.git("reset", "-q")
        git_repo.git("checkout", "--", path)
        first, rest = real.split(b"\n", 1)
        p = path.encode()
        crafted = b'diff --git a/%s "b/%s" c/%s "b/%s"\n' % (p, p, p, p) + rest
        git_repo.git("apply", "--cached", "--check", input=crafted)
        numstat = git_repo.git("apply", "--numstat", "-z", input=crafted)
        assert numstat == b"-\t-\t" + p + b"\0"  # git writes the CI / infrastructure file
        assert ours(crafted) == REFUSED
        (tmp_path / "evil.diff").write_bytes(crafted)
        for command in (
            ["classify", str(tmp_path / "evil.diff")],
            ["packet", str(tmp_path / "evil.diff"), "--out", str(tmp_path / "p.json")],
        ):
            assert main(command) == 2


def test_git_header_name_agrees_with_git_on_generated_headers(scratch: Path) -> None:
    # The reimplementation itself, whatever our own reading says: same name, or none, as git.
    seen = 0
    for header in _generated_headers(seed=29, count=220):
        if b"\0" in header:
            continue
        gits = git_numstat(_sections(header)[0], scratch)
        mine = git_header_name(header)
        assert (None if gits is None else gits[0]) == mine, header
        seen += mine is not None
    assert seen >= 20


# --- ---/+++ and rename/copy lines ---------------------------------------------------------------


def _needs_quotes(name: bytes) -> bool:
    return any(b < 0x20 or b in b'"\\' or b >= 0x7F for b in name)


def _side_variants(rng: random.Random, name: bytes) -> bytes:
    kind = rng.randrange(14)
    if kind >= 7:  # as git writes it: quoted when needed, a tab after a name with a space
        shown = quote(b"a/" + name) if _needs_quotes(name) else b"a/" + name
        return shown + (b"\t" if b" " in name else b"")
    if kind == 0:
        return quote(b"a/" + name) + rng.choice([b"", b"\t", b"junk", b" x"])
    if kind == 1:
        return b"a/" + name + rng.choice([b"", b"\t", b"\tjunk", b"\r", b" "])
    if kind == 2:
        return rng.choice(PREFIXES) + name
    if kind == 3:
        return b'"a/' + name  # no closing quote
    if kind == 4:
        return b"a/" + name.replace(b"/", b"//")
    if kind == 5:
        return quote(b"a/" + name)[:-1] + b'\\q"'  # a bad escape: git falls back to the bare text
    return rng.choice(WORDS) + b"/" + name + rng.choice([b"", b"\t"])


def test_side_lines_match_git_or_are_refused(scratch: Path) -> None:
    rng = random.Random(5)
    tally = {"agreed": 0, "refused": 0}
    for _ in range(260):
        name = rng.choice(NAMES)
        header = (
            b"a/" + name + b" b/" + name if rng.random() < 0.7 else quote(b"a/" + name) + b" " + quote(b"b/" + name)
        )
        minus, plus = _side_variants(rng, name), _side_variants(rng, name).replace(b"a/", b"b/", 1)
        patch = (
            b"diff --git "
            + header
            + b"\nindex 1111111..2222222 100644\n--- "
            + minus
            + b"\n+++ "
            + plus
            + b"\n@@ -1 +1 @@\n-a\n+b\n"
        )
        _check(patch, scratch, tally)
    assert tally["agreed"] >= 30, tally


def _rename_repo(root: Path) -> GitRepo:
    repo = GitRepo(root)
    for name in NAMES:
        if b"\t" not in name:
            repo.write(name, b"same\n")
    repo.commit()
    return repo


def test_rename_lines_touch_what_git_touches(tmp_path: Path) -> None:
    repo = _rename_repo(tmp_path / "repo")
    rng = random.Random(17)
    tally = {"agreed": 0, "refused": 0}
    for _ in range(120):
        old, new = rng.choice(NAMES), rng.choice(NAMES) + b".moved"
        kind = rng.choice([b"rename", b"copy"])
        shown_old = rng.choice([old, quote(old), old + b"\r", old.replace(b"/", b"//"), quote(old)[:-1], b"a/" + old])
        shown_new = rng.choice([new, quote(new), new + b"\t", quote(new) + b"x"])
        if rng.random() < 0.5:  # as git writes them
            shown_old, shown_new = (quote(n) if _needs_quotes(n) else n for n in (old, new))
        header = written(old, b"a/", rng) + b" " + written(new, b"b/", rng)
        patch = (
            b"diff --git "
            + header
            + b"\nsimilarity index 100%\n"
            + kind
            + b" from "
            + shown_old
            + b"\n"
            + kind
            + b" to "
            + shown_new
            + b"\n"
        )
        mine = ours(patch)
        if mine == REFUSED:  # nothing to compare: git applies every patch we read
            tally["refused"] += 1
            continue
        applied = subprocess.run(
            ["git", "apply", "--cached", "-"],
            input=patch,
            cwd=repo.root,
            capture_output=True,
            env={**os.environ, **GIT_ENV},
        )
        touched = set(repo.git("diff", "--cached", "--no-renames", "--name-only", "-z").split(b"\0")) - {b""}
        repo.git("read-tree", "HEAD")
        assert applied.returncode == 0, (patch, applied.stderr)
        ((path, source),) = mine
        assert touched == ({path, source} if kind == b"rename" else {path}), patch
        tally["agreed"] += 1
    assert tally["agreed"] >= 40, tally


@each_case(
    ("lines", "accepted"),
    [
        (b"new file mode 100644\nindex 0000000..1111111\n--- /dev/null\n+++ b/x\n@@ -0,0 +1 @@\n+a\n", True),
        # git reads `--- /dev/null` before `new file mode` as a file named dev/null
        (b"--- /dev/null\nnew file mode 100644\nindex 0000000..1111111\n+++ b/x\n@@ -0,0 +1 @@\n+a\n", False),
        (b"index 0000000..1111111\nnew file mode 100644\n--- /dev/null\n+++ b/x\n@@ -0,0 +1 @@\n+a\n", False),
        (b"similarity index 100%\nrename from x\nrename to x2\n", True),
        (b"rename from x\nsimilarity index 100%\nrename to x2\n", False),
        (b"similarity index 100%\nrename to x2\nrename from x\n", False),
        (b"new mode 100755\nold mode 100644\n", False),
    ],
)
def test_header_lines_only_in_the_order_git_writes_them(lines: bytes, accepted: bool) -> None:
    header = b"diff --git a/x b/x2\n" if b"rename" in lines else b"diff --git a/x b/x\n"
    assert (ours(header + lines) != REFUSED) is accepted
