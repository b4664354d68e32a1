"""The folders of the local actions a GitHub workflow runs (`uses: ./tools/setup`): GitHub runs the action
defined there — its `main: dist/index.js`, the scripts its composite steps call, its Dockerfile — with the job's
token and secrets, so every file in and below that folder is CI wherever the folder sits (`.github/actions/` is
the convention, not a rule GitHub enforces) — but its dependency manifests and lock files, which stay deps as a
package's do (`action_package`).

Read as YAML (yamlnodes.documents: every form a workflow may take): every `uses:` value at any depth that starts
with `./` names a folder relative to the checkout's root (a local action), or a file (a local reusable workflow,
already CI by path). The action.yml of each local action is read in turn, since a composite action may use another
local action. `docker://` images and `owner/repo@ref` actions are not this repository's files.
"""

from __future__ import annotations

import posixpath

from gatekeeper.classify import checkoutpaths
from gatekeeper.classify.markers import extension
from gatekeeper.classify.yamlnodes import documents, values_under
from gatekeeper.model import ClassifiedFile

WORKFLOWS = ".github/workflows/"
DEFINITIONS = ("action.yml", "action.yaml")
MAX_FILES = 1000  # workflows and action definitions read per tree; past it every changed file counts (fail closed)
CODE_LOCKS = frozenset({"js", "cjs", "mjs"})  # a lock file that is code: Yarn's Plug'n'Play loader (.pnp.cjs)


def is_workflow(path: str) -> bool:
    return path.startswith(WORKFLOWS) and path.endswith((".yml", ".yaml"))


def local_uses(text: str) -> list[str]:
    """The repository folders (or files) the `uses: ./...` values of a workflow or action definition name."""
    found: list[str] = []
    for value in values_under(text, "uses"):
        # `.\tools\setup` is a local action too (GitHub's parser takes `./` and `.\`; a Windows runner opens it)
        if not isinstance(value, str) or not value.strip().replace("\\", "/").startswith("./"):
            continue
        for written in dict.fromkeys((value.strip(), value.strip().partition("@")[0])):  # `@` kept or a ref
            path = posixpath.normpath(written.replace("\\", "/")).rstrip("/")
            if path == ".":
                found.append("")  # the repository's root action (`uses: ./`): see entry_points
            elif path != ".." and not path.startswith("../"):
                found.append(path)
            elif (back := checkoutpaths.reentered(path)) is not None:
                found.append(back)  # `./../app/tools/setup`: back in through the checkout's folder (attack 53)
    return found


def entry_files(text: str) -> list[str]:
    """The files an action.yml runs, as written (`runs: main:`, `pre:`, `post:`, a Docker action's `image:` when it
    is a Dockerfile of the repository): see entry_points."""
    found: list[str] = []
    for root in documents(text):
        for runs in root.get("runs", ()) if isinstance(root, dict) else ():
            if not isinstance(runs, dict):
                continue
            for key in ("main", "pre", "post", "image"):
                for value in runs.get(key, ()):
                    if isinstance(value, str) and value.strip() and "://" not in value:
                        found.append(value.strip())
    return found


def entry_points(written: list[str], folder: str) -> list[str]:
    """The folders (or, at the root, files) the entry files of the action in `folder` ('' for the root) stand for.

    GitHub's runner joins them to the action's folder without keeping them inside it (`main: ../../dist/setup.js`
    runs `dist/setup.js`), so the folder of each stands for the action; at the root (`uses: ./`, whose folder is
    the whole repository) the entry file's folder (`dist/`) does. A path that leaves the repository may come back
    into it through the checkout's own folder (`../../app/dist/x.js`) or name it from the runner's root
    (`/home/runner/work/app/app/dist/x.js`: joined as it is): read as those files (attack 53)."""
    found: list[str] = []
    for value in written:
        path = posixpath.normpath(posixpath.join(folder, value.replace("\\", "/")))  # a Windows runner's `\\` too
        for inside in _inside(path):
            found.append(inside.rpartition("/")[0] or inside)
    return found


def _inside(path: str) -> list[str]:
    """The repository paths a normalised path joined to the root may name."""
    if path in (".", ".."):
        return []
    if path.startswith("/"):
        return checkoutpaths.tails(path)
    if path.startswith("../"):
        back = checkoutpaths.reentered(path)
        return [back] if back is not None else []
    return [path]


def action_package(item: ClassifiedFile) -> bool:
    """A local action is a package (principle 0): its dependency manifests and lock files stay deps, as in
    `.github/actions/`, where the deps policy reviews what it installs. Only what a deps rule tagged a manifest or
    lock file; a rename into such a name is not one (the old side may be the action's code), nor is a lock file that
    is code (Yarn's `.pnp.cjs` loader runs in the action), vendored code, test data or anything else in the action's
    folder: those are ci."""
    change = item.change
    return (item.bucket == "deps" and item.tier == "path" and change.old_path in (None, change.path)
            and bool({"manifest", "lockfile"} & set(item.tags))
            and extension(change.path.rpartition("/")[2]) not in CODE_LOCKS)


README_RULE = "docs.readme"


def action_readme(item: ClassifiedFile) -> bool:
    """A README document in a local action's folder (principle 0: README documents are src wherever they sit, as in
    `.github/actions/`; no runner loads one; the sixty-fifth set's `jira-linter/README.md`). Only what the path rules
    call a README document (`README.md`, `README`, `README.rst`, ...: not `README.yml` or `readme.sh`), and not a
    rename or copy, whose other side may be the action's code."""
    change = item.change
    return item.rule == README_RULE and item.tier == "path" and change.old_path in (None, change.path)

