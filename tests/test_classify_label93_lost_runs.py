"""The two CI-run files label 92's comment cut lost (issue 12, the label93 round): each had been `ci` only through a
comment that named it, and the walk missed the live run beside it.

- dotnet/sourcelink's `build.sh`: Arcade's source-build steps template runs
  `${{ coalesce(parameters.platform.buildScript, './build.sh') }} --ci` (the template's default script); the walk read
  the expression as a variable part alone, and only the job template's comment (`#   './build.sh' should work`) named
  the script. A template expression's string literals are now read as the words they may be (exprliterals.py).
- yu-iskw/dbt-airflow-macros' `integration_tests/postgres/run_tests.sh`: `tox` runs tox.ini's
  `changedir = {toxinidir}/integration_tests/postgres/` then `commands = bash run_tests.sh`; the walk read
  `run_tests.sh` from the root, and only a commented-out step (`#   bash -x run_tests.sh`) named it. tox's
  `changedir`/`change_dir` is now a folder its commands run in, `{toxinidir}`/`{tox_root}` tox.ini's own folder.

Real `git`, `--tree` and the CLI's `classify --tree`/`gate --tree`, generated variants and look-alikes that keep their
bucket."""

from __future__ import annotations

from pathlib import Path

from cpucost import assert_linear, repeated
from incli import classify_and_gate
from tables import each_case

from gatekeeper.classify import exprliterals
from tests.gitrepo import GitRepo
from tests.test_classify_context import added_files

# Arcade's shape: the pipeline includes a jobs template, which includes a steps template whose block scalar runs the
# expression (comments, a `'$''(x)'` quote and a trailing `\` around it, as in the real file)
PIPELINE = ("trigger: none\nstages:\n- stage: build\n  jobs:\n  - template: /eng/common/templates/jobs/jobs.yml\n"
            "    parameters:\n      enableSourceBuild: true\n")
JOBS = ("parameters:\n  enableSourceBuild: false\njobs:\n- job: Source_Build\n  steps:\n"
        "  - template: /eng/common/templates/steps/source-build.yml\n")
STEPS_HEAD = ("parameters:\n  # Defines the platform on which to run the steps.\n  platform: {}\n\nsteps:\n"
              "# Build. Keep it self-contained.\n- script: |\n    set -x\n"
              "    # If building on the internal project, the internal storage variable may be available\n"
              "    if [ '$(_BuildConfig)' != '$''(_BuildConfig)' ]; then\n"
              "      buildConfig='$(_BuildConfig)'\n    fi\n")
STEPS_TAIL = "      --configuration $buildConfig \\\n  displayName: Build\n"
# the step's command lines: an expression whose literal is the script run (the script's path in `{s}`)
RUN_FORMS = [
    "    ${{{{ coalesce(parameters.platform.buildScript, '{s}') }}}} --ci \\\n",
    "    ${{{{coalesce(parameters.buildScript,'{s}')}}}} --ci \\\n",
    "    bash ${{{{ coalesce(parameters.platform.buildScript, '{s}') }}}} --ci \\\n",
    "    ${{{{ coalesce(parameters.cmd, 'bash {s} --all') }}}} \\\n",
    "    ./${{{{ coalesce(parameters.buildScript, '{s}') }}}} \\\n",
    "    echo start && ${{{{ coalesce(parameters.a, parameters.b, '{s}') }}}} \\\n",
]
# GitHub's: a reusable workflow's input with a default in the expression
GITHUB_FORMS = [
    "      - run: ${{{{ inputs.script || '{s}' }}}}\n",
    "      - run: bash ${{{{ inputs.script || '{s}' }}}} --ci\n",
    "      - run: |\n          ${{{{ github.event.inputs.script != '' && github.event.inputs.script || '{s}' }}}}\n",
]


def _arcade(forms: list[str]) -> dict[str, str]:
    files = {"azure-pipelines.yml": PIPELINE, "eng/common/templates/jobs/jobs.yml": JOBS}
    lines = "".join(form.format(s=f"./eng/build{i}.sh") for i, form in enumerate(forms))
    files["eng/common/templates/steps/source-build.yml"] = STEPS_HEAD + lines + STEPS_TAIL
    return files | {f"eng/build{i}.sh": "echo\n" for i in range(len(forms))}


def test_a_template_expressions_default_script_runs_in_azure(git_repo: GitRepo) -> None:
    files = added_files(git_repo, _arcade(RUN_FORMS))
    wrong = {p: f.bucket for p, f in files.items() if p.startswith("eng/build") and f.bucket != "ci"}
    assert not wrong, (len(wrong), wrong)


def test_a_template_expressions_default_script_runs_in_github(git_repo: GitRepo) -> None:
    workflow = "on: [push]\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n"
    workflow += "".join(form.format(s=f"ci/step{i}.sh") for i, form in enumerate(GITHUB_FORMS))
    scripts = {f"ci/step{i}.sh": "echo\n" for i in range(len(GITHUB_FORMS))}
    files = added_files(git_repo, {".github/workflows/ci.yml": workflow, **scripts})
    wrong = {p: f.bucket for p, f in files.items() if p in scripts and f.bucket != "ci"}
    assert not wrong, (len(wrong), wrong)


def test_an_expressions_condition_and_a_commented_default_run_nothing(git_repo: GitRepo) -> None:
    """Look-alikes: Azure's `${{ if eq(parameters.runner, 'make') }}:` inserts no `make` run (its literals are the
    condition's), and a commented-out step's expression names nothing."""
    steps = ("steps:\n- ${{ if eq(parameters.runner, 'make') }}:\n  - script: echo make\n"
             "# - script: ${{ coalesce(parameters.buildScript, './eng/dead.sh') }} --ci\n- script: echo done\n")
    files = added_files(git_repo, {"azure-pipelines.yml": steps, "Makefile": "all:\n\t./eng/dead.sh\n",
                                   "eng/dead.sh": "echo\n"})
    assert {p: files[p].bucket for p in ("Makefile", "eng/dead.sh")} == {"Makefile": "src", "eng/dead.sh": "src"}


@each_case(("line", "added"), [
    ("a ${{ coalesce(p, './b.sh') }} c", ["a ./b.sh c"]),
    ("${{ x || 'it''s.sh' }}", ["it's.sh"]),
    ("${{ format('{0}/b.sh', p) }}", ["\x01/b.sh"]),
    ("${{ a }} ${{ b || 'x.sh' }}", ["\x01 x.sh"]),
    ("${{ if eq(p, 'make') }}:", []),
    ("${{ each s in parameters.steps }}:", []),
    ("no expression 'x.sh'", []),
])
def test_an_expressions_literals_are_read_again_in_its_place(line: str, added: list[str]) -> None:
    text = exprliterals.holed(line)
    assert text.split("\n")[1:] == added, text


@each_case("unit", ["    ${{ coalesce(parameters.b, './build.sh') }} --ci \\\n", "${{ a || 'x' }}${{ b }}'y'\n",
                    "${{ f('" + "a', '" * 40 + "') }}\n"])
def test_reading_expression_literals_costs_linear_time(unit: str) -> None:
    assert_linear(exprliterals.holed, repeated(unit, "steps:\n", "\n"), budget=0.05)  # 0.0095 CPU-s at 64 KiB, load 19


# tox.ini's shapes (dbt-airflow-macros: a testenv's changedir, then its commands run from there); `{d}` the folder
TOX_FORMS = [
    "[testenv:a]\nallowlist_externals = bash\nchangedir = {{toxinidir}}/{d}/\ncommands =\n  bash run_tests.sh\n",
    "[testenv:a]\nchangedir = {{toxinidir}}/{d}\ncommands = bash run_tests.sh\n",
    "[testenv:a]\nchangedir = {d}\ncommands = ./run_tests.sh\n",
    "[testenv:a]\nchange_dir = {{tox_root}}/{d}\ncommands = bash ./run_tests.sh\n",
    "[testenv]\nchangedir={{toxinidir}}{{/}}{d}\n\n[testenv:a]\ncommands = bash run_tests.sh --all\n",
]


def _tox(form: str, folder: str = "it/pg") -> dict[str, str]:
    workflow = ("on: [push]\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: pip install tox\n"
                "      - run: |\n          tox\n"
                "      # - run: |\n      #     bash -x run_tests.sh\n")
    return {".github/workflows/test.yml": workflow, "tox.ini": "[tox]\nenvlist = a\n\n" + form.format(d=folder),
            f"{folder}/run_tests.sh": "echo\n", "other/run_tests.sh": "echo\n"}


@each_case("form", TOX_FORMS)
def test_a_tox_changedir_is_where_its_commands_run(form: str, git_repo: GitRepo) -> None:
    files = added_files(git_repo, _tox(form))
    assert (files["it/pg/run_tests.sh"].bucket, files["other/run_tests.sh"].bucket) == ("ci", "src"), files


def test_a_tox_toml_change_dir_and_a_nested_tox_ini(git_repo: GitRepo) -> None:
    workflow = ("on: [push]\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n"
                "      - run: tox -c py/tox.ini\n      - run: tox -c tox.toml\n")
    toml = '[env.a]\nchange_dir = "{tox_root}/t2"\ncommands = [["bash", "go.sh"]]\n'
    files = added_files(git_repo, {".github/workflows/t.yml": workflow, "tox.toml": toml,
                                   "py/tox.ini": "[testenv]\nchangedir = {toxinidir}/tests\ncommands = bash run.sh\n",
                                   "py/tests/run.sh": "echo\n", "t2/go.sh": "echo\n", "tests/run.sh": "echo\n"})
    assert {p: files[p].bucket for p in ("py/tests/run.sh", "t2/go.sh")} == {"py/tests/run.sh": "ci", "t2/go.sh": "ci"}


def test_the_two_lost_files_through_the_cli(tmp_path: Path) -> None:
    """`classify --tree` and `gate --tree` of real repositories in the two definitions' shapes: an edit of the script
    is `ci` and held for review (exit 3)."""
    for name, files, script in (("arcade", _arcade(RUN_FORMS[:1]), "eng/build0.sh"),
                                ("tox", _tox(TOX_FORMS[0], "integration_tests/postgres"),
                                 "integration_tests/postgres/run_tests.sh")):
        buckets, decision = classify_and_gate(tmp_path / name, files, {script: "echo changed\n"})
        assert buckets == {script: "ci"}, (name, buckets)
        assert decision["outcome"] == "review", (name, decision)
