"""deps60's duplicate-key scan (deps/yamlkeys.py) against a strict YAML reader (review round 69b).

The line scan refused valid files (a false `unparsable`): key-shaped lines in a block scalar that a `- ` item, an
anchor or a tag opens (`- |`, `X: &x |`, `X: !!str >`), two documents split by `--- # comment` or `--- !!map`, a flow
mapping over several lines; and it missed a duplicate the YAML readers see: a key spelled with an escape
(`"u\\x73es"`), a tag (`!!str uses`), an anchor (`&k uses`), a complex key (`? uses`), a flow mapping
(`{uses: a, uses: b}`), a BOM before the first key, keys a YAML 1.1 reader builds alike (`~`/`null`, `yes`/`true`).
The truth is deps/loaders' strict reader (load_yaml_all: the loaders' `unparsable`). A whole file that reads as YAML is
now judged by that reader; one that does not read falls back to the line scan (fail closed). A hunk's lines keep the
line scan, which now reads the block scalars and document starts above as YAML does.
"""

from __future__ import annotations

import itertools

import pytest
from cpucost import assert_linear, repeated

from gatekeeper.deps.actions import parse_workflow, workflow_hunks
from gatekeeper.deps.hunks import CHANGED, HUNK
from gatekeeper.deps.loaders import load_yaml_all
from gatekeeper.deps.model import ManifestError
from gatekeeper.deps.toolfiles import parse_compose

# valid YAML with a key-shaped line twice (`{k}: 1`, `{k}: 2`) where it is no key of one mapping
_VALID = [
    "jobs:\n  j:\n    steps:\n      - run: x\n        with:\n          args:\n            - |\n              {k}: 1\n"
    "              {k}: 2\n",
    "args:\n  - >-\n    {k}: 1\n    {k}: 2\n",
    "args:\n  - &a |\n    {k}: 1\n    {k}: 2\n",
    "env:\n  X: &x |\n    {k}: 1\n    {k}: 2\n",
    "env:\n  X: !!str |\n    {k}: 1\n    {k}: 2\n",
    "env:\n  X: !!str >\n    {k}: 1\n    {k}: 2\n",
    "env:\n  X: &x !!str |-\n    {k}: 1\n    {k}: 2\n",
    "{k}: 1\n--- # two\n{k}: 2\n",
    "{k}: 1\n--- !!map\n{k}: 2\n",
    "m: [{{\n  {k}: a}}, {{\n  {k}: b}}]\n",
]
# a key given twice that the strict reader refuses and the line scan let through
_HIDDEN = [
    '{k}: a\n"{e}": b\n',
    "{k}: a\n!!str {k}: b\n",
    "{k}: a\n? {k}\n: b\n",
    "- {{{k}: a, {k}: b}}\n",
    "steps:\n  - {{{k}: a, {k}: b}}\n",
    "&n {k}: a\n{k}: b\n",
    "\ufeff{k}: a\n{k}: b\n",
]
_KEYS = ("uses", "image", "env", "run")


def _escaped(key: str) -> str:
    return f"\\x{ord(key[0]):02x}{key[1:]}"


def _refused(read: object, path: str, text: str) -> bool:
    try:
        read(path, text.encode())  # type: ignore[operator]
    except ManifestError as exc:
        return "twice" in str(exc) or "duplicate" in str(exc)
    return False


def _strict_refuses(text: str) -> bool:
    try:
        load_yaml_all(text.encode(), 64)
    except ManifestError as exc:
        return "duplicate" in str(exc)
    return False


_READERS = [(parse_workflow, ".github/workflows/c.yml"), (parse_compose, "docker-compose.yml")]


@pytest.mark.parametrize(("form", "key", "reader"), list(itertools.product(range(len(_VALID)), _KEYS, range(2))))
def test_a_valid_file_is_not_refused(form: int, key: str, reader: int) -> None:
    text = _VALID[form].format(k=key)
    assert not _strict_refuses(text), text
    assert not _refused(*_READERS[reader], text), text


@pytest.mark.parametrize(("form", "key", "reader"), list(itertools.product(range(len(_HIDDEN)), _KEYS, range(2))))
def test_a_duplicate_the_strict_reader_sees_is_refused(form: int, key: str, reader: int) -> None:
    text = _HIDDEN[form].format(k=key, e=_escaped(key))
    assert _strict_refuses(text), text
    assert _refused(*_READERS[reader], text), text


@pytest.mark.parametrize(("form", "key"), list(itertools.product(range(9), _KEYS)))
def test_a_hunk_of_a_valid_file_is_not_refused(form: int, key: str) -> None:
    """A hunk's lines: a block scalar an item, anchor or tag opens, a document start with a comment or tag."""
    lines = _VALID[form].format(k=key).splitlines()
    body = "\n".join([HUNK, *(CHANGED + line for line in lines)])
    try:
        workflow_hunks(".github/workflows/c.yml", body.encode())
    except ManifestError as exc:  # an anchor or tag on a changed line is yamlforms' `partial` problem, no duplicate
        assert "twice" not in str(exc), body


@pytest.mark.parametrize("key", _KEYS)
def test_a_duplicate_in_a_hunk_is_still_refused(key: str) -> None:
    """Look-alike that must not change: a hunk showing one key twice in one mapping."""
    body = "\n".join([HUNK, *(CHANGED + line for line in f"steps:\n  - {key}: a\n    {key}: b\n".splitlines())])
    with pytest.raises(ManifestError):
        workflow_hunks(".github/workflows/c.yml", body.encode())


def test_the_whole_file_check_stays_linear() -> None:
    """A 64 KiB workflow of steps costs the strict read in proportion to its length."""
    head = "on: push\njobs:\n  j:\n    runs-on: x\n    steps:\n"
    unit = "      - uses: a/b@v1\n        with:\n          k: 1\n      - run: |\n          k: 1\n          k: 2\n"
    assert_linear(lambda text: parse_workflow(".github/workflows/c.yml", text.encode()), repeated(unit, head),
                  budget=0.5)
