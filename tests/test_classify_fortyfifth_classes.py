"""Classes of misses the forty-fifth label set found (bench/classify_accuracy/fortyfifth.tsv: 53 repositories of game
engines, data and scientific Python, bioinformatics, firmware, browser extensions, compilers and desktop apps,
measured blind first), each with the look-alikes it must leave alone.

- Script folders named after one CI system below a root `scripts/` or `tools/` folder (python-lsp-server's
  `scripts/circle/pypi.sh`, `scripts/travis/`, `tools/appveyor/`) are ci, as `scripts/ci/` is; such a folder
  deeper in the tree, or a script merely named so, stays what it is.
- A copy of typeshed (mypy's `mypy/typeshed/stdlib/`, pyright's `typeshed-fallback/`) is vendored code (deps); a
  project's own `stubs/` stays src.
- Tool settings under names no rule knew: stestr's `.stestr.conf` and `.testr.conf`, markdown-link-check's
  `mlc_config.json` and `.markdown-link-check.json`, airspeed velocity's `asv.conf.json` and its variants
  (`asv.conf.actions.json`), a git-cliff variant `cliff-release.toml` (other); in a workflows folder they stay ci.
- Documentation: reno release notes kept in version folders (Qiskit's `releasenotes/notes/0.22/*.yaml`) are notes as
  the flat ones are; a note named like a compose file (`compose-*.yaml`) stays iac, as a flat one does: the
  container rules come first and nothing proves the name harmless (fail closed). A docs site's `authors.rst`
  or `credits.rst` page is documentation, while a plain `docs/AUTHORS.txt` and the root lists stay governance.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.classify import heatfiles
from tests.gitrepo import GitRepo, two_commits
from tests.test_classify_context import assert_path_rule, both_ways, tree_files


@each_case(("path", "bucket", "rule"), [
    ("scripts/circle/pypi.sh", "ci", "ci.system-folders"),
    ("scripts/circleci/deploy-docs.sh", "ci", "ci.system-folders"),
    ("scripts/travis/install.sh", "ci", "ci.system-folders"),
    ("scripts/travis/requirements.txt", "ci", "ci.system-folders"),  # principle 0: it feeds CI jobs only
    ("tools/travis/before_install.sh", "ci", "ci.system-folders"),
    ("scripts/appveyor/install.ps1", "ci", "ci.system-folders"),
    ("tools/appveyor/build.cmd", "ci", "ci.system-folders"),
    ("scripts/cirrus/test.sh", "ci", "ci.system-folders"),
    ("src/scripts/circle/area.py", "src", None),  # deeper in the tree: a package's own module folder
    ("examples/scripts/travis/notes.sh", "src", None),
    ("scripts/travis.py", "src", None), ("scripts/circle.js", "src", None),
    ("mypy/typeshed/stdlib/lib2to3/fixes/fix_reduce.pyi", "deps", "deps.vendored-nested"),
    ("mypy/typeshed/stubs/mypy-extensions/mypy_extensions.pyi", "deps", "deps.vendored-nested"),
    ("packages/pyright-internal/typeshed-fallback/stdlib/os/__init__.pyi", "deps", "deps.vendored-nested"),
    ("packages/pyright-internal/typeshed-fallback/commit.txt", "deps", "deps.vendored-nested"),
    ("stubs/requests/__init__.pyi", "src", None), ("src/typeshed_utils.py", "src", None),
    ("mypy/typeshed/LICENSE", "other", "other.governance"),  # governance rules come first, as for vendor/
    (".stestr.conf", "other", "other.lint-format"), (".testr.conf", "other", "other.lint-format"),
    ("mlc_config.json", "other", "other.lint-format"),
    ("docs/.markdown-link-check.json", "other", "other.lint-format"),
    (".github/workflows/mlc_config.json", "ci", None),  # a workflows folder decides first
    ("asv.conf.json", "other", "other.lint-format"), ("benchmarks/asv.conf.json", "other", "other.lint-format"),
    ("asv.conf.actions.json", "other", "other.lint-format"),
    ("cliff-release.toml", "other", "other.lint-format"), ("cliff.toml", "other", "other.lint-format"),
    ("src/conf.json", "src", None), ("stestr/config.py", "src", None),
    ("releasenotes/notes/0.22/compose-meas-no-meas-492ce91167d54154.yaml", "iac", "iac.containers"),  # fail closed
    ("releasenotes/notes/0.12/coupling-map-constructors-d9f66ac45f4ceb1b.yaml", "src", "src.reno-notes"),
    ("releasenotes/notes/fix-thing-0123456789abcdef.yaml", "src", "src.reno-notes"),
    ("deploy/releasenotes/compose-web.yaml", "iac", None),  # not reno's folder: the compose name still counts
    ("docs/project_info/authors.rst", "src", None), ("doc/source/credits.rst", "src", None),
    ("docs/AUTHORS.txt", "other", "other.governance"), ("AUTHORS.rst", "other", "other.governance"),
    ("CREDITS.rst", "other", "other.governance"),
])
def test_path_rules_of_the_fortyfifth_round(path: str, bucket: str, rule: str | None) -> None:
    assert_path_rule(path, bucket, rule)


_NOTE = "---\nfeatures:\n  - |\n    :meth:`.QuantumCircuit.compose` now accepts an operand with classical bits.\n"
_PLAY = "- hosts: all\n  tasks:\n    - name: install\n      apt:\n        name: nginx\n"


def test_the_fortyfifth_classes_in_a_real_repository(git_repo: GitRepo, tmp_path: Path) -> None:
    """An edit of each kind, read with the tree's context and as a patch: the path decides, content does not undo it."""
    git_repo.write("README.md", "# quantum toolkit\n")
    git_repo.commit("base")
    texts = {
        "scripts/circle/pypi.sh": "#!/bin/bash -e\nif [ -z \"$CI\" ]; then exit; fi\npython -m twine upload dist/*\n",
        "mypy/typeshed/stdlib/lib2to3/fixes/fix_reduce.pyi": "from lib2to3 import fixer_base\n\n"
                                                             "class FixReduce(fixer_base.BaseFix): ...\n",
        ".stestr.conf": "[DEFAULT]\ntest_path=./test/python\n",
        "mlc_config.json": '{"ignorePatterns": [{"pattern": "^http://localhost"}]}\n',
        "asv.conf.json": '{"version": 1, "project": "sympy", "repo": ".", "environment_type": "virtualenv"}\n',
        "cliff-release.toml": "[changelog]\nheader = \"# What's Changed\"\n",
        "releasenotes/notes/0.22/quantum-circuit-compose-492ce91167d54154.yaml": _NOTE,
        "docs/project_info/authors.rst": "=======\nCredits\n=======\n\nDevelopment Lead\n----------------\n",
        "site.yml": _PLAY,  # a real playbook beside them keeps its kind
    }
    want = {"scripts/circle/pypi.sh": "ci", "mypy/typeshed/stdlib/lib2to3/fixes/fix_reduce.pyi": "deps",
            ".stestr.conf": "other", "mlc_config.json": "other", "asv.conf.json": "other",
            "cliff-release.toml": "other",
            "releasenotes/notes/0.22/quantum-circuit-compose-492ce91167d54154.yaml": "src",
            "docs/project_info/authors.rst": "src", "site.yml": "iac"}
    both_ways(git_repo, tmp_path, texts, want)


# Qiskit keeps 2,097 reno notes in version folders below releasenotes/notes/: the Heat reader read every YAML file near
# a changed note for `heat_template_version`, passed its bound and called the note a file a template ships (fail
# closed). A reno note is no template anybody deploys, as a test's data is not: neither read nor counted.
_BOUND = 4
_HEAT = ("heat_template_version: 2018-08-31\ndescription: web server\nresources:\n  server:\n"
         "    type: OS::Nova::Server\n    properties:\n      user_data_format: RAW\n"
         "      user_data: {get_file: scripts/boot.sh}\n")
_BOOT = "#!/bin/sh\nset -eu\napt-get install -y nginx\n"


def _notes() -> dict[str, str]:
    return {f"releasenotes/notes/{version}/feature-{n}-0123456789abcdef.yaml": _NOTE.replace("compose", f"compose{n}")
            for version in ("0.12", "0.22") for n in range(_BOUND)}


def test_many_reno_notes_are_no_heat_templates_past_the_bound(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(heatfiles, "MAX_READS", _BOUND)
    base = {**_notes(), "heat/server.yaml": _HEAT, "heat/scripts/boot.sh": _BOOT}
    edit = {"releasenotes/notes/0.22/feature-1-0123456789abcdef.yaml": _NOTE + "    Also for measurements.\n",
            "heat/scripts/boot.sh": _BOOT + "echo ok\n"}
    repo, first, head = two_commits(tmp_path / "repo", base, edit)
    found = tree_files(repo, f"{first}..{head}")
    note = found["releasenotes/notes/0.22/feature-1-0123456789abcdef.yaml"]
    assert (note.bucket, note.rule) == ("src", "src.reno-notes"), note
    # a real template beside them still ships its script
    assert (found["heat/scripts/boot.sh"].bucket, found["heat/scripts/boot.sh"].rule) == ("iac", heatfiles.RULE)


def test_a_heat_template_named_as_a_reno_note_is_still_raised_by_its_content(tmp_path: Path) -> None:
    """The notes are skipped as shippers, not lowered: a template written under a note's name stays iac itself."""
    base = {"releasenotes/notes/0.22/feature-0-0123456789abcdef.yaml": _NOTE, "README.md": "# x\n"}
    edit = {"releasenotes/notes/0.22/server-0123456789abcdef.yaml": _HEAT}
    repo, first, head = two_commits(tmp_path / "repo", base, edit)
    found = tree_files(repo, f"{first}..{head}")["releasenotes/notes/0.22/server-0123456789abcdef.yaml"]
    assert found.bucket == "iac", found
