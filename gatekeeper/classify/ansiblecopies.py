"""The files an Ansible play or task list copies or renders onto its hosts (label 91, the ninetieth set).

`copy: src: config/50-server.cnf` in a playbook ships that file to every host the play reaches: an edit of it changes
the hosts' settings (keepalived_wordpress's MariaDB settings were `src`; the `ansible.cfg` marker claims configuration
types, not `.cnf`). A file a play or a task file of either tree names by the `src:` of `copy:` or `template:` (short,
`ansible.builtin.`, `ansible.legacy.`, `win_`; block, free-form `src=` and flow `{src: …}` forms) is `iac`
(`iac.context.ansible-file`), whatever its suffix. Resolved as Ansible resolves it: against the task file's folder
and, for a file in a `tasks/` or `handlers/` folder, the role's (or the play's) folder above it; in each, `files/`,
`templates/` and the folder itself. `{{ playbook_dir }}/` and `{{ role_path }}/` are those folders; a path built by
another expression names the folder before it (`conf/{{ item }}.cnf`: every file in `conf/`). An absolute `src:` is
the controller's or a host's file, not looked up.

Found as heatfiles.py finds what Heat templates ship (its `Shipped`): the YAML files in the folders above a changed
file and directly inside their sub-folders, read when they hold `src` and `copy` or `template` and look like Ansible
(`hosts:`, a `tasks/`/`handlers/` folder, `ansible.builtin.`); a file longer than read counts as copying every file
near it (heatfiles.PAST). A `src:` that is a loop's item (`"{{ item }}"`, review 70b) makes every item of the file's
`with_*:`/`loop:` lists a source (the task a loop belongs to is not followed: fail closed). *Limits:* a playbook
farther away than a sibling folder, a role's files named from a playbook in another tree and `roles_path` are not
followed.

Misses 11: `unarchive:` and `assemble:` (a folder of fragments) ship their `src` as `copy:` does (not `synchronize:`,
which deploys an application's tree: its code stays what it is), and `script:` runs its file on the hosts (its free
form's first word, or `cmd:`'s): resolved the same way. A `src` that is a loop's item where a loop's items are a
variable's (`loop: "{{ conf_files }}"`, `with_items: '{{ x }}'`) may be any file of `files/` and `templates/` of each
folder the file resolves from: every one is a source (fail closed; a role's are `iac` by their path already).
"""

from __future__ import annotations

import posixpath
import re

from gatekeeper.classify.heatfiles import PAST, Shipper
from gatekeeper.classify.sniff import FULL_READ
from gatekeeper.lazy_pattern import lazy

__all__ = ["ANSIBLE_COPIES", "RULE", "copied"]

RULE = "iac.context.ansible-file"
_TYPES = (".yml", ".yaml")
# the modules that ship a file of the repository (misses 11: `unarchive`, `assemble`; `script` runs it). Not
# `synchronize`: it deploys an application's tree (over 305 mirrors: 135 of one app's source files read as `iac`)
_MODULE = lazy(r"^([ \t]*+(?:-[ \t]++)?+)(?:ansible\.(?:builtin|legacy|windows)\.)?+(?:win_)?+"
               r"(copy|template|unarchive|assemble|script)[ \t]*+:[ \t]*+([^\n]*+)")
_SHIPPERS = (b"copy", b"template", b"unarchive", b"assemble", b"script")
_HINTS = ("copy", "template", "unarchive", "assemble", "script")
_CMD_KEY = lazy(r"^[ \t]*+(?:-[ \t]++)?+cmd[ \t]*+:[ \t]*+([^\n]*+)")  # `script:`'s block form names it by `cmd:`
# a loop over a variable (`loop: "{{ files }}"`, `with_items: '{{ conf }}'`): its items are the play's to choose
_VARIABLE_LOOP = lazy(r"""^['"]?+\{\{""")
_SRC_KEY = lazy(r"^[ \t]*+(?:-[ \t]++)?+src[ \t]*+:[ \t]*+([^\n]*+)")
_FREE_SRC = lazy(r"(?:^|[\s{,])src[ \t]*+[=:][ \t]*+([^\s,}]++)")
_ANSIBLE = lazy(rb"\bhosts[ \t]*+:|\bansible\.(?:builtin|legacy|windows)\.")
_EXPRESSION = lazy(r"\{\{[ \t]*+(playbook_dir|role_path)[ \t]*+\}\}/")
# a task's loop (review 70b): `with_items:`/`loop:`/`with_fileglob:`, its items below it or in a flow list
_LOOP = lazy(r"^([ \t]*+(?:-[ \t]++)?+)(?:with_[a-z_]++|loop)[ \t]*+:[ \t]*+([^\n]*+)")
_ITEM = lazy(r"^[ \t]*+-[ \t]++([^\s{\[][^\n]*+)")
# a source that is a loop's item: `src: "{{ item }}"`, `src={{ item.src }}`
_LOOPED = lazy(r"""(?:^|[\s{,])src[ \t]*+[=:][ \t]*+['"]?+\{\{[ \t]*+item\b""")
_MAX_NAMES = 256  # sources a file names (past them, every file near it: fail closed)


def copied(path: str, data: bytes) -> tuple[str, ...]:
    """The repository paths (files or folders) the `copy:`/`template:` sources of the play or task file at `path`
    name; none when it is no Ansible YAML."""
    if (b"src" not in data and b"script" not in data) or not any(word in data for word in _SHIPPERS):
        return ()
    folders = path.split("/")[:-1]
    in_tasks = bool(folders) and folders[-1] in ("tasks", "handlers")
    if not in_tasks and _ANSIBLE.search(data[:FULL_READ]) is None:
        return ()
    past = (PAST,) if len(data) > FULL_READ else ()
    words = _sources(data[:FULL_READ].decode("utf-8", "replace"))
    if len(words) > _MAX_NAMES:
        return (PAST,)
    bases = ["/".join(folders)] + (["/".join(folders[:-1])] if in_tasks else [])
    out: list[str] = []
    for word in words:
        if (value := _value(word)) is not None:
            out += _resolved(value, bases)
    return tuple(dict.fromkeys(out)) + past


def _sources(text: str) -> list[str]:
    """The `src` values of the `copy:`/`template:` tasks of `text`, in one pass over its lines; when one is a loop's
    item, every loop item of `text` too (fail closed: which task a loop belongs to is not followed)."""
    words: list[str] = []
    items: list[str] = []
    column = -1  # the module key's column while inside its block
    looped = False  # a source is a loop's item
    looping = -1  # the loop key's column while inside its block
    script = False  # the block is `script:`'s (its `cmd:` names the file)
    variable = False  # a loop's items are a variable's (misses 11)
    for line in text.splitlines():
        stripped = line.lstrip(" \t")
        if not stripped or stripped.startswith("#"):
            continue
        indent = len(line) - len(stripped)
        if column >= 0 and indent <= column:
            column = -1
        if looping >= 0 and indent <= looping:
            looping = -1
        if column >= 0:
            if (found := _SRC_KEY.match(line)) is not None or script and (found := _CMD_KEY.match(line)) is not None:
                words.append(found.group(1).split(" ", 1)[0] if script and "src" not in line else found.group(1))
                looped = looped or _LOOPED.search(line) is not None
            continue
        if looping >= 0:
            if (found := _SRC_KEY.match(line)) is not None or (found := _ITEM.match(line)) is not None:
                items += [found.group(1)] if ": " not in found.group(1) else []
            items += _FREE_SRC.findall(line)
            continue
        if ("with_" in line or "loop" in line) and (loop := _LOOP.match(line)) is not None:
            looping = len(loop.group(1))
            flow = loop.group(2).strip()
            variable = variable or _VARIABLE_LOOP.match(flow) is not None
            items += flow.strip("[]").split(",") if flow.startswith("[") else _FREE_SRC.findall(flow)
        elif any(hint in line for hint in _HINTS):
            module = _MODULE.match(line)
            if module is not None:
                column, script, free = len(module.group(1)), module.group(2) == "script", module.group(3)
                words += _FREE_SRC.findall(free)
                # `script: tools/setup.sh --x`: its free form's first word is the file (not `cmd=`, `{{`, `key=v`)
                first = free.strip().split(" ", 1)[0] if script and "src=" not in free else ""
                words += [first] if first and "=" not in first and not first.startswith(("{", "#", "'{", '"{')) else []
                looped = looped or _LOOPED.search(free) is not None
    # a loop over a variable: any file of the `files/` and `templates/` folders (fail closed, misses 11)
    wide = ["files/{{ item }}", "templates/{{ item }}"] if looped and variable else []
    return words + items + wide if looped else words


def _value(word: str) -> str | None:
    """A `src` value as a relative path (`{{ playbook_dir }}/` off; cut before another expression), or None."""
    word = word.partition(" #")[0].strip().strip("'\"").strip()
    word = _EXPRESSION.sub("", word)
    if "{{" in word or "*" in word:  # an expression or a glob (`with_fileglob: conf/*.cnf`): the folder before it
        word = word.partition("{{")[0].partition("*")[0].rpartition("/")[0]
    word = word.rstrip("/")
    if not word or word.startswith(("/", "~", "$")) or "://" in word:
        return None
    return word


def _resolved(value: str, bases: list[str]) -> list[str]:
    """`value` in each of `bases`' `files/`, `templates/` and the folder itself (those inside the repository)."""
    out = []
    for base in bases:
        for sub in ("files", "templates", ""):
            joined = posixpath.normpath(posixpath.join(base, sub, value))
            if joined not in (".", "..") and not joined.startswith("../") and not re.match(r"\.\.?/", joined):
                out.append(joined)
    return out


ANSIBLE_COPIES = Shipper(RULE, _TYPES, copied, "copies {path} onto its hosts (an Ansible copy:/template: src)",
                         "YAML files near it read for the files Ansible plays copy", folders=True)
