"""Benchmark: input limits. The biggest legitimate packet (10,000 files, from bench_packet.py) against the
caps, and how fast hostile documents are refused or rejected (packets of `{}` entries, a bad last entry,
deep JSON/YAML, billion laughs, unsortable uniqueItems).

Run: .venv/bin/python bench/bench_limits.py [--repeat N]
Everything it makes lives under bench/out/ (git-ignored). Prints numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import yaml  # noqa: E402
from bench_packet import make_patch, policy_dir  # noqa: E402

from gatekeeper import bounded, schema_validation  # noqa: E402
from gatekeeper.classify import load_rules  # noqa: E402
from gatekeeper.errors import GatekeeperError  # noqa: E402
from gatekeeper.packet import build_packet, derive, packet_json  # noqa: E402
from gatekeeper.verify import MAX_FILES, PACKET_LIMITS, load_packet  # noqa: E402


def best(call: Callable[[], object], repeat: int) -> tuple[float, str]:
    """Best wall time of `repeat` calls, and what the call said (the error's first words, or 'ok')."""
    seconds, said = float("inf"), "ok"
    for _ in range(repeat):
        start = time.perf_counter()
        try:
            call()
        except (GatekeeperError, ValueError, yaml.YAMLError) as exc:
            said = str(exc).split(" (")[0][-90:]
        seconds = min(seconds, time.perf_counter() - start)
    return seconds, said


def shape(text: str) -> tuple[int, int]:
    skeleton = bounded._JSON_STRING.sub("", text)
    return skeleton.count(",") + skeleton.count("[") + skeleton.count("{") + 1, bounded.depth_of(json.loads(text))


def write(name: str, text: str) -> Path:
    path = OUT / name
    path.write_text(text, encoding="utf-8")
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    repeat = parser.parse_args().repeat
    OUT.mkdir(parents=True, exist_ok=True)
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")

    rules = load_rules(policy_dir())
    packet = build_packet(derive(make_patch(), rules), rules)
    legit = write("limits-10k-packet.json", packet_json(packet))
    text = legit.read_text(encoding="utf-8")
    values, depth = shape(text)
    caps = PACKET_LIMITS
    print(
        f"10,000-file packet: {len(text) / 1e6:.1f} MB, {values:,} values, depth {depth}; caps: "
        f"{caps.max_bytes >> 20} MiB ({caps.max_bytes / len(text):.0f}x), {caps.max_values:,} values "
        f"({caps.max_values / values:.0f}x), depth {caps.max_depth}, {MAX_FILES:,} files (20x)"
    )
    seconds, said = best(lambda: load_packet(legit), repeat)
    print(f"  load_packet (read, shape check, parse, validate): {seconds:.3f} s ({said})")
    parsed = json.loads(text)
    count, _ = best(lambda: bounded._check_json_values(text.encode(), "p", caps), repeat)
    depth_s, _ = best(lambda: bounded.depth_of(parsed), repeat)
    print(f"  of which the value count (before parsing): {count:.3f} s, the depth walk (after): {depth_s:.3f} s")

    entry = packet["files"][0]
    for count in (10_000, 100_000, MAX_FILES):
        empties = write(f"limits-empties-{count}.json", json.dumps(dict(packet, files=[{}] * count)))
        seconds, said = best(lambda path=empties: load_packet(path), repeat)  # type: ignore[misc]
        size = empties.stat().st_size
        print(f"packet of {count:,} '{{}}' entries ({size / 1e6:.1f} MB): {seconds:.3f} s: {said}")
        doc = dict(packet, files=[dict(entry, path=f"f{n}") for n in range(count - 1)] + [dict(entry, status="x")])
        bad_last = write(f"limits-badlast-{count}.json", json.dumps(doc))
        seconds, said = best(lambda path=bad_last: load_packet(path), repeat)  # type: ignore[misc]
        print(f"packet of {count:,} entries, the last one bad: {seconds:.3f} s: {said}")
    over = write("limits-over.json", json.dumps(dict(packet, files=[{}] * (MAX_FILES + 1))))
    seconds, said = best(lambda: load_packet(over), repeat)
    print(f"packet of {MAX_FILES + 1:,} '{{}}' entries ({over.stat().st_size / 1e6:.1f} MB): {seconds:.3f} s: {said}")

    hostile: dict[str, tuple[str, Callable[[str], Any]]] = {
        "JSON [ x 10,000,000 (10 MB)": ("[" * 10_000_000, lambda t: bounded.load_json(t, "doc")),
        "YAML [ x 100,000": ("[" * 100_000, lambda t: bounded.load_yaml(t, "doc")),
        "YAML '- ' x 1,000,000": ("- " * 1_000_000 + "x", lambda t: bounded.load_yaml(t, "doc")),
        "YAML billion laughs (9 levels)": (
            "\n".join(
                ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
                + [f"a{n}: &a{n} [" + ", ".join([f"*a{n - 1}"] * 10) + "]" for n in range(1, 9)]
            ),
            lambda t: bounded.load_yaml(t, "doc"),
        ),
        "YAML 300,000 flat values (0.9 MB)": ("[" + "1, " * 300_000 + "1]", lambda t: bounded.load_yaml(t, "doc")),
    }
    for name, (doc_text, call) in hostile.items():
        seconds, said = best(lambda d=doc_text, c=call: c(d), repeat)  # type: ignore[misc]
        print(f"{name}: {seconds:.3f} s: {said}")

    rules_text = (policy_dir() / "classification.yaml").read_text(encoding="utf-8")


    check, _ = best(lambda: bounded.check_yaml_shape(rules_text, "r", bounded.YAML), repeat * 3)
    compose, _ = best(lambda: yaml.compose(rules_text, Loader=yaml.CSafeLoader), repeat * 3)
    print(f"classification.yaml ({len(rules_text.encode()) / 1e3:.0f} KB): shape check {check * 1e3:.1f} ms, compose "
          f"{compose * 1e3:.1f} ms")

    import jsonschema

    tags = [{"n": n} for n in range(2_000)]
    ours = schema_validation.validator("input-v1.schema.json").evolve(schema={"uniqueItems": True})
    stock = jsonschema.Draft202012Validator({"uniqueItems": True})
    mine, _ = best(lambda: ours.is_valid(tags), repeat)
    theirs, _ = best(lambda: stock.is_valid(tags), 1)
    print(f"uniqueItems over 2,000 unsortable items: {mine * 1e3:.1f} ms (stock jsonschema: {theirs:.1f} s)")
    old = copy.deepcopy(packet)
    old["files"] = [{}] * 20_000
    from jsonschema.exceptions import best_match

    start = time.perf_counter()
    best_match(schema_validation.validator("packet-v1.schema.json").iter_errors(old))
    print(f"before: best_match over every error of 20,000 '{{}}' entries: {time.perf_counter() - start:.2f} s")


if __name__ == "__main__":
    main()
