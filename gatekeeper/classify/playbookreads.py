"""What an Ansible playbook reaches by a path or a role's name: the one reader of the Zuul jobs (zuuljobs.py, red team
38) and of a playbook a CI step runs with `ansible-playbook` (ciwalk.py, issue 12).

From each playbook named, read by lines: the files `include_tasks`, `import_tasks`, `import_playbook`,
`include_vars`, `include`, `vars_files`, an include's `file:` and a module's `src:` name, and every word of a command
key (`script`, `shell`, `command`, ...) that names a file (playbookwords.py: quoted keys, flow mappings, blocks,
`key=value` arguments, `{{ playbook_dir }}` and `{{ role_path }}` too), against the reading file's folder, its
`files/`, `vars/`, `tasks/` and `templates/`, and the folder of the playbook that started the chain; and the roles it
runs by name (`roles:` items, `role:`/`name:` of an item, a role's `meta/main.yml` `dependencies:`,
`include_role`/`import_role`'s `name:`), looked for as Ansible does: `roles/NAME` beside the playbook, each
`roles_path` folder of an `ansible.cfg` at the root or beside the playbook (relative to that file), and the
playbook's own folder. Every file below a role found counts but its documentation. The YAML files reached are read in
turn (a chain, each file once: cycles end). Past MAX_INCLUDED files read or a file longer than FULL_READ, None: the
caller fails closed. *Limits:* a path or a role name with another Jinja expression, a role of a collection
(`acme.tools.web`), `ANSIBLE_ROLES_PATH` set by the step and the default role folders outside the repository are not
followed.
"""

from __future__ import annotations

import bisect
import posixpath
import re
from collections.abc import Callable

from gatekeeper.classify import playbookwords
from gatekeeper.classify.ansible import lines_from
from gatekeeper.classify.sniff import FULL_READ
from gatekeeper.gitobjects import TreeEntry
from gatekeeper.lazy_pattern import lazy

__all__ = ["ITEM", "MAX_INCLUDED", "WORD", "below", "normal", "reached"]

MAX_INCLUDED = 256  # playbook, task and role files read per tree; past it, the caller fails closed
_FILES = ("100644", "100755")
_ROLE_LIST = lazy(r"^([ \t-]*)(?:roles|dependencies)[ \t]*:[ \t]*(.*)$", re.MULTILINE)
_ROLE_TASK = lazy(r"^([ \t-]*)(?:ansible\.builtin\.)?(?:include_role|import_role)[ \t]*:[ \t]*(.*)$", re.MULTILINE)
# The `{` is read with the blanks after it: `[ \t]*\{?[ \t]*` split a line of blanks every way (quadratic, attack 34).
_ROLE_ITEM = lazy(r"""^[ \t]*-[ \t]*(?:\{[ \t]*)?(?:(?:role|name)[ \t]*:[ \t]*)?["']?([^\s"'#{}\[\],:=]+)[ \t,}]*""")
_ROLE_NAME = lazy(r"""(?:^|[\s{,])name[ \t]*[:=][ \t]*["']?([^\s"'#{}\[\],]+)""")
_ROLES_PATH = lazy(r"^[ \t]*roles_path[ \t]*=[ \t]*(.*)$", re.MULTILINE)
ITEM = lazy(r"""^[ \t]*-[ \t]*(?:name[ \t]*:[ \t]*)?["']?([^\s"'#{}\[\],]+)""")
WORD = lazy(r"""["']?([^\s"'#{}\[\],]+)""")
_BASES = ("", "/files", "/vars", "/tasks", "/templates")
# A role's documentation: no play reads it (stackhpc/ansible-slurm-appliance's roles/systemd/README.md, thirtyninth set)
_DOC = lazy(r"(?:\.(?:md|markdown|rst|adoc)|/(?:readme|license|licence|changelog|authors)[^/]*)\Z", re.IGNORECASE)
Tree = dict[str, TreeEntry]


def reached(tree: Tree, read_blob: Callable[[TreeEntry], bytes],
            starts: list[tuple[str, str]]) -> list[tuple[str, str]] | None:
    """(path, evidence) for what the playbooks `starts` names ((path, how it runs)) include, run or read by a path
    or a role's name, followed through the YAML files reached; None past MAX_INCLUDED files or FULL_READ bytes."""
    queue = [(path, how, path.rpartition("/")[0]) for path, how in starts
             if path in tree and path.endswith((".yaml", ".yml"))]
    seen = {path for path, _, _ in queue}
    listed = sorted(tree)
    out: list[tuple[str, str]] = []
    # the variables every file read sets (classes58: a vars file included after the play that uses them), and the
    # files using one, read again once when the chain is done with all of them
    names: dict[str, list[str]] = {}
    again: list[tuple[str, str, str]] = []
    while queue or again:
        if not queue:
            queue, again, names = again, [], {**names, "": []}  # `""`: the second reading (no variable is named so)
        path, how, play = queue.pop()
        if len(seen) > MAX_INCLUDED:
            return None
        if tree[path].mode not in _FILES:
            continue
        data = read_blob(tree[path])
        if len(data) > FULL_READ:
            return None
        text = data.decode("utf-8", "replace")
        folder = path.rpartition("/")[0]
        hits: list[tuple[str, str]] = []
        if "{{" in text or ":" in text:
            playbookwords.variables(text, names)
            if "{{" in text and "" not in names:
                again.append((path, how, play))
        found = playbookwords.words(text, path, play, names)
        chdirs = [word for word in found if word.key == "chdir"]  # where a task's command runs
        for key, word, rooted in found:
            if key == "chdir":
                continue
            bases = [""] if rooted else [*(f"{folder}{tail}".lstrip("/") for tail in _BASES), play]
            bases += [target for each in chdirs for target in _chdir_bases(each, folder, play)]
            for base in dict.fromkeys(bases):
                if (target := normal(posixpath.join(base, word))) and target in tree:
                    hits.append((target, f"{how}, which reads {target} ({path})"))
                    if key == "import_playbook" and target not in seen:  # its own folder starts its chain
                        seen.add(target)
                        queue.append((target, how, target.rpartition("/")[0]))
        for role in _roles(tree, read_blob, text, play, listed):
            hits += [(file, f"{how}, which runs the role {role} ({path})") for file in below(listed, role)
                     if not _DOC.search(file)]
        for target, evidence in hits:
            out.append((target, evidence))
            if target not in seen and target.endswith((".yaml", ".yml")):
                seen.add(target)
                queue.append((target, how, play))
    return list(dict.fromkeys(out))


def _chdir_bases(chdir: playbookwords.Word, folder: str, play: str) -> list[str]:
    """The repository folders a task's `chdir:` may be: from the root when written from a Jinja folder, else from
    the reading file's folder, the playbook's or the root (a local task runs where ansible-playbook was started)."""
    starts = [""] if chdir.rooted else [folder, play, ""]
    return [target for start in dict.fromkeys(starts) if (target := normal(posixpath.join(start, chdir.path)))]


def _role_names(text: str) -> list[str]:
    """The roles a play, a task file or a role's meta runs by name: `roles:`/`dependencies:` items (with the lines
    of an item's mapping between them) and `include_role`/`import_role`'s `name:`."""
    names: list[str] = []
    for match in _ROLE_LIST.finditer(text):
        if match.group(2).strip().startswith("["):  # a flow list: `roles: [web, db]`
            names += [word.strip(" '\"") for word in match.group(2).strip().strip("[]").split(",")]
            continue
        indent = len(match.group(1))  # the key's column: items may stand at it
        for line in lines_from(text, match.end() + 1):
            if line.strip() and len(line) - len(line.lstrip()) < indent or line.strip() and \
                    len(line) - len(line.lstrip()) == indent and not line.lstrip().startswith("-"):
                break
            if (item := _ROLE_ITEM.match(line)) is not None:
                names.append(item.group(1))
    for match in _ROLE_TASK.finditer(text):
        indent = len(match.group(1))
        below = [match.group(2)]
        for line in lines_from(text, match.end() + 1):
            if line.strip() and len(line) - len(line.lstrip()) <= indent:
                break
            below.append(line)
        names += [hit.group(1) for part in below if (hit := _ROLE_NAME.search(part))][:1]
    return [name for name in dict.fromkeys(names) if name and "{{" not in name]


def _roles(tree: Tree, read_blob: Callable[[TreeEntry], bytes], text: str, play: str, listed: list[str]) -> list[str]:
    """The folders of the roles `text` runs by name, looked for beside the playbook, on roles_path and in its folder."""
    names = _role_names(text)
    if not names:
        return []
    folders = [f"{play}/roles".lstrip("/")]
    for config in dict.fromkeys(["ansible.cfg", f"{play}/ansible.cfg".lstrip("/")]):
        if config in tree and tree[config].mode in _FILES:
            here = config.rpartition("/")[0]
            for value in _ROLES_PATH.findall(read_blob(tree[config])[:FULL_READ].decode("utf-8", "replace")):
                folders += [posixpath.join(here, part.strip()) for part in value.partition(" #")[0].split(":")
                            if part.strip() and not part.strip().startswith(("/", "~", "$"))]
    folders.append(play)
    found: list[str] = []
    for name in names:
        for folder in folders:
            role = normal(posixpath.join(folder, name))
            if role and below(listed, role):
                found.append(role)
                break
    return found


def below(listed: list[str], folder: str) -> list[str]:
    """The paths of the sorted `listed` below `folder`."""
    out = []
    for path in listed[bisect.bisect_left(listed, f"{folder}/"):]:
        if not path.startswith(f"{folder}/"):
            break
        out.append(path)
    return out


def normal(value: str) -> str | None:
    """The repository path a value names (no leading `/` or `./`), or None (a URL, a path out of the repository)."""
    value = value.strip()
    if not value or "://" in value:
        return None
    path = posixpath.normpath(value.lstrip("/"))
    return path if path not in (".", "..") and not path.startswith("../") else None
