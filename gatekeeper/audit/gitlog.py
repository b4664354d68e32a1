"""The decision log kept in a git ref: one commit per record, one linear chain, raced through git's atomic push.

Every append works in a private scratch bare repository (never the job's checkout, index or work tree):
fetch the ref's tip (depth 1), build the next record on it, push it as a fast-forward. A concurrent gate
that pushed first makes git reject ours; we fetch the new tip, re-chain and retry with jittered, bounded
backoff. git's ref update is atomic, so the ref is always one line with every record once.
"""

from __future__ import annotations

import os
import random
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from gatekeeper.audit.line import canonical, parse_line
from gatekeeper.audit.log import GENESIS, Seal, record_from_decision, utc_now
from gatekeeper.audit.read import Item, Snapshot
from gatekeeper.errors import AuditError, UsageError
from gatekeeper.gitcmd import SAFE_GIT, absolute_path, git_program
from gatekeeper.lazy_pattern import lazy

DEFAULT_REF = "refs/gatekeeper/decisions"
RECORD_FILE = "record.json"
GIT_TIMEOUT = 60.0
READ_TIMEOUT = 600.0  # fetching a whole log of many thousand records over a slow link
ATTEMPTS = 30  # each rejection means another gate landed, so this bounds a burst of ~30 gates at once
BACKOFF = 0.1  # seconds before the first retry; doubles per attempt, jittered, capped at MAX_BACKOFF
MAX_BACKOFF = 2.0
_MAX_BLOB = 16 * 1024 * 1024  # a record blob larger than this is not read (the line reader's own cap)
# Only transports a CI job pushes over; ext:: and fd:: would run commands named by the URL.
_PROTOCOLS = ("-c", "protocol.allow=never", "-c", "protocol.file.allow=always", "-c", "protocol.https.allow=always",
              "-c", "protocol.http.allow=always", "-c", "protocol.ssh.allow=always", "-c", "protocol.git.allow=always")
# The job's authentication helpers may pass; every other GIT_* variable (GIT_DIR, GIT_INDEX_FILE,
# GIT_OBJECT_DIRECTORY, GIT_CONFIG_*) would point our scratch repository somewhere else.
_PASS_GIT_ENV = ("GIT_SSH_COMMAND", "GIT_ASKPASS", "GIT_SSL_CAINFO")
# The push outcomes that mean "someone else moved the ref first": fetch, re-chain, retry.
_RACE = lazy(r"fetch first|non-fast-forward|stale info|failed to update ref|cannot lock|failed to lock|"
             r"incorrect old value|but expected")
_USERINFO = lazy(r"(?<=://)[^/@\s]+@")


@dataclass(frozen=True, slots=True)
class GitLog:
    """Where a git decision log lives: a remote (URL or path) and a ref on it."""

    remote: str
    ref: str = DEFAULT_REF

    @property
    def name(self) -> str:
        """How messages name the log (credentials in the URL are never shown)."""
        return f"{redact(self.remote)}#{self.ref}"


@dataclass(frozen=True, slots=True)
class Retry:
    """How hard an append tries when other gates keep winning the race."""

    attempts: int = ATTEMPTS
    backoff: float = BACKOFF
    max_backoff: float = MAX_BACKOFF
    sleep: Callable[[float], None] = time.sleep


def parse_spec(spec: str) -> GitLog:
    """`REMOTE[#REF]` → GitLog; UsageError for a remote git could read as an option or a ref git refuses."""
    remote, sep, ref = spec.rpartition("#") if "#" in spec else (spec, "", "")
    ref = ref if sep else DEFAULT_REF
    if not remote or remote.startswith("-") or any(c in remote for c in "\0\n\r"):
        raise UsageError(f"not a git remote: {redact(remote)!r}", where="--log-git/--git",
                         hint="give a repository path or URL, optionally followed by #refs/...")
    if "::" in remote.split("/", 1)[0]:
        raise UsageError("git remote helpers (transport::address) are not allowed", where="--log-git/--git",
                         hint="use a path, file://, https://, ssh:// or git:// URL")
    if not ref.startswith("refs/") or not _valid_ref(ref):
        raise UsageError(f"not a valid ref: {ref!r}", where="--log-git/--git",
                         hint=f"use a full ref name such as {DEFAULT_REF}")
    if "://" not in remote and ":" not in remote.split("/", 1)[0]:
        remote = str(Path(remote).absolute())  # a path: git runs in the scratch folder, not here
    return GitLog(remote, ref)


@lru_cache(maxsize=64)
def _valid_ref(ref: str) -> bool:
    """git's own verdict on a ref name (a function of the name alone: asked once a process per name)."""
    done = subprocess.run([git_program(), "check-ref-format", ref], capture_output=True, timeout=GIT_TIMEOUT)
    return done.returncode == 0


def redact(text: str) -> str:
    """`https://user:token@host/...` → `https://***@host/...` (a token in a URL never reaches a message)."""
    return _USERINFO.sub("***@", text)


class _Scratch:
    """A private bare repository in a temporary folder; every git command here is safe by construction."""

    def __init__(self, folder: Path, log: GitLog, env: Mapping[str, str]) -> None:
        self.folder = folder
        self.log = log
        base = {k: v for k, v in env.items() if not k.startswith("GIT_") or k in _PASS_GIT_ENV}
        self.env = {**base, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_TERMINAL_PROMPT": "0",
                    "HOME": str(folder), "LC_ALL": "C", "GIT_DIR": str(folder / "repo.git"),
                    "PATH": absolute_path(base.get("PATH", os.defpath)),  # git finds ssh and its helpers there
                    "GIT_AUTHOR_NAME": "gatekeeper", "GIT_AUTHOR_EMAIL": "gatekeeper@localhost",
                    "GIT_COMMITTER_NAME": "gatekeeper", "GIT_COMMITTER_EMAIL": "gatekeeper@localhost"}

    def run(self, *args: str, stdin: bytes | None = None, check: bool = True,
            timeout: float = GIT_TIMEOUT) -> subprocess.CompletedProcess[bytes]:
        try:
            done = subprocess.run([git_program(), *SAFE_GIT, *_PROTOCOLS, *args], cwd=self.folder, env=self.env,
                                  input=stdin if stdin is not None else b"", capture_output=True, timeout=timeout)
        except OSError as exc:
            raise AuditError(f"cannot run git: {exc.strerror}", where=self.log.name, hint="install git") from exc
        except subprocess.TimeoutExpired:
            raise AuditError(f"git {args[0]} did not finish within {timeout:g} s", where=self.log.name,
                             hint="check the remote is reachable") from None
        if check and done.returncode != 0:
            raise AuditError(f"git {args[0]} failed: {_reason(done.stderr)}", where=self.log.name)
        return done

    def fetched(self, *, depth: int | None) -> bool:
        """Fetch the log's ref into refs/tip; False when the remote has no such ref."""
        shallow = [f"--depth={depth}"] if depth else []
        done = self.run("fetch", "--quiet", "--no-tags", "--no-write-fetch-head", "--no-auto-gc", *shallow, "--",
                        self.log.remote, f"+{self.log.ref}:refs/tip", check=False,
                        timeout=GIT_TIMEOUT if depth else READ_TIMEOUT)
        if done.returncode != 0:
            reason = _reason(done.stderr)
            if "couldn't find remote ref" in reason:
                return False
            raise AuditError(f"cannot fetch the decision log: {reason}", where=self.log.name,
                             hint="check the remote exists and this job may read it")
        return True

    def tip(self) -> tuple[str, bytes | None]:
        """The fetched tip's commit id and its record blob's content (None when its tree holds no record.json blob):
        one `cat-file --batch` asked both, as `rev-parse --verify refs/tip^{commit}` and `cat-file blob` would."""
        out = self.run("cat-file", "--batch", stdin=f"refs/tip^{{commit}}\nrefs/tip^{{commit}}:{RECORD_FILE}\n".encode()
                       ).stdout
        answers: list[tuple[list[bytes], bytes]] = []
        at = 0
        for _ in range(2):
            end = out.index(b"\n", at)
            fields = out[at:end].split()
            size = int(fields[2]) if len(fields) == 3 and fields[2].isdigit() else -1
            answers.append((fields, out[end + 1:end + 1 + size] if size >= 0 else b""))
            at = end + 1 + (size + 1 if size >= 0 else 0)
        (commit, _), (blob, data) = answers
        if len(commit) != 3 or commit[1] != b"commit":
            raise AuditError("git rev-parse failed: the fetched ref is not a commit", where=self.log.name)
        return commit[0].decode(), data if len(blob) == 3 and blob[1] == b"blob" else None

    def commit(self, record: dict[str, Any], parent: str | None) -> str:
        """Write the record's blob, its one-file tree and the commit (parent `parent`) with one `git fast-import`,
        not a hash-object, mktree and commit-tree each: the same objects (author and committer are the scratch
        repository's identity, dated now); the new commit's id."""
        data = canonical(record) + b"\n"
        message = f"gatekeeper decision {record['seq']}: {record['outcome']}\n".encode()
        marks = self.folder / "marks"
        stream = b"".join([
            b"blob\nmark :1\ndata %d\n" % len(data), data, b"\n",
            b"commit refs/new\nmark :2\ncommitter gatekeeper <gatekeeper@localhost> now\n",
            b"data %d\n" % len(message), message,
            f"from {parent}\n".encode() if parent else b"",
            f"deleteall\nM 100644 :1 {RECORD_FILE}\n\n".encode(),  # the tree holds the record alone
        ])
        self.run("fast-import", "--quiet", "--force", "--date-format=now", f"--export-marks={marks}", stdin=stream)
        found = [line.split()[1] for line in marks.read_text(encoding="ascii").splitlines() if line.startswith(":2 ")]
        if len(found) != 1:
            raise AuditError("git fast-import wrote no commit", where=self.log.name)
        return found[0]

    def push(self, commit: str) -> tuple[bool, str]:
        """Push `commit` as the ref's new value, fast-forward only: (pushed, git's reason when not)."""
        done = self.run("push", "--porcelain", "--quiet", "--no-verify", "--", self.log.remote,
                        f"{commit}:{self.log.ref}", check=False)
        if done.returncode == 0:
            return True, ""
        out = done.stdout.decode("utf-8", "replace") + "\n" + done.stderr.decode("utf-8", "replace")
        rejected = [ln for ln in out.splitlines() if ln.startswith("!")]
        if rejected and _RACE.search(rejected[0]):
            return False, rejected[0]
        raise AuditError(f"cannot push the decision record: {_reason(done.stderr) or redact(rejected[0])}",
                         where=self.log.name, hint="check this job may push the ref; see docs/audit.md")


@contextmanager
def _scratch(log: GitLog, env: Mapping[str, str]) -> Iterator[_Scratch]:
    with tempfile.TemporaryDirectory(prefix="gatekeeper-gitlog-") as tmp:
        repo = _Scratch(Path(tmp), log, env)
        _init_bare(Path(repo.env["GIT_DIR"]))
        yield repo


def _init_bare(git_dir: Path) -> None:
    """What `git init --bare --template=` writes with no user or system configuration (the scratch environment), written
    without a git process: a private, empty repository that fetch, fast-import and push only need to find."""
    for folder in ("objects/info", "objects/pack", "refs/heads", "refs/tags"):
        (git_dir / folder).mkdir(parents=True)
    (git_dir / "HEAD").write_text("ref: refs/heads/master\n", encoding="ascii")
    (git_dir / "config").write_text("[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = true\n",
                                    encoding="ascii")


def _reason(stderr: bytes) -> str:
    lines = [ln.strip() for ln in stderr.decode("utf-8", "replace").splitlines() if ln.strip()]
    reasons = [ln for ln in lines if ln.startswith(("fatal:", "error:", "remote:"))]
    return redact(reasons[0] if reasons else (lines[-1] if lines else "no message"))


def append_git(log: GitLog, decision: dict[str, Any], *, ci: dict[str, Any] | None = None,
               env: Mapping[str, str] | None = None, retry: Retry | None = None,
               seal: Seal | None = None) -> dict[str, Any]:
    """Append `decision` as the next record on the log's ref and push it; the record as pushed (signed by `seal`)."""
    retry = retry or Retry(ATTEMPTS, BACKOFF, MAX_BACKOFF)  # read at call time, so a test can shorten them
    rng = random.Random()
    with _scratch(log, os.environ if env is None else env) as repo:
        for attempt in range(retry.attempts):
            tip = last = None
            if repo.fetched(depth=1):
                tip, content = repo.tip()
                last = _tip_record(content, tip, log)
            seq = 1 if last is None else int(last["seq"]) + 1
            prev = GENESIS if last is None else str(last["hash"])
            record = record_from_decision(decision, seq=seq, prev=prev, at=utc_now(), ci=ci, seal=seal)
            pushed, _ = repo.push(repo.commit(record, tip))
            if pushed:
                return record
            if attempt + 1 < retry.attempts:
                delay = min(retry.max_backoff, retry.backoff * 2**attempt)
                retry.sleep(delay * rng.uniform(0.5, 1.5))  # jitter: racing gates must not retry in lockstep
    raise AuditError(f"the decision record was not pushed: other gates kept moving the ref ({retry.attempts} attempts)",
                     where=log.name, hint="rerun the job; if it persists, check nothing rewrites the ref")


def _tip_record(content: bytes | None, tip: str, log: GitLog) -> dict[str, Any]:
    if content is None:
        raise AuditError(f"the decision log's last commit {tip[:12]} is not a log record: it holds no {RECORD_FILE}",
                         where=log.name, hint="run `gatekeeper audit verify --git` and repair the ref before appending")
    parsed = parse_line(content.removesuffix(b"\n"))
    if parsed.record is None or not parsed.ok:
        raise AuditError(f"the decision log's last commit {tip[:12]} is not a log record: {parsed.reason}",
                         where=log.name, hint="run `gatekeeper audit verify --git` and repair the ref before appending")
    return parsed.record


def read_git(log: GitLog, *, env: Mapping[str, str] | None = None) -> tuple[Snapshot, str]:
    """Every record on the log's ref, oldest first, as a Snapshot; and the tip commit. AuditError when absent."""
    with _scratch(log, os.environ if env is None else env) as repo:
        if not repo.fetched(depth=None):
            raise AuditError(f"the remote has no {log.ref}", where=log.name,
                             hint="check the remote and ref; a decision log ref that vanished was deleted")
        # The walk starts at the tip alone, so the tip is listed first (no `rev-parse` of its own).
        listing = repo.run("log", "--format=%H %T %P", "refs/tip^{commit}").stdout.decode().split("\n")
        commits = {fields[0]: (fields[1], fields[2:]) for fields in (ln.split() for ln in listing if ln)}
        tip = listing[0].split(" ", 1)[0]
        order: list[str] = []
        at: str | None = tip
        while at is not None:
            order.append(at)
            parents = commits[at][1]
            at = parents[0] if parents else None
        order.reverse()
        trees = _batch(repo, [commits[c][0] for c in order])
        blobs: dict[str, str | None] = {c: _record_blob(trees[commits[c][0]]) for c in order}
        contents = _batch(repo, sorted({b for b in blobs.values() if b}), limit=_MAX_BLOB)
        items = []
        for number, commit in enumerate(order, start=1):
            defect = None
            if len(commits[commit][1]) > 1:
                defect = "a merge commit: the decision log must be one line of commits"
            blob = blobs[commit]
            if blob is None:
                defect = defect or f"the commit's tree is not exactly one {RECORD_FILE}"
                raw = b""
            else:
                content = contents[blob]
                raw = content.removesuffix(b"\n") if content is not None else b""
                if content is None:
                    defect = defect or f"the record is larger than {_MAX_BLOB} bytes"
            items.append(Item(number, raw, commit, defect))
    return Snapshot(log.name, tuple(items), in_git=True), tip


def _record_blob(tree: bytes | None) -> str | None:
    """The blob id of a tree that holds exactly `100644 record.json`, else None."""
    prefix = f"100644 {RECORD_FILE}\0".encode()
    if tree is None or len(tree) != len(prefix) + 20 or not tree.startswith(prefix):
        return None
    return tree[len(prefix):].hex()


def _batch(repo: _Scratch, ids: list[str], *, limit: int | None = None) -> dict[str, bytes | None]:
    """The raw content of each object (one `cat-file --batch` for all); None past `limit` bytes."""
    if not ids:
        return {}
    sizes = repo.run("cat-file", "--batch-check", stdin="\n".join(ids).encode() + b"\n").stdout.decode().splitlines()
    small = [fields[0] for fields in (line.split() for line in sizes)
             if len(fields) == 3 and (limit is None or int(fields[2]) <= limit)]
    out = repo.run("cat-file", "--batch", stdin="\n".join(small).encode() + b"\n").stdout if small else b""
    result: dict[str, bytes | None] = dict.fromkeys(ids)
    pos = 0
    for object_id in small:
        end = out.index(b"\n", pos)
        size = int(out[pos:end].split()[2])
        result[object_id] = out[end + 1:end + 1 + size]
        pos = end + 1 + size + 1
    return result
