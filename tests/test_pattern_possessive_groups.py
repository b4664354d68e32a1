"""No capturing group inside a possessive repeat: Python 3.11's `re` raises SystemError ("The span of capturing
group is wrong, please report a bug for the re module") when a possessive repeat (`*+`, `++`, `?+`, `{m,n}+`)
holds a capturing group and an iteration after one that set the group takes another branch (CPython gh-101955:
`re.match('((x)|y|z)*+', 'xyz')`; fixed for 3.12 and 3.13 in November 2024, never for 3.11, which the project
supports). Found over real update commits: every Dependabot bump of manyfold3d/manyfold's Gemfile (`gem
"rubocop-pundit", github: "manyfold3d/rubocop-pundit", require: false`, a common Rails shape) stopped the delta
with that error (`gatekeeper deps`: "internal error", exit 2; the gate failed closed, but failed every such
change), because bundler's whole-line reader repeated its options possessively through a quote captured for its
backreference.

The class is guarded over every pattern the package compiles at import (module-level `re.Pattern` and `lazy`
patterns, parsed with the interpreter's own `re` parser), and the reader over generated gem lines.
"""

from __future__ import annotations

import importlib
import itertools
import pkgutil
import re
from re import _constants as sre  # type: ignore[attr-defined]
from re import _parser as sre_parse  # type: ignore[attr-defined]
from typing import Any

from tables import each_case

import gatekeeper
from gatekeeper.deps import bundler, residue
from gatekeeper.lazy_pattern import _Lazy
from tests.deltas import both_edited, moves

_REPEATS = (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT)


def _holds_group(items: Any) -> bool:
    for op, av in items:
        if op is sre.SUBPATTERN and (av[0] is not None or _holds_group(av[3])):
            return True
        if (op in _REPEATS and _holds_group(av[2])) or (op is sre.ATOMIC_GROUP and _holds_group(av)):
            return True
        if (op is sre.BRANCH and any(_holds_group(b) for b in av[1])) or (
                op in (sre.ASSERT, sre.ASSERT_NOT) and _holds_group(av[1])):
            return True
    return False


def possessive_groups(items: Any) -> int:
    """How many possessive repeats of a parsed pattern hold a capturing group (at any depth)."""
    found = 0
    for op, av in items:
        if op is sre.POSSESSIVE_REPEAT:
            found += _holds_group(av[2]) + possessive_groups(av[2])
        elif op in _REPEATS:
            found += possessive_groups(av[2])
        elif op is sre.SUBPATTERN:
            found += possessive_groups(av[3])
        elif op is sre.ATOMIC_GROUP:
            found += possessive_groups(av)
        elif op is sre.BRANCH:
            found += sum(possessive_groups(b) for b in av[1])
        elif op in (sre.ASSERT, sre.ASSERT_NOT):
            found += possessive_groups(av[1])
        elif op is sre.GROUPREF_EXISTS:
            found += possessive_groups(av[1]) + (possessive_groups(av[2]) if av[2] else 0)
    return found


def _parsed(source: str | bytes, flags: int) -> Any:
    text = source.decode("latin-1") if isinstance(source, bytes) else source
    return sre_parse.parse(text, flags & ~re.UNICODE if isinstance(source, bytes) else flags)


def _package_patterns() -> list[tuple[str, str | bytes, int]]:
    found, seen = [], set()
    for info in pkgutil.walk_packages(gatekeeper.__path__, "gatekeeper."):
        if info.name.endswith("__main__") or info.name.endswith("demo_agent"):  # the sandbox's agent script
            continue
        for name, value in vars(importlib.import_module(info.name)).items():
            if id(value) in seen or not isinstance(value, _Lazy | re.Pattern):
                continue
            seen.add(id(value))
            source, flags = (value._source, value._flags) if isinstance(value, _Lazy) else (value.pattern, value.flags)
            found.append((f"{info.name}.{name}", source, flags))
    return found


@each_case(("source", "count"), [
    ("((x)|y|z)*+", 1),  # gh-101955's own
    ("(?:(?P<q>[\"'])a(?P=q)|b)++", 1),
    ("(?:x(?:(y)|z)){1,3}+", 1),
    ("(?:(?:a|b)c)*+", 0),
    ("((?:a|b)*+)", 0),  # a group around the repeat, none inside
    ("(?>((x)|y|z)*)", 0),  # an atomic group around a greedy repeat: another opcode, not affected
    ("(a|b)*c", 0),
])
def test_the_walker_counts_groups_inside_possessive_repeats(source: str, count: int) -> None:
    assert possessive_groups(_parsed(source, 0)) == count


def test_the_shape_is_what_breaks_this_interpreter_s_re() -> None:
    """The walker's reason, on the interpreter that runs the suite: the shape raises here unless this CPython has
    the fix (3.12.8+, 3.13.1+); the same pattern without the group never does."""
    try:
        re.match("((x)|y|z)*+", "xyz")
    except SystemError:
        pass
    else:
        assert re.match("((x)|y|z)*+", "xyz").group(0) == "xyz"  # a fixed interpreter matches whole
    assert re.match("(?:x|y|z)*+", "xyz").group(0) == "xyz"


def test_no_package_pattern_holds_a_group_inside_a_possessive_repeat() -> None:
    patterns = _package_patterns()
    assert len(patterns) > 1000  # every module's, not an import that found none
    offenders = [name for name, source, flags in patterns if possessive_groups(_parsed(source, flags))]
    assert offenders == []


# Option values of every shape bundler's reader knows, and options a gem line puts after them.
_VALUES = ['"manyfold3d/rubocop-pundit"', "'https://github.com/o/r.git'", "false", "true", ":development", "nil",
           "%w[mri mingw]", "[:test, :development]", "2"]
_KEYS = ["github", "git", "branch", "ref", "require", "group", "platforms", "path"]


def _gem_lines() -> list[str]:
    lines = []
    for count in (1, 2, 3):
        for values in itertools.product(_VALUES, repeat=count):
            keys = _KEYS[count - 1:]
            options = ", ".join(f"{key}: {value}" for key, value in zip(keys, values, strict=False))
            rockets = ", ".join(f":{key} => {value}" for key, value in zip(keys, values, strict=False))
            lines.append(f'  gem "rubocop-pundit", "~> 1.0", {options}')
            lines.append(f'gem("x", {rockets}) # note')
    return lines


GEM_LINES = _gem_lines()


def test_gem_lines_with_options_of_every_shape_read_without_error() -> None:
    """Every gem line of 1-3 options of every value shape (a quoted value followed by one of another shape is what
    broke): read whole (no residue) when it holds only options, its source options kept in the version."""
    assert len(GEM_LINES) > 1000
    for line in GEM_LINES:
        data = (line + "\n").encode()
        assert bundler.residue(data) == [], line
        (gem,) = bundler.parse_gemfile("Gemfile", data)
        assert gem.name in ("rubocop-pundit", "x"), line
        for key in ("github", "git", "branch", "ref", "path"):
            if f" {key}: " in line:
                assert f"{key}:" in gem.version, (line, gem.version)


# manyfold3d/manyfold's Gemfile (its shape: a development group of rubocop plugins, one from a GitHub repository)
MANYFOLD_GEMFILE = """\
source "https://rubygems.org"

ruby "3.4.5"

# Bundle edge Rails instead: gem 'rails', github: 'rails/rails'
gem "rails", "~> 8.0.2"
gem "jbuilder", "~> 2.15"
# Use Redis adapter to run Action Cable in production
gem "redis", "~> 5.4"
gem "bootsnap", "~> 1.25", require: false

group :development do
  gem "rubocop-rails", require: false
  gem "rubocop-performance", "~> 1.26", require: false
  gem "rubocop-pundit", github: "manyfold3d/rubocop-pundit", require: false
end
"""


def test_manyfold_redis_bump_beside_a_github_gem_is_read_both_modes(tmp_path: Any) -> None:
    """Dependabot's "Bump redis from 5.4.1 to 6.0.0" (manyfold 814dda1): the delta names it with `--tree` and
    from the patch (before: SystemError in the residue reader, `gatekeeper deps` exit 2)."""
    tree, patch = both_edited(tmp_path, {"Gemfile": MANYFOLD_GEMFILE}, {"Gemfile": {'"~> 5.4"': '"~> 6.0"'}})
    assert moves(tree) == moves(patch) == {("bundler", "redis", "~> 5.4", "~> 6.0")}, (tree, patch)
    assert not tree.problems and not patch.problems, (tree.problems, patch.problems)


def test_moving_the_github_gem_s_source_is_still_its_change() -> None:
    fork = MANYFOLD_GEMFILE.replace('github: "manyfold3d/rubocop-pundit"', 'github: "evil/rubocop-pundit"')
    before = {d.name: d.version for d in bundler.parse_gemfile("Gemfile", MANYFOLD_GEMFILE.encode())}
    after = {d.name: d.version for d in bundler.parse_gemfile("Gemfile", fork.encode())}
    assert before["rubocop-pundit"] == "github:manyfold3d/rubocop-pundit"
    assert after["rubocop-pundit"] == "github:evil/rubocop-pundit"
    assert not residue.changed("Gemfile", MANYFOLD_GEMFILE.encode(), fork.encode())  # read as a gem, not residue
