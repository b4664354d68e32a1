"""Red team 16, deps: a requirements file's logical lines, joined as pip joins them.

pip joins a line ending in `\\` with the next one, except a comment line (pip's `join_lines`: a line that starts with
`#`, after blanks, is never joined). The delta joined every line ending in `\\`, so

    flask==3.0.1
    # pinned for a CVE \\
    evil==1.0

was, for the delta, a bump of flask and a comment swallowing `evil==1.0`; pip installs evil. Beside an in-level bump
`gate --tree --enable deps` said allow (exit 0). The readers (requirements, their residue, their includes) now take
pip's logical lines; pip's own parser is the truth every variant is compared with.
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.cli import main
from gatekeeper.deps.pypi import included_files, parse_requirements, requirements_residue
from tests.gitrepo import GitRepo

# setuptools first, when there is one: pip's parser imports distutils, and the stdlib's copy imported before
# setuptools' would be the one every later setuptools test in this process gets (tests/test_redteam14_lowering_proof).
with contextlib.suppress(ImportError):
    import setuptools  # noqa: F401
req_file = pytest.importorskip("pip._internal.req.req_file")
pip_session = pytest.importorskip("pip._internal.network.session")

HIDDEN = "evil==1.0"
# Ways a line may end before the hidden one, each with what separates lines.
ENDINGS = {
    "comment": "# pinned for a CVE \\",
    "indented comment": "    # pinned \\",
    "tab comment": "\t# pinned \\",
    "double backslash comment": "# pinned \\\\",
    "comment after a continued requirement": "six==1.16.0 \\\n# six's pin \\",
}
BREAKS = {"lf": "\n", "crlf": "\r\n"}


def _pip_names(path: Path) -> list[str]:
    session = pip_session.PipSession()
    return sorted(r.requirement.partition("==")[0] if "==" in r.requirement else r.requirement
                  for r in req_file.parse_requirements(str(path), session=session))


def _names(path: str, data: bytes) -> list[str]:
    return sorted(d.name for d in parse_requirements(path, data))


@each_case("brk, ending", [(brk, ending) for brk in BREAKS for ending in ENDINGS])
def test_the_delta_joins_lines_as_pip_does(tmp_path: Path, ending: str, brk: str) -> None:
    text = f"flask==3.0.1\n{ENDINGS[ending]}\n{HIDDEN}\n".replace("\n", BREAKS[brk])
    path = tmp_path / "requirements.txt"
    path.write_bytes(text.encode())
    truth = _pip_names(path)
    assert "evil" in truth
    assert _names("requirements.txt", text.encode()) == truth, (ending, brk)


def test_an_include_after_a_comment_continuation_is_followed() -> None:
    assert included_files("requirements.txt", b"# base \\\n-r tools/dev.txt\n") == ["tools/dev.txt"]


def test_an_option_after_a_comment_continuation_is_residue() -> None:
    assert requirements_residue(b"# note \\\n--trusted-host evil.example\n") == ["--trusted-host evil.example"]


def test_a_continued_requirement_still_joins(tmp_path: Path) -> None:
    text = b"flask==3.0.1 \\\n    --hash=sha256:" + b"a" * 64 + b"\nsix==1.16.0 \\\n"
    path = tmp_path / "requirements.txt"
    path.write_bytes(text)
    assert _names("requirements.txt", text) == _pip_names(path) == ["flask", "six"]


def test_the_gate_reviews_the_hidden_requirement(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.write("requirements.txt", "flask==3.0.0\n")
    base = repo.commit("base")
    repo.write("requirements.txt", f"flask==3.0.1\n{ENDINGS['comment']}\n{HIDDEN}\n")
    head = repo.commit("head")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["gate", "--tree", f"{base}..{head}", "--repo", str(repo.root), "--format", "json",
                     "--enable", "deps"])
    decision = json.loads(out.getvalue())
    assert code == 3, decision["reasons"]
    assert "deps.new_direct" in {r["rule"] for r in decision["reasons"]}


# `-r`/`-c` as pip's option parser (optparse) reads them: attached short values, unambiguous long prefixes, `=`,
# quotes, several options on one line. The include reader matched `-r PATH` / `--requirement[= ]PATH` at the line's
# start only, so a file included as `-rtools/dev.txt` or `--req tools/dev.txt` stayed `src` under `--tree`.
INCLUDE_SPELLINGS = ["-rtools/dev.txt", "--requirem tools/dev.txt", "--requireme=tools/dev.txt",
                     "--requirement\ttools/dev.txt",
                     "-r tools/a.txt -r tools/dev.txt", "-ctools/dev.txt", "--constr=tools/dev.txt",
                     "--pre -r tools/dev.txt", "-r 'tools/dev.txt'", "--no-index -c tools/dev.txt",
                     "-r tools/a.txt --requirement=tools/dev.txt"]
# (`--req` is ambiguous for pip: --require-hashes too)
NOT_INCLUDES = ["# -r tools/dev.txt", "flask==3.0.1 -r tools/dev.txt", "--hash tools/dev.txt", "--req tools/dev.txt",
                "--r=tools/dev.txt"]


@pytest.mark.parametrize("line", INCLUDE_SPELLINGS + NOT_INCLUDES)
def test_includes_are_read_as_pips_option_parser_reads_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            line: str) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools/dev.txt").write_text("evil==1.0\n")
    (tmp_path / "tools/a.txt").write_text("six==1.16.0\n")
    (tmp_path / "requirements.txt").write_text(f"{line}\n")
    try:
        pip_opens = "evil" in _pip_names(tmp_path / "requirements.txt")
    except Exception:  # noqa: BLE001 - pip refuses the line (an ambiguous option, a requirement's unknown option)
        pip_opens = False
    ours = "tools/dev.txt" in included_files("requirements.txt", f"{line}\n".encode())
    assert ours if pip_opens else (ours is False or line in INCLUDE_SPELLINGS), line  # an over-read is allowed
    assert ours == (line in INCLUDE_SPELLINGS), line
