"""Attributes that make a checkout write other bytes than the blob (red team 28): `.gitattributes` lines, and the
changed files such lines cover in HEAD or BASE.

The gate reads blobs; CI, Argo CD and a deploy read the checkout. `working-tree-encoding=UTF-16LE` makes git write a
blob of CJK text as the ASCII manifest its UTF-16LE bytes spell; a `filter` driver (other than LFS, whose pointers
sniff reads) and `ident` rewrite the file too. Line-ending attributes (`text`, `eol`) only change line ends.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path

from gatekeeper.gitcmd import SAFE_GIT, git_program, scrubbed_git_env
from gatekeeper.gitobjects import GitObjects, TreeEntry
from gatekeeper.model import FileChange

RULE = "iac.content.checkout-attributes"
NAME = ".gitattributes"
MAX_READ = 1 << 20  # an attributes file; a longer one is read this far
MAX_WRITE = 64 << 20  # all attributes files of a commit written for git's check; more: every file counts as rewritten
MAX_FILES = 2000  # attributes files read by the scan; more: git's check runs whatever they hold
_ASKED = ("working-tree-encoding", "filter", "ident")
_UTF8 = frozenset({"utf-8", "utf8"})
_TIMEOUT = 120.0


# What a `working-tree-encoding` checkout can write ASCII text in (git converts through iconv): UTF-16 and UCS-2 both
# byte orders, the EBCDIC code pages Python knows. UTF-32 cannot: ASCII bytes are no UTF-32 (git refuses to store it).
_WRITTEN_AS = ("utf-16-le", "utf-16-be", "cp037", "cp500", "cp273", "cp1026", "cp1140")
_TEXT_BYTES = bytes(range(0x20, 0x7F)) + b"\t\n\r"  # deleted by bytes.translate: what is left is not text
VARIANT_READ = 64 << 10  # the first bytes of a shown side re-encoded


def checkout_variants(data: bytes) -> list[bytes]:
    """The text a checkout could write for UTF-8 `data` under a `working-tree-encoding` the reader cannot see (BASE's
    attributes, from a patch alone: red team 32): each re-encoding that is nearly all printable ASCII. ASCII `data`
    is written as it is in all of them but EBCDIC, where it turns into other bytes: none."""
    if data.isascii():
        return []
    try:
        text = data[:VARIANT_READ].decode("utf-8")
    except UnicodeDecodeError:
        text = data[:VARIANT_READ].decode("utf-8", "ignore")  # a cut at the window's end, or not UTF-8 at all
    out = []
    for encoding in _WRITTEN_AS:
        # the first 4 KiB first: most text fails there (C-speed tests, a patch may show thousands of files)
        if _mostly_text(text[:4096].encode(encoding, "replace")) and \
                _mostly_text(written := text.encode(encoding, "replace")):
            out.append(written)
    return out


def _mostly_text(data: bytes) -> bool:
    return bool(data) and len(data.translate(None, _TEXT_BYTES)) <= 0.05 * len(data)


def rewrites(attribute: str, value: str) -> bool:
    """Whether `attribute` in state `value` (git check-attr's words: set, unset, unspecified, or a value) makes a
    checkout write other bytes than the blob."""
    if value in ("unset", "unspecified"):
        return False
    if attribute == "working-tree-encoding":
        return value.lower() not in _UTF8
    if attribute == "filter":
        return value != "lfs"  # an LFS pointer in place of content is sniff's (iac.content.lfs-pointer)
    return attribute == "ident"


def transform_line(data: bytes) -> str | None:
    """The first line of `.gitattributes` text that sets (or defines a macro setting) a rewriting attribute."""
    for raw in data.decode("utf-8", "replace").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        for word in line.split()[1:]:
            if word[:1] in ("-", "!"):
                continue
            name, eq, value = word.partition("=")
            if name in _ASKED and rewrites(name, value if eq else "set"):
                return line[:200]
    return None


def rewritten(objects: GitObjects, commits: Iterable[str], changes: Iterable[FileChange]) -> dict[str, str]:
    """{path: evidence} for each changed file (not deleted) an attribute of one of `commits` rewrites in a checkout.
    git itself matches the attributes (`check-attr` on a scratch index and work tree of the commit: _check_attr), for
    each commit whose attributes files hold a rewriting line, and once more for their files side by side (what
    merging HEAD into BASE writes)."""
    wanted = sorted({change.path for change in changes if change.status != "deleted"})
    found: dict[str, str] = {}
    if not wanted:
        return found
    commits = list(dict.fromkeys(commits))
    held: list[str] = []  # lines found, for the evidence
    for commit in commits:
        lines = _rewriting_files(objects, objects.tree(commit))
        if not lines:
            continue
        held.extend(f"{name}: {line}" for name, line in lines.items())
        _note(found, _checked(objects, commit, [commit], wanted), f"commit {commit[:12]}", lines)
    if held and len(commits) > 1:
        # Merging puts one commit's attributes files beside the other's (BASE's macro, the change's line that uses
        # it): each file read as both copies' lines together, in the work tree way (the copies' own runs above
        # covered the index way).
        _note(found, _checked(objects, None, commits, wanted), "the commits' attributes together", {"": held[0]})
    return found


def _checked(objects: GitObjects, commit: str | None, commits: list[str],
             wanted: list[str]) -> dict[str, tuple[str, str]]:
    try:
        return _check_attr(objects, commit, [objects.tree(c) for c in commits], wanted)
    except CheckoutUnknown as exc:  # fail closed: every path may be rewritten
        return {path: ("attributes", f"unknown ({exc})") for path in wanted}


def _note(found: dict[str, str], checked: Mapping[str, tuple[str, str]], source: str, lines: Mapping[str, str]) -> None:
    where = ", ".join(f"{name}: {line}" if name else line for name, line in lines.items())[:300]
    for path, (attribute, value) in checked.items():
        found.setdefault(path, f"a checkout writes it with {attribute}={value}, not as the change stores it "
                               f"({source}; {where})")


def _rewriting_files(objects: GitObjects, tree: Mapping[str, TreeEntry]) -> dict[str, str]:
    """{attributes file: its rewriting line}; a file longer than MAX_READ, or more files than MAX_FILES, count as
    rewriting unread (git's check then decides: padding cannot hide a line past what is read)."""
    named = [(path, entry) for path, entry in tree.items()
             if (path == NAME or path.endswith("/" + NAME)) and entry.mode in ("100644", "100755")]
    if len(named) > MAX_FILES:
        return {f"{len(named)} {NAME} files": f"more than the {MAX_FILES} read"}
    out = {}
    for path, entry in named:
        data = objects.blob(entry.oid, MAX_READ + 1)
        line = transform_line(data[:MAX_READ]) or (f"longer than the {MAX_READ >> 10} KiB read"
                                                   if len(data) > MAX_READ else None)
        if line is not None:
            out[path] = line
    return out


def _check_attr(objects: GitObjects, commit: str | None, trees: list[Mapping[str, TreeEntry]],
                paths: list[str]) -> dict[str, tuple[str, str]]:
    """git's answer for `paths`: with `commit`, read both ways a checkout may read attributes, from the index
    (`--cached`, a scratch index of the commit) and from the work tree, where git skips a byte order mark the index
    reading keeps (`\ufeffapp/*.yaml` matches only there); the attributes files of `trees` are written to a scratch
    work tree (a path in several trees: their lines together)."""
    listed = b"".join(os.fsencode(path) + b"\0" for path in paths)
    found: dict[str, tuple[str, str]] = {}
    with tempfile.TemporaryDirectory(prefix="gatekeeper-attr-") as tmp:
        work = Path(tmp, "work")
        env = scrubbed_git_env(GIT_DIR=objects.git_dir, GIT_WORK_TREE=str(work), GIT_INDEX_FILE=str(Path(tmp, "index")))
        if commit is not None:
            _git(["read-tree", commit], env, tmp)
        _write_attributes(objects, trees, work)
        for cached in (["--cached"], []) if commit is not None else ([],):
            fields = _git(["check-attr", *cached, "-z", "--stdin", *_ASKED], env, str(work), listed).split(b"\0")
            for i in range(0, len(fields) - 2, 3):
                path, attribute, value = (os.fsdecode(f) for f in fields[i:i + 3])
                if rewrites(attribute, value) and path not in found:
                    found[path] = (attribute, value)
    return found


def _write_attributes(objects: GitObjects, trees: list[Mapping[str, TreeEntry]], work: Path) -> None:
    copies: dict[str, list[str]] = {}
    for tree in trees:
        for path, entry in tree.items():
            if (path == NAME or path.endswith("/" + NAME)) and entry.mode in ("100644", "100755") and \
                    entry.oid not in copies.setdefault(path, []):
                copies[path].append(entry.oid)
    written = 0
    for path, oids in copies.items():
        parts = path.split("/")
        if any(part in ("", ".", "..") or part.lower() == ".git" for part in parts):
            raise CheckoutUnknown(f"an attributes file at a path no checkout writes: {path!r}")
        blobs = [objects.blob(oid, MAX_WRITE + 1 - written) for oid in oids]
        written += sum(map(len, blobs))
        if written > MAX_WRITE:
            raise CheckoutUnknown(f"attributes files over {MAX_WRITE >> 20} MiB")
        # One copy as git reads it (a leading byte order mark skipped in the work tree); several: every line of each.
        data = blobs[0] if len(blobs) == 1 else b"\n".join(blob.removeprefix(b"\xef\xbb\xbf") for blob in blobs)
        target = work.joinpath(*parts)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        except OSError as exc:
            raise CheckoutUnknown(f"cannot write {path!r}: {exc.strerror}") from None


def _git(args: list[str], env: dict[str, str], cwd: str, data: bytes | None = None) -> bytes:
    try:
        done = subprocess.run([git_program(), *SAFE_GIT, *args], cwd=cwd, env=env, input=data,
                              capture_output=True, timeout=_TIMEOUT, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise CheckoutUnknown(f"git {args[0]}: {exc}") from None
    if done.returncode != 0:
        raise CheckoutUnknown(f"git {args[0]}: " + done.stderr.decode(errors="replace").strip()[:200])
    return done.stdout


class CheckoutUnknown(Exception):
    """git could not say which attributes a commit gives its files."""
