"""A lockfile's copies of one package, one per release line: moves pair within a line, never across.

Real JavaScript and Rust lockfiles hold several copies of a package (picomatch 2.x for one dependent, 4.x for
another; syn 1.x and 2.x). TanStack/query's pnpm-lock.yaml once moved picomatch 2.3.1 → 2.3.2 and added 4.0.4
beside 4.0.3: paired highest with highest across lines that was a major upgrade 2.3.1 → 4.0.4 and a downgrade
4.0.3 → 2.3.2, and the deps policy sent a patch bump to a human twice over.
"""

from __future__ import annotations

from tables import each_case

from gatekeeper.deps import cargo, npm
from gatekeeper.deps.delta import diff


def yarn_lock(*versions: str) -> bytes:
    return "".join(f'picomatch@^{v}:\n  version "{v}"\n  resolved "https://registry.yarnpkg.com/picomatch/-/'
                   f'picomatch-{v}.tgz"\n\n' for v in versions).encode()


def moves(base: tuple[str, ...], head: tuple[str, ...]) -> list[tuple[str | None, str | None, str, str | None]]:
    changes = diff(npm.parse_yarn_lock("yarn.lock", yarn_lock(*base)),
                   npm.parse_yarn_lock("yarn.lock", yarn_lock(*head)), "yarn.lock")
    return sorted((c.from_version, c.to_version, c.change, c.level) for c in changes)


Move = tuple[str | None, str | None, str, str | None]


@each_case(("base", "head", "expected"), [
    # TanStack/query's move: two patch moves, one per line
    (("2.3.1", "3.0.1", "4.0.3"), ("2.3.2", "3.0.1", "4.0.3", "4.0.4"),
     [("2.3.1", "2.3.2", "upgraded", "patch"), ("4.0.3", "4.0.4", "upgraded", "patch")]),
    # below 1.0 a minor number is the line (what a caret range keeps)
    (("0.3.1", "0.4.0"), ("0.3.2", "0.4.0"), [("0.3.1", "0.3.2", "upgraded", "patch")]),
    (("0.3.1", "0.4.0"), ("0.3.1", "0.4.1"), [("0.4.0", "0.4.1", "upgraded", "patch")]),
    # a real move across lines stays the major move it is; a copy removed is a removal
    (("1.2.0",), ("2.0.0",), [("1.2.0", "2.0.0", "upgraded", "major")]),
    (("1.0.0", "2.0.0"), ("3.0.0",), [("1.0.0", None, "removed", None), ("2.0.0", "3.0.0", "upgraded", "major")]),
    # a new line beside a kept copy moved from the highest copy BASE holds (a major: a human looks)
    (("1.0.0",), ("1.0.0", "2.0.0"), [("1.0.0", "2.0.0", "upgraded", "major")]),
    # a downgrade within a line is still one
    (("2.3.1", "4.0.4"), ("2.3.1", "4.0.3"), [("4.0.4", "4.0.3", "downgraded", "patch")]),
    (("4.0.4",), ("2.3.2",), [("4.0.4", "2.3.2", "downgraded", "major")]),
])
def test_copies_move_within_their_release_line(base: tuple[str, ...], head: tuple[str, ...],
                                                 expected: list[Move]) -> None:
    assert moves(base, head) == expected


def test_cargo_lock_copies_of_syn() -> None:
    def lock(*versions: str) -> bytes:
        source = "registry+https://github.com/rust-lang/crates.io-index"
        return b"version = 3\n\n" + "".join(
            f'[[package]]\nname = "syn"\nversion = "{v}"\nsource = "{source}"\nchecksum = "{n:064x}"\n\n'
            for n, v in enumerate(versions)).encode()

    changes = diff(cargo.parse_cargo_lock("Cargo.lock", lock("1.0.109", "2.0.48")),
                   cargo.parse_cargo_lock("Cargo.lock", lock("1.0.109", "2.0.52")), "Cargo.lock")
    assert [(c.from_version, c.to_version, c.change, c.level) for c in changes] == [
        ("2.0.48", "2.0.52", "upgraded", "patch")]
