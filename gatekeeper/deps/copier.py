"""Copier's answers file (`.copier-answers.yml`, `.copier-answers.<name>.yml`): the template a project was generated
from, at the ref `copier update` last applied.

Copier writes the template's source as `_src_path` (`https://github.com/o/template`, `gh:o/template`, a local folder)
and the ref as `_commit` (a tag, `v1.7.11`, or `git describe`'s `v1.7.11-3-gabc1234`); Renovate's copier manager
bumps `_commit` and rewrites the files the template renders in the same commit. A template's files become the
project's own (workflows, build files), so the template is a dependency: named by `_src_path` as written, at
`_commit`. A template in a local folder (`./template`, `/srv/t`, `~/t`) is the machine's, not a ref anyone can
pin: not read. The other keys are the answers given to the template's questions: no dependency.

From a patch's hunks (`answers_hunks`): Copier writes the keys sorted, so `_commit` and `_src_path` are neighbours and
a hunk that changes one shows the other; a changed one whose partner the hunk does not show fails closed.
"""

from __future__ import annotations

from gatekeeper.deps import hunks
from gatekeeper.deps.loaders import load_yaml, mapping, string, text
from gatekeeper.deps.model import Dependency, ManifestError
from gatekeeper.lazy_pattern import lazy

ECOSYSTEM = "copier"
ANSWERS_NAME = lazy(r"^\.copier-answers(?:\.[\w-]+)*\.ya?ml$")  # `.copier-answers.ci.yml` too
# A top-level `_commit:` / `_src_path:` line with its scalar (plain or quoted) and an optional comment.
_KEY_LINE = lazy(r"""^(_commit|_src_path):[ \t]*+(?:"([^"\\\n]*+)"|'([^'\n]*+)'|([^\s#'"][^\s#]*+))?[ \t]*+"""
                 r"""(?:#.*+)?$""")
_LOCAL = (".", "/", "~")  # `./t`, `../t`, `/srv/t`, `~/t`


def is_answers(base: str) -> bool:
    """Whether a file named `base` is a Copier answers file."""
    return bool(ANSWERS_NAME.match(base))


def _dependency(path: str, source: str, ref: str) -> list[Dependency]:
    if not source or not ref or source.startswith(_LOCAL) or "\n" in source:
        return []
    return [Dependency(ECOSYSTEM, source, ref, path, True, "build")]


def parse_answers(path: str, data: bytes) -> list[Dependency]:
    """The template at the ref the answers file records (none when it records no source or ref)."""
    doc = mapping(load_yaml(data) or {}, "a Copier answers file")
    return _dependency(path, string(doc.get("_src_path")), string(doc.get("_commit")))


def answers_hunks(path: str, data: bytes) -> list[Dependency]:
    """The template of each hunk that shows both `_src_path` and `_commit` (data: `hunks.sides` of one side)."""
    out: list[Dependency] = []
    shown: dict[str, str] = {}
    changed = False

    def close() -> None:
        nonlocal changed
        if len(shown) == 2:
            out.extend(_dependency(path, shown["_src_path"], shown["_commit"]))
        elif changed:
            raise ManifestError("a changed _commit or _src_path line whose partner the hunk does not show")
        shown.clear()
        changed = False

    for raw in text(data).splitlines():
        if raw == hunks.HUNK:
            close()
            continue
        line = raw.removeprefix(hunks.CHANGED)
        if line.startswith(("_commit", "_src_path")):
            m = _KEY_LINE.match(line)
            if m is None:
                raise ManifestError(f"a _commit or _src_path line in a form this reader does not know: {line[:80]!r}")
            if m.group(1) in shown:
                raise ManifestError(f"{m.group(1)} twice in one hunk")
            shown[m.group(1)] = next((g for g in m.groups()[1:] if g is not None), "")
            changed = changed or raw.startswith(hunks.CHANGED)
    close()
    return out
