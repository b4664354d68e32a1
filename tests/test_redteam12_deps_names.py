"""Red team 12 (second round): dependency files the path rules left in `src`, so `gate --enable deps` allowed an
added dependency without a review.

- Perl's build scripts declare the prerequisites CPAN installs (`Makefile.PL`'s `PREREQ_PM`, `Build.PL`'s
  `requires`, Dist::Zilla's `dist.ini` `[Prereqs]`), as `cpanfile` does (already `deps`);
- Apache Ivy's `ivy.xml` (`<dependency org=… rev=…>`), beside Ant's `build.xml` (already `deps`);
- Homebrew Bundle's `Brewfile` and its `Brewfile.lock.json` (`brew bundle` installs them on a runner or a laptop);
- pnpm's other manifest spellings, `package.json5` (`package.yaml` is Haskell's hpack manifest, already `deps`);
- aqua's tool pins (`aqua.yaml`, `.aqua.yaml`, `aqua/aqua.yaml`), as mise's and asdf's (`deps.toolchain.managers`).
"""

from __future__ import annotations

from pathlib import Path

from gitrepo import two_commits
from incli import tree_gate
from tables import each_case

from gatekeeper.classify import load_rules

RULES = load_rules(Path(__file__).resolve().parent.parent / "policies")
PATHS = ["Makefile.PL", "perl/Build.PL", "dist.ini", "ivy.xml", "modules/core/ivy.xml", "Brewfile",
         "Brewfile.lock.json", "tools/Brewfile", "package.json5", "web/package.json5", "aqua.yaml", ".aqua.yaml",
         "aqua/aqua.yaml", "aqua.yml"]
LEFT = ["src/Makefile.pl.orig", "docs/brewfile.md", "lib/ivy.py"]


@each_case("path", PATHS)
def test_a_dependency_file_is_deps(path: str) -> None:
    got = RULES.match(path)
    assert got.bucket == "deps", got


@each_case("path", LEFT)
def test_look_alikes_keep_their_class(path: str) -> None:
    assert RULES.match(path).bucket != "deps"


def test_the_deps_policy_reviews_a_brewfile_edit(tmp_path: Path) -> None:
    repo, old, new = two_commits(tmp_path / "repo", {"Brewfile": 'brew "jq"\n', "README.md": "x\n"},
                                 {"Brewfile": 'brew "jq"\ntap "evil/tap"\nbrew "evil/tap/helper"\n'})
    code, decision = tree_gate(repo.root, old, new, None, "--enable", "deps")
    assert code == 3, decision["reasons"]
