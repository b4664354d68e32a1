"""How things read for people: counts with their noun (`1 file`, `2 files`)."""

from __future__ import annotations


def count(n: int, noun: str, plural: str | None = None) -> str:
    """`n noun` with the noun in the plural unless n is 1."""
    return f"{n} {noun if n == 1 else (plural or noun + 's')}"
