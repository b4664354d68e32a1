"""A block mapping's key given twice, read from lines (round 60): the workflow and CI readers read lines, a patch shows
lines, and GitHub (its runner's YamlDotNet: "'env' is already defined"), Gitea's and Forgejo's runners (Go's yaml.v3)
refuse a workflow whose mapping gives one key twice, as Compose (compose-go, yaml.v3) refuses a Compose file, while
PyYAML keeps the last value. A change could show a reviewer
one `uses:` and run the other, so such a file is `unparsable`, as deps/loaders' strict YAML reader calls it (round 58).

The scan keeps the open block mappings by their key column: a key line at a column closes the mappings deeper than
it; a `- ` item closes those deeper than its dash and opens its own. A block scalar's (`run: |`) and an open quoted
scalar's lines are text, never keys. Keys are compared as written, quotes taken off (`"uses"` is `uses`); the same
one-line scalar given twice is allowed, as the loaders allow it. A flow mapping (`{uses: a, uses: b}`) is the YAML
reader's to refuse (yamlforms.py reads such a file whole). A whole file that reads as YAML is judged by the strict
loader instead (refuse_file_duplicates: escaped, tagged, anchored, complex and flow keys; review 69b); the scan is for a
hunk's lines and for a file the loader cannot read.
"""

from __future__ import annotations

from gatekeeper.deps.hunks import CHANGED, HUNK
from gatekeeper.deps.loaders import load_yaml_all
from gatekeeper.deps.model import ManifestError
from gatekeeper.lazy_pattern import lazy

# A block mapping's key line: its indentation, any `- ` items, the key (plain or quoted) and what follows `: `.
_KEY = lazy(r"""^(?P<indent> *)(?P<dashes>(?:- +){0,16})(?:(?P<q>["'])(?P<quoted>[^"'\n]{1,200})(?P=q)"""
            r"""|(?P<plain>[^\s#"'{}\[\],&*!|>%@`:-][^:\n]{0,200}?|-[^\s:#][^:\n]{0,200}?)) *:(?: +(?P<value>.*))?$""")
_ITEM = lazy(r"^(?P<indent> *)-(?: |$)")  # an item, its content on this line or below it (`-` alone)
_DASHES = lazy(r"^ *(?:- +)*-(?: +|$)")  # an item line's dashes (`- - `): what follows the last is its node
# A block scalar's indicator, after any anchor and tag (`|`, `>-`, `&x |`, `!!str >`): its text goes on below its line
_BLOCK = lazy(r"^(?:[&!][^\s]*+ ++){0,2}+[|>][-+0-9]{0,3}(?: +#.*)?$")
_DOCUMENTS = 64  # documents the strict reader judges; a longer stream is scanned by its lines too
# A value whose text goes on below its line (a block scalar's indicator) or that names other text (an anchor,
# alias or tag): never one scalar to compare.
_OPENS = lazy(r"^[|>][-+0-9]{0,3}(?: +#.*)?$|^[&*!]")


def _uncommented(value: str) -> str:
    """A value's text without its comment (` # …`), found without a pattern: a run of blanks is walked once."""
    if value.startswith("#"):
        return ""
    cut = value.find(" #")
    return (value if cut < 0 else value[:cut]).strip()


def _open_quote(value: str) -> str:
    """The quote a value opens and does not close on its line; "" for none."""
    quote = value[:1]
    return quote if quote in ("'", '"') and not _closes(value[1:], quote) else ""


def _closes(text: str, quote: str) -> bool:
    """Whether `text`, inside a scalar quoted with `quote`, closes it: a single quote not doubled (`''` is one quote in
    the text), or a double quote no backslash escapes. One scan serves a value's first line and each line after."""
    if quote == "'":
        return text.replace("''", "").count("'") > 0
    escaped = False
    for ch in text:
        if escaped:
            escaped = False
        elif ch == "\\":
            escaped = True
        elif ch == '"':
            return True
    return False


def refuse_duplicates(lines: list[str]) -> None:
    """ManifestError when one block mapping of `lines` gives a key twice with another value (or any value that is not
    one line's scalar); the lines may be a hunk's, whose first lines sit under keys it does not show."""
    stack: list[tuple[int, dict[str, tuple[str, int]]]] = []  # (key column, {key: (value, line number)})
    text_below = -1  # a block scalar's key column: lines deeper than it are its text
    quote = ""  # the quote an open quoted scalar waits for
    for number, line in enumerate(lines, 1):
        if quote:
            if _closes(line, quote):
                quote = ""
            continue
        stripped = line.strip()
        indent = len(line) - len(line.lstrip(" "))
        if text_below >= 0:
            if not stripped or indent > text_below:
                continue
            text_below = -1
        if not stripped or stripped.startswith("#"):
            continue
        if indent == 0 and (stripped in ("---", "...") or line.startswith(("--- ", "---\t", "... ", "...\t"))):
            stack.clear()  # a document starts or ends, with a comment or tag after its marker too (review 69b)
            continue
        m = _KEY.match(line)
        if m is None:
            if (item := _ITEM.match(line)) is not None:
                column = len(item["indent"])
                while stack and stack[-1][0] > column:
                    stack.pop()
                dashes = _DASHES.match(line)
                if dashes is not None and _BLOCK.match(line[dashes.end():].rstrip()) is not None:
                    text_below = dashes.group().rstrip().rfind("-")  # `- |`: its text is deeper than its dash
            continue
        key = m["quoted"] if m["quoted"] is not None else m["plain"].rstrip()
        column = len(m["indent"]) + len(m["dashes"])
        value = _uncommented(m["value"] or "")
        if m["dashes"]:
            while stack and stack[-1][0] > len(m["indent"]):
                stack.pop()
        else:
            while stack and stack[-1][0] > column:
                stack.pop()
        if not stack or stack[-1][0] != column:
            stack.append((column, {}))
        if _OPENS.match(value) is not None:
            if _BLOCK.match(value) is not None:  # `|`, `&x |`, `!!str >` (review 69b)
                text_below = column
            value = ""
        elif (quote := _open_quote(value)) != "":
            value = ""
        keys = stack[-1][1]
        if key == "<<":
            continue  # a merge key: overridden by design
        if key in keys and (not value or keys[key][0] != value):
            raise ManifestError(f"the key {key[:80]!r} given twice in one mapping (lines {keys[key][1]} and {number}; "
                                "refused: GitHub refuses the file, YAML readers keep one value or the other)")
        keys.setdefault(key, (value, number))


def refuse_file_duplicates(data: bytes, lines: list[str]) -> None:
    """ManifestError when a whole file's mapping gives a key twice, as the strict YAML reader (loaders.load_yaml_all)
    builds its keys: an escaped, tagged, anchored, complex or flow key, keys built alike (`~` and `null`), no block
    scalar's or flow collection's line taken for a key (review 69b). A file that does not read as YAML, or holds more
    documents than the reader judges, is scanned by its `lines` (refuse_duplicates: fail closed)."""
    try:
        documents = load_yaml_all(data, _DOCUMENTS)
    except ManifestError as exc:
        if "duplicate key" in str(exc):
            raise
        documents = [None] * _DOCUMENTS
    if len(documents) >= _DOCUMENTS:
        refuse_duplicates(lines)


def refuse_hunk_duplicates(body: str) -> None:
    """refuse_duplicates on each hunk of one side's hunk lines (hunks.sides): a key one hunk shows twice in one
    mapping. Two hunks' lines are never one mapping's: each is scanned alone."""
    hunk: list[str] = []
    for line in [*body.splitlines(), HUNK]:
        if line == HUNK:
            refuse_duplicates(hunk)
            hunk = []
        else:
            hunk.append(line.removeprefix(CHANGED))
