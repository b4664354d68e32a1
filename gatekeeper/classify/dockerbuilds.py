"""The Dockerfiles a CI step builds, with their build contexts (red team 19, tests/test_redteam19_ci_runs.py).

`docker build -f build/Dockerfile .` in a workflow builds with the repository's root as the context, not the
Dockerfile's folder: `COPY scripts/prep.sh /prep.sh` then `RUN /prep.sh` runs `scripts/prep.sh` in the CI job's
build (the image it pushes, the secrets it mounts). dockerrefs.py reads a Dockerfile against its own folder, so
the script was `src`. Read here: `docker build`/`docker buildx build`/`docker image build`, `podman build`,
`nerdctl build`, `buildah bud` with their `-f`/`--file` and the context argument (the one word no option takes;
`-` or a URL names no folder), and `docker/build-push-action`'s `context:` and `file:` inputs (the context
defaults to the checkout, the file to `{context}/Dockerfile`). What such a build RUNs is `ci`
(`ci.context.ci-run`), followed as any script CI runs.
"""

from __future__ import annotations

import re

from gatekeeper.lazy_pattern import lazy

__all__ = ["builds", "run_builds"]

_BUILD = lazy(r"\b(?:docker|podman|nerdctl)(?:\.exe)?[ \t]+(?:image[ \t]+|buildx[ \t]+|builder[ \t]+)?"
                    r"(?:build|b)(?=[ \t]|$)([^;&|\n]*)|\bbuildah[ \t]+(?:bud|build)(?=[ \t]|$)([^;&|\n]*)")
# The options of `docker build` (and buildx, podman, buildah) that take a value as the next word.
_TAKES = frozenset({
    "-t", "--tag", "--build-arg", "--target", "--platform", "--label", "--secret", "--ssh", "--cache-from",
    "--cache-to", "-o", "--output", "--network", "--progress", "--iidfile", "--metadata-file", "--builder",
    "--build-context", "--add-host", "--shm-size", "--ulimit", "-m", "--memory", "--memory-swap", "--cpu-shares",
    "--cpuset-cpus", "--allow", "--annotation", "--attest", "--provenance", "--sbom", "--cgroup-parent",
    "--isolation", "--call", "--security-opt", "--format", "--authfile", "--layers", "--jobs", "--arch", "--os",
    "--variant", "--manifest", "--from", "--volume", "-v", "--env", "-e", "--ignorefile", "--secret-file",
})
_RUN = lazy(r"\b(?:docker|podman|nerdctl)(?:\.exe)?[ \t]+(?:container[ \t]+)?run[ \t]")
_ACTION = lazy(r"^([ \t]*)(?:-[ \t]+)?uses[ \t]*:[ \t]*['\"]?docker/build-push-action@", re.MULTILINE)
_INPUT = lazy(r"^[ \t]+(context|file)[ \t]*:([^#\n]*)")
_WORKSPACE = lazy(r"^(?:\$\{\{\s*github\.workspace\s*\}\}|\$\{?(?:GITHUB_WORKSPACE|CI_PROJECT_DIR)\b\}?)/?")
MAX_BUILDS = 64  # builds a file names that are read (past it: the rest are not; a definition's own words still are)


def builds(text: str) -> list[tuple[str, str]]:
    """(the Dockerfile, the build context) of each image build `text`'s commands and build-push-action steps run,
    as written (relative to the step's folder; "" for a context of `.`)."""
    if "build" not in text:
        return []
    found: list[tuple[str, str]] = []
    for match in _BUILD.finditer(text):
        found += _command(match.group(1) if match.group(1) is not None else match.group(2))
    for match in _ACTION.finditer(text):
        inputs = {"context": ".", "file": ""}
        for line in text[match.end():match.end() + 4_000].splitlines()[1:40]:
            if line.strip() and len(line) - len(line.lstrip()) <= len(match.group(1)) + 2 \
                    and not line.lstrip().startswith(("with", "#")):
                break  # the step's mapping has ended
            if (value := _INPUT.match(line)) is not None:
                inputs[value.group(1)] = value.group(2).strip().strip("'\"")
        context = _folder(inputs["context"])
        if context is not None:
            found.append((inputs["file"] or f"{context}/Dockerfile".lstrip("/"), context))
    return list(dict.fromkeys(found))[:MAX_BUILDS]


def run_builds(text: str) -> list[tuple[str, str]]:
    """The builds of builds() whose image `text` then starts by its tag (`docker build -t x ctx`, then `docker run …
    x`): their ENTRYPOINT and CMD run in the job too (over-reads 4: crun's tests/podman)."""
    if "run" not in text or "build" not in text:
        return []
    started = {word for line in text.splitlines() if "run" in line and (m := _RUN.search(line)) is not None
               for word in re.split(r"[\s'\"]+", line[m.end():]) if word}  # each word after a `docker run`
    images = {_image(word) for word in started}
    found: list[tuple[str, str]] = []
    for match in _BUILD.finditer(text):
        rest = match.group(1) if match.group(1) is not None else match.group(2)
        words = [word for word in re.split(r"[\s'\"]+", rest) if word]
        tags = [value for at, word in enumerate(words) for option, equals, value in (word.partition("="),)
                if option in ("-t", "--tag") for value in ([value] if equals else words[at + 1:at + 2])]
        if any(_image(tag) in images for tag in tags if "$" not in tag):
            found += _command(rest)
    return list(dict.fromkeys(found))[:MAX_BUILDS]


def _image(tag: str) -> str:
    """An image's name without its version (`app:1`, `localhost:5000/app:1`: `app`, `localhost:5000/app`)."""
    name, colon, version = tag.rpartition(":")
    return name if colon and "/" not in version else tag


def _command(rest: str) -> list[tuple[str, str]]:
    words = [word for word in re.split(r"[\s'\"]+", rest.replace("\\\n", " ")) if word]
    dockerfile = ""
    context: str | None = None
    at = 0
    while at < len(words):
        option, equals, value = words[at].partition("=")
        if option in ("-f", "--file"):
            dockerfile = value if equals else words[at + 1] if at + 1 < len(words) else ""
            at += 1 if equals else 2
        elif option.startswith("-"):
            at += 2 if option in _TAKES and not equals else 1
        else:
            context = words[at] if context is None else context
            at += 1
    folder = _folder(context) if context is not None else None
    if folder is None:
        return []
    return [(dockerfile or f"{folder}/Dockerfile".lstrip("/"), folder)]


def _folder(context: str) -> str | None:
    """A build context as a folder below the step's ("" for `.`, the workspace); None for stdin, a URL, a variable."""
    context = _WORKSPACE.sub("", context.strip()).rstrip("/")
    if context in ("", "."):
        return ""
    if context == "-" or "://" in context or context.startswith(("git@", "$", "/")):
        return None
    return context.removeprefix("./")
