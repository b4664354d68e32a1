"""The Dev Container configuration a CI step brings up (red team 23, tests/test_redteam23_devcontainer_ci.py).

`uses: devcontainers/ci@v0.3` (and its Azure Pipelines task, `DevcontainersCi@0`) and the Dev Container CLI
(`devcontainer up`, `npx @devcontainers/cli exec ...`) build the container a job runs its commands in from
`.devcontainer/devcontainer.json` and run that file's lifecycle commands: `initializeCommand` on the runner itself,
`onCreateCommand`, `postCreateCommand` and the others inside, with the job's checkout and the secrets the step
passes; its image, Dockerfile and features are what the job runs on. The path rules call the folder an editor's
settings (`other`), so an edit that made CI run `curl ... | sh` was allowed. With the commits, every Dev Container
configuration of the tree (`.devcontainer/**`, `.devcontainer.json`, at any depth: `subFolder:` and
`--workspace-folder` choose among them) and the file a `configFile:` or `--config` names are what such a definition
runs (`ci.context.ci-run`), and the scripts their commands name in turn. From a patch alone (red team 24,
tests/test_redteam24_devcontainer_patch.py) whether a CI definition brings the container up is not shown: an edited
configuration file still in the editor's settings needs context.
"""

from __future__ import annotations

import posixpath
import re

from gatekeeper.classify.pipinstalls import ANY
from gatekeeper.lazy_pattern import lazy

__all__ = ["configurations", "unshown_use"]

_ACTION = lazy(r"""\buses[ \t]*:[ \t]*['"]?devcontainers/ci@|\btask[ \t]*:[ \t]*['"]?DevcontainersCi@""",
                     re.IGNORECASE)
# `devcontainer up`, `npx @devcontainers/cli@0.71 exec`, `devcontainer build`, `devcontainer set-up`
_CLI = lazy(r"\bdevcontainers?(?:/cli(?:@[^\s'\"]*)?)?[ \t]+(?:up|build|exec|run-user-commands|set-up)\b")
_CONFIG = lazy(r"""(?:\bconfigFile[ \t]*:|--config[ \t=])[ \t]*+['"]?([^\s'"#$]+)""")  # blanks read once
# GitHub's owner and repository names are of any case (`uses: DevContainers/ci@v0.3` runs the action: attack 21)
_NAMED = lazy("devcontainer", re.IGNORECASE)
_COMMENT = lazy(r"^[ \t]*#.*$", re.MULTILINE)
# Every Dev Container configuration of the tree, whichever folder a step brings up.
_EVERY = (".devcontainer.json", f".devcontainer/{ANY}", f"{ANY}/.devcontainer.json", f"{ANY}/.devcontainer/{ANY}")


def configurations(text: str) -> list[str]:
    """The patterns (from the repository's root; ANY a variable part) of the Dev Container configuration a CI
    definition's `text` brings up, or none when it runs no Dev Container."""
    if not _NAMED.search(text):
        return []  # most definitions, by one scan
    text = _COMMENT.sub("", text)  # a comment line (YAML's or a shell's in a script block) runs nothing
    if not (_ACTION.search(text) or _CLI.search(text)):
        return []
    named = (posixpath.normpath(match.group(1)) for match in _CONFIG.finditer(text))
    return [*_EVERY, *dict.fromkeys(name for name in named if name != "." and not name.startswith(("/", "..")))]


def unshown_use(rule: str, sides: list[str]) -> bool:
    """Patch only: a Dev Container configuration file (`.devcontainer/**`, `.devcontainer.json`, at any depth) the path
    rules left in the editor's settings, or a manifest there (`setup.py`, `requirements.txt`, `package.json`: a
    lifecycle command runs or installs it; attack 22): a CI definition the patch does not show may bring it up. Of
    the 3,149 commits touching one in 130 mirrored repositories, 1,649 are in the 5 whose CI brings it up."""
    return (rule == "other.editor" or rule.startswith("deps.")) and any(
        side.rpartition("/")[2] == ".devcontainer.json" or ".devcontainer" in side.split("/")[:-1] for side in sides)
