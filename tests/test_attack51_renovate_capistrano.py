"""Attack 51: automation a repository's own file grants, decided by the lead after attack 50.

Renovate merges its own pull requests without review when its settings say so (`automerge`, `platformAutomerge`,
`automergeType: branch` pushing to the base branch, `ignoreTests`, a `packageRules` entry with `automerge: true`, a
preset that automerges: `:automergeAll`, `:automergeMinor`, ...). Such a settings file is a merge gate, as Mergify's
and bors' files are: `ci` by content (`ci.content.renovate-automerge`, gatekeeper/classify/renovatemerge.py), on
either side (turning automerge off is a gate change too); a preset the gate cannot read (`local>org/repo`,
`github>org/repo`, an npm package, a URL) and a file that does not read as JSON5 count as automerging (fail closed).
Without those keys a Renovate file stays `other`. From a patch alone the lines shown decide; a file the patch does
not show whole and that shows none of them is `needs-context`. Each was `other` and `gate --tree` allowed it (exit 0
on 31032e7e).

Capistrano's (and Mina's) `Capfile`, `config/deploy.rb`, `config/deploy/<stage>.rb` and
`lib/capistrano/tasks/*.rake` define how code reaches the servers and which commands run there: `iac`.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from changecase import committed, gated_rules
from gitdiffs import file_patch
from tables import each_case

from gatekeeper.classify.context import classify_in_context
from gatekeeper.classify.patchcontext import PatchContext
from gatekeeper.classify.renovatemerge import merges
from gatekeeper.classify.sniff import FULL_READ
from gatekeeper.diff import parse_patch
from gatekeeper.model import ClassifiedFile
from tests.cpucost import assert_linear, repeated
from tests.gitrepo import GitRepo
from tests.test_classify_context import RULES, assert_path_rule, tree_files

RULE = "ci.content.renovate-automerge"
NAMES = ["renovate.json", "renovate.json5", ".github/renovate.json", ".github/renovate.json5",
         ".gitlab/renovate.json", ".gitlab/renovate.json5", ".renovaterc", ".renovaterc.json", ".renovaterc.json5"]

# Settings that merge without review: key spellings (JSON5's unquoted and single-quoted keys, an escaped letter),
# where the key sits (top, packageRules, an update type's block, vulnerabilityAlerts), presets that automerge, and
# presets the gate cannot read.
GATES = {
    "top": '{"automerge": true}',
    "rule-off-top-on": '{"packageRules": [{"matchPackageNames": ["react"], "automerge": false}], "automerge": true}',
    "off-under-preset": '{"extends": [":automergeAll"], "automerge": false}',
    "unquoted": "{automerge: true}",
    "single-quoted": "{'automerge': true}",
    "escaped": '{"\\u0061utomerge": true}',
    "escaped-identifier": "{\\u0061utomerge: true}",
    "hex-escape": "{'auto\\x6derge': true}",
    "continued": '{"auto\\\nmerge": true}',  # JSON5's line continuation inside a string
    "upper": '{"AUTOMERGE": true}',  # not Renovate's spelling: read as one (fail closed)
    "spaced": '{ "automerge" :true }',
    "type-branch": '{"automergeType": "branch"}',
    "platform": '{"platformAutomerge": true}',
    "strategy": '{"automergeStrategy": "squash"}',
    "ignore-tests": '{"ignoreTests": true}',
    "auto-approve": '{"autoApprove": true}',
    "gitlab-approvals": '{"gitLabIgnoreApprovals": true}',
    "package-rule": '{"packageRules": [{"matchUpdateTypes": ["minor", "patch"], "automerge": true}]}',
    "nested-rules": '{"extends": ["config:recommended"], "packageRules": [{"matchManagers": ["npm"]}, '
                    '{"matchDepTypes": ["devDependencies"], "automerge": true, "automergeType": "branch"}]}',
    "update-type": '{"minor": {"automerge": true}}',
    "vulnerability": '{"vulnerabilityAlerts": {"labels": ["security"], "automerge": true}}',
    "lock-maintenance": '{"lockFileMaintenance": {"enabled": true, "automerge": true}}',
    "preset-all": '{"extends": [":automergeAll"]}',
    "preset-minor": '{"extends": ["config:recommended", ":automergeMinor"]}',
    "preset-patch": '{"extends": [":automergePatch"]}',
    "preset-branch": '{"extends": [":automergeBranch"]}',
    "preset-default": '{"extends": ["default:automergeDigest"]}',
    "preset-linters": "{extends: [':automergeLinters', ':automergeTypes']}",
    "preset-local": '{"extends": ["local>acme/renovate-config"]}',
    "preset-github": '{"extends": ["config:recommended", "github>acme/renovate-config#v1"]}',
    "preset-gitlab": '{"extends": ["gitlab>acme/presets:automerge"]}',
    "preset-path": '{"extends": ["github>acme/repo//presets/base.json5"]}',
    "preset-npm": '{"extends": ["@acme/renovate-config"]}',
    "preset-npm-bare": '{"extends": ["acme"]}',
    "preset-url": '{"extends": ["http://127.0.0.1:9/preset.json"]}',
    "preset-string": '{"extends": "local>acme/renovate-config"}',
    "json5-comments": '// settings\n{\n  /* merge */ automerge: true, // yes\n}\n',
    "json5-trailing": '{\n  "packageRules": [\n    {"matchPackageNames": ["/.*/"], "automerge": true,},\n  ],\n}\n',
    "after-window": '{"packageRules": [' + ", ".join(f'{{"matchPackageNames": ["pkg-{n:04d}"], "enabled": true}}'
                                                     for n in range(300)) + ', {"automerge": true}]}',
    "after-comments": "// " + "x" * 80 + "\n" + ("// padding\n" * 900) + "{automerge: true}\n",
    "unparsable": '{"schedule": ["before 6am"], ',
    "unterminated-comment": '{"schedule": ["before 6am"]} /* ',
    "not-json": "schedule = before 6am\n",
    "deep": "[" * 300 + "]" * 300,
}
# Renovate files that do not merge: scheduling, labels, built-in presets that do not automerge, the word in a comment
# or a description.
PLAIN = {
    "schedule": '{"extends": ["config:recommended"], "schedule": ["before 6am on monday"]}',
    "comment": '// we never automerge: every update is reviewed\n{"schedule": ["every weekend"]}\n',
    "block-comment": '/* "automerge": true was removed */ {"timezone": "Europe/Berlin"}',
    "description": '{"packageRules": [{"description": "automerge is off", "matchPackageNames": ["react"], '
                   '"labels": ["automerge"]}]}',
    "built-in": '{"extends": ["config:best-practices", ":semanticCommits", "group:allNonMajor", "schedule:weekly", '
                '"helpers:pinGitHubActionDigests", ":dependencyDashboard", "docker:enableMajor"]}',
    "empty": "{}",
    # `false` or `null` turns nothing on (where a preset or another key does, that counts itself)
    "off": '{"automerge": false, "platformAutomerge": false, "packageRules": [{"automerge": null}]}',
    "trailing": "{\n  labels: ['deps',],\n}\n",
}


def _added(tmp_path: Path, path: str, text: str) -> ClassifiedFile:
    """`path` added holding `text`, classified from git's patch alone (a whole new side is read whole)."""
    return _patched(tmp_path, path, None, text)


def _patched(tmp_path: Path, path: str, old: str | None, new: str) -> ClassifiedFile:
    patch = tmp_path / "change.diff"
    if old is None:  # git's own patch of a new file (`--no-index` against /dev/null): its hunk is the whole file
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(new, encoding="utf-8")
        body = subprocess.run(["git", "diff", "--no-index", "--binary", "/dev/null", path], cwd=tmp_path,
                              capture_output=True, check=False).stdout
    else:
        body = file_patch(path, old.encode(), new.encode())
    patch.write_bytes(body)
    changes = list(parse_patch(patch))
    context = PatchContext(patch, changes, RULES.context)
    try:
        return next(f for f in classify_in_context(changes, RULES, context) if f.change.path == path)
    finally:
        context.close()


@each_case("variant", list(GATES))
def test_a_renovate_file_that_merges_unreviewed_is_ci(tmp_path: Path, variant: str) -> None:
    got = _added(tmp_path, "renovate.json5", GATES[variant])
    assert (got.bucket, got.rule) == ("ci", RULE), got


@each_case("variant", list(PLAIN))
def test_a_renovate_file_that_does_not_merge_stays_other(tmp_path: Path, variant: str) -> None:
    got = _added(tmp_path, "renovate.json5", PLAIN[variant])
    assert got.bucket == "other" and "needs-context" not in got.tags, got
    assert "guardrail" in got.tags, got  # attack 50's tag stays


@each_case("name", NAMES + [".github/renovate/automerge.json", ".github/renovate/presets/base.json5"])
def test_every_name_renovate_reads(tmp_path: Path, name: str) -> None:
    got = _added(tmp_path, name, GATES["package-rule"])
    by_path = RULES.match(name).bucket  # .gitlab/ is GitLab's own folder: ci by its path already
    assert got.bucket == "ci" and got.rule == (RULE if by_path == "other" else RULES.match(name).rule), got
    assert _added(tmp_path, name, PLAIN["schedule"]).bucket == by_path


# From a patch alone: the lines shown decide; a file not shown whole that shows none of them needs context.
FAR = '{\n  "automerge": true,\n' + "".join(f'  "label{n}": "x",\n' for n in range(30)) + '  "schedule": ["daily"]\n}\n'
EDITS = {
    "adds-key": ('{\n  "schedule": ["daily"]\n}\n', '{\n  "schedule": ["daily"],\n  "automerge": true\n}\n'),
    "removes-key": ('{\n  "schedule": ["daily"],\n  "automerge": true\n}\n', '{\n  "schedule": ["daily"]\n}\n'),
    "adds-preset": ('{\n  "extends": [\n    "config:recommended"\n  ]\n}\n',
                    '{\n  "extends": [\n    "config:recommended",\n    ":automergeMinor"\n  ]\n}\n'),
    "adds-remote-preset": ('{\n  "extends": [\n    "config:recommended"\n  ]\n}\n',
                           '{\n  "extends": [\n    "config:recommended",\n    "github>acme/cfg"\n  ]\n}\n'),
}


@each_case("edit", list(EDITS))
def test_a_hunk_showing_the_keys_decides(tmp_path: Path, edit: str) -> None:
    old, new = EDITS[edit]
    got = _patched(tmp_path, "renovate.json", old, new)
    assert (got.bucket, got.rule) == ("ci", RULE), got


def test_a_hunk_out_of_sight_of_the_keys_needs_context(tmp_path: Path) -> None:
    got = _patched(tmp_path, "renovate.json", FAR, FAR.replace('"daily"', '"weekly"'))
    assert got.bucket == "other" and "needs-context" in got.tags, got


def test_a_file_added_whole_without_the_keys_is_settled(tmp_path: Path) -> None:
    got = _added(tmp_path, ".github/renovate.json", PLAIN["schedule"])
    assert got.bucket == "other" and "needs-context" not in got.tags, got


def test_test_data_keeps_principle_one(tmp_path: Path) -> None:
    got = _added(tmp_path, "test/fixtures/renovate.json", GATES["top"])
    assert got.bucket != "ci", got


# Real git, through the CLI: BASE's file schedules, HEAD's merges unreviewed (or the reverse); the default policy.
SCHEDULE = json.dumps({"extends": ["config:recommended"], "schedule": ["before 6am"]}, indent=2) + "\n"
AUTOMERGE = json.dumps({"extends": ["config:recommended"], "schedule": ["before 6am"], "packageRules": [
    {"matchPackageNames": ["*"], "automerge": True, "automergeType": "branch", "ignoreTests": True}]}, indent=2) + "\n"


@pytest.mark.parametrize("name", NAMES)
def test_the_gate_reviews_an_automerge_edit(tmp_path: Path, name: str) -> None:
    case = committed(tmp_path, {name: SCHEDULE}, {name: AUTOMERGE})
    assert gated_rules(case, True)[0] == 3  # before: other, exit 0
    assert gated_rules(case, False)[0] == 3


@pytest.mark.parametrize("direction", ["on", "off"])
def test_both_sides_count_with_the_commits(tmp_path: Path, direction: str) -> None:
    base, head = (SCHEDULE, AUTOMERGE) if direction == "on" else (AUTOMERGE, SCHEDULE)
    repo = GitRepo(tmp_path / "repo")
    repo.write("README.md", "app\n")
    repo.write("renovate.json", base)
    repo.commit("base")
    repo.write("renovate.json", head)
    repo.commit("head")
    got = tree_files(repo)["renovate.json"]
    assert (got.bucket, got.rule) == ("ci", RULE), got


def test_a_schedule_edit_stays_allowed(tmp_path: Path) -> None:
    case = committed(tmp_path, {"renovate.json": SCHEDULE}, {"renovate.json": SCHEDULE.replace("6am", "7am")})
    assert gated_rules(case, True)[0] == 0


# Capistrano (and Mina, whose settings file has the same name): how code reaches the servers, what runs there.
# The settings and stages are read from the application's root (as Kamal's config/deploy.yml, iac.platforms, is); a
# Capfile by its name at any depth (an application in a monorepo's folder), as a Procfile is.
CAPISTRANO = ["Capfile", "config/deploy.rb", "config/deploy/production.rb", "config/deploy/staging.rb",
              "lib/capistrano/tasks/assets.rake", "apps/web/Capfile", "CAPFILE", "Config/Deploy.rb"]
NOT_CAPISTRANO = [("spec/fixtures/config/deploy.rb", "src"), ("test/fixtures/app/config/deploy/production.rb", "src"),
                  ("config/deployment.rb", "src"), ("lib/tasks/deploy.rake", None), ("config/deploy/README.md", "src"),
                  ("config/deploy/production/web.yml.erb", "iac"), ("app/models/deploy.rb", "src")]


@each_case("path", CAPISTRANO)
def test_capistrano_files_are_iac(path: str) -> None:
    assert_path_rule(path, "iac", "iac.platforms")


@each_case("path, bucket", NOT_CAPISTRANO)
def test_capistrano_look_alikes_stay(path: str, bucket: str | None) -> None:
    match = RULES.match(path)
    assert match.rule != "iac.platforms", match
    assert bucket is None or match.bucket == bucket, match


# Fail closed where the file cannot be read as Renovate reads it; a patch's lines that do not scan as tokens (a hunk
# opening inside a block comment or a string) are searched for the words.
UNREAD = {
    "too-long": b'{"schedule": ["daily"]}' + b" " * FULL_READ,
    "nul": b'{"schedule": ["daily"]}\0',
    "utf-16": '{"automerge": true}'.encode("utf-16"),
    "stray-quote": b'{"schedule": ["daily"]} "',
    "not-an-object": b'"automerge"',
    "a-word": b"abc-" * 100,
}


@each_case("variant", list(UNREAD))
def test_an_unreadable_whole_file_counts_as_merging(variant: str) -> None:
    assert merges(UNREAD[variant], True) is not None


@each_case("lines, merging", [
    (b'   automerge is on */\n  "automerge": true,\n', True),  # a hunk opening inside a comment: words
    (b'   a comment */\n  "schedule": ["daily"],\n', False),
    (b'  "github>acme/renovate-config",\n', True),  # an extends entry without its key
    (b'  ":automergeMinor",\n', True),
    (b'  "config:recommended",\n  "labels": ["automerge"],\n', False),
    (b'  // "automerge": true\n  "schedule": ["daily"]\n', False),  # a comment is not a key
    (b'  "automerge": false,\n', False),
    (b'  "automerge": true,\n', True),
])
def test_a_patch_s_lines(lines: bytes, merging: bool) -> None:
    assert (merges(lines, False) is not None) == merging


def test_a_deleted_automerge_file_is_ci_from_the_patch(tmp_path: Path) -> None:
    case = committed(tmp_path, {"renovate.json": AUTOMERGE, "src/app.py": "x = 1\n"}, {"src/app.py": "x = 2\n"})
    case.repo.git("rm", "-q", "renovate.json")
    case.repo.commit("delete")
    repo = case.repo
    got = tree_files(repo)["renovate.json"]
    assert (got.bucket, got.rule) == ("ci", RULE), got


@each_case("head, unit, tail", [
    ("{", '"a": 1, ', '"b": 2}'),  # many keys, none a gate's
    ('{"extends": [', '"config:recommended", ', '":semanticCommits"]}'),  # many built-in presets
    ("", "[", ""),  # nesting past MAX_DEPTH: stops at the bound
    ('{"a": "', "\\u0041\\n", '"}'),  # escapes
    ('"', "a\\", ""),  # an unterminated string
    ("/*", "* ", ""),  # an unterminated comment
    ("", "abc-", ""),  # a run of letters without `>` for the words' search
])
def test_reading_is_linear(head: str, unit: str, tail: str) -> None:
    for complete in (True, False):
        assert_linear(lambda text, whole=complete: merges(text.encode(), whole), repeated(unit, head, tail), budget=0.5)


# Renovate reads its settings from its clone of the repository, through a symlink too: a link at a settings name is not
# read through (fail closed: ci), and a file a link of either tree reaches at such a name is read as one.
def test_a_symlink_at_a_settings_name_is_ci(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.write("README.md", "app\n")
    repo.write("docs/example.json", AUTOMERGE)
    repo.commit("base")
    repo.symlink("renovate.json", "docs/example.json")
    repo.commit("head")
    got = tree_files(repo)["renovate.json"]
    assert got.bucket == "ci", got


def test_a_file_a_symlink_reaches_at_a_settings_name_is_read_as_one(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.write("README.md", "app\n")
    repo.write("config/bot.json", SCHEDULE)
    repo.symlink(".github/renovate.json", "../config/bot.json")
    repo.commit("base")
    repo.write("config/bot.json", AUTOMERGE)
    repo.commit("head")
    got = tree_files(repo)["config/bot.json"]
    assert (got.bucket, got.rule) == ("ci", RULE), got
