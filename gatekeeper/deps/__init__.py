"""Dependency delta: manifests and lockfiles of BASE and HEAD in, typed changes per ecosystem out.

One module per ecosystem family parses a file's bytes into `Dependency` records (`registry.py` maps
file names to parsers); `delta.py` compares the two sides with each ecosystem's own version
ordering; `sources.py` reads the sides from git objects or from a patch alone; `advisories.py`
marks changes that OSV records say are vulnerable; `facts.py` computes small per-file facts.
See docs/dependencies.md.
"""
