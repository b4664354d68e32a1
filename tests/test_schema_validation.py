"""Schema validation stays linear: operation counts, not timings (bench/bench_limits.py has the timings)."""

from __future__ import annotations

import copy
import json
from typing import Any

import jsonschema
import pytest
from conftest import POLICY_DIR
from gitrepo import GitRepo
from hypothesis import given, settings
from hypothesis import strategies as st

from gatekeeper import schema_validation
from gatekeeper.classify import load_rules
from gatekeeper.errors import PacketError
from gatekeeper.gate_input import build_input
from gatekeeper.packet import build_packet, derive
from gatekeeper.verify import MAX_FILES, SCHEMA_FILE, validate_packet

INPUT_SCHEMA = "input-v1.schema.json"


@pytest.fixture(scope="module")
def packet(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    tmp = tmp_path_factory.mktemp("packet")
    repo = GitRepo(tmp / "repo")
    repo.write("src/a.py", "1\n")
    repo.write(".github/workflows/ci.yml", "on: push\n")
    repo.commit()
    repo.write("src/a.py", "2\n")
    repo.write(".github/workflows/ci.yml", "on: pull_request\n")
    rules = load_rules(POLICY_DIR)
    return build_packet(derive(repo.save_patch(tmp / "change.diff"), rules), rules, run_id="run-1")


class Counter:
    """Counts jsonschema's work: errors built and schema descents."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.errors = self.descents = 0
        init = jsonschema.exceptions.ValidationError.__init__
        cls = type(schema_validation.validator(SCHEMA_FILE))
        descend = cls.descend

        def counting_init(error: Any, *args: Any, **kwargs: Any) -> None:
            self.errors += 1
            init(error, *args, **kwargs)

        def counting_descend(validator: Any, *args: Any, **kwargs: Any) -> Any:
            self.descents += 1
            return descend(validator, *args, **kwargs)

        monkeypatch.setattr(jsonschema.exceptions.ValidationError, "__init__", counting_init)
        monkeypatch.setattr(cls, "descend", counting_descend)


def _with_files(packet: dict[str, Any], count: int, last: dict[str, Any] | None = None) -> dict[str, Any]:
    entry = packet["files"][0]
    out = copy.deepcopy(packet)
    out["files"] = [dict(entry, path=f"src/f{n}.py") for n in range(count)]
    if last is not None:
        out["files"][-1] = last
    return out


@pytest.mark.parametrize(
    "bad",
    [
        {},  # the packet of `{}` entries
        {"path": "x", "status": "bogus"},
        "not an object",
    ],
)
def test_jsonschema_work_does_not_grow_with_bad_entries(
    packet: dict[str, Any], bad: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    counts = []
    for n in (10, 10_000):
        all_bad = dict(copy.deepcopy(packet), files=[bad] * n)
        last_bad = _with_files(packet, n, last=bad)
        for doc in (all_bad, last_bad):
            counter = Counter(monkeypatch)
            with pytest.raises(PacketError) as info:
                validate_packet(doc, "p")
            monkeypatch.undo()
            counts.append((counter.errors, counter.descents))
            if doc is last_bad:
                assert f"files[{n - 1}]" in str(info.value)
    small, big = counts[:2], counts[2:]
    assert small == big  # the same jsonschema work for 10 and 10,000 bad entries
    assert all(errors <= 40 and descents <= 40 for errors, descents in counts), counts


def test_a_valid_packet_never_reaches_jsonschema(packet: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    doc = _with_files(packet, 5_000)
    counter = Counter(monkeypatch)
    assert validate_packet(doc, "p") is doc
    assert (counter.errors, counter.descents) == (0, 0)


def test_too_many_file_entries_are_refused_before_the_schema(
    packet: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    doc = dict(copy.deepcopy(packet), files=[{}] * (MAX_FILES + 1))
    counter = Counter(monkeypatch)
    with pytest.raises(PacketError, match=r"p: files: 200,001 file entries, more than the 200,000"):
        validate_packet(doc, "p")
    assert (counter.errors, counter.descents) == (0, 0)
    schema = schema_validation.load(SCHEMA_FILE)
    assert schema["properties"]["files"]["maxItems"] == MAX_FILES  # the published contract says the same


@pytest.fixture(scope="module")
def policy_input(packet: dict[str, Any], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    tmp = tmp_path_factory.mktemp("input")
    repo = GitRepo(tmp / "repo")
    repo.write("src/a.py", "1\n")
    repo.write("package.json", '{"dependencies": {}}\n')
    repo.commit()
    repo.write("src/a.py", "2\n")
    repo.write("package.json", '{"dependencies": {"left-pad": "1.3.0"}}\n')
    rules = load_rules(POLICY_DIR)
    derived = derive(repo.save_patch(tmp / "change.diff"), rules)
    doc = build_input(build_packet(derived, rules, run_id="run-1"), derived, [])
    assert schema_validation.first_error(INPUT_SCHEMA, doc) is None
    return doc


@pytest.mark.parametrize("name", [SCHEMA_FILE, INPUT_SCHEMA])
def test_located_errors_are_errors_jsonschema_reports(
    name: str, packet: dict[str, Any], policy_input: dict[str, Any]
) -> None:
    """Mutants of a real document: the compiled check never calls valid what jsonschema rejects, and the
    error it locates is one jsonschema reports (same path, same message)."""
    valid = packet if name == SCHEMA_FILE else policy_input
    stock = jsonschema.Draft202012Validator(schema_validation.load(name))
    values: list[Any] = [None, True, 0, -1, "", "bogus", [], {}, "a" * 400, {"x": 1}, ["x", "x"]]
    checked = 0

    def mutate(node: Any, path: list[Any]) -> None:
        nonlocal checked
        keys = range(len(node)) if isinstance(node, list) else list(node) if isinstance(node, dict) else []
        for key in keys:
            for value in values:
                doc = json.loads(json.dumps(valid))
                target = doc
                for step in path:
                    target = target[step]
                target[key] = value
                found = schema_validation.first_error(name, doc)
                errors = list(stock.iter_errors(doc))
                assert (found is None) == (not errors), doc
                if found is not None:
                    reported = {(schema_validation.json_path(e.absolute_path), e.message[:300]) for e in errors}
                    assert (found[0], found[1].removesuffix("...")) in reported, (found, reported)
                    checked += 1
            mutate(node[key], [*path, key])

    mutate(valid, [])
    assert checked > 200


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2, 2) | st.sampled_from([0.0, 1.0, 2.5]) | st.sampled_from(["a", "b"]),
    lambda children: st.lists(children, max_size=3)
    | st.dictionaries(st.sampled_from(["a", "b"]), children, max_size=2),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None)
@given(items=st.lists(json_values, max_size=6))
def test_linear_unique_items_agrees_with_jsonschema(items: list[Any]) -> None:
    ours = schema_validation.validator(INPUT_SCHEMA).evolve(schema={"uniqueItems": True})
    stock = jsonschema.Draft202012Validator({"uniqueItems": True})
    assert ours.is_valid(items) == stock.is_valid(items)


def test_unique_items_does_not_compare_pairwise(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = 0
    equal = jsonschema._utils.equal

    def counting_equal(one: Any, two: Any) -> bool:
        nonlocal calls
        calls += 1
        return bool(equal(one, two))

    monkeypatch.setattr(jsonschema._utils, "equal", counting_equal)
    tags = [{"n": n} for n in range(3_000)]  # unsortable: stock jsonschema makes ~4.5 million comparisons
    ours = schema_validation.validator(INPUT_SCHEMA).evolve(schema={"uniqueItems": True})
    assert ours.is_valid(tags) and not ours.is_valid([*tags, {"n": 7}])
    assert calls == 0


def test_the_policy_input_schema_is_compiled_too() -> None:
    assert schema_validation._compiled(INPUT_SCHEMA) is not None
    assert schema_validation._compiled(SCHEMA_FILE) is not None

