"""CI definitions inside installed third-party packages, which never run here (the sweep14 round, issue 12).

A Go module's `vendor/github.com/pkg/errors/.travis.yml`, an npm package's `node_modules/debug/.travis.yml`, a
Composer package's `vendor/pimple/pimple/.github/workflows/tests.yml` came with the package's copy: GitHub runs only
the root `.github/workflows/`, Travis only the root `.travis.yml`. The definition itself stays `ci` (the safe side,
docs/classification.md: nested CI files never run); what it names *inside its own package folder* is not CI's by that
naming alone and keeps the vendored rule its path gives (`deps`, which reviews an edit no dependency delta explains).
What it names outside that folder, and anything a definition that does run reaches (walked first: ciwalk.ci_runs),
is `ci` as before: rule `ci.context.ci-run` is never given up for a file a running definition names.
"""

from __future__ import annotations

from gatekeeper.classify.ruleset import RuleSet

__all__ = ["package_root", "own_package_file"]

# The folders package managers install third-party packages into (Go's and Composer's `vendor/`, npm's
# `node_modules/`, Bower's `bower_components/`) and the copies the path rules call vendored (deps.vendored).
INSTALL_FOLDERS = frozenset({"vendor", "_vendor", "vendored", "node_modules", "bower_components", "third_party",
                             "third-party"})


def package_root(path: str) -> str | None:
    """The folder up to and including the first install folder of `path` (`a/vendor/`), or None outside any."""
    parts = path.split("/")[:-1]
    for i, part in enumerate(parts):
        if part in INSTALL_FOLDERS:
            return "/".join(parts[:i + 1]) + "/"
    return None


def own_package_file(origin: str, named: str, rules: RuleSet | None) -> bool:
    """Whether `named`, which the definition `origin` names, lies in the install folder `origin` lies in and the path
    `rules` call it `deps` there: the naming does not make it `ci` (rule ci.context.ci-run not given)."""
    root = package_root(origin)
    return rules is not None and root is not None and named.startswith(root) and rules.match(named).bucket == "deps"
