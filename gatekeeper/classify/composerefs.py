"""The image builds a Compose file names: `build: {context: svc, dockerfile: ../images/app.build}` makes
`images/app.build` the Dockerfile of a service's image whatever its name (`app.docker`, `images/app.build`), built
from the context folder `svc` (red team 17, tests/test_redteam17_compose_builds.py: a Dockerfile not named as one was
`src`, and an edit of its base image or its RUN lines was allowed). Read as YAML (yamlnodes.documents): each service's
`build` (a string is the context; `dockerfile` defaults to `Dockerfile` in it), and the other Compose files it takes
in (`include:`, `extends: file:`), and the files it hands its containers (a service's `env_file`/`label_file`,
top-level `configs`/`secrets` files). Compose's variables (`${TAG:-dev}`) keep their default; a path with any other
variable names nothing exact but its literal parts (`images/${APP}.docker`: every file they allow, matched by
`matches`); a URL or an absolute path names nothing (another repository, the builder's disk). A Compose file that
interpolates a variable (`image: ${APP_IMAGE}`) takes in the `.env` of its folder, which Compose reads by itself for
the values (red team 14, second round: `APP_IMAGE=evil:1` there swapped the image and `gate --tree` allowed it).
"""

from __future__ import annotations

import posixpath
import re

from gatekeeper.classify.yamlnodes import Node, documents, merged
from gatekeeper.lazy_pattern import lazy

# What names a Compose file on a command's line or in a variable (ciruns.named: `docker compose -f`, COMPOSE_FILE)
_COMPOSE_FILE = lazy(r"\bCOMPOSE_(?:ENV_)?FILES?['\"]?[ \t]*[:=][ \t]*['\"]?([^\s'\"#]+)")
_COMPOSE_OPTIONS = ("-f", "--file", "-c", "--compose-file", "--env-file")  # its settings file too (attack 18)

_NAME = lazy(r"(?:.*[._-])?(?:docker-)?compose(?:[._-].*)?\.ya?ml")
_DEFAULT = lazy(r"\$\{[A-Za-z_][A-Za-z0-9_]*:?[-?]([^}]*)\}")  # `${TAG:-dev}`: the default
_VARIABLE = lazy(r"\$\{[^}]*\}|\$[A-Za-z_][A-Za-z0-9_]*")
# and past a text's last `}`, where no `${…}` closes: the two above tried at each `${` there scan to the end (64 KiB of
# `${`: seconds; cost round 40), so there only the bare name is
_NAMED_VARIABLE = lazy(r"\$[A-Za-z_][A-Za-z0-9_]*")
_UNIT_FOLDERS = ("/etc/systemd/", "/lib/systemd/", "/usr/lib/systemd/", "/run/systemd/")  # where systemd loads units
# and, in a Compose file CI brings up, where an image's entrypoint runs every script at start (postgres, mysql,
# mariadb, mongo; nginx): cireaches.py
_RUN_FOLDERS = (*_UNIT_FOLDERS, "/docker-entrypoint-initdb.d", "/docker-entrypoint.d")
WILD = "\x00"  # a variable part of a named path
MAX_FILES = 2_000  # Compose files read per tree


def is_compose(path: str) -> bool:
    """A Compose file by its name: `compose.yaml`, `docker-compose.prod.yml`, `app.compose.yml`, `stack-compose.yml`."""
    name = path.rpartition("/")[2].lower()
    return "compose" in name and _NAME.fullmatch(name) is not None  # the test first: most paths of a tree fail it


def builds(path: str, text: str, run: bool = False) -> list[tuple[str, str | None]]:
    """(repository path, build context folder) of each Dockerfile the Compose file at `path` builds; a Compose file it
    takes in has the context None (it is no Dockerfile). A path with a variable part holds WILD for it. `run`: a CI
    step brings it up (cireaches.py), so an entrypoint's init-script mount counts too (_bind_sources)."""
    folder = path.rpartition("/")[0]
    out: list[tuple[str, str | None]] = []
    for root in documents(text):
        if not isinstance(root, dict):
            continue
        for services in root.get("services", ()):
            for service in _values(services):
                for build in service.get("build", ()) if isinstance(service, dict) else ():
                    out += _build(folder, build)
                for extends in service.get("extends", ()) if isinstance(service, dict) else ():
                    out += [(file, None) for file in _files(folder, strings(extends, "file"))]
                out += [(file, None) for file in _files(folder, _env_files(service))]  # red team 22
                out += [(file, None) for file in _files(folder, _bind_sources(service, run))]  # the forty-ninth set
        for kind in ("configs", "secrets"):  # files Compose mounts into the containers (`configs: {x: {file:}}`)
            for defined in root.get(kind, ()):
                out += [(file, None) for item in _values(defined) for file in _files(folder, strings(item, "file"))]
        for include in root.get("include", ()):
            items = include if isinstance(include, list) else [include]
            for item in items:
                named = [item] if isinstance(item, str) else strings(item, "path") + strings(item, "env_file")
                out += [(file, None) for file in _files(folder, named)]
    if _has_variable(text.replace("$$", "")):  # `$$` is a literal dollar
        out.append((posixpath.join(folder, ".env"), None))
    return list(dict.fromkeys(out))


def _env_files(service: Node) -> list[str]:
    """A service's `env_file` and `label_file` (a path, a list of paths or of `{path:, required:}`): the container's
    environment and labels, as its `environment:` is (red team 22: `LD_PRELOAD=` there was `src` with the commits)."""
    if not isinstance(service, dict):
        return []
    named = strings(service, "env_file") + strings(service, "label_file")
    for key in ("env_file", "label_file"):
        for value in service.get(key, ()):
            named += [p for item in value if isinstance(item, dict) for p in strings(item, "path")] \
                if isinstance(value, list) else []
    return named


def _bind_sources(service: Node, run: bool) -> list[str]:
    """The host files a service bind-mounts where systemd loads its units (`./k3s.service:/etc/systemd/system/
    k3s.service:ro`, or the long form's `source:` and `target:` beside `type: bind`): the container's init runs them as
    a machine's units (the forty-ninth set's example k3s nodes), or, in a Compose file a CI step brings up (`run`),
    where the image's entrypoint runs every script at start (`./init:/docker-entrypoint-initdb.d`: a folder, every
    file below it; a developer's Compose file keeps its init scripts `src`: the eighteenth set). A relative path only
    (Compose reads a bare word as a named volume). Other mounts are left alone: the settings of an outside app mounted
    into its container (Prometheus', Grafana's, an nginx.conf) are `other` or `src` in the label sets."""
    return [source for source, target in volumes(service)
            if source.startswith(".") and target.startswith(_RUN_FOLDERS if run else _UNIT_FOLDERS)]


def volumes(service: Node) -> list[tuple[str, str]]:
    """(source, target) of each of a service's volumes: the short form `SOURCE:TARGET[:MODE]` (a bare name has the
    target ""), or the long form's `source:` and `target:` beside `type: bind`; other long forms are left out. A
    variable's default stands for it (`${SRC:-.}:/app`: Compose's value where SRC is unset, attack 42)."""
    pairs: list[tuple[str, str]] = []
    for listed in (v for mapping in merged(service) for v in mapping.get("volumes", ())):
        for item in listed if isinstance(listed, list) else ():
            if isinstance(item, str):
                source, _, rest = _DEFAULT.sub(r"\1", item).partition(":")
                pairs.append((source, rest.partition(":")[0]))
            elif isinstance(item, dict) and "bind" in strings(item, "type"):
                pairs.append((_DEFAULT.sub(r"\1", next(iter(strings(item, "source")), "")),
                              next(iter(strings(item, "target")), "")))
    return pairs


def _build(folder: str, build: Node) -> list[tuple[str, str | None]]:
    if isinstance(build, str):
        context, dockerfiles = build, ["Dockerfile"]
    elif isinstance(build, dict):
        context = next(iter(strings(build, "context")), ".")
        dockerfiles = strings(build, "dockerfile") or (["Dockerfile"] if not build.get("dockerfile_inline") else [])
    else:
        return []
    where = _resolved(folder, context)
    if where is None:
        return []
    return [(file, where) for dockerfile in dockerfiles if (file := _resolved(where, dockerfile)) is not None]


def _values(node: Node) -> list[Node]:
    if isinstance(node, dict):
        return [value for values in node.values() for value in values]
    return list(node) if isinstance(node, list) else []


def strings(node: Node, key: str) -> list[str]:
    if not isinstance(node, dict):
        return []
    found: list[str] = []
    for value in node.get(key, ()):
        found += [value] if isinstance(value, str) else [v for v in value if isinstance(v, str)] \
            if isinstance(value, list) else []
    return found


def _has_variable(text: str) -> bool:
    """`_VARIABLE.search(text)`, in time linear in `text`."""
    return _NAMED_VARIABLE.search(text) is not None or -1 < text.find("${") < text.rfind("}")


def _wild(value: str) -> str:
    """`value` with each `${X:-default}` its default and every other variable WILD (`_DEFAULT`, then `_VARIABLE`),
    neither tried past the last `}` (no match crosses it)."""
    closed = value.rfind("}") + 1
    value = _DEFAULT.sub(lambda m: m.group(1), value[:closed]) + value[closed:]
    closed = value.rfind("}") + 1
    return _VARIABLE.sub(WILD, value[:closed]) + _NAMED_VARIABLE.sub(WILD, value[closed:])


def _files(folder: str, written: list[str]) -> list[str]:
    return [file for value in written if (file := _resolved(folder, value)) is not None]


def _resolved(folder: str, value: str) -> str | None:
    """`value` (a Compose path) against `folder`, variables read as Compose reads them; None outside the repository."""
    value = _wild(value.strip())
    if not value or "://" in value or value.startswith(("/", "~", "git@")):
        return None
    path = posixpath.normpath(posixpath.join(folder, value)) if folder else posixpath.normpath(value)
    if path == ".":
        return ""
    return None if path == ".." or path.startswith("../") else path


def command_files(line: str) -> list[str]:
    """The files (a Compose file, its settings file) after `-f`/`--file`/`-c`/`--compose-file`/`--env-file` on a line
    running Compose or `docker stack` (ciruns.named)."""
    words = [word for word in re.split(r"[\s'\"]+", line) if word]
    found: list[str] = []
    for index, word in enumerate(words):
        option, equals, value = word.partition("=")
        if option in _COMPOSE_OPTIONS:
            found.append(value if equals else words[index + 1] if index + 1 < len(words) else "")
        elif re.fullmatch(r"-f\S+", word):
            found.append(word[2:])
    return [value.rstrip(";&|)") for value in found if value]


def compose_file_values(text: str) -> list[str]:
    """The files `COMPOSE_FILE=a.yml:b.yml` (and `COMPOSE_ENV_FILES`) in `text` name."""
    return [part for value in _COMPOSE_FILE.findall(text) for part in re.split(r"[:;,]", value)]


# a `.env`'s whole-line comments, dropped only when no line is continued into one and no here-document holds one
_ENV_COMMENT = lazy(r"^[ \t]*#[^\n]*$", re.M)
_CONTINUED = lazy(r"\\\r?$", re.M)


def uncommented_env(text: str) -> str:
    """A `.env` without its whole-line comments: a comment runs nothing, whether Compose reads the file or a shell
    sources it (heroku's `# This is used by gunicorn.conf.py` made the file ci; the classes57 round). Kept whole when a
    comment line may be something else: a line continued into it, a here-document, a quote a value leaves open."""
    values = _ENV_COMMENT.sub("", text)
    if "<<" in text or _CONTINUED.search(text) or any(line.count('"') % 2 or line.count("'") % 2
                                                      for line in values.splitlines()):
        return text
    return values
