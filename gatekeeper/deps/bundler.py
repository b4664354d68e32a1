"""RubyGems: Gemfile.lock (line-oriented: `    name (version)` specs, DEPENDENCIES for direct ones)."""

from __future__ import annotations

import re

from gatekeeper.deps.loaders import text
from gatekeeper.deps.model import Dependency
from gatekeeper.lazy_pattern import lazy

_SPEC = lazy(r"^ {4}([A-Za-z0-9_.\-]+) \(([^)]+)\)$")
_DIRECT = lazy(r"^ {2}([A-Za-z0-9_.\-]+)(?:!)?(?: \(|$)")


def parse_gemfile_lock(path: str, data: bytes) -> list[Dependency]:
    out: list[Dependency] = []
    section = ""
    direct: set[str] = set()
    for line in text(data).splitlines():
        if line and not line.startswith(" "):
            section = line.strip()
            continue
        if section == "DEPENDENCIES":
            m = _DIRECT.match(line)
            if m:
                direct.add(m.group(1))
            continue
        if section in ("", "GEM", "GIT", "PATH", "PLUGIN SOURCE"):
            m = _SPEC.match(line)
            if m:
                version = m.group(2).split("-")[0] if re.search(r"-(x86|arm|aarch|java|universal|x64)", m.group(2)) \
                    else m.group(2)
                out.append(Dependency("bundler", m.group(1), version, path, None, None))
    if direct:
        out = [Dependency("bundler", d.name, d.version, path, d.name in direct, None) for d in out]
    return out
