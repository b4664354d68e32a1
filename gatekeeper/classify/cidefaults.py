"""The commands Travis CI runs when its definition names none (the seventy-fourth set,
tests/test_classify_seventyfourth_classes.py).

A root `.travis.yml` without a `script:` key runs its language's default build (docs.travis-ci.com, each language's
guide): `bundle exec rake` for Ruby — also when the file sets no `language:`, Ruby being Travis' default —, `make`
for Go when a Makefile exists (`go test ./...` otherwise), `./configure && make && make test` for C and C++, `npm test`
for Node.js, ... kbeckman/commish's Travis file lists Ruby versions and a `before_install:` only; its Rakefile's
default task (RuboCop, then the specs) is what the job runs, and the Rakefile was `src`. The walk reads the root Travis
file with its language's default command added (`with_default`), so the command's own reading names the Rakefile, the
Makefile or the package.json whose `test` script runs.

A `script:` at the top level replaces the default (a job's own `script:` in `jobs: include:` replaces it for that
job only, so the default is still added: the safe side); an empty one (`script:`, `[]`, `''`, `~`) is dropped, as
Travis drops it, and a job of `jobs: include:` with a `language:` of its own and no script runs that language's
default (attack 42). Languages without a default script (Python, `generic`, `minimal`, `shell`) add nothing. Only
the root file: Travis reads no other (vendoredci.py).

The same holds for a GitHub Actions step whose action runs a repository file by its documented default (the
eighty-first set, tests/test_action_default_runs.py): `julia-actions/julia-docdeploy` runs `julia --project=docs/
docs/make.jl` (DataFrames.jl's docs job; PkgTemplates writes that step), Sentry's Craft (`getsentry/craft`,
`getsentry/action-prepare-release`) runs its default pre-release command `bash scripts/bump-version.sh`, Cypress' action
runs `npx cypress run` (its settings module), and RubyGems' trusted-publishing action `rubygems/release-gem` (and the
older `cadwallion/publish-rubygems-action`) runs `rake release`, the gem tasks the Rakefile loads (delayed_job's publish
workflow; the eighty-fifth set). A workflow or action file whose uncommented `uses:` names one is read with those
commands added (`with_default`), so their own reading names the file; where the step's `with:` moves it
(`working-directory:`, Cypress' `project:`: misses 6) the command is added again run in that folder (`cd DIR && …`),
beside the root's. A `.craft.yml` `preReleaseCommand:` is read as the path rule's CI file it is. The walk of the
definitions a patch shows reads them the same way (patchcontext.py; the eighty-fifth set).
"""

from __future__ import annotations

import re

from gatekeeper.classify.vendoredci import ROOT_TRAVIS
from gatekeeper.classify.yamlnodes import Node, documents, merged
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
    # attack 42: Android's Gradle default; Julia's `Pkg.test` runs the package's test/runtests.jl
    "android": "./gradlew build connectedCheck", "julia": "julia test/runtests.jl",
}
_EMPTY = ("", "~", "null", "Null", "NULL")  # a value Travis drops (then the default runs)
# {an action: the command it runs by default} (the eighty-first set; each action's documentation)
_ACTIONS = {"julia-actions/julia-docdeploy": "julia --project=docs/ docs/make.jl",
            # `Pkg.test()`, which runs the package's test/runtests.jl (label 92: Revise.jl's test job was read
            # through a commented-out step's `cd("test")` until comments named nothing)
            "julia-actions/julia-runtest": "julia test/runtests.jl",
            "getsentry/craft": "bash scripts/bump-version.sh",
            "getsentry/action-prepare-release": "bash scripts/bump-version.sh",
            "cypress-io/github-action": "npx cypress run",
            # the eighty-fifth set: RubyGems' trusted publishing and an older action run Bundler's `rake release`
            "rubygems/release-gem": "bundle exec rake release", "cadwallion/publish-rubygems-action": "rake release"}
# an uncommented step's `uses:` naming one of them at any version (`@v1`, a SHA), quoted or not
MAX_STEP_LINES = 64  # lines of a step read for the folder it runs in
# a step's `with:` input that moves the action's command to another folder of the checkout
_MOVED = lazy(r"""^[ \t]++(?:working-directory|project)[ \t]*+:[ \t]*+([^#\n]{1,256}?)[ \t]*+(?:#.*)?$""")
_USES = lazy(r"^[ \t]*+(?:-[ \t]*+)?+uses[ \t]*+:[ \t]*+['\"]?+("
             + "|".join(map(re.escape, _ACTIONS)) + r")@", re.MULTILINE)


def with_default(path: str, text: str) -> str:
    """`text` of the definition at `path`, with the commands a workflow's actions run by default added
    (_with_action_defaults), and the default script Travis runs added when it is the root Travis file and a job of it
    runs no script: the top level names none (or an empty one) for its language, or a job of `jobs:
    include:`/`matrix: include:` with a `language:` of its own names none and inherits none (attack 42)."""
    if path != ROOT_TRAVIS:
        return _with_action_defaults(path, text)
    roots = [root for root in documents(text) if isinstance(root, dict)]
    languages = [language for language, scripted in _jobs(roots) if not scripted]
    defaults = [line for language in dict.fromkeys(languages) for line in _DEFAULTS.get(language, "").split("\n")
                if line]
    return f"{text}\n# Travis' default script\nscript:\n" + "".join(f"  - {line}\n" for line in defaults) \
        if defaults else text


def _with_action_defaults(path: str, text: str) -> str:
    """`text` of a YAML definition at `path` with the commands its steps' actions run by default (_ACTIONS) added as
    steps of a last top-level key (the walk reads a definition's lines: a key's `- run:` is a command)."""
    if "uses" not in text or not path.endswith((".yml", ".yaml")):
        return text
    commands = dict.fromkeys(command for hit in _USES.finditer(text) for command in _step_commands(text, hit))
    return f"{text}\n# the commands these actions run by default\nx-action-defaults:\n" + "".join(
        f"  - run: {command}\n" for command in commands) if commands else text


def _step_commands(text: str, hit: re.Match[str]) -> list[str]:
    """The default command of the action `hit` names, and the same run in each folder its step's `with:` moves it to
    (`working-directory:`, Cypress' `project:`; misses 6): the step's lines are those after the `uses:` line indented
    as far as its key or further (its `with:` and what is under it), up to MAX_STEP_LINES."""
    command = _ACTIONS[hit[1]]
    column = len(hit[0]) - len(hit[0].lstrip(" \t-"))  # the `uses` key's: the step's keys sit there, its values deeper
    out, start = [command], text.find("\n", hit.end()) + 1
    for _ in range(MAX_STEP_LINES):  # line by line from the `uses:` line's end: a step's lines only, never the rest
        if start <= 0 or start >= len(text):
            break
        end = text.find("\n", start)
        line, start = text[start:end if end >= 0 else len(text)], end + 1 if end >= 0 else len(text)
        body = line.lstrip(" \t")
        if body and not body.startswith("#") and len(line) - len(body) < column:
            break
        if (moved := _MOVED.match(line)) is not None and (folder := moved[1].strip("'\" ").rstrip("/")) \
                and folder not in (".", "./") and not folder.startswith(("$", "/")):
            out.append(f"cd {folder} && {command}")
    return out


def _jobs(roots: list[dict[str, list[Node]]]) -> list[tuple[str, bool]]:
    """(language, whether it names a script) of the top level (Ruby where it names no language) and of each job of
    `jobs: include:`/`matrix: include:` that names a language (a job inherits the top level's script). Every value
    counts (attack 43, fail closed): a repeated key, a list, a merge key's mapping (`<<: *defaults`), one job given as
    a mapping."""
    if not roots:
        return [("ruby", False)]
    top = roots[0]
    scripted = _scripted(top)
    out = [(language, scripted) for language in _languages(top)] or [("ruby", scripted)]
    for key in ("jobs", "matrix"):
        for section in _values(top, key):
            for include in _values(section, "include") if isinstance(section, dict) else ():
                for job in include if isinstance(include, list) else [include]:
                    if isinstance(job, dict):
                        out += [(own, scripted or _scripted(job)) for own in _languages(job)]
    return out


def _values(mapping: dict[str, list[Node]], key: str) -> list[Node]:
    """Every value of `key` in `mapping` and in the mappings its merge keys (`<<`) bring in (YAML 1.1, as Travis'
    parser reads them: yamlnodes.merged)."""
    return [value for each in merged(mapping) for value in each.get(key, ())]


def _languages(mapping: dict[str, list[Node]]) -> list[str]:
    """The languages a mapping's `language:` names (each of a list too)."""
    values = [item for value in _values(mapping, "language")
              for item in (value if isinstance(value, list) else [value])]
    return [value.strip().lower() for value in values if isinstance(value, str) and value.strip()]


def _scripted(mapping: dict[str, list[Node]]) -> bool:
    """Whether a mapping's `script:` names a command (Travis drops an empty one: `script:`, `[]`, `''`, `~`; a list of
    them, a blank value, are read as empty too: the default is added, the safe side)."""
    def command(value: Node) -> bool:
        return isinstance(value, str) and value.strip() not in _EMPTY or isinstance(value, dict)
    return any(command(value) or isinstance(value, list) and any(map(command, value))
               for value in _values(mapping, "script"))
