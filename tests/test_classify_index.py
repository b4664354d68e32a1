"""The glob index (one bit per glob) against a plain regex per glob, on every glob shape it treats apart."""

from __future__ import annotations

import random

from gatekeeper.classify.glob import compile_glob, full_regex
from gatekeeper.classify.index import GlobIndex

# Globs of every shape the index handles differently, so each of its tables is exercised.
_SHAPES = [
    "x", "*.md", "*.tar.gz", "*_test.go", "*z", "a*", "Doc*", "re*.txt", "*.[1-9].md", "b?d.txt", "*x*",
    "[ab]*", "*[!c]", "a/b", "/a", "a/b/**", "a/**", "**/b", "**/a/b", "**/a/**", "**/a/**/b/**",
    "a/*/c", "a/**/c/*.md", "*/b/**", "a*/**", "**/[ab]/**", "**/x*y/**", "a/b/c/d/**", "a/b/c/", "b/",
    "**/c", "\\*x", "a/[bc]/d/**", "**/{{t.*}}/**", "?/**",
]
_PARTS = ["a", "b", "c", "d", "x", "xy", "xzy", "{{t.1}}", "B", "Doc", "re"]
_FILES = ["x", "a.md", "b.tar.gz", "c_test.go", "z", "az", "docs", "req.txt", "re.txt", "g.1.md", "bad.txt",
          "bxd.txt", "*x", "c", "ab", "q.MD", "A", "b", "d"]


def test_index_agrees_with_plain_regexes_on_every_glob_shape() -> None:
    globs = [compile_glob(p) for p in _SHAPES]
    regexes = [full_regex(g) for g in globs]
    index = GlobIndex(globs)
    rng = random.Random(3)
    for n in range(6000):
        parts = _PARTS if n % 2 else _PARTS[:4]  # half the paths walk a/b/c/d, where the anchored globs live
        path = "/".join([*(rng.choice(parts) for _ in range(rng.randint(0, 6))), rng.choice(_FILES)])
        expected = sum(1 << i for i, rx in enumerate(regexes) if rx.fullmatch(path))
        assert index.mask(path) == expected, (
            path,
            [p for i, p in enumerate(_SHAPES) if (index.mask(path) ^ expected) >> i & 1],
        )
