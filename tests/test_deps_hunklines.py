"""Patch-only mode for pre-commit configs, pubspec.yaml, MODULE.bazel, kustomization.yaml, rust-toolchain.toml,
Gradle catalogs, Terraform module refs, .NET local tools, package.json's packageManager and package-lock v1
(hunklines.py, hcllines.py, hunks.py, edits.py).

Real git writes every patch. The attack property, over generated variants: whenever the patch alone is read
without a problem, it says what the whole files say (what `--tree` reads); a line whose owner or section the
hunk does not show is a `partial` problem, never a change of some other name or no change at all.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from cpucost import within_cpu
from tables import each_case

from gatekeeper.deps.delta import diff
from gatekeeper.deps.hunks import sides as hunks_sides
from gatekeeper.deps.model import ManifestError
from gatekeeper.deps.registry import format_for
from gatekeeper.deps.sources import Delta
from tests.gitrepo import GitRepo
from tests.test_deps_edits import _patch  # the delta of the patch real git writes

Row = tuple[str, str | None, str | None, str]


@pytest.fixture()
def repo(tmp_path: Path) -> GitRepo:
    return GitRepo(tmp_path / "repo")



def _truth(path: str, base: str, head: str) -> list[Row]:
    fmt = format_for(path)
    assert fmt is not None
    changes = diff(fmt.parse(path, base.encode()), fmt.parse(path, head.encode()), path)
    return sorted(((c.name, c.from_version, c.to_version, c.change) for c in changes), key=str)


def _seen(delta: Delta) -> list[Row]:
    return sorted(((c.name, c.from_version, c.to_version, c.change) for c in delta.changes), key=str)


def _partial(delta: Delta) -> bool:
    return not delta.changes and bool(delta.problems) and {p.kind for p in delta.problems} == {"partial"}


OLD_SHA, NEW_SHA = "01a675ea018f2fb714478a5ffb83fcea8374bb06", "2700fd5671c633760d912769c041bfcde2b9a01b"
PRE_COMMIT = f"""repos:
  - repo: https://github.com/pre-commit/pre-commit-hooks
    rev: v5.0.0
    hooks:
      - id: check-yaml
      - id: end-of-file-fixer

  - repo: https://github.com/astral-sh/ruff-pre-commit
    rev: {OLD_SHA} # frozen: v0.15.21
    hooks:
      - id: ruff-format
      - id: ruff
        args: [--fix]

  - repo: local
    hooks:
      - id: cargo-fmt
        name: cargo fmt
        entry: cargo fmt --
        language: system
"""


def test_pre_commit_rev_bump_with_its_frozen_comment(repo: GitRepo) -> None:
    head = PRE_COMMIT.replace(f"{OLD_SHA} # frozen: v0.15.21", f"{NEW_SHA} # frozen: v0.15.22")
    delta = _patch(repo, ".pre-commit-config.yaml", PRE_COMMIT, head)
    assert not delta.problems
    [change] = delta.changes
    assert (change.ecosystem, change.name, change.to_version, change.to_tag, change.change, change.partial) == (
        "pre-commit", "astral-sh/ruff-pre-commit", NEW_SHA, "v0.15.22", "upgraded", True)
    assert _seen(delta) == _truth(".pre-commit-config.yaml", PRE_COMMIT, head)
    tagged = PRE_COMMIT.replace("rev: v5.0.0", "rev: v5.1.0")
    assert _seen(_patch(repo, ".pre-commit-config.yaml", PRE_COMMIT, tagged)) == _truth(
        ".pre-commit-config.yaml", PRE_COMMIT, tagged) == [("pre-commit/pre-commit-hooks", "v5.0.0", "v5.1.0",
                                                            "upgraded")]


def test_pre_commit_repository_swapped_beside_its_rev_is_named_as_the_whole_file_names_it(repo: GitRepo) -> None:
    # a fork: the old repository removed, the new one added at its rev (round 29 reads a moved `- repo:` line whose
    # `rev:` the hunk shows below it: test_deps_twentyninth_classes.py), never an upgrade of the old one
    head = PRE_COMMIT.replace("https://github.com/astral-sh/ruff-pre-commit\n    rev: " + OLD_SHA,
                              "https://github.com/evil/ruff-pre-commit\n    rev: " + NEW_SHA)
    delta = _patch(repo, ".pre-commit-config.yaml", PRE_COMMIT, head)
    assert not delta.problems
    assert _seen(delta) == _truth(".pre-commit-config.yaml", PRE_COMMIT, head)
    assert {(c.name, c.change) for c in delta.changes} == {("astral-sh/ruff-pre-commit", "removed"),
                                                           ("evil/ruff-pre-commit", "added")}


@pytest.mark.parametrize("edit", [
    # the repository swapped with its rev out of the hunk's sight: the whole file is needed
    ("  - repo: https://github.com/astral-sh/ruff-pre-commit\n", "  - repo: https://github.com/evil/ruff-pre-commit\n"
     + "    # " + "a long note\n    # " * 4),
    # a hook's additional_dependencies are packages installed beside it: one without an exact version names none
    # (`requests==2.0` is read: test_deps_tenth_classes.py)
    ("args: [--fix]", "args: [--fix]\n        additional_dependencies: [requests]"),
    # `rev:` first in its item, `repo:` below it
    ("  - repo: https://github.com/pre-commit/pre-commit-hooks\n    rev: v5.0.0",
     "  - rev: v5.1.0\n    repo: https://github.com/pre-commit/pre-commit-hooks"),
    # a hook moved to another repository's entry
    ("      - id: ruff\n", "      - id: ruff-check\n"),
])
def test_pre_commit_edits_that_fail_closed(repo: GitRepo, edit: tuple[str, str]) -> None:
    head = PRE_COMMIT.replace(*edit)
    assert head != PRE_COMMIT
    assert _partial(_patch(repo, ".pre-commit-config.yaml", PRE_COMMIT, head))


def test_pre_commit_rev_whose_repo_the_hunk_hides_fails_closed(repo: GitRepo) -> None:
    head = PRE_COMMIT.replace("rev: v5.0.0", "rev: v5.1.0")
    assert _partial(_patch(repo, ".pre-commit-config.yaml", PRE_COMMIT, head, 0))
    # a nested line of another item between the rev and the repo line shown: not the same item
    nested = PRE_COMMIT.replace(f"    rev: {OLD_SHA} # frozen: v0.15.21\n", "").replace(
        "        args: [--fix]\n", f"        args: [--fix]\n    rev: {OLD_SHA}\n")
    moved = nested.replace(f"    rev: {OLD_SHA}\n", f"    rev: {NEW_SHA}\n")
    assert _partial(_patch(repo, ".pre-commit-config.yaml", nested, moved))


PUBSPEC = """name: app
description: A sample app.
publish_to: none
version: 1.0.0+1

environment:
  sdk: ^3.5.0

dependencies:
  dio: 5.9.2
  flutter:
    sdk: flutter
  go_router: ^15.0.0
  hosted_pkg:
    hosted: https://pub.example.com
    version: ^1.0.0
  intl: ^0.19.0
  url_launcher: ^6.1.1

dev_dependencies:
  flutter_lints: ^5.0.0
  flutter_test:
    sdk: flutter

dependency_overrides:
  meta: 1.16.0
"""


@pytest.mark.parametrize("old, new, want", [
    ("dio: 5.9.2", "dio: 5.10.0", [("dio", "5.9.2", "5.10.0", "upgraded")]),
    ("flutter_lints: ^5.0.0", "flutter_lints: ^6.0.0", [("flutter_lints", "^5.0.0", "^6.0.0", "upgraded")]),
])
def test_pubspec_bump_under_a_section_the_hunk_shows(repo: GitRepo, old: str, new: str, want: list[Row]) -> None:
    head = PUBSPEC.replace(old, new)
    delta = _patch(repo, "app/pubspec.yaml", PUBSPEC, head)
    assert not delta.problems and _seen(delta) == want
    assert [(c.from_version, c.to_version) for c in delta.changes] == [r[1:3] for r in _truth(
        "app/pubspec.yaml", PUBSPEC, head)]


@pytest.mark.parametrize("old, new", [
    ("meta: 1.16.0", "meta: 1.17.0"),  # dependency_overrides: an override section
    ("sdk: ^3.5.0", "sdk: ^3.6.0"),  # environment: no package
    ("    version: ^1.0.0", "    version: ^1.1.0"),  # a hosted source's version: nested, its name not the key
    ("dio: 5.9.2", "dio: any"),  # not a plain version
    ("dio: 5.9.2", "dio:\n    git: https://github.com/evil/dio"),  # a git source swapped in
])
def test_pubspec_edits_that_fail_closed(repo: GitRepo, old: str, new: str) -> None:
    head = PUBSPEC.replace(old, new)
    assert _partial(_patch(repo, "app/pubspec.yaml", PUBSPEC, head))


def test_pubspec_line_whose_section_the_hunk_hides_fails_closed(repo: GitRepo) -> None:
    head = PUBSPEC.replace("url_launcher: ^6.1.1", "url_launcher: ^6.2.0")
    hidden = _patch(repo, "app/pubspec.yaml", PUBSPEC, head)  # `dependencies:` is 9 lines up
    # named as far as the hunk shows it, beside a `partial` problem: which section (its scope) is not shown
    assert _seen(hidden) == [("url_launcher", "^6.1.1", "^6.2.0", "upgraded")]
    assert [p.kind for p in hidden.problems] == ["partial"] and "scope unknown" in hidden.problems[0].msg
    assert _seen(_patch(repo, "app/pubspec.yaml", PUBSPEC, head, 12)) == [
        ("url_launcher", "^6.1.1", "^6.2.0", "upgraded")]


def test_pubspec_move_from_dev_to_runtime_is_never_a_bump(repo: GitRepo) -> None:
    base = "name: app\ndependencies:\n  dio: 5.9.2\ndev_dependencies:\n  lints: ^5.0.0\n"
    head = "name: app\ndependencies:\n  dio: 5.9.2\n  lints: ^6.0.0\ndev_dependencies:\n"
    delta = _patch(repo, "pubspec.yaml", base, head)
    assert _partial(delta) or _seen(delta) == _truth("pubspec.yaml", base, head)


MODULE = """module(
    name = "example",
    version = "0.0.1",
)

bazel_dep(name = "platforms", version = "0.0.11")
bazel_dep(name = "rules_jvm_external", version = "5.3")
bazel_dep(name = "rules_cc", version = "0.0.9")
bazel_dep(name = "rules_testing", version = "0.6.0", dev_dependency = True)
bazel_dep(
    name = "rules_android",
    version = "0.5.1",
)

maven = use_extension("@rules_jvm_external//:extensions.bzl", "maven")
maven.install(
    artifacts = [
        "androidx.compose.ui:ui:1.2.1",
        "androidx.compose.ui:ui-tooling:1.2.1",
        # the compiler pins the Kotlin version
        "androidx.compose.compiler:compiler:1.3.2",
    ],
)
single_version_override(module_name = "rules_cc", version = "0.0.9")
"""


@pytest.mark.parametrize("old, new", [
    ('name = "rules_cc", version = "0.0.9")\nbazel_dep', 'name = "rules_cc", version = "0.2.20")\nbazel_dep'),
    ("ui-tooling:1.2.1", "ui-tooling:1.11.3"),
    ('version = "0.6.0", dev', 'version = "0.7.0", dev'),
    # the version line of a multi-line call the hunk shows whole (round 35; it failed closed before)
    ('    version = "0.5.1",', '    version = "0.6.0",'),
])
def test_module_bazel_one_line_bumps(repo: GitRepo, old: str, new: str) -> None:
    head = MODULE.replace(old, new, 1)
    delta = _patch(repo, "MODULE.bazel", MODULE, head)
    assert not delta.problems and len(delta.changes) == 1
    assert _seen(delta) == _truth("MODULE.bazel", MODULE, head)


@pytest.mark.parametrize("old, new", [
    ('module_name = "rules_cc", version = "0.0.9"', 'module_name = "rules_cc", version = "0.0.8"'),  # an override
    ('maven = use_extension', 'maven = use_extension("@evil//:x.bzl", "maven")\nmaven2 = use_extension'),
    ('bazel_dep(name = "platforms", version = "0.0.11")', 'bazel_dep(name = "platforms", version = V)'),
])
def test_module_bazel_edits_that_fail_closed(repo: GitRepo, old: str, new: str) -> None:
    assert _partial(_patch(repo, "MODULE.bazel", MODULE, MODULE.replace(old, new, 1)))


DIGEST = "2f8d32fe06cb851c5ca5f9f13243df3d63a87eab6af99a799c5c1ebc6dd7fbfa"
KUSTOMIZATION = f"""apiVersion: kustomize.config.k8s.io/v1alpha1
kind: Component
images:
  - name: frontend
    newTag: v1.0.0
patches:
  - patch: |-
      - op: add
        path: /spec/template/spec/containers/-
        value:
          name: cloudsql-proxy
          image: gcr.io/cloudsql-docker/gce-proxy:1.33.1@sha256:{DIGEST}
          env:
          - name: CONNECTION_NAME
"""


def test_kustomization_image_line_and_what_fails_closed(repo: GitRepo) -> None:
    head = KUSTOMIZATION.replace("1.33.1@sha256:2f8d32fe", "1.33.2@sha256:b92be5e6")
    delta = _patch(repo, "k/kustomization.yaml", KUSTOMIZATION, head)
    assert not delta.problems and _seen(delta) == _truth("k/kustomization.yaml", KUSTOMIZATION, head)
    # an `images:` entry the hunk shows whole, under `images:` up to the next key (test_deps_eighth_classes.py)
    delta = _patch(repo, "k/kustomization.yaml", KUSTOMIZATION, KUSTOMIZATION.replace("v1.0.0", "v1.1.0"))
    assert not delta.problems and _seen(delta) == [("frontend", "v1.0.0", "v1.1.0", "upgraded")]
    renamed = KUSTOMIZATION.replace("- name: frontend", "- name: frontend\n    newName: ghcr.io/evil/frontend")
    assert _partial(_patch(repo, "k/kustomization.yaml", KUSTOMIZATION, renamed))


def test_rust_toolchain_channel(repo: GitRepo) -> None:
    base = '[toolchain]\nchannel = "1.94.0"\ncomponents = ["rustfmt", "clippy"]\n'
    delta = _patch(repo, "rust-toolchain.toml", base, base.replace("1.94.0", "1.95.0"))
    assert not delta.problems and _seen(delta) == [("rust", "1.94.0", "1.95.0", "upgraded")]
    assert _partial(_patch(repo, "rust-toolchain.toml", base, base.replace('"clippy"', '"clippy", "miri"')))
    assert _partial(_patch(repo, "rust-toolchain.toml", base, base.replace("1.94.0", "nightly")))


TOOLS = """{
  "version": 1,
  "isRoot": true,
  "tools": {
    "dotnet-ef": {
      "version": "8.0.1",
      "commands": [
        "dotnet-ef"
      ],
      "rollForward": false
    },
    "meziantou.framework.nugetpackagevalidation.tool": {
      "version": "2.0.1",
      "commands": [
        "meziantou.validate-nuget-package"
      ],
      "rollForward": false
    }
  }
}
"""


def test_dotnet_tools_bump_and_hidden_name(repo: GitRepo) -> None:
    head = TOOLS.replace('"2.0.1"', '"2.0.2"')
    delta = _patch(repo, ".config/dotnet-tools.json", TOOLS, head)
    assert not delta.problems and _seen(delta) == _truth(".config/dotnet-tools.json", TOOLS, head)
    assert _partial(_patch(repo, ".config/dotnet-tools.json", TOOLS, head, 0))
    swapped = TOOLS.replace('"dotnet-ef": {\n      "version": "8.0.1"', '"dotnet-evil": {\n      "version": "8.0.1"')
    assert _seen(_patch(repo, ".config/dotnet-tools.json", TOOLS, swapped)) == _truth(
        ".config/dotnet-tools.json", TOOLS, swapped)


def test_package_manager_line(repo: GitRepo) -> None:
    base = '{\n  "name": "kit",\n  "private": true,\n  "packageManager": "pnpm@10.29.2+sha512.abc",\n  "x": 1\n}\n'
    head = base.replace("10.29.2+sha512.abc", "10.29.3+sha512.def")
    delta = _patch(repo, "package.json", base, head)
    assert not delta.problems and _seen(delta) == _truth("package.json", base, head) == [
        ("pnpm", "10.29.2", "10.29.3", "upgraded")]
    for value in ("pnpm@latest", "https://127.0.0.1:9/pnpm.tgz", "@10.0.0"):
        assert _partial(_patch(repo, "package.json", base, base.replace("pnpm@10.29.2+sha512.abc", value)))


LOCK_V1 = """{
  "name": "website",
  "version": "0.0.0",
  "lockfileVersion": 1,
  "requires": true,
  "dependencies": {
    "@algolia/cache-common": {
      "version": "4.5.1",
      "resolved": "https://registry.npmjs.org/@algolia/cache-common/-/cache-common-4.5.1.tgz"
    },
    "a": {
      "version": "1.0.0",
      "requires": {
        "immer": "^8.0.0"
      },
      "dependencies": {
        "immer": {
          "version": "8.0.0",
          "resolved": "https://registry.npmjs.org/immer/-/immer-8.0.0.tgz"
        }
      }
    },
    "b": {
      "version": "2.0.0",
      "resolved": "https://registry.npmjs.org/b/-/b-2.0.0.tgz"
    },
    "immer": {
      "version": "7.0.0",
      "resolved": "https://registry.npmjs.org/immer/-/immer-7.0.0.tgz"
    }
  }
}
"""


@pytest.mark.parametrize("old, new", [
    ('"8.0.0",\n          "resolved": "https://registry.npmjs.org/immer/-/immer-8.0.0.tgz"',
     '"8.0.1",\n          "resolved": "https://registry.npmjs.org/immer/-/immer-8.0.1.tgz"'),  # a nested copy
    ('"b": {', '"evil": {'),  # an entry renamed, its version line unchanged context
    ('"4.5.1",', '"4.8.6",'),
])
def test_package_lock_v1_hunks(repo: GitRepo, old: str, new: str) -> None:
    head = LOCK_V1.replace(old, new)
    for context in (3, 1):
        delta = _patch(repo, "website/package-lock.json", LOCK_V1, head, context)
        assert not delta.problems and _seen(delta) == _truth("website/package-lock.json", LOCK_V1, head)
    if old != '"b": {':
        assert _partial(_patch(repo, "website/package-lock.json", LOCK_V1, head, 0))


def _pubspec_variant(rng: random.Random) -> str:
    lines = PUBSPEC.splitlines()
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(lines))
        choice = rng.random()
        if choice < 0.4 and ": " in lines[i]:
            key, _, value = lines[i].partition(": ")
            lines[i] = f"{key}: {rng.choice(['^1.0.0', '2.3.4', value, 'any', '>=1.0.0 <2.0.0', '9.9.9'])}"
        elif choice < 0.6:
            lines.insert(i, f"  pkg{rng.randrange(5)}: ^{rng.randrange(3)}.0.0")
        elif choice < 0.8 and len(lines) > 5:
            del lines[i]
        else:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines) + "\n"


def _pre_commit_variant(rng: random.Random) -> str:
    text = PRE_COMMIT
    for _ in range(rng.randint(1, 3)):
        choice = rng.random()
        if choice < 0.4:
            text = text.replace("rev: v5.0.0", f"rev: v5.{rng.randrange(3)}.0")
        elif choice < 0.6:
            text = text.replace(f"{OLD_SHA} # frozen: v0.15.21", f"{NEW_SHA} # frozen: v0.15.{rng.randrange(30)}")
        elif choice < 0.8:
            text = text.replace("pre-commit/pre-commit-hooks", rng.choice(["evil/pre-commit-hooks", "local"]))
        else:
            lines = text.splitlines()
            i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines) + "\n"
    return text


@pytest.mark.parametrize("path, base, make", [
    ("pubspec.yaml", PUBSPEC, _pubspec_variant),
    (".pre-commit-config.yaml", PRE_COMMIT, _pre_commit_variant),
])
def test_generated_edits_agree_with_the_whole_files(repo: GitRepo, path: str, base: str, make: object) -> None:
    rng = random.Random(14)
    read = 0
    assert callable(make)
    for _ in range(150):
        head = make(rng)
        fmt = format_for(path)
        assert fmt is not None
        try:
            truth = _truth(path, base, head)
        except Exception:  # noqa: BLE001 - a variant that is no valid file: the patch must not read it as a bump
            truth = None
        delta = _patch(repo, path, base, head, rng.choice((0, 1, 3, 12)))
        if delta.problems:
            continue
        assert truth is not None and _seen(delta) == truth, head
        read += bool(delta.changes)
    assert read >= 5  # the property is not vacuous: some variants were read from their hunks


@pytest.mark.parametrize("key", ["express/path-to-regexp", "**/ws", "a>b", "ws@8", "@scope/a/b"])
def test_a_resolution_path_or_selector_is_no_package(repo: GitRepo, key: str) -> None:
    # detekt's website/package.json: yarn `resolutions` keyed by a path. From a hunk without the section
    # header the line must not read as a dependency called `express/path-to-regexp`: an override's line.
    base = ('{\n  "name": "website",\n  "dependencies": {\n    "react": "^18.2.0"\n  },\n  "resolutions": {\n'
            f'    "braces": "^3.0.3",\n    "cross-spawn": "^7.0.5",\n    "estree": "^3.3.3",\n    "{key}": "1.9.0",\n'
            '    "follow-redirects": "^1.15.6"\n  }\n}\n')
    delta = _patch(repo, "website/package.json", base, base.replace('"1.9.0"', '"8.4.2"'))
    assert _partial(delta)


MODULE_TF = """module "ecs_cloudwatch_autoscaling" {
  enabled               = var.autoscaling_enabled
  source                = "cloudposse/ecs-cloudwatch-autoscaling/aws"
  version               = "0.7.5"
  namespace             = var.namespace
  tags                  = { team = "x" }
}
"""


def test_terraform_module_version_with_other_arguments_in_its_block(repo: GitRepo) -> None:
    # cloudposse: `enabled = var.x` and other one-line arguments around `source` no longer hide the module
    head = MODULE_TF.replace('"0.7.5"', '"0.7.6"')
    delta = _patch(repo, "main.tf", MODULE_TF, head)
    assert not delta.problems and _seen(delta) == _truth("main.tf", MODULE_TF, head) == [
        ("cloudposse/ecs-cloudwatch-autoscaling/aws", "0.7.5", "0.7.6", "upgraded")]
    # a heredoc's text between the block's `source` and its version: the walk stops there (fail closed)
    heredoc = MODULE_TF.replace('  version ', '  policy = <<EOT\nsource = "evil/mod/aws"\nEOT\n  version ')
    assert _partial(_patch(repo, "main.tf", heredoc, heredoc.replace('"0.7.5"', '"0.7.6"'), 8))


CHART_ALIASES = """apiVersion: v2
name: enterprise-metrics
version: 2.0.0
dependencies:
  - name: memcached
    alias: memcached
    version: 6.1.11
    repository: https://charts.bitnami.com/bitnami
    condition: memcached.enabled
  - name: memcached
    alias: memcached-queries
    version: 6.1.11
    repository: https://charts.bitnami.com/bitnami
    condition: memcached-queries.enabled
  - name: minio
    version: 4.0.12
    repository: https://helm.min.io/
"""


def test_one_edit_in_several_places_is_one_move(repo: GitRepo) -> None:
    # grafana/helm-charts e685ddcd4f38: one chart under two aliases, both moved the same way
    head = CHART_ALIASES.replace("6.1.11", "8.7.7")
    delta = _patch(repo, "charts/x/Chart.yaml", CHART_ALIASES, head)
    assert not delta.problems and _seen(delta) == _truth("charts/x/Chart.yaml", CHART_ALIASES, head) == [
        ("memcached", "6.1.11", "8.7.7", "upgraded")]
    # astral-sh/ruff 6728820252f3: one hook repository in two entries, both moved
    twice = PRE_COMMIT + "  - repo: https://github.com/astral-sh/ruff-pre-commit\n    rev: v0.15.6\n    hooks:\n" \
                         "      - id: ruff-format\n"
    once = twice.replace(f"{OLD_SHA} # frozen: v0.15.21", "v0.15.6")
    delta = _patch(repo, ".pre-commit-config.yaml", once, once.replace("v0.15.6", "v0.15.7"))
    assert not delta.problems and _seen(delta) == [("astral-sh/ruff-pre-commit", "v0.15.6", "v0.15.7", "upgraded")]


@pytest.mark.parametrize("head", [
    CHART_ALIASES.replace("    version: 6.1.11\n    repository: https://charts.bitnami.com/bitnami\n    condition: "
                          "memcached.enabled", "    version: 8.7.7\n    repository: https://charts.bitnami.com/bitnami\n"
                          "    condition: memcached.enabled"),  # one alias moved, the other kept: --tree's job
    CHART_ALIASES.replace("6.1.11\n    repository: https://charts.bitnami.com/bitnami\n    condition: memcached.",
                          "7.0.0\n    repository: https://charts.bitnami.com/bitnami\n    condition: memcached."
                          ).replace("6.1.11", "8.7.7"),  # two places, two different moves
])
def test_different_edits_of_one_name_in_two_places_fail_closed(repo: GitRepo, head: str) -> None:
    delta = _patch(repo, "charts/x/Chart.yaml", CHART_ALIASES, head)
    assert _partial(delta) or _seen(delta) == _truth("charts/x/Chart.yaml", CHART_ALIASES, head)


TRAEFIK = """apiVersion: v2
name: traefik
description: A Traefik based Kubernetes ingress controller
type: application
version: 40.3.0
# renovate: image=traefik
appVersion: v3.7.4
kubeVersion: '>=1.25.0-0'
icon: https://raw.githubusercontent.com/traefik/traefik/master/docs/content/assets/img/traefik.logo.png
annotations:
  traefik.io/proxy-min-version: v3.6.0
  traefik.io/proxy-max-version: v3.7.4
  artifacthub.io/changes: |
    - kind: changed
      description: Bump traefik to v3.7.4
dependencies:
  - name: common
    version: 2.0.0
    repository: https://charts.example.com
"""


def test_chart_annotations_are_metadata_not_dependencies(repo: GitRepo) -> None:
    # traefik/traefik-helm-chart 0e7102f20b4a: the annotated appVersion moved, and two annotation lines with it
    head = TRAEFIK.replace("v3.7.4", "v3.7.5")
    delta = _patch(repo, "traefik/Chart.yaml", TRAEFIK, head)
    assert not delta.problems and _seen(delta) == [("traefik", "v3.7.4", "v3.7.5", "upgraded")]
    # the `annotations:` header not in the hunk: its lines cannot be told from a dependency's (fail closed)
    assert _partial(_patch(repo, "traefik/Chart.yaml", TRAEFIK, TRAEFIK.replace(
        "Bump traefik to v3.7.4", "Bump traefik to v3.7.5"), 1))
    # a line that leaves the mapping (dedented to the top level) is the chart's structure, not an annotation
    assert _partial(_patch(repo, "traefik/Chart.yaml", TRAEFIK, TRAEFIK.replace(
        "  traefik.io/proxy-max-version: v3.7.4\n", "dependencies: []\n")))


DOCKERFILE = """# syntax=docker/dockerfile:1
ARG DOTNET_VERSION=7.0
ARG NODE_VERSION=20
ARG UNUSED=1

FROM node:${NODE_VERSION}-alpine AS web
WORKDIR /src
COPY . .
RUN npm ci && npm run build

FROM mcr.microsoft.com/dotnet/sdk:${DOTNET_VERSION} AS builder
WORKDIR /repo
COPY . .
RUN dotnet publish -c Release
"""


def test_dockerfile_arg_that_moves_a_base_image(repo: GitRepo) -> None:
    # jellyfin e4022ea7b228: `ARG DOTNET_VERSION=7.0` → 8.0, its FROM eight lines below. From the hunk alone
    # that read as no change and no problem; it is a partial problem now, unless the hunk shows the FROM.
    head = DOCKERFILE.replace("DOTNET_VERSION=7.0", "DOTNET_VERSION=8.0")
    assert _partial(_patch(repo, "Dockerfile", DOCKERFILE, head))
    delta = _patch(repo, "Dockerfile", DOCKERFILE, head, 10)
    assert not delta.problems and _seen(delta) == _truth("Dockerfile", DOCKERFILE, head) == [
        ("mcr.microsoft.com/dotnet/sdk", "7.0", "8.0", "upgraded")]
    # the FROM line itself moved: read from its hunk as before; the ARG its old side used is not in the hunk,
    # so that side is the reference as written (an unordered `changed`, which the policy reviews)
    direct = DOCKERFILE.replace("sdk:${DOTNET_VERSION}", "sdk:8.0")
    delta = _patch(repo, "Dockerfile", DOCKERFILE, direct)
    assert not delta.problems and _seen(delta) == [
        ("mcr.microsoft.com/dotnet/sdk", "${DOTNET_VERSION}", "8.0", "changed")]
    # an ARG no FROM of the hunk uses: fail closed too (the hunk cannot tell)
    assert _partial(_patch(repo, "Dockerfile", DOCKERFILE, DOCKERFILE.replace("UNUSED=1", "UNUSED=2")))


@each_case("path, body", [
    (".pre-commit-config.yaml", PRE_COMMIT), ("pubspec.yaml", PUBSPEC), ("MODULE.bazel", MODULE),
    ("kustomization.yaml", KUSTOMIZATION), ("rust-toolchain.toml", '[toolchain]\nchannel = "1.94.0"\n'),
    (".config/dotnet-tools.json", TOOLS), ("package.json", '{\n  "packageManager": "pnpm@10.0.0",\n  "a": 1\n}\n'),
    ("package-lock.json", LOCK_V1), ("Dockerfile", DOCKERFILE), ("Chart.yaml", TRAEFIK), ("main.tf", MODULE_TF),
])
def test_garbled_hunks_are_a_problem_never_a_crash(path: str, body: str) -> None:
    """Hunk lines cut, shuffled and sprinkled with YAML/JSON/HCL punctuation and control characters: the
    reader returns what it reads or raises ManifestError (a `partial` problem), nothing else."""
    fmt = format_for(path)
    assert fmt is not None
    rng = random.Random(1414)
    lines = body.splitlines()
    noise = ["", "-", "- ", "  - repo:", "rev:", "{", "}", '"', "'", "@", "${", "#", ":", "=", "\t", "\x00", "\u2028",
             "dependencies:", "annotations:", "ARG X=1", "FROM $X", "bazel_dep(", '"a:b:c",', "version = ", "    "]
    for _ in range(300):
        raw = ["@@ -1,5 +1,5 @@"]
        for _ in range(rng.randint(1, 12)):
            line = rng.choice(lines) if rng.random() < 0.7 else ""
            if rng.random() < 0.5:
                cut = rng.randrange(len(line) + 1)
                line = line[:cut] + rng.choice(noise) + line[cut:]
            raw.append(rng.choice(" -+") + line)
            if rng.random() < 0.1:
                raw.append("@@ -9,2 +9,2 @@")
        data = "\n".join(raw).encode()
        try:
            if fmt.edits is not None:
                fmt.edits(path, data)
            elif fmt.hunks is not None:
                old, new = hunks_sides(raw)
                fmt.hunks(path, old)
                fmt.hunks(path, new)
        except ManifestError:
            pass


REF_TF = """module "observability_instances" {
  source = "git::https://github.com/terraform-ibm-modules/terraform-ibm-observability-instances?ref=v2.4.0"
  providers = {
    logdna.at = logdna.at
  }
  region = var.region
}
"""


def test_terraform_module_source_ref_bump(repo: GitRepo) -> None:
    # terraform-ibm-modules 933b2db64b89: the version is the source's `?ref=`, as the whole file reads it
    head = REF_TF.replace("ref=v2.4.0", "ref=v2.5.0")
    delta = _patch(repo, "examples/main.tf", REF_TF, head)
    assert not delta.problems and _seen(delta) == _truth("examples/main.tf", REF_TF, head) == [
        ("git::https://github.com/terraform-ibm-modules/terraform-ibm-observability-instances", "v2.4.0", "v2.5.0",
         "upgraded")]


@pytest.mark.parametrize("base", [
    REF_TF.replace('module "observability_instances" {\n', 'locals {\n  x = <<EOT\n'),  # a heredoc's text
    REF_TF.replace('module "observability_instances" {\n', 'module "a" {\n  b = {\n'),  # a nested block's
    REF_TF.replace("git::https://github.com", "../local"),  # a local path names no module version
])
def test_terraform_source_ref_whose_module_the_hunk_does_not_show_fails_closed(repo: GitRepo, base: str) -> None:
    delta = _patch(repo, "main.tf", base, base.replace("ref=v2.4.0", "ref=v2.5.0"))
    assert [p.kind for p in delta.problems] == ["partial"] and not delta.changes


def test_terraform_source_swapped_with_its_ref_is_a_new_module(repo: GitRepo) -> None:
    head = REF_TF.replace("terraform-ibm-modules/terraform-ibm-observability", "evil/terraform-ibm-observability")
    delta = _patch(repo, "main.tf", REF_TF, head)
    assert not delta.problems and {c.change for c in delta.changes} == {"added", "removed"}


# Gradle version catalogs (square/moshi, cashapp/sqldelight: Renovate's `Update plugin spotless to v8.8.0`)

CATALOG = """[versions]
kotlin = "2.0.20"
okio = "3.16.3"

[libraries]
asm = "org.ow2.asm:asm:9.10"
okio = { module = "com.squareup.okio:okio", version.ref = "okio" }
ktfmt = { module = "com.facebook:ktfmt", version = "0.63" }
truth = { group = "com.google.truth", name = "truth", version = "1.4.4" }
junit = "junit:junit:4.13.2"

[plugins]
dokka = { id = "org.jetbrains.dokka", version = "2.1.0" }
kotlin-jvm = { id = "org.jetbrains.kotlin.jvm", version.ref = "kotlin" }
japicmp = "me.champeau.gradle.japicmp:0.4.6"
spotless = { id = "com.diffplug.spotless", version = "8.7.0" }
"""


@pytest.mark.parametrize(("old", "new", "context"), [
    ('version = "8.7.0"', 'version = "8.8.0"', 3),  # a plugin's inline table, far from its header
    ('"0.63"', '"0.64"', 0),  # a library's module table: no context needed
    ('"1.4.4"', '"1.5.0"', 0),  # group + name
    ("asm:9.10", "asm:9.10.1", 3),  # a string entry under the [libraries] header the hunk shows
    ("japicmp:0.4.6", "japicmp:0.4.7", 3),  # a plugin's string under [plugins]
    ("junit:junit:4.13.2", "junit:junit:4.13.3", 1),  # the `group` table above proves [libraries] (square/moshi)
    ("japicmp:0.4.6", "japicmp:0.4.7", 1),  # the `id` tables around it prove [plugins] (cashapp/sqldelight)
])
def test_catalog_entries_from_hunks_say_what_the_files_say(repo: GitRepo, old: str, new: str, context: int) -> None:
    head = CATALOG.replace(old, new)
    delta = _patch(repo, "gradle/libs.versions.toml", CATALOG, head, context)
    assert not delta.problems and _seen(delta) == _truth("gradle/libs.versions.toml", CATALOG, head)
    assert len(delta.changes) == 1 and delta.changes[0].alias


@pytest.mark.parametrize(("old", "new", "key"), [
    ('okio = "3.16.3"', 'okio = "3.17.0"', "okio"),  # a [versions] alias: its library is elsewhere
    ('kotlin = "2.0.20"', 'kotlin = "org.evil:x:1"', "kotlin"),  # a version that looks like a coordinate
])
def test_a_versions_key_whose_uses_the_hunk_does_not_show_is_named_by_itself(repo: GitRepo, old: str, new: str,
                                                                             key: str) -> None:
    # round 55: the key at its two values, as the patch shows it, beside the `partial` problem (it named nothing)
    delta = _patch(repo, "gradle/libs.versions.toml", CATALOG, CATALOG.replace(old, new), 3)
    assert [(c.name, c.version_ref) for c in delta.changes] == [(f"[versions].{key}", key)]
    assert {p.kind for p in delta.problems} == {"partial"}


@pytest.mark.parametrize(("old", "new", "context"), [
    ('okio = "3.16.3"', 'okio = "org.evil:x:1.0"', 1),  # [versions]: its neighbours prove no table
    ('version.ref = "okio"', 'version = "3.17.0"', 0),  # a moved reference (and a new literal)
    ('version = "2.1.0"', 'version = { strictly = "2.1.1" }', 0),  # a rich version
    ('spotless = { id = "com.diffplug.spotless", version = "8.7.0" }',
     'spotless = { id = "com.diffplug.spotless", version = "8.8.0", evil = "x" }', 0),  # a key Gradle refuses
])
def test_catalog_lines_the_hunk_cannot_place_fail_closed(repo: GitRepo, old: str, new: str, context: int) -> None:
    assert _partial(_patch(repo, "gradle/libs.versions.toml", CATALOG, CATALOG.replace(old, new), context))


def test_a_string_library_whose_table_nothing_shows_is_named_beside_a_problem(repo: GitRepo) -> None:
    # round 28: Gradle's string notation is a library's; only a [versions] key could hold it too, so the problem stays
    delta = _patch(repo, "gradle/libs.versions.toml", CATALOG,
                   CATALOG.replace('asm = "org.ow2.asm:asm:9.10"', 'asm = "org.ow2.asm:asm:9.11"'), 0)
    assert {(c.name, c.from_version, c.to_version) for c in delta.changes} == {("org.ow2.asm:asm", "9.10", "9.11")}
    assert {p.kind for p in delta.problems} == {"partial"}


def test_a_catalog_entry_inside_a_multiline_string_fails_closed(repo: GitRepo) -> None:
    # a [versions] value spanning lines can hold text that looks like a header and an entry
    base = CATALOG.replace('okio = "3.16.3"', 'okio = """\n[libraries]\nx = "a:b:1.0"\n"""')
    assert _partial(_patch(repo, "gradle/libs.versions.toml", base, base.replace("a:b:1.0", "a:b:1.1"), 1))


def test_catalog_line_variants_never_disagree_with_the_file(repo: GitRepo) -> None:
    """Attack property: a hunk of a catalog line rewritten at random is read as what the files say, or refused."""
    rng = random.Random(14)
    lines = CATALOG.splitlines()
    pieces = ['"', "{", "}", "=", ":", "version.ref", "[", "]", "#", "'''", " ", "1.0", "id", "module"]
    for n in range(60):
        index = rng.randrange(len(lines))
        line = lines[index]
        cut = rng.randrange(len(line) + 1)
        mutated = line[:cut] + rng.choice(pieces) + line[cut + rng.randrange(3):]
        head = "\n".join(lines[:index] + [mutated] + lines[index + 1:]) + "\n"
        try:
            truth = _truth("gradle/libs.versions.toml", CATALOG, head)
        except ManifestError:
            truth = None  # the head does not parse: the patch must not read a change either
        delta = _patch(GitRepo(repo.root.parent / f"v{n}"), "gradle/libs.versions.toml", CATALOG, head,
                       rng.choice((0, 1, 3)))
        if not delta.problems:
            assert truth is not None and _seen(delta) == truth, (mutated, _seen(delta), truth)


@pytest.mark.parametrize("hostile", [
    'x = ' + '{a = ' * 50_000 + '1' + '}' * 50_000,  # nesting tomllib would recurse into
    'x = ' + '[' * 50_000 + ']' * 50_000,
    'x = { id = "' + 'a' * 2_000_000 + '", version = "1" }',  # one huge line
    'x = "' + ':' * 1_000_000 + '"',
])
def test_hostile_catalog_lines_are_refused_quickly(repo: GitRepo, hostile: str) -> None:
    head = CATALOG.replace('okio = "3.16.3"', hostile)
    delta = within_cpu(5, lambda: _patch(repo, "gradle/libs.versions.toml", CATALOG, head, 0))
    assert delta.problems and {p.kind for p in delta.problems} <= {"partial", "unparsable"}
