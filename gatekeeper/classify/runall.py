"""npm-run-all's script lists (label88, issue 12): the scripts of a package.json that a kept script's `run-p test:*`,
`run-s lint build` or `npm-run-all -p a -s b:*` runs, each through `npm run` with its `pre`/`post` scripts.

npm-run-all reads a name as a glob over the script names with `:` as the separator: `*` and `?` within one segment,
`**` across segments (read here as also matching none, the more sensitive reading). None, so that the caller reads the
whole file (fail closed): a runner of another kind beside it (`concurrently`, `turbo`, `nx`), an option not known, a
name that is not literal (`$TASKS`) or a glob beyond `*`, `**` and `?` (braces, classes, `!(...)`), a name or pattern
no script matches, a text shlex cannot split, patterns and script names longer together than the bound.
"""

from __future__ import annotations

import re
import shlex

from gatekeeper.lazy_pattern import lazy

__all__ = ["LISTS", "expanded"]

# A runner of several scripts by name or pattern (`run-s build:*`, `concurrently "npm:lint"`, `turbo run build`)
LISTS = lazy(r"\b(?:npm-run-all2?|run-s|run-p|concurrently|wireit|turbo|nx|lerna|ultra|npm-run|yarn-run-all)\b")

_FAMILY = frozenset({"npm-run-all", "npm-run-all2", "run-s", "run-p"})
_FLAGS = frozenset({"-p", "--parallel", "-s", "--sequential", "--serial", "-c", "--continue-on-error", "-l",
                    "--print-label", "-n", "--print-name", "-r", "--race", "--aggregate-output", "--silent"})
_VALUED = frozenset({"--max-parallel", "--npm-path"})
_SHORT = re.compile(r"-[pslncr]+")
_PATTERN = re.compile(r"[\w.:/@+*?-]+")
_PUNCTUATION = frozenset("();<>|&")
_BOUND = 1_000_000  # characters of the patterns x characters of the script names, past which the file is read whole


def expanded(scripts: dict[str, object], kept: dict[str, object]) -> dict[str, object] | None:
    """`kept` (script name: command) with the scripts its npm-run-all runners run and theirs, in turn; None where a
    kept script's list of scripts cannot be read that way."""
    out = dict(kept)
    queue = list(kept)
    while queue:
        value = str(out[queue.pop()])
        if LISTS.search(value) is None:
            continue
        names = _run_names(value, scripts)
        if names is None:
            return None
        for name in names:
            for each in (f"pre{name}", name, f"post{name}"):
                if each in scripts and each not in out:
                    out[each] = scripts[each]
                    queue.append(each)
    return out


def _run_names(value: str, scripts: dict[str, object]) -> list[str] | None:
    """The script names the npm-run-all runners of `value` run; None when any list in it is not read this way."""
    try:
        lexer = shlex.shlex(value, posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        words = list(lexer)
    except ValueError:
        return None
    patterns: list[str] = []
    runners = 0
    index = 0
    while index < len(words):
        if words[index].rpartition("/")[2] not in _FAMILY:
            index += 1
            continue
        runners += 1
        found, index = _runner_patterns(words, index + 1)
        if not found:
            return None
        patterns += found
    if runners != len(LISTS.findall(value)):
        return None  # another kind of runner stands beside it
    return _matched(list(dict.fromkeys(patterns)), scripts)


def _runner_patterns(words: list[str], index: int) -> tuple[list[str] | None, int]:
    """The patterns of one runner's words from `index` to the command's end, and the index after them; None for a
    word not read."""
    patterns: list[str] = []
    passed = False  # after `--`: the arguments the scripts get
    while index < len(words) and not set(words[index]) <= _PUNCTUATION:
        word = words[index]
        index += 1
        if passed:
            continue
        if word == "--":
            passed = True
        elif word in _VALUED:
            index += 1
        elif word in _FLAGS or _SHORT.fullmatch(word):
            continue
        elif word.startswith("-"):
            return None, index
        else:
            name = word.split()[0] if word.split() else ""  # `"test:unit -- --watch"`: the name and its arguments
            if _PATTERN.fullmatch(name) is None:
                return None, index
            patterns.append(name)
    return patterns or None, index


def _matched(patterns: list[str], scripts: dict[str, object]) -> list[str] | None:
    work = sum(len(pattern) + 1 for pattern in patterns) * sum(len(name) + 1 for name in scripts)
    if work > _BOUND:
        return None
    names: list[str] = []
    for pattern in patterns:
        if not any(mark in pattern for mark in "*?"):
            if pattern not in scripts:
                return None  # npm-run-all stops: a name the file does not define
            names.append(pattern)
            continue
        tokens = _tokens(pattern)
        hits = [name for name in scripts if _matches(tokens, name)]
        if not hits:
            return None
        names += hits
    return names


def _tokens(pattern: str) -> list[str]:
    """The pattern's tokens: a character, `?`, `*` (within a segment), `**` (across), `:**` (`(:.*)?`)."""
    out: list[str] = []
    index = 0
    while index < len(pattern):
        for token in (":**", "**", "*", "?"):
            if pattern.startswith(token, index):
                break
        else:
            token = pattern[index]
        out.append(token)
        index += len(token)
    return out


def _matches(tokens: list[str], name: str) -> bool:
    """Whether `name` matches the tokens, by the states of the automaton they make: each character once against each
    state (linear in the name for a pattern, no backtracking). A state is (token index, inside `:**`'s tail)."""
    states = _closure(tokens, {(0, False)})
    for char in name:
        moved: set[tuple[int, bool]] = set()
        for index, inside in states:
            if inside:
                moved.add((index, True))
                continue
            if index == len(tokens):
                continue
            token = tokens[index]
            if token == "**" or (token == "*" and char != ":"):
                moved.add((index, False))
            elif token == ":**" and char == ":":
                moved.add((index, True))
            elif token == char or (token == "?" and char != ":"):
                moved.add((index + 1, False))
        states = _closure(tokens, moved)
        if not states:
            return False
    return any(index == len(tokens) and not inside for index, inside in states)


def _closure(tokens: list[str], states: set[tuple[int, bool]]) -> set[tuple[int, bool]]:
    """The states with those a star (matching none) or a finished `:**` tail leads to without a character."""
    out = set(states)
    queue = list(states)
    while queue:
        index, inside = queue.pop()
        following = (index + 1, False)
        if (inside or (index < len(tokens) and tokens[index] in ("*", "**", ":**"))) and following not in out:
            out.add(following)
            queue.append(following)
    return out
