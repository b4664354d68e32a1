"""cost43: readers that built a string a line (or a piece) at a time with `+` (issues 12 and 13). CPython grows such a
string in place only while nothing else holds it and the allocator can extend its block: a profile or trace function
(coverage, a debugger) turns the in-place growth off, and a heap that cannot extend the block copies it, so each
line copies all the lines before it. Suite round 43's sweep of every cost test at 64 KiB, 256 KiB and 1 MiB, in one
long process, measured `docker.instructions` on 43,690 continued `RUN` lines at 0.03, 0.17 and 1.95 CPU-s (11.5
times at 4 times the text; 0.34 CPU-s in a fresh process). The readers now gather the pieces in a list and join them
once. Each test keeps the old reading as an oracle and runs the reader under a no-op profile function, so the copy per
line is what a test measures on every machine."""

from __future__ import annotations

import random
import re
import sys
from collections.abc import Callable

from cpucost import assert_linear

from gatekeeper.classify import autorun, dockerrefs, pipinstalls
from gatekeeper.deps import bazel, bazelpins, docker
from gatekeeper.deps.model import ManifestError


def _copying(read: Callable[[str], object]) -> Callable[[str], object]:
    """`read` under a no-op profile function: CPython's in-place growth of a string is off, as under coverage."""
    def profiled(text: str) -> object:
        before = sys.getprofile()  # a profiler the run was started under gets its function back
        sys.setprofile(lambda *_: None)
        try:
            return read(text)
        finally:
            sys.setprofile(before)
    return profiled


def _outcome(read: Callable[[str], object], text: str) -> object:
    try:
        return read(text)
    except ManifestError as error:
        return ("refused", str(error))


# The readings as they were before suite round 43 (one string grown by `+` a line or a piece at a time).
def _docker_instructions_before(body: str) -> list[str]:
    lines = body.splitlines()
    escape = "\\"
    for line in lines:
        m = docker._DIRECTIVE.match(line.strip())
        if m is None:
            break
        if m.group(1).lower() == "escape" and m.group(2) in ("\\", "`"):
            escape = m.group(2)
    out: list[str] = []
    current: str | None = None
    at = 0
    while at < len(lines):
        line = lines[at]
        at += 1
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        part = line.rstrip()
        joined = part.endswith(escape)
        current = (current or "") + (part[:-1] if joined else line)
        if joined and at < len(lines):
            continue
        out.append(current.strip())
        for word, tabs in docker._heredocs(current):
            while at < len(lines) and (lines[at].lstrip("\t") if tabs else lines[at]) != word:
                at += 1
            if at == len(lines):
                raise ManifestError(f"a here-document never closed: <<{word}")
            at += 1
        current = None
    return out


def _dockerrefs_instructions_before(text: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    pending = ""
    for line in text.splitlines():
        if line.lstrip().startswith("#") or pending and not line.strip():
            continue
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        whole, pending = pending + line, ""
        if (match := dockerrefs._INSTRUCTION.match(whole)) is not None:
            out.append((match.group(1).upper(), match.group(2)))
    return out


def _logical_lines_before(text: str) -> list[str]:
    out: list[str] = []
    pending = ""
    for line in text.splitlines():
        stripped = line.rstrip()
        if stripped.endswith(("\\", "`", "^")):
            pending += stripped[:-1] + " "
            continue
        out.append(pending + line)
        pending = ""
    if pending:
        out.append(pending)
    return out


def _plain_json_before(text: str) -> str:
    pieces: list[tuple[str, bool]] = []
    end = 0
    for match in autorun._TOKEN.finditer(text):
        pieces.append((text[end:match.start()].translate(autorun._SEPARATORS), False))
        token = match.group()
        if autorun._open_comment(token):
            return text
        pieces.append((token, True) if token.startswith('"') else (" ", False))
        end = match.end()
    pieces.append((text[end:].translate(autorun._SEPARATORS), False))
    out: list[str] = []
    plain = ""
    for piece, string in pieces:
        if string:
            out += [autorun._TRAILING_COMMA.sub(r"\1", plain), piece]
            plain = ""
        else:
            plain += piece
    return "".join([*out, autorun._TRAILING_COMMA.sub(r"\1", plain)])


_DOCKER_LINES = ["RUN a \\", "  b \\", "RUN x `", "  y `", "# c", "#escape=`", "# escape=\\", "", "   ", "\t",
                 "FROM x AS y", "COPY a b", "RUN <<EOF", "RUN cat <<-E1 <<E2", "EOF", "\tE1", "E2", "ADD <<'EOF' /x",
                 "RUN echo \\ ", "  # inside \\", "\\", "`", "RUN 'a <<EOF'", "run apt-get install p=1 \\",
                 "   last=1", "ENV A=1 \\"]
_SHELL_LINES = ["pip install a \\", "  -r r.txt \\", "pip install b `", "x ^", "^", "`", "\\", "  \\  ", "", " ",
                "# c \\", "python -m pip install -e . ^", "y", "\t-c c.txt", "a\\\\", "RUN pip install \\",
                "CMD x", "#", "   # note"]
_JSONC_PIECES = ['{', '}', '[', ']', ',', ' ', '\n', '"a"', '"b\\"c"', '"/* x */"', '// c\n', '/* c */', '/**/',
                 '1', ':', '\u2028', ', }', ',\n]', '"\\\\"', '/* a\nb */']


def _texts(vocabulary: list[str], joiner: str, seed: int, count: int = 4000) -> list[str]:
    pick = random.Random(seed)
    return [joiner.join(pick.choice(vocabulary) for _ in range(pick.randrange(1, 16))) + pick.choice(["", joiner])
            for _ in range(count)]


def test_the_dockerfile_instructions_agree_with_the_old_reading() -> None:
    for text in _texts(_DOCKER_LINES, "\n", 43):
        assert _outcome(docker.instructions, text) == _outcome(_docker_instructions_before, text), text


def test_the_docker_run_instructions_agree_with_the_old_reading() -> None:
    for text in _texts(_DOCKER_LINES, "\n", 44):
        assert dockerrefs._instructions(text) == _dockerrefs_instructions_before(text), text


def test_the_logical_lines_agree_with_the_old_reading() -> None:
    for text in _texts(_SHELL_LINES, "\n", 45) + _texts(_SHELL_LINES, "\r\n", 46, 500):
        assert pipinstalls._logical_lines(text) == _logical_lines_before(text), text


def test_the_plain_json_agrees_with_the_old_reading() -> None:
    for text in _texts(_JSONC_PIECES, "", 47):
        assert autorun.plain_json(text) == _plain_json_before(text), text


def _continued(line: str, last: str) -> Callable[[int], str]:
    """`line` (ending in a continuation) repeated to the size, then `last`: one instruction of every line."""
    return lambda size: line * (size // len(line)) + last


def test_a_long_continued_dockerfile_instruction_is_read_in_linear_time() -> None:
    text = _continued("    p=1.0-1 \\\n", "    last=1\n")
    assert_linear(_copying(lambda body: docker.instructions("RUN apt-get install \\\n" + body)),
                  lambda size: text(size * 16), budget=0.6)


def test_a_long_continued_run_is_read_in_linear_time() -> None:
    text = _continued("    ./x.sh \\\n", "    y\n")
    assert_linear(_copying(lambda body: dockerrefs._instructions("RUN a \\\n" + body)),
                  lambda size: text(size * 16), budget=0.6)


def test_a_long_continued_shell_line_is_read_in_linear_time() -> None:
    text = _continued("  -r r.txt \\\n", "x\n")
    assert_linear(_copying(pipinstalls._logical_lines), lambda size: text(size * 16), budget=0.25)


def test_a_long_jsonc_text_without_strings_is_read_in_linear_time() -> None:
    unit = "/**/" + "1," * 6  # a comment (a piece blanked) between plain pieces: no string ends the plain text
    assert_linear(_copying(autorun.plain_json), lambda size: "[" + unit * (size * 16 // len(unit)) + "]", budget=1.0)


# A MODULE.bazel's calls cut out of its text as they were before suite round 43: the rest of the text copied per call
# (quadratic in the calls: 7, 42 and 481 ms at 64 KiB, 256 KiB and 1 MiB of `oci.pull` calls).
def _cut_before(body: str, calls: list[re.Match[str]]) -> str:
    for call in reversed(calls):
        body = body[:call.start()] + body[call.end():]
    return body


def _residue_before(data: bytes) -> str:
    body = bazel._CALL.sub("", bazel._body(data))
    body = _cut_before(body, [call for call, _ in bazel._pulls(body)])
    body = bazel.COORDINATE.sub("", body)
    if "git_override" in body:
        body = _cut_before(body, [call for call, _ in bazelpins._read(body)])
    return re.sub(r"\s+", " ", body).strip()


_PULL = 'oci.pull(name = "x", image = "127.0.0.1:9/x", tag = "1")\n'
_OVERRIDE = f'git_override(module_name = "m", remote = "https://127.0.0.1:9/o/m.git", commit = "{"a" * 40}")\n'
_MODULE_PIECES = [_PULL, _OVERRIDE, 'oci.pull(name = x)\n', 'bazel_dep(name = "a", version = "1")\n', "# c\n",
                  '"g:a:1",\n', "x = 1\n", "git_override(\n", 'oci.pull(name = "y", tag = "2")', ")\n", "\n", " ",
                  'git_override(module_name = "m", commit = "1")\n', "  oci.pull(tag = \"3\")\n"]


def test_a_module_files_residue_agrees_with_the_old_reading() -> None:
    for text in _texts(_MODULE_PIECES, "", 48):
        assert bazel.residue(text.encode()) == _residue_before(text.encode()), text


def test_many_pulls_and_overrides_are_cut_in_linear_time() -> None:
    for unit in (_PULL, _OVERRIDE):
        assert_linear(bazel.residue, lambda size, unit=unit: (unit * (size * 16 // len(unit))).encode(), budget=0.5)
