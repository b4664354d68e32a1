"""Attack 22: red team 24's near-value check (near_values.py) refused correct custom policies that name a package.

A deps policy compares a change's `name` with package names, and the check reads every literal of a module: a name
one edit from an ecosystem or a status was refused at load (exit 2) as a typo. Of the 15,000 most downloaded PyPI
and npm packages each (/work/.library/env/packages/), 24 names were refused on ca36d0b, among them `hatch` and
`match` (-> `patch`), `raven` (-> `maven`), `mocker` (-> `docker`), `batch` and `watch`, `rc` (-> `src`), `ip`
(-> `pip`). Each differs from the value in its FIRST letter: a real word, not a slip of the keyboard, which keeps
the first letter (or swaps the first two). Now the first letter must be kept (or the first two swapped): 13 of the 24
are refused still (`babel` -> `bazel`, `nx` -> `nix`, `openapi` -> `openai`, ...: the escape mark remains for
them), and every typo red team 24's census refuses is refused still (its tests, and the cases below). And the
`# gatekeeper: intended "x"` mark counts in a comment only, not inside a raw string's text (it exempted the typo).
"""

from __future__ import annotations

from tables import each_case
from test_redteam22_value_typos import _issues

from gatekeeper.policy.field_check import _input_schema
from gatekeeper.policy.near_values import near, vocabulary
from gatekeeper.policy.value_check import enums

POLICY = 'some c in input.dependencies.changes\n\tc.name in {{"{name}"}}'


@each_case("name", ["hatch", "match", "raven", "haven", "mocker", "batch", "watch", "rc", "ip",
                                  "suntime", "vbuild", "cradle", "mother"])
def test_a_package_name_one_first_letter_from_a_value_is_no_typo(name: str) -> None:
    assert _issues(POLICY.format(name=name)) == [], name  # refused on ca36d0b


@each_case(("word", "value"), [
    ("patc", "patch"), ("ptach", "patch"), ("mavne", "maven"), ("dcoker", "docker"), ("odcker", "docker"),
    ("sr", "src"), ("ia", "iac"), ("ic", "ci"), ("nmp", "npm"), ("delted", "deleted"), ("upgrade", "upgraded"),
    ("modifeid", "modified"), ("Docker", None), ("ocker", None),
])
def test_slips_of_the_keyboard_are_still_typos(word: str, value: str | None) -> None:
    values = vocabulary(tuple(sorted(enums(_input_schema()).items())))
    assert near(word, values) == value, word


def test_a_misspelt_ecosystem_in_a_custom_policy_is_still_refused() -> None:
    issues = _issues('some c in input.dependencies.changes\n\tc.ecosystem == "mavne"')
    assert len(issues) == 1 and '"maven" misspelt?' in issues[0], issues


@each_case(("mark", "refused"), [
    ('msg := `# gatekeeper: intended "cii"`', 1),  # a raw string's text is no comment: exempted on ca36d0b
    ('x := "a"  # gatekeeper: intended "cii"', 0),  # a comment after code on the line
    ('# gatekeeper: intended "cii"', 0),
])
def test_the_intended_mark_counts_in_a_comment_only(mark: str, refused: int) -> None:
    assert len(_issues(f'{mark}\n\tsome f in input.files\n\tlower(f.bucket) == "cii"')) == refused
