"""The task runner a remote reusable workflow or action runs in the caller's checkout (misses 6).

`uses: asottile/workflows/.github/workflows/tox.yml@v1.8.1` (pre-commit-hooks and its author's other repositories)
and `uses: OpenAstronomy/github-actions-workflows/.github/workflows/tox.yml@v1` (the astropy family) check out the
calling repository and run `tox` in it, with the caller's `with: envs:`: the caller's tox.ini is what the job runs,
as a `run: tox` line makes it (taskrunners.tool_files). pre-commit-hooks' `tox.ini` was `other` (the eighty-first
set), so an edit of the commands its environments run was allowed. An action that runs the runner does the same
(`uses: fedora-python/tox-github-action@main`). The runner is named by a word of the workflow file's stem, or of the
action's repository name, split at `-`, `_` and `.`: `tox`, `nox` (a reusable workflow of another name, an action of
another tool, an owner's name — `tox-dev/action-pre-commit-uv` — name none). A local `uses: ./…` is read by the walk
itself (localactions.py).
"""

from __future__ import annotations

import re

from gatekeeper.classify import taskrunners
from gatekeeper.lazy_pattern import lazy

__all__ = ["MAX_USES", "runner_files"]

MAX_USES = 256  # `uses:` lines read of one definition; a real one has a few dozen at most
_RUNNERS = ("tox", "nox")
# `uses: OWNER/REPO/.github/workflows/FILE.yml@REF` or `uses: OWNER/REPO(/PATH)@REF`, quoted or not, as a step's
# or a job's key (`- uses:` too)
_USES = lazy(r"""^[ \t]*+(?:-[ \t]++)?+uses[ \t]*+:[ \t]*+['"]?+([\w.-]++)/([\w.-]++)((?:/[\w.-]++)*+)@""",
             re.MULTILINE)
_WORDS = lazy(r"[-_.]")


def runner_files(text: str) -> list[str]:
    """The files (taskrunners' default names, at the root) of each runner a remote `uses:` of `text` runs."""
    files: list[str] = []
    for count, hit in enumerate(_USES.finditer(text)):
        if count >= MAX_USES:
            break
        owner, repo, path = hit.groups()
        if owner in (".", ".."):
            continue
        name = path.rpartition("/")[2] if path.startswith("/.github/workflows/") else repo
        words = set(_WORDS.split(name.lower().removesuffix(".yml").removesuffix(".yaml")))
        for runner in _RUNNERS:
            if runner in words:
                files += [f for f in taskrunners.tool_files(runner, "") if f not in files]
    return files
