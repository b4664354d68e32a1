"""What a runner CI starts from an entry file reaches through that file (issue 12; ciwalk.py calls it per tree).

A CI step names one file to a runner, and the runner reads more from it. The step's own files are found by ciwalk.py;
what the runner pulls in from elsewhere is found here:

- `ansible-playbook PLAYBOOK`: what the playbook includes, runs or reads by a path or runs as a role
  (playbookreads.py, the reader the Zuul jobs share) is `ci` (`ci.context.ci-run`).
- `docker compose -f FILE` (any name, iac.context.compose-file): what the Compose file builds and takes in, read as a
  Compose file of a Compose name is (composerefs.builds: a service's `build` Dockerfile, `extends: file:`, `include:`,
  `env_file`, bind-mount sources, `configs`/`secrets` files) is `iac` (`iac.context.compose-build`); a file of
  Compose's name was read so already (treereads.compose_builds), one named only by a `-f` was not.
- `helmfile -f FILE` (or `helmfile apply` in a folder): its releases' local `chart:` folders, `values:`/`secrets:`
  files, `bases:`, environments' values and sub-helmfiles (`helmfiles:`, read in turn) are `iac`
  (`iac.context.deployed`); a hook's `command:` and `args:` that name a file of the repository run it: `ci`.

Each entry file and each file reached is read once a tree (FULL_READ bytes); past MAX_READ files read or one longer
than that, None: the walk fails closed. `terraform -chdir=DIR`: the modules DIR's files name by a relative `source`
and the files those read are found by tfrefs.py and siblingrefs.py (every `.tf` file is `iac` by its type).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable

from gatekeeper.classify import composerefs, playbookreads, tfrefs
from gatekeeper.classify.ansible import lines_from
from gatekeeper.classify.sniff import FULL_READ
from gatekeeper.gitobjects import TreeEntry
from gatekeeper.lazy_pattern import lazy

__all__ = ["MAX_READ", "RUNNERS", "reached"]

RUNNERS = ("ansible-playbook", "compose", "helmfile", "terraform")  # the order of `reached`'s lists of entry files

MAX_READ = playbookreads.MAX_INCLUDED  # Compose files and helmfiles read per tree
_FILES = ("100644", "100755")
_HELMFILE_KEY = lazy(r"^([ \t-]*)(values|secrets|bases|helmfiles|chart|path|command|args)[ \t]*:[ \t]*(.*)$",
                     re.MULTILINE)
_MODULE = lazy(r'^[ \t]*source[ \t]*=[ \t]*"(\.\.?/[^"$]+)"', re.MULTILINE)
_WORDS = lazy(r"""[^\s"'#{}\[\],]+""")
Tree = dict[str, TreeEntry]
Read = Callable[[TreeEntry], bytes]
Found = list[tuple[str, tuple[str, str]]]


def reached(tree: Tree, read_blob: Read, plays: list[tuple[str, str]], composed: list[tuple[str, str]],
            helmfiles: list[tuple[str, str]], terraform: list[tuple[str, str]]) -> Found | None:
    """[(path, (rule, evidence))] for what the playbooks, Compose files and helmfiles of `tree` CI runs ((path,
    origin) each) reach; None past the bounds."""
    out: Found = []
    starts = [(path, f"{origin} runs the playbook {path}") for path, origin in plays]
    if (played := playbookreads.reached(tree, read_blob, starts)) is None:
        return None
    out += [(path, ("ci.context.ci-run", evidence)) for path, evidence in played]
    texts = _texts(tree, read_blob, [path for path, _ in composed]) if len(composed) <= MAX_READ else None
    if texts is None:
        return None
    listed = sorted(tree) if composed else []
    for path, origin in composed:
        for named, _context in composerefs.builds(path, texts.get(path, ""), run=True):
            out += [(each, ("iac.context.compose-build", f"{origin} names {path} as a Compose file, which takes in "
                                                         f"{named}")) for each in _matching(tree, listed, named)]
    deployed = _helmfiles(tree, read_blob, helmfiles)
    modules = _terraform(tree, read_blob, terraform)
    return None if deployed is None or modules is None else out + deployed + modules


def _terraform(tree: Tree, read_blob: Read, folders: list[tuple[str, str]]) -> Found | None:
    """What the configurations of the folders `terraform -chdir` runs in, and of the modules they name by a relative
    `source` (in turn), read by a path (tfrefs.names_in): a test's data too, which the readers of a changed file's
    own folders leave alone (principle 1) unless CI runs it, as here."""
    queue = [(folder, f"{origin} runs terraform in {folder}") for folder, origin in folders]
    seen = {folder for folder, _ in queue}
    listed = sorted(tree) if queue else []
    out: Found = []
    while queue:
        folder, how = queue.pop()
        configs = [p for p in playbookreads.below(listed, folder) if "/" not in p[len(folder) + 1:]
                   and p.endswith((".tf", ".tf.json", ".tofu"))]
        if len(seen) + len(configs) > MAX_READ or (texts := _texts(tree, read_blob, configs)) is None:
            return None
        for path, text in texts.items():
            named = tfrefs.names_in(path, text)
            hits = [*(file for file in named.files if file in tree), *(each for below in named.folders if below
                                                                      for each in playbookreads.below(listed, below))]
            hits += [each for each in tree if any(wild.names(each) for wild in named.wildcards)] if named.wildcards \
                else []
            out += [(each, ("iac.context.deployed", f"{how}: {path} {named.reaches(each)}")) for each in hits
                    if each.rpartition("/")[0] != folder]
            for source in _MODULE.findall(text):
                if (module := playbookreads.normal(posixpath.join(folder, source))) and module not in seen:
                    seen.add(module)
                    queue.append((module, f"{how}, module {module}"))
    return out


def _helmfiles(tree: Tree, read_blob: Read, helmfiles: list[tuple[str, str]]) -> Found | None:
    """What the helmfiles (and the sub-helmfiles they name, in turn) deploy or run, by a path that is in `tree`."""
    queue = [(path, f"{origin} runs helmfile {path}") for path, origin in helmfiles if path in tree]
    seen = {path for path, _ in queue}
    listed = sorted(tree) if queue else []
    out: Found = []
    while queue:
        path, how = queue.pop()
        if len(seen) > MAX_READ:
            return None
        texts = _texts(tree, read_blob, [path])
        if texts is None:
            return None
        folder = path.rpartition("/")[0]
        for key, word in _helmfile_words(texts.get(path, "")):
            target = playbookreads.normal(posixpath.join(folder, word))
            if target is None:
                continue
            below = [target] if target in tree else playbookreads.below(listed, target)
            rule = "ci.context.ci-run" if key in ("command", "args") else "iac.context.deployed"
            out += [(each, (rule, f"{how}, which {'runs' if rule[:2] == 'ci' else 'deploys'} {target}"))
                    for each in below]
            if key in ("helmfiles", "path", "bases") and target in tree and target not in seen:
                seen.add(target)
                queue.append((target, how))
    return out


def _helmfile_words(text: str) -> list[tuple[str, str]]:
    """(key, word) for the path-like words of a helmfile's keys: the value (a flow list's items too), or the list
    items below an empty one (a mapping item's `path:` is read by its own line)."""
    out: list[tuple[str, str]] = []
    for match in _HELMFILE_KEY.finditer(text):
        key, value = match.group(2), match.group(3).partition(" #")[0].strip()
        if value:
            out += [(key, word) for word in _WORDS.findall(value)]
            continue
        indent = len(match.group(1))
        for line in lines_from(text, match.end() + 1):
            if line.strip() and len(line) - len(line.lstrip()) < indent or not line.lstrip().startswith(("-", "#")) \
                    and line.strip():
                break
            item = line.strip().removeprefix("-").strip()
            if item and ":" not in item:
                out += [(key, word) for word in _WORDS.findall(item)]
    return [(key, word) for key, word in out if "{{" not in word and not word.startswith("$")]


def _texts(tree: Tree, read_blob: Read, paths: list[str]) -> dict[str, str] | None:
    """{path: its text} of the regular files of `paths` in `tree`; None at one longer than FULL_READ."""
    out: dict[str, str] = {}
    for path in dict.fromkeys(paths):
        if path in tree and tree[path].mode in _FILES:
            data = read_blob(tree[path])
            if len(data) > FULL_READ:
                return None
            out[path] = data.decode("utf-8", "replace")
    return out


def _matching(tree: Tree, listed: list[str], named: str) -> list[str]:
    """The paths of `tree` a composerefs path stands for (WILD: a variable part; a folder: the files below it)."""
    if composerefs.WILD in named:
        wild = re.compile(".*".join(map(re.escape, named.split(composerefs.WILD))), re.DOTALL)
        return [listed for listed in tree if wild.fullmatch(listed)]
    return [named] if named in tree else playbookreads.below(listed, named) if named else []
