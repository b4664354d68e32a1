"""Review of issue #12's readers of what CI runs (review12): input that made a reader give up silently, so that a file
CI runs stayed `src`. Each case failed on af17768.

- ciloops: a loop body that names its variable more than MAX_LOOPS times before running it (`echo "… $f"` lines), a
  glob loop past the MAX_LOOPS-th of a text, a `for` whose word list continues on the next line (`\\`);
- CRLF line ends (a definition saved on Windows): a Buildkite pipeline's local plugin, an Azure Pipelines job or steps
  template kept outside the named folders;
- ciimports: a Python script past MAX_IMPORTS imports (stdlib ones first) and then its own helper.
"""

from __future__ import annotations

import pytest
from cpucost import least_cpu
from tables import each_case

from gatekeeper.classify import ciforms, ciimports, ciloops
from gatekeeper.classify.buildshapes import build_shape
from gatekeeper.classify.ciwalk import ci_runs
from gatekeeper.gitobjects import TreeEntry


def test_loop_body_naming_its_variable_many_times_before_running_it() -> None:
    body = "".join(f'  echo "step {i}: $f"\n' for i in range(ciloops.MAX_LOOPS + 8))
    assert ciloops.globbed(f'for f in ci/*.sh; do\n{body}  bash "$f"\ndone\n') == ["ci/*.sh"]


def test_loop_body_that_only_prints_its_variable_names_nothing() -> None:
    body = "".join(f'  echo "step {i}: $f"\n' for i in range(ciloops.MAX_LOOPS + 8))
    assert ciloops.globbed(f"for f in ci/*.sh; do\n{body}done\n") == []


def test_loop_bodies_of_nothing_but_mentions_stay_cheap() -> None:
    """Every mention read would be a search of the 200 characters before each: 40 bodies of 2,000 `$f` took 0.56 CPU-s
    on 160 KB; past MAX_MENTIONS the loop may run its files (its globs count). So bodies of 2,000 mentions cost about
    what bodies just past the bound cost (every mention read: ~6.7 times), whatever the machine's speed or load."""
    def bodies(mentions: int) -> str:
        return "".join(f"for f in d{i}/*.sh; do echo {'$f' * mentions}\ndone\n" for i in range(40))

    few, many = bodies(ciloops.MAX_MENTIONS + 44), bodies(2000)
    assert len(ciloops.globbed(few)) == len(ciloops.globbed(many)) == 40
    bound = 3 * least_cpu(ciloops.globbed, few)
    # the least of the runs is asserted: once one is under the bound, a later one could only lower it (cpucost.py)
    assert least_cpu(ciloops.globbed, many, under=bound) < bound


def test_glob_loop_past_the_bound_still_counts() -> None:
    lint = "".join(f"for x in docs{i}/*.txt; do echo $x; done\n" for i in range(ciloops.MAX_LOOPS + 8))
    assert "ci/*.sh" in ciloops.globbed(lint + 'for f in ci/*.sh; do bash "$f"; done\n')


@pytest.mark.parametrize("ending", ["\n", "\r\n"])
def test_loop_word_list_continued_on_the_next_line(ending: str) -> None:
    assert ciloops.globbed(f'for f in \\{ending}    ci/*.sh; do bash "$f"; done') == ["ci/*.sh"]


def test_crlf_buildkite_local_plugin() -> None:
    text = "steps:\n  - label: x\n    plugins:\n      - ./tools/bk-cache#v1:\n          a: b\n    command: make\n"
    expected = ["./tools/bk-cache/hooks/*"]
    assert ciforms.plugin_hooks(text.replace("\n", "\r\n")) == ciforms.plugin_hooks(text) == expected


@pytest.mark.parametrize("text", [
    "jobs:\n- job: Build\n  pool:\n    vmImage: ubuntu-latest\n  steps:\n  - script: ./build.sh\n",
    "steps:\n- script: ./build.sh\n  displayName: build\n",
])
def test_crlf_azure_pipelines_template(text: str) -> None:
    expected = build_shape("pipeline-template.yml", text)
    assert expected is not None and expected[1] == "ci.content.azure-pipelines-template"
    assert build_shape("pipeline-template.yml", text.replace("\n", "\r\n")) == expected


def test_python_script_past_the_import_bound_imports_its_helper() -> None:
    text = "".join(f"import mod{i}\n" for i in range(ciimports.MAX_IMPORTS + 8)) + "import helper\nhelper.run()\n"
    entries = {path: TreeEntry("100644", f"{n:040x}")
               for n, path in enumerate([".github/workflows/release.yml", "scripts/release.py", "scripts/helper.py",
                                         "src/app.py"])}
    workflow = b"jobs:\n  r:\n    steps:\n      - run: python scripts/release.py\n"
    blobs = {entries[".github/workflows/release.yml"].oid: workflow,
             entries["scripts/release.py"].oid: text.encode(), entries["scripts/helper.py"].oid: b"def run(): pass\n",
             entries["src/app.py"].oid: b"x = 1\n"}
    found = ci_runs((entries,), lambda entry: blobs[entry.oid], {})
    assert isinstance(found, dict) and "scripts/helper.py" in found and "src/app.py" not in found


def test_python_script_within_the_import_bound_reads_as_before() -> None:
    text = "import os\nimport helper\nfrom lib.publish import go\n"
    assert ciimports.imported("scripts/release.py", text) == [
        "scripts/os.py", "scripts/os/__init__.py", "scripts/helper.py", "scripts/helper/__init__.py",
        "scripts/lib/publish.py", "scripts/lib/publish/__init__.py", "scripts/lib/__init__.py",
        "scripts/lib/publish/go.py", "scripts/lib/publish/go/__init__.py"]  # `go` may be a submodule (attack 46)


@each_case("line", ["import os; import helper", "import os;import helper as h",
                                  "if True: import helper", "try: from helper import run"])
def test_python_import_after_a_semicolon_or_a_colon(line: str) -> None:
    assert "scripts/helper.py" in ciimports.imported("scripts/release.py", f"{line}\n")


def test_matrix_of_many_values_over_many_lines_stays_cheap() -> None:
    """Each line's copies were made before their count was checked: 5,000 values over 2,000 lines took 7.6 CPU-s."""
    values = ", ".join(f"v{i}" for i in range(5000))
    lines = "".join(f"      - run: ./tools/${{{{ matrix.x }}}}/s{i}.sh\n" for i in range(2000))
    text = f"jobs:\n  t:\n    strategy:\n      matrix:\n        x: [{values}]\n    steps:\n{lines}"
    assert ciforms.expand_matrix(text) == text.rstrip("\n")
    assert least_cpu(ciforms.expand_matrix, text, under=0.5) < 0.5  # the least of up to 3 runs


def test_matrix_within_the_bound_is_expanded() -> None:
    text = "jobs:\n  t:\n    strategy:\n      matrix:\n        a: [x, y]\n        b: [1, 2]\n    steps:\n" \
           "      - run: ./${{ matrix.a }}/${{ matrix.b }}.sh\n"
    assert ciforms.expand_matrix(text).splitlines()[-4:] == [
        "      - run: ./x/1.sh", "      - run: ./x/2.sh", "      - run: ./y/1.sh", "      - run: ./y/2.sh"]
