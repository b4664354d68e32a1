"""Tier 3, continued: definitions kept under names that say nothing of them (the fifty-fourth set,
tests/test_classify_fiftyfourth_classes.py).

- A Jenkins declarative pipeline in a file without an extension (`jenkins`, `ci/deploy-pipeline`): a job's script path
  may name any file; only `.groovy` files were read for one (shapes.py). Declarative only (`pipeline {` with `agent` and
  `stages {` inside): a scripted `node {` is too plain a shape for files whose name says nothing. Not a `Jenkinsfile*`:
  the path rules name those (and tests/test_test_cmd.py proves a fixture fails when those rules are deleted).
- A Tekton object whose `apiVersion` line is missing (`kind: Task` with a `spec:` of `steps:` that run images, or
  `kind: Pipeline` whose `tasks:` refer to tasks): the pipeline's definition still, which the API-group rules never
  saw (they need both lines).
- Salt's own settings: a minion's or master's (`file_roots:`/`pillar_roots:` with an environment under it: where
  the states and the pillar data come from) and a Saltfile (`salt-call:`/`salt-ssh:` with the options each command
  runs with). They decide what every state run applies, as `ansible.cfg` does for Ansible.
- CUE that defines Kubernetes objects (`apiVersion: "batch/v1"` and `kind: "Job"` as CUE fields, at any depth): the
  objects the project renders and applies; the API-group rules decide the bucket and name the rule, as for YAML
  (Tekton's are `ci`). Not below
  `cue.mod/` (imported and generated packages: dependencies) and not a schema (no quoted values there).
  CUE that renders CloudFormation (misses 6: srehero/cfn's `schemas/RDS/RDS.cue`, `stacks/Networking/*.cue`): a
  resource type as a CUE field (`Type: "AWS::RDS::DBCluster"`), or `Resources:` beside a pseudo parameter
  (`Ref: "AWS::StackName"`, `"${AWS::Region}-x"`): `iac.content.cue-cloudformation`.
- Jsonnet that builds a CI object (`apiVersion: 'tekton.dev/v1beta1'` and `kind: 'Pipeline'` as jsonnet fields, the
  fifty-seventh set): the path rules call every jsonnet file `iac` (it renders manifests); the API-group rules raise
  the ones whose objects are `ci` (Tekton, Argo Workflows). A Kubernetes object in jsonnet is `iac` by its path
  already, so only a `ci` answer is returned (a library's test input stays what its folder says).
- A Firecracker microVM's settings (`"boot-source"` and `"machine-config"` in JSON: the kernel, root drive and vCPUs
  `firecracker --config-file` boots; the fifty-seventh set): a machine's definition, as a Vagrantfile is.
"""

from __future__ import annotations

import re

from gatekeeper.classify.contextrules import ContextRules
from gatekeeper.classify.shapes import evidence_line
from gatekeeper.classify.yamlroots import API_VERSION
from gatekeeper.lazy_pattern import lazy

_FLAGS = re.MULTILINE

_DECLARATIVE = lazy(r"^pipeline[ \t]*(?:\r?\n[ \t]*)?\{", _FLAGS)
_DECLARATIVE_AGENT = lazy(r"^[ \t]+agent\b", _FLAGS)
_DECLARATIVE_STAGES = lazy(r"^[ \t]+stages[ \t]*(?:\r?\n[ \t]*)?\{", _FLAGS)

_TEKTON_KIND = lazy(r"""^kind[ \t]*:[ \t]*["']?(Task|ClusterTask|Pipeline|TaskRun|PipelineRun)["']?[ \t]*\r?$""",
                    _FLAGS)
_ANY_API = lazy(r"""^["']?apiVersion["']?[ \t]*:""", _FLAGS)
_SPEC = lazy(r"^spec[ \t]*:[ \t]*\r?$", _FLAGS)
# A step that runs an image, or a pipeline task that names its task (or spells it inline), or a run's reference.
_TEKTON_BODY = lazy(r"^[ \t]+(?:-[ \t]+)?(?:image|taskRef|taskSpec|pipelineRef|pipelineSpec)[ \t]*:", _FLAGS)

_SALT_ROOTS = lazy(r"^(?:file_roots|pillar_roots)[ \t]*:[ \t]*\r?\n(?:[ \t]*(?:#[^\n]*)?\r?\n)*[ \t]+[\w-]+[ \t]*:",
                   _FLAGS)
_SALTFILE = lazy(r"^salt-(?:call|ssh|run|key|cp|cloud)[ \t]*:[ \t]*\r?\n(?:[ \t]*(?:#[^\n]*)?\r?\n)*[ \t]+[\w-]+"
                 r"[ \t]*:", _FLAGS)

_CUE_API = lazy(r"""^[ \t]*"?apiVersion"?[ \t]*:[ \t]*"([^"\n]{1,120})"[ \t]*,?[ \t]*(?://[^\n]*)?\r?$""", _FLAGS)
_CUE_KIND = lazy(r"""^[ \t]*"?kind"?[ \t]*:[ \t]*"([A-Z][A-Za-z0-9]{0,80})"[ \t]*,?[ \t]*(?://[^\n]*)?\r?$""", _FLAGS)
_CUE_CFN_TYPE = lazy(r"""^[ \t]*"?Type"?[ \t]*:[ \t]*"(?:AWS|Alexa)::\w+::\w""", _FLAGS)
_CUE_CFN_RESOURCES = lazy(r"""^[ \t]*"?Resources"?[ \t]*:""", _FLAGS)
_CUE_CFN_PSEUDO = lazy(r"""["{]AWS::(?:StackName|StackId|Region|AccountId|Partition|URLSuffix|NoValue"""
                       r"""|NotificationARNs)["}]""")
# Jsonnet fields: an identifier or a quoted name, then a single- or double-quoted string (`apiVersion: 'v1',`).
_JSONNET_API = lazy(r"""^[ \t]*["']?apiVersion["']?[ \t]*:{1,3}[ \t]*(["'])([^"'\n]{1,120})\1[ \t]*,?[ \t]*(?://[^\n]*)?\r?$""",
                    _FLAGS)
_JSONNET_KIND = lazy(r"""^[ \t]*["']?kind["']?[ \t]*:{1,3}[ \t]*(["'])([A-Z][A-Za-z0-9]{0,80})\1[ \t]*,?[ \t]*(?://[^\n]*)?\r?$""",
                     _FLAGS)
_FIRECRACKER_BOOT = lazy(r"""^[ \t]*"boot-source"[ \t]*:""", _FLAGS)
_FIRECRACKER_MACHINE = lazy(r"""^[ \t]*"machine-config"[ \t]*:""", _FLAGS)


def loose_shape(path: str, name: str, text: str, rules: ContextRules) -> tuple[str, str, str] | None:
    """(bucket, rule id, evidence line) of the first of these shapes `text` (a file's first bytes) has, or None."""
    stem, dot, ext = name.rpartition(".")
    ext = ext.lower() if dot and stem else ""
    if not ext and not name.lower().startswith("jenkinsfile") and (m := _DECLARATIVE.search(text)) is not None \
            and _DECLARATIVE_AGENT.search(text, m.end()) and _DECLARATIVE_STAGES.search(text, m.end()):
        return "ci", "ci.content.jenkins-pipeline", evidence_line(text, m)
    if ext in ("yaml", "yml") and (m := _TEKTON_KIND.search(text)) is not None and not _ANY_API.search(text) \
            and (spec := _SPEC.search(text)) is not None and _TEKTON_BODY.search(text, spec.end()):
        return "ci", "ci.content.tekton-unversioned", evidence_line(text, m)
    if ext in ("", "conf", "yaml", "yml") and ((m := _SALT_ROOTS.search(text)) is not None
                                               or (m := _SALTFILE.search(text)) is not None):
        return "iac", "iac.content.salt-settings", evidence_line(text, m)
    if ext == "cue" and not path.startswith("cue.mod/") and "/cue.mod/" not in path:
        return _cue_object(text, rules)
    if ext in ("jsonnet", "libsonnet"):
        return _jsonnet_ci_object(text, rules)
    if ext == "json" and (m := _FIRECRACKER_BOOT.search(text)) is not None and _FIRECRACKER_MACHINE.search(text):
        return "iac", "iac.content.firecracker-vm", evidence_line(text, m)
    return None


def _cue_object(text: str, rules: ContextRules) -> tuple[str, str, str] | None:
    """A CUE file's Kubernetes object: a quoted apiVersion and a quoted kind the API-group rules know; or CloudFormation
    it renders (a resource type field, or `Resources:` beside a pseudo parameter)."""
    if (api := _CUE_API.search(text)) is not None and (kind := _CUE_KIND.search(text)) is not None \
            and API_VERSION.match(version := api.group(1).strip().lower()) \
            and (rule := rules.api_rule(version.rpartition("/")[0], kind.group(1))) is not None:
        return rule.bucket, rule.id, f"{evidence_line(text, api)} / {evidence_line(text, kind)}"
    if (m := _CUE_CFN_TYPE.search(text)) is not None or (
            (m := _CUE_CFN_PSEUDO.search(text)) is not None and _CUE_CFN_RESOURCES.search(text)):
        return "iac", "iac.content.cue-cloudformation", evidence_line(text, m)
    return None


def _jsonnet_ci_object(text: str, rules: ContextRules) -> tuple[str, str, str] | None:
    """A jsonnet file's CI object: a quoted kind, with the quoted apiVersion nearest before it (or the first one, for a
    kind written first), whose API-group rule is a `ci` one. One pass over each: linear in the text."""
    apis = list(_JSONNET_API.finditer(text))
    if not apis:
        return None
    at = 0
    for kind in _JSONNET_KIND.finditer(text):
        while at + 1 < len(apis) and apis[at + 1].start() < kind.start():
            at += 1
        api = apis[at]
        version = api.group(2).strip().lower()
        rule = rules.api_rule(version.rpartition("/")[0], kind.group(2)) if API_VERSION.match(version) else None
        if rule is not None and rule.bucket == "ci":
            return rule.bucket, rule.id, f"{evidence_line(text, api)} / {evidence_line(text, kind)}"
    return None
