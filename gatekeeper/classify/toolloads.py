"""The code the tools and installers a CI text runs load, read by the readers of misses 8 (one call from ciwalk).

Each reader takes the text a walk reads (and where it is) and gives path patterns, as ciwalk's other `brought_up`
readers do: fixtureinstalls.py (the fixture packages a line installs).
"""

from __future__ import annotations

from gatekeeper.classify import fixtureinstalls

__all__ = ["loaded"]


def loaded(path: str, text: str, folders: list[str]) -> list[str]:
    """The patterns of the files the tools `text` (the file at `path`, its commands in `folders`) runs load."""
    return fixtureinstalls.installed(text, path, folders)
