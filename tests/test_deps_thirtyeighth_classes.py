"""Classes of misses the thirty-eighth blind set of update commits found (bench/deps_bumps_thirtyeighth.tsv).

- A Terraform provider whose `required_providers` key is not its source's type (angelnu/k8s-gitops's
  `proxmox-bpg = { source = "bpg/proxmox" }`, 5 commits): Renovate names the update by the key ("update terraform
  proxmox-bpg to 0.111.1"), the delta by the source. The key is the change's `alias` now, with `--tree` and from a
  patch whose hunk shows the key's opening (infra.provider_alias); the name stays the source, which is what is
  installed.
- Deno's import maps were read by nothing (Fedify's "Update LogTape to v0.8.1" moves `src/deno.json`'s
  `"@logtape/logtape": "jsr:@logtape/logtape@^0.8.1"`): `deno.json`, `deno.jsonc` and `import_map.json` are read
  now (gatekeeper/deps/deno.py): `jsr:` packages (ecosystem `jsr`), `npm:` packages, deno.land modules and other URLs,
  with `--tree` and from a patch's import map lines; the rest of the file but `tasks` is its residue.
- helmfile's releases were read by nothing (ishioni/homelab-ops's Renovate "Update image prometheus-operator-crds to
  v19.0.0" moves a release's `version` beside its `chart: oci://…`, 2 commits): `helmfile.yaml` is read now
  (gatekeeper/deps/helmfile.py), the chart named by its last segment with its source as the entry's options; from a
  patch a `version:` line whose release item the hunk shows.
- A workflow's `deno install … https://deno.land/x/pagic@v1.4.0/mod.ts` (Cliffy's "update pagic to v1.4.0"): Deno's
  `install`, `run` and `x` of a module at an exact version are run lines the delta reads now (runlines.py), as
  `npx NAME@V` was.

Real-shaped files written for these tests (the layouts of those repositories), look-alikes and malformed input.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.deps.deno import deno_json_line, parse_deno_json, specifier
from gatekeeper.deps.helmfile import helmfile_line, parse_helmfile
from gatekeeper.deps.infra import parse_terraform, provider_alias
from gatekeeper.deps.model import ManifestError
from gatekeeper.deps.registry import format_for
from gatekeeper.deps.runlines import installs
from tests.deltas import accuracy_bench, bench_change, moves, partial
from tests.deltas import patch as _patch
from tests.deltas import tree as _tree
from tests.gitrepo import edited_commits

PROVIDERS = """\
terraform {
  required_version = ">= 1.5"
  required_providers {
    talos = {
      source  = "siderolabs/talos"
      version = "0.9.0"
    }

    proxmox-bpg = {
      source = "bpg/proxmox"
      version = "0.111.0"
    }
    aws = {
      source  = "hashicorp/aws"
      version = "6.2.0"
    }
    Unifi = {
      source  = "paultyng/unifi"
      version = "0.41.0"
    }
  }
}

provider "proxmox-bpg" {
  endpoint = var.endpoint
}
"""


def _bumped(root: Path, old: str, new: str) -> tuple[object, ...]:
    repo, base, head = edited_commits(root, {"infrastructure/provider.tf": PROVIDERS},
                                      {"infrastructure/provider.tf": {old: new}})
    return _tree(repo, base, head), _patch(repo, base, head)


def test_a_provider_is_named_by_its_source_and_called_by_its_key(tmp_path: Path) -> None:
    # angelnu/k8s-gitops 538eb2e: "update terraform proxmox-bpg to 0.111.1"
    tree, patch = _bumped(tmp_path, 'version = "0.111.0"', 'version = "0.111.1"')
    for delta in (tree, patch):
        assert moves(delta) == {("terraform", "bpg/proxmox", "0.111.0", "0.111.1")}, delta
        assert [c.alias for c in delta.changes] == ["proxmox-bpg"], delta.changes
        assert not delta.problems, delta.problems
    bench = accuracy_bench()
    assert bench._same_name("proxmox-bpg", tree.changes[0])
    assert bench._same_name("bpg/proxmox", tree.changes[0])
    assert bench._same_name("proxmox", tree.changes[0])  # the source's type, as `google` for hashicorp/google
    assert not bench._same_name("bpg", tree.changes[0])  # the namespace alone names no provider


def test_a_key_that_is_the_type_adds_no_alias(tmp_path: Path) -> None:
    tree, patch = _bumped(tmp_path, '"6.2.0"', '"6.3.0"')
    for delta in (tree, patch):
        assert moves(delta) == {("terraform", "hashicorp/aws", "6.2.0", "6.3.0")}, delta
        assert [c.alias for c in delta.changes] == [None], delta.changes
    tree, _ = _bumped(tmp_path / "case", '"0.41.0"', '"0.41.1"')
    assert [c.alias for c in tree.changes] == [None]  # `Unifi` is its type but for case


def test_every_entry_keeps_its_own_key() -> None:
    deps = parse_terraform("provider.tf", PROVIDERS.encode())
    # the providers only: the block's `required_version` is the tool hashicorp/terraform (round 41), no provider
    assert [(d.name, d.version, d.alias) for d in deps if d.ecosystem == "terraform"] == [
        ("siderolabs/talos", "0.9.0", ""), ("bpg/proxmox", "0.111.0", "proxmox-bpg"),
        ("hashicorp/aws", "6.2.0", ""), ("paultyng/unifi", "0.41.0", "")]
    # no source: the key is the type under hashicorp/, so there is nothing else to call it
    legacy = parse_terraform("p.tf", b'terraform {\n  required_providers {\n    google = {\n'
                                     b'      version = "5.0.0"\n    }\n  }\n}\n')
    assert [(d.name, d.alias) for d in legacy] == [("hashicorp/google", "")]


@each_case(("local", "source", "alias"), [
    ("proxmox-bpg", "bpg/proxmox", "proxmox-bpg"),
    ("google-beta", "hashicorp/google-beta", ""),
    ("aws", "registry.terraform.io/hashicorp/aws", ""),
    ("k8s", "hashicorp/kubernetes", "k8s"),
    ("AWS", "hashicorp/aws", ""),
])
def test_the_alias_is_the_key_only_where_it_differs(local: str, source: str, alias: str) -> None:
    assert provider_alias(local, source) == alias


def test_a_hunk_without_the_key_names_the_source_alone(tmp_path: Path) -> None:
    # the block's opening above the hunk: the version is still the source's (the walk's `top` case), with no key
    body = PROVIDERS.replace('    proxmox-bpg = {\n      source = "bpg/proxmox"\n',
                             '    proxmox-bpg = {\n' + "      # pinned by the home lab\n" * 4
                             + '      source = "bpg/proxmox"\n')
    repo, base, head = edited_commits(tmp_path, {"provider.tf": body},
                                      {"provider.tf": {'version = "0.111.0"': 'version = "0.111.1"'}})
    patch = _patch(repo, base, head)
    assert moves(patch) == {("terraform", "bpg/proxmox", "0.111.0", "0.111.1")}, patch
    assert [c.alias for c in patch.changes] == [None]
    assert [c.alias for c in _tree(repo, base, head).changes] == ["proxmox-bpg"]


def test_a_change_called_by_another_key_is_not_this_provider() -> None:
    bench = accuracy_bench()
    change = bench_change("terraform", "bpg/proxmox", alias="proxmox-bpg")
    assert not bench._same_name("proxmox-telmate", change)


DENO = """\
{
  // the library's own configuration
  "name": "@fedify/fedify",
  "version": "1.4.0",
  "imports": {
    "@logtape/logtape": "jsr:@logtape/logtape@^0.8.0",
    "@std/assert": "jsr:@std/assert@^0.226.0",
    "@cliffy/command": "https://deno.land/x/cliffy@v1.0.0-rc.3/command/mod.ts",
    "amqplib": "npm:amqplib@^0.10.4",
    "@types/node/": "npm:@types/node@^22/",
    "~/": "./src/",
  },
  "scopes": {"./examples/": {"hono": "npm:hono@4.6.0"}},
  "tasks": {"test": "deno test --allow-net", "check": "deno check mod.ts"},
  "compilerOptions": {"strict": true}
}
"""


def _deno(root: Path, edit: dict[str, str], name: str = "src/deno.json") -> tuple[object, ...]:
    repo, base, head = edited_commits(root, {name: DENO}, {name: edit})
    return _tree(repo, base, head), _patch(repo, base, head)


def test_deno_files_are_dependency_files() -> None:
    for name in ("deno.json", "src/deno.jsonc", "cli/import_map.json"):
        assert format_for(name) is not None, name
    assert format_for("deno.lock") is None  # its lock is not read (yet): the collector counts it unread


def test_a_jsr_import_bump_is_named_both_ways(tmp_path: Path) -> None:
    # fedify a99c0a6 "Update LogTape to v0.8.1"
    tree, patch = _deno(tmp_path, {"@logtape/logtape@^0.8.0": "@logtape/logtape@^0.8.1"})
    for delta in (tree, patch):
        assert moves(delta) == {("jsr", "@logtape/logtape", "^0.8.0", "^0.8.1")}, delta
        assert not delta.problems, delta.problems
    assert accuracy_bench()._same_version("0.8.1", tree.changes[0].to_version)


def test_npm_and_deno_land_imports(tmp_path: Path) -> None:
    tree, patch = _deno(tmp_path, {"amqplib@^0.10.4": "amqplib@^0.10.5", "cliffy@v1.0.0-rc.3": "cliffy@v1.0.0-rc.4",
                                   "@types/node@^22/": "@types/node@^24/"}, "deno.jsonc")
    want = {("npm", "amqplib", "^0.10.4", "^0.10.5"), ("npm", "@types/node", "^22", "^24"),
            ("deno", "deno.land/x/cliffy", "v1.0.0-rc.3", "v1.0.0-rc.4")}
    for delta in (tree, patch):
        assert moves(delta) == want, delta
        assert not delta.problems, delta.problems


def test_every_map_is_read_and_local_paths_are_not_packages() -> None:
    deps = parse_deno_json("deno.json", DENO.encode())
    assert [(d.ecosystem, d.name, d.version) for d in deps] == [
        ("jsr", "@logtape/logtape", "^0.8.0"), ("jsr", "@std/assert", "^0.226.0"),
        ("deno", "deno.land/x/cliffy", "v1.0.0-rc.3"), ("npm", "amqplib", "^0.10.4"), ("npm", "@types/node", "^22"),
        ("npm", "hono", "4.6.0")]


@each_case(("value", "want"), [
    ("jsr:@std/path", ("jsr", "@std/path", "")),
    ("npm:chalk@5.3.0/ansi", ("npm", "chalk", "5.3.0")),
    ("npm:/tailwindcss@3.4.1/", ("npm", "tailwindcss", "3.4.1")),  # denoland/saaskit's spelling
    ("https://deno.land/std@0.200.0/assert/mod.ts", ("deno", "deno.land/std", "0.200.0")),
    ("https://esm.sh/preact@10.19.2", ("npm", "preact", "10.19.2")),  # an npm CDN names the package (round 49)
    ("./mod.ts", None), ("/abs/mod.ts", None), ("file:///x/mod.ts", None),
])
def test_specifiers(value: str, want: tuple[str, str, str] | None) -> None:
    assert specifier(value) == want


@each_case("value", ["git:github.com/a/b", "jsr:@std/path@$(id)", "npm:a@1.0.0;x", "node:fs", "jsr:"])
def test_other_specifiers_are_refused(value: str) -> None:
    with pytest.raises(ManifestError):
        specifier(value)


@each_case("body", ['{"imports": ["jsr:@a/b@1"]}', '{"imports": {"a": 1}}', '{"scopes": {"./": []}}',
                                  '{"imports": {"a": "ssh://x"}}', "[1]", "{"])
def test_an_unreadable_map_is_a_problem(tmp_path: Path, body: str) -> None:
    with pytest.raises(ManifestError):
        parse_deno_json("deno.json", body.encode())
    repo, base, head = edited_commits(tmp_path, {"deno.json": DENO}, {"deno.json": {DENO: body}})
    assert _tree(repo, base, head).problems


def test_other_edits_beside_a_bump(tmp_path: Path) -> None:
    # a compiler option or the lock setting is residue: reviewed; a task is code run on purpose, as npm's scripts
    tree, patch = _deno(tmp_path, {"^0.8.0": "^0.8.1", '"strict": true': '"strict": false'})
    assert partial(tree, "src/deno.json") and partial(patch, "src/deno.json"), (tree.problems, patch.problems)
    tree, patch = _deno(tmp_path / "t", {"^0.8.0": "^0.8.1", "--allow-net": "--allow-all"})
    assert not tree.problems, tree.problems
    assert partial(patch, "src/deno.json")  # from the patch a task line is no import map line: refused


@each_case(("line", "want"), [
    ('    "@std/assert": "jsr:@std/assert@^1.0.0",', [("@std/assert", "^1.0.0", "jsr")]),
    ('"x": "npm:@scope/x@2.0.0"', [("@scope/x", "2.0.0", "npm")]),
    ('  "c/": "https://deno.land/x/cliffy@v1.0.0/"', [("deno.land/x/cliffy", "v1.0.0", "deno")]),
    ("", []),
])
def test_import_map_lines(line: str, want: list[tuple[str, ...]]) -> None:
    assert deno_json_line([(line, True)], 0) == want


@each_case("line", ['  "test": "deno test -A jsr:@std/x@1",', '  "lock": false,', "  },",
                                  '  "x": "https://example.com/mod.ts",', '  "a\\"b": "jsr:@a/b@1",'])
def test_other_lines_are_refused(line: str) -> None:
    with pytest.raises(ManifestError):
        deno_json_line([(line, True)], 0)


HELMFILE = """\
---
# yaml-language-server: $schema=https://json.schemastore.org/helmfile
helmDefaults:
  wait: true

repositories:
  - name: cilium
    url: https://helm.cilium.io

releases:
  - name: prometheus-operator-crds
    namespace: monitoring
    chart: oci://ghcr.io/prometheus-community/charts/prometheus-operator-crds
    version: 18.0.1

  - name: cilium
    namespace: kube-system
    chart: cilium/cilium
    version: 1.17.2
    values: ['{{ requiredEnv "KUBERNETES_DIR" }}/apps/cilium/values.yaml']
    needs: ["monitoring/prometheus-operator-crds"]

  - name: spegel
    chart: ./charts/spegel
    hooks:
      - events: ["postsync"]
        command: kubectl
        args: ["rollout", "status", "ds/spegel"]
"""


def _helmfile(root: Path, edit: dict[str, str], body: str = HELMFILE) -> tuple[object, ...]:
    repo, base, head = edited_commits(root, {"kubernetes/bootstrap/apps/helmfile.yaml": body},
                                      {"kubernetes/bootstrap/apps/helmfile.yaml": edit})
    return _tree(repo, base, head), _patch(repo, base, head)


def test_a_release_bump_is_named_both_ways(tmp_path: Path) -> None:
    # ishioni/homelab-ops 7c4aef6 "Update image prometheus-operator-crds to v19.0.0"
    tree, patch = _helmfile(tmp_path, {"version: 18.0.1": "version: 19.0.0"})
    for delta in (tree, patch):
        assert moves(delta) == {("helm", "prometheus-operator-crds", "18.0.1", "19.0.0")}, delta
        assert not delta.problems, delta.problems
    tree, patch = _helmfile(tmp_path / "c", {"version: 1.17.2": "version: 1.17.3"})
    for delta in (tree, patch):
        assert moves(delta) == {("helm", "cilium", "1.17.2", "1.17.3")}, delta
        assert not delta.problems, delta.problems


def test_every_document_and_release_is_read() -> None:
    body = ("bases:\n  - env.yaml\n---\n" + HELMFILE
            + "---\nreleases:\n  - chart: bitnami/redis\n    version: '19.1.0'\n")
    deps = parse_helmfile("helmfile.yaml", body.encode())
    assert [(d.name, d.version, d.options) for d in deps] == [
        ("prometheus-operator-crds", "18.0.1", "from oci://ghcr.io/prometheus-community/charts"),
        ("cilium", "1.17.2", "from cilium"), ("redis", "19.1.0", "from bitnami")]


def test_a_chart_moved_to_another_source_is_not_a_bump(tmp_path: Path) -> None:
    tree, patch = _helmfile(tmp_path, {"chart: cilium/cilium\n    version: 1.17.2":
                                       "chart: evil/cilium\n    version: 1.17.3"})
    # another repository's chart of the same name: its source is the entry's options, so no upgrade of `cilium`
    assert [(c.name, c.change) for c in tree.changes] == [("cilium", "changed")], tree
    assert partial(tree, "kubernetes/bootstrap/apps/helmfile.yaml"), tree.problems  # and the residue moved
    assert partial(patch, "kubernetes/bootstrap/apps/helmfile.yaml"), patch.problems  # a chart line: refused


def test_other_edits_beside_a_bump_are_reviewed(tmp_path: Path) -> None:
    tree, patch = _helmfile(tmp_path, {"version: 1.17.2": "version: 1.17.3", "command: kubectl": "command: sh"})
    path = "kubernetes/bootstrap/apps/helmfile.yaml"
    assert partial(tree, path) and partial(patch, path), (tree.problems, patch.problems)


def test_a_version_whose_release_the_hunk_does_not_show_is_partial(tmp_path: Path) -> None:
    body = HELMFILE.replace("    namespace: kube-system\n", "    namespace: kube-system\n" + "    wait: true\n" * 5)
    tree, patch = _helmfile(tmp_path, {"version: 1.17.2": "version: 1.17.3"}, body)
    assert moves(tree) == {("helm", "cilium", "1.17.2", "1.17.3")}, tree
    assert partial(patch, "kubernetes/bootstrap/apps/helmfile.yaml"), patch.problems


@each_case(("lines", "index", "want"), [
    (["  - name: a", "    chart: oci://r.io/c/a", "    version: 1.0.1"], 2,
     [("a", "1.0.1", "helm", "", "", "from oci://r.io/c")]),
    (["  - name: a", "    version: '2.0.0'", "    chart: repo/a"], 1, [("a", "2.0.0", "helm", "", "", "from repo")]),
    (["  - chart: repo/b", "    values:", "      - x.yaml", "    version: 3.1.0"], 3,
     [("b", "3.1.0", "helm", "", "", "from repo")]),
])
def test_release_version_lines(lines: list[str], index: int, want: list[tuple[str, ...]]) -> None:
    assert helmfile_line([(line, i == index) for i, line in enumerate(lines)], index) == want


@each_case(("lines", "index"), [
    (["    namespace: x", "    version: 1.0.1"], 1),  # the item opens above the hunk
    (["  - name: a", "    chart: ./charts/a", "    version: 1.0.1"], 2),  # a local chart
    (["  - name: a", "    chart: .", "    version: 1.0.1"], 2),  # helmfile's own example: the folder's chart
    (["  - name: a", "    chart: repo/a", "    version: {{ .Values.v }}"], 2),
    (["  - name: a", "    chart: repo/a"], 1),
    (["  - name: a", "    url: https://x", "    version: 1.0.0"], 2),  # no chart: a repository's?
    (["helmDefaults:", "  version: 1.0.0"], 1),
])
def test_other_helmfile_lines_are_refused(lines: list[str], index: int) -> None:
    with pytest.raises(ManifestError):
        helmfile_line([(line, i == index) for i, line in enumerate(lines)], index)


@each_case("body", ["releases: {a: 1}\n", "releases:\n  - chart: nothing\n    version: 1\n",
                                  "releases:\n  - {{ if .Values.x }}\n", "---\na: 1\n" * 40, "- 1\n"])
def test_an_unreadable_helmfile_is_a_problem(body: str) -> None:
    with pytest.raises(ManifestError):
        parse_helmfile("helmfile.yaml", body.encode())


WORKFLOW = """\
name: release
on: {push: {tags: ["v*"]}}
jobs:
  docs:
    runs-on: ubuntu-latest
    steps:
      - uses: denoland/setup-deno@v1
      - name: Setup pagic
        run: >
          deno install -f --unstable --allow-read --allow-run --name pagic https://deno.land/x/pagic@v1.2.0/mod.ts &&
          pagic build
"""


def test_a_module_a_workflow_installs_with_deno(tmp_path: Path) -> None:
    # c4spar/deno-cliffy 5fc11b8 "chore(ci): update pagic to v1.4.0"
    repo, base, head = edited_commits(tmp_path, {".github/workflows/release.yml": WORKFLOW},
                                      {".github/workflows/release.yml": {"pagic@v1.2.0": "pagic@v1.4.0"}})
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert moves(delta) == {("deno", "deno.land/x/pagic", "v1.2.0", "v1.4.0")}, delta
        assert not delta.problems, delta.problems
        assert accuracy_bench()._same_name("pagic", delta.changes[0])


@each_case(("line", "want"), [
    ("deno run -A jsr:@std/http@1.0.0/file-server", [("jsr", "@std/http", "1.0.0")]),
    ("- run: deno x npm:cowsay@1.6.0 hello", [("npm", "cowsay", "1.6.0")]),
    ("cd site && deno install -gAf 'https://deno.land/std@0.224.0/http/file_server.ts'",
     [("deno", "deno.land/std", "0.224.0")]),
    ("deno run -A jsr:@std/http@^1.0.0", []),  # a range: the version is chosen elsewhere
    ("deno run -A https://esm.sh/x@1.0.0", []),  # a URL of another host: no package this reader names
    ("deno run main.ts", []), ("deno install", []), ("echo deno install https://deno.land/x/a@v1.0.0/m.ts", []),
    ("deno run jsr:@a/b@1.0.0$(id)", []), ("deno run npm:", []),
])
def test_deno_run_lines(line: str, want: list[tuple[str, str, str]]) -> None:
    assert [(d.ecosystem, d.name, d.version) for d in installs("w.yml", line)] == want
