"""Go's dep tool (`Gopkg.toml`, `Gopkg.lock`): the projects a repository vendored before Go modules.

`Gopkg.toml` constrains projects (`[[constraint]]`, and `[[override]]` over the whole graph): `name` and one of
`version` (a semver range), `branch` or `revision`, with a `source` naming where the project is fetched from instead.
`Gopkg.lock` pins each project dep solved (`[[projects]]`): `name`, the commit `revision`, and the `version` (a tag)
or `branch` that resolved to it, which labels the commit as a sha-pinned action's comment labels its sha. A project
fetched from a `source` is named `NAME => SOURCE`, as go.mod's `replace` is, so a swapped source is a new dependency,
never the old one's bump. A key either file does not define (dep refuses them too), a project without a name or a
lock entry without a revision is a problem, never skipped. From a patch, TOML hunks are not read (`partial`).
Round 52 (cloudflare/cfssl's "update github.com/google/certificate-transparency-go to 1.0.10" named nothing).
"""

from __future__ import annotations

from typing import Any

from gatekeeper.deps.loaders import listing, load_toml, mapping
from gatekeeper.deps.model import Dependency, ManifestError

ECOSYSTEM = "go"
_MANIFEST_KEYS = frozenset({"required", "ignored", "constraint", "override", "prune", "metadata", "noverify"})
_RULE_KEYS = frozenset({"name", "version", "branch", "revision", "source", "metadata"})
_LOCK_KEYS = frozenset({"projects", "solve-meta", "memo"})  # `memo`: dep's locks before v0.4
_PROJECT_KEYS = frozenset({"name", "branch", "revision", "version", "source", "packages", "pruneopts", "digest"})


def _text(entry: dict[str, Any], key: str, what: str) -> str:
    value = entry.get(key, "")
    if not isinstance(value, str):
        raise ManifestError(f"{what}: `{key}` is not a string")
    return value


def _name(entry: Any, keys: frozenset[str], what: str) -> tuple[dict[str, Any], str]:
    """The entry as a table and its name (with its source), after checking every key is one dep defines."""
    table = mapping(entry, what)
    if unknown := sorted(set(table) - keys):
        raise ManifestError(f"{what}: key {unknown[0][:80]!r}, which dep does not define")
    name = _text(table, "name", what)
    if not name:
        raise ManifestError(f"{what} without a name")
    source = _text(table, "source", what)
    return table, f"{name} => {source}" if source else name


def parse_gopkg_toml(path: str, data: bytes) -> list[Dependency]:
    """Each constraint and override at the version, branch or revision it asks for."""
    doc = load_toml(data)
    if unknown := sorted(set(doc) - _MANIFEST_KEYS):
        raise ManifestError(f"Gopkg.toml: key {unknown[0][:80]!r}, which dep does not define")
    out: list[Dependency] = []
    for kind in ("constraint", "override"):
        for entry in listing(doc.get(kind), f"[[{kind}]]"):
            table, name = _name(entry, _RULE_KEYS, f"a [[{kind}]]")
            asked = [_text(table, key, name) for key in ("version", "branch", "revision") if key in table]
            if len(asked) > 1:
                raise ManifestError(f"{name[:80]}: more than one of version, branch and revision")
            out.append(Dependency(ECOSYSTEM, name, asked[0] if asked else "", path, True, "runtime",
                                  options="override" if kind == "override" else ""))
    return out


def parse_gopkg_lock(path: str, data: bytes) -> list[Dependency]:
    """Each locked project at its revision, labelled with the tag or branch that resolved to it."""
    doc = load_toml(data)
    if unknown := sorted(set(doc) - _LOCK_KEYS):
        raise ManifestError(f"Gopkg.lock: key {unknown[0][:80]!r}, which dep does not write")
    out: list[Dependency] = []
    for entry in listing(doc.get("projects"), "[[projects]]"):
        table, name = _name(entry, _PROJECT_KEYS, "a [[projects]] entry")
        revision = _text(table, "revision", name)
        if not revision:
            raise ManifestError(f"{name[:80]}: a locked project without a revision")
        label = _text(table, "version", name) or _text(table, "branch", name)
        out.append(Dependency(ECOSYSTEM, name, revision, path, True, "runtime", tag=label))
    return out
