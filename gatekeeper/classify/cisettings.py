"""Tier 3, continued: CI definitions of shapes the other content signals did not know (the sixty-first set,
tests/test_classify_sixtyfirst_classes.py).

- Jenkins Configuration as Code (the configuration-as-code plugin's YAML, under any name: `configs/casc/system.yaml`,
  `casc/nodes.yaml`): the settings of the CI server itself (executors, agents, security realm, script approval,
  credentials providers, views, shared libraries). A top-level JCasC root key (`jenkins:`, `security:`,
  `unclassified:`, `credentials:`, `tool:`, `appearance:`) whose own child keys (the first indentation level below it)
  include one only that plugin writes (`numExecutors`, `nodeMonitors`, `securityRealm`, `scriptApproval`,
  `globalLibraries`, ...), a `domainCredentials` below `credentials:` or `installations` below `tool:` at any depth, a
  top-level `jobs:` list whose first item is the job-dsl plugin's (`- file:`, `- script:`, `- url:`, `- providedEnv:`;
  a workflow's `jobs:` holds job ids), or a top-level `globalCredentialsConfiguration:`. Any other deeper key does not
  count: a Helm values file that configures a `jenkins:` subchart keeps `numExecutors` under `controller:`.
- A CircleCI orb's source (`src/orbs/<name>.yml`, orb-tools' `src/@orb.yml`): `version: 2.x` with top-level
  `commands:` or `executors:` whose entries run `steps:` or name a `docker:`/`machine:` image (an orb publishes jobs
  and commands for pipelines, and the repository's own config may use it), or an `@orb.yml` with `version: 2.x`. The
  older CircleCI signal needed `workflows:`/`orbs:` and `jobs:`, which an orb's source need not have.
- A GitLab CI template made of hidden jobs (`.dev_setup:` with `before_script:`, `extends:` targets other pipelines
  include): a top-level key starting with a dot and an indented `script:`/`before_script:`/`after_script:`. The older
  GitLab signal needed `stage:`/`stages:`, which a setup template need not have. Not a snap's recipe.

`casc_node` and `hidden_job_node` read the first and the last of these from a document's parsed root, for yamlroots.py
(the file in flow style, with quoted keys or as JSON: docs review 56).
"""

from __future__ import annotations

import re

from gatekeeper.classify.shapes import evidence_line
from gatekeeper.lazy_pattern import lazy

_FLAGS = re.MULTILINE

_CASC_ROOTS = frozenset({"jenkins", "security", "unclassified", "credentials", "tool", "appearance", "jobs"})
_CASC_KEYS = frozenset({
    "systemMessage", "numExecutors", "nodeMonitors", "securityRealm", "authorizationStrategy", "viewsTabBar",
    "myViewsTabBar", "labelString", "scmCheckoutRetryCount", "primaryView", "projectNamingStrategy", "crumbIssuer",
    "remotingSecurity", "globalNodeProperties", "markupFormatter", "slaveAgentPort", "agentProtocols",
    "disabledAdministrativeMonitors", "noUsageStatistics", "scriptApproval", "globalJobDslSecurityConfiguration",
    "gitHostKeyVerificationConfiguration", "queueItemAuthenticator", "globalLibraries", "domainCredentials",
    "themeManager", "apiToken", "sSHD", "updateCenter", "disableRememberMe", "pipelineGraphView",
})
CASC_KEY_WORDS = "|".join(sorted(_CASC_KEYS))  # for yamlroots' test of whether a file's text could hold such a key
# Keys at any depth below a root that only JCasC writes there (`credentials: system: domainCredentials:`, `tool: git:
# installations:`), and the job-dsl plugin's `jobs:` list items (`- file: seed.groovy`, `- script: >`).
_CASC_DEEP = {"credentials": frozenset({"domainCredentials"}), "tool": frozenset({"installations"})}
_CASC_JOB_ITEM = lazy(r"[ \t]*-[ \t]+(?:file|script|url|providedEnv)[ \t]*:")
_CASC_ONLY_ROOT = lazy(r"^globalCredentialsConfiguration[ \t]*:[ \t]*(?:#[^\n]*)?$", _FLAGS)
_KEY_LINE = lazy(r"([ \t]*)([A-Za-z_][\w-]*)[ \t]*:(?:[ \t]|$)")

_CIRCLE_VERSION = lazy(r"""^version[ \t]*:[ \t]*["']?2(?:\.[01])?["']?[ \t]*(?:#[^\n]*)?$""", _FLAGS)
_ORB_TOP = lazy(r"^(?:commands|executors)[ \t]*:[ \t]*(?:#[^\n]*)?$", _FLAGS)
_ORB_BODY = lazy(r"^[ \t]+(?:steps|docker|machine|macos)[ \t]*:", _FLAGS)

_GITLAB_HIDDEN = lazy(r"^\.[A-Za-z0-9_][\w.-]*[ \t]*:", _FLAGS)
_GITLAB_SCRIPT = lazy(r"^[ \t]+(?:script|before_script|after_script)[ \t]*:", _FLAGS)
_SNAPCRAFT = lazy(r"^confinement[ \t]*:[ \t]*(?:strict|classic|devmode)\b|^grade[ \t]*:[ \t]*(?:stable|devel)\b",
                  _FLAGS)


def casc_node(root: object) -> bool:
    """Whether a YAML document's root (yamlroots' plain nodes: a mapping holds every value of a key) is JCasC, by the
    keys `_jcasc` reads in its lines, for the same file written in flow style, with quoted keys or as JSON."""
    if not isinstance(root, dict):
        return False
    if "globalCredentialsConfiguration" in root:
        return True
    for item in root.get("jobs", ()):
        first = item[0] if isinstance(item, list) and item else None  # its first item's first key, as in its lines
        if isinstance(first, dict) and next(iter(first), "") in ("file", "script", "url", "providedEnv"):
            return True
    for name in _CASC_ROOTS - {"jobs"}:
        for value in root.get(name, ()):
            if isinstance(value, dict) and (any(key in _CASC_KEYS for key in value)
                                            or _deep_key(value, _CASC_DEEP.get(name, frozenset()), 0)):
                return True
    return False


def hidden_job_node(root: object) -> bool:
    """Whether a YAML document's root is a GitLab template of hidden jobs (`.setup: {script: ...}`), not a snap's."""
    if not isinstance(root, dict) or "confinement" in root or "grade" in root:
        return False
    return any(key.startswith(".") and isinstance(job, dict)
               and any(step in job for step in ("script", "before_script", "after_script"))
               for key, jobs in root.items() for job in jobs)


def _deep_key(node: object, keys: frozenset[str], depth: int) -> bool:
    if not keys or depth > 8:
        return False
    if isinstance(node, dict):
        return any(key in keys for key in node) or any(_deep_key(v, keys, depth + 1) for vs in node.values()
                                                       for v in vs)
    return isinstance(node, list) and any(_deep_key(v, keys, depth + 1) for v in node)


def ci_settings(name: str, text: str) -> tuple[str, str, str] | None:
    """(bucket, rule id, evidence line) of the first of these shapes `text` (a YAML file's first bytes) has, or None."""
    stem, dot, ext = name.rpartition(".")
    if not (dot and stem) or ext.lower() not in ("yaml", "yml"):
        return None
    if (evidence := _jcasc(text)) is not None:
        return "ci", "ci.content.jenkins-casc", evidence
    if (m := _CIRCLE_VERSION.search(text)) is not None \
            and (name == "@orb.yml" or ((top := _ORB_TOP.search(text)) is not None
                                        and _ORB_BODY.search(text, top.end()) is not None)):
        return "ci", "ci.content.circleci", evidence_line(text, m)
    if (m := _GITLAB_HIDDEN.search(text)) is not None and _GITLAB_SCRIPT.search(text, m.end()) is not None \
            and _SNAPCRAFT.search(text) is None:
        return "ci", "ci.content.gitlab-ci", evidence_line(text, m)
    return None


def _jcasc(text: str) -> str | None:
    """The evidence line of a JCasC document: a root key whose first-level child is a key only JCasC writes."""
    if (m := _CASC_ONLY_ROOT.search(text)) is not None:
        return evidence_line(text, m)
    if not any(name in text for name in _CASC_ROOTS):
        return None  # no line can open a root: seven substring tests at C speed, not a loop over every line
    root = ""  # the JCasC root key being read ("" outside one)
    child = ""  # the indentation of its first-level keys, once seen
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if line[0] == "-" and root:  # a block list at its key's own column (`jobs:` then `- script: >`): the value
            if root == "jobs" and not child and _CASC_JOB_ITEM.match(line):
                return stripped[:120]
            child = child or "-"
            continue
        if not line[0].isspace():  # a top-level line: a new root (or another key, which ends the block)
            key = _KEY_LINE.match(line)
            root = key.group(2) if key is not None and key.group(2) in _CASC_ROOTS else ""
            child = ""
            continue
        if not root:
            continue
        if root == "jobs":  # the job-dsl plugin's list: its first item at the first level (not a workflow's job ids)
            if not child and _CASC_JOB_ITEM.match(line):
                return stripped[:120]
            child = child or "-"
            continue
        if (key := _KEY_LINE.match(line)) is None:
            continue
        indent = key.group(1)
        if not child:
            child = indent
        if (indent == child and key.group(2) in _CASC_KEYS) or key.group(2) in _CASC_DEEP.get(root, ()):
            return stripped[:120]
    return None
