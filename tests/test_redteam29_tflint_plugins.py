"""Red team 29: the plugins tflint's settings (`.tflint.hcl`) have `tflint --init` download and `tflint` run.

A `plugin "aws" { enabled = true  version = "0.42.0"  source = "github.com/terraform-linters/tflint-ruleset-aws" }`
block installs that repository's release binary (checked against the block's `signing_key` when one is given), and
every `tflint` then runs it; `config { plugin_dir = "..." }` loads plugins from a folder, one of the checkout too.
Renovate's `tflint-plugin` manager bumps these blocks. The file is `other` (a linter's settings, a label round's
decision kept here) and no delta read it, so a source swapped for a fork, a new plugin, a signing key dropped or a
plugin folder in the checkout was allowed by `gate --enable deps` (exit 0) with `--tree` and from the patch, with
or without a CI step running tflint. Now the delta reads the blocks (`gatekeeper/deps/tflint.py`): each plugin with a
source is a dependency (ecosystem `tool`, named by its source, its signing key part of the entry), `plugin_dir` an
entry of its own; a form the reader does not follow is a problem. A Renovate bump and a rule's edit still queue with
`--tree`; from a patch a modified `.tflint.hcl` is a `partial` problem (reviewed: pass `--tree`).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from changecase import committed, gated, in_folders
from tables import each_case
from test_deps_gate import unreviewed

from gatekeeper.deps.model import ManifestError
from gatekeeper.deps.tflint import parse_tflint

SHA = "b4ffde65f46336ab88eb53be808477a3936bae11"
AWS = "github.com/terraform-linters/tflint-ruleset-aws"
KEY = ("  signing_key = <<-KEY\n  -----BEGIN PGP PUBLIC KEY BLOCK-----\n  mQINBGCqS2YBEACdeadbeef\n"
       "  -----END PGP PUBLIC KEY BLOCK-----\n  KEY\n")


def config(*blocks: str) -> str:
    return 'config {\n  call_module_type = "local"\n}\n\n' + "\n".join(blocks)


def plugin(label: str = '"aws"', version: str = "0.41.0", source: str = AWS, extra: str = "") -> str:
    return f'plugin {label} {{\n  enabled = true\n  version = "{version}"\n  source  = "{source}"\n{extra}}}\n'


RULE = 'rule "terraform_naming_convention" {\n  enabled = true\n}\n'
BASE = config(plugin(), RULE)
ATTACKS: dict[str, tuple[str, str]] = {
    "source swapped to a fork": (BASE, config(plugin(source="github.com/evil/tflint-ruleset-aws"), RULE)),
    "fork beside a bump": (BASE, config(plugin(version="0.42.0", source="github.com/evil/tflint-ruleset-aws"), RULE)),
    "new plugin": (BASE, config(plugin(), plugin('"evil"', "1.0.0", "github.com/evil/tflint-ruleset-evil"), RULE)),
    "new plugin beside a bump": (BASE, config(plugin(version="0.42.0"),
                                              plugin('"evil"', "1.0.0", "github.com/evil/tflint-ruleset-evil"), RULE)),
    "new plugin, unquoted label": (BASE, config(plugin(), plugin("evil", "1.0.0", "github.com/evil/x"), RULE)),
    "signing key dropped": (config(plugin(extra=KEY), RULE), config(plugin(), RULE)),
    "signing key swapped beside a bump": (config(plugin(extra=KEY), RULE),
                                          config(plugin(version="0.42.0", extra=KEY.replace("deadbeef", "0ddba11")),
                                                 RULE)),
    "plugin folder in the checkout": (BASE, BASE.replace('"local"\n', '"local"\n  plugin_dir = "./.tools/plugins"\n')),
    "first plugin in a new settings file": ("", config(plugin())),
    "plugin hidden from a line reader by a comment": (BASE, config(plugin(), "/* x */ plugin \"evil\" {\n"
                                                                  '  enabled = true\n  version = "1.0.0"\n'
                                                                  '  source = "github.com/evil/x"\n}\n', RULE)),
}
WORKFLOW = ("on: push\njobs:\n  lint:\n    runs-on: ubuntu-latest\n    steps:\n"
            f"      - uses: actions/checkout@{SHA}\n      - run: tflint --init && tflint --recursive\n")

Variant = tuple[str, dict[str, str], dict[str, str]]


def variants() -> list[Variant]:
    found: list[Variant] = []
    for name, (old, new) in ATTACKS.items():
        for folder in ("", "modules/vpc/"):
            for ci in (False, True):
                base = {folder + ".tflint.hcl": old} if old else {}
                if ci:
                    base[".github/workflows/lint.yml"] = WORKFLOW
                found.append((f"{folder}{name}{' +ci' if ci else ''}", base, {folder + ".tflint.hcl": new}))
    return found


def test_the_variants_are_what_they_say() -> None:
    assert len(variants()) == 4 * len(ATTACKS) == 40


@pytest.mark.parametrize("ci", [False, True], ids=["alone", "with-ci"])
def test_a_tflint_plugin_moved_needs_a_human(tmp_path: Path, ci: bool) -> None:
    # Every variant of one kind in a folder of its own of one repository (one packet, two gates): each variant's
    # settings file must be named by a review finding, with the tree and from the patch.
    base, head, paths = in_folders((v for v in variants() if v[0].endswith(" +ci") == ci), base_without=".github/")
    base = ({".github/workflows/lint.yml": WORKFLOW} if ci else {}) | base
    case = committed(tmp_path, base, head)
    for tree in (False, True):
        code, decision = gated(case, tree)
        assert (code, decision["outcome"]) == (3, "review"), (tree, decision["reasons"])
        assert not unreviewed(decision, paths), (tree, unreviewed(decision, paths))
        rules = {reason["rule"] for reason in decision["reasons"]}
        assert rules <= {"deps.new_direct", "deps.unordered", "deps.unreadable", "deps.too_many_new"}, (tree, rules)


QUIET: dict[str, tuple[str, str]] = {
    "Renovate's bump": (BASE, config(plugin(version="0.42.0"), RULE)),
    "a rule's edit": (BASE, config(plugin(), RULE.replace("enabled = true", "enabled = false"))),
    "the bundled ruleset enabled": (BASE, config(plugin(), 'plugin "terraform" {\n  enabled = true\n'
                                                           '  preset  = "recommended"\n}\n', RULE)),
}


@pytest.mark.parametrize("name", QUIET)
def test_a_bump_or_a_rule_edit_queues_with_the_tree(tmp_path: Path, name: str) -> None:
    old, new = QUIET[name]
    code, decision = gated(committed(tmp_path, {".tflint.hcl": old}, {".tflint.hcl": new}), True)
    assert (code, decision["outcome"]) == (0, "allow"), decision["reasons"]


# Forms the reader does not follow fail closed (a problem, reviewed), never a file with fewer plugins.
REFUSED = {
    "template in a source": 'plugin "aws" {\n  version = "1.0.0"\n  source = "github.com/${var.org}/x"\n}\n',
    "unterminated string": 'plugin "aws" {\n  source = "github.com/x\n}\n',
    "unterminated comment": '/* plugin "aws" {\n  source = "github.com/x"\n}\n',
    "unterminated heredoc": 'plugin "aws" {\n  signing_key = <<KEY\n  abc\n}\n',
    "unterminated block": 'plugin "aws" {\n  source = "github.com/x"\n',
    "a source that is an expression": 'plugin "aws" {\n  version = "1.0.0"\n  source = lower("GITHUB.COM/X/Y")\n}\n',
    "a source given twice": 'plugin "aws" {\n  source = "github.com/a/b"\n  source = "github.com/x/y"\n}\n',
    "a label twice": 'plugin "aws" {\n  enabled = true\n}\nplugin "aws" {\n  source = "github.com/x/y"\n}\n',
    "a header of another shape": 'plugin "aws" "b" {\n  source = "github.com/x/y"\n}\n',
    "a stray closing brace": '}\nplugin "aws" {\n  source = "github.com/x/y"\n}\n',
}


@each_case("name", REFUSED)
def test_forms_the_reader_does_not_follow_fail_closed(name: str) -> None:
    with pytest.raises(ManifestError):
        parse_tflint(".tflint.hcl", REFUSED[name].encode())


def test_the_reader_reads_comments_heredocs_and_one_line_blocks() -> None:
    data = ('# plugin "commented" {}\n// plugin "also" {}\nconfig {\n  plugin_dir = "~/.tflint.d/plugins"\n}\n'
            'plugin "one" { source = "github.com/a/one" }\n' + plugin(extra=KEY) + RULE)
    found = {(d.name, d.version, d.alias, bool(d.options)) for d in parse_tflint(".tflint.hcl", data.encode())}
    assert found == {("plugin_dir", "~/.tflint.d/plugins", "", False), ("github.com/a/one", "", "one", False),
                     (AWS, "0.41.0", "aws", True)}
