"""What a manifest holds besides the dependency entries the delta reads: its residue.

The `deps` policy counts a deps file as explained when one change of the delta names it, so any other edit in the
same file rode on that change (red team 10): a Gradle script's build logic, a Gemfile's `send(:gem, 'evil')` or
source block, a requirements file's `-c URL` or `--trusted-host`, a package.json's `pnpm.packageExtensions` (which
adds dependencies to other packages), a composer.json's `config.secure-http: false`, a pyproject's
`[[tool.pdm.source]]`, a Pipfile's `[requires]`, each beside an ordinary bump. Each format's residue is what its
reader leaves unread (a structured manifest: the document without its dependency tables); a residue that differs
between the sides is a `partial` problem (reviewed), as an unexplained deps file with no bump already was.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gatekeeper.deps import bundler, pypi
from gatekeeper.deps.gradle import code_changed
from gatekeeper.deps.loaders import load_json, load_toml
from gatekeeper.deps.model import ManifestError
from gatekeeper.deps.registry import format_for

Path = tuple[str, ...]  # keys from the document's root; "*" is every key at that level
_CARGO_TABLES = ("dependencies", "dev-dependencies", "build-dependencies")
# The tables each structured manifest's reader reads whole: the dependencies, where they come from, their versions.
_READ: dict[str, tuple[Callable[[bytes], Any], tuple[Path, ...]]] = {
    # `scripts`: what installing runs is overrides.py's (install hooks); any other script is code a job runs on
    # purpose, as a test file is (red team: `npm test` changed beside a bump is no problem).
    "package.json": (load_json, (("dependencies",), ("devDependencies",), ("optionalDependencies",),
                                 ("peerDependencies",), ("packageManager",), ("scripts",))),
    "composer.json": (load_json, (("require",), ("require-dev",))),
    "Cargo.toml": (load_toml, (*((t,) for t in _CARGO_TABLES), *(("target", "*", t) for t in _CARGO_TABLES),
                               ("workspace", "dependencies"))),
    "pyproject.toml": (load_toml, (("project", "dependencies"), ("project", "optional-dependencies"),
                                   ("dependency-groups",), ("build-system", "requires"),
                                   ("tool", "poetry", "dependencies"), ("tool", "poetry", "dev-dependencies"),
                                   ("tool", "poetry", "group", "*", "dependencies"))),
    # Every other top-level table of a Pipfile is a package category (`[packages]`, `[dev-packages]`, `[docs]`).
    "Pipfile": (load_toml, (("*",),)),
}
_PIPFILE_KEPT = frozenset({"source", "requires", "scripts", "pipenv"})


def changed(path: str, base: bytes | None, head: bytes | None, whole: bool = True) -> bool:
    """Whether `path` changed beyond what the delta reads (both sides needed: a new or deleted file is read
    whole). `base`/`head` are whole files, or (`whole=False`) a patch's hunk sides, of which only line-oriented
    formats are compared: a structured manifest's hunks are edits.py's, which refuses any line that is not a
    dependency's."""
    if base is None or head is None:
        return False
    if code_changed(path, base, head):
        return True
    fmt = format_for(path)
    read: Callable[[bytes], Any] | None = None
    if fmt is not None and fmt.parse is bundler.parse_gemfile:
        read = bundler.residue
    elif fmt is not None and fmt.name == "requirements":
        read = pypi.requirements_residue
    elif fmt is not None and fmt.name in _READ and whole:
        read = _structured(fmt.name)
    if read is None:
        return False
    try:
        return bool(read(base) != read(head))
    except (ManifestError, RecursionError):
        return False  # the parsers report an unreadable side themselves


def _structured(name: str) -> Callable[[bytes], Any]:
    load, paths = _READ[name]

    def read(data: bytes) -> Any:
        doc = load(data)
        if not isinstance(doc, dict):
            return doc
        if name == "Pipfile":
            return {k: v for k, v in doc.items() if k in _PIPFILE_KEPT or not isinstance(v, dict)}
        for where in paths:
            doc = _without(doc, where)
        return doc
    return read


def _without(doc: Any, where: Path) -> Any:
    """`doc` without the value at `where` (a copy of the containers on the way); a table left empty by the removal
    is dropped too, so a dependency table added or removed whole leaves the residue as it was."""
    if not isinstance(doc, dict) or not where:
        return doc
    key, rest = where[0], where[1:]
    keys = list(doc) if key == "*" else [key] if key in doc else []
    out = dict(doc)
    for k in keys:
        if not rest:
            del out[k]
            continue
        inner = _without(out[k], rest)
        if isinstance(inner, dict) and not inner and out[k]:
            del out[k]
        else:
            out[k] = inner
    return out
