"""YAML forms a line reader cannot see a value in, and the values a YAML reader sees (red team 21).

The Compose and workflow readers read lines (`image: nginx:1.27`, `uses: actions/checkout@v4`), and a patch shows
lines. But Compose and GitHub read YAML: an anchor and its alias (`x-img: &img nginx:1.27` ... `image: *img`), a
merge key, a flow mapping (`- {uses: evil/x@v1}`), a quoted key or a whole file in JSON, a tag (`!!str`), a block
scalar (`uses: >-`) or a value on the next line run the same image or action, and swapping it was no change.
`has_form` says a text holds such a form, `values` reads every value of the keys from the whole file as YAML
(where the line reader reads nothing), and `refuse_changed` fails a patch's hunks closed when a changed line is in
such a form or inside a key's multi-line value: the whole file (`--tree`) is needed to tell what moved.
"""

from __future__ import annotations

import functools
import re

from gatekeeper.deps.hunks import CHANGED, HUNK
from gatekeeper.deps.loaders import load_yaml_all
from gatekeeper.deps.model import ManifestError
from gatekeeper.lazy_pattern import lazy

_ANCHOR = (r"(?:(?<=:[ \t])|(?<=-[ \t])|(?<=,[ \t])|(?<=[\[{,])|(?<=[\[{][ \t])|^[ \t]*)"
           r"[&*][\w-]+(?=[ \t,\]}]|$)|<<[ \t]*:")
MAX_DOCUMENTS = 64
# A block mapping's key line: a plain key, then `:` and a space or the line's end (`node:20` is a scalar).
_MAP_KEY = lazy(r"^[ \t]*[A-Za-z_][\w-]*:(?:[ \t]|$)")
_MAX_DEPTH = 64


@functools.cache
def _form(keys: tuple[str, ...]) -> re.Pattern[str]:
    names = "|".join(re.escape(k) for k in keys)
    return re.compile(rf"""{_ANCHOR}|(?<![{{$])\{{(?!\{{)[^}}\n]*\b(?:{names})\b|["'](?:{names})["'][ \t]*:"""
                      rf"""|\b(?:{names})[ \t]*:[ \t]*(?:[!|>]|$)""", re.M)


@functools.cache
def _open(keys: tuple[str, ...]) -> re.Pattern[str]:
    names = "|".join(re.escape(k) for k in keys)
    return re.compile(rf"""^([ \t]*)(?:-[ \t]+)?["']?(?:{names})["']?[ \t]*:[ \t]*(?:[!|>&][^\n]*)?$""")


def has_form(body: str, keys: tuple[str, ...]) -> bool:
    """Whether `body` holds a YAML form in which a line may hide a value of `keys` (or any anchor, alias, merge)."""
    return _form(keys).search(body) is not None


def values(data: bytes, keys: tuple[str, ...]) -> list[tuple[str, str]]:
    """(key, value) of every string value of `keys` in the YAML documents of `data` (a mapping's `image`, for
    `container: {image: ...}`), as the line `key: value` would say it."""
    out: list[tuple[str, str]] = []
    for doc in load_yaml_all(data, MAX_DOCUMENTS):
        _walk(doc, keys, out, 0)
    return out


def _walk(node: object, keys: tuple[str, ...], out: list[tuple[str, str]], depth: int) -> None:
    if depth > _MAX_DEPTH:
        return
    if isinstance(node, dict):
        for key, value in node.items():
            if key in keys and isinstance(value, str):
                out.append((key, value.strip()))
            elif key in keys and isinstance(value, dict) and isinstance(value.get("image"), str):
                out.append(("image", value["image"].strip()))
            _walk(value, keys, out, depth + 1)
    elif isinstance(node, list):
        for value in node:
            _walk(value, keys, out, depth + 1)


def refuse_changed(body: str, keys: tuple[str, ...]) -> list[str]:
    """The hunk lines of `body` (hunks.sides) without markers; ManifestError when a changed line is in a YAML form
    of `keys`, or inside a multi-line value of one of them (`uses:` with the value on the lines below). A key whose
    first line below is itself a `key:` line holds a block mapping, not a value continued (a job's `container:`
    over its `image:`, `options:`, `credentials:`): each of its lines is read as a line of its own."""
    form, opening = _form(keys), _open(keys)
    open_value = -1  # the indentation of a key whose value continues on the lines below, else -1
    fresh = False  # no line shown below that key yet, and nothing after its `:`
    shown: list[str] = []
    for raw in body.splitlines():
        if raw == HUNK:
            open_value = -1
            continue
        line = raw.removeprefix(CHANGED)
        depth = len(line) - len(line.lstrip())
        if line.strip() and depth <= open_value:
            open_value = -1
        if open_value >= 0 and fresh and line.strip() and not line.lstrip().startswith("#"):
            fresh = False
            if _MAP_KEY.match(line) is not None:
                open_value = -1  # a block mapping (`container:` over `image: node:20`): its keys are lines of their own
        if raw.startswith(CHANGED) and (form.search(line) is not None or (open_value >= 0 and line.strip())):
            raise ManifestError(f"a changed line in a YAML form read only from the whole file: {line.strip()[:80]!r}")
        if (m := opening.match(line)) is not None:
            # a block scalar (`|`), tag or anchor after the key holds text, never a mapping of lines to read
            open_value, fresh = len(m.group(1)), line.rstrip().endswith(":")
        shown.append(line)
    return shown
