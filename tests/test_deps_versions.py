"""Version ordering per ecosystem, checked against the orders the ecosystems document."""

from __future__ import annotations

import itertools
import random

from hypothesis import given
from hypothesis import strategies as st
from tables import each_case

from gatekeeper.deps.versions import base_version, compare, compare_maven, compare_semver

# SemVer 2.0 §11's own example, in ascending order.
SEMVER_ORDER = ["1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2", "1.0.0-beta.11",
                "1.0.0-rc.1", "1.0.0", "1.0.1", "1.1.0", "2.0.0", "10.0.0"]
# Maven's ComparableVersion documentation order.
MAVEN_ORDER = ["1-alpha", "1-beta", "1-milestone", "1-rc", "1-snapshot", "1", "1-sp", "1.0.1", "1.1", "1.10"]
PEP440_ORDER = ["1.0.dev1", "1.0a1", "1.0b2", "1.0rc1", "1.0", "1.0.post1", "1.1", "1!0.5"]
GEM_ORDER = ["1.0.0.a", "1.0.0.beta2", "1.0.0.rc1", "1.0.0", "1.0.1", "1.10"]


@each_case("ecosystem, order", [
    ("npm", SEMVER_ORDER), ("maven", MAVEN_ORDER), ("pip", PEP440_ORDER), ("bundler", GEM_ORDER)])
def test_documented_orders(ecosystem: str, order: list[str]) -> None:
    for (i, a), (j, b) in itertools.product(enumerate(order), repeat=2):
        assert compare(ecosystem, a, b) == (i > j) - (i < j), (a, b)


def test_sorting_shuffled_semver_gives_the_spec_order() -> None:
    import functools

    shuffled = SEMVER_ORDER[:]
    random.Random(7).shuffle(shuffled)
    assert sorted(shuffled, key=functools.cmp_to_key(lambda a, b: compare_semver(a, b) or 0)) == SEMVER_ORDER


def test_equalities_and_unorderable() -> None:
    assert compare_maven("1.0.0", "1") == 0 and compare_maven("1-final", "1") == 0
    assert compare("pip", "1.0", "1.0.0") == 0
    assert compare("npm", "^1.2.3", "^1.3.0") == -1  # single-bound constraints order by their bound
    assert compare("npm", ">=1 <2", "^2") is None  # a range does not
    assert compare("github-actions", "main", "v4") is None
    assert compare("go", "v1.2.3", "v1.10.0") == -1
    assert base_version("~> 2.0") == "2.0" and base_version("1.0 || 2.0") is None


versions = st.tuples(st.integers(0, 30), st.integers(0, 30), st.integers(0, 30)).map(lambda t: ".".join(map(str, t)))


@given(versions, versions)
def test_semver_agrees_with_tuple_order(a: str, b: str) -> None:
    ta, tb = tuple(map(int, a.split("."))), tuple(map(int, b.split(".")))
    assert compare_semver(a, b) == (ta > tb) - (ta < tb)
    assert compare("pip", a, b) == compare("maven", a, b) == compare("bundler", a, b) == (ta > tb) - (ta < tb)


def test_update_levels() -> None:
    from gatekeeper.deps.versions import update_level

    assert update_level("npm", "^1.2.3", "^1.2.4") == "patch"
    assert update_level("npm", "1.2.3", "1.3.0") == "minor"
    assert update_level("pip", "1.0", "2.0") == "major"
    assert update_level("pip", "1.0", "1!0.5") == "major"  # an epoch restarts the numbering
    assert update_level("go", "v0.20.0", "v0.21.0") == "minor"
    assert update_level("docker", "3.11-slim", "3.12-slim") == "minor"
    assert update_level("npm", "1.0.0-rc.1", "1.0.0") == "patch"
    assert update_level("github-actions", "main", "v5") is None
