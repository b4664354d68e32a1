"""Dockerfile `FROM` images: registry/name, tag and digest; ARG defaults substituted; stage names skipped.

A tool a stage downloads by version (`ARG KUBECTL_VERSION=1.34.9` above a `curl …/v${KUBECTL_VERSION}/…`,
`ENV NODE_VERSION 20.11.1`) is a dependency too: an `ARG` or `ENV` named `<TOOL>_VERSION` whose value names a
version and that no `FROM` reads is the tool's version (ecosystem `tool`, named as workflows name it:
`helm/helm`), as Renovate's regex managers bump it. So is a tool containerbase's `install-tool` installs
(`RUN install-tool kubectl v1.36.4`, the images Renovate itself runs in): Renovate's regex managers bump these
lines by the tool's name, whatever package the annotation above looks it up as.
"""

from __future__ import annotations

import re

from gatekeeper.deps.hunks import CHANGED, HUNK
from gatekeeper.deps.loaders import text
from gatekeeper.deps.model import Dependency, ManifestError, PartlyRead
from gatekeeper.deps.tools import OWN_VERSIONS, TOOL, VERSIONISH, annotation, read_annotations, shell_default, tool_name
from gatekeeper.lazy_pattern import lazy

_ARG = lazy(r"^ARG\s+([A-Za-z_][A-Za-z0-9_]*)(?:=(\S*))?", re.IGNORECASE)
_TOOL_VERSION = lazy(r"^(?:ARG\s+(?P<arg>[A-Za-z_][A-Za-z0-9_]*?)_VERSION=|ENV\s+(?P<env>[A-Za-z_][A-Za-z0-9_]*?)"
                     r"_VERSION(?:=|\s+))(?P<q>[\"']?)(?P<value>[^\s\"']+)(?P=q)\s*$", re.IGNORECASE)
_FROM = lazy(r"^FROM\s+(?:--\S+\s+)*(\S+)(?:\s+AS\s+(\S+))?\s*$", re.IGNORECASE)
# `${NAME}`, `${NAME:-word}`, `${NAME:+word}` (the modifiers only inside braces) or a bare `$NAME`
_VAR = lazy(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::?(?P<op>[-+])(?P<word>[^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)")


def substitute(ref: str, args: dict[str, str]) -> str:
    """`${NAME}` and `$NAME` from the ARG defaults; `${NAME:-word}` is `word` when NAME has none (as the
    builder does with no --build-arg), `${NAME:+word}` is `word` when it has one."""
    def value(m: re.Match[str]) -> str:
        known = args.get(m.group(1) or m.group(4))
        if m.group("op") == "-":
            return known or m.group("word")
        if m.group("op") == "+":
            return m.group("word") if known else ""
        return known if known is not None else m.group(0)
    return _VAR.sub(value, ref)


def arg_value(value: str) -> str:
    """An ARG default as the builder reads it: one pair of matching quotes around the whole value removed
    (`ARG BCI="registry.suse.com/bci/bci-base:15.7"`, rancher's system-upgrade-controller); a lone or unmatched
    quote is kept, so the reference it makes stays unreadable rather than naming another image."""
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'" and value[0] not in value[1:-1]:
        return value[1:-1]
    return value


def split_image(ref: str) -> tuple[str, str, str]:
    """(name, tag, digest) of an image reference; the tag is "latest" only when neither is given."""
    name, _, digest = ref.partition("@")
    slash = name.rfind("/")
    colon = name.rfind(":")
    tag = ""
    if colon > slash:
        name, tag = name[:colon], name[colon + 1:]
    if not tag and not digest:
        tag = "latest"
    return name, tag, digest


def image_version(tag: str, digest: str) -> str:
    return f"{tag}@{digest}" if digest else tag


_DIRECTIVE = lazy(r"^#\s*([A-Za-z][A-Za-z0-9]*)\s*=\s*(.*?)\s*$")
_HEREDOC_HOLDERS = lazy(r"^\s*(?:RUN|COPY|ADD)\s", re.IGNORECASE)
_MARKER = lazy(r"(?:^|\s)\d*<<")
_HEREDOC = lazy(r"^\d*<<(-?)([\"']?)([A-Za-z_][\w.-]*)\2$")


def _heredocs(line: str) -> list[tuple[str, bool]]:
    """The here-documents a RUN, COPY or ADD instruction opens, in order: (terminator, tabs stripped). A marker
    the reader cannot bound as BuildKit does (a quote before it, a word that is not plain) fails closed."""
    if not _HEREDOC_HOLDERS.match(line) or not _MARKER.search(line):
        return []
    out = []
    quoted = False  # a quote in a word before: a `<<` after it may be inside a string
    for word in line.split():
        if "<<" not in word or not _MARKER.match(word):
            quoted = quoted or "'" in word or '"' in word
            continue
        m = _HEREDOC.match(word)
        if m is None or quoted:
            raise ManifestError(f"a here-document the reader cannot bound: {line.strip()[:80]!r}")
        out.append((m.group(3), bool(m.group(1))))
    return out


def instructions(body: str) -> list[str]:
    """A Dockerfile's instructions as BuildKit splits them (red team 12): the escape character of an `# escape=`
    parser directive; a continuation joined with nothing between, dropping the comment and blank lines inside it;
    comment lines; the bodies of RUN, COPY and ADD here-documents (a body line reading `FROM` is no instruction)."""
    lines = body.splitlines()
    escape = "\\"
    for line in lines:
        m = _DIRECTIVE.match(line.strip())
        if m is None:
            break
        if m.group(1).lower() == "escape" and m.group(2) in ("\\", "`"):
            escape = m.group(2)
    out: list[str] = []
    current: list[str] = []  # its pieces, joined once: a string grown by `+` copies each line (suite round 43)
    at = 0
    while at < len(lines):
        line = lines[at]
        at += 1
        if not line.strip() or line.lstrip().startswith("#"):
            continue  # a comment or blank line, also inside a continuation
        part = line.rstrip()
        joined = part.endswith(escape)
        current.append(part[:-1] if joined else line)
        if joined and at < len(lines):
            continue
        instruction = "".join(current)
        out.append(instruction.strip())
        for word, tabs in _heredocs(instruction):
            while at < len(lines) and (lines[at].lstrip("\t") if tabs else lines[at]) != word:
                at += 1
            if at == len(lines):
                raise ManifestError(f"a here-document never closed: <<{word}")
            at += 1
        current = []
    return out


_FLAGS = lazy(r"^(?:COPY|ADD|RUN)((?:\s+--\S+)+)", re.IGNORECASE)  # an instruction's own flags, not its command's
_FROM_FLAG = lazy(r"(?:^|\s)--from=(\S+)|--mount=(?:\S*,)?from=([^,\s]+)")


def from_images(body: str) -> list[tuple[str, str, str]]:
    """Every external image a Dockerfile's build pulls as (name, tag, digest), in order: its `FROM` images and
    those a `COPY --from=` or `RUN --mount=…,from=` names (a stage's name or number is no image)."""
    args: dict[str, str] = {}
    stages: set[str] = set()
    images: list[tuple[str, str, str]] = []
    for line in instructions(body):
        if m := _ARG.match(line):
            # an ARG with no default (`ARG BUILD_FROM`, Home Assistant's builders) is the build's argument: its
            # references stay as written, as an ARG never declared does — never an image named "" (round 45)
            if m.group(2) is not None:
                args.setdefault(m.group(1), arg_value(m.group(2)))
            continue
        if (m := _FROM.match(line)) is None:
            flags = _FLAGS.match(line)
            for flag in _FROM_FLAG.finditer(flags.group(1)) if flags is not None else ():
                ref = substitute(flag.group(1) or flag.group(2), args).strip("\"'")
                if ref.lower() not in stages and not ref.isdigit() and ref != "scratch":
                    images.append(split_image(ref))
            continue
        ref = substitute(m.group(1), args)
        if m.group(2):
            stages.add(m.group(2).lower())
        if ref.lower() in stages or ref == "scratch":
            continue
        images.append(split_image(ref))
    return images


_SYNTAX = lazy(r"^#\s*syntax\s*=\s*(\S+)\s*$", re.IGNORECASE)


def _frontend(body: str) -> list[tuple[str, str, str]]:
    """The BuildKit frontend a `# syntax=` parser directive names: an image the build runs. Directives
    count only above the first instruction, blank line or other comment, as BuildKit reads them."""
    for line in body.splitlines():
        m = _SYNTAX.match(line.strip())
        if m is not None:
            return [split_image(m.group(1))]
        if not line.startswith("#") or "=" not in line:
            break
    return []


def _tools(path: str, body: str) -> list[Dependency]:
    """The `<TOOL>_VERSION` ARG and ENV values no `FROM` reads (an annotated one is read as annotated); a value that
    is one shell default (`ENV BUILDX_VERSION=${BUILDX_VERSION:-v0.6.3}`) pins its default."""
    lines = [line.strip() for line in re.sub(r"\\\r?\n", " ", body).splitlines()]
    froms = " ".join(line for line in instructions(body) if _FROM.match(line))
    out: list[Dependency] = []
    above = ""
    for line in lines:
        m = _TOOL_VERSION.match(line)
        value = shell_default(m.group("value")) if m is not None else ""
        if m is not None and VERSIONISH.match(value) and annotation(above) is None:
            key = m.group("arg") or m.group("env")
            if key.lower() not in OWN_VERSIONS and not re.search(rf"\$\{{?{re.escape(key)}_VERSION\b", froms):
                dep = Dependency(TOOL, tool_name(key.lower().replace("_", "-")), value, path, True, "build")
                if dep not in out:
                    out.append(dep)
        if line:
            above = line
    return out


# containerbase's installer, one tool a line: `RUN install-tool dotnet 10.0.400`. Bounded runs of disjoint classes
# (the name and version hold no blank), so a hostile line is read in linear time.
_INSTALL_TOOL = lazy(r"""^RUN\s+install-tool\s+(?P<tool>[a-z0-9][\w.-]{0,63})\s+"""
                     r"""(?P<q>["']?)(?P<version>v?\d[\w.+-]{0,127})(?P=q)$""", re.IGNORECASE)


def _installed(path: str, body: str) -> list[Dependency]:
    """The tools `RUN install-tool NAME VERSION` instructions install, named as the line names them (`docker-compose`
    is docker/compose, as a workflow's pin of it is): a line with more on it (`&& install-tool …`) is no pin read."""
    out: list[Dependency] = []
    for line in instructions(body):
        m = _INSTALL_TOOL.match(line)
        if m is not None:
            dep = Dependency(TOOL, tool_name(m.group("tool").lower()), m.group("version"), path, True, "build")
            if dep not in out:
                out.append(dep)
    return out


def parse_dockerfile(path: str, data: bytes) -> list[Dependency]:
    body = text(data)
    return [Dependency("docker", name, image_version(tag, digest), path, True, "build")
            for name, tag, digest in _frontend(body) + from_images(body)] + read_annotations(path, body.splitlines()) \
        + _tools(path, body) + _installed(path, body)


# The instructions only a stage holds: nothing but ARG, comments and parser directives may stand above the first FROM,
# which is the only one that reads ARGs. One of these that starts an instruction shows the hunk is inside a stage.
_STAGE_ONLY = lazy(r"^(?:RUN|CMD|LABEL|MAINTAINER|EXPOSE|ENV|ADD|COPY|ENTRYPOINT|VOLUME|USER|WORKDIR|ONBUILD"
                   r"|STOPSIGNAL|HEALTHCHECK|SHELL)(?:\s|$)", re.IGNORECASE)
_USED = lazy(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)")


def _starts(lines: list[str]) -> list[bool]:
    """Whether each hunk line starts an instruction: the nearest line above it that is neither blank nor a comment
    (BuildKit drops those inside a continuation) is in the hunk and does not continue (`\\`)."""
    out: list[bool] = []
    last = None
    for line in lines:
        out.append(last is not None and not last.endswith("\\"))
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            last = stripped
    return out


def _stage_args(lines: list[str]) -> tuple[list[bool], list[bool]]:
    """For each line of a hunk (CHANGED markers removed), whether it stands inside a stage, after the first FROM, so
    that no FROM reads an ARG there: (a FROM the hunk shows above it, one whose previous line does not continue; an
    instruction only a stage holds, _STAGE_ONLY, starting above it, or below it with no FROM between). Never past a
    heredoc (`<<`), whose body could hold a line reading `FROM` or `RUN`. Linear in the hunk."""
    starts = _starts(lines)
    after_from, inside = [False] * len(lines), [False] * len(lines)
    seen_from, seen_stage, heredoc = False, False, False
    for n, line in enumerate(lines):
        after_from[n], inside[n] = seen_from and not heredoc, seen_stage and not heredoc
        stripped = line.strip()
        heredoc = heredoc or "<<" in line
        seen_from = seen_from or (n > 0 and _FROM.match(stripped) is not None
                                  and not lines[n - 1].rstrip().endswith("\\"))
        seen_stage = seen_stage or (starts[n] and _STAGE_ONLY.match(stripped) is not None)
    below = False  # the nearest FROM, heredoc or stage instruction below is a stage instruction
    for n in range(len(lines) - 1, -1, -1):
        inside[n] = inside[n] or below
        stripped = lines[n].strip()
        if "<<" in lines[n] or _FROM.match(stripped):
            below = False
        elif starts[n] and _STAGE_ONLY.match(stripped):
            below = True
    return after_from, inside


def dockerfile_hunks(path: str, data: bytes) -> list[Dependency]:
    """A Dockerfile's hunk lines (hunks.sides): its `FROM` images as the whole-file reader reads them, but a
    changed `ARG` must be used by a `FROM` the same hunk shows below it. `ARG DOTNET_VERSION=8.0` moves the
    image of a `FROM …sdk:${DOTNET_VERSION}` the hunk may not show; read alone, the move would be no change
    at all (jellyfin), so it fails closed (a `partial` problem) unless the FROM is there, or a `FROM` above it in
    the hunk shows it is a stage's: a `FROM` reads only the ARGs above the first one. The images the hunks do show
    are still named beside that problem (PartlyRead): `ARG ALPINE_VERSION=3.24` moved with a `FROM alpine:3.24 AS
    lint` in the same hunk (PHP-CS-Fixer) names alpine, and the gate reviews the file for the ARG's unseen uses.
    When every such ARG sits under a Renovate annotation the hunk shows, the annotations name them too (deps27's
    class, runatlantis/atlantis's `# renovate: … depName=opentofu/opentofu`); when one does not, none of their lines
    is read: what an unannotated one moves is unknown, no tool bump (round 7's class). An instruction only a stage
    holds (`RUN`, `ENV`, `COPY`, …) starting in the hunk above the ARG, or below it with no FROM between, places it
    in a stage too (round 57: `ARG TYPOS_CHECKSTYLE_VERSION=0.2.0` over the `RUN curl` it feeds, far below the
    file's FROM), so it is read as the file reads it."""
    body = text(data)
    unseen: list[str] = []
    annotated = True
    for hunk in body.split(HUNK):
        lines = hunk.splitlines()
        plain = [line.removeprefix(CHANGED) for line in lines]
        (after_from, inside), starts = _stage_args(plain), _starts(plain)
        last_use: dict[str, int] = {}  # each variable's last FROM in the hunk
        for index, line in enumerate(plain):
            if _FROM.match(line.strip()):
                for name in _USED.findall(line):
                    last_use[name] = index
        for index, raw in enumerate(lines):
            arg = _ARG.match(raw.removeprefix(CHANGED).strip()) if raw.startswith(CHANGED) else None
            if arg is None:
                continue
            if after_from[index]:
                continue  # a stage's ARG (ARG GO_VERSION after FROM golang AS build) no FROM can read
            if inside[index] and starts[index] and not raw.rstrip().endswith("\\"):
                continue  # a stage's too, beside a RUN: read whole, as the file reads it (a continued one may not be)
            if last_use.get(arg.group(1), -1) <= index:
                unseen.append(raw)
                annotated = annotated and index > 0 and annotation(lines[index - 1].lstrip(CHANGED)) is not None
    left_out = set() if annotated else set(unseen)
    shown = "\n".join(line.replace(CHANGED, "") for line in body.splitlines() if line != HUNK and line not in left_out)
    found = parse_dockerfile(path, shown.encode())
    if unseen:
        said = [f"a changed ARG whose use the hunk does not show: {raw.strip(CHANGED)[:80]!r}" for raw in unseen[:3]]
        raise PartlyRead("; ".join(said) + ("; …" if len(unseen) > 3 else ""), found)
    return found
