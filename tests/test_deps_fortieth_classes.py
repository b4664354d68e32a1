"""Classes of misses the fortieth blind set of update commits found (bench/deps_bumps_fortieth.tsv).

- A MODULE.bazel `bazel_dep` whose keyword names a constant (aspect-build/rules_lint's `IS_RELEASE = False` and
  `dev_dependency = IS_RELEASE`, beside published modules) made the whole file unparsable with `--tree`, so a person's
  "Update bazel_skylib to 1.8.1" named nothing. A name the file binds exactly once, at the top level, to a literal is
  that literal now; a name bound again (an `if` block, augmented, a loop), to an expression, or not at all is the
  problem it was.
- Rust installed by actions-rs/toolchain (`toolchain: 1.58.0`, moonrepo/moon's "Update Rust to 1.58") or
  hecrj/setup-rust-action (`rust-version: "1.75"  # msrv`, hyperium/tonic), and Flutter by a `flutter-version:` key
  (leancodepl/patrol's one-item matrix `['3.38.x']`), named nothing: they are read as the tools `rust` and `flutter`,
  as dtolnay/rust-toolchain's `toolchain:` and `node-version:` were.
- A Gemfile.lock's `BUNDLED WITH` Bundler was read by nothing: GitLab's Renovate moved it in omnibus-gitlab's locks
  ("Update dependency bundler to v4.0.12") and the delta named no change. It is the `build` dependency `bundler` now,
  both modes (unless the lock lists a bundler gem among its specs: that one names it).
- A chart values' environment variable holding an image (damacus/home-ops' system-upgrade-controller values:
  `SYSTEM_UPGRADE_JOB_KUBECTL_IMAGE: registry.k8s.io/kubectl:v1.36.4@sha256:…`, Renovate's "update registry.k8s.io/
  kubectl docker tag to v1.36.4") named nothing: only an `image` key's string was read. A key whose last word is
  image (`…_IMAGE`, `kubectlImage`, `init-image`) is read as that string is now, both modes.
- An apps chart's Argo CD Helm sources (adfinis/helm-charts' infra-apps values: `repoURL:`, `chart: cert-manager`,
  `targetRevision: 1.20.3` under `certManager:`; a person's "Update cert-manager from 1.20.2 to 1.20.3") named
  nothing. Such a mapping is the chart at that revision now; from a patch when the hunk shows the `chart:` line of the
  changed revision's mapping (else nothing, as before). A source without `chart:` (a git path) names nothing.
- The benchmark's matcher: the delta names a pub git dependency with its source (`flutter_sodium@git+https://…`);
  Ente's "Update flutter_sodium to 33fe482" names the package.

Real-shaped files written for these tests (the layouts of those repositories), look-alikes and hostile input.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.deps.bazel import parse_module_bazel
from gatekeeper.deps.bundler import parse_gemfile_lock
from gatekeeper.deps.helmvalues import parse_values
from gatekeeper.deps.model import ManifestError
from tests.deltas import accuracy_bench, bench_change, each_fast, moves
from tests.deltas import patch as _patch
from tests.deltas import tree as _tree
from tests.gitrepo import edited_commits

# aspect-build/rules_lint's layout: published deps, then dev deps guarded by a release switch the BCR patch flips
RULES_LINT = """\
"Bazel dependencies"

module(
    name = "aspect_rules_lint",
    compatibility_level = 1,
)

bazel_dep(name = "aspect_bazel_lib", version = "2.22.0", repo_name = None)
bazel_dep(name = "aspect_tools_telemetry", version = "0.2.8")
bazel_dep(name = "bazel_skylib", version = "1.4.2")
bazel_dep(name = "platforms", version = "0.0.7")

####### Dev dependencies ########

bazel_dep(name = "bazelrc-preset.bzl", version = "1.1.0", dev_dependency = True)

# NOTE: when publishing to BCR, we patch this to be True
IS_RELEASE = False

bazel_dep(
    name = "toolchains_protoc",
    version = "0.6.0",
    dev_dependency = IS_RELEASE,
)

protoc = use_extension("@toolchains_protoc//protoc:extensions.bzl", "protoc", dev_dependency = IS_RELEASE)
protoc.toolchain(version = "v32.0")

bazel_dep(
    name = "rules_go",
    version = "0.59.0",
    dev_dependency = IS_RELEASE,
    repo_name = "io_bazel_rules_go",
)
"""

# moonrepo/moon's CI before its toolchain file: actions-rs installs the Rust each job builds with
MOON = """\
name: Build
on: [push, pull_request]
jobs:
  format:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v2
      - uses: actions-rs/toolchain@v1
        with:
          toolchain: 1.56.1
          profile: minimal
          components: rustfmt
      - uses: actions-rs/cargo@v1
        with:
          command: fmt
"""

# hyperium/tonic's msrv job
TONIC = """\
name: CI
on: [push]
jobs:
  msrv:
    runs-on: ubuntu-latest
    steps:
    - uses: actions/checkout@v4
    - uses: hecrj/setup-rust-action@v2
      with:
        rust-version: "1.71.1"    # msrv
    - run: cargo check --all-features
"""

# leancodepl/patrol's semver check: one Flutter in a matrix the setup step reads
PATROL = """\
name: patrol check semver
on: [pull_request]
jobs:
  check:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        flutter-version: ['3.32.x']
        flutter-channel: ['stable']
    steps:
      - uses: actions/checkout@v5
      - uses: subosito/flutter-action@v2
        with:
          flutter-version: ${{ matrix.flutter-version }}
          channel: ${{ matrix.flutter-channel }}
"""


def _bumped(root: Path, name: str, body: str, edits: dict[str, str]) -> tuple[object, object]:
    repo, base, head = edited_commits(root, {name: body}, {name: edits})
    return _tree(repo, base, head), _patch(repo, base, head)


def _deps(body: str) -> dict[str, tuple[str, str]]:
    return {d.name: (d.version, d.scope or "") for d in parse_module_bazel("MODULE.bazel", body.encode())}


def test_rules_lint_skylib_bump_is_read_with_tree_and_from_the_patch(tmp_path: Path) -> None:
    tree, patch = _bumped(tmp_path, "MODULE.bazel", RULES_LINT, {
        'bazel_dep(name = "bazel_skylib", version = "1.4.2")': 'bazel_dep(name = "bazel_skylib", version = "1.8.1")'})
    want = {("bazel", "bazel_skylib", "1.4.2", "1.8.1")}
    assert moves(tree) == moves(patch) == want, (tree, patch)  # type: ignore[arg-type]
    assert not tree.problems, tree.problems  # type: ignore[attr-defined]


def test_a_constant_bound_once_is_its_literal() -> None:
    found = _deps(RULES_LINT)
    assert found["toolchains_protoc"] == ("0.6.0", "runtime")  # IS_RELEASE = False: not a dev dependency
    assert found["rules_go"] == ("0.59.0", "runtime")
    assert found["bazelrc-preset.bzl"] == ("1.1.0", "dev")
    flipped = _deps(RULES_LINT.replace("IS_RELEASE = False", "IS_RELEASE = True"))
    assert flipped["toolchains_protoc"] == ("0.6.0", "dev") and flipped["rules_go"] == ("0.59.0", "dev")
    # a version named by a constant is that version
    versioned = 'SKYLIB = "1.8.1"\nbazel_dep(name = "bazel_skylib", version = SKYLIB)\n'
    assert _deps(versioned) == {"bazel_skylib": ("1.8.1", "runtime")}


@each_case("body", [
    # bound twice: which value the call sees is the program's
    'IS_RELEASE = False\nIS_RELEASE = True\nbazel_dep(name = "a", version = "1", dev_dependency = IS_RELEASE)\n',
    # bound again in a block, augmented, in a loop, as a function
    'V = "1"\nif True:\n    V = "2"\nbazel_dep(name = "a", version = V)\n',
    'V = "1"\nV += ".1"\nbazel_dep(name = "a", version = V)\n',
    'V = "1"\nfor V in ["2"]:\n    pass\nbazel_dep(name = "a", version = V)\n',
    'def V():\n    pass\nV = "1"\nbazel_dep(name = "a", version = V)\n',
    # bound to an expression, indented only, or not bound at all
    'V = "1" + "2"\nbazel_dep(name = "a", version = V)\n',
    'V = OTHER\nbazel_dep(name = "a", version = V)\n',
    '  V = "1"\nbazel_dep(name = "a", version = V)\n',
    'bazel_dep(name = "a", version = UNBOUND)\n',
    # a name that shadows a keyword argument elsewhere is bound more than once
    'version = "1"\nbazel_dep(name = "a", version = version)\n',
    # an attribute or an item is no constant
    'V = "1"\nbazel_dep(name = "a", version = V.x)\n',
    'V = "1"\nbazel_dep(name = "a", version = V[0])\n',
])
def test_names_not_bound_once_to_a_literal_are_refused(body: str) -> None:
    with pytest.raises(ManifestError):
        parse_module_bazel("MODULE.bazel", body.encode())


def test_a_refused_constant_is_a_problem_not_a_crash_with_tree(tmp_path: Path) -> None:
    twice = RULES_LINT.replace("IS_RELEASE = False\n", "IS_RELEASE = False\nIS_RELEASE = True\n")
    tree, _ = _bumped(tmp_path, "MODULE.bazel", twice, {'version = "1.4.2"': 'version = "1.8.1"'})
    assert any(p.manifest == "MODULE.bazel" and p.kind == "unparsable" for p in tree.problems), tree  # type: ignore[attr-defined]


def test_many_constants_are_read_in_linear_time() -> None:
    names = "".join(f'C{i} = "{i}.0"\n' for i in range(20_000))
    calls = "".join(f'bazel_dep(name = "m{i}", version = C{i}, dev_dependency = C{i})\n' for i in range(20_000))
    body = (names + calls).encode()
    each_fast([(lambda: parse_module_bazel("MODULE.bazel", body), "20,000 calls naming 20,000 constants")], 2.0)
    assert len(parse_module_bazel("MODULE.bazel", body)) == 20_000


def test_moon_actions_rs_toolchain_is_rust(tmp_path: Path) -> None:
    tree, patch = _bumped(tmp_path, ".github/workflows/build.yml", MOON, {"toolchain: 1.56.1": "toolchain: 1.58.0"})
    assert ("tool", "rust", "1.56.1", "1.58.0") in moves(tree), tree  # type: ignore[arg-type]
    assert ("tool", "rust", "1.56.1", "1.58.0") in moves(patch), patch  # type: ignore[arg-type]


def test_tonic_setup_rust_action_msrv_is_rust(tmp_path: Path) -> None:
    tree, patch = _bumped(tmp_path, ".github/workflows/CI.yml", TONIC, {'"1.71.1"': '"1.75"'})
    assert ("tool", "rust", "1.71.1", "1.75") in moves(tree), tree  # type: ignore[arg-type]
    assert ("tool", "rust", "1.71.1", "1.75") in moves(patch), patch  # type: ignore[arg-type]


def test_patrol_flutter_version_is_flutter(tmp_path: Path) -> None:
    tree, patch = _bumped(tmp_path, ".github/workflows/patrol-check-semver.yaml", PATROL, {"'3.32.x'": "'3.38.x'"})
    assert ("tool", "flutter", "3.32.x", "3.38.x") in moves(tree), tree  # type: ignore[arg-type]
    assert ("tool", "flutter", "3.32.x", "3.38.x") in moves(patch), patch  # type: ignore[arg-type]


def test_look_alike_inputs_name_nothing(tmp_path: Path) -> None:
    # another action's `toolchain:` input, a channel instead of a version, an expression: no rust
    other = MOON.replace("actions-rs/toolchain@v1", "some-org/toolchain@v1")
    tree, _ = _bumped(tmp_path, ".github/workflows/build.yml", other, {"toolchain: 1.56.1": "toolchain: 1.58.0"})
    assert not any(c.name == "rust" for c in tree.changes), tree  # type: ignore[attr-defined]
    tree, _ = _bumped(tmp_path / "b", ".github/workflows/build.yml", MOON, {"toolchain: 1.56.1": "toolchain: stable"})
    assert not any(c.name == "rust" and c.to_version for c in tree.changes), tree  # type: ignore[attr-defined]
    # a matrix of two Flutters (round 53: each version of a matrix is the tool at that version): the set of versions
    # moved, `changed` (unordered), never an upgrade of 3.32.x
    tree, _ = _bumped(tmp_path / "c", ".github/workflows/x.yaml", PATROL, {"['3.32.x']": "['3.32.x', '3.38.x']"})
    flutter = [(c.from_version, c.to_version, c.change) for c in tree.changes if c.name == "flutter"]  # type: ignore[attr-defined]
    assert flutter == [("3.32.x", "3.38.x", "changed")], tree


def test_the_bench_names_a_pub_git_dependency_by_its_package() -> None:
    bench = accuracy_bench()
    named = "flutter_sodium@git+https://github.com/ente-io/flutter_sodium"
    assert bench._same_name("flutter_sodium", bench_change("pub", named))
    assert not bench._same_name("flutter_sodium", bench_change("pub", "sodium@git+https://github.com/o/flutter_sodium"))
    assert not bench._same_name("flutter", bench_change("pub", named))


# omnibus-gitlab's root Gemfile.lock, its tail
OMNIBUS_LOCK = """\
GEM
  remote: https://rubygems.org/
  specs:
    rake (13.2.1)
    rspec (3.13.0)
      rspec-core (~> 3.13.0)
    rspec-core (3.13.2)

PLATFORMS
  ruby
  x86_64-linux

DEPENDENCIES
  rake
  rspec

BUNDLED WITH
   4.0.11
"""


def test_omnibus_bundled_with_is_bundler_with_tree_and_from_the_patch(tmp_path: Path) -> None:
    tree, patch = _bumped(tmp_path, "Gemfile.lock", OMNIBUS_LOCK, {"   4.0.11\n": "   4.0.12\n"})
    want = {("bundler", "bundler", "4.0.11", "4.0.12")}
    assert moves(tree) == moves(patch) == want, (tree, patch)  # type: ignore[arg-type]
    [change] = tree.changes  # type: ignore[attr-defined]
    assert (change.change, change.direct, change.scope) == ("upgraded", True, "build")


def test_bundler_4_two_space_bundled_with_moves_from_the_patch(tmp_path: Path) -> None:
    two = OMNIBUS_LOCK.replace("   4.0.11", "  4.0.11")
    tree, patch = _bumped(tmp_path, "Gemfile.lock", two, {"  4.0.11\n": "  4.0.12\n"})
    assert moves(tree) == moves(patch) == {("bundler", "bundler", "4.0.11", "4.0.12")}, (tree, patch)  # type: ignore


def test_bundled_with_look_alikes() -> None:
    def bundler_of(body: str) -> list[str]:
        return [d.version for d in parse_gemfile_lock("Gemfile.lock", body.encode()) if d.name == "bundler"]
    assert bundler_of(OMNIBUS_LOCK) == ["4.0.11"]
    # a lock listing bundler as a gem: that spec names it, BUNDLED WITH adds no second bundler
    listed = OMNIBUS_LOCK.replace("    rake (13.2.1)\n", "    bundler (2.6.9)\n    rake (13.2.1)\n")
    assert bundler_of(listed) == ["2.6.9"]
    # Bundler 4 indents it by two spaces (omnibus-gitlab's 4.0.12), and a move from three to two is one upgrade
    assert bundler_of(OMNIBUS_LOCK.replace("   4.0.11", "  4.0.12")) == ["4.0.12"]
    # not a version, not two or three spaces, not under BUNDLED WITH, or no BUNDLED WITH at all: no bundler
    for odd in (OMNIBUS_LOCK.replace("   4.0.11", "   latest"), OMNIBUS_LOCK.replace("   4.0.11", "    4.0.11"),
                OMNIBUS_LOCK.replace("   4.0.11", " 4.0.11"),
                OMNIBUS_LOCK.replace("BUNDLED WITH", "RUBY VERSION"), OMNIBUS_LOCK.split("BUNDLED WITH")[0],
                OMNIBUS_LOCK.replace("   4.0.11", "   4.0.11; rm -rf /")):
        assert bundler_of(odd) == [], odd


def test_a_long_lock_is_read_in_linear_time() -> None:
    specs = "".join(f"    gem{i} (1.{i})\n" for i in range(60_000))
    body = ("GEM\n  remote: https://rubygems.org/\n  specs:\n" + specs + "\nBUNDLED WITH\n" + "   4.0.11\n" * 60_000)
    each_fast([(lambda: parse_gemfile_lock("Gemfile.lock", body.encode()), "60,000 specs, 60,000 version lines")], 2.0)


# damacus/home-ops' system-upgrade-controller values (bjw-s app-template)
OLD_KUBECTL = "v1.36.3@sha256:6e4fce3c83651edb91b74bc67701c5cd263dd8aa3cd4254b1798d6425a5ab789"
DAMACUS = f"""\
---
controllers:
  system-upgrade-controller:
    strategy: RollingUpdate
    containers:
      app:
        image:
          repository: docker.io/rancher/system-upgrade-controller
          tag: v0.20.1@sha256:aaf4dbf640579a6abfa6390aab927ee664f06814e33c371e69df9dd451ca153a
        env:
          SYSTEM_UPGRADE_CONTROLLER_DEBUG: false
          SYSTEM_UPGRADE_JOB_BACKOFF_LIMIT: 99
          SYSTEM_UPGRADE_JOB_IMAGE_PULL_POLICY: IfNotPresent
          SYSTEM_UPGRADE_JOB_KUBECTL_IMAGE: registry.k8s.io/kubectl:{OLD_KUBECTL}
          SYSTEM_UPGRADE_JOB_PRIVILEGED: true
          SYSTEM_UPGRADE_PLAN_POLLING_INTERVAL: 15m
"""
NEW_KUBECTL = "v1.36.4@sha256:b8d523e7b8cdc5e3caa0f8891ee9f504abf137dec786e6e0ddd33e4f272c2f13"


def test_damacus_kubectl_image_variable_is_read_with_tree_and_from_the_patch(tmp_path: Path) -> None:
    old = OLD_KUBECTL
    path = "kubernetes/apps/system-upgrade/system-upgrade-controller/app/config/values.yaml"
    tree, patch = _bumped(tmp_path, path, DAMACUS, {old: NEW_KUBECTL})
    want = {("docker", "registry.k8s.io/kubectl", old, NEW_KUBECTL)}
    assert moves(tree) == moves(patch) == want, (tree, patch)  # type: ignore[arg-type]


@each_case(("key", "value", "named"), [
    ("kubectlImage", "bitnami/kubectl:1.31.0", ("bitnami/kubectl", "1.31.0")),
    ("init-image", "busybox:1.37", ("busybox", "1.37")),
    ("JOB_IMAGE", "ghcr.io/o/r@sha256:" + "a" * 64, ("ghcr.io/o/r", "@sha256:" + "a" * 64)),
    # no tag nor digest, a policy, pull secrets, a word ending in "image" that is no last word, prose
    ("JOB_IMAGE", "ghcr.io/o/r", None),
    ("imagePullPolicy", "Always:now", None),
    ("SYSTEM_UPGRADE_JOB_IMAGE_PULL_POLICY", "x:1", None),
    ("myimage", "busybox:1.37", None),
    ("IMAGES", "busybox:1.37", None),
    ("bannerImage", "see the docs: 1", None),
])
def test_image_keys_and_look_alikes(key: str, value: str, named: tuple[str, str] | None) -> None:
    found = [(d.name, d.version) for d in parse_values("values.yaml", f"app:\n  {key}: {value!r}\n".encode())]
    assert found == ([named] if named else []), found


# adfinis/helm-charts' infra-apps values: Argo CD applications the chart templates, one Helm source each
ADFINIS = """\
certManager:
  # -- Enable cert-manager
  enabled: false
  # -- Helm chart repo
  repoURL: https://charts.jetstack.io
  # -- Chart
  chart: cert-manager
  # -- [cert-manager Helm chart](https://github.com/cert-manager/cert-manager) version
  targetRevision: 1.20.2

  # -- Helm values
  values: {}

gitApp:
  repoURL: https://github.com/adfinis/argocd-apps.git
  path: apps/thing
  targetRevision: 1.2.3

velero:
  enabled: false
  repoURL: https://vmware-tanzu.github.io/helm-charts
  chart: velero
  targetRevision: 12.0.0
"""


def test_adfinis_argo_source_is_read_with_tree_and_from_the_patch(tmp_path: Path) -> None:
    tree, patch = _bumped(tmp_path, "charts/infra-apps/values.yaml", ADFINIS,
                          {"targetRevision: 1.20.2": "targetRevision: 1.20.3"})
    assert moves(tree) == moves(patch) == {("helm", "cert-manager", "1.20.2", "1.20.3")}, (tree, patch)  # type: ignore
    tree, patch = _bumped(tmp_path / "v", "charts/infra-apps/values.yaml", ADFINIS,
                          {"targetRevision: 12.0.0": "targetRevision: 12.1.0"})
    assert moves(tree) == moves(patch) == {("helm", "velero", "12.0.0", "12.1.0")}, (tree, patch)  # type: ignore


def test_argo_look_alikes(tmp_path: Path) -> None:
    # a git source's revision names nothing, with --tree or from the patch
    tree, patch = _bumped(tmp_path, "values.yaml", ADFINIS, {"targetRevision: 1.2.3": "targetRevision: 1.2.4"})
    assert not tree.changes and not patch.changes, (tree, patch)  # type: ignore[attr-defined]
    names = {d.name: d.version for d in parse_values("values.yaml", ADFINIS.encode()) if d.ecosystem == "helm"}
    assert names == {"cert-manager": "1.20.2", "velero": "12.0.0"}, names
    # no repoURL, a revision that is a branch, a chart that is no name: nothing
    for body in ("a:\n  chart: x\n  targetRevision: 1.0.0\n",
                 "a:\n  repoURL: https://h\n  chart: x\n  targetRevision: main\n",
                 "a:\n  repoURL: https://h\n  chart: ../x\n  targetRevision: 1.0.0\n"):
        assert [d for d in parse_values("values.yaml", body.encode()) if d.ecosystem == "helm"] == [], body
    # from a patch, a chart: line of a sibling mapping does not pair with another mapping's revision
    sibling = "a:\n  repoURL: https://h\n  chart: x\nb:\n  repoURL: https://h\n  path: p\n  targetRevision: 1.0.0\n"
    _, patch = _bumped(tmp_path / "s", "values.yaml", sibling, {"targetRevision: 1.0.0": "targetRevision: 1.0.1"})
    assert not patch.changes, patch  # type: ignore[attr-defined]
