"""The hunk line reader (edits.py's `LineReader`) of a pom.xml: a changed `<version>` line of a `<dependency>`,
`<plugin>`, `<parent>` or `<extension>` whose opening and ids the hunk shows above it (or whose closing tag below it),
a whole-line comment between elements as no edit (moved out of refedits.py, which reads the properties and their uses
around it, in round 55).
"""

from __future__ import annotations

from gatekeeper.deps.edits import Side
from gatekeeper.deps.model import ManifestError, PartlyShown
from gatekeeper.lazy_pattern import lazy

PROPERTY = lazy(r"^\s*<([A-Za-z_][\w.-]*)>\s*([^<\s]+)\s*</\1>\s*$")
COMMENT_LINE = lazy(r"^\s*<!--(?:(?!-->).)*-->\s*$")  # one whole comment on its line: no element, no text around


_XML_TAG = lazy(r"^\s*<(groupId|artifactId|version)>\s*([^<\s]+)\s*</\1>\s*$")
_XML_OPEN = lazy(r"^\s*<(dependency|plugin|parent|extension|path)>\s*$")
_XML_CLOSE = lazy(r"^\s*</(dependency|plugin|parent|extension|path)>\s*$")


def pom_line(side: Side, index: int) -> list[tuple[str, str]]:
    line = side[index][0]
    if COMMENT_LINE.match(line) is not None:
        if _among_elements(side, index):
            return []  # one whole comment: no element and none of the document's data (XML 1.0 §2.5)
        raise ManifestError(f"a comment line the hunk does not show between elements (inside a CDATA section it is "
                            f"text: a script's line): {line.strip()[:80]!r}")
    m = _XML_TAG.match(line)
    if m is None and PROPERTY.match(line) is not None:
        raise ManifestError(f"a property (or another element) whose <properties> the hunk does not show: "
                            f"{line.strip()[:80]!r}")
    if m is None or m.group(1) != "version":
        raise ManifestError(f"not a <version> line of a dependency: {line.strip()[:80]!r}")
    if "$" in m.group(2):
        raise ManifestError(f"a <version> line naming a property: {line.strip()[:80]!r}")
    if "&" in m.group(2):
        # `&#49;.0.0` is 1.0.0 to Maven: read literally it would order nothing (or hide a vulnerable version from the
        # advisories)
        raise ManifestError(f"an XML character reference in a dependency: {line.strip()[:80]!r}")
    owner = pom_owner(side, index)
    if "${" in owner:
        # `bom-${jenkins.baseline}.x` (jenkinsci's plugin POMs): named as written, which no advisory matches and no
        # reader can tell from another artifact; the property is defined where the hunk does not reach
        raise PartlyShown(f"coordinates {owner[:80]!r} hold a property the hunk does not define", [(owner, m.group(2))])
    return [(owner, m.group(2))]


_OWNER_REACH = 64  # lines a `<version>`'s element may span above it: a longer walk is refused, never quadratic


def pom_owner(side: Side, index: int) -> str:
    """`group:artifact` of the `<dependency>`, `<plugin>` (its groupId defaulted), `<parent>` or `<extension>` whose
    `<version>` line is `side[index]`, its opening and both ids shown above it; ManifestError when the hunk does not
    show them."""
    line = side[index][0]
    tags: dict[str, str] = {}
    plain = index < _OWNER_REACH  # every line from the hunk's top down to it a child element or comment of one line
    for at in range(index - 1, max(index - _OWNER_REACH, 0) - 1, -1):
        above = side[at][0]
        if _XML_CLOSE.match(above) or above.strip().startswith("</"):
            break
        if (opened := _XML_OPEN.match(above)) is not None:
            return _owner(opened.group(1), tags, line)
        if (tag := _XML_TAG.match(above)) is not None:
            tags.setdefault(tag.group(1), tag.group(2))
        plain = plain and (_CHILD.match(above) is not None or COMMENT_LINE.match(above) is not None)
    else:
        if plain and (closer := _closer(side, index)) is not None:
            return _owner(closer, tags, line)
    raise ManifestError(f"the hunk does not show whose <version> this is: {line.strip()[:80]!r}")


# `<x>`, `</x>`, `<x a="b">`, `<x>v</x>`: a line of one element's markup
_TAG_LINE = lazy(r"^\s*</?[A-Za-z][\w.:-]*(?:\s[^<>]*)?/?>(?:[^<>&]*</[A-Za-z][\w.:-]*>)?\s*$")


def _among_elements(side: Side, index: int) -> bool:
    """Whether the comment line at `index` stands between element lines the hunk shows (the nearest other line
    above and below it, past comments and blank lines), and the hunk shows no CDATA section's edge: a `<!-- … -->`
    line inside a CDATA section (an exec or antrun plugin's script, attack 16) is text the build runs, not a comment.
    A section that opens above the hunk shows as lines that are no elements around it."""
    if any("<![CDATA[" in text or "]]>" in text for text, _ in side):
        return False
    for step in (-1, 1):
        at = index + step
        while 0 <= at < len(side) and (not side[at][0].strip() or COMMENT_LINE.match(side[at][0]) is not None):
            at += step
        if not 0 <= at < len(side) or _TAG_LINE.match(side[at][0]) is None:
            return False
    return True


_CHILD = lazy(r"^\s*<([A-Za-z][\w.-]*)>[^<>&]*</\1>\s*$")  # `<scope>test</scope>`: a child element of one line


def _owner(element: str, tags: dict[str, str], line: str) -> str:
    if "groupId" not in tags and element == "plugin":
        tags["groupId"] = "org.apache.maven.plugins"
    if "groupId" not in tags or "artifactId" not in tags:
        raise ManifestError(f"the hunk does not show whose <version> this is: {line.strip()[:80]!r}")
    if "&" in tags["groupId"] + tags["artifactId"]:
        raise ManifestError(f"an XML character reference in a dependency: {line.strip()[:80]!r}")
    return f"{tags['groupId']}:{tags['artifactId']}"


def _closer(side: Side, index: int) -> str | None:
    """The element a `<version>` line belongs to when the hunk shows its closing tag (`</dependency>`) below it
    across child elements and comments of one line only, its opening being above the hunk: POM children come in any
    order (maven-4.0.0.xsd's `xs:all`), so a comment or a `<type>` line may push the opening out of the context."""
    for at in range(index + 1, min(index + _OWNER_REACH, len(side))):
        below = side[at][0]
        if (closed := _XML_CLOSE.match(below)) is not None:
            return closed.group(1)
        if _CHILD.match(below) is None and COMMENT_LINE.match(below) is None:
            return None
    return None
