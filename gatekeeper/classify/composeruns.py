"""What `docker compose run SERVICE CMD` and `up` run of the checkout (issue 12: the cileft68 and cileft69 rounds).

`docker compose run app ./test.sh` runs the service's `./test.sh` in its `working_dir:`; where the service mounts the
checkout (`volumes: [".:/app"]`, `./sub:/work`, `{type: bind, source: ., target: /app}`), that is the tree's file
below the mount's source: `sub/test.sh` for `./sub:/work` with `working_dir: /work`, `ci/x.sh` for `/app/ci/x.sh`
under `.:/app`. The walk read the command's words from the root only. `localized(text, services)` adds, after each
such line, the command with its words written as the tree's paths, and the walk reads it as it reads any line. A
service without such a mount runs its image's files (nothing added); so do `docker compose build`, `pull`. `run
SERVICE` without a command, and each service `up` starts (those it names, else every one), run the service's own
`entrypoint:` and `command:` (cileft69); `run SERVICE CMD` runs its entrypoint before CMD.

The Compose files are those `-f` names, merged in order, else the root's default file and its override file (attack
42); a file past its bound or that does not parse gives no services (the line is read as before: the root's paths).
`docker compose exec`, `docker-compose`, `podman compose`, `podman-compose` are the same forms.
"""

from __future__ import annotations

import posixpath
import re
import shlex
from collections.abc import Callable, Mapping

from gatekeeper.classify import composerefs, shellwords, wrappers
from gatekeeper.classify.sniff import FULL_READ
from gatekeeper.classify.yamlnodes import Node, documents, merged
from gatekeeper.gitobjects import TreeEntry
from gatekeeper.lazy_pattern import lazy

__all__ = ["DEFAULTS", "MAX_LINES", "Service", "localized", "services_in"]

DEFAULTS = ("compose.yaml", "compose.yml", "docker-compose.yaml", "docker-compose.yml")
_OVERRIDES = ("compose.override.yaml", "compose.override.yml", "docker-compose.override.yaml",
              "docker-compose.override.yml")
MAX_LINES = 256  # compose run lines a text may have rewritten; past it the rest are read as before
# ((tree folder, container folder) per checkout mount), working_dir, its entrypoint's words, its command's words
Service = tuple[tuple[tuple[str, str], ...], str, tuple[str, ...], tuple[str, ...]]
_MAY = lazy(r"compose\b[^\n]{0,512}?[ \t](?:run|exec|up)(?:[ \t]|$)", re.MULTILINE)
_LAUNCHERS = (("docker", "compose"), ("podman", "compose"), ("docker-compose",), ("podman-compose",))
# options of `compose` and of `run`/`exec` that take a value (`-f FILE`, `-e K=V`, `-w DIR`): the service follows them
_VALUED = frozenset({"-f", "--file", "-p", "--project-name", "--project-directory", "--env-file", "--profile", "-e",
                     "--env", "-w", "--workdir", "-u", "--user", "--entrypoint", "-v", "--volume", "-l", "--label",
                     "--name", "--publish", "--index", "--cap-add", "--cap-drop", "--pull"})
# `up`'s options that take a value (`--exit-code-from app`, `-t 30`): the services it starts are its other operands
_UP_VALUED = frozenset({"--exit-code-from", "--scale", "-t", "--timeout", "--wait-timeout", "--attach", "--no-attach",
                        "--pull"})
_SEPARATORS = frozenset({"&&", "||", "|", ";", "then", "do", "else", "(", "{", "!"})
_CHECKOUT = ("${PWD}", "$PWD", "${GITHUB_WORKSPACE}", "$GITHUB_WORKSPACE", "${CI_PROJECT_DIR}", "$CI_PROJECT_DIR")


def services_in(text: str) -> dict[str, Service]:
    """{service: its checkout mounts, working_dir, entrypoint and command, where it sets any} of a
    Compose file's text (read as composerefs reads one: yamlnodes' plain nodes, aliases never expanded, every document
    and every value of a repeated key); a service `extends:` another of the file takes its mounts, and its working_dir,
    entrypoint and command where it sets none (attack 42, cileft69); {} past FULL_READ."""
    if len(text) >= FULL_READ:
        return {}
    found: dict[str, Service] = {}
    bases: dict[str, str] = {}
    shared: dict[str, list[str]] = {}  # the services whose volumes a service takes (`volumes_from:`, attack 43)
    for root in documents(text):
        for services in root.get("services", ()) if isinstance(root, dict) else ():
            for name, values in services.items() if isinstance(services, dict) else ():
                for service in values:
                    mounts = tuple(m for pair in composerefs.volumes(service) if (m := _mount(*pair)) is not None)
                    workdirs = [w for m in merged(service) for w in composerefs.strings(m, "working_dir")]
                    before = found.get(name, ((), "", (), ()))
                    found[name] = _joined(before, (mounts, workdirs[0] if workdirs else "",
                                                   _words(service, "entrypoint"), _words(service, "command")))
                    bases.update((name, base) for base in _extended(service))
                    shared.setdefault(name, []).extend(_volumes_from(service))
    for name, base in bases.items():
        chain = [name]
        while (base := bases.get(chain[-1], "")) in found and base not in chain and len(chain) < 8:
            chain.append(base)
        mounts = tuple(m for link in chain for m in found[link][0])
        # the service's own working_dir, entrypoint and command, else the nearest base's
        workdir = next((found[link][1] for link in chain if found[link][1]), "")
        entrypoint = next((found[link][2] for link in chain if found[link][2]), ())
        command = next((found[link][3] for link in chain if found[link][3]), ())
        found[name] = (mounts, workdir, entrypoint, command)
    for name in shared:  # each service's mounts and those of the services it takes volumes from, 8 links deep
        chain, pending = [name], list(shared[name])
        while pending and len(chain) < 8:
            if (source := pending.pop(0)) not in chain:
                chain.append(source)
                pending += shared.get(source, [])
        own: Service = found.get(name, ((), "", (), ()))
        mounts = tuple(m for link in chain if link in found for m in found[link][0])
        found[name] = (mounts, own[1], own[2], own[3])
    return {name: service for name, service in found.items() if any(service)}  # a later -f file may set only one


def _joined(before: Service, after: Service) -> Service:
    """A service as a later definition (another document, a later `-f` file) leaves it: its mounts added, the other
    keys the later one's where it sets them."""
    return (before[0] + after[0], after[1] or before[1], after[2] or before[2], after[3] or before[3])


def _extended(service: object) -> list[str]:
    """The service of the same file that `service` extends (`extends: base`, `extends: {service: base}` without a
    `file:`)."""
    out = []
    for mapping in merged(service) if isinstance(service, dict) else ():
        for value in mapping.get("extends", ()):
            if isinstance(value, str):
                out.append(value)
            elif isinstance(value, dict) and not composerefs.strings(value, "file"):
                out += composerefs.strings(value, "service")
    return out


def _volumes_from(service: object) -> list[str]:
    """The services of the file whose volumes `service` mounts (`volumes_from: [src, "src:ro", "service:src"]`; not
    `container:NAME`, a container Compose does not define)."""
    out = []
    for mapping in merged(service) if isinstance(service, dict) else ():
        for value in composerefs.strings(mapping, "volumes_from"):
            kind, _, rest = value.partition(":")
            name = rest.partition(":")[0] if kind in ("service", "container") else kind
            out += [name] if kind != "container" and name else []
    return out


def localized(text: str, tree: Mapping[str, TreeEntry], read_blob: Callable[[TreeEntry], bytes]) -> str:
    """`text` with, after each `compose run|exec SERVICE CMD` line whose service mounts the checkout, the command's
    words written as the tree's paths."""
    if _MAY.search(text) is None:
        return text
    files: dict[str, dict[str, Service]] = {}
    out, added = [], 0
    for line in text.splitlines(keepends=True):
        out.append(line)
        if added < MAX_LINES and _MAY.search(line) is not None:
            extra = _rewritten(line, files, tree, read_blob)
            added += extra is not None
            # a comment line: valid YAML wherever it stands (after a quoted scalar too); the walk reads its words
            indent = line[:len(line) - len(line.lstrip())]
            out += [f"{'' if line.endswith(chr(10)) else chr(10)}{indent}# {extra}\n"] if extra is not None else []
    return "".join(out)


def _rewritten(line: str, files: dict[str, dict[str, Service]], tree: Mapping[str, TreeEntry],
               read_blob: Callable[[TreeEntry], bytes]) -> str | None:
    try:
        words = shellwords.split(line, comments=True)
    except ValueError:
        words = line.split()
    for at in range(len(words)):
        launcher = next((n for n in _LAUNCHERS if tuple(words[at:at + len(n)]) == n), None)
        if launcher is None or not _commanding(words[:at + 1]):
            continue
        start = at + len(launcher)
        named: list[str] = []
        subcommand, start = _next_word(words, start, named)
        if subcommand not in ("run", "exec", "up"):
            continue
        if subcommand == "up":  # each service it starts runs its own entrypoint and command (cileft69)
            operands = _up_services(words[start:])
            composed = {name: service for name, service in _services(named, files, tree, read_blob).items()
                        if service[0]}  # a service without a checkout mount runs its image's files
            commands = [_own(composed[service]) for service in operands or list(composed) if service in composed]
            return " ; ".join(command for command in commands if command) or None
        service, start = _next_word(words, start, named)
        composed = _services(named, files, tree, read_blob)
        if service not in composed or not composed[service][0]:
            continue
        mounts, workdir, entrypoint, _ = composed[service]
        given = words[start:]
        if not given or given[0] in _SEPARATORS or given[0].startswith(("#", ";")):  # `run app`: its own command
            return _own(composed[service]) if subcommand == "run" else None
        mapped = [_mapped(word, mounts, workdir) for word in ([*entrypoint, *given] if subcommand == "run" else given)]
        return " ".join(shlex.quote(word) for word in mapped) if mapped else None
    return None


def _own(service: Service) -> str:
    """A service's own entrypoint and command, its words written as the tree's paths."""
    mounts, workdir, entrypoint, command = service
    return " ".join(shlex.quote(_mapped(word, mounts, workdir)) for word in (*entrypoint, *command))


def _up_services(words: list[str]) -> list[str]:
    """The services `up` names (its operands to the command's end); none: every service."""
    services, at = [], 0
    while at < len(words) and words[at] not in _SEPARATORS and not words[at].endswith(";"):
        word = words[at]
        at += 2 if word in _UP_VALUED else 1
        if not word.startswith("-"):
            services.append(word)
    return services


def _commanding(words: list[str]) -> bool:
    """Is the last of `words` where a command stands (after a separator, a YAML key or item, the table's wrappers),
    not an `echo`'s operand?"""
    start = max((at + 1 for at, word in enumerate(words[:-1]) if word in _SEPARATORS or word.endswith((";", ":"))
                 or word == "-"), default=0)
    return wrappers.command_start([*words[start:-1], "true"]) == len(words) - 1 - start  # what stands before it


def _next_word(words: list[str], at: int, named: list[str]) -> tuple[str, int]:
    """The next operand from `at` past options (their values: `-f`'s collected in `named`), and where after it."""
    while at < len(words):
        word = words[at]
        if word in _VALUED:
            if word in ("-f", "--file") and at + 1 < len(words):
                named.append(words[at + 1])
            at += 2
        elif word.startswith("-"):
            if word.startswith("--file="):
                named.append(word.removeprefix("--file="))
            at += 1
        else:
            return word, at + 1
    return "", at


def _services(named: list[str], files: dict[str, dict[str, Service]], tree: Mapping[str, TreeEntry],
              read_blob: Callable[[TreeEntry], bytes]) -> dict[str, Service]:
    """The services of the files `-f` names, merged in order (a later file adds mounts, sets working_dir), else of
    the root's default file and its override file, which Compose merges by default (attack 42)."""
    names = [posixpath.normpath(name) for name in named] or [
        next((name for name in DEFAULTS if name in tree), DEFAULTS[0]),
        next((name for name in _OVERRIDES if name in tree), _OVERRIDES[0])]
    found: dict[str, Service] = {}
    for name in names:
        if name not in files:
            entry = tree.get(name)
            read = services_in(read_blob(entry)[:FULL_READ].decode("utf-8", "replace")) \
                if entry is not None and entry.mode in ("100644", "100755") else {}
            # Compose reads a volume's relative source from its file's folder
            folder = posixpath.dirname(name)
            files[name] = {service: (tuple((source, target) for mount_source, target in mounts
                                           if not (source := posixpath.normpath(posixpath.join(folder, mount_source)))
                                           .startswith("..")), workdir, entrypoint, command)
                           for service, (mounts, workdir, entrypoint, command) in read.items()}
        for service, read_service in files[name].items():
            found[service] = _joined(found.get(service, ((), "", (), ())), read_service)
    return found


def _words(service: Node, key: str) -> tuple[str, ...]:
    """A service's `entrypoint:` or `command:` as words: a list's items, a string split as a shell does (its first)."""
    for mapping in merged(service):
        for value in mapping.get(key, ()):
            if isinstance(value, list):
                return tuple(item for item in value if isinstance(item, str))
            if isinstance(value, str):
                try:
                    return tuple(shellwords.split(value))
                except ValueError:
                    return tuple(value.split())
    return ()


def _mount(source: str, target: str) -> tuple[str, str] | None:
    """(the tree folder, the container folder) of a volume that mounts the checkout, else None."""
    for mark in _CHECKOUT:
        if source == mark or source.startswith(f"{mark}/"):
            source = "." + source.removeprefix(mark)
    if not (source in (".", "..") or source.startswith(("./", "../"))) or not target.startswith("/"):
        return None  # a named volume, an absolute host folder, the docker socket
    return posixpath.normpath(source), posixpath.normpath(target)


def _mapped(word: str, mounts: tuple[tuple[str, str], ...], workdir: str) -> str:
    """`word` as the tree's path: below a mount's target, or relative from a working_dir below one."""
    if word.startswith("/"):
        absolute = posixpath.normpath(word)
    elif workdir.startswith("/") and not word.startswith(("-", "$")) and ("/" in word or "." in word):
        absolute = posixpath.normpath(posixpath.join(workdir, word))
    else:
        return word
    for source, target in mounts:
        if absolute == target or absolute.startswith(f"{target.rstrip('/')}/"):
            rest = absolute[len(target.rstrip("/")):].lstrip("/")
            return "./" + posixpath.normpath(posixpath.join(source, rest)).removeprefix("./")
    return word
