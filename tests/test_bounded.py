"""The bounded JSON/YAML reader: hostile shapes are refused with LimitError before any parser recurses."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from tables import each_case

from gatekeeper import bounded
from gatekeeper.bounded import Limits
from gatekeeper.errors import ExitCode, LimitError

SMALL = Limits(max_bytes=4096, max_depth=8, max_values=200)
DEPTHS = (65, 100, 1000, 10_000, 100_000)


def depth_of(value: object) -> int:
    """Nesting depth of arrays/objects, counted independently of the code under test."""
    if isinstance(value, dict):
        return 1 + max(map(depth_of, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(depth_of, value), default=0)
    return 0


def deep_json(kind: str, depth: int) -> str:
    if kind == "array":
        return "[" * depth + "]" * depth
    if kind == "object":
        return '{"a":' * depth + "0" + "}" * depth
    pairs = (depth + 1) // 2
    return '[{"a":' * pairs + "0" + "}]" * pairs  # mixed


@each_case("depth", DEPTHS)
@each_case("kind", ["array", "object", "mixed"])
def test_deep_json_is_refused_with_its_line(kind: str, depth: int) -> None:
    text = "\n\n" + deep_json(kind, depth)
    with pytest.raises(LimitError) as info:
        bounded.load_json(text, "doc.json")
    assert str(info.value).startswith("doc.json:3: nested deeper than 64 levels")
    assert info.value.exit_code == ExitCode.ERROR


def test_depth_at_the_limit_is_read() -> None:
    assert depth_of(bounded.load_json(deep_json("array", 64), "doc.json")) == 64
    assert depth_of(bounded.load_json(deep_json("object", 64), "doc.json")) == 64


@each_case("text", [
        '"' + "[" * 100_000 + '"',  # brackets in a string are not nesting
        '["' + '\\"[' * 50_000 + '"]',  # nor after escaped quotes
        '{"k\\\\": "[[[[[[[[[[[[[[[["}',
    ])
def test_brackets_inside_strings_do_not_count(text: str) -> None:
    assert bounded.load_json(text, "doc.json") == json.loads(text)


def test_commas_inside_strings_are_not_values() -> None:
    text = '["' + "," * 5000 + '", "' + "[{" * 3000 + '"]'
    assert bounded.load_json(text, "doc.json", Limits(1 << 20, 8, 200)) == json.loads(text)


def test_an_unterminated_string_is_a_syntax_error_and_linear() -> None:
    with pytest.raises(json.JSONDecodeError):
        bounded.load_json('["' + "\\x" * 200_000, "doc.json")


WIDE = ["[" + "0," * 300 + "0]", "[" + "{}," * 300 + "{}]", '{"' + '":0,"'.join(map(str, range(300))) + '":0}']


@each_case("text", WIDE)
def test_wide_json_is_refused(text: str) -> None:
    with pytest.raises(LimitError, match="more than 200 values"):
        bounded.load_json(text, "doc.json", SMALL)


@pytest.mark.parametrize("size", [4097, 100_000])
def test_big_json_is_refused_before_parsing(size: int) -> None:
    for text in ('"' + "x" * size + '"', ('"' + "x" * size + '"').encode()):
        with pytest.raises(LimitError, match="larger than 4,096 bytes"):
            bounded.load_json(text, "doc.json", SMALL)


def test_characters_are_measured_as_utf8_bytes() -> None:
    text = '"' + "é" * 2100 + '"'  # 2,102 characters, 4,202 bytes
    with pytest.raises(LimitError, match="larger than"):
        bounded.load_json(text, "doc.json", SMALL)


def test_json_options_pass_through() -> None:
    with pytest.raises(ValueError, match="NaN"):
        bounded.load_json("[NaN]", "doc.json", parse_constant=lambda name: (_ for _ in ()).throw(ValueError(name)))


def test_the_depth_measure_is_iterative() -> None:
    value: list[object] = []
    for _ in range(200_000):  # far past the recursion limit
        value = [value]
    assert bounded.depth_of(value) == 200_001 and bounded.depth_of(3) == 0 and bounded.depth_of({}) == 1


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet='[]{}"\\,:ab \n', max_size=6),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(alphabet='[]{}"\\a', max_size=3), children, max_size=4),
    max_leaves=40,
)


@settings(max_examples=150, deadline=None)
@given(value=json_values, limit=st.integers(min_value=0, max_value=10), indent=st.sampled_from([None, 1]))
def test_json_depth_check_agrees_with_the_parsed_value(value: Any, limit: int, indent: int | None) -> None:
    text = json.dumps(value, indent=indent)
    limits = Limits(max_bytes=1 << 20, max_depth=limit, max_values=1 << 20)
    if depth_of(value) > limit:
        with pytest.raises(LimitError, match="nested deeper"):
            bounded.load_json(text, "doc.json", limits)
    else:
        assert bounded.load_json(text, "doc.json", limits) == value


@settings(max_examples=200, deadline=None)
@given(value=json_values, indent=st.sampled_from([None, 2]), flow=st.booleans())
def test_yaml_depth_check_agrees_with_the_parsed_value(value: Any, indent: int | None, flow: bool) -> None:
    text = yaml.safe_dump(value, indent=indent, default_flow_style=flow)
    limit = max(depth_of(value) - 1, 0)
    if depth_of(value) > 0:
        with pytest.raises(LimitError, match="nested deeper"):
            bounded.load_yaml(text, "doc.yaml", Limits(1 << 20, limit, 1 << 20))
    assert bounded.load_yaml(text, "doc.yaml", Limits(1 << 20, depth_of(value), 1 << 20)) == value


def deep_yaml(kind: str, depth: int) -> str:
    if kind == "flow":
        return "[" * depth + "]" * depth
    if kind == "flow-map":
        return "{a: " * depth + "0" + "}" * depth
    if kind == "block":
        return "- " * depth + "x\n"
    return "".join(" " * i + "a:\n" for i in range(min(depth, 1000))) + " " * min(depth, 1000) + "b\n"


@each_case("depth", DEPTHS)
@each_case("kind", ["flow", "flow-map", "block", "block-map"])
@each_case("loader", [yaml.SafeLoader, getattr(yaml, "CSafeLoader", yaml.SafeLoader)])
def test_deep_yaml_is_refused(kind: str, depth: int, loader: type[Any]) -> None:
    text = deep_yaml(kind, depth)
    # libyaml refuses flow nesting past 1,000 itself, while scanning ahead: a YAML error, still no recursion.
    with pytest.raises((LimitError, yaml.YAMLError)) as info:
        bounded.load_yaml(text, "doc.yaml", loader=loader)
    assert "nested deeper than 64 levels" in str(info.value) or "nesting depth" in str(info.value)


def laughs(levels: int, width: int = 10) -> str:
    lines = ["l0: &l0 [" + ", ".join(["lol"] * width) + "]"]
    for n in range(1, levels):
        lines.append(f"l{n}: &l{n} [" + ", ".join([f"*l{n - 1}"] * width) + "]")
    return "\n".join(lines) + "\n"


@each_case("levels", [6, 9, 30])
def test_billion_laughs_is_refused_at_the_line_that_explodes(levels: int) -> None:
    with pytest.raises(LimitError) as info:
        bounded.load_yaml(laughs(levels), "doc.yaml")
    assert "values (aliases counted as what they expand to)" in str(info.value)
    assert str(info.value).startswith("doc.yaml:6:")  # 10**5 * 10 values pass the 250,000 cap on line 6


def test_aliases_within_the_limits_are_read() -> None:
    assert bounded.load_yaml(laughs(3), "doc.yaml")["l2"][0][0] == ["lol"] * 10


def test_merge_keys_count_their_expansion() -> None:
    text = "base: &b {" + ", ".join(f"k{i}: {i}" for i in range(50)) + "}\n" + "".join(
        f"m{i}: {{<<: *b}}\n" for i in range(10)
    )
    with pytest.raises(LimitError, match="more than 200 values"):
        bounded.load_yaml(text, "doc.yaml", SMALL)


@each_case("text", ["&a [*a]", "&a {x: *a}", "a: &a\n  b: [1, *a]\n", "&a [[[*a]]]", "- &a [x, *a]"])
def test_alias_cycles_are_refused(text: str) -> None:
    with pytest.raises(LimitError, match="cycle"):
        bounded.load_yaml(text, "doc.yaml")
    with pytest.raises(LimitError, match="cycle"):
        bounded.compose_yaml(text, "doc.yaml")


def test_an_alias_deepens_by_what_it_repeats() -> None:
    text = "a: &a " + "[" * 40 + "]" * 40 + "\nb: " + "[" * 30 + "*a" + "]" * 30 + "\n"
    with pytest.raises(LimitError, match=r"doc.yaml:2: nested deeper than 64 levels \(alias \*a expanded\)"):
        bounded.load_yaml(text, "doc.yaml")


def test_an_undefined_alias_is_left_to_the_composer() -> None:
    with pytest.raises(yaml.composer.ComposerError, match="undefined alias"):
        bounded.load_yaml("[*nowhere]", "doc.yaml")


def test_aliased_strings_count_their_characters() -> None:
    text = "s: &s " + "x" * 1000 + "\nl: [" + ", ".join(["*s"] * 10) + "]\n"
    with pytest.raises(LimitError, match="expands to more than 4,096 characters"):
        bounded.load_yaml(text, "doc.yaml", SMALL)


def test_big_yaml_is_refused_before_parsing() -> None:
    with pytest.raises(LimitError, match="larger than 4 MiB"):
        bounded.load_yaml("x: " + "y" * (4 << 20), "doc.yaml")


def test_wide_yaml_is_refused() -> None:
    with pytest.raises(LimitError, match="more than 200 values"):
        bounded.load_yaml("[" + "1, " * 300 + "1]", "doc.yaml", SMALL)


def test_embedded_yaml_reports_lines_of_its_file() -> None:
    with pytest.raises(LimitError) as info:
        bounded.load_yaml("a:\n  b: " + "[" * 70, "policy.rego", first_line=10)
    assert str(info.value).startswith("policy.rego:11: nested deeper")


def test_files_are_read_no_further_than_the_cap(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    with open(big, "wb") as handle:
        handle.truncate(1 << 30)  # sparse: a 1 GiB file costs nothing, and is never read whole
    with pytest.raises(LimitError, match="larger than 4,096 bytes"):
        bounded.read_bytes(big, SMALL)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(OSError, match="not a regular file"):
        bounded.read_bytes(fifo, SMALL)  # no writer: a plain open() would block forever
    writer = os.open(fifo, os.O_RDWR)  # a writer that never writes: reading would block forever
    try:
        with pytest.raises(OSError, match="not a regular file"):
            bounded.read_bytes(fifo, SMALL)
    finally:
        os.close(writer)
    with pytest.raises(OSError, match="not a regular file"):
        bounded.read_bytes(Path("/dev/zero"), SMALL)


# --- read_bytes: the file's bytes to the cap, whatever its stat said (suite round 33 sizes the read by fstat) ------


def _stat_saying(real: os.stat_result, size: int) -> os.stat_result:
    return os.stat_result((*real[:6], size, *real[7:10]))


_TOLD = ("true", "half", "zero", "one", "double", "past-cap")  # what fstat says of the size: the file grew or shrank


@each_case(("cap", "size", "told"), [(cap, cap + delta, told) for cap in (1, 7, 4096, 65_536)
                                     for delta in (-4096, -2, -1, 0, 1, 2, 5_000) if cap + delta >= 0
                                     for told in _TOLD])
def test_read_bytes_reads_to_the_cap_whatever_fstat_said(tmp_path: Path, cap: int, size: int, told: str) -> None:
    path = tmp_path / "f"
    data = bytes(range(256)) * (size // 256) + bytes(range(size % 256))
    path.write_bytes(data)
    said = {"true": size, "half": size // 2, "zero": 0, "one": 1, "double": 2 * size, "past-cap": cap + 1}[told]
    real_fstat = os.fstat
    limits = Limits(max_bytes=cap, max_depth=64, max_values=1_000)
    with mock.patch.object(bounded.os, "fstat", lambda fd: _stat_saying(real_fstat(fd), said)):
        if size > cap:
            with pytest.raises(LimitError):
                bounded.read_bytes(path, limits)
        else:
            assert bounded.read_bytes(path, limits) == data


def test_read_bytes_of_an_empty_file_and_of_one_past_a_big_cap(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.write_bytes(b"")
    assert bounded.read_bytes(empty) == b""
    big = tmp_path / "big"
    big.write_bytes(b"x" * ((4 << 20) + 1))
    with pytest.raises(LimitError):
        bounded.read_bytes(big, bounded.YAML)
    big.write_bytes(b"x" * (4 << 20))
    assert len(bounded.read_bytes(big, bounded.YAML)) == 4 << 20
