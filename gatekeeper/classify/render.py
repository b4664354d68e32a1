"""What `gatekeeper classify` prints: an aligned table for people, JSON for programs.

Text is returned as `str` holding surrogate escapes for non-UTF-8 path bytes; the caller
encodes it with `surrogateescape` so a terminal shows the original bytes.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from json.encoder import encode_basestring_ascii as _quote
from typing import TYPE_CHECKING

from gatekeeper.classify.context import classify_in_context
from gatekeeper.classify.patchcontext import PatchContext
from gatekeeper.classify.pathlist import ListedPath
from gatekeeper.classify.ruleset import RuleHit, RuleSet
from gatekeeper.model import BUCKETS, ClassifiedFile, FileChange, Match
from gatekeeper.readable import inert_json, printable

if TYPE_CHECKING:
    from gatekeeper.classify.contexttypes import Context


def files_json(files: Sequence[ClassifiedFile], rules: RuleSet, context: str) -> str:
    """`{"rules_digest", "context", "files": [...]}` on one line, files in input order, each with its
    deciding tier and evidence."""
    entries = [{**f.to_dict(), "tier": f.tier, "evidence": f.evidence} for f in files]
    return inert_json(json.dumps({"rules_digest": rules.digest, "context": context, "files": entries},
                                 ensure_ascii=True)) + "\n"


def paths_json(listed: Sequence[ListedPath], matches: Sequence[Match], rules: RuleSet) -> str:
    """The same document for a path list, each entry what `classify_change(...).to_dict()` gives."""
    # Entries differ only in path and unsafe: each distinct match's entry is serialised once from a
    # real ClassifiedFile (so the shape stays the model's) and the two strings are spliced in.
    middles: dict[int, str] = {}
    parts = []
    for entry, match in zip(listed, matches, strict=True):
        middle = middles.get(id(match))
        if middle is None:
            middle = middles[id(match)] = _entry_middle(match)
        unsafe = "null" if entry.unsafe is None else _quote(entry.unsafe)
        parts.append(f'{{"path": {_quote(entry.path)}{middle}{unsafe}}}')
    return inert_json(f'{{"rules_digest": {_quote(rules.digest)}, "files": [{", ".join(parts)}]}}') + "\n"


def _entry_middle(match: Match) -> str:
    change = FileChange(path="", old_path=None, status="modified")
    entry = ClassifiedFile(change, match.bucket, match.rule, tuple(sorted(match.tags)), match.ecosystem).to_dict()
    keys = list(entry)
    if keys[0] != "path" or keys[-1] != "unsafe":
        raise AssertionError("ClassifiedFile.to_dict() must start with 'path' and end with 'unsafe'")
    body = json.dumps({key: entry[key] for key in keys[1:-1]}, ensure_ascii=True)
    return f", {body[1:-1]}, \"unsafe\": "


def _json_doc(rules: RuleSet, entries: list[dict[str, object]]) -> str:
    return inert_json(json.dumps({"rules_digest": rules.digest, "files": entries}, ensure_ascii=True)) + "\n"


def files_text(files: Sequence[ClassifiedFile], *, show_status: bool) -> str:
    """An aligned table (status, bucket, rule, tags, path) and a one-line summary per bucket."""
    rows = []
    for f in files:
        c = f.change
        path = printable(c.path)
        if c.old_path is not None and c.old_path != c.path:
            path = f"{printable(c.old_path)} -> {path}"
        if c.symlink_target is not None:
            path = f"{path}  [link to {printable(c.symlink_target)}]"
        rows.append((c.status, f.bucket, f.rule, _tags(f.tags, f.ecosystem), _flagged(path, c.unsafe)))
    return _table_text(rows, show_status=show_status)


def paths_text(listed: Sequence[ListedPath], matches: Sequence[Match]) -> str:
    """The table for a path list (no status column: a path list has none)."""
    # The bucket, rule and tags columns depend on the match only: size and render them once per
    # distinct match, then each line is that prefix and the path.
    distinct = {id(m): m for m in matches}
    cells = {key: (m.bucket, m.rule, _tags(tuple(sorted(m.tags)), m.ecosystem)) for key, m in distinct.items()}
    header = ("BUCKET", "RULE", "TAGS")
    widths = [max([len(header[i]), *(len(c[i]) for c in cells.values())]) for i in range(3)]
    layout = "  ".join(f"{{{i}:<{widths[i]}}}" for i in range(3)) + "  "
    prefix = {key: layout.format(*c) for key, c in cells.items()}
    lines = [layout.format(*header) + "PATH"]
    lines += [prefix[id(m)] + _flagged(printable(e.path), e.unsafe) for e, m in zip(listed, matches, strict=True)]
    lines.append(_summary(Counter(m.bucket for m in matches), len(listed)))
    return "\n".join(lines) + "\n"


def _tags(tags: Sequence[str], ecosystem: str | None) -> str:
    text = ",".join(tags) or "-"
    return f"{text} ({ecosystem})" if ecosystem else text


def _flagged(path: str, unsafe: str | None) -> str:
    return f"{path}  [unsafe: {unsafe}]" if unsafe else path


def _table_text(rows: Sequence[tuple[str, str, str, str, str]], *, show_status: bool) -> str:
    header = ("STATUS", "BUCKET", "RULE", "TAGS", "PATH")
    first = 0 if show_status else 1
    widths = [max([len(header[i]), *(len(row[i]) for row in rows)]) for i in range(4)]
    # One format string for every row: the table is 100,000 lines for a large patch.
    line = "  ".join(f"{{{i}:<{widths[i]}}}" for i in range(first, 4)) + "  {4}"
    lines = [line.format(*header), *(line.format(*row) for row in rows)]
    lines.append(_summary(Counter(row[1] for row in rows), len(rows)))
    return "\n".join(lines) + "\n"


def _summary(counts: Counter[str], total: int) -> str:
    per_bucket = ", ".join(f"{bucket} {counts.get(bucket, 0)}" for bucket in BUCKETS)
    return f"{total} file{'s' if total != 1 else ''}: {per_bucket}"


def explain_with_context(paths: Sequence[str], rules: RuleSet, tree: Context | None) -> list[ClassifiedFile]:
    """Each path classified by all three tiers as a modified file: with `tree`, from BASE and HEAD;
    without, from the path alone (content-dependent files are tagged needs-context)."""
    changes = [FileChange(path=path, old_path=None, status="modified") for path in paths]
    return classify_in_context(changes, rules, tree or PatchContext(None, changes, rules.context))


def explain_doc(paths: Sequence[str], rules: RuleSet, decided: Sequence[ClassifiedFile]) -> dict[str, object]:
    """Per path: its decision (bucket, rule, tier, evidence), every bucket rule that matches (deciding
    first), every tag rule."""
    out = []
    for path, item in zip(paths, decided, strict=True):
        out.append(
            {
                "path": path,
                "bucket": item.bucket,
                "rule": item.rule,
                "tier": item.tier,
                "evidence": item.evidence,
                "ecosystem": item.ecosystem,
                "tags": list(item.tags),
                "matches": [hit.to_dict() for hit in rules.explain(path)],
                "tag_matches": [hit.to_dict() for hit in rules.tag_hits(path)],
            }
        )
    return {"rules_digest": rules.digest, "explain": out}


def explain_json(paths: Sequence[str], rules: RuleSet, decided: Sequence[ClassifiedFile]) -> str:
    """`explain_doc` as indented JSON."""
    return inert_json(json.dumps(explain_doc(paths, rules, decided), indent=2, ensure_ascii=True)) + "\n"


def explain_text(paths: Sequence[str], rules: RuleSet, decided: Sequence[ClassifiedFile]) -> str:
    """For people: the decision (with its tier and evidence), then every matching path rule."""
    blocks = []
    for path, item in zip(paths, decided, strict=True):
        extra = f", ecosystem {item.ecosystem}" if item.ecosystem else ""
        tags = f", tags {','.join(item.tags)}" if item.tags else ""
        lines = [f"{printable(path)}: {item.bucket} (rule {item.rule}{extra}{tags})"]
        evidence = f": {printable(item.evidence)}" if item.evidence else ""
        lines.append(f"  tier {item.tier}{evidence}")
        rows = [_hit_row("decides" if hit.decides else "also", hit) for hit in rules.explain(path)]
        rows += [_hit_row("tag", hit) for hit in rules.tag_hits(path)]
        lines += ["  " + line for line in _table(rows)]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"


def _hit_row(kind: str, hit: RuleHit) -> tuple[str, ...]:
    rule = hit.rule
    label = rule.bucket or ",".join(sorted(rule.tags))
    return (kind, rule.id, label, hit.pattern, rule.where, rule.description)


def _table(rows: Sequence[Sequence[str]]) -> list[str]:
    if not rows:
        return []
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    return ["  ".join(cell.ljust(w) for cell, w in zip(row[:-1], widths, strict=True)) + "  " + row[-1] for row in rows]
