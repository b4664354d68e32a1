"""Red team 17: the requirements files an install reads, whatever spells the install.

The fourteenth round made a workflow's `pip install -r FILE` name FILE a requirements file under `--tree`, reading
`pip`/`pip3`/`-m pip`/`uv pip` followed by `install` at a word's start, `-r FILE`/`-rFILE`/`--requirement=FILE`,
resolved against the root and every `working-directory:`. With `tools/v.txt` installed by the base's CI and its edit
adding `evil-pkg==1.0`, `gate --tree --enable deps` said allow (exit 0) for each of these (before `88b5b0b`, after 3):

- the command: `.venv/bin/pip`, `/usr/bin/pip3`, `python -mpip`, `pip -q install`, `pip --isolated install`,
  `pipx runpip`, `uv add -r`, `uv run --with-requirements`, `uv pip sync FILE`, `pip-sync FILE`, `pipenv install -r`;
- pip's option parser: `-Ur FILE`, `-qr FILE`, `--cons FILE` (an unambiguous prefix), `--requirements-from-script`;
- the shell: `FILE;`, `FILE&&`, `FILE>log`, `(pip install -r FILE)`, `tools/'v'.txt`, `cd tools && pip install -r
  v.txt`, PowerShell's backtick and cmd's `^` continuations, `xargs pip install < FILE`, `pip install $(cat FILE)`;
- YAML: a folded `run: >` whose `-r FILE` is on the next line, a double-quoted scalar with an escape or a fold;
- variables: `env: REQ: FILE` then `-r $REQ` or `${{ env.REQ }}`, `${{ matrix.req }}`, `tools/${{ matrix.n }}.txt`,
  `PIP_REQUIREMENT`/`PIP_CONSTRAINT`/`PIP_CONFIG_FILE` settings;
- conda: `conda env create -f FILE`, `micromamba create --file=FILE`, setup-miniconda's `environment-file:` (an
  environment file's `pip:` list is installed by pip; no delta reads it, so an edit is `deps.unexplained`);
- the files that install: a composite action, `.gitlab-ci.yml`, CircleCI, a CI folder's script, a Makefile, a
  Dockerfile's RUN (`COPY tools/v.txt /tmp/req.txt`), tox's `deps = -r FILE`, a noxfile's `session.install("-r",
  FILE)`, Read the Docs' `requirements:`, `pip.conf`, a pre-commit hook, and the project's own build:
  setuptools' `dependencies = {file = [...]}`, hatch-requirements-txt, `setup.cfg`'s `install_requires = file:`.

pip's option parser (pip._internal) is the truth for the options; over-reading a file makes it deps, a review.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path

import pytest
from gitrepo import two_commits
from incli import tree_gate
from tables import each_case

from gatekeeper.classify.dockerrefs import run_scripts
from gatekeeper.classify.pipinstalls import PathIndex, installed_requirements, requirement_words
from gatekeeper.cli import main
from tests.gitrepo import GitRepo

WORKFLOW = "on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n{steps}"
# name: (installer path, its text; {f} is the file it installs, tools/<name>.txt)
INSTALLS: dict[str, tuple[str, str]] = {
    "venv-pip": (".github/workflows/{n}.yml", WORKFLOW.format(steps="      - run: .venv/bin/pip install -r {f}\n")),
    "abs-pip": (".github/workflows/{n}.yml", WORKFLOW.format(steps="      - run: /usr/bin/pip3 install -r {f}\n")),
    "global-option": (".github/workflows/{n}.yml",
                      WORKFLOW.format(steps="      - run: pip --disable-pip-version-check install -r {f}\n")),
    "mpip": (".github/workflows/{n}.yml", WORKFLOW.format(steps="      - run: python -mpip install -r {f}\n")),
    "isolated": (".github/workflows/{n}.yml",
                 WORKFLOW.format(steps="      - run: python -m pip --isolated install -r {f}\n")),
    "cluster": (".github/workflows/{n}.yml", WORKFLOW.format(steps="      - run: pip install -Ur {f}\n")),
    "prefix": (".github/workflows/{n}.yml", WORKFLOW.format(steps="      - run: pip install six --cons {f}\n")),
    "semicolon": (".github/workflows/{n}.yml", WORKFLOW.format(steps="      - run: pip install -r {f}; echo ok\n")),
    "and": (".github/workflows/{n}.yml", WORKFLOW.format(steps="      - run: pip install -r {f}&&echo ok\n")),
    "redirect": (".github/workflows/{n}.yml", WORKFLOW.format(steps="      - run: pip install -r {f}>log\n")),
    "subshell": (".github/workflows/{n}.yml", WORKFLOW.format(steps="      - run: (pip install -r {f})\n")),
    "quotes": (".github/workflows/{n}.yml", WORKFLOW.format(steps="      - run: pip install -r tools/'{n}'.txt\n")),
    "cd": (".github/workflows/{n}.yml", WORKFLOW.format(steps="      - run: cd tools && pip install -r {n}.txt\n")),
    "folded": (".github/workflows/{n}.yml", WORKFLOW.format(steps="      - run: >\n          pip install\n"
                                                                   "          -r {f}\n")),
    "escaped": (".github/workflows/{n}.yml",
                WORKFLOW.format(steps='      - run: "pip install -r tools/\\x{hex}.txt"\n')),
    "pwsh": (".github/workflows/{n}.yml", WORKFLOW.format(steps="      - shell: pwsh\n        run: |\n"
                                                                 "          pip install `\n            -r {f}\n")),
    "cmd": (".github/workflows/{n}.yml", WORKFLOW.format(steps="      - shell: cmd\n        run: |\n"
                                                                "          pip install ^\n            -r {f}\n")),
    "xargs": (".github/workflows/{n}.yml", WORKFLOW.format(steps="      - run: xargs pip install < {f}\n")),
    "cat": (".github/workflows/{n}.yml", WORKFLOW.format(steps="      - run: pip install $(cat {f})\n")),
    "env": (".github/workflows/{n}.yml", WORKFLOW.format(steps="      - env:\n          REQ: {f}\n"
                                                                "        run: pip install -r $REQ\n")),
    "expression": (".github/workflows/{n}.yml",
                   WORKFLOW.format(steps="      - env:\n          REQ: {f}\n"
                                         "        run: pip install -r ${{{{ env.REQ }}}}\n")),
    "matrix-part": (".github/workflows/{n}.yml",
                    WORKFLOW.format(steps="      - run: pip install -r tools/${{{{ matrix.n }}}}.txt\n")),
    "setting": (".github/workflows/{n}.yml", WORKFLOW.format(steps="      - env:\n          PIP_CONSTRAINT: {f}\n"
                                                                    "        run: pip install six\n")),
    "pip-config": (".github/workflows/{n}.yml", WORKFLOW.format(steps="      - env:\n          PIP_CONFIG_FILE: {f}\n"
                                                                       "        run: pip install six\n")),
    "uv-sync": (".github/workflows/{n}.yml", WORKFLOW.format(steps="      - run: uv pip sync {f}\n")),
    "pip-sync": (".github/workflows/{n}.yml", WORKFLOW.format(steps="      - run: pip-sync {f}\n")),
    "uv-add": (".github/workflows/{n}.yml", WORKFLOW.format(steps="      - run: uv add -r {f}\n")),
    "uv-run": (".github/workflows/{n}.yml", WORKFLOW.format(steps="      - run: uv run --with-requirements {f} t\n")),
    "pipenv": (".github/workflows/{n}.yml", WORKFLOW.format(steps="      - run: pipenv install -r {f}\n")),
    "conda": (".github/workflows/{n}.yml", WORKFLOW.format(steps="      - run: conda env create -f {f}\n")),
    "mamba": (".github/workflows/{n}.yml", WORKFLOW.format(steps="      - run: micromamba create -y --file={f}\n")),
    "miniconda": (".github/workflows/{n}.yml",
                  WORKFLOW.format(steps="      - uses: conda-incubator/setup-miniconda@v3\n        with:\n"
                                        "          environment-file: {f}\n")),
    "action": ("tools/actions/{n}/action.yml", "runs:\n  using: composite\n  steps:\n"
                                               "    - run: pip install -r {f}\n      shell: bash\n"),
    "gitlab": ("{n}/.gitlab-ci.yml", "test:\n  script:\n    - pip install -r {f}\n"),
    "circleci": (".circleci/{n}.yml", "jobs:\n  t:\n    steps:\n      - run: pip install -r {f}\n"),
    "ci-script": ("ci/{n}.sh", "#!/bin/sh\nset -e\npip install -r {f}\n"),
    "makefile": ("{n}/Makefile", "install:\n\tpip install -r ../{f}\n"),
    "dockerfile": ("Dockerfile.{n}", "FROM python:3.12\nCOPY {f} /tmp/req.txt\nRUN pip install -r /tmp/req.txt\n"),
    "multistage": ("Dockerfile.{n}", "FROM python:3.12 AS b\nCOPY tools/ /src/\nFROM python:3.12\n"
                                     "COPY --from=b /src/{n}.txt /r.txt\nRUN pip install -r /r.txt\n"),
    "tox": ("{n}/tox.ini", "[testenv]\ndeps =\n    -r{{toxinidir}}/../{f}\ncommands = pytest\n"),
    "nox": ("{n}/noxfile.py", "import nox\n\n@nox.session\ndef t(s):\n    s.install('-r', '../{f}')\n"),
    "readthedocs": ("{n}/.readthedocs.yaml", "version: 2\npython:\n  install:\n    - requirements: {f}\n"),
    "pip-conf": ("{n}/pip.conf", "[install]\nrequirement = {f}\n"),
    "setuptools": ("{n}/pyproject.toml", "[project]\nname = 'x'\ndynamic = ['dependencies']\n"
                                         "[tool.setuptools.dynamic]\ndependencies = {{file = ['../{f}']}}\n"),
    "hatch": ("{n}/pyproject.toml", "[project]\nname = 'x'\n[tool.hatch.metadata.hooks.requirements_txt]\n"
                                    "files = ['../{f}']\n"),
    "setup-cfg": ("{n}/setup.cfg", "[options]\ninstall_requires = file: ../{f}\n"),
}
# Files the same installers mention without installing them: never deps.
LOOK_ALIKES = {
    ".github/workflows/look.yml": WORKFLOW.format(steps="      - run: cp -r misc/copied.txt out && pip install -e "
                                                        "misc/project\n      - run: pip freeze > misc/frozen.txt\n"),
    "look/pyproject.toml": "[project]\nname = 'y'\ndynamic = ['readme']\n"
                           "[tool.setuptools.dynamic]\nreadme = {file = ['misc/readme.txt']}\n",
    "look/setup.cfg": "[metadata]\nlong_description = file: ../misc/description.txt\n",
}
LOOK_ALIKE_FILES = ("misc/copied.txt", "misc/frozen.txt", "misc/readme.txt", "misc/description.txt",
                    "misc/notes.txt")


def _installer(name: str) -> tuple[str, str]:
    path, text = INSTALLS[name]
    return path.format(n=name), text.format(f=f"tools/{name}.txt", n=name, hex=format(ord(name[0]), "02x") + name[1:])


def test_every_install_makes_the_file_it_reads_deps(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    base = dict(_installer(name) for name in INSTALLS) | LOOK_ALIKES
    base |= {f"tools/{name}.txt": "six==1.16.0\n" for name in INSTALLS} | dict.fromkeys(LOOK_ALIKE_FILES, "six\n")
    edited = {f"tools/{name}.txt": "six==1.16.0\nevil-pkg==1.0\n" for name in INSTALLS}
    edited |= dict.fromkeys(LOOK_ALIKE_FILES, "six\nevil\n")
    repo, old, new = two_commits(tmp_path / "repo", base, edited)
    capsys.readouterr()
    with contextlib.chdir(repo.root):
        assert main(["classify", "--tree", f"{old}..{new}", "--format", "json"]) == 0
    buckets = {f["path"]: f["bucket"] for f in json.loads(capsys.readouterr().out)["files"]}
    # deps, or more sensitive (a Dockerfile's COPY source is also the image's: iac)
    assert {name: buckets[f"tools/{name}.txt"] for name in INSTALLS
            if buckets[f"tools/{name}.txt"] not in ("deps", "iac", "ci")} == {}
    assert {path: buckets[path] for path in LOOK_ALIKE_FILES} == dict.fromkeys(LOOK_ALIKE_FILES, "src")


@each_case("name", ["folded", "cd", "cluster", "dockerfile", "multistage", "setuptools"])
def test_the_gate_reviews_the_edit(tmp_path: Path, name: str) -> None:
    installer, text = _installer(name)
    repo, old, new = two_commits(tmp_path / "repo", {installer: text, f"tools/{name}.txt": "six==1.16.0\n"},
                                 {f"tools/{name}.txt": "six==1.16.0\nevil-pkg==1.0\n"})
    code, decision = tree_gate(repo.root, old, new, None, "--enable", "deps")
    reasons = decision["reasons"]
    assert code == 3, reasons
    assert {p for r in reasons for p in r.get("paths", ())} == {f"tools/{name}.txt"}


@each_case(("copies", "taken", "runs"), [
    ("COPY scripts/build.sh /opt/b.sh", "COPY --from=builder /opt/b.sh /b.sh", "/b.sh"),
    ("COPY scripts/ /opt/", "COPY --from=builder /opt/build.sh /b.sh", "/b.sh"),
    ("COPY scripts/build.sh /opt/", "COPY --from=0 /opt /x", "/x/build.sh"),
    ("COPY scripts /opt/s", "COPY --from=builder /opt /x", "/x/s/build.sh"),
    ("COPY scripts/build.sh /opt/b.sh", "COPY --from=builder /opt/b.sh /bin/", "/bin/b.sh"),
])
def test_a_stage_copy_carries_the_contexts_files(copies: str, taken: str, runs: str) -> None:
    text = f"FROM alpine AS builder\n{copies}\nFROM alpine\n{taken}\nRUN {runs}\n"
    assert "scripts/build.sh" in run_scripts("", text)[0]
    # another image's files are none of the repository's
    assert run_scripts("", text.replace("--from=builder", "--from=golang:1.22").replace("--from=0", "--from=x"))[0] \
        == set()


def test_patterns_match_as_suffixes_and_variables_match_anything() -> None:
    index = PathIndex(["tools/deps.txt", "docs/tools/deps.txt", "requirements/py311.txt", "Tools/Upper.txt",
                       "x.txt", "src/app.py"])
    text = "pip install -r deps.txt -r requirements/${{ matrix.v }}.txt -r tools/upper.txt -r /home/x/src/none.txt"
    in_tree = {"tools/deps.txt", "docs/tools/deps.txt", "requirements/py311.txt", "Tools/Upper.txt"}
    found = index.matching(installed_requirements(text), text)
    assert {path for path in found if path in index.every} == in_tree
    # each literal path as written too, for a checkout that opens it through a linked folder
    assert set(found) - in_tree == {"deps.txt", "tools/upper.txt", "home/x/src/none.txt"}
    # all variable: every path the text's words name
    text = "env:\n  R: x.txt\nrun: pip install -r $R\n"
    assert [path for path in index.matching(installed_requirements(text), text) if path in index.every] == ["x.txt"]


def test_a_file_installed_through_links_is_deps(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.write("shared/t.yml", WORKFLOW.format(steps="      - run: pip install -r req/deps.txt\n"))
    repo.write("tools/deps.txt", "six==1.16.0\n")
    repo.symlink(".github/workflows/t.yml", "../../shared/t.yml")  # the workflow, read where it points
    repo.symlink("req", "tools")  # the file, opened through a linked folder
    old = repo.commit("base")
    repo.write("tools/deps.txt", "six==1.16.0\nevil-pkg==1.0\n")
    new = repo.commit("head")
    code, decision = tree_gate(repo.root, old, new, None, "--enable", "deps")
    reasons = decision["reasons"]
    assert code == 3, reasons
    assert {p for r in reasons for p in r.get("paths", ())} == {"tools/deps.txt"}


# pip's own option parser is the truth: every file it takes as requirements or constraints, the reader names.
with contextlib.suppress(ImportError):
    import setuptools  # noqa: F401  (before pip's distutils: tests/test_redteam16_requirements_lines.py)
pip_commands = pytest.importorskip("pip._internal.commands")
SPELLINGS = ["-r a.txt", "-ra.txt", "-Ur a.txt", "-qqr a.txt", "-c=a.txt", "--requirement a.txt", "--requirement=a.txt",
             "--cons a.txt", "--constr=a.txt", "--build-constraint a.txt", "-Uc a.txt",
             "--requirements-from-script a.txt", "--pre -r a.txt -c b.txt", "-r a.txt --no-deps -rb.txt", "-vvvr a.txt",
             "-U -q -r a.txt", "--upgrade --requirement=a.txt --constraint b.txt"]


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_the_reader_names_every_file_pips_parser_takes(spelling: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PIP_CONFIG_FILE", os.devnull)
    for name in [n for n in os.environ if n.startswith("PIP_") and n != "PIP_CONFIG_FILE"]:
        monkeypatch.delenv(name)
    command = pip_commands.create_command("install")
    try:
        options, _ = command.parse_args(spelling.split())
    except SystemExit:  # pip refuses it (an ambiguous prefix): the reader may name more
        pytest.skip("pip refuses this spelling")
    truth = set(options.requirements) | set(options.constraints) | set(getattr(options, "build_constraints", []))
    truth |= set(getattr(options, "requirements_from_scripts", []))
    assert truth
    assert truth <= set(requirement_words(f"pip install {spelling}")), truth
