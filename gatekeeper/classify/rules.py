"""Reading the classification rules: `classification.yaml` plus `classification.d/*.yaml` overlays.

Every problem is a RulesError naming `FILE:LINE` (from the YAML node marks) and what to do.
Overlays replace a rule with the same id in place, insert new rules `before:`/`after:` an id
(at the top otherwise), and `remove:` ids.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from pathlib import Path

import yaml

from gatekeeper.bounded import YAML, compose_yaml, read_bytes
from gatekeeper.classify.glob import Glob, GlobError, compile_glob
from gatekeeper.errors import RulesError
from gatekeeper.lazy_pattern import lazy
from gatekeeper.model import BUCKETS

RULES_FILE = "classification.yaml"
OVERLAY_DIR = "classification.d"
RULE_TAGS: tuple[str, ...] = ("guardrail", "manifest", "lockfile", "toolchain")
CHANGE_TAGS: tuple[str, ...] = ("executable", "symlink", "submodule", "binary")

_RULE_KEYS = ("id", "bucket", "description", "match", "ecosystem", "tags")
_TAG_RULE_KEYS = ("id", "description", "match", "tags")
_ID = lazy(r"[a-z0-9][a-z0-9._-]*\Z")
_ECOSYSTEM = lazy(r"[a-z0-9][a-z0-9+._-]*\Z")
_HINT_FORMAT = "see docs/classification.md for the rules file format"
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule: a bucket rule (first match wins) or a tag rule (bucket None: every match applies)."""

    id: str
    bucket: str | None
    description: str
    patterns: tuple[str, ...]
    globs: tuple[Glob, ...]
    ecosystem: str | None
    tags: frozenset[str]
    source: str  # the file that defined the rule
    line: int  # 1-based line of the rule in that file

    @property
    def where(self) -> str:
        """`FILE:LINE` of the rule's definition."""
        return f"{self.source}:{self.line}"


@dataclass(frozen=True, slots=True)
class LoadedRules:
    """The merged, validated rule lists and the digest of every file read."""

    rules: tuple[Rule, ...]
    tag_rules: tuple[Rule, ...]
    sources: tuple[str, ...]
    digest: str


def read_rules(bundle_dir: Path) -> LoadedRules:
    """Read, validate and merge `<bundle>/classification.yaml` and its overlays (raises RulesError)."""
    main = bundle_dir / RULES_FILE
    files = [main, *_overlay_files(bundle_dir / OVERLAY_DIR)]
    digest = hashlib.sha256()
    rules: list[Rule] = []
    tag_rules: list[Rule] = []
    for number, path in enumerate(files):
        data = _read(path)
        _add_to_digest(digest, path.relative_to(bundle_dir).as_posix(), data)
        if number == 0:
            rules, tag_rules = _main_rules(path, data)
        else:
            _FileReader(path, data, overlay=True).apply_overlay(rules, tag_rules)
    _check_catch_all(rules, main)
    return LoadedRules(tuple(rules), tuple(tag_rules), tuple(str(p) for p in files), digest.hexdigest())


# The main rules file's rules by the digest of its bytes. Parsing and checking ~1,500 rules costs ~150 ms of CPU;
# the same bytes in another folder (a copy of the bundle, a fixture's bundle) give the same rules but for the file
# they name (`Rule.source`), put right on the way out. A file that fails raises and is not remembered.
_PARSED: dict[bytes, tuple[tuple[Rule, ...], tuple[Rule, ...]]] = {}
_PARSED_MAX = 8


def _main_rules(path: Path, data: bytes) -> tuple[list[Rule], list[Rule]]:
    key = hashlib.sha256(data).digest()
    parsed = _PARSED.get(key)
    if parsed is None:
        rules, tag_rules = _FileReader(path, data, overlay=False).main_rules()
        if len(_PARSED) >= _PARSED_MAX:
            _PARSED.clear()
        _PARSED[key] = parsed = (tuple(rules), tuple(tag_rules))
    source = str(path)
    return ([r if r.source == source else replace(r, source=source) for r in parsed[0]],
            [r if r.source == source else replace(r, source=source) for r in parsed[1]])


def rules_bytes(bundle_dir: Path) -> tuple[tuple[str, bytes], ...]:
    """(name, bytes) of every file `read_rules` reads, in its order (no parsing; raises RulesError)."""
    return tuple((path.relative_to(bundle_dir).as_posix(), _read(path))
                 for path in (bundle_dir / RULES_FILE, *_overlay_files(bundle_dir / OVERLAY_DIR)))


def bytes_digest(files: tuple[tuple[str, bytes], ...]) -> str:
    """The digest `read_rules` gives for the files `rules_bytes` read."""
    digest = hashlib.sha256()
    for name, data in files:
        _add_to_digest(digest, name, data)
    return digest.hexdigest()


def _add_to_digest(digest: hashlib._Hash, name: str, data: bytes) -> None:
    digest.update(f"{name}\0{len(data)}\0".encode())
    digest.update(data)


def _overlay_files(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    found = []
    for entry in sorted(folder.iterdir()):
        if entry.name.startswith("."):
            continue
        if entry.suffix not in (".yaml", ".yml") or not entry.is_file():
            raise RulesError(
                "unexpected entry in the overlay folder", where=str(entry), hint="only *.yaml rule files belong there"
            )
        found.append(entry)
    return found


def _read(path: Path) -> bytes:
    try:
        return read_bytes(path, YAML)
    except FileNotFoundError:
        raise RulesError(
            "classification rules file not found", where=str(path), hint="a policy bundle needs a classification.yaml"
        ) from None
    except OSError as exc:
        raise RulesError(f"cannot read rules file: {exc.strerror}", where=str(path)) from None


def _check_catch_all(rules: list[Rule], main: Path) -> None:
    last = rules[-1] if rules else None
    if last is None or not any(g.dir_segments == ("**",) and g.base in ("**", "*") for g in last.globs):
        raise RulesError(
            "the last rule must be a catch-all",
            where=last.where if last else str(main),
            hint="end the list with a rule matching '**' so that every path's bucket is decided by a rule you can read",
        )


class _FileReader:
    """One rules file as YAML nodes, so every error can name its line."""

    def __init__(self, path: Path, data: bytes, *, overlay: bool) -> None:
        self.path = path
        self.overlay = overlay
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RulesError(f"not UTF-8 (byte {exc.start})", where=str(path)) from None
        try:
            node = compose_yaml(text, str(path), loader=_Loader)
        except yaml.MarkedYAMLError as exc:
            mark = exc.problem_mark or exc.context_mark
            line = mark.line + 1 if mark else None
            problem = exc.problem or str(exc)
            context = f"{exc.context or ''} {problem}"
            hint = (
                "quote globs that start with '*' or '!', e.g. \"*.tf\""
                if "alias" in context or "tag" in context
                else None
            )
            raise RulesError(f"invalid YAML: {problem}", where=self._at(line), hint=hint) from None
        except yaml.YAMLError as exc:
            raise RulesError(f"invalid YAML: {exc}", where=str(path)) from None
        if node is None:
            raise RulesError("empty rules file", where=str(path), hint=_HINT_FORMAT)
        keys = ("version", "rules", "tag_rules", "remove") if overlay else ("version", "rules", "tag_rules")
        self.top = self._mapping(node, "the rules file", keys)
        if not overlay and "version" not in self.top:
            raise RulesError("missing 'version: 1'", where=self._at(node.start_mark.line + 1), hint=_HINT_FORMAT)
        if "version" in self.top:
            version = self.top["version"][1]
            if not (isinstance(version, yaml.ScalarNode) and version.value == "1"):
                raise RulesError(
                    f"unsupported version {getattr(version, 'value', '?')!r}",
                    where=self._line_of(version),
                    hint="this gatekeeper reads version 1",
                )
        if not overlay and "rules" not in self.top:
            raise RulesError("missing 'rules:' list", where=self._at(node.start_mark.line + 1), hint=_HINT_FORMAT)

    # -- the main file and overlays -------------------------------------------------------

    def main_rules(self) -> tuple[list[Rule], list[Rule]]:
        rules = [self._rule(n, tag_rule=False, extra=()) for n in self._entries("rules")]
        tag_rules = [self._rule(n, tag_rule=True, extra=()) for n in self._entries("tag_rules")]
        seen: dict[str, Rule] = {}
        for rule in (*rules, *tag_rules):
            if rule.id in seen:
                raise RulesError(
                    f"duplicate rule id {rule.id!r} (first defined at line {seen[rule.id].line})",
                    where=rule.where,
                    hint="ids must be unique: rename one, or merge the two rules",
                )
            seen[rule.id] = rule
        return rules, tag_rules

    def apply_overlay(self, rules: list[Rule], tag_rules: list[Rule]) -> None:
        seen: set[str] = set()
        top = 0  # new rules without a position go to the top, in the order written
        for node in self._entries("rules"):
            fields = self._mapping(node, "a rule", (*_RULE_KEYS, "before", "after"))
            rule = self._rule(node, tag_rule=False, extra=("before", "after"))
            self._once(rule, seen)
            if any(r.id == rule.id for r in tag_rules):
                raise RulesError(f"{rule.id!r} is a tag rule", where=rule.where, hint="override it under 'tag_rules:'")
            ids = [r.id for r in rules]
            before = self._opt_str(fields, "before")
            after = self._opt_str(fields, "after")
            if rule.id in ids:
                if before or after:
                    raise RulesError(
                        f"{rule.id!r} replaces an existing rule in place; it cannot also move",
                        where=rule.where,
                        hint="drop before/after, or give the new rule its own id and remove the old one",
                    )
                rules[ids.index(rule.id)] = rule
            elif before and after:
                raise RulesError("give 'before' or 'after', not both", where=rule.where)
            elif before or after:
                target = before or after
                if target not in ids:
                    raise RulesError(
                        f"no rule with id {target!r} to insert {'before' if before else 'after'}",
                        where=self._line_of(fields["before" if before else "after"][1]),
                        hint="run `gatekeeper classify --explain PATH` to see rule ids",
                    )
                rules.insert(ids.index(target) + (1 if after else 0), rule)
            else:
                rules.insert(top, rule)
                top += 1
        for node in self._entries("tag_rules"):
            rule = self._rule(node, tag_rule=True, extra=())
            self._once(rule, seen)
            if any(r.id == rule.id for r in rules):
                raise RulesError(f"{rule.id!r} is a bucket rule", where=rule.where, hint="override it under 'rules:'")
            ids = [r.id for r in tag_rules]
            if rule.id in ids:
                tag_rules[ids.index(rule.id)] = rule
            else:
                tag_rules.append(rule)
        if "remove" in self.top:
            for item in self._seq(self.top["remove"][1], "remove"):
                rule_id = self._scalar(item, "remove")
                for table in (rules, tag_rules):
                    hit = [i for i, r in enumerate(table) if r.id == rule_id]
                    if hit:
                        del table[hit[0]]
                        break
                else:
                    raise RulesError(f"cannot remove {rule_id!r}: no such rule", where=self._line_of(item))

    def _once(self, rule: Rule, seen: set[str]) -> None:
        if rule.id in seen:
            raise RulesError(f"duplicate rule id {rule.id!r} in this overlay", where=rule.where)
        seen.add(rule.id)

    # -- one rule ---------------------------------------------------------------------------

    def _rule(self, node: yaml.Node, *, tag_rule: bool, extra: tuple[str, ...]) -> Rule:
        keys = (*(_TAG_RULE_KEYS if tag_rule else _RULE_KEYS), *extra)
        fields = self._mapping(node, "a tag rule" if tag_rule else "a rule", keys)
        line = node.start_mark.line + 1
        required = ("id", "description", "match", "tags") if tag_rule else ("id", "bucket", "description", "match")
        for key in required:
            if key not in fields:
                raise RulesError(f"rule is missing '{key}'", where=self._at(line), hint=_HINT_FORMAT)
        rule_id = self._scalar(fields["id"][1], "id")
        if not _ID.match(rule_id):
            raise RulesError(
                f"bad rule id {rule_id!r}",
                where=self._line_of(fields["id"][1]),
                hint="use lower-case letters, digits, '.', '_' and '-', e.g. ci.github-workflows",
            )
        bucket = None
        if not tag_rule:
            bucket = self._scalar(fields["bucket"][1], "bucket")
            if bucket not in BUCKETS:
                raise RulesError(
                    f"unknown bucket {bucket!r}",
                    where=self._line_of(fields["bucket"][1]),
                    hint=f"use one of {', '.join(BUCKETS)}",
                )
        description = self._scalar(fields["description"][1], "description").strip()
        if not description or "\n" in description:
            raise RulesError("description must be one non-empty line", where=self._line_of(fields["description"][1]))
        patterns, globs = self._globs(fields["match"][1])
        ecosystem = None
        if "ecosystem" in fields:
            ecosystem = self._scalar(fields["ecosystem"][1], "ecosystem")
            if not _ECOSYSTEM.match(ecosystem):
                raise RulesError(
                    f"bad ecosystem {ecosystem!r}",
                    where=self._line_of(fields["ecosystem"][1]),
                    hint="lower-case, e.g. npm, pip, go",
                )
        tags = frozenset(self._tags(fields["tags"][1])) if "tags" in fields else frozenset()
        if tag_rule and not tags:
            raise RulesError("a tag rule needs at least one tag", where=self._line_of(fields["tags"][1]))
        return Rule(rule_id, bucket, description, patterns, globs, ecosystem, tags, str(self.path), line)

    def _globs(self, node: yaml.Node) -> tuple[tuple[str, ...], tuple[Glob, ...]]:
        items = self._seq(node, "match")
        if not items:
            raise RulesError("'match' needs at least one glob", where=self._line_of(node))
        patterns, globs = [], []
        for item in items:
            pattern = self._scalar(item, "match")
            try:
                globs.append(compile_glob(pattern))
            except GlobError as exc:
                raise RulesError(
                    f"bad glob {pattern!r}: {exc}",
                    where=self._line_of(item),
                    hint="globs are gitignore-style: '*', '?', '[abc]', '**' as a whole segment",
                ) from None
            patterns.append(pattern)
        return tuple(patterns), tuple(globs)

    def _tags(self, node: yaml.Node) -> list[str]:
        tags = []
        for item in self._seq(node, "tags"):
            tag = self._scalar(item, "tags")
            if tag in CHANGE_TAGS:
                raise RulesError(
                    f"tag {tag!r} comes from the patch, not from rules",
                    where=self._line_of(item),
                    hint=f"rules may set {', '.join(RULE_TAGS)}",
                )
            if tag not in RULE_TAGS:
                raise RulesError(
                    f"unknown tag {tag!r}", where=self._line_of(item), hint=f"use one of {', '.join(RULE_TAGS)}"
                )
            tags.append(tag)
        return tags

    # -- YAML node helpers ------------------------------------------------------------------

    def _entries(self, key: str) -> list[yaml.Node]:
        if key not in self.top:
            return []
        return self._seq(self.top[key][1], key)

    def _mapping(self, node: yaml.Node, what: str, keys: tuple[str, ...]) -> dict[str, tuple[yaml.Node, yaml.Node]]:
        if not isinstance(node, yaml.MappingNode):
            raise RulesError(f"{what} must be a mapping", where=self._line_of(node), hint=_HINT_FORMAT)
        out: dict[str, tuple[yaml.Node, yaml.Node]] = {}
        for key_node, value_node in node.value:
            key = key_node.value if isinstance(key_node, yaml.ScalarNode) else None
            if not isinstance(key, str) or key not in keys:
                raise RulesError(
                    f"unknown key {key!r} in {what}", where=self._line_of(key_node), hint=f"allowed: {', '.join(keys)}"
                )
            if key in out:
                raise RulesError(f"key {key!r} given twice", where=self._line_of(key_node))
            out[key] = (key_node, value_node)
        return out

    def _seq(self, node: yaml.Node, field: str) -> list[yaml.Node]:
        if not isinstance(node, yaml.SequenceNode):
            raise RulesError(f"'{field}' must be a list", where=self._line_of(node), hint=_HINT_FORMAT)
        return list(node.value)

    def _scalar(self, node: yaml.Node, field: str) -> str:
        if not isinstance(node, yaml.ScalarNode) or node.tag != "tag:yaml.org,2002:str":
            raise RulesError(f"'{field}' must be a string", where=self._line_of(node), hint="quote the value")
        return node.value

    def _opt_str(self, fields: dict[str, tuple[yaml.Node, yaml.Node]], key: str) -> str | None:
        return self._scalar(fields[key][1], key) if key in fields else None

    def _line_of(self, node: yaml.Node) -> str:
        return self._at(node.start_mark.line + 1)

    def _at(self, line: int | None) -> str:
        return f"{self.path}:{line}" if line else str(self.path)
