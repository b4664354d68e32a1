"""What a Dockerfile's RUN instructions install at an exact version, beside what docker.py reads (images, ARG/ENV
`<TOOL>_VERSION` values, install-tool lines): the same install commands a workflow's run lines are read for
(runlines.installs: pip, npm, go, cargo, gem, dotnet, apt, apk, pecl, composer), and the GitHub releases a RUN line
downloads by version (`curl -fsSL https://github.com/just-containers/s6-overlay/releases/download/v${S6_VERSION}/…`:
the repository is the tool's name, whatever the ARG is called; an `ADD` of such a URL too). ARG defaults and ENV
values above a RUN are substituted into it as the builder does without --build-arg (`pecl install redis-${REDIS_V}`).

Not read: a here-document's body (`RUN <<EOF … EOF`: docker.instructions skips it), the exec form (`RUN ["pip", …]`),
a version from a --build-arg or a file the build copies in. A Dockerfile is in the `iac` bucket, which core reviews
whatever its delta: these changes name what moved, they explain the file to nobody.
"""

from __future__ import annotations

import re

from gatekeeper.deps import docker
from gatekeeper.deps.hunks import CHANGED, HUNK
from gatekeeper.deps.loaders import text
from gatekeeper.deps.model import Dependency, ManifestError, PartlyRead
from gatekeeper.deps.runlines import installs, releases
from gatekeeper.lazy_pattern import lazy

# The keywords an instruction starts with: in a hunk, a line starting with none continues a RUN the hunk cuts
_KEYWORDS = frozenset({"from", "run", "cmd", "label", "maintainer", "expose", "env", "add", "copy", "entrypoint",
                       "volume", "user", "workdir", "arg", "onbuild", "stopsignal", "healthcheck", "shell"})
_RUN = lazy(r"^RUN(?:\s+--\S+)*\s+", re.IGNORECASE)  # the instruction and its own flags (`--mount=…`, `--network=…`)
_ARG = lazy(r"^ARG\s+([A-Za-z_]\w*)(?:=[\"']?([^\"'\s]*)[\"']?)?\s*$", re.IGNORECASE)
_PAIR = lazy(r"^([A-Za-z_]\w*)=[\"']?([^\"'\s]*)[\"']?$")


def _assign(line: str, values: dict[str, str]) -> None:
    """Record an ARG's default (the first one: a later ARG of the same name in another stage keeps it, as
    docker.from_images does) or an ENV's values (`ENV A=1 B=2`, `ENV A 1`)."""
    if (m := _ARG.match(line)) is not None:
        values.setdefault(m.group(1), m.group(2) or "")
        return
    words = line.split()[1:]
    if words and "=" in words[0]:
        for pair in filter(None, map(_PAIR.match, words)):
            values[pair.group(1)] = pair.group(2)
    elif len(words) == 2:
        values[words[0]] = words[1].strip("\"'")


def runs(path: str, body: str, fragments: bool = False) -> list[Dependency]:
    """The packages and releases `body`'s RUN instructions install at an exact version. With `fragments` (one hunk),
    an instruction starting with no keyword (`  && apt-get install -y \\`: the hunk begins inside a RUN) is read as
    a RUN's command."""
    values: dict[str, str] = {}
    out: dict[Dependency, None] = {}  # in order, each once (a set's test: linear in a RUN of 100,000 pins)
    for line in filter(None, docker.instructions(body)):  # a lone `\` joins into an empty instruction
        keyword = line.split(None, 1)[0].lower()
        if keyword in ("arg", "env"):
            _assign(line, values)
            continue
        run = _RUN.match(line)
        if run is None and keyword != "add" and not (fragments and keyword not in _KEYWORDS):
            continue
        command = docker.substitute(line[run.end():] if run is not None else line, values)
        found = [] if keyword == "add" else installs(path, command)  # ADD downloads a URL, runs no command
        found += releases(path, command)
        out.update(dict.fromkeys(found))
    return list(out)


def parse_dockerfile(path: str, data: bytes) -> list[Dependency]:
    """docker.parse_dockerfile's dependencies (as it lists them: an image used twice is two use sites) and those the
    RUN instructions install that it does not name."""
    return _beside(docker.parse_dockerfile(path, data), [runs(path, text(data))])


def _beside(found: list[Dependency], more: list[list[Dependency]]) -> list[Dependency]:
    """`found` as it is, then each dependency of `more` it does not hold, once."""
    seen = set(found)
    added = dict.fromkeys(dep for part in more for dep in part if dep not in seen)
    return found + list(added)


def _hunk_runs(path: str, hunk: str) -> list[Dependency]:
    """One hunk's RUN installs; none when the hunk cannot be split into instructions alone (a here-document it opens
    and a later hunk closes): docker.dockerfile_hunks judges the file, and the Dockerfile is reviewed as `iac`."""
    try:
        return runs(path, hunk, True)
    except ManifestError:
        return []


def dockerfile_hunks(path: str, data: bytes) -> list[Dependency]:
    """docker.dockerfile_hunks's dependencies and those each hunk's RUN lines install (one hunk apart from the next:
    a hunk's last line continues into no other hunk's first). Beside a `partial` problem (PartlyRead) too."""
    hunks = [_hunk_runs(path, hunk.replace(CHANGED, "")) for hunk in text(data).split(HUNK)]
    try:
        found = docker.dockerfile_hunks(path, data)
    except PartlyRead as partly:
        partly.found = _beside(partly.found, hunks)
        raise
    return _beside(found, hunks)
