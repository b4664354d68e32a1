"""What the files that run or apply other files name, read from both trees of a TreeContext: the GitLab pipeline's
includes (gitlabincludes.py), the local actions workflows run (localactions.py), the paths kustomizations name
(kustomizerefs.py), the files requirements files include. Each blob once; each reading bounded, and past its bound
the answer is "everything" (fail closed), as is a file longer than the FULL_READ that is read of it.
"""

from __future__ import annotations

import bisect
import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path

from gatekeeper.classify import (
    chartfiles,
    composerefs,
    dockerrefs,
    gitlabincludes,
    kustomizerefs,
    localactions,
    pipinstalls,
)
from gatekeeper.classify.markers import KUSTOMIZATIONS
from gatekeeper.classify.sniff import FULL_READ
from gatekeeper.classify.spellings import spelled
from gatekeeper.classify.symlinks import folder_at, opened
from gatekeeper.classify.treepaths import where
from gatekeeper.deps.model import ManifestError
from gatekeeper.deps.pypi import included_files
from gatekeeper.deps.registry import format_for
from gatekeeper.gitcmd import run_git, scrubbed_git_env
from gatekeeper.gitobjects import TreeEntry

Tree = dict[str, TreeEntry]
Read = Callable[[TreeEntry], bytes]  # a blob's first FULL_READ + 1 bytes
_REGULAR = ("100644", "100755")
_LINK = "120000"
_FILES = (*_REGULAR, _LINK)  # what a checkout opens as a file (a link: where it points)
_NO_ENTRY = TreeEntry("040000", "")


class PastBound(Exception):
    """A walk read more files than its bound: the answer is "everything"."""


def _text(read_blob: Read) -> Callable[[TreeEntry], str]:
    """What a symlink says, for symlinks.opened."""
    return lambda entry: read_blob(entry).decode("utf-8", "replace")


def walked(tree: Tree, queue: list[tuple[str, str]], limit: int, read_blob: Read,
           again: Callable[[str], bool] | None = None) -> Iterator[tuple[str, str, TreeEntry]]:
    """Each file of `queue` ((path, the file that led to it), popped last first) once, with the entry of the regular
    file a checkout opens there (through symlinks: symlinks.opened; and under any spelling a checkout that folds
    names opens for it: `tools/setup/Action.yml` for `action.yml` on a Windows or macOS runner, red team 17), while
    the caller appends what it names to `queue`; raises PastBound at the file past `limit`. A file read already is read
    again when `again` says so (more of its tasks asked: ciwalk.py)."""
    seen: set[str] = set()
    missed: set[str] = set()
    text = _text(read_blob)
    while queue:
        path, origin = queue.pop()
        if path in seen and again is not None and again(path) and (entry := opened(tree, path, text)) is not None:
            yield path, origin, entry
        if path in seen or path in missed:
            continue
        entry = opened(tree, path, text)
        if entry is None:
            missed.add(path)
            queue += [(other, origin) for other in spelled(tree, path) if other not in missed]
            continue
        seen.add(path)
        if len(seen) > limit:
            raise PastBound
        yield path, origin, entry


_WORKFLOW_FOLDERS = (".github", ".github/workflows")


def linked_workflows(tree: Tree, read_blob: Read) -> list[str]:
    """The workflows a checkout shows in `.github/workflows/` through a linked folder on the way (`.github ->
    config/github`, `.github/workflows -> ../ci/wf`): GitHub runs them, and the tree lists them only at the link's
    target (red team 18: the local actions and installs such a workflow names were never read)."""
    if not any(tree.get(folder, _NO_ENTRY).mode == _LINK for folder in _WORKFLOW_FOLDERS):
        return []  # the common case: two lookups
    folder = folder_at(tree, localactions.WORKFLOWS.rstrip("/"), _text(read_blob))
    if folder is None:
        return []
    shown = [localactions.WORKFLOWS + path[len(folder) + 1:] for path in tree if path.startswith(f"{folder}/")]
    return [path for path in shown if localactions.is_workflow(path)]


def workflows(tree: Tree, read_blob: Read) -> list[str]:
    """Every workflow a checkout of `tree` shows: listed, or through a linked folder (linked_workflows)."""
    return [path for path in tree if localactions.is_workflow(path)] + linked_workflows(tree, read_blob)


def gitlab_includes(trees: tuple[Tree, ...], read_blob: Read, own: frozenset[str] = frozenset()) -> tuple[str, ...]:
    """The include patterns of `.gitlab-ci.yml` and the files it includes, followed, in every tree (`own`: this
    repository's project paths, gitlabincludes.included)."""
    found: list[str] = []
    read: dict[str, list[str]] = {}  # by blob id: a pipeline file the two trees share is read once
    try:
        for tree in trees:
            queue = [(gitlabincludes.ROOT, gitlabincludes.ROOT)]
            for _path, _origin, entry in walked(tree, queue, gitlabincludes.MAX_FILES, read_blob):
                if entry.oid not in read:
                    data = read_blob(entry)
                    if len(data) > FULL_READ:  # its includes may be past what is read
                        return gitlabincludes.EVERY_YAML
                    read[entry.oid] = gitlabincludes.included(data.decode("utf-8", "replace"), own)
                for pattern in read[entry.oid]:
                    found.append(pattern)
                    # a plain path is queued as written: it may be reached through a linked folder
                    queue += [(path, path) for path in gitlabincludes.expand(pattern, tree)] \
                        if gitlabincludes.is_glob(pattern) else [(pattern, pattern)]
    except PastBound:
        return gitlabincludes.EVERY_YAML
    return tuple(dict.fromkeys(found))


def own_projects(git_dir: str) -> frozenset[str]:
    """This repository's GitLab project paths: those its remotes' URLs name, and GitLab CI's `CI_PROJECT_PATH`."""
    listed = run_git(["--git-dir", git_dir, "config", "--get-regexp", r"^remote\..*\.url$"], cwd=Path(git_dir),
                     env=scrubbed_git_env(), what="cannot read the repository's remotes", where=git_dir, ok=(0, 1))
    urls = [line.partition(" ")[2] for line in listed.splitlines()]
    found = {path for url in urls if (path := gitlabincludes.project_path(url)) is not None}
    if project := os.environ.get("CI_PROJECT_PATH", "").strip("/").lower():
        found.add(project)
    return frozenset(found)


def local_actions(trees: tuple[Tree, ...], read_blob: Read) -> dict[str, str] | bool:
    """{folder of a local action: the workflow that runs it (maybe through other local actions)}; False past
    localactions.MAX_FILES files read in a tree."""
    found: dict[str, str] = {}
    read: dict[str, tuple[list[str], list[str]]] = {}  # by blob id: (the local actions it uses, its entry files)
    try:
        for tree in trees:
            queue = [(path, path) for path in workflows(tree, read_blob)]
            for path, origin, entry in walked(tree, queue, localactions.MAX_FILES, read_blob):
                if entry.oid not in read:
                    data = read_blob(entry)
                    if len(data) > FULL_READ:
                        return False  # what it runs may be past what is read
                    text = data.decode("utf-8", "replace")
                    read[entry.oid] = (localactions.local_uses(text), localactions.entry_files(text))
                uses, entries = read[entry.oid]
                if not localactions.is_workflow(path):  # an action's definition: the files it runs, wherever they are
                    for place in localactions.entry_points(entries, path.rpartition("/")[0]):
                        found.setdefault(place, origin)
                for folder in uses:
                    if folder:  # the root action's folder is not one (it holds everything): its definition is read
                        found.setdefault(folder, origin)  # for what it runs, and the local actions it uses (attack 31)
                    queue += [(f"{folder}/{name}".lstrip("/"), origin) for name in localactions.DEFINITIONS]
    except PastBound:
        return False
    return found


def kustomize_references(trees: tuple[Tree, ...], read_blob: Read,
                         is_data: Callable[[str], bool]) -> dict[str, str] | bool:
    """{path a kustomization names: that kustomization}; False past kustomizerefs.MAX_FILES kustomizations.
    `is_data(path)`: a kustomization that is a test's data, which nothing applies."""
    found: dict[str, str] = {}
    # What a kustomization names depends on its folder as much as on its text: the same blob in two folders (an
    # overlay copied to `dev/` and `prod/`) names two sets of files (red team 13: only the first was resolved).
    # A path the trees share with the same blob is resolved once; a blob is read once.
    resolved: set[tuple[str, str]] = set()
    texts: dict[str, str] = {}  # by blob id
    text = _text(read_blob)
    for tree in trees:
        for path in where(trees, tree, _is_kustomization):
            # a kustomization that is a link is read where it is: kustomize resolves what it names from there
            listed = tree[path]
            entry = listed if listed.mode in _REGULAR else opened(tree, path, text) if listed.mode == _LINK else None
            if entry is None or (path, entry.oid) in resolved or is_data(path):
                continue
            resolved.add((path, entry.oid))
            if len(resolved) > kustomizerefs.MAX_FILES:
                return False
            if entry.oid not in texts:
                data = read_blob(entry)
                if len(data) > FULL_READ:
                    return False  # what it names may be past what is read
                texts[entry.oid] = data.decode("utf-8", "replace")
            for named in kustomizerefs.referenced(path, texts[entry.oid]):
                found.setdefault(named, path)
    return found


MAX_REQUIREMENTS = 1_000  # requirements files read per tree
MAX_INSTALLERS = 4_000  # files read per tree for the installs they run (pipinstalls.is_installer)
_REQUIREMENT_ENDINGS = (".txt", ".in", ".lock")  # a cheap first test of every path


def requirements_includes(trees: tuple[Tree, ...], read_blob: Read) -> dict[str, str] | bool:
    """{path a requirements file of a tree includes by `-r`/`-c`, or a workflow's `pip install -r` installs
    (followed): that file}; False past MAX_REQUIREMENTS files read in a tree, or one longer than is read. pip installs
    (or is constrained by) every line of such a file whatever its name (red team 15: `-r tools/dev.txt` made no deps
    file of it; `pip install -r ci/deps.txt` in a workflow neither)."""
    found: dict[str, str] = {}
    index = pipinstalls.PathIndex([path for tree in trees for path in tree])
    texts: dict[str, list[str]] = {}  # by (blob id, path): the patterns an installer names
    try:
        for tree in trees:
            queue = [(path, path) for path in where(trees, tree, _requirements_name) if tree[path].mode in _FILES]
            for named, installer in _installs(trees, tree, index, read_blob, texts):
                found.setdefault(named, installer)
                queue.append((named, installer))
            for path, origin, entry in walked(tree, queue, MAX_REQUIREMENTS, read_blob):
                data = read_blob(entry)
                if len(data) > FULL_READ:
                    return False
                for named in _includes(path, data):
                    found.setdefault(named, origin)
                    queue.append((named, origin))
    except PastBound:
        return False
    return found


def _installs(trees: tuple[Tree, ...], tree: Tree, index: pipinstalls.PathIndex, read_blob: Read,
              read: dict[str, list[str]]) -> list[tuple[str, str]]:
    """(path, installer) for each file an installer of `tree` (a workflow, an action, a pipeline, an image build, a
    project's settings: pipinstalls.is_installer; a Dockerfile a Compose file builds, from its context) installs by
    `pip install -r`/`-c` or names as its requirements; raises PastBound past MAX_INSTALLERS installers, or at one
    longer than is read. A link is read where it points (a checkout opens it there). `read`: the paths each (blob,
    path, context) names, kept across the trees."""
    out: list[tuple[str, str]] = []
    text = _text(read_blob)
    installers = [(path, path.rpartition("/")[0] if dockerrefs.is_dockerfile(path) else None)
                  for path in where(trees, tree, pipinstalls.is_installer) if tree[path].mode in _FILES]
    installers += [(path, None) for path in linked_workflows(tree, read_blob)]
    installers += [(path, context) for path, (_compose, context) in compose_builds(tree, read_blob, trees).items()
                   if context is not None]
    if len(installers) > MAX_INSTALLERS:
        raise PastBound
    for path, context in installers:
        if (entry := opened(tree, path, text)) is None:
            continue
        key = f"{entry.oid} {path} {context}"
        if key not in read:
            data = read_blob(entry)
            if len(data) > FULL_READ:
                raise PastBound
            content = data.decode("utf-8", "replace")
            patterns = pipinstalls.installed_requirements(content) + pipinstalls.project_requirements(path, content)
            read[key] = index.matching(patterns, content) if patterns else []
            if patterns and context is not None:  # a Dockerfile: what a COPY put where the RUN reads it
                read[key] += sorted(dockerrefs.run_reads(context, content, pipinstalls.requirement_words))
        out += [(named, path) for named in read[key] if named != path]
    return out


def compose_builds(tree: Tree, read_blob: Read, trees: tuple[Tree, ...] = ()) -> dict[str, tuple[str, str | None]]:
    """{Dockerfile a Compose file of `tree` builds: (that file, the build's context folder)}, and {Compose file it
    takes in: (that file, None)} (composerefs.py); a path with a variable part stands for every path of `tree` its
    literal parts allow. Raises PastBound past composerefs.MAX_FILES Compose files, or at one longer than is read.
    `trees`: the context's trees, `tree` among them (each path's name tested once: treepaths.where)."""
    found: dict[str, tuple[str, str | None]] = {}
    text = _text(read_blob)
    files = [path for path in where(trees or (tree,), tree, composerefs.is_compose) if tree[path].mode in _FILES]
    if len(files) > composerefs.MAX_FILES:
        raise PastBound
    for path in files:
        if (entry := opened(tree, path, text)) is None:
            continue
        data = read_blob(entry)
        if len(data) > FULL_READ:
            raise PastBound
        for named, context in composerefs.builds(path, data.decode("utf-8", "replace")):
            wild = re.compile(".*".join(map(re.escape, named.split(composerefs.WILD))), re.DOTALL) \
                if composerefs.WILD in named else None
            for each in [listed for listed in tree if wild.fullmatch(listed)] if wild is not None else [named]:
                found.setdefault(each, (path, context))
    return found


def applied_references(trees: tuple[Tree, ...], read_blob: Read, is_data: Callable[[str], bool],
                       whole: Callable[[str, int], bytes] | None = None) -> dict[str, str] | bool:
    """kustomize_references, and the Dockerfiles and Compose files a Compose file of a tree builds or takes in
    (compose_builds), and the scripts such a Dockerfile runs from the build's context: what a tool applies or builds
    by the path a definition names; False past the bounds. A Compose file that is a test's data names nothing.
    `whole(oid, limit)`: a blob's first `limit` bytes, to read a chart template past FULL_READ (_chart_reads)."""
    found = kustomize_references(trees, read_blob, is_data)
    if found is False:
        return False
    assert isinstance(found, dict)
    text = _text(read_blob)
    try:
        for tree in trees:
            for named, (compose, context) in compose_builds(tree, read_blob, trees).items():
                if is_data(compose):  # a test's input (compose's own e2e tests): nothing builds it
                    continue
                found.setdefault(named, compose)
                if context is not None and (entry := opened(tree, named, text)) is not None:
                    # the scripts its RUNs run, copied from the build's context (not the Dockerfile's folder)
                    data = read_blob(entry)
                    if len(data) > FULL_READ:
                        return False
                    for script in sorted(dockerrefs.run_scripts(context, data.decode("utf-8", "replace"))[0]):
                        found.setdefault(script, f"{compose} (building {named})")
            read = _chart_reads(tree, read_blob, trees, whole)
            found.update({named: template for named, template in read.items() if named not in found})
    except PastBound:
        return False
    return found


def _chart_reads(tree: Tree, read_blob: Read, trees: tuple[Tree, ...],
                 whole: Callable[[str, int], bytes] | None = None) -> dict[str, str]:
    """{a chart's file its templates read with `.Files` (chartfiles.py): the template}. `.Files` reads inside its
    chart only, so past a bound the files of the charts concerned count as read, never the rest of the tree: a
    template over the bytes read of it claims its chart's and its parents'; past MAX_TEMPLATES, every chart's. A
    template over FULL_READ (a chart's vendored CRDs) is read whole through `whole` up to chartfiles.MAX_TEMPLATE_BYTES
    (classes58: such a template made its chart's `Chart.lock` iac though nothing reads it)."""
    found: dict[str, str] = {}
    charts = [path.removesuffix("Chart.yaml") for path in where(trees, tree, chartfiles.is_chart)]
    if not charts:
        return found
    paths, read, below = sorted(tree), 0, {}
    for chart in charts:
        start = bisect.bisect_left(paths, chart)
        end = bisect.bisect_left(paths, chart + "\U0010ffff") if chart else len(paths)
        below[chart] = [path for path in paths[start:end] if tree[path].mode in _FILES]
    for chart in charts:
        for template in (path for path in below[chart] if chartfiles.is_template(chart, path)):
            read += 1
            if read > chartfiles.MAX_TEMPLATES:  # what the rest read is not known
                for other in charts:
                    found.update({p: f"{chartfiles.EVIDENCE} any template (more than {chartfiles.MAX_TEMPLATES})"
                                  for p in below[other] if p not in found})
                return found
            data = read_blob(tree[template]) if tree[template].mode in _REGULAR else b""
            bound = FULL_READ if whole is None else chartfiles.MAX_TEMPLATE_BYTES
            data = whole(tree[template].oid, bound + 1) if len(data) > FULL_READ and whole else data  # git streams it
            for reader in (chart, *chartfiles.parents(chart, charts)):  # a library's helper reads its parent's too
                if len(data) > bound:  # what it reads may be past what is read
                    found.update({p: f"{chartfiles.EVIDENCE} {template} (over {bound} bytes)"
                                  for p in below[reader] if p not in found})
                    continue
                for named in chartfiles.read_by(reader, data.decode("utf-8", "replace"), below[reader]):
                    found.setdefault(named, f"{chartfiles.EVIDENCE} {template}")
    return found


def _includes(path: str, data: bytes) -> list[str]:
    """What a requirements file includes; one pip may not read (not UTF-8, an unknown codec declared: pip falls
    back to the locale's encoding or stops) is read as Latin-1, which keeps every ASCII `-r` line of any
    ASCII-compatible encoding (red team 16: its ManifestError stopped every `--tree` gate with an internal error)."""
    try:
        return included_files(path, data)
    except ManifestError:
        return included_files(path, data.decode("latin-1"))


def _requirements_name(path: str) -> bool:
    return path[-5:].lower().endswith(_REQUIREMENT_ENDINGS) and (fmt := format_for(path)) is not None \
        and fmt.name == "requirements"


def _is_kustomization(path: str) -> bool:
    return path.rpartition("/")[2] in KUSTOMIZATIONS
