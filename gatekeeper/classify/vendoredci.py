"""CI definitions inside installed third-party packages, which never run here (the sweep14 round, issue 12).

A Go module's `vendor/github.com/pkg/errors/.travis.yml`, an npm package's `node_modules/debug/.travis.yml`, a
Composer package's `vendor/pimple/pimple/.github/workflows/tests.yml` came with the package's copy: GitHub runs only
the root `.github/workflows/`, Travis only the root `.travis.yml`. The definition itself stays `ci` (the safe side,
docs/classification.md: nested CI files never run); what it names *inside its own package folder* is not CI's by that
naming alone and keeps the vendored rule its path gives (`deps`, which reviews an edit no dependency delta explains).
A bare file name it gives (`make check`: `Makefile`) is its own package's, not the root's (bare_elsewhere). What it
names with a folder outside that folder, and anything a definition that does run reaches (walked first:
ciwalk.ci_runs), is `ci` as before: rule `ci.context.ci-run` is never given up for a file a running definition names.

Only the two kinds whose service reads the root alone, by its documentation: GitHub Actions searches the
`.github/workflows` folder in the root of the repository (docs.github.com, "Triggering a workflow"), Travis CI reads
the `.travis.yml` at the root (docs.travis-ci.com, "Getting started"; a root file's `import:` names the file it imports,
which the walk then reads from the root's definition). A vendored Jenkinsfile, `.gitlab-ci.yml` (a GitLab `include:
local:` or a project's custom CI path can run one), AppVeyor or CircleCI file keeps what it names `ci`.
"""

from __future__ import annotations

import posixpath

from gatekeeper.classify.ruleset import RuleSet
from gatekeeper.lazy_pattern import lazy

__all__ = ["bare_elsewhere", "inert", "own_package_file", "package_root", "root_only", "runs_here", "travis_imports"]

ROOT_TRAVIS = ".travis.yml"
# A YAML file's name in a Travis file's text, as `import:` gives it (attack19): a list, one value, `source:` keys,
# quoted, `@ref`-pinned, `/` for the root; a remote `owner/repo:path` yields its path too (one more file walked)
# tried at a word's start only (the same names: a later start in a word ends where the first does); from each
# character of a long word it read to the word's end (16 KiB: 0.93 CPU-s)
_YAML_NAME = lazy(r"(?<![^\s'\"\[\]{},:@])[^\s'\"\[\]{},:@]+\.ya?ml(?![\w.-])")

# The folders package managers install third-party packages into (Go's and Composer's `vendor/`, npm's
# `node_modules/`, Bower's `bower_components/`) and the copies the path rules call vendored (deps.vendored).
INSTALL_FOLDERS = frozenset({"vendor", "_vendor", "vendored", "node_modules", "bower_components", "third_party",
                             "third-party"})


# The definitions their service reads at the root only (docs.travis-ci.com; Atlantis' repo-level atlantis.yaml; not
# Bitbucket's, which runs a subfolder's file too): a sub-project's copy is an example no service runs (misses 9:
# MartinHelmut/mono's `projects/rush/.travis.yml`); an installed package's is inert, above. And Dependabot's settings:
# Dependabot runs no command of the repository (its `package-ecosystem: 'npm'` read as a command made typed-fastify's
# test/server.ts `ci`). Kept after determinism 45 made a quoted data value no command: 18 of the mirrors' 240
# Dependabot files still name something by their unquoted values' raw lines (`directory: /tests`, `- cargo`).
_ROOT_ONLY = frozenset({".travis.yml", "atlantis.yaml"})
_NO_COMMANDS = frozenset({".github/dependabot.yml", ".github/dependabot.yaml"})


def runs_here(path: str) -> bool:
    """Not a root-only service's definition in a sub-project's folder (an install folder's is inert instead), nor
    Dependabot's settings: what else the walk may start from (ciwalk._defines)."""
    if not path.endswith((".yml", ".yaml")):
        return True  # most paths, by one test
    if path in _NO_COMMANDS:
        return False
    return "/" not in path or path.rpartition("/")[2] not in _ROOT_ONLY or package_root(path) is not None


def package_root(path: str) -> str | None:
    """The folder up to and including the first install folder of `path` (`a/vendor/`), or None outside any."""
    parts = path.split("/")[:-1]
    for i, part in enumerate(parts):
        if part in INSTALL_FOLDERS:
            return "/".join(parts[:i + 1]) + "/"
    return None


def root_only(path: str) -> bool:
    """A Travis file or a GitHub workflow: a definition its service runs only at the repository's root."""
    return path.endswith("/.travis.yml") or "/.github/workflows/" in path


def travis_imports(path: str, text: str) -> list[str]:
    """The files the Travis definition `path` may import (docs.travis-ci.com, "Build Config Imports": a local path
    is relative to the importing file, or to the root with a leading `/`): every YAML name of `text`, from the root
    and from the folder of `path`. The walk reads them with the root `.travis.yml` as origin, before an installed
    package's own definitions: a vendored Travis file the root imports runs (attack19; closed: a YAML name that is
    no import only walks one more file as run)."""
    own = path.rpartition("/")[0]
    found = [posixpath.normpath(posixpath.join(base, name.lstrip("/")))
             for name in _YAML_NAME.findall(text) for base in ("", own)]
    return [name for name in dict.fromkeys(found) if not name.startswith(("../", "/")) and name not in (".", "..")]


def own_package_file(origin: str, named: str, rules: RuleSet | None) -> bool:
    """Whether `named`, which the definition `origin` names, lies in the install folder `origin` lies in, `origin` is
    a definition run only at the root (root_only) and the path `rules` call `named` `deps`: the naming does not make it
    `ci` (rule ci.context.ci-run not given)."""
    root = package_root(origin)
    return rules is not None and root is not None and root_only(origin) and named.startswith(root) \
        and rules.match(named).bucket == "deps"


def inert(origin: str) -> bool:
    """A definition that came with an installed package and runs only at its root: never here (the root Travis file
    that imports one is the origin the walk reads it with)."""
    return package_root(origin) is not None and root_only(origin)


def bare_elsewhere(origin: str, named: str, resolved: str) -> bool:
    """Whether the inert definition `origin` gives `named` as a bare file name (`make check` names `Makefile`,
    `./build.sh` names `build.sh`) and `resolved` lies outside its install folder: run at all, it would run from its
    package's own root, not this repository's (the seventy-ninth set: a Go service's root `Makefile` was `ci` by
    `vendor/github.com/pkg/errors/.travis.yml`'s `make check`). A name with a folder stays the walk's (sweep14)."""
    root = package_root(origin)
    return root is not None and "/" not in named.removeprefix("./") and not resolved.startswith(root)
