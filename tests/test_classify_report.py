"""`classify_report`, the library side of `gatekeeper classify`: one input, the right rendering."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from gatekeeper.classify.report import ClassifyRequest, classify_report
from gatekeeper.errors import InputFileError, UsageError

POLICY = Path(__file__).resolve().parent.parent / "policies"


def request(**given: object) -> ClassifyRequest:
    fields: dict[str, object] = {"patch": None, "paths": None, "policy_dir": POLICY, "fmt": "text", "explain": ()}
    return ClassifyRequest(**{**fields, **given})  # type: ignore[arg-type]


@pytest.mark.parametrize("given", [{}, {"paths": "-", "explain": ("a",)}])
def test_exactly_one_input(given: dict[str, object]) -> None:
    with pytest.raises(UsageError, match="exactly one of"):
        classify_report(request(**given), io.BytesIO())


def test_paths_from_the_stream_in_input_order_as_json() -> None:
    stdin = io.BytesIO(b"src/a.go\n.github/workflows/ci.yml\n")
    doc = json.loads(classify_report(request(paths="-", fmt="json"), stdin))
    assert [(f["path"], f["bucket"]) for f in doc["files"]] == [("src/a.go", "src"), (".github/workflows/ci.yml", "ci")]


def test_an_unreadable_listing_names_the_file(tmp_path: Path) -> None:
    with pytest.raises(InputFileError) as caught:
        classify_report(request(paths=str(tmp_path / "missing.txt")), io.BytesIO())
    assert caught.value.where == str(tmp_path / "missing.txt")


def test_explain_names_the_deciding_rule() -> None:
    text = classify_report(request(explain=(".github/workflows/ci.yml",)), io.BytesIO())
    assert ".github/workflows/ci.yml" in text and "ci." in text
