"""Red team 23: a misspelt value that reaches an enumerated field other than by `==`/`!=`/`in` was accepted.

Red team 22's value check refuses `f.status == "delted"` at load. The same literal reaching the field through a string
builtin (`startswith(f.bucket, "cii")`, `endswith(f.status, "delted")`, `contains`, `indexof`), a pattern
(`regex.match("^cii$", f.bucket)`, `glob.match("cii", [], f.bucket)`), unification (`f.bucket = "cii"`), a raw string
(f.bucket == `cii`), a name bound to a literal set (`buckets := {"cii", "iac"}; f.bucket in buckets`, `some b in
{"cii"}; f.bucket == b`) or a name bound to each tag (`some t in f.tags; t == "needs-contxt"`) was accepted: the rule
silently never fired and the gate allowed. Now each is refused at load (exit 2, file:line), when no value the field
can hold fits the literal; the correct spellings and patterns some value fits pass. Of 28 generated forms, 9 were
refused on 99dfc95 and 21 are now; left: `lower(f.bucket) == "Ci"`, set/object lookups (`{"cii"}[f.bucket]`), a
user function's parameter compared inside it, `sprintf`, and free-text fields (`c.ecosystem`).
The end-to-end gate (a `startswith` typo let a deletion through on 99dfc95) is a case of red team 22's end-to-end test.
"""

from __future__ import annotations

from tables import each_case
from test_redteam22_value_typos import _issues, _misspelt_line

# form: (misspelt, correct)
FORMS = {
    "startswith": ('some f in input.files\n\tstartswith(f.bucket, "cii")', 'some f in input.files\n\t'
                                                                           'startswith(f.bucket, "c")'),
    "endswith": ('some f in input.files\n\tendswith(f.status, "delted")',
                 'some f in input.files\n\tendswith(f.status, "ted")'),
    "contains": ('some f in input.files\n\tcontains(f.bucket, "iacc")',
                 'some f in input.files\n\tcontains(f.bucket, "ac")'),
    "indexof": ('some f in input.files\n\tindexof(f.status, "renmaed") >= 0',
                'some f in input.files\n\tindexof(f.status, "renamed") >= 0'),
    "level": ('some c in input.dependencies.changes\n\tstartswith(c.level, "majr")',
              'some c in input.dependencies.changes\n\tstartswith(c.level, "maj")'),
    "regex": ('some f in input.files\n\tregex.match("^(cii|iacc)$", f.bucket)',
              'some f in input.files\n\tregex.match("^(ci|iac)$", f.bucket)'),
    "regex raw": ('some f in input.files\n\tregex.match(`^delt`, f.status)',
                  'some f in input.files\n\tregex.match(`^del`, f.status)'),
    "glob": ('some f in input.files\n\tglob.match("{cii,iacc}", [], f.bucket)',
             'some f in input.files\n\tglob.match("{ci,iac}", [], f.bucket)'),
    "unify": ('some f in input.files\n\tf.bucket = "cii"', 'some f in input.files\n\tf.bucket = "ci"'),
    "raw string": ('some f in input.files\n\tf.status == `delted`', 'some f in input.files\n\tf.status == `deleted`'),
    "named set": ('buckets := {"cii", "iac"}\n\tsome f in input.files\n\tf.bucket in buckets',
                  'buckets := {"ci", "iac"}\n\tsome f in input.files\n\tf.bucket in buckets'),
    "some in literal": ('some b in ["cii", "iac"]\n\tsome f in input.files\n\tf.bucket == b',
                        'some b in ["ci", "iac"]\n\tsome f in input.files\n\tf.bucket == b'),
    "named set left": ('wanted := {"upgarded"}\n\tsome c in input.dependencies.changes\n\tc.change in wanted',
                       'wanted := {"upgraded"}\n\tsome c in input.dependencies.changes\n\tc.change in wanted'),
    "tag name": ('some f in input.files\n\tsome t in f.tags\n\tt == "needs-contxt"',
                 'some f in input.files\n\tsome t in f.tags\n\tt == "needs-context"'),
}


@each_case("form", sorted(FORMS))
def test_a_misspelt_value_any_way_it_reaches_the_field_is_refused(form: str) -> None:
    wrong, right = FORMS[form]
    found = _issues(wrong)
    line = _misspelt_line(wrong, right)
    assert found and all(f.startswith(f"{line}:") for f in found), (form, found)
    assert _issues(right) == [], form


@each_case("body", [
    'some f in input.files\n\tstartswith(f.path, "cii/")',  # free text: any literal
    'item := {"kind": "migration"}\n\tstartswith(item.kind, "migr")\n\tsome f in input.files\n\tf.bucket == "src"',
    'some f in input.files\n\tregex.match(`(?i)^CI$`, f.bucket)',  # a pattern Python reads otherwise: not judged
    'names := {"cii-runner"}\n\tsome f in input.files\n\tf.path in names',
])
def test_free_text_and_the_policy_s_own_values_pass(body: str) -> None:
    assert _issues(body) == [], body
