"""The compiled rule set: first bucket rule that matches decides, every matching tag rule adds tags.

One exception, structural (issue 12, classes52): a name glob with an open end (`*.verified.*`, `syntax_test_*`,
`Gemfile-*`, `LICENSE.*`) claims every file type, so it does not decide a path that a ci/iac glob naming the file (by
extension or name: `*.tf`, `.github/workflows/*.yml`, not a whole folder) also matches: when the rules without the
open-ended globs of rules that are not ci/iac decide ci/iac there, their first match decides (otherwise the open-ended
name still does: it never lowers). A rule written later is covered without a line for it.

And test data lowers `deps` only, never `ci` or `iac` (issue 12 item 6): a test-data rule (TEST_DATA) that decides a
path a ci or iac rule below it also matches yields to the first such rule (`testdata/Dockerfile` is
`iac.containers`, `test/fixtures/.gitlab-ci.yml` `ci.gitlab`); the tree readers that leave a test's own files unread
ask `first_rule`.

And test data inside a committed copy of other code is the copy's (principle 3, the classes56 round): a test-data rule
(or `src.e2e-data`, `src.test-packages`) that decides a path a vendored/installed-copy rule below also matches
(COPY_RULES: vendor/, third_party/, node_modules/, Pods/, ...) yields to that rule when the copy's folder lies above the
test data's (`third_party/lib/test/data/x` is deps; `testdata/mod/vendor/x`, a copy kept as a test's input, stays test
data). Which folder is outer is asked of the rules themselves: the shortest folder prefix of the path at which each
rule matches (`copy_outer`). The ci/iac yield above comes first, so this never lowers a ci or iac file.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, replace
from pathlib import Path

from gatekeeper.classify.contextrules import ContextRules, context_bytes, read_context_rules
from gatekeeper.classify.glob import ANY, Glob
from gatekeeper.classify.index import GlobIndex
from gatekeeper.classify.rules import Rule, bytes_digest, read_rules, rules_bytes
from gatekeeper.model import Match

REVIEWED = frozenset({"ci", "iac"})  # the buckets an open-ended name may not hide (the default policy reviews them)
TEST_DATA = "testdata."  # the ids of the test-data rules (principle 1); an overlay's rule joins them by its id
# The rules that yield to an outer copy of other code, and the copy rules (by id: an overlay's rule joins by its id).
YIELDS_TO_COPY = (TEST_DATA, "src.e2e-data", "src.test-packages")
_NO_NAME = "\x00"  # a file name no file-name glob matches (git forbids NUL in names): a copy rule's folder alone
COPY_RULES = ("deps.vendored", "deps.installed-", "deps.npm.installed", "deps.cocoapods.installed",
              "deps.carthage.installed")


@dataclass(frozen=True, slots=True)
class RuleHit:
    """A rule that matches a path, with the first of its globs that does."""

    rule: Rule
    pattern: str
    decides: bool  # the deciding bucket rule (False for later matches and for tag rules)

    def to_dict(self) -> dict[str, object]:
        """The hit as `classify --explain --format json` shows it."""
        r = self.rule
        return {
            "id": r.id,
            "bucket": r.bucket,
            "description": r.description,
            "pattern": self.pattern,
            "ecosystem": r.ecosystem,
            "tags": sorted(r.tags),
            "decides": self.decides,
            "source": r.source,
            "line": r.line,
        }


@dataclass(frozen=True, slots=True)
class RuleSet:
    """A compiled, ordered rule list (first match wins) plus tag rules."""

    digest: str  # sha256 over every rules file loaded (see docs/classification.md)
    source: str  # the main classification.yaml
    sources: tuple[str, ...]  # it and the overlays, in load order
    rules: tuple[Rule, ...]
    tag_rules: tuple[Rule, ...]
    _index: GlobIndex = field(repr=False, compare=False)
    _owner: tuple[int, ...] = field(repr=False, compare=False)  # glob bit -> rule (or tag rule) position
    _first_tag_bit: int = field(repr=False, compare=False)
    _bucket_bits: int = field(repr=False, compare=False)
    _decided: tuple[Match, ...] = field(repr=False, compare=False)
    _open_bits: int = field(repr=False, compare=False)  # open-ended name globs of rules that are not ci/iac
    _is_open: tuple[bool, ...] = field(repr=False, compare=False)  # the same by bit (an index is cheaper than a mask)
    _typed_bits: int = field(repr=False, compare=False)  # ci/iac globs that name the file, not only its folder
    _reviewed_bits: int = field(repr=False, compare=False)  # every glob of a ci/iac rule
    _test_data: frozenset[int] = field(repr=False, compare=False)  # positions of the test-data rules (TEST_DATA)
    _yields: int = field(repr=False, compare=False)  # globs of the rules that yield to an outer copy (YIELDS_TO_COPY)
    _copy_bits: int = field(repr=False, compare=False)  # globs of the copy rules (COPY_RULES)
    _with_tags: dict[tuple[int, int], Match] = field(repr=False, compare=False, default_factory=dict)
    context: ContextRules = field(default_factory=ContextRules)  # tiers 2 and 3 (classification-context.yaml)

    @classmethod
    def build(
        cls,
        rules: tuple[Rule, ...],
        tag_rules: tuple[Rule, ...],
        *,
        digest: str,
        sources: tuple[str, ...],
        context: ContextRules | None = None,
        index: GlobIndex | None = None,
    ) -> RuleSet:
        """Compile rule lists into a matcher (the lists are already validated); `index`: the GlobIndex of these very
        globs, built before (load_rules keeps them by digest)."""
        globs: list[Glob] = []
        owner: list[int] = []
        # The masks are worked out a rule at a time, as "0"/"1" texts read once by int() (bit i is text[-1 - i]): an
        # `|=` per glob bit copied a mask of up to ~4,800 bits each time (the shipped rules: ~2.9 -> ~1.2 ms of CPU).
        reviewed_text: list[str] = []
        typed_text: list[str] = []
        open_text: list[str] = []
        for position, rule in enumerate(rules):
            globs.extend(rule.globs)
            owner.extend([position] * len(rule.globs))
            reviewed = rule.bucket in REVIEWED
            reviewed_text.append("1" * len(rule.globs) if reviewed else "0" * len(rule.globs))
            for glob in rule.globs:
                plain = glob.base in (ANY, "*")
                typed_text.append("1" if reviewed and not plain else "0")
                open_text.append("1" if not reviewed and not plain and glob.base.endswith("*") else "0")
        first_tag_bit = len(globs)
        reviewed_bits, typed_bits, open_bits = (int("0" + "".join(reversed(t)), 2)
                                                for t in (reviewed_text, typed_text, open_text))
        for position, rule in enumerate(tag_rules):
            globs.extend(rule.globs)
            owner.extend([position] * len(rule.globs))
        decided = tuple(
            Match(bucket=r.bucket, rule=r.id, ecosystem=r.ecosystem, tags=r.tags)  # type: ignore[arg-type]
            for r in rules
        )
        return cls(
            digest=digest,
            source=sources[0],
            sources=sources,
            rules=rules,
            tag_rules=tag_rules,
            _index=GlobIndex(globs) if index is None else index,
            _owner=tuple(owner),
            _first_tag_bit=first_tag_bit,
            _bucket_bits=(1 << first_tag_bit) - 1,
            _decided=decided,
            _open_bits=open_bits,
            _is_open=tuple(flag == "1" for flag in open_text) + (False,) * (len(globs) - first_tag_bit),
            _typed_bits=typed_bits,
            _reviewed_bits=reviewed_bits,
            _test_data=frozenset(i for i, rule in enumerate(rules) if rule.id.startswith(TEST_DATA)),
            _yields=_bits_of(rules, YIELDS_TO_COPY),
            _copy_bits=_bits_of(rules, COPY_RULES),
            context=context or ContextRules(),
        )

    def match(self, path: str) -> Match:
        """The first rule that matches `path`, with the tags of every matching tag rule."""
        # The index's cache lookups are inlined: this runs once per path, 100,000 times a patch.
        index = self._index
        dirname, _, name = path.lower().rpartition("/")
        dmask = index.dir_cache.get(dirname)
        if dmask is None:
            dmask = index.dir_mask(dirname)
        bmask = index.base_cache.get(name)
        if bmask is None:
            bmask = index.base_mask(name)
        mask = dmask & bmask
        position = self._owner[self._deciding(mask & self._bucket_bits, path)]
        decided = self._decided[position]
        tag_bits = mask >> self._first_tag_bit
        if not tag_bits:
            return decided
        key = (position, tag_bits)
        found = self._with_tags.get(key)
        if found is None:
            tags = set(decided.tags)
            for hit in self._tag_hits(mask):
                tags |= hit.rule.tags
            if len(self._with_tags) > 100_000:
                self._with_tags.clear()
            found = self._with_tags[key] = Match(decided.bucket, decided.rule, decided.ecosystem, frozenset(tags))
        return found

    def _deciding(self, bits: int, path: str, *, lift: bool = True) -> int:
        """The bit of the glob that decides among `bits` (the bucket globs matching `path`): the first, unless it is an
        open-ended name a ci/iac glob naming the file also fits, or a test-data rule's a ci/iac rule below also
        matches, or test data inside an outer copy of other code (see the module); the first two yield only to ci/iac,
        the third runs after them, so none lowers a ci or iac decision. `lift=False`: without the ci/iac yields."""
        bit = (bits & -bits).bit_length() - 1
        if lift and self._is_open[bit] and bits & self._typed_bits:
            rest = bits & ~self._open_bits
            if (rest & -rest) & self._reviewed_bits:
                bit = (rest & -rest).bit_length() - 1
        if lift and self._owner[bit] in self._test_data and (raised := bits & self._reviewed_bits):
            return (raised & -raised).bit_length() - 1
        if (copies := bits & self._copy_bits) and self._yields >> bit & 1 and self.copy_outer(path):
            bit = (copies & -copies).bit_length() - 1
        return bit

    def copy_outer(self, path: str) -> bool:
        """Whether a copy rule matches `path` at a shorter folder prefix than any rule that yields to it: the copy's
        folder holds the test data (`third_party/lib/test/data/x`), not the reverse (`testdata/mod/vendor/x`). Each
        prefix is probed for the test-data rules with the path's own file name (globs that name a file type,
        `**/src/test/**/*.yaml`, answer as for the path) and for the copy rules with a name no file glob names: only a
        copy's folder counts (a versioned `*-1.0.min.js` kept in test resources stays test data). At equal depth the
        test data stays."""
        parts = path.split("/")
        name = parts[-1]
        for depth in range(1, len(parts)):
            folder = "/".join(parts[:depth]) + "/"
            if self._index.mask(folder + name) & self._yields:
                return False
            if self._index.mask(folder + _NO_NAME) & self._copy_bits:
                return True
        return False

    def first_rule(self, path: str) -> str:
        """The id of the first bucket rule that matches `path`, before a ci or iac rule lifts a test-data file (match),
        after an outer copy claims its test data: what the tree readers ask to leave a test's own files unread (a
        kustomization kept as test data names nothing live; the file itself is still iac)."""
        bits = self._index.mask(path) & self._bucket_bits
        return self.rules[self._owner[self._deciding(bits, path, lift=False)]].id

    def explain(self, path: str) -> list[RuleHit]:
        """Every bucket rule matching `path`: the deciding rule first, then the others in order."""
        mask = self._index.mask(path) & self._bucket_bits
        first = 1 << self._deciding(mask, path)
        deciding = self._hits(first, self.rules, 0)
        others = [replace(hit, decides=False) for hit in self._hits(mask & ~first, self.rules, 0)
                  if hit.rule.id != deciding[0].rule.id]
        return deciding + others

    def tag_hits(self, path: str) -> list[RuleHit]:
        """Every tag rule matching `path`, in file order."""
        return self._tag_hits(self._index.mask(path))

    def _tag_hits(self, mask: int) -> list[RuleHit]:
        return self._hits(mask & ~self._bucket_bits, self.tag_rules, self._first_tag_bit, tags=True)

    def _hits(self, mask: int, table: tuple[Rule, ...], offset: int, *, tags: bool = False) -> list[RuleHit]:
        hits: list[RuleHit] = []
        seen: set[int] = set()
        while mask:
            bit = (mask & -mask).bit_length() - 1
            mask &= mask - 1
            position = self._owner[bit]
            if position in seen:
                continue
            seen.add(position)
            rule = table[position]
            # The glob's number inside its rule: its bit minus the rule's first bit.
            first = bit
            while first > offset and self._owner[first - 1] == position:
                first -= 1
            pattern = rule.patterns[bit - first]
            hits.append(RuleHit(rule=rule, pattern=pattern, decides=not tags and not hits))
        return hits


# Rule sets already built in this process, by folder, with every byte they were built from. One gate loads the same
# bundle's rules up to three times (bundle, packet, verify) and `gatekeeper test` once per fixture; parsing and
# compiling ~1,500 rules costs ~50 ms of CPU each time. A call reads the files again and compares their bytes whole
# with the held ones (memcmp, ~0.01 ms for the shipped 250 KB; hashing them cost ~0.3 ms a call): a changed, added or
# removed byte or overlay is read again, whatever the files' sizes and timestamps say (the checkout can set those).
_BUILT: dict[str, tuple[tuple[tuple[tuple[str, bytes], ...], bytes | None], RuleSet]] = {}
_BUILT_MAX = 8
# The compiled glob index by the digest alone: the same bytes in another folder (a `--tree` gate exports BASE's bundle
# to a new temporary folder each run) give the same globs in the same order; their rules differ only by source path.
_INDEXES: dict[str, GlobIndex] = {}


def load_rules(bundle_dir: str | Path) -> RuleSet:
    """Load and validate the bundle's classification rules and overlays (raises RulesError)."""
    folder = Path(bundle_dir)
    place = str(folder.resolve())
    read = (rules_bytes(folder), context_bytes(folder))
    held = _BUILT.get(place)
    if held is not None and held[0] == read:
        return held[1]
    loaded = read_rules(folder)
    context, data = read_context_rules(folder)
    digest = combined_digest(loaded.digest, data)
    sources = loaded.sources if data is None else (*loaded.sources, str(context.source))
    built = RuleSet.build(loaded.rules, loaded.tag_rules, digest=digest, sources=sources, context=context,
                          index=_INDEXES.get(digest))
    if digest not in _INDEXES:
        if len(_INDEXES) >= _BUILT_MAX:
            _INDEXES.clear()
        _INDEXES[digest] = built._index
    if digest == combined_digest(bytes_digest(read[0]), read[1]):  # no file changed between the two reads
        if len(_BUILT) >= _BUILT_MAX and place not in _BUILT:
            _BUILT.clear()
        _BUILT[place] = (read, built)
    return built


def _bits_of(rules: tuple[Rule, ...], ids: tuple[str, ...]) -> int:
    """The glob bits of the bucket rules whose id is or starts with one of `ids`."""
    text = "".join(("1" if rule.id.startswith(ids) else "0") * len(rule.globs) for rule in rules)
    return int("0" + text[::-1], 2)


def combined_digest(rules_digest_hex: str, context_data: bytes | None) -> str:
    if context_data is None:
        return rules_digest_hex
    # The context data judges too: a packet's rules digest names it as well.
    return hashlib.sha256(f"{rules_digest_hex}\0context\0{len(context_data)}\0".encode() + context_data).hexdigest()
