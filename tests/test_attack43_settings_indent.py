"""Attack 43: an INI exclude value's continuation, as configparser reads it (settingsexcludes.py, label 75).

The seventy-fifth set's reader blanked every indented line after an exclude key (`exclude =`, `omit =`, `ignore =`) as
the value's continuation. configparser (mypy, flake8, coverage, tox) continues a value only on lines indented deeper
than its key: with the keys themselves indented (`  exclude = build/` then `  plugins = tools/plugin.py`), or tabs
against spaces, the next key is a key of its own, and the reader blanked it. configparser is the truth: every word of a
key it reads stays, every word of the exclude value it reads goes.
"""

from __future__ import annotations

import configparser
import itertools

from gatekeeper.classify.settingsexcludes import unexcluded

INDENTS = ["", " ", "  ", "\t", "    "]
KEYS = ["exclude", "omit", "ignore", "extend-exclude", "norecursedirs", "per-file-ignores"]


def _text(key: str, key_indent: str, more: str) -> str:
    return f"[mypy]\n{key_indent}{key} = build/\n{key_indent}{more}dist/\n{key_indent}plugins = tools/plugin.py\n"


def test_a_continuation_is_what_configparser_continues() -> None:
    wrong = []
    for key, key_indent, more in itertools.product(KEYS, INDENTS, INDENTS):
        text = _text(key, key_indent, more)
        parser = configparser.ConfigParser()
        try:
            parser.read_string(text)
        except configparser.ParsingError:
            continue  # `dist/` no continuation and no key: no tool reads the file
        options = dict(parser["mypy"])
        kept = unexcluded("mypy.ini", text)
        plugin_kept = "tools/plugin.py" in kept
        if plugin_kept != ("plugins" in options) or "build/" in kept:
            wrong.append((key, key_indent, more, options))
    assert not wrong, f"{len(wrong)} wrong\n" + "\n".join(map(repr, wrong))
