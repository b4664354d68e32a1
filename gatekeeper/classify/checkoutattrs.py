"""Attributes that make a checkout write other bytes than the blob (red team 28): `.gitattributes` lines, and the
changed files such lines cover in HEAD or BASE.

The gate reads blobs; CI, Argo CD and a deploy read the checkout. `working-tree-encoding=UTF-16LE` makes git write a
blob of CJK text as the ASCII manifest its UTF-16LE bytes spell; a `filter` driver (other than LFS, whose pointers
sniff reads) and `ident` rewrite the file too. Line-ending attributes (`text`, `eol`) only change line ends.
"""

from __future__ import annotations

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
_ASKED = ("working-tree-encoding", "filter", "ident")
_UTF8 = frozenset({"utf-8", "utf8"})
_TIMEOUT = 120.0


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
    git itself matches the attributes (`check-attr --cached` on a scratch index of the commit); it runs only when
    an attributes file of that commit holds a rewriting line."""
    wanted = sorted({change.path for change in changes if change.status != "deleted"})
    found: dict[str, str] = {}
    if not wanted:
        return found
    for commit in dict.fromkeys(commits):
        lines = _rewriting_files(objects, objects.tree(commit))
        if not lines:
            continue
        try:
            checked = _check_attr(objects.git_dir, commit, wanted)
        except CheckoutUnknown as exc:  # fail closed: every path may be rewritten
            checked = {path: ("attributes", f"unknown ({exc})") for path in wanted}
        for path, (attribute, value) in checked.items():
            where = ", ".join(f"{name}: {line}" for name, line in lines.items())[:300]
            found.setdefault(path, f"a checkout writes it with {attribute}={value}, not as the change stores it "
                                   f"(commit {commit[:12]}; {where})")
    return found


def _rewriting_files(objects: GitObjects, tree: Mapping[str, TreeEntry]) -> dict[str, str]:
    out = {}
    for path, entry in tree.items():
        if (path == NAME or path.endswith("/" + NAME)) and entry.mode in ("100644", "100755"):
            line = transform_line(objects.blob(entry.oid, MAX_READ))
            if line is not None:
                out[path] = line
    return out


def _check_attr(git_dir: str, commit: str, paths: list[str]) -> dict[str, tuple[str, str]]:
    with tempfile.TemporaryDirectory(prefix="gatekeeper-attr-") as tmp:
        env = scrubbed_git_env(GIT_DIR=git_dir, GIT_WORK_TREE=tmp, GIT_INDEX_FILE=str(Path(tmp, "index")))
        _git(["read-tree", commit], env, tmp)
        out = _git(["check-attr", "--cached", "-z", "--stdin", *_ASKED], env, tmp,
                   b"".join(path.encode("utf-8", "surrogateescape") + b"\0" for path in paths))
    fields = out.split(b"\0")
    found: dict[str, tuple[str, str]] = {}
    for i in range(0, len(fields) - 2, 3):
        path, attribute, value = (f.decode("utf-8", "surrogateescape") for f in fields[i:i + 3])
        if rewrites(attribute, value) and path not in found:
            found[path] = (attribute, value)
    return found


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
