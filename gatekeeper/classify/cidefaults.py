"""The commands Travis CI runs when its definition names none (the seventy-fourth set,
tests/test_classify_seventyfourth_classes.py).

A root `.travis.yml` without a `script:` key runs its language's default build (docs.travis-ci.com, each language's
guide): `bundle exec rake` for Ruby — also when the file sets no `language:`, Ruby being Travis' default —, `make`
for Go when a Makefile exists (`go test ./...` otherwise), `./configure && make && make test` for C and C++, `npm test`
for Node.js, ... kbeckman/commish's Travis file lists Ruby versions and a `before_install:` only; its Rakefile's
default task (RuboCop, then the specs) is what the job runs, and the Rakefile was `src`. The walk reads the root Travis
file with its language's default command added (`with_default`), so the command's own reading names the Rakefile, the
Makefile or the package.json whose `test` script runs.

A `script:` anywhere at the top level replaces the default (a job's own `script:` in `jobs: include:` replaces it for
that job only, so the default is still added: the safe side). Languages without a default script (Python, `generic`,
`minimal`, `shell`) add nothing. Only the root file: Travis reads no other (vendoredci.py).
"""

from __future__ import annotations

import re

from gatekeeper.classify.vendoredci import ROOT_TRAVIS
from gatekeeper.lazy_pattern import lazy

__all__ = ["with_default"]

# Each language's default script (the `install:` defaults install from manifests, which are deps by name anyway).
_DEFAULTS = {
    "ruby": "bundle exec rake", "jruby": "bundle exec rake",
    "go": "make\ngo test ./...",
    "c": "./configure && make && make test", "cpp": "./configure && make && make test",
    "node_js": "npm test", "node": "npm test",
    "php": "phpunit",
    "java": "./gradlew check\ngradle check\nmvn test -B\nant test",
    "groovy": "./gradlew check\ngradle check", "scala": "sbt ++$TRAVIS_SCALA_VERSION test",
    "perl": "perl Build.PL && ./Build test\nperl Makefile.PL && make test",
    "elixir": "mix test", "erlang": "rebar3 eunit", "clojure": "lein test", "haskell": "cabal test",
    "crystal": "crystal spec", "rust": "cargo build --verbose\ncargo test --verbose", "nix": "nix-build",
    "d": "dub test", "dart": "pub run test", "r": "R CMD build .\nR CMD check *tar.gz",
}
_LANGUAGE = lazy(r"""^language[ \t]*:[ \t]*["']?([\w-]+)""", re.MULTILINE)
_SCRIPT = lazy(r"""^["']?script["']?[ \t]*:""", re.MULTILINE)


def with_default(path: str, text: str) -> str:
    """`text` of the definition at `path`, with the default script Travis runs added when it is the root Travis file
    and names no `script:` of its own (a top-level key: a line that starts with it)."""
    if path != ROOT_TRAVIS or _SCRIPT.search(text) is not None:
        return text
    language = _LANGUAGE.search(text)
    default = _DEFAULTS.get(language.group(1).lower() if language else "ruby")
    return f"{text}\n# Travis' default script\nscript:\n" + "".join(f"  - {line}\n" for line in default.split("\n")) \
        if default else text
