"""A Nix development shell direnv enters on `cd` (issue 12, cfgarg2; docs/classification.md, "Files developer tools
run or obey").

An `.envrc` holding `use flake` or `use nix` (nix-direnv, direnv's own `use nix`) makes direnv evaluate the `flake.nix`,
`shell.nix` or `default.nix` beside it and run its devShell's `shellHook` in the developer's shell each time they
enter the folder. direnv asks again when `.envrc` changes (tagged `guardrail.autorun` by path), but not when the Nix
file does: nix-direnv only watches it and re-evaluates. So a Nix shell file whose side holds `shellHook` is tagged
`guardrail` when HEAD has such an `.envrc` in its folder (the bucket stays `deps`: a Nix manifest). Of the 147
`flake.nix`/`shell.nix` files of the mirrored repositories, 28 hold a `shellHook` and 7 of those sit beside such an
`.envrc`: tagging every `shellHook` would flag four times as many files a developer enters only by hand (`nix
develop`). From a patch alone the `.envrc` is out of sight: a shown `shellHook`, or a side not shown whole, is tagged.

Attack 30: `.envrc` is bash, so a `use flake`/`use nix` (or `use_flake`, `use_nix`) anywhere in it counts (`if has nix;
then use flake; fi`), and so do lorri (`eval "$(lorri direnv)"`) and `nix print-dev-env`/`nix develop`; the `.envrc`
of any folder above counts for the folder its words name (`use flake ./nix` enters `nix/flake.nix`, `use nix
nix/shell.nix` that file; a word built from a variable, every shell below). A shell direnv enters is tagged on any
edit, not only one showing `shellHook`: a hook has other spellings (`"${"shell"}Hook"`, a package's setup hook), and
evaluating the file can run code on its own. From a patch any `Hook` counts. *Limit:* a Nix file an entered shell
imports (`import ./nix/devshell.nix`) is not followed, and a patch's attribute name built from pieces
(`${"shellHo" + "ok"}`) is not seen.
"""

from __future__ import annotations

import posixpath
from dataclasses import replace

from gatekeeper.classify.contexttypes import Context
from gatekeeper.classify.markers import ancestors
from gatekeeper.lazy_pattern import lazy
from gatekeeper.model import ClassifiedFile

__all__ = ["is_shell", "judged"]

GUARDRAIL = "guardrail"
_SHELLS = ("flake.nix", "shell.nix", "default.nix")
# `use flake [REF]`, `use nix [FILE]` (or `use_flake`, `use_nix`, the functions behind them) anywhere on a line that is
# not a comment, with the word after it (`has nix && use flake`, inside `if ... then`: docs review 52 and attack 30);
# lorri and `nix print-dev-env`/`nix develop` enter the folder's shell.nix or flake
_USES = lazy(rb"""(?<![\w-])use[ \t_]+(flake|nix)\b((?:[ \t]+(?:-[^\s;&|)]*|[^\s;&|)#-][^\s;&|)]*))*)""")
_OTHERS = lazy(rb"(?<![\w-])lorri\b|\bnix[ \t]+(?:print-dev-env|develop)\b")
_ENVRC_READ = 64 * 1024


def is_shell(sides: list[str]) -> bool:
    return any(side.rpartition("/")[2] in _SHELLS for side in sides)


def judged(item: ClassifiedFile, context: Context) -> ClassifiedFile:
    """`item` tagged `guardrail` when an `.envrc` enters it (`--tree`) or a side may hold a hook (patch; the module)."""
    if context.kind == "patch":
        shown = context.content(item.change, every_type=True)
        tagged = any(b"Hook" in side.data for side in shown) or not shown or any(not side.complete for side in shown)
    else:
        tagged = any(_entered(side, context) for side in item.change.sides() if side.rpartition("/")[2] in _SHELLS)
    return replace(item, tags=tuple(sorted({*item.tags, GUARDRAIL}))) if tagged else item


def _entered(path: str, context: Context) -> bool:
    """An `.envrc` in the file's folder or one above enters it (see the module)."""
    for folder in ancestors(path):
        found = context.head_blob(f"{folder}/.envrc" if folder else ".envrc", _ENVRC_READ)
        if found is not None and any(_enters(folder, target, path) for target in _targets(found[1])):
            return True
    return False


def _targets(envrc: bytes) -> list[str | None]:
    """The paths an `.envrc`'s words name, relative to its folder ('' for the folder itself, None for any shell below
    it: a word built from a variable)."""
    envrc = b"\n".join(line for line in envrc.splitlines() if not line.lstrip().startswith(b"#"))
    out: list[str | None] = ["" for _ in _OTHERS.finditer(envrc)]
    for hit in _USES.finditer(envrc):
        words = [word for word in hit[2].decode("utf-8", "replace").split() if not word.startswith("-")]
        word = words[0] if words else ""
        if any(c in word for c in "$`*?[{"):
            out.append(None)
            continue
        word = word.removeprefix("path:").partition("#")[0].strip("'\"")
        if ":" in word:  # github:owner/repo, a flake of another place: nothing here
            continue
        out.append(posixpath.normpath(word) if word else "")
    return out


def _enters(folder: str, target: str | None, path: str) -> bool:
    """`path` is the shell `target` (relative to the `.envrc`'s `folder`) names: the flake or shell file of that
    folder, or that file."""
    if target is None:
        return folder == "" or path.startswith(f"{folder}/")
    named = posixpath.normpath(posixpath.join(folder, target)) if folder else posixpath.normpath(target or ".")
    named = "" if named == "." else named
    return path.rpartition("/")[0] == named or path == named
