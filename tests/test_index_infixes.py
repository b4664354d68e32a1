"""The glob index's substring test for a name's literal middle (`*.verified.*`, `*-license.*`) answers as the glob's
regex does, whatever the name's case or letters: Python's case-insensitive match also takes the long s (U+017F) for
`s` and the Kelvin sign (U+212A) for `k`, which no substring test of the lowered name sees."""

from __future__ import annotations

from tables import each_case

from gatekeeper.classify.glob import compile_glob, full_regex
from gatekeeper.classify.index import GlobIndex

# Texts named by several globs too (the shipped rules name `.verified.` and `.received.` five times each).
_GLOBS = ["*-license.*", "*.verified.*", "*key*", "**/*.received.*", "docs/*notes*", "*.VERIFIED.*", "x/*key*",
          "*-license.*", "**/*.received.*"]


@each_case("path", [
    "a-license.txt", "A-LICENSE.TXT", "x/y/Tool-License.md", "a-licen\u017fe.txt", "a-licen\u017fe", "-license.",
    "license.txt", "x.verified.json", "x.VERIFIED.json", "x.verified", "\u212aey.pem", "monkey", "my\u212aEY",
    "caf\u00e9-license.txt", "caf\u00e9.txt", "docs/release-notes.md", "docs/a/notes.md", "x/y.received.txt",
    "x/y.receive.txt", "", "key/abc",
])
def test_infix_globs_agree_with_their_regexes(path: str) -> None:
    globs = [compile_glob(glob) for glob in _GLOBS]
    expected = sum(1 << i for i, glob in enumerate(globs) if full_regex(glob).fullmatch(path))
    assert GlobIndex(globs).mask(path) == expected, path


def test_a_letter_only_case_folding_knows_still_matches() -> None:
    # The long s and the Kelvin sign: the regex matches, a lowered name holds neither `s` nor `k`.
    (license_glob,) = [compile_glob("*-license.*")]
    assert full_regex(license_glob).fullmatch("a-licen\u017fe.txt")
    assert GlobIndex([license_glob]).mask("a-licen\u017fe.txt") == 1
    assert GlobIndex([compile_glob("*key*")]).mask("\u212aey.pem") == 1
