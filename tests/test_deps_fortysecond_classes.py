"""Classes of misses the forty-second blind set of update commits found (bench/deps_bumps_fortysecond.tsv).

- A Dockerfile ARG whose default is quoted, `ARG BCI="registry.suse.com/bci/bci-base:15.6"` above `FROM ${BCI}`
  (rancher/system-upgrade-controller's k3s test image, Renovate's "Update registry.suse.com/bci/bci-base Docker tag
  to v15.7"), was named with its quotes: `"registry.suse.com/bci/bci-base` at `15.7"`, both modes. The builder
  removes one pair of matching quotes around an ARG's value; the delta does too now. An unmatched or lone quote is
  kept (the reference stays unreadable rather than naming another image).
- A Pipfile bump from a patch (giantswarm/kyverno-policies' tests/ats/Pipfile, Renovate's "Update dependency
  pytest-rerunfailures to v14", 4) was `partial`: the Pipfile had no reader of its changed lines, and the hunk
  seldom shows `[packages]`. A changed `name = "~=14.0"` or `name = {version = "==2.0", extras = [...]}` line is read
  now (a PEP 440 specifier only); a line under a table the hunk shows holding no packages (`[[source]]`,
  `[requires]`, `[scripts]`, `[pipenv]`), `python_version`, a git/path/index entry or `"*"` is refused as before.

Real-shaped files written for these tests (the layouts of those repositories), look-alikes and hostile input.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.deps import docker, edits, pipfile
from gatekeeper.deps.model import ManifestError
from tests.deltas import both_edited, each_fast, moves, partial

# rancher/system-upgrade-controller's e2e/cluster/local/images/k3s/Dockerfile (its shape: the base in a quoted ARG
# right above the stage that uses it, a second stage copying from the first)
K3S_DOCKERFILE = """\
# the all-in-one binary on the BCI base
ARG BCI="registry.suse.com/bci/bci-base:15.6"
FROM ${BCI} AS k3s
ARG ARCH
RUN zypper -n install --no-recommends ca-certificates curl

ARG RUNTIME=registry.suse.com/bci/bci-micro:15.6
FROM ${RUNTIME}
COPY --from=k3s /bin /bin
ENTRYPOINT ["/bin/k3s"]
"""
K3S_PATH = "e2e/cluster/local/images/k3s/Dockerfile"

# giantswarm/kyverno-policies' tests/ats/Pipfile
ATS_PIPFILE = """\
[[source]]
name = "pypi"
url = "https://pypi.org/simple"
verify_ssl = true

[dev-packages]

[packages]
pytest-helm-charts = "~=0.6.0"
pytest = "~=6.2.5"
pykube-ng = "~=21.10.0"
pytest-rerunfailures = "~=10.2"
requests = "~=2.31.0"
pyopenssl = "~=24.1.0"

[requires]
python_version = "3"
"""
ATS_PATH = "tests/ats/Pipfile"


def test_rancher_quoted_arg_image_is_named_without_its_quotes(tmp_path: Path) -> None:
    tree, patch = both_edited(tmp_path, {K3S_PATH: K3S_DOCKERFILE},
                              {K3S_PATH: {"bci-base:15.6": "bci-base:15.7"}})
    want = {("docker", "registry.suse.com/bci/bci-base", "15.6", "15.7")}
    assert moves(tree) == moves(patch) == want, (tree, patch)
    assert not tree.problems and not patch.problems, (tree.problems, patch.problems)


def test_an_unquoted_sibling_still_reads_alike(tmp_path: Path) -> None:
    tree, patch = both_edited(tmp_path, {K3S_PATH: K3S_DOCKERFILE}, {K3S_PATH: {"bci-micro:15.6": "bci-micro:15.7"}})
    want = {("docker", "registry.suse.com/bci/bci-micro", "15.6", "15.7")}
    assert moves(tree) == moves(patch) == want, (tree, patch)


@each_case(("arg", "named"), [
    ('"alpine:3.20"', ("alpine", "3.20")),
    ("'alpine:3.20'", ("alpine", "3.20")),
    ("alpine:3.20", ("alpine", "3.20")),
    ('"alpine:3.20', ('"alpine', "3.20")),  # an unmatched quote is kept: no other image is named
    ('alpine:3.20"', ("alpine", '3.20"')),
    ('"alpine:3"20"', ('"alpine', '3"20"')),  # a quote inside: not one pair around the whole value
    ("'\"alpine:3.20\"'", ('"alpine', '3.20"')),  # one pair only
    ('"', ('"', "latest")),
])
def test_arg_quotes_and_look_alikes(arg: str, named: tuple[str, str]) -> None:
    images = docker.from_images(f"ARG BASE={arg}\nFROM ${{BASE}}\n")
    assert [(name, tag) for name, tag, _ in images] == [named]


def test_an_empty_quoted_default_names_nothing_else() -> None:
    # `ARG BASE=""` is an empty default: the reference is the bare tag, as with `ARG BASE=`
    assert docker.from_images('ARG BASE=""\nFROM ${BASE}alpine:3.20\n') == docker.from_images(
        "ARG BASE=\nFROM ${BASE}alpine:3.20\n") == [("alpine", "3.20", "")]


def test_many_quoted_args_are_read_in_linear_time() -> None:
    for size in (2_000, 20_000):
        body = "".join(f'ARG A{i}="{"q" * 50}:{i}"\n' for i in range(size)) + "FROM ${A1}\n"
        each_fast([(lambda body=body: docker.from_images(body), f"{size} ARGs")], 5.0)
        body = 'ARG A="' + '"' * 200_000 + "\nFROM ${A}\n"
        each_fast([(lambda body=body: docker.from_images(body), "quotes")], 5.0)


def test_giantswarm_pipfile_bump_is_read_with_tree_and_from_the_patch(tmp_path: Path) -> None:
    tree, patch = both_edited(tmp_path, {ATS_PATH: ATS_PIPFILE},
                              {ATS_PATH: {'pytest-rerunfailures = "~=10.2"': 'pytest-rerunfailures = "~=14.0"'}})
    want = {("pip", "pytest-rerunfailures", "~=10.2", "~=14.0")}
    assert moves(tree) == moves(patch) == want, (tree, patch)
    assert not partial(patch, ATS_PATH), patch.problems


def test_a_pipfile_bump_beside_the_requires_table_is_read(tmp_path: Path) -> None:
    # the hunk shows `[requires]` below the line (giantswarm's pyopenssl bump): a table below says nothing of it
    tree, patch = both_edited(tmp_path, {ATS_PATH: ATS_PIPFILE},
                              {ATS_PATH: {'pyopenssl = "~=24.1.0"': 'pyopenssl = "~=25.0.0"'}})
    assert moves(tree) == moves(patch) == {("pip", "pyopenssl", "~=24.1.0", "~=25.0.0")}, (tree, patch)


def test_a_pipfile_table_entry_with_extras_is_read(tmp_path: Path) -> None:
    body = ATS_PIPFILE.replace('requests = "~=2.31.0"', 'requests = {version = "==2.31.0", extras = ["socks"]}')
    tree, patch = both_edited(tmp_path, {ATS_PATH: body}, {ATS_PATH: {"==2.31.0": "==2.32.3"}})
    assert moves(tree) == moves(patch) == {("pip", "requests", "==2.31.0", "==2.32.3")}, (tree, patch)


@each_case(("old", "new"), [
    ('python_version = "3"', 'python_version = "3.12"'),  # [requires], the hunk shows its header
    ('url = "https://pypi.org/simple"', 'url = "https://mirror.example/simple"'),  # [[source]]
    ('pytest = "~=6.2.5"', 'pytest = "*"'),  # any version: not a specifier the hunk can pin
    ('pytest = "~=6.2.5"', 'pytest = {git = "https://github.com/pytest-dev/pytest.git", ref = "8.0.0"}'),
    ('pytest = "~=6.2.5"', 'pytest = {version = "==8.0.0", index = "mirror"}'),
    ('pytest = "~=6.2.5"', 'pytest = "~=6.2.5"  ]] not toml'),
])
def test_pipfile_lines_that_name_no_pinned_package_are_refused_from_the_patch(tmp_path: Path, old: str,
                                                                              new: str) -> None:
    tree, patch = both_edited(tmp_path, {ATS_PATH: ATS_PIPFILE}, {ATS_PATH: {old: new}})
    assert partial(patch, ATS_PATH), patch
    assert not [c for c in patch.changes if c.manifest == ATS_PATH], patch.changes


def test_a_package_moved_between_tables_the_hunk_shows_is_refused(tmp_path: Path) -> None:
    body = ATS_PIPFILE.replace("[dev-packages]\n", '[dev-packages]\nblack = "==24.1.0"\n')
    tree, patch = both_edited(tmp_path, {ATS_PATH: body}, {ATS_PATH: {
        '[dev-packages]\nblack = "==24.1.0"\n\n[packages]\n': '[dev-packages]\n\n[packages]\nblack = "==24.1.0"\n'}})
    assert partial(patch, ATS_PATH), patch
    assert ("pip", "black") in {(c.ecosystem, c.name) for c in tree.changes}, tree


@each_case("line", [
    'python_version = "3.11"', 'python_full_version = "3.11.4"', 'name = "pypi"', "verify_ssl = true",
    'x = "ls -la"', 'x = ""', "x = 3", 'x = ["==1.0"]', 'x = {version = 1}', 'x|y = "==1.0"', '"a|b" = "==1.0"',
    "[packages", "x = " + "[" * 5000, 'x = "' + "=" * 100_000 + '"',
])
def test_pipfile_line_look_alikes_and_hostile_lines_are_refused(line: str) -> None:
    with pytest.raises(ManifestError):
        pipfile.pipfile_line([(line, True)], 0)


def test_a_long_pipfile_hunk_is_read_in_linear_time() -> None:
    for size in (2_000, 20_000):
        lines = "".join(f'-p{i} = "=={i}.0"\n+p{i} = "=={i}.1"\n' for i in range(size))
        data = f"@@ -1,{size} +1,{size} @@\n{lines}".encode()
        each_fast([(lambda data=data: edits.read("pip", pipfile.pipfile_line, ATS_PATH, data), f"{size}")], 10.0)
        headers = "".join(f" [t{i}]\n" for i in range(size)) + '-a = "==1.0"\n+a = "==2.0"\n'
        data = f"@@ -1,{size + 1} +1,{size + 1} @@\n{headers}".encode()
        each_fast([(lambda data=data: edits.read("pip", pipfile.pipfile_line, ATS_PATH, data), "headers")], 10.0)


@each_case(("path", "body", "old", "new"), [
    ("Cargo.toml", '[package]\nname = "a"\n\n[dependencies]\nserde = "1.0"\n', 'serde = "1.0"',
     "serde = " + "[" * 5000),
    ("pyproject.toml", '[project]\nname = "a"\ndependencies = [\n  "requests==2.0",\n]\n', '"requests==2.0",',
     '"requests==2.1",' + "[" * 5000),
    ("mise.toml", '[tools]\nnode = "20"\n', 'node = "20"', "node = {version = " + "[" * 5000 + "}"),
    (ATS_PATH, ATS_PIPFILE, 'pytest = "~=6.2.5"', "pytest = " + "{a = " * 5000),
])
def test_a_deeply_nested_toml_line_in_a_patch_is_partial_not_a_crash(tmp_path: Path, path: str, body: str, old: str,
                                                                      new: str) -> None:
    # tomllib recurses once a bracket: before, a hunk line of 5,000 `[` raised RecursionError out of the gate (an
    # internal error, exit 1) for pyproject.toml, mise.toml and Cargo.toml's line readers
    tree, patch = both_edited(tmp_path, {path: body}, {path: {old: new}})
    assert partial(patch, path), patch
    assert any(p.manifest == path for p in tree.problems), tree


# dask/helm-chart's dask/values.yaml (its shape: per component an untagged `image:` and a sibling `imageTag:`)
DASK_VALUES = """\
# Default values for dask.

scheduler:
  name: scheduler
  image: "daskdev/dask"
  imageTag: "latest"
  replicas: 1
  serviceType: "LoadBalancer"

jupyter:
  name: jupyter
  enabled: true
  image: "daskdev/dask-notebook"
  imageTag: "latest"
  replicas: 1
"""
DASK_PATH = "dask/values.yaml"


def test_dask_image_tagged_apart_is_read_with_tree_and_from_the_patch(tmp_path: Path) -> None:
    tree, patch = both_edited(tmp_path, {DASK_PATH: DASK_VALUES},
                              {DASK_PATH: {'imageTag: "latest"': 'imageTag: "0.17.0"'}})
    want = {("docker", "daskdev/dask", "latest", "0.17.0"), ("docker", "daskdev/dask-notebook", "latest", "0.17.0")}
    assert moves(tree) == moves(patch) == want, (tree, patch)
    assert not tree.problems and not patch.problems, (tree.problems, patch.problems)


@each_case(("body", "named"), [
    ('image: "daskdev/dask"\nimageTag: "0.17.0"\n', {("daskdev/dask", "0.17.0")}),
    ("a:\n  imageTag: 2.1\n  image: ghcr.io/o/app\n", {("ghcr.io/o/app", "2.1")}),  # a float tag, either order
    ('image: "daskdev/dask:0.16.0"\nimageTag: "0.17.0"\n', {("daskdev/dask", "0.16.0")}),  # its own tag decides
    ('image: "daskdev/dask@sha256:' + "a" * 64 + '"\nimageTag: "0.17.0"\n', {("daskdev/dask", "@sha256:" + "a" * 64)}),
    ('imageTag: "0.17.0"\n', set()),  # the image is in another file (elastic's example values): nothing
    ('image: "daskdev/dask"\nimageTag: ""\n', set()),
    ('image: "daskdev/dask"\nimageTag: "0.17 rc"\n', set()),
    ('image: "daskdev/dask"\nimageTag: "' + "1" * 129 + '"\n', set()),
    ('image: "daskdev/dask"\nimageTag: {a: 1}\n', set()),
    ('image: "https://x.example/dask"\nimageTag: "1.0"\n', set()),
    ('a:\n  image: "daskdev/dask"\nb:\n  imageTag: "1.0"\n', set()),  # another mapping's tag
])
def test_image_tag_apart_shapes_and_look_alikes(body: str, named: set[tuple[str, str]]) -> None:
    from gatekeeper.deps.helmvalues import parse_values
    found = {(d.name, d.version) for d in parse_values("values.yaml", body.encode()) if d.ecosystem == "docker"}
    assert found == named


def test_a_tag_apart_from_another_mappings_image_is_not_joined_from_the_patch(tmp_path: Path) -> None:
    body = 'a:\n  image: "daskdev/dask"\n  b:\n    x: 1\n  c: 2\nd:\n  imageTag: "1.0"\n'
    tree, patch = both_edited(tmp_path, {"values.yaml": body}, {"values.yaml": {'imageTag: "1.0"': 'imageTag: "1.1"'}})
    assert not tree.changes and not patch.changes, (tree, patch)


def test_many_images_tagged_apart_are_read_in_linear_time() -> None:
    from gatekeeper.deps import hunks
    from gatekeeper.deps.helmvalues import parse_values, values_hunks
    for size in (1_000, 10_000):
        body = "".join(f'c{i}:\n  image: "o/app{i}"\n  imageTag: "1.{i}"\n' for i in range(size))
        each_fast([(lambda body=body: parse_values("values.yaml", body.encode()), f"{size} tree")], 10.0)
        side = hunks.HUNK + "\n" + "".join(f'  image: "o/app{i}"\n{hunks.CHANGED}  imageTag: "1.{i}"\n'
                                           for i in range(size))
        each_fast([(lambda side=side: values_hunks("values.yaml", side.encode()), f"{size} patch")], 10.0)
