"""Attack 17 on red team 21's field check (gatekeeper/policy/field_check.py).

Misspellings that still slipped on 2b24b9c, each a rule regopy evaluates as undefined (it never fires, the gate
allows): a dotted params ref documented itself (`data.gatekeeper.params.size.max_filez` was its own `params.x.y`
"comment"); a bracket key of a bound variable (`f["pth"]`, and `f["b\\u0075cket"]`, which regopy reads undecoded);
a raw-string key (`` input[`fiels`] ``); a field read through `import input.packet as pkt`. Each is refused now.

And the other side: twenty ordinary custom policies in the docs' style (docs/policies.md section 4), reading
documented input fields, packet fields, dependency changes, facts and documented params, are all accepted.
"""

from __future__ import annotations

import json

from tables import each_case

from gatekeeper.policy.bundle import load_bundle
from gatekeeper.policy.field_check import field_issues
from gatekeeper.policy.ref_check import unknown_refs
from tests.conftest import POLICY_DIR

HEAD = "package gatekeeper.policies.{name}\n\nimport rego.v1\n\nimport data.gatekeeper.lib\n{extra}\n"
BUNDLE = load_bundle(POLICY_DIR, lint_tests=False, git_state=False)


def issues(name: str, body: str, extra: str = "", params: dict[str, object] | None = None) -> list[str]:
    modules = dict(BUNDLE.modules)
    modules[f"{name}/policy.rego"] = HEAD.format(name=name, extra=extra) + body
    merged = json.loads(json.dumps(BUNDLE.params)) | (params or {})
    found = field_issues(modules, {"gatekeeper": {"params": merged}}) + unknown_refs(modules)
    return [issue.message for issue in found if issue.file.startswith(f"{name}/")]


SLIPS = {
    "paramdot": ("review contains finding if {\n\tcount(input.files) > data.gatekeeper.params.size.max_filez\n"
                 '\tfinding := lib.finding("paramdot.many", "many files")\n}\n', ""),
    "bracketvar": ('review contains finding if {\n\tsome f in input.files\n\tf["pth"] == "infra/main.tf"\n'
                   '\tfinding := lib.finding("bracketvar.infra", "infra")\n}\n', ""),
    "escapedkey": ('review contains finding if {\n\tsome f in input.files\n\tf["b\\u0075cket"] == "ci"\n'
                   '\tfinding := lib.paths_finding("escapedkey.ci", "ci", [f.path])\n}\n', ""),
    "rawstring": ("review contains finding if {\n\tsome f in input[`fiels`]\n"
                  '\tfinding := lib.paths_finding("rawstring.any", "a file", [f.path])\n}\n', ""),
    "importalias": ('deny contains finding if {\n\tpkt.sanbox.network != "denied"\n'
                    '\tfinding := lib.finding("importalias.net", "network")\n}\n', "import input.packet as pkt\n"),
}


@each_case("name", sorted(SLIPS))
def test_misspellings_are_refused(name: str) -> None:
    body, extra = SLIPS[name]
    assert issues(name, body, extra), name


def test_correct_spellings_of_the_same_forms_pass() -> None:
    body = ("# params.size.max_lines: the most changed lines before a review (optional)\n"
            "review contains finding if {\n\tsome f in input.files\n\tf[\"bucket\"] == \"ci\"\n"
            "\tinput.summary.additions > data.gatekeeper.params.size.max_lines\n"
            "\tpkt.sandbox.network != \"denied\"\n\tsome g in input[`files`]\n\tg.path == f.path\n"
            "\tfinding := lib.paths_finding(\"forms.ok\", \"ok\", [f.path])\n}\n")
    assert issues("forms", body, "import input.packet as pkt\n") == []


POLICIES = {
    "owners": """# params.owners.protected_prefixes: paths only the platform team may change
review contains finding if {
	some f in input.files
	some prefix in lib.param(data.gatekeeper.params, ["owners", "protected_prefixes"], ["infra/"])
	startswith(f.path, prefix)
	finding := lib.paths_finding("owners.protected", sprintf("%s is owned by platform", [f.path]), [f.path])
}
""",
    "bigdeps": """review contains finding if {
	input.summary.buckets.deps.files > 0
	count(input.dependencies.changes) > lib.param(data.gatekeeper.params, ["deps", "max_new"], 3)
	finding := lib.finding("bigdeps.many", "many dependency changes")
}
""",
    "vulns": """deny contains finding if {
	some c in input.dependencies.changes
	count(c.vulnerabilities) > 0
	finding := lib.paths_finding("vulns.known", sprintf("%s %s is vulnerable", [c.name, c.to]), [c.manifest])
}
""",
    "model": """# params.model.allowed: the models a run may use
deny contains finding if {
	model := object.get(input.packet, ["model", "served"], "")
	allowed := lib.param(data.gatekeeper.params, ["model", "allowed"], [])
	count(allowed) > 0
	not model in allowed
	finding := lib.finding("model.unapproved", sprintf("model %s is not approved", [model]))
}
""",
    "sandboxnet": """deny contains finding if {
	input.packet.sandbox.network != "denied"
	not input.packet.sandbox.egress_checked
	finding := lib.finding("sandboxnet.open", "the run had network access")
}
""",
    "executables": """review contains finding if {
	input.summary.tags.executable > 0
	paths := [f.path | some f in lib.notable(input.files, input.summary); "executable" in f.tags]
	finding := lib.paths_finding("executables.bits", "new executables", paths)
}
""",
    "images": """review contains finding if {
	some f in lib.notable(input.files, input.summary)
	some image in f.facts.images_added
	not startswith(image, "ghcr.io/acme/")
	finding := lib.paths_finding("images.outside", sprintf("image %s", [image]), [f.path])
}
""",
    "actions": """deny contains finding if {
	some f in lib.notable(input.files, input.summary)
	count(f.facts.unpinned_actions) > 0
	finding := lib.paths_finding("actions.unpinned", "unpinned actions", [f.path])
}
""",
    "triggers": """review contains finding if {
	some f in lib.notable(input.files, input.summary)
	some t in f.facts.risky_triggers_added
	finding := lib.paths_finding("triggers.risky", sprintf("trigger %s", [t]), [f.path])
}
""",
    "symlinks": """deny contains finding if {
	some f in lib.notable(input.files, input.summary)
	"symlink" in f.tags
	startswith(f.symlink_target, "/")
	finding := lib.paths_finding("symlinks.absolute", "absolute symlink", [f.path])
}
""",
    "integrity": """deny contains finding if {
	not input.integrity.ok
	some d in input.integrity.differences
	finding := lib.finding("integrity.diff", sprintf("differs: %v", [d]))
}
""",
    "attest": """review contains finding if {
	not input.attestation.verified
	why := object.get(input.attestation, "reason", "none")
	finding := lib.finding("attest.unsigned", sprintf("unverified: %s", [why]))
}
""",
    "kinds": """# params.kinds.blocked: Kubernetes kinds that need the cluster team
review contains finding if {
	input.summary.buckets.iac.files > 0
	blocked := {k | some k in lib.param(data.gatekeeper.params, ["kinds", "blocked"], ["ClusterRole"])}
	some f in lib.notable(input.files, input.summary)
	some kind in f.facts.kinds_added
	kind in blocked
	finding := lib.paths_finding("kinds.blocked", sprintf("%s adds a %s", [f.path, kind]), [f.path])
}
""",
    "relay": """review contains finding if {
	input.packet.relay.refused > 0
	finding := lib.finding("relay.refused", sprintf("%d requests refused", [input.packet.relay.refused]))
}
""",
    "renames": """review contains finding if {
	some f in input.files
	f.status == "renamed"
	startswith(f.old_path, ".github/")
	finding := lib.paths_finding("renames.ci", "renamed out of .github", [f.path])
}
""",
    "direct": """warn contains finding if {
	some c in input.dependencies.changes
	c.direct
	c.change == "added"
	finding := lib.paths_finding("direct.added", sprintf("%s added", [c.name]), [c.manifest])
}
""",
    "buckets": """review contains finding if {
	some b in ["ci", "iac"]
	input.summary.buckets[b].files > 0
	finding := lib.finding("buckets.any", sprintf("%s changed", [b]))
}
""",
    "walkbuckets": """review contains finding if {
	some k, v in input.summary.buckets
	v.files > 100
	finding := lib.finding("walkbuckets.big", sprintf("%s: %d", [k, v.files]))
}
""",
    "generator": """review contains finding if {
	input.packet.generator.timed_out
	finding := lib.finding("generator.timeout", sprintf("%s timed out", [input.packet.generator.command[0]]))
}
""",
    "bracketed": """review contains finding if {
	some f in input.files
	f["bucket"] == "iac"
	f["facts"]["kinds_added"][_] == "Namespace"
	finding := lib.paths_finding("bracketed.ns", "a new namespace", [f.path])
}
""",
}
CUSTOM = {"owners": {"protected_prefixes": ["infra/"]}, "model": {"allowed": ["claude-sonnet"]},
          "kinds": {"blocked": ["ClusterRole"]}}


@each_case("name", sorted(POLICIES))
def test_ordinary_custom_policies_are_accepted(name: str) -> None:
    assert issues(name, POLICIES[name], params=CUSTOM) == []
