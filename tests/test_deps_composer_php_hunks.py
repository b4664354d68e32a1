"""composer.json's `php` requirement from a patch (round 59's patch misses, issue 14: phpbench's "Bump composer to
8.1" moved `"php": "^7.4 || ^8.0"` → `"^8.1"` under `"require": {`). `--tree` names it as the tool `php` (round 45,
composer.py), but from a patch the `php` key was refused as a platform requirement, the file `partial` and nothing
named.

Now a `"php": "range"` line whose object's `"require": {` opening the hunk shows (composer.composer_line) is the tool
`php` at that range, as the whole file names it. Look-alikes that name nothing from the patch: `require-dev`'s php
(dropped by the whole-file reader too), `config.platform.php` (the platform composer pretends to run on), a `php` line
whose object's opening the hunk does not show, an extension (`ext-json`).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from deltas import both_edited, partial

PATH = "composer.json"


def _composer(php: str, section: str = "require", before: int = 0) -> str:
    """A composer.json whose `section` holds `"php": php` after `before` extension lines."""
    exts = "".join(f'        "ext-e{i}": "*",\n' for i in range(before))
    other = '        "psr/log": "^1.1"\n'
    require = f'    "{section}": {{\n{exts}        "php": "{php}",\n{other}    }},\n'
    rest = '    "require-dev": {\n        "phpunit/phpunit": "^9.5"\n    },\n' if section == "require" else \
        '    "require": {\n        "psr/log": "^1.1"\n    },\n'
    return ('{\n    "name": "acme/bench",\n    "description": "a benchmark tool",\n    "license": "MIT",\n'
            '    "minimum-stability": "stable",\n    "prefer-stable": true,\n' + require + rest +
            '    "autoload": {\n        "psr-4": {\n            "Acme\\\\Bench\\\\": "lib/"\n        }\n    }\n}\n')


MOVES = [("^7.4 || ^8.0", "^8.1"), (">=7.4", ">=8.0"), ("~8.1.0", "~8.2.0"), ("8.1.*", "8.2.*"),
         (">=8.1 <8.4", ">=8.2 <8.5"), ("^8.1|^8.2", "^8.2|^8.3"), ("^8.0", "^8.1")]


@pytest.mark.parametrize(("old", "new"), MOVES)
@pytest.mark.parametrize("before", [0, 1, 2])
def test_a_php_requirement_the_hunk_places_under_require(tmp_path: Path, old: str, new: str, before: int) -> None:
    body = _composer(old, before=before)
    tree, patch = both_edited(tmp_path, {PATH: body}, {PATH: {f'"php": "{old}"': f'"php": "{new}"'}})
    want = {("tool", "php", old, new)}
    assert {(c.ecosystem, c.name, c.from_version, c.to_version) for c in tree.changes} == want
    assert {(c.ecosystem, c.name, c.from_version, c.to_version) for c in patch.changes} == want
    assert patch.problems == ()


def test_phpbench_shape(tmp_path: Path) -> None:
    body = _composer("^7.4 || ^8.0").replace('    "prefer-stable": true,\n',
                                             '    "prefer-stable": true,\n    "config": {"sort-packages": true},\n')
    _, patch = both_edited(tmp_path, {PATH: body}, {PATH: {'"php": "^7.4 || ^8.0"': '"php": "^8.1"'}})
    assert {(c.ecosystem, c.name, c.to_version) for c in patch.changes} == {("tool", "php", "^8.1")}


# --- look-alikes: nothing named from the patch ---

def test_require_dev_php_names_nothing(tmp_path: Path) -> None:
    body = _composer("^8.0", section="require-dev")
    tree, patch = both_edited(tmp_path, {PATH: body}, {PATH: {'"php": "^8.0"': '"php": "^8.1"'}})
    assert tree.changes == ()
    assert patch.changes == () and partial(patch, PATH)


def test_platform_php_names_nothing(tmp_path: Path) -> None:
    body = _composer("^8.0").replace('    "prefer-stable": true,\n',
                                     '    "prefer-stable": true,\n    "config": {\n        "platform": {\n'
                                     '            "php": "8.0.2"\n        }\n    },\n')
    _, patch = both_edited(tmp_path, {PATH: body}, {PATH: {'"php": "8.0.2"': '"php": "8.1.2"'}})
    assert patch.changes == () and partial(patch, PATH)


def test_a_php_line_whose_opening_the_hunk_does_not_show(tmp_path: Path) -> None:
    body = _composer("^8.0", before=5)
    _, patch = both_edited(tmp_path, {PATH: body}, {PATH: {'"php": "^8.0"': '"php": "^8.1"'}})
    assert patch.changes == () and partial(patch, PATH)


def test_an_extension_names_nothing(tmp_path: Path) -> None:
    body = _composer("^8.0", before=1)
    _, patch = both_edited(tmp_path, {PATH: body}, {PATH: {'"ext-e0": "*"': '"ext-e0": "^1.0"'}})
    assert patch.changes == () and partial(patch, PATH)
