"""The settings files a CI command hands a release or pipeline tool by path (issue 12, tests/test_ci_tool_settings.py).

A workflow step `goreleaser release --config tools/release.yaml` builds, signs and publishes what that file says, and
the commands its `hooks` name run in CI; `release-please --config-file X --manifest-file Y` decides the releases CI
cuts; `gcloud builds submit --config X` runs the Cloud Build pipeline X is; `catalog-cd ... --config X` lists the
repositories whose tasks CI publishes; `supervisord -c X`, `honcho start -f X`, `uwsgi --ini X` run the commands X lists
(attack 40); `dotnet test --settings X` runs with the adapters and collectors X loads, `alembic upgrade` runs the env.py
its `alembic.ini` names (cileft69); `go-licenses report --template X`, `pandoc --template X`, trivy's `--template @X`
render with X, `visor --config X` runs X's command checks (cileft70). Under a name or folder no rule knows, such a file
was `src` or `other`. With `--tree`, ciwalk.py makes each file these commands name `ci` (`ci.context.ci-run`) and
reads it as a file CI runs.

Only these tools (_TOOLS), never every `--config`: a scan of every labelled repository's CI definitions (label sets
1 to 45, docs/classification.md "Settings a CI step hands a tool") found linters' and test tools' settings
(`.golangci.json`, chart-testing's `ct.yaml`, `lychee.toml`, `asv.conf.json`, updatecli values) labelled `other`
there, against one `ci` file the current rules missed. Deploy tools' files are deployruns.py's (`iac`).

Each command where a command stands (deployruns.py's segments: after `&&`, `;`, `|`, `$(`, `sudo`, `npx`, an
assignment), and wherever a command names a tool (`timeout 600 goreleaser`, `docker run ... goreleaser/goreleaser`,
`go run github.com/goreleaser/goreleaser/v2@latest`; attack 29); goreleaser-action's `args:`; a commented line names
nothing; a wholly variable value (`$X`, `${X}`, `${{ env.X }}`) is each value the same text sets X to, else nothing
(no path to match); a value with a variable part is a pattern (ciruns.ANY).
"""

from __future__ import annotations

import re

from gatekeeper.classify import wrappers
from gatekeeper.classify.enclosures import GITHUB_EXPRESSION as _EXPRESSION
from gatekeeper.classify.pipinstalls import path_pattern
from gatekeeper.lazy_pattern import lazy

__all__ = ["may_name", "named", "script_env"]

# the subcommands that run a migration environment's env.py (`history`, `heads`, `show` read the versions only)
_ALEMBIC_RUNS = frozenset({"upgrade", "downgrade", "current", "check", "stamp", "revision"})
# tool: (a word one of which must follow it, none for any; the options whose value is a settings file it runs from)
_TOOLS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "goreleaser": (frozenset(), frozenset({"--config", "-f"})),
    "release-please": (frozenset(), frozenset({"--config-file", "--manifest-file"})),
    "gcloud": (frozenset({"builds"}), frozenset({"--config", "--build-config", "--inline-config"})),
    "catalog-cd": (frozenset(), frozenset({"--config"})),
    # cfgarg2: the release module semantic-release loads, what docker bake builds and pushes, the cluster kind makes
    # for the tests, what skaffold and tilt build and deploy, release-it's and JReleaser's hooks, what release-plz
    # publishes, the flags (and status command) a CI build of Bazel runs with
    "semantic-release": (frozenset(), frozenset({"--extends", "-e"})),
    "docker": (frozenset({"bake"}), frozenset({"-f", "--file"})),
    "docker-buildx": (frozenset({"bake"}), frozenset({"-f", "--file"})),
    "kind": (frozenset({"create"}), frozenset({"--config"})),
    "skaffold": (frozenset(), frozenset({"-f", "--filename"})),
    "tilt": (frozenset(), frozenset({"-f", "--file"})),
    "release-it": (frozenset(), frozenset({"--config", "-c"})),
    "release-plz": (frozenset(), frozenset({"--config"})),
    "jreleaser": (frozenset(), frozenset({"--config-file"})),
    "bazel": (frozenset(), frozenset({"--bazelrc"})),
    # attack 40: a process manager runs the commands its file lists (supervisord's `command=`, a Procfile's lines,
    # uWSGI's hooks), under an image's etc/ overlay too (other.image-server-settings)
    "supervisord": (frozenset(), frozenset({"-c", "--configuration"})),
    "honcho": (frozenset(), frozenset({"-f", "--procfile"})),
    "foreman": (frozenset(), frozenset({"-f", "--procfile"})),
    "overmind": (frozenset(), frozenset({"-f", "--procfile"})),
    "uwsgi": (frozenset(), frozenset({"--ini", "--yaml", "--yml", "--json", "--xml", "--config"})),
    # cileft69: the run settings `dotnet test` runs with (the test adapters and data collectors it loads, the
    # environment it sets)
    "dotnet": (frozenset({"test"}), frozenset({"--settings", "-s"})),
    # cileft69: the alembic.ini whose `script_location` holds the env.py Alembic runs (script_env)
    "alembic": (_ALEMBIC_RUNS, frozenset({"-c", "--config"})),
    # cileft70: the template a report or notice tool renders its output with (nats.go's `go-licenses report ./...
    # --template dependencies.tpl`); trivy's names a file only as `@FILE` (else it is the template's text)
    "go-licenses": (frozenset({"report"}), frozenset({"--template", "-template"})),
    "pandoc": (frozenset(), frozenset({"--template"})),  # `-t` is pandoc's output format
    "trivy": (frozenset(), frozenset({"--template", "-t"})),
    "grype": (frozenset(), frozenset({"--template", "-t"})),
    "syft": (frozenset(), frozenset({"--template", "-t"})),
    # cileft70: the checks visor (probelabs) runs: a `type: command` check's `exec:` is a shell script
    "visor": (frozenset(), frozenset({"--config", "-c"})),
}
_AT_FILES = frozenset({"trivy"})  # tools whose option value names a file only after `@` (cileft70)
# a segment whose command prints its words names no tool's file (`echo go-licenses report --template x`; cileft70)
_PRINTS = frozenset({"echo", "printf"})
# cileft68: the file a tool runs from when no option names one, and the subcommands that run it (`honcho start`,
# `foreman start`, `overmind start`/`s` run the Procfile of the folder they start in; `honcho run CMD` runs CMD only,
# `honcho export` writes init scripts from it); an empty set: any invocation (supervisord reads `supervisord.conf`, then
# `etc/supervisord.conf`, of its folder before /etc's)
_DEFAULTS: dict[str, tuple[frozenset[str], tuple[str, ...]]] = {
    "honcho": (frozenset({"start"}), ("Procfile",)),
    "foreman": (frozenset({"start"}), ("Procfile",)),
    "overmind": (frozenset({"start", "s"}), ("Procfile",)),
    "supervisord": (frozenset(), ("supervisord.conf", "etc/supervisord.conf")),
    "alembic": (_ALEMBIC_RUNS, ("alembic.ini",)),
    "visor": (frozenset(), (".visor.yaml", ".visor.yml")),  # cileft70: visor's own default
}
_DEFAULT_TOOLS = frozenset(_DEFAULTS)
_MAY_NAME = lazy(r"\b(?:goreleaser|release-please|gcloud|catalog-cd|semantic-release|bake|kind|skaffold|tilt|"
                 r"release-it|release-plz|jreleaser|bazel(?:isk)?|supervisord|honcho|foreman|overmind|uwsgi|dotnet|"
                 r"alembic|go-licenses|pandoc|trivy|grype|syft|visor)\b")
_SEGMENTS = lazy(r"&&|\|\||[;&|(`{]|\$\(|\b(?:then|do|else)\b")
_LINE_START = lazy(r"""^[ \t]*(?:-[ \t]+)?(?:(?:[\w.-]+|"[^"\n]*")[ \t]*:[ \t]+(?:[|>][-+]?[ \t]*)?)?"""
                         r"""(?:-[ \t]+)?"?""")
_WORDS = lazy(r"""[^\s'"`)]+""")
# a line continued on the next: sh's backslash, PowerShell's backtick, cmd's caret at the line's end (attack 30)
_CONTINUED = lazy(r"[\\`^][ \t]*\r?\n")
# An action's inputs that are its tool's arguments or settings files: goreleaser-action's `with: args:` (attack 29);
# release-please-action's files, docker/bake-action's `files:`, helm/kind-action's `config:`, semantic-release-action's
# `extends:` (cfgarg2). {part of the `uses:` value: {input: the command it stands for ("... " takes the arguments)}}
_ACTIONS: dict[str, dict[str, str]] = {
    "goreleaser-action": {"args": "goreleaser "},
    "release-please-action": {"config-file": "release-please --config-file",
                              "manifest-file": "release-please --manifest-file"},
    "/bake-action": {"files": "docker buildx bake -f"},
    "/kind-action": {"config": "kind create cluster --config"},
    "semantic-release-action": {"extends": "semantic-release --extends"},
}
_MAY_USE = lazy("|".join(map(re.escape, _ACTIONS)))
_ITEM = lazy(r"([ \t]*)-[ \t]")
# The dash is read with the blanks after it: `[ \t]*-?[ \t]*` split a line of blanks every way (8 KiB: 0.7 CPU-s).
_ACTION_INPUT = lazy(r"([ \t]*(?:-[ \t]*)?)([\w-]+)[ \t]*:[ \t]*(?:[>|][-+]?[ \t]*\Z)?(.*)")
# a tool named by a module or image: `go run github.com/goreleaser/goreleaser/v2@latest`, `goreleaser/goreleaser:v2`
_VERSION_PART = lazy(r"v\d+")
# a value set by a shell assignment or a YAML key (a step's `env:`), for a path handed as `$NAME` (attack 29)
_SET = lazy(r"""(?:^|[\s;])(?:export[ \t]+)?([A-Za-z_]\w*)=["']?([^\s;'"]+)|"""
                  r"""^[ \t]*(?:-[ \t]+)?([A-Za-z_]\w*)[ \t]*:[ \t]*["']?([^\s'"#]+)["']?[ \t]*$""", re.MULTILINE)
_SCRIPT_LOCATION = lazy(r"(?m)^[ \t]*+script_location[ \t]*+[=:][ \t]*+([^\n;#]++)")
_VARIABLE = lazy(r"\$([A-Za-z_]\w*)")
_BRACED = lazy(r"\$\{\{\s*env\.([A-Za-z_]\w*)\s*\}\}|\$\{([A-Za-z_]\w*)\}")  # `${{ env.X }}`, `${X}`: `$X`
_ALIASES = {"goreleaser-pro": "goreleaser", "goreleaser-cross": "goreleaser", "goreleaser-cross-pro": "goreleaser",
            "bazelisk": "bazel", "jreleaser-native": "jreleaser"}


def may_name(text: str) -> bool:
    """`text` names one of the tools somewhere (the cheap first test)."""
    return _MAY_NAME.search(text) is not None


def named(text: str) -> list[str]:
    """The path patterns (pipinstalls.path_pattern) of the settings files the tools' commands in `text` are handed, in
    order, each once."""
    found: list[str] = []
    if _MAY_USE.search(text) is not None:
        text = _action_args(text)
    text = _BRACED.sub(lambda hit: f"${hit[1] or hit[2]}", text)
    for line in _CONTINUED.sub(" ", _EXPRESSION.sub("$x", text)).splitlines():
        if not _MAY_NAME.search(line) or line.lstrip().startswith("#"):
            continue
        for segment in _SEGMENTS.split(_LINE_START.sub("", line, count=1)):
            words = _WORDS.findall(segment)
            # the first word naming a tool, wherever it stands (`timeout 600 goreleaser`, `bash -c 'goreleaser ..'`,
            # `docker run ... goreleaser/goreleaser`, `go run github.com/goreleaser/goreleaser/v2@latest`; attack 29)
            start = wrappers.command_start(words) if _DEFAULT_TOOLS & {_tool(w) for w in words} else -1
            lead = start if start >= 0 else wrappers.command_start(words)
            if 0 <= lead < len(words) and words[lead] in _PRINTS:
                continue
            # each, not the first only: `docker run ... goreleaser/goreleaser`; each tool's words end where the next
            # tool's start (a line repeating a tool's name read every word after each: quadratic, cileft70)
            tools = [at for at, word in enumerate(words) if _tool(word) in _TOOLS]
            for at, end in zip(tools, [*tools[1:], len(words)][:len(tools)], strict=True):
                # a Python module run as the command (`python -m alembic`) commands too; past 16 leading words the
                # prefix is not parsed (bounded work) and the module commands (fail closed)
                found += _handed(_tool(words[at]), words[at + 1:end], at == start or (
                    at >= 2 and words[at - 1] == "-m" and _tool(words[at - 2]).startswith("python")
                    and (at > 18 or wrappers.command_start([*words[:at - 2], "true"]) == at - 2)))
    if any(_VARIABLE.fullmatch(word) for word in found):
        values: dict[str, list[str]] = {}
        for hit in _SET.finditer(text):
            values.setdefault(hit[1] or hit[3], []).append(hit[2] or hit[4])
        found = [value for word in found for value in _value(word, values)]
    patterns = [path_pattern(word) for word in found]
    return list(dict.fromkeys(p for p in patterns if p is not None and p.replace("*", "").strip("/.")))


def script_env(path: str, text: str) -> list[str]:
    """The env.py Alembic runs from the settings at `path` (an `.ini` with an `[alembic]` section): its
    `script_location`, `%(here)s/x` from the file's folder, a plain `x` from where Alembic runs (the file's folder and
    the root, both), `package:x` below the package's folder. The migrations below it are the product's (as a suite a
    test runner runs)."""
    if not path.endswith(".ini") or "[alembic]" not in text:
        return []
    folder = path.rpartition("/")[0]
    out: list[str] = []
    for hit in _SCRIPT_LOCATION.finditer(text):
        location = hit[1].strip()
        package, colon, below = location.partition(":")
        if colon and "/" not in package and "%" not in package:
            location = f"{package.replace('.', '/')}/{below}"
        here = location.removeprefix("%(here)s/")
        bases = [folder] if here != location else list(dict.fromkeys([folder, ""]))
        out += [f"{base}/{here}/env.py".lstrip("/") for base in bases]
    return list(dict.fromkeys(path for path in out if ".." not in path.split("/") and "%" not in path))[:8]


def plain_variables(text: str) -> str:
    """`text` with `${{ env.X }}` and `${X}` written `$X`."""
    return _BRACED.sub(lambda hit: f"${hit[1] or hit[2]}", text)


def variable_values(words: list[str], text: str) -> list[str]:
    """`words`, each wholly variable one (`$X`) followed by every value `text` sets X to (`X=...`, an `env:` key)."""
    if not any(_VARIABLE.fullmatch(word) for word in words):
        return words
    values: dict[str, list[str]] = {}
    for hit in _SET.finditer(text):
        values.setdefault(hit[1] or hit[3], []).append(hit[2] or hit[4])
    return [value for word in words for value in [word, *_value(word, values)] if value] if values else words


def _action_args(text: str) -> str:
    """`text` with each input of a list item (a step) that names one of _ACTIONS read as its tool's command line: an
    `args:` value (a block's, a plain scalar's more indented lines joined) as goreleaser's arguments, a file input
    (`config-file:`, `files:`) as the tool's option for each file it lists (a line or a comma apart); other steps'
    inputs of the same name (golangci-lint-action's `args:`, a labeler's `config:`) stay."""
    lines = text.splitlines()
    steps: list[dict[str, str]] = [{}] * len(lines)
    for at, line in enumerate(lines):
        if (item := _ITEM.match(line)) is not None:
            end = at + 1
            while end < len(lines) and (not lines[end].strip() or _indent(lines[end]) > len(item[1])):
                end += 1
            inputs = next((inputs for action, inputs in _ACTIONS.items()
                           if any(action in within for within in lines[at:end])), None)
            if inputs is not None:
                steps[at:end] = [inputs] * (end - at)
    out: list[str] = []
    at = 0
    while at < len(lines):
        given = _ACTION_INPUT.fullmatch(lines[at])
        command = steps[at].get(given[2]) if given is not None else None
        at += 1
        if given is None or command is None:
            out.append(lines[at - 1])
            continue
        value = [given[3]]
        while at < len(lines) and lines[at].strip() and _indent(lines[at]) > len(given[1]):
            value.append(lines[at].strip())
            at += 1
        if command.endswith(" "):  # the tool's own arguments
            out.append(f"{given[1]}{given[2]}: {command}{' '.join(value)}")
        else:  # files, a line or a comma apart
            # bake-action v6 marks a local file beside a Git context `cwd://FILE` (docs review 52)
            out += [f"{given[1]}{given[2]}: {command} {name.strip().removeprefix('cwd://')}" for part in value
                    for name in part.split(",") if name.strip()]
    return "\n".join(out)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _value(word: str, values: dict[str, list[str]]) -> list[str]:
    """A handed `$NAME`: every value the text sets NAME to (none known: nothing, as before)."""
    variable = _VARIABLE.fullmatch(word)
    return values.get(variable[1], []) if variable else [word]


def _tool(word: str) -> str:
    """The tool a command word names: its file name, or a Go module's or container image's last part."""
    word = (word[:1] + word[1:].partition("@")[0]).lower()  # `@probelabs/visor@latest`: a scoped package's name
    if word.startswith("-") or "=" in word:
        return ""
    parts = word.split("/")
    if len(parts) > 1 and _VERSION_PART.fullmatch(parts[-1]):
        parts.pop()
    name = parts[-1].partition(":")[0].removesuffix(".exe")
    return _ALIASES.get(name, name)


def _handed(command: str, args: list[str], commanding: bool = False) -> list[str]:
    """The files `command` (a tool of _TOOLS) is handed by `args`; where it is the segment's command (`commanding`:
    not an `echo`'s operand) and runs from its default file, that file too (cileft68)."""
    needs, options = _TOOLS.get(command, (frozenset({"\0"}), frozenset()))
    if needs and not needs & set(args):
        return []
    out: list[str] = []
    runs, defaults = _DEFAULTS.get(command, (frozenset(), ()))
    if commanding and defaults and (not runs or runs & set(args)) \
            and not any(w.partition("=")[0] in options or (w[:2] in options and w[1:2] != "-") for w in args):
        out += defaults
    for at, word in enumerate(args):
        name, equals, value = word.partition("=")
        if name in options:  # `--config="x"` is the words `--config=` and `x`
            out.append(value if value else args[at + 1] if at + 1 < len(args) else "")
        elif not equals and name[:1] == "-" and name[1:2] != "-" and name[:2] in options and len(name) > 2:
            out.append(name[2:])  # `-fFILE`
    if command in _AT_FILES:
        out = [word[1:] for word in out if word.startswith("@")]
    return [word for word in out if word and not word.startswith(("-", "@"))]  # `@scope/config`: a package
