"""Hardening 50: the PR comment and job summary (`--format markdown`) show change-chosen text as text.

GitHub turns parts of a comment's rendered text live whatever the Markdown escapes were (its filters read the HTML
text, where `\\@` and `&#64;` are `@` again): `@org/team` notifies a team, `#123` and `GH-123` cross-reference an
issue, `www.x`, `https://x` and `a@b.c` become links. Before, `markdown.escape` left them all live in paths, messages,
dependency names and the run id. A word that holds one is now a code span (fenced by more backticks than it holds,
its pipes escaped for the table), which GitHub leaves alone; look-alikes print as before.

The checker below reads the Markdown as GitHub would for this purpose: code spans (CommonMark's backtick rule) and
the product's `<summary>` HTML block are inert; in the rest, escapes and entities are undone before looking."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from decisions import decision

from gatekeeper.reports import render
from gatekeeper.reports.markdown import code, escape

# The last: an emoji shortcode (`:white_check_mark: allowed` spoofs a verdict; `12:00:00` names none).
_LIVE = re.compile(r"@[A-Za-z0-9]|#\d|\bGH-\d|www\.|\b(?:https?|ftp)://|\b(?:mailto|xmpp):"
                   r"|:(?:[A-Za-z+-][A-Za-z0-9_+-]*|100|1234):", re.IGNORECASE)


def _outside_code(line: str) -> str:
    """`line` without its code spans (a backtick run opens one that the next run of the same length closes)."""
    out, i = [], 0
    while i < len(line):
        if line[i] == "\\" and i + 1 < len(line) and line[i + 1] == "`":
            out.append("`")
            i += 2
            continue
        if line[i] == "`":
            run = re.match(r"`+", line[i:])
            assert run is not None
            n = len(run.group())
            close = re.search(rf"(?<!`)`{{{n}}}(?!`)", line[i + n:])
            if close is not None:
                i = i + n + close.end()
                continue
            out.append(run.group())
            i += n
            continue
        out.append(line[i])
        i += 1
    return "".join(out)


def live_in(markdown: str) -> list[str]:
    """The live things GitHub would find in `markdown`'s text."""
    found = []
    for line in markdown.splitlines():
        if line.startswith("<summary>"):  # an HTML block: shown raw, its <code> read by no mention filter
            continue
        text = _outside_code(line)
        text = re.sub(r"</?(?:code|sub|details|summary|br)>", " ", text)
        text = html.unescape(re.sub(r"\\(.)", r"\1", text))
        found += [f"{m.group()!r} in {line!r}" for m in _LIVE.finditer(text)]
    return found


_WORDS = ("@org/admins", "@security-team", "#123", "GH-42", "gh-7", "org/repo#9", "www.phish.example/login",
          "https://phish.example/a", "HTTP://x.example", "ftp://x.example/f", "mailto:a@b.example", "xmpp:x@y.example",
          "a@b.example", ":white_check_mark:", "x/:+1:.md", "@x`y", "``@x``", "`@x`", "@a|b", "#1|`x`")


def hostile_names() -> list[str]:
    names = list(_WORDS)
    names += [f"docs/{w}.md" for w in _WORDS[:12]] + [f"{w}/x.yml" for w in _WORDS[:12]]
    names += [f"a b/{w} c.txt" for w in _WORDS[:6]]
    return names


LOOK_ALIKES = ("src/main.py", "C#/Program.cs", "docs/a-b_c.md", "notes/100%.txt", "x/www/y", "http/a.go", "a:b",
               "email-at-x", "sharp#x", "#readme.md", "x@", "2026-11-29T12:00:00Z")


def _decision(name: str) -> dict[str, Any]:
    return decision(
        outcome="review",
        reasons=[{"policy": "core", "rule": "core.ci", "level": "review", "bucket": "ci",
                  "msg": f"workflow {name} changed", "paths": [name, f"ci/{name}"]}],
        packet={"run_id": name, "diff_sha256": "ab" * 32, "digest": "cd" * 32},
        dependencies={"changes": [{"change": "added", "ecosystem": "npm", "name": name, "from": None,
                                   "to": f"1.0.0 {name}", "direct": True, "scope": "runtime",
                                   "vulnerabilities": [], "manifest": f"{name}/package.json"}]},
    )


@pytest.mark.parametrize("name", hostile_names())
def test_a_change_chosen_name_is_not_live_in_the_comment(name: str) -> None:
    text = render("markdown", _decision(name))
    assert not live_in(text), live_in(text)
    assert not live_in(escape(name)) and not live_in(code(name))


@pytest.mark.parametrize("name", hostile_names())
def test_the_name_still_reads_in_its_code_span(name: str) -> None:
    # Inside a span nothing is escaped but the table's pipes: the name reads as it is (escape spans each live word).
    for shown, pieces in ((code(name), [name]), (escape(name), name.split())):
        for piece in pieces:
            if _LIVE.search(piece):
                assert piece.replace("|", "\\|") in shown, shown
    if not name.startswith("`") and not name.endswith("`"):
        assert code(name).strip("`") == name.replace("|", "\\|")


@pytest.mark.parametrize("name", LOOK_ALIKES)
def test_look_alikes_stay_plain_text(name: str) -> None:
    assert "`" not in escape(name)
    assert code(name).startswith("<code>")
    assert not live_in(render("markdown", _decision(name)))


def test_scoped_npm_packages_and_an_issue_number_message_do_not_ping() -> None:
    text = render("markdown", _decision("@angular/core"))
    assert "`@angular/core`" in text
    assert not live_in(text)
