"""A Renovate config written in JSON5 (`renovate.json5`, `.github/renovate.json5`, `.renovaterc.json5`), read with the
`json5` package (deps32): its custom regex managers name what they name in a JSON config.

Renovate looks for its config in a fixed order of names, JSON5 ones among them, and reads a config that is not JSON
as JSON5. Before, only the JSON names were looked up and only JSON was read: vanniktech/gradle-maven-publish-plugin's
`.github/renovate.json5` manager for the `gradle` key of its version catalogs named nothing (2 `--tree` misses of the
thirtieth set). A config that cannot be read (not JSON5, a key given twice, nested too deep, too large) and could hold
such managers is a `partial` problem on the config: the versions they would read are unread (review by hand), never
a crash and never a silent pass. The config is BASE's, as before.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cpucost import assert_linear
from tables import each_case

from gatekeeper.deps import renovatecustom
from gatekeeper.deps.model import ManifestError
from gatekeeper.deps.sources import Delta
from tests.deltas import each_fast, moves, partial
from tests.deltas import tree as _tree
from tests.gitrepo import edited_commits

GO_MANAGER = {
    "customType": "regex",
    "managerFilePatterns": ["/^GO_VERSION$/"],
    "matchStrings": ["^(?<currentValue>[0-9.]+)"],
    "depNameTemplate": "docker.io/example/build",
    "datasourceTemplate": "docker",
}
MOVE = ("docker", "docker.io/example/build", "1.25.1", "1.26.0")

# The shape repositories write: comments, unquoted keys, single quotes, trailing commas, a regex in a JSON5 string
JSON5_CONFIG = """\
{
  $schema: 'https://docs.renovatebot.com/renovate-schema.json',
  // the shared preset first
  extends: ['config:recommended',],
  /* the build image's version lives in GO_VERSION */
  customManagers: [
    {
      customType: 'regex',
      managerFilePatterns: ['/^GO_VERSION$/'],
      matchStrings: ['^(?<currentValue>[0-9.]+)'],
      depNameTemplate: 'docker.io/example/build',
      datasourceTemplate: "docker",
    },
  ],
}
"""


def _delta(root: Path, files: dict[str, str]) -> Delta:
    repo, base, head = edited_commits(root, {"README.md": "app\n", "GO_VERSION": "1.25.1\n", **files},
                                      {"GO_VERSION": {"1.25.1": "1.26.0"}})
    return _tree(repo, base, head)


@each_case("place", ["renovate.json5", ".github/renovate.json5", ".gitlab/renovate.json5",
                                   ".renovaterc.json5"])
def test_a_json5_config_is_read(tmp_path: Path, place: str) -> None:
    delta = _delta(tmp_path, {place: JSON5_CONFIG})
    assert MOVE in moves(delta) and not delta.problems


@pytest.mark.parametrize("place", ["renovate.json", ".github/renovate.json", ".renovaterc"])
def test_a_json_named_config_holding_json5_is_read_as_renovate_reads_it(tmp_path: Path, place: str) -> None:
    delta = _delta(tmp_path, {place: JSON5_CONFIG})
    assert MOVE in moves(delta) and not delta.problems


def test_renovates_order_of_names_picks_the_config(tmp_path: Path) -> None:
    # renovate.json comes before renovate.json5: the JSON5 file's manager is not Renovate's config then
    plain = json.dumps({"extends": ["config:recommended"]})
    delta = _delta(tmp_path / "a", {"renovate.json": plain, ".github/renovate.json5": JSON5_CONFIG})
    assert MOVE not in moves(delta) and not delta.problems
    # renovate.json5 comes before .github/renovate.json
    delta = _delta(tmp_path / "b", {"renovate.json5": JSON5_CONFIG, ".github/renovate.json": plain})
    assert MOVE in moves(delta)


@each_case("config, why", [
    (JSON5_CONFIG.replace("customManagers: [", "customManagers: [], customManagers: ["), "a key given twice"),
    (JSON5_CONFIG.replace("customType: 'regex',", "customType: 'regex', customType: 'regex',"),
     "a key given twice in a manager"),
    (json.dumps({"customManagers": [GO_MANAGER]})[:-1] + ', "customManagers": []}', "a JSON config's key twice"),
    (JSON5_CONFIG[:-3], "cut short"),
    (JSON5_CONFIG.replace("'config:recommended',", "'config:recommended"), "an unterminated string"),
    ("{customManagers: " + "[" * 5000 + "]" * 5000 + "}\n", "nested five thousand deep"),
    ("{customManagers: " + "[" * 70 + "]" * 70 + "}\n", "nested past the JSON bound"),
    ('{"customManagers": ' + "[" * 5000 + "]" * 5000 + "}\n", "JSON nested five thousand deep"),
    ("{customManagers: [], x: '" + "a" * (getattr(renovatecustom, "MAX_JSON5", 64 * 1024) + 1) + "'}\n",
     "past the JSON5 size bound"),
    ("{customManagers: [], n: " + "9" * 5000 + "}\n", "an integer past Python's digit limit"),
    ("\ufeff{customManagers: [] ]", "a stray bracket after a byte order mark"),
])
def test_an_unreadable_config_that_could_hold_managers_is_a_problem(tmp_path: Path, config: str, why: str) -> None:
    delta = _delta(tmp_path, {"renovate.json5": config})
    assert MOVE not in moves(delta), why
    assert partial(delta, "renovate.json5"), why
    problem = next(p for p in delta.problems if p.manifest == "renovate.json5")
    assert "Renovate config" in problem.msg and "custom regex managers" in problem.msg, problem.msg


def test_an_unreadable_json_config_is_a_problem_too(tmp_path: Path) -> None:
    broken = json.dumps({"customManagers": [GO_MANAGER]}, indent=2)[:-2]
    delta = _delta(tmp_path, {".github/renovate.json": broken})
    assert partial(delta, ".github/renovate.json") and MOVE not in moves(delta)


@pytest.mark.parametrize("config", ["{extends: ['config:recommended'], labels: ['deps'] ", "// nothing\n{,}\n",
                                    "not json at all"])
def test_an_unreadable_config_without_managers_names_nothing(tmp_path: Path, config: str) -> None:
    # no custom manager can be in it (neither key, no escape that could spell one): nothing is unread
    delta = _delta(tmp_path, {"renovate.json5": config})
    assert not delta.changes and not delta.problems


def test_an_escaped_key_is_no_way_around_the_problem(tmp_path: Path) -> None:
    # JSON5 allows `\\u` escapes in keys: `custom\\u004danagers` is customManagers
    config = JSON5_CONFIG.replace("customManagers: [", "custom\\u004danagers: [").replace("}\n", "")
    assert "Managers" not in config
    delta = _delta(tmp_path, {"renovate.json5": config})
    assert partial(delta, "renovate.json5")
    readable = JSON5_CONFIG.replace("customManagers: [", "custom\\u004danagers: [")
    assert MOVE in moves(_delta(tmp_path / "b", {"renovate.json5": readable}))


def test_the_reader_bounds_hostile_configs() -> None:
    each_fast([
        (lambda: renovatecustom.managers(b"{a:" * 100_000), "deep nesting"),
        (lambda: renovatecustom.managers(b"{" + b"/**/" * 16_000 + b"}"), "many comments"),
    ], 5.0)
    # the json5 package reads ~110 us a value (32,000 values: 3.5-6.2 CPU-s on the restarted VM): linear, not fast;
    # 1,024 values small, 4,096 large (16,384 far)
    for unit, end in ((b"1,", b"]"), (b"'a',", b"")):
        assert_linear(renovatecustom.managers, lambda size, unit=unit, end=end: b"[" + unit * (size // 16) + end,
                      budget=5.0)
    for hostile in (b"{a:" * 100_000, b"\xff\xfe{}", b"{a: 1, a: 2}", b"[" * 65):
        with pytest.raises(ManifestError):
            renovatecustom.config_document(hostile)
        assert renovatecustom.managers(hostile) == []
    assert renovatecustom.config_document(b"{a: [1, 2,], 'b': 0x10, c: Infinity, // x\n}") == {
        "a": [1, 2], "b": 16, "c": float("inf")}
