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
"""

from __future__ import annotations

import re
from dataclasses import replace

from gatekeeper.classify.contexttypes import Context
from gatekeeper.model import ClassifiedFile

__all__ = ["is_shell", "judged"]

GUARDRAIL = "guardrail"
_SHELLS = ("flake.nix", "shell.nix", "default.nix")
# `use flake`, `use_flake` (the function behind it), after `has nix &&` or inside an `if ... then`: on any line that is
# not a comment (docs review 52: jenkinsci/kubernetes-operator's `has nix && use flake`, zhaofengli/attic's `use_flake`)
_USES = re.compile(rb"^(?![ \t]*#)[^\n]*?(?<![\w-])use[ \t_]+(?:flake|nix)\b", re.MULTILINE)
_ENVRC_READ = 64 * 1024


def is_shell(sides: list[str]) -> bool:
    return any(side.rpartition("/")[2] in _SHELLS for side in sides)


def judged(item: ClassifiedFile, context: Context) -> ClassifiedFile:
    """`item` tagged `guardrail` when a side holds a `shellHook` direnv runs (see the module)."""
    shown = context.content(item.change, every_type=True)
    hook = any(b"shellHook" in side.data for side in shown)
    if context.kind == "patch":
        tagged = hook or not shown or any(not side.complete for side in shown)
    else:
        tagged = hook and any(_entered(side, context) for side in item.change.sides()
                              if side.rpartition("/")[2] in _SHELLS)
    return replace(item, tags=tuple(sorted({*item.tags, GUARDRAIL}))) if tagged else item


def _entered(path: str, context: Context) -> bool:
    folder = path.rpartition("/")[0]
    found = context.head_blob(f"{folder}/.envrc" if folder else ".envrc", _ENVRC_READ)
    return found is not None and _USES.search(found[1]) is not None
