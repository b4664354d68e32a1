"""RubyGems: Gemfile.lock (line-oriented: `    name (version)` specs, DEPENDENCIES for direct ones)."""

from __future__ import annotations

import re

from gatekeeper.deps.loaders import text
from gatekeeper.deps.model import Dependency
from gatekeeper.lazy_pattern import lazy

_SPEC = lazy(r"^ {4}([A-Za-z0-9_.\-]+) \(([^)]+)\)$")
_DIRECT = lazy(r"^ {2}([A-Za-z0-9_.\-]+)(?:!)?(?: \(|$)")


# Sections whose gems come from somewhere else than a gem server: a git repository, a folder, a plugin's source.
_ELSEWHERE = ("GIT", "PATH", "PLUGIN SOURCE")
_REMOTE = lazy(r"^ {2}remote: (\S+)$")


def parse_gemfile_lock(path: str, data: bytes) -> list[Dependency]:
    """Specs of every source section; a gem of a GIT, PATH or PLUGIN SOURCE section carries its remote in its
    version (`7.0.2 from GIT https://...`): a gem moved from rubygems.org to a fork under a bump does not order, so
    it is `changed`, never an in-level `upgraded` (red team 9)."""
    out: list[Dependency] = []
    section = ""
    remote = ""
    direct: set[str] = set()
    for line in text(data).splitlines():
        if line and not line.startswith(" "):
            section, remote = line.strip(), ""
            continue
        if (where := _REMOTE.match(line)) is not None:
            remote = where.group(1)
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
                if section in _ELSEWHERE:
                    version = f"{version} from {section} {remote}"
                out.append(Dependency("bundler", m.group(1), version, path, None, None))
    if direct:
        out = [Dependency("bundler", d.name, d.version, path, d.name in direct, None) for d in out]
    return out
