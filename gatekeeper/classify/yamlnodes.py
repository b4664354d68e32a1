"""A YAML file's documents as plain nodes: libyaml's event stream only (nothing is constructed, no recursion, nesting
bounded by libyaml), each document's root kept as plain nodes with aliases shared, never expanded. A document that stops
parsing counts with what it showed before the error (fail closed: kubectl may apply the documents before it).
The readers of YAML files (yamlroots.py, composerefs.py, kustomizerefs.py, gitlabincludes.py, localactions.py) take
their roots from here; the CI walk's readers take a definition's folded and quoted strings (`folded_strings`).
"""

from __future__ import annotations

import base64
import binascii
import re

import yaml

# The C parser: 20 times faster than PyYAML's own on the same events (1 MiB: 0.2 s against 4 s).
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_BINARY = "tag:yaml.org,2002:binary"

Node = str | list["Node"] | dict[str, list["Node"]] | None  # scalar, sequence, mapping (every value of a key)


def documents(text: str) -> list[Node]:
    """The root node of each document of `text`, as far as libyaml reads it."""
    roots: list[Node] = []
    anchors: dict[str, Node] = {}
    # (node being built, the key waiting for its value in a mapping)
    stack: list[tuple[list[Node] | dict[str, list[Node]], Node | _Pending]] = []

    def add(node: Node) -> None:
        if not stack:
            roots.append(node)
            return
        parent, key = stack[-1]
        if isinstance(parent, list):
            parent.append(node)
        elif isinstance(key, _Pending):
            stack[-1] = (parent, node)  # this node is a key: its value comes next
        else:
            parent.setdefault(key if isinstance(key, str) else "", []).append(node)
            stack[-1] = (parent, _PENDING)

    try:
        for event in yaml.parse(text, Loader=_LOADER):
            if isinstance(event, yaml.ScalarEvent):
                value = _scalar(event)
                if event.anchor:
                    anchors[event.anchor] = value
                add(value)
            elif isinstance(event, yaml.AliasEvent):
                add(anchors.get(event.anchor or ""))
            elif isinstance(event, yaml.MappingStartEvent | yaml.SequenceStartEvent):
                node: list[Node] | dict[str, list[Node]] = {} if isinstance(event, yaml.MappingStartEvent) else []
                add(node)
                if event.anchor:
                    anchors[event.anchor] = node  # filled in place: an alias after its end sees it whole
                stack.append((node, _PENDING))
            elif isinstance(event, yaml.MappingEndEvent | yaml.SequenceEndEvent):
                stack.pop()
            elif isinstance(event, yaml.DocumentStartEvent):
                anchors.clear()  # anchors do not cross documents
    except yaml.YAMLError:
        pass  # what was read before the error counts (see the module docstring)
    return roots


class _Pending:
    """The mark of a mapping waiting for its next key."""


_PENDING = _Pending()


def _scalar(event: yaml.ScalarEvent) -> str:
    if event.tag == _BINARY:  # go-yaml (kubectl) decodes a !!binary scalar to the string it encodes
        try:
            return base64.b64decode("".join(event.value.split()), validate=True).decode("utf-8", "replace")
        except (binascii.Error, ValueError):
            return event.value
    return event.value


def values_under(text: str, key: str) -> list[Node]:
    """Every value of `key` in a mapping at any depth of any document of `text`, in no set order. Each node is
    looked into once: aliases share nodes (and may hold themselves), so however often a file repeats them the
    work stays proportional to its length."""
    found: list[Node] = []
    seen: set[int] = set()
    stack: list[Node] = list(documents(text))
    while stack:
        node = stack.pop()
        if not isinstance(node, dict | list) or id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, dict):
            found += node.get(key, ())
            stack.extend(value for values in node.values() for value in values)
        else:
            stack.extend(node)
    return found


# The words of the keys whose values a CI system, a task runner or a container runs as commands (GitHub's `run`,
# GitLab's and Bitbucket's `script`, Travis' `before_install`, Cirrus' `test_script`, AppVeyor's `on_success`, Drone's
# and CodeBuild's `commands`, Taskfile's `cmds`, Compose's `entrypoint`, Kubernetes' `args`, Ansible's `shell`/`raw`,
# a dev container's `postCreateCommand`, GoReleaser's `hooks: pre`, composer's and Heroku's `scripts`, deno's `tasks`,
# Concourse's `run: path:`, Taskfile's `status`/`preconditions`): a quoted scalar below a key with one of these words
# is read again as a command line; below other keys only (`package-ecosystem: 'npm'`) it is data (determinism 45)
COMMAND_WORDS = frozenset({
    "run", "runs", "script", "scripts", "cmd", "cmds", "command", "commands", "entry", "entrypoint", "args",
    "arguments", "sh", "bash", "bat", "pwsh", "powershell", "shell", "raw", "exec", "execute", "install", "init",
    "build", "test", "deploy", "release", "publish", "task", "tasks", "hook", "hooks", "pre", "post", "before", "after",
    "success", "failure", "finish", "setup", "teardown", "prologue", "epilogue", "status", "preconditions", "prepare",
    "inline", "filepath", "scriptpath", "scriptfile", "predeploy", "postdeploy", "prebuild", "postbuild", "lint",
    "check", "start",
    # keys that hand their values to what runs (review 69b): an action's `with:` inputs (a retry action's `command`,
    # any action's `program`), an Azure task's `inputs:` (`filePath`), a template's or job's `parameters:` and their
    # `default:`, DevSpace's `pipelines:`
    "with", "inputs", "parameters", "params", "default", "pipeline", "pipelines",
})
_KEY_WORD = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")  # `postCreateCommand`, `before_script`, `test-cmd`
# The names a definition refers to a value by (review 69b): an expression's `parameters.NAME`, `inputs.NAME`,
# `env.NAME`, `vars.NAME`, `variables.NAME`, `matrix.NAME`, a variable `$NAME`/`${NAME}`/`$(NAME)`, GitLab's
# `!reference [.job, NAME]`: a quoted value below such a key reaches a command, whatever the key's words
_REFERS = re.compile(r"\b(?:parameters|params|inputs|env|vars|variables|matrix)\.([\w-]{1,200})"
                     r"|\$[{(]?([A-Za-z_]\w{0,200})|!reference[ \t]*+\[([^\]\n]{0,2000}+)")


def runs_key(key: str) -> bool:
    """Whether a mapping key's words name commands (COMMAND_WORDS)."""
    return any(word.lower() in COMMAND_WORDS for word in _KEY_WORD.findall(key))


def _runs_directly(key: str) -> bool:
    """Whether a key's value is a command by the key's last word (`build_script`, `after_success`, `commands`, `bash`;
    not `runs-on`, `run-name`: review 70)."""
    words = _KEY_WORD.findall(key)
    return bool(words) and words[-1].lower() in COMMAND_WORDS


def referred(text: str) -> frozenset[str]:
    """The names (casefolded) `text` refers to a value by (_REFERS: `${{ inputs.NAME }}`, `$NAME`, `!reference`)."""
    names: set[str] = set()
    for dotted, variable, reference in _REFERS.findall(text):
        names.update(part.strip().strip("'\"").casefold() for part in [dotted, variable, *reference.split(",")])
    names.discard("")
    return frozenset(names)


def folded_strings(text: str, quoted_data: bool = True) -> list[str]:
    """Every multi-word or decoded string of `text`'s YAML documents (a folded `run: >`, an escaped quoted scalar), as
    far as libyaml reads them: the CI walk reads each again as one line (ciruns.named, ciwalk's tool settings). Without
    `quoted_data`, a quoted scalar only below a key that runs commands (runs_key) or below no key (a root list: fail
    closed), not a data value's (`package-ecosystem: 'npm'` is no command `npm`: determinism 45); also below a key the
    text refers to by name (referred) and below an anchor (an alias may stand below a command key: review 69b)."""
    out: list[str] = []
    names = frozenset() if quoted_data else referred(text)
    # per open collection: [a mapping, its next node is a key, the key its value stands under, below a command key,
    # a list that is a command key's own value]
    stack: list[list[object]] = []
    try:
        for event in yaml.parse(text, Loader=_LOADER):
            if isinstance(event, yaml.DocumentStartEvent):
                stack.clear()
            if not isinstance(event, yaml.NodeEvent):
                if isinstance(event, yaml.CollectionEndEvent) and stack:
                    stack.pop()
                continue
            # a root scalar, a root list's items: no key says they are data; a root mapping's values: their keys say
            commands = not isinstance(event, yaml.MappingStartEvent)
            direct = False  # a command key's own value, or an item of its list (`build_script: make release`)
            if stack:
                top = stack[-1]
                commands = bool(top[3])
                direct = not top[0] and bool(top[4])
                if top[0]:
                    if not top[1]:  # a value: its key's words count
                        direct = _runs_directly(str(top[2]))
                        commands = commands or runs_key(str(top[2])) or str(top[2]).casefold() in names
                    if top[1]:  # a key: what its value stands under
                        top[2] = event.value if isinstance(event, yaml.ScalarEvent) else ""
                    top[1] = not top[1]
            commands = commands or bool(event.anchor)  # an alias of it may stand below any key (review 69b)
            if isinstance(event, yaml.CollectionStartEvent):
                stack.append([isinstance(event, yaml.MappingStartEvent), True, "", commands, direct])
            # not a literal block (`run: |`): its lines are the text's own lines, read already (red team 19: reading
            # them twice was a third of the reader's CPU); a plain scalar over several lines is folded as `>` is
            # (`run: release-plz release` and `--config x.toml` on the next, more indented line: attack 30); a plain
            # one-line command of a key the line readers do not know (`build_script: make release`, `commands: x y`,
            # `after_script: [make x]`) is read alone as its line (review 70)
            elif isinstance(event, yaml.ScalarEvent) and (
                    event.style == ">" or (event.style in ('"', "'") and (quoted_data or commands)) or (
                    not event.style and (_line(event.start_mark) != _line(event.end_mark)
                                         or direct and " " in event.value))):
                out.append(event.value)
    except yaml.YAMLError:
        pass
    return out


def _line(mark: object) -> int:
    """The line a YAML event's mark stands on (-1 without one)."""
    line = getattr(mark, "line", -1)
    return line if isinstance(line, int) else -1


def merged(node: Node) -> list[dict[str, list[Node]]]:
    """`node` (a mapping) and the mappings its merge keys take in (`<<: *defaults`, `<<: [*a, *b]`), its own first,
    as YAML 1.1's merge keys read (Compose reads a service's keys through them, Travis' parser a job's). Each mapping
    once (aliases are shared nodes: a file of merges of merges stays linear)."""
    out: list[dict[str, list[Node]]] = []
    seen: set[int] = set()
    todo = [node]
    while todo:
        item = todo.pop()
        if isinstance(item, list):
            todo += reversed(item)
        elif isinstance(item, dict) and id(item) not in seen:
            seen.add(id(item))
            out.append(item)
            todo += reversed(item.get("<<", []))
    return out
