"""Over-reads 4, a CI miss: a CI job that builds an image and then runs it runs the image's ENTRYPOINT/CMD. crun's test
workflow runs `docker build -t crun-podman tests/podman` then `docker run … crun-podman`; the Dockerfile copies
`run-tests.sh` into `/usr/local/bin` and makes it the ENTRYPOINT: the script is CI's, and was `src` (the
seventy-eighth set). What a build RUNs was read already (dockerrefs.run_scripts); what the image runs when started was
not, on purpose: most images CI builds are pushed, and their entry scripts are the product's.

The class: a build whose tag the same definition then runs (`docker|podman|nerdctl run … TAG`) makes the files its
final stage's ENTRYPOINT and CMD run (copied in from the context, resolved as a RUN's) CI's. Look-alikes that stay:
an image built and pushed, never run; a run of another image; a tag that only prefixes the run one."""

from __future__ import annotations

from citools import BLOCK_DEFINITIONS, one_tree_runs
from tables import each_case

from gatekeeper.classify import dockerbuilds

DOCKERFILE = """FROM quay.io/fedora/fedora:latest
RUN dnf install -y golang make podman && \\
    git clone --depth=1 https://github.com/containers/podman /root/go/src/podman
COPY run-tests.sh /usr/local/bin
WORKDIR /root/go/src/podman
{entry}
"""
ENTRIES = [
    "ENTRYPOINT /usr/local/bin/run-tests.sh", 'ENTRYPOINT ["/usr/local/bin/run-tests.sh"]',
    'CMD ["/usr/local/bin/run-tests.sh"]', 'CMD ["bash", "/usr/local/bin/run-tests.sh", "--all"]',
    "CMD /usr/local/bin/run-tests.sh", 'ENTRYPOINT ["/bin/sh", "-c", "/usr/local/bin/run-tests.sh"]',
]
BUILD_RUNS = [
    "sudo docker build -t crun-podman tests/podman\nsudo docker run --privileged --rm -v ${PWD}:/crun crun-podman",
    "docker build --tag crun-podman:ci tests/podman\ndocker run --rm crun-podman:ci",
    "podman build -t=crun-podman -f tests/podman/Dockerfile tests/podman\npodman run --rm crun-podman",
    "docker build -t localhost/crun-podman ./tests/podman && docker container run localhost/crun-podman",
]
FILES = {"tests/podman/run-tests.sh": "#!/bin/sh\nmake -C /crun check\n", "README.md": "# crun\n"}
SCRIPT = "tests/podman/run-tests.sh"


def _runs(files: dict[str, str]) -> set[str]:
    runs = one_tree_runs(files)
    assert isinstance(runs, dict)
    return {path for path in runs if path in files}


def _definition(lines: str) -> tuple[str, str]:
    definition, text = BLOCK_DEFINITIONS[0]
    return definition, text.format(line=lines.replace("\n", "\n          "))


@each_case("entry, steps", [(entry, steps) for entry in ENTRIES for steps in BUILD_RUNS])
def test_the_entry_script_of_an_image_ci_builds_and_runs_is_ci(entry: str, steps: str) -> None:
    definition, text = _definition(steps)
    files = {**FILES, "tests/podman/Dockerfile": DOCKERFILE.format(entry=entry), definition: text}
    assert SCRIPT in _runs(files), (entry, steps)


@each_case("steps", [
    "docker build -t crun-podman tests/podman\ndocker push crun-podman",  # built and pushed: the product's
    "docker build -t crun-podman tests/podman\ndocker run --rm alpine echo done",
    "docker build -t crun-podman tests/podman\ndocker run --rm crun-podman-tools",
    "docker build -t crun tests/podman\ndocker run --rm crun-podman",
    "docker build tests/podman\ndocker run --rm crun-podman",  # no tag
])
def test_an_image_ci_does_not_run_keeps_its_entry_script(steps: str) -> None:
    definition, text = _definition(steps)
    files = {**FILES, "tests/podman/Dockerfile": DOCKERFILE.format(entry=ENTRIES[0]), definition: text}
    assert SCRIPT not in _runs(files), steps


def test_the_runs_of_a_build_are_paired_by_tag() -> None:
    text = "docker build -t a:1 ctx\ndocker build -t b ./other\ndocker run a:1\n"
    assert dockerbuilds.run_builds(text) == [("ctx/Dockerfile", "ctx")]
