"""The playbooks and roles a Zuul job runs (issue 12, classes52; label round 49 found them `iac`, not `ci`).

Zuul reads a project's jobs from `zuul.yaml`, `zuul.d/*.yaml`, `.zuul.yaml` or `.zuul.d/*.yaml` at its root (the
path rules make those `ci`). A job's `run`, `pre-run`, `post-run` and `cleanup-run` (a string, a list, or items of
the form `{name: PATH}`) name playbooks by their path in the repository, with or without `.yaml`; Zuul runs them on
its executors against the job's nodes, and puts the project's own `roles/` on the role path of the playbooks it runs
from it. So a playbook a job names, every file in its folder (its `files/`, `templates/`, `vars/`: ansible-zuul-jobs
keeps one folder per job) and, once any job here runs a playbook of this project or names roles (`roles: [{zuul:
...}]`), every file under the root `roles/` is `ci` (`ci.context.zuul-job`), whatever the path rules said
(`iac.ansible` for `playbooks/`, `src` elsewhere).

Read as GitLab includes are (treecontext.ci_include): with the commits, every Zuul file of every tree, each blob once,
as YAML (yamlnodes.py: the keys at any depth, so a job variant inside a project's pipeline counts too) and by lines
(what follows a YAML error); past MAX_FILES files or FULL_READ bytes, every file of the tree counts (fail closed: a
playbook past what is read may run a script anywhere by `../`; docs review 54). From a patch alone, the Zuul files the
patch shows, as far as it shows them (a hunk's `run:` line counts). With the commits, what a named playbook includes,
runs or reads by a path or runs as a role by name (playbookreads.py, the reader ciwalk.py shares for `ansible-playbook`:
`include_tasks`, `import_tasks`, `import_playbook`, `include_vars`, `vars_files`, `script`, an include's `file:`, a
script's `cmd:`, the `src:` of `copy` and `template`, `roles:`) is `ci` too, followed through the YAML files it reaches
(red team 38: a task file in `lib/` was `src`); past playbookreads.MAX_INCLUDED files or FULL_READ bytes, as past
MAX_FILES. *Limits:* roles of another project, a project that is itself one role (`tasks/` at its root), a path with a
Jinja expression and, from a patch alone, a playbook's includes are not looked for.

A job of the zuul-jobs library that runs tox (its name holds the word `tox`: `openstack-tox-py36`, `tox-py27` as a
job's `parent:`, `tox-linters`) or an OpenStack project template made of them (`openstack-python3-jobs`, `openstack-
cover-jobs`, `openstack-lower-constraints-jobs`) runs `tox` in the checkout: the root `tox.ini` (or `tox.toml`) it reads
is `ci` too (the eightieth set: openstack/python-jenkins). Read from the names a job list, `templates:` or `parent:`
gives (YAML, then by lines); a word in a description or a comment names no job. *Limit:* what tox.ini's commands run
is not followed from here (a command line that says `tox` is read as the other task runners are).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from gatekeeper.classify import gitlabincludes, playbookreads, treereads
from gatekeeper.classify.ansible import lines_from
from gatekeeper.classify.sniff import FULL_READ
from gatekeeper.classify.submodules import below_glob
from gatekeeper.classify.yamlnodes import Node, values_under
from gatekeeper.gitobjects import TreeEntry
from gatekeeper.lazy_pattern import lazy
from gatekeeper.model import FileChange

__all__ = ["MAX_FILES", "PAST", "RULE", "ci_included", "include_evidence", "is_config", "named", "rule_of", "run_files"]

RULE = "ci.context.zuul-job"
MAX_FILES = 64  # Zuul files read per tree; past it, everything a job could run counts (fail closed)
_ROOTS = frozenset({"zuul.yaml", ".zuul.yaml", "zuul.yml", ".zuul.yml"})
_FOLDERS = ("zuul.d/", ".zuul.d/")
_RUN_KEYS = ("run", "pre-run", "post-run", "cleanup-run")
# Past the bounds, every file counts (docs review 54): a playbook's `script:`, `copy`/`template` `src:` name any file by
# a path relative to its folder (`../tools/setup.sh`), so no narrower set (YAML, `playbooks/`, `roles/`) holds them all.
_EVERY = ("*",)
PAST = "more Zuul configuration than is read: any job may run it"
_KEY_LINE = lazy(r"^[ \t-]*(?:pre-run|post-run|cleanup-run|run)[ \t]*:[ \t]*(.*)$", re.MULTILINE)
_ZUUL_KEY = lazy(r"^[ \t-]*zuul[ \t]*:", re.MULTILINE)  # a `roles:` entry's project, by lines
# A job or project template of the zuul-jobs library that runs tox in the checkout (the module docstring)
_TOX_JOB = lazy(r"(?:[\w.]+-)*tox(?:-[\w.]+)*|openstack-(?:python\d*|cover|lower-constraints)(?:-[\w.]+)*-jobs")
# Such a name as a list item (`- openstack-tox-py36`, `- tox-py27:`) or a `parent:`/`templates:` value, by lines
_TOX_LINE = lazy(r"^[ \t]*+(?:-[ \t]*+|parent[ \t]*+:[ \t]*+)['\"]?+([\w.-]+)['\"]?+[ \t]*+:?+[ \t]*+(?:#.*)?$",
                 re.MULTILINE)
_TOX_FILES = ("tox.ini", "tox.toml")
_ITEM = playbookreads.ITEM
_WORD = playbookreads.WORD
Tree = dict[str, TreeEntry]


def is_config(path: str) -> bool:
    """A file Zuul reads its jobs from: a root `zuul.yaml`/`.zuul.yaml`, or a YAML file below a root `zuul.d/`."""
    return path in _ROOTS or path.startswith(_FOLDERS) and path.endswith((".yaml", ".yml"))


def rule_of(evidence: str) -> str:
    """The rule of a ci_include evidence: a Zuul file's (it starts with the file's path) or a GitLab include's."""
    return RULE if is_config(evidence.partition(":")[0]) or evidence == PAST else "ci.context.gitlab-include"


def named(config: str, text: str) -> list[tuple[str, str]]:
    """(pattern, evidence) for what the jobs of one Zuul file name: each playbook (with `.yaml`/`.yml` when the name
    has neither), every file of its folder below the root, and `roles/*` when a job runs one or names roles."""
    playbooks = [path for value in _values(text) if (path := playbookreads.normal(value))]
    out: list[tuple[str, str]] = []
    for playbook in dict.fromkeys(playbooks):
        how = f"{config}: a Zuul job runs {playbook}"
        names = [playbook] if playbook.endswith((".yaml", ".yml")) else [playbook, f"{playbook}.yaml",
                                                                         f"{playbook}.yml"]
        folder = playbook.rpartition("/")[0]
        out += [(name, how) for name in names] + ([(f"{folder}/*", f"{how} (its folder)")] if folder else [])
    if playbooks or _names_roles(text):
        out.append(("roles/*", f"{config}: Zuul puts the project's roles/ on the role path of its jobs' playbooks"))
    if any(_TOX_JOB.fullmatch(name) for name in _job_names(text)):
        out += [(name, f"{config}: a Zuul tox job runs tox in the checkout ({name})") for name in _TOX_FILES]
    return out


def run_files(trees: Iterable[Tree], read_blob: Callable[[TreeEntry], bytes]) -> list[tuple[str, str]]:
    """(pattern, evidence) for what the Zuul jobs of every tree run (see the module); each blob read once."""
    found: dict[tuple[str, str], list[tuple[str, str]]] = {}  # by (path, blob id): the trees share most files
    reached: list[tuple[str, str]] = []  # what the named playbooks include (_included)
    for tree in trees:
        configs = [path for path in tree if is_config(path) and tree[path].mode in ("100644", "100755")]
        if len(configs) > MAX_FILES:
            return [(pattern, PAST) for pattern in _EVERY]
        for config in configs:
            if (key := (config, tree[config].oid)) not in found:
                data = read_blob(tree[config])
                if len(data) > FULL_READ:  # what it names may be past what is read
                    return [(pattern, PAST) for pattern in _EVERY]
                found[key] = named(config, data.decode("utf-8", "replace"))
        included = playbookreads.reached(tree, read_blob, [hit for hits in found.values() for hit in hits])
        if included is None:
            return [(pattern, PAST) for pattern in _EVERY]
        reached += included
    return list(dict.fromkeys([*(hit for hits in found.values() for hit in hits), *reached]))


def ci_included(trees: tuple[Tree, ...], read_blob: Callable[[TreeEntry], bytes], git_dir: str) -> tuple[
        tuple[str, str], ...]:
    """(pattern, evidence) of every file a pipeline includes or a job runs by being named in CI's own files: the
    root `.gitlab-ci.yml`'s includes, followed (gitlabincludes.py; past its bound every YAML file), and what the Zuul
    jobs of every tree run (run_files)."""
    own = treereads.own_projects(git_dir) if any(gitlabincludes.ROOT in tree for tree in trees) else frozenset()
    gitlab = treereads.gitlab_includes(trees, read_blob, own)
    return (*((p, f"{gitlabincludes.ROOT}: include {p}") for p in gitlab), *run_files(trees, read_blob))


def include_evidence(included: tuple[tuple[str, str], ...], change: FileChange) -> str | None:
    """The evidence of the first of `included` that names a side of `change` (a submodule: a path inside it)."""
    for side in change.sides():
        for pattern, evidence in included:
            if gitlabincludes.matches(pattern, side) or change.submodule and below_glob(pattern, side):
                return evidence
    return None


def _values(text: str) -> list[str]:
    """Every playbook name of the run keys, read as YAML and by lines."""
    out: list[str] = []
    for key in _RUN_KEYS:
        for value in values_under(text, key):
            out += _strings(value)
    for match in _KEY_LINE.finditer(text):
        value = match.group(1).partition(" #")[0].strip()
        if value:  # `run: playbooks/x.yaml`; a flow list is read as YAML
            out += [word.group(1)] if (word := _WORD.match(value)) else []
            continue
        key_indent = len(match.group(0)) - len(match.group(0).lstrip(" \t-"))
        for line in lines_from(text, match.end() + 1):  # the list items below an empty value
            item = _ITEM.match(line)
            if item is None or len(line) - len(line.lstrip()) < key_indent or item.group(1).endswith(":"):
                break
            out.append(item.group(1))
    return out


def _job_names(text: str) -> list[str]:
    """The job and template names the text gives: items of `jobs:` and `templates:` lists (a string, or a job variant's
    one key), `parent:` values, then list items and `parent:` values read by lines (what a YAML error hides)."""
    names = [value for value in values_under(text, "parent") if isinstance(value, str)]
    for key in ("jobs", "templates"):
        for value in values_under(text, key):
            items = value if isinstance(value, list) else []
            names += [item if isinstance(item, str) else next(iter(item)) for item in items
                      if isinstance(item, str) or isinstance(item, dict) and len(item) == 1]
    return names + _TOX_LINE.findall(text)


def _strings(value: Node) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [s for item in value for s in _strings(item)]
    if isinstance(value, dict):
        return [s for item in value.get("name", ()) for s in _strings(item)]
    return []


def _names_roles(text: str) -> bool:
    entries = [item for value in values_under(text, "roles") for item in (value if isinstance(value, list) else [])]
    return any(isinstance(item, dict) and "zuul" in item for item in entries) or bool(_ZUUL_KEY.search(text))
