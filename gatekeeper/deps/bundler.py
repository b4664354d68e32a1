"""RubyGems: Gemfile.lock (line-oriented: `    name (version)` specs, DEPENDENCIES for direct ones) and the
Gemfile's `gem` lines (the requirements a person or a bot edits: `gem "blazer", "~> 3.5.0"`)."""

from __future__ import annotations

import re

from gatekeeper.deps.hunks import CHANGED, HUNK
from gatekeeper.deps.loaders import text
from gatekeeper.deps.model import Dependency
from gatekeeper.lazy_pattern import lazy

_SPEC = lazy(r"^ {4}([A-Za-z0-9_.\-]+) \(([^)]+)\)$")
_DIRECT = lazy(r"^ {2}([A-Za-z0-9_.\-]+)(?:!)?(?: \(|$)")
# `gem "name"` / `gem('name', '~> 1.2', '>= 1.2.3', require: false)`: the name, then its version strings.
_GEM = lazy(r"""^\s*gem\s*+(?:\(\s*+)?(["'])([A-Za-z0-9_.\-]+)\1((?:\s*,\s*(["'])[^"'\n]*\4)*)(.*)$""")
# a quoted requirement (`"~> 7.0"`): group 2; gemspec.py reads its dependency lines' requirements with it too
REQUIREMENT = lazy(r"""(["'])([^"'\n]*)\1""")
_INLINE_GROUP = lazy(r"""\bgroups?\s*(?::|=>)\s*\[?([^\]\n]*)""")
_OPENS = lazy(r"""^\s*+(?:(group)\b(.*)\bdo\b|.*\bdo\s*+(?:\|[^|]*\|\s*+)?$|(?:if|unless|case|begin|while|until)\b)""")
_END = lazy(r"^\s*end\b")
_DEV_GROUPS = frozenset({"development", "test", "dev", "lint", "rubocop", "ci"})


# Sections whose gems come from somewhere else than a gem server: a git repository, a folder, a plugin's source.
_ELSEWHERE = ("GIT", "PATH", "PLUGIN SOURCE")
_REMOTE = lazy(r"^ {2}remote: (\S+)$")
# A GIT section's commit: Bundler checks the gems of its `specs:` out at it, whatever their gemspec's version says
# (Bundler::Source::Git#to_lock writes `revision:` under `remote:`).
_REVISION = lazy(r"^ {2}revision: ([0-9a-f]{7,64})$")
# The Bundler that wrote the lock, which `bundle install` then runs as (Bundler 2.3+ installs it): `BUNDLED WITH` and
# its version indented by three spaces (two since Bundler 4). Renovate and Dependabot move it ("update dependency
# bundler to v4.0.12").
_BUNDLED = lazy(r"^ {2,3}(\d+(?:\.[0-9A-Za-z]+){1,5})$")


def parse_gemfile_lock(path: str, data: bytes) -> list[Dependency]:
    """Specs of every source section, and the Bundler of `BUNDLED WITH` (a `build` dependency named bundler); a gem
    of a GIT, PATH or PLUGIN SOURCE section carries its remote in its version (`7.0.2 from GIT https://...`): a gem
    moved from rubygems.org to a fork under a bump does not order, so it is `changed`, never an in-level `upgraded`
    (red team 9). A GIT gem carries its section's `revision:` too (`0.1.0 from GIT https://... revision:7fbbe66...`):
    a gem a Gemfile takes from a branch keeps its gemspec's version while Dependabot moves it from one commit to the
    next ("bump fastlane-plugin-revenuecat_internal from `b4e1e7f` to `7fbbe66`"), and the commit is what names the
    code (lockedsources.py also reports the move)."""
    return _lock_specs(path, text(data).splitlines(), hunked=False)


def gemfile_lock_hunks(path: str, data: bytes) -> list[Dependency]:
    """A Gemfile.lock's hunk lines (hunks.sides): each hunk's specs under the section and remote that hunk shows, and
    none it does not (dependabot-core's `parallel (2.1.0)` in GEM, in a hunk below one showing a PATH section, was
    read `from PATH ../cargo`); a hunk's first lines, under a header above it, are read as the first lines of a file
    are (a `changed` version when a GIT gem moves, the safe side, is the whole-file reader's to say)."""
    return _lock_specs(path, text(data).splitlines(), hunked=True)


def _lock_specs(path: str, lines: list[str], hunked: bool) -> list[Dependency]:
    out: list[Dependency] = []
    section = ""
    remote = revision = ""
    direct: set[str] = set()
    bundler = ""
    for line in lines:
        if hunked and line == HUNK:
            section, remote, revision = "", "", ""
            continue
        line = line.removeprefix(CHANGED) if hunked else line
        if line and not line.startswith(" "):
            section, remote, revision = line.strip(), "", ""
            continue
        if (where := _REMOTE.match(line)) is not None:
            remote = where.group(1)
            continue
        if section == "GIT" and (commit := _REVISION.match(line)) is not None:
            revision = commit.group(1)
            continue
        if section == "BUNDLED WITH" and (bundled := _BUNDLED.match(line)) is not None:
            bundler = bundled.group(1)
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
                    version = f"{version} from {section} {remote}" + (f" revision:{revision}" if revision else "")
                out.append(Dependency("bundler", m.group(1), version, path, None, None))
    if direct:
        out = [Dependency("bundler", d.name, d.version, path, d.name in direct, None) for d in out]
    if bundler and not any(d.name == "bundler" for d in out):  # a lock listing bundler as a gem: that one names it
        out.append(Dependency("bundler", "bundler", bundler, path, True, "build"))
    return out


def parse_gemfile(path: str, data: bytes) -> list[Dependency]:
    """The Gemfile's `gem` lines: name and version requirements (`~> 3.5.0`, `">= 1", "< 2"` joined), at scope
    `dev` inside a `group` block (or with a `group:` option) naming only development/test groups. A gem's source
    (a `git:`/`github:`/`path:` option, any option a `git_source` of the file may define, a `github '...' do`
    block around it) is part of its version (`7.0.2 from github: 'evil/rails'`): a gem moved to a fork under a bump
    does not order (red team 10). Read line by line (a hunk's lines parse alone; outside its block a line's group
    is unknown, and it counts as runtime); what the lines hold besides gems is `residue`'s."""
    out: list[Dependency] = []
    blocks: list[tuple[bool | None, str, str]] = []  # per open block: a development group (True), another group
    # (False), else None; the source it gives its gems ("" for a group, a platform or a condition); a platform's or
    # condition's opening line, which decides where its gems install
    for line in text(data).splitlines():
        code = line.split("#", 1)[0] if "#" in line and not _GEM.match(line) else line
        if _END.match(code):
            if blocks:
                blocks.pop()
            continue
        gem = _GEM.match(code)
        if gem is None:
            opened = _OPENS.match(code)
            if opened is not None:
                group = _dev_groups(opened.group(2)) if opened.group(1) else None
                condition = code.strip() if not opened.group(1) and _PLAIN_BLOCK.match(code) else ""
                blocks.append((group, "" if opened.group(1) or condition else code.strip(), condition))
            continue
        versions = [m.group(2).strip() for m in REQUIREMENT.finditer(gem.group(3))]
        rest = gem.group(5)
        inline = _INLINE_GROUP.search(rest)
        dev = _dev_groups(inline.group(1)) if inline else any(b for b, _, _ in blocks if b is not None) and all(
            b is not False for b, _, _ in blocks)
        where = [f"{m.group('key')}:{m.group('value').strip(chr(34) + chr(39))}" for m in _OPTION.finditer(rest)
                 if m.group("key") not in _PLAIN_OPTIONS]
        where += [source for _, source, _ in blocks if source]
        version = ", ".join(versions)
        if where:
            version = f"{version} from {', '.join(where)}" if version else ", ".join(where)
        # where and whether it installs: `platforms: :jruby`, `install_if: -> { false }`, a condition or platform
        # block around it (red team 26: dropped beside a bump, the gem installed where it never had)
        when = [f"{m.group('key')}:{m.group('value')}" for m in _OPTION.finditer(rest) if m.group("key") in _WHEN]
        when += [condition for _, _, condition in blocks if condition]
        out.append(Dependency("bundler", gem.group(2), version, path, True, "dev" if dev else "runtime",
                              options=", ".join(when)))
    return out


# Gem options that say when or how a gem is loaded, never where it comes from; any other option (`github:`,
# `path:`, `source:`, a name a `git_source` defines) is part of the gem's version.
_PLAIN_OPTIONS = frozenset({"require", "group", "groups", "platform", "platforms", "install_if",
                            "force_ruby_platform", "autorequire"})
# Options that decide where a gem installs, and whether (entryoptions.py's class: model.Dependency.options).
_WHEN = frozenset({"platform", "platforms", "install_if", "force_ruby_platform"})
# Blocks that give their gems no source: conditions, groups, platforms.
_PLAIN_BLOCK = lazy(r"^\s*(?:if|unless|case|begin|while|until|platforms?|install_if|else|elsif)\b")
# No group inside (a quoted value is spelled per quote): CPython 3.11's possessive repeat of a group holding a capture
# raised SystemError ("The span of capturing group is wrong") on rails' `gem "x", github: "o/r", require: false` — a
# string option before a plain one crashed the delta (round 47)
_VALUE = r"""(?:"[^"'\n]*"|'[^"'\n]*'|:\w+|true|false|nil|\d+|%[iIwW]?[\[(][^\])\n]*[\])]|\[[^\]\n]*\])"""
_PLAIN_OPTION = rf"""(?<!\s)\s*,\s*:?\w+\s*(?::|=>)\s*{_VALUE}"""
# Tried at a run of blanks' start only: finditer read each run to its end from every blank in it (quadratic).
_OPTION = lazy(rf"""(?<!\s)\s*,\s*:?(?P<key>\w+)\s*(?::|=>)\s*(?P<value>{_VALUE})""")
# A gem line read whole: name, version strings, then only `key: value` options and a comment.
_READ_REST = lazy(rf"""^(?:{_PLAIN_OPTION})*+\s*+(?:\)\s*+)?(?:#.*)?$""")
BLANK_OR_COMMENT = lazy(r"^\s*(?:#.*)?$")


def residue(data: bytes) -> list[str]:
    """The Gemfile's lines that are not gem lines read whole, blank or comments: statements Bundler evaluates
    that the delta does not read (`send(:gem, ...)`, `eval_gemfile`, a source block, a gem call split over
    lines, `gem %q(x)`). A Gemfile is a program: when these differ between the sides, a bump elsewhere in it must
    not explain the change (red team 10: the caller reports a `partial` problem)."""
    out = []
    for line in text(data).splitlines():
        if BLANK_OR_COMMENT.match(line):
            continue
        gem = _GEM.match(line)
        if gem is not None and _READ_REST.match(gem.group(5)):
            continue
        out.append(line.strip())
    return sorted(out)


def _dev_groups(names: str) -> bool:
    groups = re.findall(r"[A-Za-z_]\w*", names)
    return bool(groups) and all(g in _DEV_GROUPS for g in groups)
