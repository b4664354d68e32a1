"""A gem's specification, `*.gemspec`: the gems it depends on (round 46).

A gemspec is Ruby the gem's Gemfile evaluates (`gemspec`): Bundler installs its runtime and development
dependencies as the Gemfile's own, and Dependabot's bundler manager bumps their requirements there ("Bump ammeter to
1.1.2": `s.add_development_dependency 'ammeter', '1.1.2'`). Read is what those bots write: one whole line
`<spec>.add_dependency` / `add_runtime_dependency` (scope `runtime`) / `add_development_dependency` (scope `dev`)
with a literal name (`"rake"`, `'rake'`, `%q<rake>`, the generated `%q<rake>.freeze`) and literal requirement strings
(bare or in one `[...]`, `">= 1", "< 3"` joined as a Gemfile's are), a trailing comment allowed. Anything else — an
interpolated name (`"rspec-#{name}"`), a requirement from a constant, a call over several lines — names nothing and
is `residue`: a line Bundler evaluates that the delta does not read, so when it differs between the sides the change
is a `partial` problem (residue.py), as a Gemfile's is. Line-oriented: a patch's hunk lines read as the file does.
"""

from __future__ import annotations

from gatekeeper.deps.bundler import BLANK_OR_COMMENT, REQUIREMENT
from gatekeeper.deps.loaders import text
from gatekeeper.deps.model import Dependency
from gatekeeper.deps.tools import TOOL
from gatekeeper.lazy_pattern import lazy

_STRING = r"""(?:"[^"\\\n#]*"|'[^'\\\n]*')(?:\.freeze)?"""
_GEM = r"[A-Za-z0-9_.\-]+"
_NAME = rf"""(?:"(?P<n1>{_GEM})"|'(?P<n2>{_GEM})'|%q<(?P<n3>{_GEM})>|%q\((?P<n4>{_GEM})\))(?:\.freeze)?"""
# the whole line: receiver, call, name, then at most one list of requirement strings and the closing parenthesis
_DEPENDENCY = lazy(rf"""^\s*+[A-Za-z_]\w*+\.add_(?:(?P<kind>runtime|development)_)?dependency\b\s*+(?P<paren>\(\s*+)?"""
                   rf"""{_NAME}(?P<versions>\s*+,\s*+(?:\[\s*+{_STRING}(?:\s*+,\s*+{_STRING})*+\s*+\]"""
                   rf"""|{_STRING}(?:\s*+,\s*+{_STRING})*+))?\s*+(?(paren)\)\s*+)(?:#.*)?$""")

# The Ruby the gem requires, one whole line (`s.required_ruby_version = ">= 2.7"`, a list of requirement strings, the
# generated `Gem::Requirement.new(">= 2.4.0")`): the tool `ruby`, as Cargo's `rust-version` names `rust` (round 48)
_REQUIREMENTS = rf"""(?:\[\s*+{_STRING}(?:\s*+,\s*+{_STRING})*+\s*+\]|{_STRING}(?:\s*+,\s*+{_STRING})*+)"""
_RUBY = lazy(rf"""^\s*+[A-Za-z_]\w*+\.required_ruby_version\s*+=\s*+(?:Gem::Requirement\.new\s*+\(\s*+"""
             rf"""(?P<new>{_REQUIREMENTS})\s*+\)|(?P<plain>{_REQUIREMENTS}))\s*+(?:#.*)?$""")


def parse_gemspec(path: str, data: bytes) -> list[Dependency]:
    """The dependency lines read whole, and the Ruby the gem requires; every other line is residue."""
    out: list[Dependency] = []
    for line in text(data).splitlines():
        if ruby := _RUBY.match(line):
            versions = [r.group(2).strip() for r in REQUIREMENT.finditer(ruby.group("new") or ruby.group("plain"))]
            out.append(Dependency(TOOL, "ruby", ", ".join(versions), path, True, "runtime"))
            continue
        m = _DEPENDENCY.match(line)
        if m is None:
            continue
        name = m.group("n1") or m.group("n2") or m.group("n3") or m.group("n4")
        versions = [r.group(2).strip() for r in REQUIREMENT.finditer(m.group("versions") or "")]
        out.append(Dependency("bundler", name, ", ".join(versions), path, True,
                              "dev" if m.group("kind") == "development" else "runtime"))
    return out


def residue(data: bytes) -> list[str]:
    """The lines that are no dependency line read whole, blank or a comment, sorted: Ruby the delta does not read
    (the gem's own version and files, a dependency written any other way). A line holding `#{` is kept whatever it
    looks like: inside a heredoc or a string over lines Ruby interpolates it (attack 38)."""
    return sorted(line.strip() for line in text(data).splitlines()
                  if not BLANK_OR_COMMENT.match(line)
                  and (_DEPENDENCY.match(line) is None and _RUBY.match(line) is None or "#{" in line))
