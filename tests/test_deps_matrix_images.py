"""A workflow job's service or container image at its matrix's values (round 57; doctrine/dbal's "CI: Bump MariaDB to
10.7" moved `mariadb-version` items under a job whose service runs `image: "mariadb:${{ matrix.mariadb-version }}"`:
the image line never changed and `--tree` named nothing, with no problem). Each value the job gives the key is the
image at that value (gatekeeper/deps/matriximages.py). Look-alikes: another job's matrix, an expression in a run line,
a value computed by `fromJSON`, two expressions in one reference."""

from __future__ import annotations

from pathlib import Path

from cpucost import assert_linear, repeated
from tables import each_case

from gatekeeper.deps.matriximages import matrix_images
from tests.deltas import moves
from tests.deltas import tree as _tree
from tests.gitrepo import edited_commits

WF = ".github/workflows/ci.yml"

DOCTRINE = """\
name: "Continuous Integration"
on: [push]
jobs:
  phpunit-smoke-check:
    runs-on: "ubuntu-20.04"
    steps:
      - uses: "actions/checkout@v2"

  phpunit-mariadb:
    name: "PHPUnit with MariaDB"
    runs-on: "ubuntu-20.04"
    needs: "phpunit-smoke-check"

    strategy:
      matrix:
        php-version:
          - "7.4"
        mariadb-version:
          - "10.0"
          - "10.2"
          - "10.5"
        extension:
          - "mysqli"
        include:
          - php-version: "8.1"
            mariadb-version: "10.5"
            extension: "mysqli"

    services:
      mariadb:
        image: "mariadb:${{ matrix.mariadb-version }}"
        env:
          MYSQL_ALLOW_EMPTY_PASSWORD: yes

    steps:
      - name: "Checkout"
        uses: "actions/checkout@v2"
"""


def test_doctrines_bump_names_the_image(tmp_path: Path) -> None:
    repo, base, head = edited_commits(tmp_path, {WF: DOCTRINE}, {WF: {'"10.5"': '"10.7"'}})
    delta = _tree(repo, base, head)
    assert ("docker", "mariadb", "10.5", "10.7") in moves(delta), delta


_SHAPES = {
    "block list": ('        {key}:\n          - "{a}"\n          - "{b}"\n', '"{b}"', '"{c}"'),
    "flow list": ("        {key}: [{a}, {b}]\n", "{b}]", "{c}]"),
    "flow list, quoted": ("        {key}: ['{a}', '{b}']\n", "'{b}'", "'{c}'"),
    "include only": ("        include:\n          - {key}: {b}\n", "{key}: {b}", "{key}: {c}"),
    "block list at the key's column": ('        {key}:\n        - "{a}"\n        - "{b}"\n', '"{b}"', '"{c}"'),
}
_IMAGES = [("postgres:{v}", "postgres"), ("docker.io/library/mysql:{v}", "docker.io/library/mysql"),
           ("ghcr.io/acme/redis:{v}-alpine", "ghcr.io/acme/redis"), ("'bitnami/mongodb:{v}'", "bitnami/mongodb")]


def _job(shape: str, key: str, image: str, a: str, b: str, container: bool) -> str:
    matrix = _SHAPES[shape][0].format(key=key, a=a, b=b)
    ref = image.replace("{v}", "${{ matrix." + key + " }}")
    where = (f"    container: {ref}\n" if container
             else f"    services:\n      db:\n        image: {ref}\n        ports:\n          - 5432:5432\n")
    return ("on: push\njobs:\n  test:\n    runs-on: ubuntu-22.04\n    strategy:\n      matrix:\n" + matrix
            + where + "    steps:\n      - run: make test\n")


@each_case("shape", sorted(_SHAPES))
@each_case("image,name", _IMAGES)
@each_case("key", ["db-version", "postgres_version", "mariadb"])
@each_case("container", [False, True])
def test_a_matrix_value_moves_the_image(tmp_path: Path, shape: str, image: str, name: str, key: str,
                                        container: bool) -> None:
    a, b, c = "13", "15.4", "16.1"
    body = _job(shape, key, image, a, b, container)
    old, new = (s.format(key=key, b=b, c=c) for s in _SHAPES[shape][1:])
    repo, base, head = edited_commits(tmp_path, {WF: body}, {WF: {old: new}})
    delta = _tree(repo, base, head)
    suffix = "-alpine" if "alpine" in image else ""
    assert ("docker", name, b + suffix, c + suffix) in moves(delta), delta


def test_a_whole_reference_from_the_matrix(tmp_path: Path) -> None:
    body = ("jobs:\n  t:\n    strategy:\n      matrix:\n        image:\n          - \"ubuntu:22.04\"\n"
            "          - \"quay.io/centos/centos:stream9\"\n    container: ${{ matrix.image }}\n")
    repo, base, head = edited_commits(tmp_path, {WF: body}, {WF: {"ubuntu:22.04": "ubuntu:24.04"}})
    delta = _tree(repo, base, head)
    assert ("docker", "ubuntu", "22.04", "24.04") in moves(delta), delta
    assert ("quay.io/centos/centos", "stream9") in [(d.name, d.version) for d in matrix_images(WF, body.splitlines())]


# --- look-alikes: nothing named --------------------------------------------------------------------------------------

_ALIKES = {
    "another job's matrix": "jobs:\n  a:\n    strategy:\n      matrix:\n        pg: [15]\n  b:\n"
                            "    services:\n      db:\n        image: postgres:${{ matrix.pg }}\n",
    "a run line": "jobs:\n  a:\n    strategy:\n      matrix:\n        pg: [15]\n    steps:\n"
                  "      - run: docker run postgres:${{ matrix.pg }}\n",
    "fromJSON": "jobs:\n  a:\n    strategy:\n      matrix:\n        pg: ${{ fromJSON(needs.x.outputs.v) }}\n"
                "    services:\n      db:\n        image: postgres:${{ matrix.pg }}\n",
    "two expressions": "jobs:\n  a:\n    strategy:\n      matrix:\n        pg: [15]\n        os: [alpine]\n"
                       "    services:\n      db:\n        image: postgres:${{ matrix.pg }}-${{ matrix.os }}\n",
    "another key": "jobs:\n  a:\n    strategy:\n      matrix:\n        pg: [15]\n"
                   "    services:\n      db:\n        image: postgres:${{ matrix.postgres }}\n",
    "an image input": "jobs:\n  a:\n    strategy:\n      matrix:\n        pg: [15]\n    steps:\n      - uses: x/y@v1\n"
                      "        with:\n          image-name: postgres:${{ matrix.pg }}\n",
}


@each_case("case", sorted(_ALIKES))
def test_look_alikes_name_nothing(case: str) -> None:
    assert matrix_images(WF, _ALIKES[case].splitlines()) == [], case


def test_a_matrix_value_that_is_no_scalar_names_nothing() -> None:
    body = ("jobs:\n  a:\n    strategy:\n      matrix:\n        pg: ['15', '${{ x }}', 'a b']\n"
            "    services:\n      db:\n        image: postgres:${{ matrix.pg }}\n")
    assert [(d.name, d.version) for d in matrix_images(WF, body.splitlines())] == [("postgres", "15")]


@each_case("body", ["", "jobs:\n", "jobs:\n  a:\n    image: ${{ matrix.\n", "- - - :\n  [\n", "jobs: {a: 1}\n",
                    "x:\n" + "  - a\n" * 500, "image: ${{ matrix.k }}\nk: [" + ",".join(["1"] * 500) + "]\n"])
def test_malformed_files_are_read_without_a_crash(body: str) -> None:
    assert isinstance(matrix_images(WF, body.splitlines()), list)


def test_cost_is_linear() -> None:
    unit = "  j:\n    strategy:\n      matrix:\n        k: [1, 2]\n    container: a:${{ matrix.k }}\n"
    assert_linear(lambda text: matrix_images(WF, text.splitlines()), repeated(unit, "jobs:\n", ""), budget=2.0)
