"""Attack 18 on the field check (gatekeeper/policy/field_check.py, attack 17's fixes).

The key lists of `object.filter`, `object.remove`, `json.filter` and `json.remove` name input fields too, and a
misspelt one went unseen: `count(object.filter(input.packet, {"sanbox"})) > 0` is never true (the packet has a
`sandbox`), so the rule never fires and the gate allows. The check walks each listed key (a `json.*` path `a/b/c`
or `["a", "b"]` step by step) through the input schema when the object is input-rooted, and requires a known key
otherwise. The same calls with correct keys pass.
"""

from __future__ import annotations

from tables import each_case

from tests.test_attack17_field_check import issues

SLIPS = {
    "objfilter": ('review contains finding if {\n\tcount(object.filter(input.packet, {"sanbox"})) > 0\n'
                  '\tfinding := lib.finding("objfilter.sandbox", "sandbox set")\n}\n'),
    "objremove": ('review contains finding if {\n\tx := object.remove(input.summary, ["additons"])\n'
                  '\tcount(x) < 3\n\tfinding := lib.finding("objremove.few", "few")\n}\n'),
    "jsonfilter": ('review contains finding if {\n\tx := json.filter(input, ["packet/sanbox/network"])\n'
                   '\tcount(x) > 0\n\tfinding := lib.finding("jsonfilter.net", "network")\n}\n'),
    "jsonfilterarr": ('review contains finding if {\n\tx := json.filter(input, [["summary", "adittions"]])\n'
                      '\tcount(x) > 0\n\tfinding := lib.finding("jsonfilterarr.add", "additions")\n}\n'),
    "jsonremove": ('review contains finding if {\n\tx := json.remove(input.packet, ["sanbox"])\n'
                   '\tcount(x) > 0\n\tfinding := lib.finding("jsonremove.net", "network")\n}\n'),
    "boundfilter": ('review contains finding if {\n\tsome f in input.files\n\tx := object.filter(f, ["buckt"])\n'
                    '\tcount(x) > 0\n\tfinding := lib.paths_finding("boundfilter.f", "f", [f.path])\n}\n'),
}


@each_case("name", sorted(SLIPS))
def test_misspelt_key_lists_are_refused(name: str) -> None:
    assert issues(name, SLIPS[name]), name


def test_correct_key_lists_pass() -> None:
    body = ('review contains finding if {\n\tcount(object.filter(input.packet, {"sandbox"})) > 0\n'
            '\tx := object.remove(input.summary, ["additions", "deletions"])\n\tcount(x) > 0\n'
            '\ty := json.filter(input, ["packet/sandbox/network", "files/0/path"])\n\tcount(y) > 0\n'
            '\tz := json.remove(input, [["summary", "additions"]])\n\tcount(z) > 0\n'
            '\tsome f in input.files\n\tcount(object.filter(f, ["bucket", "path"])) == 2\n'
            '\tfinding := lib.paths_finding("lists.ok", "ok", [f.path])\n}\n')
    assert issues("lists", body) == []
