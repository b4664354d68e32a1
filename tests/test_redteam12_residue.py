"""Red team 12, the deps policy: what six more deps files hold besides the entries the delta reads rode on a bump.

A deps file counts as explained when one change of the delta names it (red team 10), so every other edit of the same
file queued normally (allow under `--enable deps`) where the file's reader skipped it and no residue was compared:

- go.mod (whole file and hunks): a `tool`, `godebug` (`x509sha1=1`, `tlsrsakex=1`: the TLS and X.509 behaviour of
  the built program), `exclude`, `retract`, `ignore` directive or block, or the `module` path, beside a require bump.
- pubspec.yaml (`--tree`): `workspace:` (more packages in the resolution), `hooks:`, `publish_to:`, `executables:`.
- pnpm-workspace.yaml (`--tree`): pnpm 10 reads its settings there: which dependencies may run their install scripts
  (`onlyBuiltDependencies`, `dangerouslyAllowAllBuilds`, `allowBuilds`), `pnpmfile` (code pnpm runs), `registry`,
  `configDependencies`, the `packages:` globs (more workspace packages), beside a `catalog:` bump.
- rust-toolchain.toml (`--tree`): `path = "/opt/evil"` (a toolchain folder whose `rustc` runs), `profile`, `targets`,
  beside a channel bump.
- Chart.lock (`--tree`): another dependency's `repository:` swapped under its unchanged version, beside a bump.
- .tool-versions (whole and hunks): a tool moved to asdf's `ref:BRANCH` (built from a git ref) or `path:DIR` was read
  as the tool's removal; a fallback version added after the first was not read at all.

The class fix: each of these formats has a residue (deps/residue.py) compared between the sides, and a `.tool-versions`
value that names a source is read as written (a move to it is `changed`, reviewed). Each attack is generated per
directive or key, gated from the patch and with `--tree` in one repository; Renovate-shaped bumps of each still queue.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_deps_gate import Case, Cases, gate, gate_together, together

from gatekeeper.deps import toolfiles

GO_MOD = ("module example.com/app\n\ngo 1.22\n\nrequire (\n\tgithub.com/a/b v1.2.3\n"
          "\tgithub.com/c/d v1.0.0 // indirect\n)\n")
GO_BUMP = ("github.com/a/b v1.2.3", "github.com/a/b v1.2.4")
GO_DIRECTIVES = [
    "tool github.com/c/d/cmd/gen",
    "tool (\n\tgithub.com/c/d/cmd/gen\n)",
    "godebug x509sha1=1",
    "godebug (\n\ttlsrsakex=1\n\tx509negativeserial=1\n)",
    "exclude github.com/c/d v1.0.1",
    "exclude (\n\tgithub.com/c/d v1.0.1\n)",
    "retract v0.9.0",
    "ignore ./vendor-evil",
]
PUBSPEC = "name: app\nenvironment:\n  sdk: '>=3.0.0 <4.0.0'\ndependencies:\n  http: ^1.1.0\n  path: ^1.8.0\n"
PUB_KEYS = ["workspace:\n  - packages/evil\n", "hooks:\n  user_defines:\n    sqlite:\n      source: ../evil\n",
            "publish_to: https://evil.example\n", "executables:\n  evil: main\n", "resolution: workspace\n"]
PNPM_WS = "packages:\n  - 'packages/*'\ncatalog:\n  react: ^18.2.0\n  lodash: ^4.17.20\n"
PNPM_SETTINGS = ["onlyBuiltDependencies:\n  - evil\n", "dangerouslyAllowAllBuilds: true\n",
                 "allowBuilds:\n  evil: true\n",
                 "neverBuiltDependencies: []\n", "ignoredBuiltDependencies:\n  - esbuild\n", "strictDepBuilds: false\n",
                 "pnpmfile: .evil.cjs\n", "registry: https://evil.example/\n", "configDependencies:\n  evil: 1.0.0\n",
                 "minimumReleaseAge: 0\n", "gitChecks: false\n", "nodeLinker: hoisted\n"]
RUST = '[toolchain]\nchannel = "1.75.0"\ncomponents = ["rustfmt"]\n'
RUST_KEYS = ['path = "/opt/evil"\n', 'profile = "complete"\n', 'targets = ["wasm32-unknown-unknown"]\n']
CHART_LOCK = ("dependencies:\n- name: redis\n  repository: https://charts.bitnami.com/bitnami\n  version: 18.1.0\n"
              "- name: postgresql\n  repository: https://charts.bitnami.com/bitnami\n  version: 12.0.0\n"
              "digest: sha256:aaaa\ngenerated: \"2024-01-01T00:00:00Z\"\n")
CHART_REPOS = ["https://evil.example/charts", "oci://evil.example/charts", "file://../evil"]
TOOL_VERSIONS = "nodejs 20.10.0\npython 3.12.1\n"
TOOL_VALUES = ["ref:evil-branch", "path:/opt/evil", "3.12.1 ref:evil", "3.12.1 path:/opt/evil", "ref:v3.12.1"]


def _attacks() -> Cases:
    out: Cases = {}
    for directive in GO_DIRECTIVES:
        out[f"go.mod: {directive.splitlines()[0]}"] = (
            {"go.mod": GO_MOD}, {"go.mod": GO_MOD.replace(*GO_BUMP) + f"\n{directive}\n"})
    out["go.mod: the module path"] = ({"go.mod": GO_MOD}, {"go.mod": GO_MOD.replace(*GO_BUMP).replace(
        "example.com/app", "example.com/evil")})
    bumped = PUBSPEC.replace("^1.1.0", "^1.1.2")
    for key in PUB_KEYS:
        out[f"pubspec.yaml: {key.split(':')[0]}"] = ({"pubspec.yaml": PUBSPEC}, {"pubspec.yaml": bumped + key})
    ws = PNPM_WS.replace("^4.17.20", "^4.17.21")
    for setting in PNPM_SETTINGS:
        out[f"pnpm-workspace.yaml: {setting.split(':')[0]}"] = (
            {"pnpm-workspace.yaml": PNPM_WS}, {"pnpm-workspace.yaml": ws + setting})
    out["pnpm-workspace.yaml: a packages glob"] = ({"pnpm-workspace.yaml": PNPM_WS}, {
        "pnpm-workspace.yaml": ws.replace("'packages/*'", "'packages/*'\n  - 'vendor/**'")})
    for key in RUST_KEYS:
        out[f"rust-toolchain.toml: {key.split(' ')[0]}"] = (
            {"rust-toolchain.toml": RUST}, {"rust-toolchain.toml": RUST.replace("1.75.0", "1.75.1") + key})
    for repo in CHART_REPOS:
        swapped = CHART_LOCK.replace("18.1.0", "18.1.1").replace(
            "https://charts.bitnami.com/bitnami\n  version: 12", f"{repo}\n  version: 12")
        out[f"Chart.lock: postgresql from {repo}"] = ({"charts/web/Chart.lock": CHART_LOCK},
                                                      {"charts/web/Chart.lock": swapped})
    for value in TOOL_VALUES:
        out[f".tool-versions: python {value}"] = ({".tool-versions": TOOL_VERSIONS}, {
            ".tool-versions": TOOL_VERSIONS.replace("20.10.0", "20.10.1").replace("3.12.1", value)})
    return out


ATTACKS = _attacks()


def test_the_attacks_are_generated() -> None:
    assert len(ATTACKS) == 38


@pytest.mark.parametrize("tree", [False, True], ids=["patch", "tree"])
def test_what_rides_on_a_bump_in_these_files_needs_a_human(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                           tree: bool) -> None:
    gate_together(capsys, tmp_path, ATTACKS, tree)


QUIET: Cases = {
    "go.mod: a require bump": ({"go.mod": GO_MOD}, {"go.mod": GO_MOD.replace(*GO_BUMP)}),
    "go.mod: a bump, the go line, tidy's second require block and a comment": (
        {"go.mod": GO_MOD}, {"go.mod": GO_MOD.replace(*GO_BUMP).replace("go 1.22\n", "// the app\ngo 1.22.5\n")
                             .replace("\tgithub.com/c/d v1.0.0 // indirect\n)\n",
                                      ")\n\nrequire (\n\tgithub.com/c/d v1.0.1 // indirect\n)\n")}),
    "pubspec.yaml: a bump": ({"pubspec.yaml": PUBSPEC}, {"pubspec.yaml": PUBSPEC.replace("^1.1.0", "^1.1.2")}),
    "pnpm-workspace.yaml: a catalog bump": ({"pnpm-workspace.yaml": PNPM_WS},
                                            {"pnpm-workspace.yaml": PNPM_WS.replace("^4.17.20", "^4.17.21")}),
    "rust-toolchain.toml: a channel bump": ({"rust-toolchain.toml": RUST},
                                            {"rust-toolchain.toml": RUST.replace("1.75.0", "1.75.1")}),
    "Chart.lock: a bump with its digest and date": (
        {"charts/web/Chart.lock": CHART_LOCK},
        {"charts/web/Chart.lock": CHART_LOCK.replace("18.1.0", "18.1.1").replace("aaaa", "bbbb")
         .replace("2024-01-01", "2024-02-02")}),
    ".tool-versions: a bump": ({".tool-versions": TOOL_VERSIONS},
                               {".tool-versions": TOOL_VERSIONS.replace("20.10.0", "20.10.1")}),
}


@pytest.mark.parametrize("tree", [False, True], ids=["patch", "tree"])
def test_ordinary_bumps_of_these_files_still_queue(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                   tree: bool) -> None:
    cases = QUIET if tree else {k: v for k, v in QUIET.items() if k.startswith(("go.mod", ".tool-versions"))}
    base, head, _ = together(cases)
    decision = gate(capsys, Case(tmp_path, base, head), tree)
    assert decision["outcome"] == "allow", decision["reasons"]


def test_a_tool_versions_source_is_read_as_written() -> None:
    found = toolfiles.parse_tool_versions(".tool-versions", b"python ref:evil\nruby path:/opt/ruby\nnodejs system\n")
    assert [(d.name, d.version) for d in found] == [("python", "ref:evil"), ("ruby", "path:/opt/ruby"),
                                                    ("node", "system")]  # attack 23: `system` as written too
