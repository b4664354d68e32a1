"""docs/architecture.md's module map matches the package: every module is named once, every name is a module.

Issue 13 asks for "a one-page architecture map matching the code"; a map that a new module can silently skip
stops matching it. A package's `__init__` and `__main__` are its doors, not modules of their own, and are not
listed.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "gatekeeper"
MAP = ROOT / "docs" / "architecture.md"
ROW = re.compile(r"^\| `(?P<package>[a-z_]+/)` \| [^|]+ \| (?P<modules>[^|]+) \|$")


def listed() -> Counter[str]:
    section = MAP.read_text(encoding="utf-8").split("## Every module, by what it is for", 1)[1]
    names: Counter[str] = Counter()
    for line in section.splitlines():
        row = ROW.match(line)
        if row is None:
            continue
        package = "" if row["package"] == "gatekeeper/" else row["package"]
        for module in re.findall(r"`([a-z_0-9]+)`", row["modules"]):
            names[f"{package}{module}"] += 1
    return names


def modules() -> set[str]:
    return {path.relative_to(PACKAGE).with_suffix("").as_posix() for path in PACKAGE.rglob("*.py")
            if path.stem not in ("__init__", "__main__")}


def test_every_module_is_on_the_map_once_and_every_name_is_a_module() -> None:
    names = listed()
    assert len(names) > 250, "the map's rows were not read: its table layout changed"
    assert sorted(modules() - set(names)) == [], "modules the map does not place (add each to its row)"
    assert sorted(set(names) - modules()) == [], "names on the map that are no module (renamed or removed)"
    assert sorted(name for name, count in names.items() if count > 1) == [], "modules placed twice"
