"""A Bazel module's `git_override`: the module built from a repository at a commit instead of the registry's
release (aspect-build/rules_py's `git_override(module_name = "container_structure_test", commit = "63ee63e1…",
remote = "https://github.com/GoogleContainerTools/container-structure-test.git")`, which Renovate bumps).

The call's `bazel_dep` names the module at the version the registry would give, which the override replaces: the
code the build fetches is the commit. A call of literal keyword arguments with a full 40-hex `commit` and a plain
https `remote` is the ecosystem `git` dependency named by the remote's host and path (as makepins.py names a
Makefile's commit pin), its `module_name` the alias. Any other override (another argument that is no literal, an
abbreviated commit, a `tag` or `branch`, `archive_override`'s URLs) names nothing here; overrides.py reports every
change of an override call as a problem either way (the build's download location moved).
"""

from __future__ import annotations

import dataclasses
import re

from gatekeeper.deps.model import Dependency
from gatekeeper.lazy_pattern import lazy

# one call, its arguments at most 4 KiB (a `git_override(` never closed is scanned that far, not to the file's end)
_CALL = lazy(r"^[ \t]*git_override[ \t]*\(([^()]{0,4096})\)", re.MULTILINE)
# a literal argument: a string, a list of strings, True/False/None, a number
_ARG = lazy(r'\s*(\w+)\s*=\s*(?:"([^"\\]*)"|\[(?:\s*"[^"\\]*",?)*\s*\]|True|False|None|\d+)\s*(?:,|$)')
_TEXT = lazy(r"\S")
_OPEN = lazy(r"^[ \t]*git_override[ \t]*\(", re.MULTILINE)
_MODULE = lazy(r'(?<![\w.])module_name\s*=\s*"([^"\\\n]{1,200})"')
HELD = "git_override "  # heldvars' handle of an override: this and the module_name
_COMMIT = lazy(r"^[0-9a-f]{40}$")
_REMOTE = lazy(r"^https://(?P<where>[A-Za-z0-9.-]{1,253}(?::\d{1,5})?/[\w.-]{1,100}(?:/[\w.-]{1,100}){1,4}?)"
                     r"(?:\.git)?/?$")


def _arguments(call: str) -> dict[str, str] | None:
    """The string arguments of one call's text; None when one argument is no literal."""
    args: dict[str, str] = {}
    at = 0
    while _TEXT.search(call, at) is not None:
        arg = _ARG.match(call, at)
        if arg is None:
            return None
        if arg.group(2) is not None:
            args[arg.group(1)] = arg.group(2)
        at = arg.end()
    return args


def _read(body: str) -> list[tuple[re.Match[str], Dependency]]:
    out: list[tuple[re.Match[str], Dependency]] = []
    for call in _CALL.finditer(body):
        args = _arguments(call.group(1))
        if args is None or not _COMMIT.match(args.get("commit", "")) or not args.get("module_name"):
            continue
        if (remote := _REMOTE.match(args.get("remote", ""))) is None:
            continue
        out.append((call, Dependency("git", remote.group("where").removesuffix(".git"), args["commit"], "", True,
                                     "runtime", alias=args["module_name"])))
    return out


def pins_read(body: str) -> str:
    """`body` without the `git_override` calls git_overrides reads (bazel.residue: what no reader models). Every
    override call, these too, stays an override section that overrides.py compares between the sides."""
    return without(body, [call for call, _ in _read(body)]) if "git_override" in body else body


def without(body: str, calls: list[re.Match[str]]) -> str:
    """`body` without the text of `calls` (found in it in order): joined once (the rest of the text copied per call
    was quadratic in the calls: 0.48 CPU-s at 1 MiB of `oci.pull` calls, suite round 43)."""
    ends, starts = [0, *(call.end() for call in calls)], [*(call.start() for call in calls), len(body)]
    return "".join(body[end:start] for end, start in zip(ends, starts, strict=True))


def git_overrides(path: str, body: str) -> list[Dependency]:
    """The `git` dependencies the `git_override` calls of `body` (a MODULE.bazel without its comments) pin."""
    if "git_override" not in body:
        return []
    return [dataclasses.replace(dep, manifest=path) for _, dep in _read(body)]


def held(body: str, unnamed: str) -> tuple[dict[tuple[str, str], str], set[str]]:
    """For heldvars.py: the `git` dependency each override read names, by its handle (HELD + module_name), and the
    handles of every `git_override` call (`unnamed` for one whose module_name is no literal). An override moved to a
    form not read (an abbreviated commit, a `tag`) still overrides its module: its dependency is no removal."""
    if "git_override" not in body:
        return {}, set()
    named = {(dep.ecosystem, dep.name): HELD + dep.alias for _, dep in _read(body)}
    handles: set[str] = set()
    for opened in _OPEN.finditer(body):
        module = _MODULE.search(body, opened.end(), opened.end() + 4096)
        handles.add(HELD + module.group(1) if module is not None else unnamed)
    return named, handles
