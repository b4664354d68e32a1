"""Red team 12, Dockerfiles: an image the build pulls that the delta did not report (`deps.base_image` never fired).

The reader joined lines on `\\` + newline with a space and matched `FROM` per joined line, where BuildKit:

- drops comment lines and blank lines inside a continuation (`FROM \\`, `# pinned`, `evil/img:1` is `FROM evil/img:1`),
- joins a continuation with nothing between (`FROM evil/img\\`, `:1` is one reference, not `evil/img :1`),
- reads the escape character from the `# escape=`` ` parser directive (then `\\` is a plain character, and a
  backtick continues the line),
- skips here-document bodies of RUN, COPY and ADD: a body line reading `FROM scratch AS ubuntu` named a stage, so the
  real `FROM ubuntu` below read as that stage;
- and pulls an image named by `COPY --from=IMAGE` and `RUN --mount=…,from=IMAGE` as it pulls a `FROM`.

So a stage added (or a base swapped, with a decoy line for the old one) was no change at all. The class fix: the
reader splits instructions as BuildKit does (docker.instructions), fails closed on a here-document it cannot bound (a
quote before `<<`, a body never closed), and reports `--from` images. Each hiding form is generated for added stages
and for swaps, and gated with the patch and with `--tree`."""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case
from test_deps_gate import Case, gate

from gatekeeper.deps.docker import parse_dockerfile
from gatekeeper.deps.model import ManifestError

BASE = "FROM golang:1.22 AS build\nRUN go build ./...\n\nFROM alpine:3.19\nCOPY --from=build /app /app\n"
EVIL = "evil.example/tools:1"

# How a `FROM EVIL` line is written so the reader missed it (each joined into the file as a new stage).
HIDDEN_FROMS = {
    "a comment inside the continuation": "FROM \\\n# pinned by the platform team\n  evil.example/tools:1 AS tools",
    "an indented comment inside the continuation": "FROM \\\n    #\n  evil.example/tools:1 AS tools",
    "a blank line inside the continuation": "FROM \\\n\n  evil.example/tools:1 AS tools",
    "a reference split by a continuation": "FROM evil.example/tools\\\n:1 AS tools",
    "a tag split by a continuation and a comment": "FROM evil.example/\\\n# x\ntools:1 AS tools",
    "a CRLF continuation and a comment": "FROM \\\r\n# x\r\n  evil.example/tools:1 AS tools",
}
ESCAPED = {
    "a backtick continuation": "# escape=`\n" + BASE + "FROM `\n  evil.example/tools:1 AS tools\n",
    "a backslash made plain": "# escape=`\n" + BASE + "RUN echo \\\nFROM evil.example/tools:1 AS tools\n",
    "a directive in capitals": "#ESCAPE = `\n" + BASE + "FROM `\n  evil.example/tools:1 AS tools\n",
}
PULLS = {
    "COPY --from an image": "COPY --from=evil.example/tools:1 /bin/x /usr/bin/x",
    "COPY --link --from an image": "COPY --link --from=evil.example/tools:1 /bin/x /usr/bin/x",
    "RUN --mount from an image": "RUN --mount=type=bind,from=evil.example/tools:1,target=/t /t/x",
    "RUN --mount from an image, from first": "RUN --mount=from=evil.example/tools:1,target=/t,type=bind /t/x",
    "COPY --from an image through an ARG": "ARG TOOLS=evil.example/tools:1\nCOPY --from=${TOOLS} /x /x",
}


def _stage_name_decoy() -> str:
    """A here-document body names a stage `ubuntu`, so the real `FROM ubuntu` read as that stage."""
    return BASE + "COPY <<EOF /etc/motd\nFROM scratch AS ubuntu\nEOF\nFROM ubuntu\nRUN id\n"


def _attacks() -> dict[str, tuple[str, str]]:
    out = {f"added stage, {name}": (BASE, BASE + hidden + "\nCOPY --from=tools /x /x\n")
           for name, hidden in HIDDEN_FROMS.items()}
    for name, hidden in HIDDEN_FROMS.items():  # the base swapped, a here-document keeping the old line in view
        swapped = BASE.replace("FROM alpine:3.19", hidden + "\nCOPY <<EOF /etc/motd\nFROM alpine:3.19\nEOF")
        out[f"swap, {name}"] = (BASE, swapped)
    out |= {f"escape directive, {name}": (BASE, text) for name, text in ESCAPED.items()}
    out |= {f"pull, {name}": (BASE, BASE + line + "\n") for name, line in PULLS.items()}
    out["a here-document decoy names a stage"] = (BASE, _stage_name_decoy())
    return out


ATTACKS = _attacks()


def test_the_attacks_are_generated() -> None:
    assert len(ATTACKS) == 21


@pytest.mark.parametrize("tree", [False, True], ids=["patch", "tree"])
def test_an_image_the_build_pulls_is_a_base_image_change(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                         tree: bool) -> None:
    base = {f"c{n}/Dockerfile": old for n, (old, _) in enumerate(ATTACKS.values())}
    head = {f"c{n}/Dockerfile": new for n, (_, new) in enumerate(ATTACKS.values())}
    decision = gate(capsys, Case(tmp_path, base, head), tree)
    flagged = {p for reason in decision["reasons"] if reason["rule"] in ("deps.base_image", "deps.unreadable")
               for p in reason.get("paths", ())}
    missed = [name for n, name in enumerate(ATTACKS) if f"c{n}/Dockerfile" not in flagged]
    assert not missed, missed


@each_case("name", sorted(ATTACKS))
def test_the_hidden_image_is_named(name: str) -> None:
    _, head = ATTACKS[name]
    try:
        images = {d.name for d in parse_dockerfile("Dockerfile", head.encode()) if d.ecosystem == "docker"}
    except ManifestError:
        return  # not read: a problem, reviewed
    assert images & {"evil.example/tools", "ubuntu"}, images


QUIET = [
    BASE,
    BASE + "RUN <<EOF\nset -e\napk add curl \\\n  jq\nEOF\n",
    BASE + "COPY <<-EOF /etc/app.conf\n\tFROM here on\n\tEOF\nRUN <<'A' <<\"B\"\nx\nA\ny\nB\n",
    "# syntax=docker/dockerfile:1\n# escape=\\\n" + BASE,
    BASE.replace("FROM alpine:3.19", "FROM \\\n  alpine:3.19"),
    BASE + "COPY --from=0 /x /y\nCOPY --from=build /a /b\nRUN --mount=type=cache,target=/root/.cache x\n",
]


@each_case("text", QUIET)
def test_ordinary_dockerfiles_read_as_before(text: str) -> None:
    images = [(d.name, d.version) for d in parse_dockerfile("Dockerfile", text.encode()) if d.ecosystem == "docker"]
    assert [i for i in images if i[0] != "docker/dockerfile"] == [("golang", "1.22"), ("alpine", "3.19")]


@each_case("text", [
    BASE + "RUN <<EOF\nFROM evil.example/tools:1\n",  # never closed
    BASE + 'RUN echo "x <<b"\nFROM evil.example/tools:1 AS t\nCOPY <<EOF /y\nb\nEOF\n',  # a quote before `<<`
    BASE + "COPY <<$NAME /x\nFROM evil.example/tools:1\n$NAME\n",  # a word the reader does not bound
])
def test_a_here_document_the_reader_cannot_bound_is_a_problem(text: str) -> None:
    with pytest.raises(ManifestError):
        parse_dockerfile("Dockerfile", text.encode())
