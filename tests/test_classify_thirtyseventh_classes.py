"""Classes of misses the thirty-seventh label set found (bench/classify_accuracy/thirtyseventh.tsv: 62 repositories of
applications and libraries in Go, Rust, Python, TypeScript, Java/Kotlin, .NET, PHP, Ruby, C, Elixir, Swift and Dart,
measured blind first), each with the look-alikes it must leave alone.

The Heat reader's bound and a test's YAML data: sqlfluff keeps 2,493 YAML parse trees in `test/fixtures/dialects/`; the
Heat reader read every YAML file near a changed file for `heat_template_version`, passed its bound of 2,000 and then
counted every script, SQL and settings file near the suite as shipped to a server (`iac.context.heat-file`, "more than
2000 YAML files near it"): the fixtures' `.sqlfluff` settings and `before.sql` inputs were `iac`. A YAML file the rules
call a test's data is no template anybody deploys, so it is neither read nor counted; templates outside test data
are read as before, and past the bound they still fail closed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gatekeeper.classify import heatfiles
from tests.gitrepo import two_commits
from tests.test_classify_context import tree_files

BOUND = 4  # the reader's bound for these trees; the repository below holds more YAML files than that
PARSE_TREE = ("_hash: 5b6c0e0f9c8d2d1a\nfile:\n  statement:\n    alter_table_statement:\n    - keyword: ALTER\n"
              "    - keyword: TABLE\n    - table_reference:\n        naked_identifier: my_table\n")
SQLFLUFF = "[sqlfluff]\ndialect = trino\n"
HEAT = ("heat_template_version: 2018-08-31\ndescription: web server\nresources:\n  server:\n"
        "    type: OS::Nova::Server\n    properties:\n      image: {get_param: image}\n      user_data_format: RAW\n"
        "      user_data: {get_file: scripts/boot.sh}\n")
BOOT = "#!/bin/sh\nset -eu\napt-get install -y nginx\n"
ENV = "parameters:\n  image: ubuntu-22.04\n  flavor: m1.small\n"


def _fixtures(folder: str) -> dict[str, str]:
    """More YAML files than the bound in `folder`'s sub-folders, as a dialect fixture suite keeps them."""
    return {f"{folder}/{dialect}/statement_{n}.yml": PARSE_TREE.replace("my_table", f"t_{dialect}_{n}")
            for dialect in ("ansi", "trino") for n in range(BOUND)}


@pytest.fixture
def bound(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(heatfiles, "MAX_READS", BOUND)


@pytest.mark.usefixtures("bound")
def test_a_test_suite_of_yaml_files_is_no_heat_template_past_the_bound(tmp_path: Path) -> None:
    base = {**_fixtures("test/fixtures/dialects"), "test/fixtures/dialects/trino/.sqlfluff": SQLFLUFF,
            "test/fixtures/linter/autofix/before.sql": "SELECT 1\n", "heat/server.yaml": HEAT,
            "heat/scripts/boot.sh": BOOT, "heat/notes.txt": "operator notes\n"}
    edit = {"test/fixtures/dialects/trino/.sqlfluff": SQLFLUFF + "max_line_length = 80\n",
            "test/fixtures/linter/autofix/before.sql": "SELECT 2\n", "heat/scripts/boot.sh": BOOT + "echo ok\n",
            "heat/notes.txt": "operator notes, v2\n"}
    repo, first, head = two_commits(tmp_path / "repo", base, edit)
    found = tree_files(repo, f"{first}..{head}")
    for path in ("test/fixtures/dialects/trino/.sqlfluff", "test/fixtures/linter/autofix/before.sql"):
        assert (found[path].bucket, found[path].rule) != ("iac", heatfiles.RULE), found[path]
        assert found[path].bucket in ("src", "other"), found[path]
    # a real template beside them still ships its script, and what it does not name is left alone
    assert (found["heat/scripts/boot.sh"].bucket, found["heat/scripts/boot.sh"].rule) == ("iac", heatfiles.RULE)
    assert found["heat/notes.txt"].bucket == "src", found["heat/notes.txt"]


@pytest.mark.usefixtures("bound")
def test_past_the_bound_templates_outside_test_data_still_fail_closed(tmp_path: Path) -> None:
    """More YAML files than the bound where templates live (environment files of a Heat stack): any may ship it."""
    base = {**{f"heat/envs/{site}_{n}.yaml": ENV.replace("m1.small", f"m1.{site}{n}")
               for site in ("east", "west") for n in range(BOUND)},
            "heat/scripts/setup.sh": BOOT}
    repo, first, head = two_commits(tmp_path / "repo", base, {"heat/scripts/setup.sh": BOOT + "echo ok\n"})
    found = tree_files(repo, f"{first}..{head}")["heat/scripts/setup.sh"]
    assert (found.bucket, found.rule) == ("iac", heatfiles.RULE), found
    assert f"more than {BOUND} YAML files" in found.evidence, found.evidence


def test_a_heat_template_kept_as_test_data_ships_nothing(tmp_path: Path) -> None:
    """A template inside a test-data folder is a parser's input: the script beside it is what the test reads."""
    base = {"pkg/heat/testdata/server.yaml": HEAT, "pkg/heat/testdata/scripts/boot.sh": BOOT,
            "pkg/heat/parse.py": "import yaml\n"}
    repo, first, head = two_commits(tmp_path / "repo", base, {"pkg/heat/testdata/scripts/boot.sh": BOOT + "# v2\n"})
    found = tree_files(repo, f"{first}..{head}")["pkg/heat/testdata/scripts/boot.sh"]
    assert found.bucket == "src", found
