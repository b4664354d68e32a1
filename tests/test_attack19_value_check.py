"""Red team 19 (attack19) on red team 22's value check (value_check.py): looking for false refusals.

A string literal compared with `x.kind`, `x.status`, `x.level`, `x.scope` was checked against the input schema's
enumerations whatever `x` was, so a custom bundle comparing its OWN values was refused at load: a literal object
(`item := {"kind": "migration", ...}`, `some rule in [{"kind": ...}]`) or a params document (`some e in
data.gatekeeper.params.acme.exceptions; e.status == "approved"`, `data.gatekeeper.params.acme.level == "strict"`).
Those names are never the input's; the misspelt input values of red team 22 stay refused
(tests/test_redteam22_value_typos.py), and so does a misspelling beside them in the same module."""

from __future__ import annotations

from conftest import POLICY_DIR
from tables import each_case

from gatekeeper.policy.bundle import load_bundle
from gatekeeper.policy.field_check import field_issues

HEAD = ("# METADATA\n# title: acme migrations\n# custom:\n#   rules:\n#     - acme.migration\n"
        "package gatekeeper.policies.acme\n\nimport rego.v1\n\nimport data.gatekeeper.lib\n\n"
        "# params.acme: this policy's settings; params.acme.level: how strict (strict | lenient);\n"
        "# params.acme.scope: all | prod;\n"
        "# params.acme.exceptions: [{path, status: approved | pending}]\n\n")
LEGIT = {
    "a literal object's kind": 'item := {"kind": "migration", "prefix": "db/migrations/"}\n\t'
                               'item.kind == "migration"\n\tsome f in input.files\n\tstartswith(f.path, item.prefix)',
    "a literal array's entries": 'some rule in [{"kind": "migration", "prefix": "db/"}, {"kind": "seed", '
                                 '"prefix": "db/seeds/"}]\n\trule.kind == "migration"\n\tsome f in input.files\n\t'
                                 'startswith(f.path, rule.prefix)',
    "a params field": 'data.gatekeeper.params.acme.level == "strict"\n\tsome f in input.files\n\tf.bucket == "src"',
    "a params field on the right": '"strict" == data.gatekeeper.params.acme.level\n\tsome f in input.files\n\t'
                                   'f.bucket == "src"',
    "a param read by object.get": 'object.get(data.gatekeeper.params.acme, "scope", "all") == "all"\n\t'
                                  'some f in input.files\n\tf.status != "deleted"',
    "a params list's entries": 'some e in data.gatekeeper.params.acme.exceptions\n\te.status == "approved"\n\t'
                               'some f in input.files\n\tf.path == e.path',
    "a param held in a name": 'level := data.gatekeeper.params.acme.level\n\tlevel == "strict"\n\t'
                              'some f in input.files\n\tf.bucket == "ci"',
}


def _issues(body: str) -> list[str]:
    bundle = load_bundle(POLICY_DIR, git_state=False)
    module = HEAD + "review contains finding if {\n\t" + body + '\n\tfinding := lib.finding("acme.migration", "m")\n}\n'
    modules = {**bundle.modules, "policies/acme/policy.rego": module}
    return [f"{i.line}: {i.message}" for i in field_issues(modules, bundle.data())
            if i.file == "policies/acme/policy.rego"]


@each_case("form", sorted(LEGIT))
def test_a_policy_s_own_values_are_not_refused(form: str) -> None:
    assert _issues(LEGIT[form]) == [], form


@each_case("form", sorted(LEGIT))
def test_an_input_misspelling_beside_them_is_still_refused(form: str) -> None:
    found = _issues(LEGIT[form] + '\n\tsome g in input.files\n\tg.status == "modifed"')
    assert len(found) == 1 and '`status` is never "modifed"' in found[0], found


@each_case("body", [
    'changed := [f | some f in input.files]\n\tsome g in changed\n\tg.status == "modifed"',
    'first := [f |\n\t\tsome f in input.files\n\t][0]\n\tfirst.status == "modifed"',
    'pair := {"file": input.files[0]}\n\tpair.file.status == "modifed"',
])
def test_a_name_bound_to_the_input_through_a_collection_is_still_checked(body: str) -> None:
    found = _issues(body)
    assert any('`status` is never "modifed"' in issue for issue in found), found
