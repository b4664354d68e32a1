"""Tier 3, continued: Ansible by content (plays, inventories in YAML and INI, task files) and a `setup.py` that is
an Ansible module rather than packaging. Same contract as shapes.py: (bucket, rule id, evidence line) or None.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

from gatekeeper.classify.shapes import evidence_line
from gatekeeper.lazy_pattern import lazy

_FLAGS = re.MULTILINE
_PLAY = lazy(r"^-[ \t]+(?:hosts|import_playbook|ansible\.builtin\.import_playbook)[ \t]*:", _FLAGS)
_PLAY_HOSTS = lazy(r"^[ \t]{2}hosts[ \t]*:", _FLAGS)
_PLAY_BODY = lazy(r"^(?:-[ \t]+|[ \t]{2})(?:tasks|roles|pre_tasks|post_tasks|handlers)[ \t]*:", _FLAGS)
# Lines between are blank or indented: two alternatives that can never match the same text, so the scan from
# one `all:` line is linear and stops at the next unindented line.
_INVENTORY_YAML = lazy(
    r"^(?:all|ungrouped)[ \t]*:[ \t]*\n(?:[ \t]*\n|[ \t]+\S[^\n]*\n)*?[ \t]+(?:hosts|children)[ \t]*:", _FLAGS)
_INVENTORY_INI = lazy(r"^\[[A-Za-z0-9_.-]+:(?:children|vars)\][ \t]*$|\bansible_(?:host|user|connection|port)=",
                      _FLAGS)
# An INI inventory of bare hosts: a [group] header, then (past comments and blank lines) an unindented line that is
# one host name or address, with at most `var=value` pairs after it. INI settings say `key = value`, TOML
# `key = "v"`: neither has a lone word under a section; nor does a key whose value follows on the next lines
# (`extend-ignore:` of flake8), which ends in a colon where a host's `name:port` never does; nor does a host's last
# `var=value` (a just recipe with a default argument under an attribute: `[no-cd]`, then `test filter='.*':`).
_INVENTORY_HOSTS = lazy(
    r"^\[[A-Za-z0-9_.-]+\][ \t]*\r?\n(?:[ \t]*(?:[#;][^\n]*|\r)?\n)*"
    r"[A-Za-z0-9][A-Za-z0-9_.:-]*(?<!:)"
    r"(?:\[[0-9a-z:]+\][A-Za-z0-9_.-]*)?(?:[ \t]+[A-Za-z_][A-Za-z0-9_]*=\S*[^\s:])*[ \t]*\r?$",
    _FLAGS)
# Conan reads `conanfile.txt` as INI whose sections are its own and refuses any other; its `[generators]` and
# `[layout]` hold lone words (`CMakeDeps`, `cmake_layout`) that read like an inventory's bare hosts. A header is a
# line that is `[...]` once stripped, as both Conan's reader and Ansible's INI inventory strip it.
_CONANFILE = "conanfile.txt"
_CONAN_SECTIONS = frozenset({"requires", "tool_requires", "build_requires", "test_requires", "python_requires",
                             "generators", "options", "imports", "layout"})
_INI_HEADER = lazy(r"^[ \t]*\[([^\]\r\n]*)\][ \t]*\r?$", _FLAGS)
_FQCN_TASK = lazy(r"^[ \t]*(?:-[ \t]*)?ansible\.(?:builtin|posix|windows)\.[a-z_]+[ \t]*:", _FLAGS)
_TASK_NAME = lazy(r"^[ \t]*-[ \t]+name[ \t]*:", _FLAGS)
_TASK_MODULE = lazy(
    r"^[ \t]+(?:apt|yum|dnf|package|copy|template|file|service|systemd|lineinfile|blockinfile|user|group|"
    r"pip|get_url|unarchive|set_fact|include_tasks|import_tasks|include_role|import_role|debug|command|shell|"
    r"uri|git|cron|mount|become|notify|register|when|with_items|loop)[ \t]*:", _FLAGS)
# A play's keys (besides hosts) that only a play has; an item that imports a playbook is a play too.
_PLAY_ITEM = lazy(r"^-([ \t]+)([A-Za-z_][\w.]*)[ \t]*:", _FLAGS)
_PLAY_KEYS = frozenset({"tasks", "roles", "pre_tasks", "post_tasks", "handlers"})
_IMPORT_PLAYBOOK = frozenset({"import_playbook", "ansible.builtin.import_playbook"})
# Packaging: an import of a build backend's setup API, or a call of setup() (not a function *named* setup: a web
# application's `def setup():` view in a module named setup.py is no packaging). Read in the text as Python reads it
# (setup_py normalizes it first): a call may put a backslash, line breaks and comments between `setup` and `(`.
_SETUP_PACKAGING = lazy(
    r"\b(?:setuptools|distutils)\b|^[ \t]*(?:from|import)[ \t]+skbuild\b|(?<!def )\bsetup(?:\s|\\|#[^\n]*\n)*\("
    # attack 41: a `setup` imported under another name (`from cx_Freeze import setup as build`, in a parenthesized
    # list too) or read as an attribute (`b = cx_Freeze.setup`), then called by that name
    r"|^[ \t]*+(?:from[ \t]++\S++[ \t]++)?+import\b[^\n]*?\bsetup\b"
    r"|^[ \t]*+from[ \t]++\S++[ \t]++import[ \t]*+\([^)]{0,4096}?\bsetup\b|\.[ \t]*+setup\b"
    r"|=[ \t]*+setup\b|[(,][ \t]*+setup[ \t]*+[,)]",  # `b = setup`, `run(setup, …)` after `import *`
    _FLAGS)
# A name computed at run time (`importlib.import_module('setup' 'tools')`, `getattr(m, 'set' 'up')`, `exec(...)`,
# `sys.modules[...]`, `pkgutil.resolve_name`, `pydoc.locate`, a pickle's reduce) may reach setuptools without naming
# it: no proof that the file is not packaging. (Code can always hide what it calls: this is a floor, not a proof.)
_REFLECTION = lazy(
    r"\b(?:__import__|importlib|import_module|imp|getattr|attrgetter|methodcaller|__getattribute__|__dict__|"
    r"__builtins__|builtins|exec|eval|runpy|modules|globals|locals|vars|pkgutil|pydoc|c?[Pp]ickle|dill|cloudpickle|"
    r"jsonpickle|shelve|marshal|timeit|InteractiveConsole|InteractiveInterpreter)\b")
# A Python module's own import: the proof that a setup.py which neither imports nor calls a packaging API is code.
_PYTHON_IMPORT = lazy(r"^(?:from[ \t]+[\w.]+[ \t]+import[ \t]|import[ \t]+[\w.]+)", _FLAGS)
_ANSIBLE_MODULE = lazy(
    r"^DOCUMENTATION[ \t]*=|^[ \t]*from[ \t]+ansible(?:_collections)?\.\S*module_utils\b", _FLAGS)
# An Ansible task file's folders (roles/x/tasks, tasks/, handlers/): short module names count there.
_TASK_FOLDERS = frozenset({"tasks", "handlers"})


def ansible(path: str, text: str) -> tuple[str, str, str] | None:
    """(bucket, rule id, evidence line) when `text` is an Ansible play, inventory or task file."""
    play = _PLAY.search(text)
    if play is None and (hosts := _PLAY_HOSTS.search(text)) and text.lstrip().startswith(("- ", "---")):
        play = hosts if _PLAY_BODY.search(text) else None
    if play is None:
        play = _play_item(text)
    if play is not None:
        return "iac", "iac.content.ansible-play", evidence_line(text, play)
    if (m := _INVENTORY_YAML.search(text)) is not None:
        return "iac", "iac.content.ansible-inventory", evidence_line(text, m)
    if (m := _INVENTORY_INI.search(text)) is not None:
        return "iac", "iac.content.ansible-inventory", evidence_line(text, m)
    if "[" in text and (m := _INVENTORY_HOSTS.search(text)) is not None and not _conanfile(path, text):
        return "iac", "iac.content.ansible-inventory", evidence_line(text, m)
    if (m := _FQCN_TASK.search(text)) is not None:
        return "iac", "iac.content.ansible-tasks", evidence_line(text, m)
    folders = set(path.lower().split("/")[:-1])
    if folders & _TASK_FOLDERS and _TASK_NAME.search(text) and (m := _TASK_MODULE.search(text)) is not None:
        return "iac", "iac.content.ansible-tasks", evidence_line(text, m)
    return None


def _conanfile(path: str, text: str) -> bool:
    """A file Conan reads by its name (`conanfile.txt`) whose every section is one of Conan's: its lone words are
    generators and layouts, not hosts. One section Conan does not have, and it is read as Ansible would read it."""
    if path.rpartition("/")[2] != _CONANFILE:
        return False
    return all(m.group(1).strip() in _CONAN_SECTIONS for m in _INI_HEADER.finditer(text))


def _play_item(text: str) -> re.Match[str] | None:
    """A top-level list item that is a play, whatever the order of its keys, its indentation, or the comments
    above it: `hosts:` with tasks/roles/pre_tasks/post_tasks/handlers beside it, or an `import_playbook:`.
    Its keys are the lines indented like its first key, up to the next unindented line."""
    for item in _PLAY_ITEM.finditer(text) if text.startswith("-") or "\n-" in text else ():
        indent = 1 + len(item.group(1))
        keys = {item.group(2)}
        end = text.find("\n", item.end())
        for line in lines_from(text, end + 1) if end != -1 else ():
            if line and not line[0].isspace() and not line.startswith("#"):
                break  # the next item, or the end of the list
            body = line[indent:]
            if line[:indent].strip() == "" and body[:1].isalpha():
                keys.add(body.partition(":")[0].strip())
        if keys & _IMPORT_PLAYBOOK or ("hosts" in keys and keys & _PLAY_KEYS):
            return item
    return None


def lines_from(text: str, start: int) -> Iterator[str]:
    """`text[start:].splitlines()`, one newline-ended piece at a time (every reader of the lines below a YAML key by
    lines uses it: the Zuul jobs, the playbooks' includes and roles, GitLab includes, the runners CI starts). An
    item's keys end at the next unindented line, so each item reads only its own lines; the list of every line to
    the end of the text, made for each item, was quadratic in the items (`- a: x` 36,000 times, 250 KB: 28
    CPU-seconds). The lines are the same: a piece's own breaks (`\r`, `\u2028`, ...) are split as splitlines splits
    them, and an empty line, the only kind a piece of nothing drops, ends no item and is no key."""
    while True:
        end = text.find("\n", start)
        yield from (text[start:] if end == -1 else text[start:end]).splitlines()
        if end == -1:
            return
        start = end + 1


def setup_py(text: str) -> tuple[str, str, str] | None:
    """A setup.py that is no packaging: an Ansible module, or a module of an application's code (a Flask view named
    setup) that imports what it uses and neither imports a packaging API nor calls setup(): src (deps is lowered only
    on this proof, and only on the whole file)."""
    # Python reads identifiers NFKC-normalized (`ſetup` and `ｓｅｔｕｐ` are `setup`): so is the text the proof reads.
    text = unicodedata.normalize("NFKC", text)
    if _SETUP_PACKAGING.search(text) or _REFLECTION.search(text):
        return None
    if (m := _ANSIBLE_MODULE.search(text)) is not None:
        return "src", "src.content.ansible-module", evidence_line(text, m)
    if (m := _PYTHON_IMPORT.search(text)) is not None:
        return "src", "src.content.setup-not-packaging", evidence_line(text, m)
    return None

