"""What a CI definition's named patterns and deploy targets are in a tree (moved out of ciwalk.py, cileft69): a
variable part expanded over the tree's paths, a deployed folder's files but its documentation, the scripts the
Dockerfiles a step builds run, and what a patch shows a definition names."""

from __future__ import annotations

import fnmatch
import re

from gatekeeper.classify import ciforms, ciruns, deployruns, dockerbuilds, dockerrefs, yamlcomments
from gatekeeper.classify.pipinstalls import ONE
from gatekeeper.classify.sniff import FULL_READ
from gatekeeper.classify.symlinks import opened
from gatekeeper.classify.taskunits import Tasks, joined
from gatekeeper.classify.treereads import PastBound, Read, Tree
from gatekeeper.gitobjects import TreeEntry

__all__ = ["built", "deployed", "expanded", "reached_in", "reaches", "shown_names"]

# Below a folder CI deploys: documentation and its pictures (a kustomize component's diagram), no deploy reads them
_DOC_TYPES = (".md", ".markdown", ".rst", ".adoc", ".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp")
_DOC_NAMES = ("readme", "license", "licence", "changelog", "notice", "authors", "contributing", "owners")


def built(tree: Tree, builds: list[tuple[str, str]], done: dict[tuple[str, str], list[str]],
           read_blob: Read) -> list[str]:
    """The files the Dockerfiles a step builds copy from their contexts and RUN (dockerrefs.run_scripts), and
    those a RUN with a variable part or a glob may run (every file of the folder with such a name)."""
    out: list[str] = []

    def text(entry: TreeEntry) -> str:  # what a symlink says, for symlinks.opened
        return read_blob(entry).decode("utf-8", "replace")

    for dockerfile, context in builds:
        if (entry := opened(tree, dockerfile, text)) is None:
            continue
        if (entry.oid, context) not in done:
            if len(done) >= dockerbuilds.MAX_BUILDS * 4:
                raise PastBound
            runs, wilds = dockerrefs.run_scripts(context, read_blob(entry)[:FULL_READ].decode("utf-8", "replace"))
            done[entry.oid, context] = sorted(runs) + [
                path for _, folder, names in sorted(wilds) for path in tree  # a set: one order whatever the seed
                if path.startswith(f"{folder}/" if folder else "") and re.fullmatch(names, path.rpartition("/")[2])]
        out += done[entry.oid, context]
    return out


def started(tree: Tree, builds: list[tuple[str, str]], read_blob: Read) -> list[str]:
    """The files the Dockerfiles of images a step builds and then runs copy from their contexts and run as ENTRYPOINT
    or CMD (dockerrefs.entry_scripts)."""
    out: list[str] = []
    for dockerfile, context in builds[:dockerbuilds.MAX_BUILDS]:
        if (entry := opened(tree, dockerfile, lambda e: read_blob(e).decode("utf-8", "replace"))) is not None:
            out += sorted(dockerrefs.entry_scripts(context, read_blob(entry)[:FULL_READ].decode("utf-8", "replace")))
    return out


def expanded(tree: Tree, paths: list[str]) -> list[str]:
    """`paths`, each with a variable part (ciruns.ANY) standing for every path of `tree` it allows."""
    out = []
    for path in paths:
        if ciruns.ANY not in path and ONE not in path:
            out.append(path)
            continue
        wild = _wild(path)
        out += [listed for listed in tree if wild.fullmatch(listed)]
    return out


def _wild(pattern: str) -> re.Pattern[str]:
    """`pattern` as a regular expression: ciruns.ANY any text, ONE any text but a `/`."""
    return re.compile(".*".join(re.escape(part).replace(ONE, "[^/]*") for part in pattern.split(ciruns.ANY)), re.DOTALL)


def _below(tree: Tree, target: str) -> list[str]:
    """The paths of `tree` a target names: the file itself, or a file below the folder it is but documentation (a
    chart's README: no deploy command reads it; a variable part, ciruns.ANY, matches any text but a `/`)."""
    if ciruns.ANY in target:
        wild = re.compile("[^/]*".join(map(re.escape, target.split(ciruns.ANY))) + "(/.*)?", re.DOTALL)
        return [listed for listed in tree if (hit := wild.fullmatch(listed)) and not (hit.group(1) and _doc(listed))]
    # a chart's helm-unittest suites right below it (`/test`, `/tests`: the helm-chart marker skips them too)
    suites = (f"{target}/test/", f"{target}/tests/") if f"{target}/Chart.yaml" in tree else ()
    return [listed for listed in tree if listed == target
            or listed.startswith(f"{target}/") and not _doc(listed) and not listed.startswith(suites or "\0")]


def deployed(target: str, definition: str, folders: list[str]) -> list[str]:
    """Where a deploy target of the definition at `definition` may be. `./GLOB` (deployruns.HERE: `helm upgrade web .`,
    `terraform apply`) is `FOLDER/./GLOB` for each folder its commands `cd` to or name as a working directory (attack
    23; `reached_in` keeps the folders that hold such a file), never the root (a chart there has its own marker), its
    own folder, nor a folder that is all variable (every path would match)."""
    if not target.startswith(deployruns.HERE):
        return ciruns.resolved(target, definition, folders)
    return [f"{path}/{target}" for folder in folders if folder != ciruns.ANY
            for path in ciruns.resolved(folder, definition, []) if path != definition.rpartition("/")[0]]


def reached_in(tree: Tree, target: str) -> list[str]:
    """The paths of `tree` a resolved deploy target names (`_below`); `FOLDER/./GLOB`: those below FOLDER when a file
    right in it matches GLOB, else none."""
    folder, here, glob = target.partition(f"/{deployruns.HERE}")
    if here and not any(fnmatch.fnmatchcase(listed[len(folder) + 1:], glob) for listed in tree
                        if listed.startswith(f"{folder}/") and "/" not in listed[len(folder) + 1:]):
        return []
    return _below(tree, folder)


def _doc(path: str) -> bool:
    name = path.rpartition("/")[2].lower()
    return name.endswith(_DOC_TYPES) or name.startswith(_DOC_NAMES)


def shown_names(path: str, text: str) -> tuple[list[str], list[str], dict[str, Tasks]]:
    """(the resolved patterns of the files the definition at `path` runs, those of the Compose files it names, {each
    resolved pattern of a task file: the tasks its runners run of it, None for the whole file}), from the text a patch
    shows of it (patchcontext.py): its words, and for an Earthfile its COPY-then-RUN scripts. A YAML file's comments
    name nothing (yamlcomments.py; --tree cuts them in walknames.named, before composeruns adds its own `#` lines)."""
    text = yamlcomments.uncommented(text) if ciruns.is_yaml(path) else text
    scripts, composed, folders, tasked = ciruns.named_tasks(path, text)
    own = path.rpartition("/")[0]
    runs = sorted(dockerrefs.run_scripts(own, text)[0]) if ciforms.is_earthfile(path) else []
    tasks: dict[str, Tasks | None] = {}
    for named in scripts[:ciruns.MAX_NAMED]:
        for p in ciruns.resolved(named, path, folders):  # a path named whole by any word is read whole
            tasks[p] = joined(tasks[p], tasked.get(named)) if p in tasks else tasked.get(named)
    return ([p for named in scripts[:ciruns.MAX_NAMED] for p in ciruns.resolved(named, path, folders)] + runs,
            [p for named in composed[:ciruns.MAX_NAMED] for p in ciruns.resolved(named, path, folders)],
            {p: tasks_of for p, tasks_of in tasks.items() if tasks_of is not None})


def reaches(pattern: str, path: str) -> bool:
    """`pattern` (a variable part: ciruns.ANY) names `path`."""
    if ciruns.ANY not in pattern and ONE not in pattern:
        return pattern == path
    return _wild(pattern).fullmatch(path) is not None
