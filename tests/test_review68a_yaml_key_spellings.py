"""Review 68a: two spellings of one YAML key (`0x11` and `17`, `~` and `null`, `yes` and `true`, `1.0` and `1.00`).

deps/loaders.py refuses a mapping that gives one key two values (deps58), comparing the keys as written (tag and
text): two spellings that PyYAML builds into one key passed, and PyYAML kept the last value, while a YAML 1.2 reader
(Go's yaml.v3: `yes` is a string there) keeps both keys. Now the keys as built are compared too. Look-alikes: `1` and
`"1"` (two keys to every reader), a key and one with an invisible character, two spellings with one value."""

from __future__ import annotations

import pytest
from cpucost import assert_linear, repeated
from tables import each_case

from gatekeeper.deps.loaders import load_yaml, load_yaml_all
from gatekeeper.deps.model import ManifestError

SPELLINGS = [("0x11", "17"), ("021", "17"), ("17", "+17"), ("~", "null"), ("null", "Null"), ("yes", "true"),
             ("on", "True"), ("no", "false"), ("1.0", "1.00"), ("1", "1.0"), ("true", "1"), ("0", "false"),
             (".inf", "+.INF"), ("1_000", "1000"), ("0b10001", "17")]
SHAPES = ["{a}: 1.0.0\n{b}: 2.0.0\n", "deps:\n  {a}: 1.0.0\n  other: x\n  {b}: 2.0.0\n", "{{{a}: 1.0.0, {b}: 2.0.0}}\n",
          "- name: x\n  {a}: 1.0.0\n  {b}: 2.0.0\n", "? {a}\n: 1.0.0\n? {b}\n: 2.0.0\n"]


@each_case("text", [shape.format(a=a, b=b) for a, b in SPELLINGS for shape in SHAPES])
def test_two_spellings_of_one_key_are_refused(text: str) -> None:
    with pytest.raises(ManifestError, match="duplicate key"):  # before: 75 of 75 read with the last value
        load_yaml(text.encode())
    with pytest.raises(ManifestError, match="duplicate key"):
        load_yaml_all(text.encode(), 4)


@each_case("text, want", [("1: a\n'1': b\n", {1: "a", "1": "b"}), ("a: 1\n\"a\\u200b\": 2\n", {"a": 1, "a\u200b": 2}),
                          ("0x11: a\n17: a\n", {17: "a"}), ("~: x\nnull: x\n", {None: "x"}),
                          ("a: {v: 1}\nb:\n  <<: {v: 1}\n  v: 2\n", {"a": {"v": 1}, "b": {"v": 2}})])
def test_look_alikes_read_as_before(text: str, want: object) -> None:
    assert load_yaml(text.encode()) == want


def test_built_keys_are_compared_in_linear_time() -> None:
    assert_linear(load_yaml, repeated(b"- {0x11: a, 17: a, b: 1, c: 2}\n", b"", b""), budget=4.0)
