"""Bounded readers for the formats manifests use: JSON, YAML, TOML, XML and text.

Every input here comes from the change under review, so each reader caps size, depth and alias
expansion and turns any failure into a ManifestError (which becomes a `Problem`, never a crash).
"""

from __future__ import annotations

import json
import re
import tomllib
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from typing import Any
from xml.parsers import expat

import yaml

from gatekeeper import bounded
from gatekeeper.deps.model import ManifestError
from gatekeeper.errors import LimitError
from gatekeeper.lazy_pattern import lazy

# Real lockfiles of large monorepos reach a few tens of MiB; beyond this a file is a problem, not a parse.
MAX_BYTES = 32 << 20
MAX_ALIASES = 1000  # YAML aliases per document: manifests need none; a "billion laughs" needs many
MAX_ENTRIES = 200_000  # dependencies per file; bounds work on shared (aliased) structures too
_JSON_LIMITS = bounded.Limits(max_bytes=MAX_BYTES, max_depth=64, max_values=8_000_000)
_Fast = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_DOCTYPE = lazy(rb"<!(DOCTYPE|ENTITY)", re.IGNORECASE)


def text(data: bytes) -> str:
    """The file as text (UTF-8, a BOM dropped); ManifestError when too large or not UTF-8."""
    if len(data) > MAX_BYTES:
        raise ManifestError(f"larger than {MAX_BYTES >> 20} MiB")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ManifestError(f"not UTF-8 (byte {exc.start})") from None


def load_json(data: bytes | str) -> Any:
    """JSON through the project's bounded reader (size, depth, value count), failures as ManifestError.

    The documents of the last two bytes objects read are kept and handed out again for those same objects (by
    identity: the memo holds them, so no other object can take their ids): the delta reads both sides of a lockfile
    for their versions and again for their download locations (lockedsources), and a 2,000-package
    package-lock.json costs ~2.5 ms a read. Readers treat the document as read-only."""
    if isinstance(data, bytes):
        for seen, doc in _LAST_JSON:
            if seen is data:
                return doc
    try:
        doc = bounded.load_json(text(data) if isinstance(data, bytes) else data, "the manifest", _JSON_LIMITS)
    except json.JSONDecodeError as exc:
        raise ManifestError(f"not valid JSON: {exc.msg} at line {exc.lineno}") from None
    except LimitError as exc:
        raise ManifestError(exc.what) from None
    if isinstance(data, bytes):
        _LAST_JSON[:] = [*_LAST_JSON[-1:], (data, doc)]
    return doc


_LAST_JSON: list[tuple[bytes, Any]] = []  # (bytes, its document), the last two read: load_json's memo


def load_yaml(data: bytes) -> Any:
    docs = load_yaml_all(data, 2)
    if len(docs) > 1:
        raise ManifestError("more than one YAML document")
    return docs[0] if docs else None


class _UniqueKeys:
    """A mapping that gives one key two values is refused, as Kubernetes' and Flux's `sigs.k8s.io/yaml`, Helm,
    GitHub Actions and Compose refuse it: PyYAML keeps the last, so a file could show a reviewer one version and ship
    another. The same scalar twice and merge keys (`<<: *base`, overridden by design) stay allowed. Keys are compared
    as built (`0x11` and `17` are one). Costs nothing unless the mapping built is shorter than its pairs."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        pairs = node.value  # flatten_mapping deletes merge keys from this list in place: what stays is explicit
        mapping: dict[Any, Any] = super().construct_mapping(node, deep)  # type: ignore[misc]
        if len(mapping) < len(node.value):
            seen: dict[object, yaml.Node] = {}
            for key, value in pairs:
                if not isinstance(key, yaml.ScalarNode):
                    continue
                # the key as built, as the mapping holds it (review 68a): `0x11` and `17`, `~` and `null`, `yes` and
                # `true` (and `1` and `1.0`) are one key here, two to a YAML 1.2 reader
                first = seen.setdefault(self.construct_object(key), value)  # type: ignore[attr-defined]
                # the same scalar given twice (`wait: true` twice) leaves nothing to disagree on
                if first is not value and not (isinstance(first, yaml.ScalarNode) and isinstance(value, yaml.ScalarNode)
                                               and (first.tag, first.value) == (value.tag, value.value)):
                    raise yaml.constructor.ConstructorError(
                        None, None, f"duplicate key {key.value[:80]!r} with another value (refused: YAML tools "
                        "disagree on it)", key.start_mark)
        return mapping


class _Loader(_UniqueKeys, _Fast):  # type: ignore[misc, valid-type]
    pass


class _RedefiningLoader(_UniqueKeys, yaml.SafeLoader):
    """YAML 1.2 lets an anchor be defined again (an alias names the latest definition) and Go's YAML
    libraries, which Helm and Kubernetes read with, accept it; PyYAML refuses ("found duplicate anchor").
    Used only when the fast loader refused a file for that reason, so what Helm reads is read here too."""

    def compose_node(self, parent: Any, index: Any) -> Any:
        event = self.peek_event()
        anchor = getattr(event, "anchor", None)
        if anchor is not None and not isinstance(event, yaml.AliasEvent):
            self.anchors.pop(anchor, None)
        return super().compose_node(parent, index)


def _documents(body: str, limit: int, loader: Any) -> list[Any]:
    docs: list[Any] = []
    for doc in yaml.load_all(body, Loader=loader):  # noqa: S506 - safe loaders only
        docs.append(doc)
        if len(docs) >= limit:
            break
    return docs


def load_yaml_all(data: bytes, limit: int) -> list[Any]:
    """The first `limit` documents of a YAML stream, with aliases capped."""
    body = text(data)
    try:
        if "&" in body and "*" in body:
            aliases = sum(1 for event in yaml.parse(body, Loader=_Loader) if isinstance(event, yaml.AliasEvent))
            if aliases > MAX_ALIASES:
                raise ManifestError(f"more than {MAX_ALIASES} YAML aliases (refused: alias expansion)")
        try:
            return _documents(body, limit, _Loader)
        except yaml.composer.ComposerError as exc:
            if "duplicate anchor" not in str(exc):
                raise
            return _documents(body, limit, _RedefiningLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        raise ManifestError(f"not valid YAML{where}: {getattr(exc, 'problem', None) or exc}") from None
    except RecursionError:
        raise ManifestError("YAML nested too deeply") from None


def load_toml(data: bytes) -> dict[str, Any]:
    try:
        return tomllib.loads(text(data))
    except tomllib.TOMLDecodeError as exc:
        raise ManifestError(f"not valid TOML: {exc}") from None
    except RecursionError:
        raise ManifestError("TOML nested too deeply") from None


class _RootReached(Exception):
    """The root element began: no document type declaration can follow it."""


def _declares_dtd(data: bytes) -> bool:
    """Whether the document declares a DTD (where entities are declared), as the parser itself reads the prolog: in
    the document's own encoding (a UTF-16 file's `<!DOCTYPE` is no ASCII run of bytes), past comments and processing
    instructions, up to the root element, where the read stops. `<!DOCTYPE` written inside the root, as text of a
    CDATA section (hibernate-validator's pom.xml holds a license-header regex that names it), declares nothing, and
    the parser refuses one as markup there. A prolog the parser cannot read falls back to the bytes anywhere."""
    scan = expat.ParserCreate()

    def doctype(*_: object) -> None:
        raise ManifestError("XML with a DOCTYPE or ENTITY declaration (refused: entity expansion)")

    def root(*_: object) -> None:
        raise _RootReached

    scan.StartDoctypeDeclHandler = doctype
    scan.EntityDeclHandler = doctype
    scan.StartElementHandler = root
    try:
        scan.Parse(data, True)
    except ManifestError:
        return True
    except _RootReached:
        return False
    except (expat.ExpatError, ValueError, LookupError):
        pass
    return _DOCTYPE.search(data) is not None


def load_xml(data: bytes) -> ET.Element:
    """Parse XML that declares no DTD: entity declarations (XXE, "billion laughs") are refused outright."""
    if len(data) > MAX_BYTES:
        raise ManifestError(f"larger than {MAX_BYTES >> 20} MiB")
    if _declares_dtd(data):
        raise ManifestError("XML with a DOCTYPE or ENTITY declaration (refused: entity expansion)")
    try:
        return ET.fromstring(data)  # noqa: S314 - no DTD can reach the parser (checked above)
    except ET.ParseError as exc:
        raise ManifestError(f"not valid XML: {exc}") from None
    except (LookupError, ValueError) as exc:  # an unknown or impossible `encoding=` declaration
        raise ManifestError(f"not valid XML: {exc}") from None
    except RecursionError:
        raise ManifestError("XML nested too deeply") from None


def mapping(value: Any, what: str) -> dict[str, Any]:
    """`value` when it is a mapping ({} when absent); ManifestError for any other type."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ManifestError(f"{what} is not a mapping")
    return value


def listing(value: Any, what: str) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise ManifestError(f"{what} is not a list")
    return value


def string(value: Any) -> str:
    """A scalar as a string ("" for anything else): versions in YAML may be numbers (`1.10`)."""
    if isinstance(value, bool) or value is None:
        return ""
    if isinstance(value, (str, int, float)):
        return str(value)
    return ""


def sourced_version(spec: dict[str, Any], sources: tuple[str, ...]) -> str:
    """A dependency table's version, with where it comes from when the table says (`1.0.2 from git https://...`):
    a version that carries its source no longer orders against one that does not, so a source swapped under an
    upgrade (crates.io to a fork's git, a path, another registry) is `changed`, never a plain `upgraded`. Without a
    version, the source alone."""
    version = string(spec.get("version"))
    for key in sources:
        if where := string(spec.get(key)):
            return f"{version} from {key} {where}" if version else where
    return version


# A VCS URL at a ref (pip splits the ref off at the path's last `@`): a ref that names a release or a commit is the
# version
_VCS_REF = lazy(r"^(?P<where>(?:git|hg)\+[a-z]+://[^/@]*(?:@[^/@]*)?/[^@#?\s]*)@(?P<ref>[^@#?/\s]+)(?P<rest>[#?]\S*)?$")
_RELEASE_OR_COMMIT = lazy(r"^(?:v?\d[\w.+-]*|[0-9a-f]{7,40})$")


def url_version(url: str) -> str:
    """A URL requirement's version: a VCS URL at a release tag or a commit is that ref from the rest of the URL
    (`2024.7.17 from git+https://github.com/o/r#egg=r`; nothing of the URL dropped, so any move of it is still a
    change; round 50); any other URL, a branch's included, is its version as written."""
    if (m := _VCS_REF.match(url)) is None or not _RELEASE_OR_COMMIT.match(m.group("ref")):
        return url
    return f"{m.group('ref')} from {m.group('where')}{m.group('rest') or ''}"


def xml_local(tag: str) -> str:
    """An element's tag without its namespace (`{ns}project` → `project`)."""
    return tag.rsplit("}", 1)[-1]


def xml_child(node: ET.Element | None, name: str) -> ET.Element | None:
    """`node`'s first child element `name`; None when there is none (or no `node`)."""
    for sub in node if node is not None else ():
        if xml_local(sub.tag) == name:
            return sub
    return None


def xml_text(node: ET.Element, name: str) -> str:
    """The stripped text of `node`'s child `name` ("" when absent)."""
    sub = xml_child(node, name)
    return (sub.text or "").strip() if sub is not None else ""


_MAX_EXPANSIONS = 16
_MAX_VALUE = 4096


def expand_properties(value: str, properties: Mapping[str, str], pattern: re.Pattern[str], what: str) -> str:
    """`value` with every property use `pattern` finds (group 1: the name) substituted to the end, as Maven and
    MSBuild evaluate them (a property naming another); a name no property defines stays as written. Bounded: a
    cycle or a doubling chain is a ManifestError, never a value left half-resolved as if unmoved."""
    for _ in range(_MAX_EXPANSIONS):
        expanded = pattern.sub(lambda m: properties.get(m.group(1), m.group(0)), value)
        if expanded == value:
            return value
        if len(expanded) > _MAX_VALUE:
            break
        value = expanded
    raise ManifestError(f"{what} expands without end or past {_MAX_VALUE} characters ({value[:80]!r})")
