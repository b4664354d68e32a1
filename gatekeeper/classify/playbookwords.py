"""The paths a playbook or task file names to Ansible: what playbookreads.py follows (red team 39).

Two kinds of key. A *path key* names one file by its value's first word, or by the items of a list below it:
`include_tasks`, `import_tasks`, `import_playbook`, `include_vars`, `include`, `vars_files`, an include's `file:`, a
module's `src:`. A *command key* runs a command line, and every word of it that is a relative path may be a file of
the repository the command runs: `script`, `cmd`, `command`, `shell`, `raw`, `win_shell`, `win_command`, `argv`,
`local_action`, a module's free-form `_raw_params` (`shell: bash ../tools/setup.sh`, `local_action: script
../tools/setup.sh`). An absolute word there is a path on the managed host, not in the repository, and is left out.

Each key is read where Ansible reads it: at a line's start after list dashes, quoted or not, with any collection's
prefix (`ansible.windows.win_shell`), and inside a flow mapping (`- {name: x, script: ../x.sh}`); its value on the
line, in a folded or literal block below it (`shell: |`), or as the items of a list below it. The free-form
`key=value` arguments name files too (`copy: src=../x.sh dest=/opt/x`, `local_action: module=copy src=...`). A path
written from `{{ playbook_dir }}` is the playbook's folder, from `{{ role_path }}` the role's folder (the reading file's
folder below `roles/NAME/`, else its own folder); any other Jinja expression names nothing (a stated limit). A YAML
alias reads as the scalar its anchor holds on its line (`x: &tool ../x.sh` ... `script: *tool`; attack 33).

Classes58, forms the reader skipped: a variable the files read set to a scalar (`vars:`, a vars file, `set_fact:`:
`setup: ../lib/x.sh` ... `script: "{{ setup }}"`, each value it is given, _MAX_VALUES of them), a loop's items
(`loop:`/`with_items:`/`with_list:` over `{{ item }}` or `{{ item.src }}`), the controller-side lookups (`lookup('pipe',
'sh ../x.sh')` runs a command, `lookup('file'|'template', ...)` reads a file) and a task's `chdir:` folder (`args:
chdir: ../tools`, `chdir=../tools`), which playbookreads.py adds to where a command's words are looked for.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from gatekeeper.classify.ansible import lines_from
from gatekeeper.classify.enclosures import Enclosed, Enclosures
from gatekeeper.lazy_pattern import lazy

__all__ = ["MAX_VALUES", "Word", "variables", "words"]

PATH_KEYS = ("include_tasks", "import_tasks", "import_playbook", "include_vars", "include", "vars_files", "file", "src")
COMMAND_KEYS = ("script", "cmd", "command", "shell", "raw", "win_shell", "win_command", "argv", "local_action",
                "_raw_params")  # a module's free-form argument as a mapping key (attack 33)
_HOST_KEYS = frozenset({"command", "shell", "raw", "win_shell", "win_command", "argv"})  # run on the managed host
_KEYS = "|".join(PATH_KEYS + COMMAND_KEYS)
_LINE_KEY = lazy(rf"""^([ \t-]*)["']?(?:[A-Za-z_]\w*\.[A-Za-z_]\w*\.)?({_KEYS})["']?[ \t]*:(?:[ \t]+(.*))?$""",
                 re.MULTILINE)
_FLOW_KEY = lazy(rf"""[{{,][ \t]*["']?(?:[A-Za-z_]\w*\.[A-Za-z_]\w*\.)?({_KEYS})["']?[ \t]*:[ \t]*([^,}}]*)""")
_KEY_VALUE = lazy(r"""(?:^|[\s"'])(?:src|file|cmd|_raw_params)=["']?([^\s"',}]+)""")
_BLOCK = lazy(r"[>|][+-]?[1-9]?[+-]?\Z")
_ITEM = lazy(r"""^[ \t]*-[ \t]*(?:name[ \t]*:[ \t]*)?(.*)$""")
_TOKEN = Enclosures(r"""[^\s"'{}\[\],;&|<>()`]+""",
                    Enclosed(r"""\{\{[^}]*\}\}[^\s"'{}\[\],;&|<>()`]*""", "{{", "}", then="}"))
_JINJA_DIR = lazy(r"\A\{\{-?[ \t]*(playbook_dir|role_path)[ \t]*-?\}\}")
_ROLE = lazy(r"\A(.*?(?:\A|/)roles/[^/]+)/")
_ANCHOR = lazy(r"""&([^\s,\[\]{}&*]++)[ \t]++([^\s#&*|>'"{\[][^\n#]*+)""")  # `&name value`: a scalar on its line
MAX_ANCHORED = 1_024  # of an anchored scalar read for its alias (a path or a command line is shorter)
MAX_VALUES = 16  # values kept per variable, and expansions per value (a command with two loop variables: 16, not 256)
_SCALAR = lazy(r"""^[ \t-]*["']?([A-Za-z_]\w*)["']?[ \t]*:[ \t]+(?![|>&*!])["']?([^"'#\n{}\[\],]{1,1024}?)["']?"""
               r"""[ \t]*$""", re.MULTILINE)  # `name: value`, a plain or quoted scalar on its line
_LOOP = lazy(r"""^([ \t-]*)(?:loop|with_items|with_list)[ \t]*:[ \t]*(.*)$""", re.MULTILINE)
_PAIR = lazy(r"""(?:^|[{,\s-])["']?([A-Za-z_]\w*)["']?[ \t]*:[ \t]*["']?([^\s"',{}\[\]#]+)""")
_USE = lazy(r"\{\{-?[ \t]*([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?)[ \t]*(?:\|[^{}]*)?-?\}\}")
_LOOKUP = lazy(r"""\b(?:lookup|query|q)\([ \t]*["'](?:ansible\.builtin\.)?(pipe|file|template)["'][ \t]*,[ \t]*"""
               r"""(?:"([^"\n]*)"|'([^'\n]*)')""")
_CHDIR = lazy(r"""^[ \t-]*["']?chdir["']?[ \t]*:[ \t]*["']?([^"'#\n]+)|[\s"']chdir=["']?([^\s"',}]+)""", re.MULTILINE)


class Word(NamedTuple):
    key: str  # the key that named it
    path: str  # as written, or rooted at the repository (`rooted`) when it was written from a Jinja folder
    rooted: bool


def variables(text: str, into: dict[str, list[str]] | None = None) -> dict[str, list[str]]:
    """{a variable: the scalars `text` gives it}, added to `into`: every `name: value` on its line, and a loop's items
    as `item` (`item.KEY` for a mapping's keys). Only a value a command or path uses through `{{ name }}` counts."""
    found = {} if into is None else into
    if "{{" not in text and into is None:
        return found
    for match in _SCALAR.finditer(text):
        _add(found, match.group(1), match.group(2).strip())
    for match in _LOOP.finditer(text):
        value, indent = match.group(2).partition(" #")[0].strip(), len(match.group(1))
        if value.startswith("["):  # a flow list: `loop: [a.sh, b.sh]`
            for item in value.strip("[]").split(","):
                _add(found, "item", item.strip(" '\""))
            continue
        for number, line in enumerate(lines_from(text, match.end() + 1)):
            if number > 4 * MAX_VALUES or line.strip() and len(line) - len(line.lstrip()) <= indent and not (
                    line.lstrip().startswith("-") and len(line) - len(line.lstrip()) == indent):
                break
            item = line.strip().removeprefix("-").strip()
            pairs = _PAIR.findall(item) if ":" in item else []
            for key, pair in pairs:
                _add(found, f"item.{key}", pair)
            if line.lstrip().startswith("-") and not pairs:
                _add(found, "item", item.strip(" '\""))
    return found


def _add(found: dict[str, list[str]], name: str, value: str) -> None:
    values = found.setdefault(name, [])
    if value and value not in values and len(values) < MAX_VALUES:
        values.append(value)


def _expanded(value: str, names: dict[str, list[str]]) -> list[str]:
    """`value` with each `{{ name }}` a variable of `names` holds replaced by each of its values (MAX_VALUES in all)."""
    out = [value]
    for _ in range(4):  # a value that uses another variable: a few levels
        if "{{" not in "".join(out):
            break
        done = []
        for each in out:
            use = _USE.search(each)
            if use is None or use.group(1) not in names:
                done.append(each)
                continue
            done += [each[:use.start()] + known + each[use.end():] for known in names[use.group(1)]]
        out = list(dict.fromkeys(done))[:MAX_VALUES]
    return out


def words(text: str, path: str, play: str, names: dict[str, list[str]] | None = None) -> list[Word]:
    """The paths `text` (the file at `path`, read for the playbook in folder `play`) names by its keys; a `{{ name }}`
    in a value is each value `names` (variables(): the file's own and those of the files read before it) gives it."""
    out: list[Word] = []
    # an alias standing for a key's value or an item reads as the scalar its anchor holds (attack 33: `script: *tool`)
    anchors = {m.group(1): m.group(2).strip()[:MAX_ANCHORED] for m in _ANCHOR.finditer(text)} if "&" in text else {}
    names = variables(text, dict(names or {})) if "{{" in text else {}
    for match in _LINE_KEY.finditer(text):
        key, value = match.group(2), (match.group(3) or "").partition(" #")[0].strip()
        if value and not _BLOCK.match(value):
            out += _value_words(key, value, path, play, anchors)
            continue
        indent = len(match.group(1))
        for line in lines_from(text, match.end() + 1):
            if line.strip() and len(line) - len(line.lstrip()) <= indent and not (
                    not value and line.lstrip().startswith("-") and len(line) - len(line.lstrip()) == indent):
                break
            item = _ITEM.match(line)
            if value or item is None:  # a block's lines are one command over lines
                out += _value_words(key, line.strip(), path, play, anchors) if value else []
            else:
                out += _value_words(key, item.group(1).strip(), path, play, anchors)
    for match in _FLOW_KEY.finditer(text):
        out += _value_words(match.group(1), match.group(2).strip(), path, play, anchors)
    out += [word for match in _KEY_VALUE.finditer(text)
            for word in _value_words("src", match.group(1), path, play, anchors)]
    if "(" in text:  # a lookup on the controller: `pipe` runs a command, `file`/`template` read a file
        for match in _LOOKUP.finditer(text):
            key = "script" if match.group(1) == "pipe" else "src"
            out += _value_words(key, match.group(2) or match.group(3) or "", path, play, anchors, names)
    if "chdir" in text:
        out += [Word("chdir", word.path, word.rooted) for match in _CHDIR.finditer(text)
                for word in _value_words("src", (match.group(1) or match.group(2)).strip(), path, play, anchors, names)]
    if names:  # a value using a variable: each value it is given (the lines read again, with them)
        out += [word for word in _used(text, path, play, anchors, names) if word not in out]
    return list(dict.fromkeys(out))


def _used(text: str, path: str, play: str, anchors: dict[str, str], names: dict[str, list[str]]) -> list[Word]:
    out: list[Word] = []
    for match in _LINE_KEY.finditer(text):
        value = (match.group(3) or "").partition(" #")[0].strip()
        if "{{" in value and not _BLOCK.match(value):
            out += _value_words(match.group(2), value, path, play, anchors, names)
    for match in _FLOW_KEY.finditer(text):
        if "{{" in match.group(2):
            out += _value_words(match.group(1), match.group(2).strip(), path, play, anchors, names)
    for match in _KEY_VALUE.finditer(text):
        if "{{" in match.group(1):
            out += _value_words("src", match.group(1), path, play, anchors, names)
    return out


def _value_words(key: str, value: str, path: str, play: str, anchors: dict[str, str],
                 names: dict[str, list[str]] | None = None) -> list[Word]:
    if value.startswith("*"):
        value = anchors.get(value[1:].strip(), value)
    if names and "{{" in value:
        return [word for each in _expanded(value, names) for word in _value_words(key, each, path, play, anchors)]
    tokens = [token.group(0) for token in _TOKEN.finditer(value)]
    if key in PATH_KEYS:
        tokens = tokens[:1]
    out = []
    for index, token in enumerate(tokens):
        token = token.rpartition("=")[2] if "=" in token.partition("{{")[0] else token
        rooted = (jinja := _JINJA_DIR.match(token)) is not None
        if jinja is not None:
            token = _folder(jinja.group(1), path, play) + token[jinja.end():]
        if not token or "{{" in token or "://" in token or token.startswith(("-", "~", "$", "%")):
            continue
        if token.startswith("/") and not rooted and (index or key in _HOST_KEYS):
            continue  # a path on the managed host (a script's or an include's first word is read as before)
        out.append(Word(key, token, rooted))
    return out


def _folder(name: str, path: str, play: str) -> str:
    """The repository folder `{{ playbook_dir }}` or `{{ role_path }}` stands for, from the root (`/` first)."""
    if name == "playbook_dir":
        return f"/{play}"
    role = _ROLE.match(path)
    return f"/{role.group(1) if role else path.rpartition('/')[0]}"
