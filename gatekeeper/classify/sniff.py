"""Tier 3: what a file's first bytes say it is (Kubernetes-family objects, CloudFormation/SAM, ARM,
Dockerfiles, GitHub Actions; Ansible in ansible.py, other shapes in shapes.py), by regular expressions over a
bounded window.

No YAML parser: Helm templates and CloudFormation short-form tags (`!Ref`) break parsers, which is
how the scanners that parse miss real files (research/iac-detection.md). Each signal names its rule
id and the line that matched, so `classify --explain` can show the evidence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gatekeeper.classify.ansible import ansible, setup_py
from gatekeeper.classify.buildshapes import build_shape, is_cmake, is_requirements_input
from gatekeeper.classify.checkoutattrs import NAME as ATTRIBUTES
from gatekeeper.classify.checkoutattrs import RULE as CHECKOUT_RULE
from gatekeeper.classify.checkoutattrs import transform_line
from gatekeeper.classify.cisettings import ci_settings
from gatekeeper.classify.contextrules import ContextRules
from gatekeeper.classify.looseshapes import loose_shape
from gatekeeper.classify.manifestshapes import manifest_shape, monitoring_settings
from gatekeeper.classify.platformshapes import is_bazelrc, platform_shape
from gatekeeper.classify.pyprojecttools import PYPROJECT, pyproject_tools
from gatekeeper.classify.servershapes import server_settings
from gatekeeper.classify.setupcfg import not_r_description, setup_cfg
from gatekeeper.classify.shapes import evidence_line, shape, snapcraft
from gatekeeper.classify.templatenames import read_names
from gatekeeper.classify.yamlroots import API_VERSION as _API_VERSION
from gatekeeper.classify.yamlroots import UNREAD_RULE as UNREAD_RULE
from gatekeeper.classify.yamlroots import yaml_signals
from gatekeeper.lazy_pattern import lazy

WINDOW = 8 * 1024  # bytes read per blob; measured: 8 KiB finds what the whole file finds (research §5)
LONG_WINDOW = 64 * 1024  # read when the first window held nothing but comments and blank lines
# Read whole, up to this, as YAML when the patterns found nothing (yamlroots.py); a longer file is not read
# (context.py reviews it when no path rule named it: the deciding keys of a manifest may sit anywhere in it).
FULL_READ = 1024 * 1024

# The types whose readers (YAML, JSON: kubectl) stop at a NUL byte, as `readable` does.
_STOP_AT_NUL = frozenset({"yaml", "yml", "json"})
# File types worth reading (lower-case extensions; files without one, and setup.py, too).
CANDIDATE_EXTENSIONS = frozenset({
    "yaml", "yml", "json", "jsonc", "json5", "template", "tpl", "tmpl", "gotmpl", "txt", "j2", "ini", "cfg",
    "conf", "nix", "groovy", "gvy", "pipeline", "lock", "config", "job", "ks", "bazelrc", "pp", "env", "cmake", "cue",
    "jsonnet", "libsonnet",
})



@dataclass(frozen=True, slots=True)
class Signal:
    """A content signal: the bucket it leads to, its rule id, and the evidence (the matched line)."""

    bucket: str
    rule: str
    evidence: str


_FLAGS = re.MULTILINE
_ARM = lazy(r'"\$schema"[ \t]*:[ \t]*"https?://schema\.management\.azure\.com/schemas/[^"\n]{0,200}?'
            r'[Dd]eployment(?:Template|Parameters)[^"\n]{0,200}"', _FLAGS)
_CFN_VERSION = lazy(r'^[ \t]*"?AWSTemplateFormatVersion"?[ \t]*:', _FLAGS)
_SAM = lazy(r'^[ \t]*"?Transform"?[ \t]*:[ \t]*\[?[ \t]*["\']?AWS::Serverless', _FLAGS)
_CFN_RESOURCES = lazy(r'^[ \t]*"?Resources"?[ \t]*:', _FLAGS)
_CFN_TYPE = lazy(r'^[ \t]*"?Type"?[ \t]*:[ \t]*["\']?(?:(?:AWS|Alexa|Custom)::\w|[A-Za-z]\w*::\w+::\w)', _FLAGS)
_DOC_SPLIT = lazy(r"^---[ \t]*(?:#.*)?$", _FLAGS)
_API_YAML = lazy(r"""^["']?apiVersion["']?[ \t]*:[ \t]*["']?([^\s"'#]*)""", _FLAGS)
_KIND_YAML = lazy(r"""^["']?kind["']?[ \t]*:[ \t]*["']?([A-Za-z0-9_.{}-]+)""", _FLAGS)
_API_JSON = lazy(r'"apiVersion"\s*:\s*"([^"]*)"')
_KIND_JSON = lazy(r'"kind"\s*:\s*"([^"]*)"')
# An IAM policy document (identity or resource policy, a trust policy): a policy-language version (also 2008's,
# which ECR and SQS policies keep) and a Statement list, also minified (a key after `{` or `,`: red team 14).
_IAM_VERSION = lazy(r"""(?:^|[{,])[ \t]*["']?Version["']?[ \t]*:[ \t]*["']20(?:12|08)-10-17["']""", _FLAGS)
_IAM_STATEMENT = lazy(r"""(?:^|[{,])[ \t]*["']?Statement["']?[ \t]*:""", _FLAGS)
_FROM = lazy(r"FROM[ \t]+\S", re.IGNORECASE)
_ARG = lazy(r"ARG[ \t]+[A-Za-z_]", re.IGNORECASE)
_GHA_ON = lazy(r"""^["']?on["']?[ \t]*:""", _FLAGS)
_GHA_JOBS = lazy(r"^jobs[ \t]*:", _FLAGS)
_GHA_JOB_BODY = lazy(r"^[ \t]+(?:runs-on|steps|uses)[ \t]*:", _FLAGS)
_GHA_ACTION = lazy(r"""^runs[ \t]*:[ \t]*\n[ \t]+using[ \t]*:[ \t]*["']?(?:composite|node\d+|docker)""", _FLAGS)
# A Helm (or helmfile) template: a Go-template action that reads what only Helm provides — the release's values,
# name or chart (`.Values`, `$.Values`, `.Release.Name`, `.Chart.Name`, `.Capabilities`, `.Files`), or Helm's
# `include NAME CONTEXT` (terraform-docs' one-argument `include "main.tf"` is not one)/`tpl`. Case matters (Jinja's
# `item.values` is not), the dot starts a field chain (not `foo.Values`); a semgrep rule quoting one is not. The span
# inside one action is bounded and holds no brace: a line of 8 KiB of `{{` must not cost a quadratic scan.
_HELM_ACTION = lazy(
    r"\{\{-?[^{}\n]{0,200}?(?:(?<![\w)\]])\$?\.(?:Values\b|Release\.[A-Z]|Chart\.[A-Z]|Capabilities\.|Files\.)|"
    r"(?<![\w.])(?:include[ \t]+(?:\"[^\"\n]*\"[ \t]+[(.$]|[(.$])|tpl[ \t]+[\"(.$]))", _FLAGS)
_DOC_TEMPLATES = (".md.gotmpl", ".md.tpl", ".md.tmpl")  # helm-docs README templates: documentation
# A template of a source file (`fastpath.go.tmpl`, a code generator's input, where `.Values` is a Go field): code.
_CODE_TEMPLATES = tuple(f".{code}.{kind}" for code in ("go", "py", "rs", "java", "kt", "ts", "js", "cs", "c", "h")
                        for kind in ("tmpl", "tpl", "gotmpl"))
_SEMGREP_RULES = lazy(r"^rules[ \t]*:", _FLAGS)
# A helm-unittest suite (`suite:` and its `tests:`) sets values that quote template actions; Helm never renders it.
_UNITTEST_SUITE = lazy(r"^suite[ \t]*:", _FLAGS)
_UNITTEST_TESTS = lazy(r"^tests[ \t]*:", _FLAGS)
_SEMGREP_RULE_KEY = lazy(r"^[ \t]+(?:-[ \t]+)?(?:languages|pattern|patterns|pattern-either|message)[ \t]*:",
                         _FLAGS)
# An AWS CodeBuild build specification, whatever its name (CDK and projen keep them under any name).
_CODEBUILD_VERSION = lazy(r"""^version[ \t]*:[ \t]*["']?0\.[12]["']?[ \t]*(?:#.*)?$""", _FLAGS)
_CODEBUILD_PHASES = lazy(r"^phases[ \t]*:", _FLAGS)
# Concourse: a pipeline (`jobs:` whose jobs have a `plan:`) and a task (`platform:` + `run:`).
_CONCOURSE_JOBS = lazy(r"^jobs[ \t]*:", _FLAGS)
_CONCOURSE_PLAN = lazy(r"^[ \t]+(?:-[ \t]+)?plan[ \t]*:", _FLAGS)
_CONCOURSE_PLATFORM = lazy(r"""^platform[ \t]*:[ \t]*["']?(?:linux|windows|darwin)\b""", _FLAGS)
_CONCOURSE_RUN = lazy(r"^run[ \t]*:", _FLAGS)
# Other CI systems' definitions kept under names no path rule knows (templates a pipeline includes, a second
# pipeline in build/): each by what only that system writes. Not Woodpecker's bare `steps:` with `image:` and
# `commands:`: measured, it caught only test fixtures shaped like pipelines (the held-out set), and Woodpecker's
# own folders have path rules.
_AZURE_TASK = lazy(r"^[ \t]*-[ \t]+task[ \t]*:[ \t]*[\"']?[A-Za-z][\w.-]*@[0-9]+", _FLAGS)
_AZURE_POOL = lazy(r"^pool[ \t]*:", _FLAGS)
_AZURE_BODY = lazy(r"^(?:steps|jobs|stages)[ \t]*:", _FLAGS)
_GITLAB_STAGES = lazy(r"^stages[ \t]*:|^[ \t]+stage[ \t]*:", _FLAGS)
_GITLAB_SCRIPT = lazy(r"^[ \t]+(?:script|before_script|after_script|trigger)[ \t]*:", _FLAGS)
_CIRCLE_VERSION = lazy(r"""^version[ \t]*:[ \t]*["']?2(?:\.[01])?["']?[ \t]*$""", _FLAGS)
_CIRCLE_BODY = lazy(r"^(?:workflows|orbs)[ \t]*:", _FLAGS)
_DRONE_KIND = lazy(r"""^kind[ \t]*:[ \t]*["']?pipeline\b""", _FLAGS)
_STEPS = lazy(r"^steps[ \t]*:", _FLAGS)
# Codefresh: `version: "1.0"` at the root and a steps map whose steps are Codefresh's step types or use its
# `${{CF_...}}` variables; a pipeline spec (`kind: pipeline` + `spec:`) nests the steps (the forty-first set: vfarcic's
# codefresh/codefresh-staging.yml). Not a bare `version: "1.0"` with steps: other tools write that too.
_CODEFRESH_VERSION = lazy(r"""^version[ \t]*:[ \t]*["']?1\.0["']?[ \t]*(?:#[^\n]*)?\r?$""", _FLAGS)
_CODEFRESH_STEPS = lazy(r"^[ \t]*steps[ \t]*:[ \t]*(?:#[^\n]*)?\r?$", _FLAGS)
_CODEFRESH_STEP = lazy(r"""^[ \t]+type[ \t]*:[ \t]*["']?(?:freestyle|build|push|git-clone|composition|"""
                       r"""launch-composition|deploy|helm|pending-approval|parallel|codefresh-run)["']?[ \t]*\r?$"""
                       r"""|\$\{\{CF_[A-Z0-9_]+\}\}""", _FLAGS)
_BITBUCKET = lazy(r"^pipelines[ \t]*:[ \t]*\n(?:[ \t]*(?:#[^\n]*)?\n)*[ \t]+(?:default|branches|pull-requests|"
                  r"tags|custom)[ \t]*:", _FLAGS)
_BUILDKITE_STEP = lazy(
    r"^[ \t]*-[ \t]+(?:command|commands|trigger|block|wait|input)[ \t]*:|^[ \t]*-[ \t]+wait[ \t]*$", _FLAGS)
# A Route 53 change batch (`aws route53 change-resource-record-sets --change-batch file://...`): DNS records.
_ROUTE53_CHANGE = lazy(r'"Action"[ \t]*:[ \t]*"(?:CREATE|UPSERT|DELETE)"', _FLAGS)
_ROUTE53_RECORD = lazy(r'"ResourceRecordSet"[ \t]*:', _FLAGS)
_COMMENT = lazy(rb"\A(?:[ \t]*(?:(?:#|//)[^\n]*|\r)?\n)*[ \t]*(?:(?:#|//)[^\n]*)?\Z")


# A template of a document (helm-docs' README.md.gotmpl, index.rst.j2) and llmstxt.org's Markdown for language models
# are documentation: the examples they quote (an Argo CD Application, a compose service) are prose, not configuration.
_DOCUMENT_STEMS, _LLMS_TEXTS = frozenset({"md", "markdown", "rst", "adoc", "asciidoc"}), {"llms.txt", "llms-full.txt"}


def is_candidate(path: str) -> bool:
    """True for the files tier 3 reads: text configuration types, no-extension files, setup.py, metadata.rb, `*.in`,
    `Dockerfile*`/`Containerfile*`, `.env.*` (Compose settings), and their copies and templates (`hosts.example`,
    `web.yaml.in`: templatenames.read_names, each name read, so a template's suffix only widens what is read)."""
    return any(_candidate(path, name) for name in read_names(path.rpartition("/")[2], CANDIDATE_EXTENSIONS))


def _candidate(path: str, name: str) -> bool:
    stem, dot, ext = name.rpartition(".")
    if (dot and stem.rpartition(".")[2].lower() in _DOCUMENT_STEMS) or name.lower() in _LLMS_TEXTS:
        return False  # a document's template (`README.md.gotmpl`), llms.txt: their YAML examples are prose
    return not (dot and stem) or ext.lower() in CANDIDATE_EXTENSIONS or name in ("setup.py", "metadata.rb", PYPROJECT) \
        or is_bazelrc(name) or is_requirements_input(name) or _helm_snapshot(path) or is_cmake(name) \
        or name.lower().startswith(("dockerfile", "containerfile", ".env"))


def _helm_snapshot(path: str) -> bool:
    """A helm-unittest snapshot (`tests/__snapshot__/x.snap`, src.helm-unittest): YAML whose name says nothing of what
    it holds, read so that a bare Kubernetes object saved under the name is raised (attack 24)."""
    return path.endswith(".snap") and path.rpartition("/")[0].endswith("__snapshot__")


def readable(data: bytes) -> bytes:
    """`data` as a YAML or JSON reader reads it, in UTF-8: up to its first NUL byte.

    git calls a file with a NUL byte binary, but kubectl applies every document before the one holding it (a YAML
    or JSON reader stops at the control character), so what comes before the first NUL is read, the rest is not.
    YAML and JSON may be UTF-16 with a byte order mark (and kubectl reads it): its NUL bytes are not binary."""
    return _decoded(data).partition(b"\0")[0]


def unread(data: bytes) -> bool:
    """Whether `data`, a blob's first FULL_READ + 1 bytes, goes on past FULL_READ before a reader stops."""
    return len(data) > FULL_READ and b"\0" not in _decoded(data)


def _decoded(data: bytes) -> bytes:
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16", "replace").encode("utf-8")
    return data


def only_comments(window: bytes) -> bool:
    """True when `window` holds nothing but blank and comment lines (read further before deciding)."""
    return bool(_COMMENT.match(window))


# A Git LFS pointer (red team 12): git stores these lines and a checkout with LFS writes the stored object in their
# place, so the change holds none of the file's content (the spec: `version` first, lowercase keys, under 1 KiB).
_LFS_POINTER = lazy(rb"\Aversion https://(?:git-lfs|hawser)\.github\.com/spec/v1\r?\n"
                    rb"(?=(?:[a-z0-9.-]+ [^\n]*\n){1,12}\Z)")


def lfs_pointer(data: bytes) -> Signal | None:
    """`iac.content.lfs-pointer` when `data` is a Git LFS pointer (the content tier's files and, red team 28, a
    program's source read for its imports), else None."""
    if (m := _LFS_POINTER.match(data)) is None:
        return None
    return Signal("iac", "iac.content.lfs-pointer", f"{m.group(0).decode().strip()}: a Git LFS pointer, whose content "
                  "is not in the change")


def sniff(path: str, data: bytes, rules: ContextRules, as_yaml: bool = False) -> Signal | None:
    """The most sensitive content signal in `data` (a file's first bytes, or the lines a patch shows).

    `as_yaml`: when the patterns find no ci or iac signal, also read `data` whole as YAML (yamlroots.py)."""
    if path.rpartition("/")[2] == ATTRIBUTES:  # red team 28; what is longer than a patch shows, or read, may hide one
        line = transform_line(data) or (f"longer than the {LONG_WINDOW >> 10} KiB read" if len(data) >= LONG_WINDOW
                                        else None)
        if line is not None:
            return Signal("iac", CHECKOUT_RULE, f"{line}: a checkout may write the files it covers otherwise than git "
                          "stores them")
    if (pointer := lfs_pointer(data)) is not None:
        return pointer
    if "bazelrc" in path.rpartition("/")[2].lower() and len(data) >= LONG_WINDOW:  # docs review 54: what a patch
        return Signal("ci", "ci.content.bazel-hook", f"{LONG_WINDOW >> 10} KiB or longer (what a patch shows of a "
                      "file): a line past it may make Bazel run a program")  # keeps; real run-control files are short
    raw = _decoded(data)
    cut = b"\0" in raw  # nothing past a NUL is read (readable); configparser and Ansible's INI reader read on
    whole = data = readable(data)
    if len(data) > WINDOW:  # the same window whether the bytes came from a blob or a patch
        data = data[:LONG_WINDOW] if only_comments(data[:WINDOW]) else data[:WINDOW]
    text = data.decode("utf-8", "replace").removeprefix("\ufeff")  # a UTF-8 byte order mark hides nothing
    name = path.rpartition("/")[2]
    if name == "setup.py":  # no packaging anywhere in it: read whole (a call of setup() may follow 8 KiB of code)
        return _setup_py_signal(raw)
    if name == "setup.cfg":  # tool settings only, seen whole (a longer file may name a package further down)
        return _signal(setup_cfg(text)) if len(whole) < WINDOW and not cut else None
    if name == PYPROJECT and len(whole) < WINDOW and not cut and (tools := pyproject_tools(text)) is not None:
        return Signal(*tools)  # the same proof, whole (pyprojecttools.py): a file of TOML tables holds nothing else
    found = _patterns(path, name, text, rules)
    if len(data) < len(whole) <= FULL_READ and not any(s.bucket in ("ci", "iac") for s in found):
        # The window is what honest files need (research §5), not what an author who pads a file before its
        # deciding lines needs: a tool reads the whole file (red team 11: an ARM template's `$schema` after 8 KiB
        # of resources, an inventory's hosts after a long first group, a Jenkins pipeline after its helpers).
        found.extend(_patterns(path, name, whole.decode("utf-8", "replace").removeprefix("\ufeff"), rules))
    if cut and len(raw) <= FULL_READ and name.rpartition(".")[2].lower() not in _STOP_AT_NUL \
            and not any(s.bucket in ("ci", "iac") for s in found):
        # YAML and JSON readers stop at a NUL byte, others do not (an Ansible INI inventory below a comment ending in
        # one): the text without its NUL bytes, for a ci or iac signal only (red team 14: test_redteam14_nul_bytes.py)
        past = raw.replace(b"\0", b"").decode("utf-8", "replace").removeprefix("\ufeff")
        found.extend(s for s in _patterns(path, name, past, rules) if s.bucket in ("ci", "iac"))
    if as_yaml and len(whole) <= FULL_READ and not any(s.bucket in ("ci", "iac") for s in found):
        text = text if whole is data else whole.decode("utf-8", "replace").removeprefix("\ufeff")
        found.extend(Signal(*signal) for signal in yaml_signals(text, rules))
    if not found and name.lower() == "description" and len(whole) <= FULL_READ and not cut:
        found.extend(s for s in [_signal(not_r_description(whole.decode("utf-8", "replace")))] if s is not None)
    if not found:
        return None
    order = {"ci": 0, "iac": 1, "deps": 2, "other": 3, "src": 4}
    return min(found, key=lambda s: order[s.bucket])


def _patterns(path: str, name: str, text: str, rules: ContextRules) -> list[Signal]:
    signals = (_cloud(text), *_kube(text, rules), _workflow(text), _signal(ansible(path, text)),
               _dockerfile(name, text), _helm(name, text), _signal(shape(name, text)),
               _signal(platform_shape(name, text)), _signal(build_shape(name, text)),
               _signal(manifest_shape(name, text)), _signal(monitoring_settings(name, text)),
               _signal(loose_shape(path, name, text, rules)), _signal(ci_settings(name, text)),
               _signal(server_settings(name, text)))
    return [s for s in signals if s is not None]


def _setup_py_signal(raw: bytes) -> Signal | None:
    """setup_py's proof over a whole setup.py (`raw`, decoded from UTF-16): none past FULL_READ or a NUL byte."""
    whole = raw.partition(b"\0")[0]
    if len(whole) > FULL_READ or len(whole) < len(raw):
        return None
    return _signal(setup_py(whole.decode("utf-8", "replace").removeprefix("\ufeff")))


def setup_py_code(path: str, data: bytes) -> bool:
    """The one answer to "is this setup.py no packaging?", the classifier's, which the delta asks too
    (deps/setupfiles.py): True when the content tier lowers the whole file to src — not at the repository's root
    (`pip install .` runs the root's whatever it holds; lowering.py), read whole and proven code by setup_py (an
    Ansible module, or a module that imports what it uses and neither imports a packaging API nor calls setup())."""
    return "/" in path and _setup_py_signal(_decoded(data)) is not None


def _signal(found: tuple[str, str, str] | None) -> Signal | None:
    return Signal(*found) if found is not None else None


def _cloud(text: str) -> Signal | None:
    if (m := _ARM.search(text)) is not None:
        return Signal("iac", "iac.content.arm", evidence_line(text, m))
    if (m := _CFN_VERSION.search(text)) is not None:
        return Signal("iac", "iac.content.cloudformation", evidence_line(text, m))
    if (m := _SAM.search(text)) is not None:
        return Signal("iac", "iac.content.sam", evidence_line(text, m))
    if _CFN_RESOURCES.search(text) and (m := _CFN_TYPE.search(text)) is not None:
        return Signal("iac", "iac.content.cloudformation", evidence_line(text, m))
    if _IAM_STATEMENT.search(text) and (m := _IAM_VERSION.search(text)) is not None:  # (`Version` is in most JSON)
        return Signal("iac", "iac.content.iam-policy", evidence_line(text, m))
    if (m := _ROUTE53_RECORD.search(text)) is not None and _ROUTE53_CHANGE.search(text):
        return Signal("iac", "iac.content.route53-change", evidence_line(text, m))
    return None


def _helm(name: str, text: str) -> Signal | None:
    if name.lower().endswith(_DOC_TEMPLATES + _CODE_TEMPLATES):
        return None  # helm-docs renders these into the chart's README (`range .Values` walks its values table)
    if "{{" not in text or (m := _HELM_ACTION.search(text)) is None:
        return None
    if _SEMGREP_RULES.search(text) and _SEMGREP_RULE_KEY.search(text):
        return None  # a semgrep rule quoting a template line
    if (suite := _UNITTEST_SUITE.search(text)) is not None and _UNITTEST_TESTS.search(text, suite.end()):
        return None
    return Signal("iac", "iac.content.helm-template", evidence_line(text, m))


def _kube(text: str, rules: ContextRules) -> list[Signal | None]:
    """One signal per YAML document (or JSON object) holding apiVersion and kind."""
    out: list[Signal | None] = []
    # No `---` in the text: no separator line, one document (the split's answer, without its scan of every line)
    documents = [text] if _json_text(text) or "---" not in text else _DOC_SPLIT.split(text)
    for doc in documents:
        json_doc = _json_text(doc)
        api = (_API_JSON if json_doc else _API_YAML).search(doc)
        kind = (_KIND_JSON if json_doc else _KIND_YAML).search(doc)
        if api is None or kind is None:
            continue
        version = api.group(1).strip().lower()
        if not _API_VERSION.match(version) or "{" in kind.group(1):
            continue  # a Helm or Go template ({{ ... }}), or not an apiVersion at all
        group = version.rpartition("/")[0]
        rule = rules.api_rule(group, kind.group(1))
        if rule is not None:
            out.append(Signal(rule.bucket, rule.id, f"{evidence_line(doc, api)} / {evidence_line(doc, kind)}"))
    return out


def _json_text(text: str) -> bool:
    """Whether `text` reads as JSON: it opens an object or a list, not a template's action or statement (a
    Jinja `{% for %}` or a Go `{{- /* comment */ -}}` before the first `---` of a templated YAML stream; the sweep
    of the mirrored repositories found such Kubernetes objects in bootstrap and Talos templates)."""
    stripped = text.lstrip()
    return stripped.startswith(("{", "[")) and not stripped.startswith(_TEMPLATE_OPENERS)


_TEMPLATE_OPENERS = ("{{", "{%", "{#")


def _workflow(text: str) -> Signal | None:
    if "on" in text and _GHA_ON.search(text) and (jobs := _GHA_JOBS.search(text)) \
            and _GHA_JOB_BODY.search(text, jobs.end()):
        return Signal("ci", "ci.content.github-workflow", evidence_line(text, jobs))
    if (m := _GHA_ACTION.search(text)) is not None:
        return Signal("ci", "ci.content.github-action", evidence_line(text, m))
    if (m := _CODEBUILD_PHASES.search(text)) is not None and _CODEBUILD_VERSION.search(text):
        return Signal("ci", "ci.content.codebuild", evidence_line(text, m))
    if (jobs := _CONCOURSE_JOBS.search(text)) is not None and _CONCOURSE_PLAN.search(text, jobs.end()):
        return Signal("ci", "ci.content.concourse", evidence_line(text, jobs))
    if (m := _CONCOURSE_PLATFORM.search(text)) is not None and _CONCOURSE_RUN.search(text):
        return Signal("ci", "ci.content.concourse", evidence_line(text, m))
    return _other_ci(text)


def _other_ci(text: str) -> Signal | None:
    if (m := _AZURE_TASK.search(text)) is not None:
        return Signal("ci", "ci.content.azure-pipelines", evidence_line(text, m))
    if (m := _AZURE_POOL.search(text)) is not None and _AZURE_BODY.search(text):
        return Signal("ci", "ci.content.azure-pipelines", evidence_line(text, m))
    if (m := _GITLAB_SCRIPT.search(text)) is not None and _GITLAB_STAGES.search(text) and not snapcraft(text):
        return Signal("ci", "ci.content.gitlab-ci", evidence_line(text, m))
    if (m := _CIRCLE_VERSION.search(text)) is not None and _CIRCLE_BODY.search(text) and _GHA_JOBS.search(text):
        return Signal("ci", "ci.content.circleci", evidence_line(text, m))
    if (m := _DRONE_KIND.search(text)) is not None and _STEPS.search(text):
        return Signal("ci", "ci.content.drone-woodpecker", evidence_line(text, m))
    if (m := _BITBUCKET.search(text)) is not None:
        return Signal("ci", "ci.content.bitbucket", evidence_line(text, m))
    if (m := _CODEFRESH_VERSION.search(text)) is not None and (steps := _CODEFRESH_STEPS.search(text)) is not None \
            and _CODEFRESH_STEP.search(text, steps.end()):
        return Signal("ci", "ci.content.codefresh", evidence_line(text, m))
    if (m := _STEPS.search(text)) is not None and _BUILDKITE_STEP.search(text, m.end()):
        return Signal("ci", "ci.content.buildkite", evidence_line(text, m))
    return None


def _dockerfile(name: str, text: str) -> Signal | None:
    stem, dot, _ = name.rpartition(".")
    if dot and stem and not name.lower().startswith(("dockerfile", "containerfile")):
        return None  # no extension, or a Dockerfile's name with a version after it (`DockerfileV0.1.1`)
    continued = False
    for raw in text.splitlines():
        line = raw.strip()
        if continued or not line or line.startswith("#") or _ARG.match(line):
            # Only ARG may come before the first FROM (`ARG BASE=...` then `FROM ${BASE}`), over continued lines.
            continued = (continued or bool(_ARG.match(line))) and line.endswith("\\")
            continue
        return Signal("iac", "iac.content.dockerfile", line[:120]) if _FROM.match(line) else None
    return None
