"""Over-reads 3, a CI miss: the file a workflow reads into a job's matrix was `src` (protoc-gen-grpc-python-prebuilt's
`grpc-versions.yaml`, the seventy-fourth set: `matrix=$(cat grpc-versions.yaml | yq eval '…' -o json | jq -s …)`,
then `echo "matrix=$matrix" >> $GITHUB_OUTPUT`, and the build job runs `fromJSON(…outputs.matrix)`). A matrix is the
job's definition: its values choose the runner, the checked-out tag and the Bazel config the job's commands
interpolate. jobenv.py read files dumped whole into `$GITHUB_ENV`/`$GITHUB_PATH` and left a value read out of a file
by `$(…)` alone (a `$(jq -r .version package.json)` is a value, not the job).

The class: on a line that names a matrix (`matrix=`, `MATRIX_JSON=`, `echo "matrix=…" >> $GITHUB_OUTPUT`), the files
the readers inside its `$(…)` read (`cat`, `jq`, `yq`, `sed`, `awk`, `grep`, ... past their filter or script) are
the job's code. Look-alikes (a version read into an output, a matrix built from a literal, a file read on a line that
names no matrix) name nothing."""

from __future__ import annotations

from cpucost import assert_linear, repeated
from tables import each_case

from gatekeeper.classify.jobenv import fed
from tests.gitrepo import GitRepo
from tests.test_classify_context import tree_files

FORMS = [
    ("matrix=$(cat grpc-versions.yaml | yq eval '.platforms[] as $p | .versions[] | {\"tag\": .tag}' -o json | "
     "jq -s '{\"include\": .}')", "grpc-versions.yaml"),
    ("echo \"matrix=$(jq -c . build/matrix.json)\" >> \"$GITHUB_OUTPUT\"", "build/matrix.json"),
    ("echo \"matrix=$(jq -c '.include' build/matrix.json)\" >> $GITHUB_OUTPUT", "build/matrix.json"),
    ("MATRIX=$(yq -o=json '.targets' targets.yaml)", "targets.yaml"),
    ("MATRIX_JSON=$(yq e -o=json '.targets' config/targets.yml | jq -c .)", "config/targets.yml"),
    ("echo \"test-matrix=$(cat versions.json)\" >> $GITHUB_OUTPUT", "versions.json"),
    ("echo \"::set-output name=matrix::$(cat tools/matrix.json)\"", "tools/matrix.json"),
    ("matrix=\"$(sed -n '/^targets:/,$p' targets.yaml | yq -o json)\"", "targets.yaml"),
]
LOOK_ALIKES = [
    "echo \"version=$(jq -r .version package.json)\" >> $GITHUB_OUTPUT",  # a value, no matrix
    "echo 'matrix={\"os\": [\"ubuntu-latest\"]}' >> $GITHUB_OUTPUT",  # a literal matrix
    "tag=$(cat grpc-versions.yaml | yq '.latest')",  # no matrix on the line
    "echo \"Building the matrix for $(cat grpc-versions.yaml | wc -l) versions\"",  # wc reads, prints a count
]


@each_case("line, named", FORMS)
def test_each_form_names_the_file(line: str, named: str) -> None:
    assert named in fed(f"run: |\n  {line}\n"), fed(line)


@each_case("line", LOOK_ALIKES)
def test_look_alikes_name_no_file(line: str) -> None:
    got = fed(f"run: |\n  {line}\n")
    assert not {"grpc-versions.yaml", "package.json"} & set(got), got


def test_the_walk_makes_the_matrix_file_ci(git_repo: GitRepo) -> None:
    workflow = ("on: push\njobs:\n  plan:\n    runs-on: ubuntu-latest\n    outputs:\n"
                "      matrix: ${{ steps.m.outputs.matrix }}\n    steps:\n      - uses: actions/checkout@v4\n"
                "      - id: m\n        run: |\n          matrix=$(cat grpc-versions.yaml | yq eval '.versions[]'"
                " -o json | jq -s '{\"include\": .}')\n          echo \"matrix=$matrix\" >> $GITHUB_OUTPUT\n"
                "  build:\n    needs: plan\n    strategy:\n      matrix: ${{ fromJSON(needs.plan.outputs.matrix) }}\n"
                "    runs-on: ${{ matrix.os }}\n    steps:\n      - run: bazel build --config=${{ matrix.config }}\n")
    git_repo.write(".github/workflows/build.yml", workflow)
    git_repo.write("grpc-versions.yaml", "versions:\n  - {tag: v1.60.0, os: ubuntu-latest, config: linux}\n")
    git_repo.write("other-versions.yaml", "versions: []\n")
    git_repo.commit("base")
    git_repo.write("grpc-versions.yaml", "versions:\n  - {tag: v1.61.0, os: self-hosted, config: linux}\n")
    git_repo.write("other-versions.yaml", "versions: [1]\n")
    git_repo.commit("head")
    files = tree_files(git_repo)
    assert (files["grpc-versions.yaml"].bucket, files["grpc-versions.yaml"].rule) == ("ci", "ci.context.ci-run")
    assert files["other-versions.yaml"].bucket == "src"


@each_case("unit, head", [
    ("$(cat a.json | jq -c . b.json | ", "matrix="),  # substitutions never closed, one inside another
    ("$(jq . a.json)", "echo matrix="),  # many closed ones on one line
    ("'$(", "matrix=$(cat \""),  # quotes opened and closed
    ("matrix=", "$("),  # the matrix word repeated
])
def test_hostile_lines_cost_linear_time(unit: str, head: str) -> None:
    assert_linear(fed, repeated(unit, head, "\n"), budget=1.0)
