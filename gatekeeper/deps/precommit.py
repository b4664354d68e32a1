"""pre-commit hooks: `.pre-commit-config.yaml`, each `repos:` entry a repository at a `rev`.

A hook repository is code that runs on every developer's machine and in CI, so each is a dependency:
named by its repository (`astral-sh/ruff-pre-commit` for `https://github.com/astral-sh/ruff-pre-commit`,
the URL without scheme elsewhere), at its `rev`. `rev: <sha>  # frozen: v0.15.22` (pre-commit's
`autoupdate --freeze`, and Renovate's) keeps the version in a comment, read as an action's version comment is
(beside a full commit sha only): a claim that orders and names the version, never more. `local` and `meta`
repositories are the project's own.

A hook's `additional_dependencies` are packages pre-commit installs into the hook's environment (Dependabot bumps
them): an item with an exact version is read in the registry its form names — npm's `prettier@3.8.1` (and
`@scope/name@1.0.0`), a Go module's `golang.org/x/tools@v0.24.0`, PyPI's `types-requests==2.31.0.1` — in `local`
hooks too. An item without one (`tomli`, `eslint@^9`) names no version and no registry for sure: not read (the
file's edit is then unexplained, and reviewed).
"""

from __future__ import annotations

import re

from gatekeeper.deps.loaders import listing, load_yaml, mapping, string, text
from gatekeeper.deps.model import Dependency, ManifestError
from gatekeeper.deps.pypi import spec_of
from gatekeeper.lazy_pattern import lazy

# Only a full commit sha carries its comment: a comment beside a branch or tag (`rev: main  # frozen: v1.2.4`)
# would let a claim order a move to a ref that names no fixed code.
REV_COMMENT = lazy(r"^\s*(?:-\s+)?rev:\s*['\"]?([0-9a-f]{40})['\"]?\s+#\s*(?:frozen:\s*)?(v?\d[\w.+-]*)\s*$")


_NPM_PIN = lazy(r"^(?P<name>(?:@[\w.-]{1,100}/)?[\w.-]{1,214})@(?P<version>\d[\w.+-]{0,100})$")
_GO_PIN = lazy(r"^(?P<name>[\w-]{1,63}(?:\.[\w-]{1,63})+(?:/[\w.~-]{1,100}){1,20})"
                     r"@(?P<version>v\d[\w.+-]{0,100})$")
_PYPI_PIN = lazy(r"^(?P<name>[A-Za-z0-9][\w.-]{0,99})(?:\[[\w,.\s-]{0,200}\])?\s*==\s*"
                       r"(?P<version>\d[\w.+!-]{0,100})$")
# A hunk's lines: a list item (`- prettier@3.8.1`, quoted or not), the key above its items, or the key with a flow
# list of items on its line (`additional_dependencies: [tomli, 'prettier@3.9.6']`).
_ITEM = lazy(r"""^(\s*)-\s+(["']?)([^"'#\s\[\]{}]+)\2\s*(?:#.*)?$""")
# (No `\s*` beside another: blanks after the key must not be split two ways, a quadratic backtrack on a long line.)
_KEY = lazy(r"^(\s*)(?:-\s+)?additional_dependencies:(?:\s*\[(?P<flow>[^\]\[{}#]*)\])?\s*(?:#.*)?$")
_BLANK = lazy(r"^\s*(?:#.*)?$")
# A PyPI requirement with a version specifier and nothing after it (`dependency-groups>=1.3.1`, `tox>=4.8`,
# `flake8-2020 ~= 1.7.0`): no marker (`; python_version < "3.11"` says where it installs), no URL (`@`).
_PYPI_RANGE = lazy(r"^[A-Za-z0-9][\w.-]{0,99}(?:\[[\w,.\s-]{0,200}\])?\s*(?:~=|==|!=|<=|>=|<|>)[^;@]{1,300}$")


def additional(item: str) -> tuple[str, str, str] | None:
    """(ecosystem, name, version) of one `additional_dependencies` item pinned to an exact version, or a PyPI
    requirement with a version specifier (its specifier the version, as a requirements file's line); None else."""
    item = item.strip()
    for ecosystem, pattern in (("go", _GO_PIN), ("npm", _NPM_PIN), ("pip", _PYPI_PIN)):
        if (m := pattern.match(item)) is not None:
            return ecosystem, m.group("name"), m.group("version")
    if _PYPI_RANGE.match(item) is None:
        return None
    # deferred, as pypi.py's: packaging's requirement parser costs start-up, and few hooks list a range
    from packaging.requirements import InvalidRequirement, Requirement

    try:
        req = Requirement(item)
    except InvalidRequirement:
        return None
    if req.url or req.marker is not None or not req.specifier:
        return None
    return "pip", req.name, spec_of(req)


def _pinned(items: list[str], line: str) -> list[tuple[str, ...]]:
    found = [additional(item.strip().strip("'\"")) for item in items if item.strip()]
    if any(f is None for f in found):
        raise ManifestError(f"a hook dependency without an exact version: {line.strip()[:80]!r}")
    return [(name, version, ecosystem) for ecosystem, name, version in (f for f in found if f is not None)]


def _flow_items(flow: str) -> list[str]:
    """A one-line flow list's items, a quoted one whole (`"mypy<2,>=1.10", tomli`: the range's comma splits no item);
    one pass over the characters (no pattern to backtrack on a long line)."""
    items: list[str] = []
    current: list[str] = []
    quote = ""
    for ch in flow:
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch == ",":
            items.append("".join(current))
            current = []
            continue
        current.append(ch)
    return [*items, "".join(current)]


def hook_item_line(side: list[tuple[str, bool]], index: int) -> list[tuple[str, ...]] | None:
    """The (name, version, ecosystem) of a changed `additional_dependencies` line of a hunk: an item under the key
    the hunk shows above it (through items of the same list only), or the key's flow list; None for a line of
    neither shape; ManifestError for such a line whose items are not all pinned (the whole file says more)."""
    line = side[index][0]
    key = _KEY.match(line)
    if key is not None:
        return _pinned(_flow_items(key.group("flow")), line) if key.group("flow") is not None else []
    item = _ITEM.match(line)
    if item is None:
        return None
    indent = len(item.group(1))
    for above, _ in reversed(side[:index]):
        if _BLANK.match(above):
            continue
        over = _ITEM.match(above) or re.match(r"^(\s*)-\s", above)
        if over is not None and len(over.group(1)) == indent:
            continue  # another item of the same list
        key = _KEY.match(above)
        if key is not None and key.group("flow") is None and len(key.group(1)) <= indent:
            return _pinned([item.group(3)], line)
        break
    raise ManifestError(f"the hunk does not show whose list item this is: {line.strip()[:80]!r}")


def _hook_packages(path: str, entry: dict[str, object]) -> list[Dependency]:
    out: list[Dependency] = []
    for hook in listing(entry.get("hooks"), "hooks"):
        for item in listing(mapping(hook, "a hook").get("additional_dependencies"), "additional_dependencies"):
            if (found := additional(string(item))) is not None:
                out.append(Dependency(found[0], found[1], found[2], path, True, "dev"))
    return out


def repo_name(url: str) -> str:
    url = re.sub(r"\.git/*$|/+$", "", url.strip())
    github = re.match(r"^(?:https?://|git@)github\.com[/:]([^/]+/[^/]+)$", url)
    return github.group(1) if github else re.sub(r"^[a-z+]+://", "", url)


def parse_pre_commit(path: str, data: bytes) -> list[Dependency]:
    doc = mapping(load_yaml(data), ".pre-commit-config.yaml")
    comments = {m.group(1): m.group(2) for line in text(data).splitlines() if (m := REV_COMMENT.match(line))}
    out: list[Dependency] = []
    for entry in listing(doc.get("repos"), "repos"):
        entry = mapping(entry, "a repos entry")
        url = string(entry.get("repo"))
        out += _hook_packages(path, entry)
        if not url or url in ("local", "meta"):
            continue
        rev = string(entry.get("rev"))
        out.append(Dependency("pre-commit", repo_name(url), rev, path, True, "dev", comments.get(rev, "")))
    return out
