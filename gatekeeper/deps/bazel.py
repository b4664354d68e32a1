"""Bazel modules: `MODULE.bazel` (Bzlmod) `bazel_dep(name = "rules_cc", version = "0.2.20")` calls.

MODULE.bazel is Starlark, but a restricted dialect: `bazel_dep` takes literal keyword arguments only, so
each call is read by its literal `name`, `version` and `dev_dependency`. A call whose arguments are not
such literals is a problem, never skipped; a keyword naming a constant the file binds once, at the top level, to
such a literal (aspect-build/rules_lint's `IS_RELEASE = False` for `dev_dependency = IS_RELEASE`) takes that
literal. Maven coordinates written as `"group:artifact:version"` strings
(rules_jvm_external's `maven.install(artifacts = [...])`) are `maven` dependencies. Overrides
(`*_override(...)`) are override sections (overrides.py): any change in one is a problem; a `git_override` of
literals is also the `git` dependency it pins (bazelpins.py). A rules_oci
`oci.pull(name = "distroless", image = "gcr.io/distroless/cc-debian12", digest = "sha256:…", tag = "…")` call
of literals (string lists allowed, `platforms = ["linux/amd64"]`) is the `docker` image it pulls, named by
`image` with its `name` as the alias (Renovate's "update distroless docker digest"); one of other arguments stays
in the residue, where any change of it is a problem, as before.
"""

from __future__ import annotations

import re
from collections import Counter

from gatekeeper.deps import bazelrepos
from gatekeeper.deps.bazelpins import git_overrides, pins_read, without
from gatekeeper.deps.docker import image_version
from gatekeeper.deps.gradle import COORDINATE
from gatekeeper.deps.loaders import text
from gatekeeper.deps.model import Dependency, ManifestError
from gatekeeper.lazy_pattern import lazy

# Each call from its own line's start: `^\s*` read every following blank line again from each line start (64 Ki blank
# lines: 12 CPU-s); the blank lines before a call, which the old match took along, are whitespace the residue collapses.
_CALL = lazy(r"^[^\S\n]*+bazel_dep\s*\(([^()]*)\)", re.MULTILINE)
# `repo_name = None` (Bazel 7.1+: no repository for the module) is a literal too
_ARG = lazy(r'\s*(\w+)\s*=\s*(?:"([^"\\]*)"|(True|False|None|\d+)|([A-Za-z_]\w*))\s*(?:,|$)')
# a top-level constant: `IS_RELEASE = False` (column 0, one literal, nothing after it but a comment)
_CONST = lazy(r'^([A-Za-z_]\w*)[ \t]*=[ \t]*(?:"([^"\\\n]*)"|(True|False|None|\d+))[ \t]*$', re.MULTILINE)
_TEXT = lazy(r"\S")
OVERRIDE = lazy(r"^[^\S\n]*+\w+_override\s*\([^()]*\)", re.MULTILINE)
_PULL = lazy(r"^[^\S\n]*+oci\.pull\s*\(([^()]*)\)", re.MULTILINE)
# a literal argument of oci.pull: a string, a list of strings (blanks only before each item: one way to split them)
_PULL_ARG = lazy(r'\s*(\w+)\s*=\s*(?:"([^"\\]*)"|\[(?:\s*"[^"\\]*",?)*\s*\]|True|False|None|\d+)\s*(?:,|$)')


def _pull(call: str) -> dict[str, str] | None:
    """The string arguments of one `oci.pull(...)` call's text; None when one argument is no literal."""
    args: dict[str, str] = {}
    at = 0
    while _TEXT.search(call, at) is not None:
        arg = _PULL_ARG.match(call, at)
        if arg is None:
            return None
        if arg.group(2) is not None:
            args[arg.group(1)] = arg.group(2)
        at = arg.end()
    return args if args.get("image") else None


def _pulls(body: str) -> list[tuple[re.Match[str], dict[str, str]]]:
    return [(m, args) for m in _PULL.finditer(body) if (args := _pull(m.group(1))) is not None]


def _body(data: bytes) -> str:
    """The file without comments: from the first `#` after a line's last quote to the line's end (a `#` before a
    quote may be inside a string). One pass per line: the pattern it replaces read from each `#` to the line's end,
    so a line of `#`s ending in a quote cost 1.6 CPU-s at 16 KiB."""
    lines = text(data).split("\n")
    for index, line in enumerate(lines):
        if (at := line.find("#", line.rfind('"') + 1)) >= 0:
            lines[index] = line[:at]
    return "\n".join(lines)


def residue(data: bytes) -> str:
    """What the reader does not model: the file without its comments, the bazel_dep calls it reads and the
    Maven coordinates, whitespace collapsed. MODULE.bazel is a program (repository rules, extensions,
    statements after a `;`), so a difference here must not ride on a bump's explanation (overrides.py)."""
    body = _CALL.sub("", _body(data))
    body = without(body, [call for call, _ in _pulls(body)])  # the calls read as images; one of other arguments stays
    body = COORDINATE.sub("", body)
    return re.sub(r"\s+", " ", pins_read(body)).strip()  # bazelpins.py: a git_override read; overrides.py compares it


# every binding of a name, to count them: `X = …`, `X += …`, a keyword argument, `for X in`, `as X`, `def X`
_BIND = lazy(r"(?<![\w.])(?:(?:for|as|def)\s+([A-Za-z_]\w*)\b|"
                   r"([A-Za-z_]\w*)\s*(?:[-+*/|&%^]|//|\*\*|<<|>>)?=(?!=))")


def _constants(body: str) -> dict[str, str]:
    """The names the file binds exactly once, at the top level, to a literal, with that literal. A name bound twice
    (again, augmented, as a keyword, in a loop or a block) is left out: which value a call sees is unknown. One pass."""
    binds = Counter(m.group(1) or m.group(2) for m in _BIND.finditer(body))
    return {m.group(1): m.group(2) if m.group(2) is not None else m.group(3)
            for m in _CONST.finditer(body) if binds[m.group(1)] == 1}


def parse_module_bazel(path: str, data: bytes) -> list[Dependency]:
    body = _body(data)
    out: list[Dependency] = []
    constants: dict[str, str] | None = None  # read once, and only for a call naming one
    for call in _CALL.finditer(body):
        args: dict[str, str] = {}
        rest = call.group(1).strip()
        at = 0  # read in place: copying the rest after each argument made a long call quadratic (attack 25)
        while _TEXT.search(rest, at) is not None:
            arg = _ARG.match(rest, at)
            if arg is None:
                line = body.count("\n", 0, call.start()) + 1
                raise ManifestError(f"line {line}: a bazel_dep argument that is not a literal")
            value = arg.group(2) if arg.group(2) is not None else arg.group(3)
            if arg.group(4) is not None:
                constants = _constants(body) if constants is None else constants
                value = constants.get(arg.group(4))
            if value is None:
                line = body.count("\n", 0, call.start()) + 1
                raise ManifestError(f"line {line}: a bazel_dep argument that is not a literal ({arg.group(4)} is not "
                                    "bound once, at the top level, to one)")
            args[arg.group(1)] = value
            at = arg.end()
        if not args.get("name"):
            raise ManifestError("a bazel_dep without a name")
        dev = args.get("dev_dependency") == "True"
        out.append(Dependency("bazel", args["name"], args.get("version", ""), path, True, "dev" if dev else "runtime"))
    for _, args in _pulls(body):
        out.append(Dependency("docker", args["image"], image_version(args.get("tag", ""), args.get("digest", "")),
                              path, True, "build", alias=args.get("name", "")))
    for coord in COORDINATE.finditer(body):
        out.append(Dependency("maven", f"{coord.group('group')}:{coord.group('artifact')}", coord.group("version"),
                              path, True, "runtime"))
    # bazelpins.py: a module built from a repository at a commit; bazelrepos.py: a `use_repo_rule` download
    return out + git_overrides(path, body) + [dep for _, dep in bazelrepos.read(path, body)[0]]
