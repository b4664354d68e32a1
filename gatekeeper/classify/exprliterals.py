"""A template expression's string literals, read as the words they may be (issue 12, the label93 round).

Arcade's source-build steps template (dotnet/sourcelink and every Arcade repository) runs
`${{ coalesce(parameters.platform.buildScript, './build.sh') }} --ci`: where the caller sets no `buildScript`, the
step runs the root's `build.sh`. The walk read each `${{ … }}` as a variable part (commandlines.HOLE) and never saw
the literal; `build.sh` had been `ci` only through a comment that named it, until label 92 cut comments. Each line
whose expressions hold a `'…'` literal is now read again, once per literal, with that literal in its expression's
place (the other expressions stay holes), after the text: line numbers do not move. A `format()` string's `{0}` is a
hole. Azure's `${{ if … }}`, `${{ elseif … }}` and `${{ each … }}` insert YAML; their literals are the condition's,
no command. At most MAX_LITERALS literals a line are read (a line's added text stays a few times its own).
"""

from __future__ import annotations

from gatekeeper.classify.commandlines import HOLE
from gatekeeper.classify.enclosures import GITHUB_EXPRESSION
from gatekeeper.lazy_pattern import lazy

__all__ = ["MAX_LITERALS", "holed"]

MAX_LITERALS = 8  # the literals of one line read in place (past them, the line's later literals stay holes)
_LITERAL = lazy(r"'((?:[^']|'')*)'")
_DIRECTIVE = lazy(r"\$\{\{\s*(?:if|elseif|else|each)\b")
_PLACEHOLDER = lazy(r"\{\d+\}")


def holed(text: str) -> str:
    """`text` with each `${{ … }}` as commandlines.HOLE, then each line whose expressions hold string literals again,
    once per literal, that literal in its expression's place."""
    holes = GITHUB_EXPRESSION.sub(HOLE, text)
    if "${{" not in text or "'" not in text:
        return holes
    added: list[str] = []
    for line in text.split("\n"):
        if "${{" in line and "'" in line:
            added += _again(line)
    return "\n".join([holes, *added]) if added else holes


def _again(line: str) -> list[str]:
    """`line` once per literal of its expressions (at most MAX_LITERALS), that literal in its expression's place."""
    found = list(GITHUB_EXPRESSION.finditer(line))
    out: list[str] = []
    for at, expression in enumerate(found):
        if _DIRECTIVE.match(expression.group()) is not None:
            continue
        for literal in _LITERAL.finditer(expression.group()):
            if len(out) == MAX_LITERALS:
                return out
            word = _PLACEHOLDER.sub(HOLE, literal.group(1).replace("''", "'"))
            parts = [line[:found[0].start()]]
            for index, each in enumerate(found):
                parts += [word if index == at else HOLE,
                          line[each.end():found[index + 1].start() if index + 1 < len(found) else len(line)]]
            out.append("".join(parts))
    return out

