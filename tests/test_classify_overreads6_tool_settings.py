"""Over-reads 6, `other` read as `src`: settings files named for the one tool that reads them (issue 12; the
seventy-fifth, eightieth, eighty-first and eighty-third sets: gotestsum's `.project/golangci-lint.yml` that CircleCI's
lint job passes with `--config`, uuid's `bundlewatch.config.json`, markdown-it's `typedoc.config.mjs`, svu's `.svu.yml`,
ctags' `.ctags.d/exclusion.ctags`).

Each name is read by one tool only, and the sets label a checker's, a docs generator's and a version tool's settings
`other` (principle 8; as `.golangci.yml`, `vitest.config.*`, `cliff.toml` already are): golangci-lint's settings
without the dot (`golangci-lint.yml`, read with `--config`), bundlewatch's JSON settings, TypeDoc's `typedoc.json` and
`typedoc.config.*`, svu's `.svu.yml`, Universal Ctags' option files (`.ctags`, `.ctags.d/*.ctags`). They are
`other.lint-format` at any depth. Look-alikes keep their bucket: a bundlewatch settings module in JavaScript, a
workflow or a CI folder's file of the same name (the CI rules come first), other extensions, and names that only
contain the tool's."""

from __future__ import annotations

from conftest import POLICY_DIR
from tables import each_case

from gatekeeper.classify.ruleset import load_rules

NAMES = ["golangci-lint.yml", "golangci-lint.yaml", "golangci-lint.toml", "golangci-lint.json",
         "bundlewatch.config.json", ".bundlewatch.config.json", "typedoc.json", "typedoc.config.mjs",
         "typedoc.config.js", "typedoc.config.cjs", "typedoc.config.ts", ".svu.yml", ".svu.yaml", ".ctags",
         ".ctags.d/exclusion.ctags", ".ctags.d/languages.ctags"]
FOLDERS = ["", ".project/", "docs/", "packages/core/", "tools/lint/"]
SETTINGS = [folder + name for folder in FOLDERS for name in NAMES]

# (path, bucket): what must not move
LOOK_ALIKES = [
    ("bundlewatch.config.js", "src"),  # a settings module: code, left to the walk
    (".github/workflows/golangci-lint.yml", "ci"),
    (".circleci/golangci-lint.yml", "ci"),
    ("golangci-lint.sh", "src"),
    ("typedoc-plugin.mjs", "src"),
    ("src/typedoc.ts", "src"),
    ("svu.go", "src"),
    ("lib/tags.ctags.bak", "src"),
    ("ctags.c", "src"),
]


@each_case("path", SETTINGS)
def test_a_tools_settings_are_other(path: str) -> None:
    hit = load_rules(POLICY_DIR).match(path)
    assert (hit.bucket, hit.rule) == ("other", "other.lint-format"), (path, hit)


@each_case("path, bucket", LOOK_ALIKES)
def test_look_alikes_keep_their_bucket(path: str, bucket: str) -> None:
    assert load_rules(POLICY_DIR).match(path).bucket == bucket, path
