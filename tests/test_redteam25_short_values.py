"""Red team 25: a one-letter typo of a SHORT value, or a typo that spells a field's name, must fail closed too.

Red team 24's near-value check (near_values.py) judged a value of up to four letters (`ci`, `iac`, `deps`, `dev`,
`none`, `npm`, ...) by a dropped, doubled or swapped letter only: one CHANGED letter (`"cl"`, `"deqs"`, `"ncm"`) and
a look-alike first letter (`"lac"`, `"1ac"`) passed, and so did a typo that happens to be a field's name (`"path"`
for `patch`, `"change"` for `changed`, `"reported"` for `recorded`: every field name was exempt, wherever it stood).
In a form the per-form checks of value_check.py do not read (`lower(f.bucket) == "cl"`, `b := "cl"; f.bucket ==
b`), the rule never fired and the gate allowed (exit 0 on 2fdd260, the end-to-end rows below). Now a short value's
changed letter and a look-alike first letter are typos, and a field's name is exempt only where it stands as a key
(an object key, `x["path"]`, `object.get(x, "path", d)`'s key, `"path" in object.keys(x)`, ...); a literal compared
straight with a free-text field (`c.name == "node"`, `f.path in {...}`) is no typo of a value.
"""

from __future__ import annotations

import string
from pathlib import Path

import pytest
from bundlecopy import bundle_copy, edit
from conftest import POLICY_DIR
from gitrepo import GitRepo
from test_redteam22_value_typos import _issues

from gatekeeper.cli import main
from gatekeeper.policy.field_check import _input_schema
from gatekeeper.policy.near_values import near, vocabulary
from gatekeeper.policy.value_check import enums

ERROR, ALLOW = 2, 0
VALUES = vocabulary(tuple(sorted(enums(_input_schema()).items())))
SHORT = sorted(v for v in VALUES if len(v) <= 4 and v != "vendir")


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))


def _changed(value: str) -> list[str]:
    """Every word one changed letter (after the first) from `value`, that is no value itself."""
    return [value[:i] + c + value[i + 1:] for i in range(1, len(value)) for c in string.ascii_lowercase + string.digits
            if c != value[i] and value[:i] + c + value[i + 1:] not in VALUES]


def test_every_changed_letter_of_every_short_value_is_a_typo() -> None:
    words = [(w, v) for v in SHORT for w in _changed(v)]
    missed = [(w, v) for w, v in words if near(w, VALUES) is None]
    assert len(words) > 500 and missed == [], missed[:20]  # 2fdd260: every one of them passed


@pytest.mark.parametrize(("word", "value"), [
    ("lac", "iac"), ("1ac", "iac"), ("jac", "iac"), ("0ther", "other"), ("5rc", "src"), ("lockfi1e", "lockfile"),
    ("cl", "ci"), ("c1", "ci"), ("deqs", "deps"), ("ncm", "npm"), ("nane", "none"), ("dav", "dev"), ("trea", "tree"),
])
def test_look_alike_and_changed_letters(word: str, value: str) -> None:
    assert near(word, VALUES) == value


@pytest.mark.parametrize("word", ["mac", "rpm", "zip", "hub", "sub", "uvm", "hatch", "raven", "mocker"])
def test_another_first_letter_is_still_another_word(word: str) -> None:
    assert near(word, VALUES) is None


# (misspelt, correct) in forms the per-form checks do not read: each accepted on 2fdd260.
FORMS = {
    "lower cl": ('some f in input.files\n\tlower(f.bucket) == "cl"',
                 'some f in input.files\n\tlower(f.bucket) == "ci"'),
    "object lookup path": ('some c in input.dependencies.changes\n\t{"path": true}[c.level]',
                           'some c in input.dependencies.changes\n\t{"patch": true}[c.level]'),
    "named lac": ('b := "lac"\n\tsome f in input.files\n\tf.bucket == b', 'b := "iac"\n\tsome f in input.files\n\t'
                  'f.bucket == b'),
    "set deqs": ('some f in input.files\n\t{"deqs"}[f.bucket]', 'some f in input.files\n\t{"deps"}[f.bucket]'),
    "sprintf path": ('some c in input.dependencies.changes\n\tsprintf("%s", [c.level]) == "path"',
                     'some c in input.dependencies.changes\n\tsprintf("%s", [c.level]) == "patch"'),
    "lower change": ('some c in input.dependencies.changes\n\tlower(c.change) == "change"',
                     'some c in input.dependencies.changes\n\tlower(c.change) == "changed"'),
    "every reported": ('r := object.get(input.packet.sandbox, "egress", {})\n\tevery v in ["reported"] {\n\t\t'
                       'object.get(r, "recording", "") != v\n\t}',
                       'r := object.get(input.packet.sandbox, "egress", {})\n\tevery v in ["recorded"] {\n\t\t'
                       'object.get(r, "recording", "") != v\n\t}'),
    "network nane": ('n := object.get(input.packet.sandbox, "backend", "")\n\tupper(n) == upper("nane")',
                     'n := object.get(input.packet.sandbox, "backend", "")\n\tupper(n) == upper("none")'),
}


@pytest.mark.parametrize("form", sorted(FORMS))
def test_a_short_or_field_name_typo_is_refused_in_any_form(form: str) -> None:
    wrong, right = FORMS[form]
    assert any("misspelt?" in f for f in _issues(wrong)), form
    assert _issues(right) == [], form


@pytest.mark.parametrize("body", [
    'some f in input.files\n\tobject.get(f, "path", "") == "a.go"',  # a field name as object.get's key
    'some c in input.dependencies.changes\n\tobject.get(c, ["change"], "") == "added"',  # in a key path
    'm := {"path": 1, "change": 2}\n\tm.path == 1',  # object keys
    'some f in input.files\n\tf["path"] == "a.go"',  # an index
    'some c in input.dependencies.changes\n\t"change" in object.keys(c)',
    'x := object.remove(input.packet.model, ["reported"])\n\tcount(x) > 0',
    'some c in input.dependencies.changes\n\tc.name in {"node", "rpm", "pin", "cd"}',  # free text: package names
    'some c in input.dependencies.changes\n\t"nose" == c.name',
    'some f in input.files\n\tf.path == "node"',
    'names := {"node", "main"}  # gatekeeper: intended "node"\n\tsome f in input.files\n\tf.path in names',
])
def test_keys_free_text_and_marked_literals_pass(body: str) -> None:
    assert _issues(body) == [], body


@pytest.mark.parametrize("condition", ['lower(f.bucket) == "deqs"', 'f.bucket == b; b := "dep5"'])
def test_a_short_value_typo_stops_the_gate_that_allowed_a_deps_change(
        tmp_path: Path, git_repo: GitRepo, capsys: pytest.CaptureFixture[str], condition: str) -> None:
    """A security team's rule "a deps file needs a human" with `"deqs"`: 2fdd260 allowed the new dependency (exit 0)."""
    root = bundle_copy(tmp_path)
    edit(root / "core" / "policy.rego", "#     - core.needs_context\n",
         "#     - core.needs_context\n#     - core.deps\n")
    policy = root / "core" / "policy.rego"
    body = "\n\t".join(part.strip() for part in reversed(condition.split(";"))) if "b :=" in condition else condition
    policy.write_text(policy.read_text() + '\nreview contains finding if {\n\tsome f in input.files\n'
                      f'\t{body}\n\tfinding := lib.finding("core.deps", "a dependency file changed")\n}}\n')
    git_repo.write("README.md", "base\n")
    git_repo.write("requirements.txt", "requests==2.31.0\n")
    git_repo.commit()
    git_repo.write("requirements.txt", "requests==2.31.0\nevil-pkg==1.0.0\n")
    git_repo.git("add", "-A")
    patch, packet = tmp_path / "c.diff", tmp_path / "p.json"
    git_repo.save_patch(patch)
    assert main(["packet", str(patch), "--out", str(packet), "--policy", str(POLICY_DIR)]) == ALLOW
    capsys.readouterr()
    assert main(["gate", str(packet), "--patch", str(patch), "--policy", str(root)]) == ERROR  # 2fdd260: 0 (allow)
    assert "misspelt?" in capsys.readouterr().err


# A value with its first letter upper-cased (`"Deps"`, `"Iac"`, `"Deleted"`): a mixed-case word was no typo (a file's
# name, `Dockerfile`), so `{"Deps"}[f.bucket]` passed on 2fdd260. An ecosystem's capitalised name stays a name
# (`Docker`, `Go`: attack 22), and so does a file's conventional name (`Dockerfile`: the `kind` value `dockerfile`).
CAPITALISED = [v.capitalize() for v, names in VALUES.items()
               if names != "`ecosystem`" and v.capitalize() != v and not v.endswith("file")]


def test_every_capitalised_value_of_a_field_or_tag_is_a_typo() -> None:
    missed = [w for w in CAPITALISED if near(w, VALUES) != w.lower()]
    assert len(CAPITALISED) >= 50 and missed == [], missed


@pytest.mark.parametrize("word", ["Docker", "Go", "Maven", "Dockerfile", "README", "GitHub"])
def test_names_in_mixed_case_stay_names(word: str) -> None:
    assert near(word, VALUES) is None


def test_a_capitalised_value_in_a_set_lookup_is_refused() -> None:
    assert any('"deps" misspelt?' in f for f in _issues('some f in input.files\n\t{"Deps"}[f.bucket]'))
