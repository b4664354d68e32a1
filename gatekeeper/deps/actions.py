"""GitHub Actions: `uses:` of workflow steps, reusable workflows and composite actions (line-oriented),
with the tool versions and runner images the same lines pin (tools.py), the packages their shell commands
install and the GitHub releases they download by tag (runlines.py), the Scala versions a build matrix lists
(scalamatrix.py), and an image an action runs named by a pair of inputs (`renovate-image:` over
`renovate-version:`, renovatebot/github-action's documented form)."""

from __future__ import annotations

from collections.abc import Iterator

from gatekeeper.deps import yamlforms
from gatekeeper.deps.docker import image_version, split_image
from gatekeeper.deps.loaders import text
from gatekeeper.deps.matriximages import matrix_images
from gatekeeper.deps.model import Dependency
from gatekeeper.deps.runlines import installs, releases
from gatekeeper.deps.scalamatrix import scala_versions
from gatekeeper.deps.tools import TOOL, WorkflowTools
from gatekeeper.deps.yamlkeys import refuse_file_duplicates, refuse_hunk_duplicates
from gatekeeper.lazy_pattern import lazy

_USES = lazy(r"""^\s*(?:-\s+)?uses\s*:\s*(?P<q>["']?)(?P<ref>[^"'\s#]+)(?P=q)\s*(?:#\s*(?P<tag>.*))?$""")
# Job containers and service containers: `container: node:20`, `image: postgres:16@sha256:...`.
_IMAGE = lazy(r"""^\s*(?:-\s+)?(?:image|container)\s*:\s*(?P<q>["']?)(?P<ref>[^"'\s#{}$]+)(?P=q)\s*(?:#.*)?$""")
# A version comment: `v4.1.1`, `tag: v4`, `@v6.3.0`, and in a repository of several actions tagged per action
# (grafana/shared-workflows) `create-github-app-token/v0.3.1`, whose prefix must be the action's own path.
_TAG = lazy(r"^(?:tag\s*[:=]\s*|@|(?P<path>[\w.-]+(?:/[\w.-]+)*)/)?(?P<version>v?\d[\w.\-+]*)")
# A pinning tool's comment naming the ref it pinned: sethvargo/ratchet's `ratchet:docker/build-push-action@v7.3.0`
# (the action's own name, with its path for an action in a subfolder) and mheap/pin-github-action's `pin@v4.1.1`.
# A ratchet comment naming another action (`ratchet:exclude`, a copied line) claims nothing about this one.
_PINNED = lazy(r"^(?:ratchet:(?P<action>[\w.-]+/[\w.-]+(?:/[\w.-]+)*)|pin)@(?P<version>v?\d[\w.\-+]*)")
_KEYS = ("uses", "image", "container")  # the keys whose YAML forms yamlforms.py reads
FULL_SHA = lazy(r"^[0-9a-f]{40}$")
# An input naming an image (`renovate-image: ghcr.io/renovatebot/renovate`) and, on the next line, the input of
# the same prefix naming its tag (`renovate-version: 44.39.2@sha256:…`): the image the action runs.
_PAIRED_IMAGE = lazy(r"""^\s*(?P<prefix>[\w-]+)-image\s*:\s*(?P<q>["']?)(?P<ref>[\w.-]+(?:/[\w.-]+)+)(?P=q)"""
                     r"""\s*(?:#.*)?$""")
_PAIRED_TAG = lazy(r"""^\s*(?P<prefix>[\w-]+)-version\s*:\s*(?P<q>["']?)(?P<tag>v?\d[\w.+-]*)"""
                   r"""(?:@(?P<digest>sha256:[0-9a-f]{64}))?(?P=q)\s*(?:#.*)?$""")


def parse_uses(raw: str) -> tuple[str, str, str] | None:
    """(ecosystem, name, ref) of a `uses:` value; None for a local action (`./path`). The name is the
    repository (`github/codeql-action`, also for `github/codeql-action/init`): what a ref versions."""
    if raw.startswith("./") or raw.startswith("."):
        return None
    if raw.startswith("docker://"):
        name, tag, digest = split_image(raw[len("docker://"):])
        return "docker", name, image_version(tag, digest)
    name, at, ref = raw.partition("@")
    return "github-actions", "/".join(name.split("/")[:2]), ref if at else ""


def _label(action: str, comment: str) -> str:
    """The version a full-sha `uses:` line's comment names for `action` (`owner/repo[/path]`); "" for none."""
    pinned = _PINNED.match(comment)
    if pinned is not None:
        own = pinned.group("action") is None or pinned.group("action").lower() == action.lower()
        return pinned.group("version") if own else ""
    tag = _TAG.match(comment)
    sub = action.split("/")[2:]  # `actions/create-github-app-token`
    if tag is not None and tag.group("path") is not None \
            and (not sub or tag.group("path") != sub[-1] and tag.group("path") != "/".join(sub)):
        return ""  # another action's tag in the same repository: no claim about this one
    return tag.group("version") if tag is not None else ""


# A composite action's input default where a step hands the input on whole, `${{ inputs.NAME }}` (round 53, a known
# lead: vikunja's `inputs.version.default: 'v2.13.0'` given to golangci-lint-action's `version:`, a setup action's
# `node-version` default given to actions/setup-node): the version the action runs unless its caller names another.
# Read from the file's top-level `inputs:` block, each input's own `default:` scalar; in a workflow, from the `inputs:`
# of its `on: workflow_call:` (round 54, deps53's lead: a reusable workflow runs its default unless its caller names
# another); a manual run's `workflow_dispatch` inputs are not read.
_INPUTS = lazy(r"^(?P<indent>[ \t]*)inputs\s*:\s*(?:#.*)?$")
_WORKFLOW_CALL = lazy(r"^(?P<indent>[ \t]+)workflow_call\s*:\s*(?:#.*)?$")
_INPUT_NAME = lazy(r"^(?P<indent>[ \t]+)(?P<name>[\w-]{1,100})\s*:\s*(?:#.*)?$")
_INPUT_DEFAULT = lazy(r"""^(?P<indent>[ \t]+)default\s*:\s*(?P<q>["']?)(?P<value>[^"'\s#]{1,200})(?P=q)\s*(?:#.*)?$""")
_INPUT_REF = lazy(r"\$\{\{\s*inputs\.(?P<name>[\w-]{1,100})\s*\}\}")


def _yaml_lines(lines: list[str]) -> Iterator[tuple[int, str]]:
    """(indent, line) of each line that holds a key or value: blank and comment lines skipped."""
    for line in lines:
        if line.strip() and not line.lstrip().startswith("#"):
            yield len(line) - len(line.lstrip()), line


def input_defaults(lines: list[str], workflow: bool = False) -> dict[str, str]:
    """{input: its default} of an action file's top-level `inputs:` block, or (`workflow`) of the `inputs:` block of a
    workflow's `workflow_call:` trigger."""
    out: dict[str, str] = {}
    block, column, name, call = -1, -1, "", -1  # the columns of `inputs:`, of its inputs, and of `workflow_call:`
    for indent, line in _yaml_lines(lines):
        if block >= 0 and indent <= block:
            block = -1  # a key as shallow as `inputs:`: its block has ended
        if call >= 0 and indent <= call:
            call = -1
        if workflow and (trigger := _WORKFLOW_CALL.match(line)) is not None:
            call = len(trigger["indent"])
        elif (m := _INPUTS.match(line)) is not None and (indent == 0 if not workflow else call >= 0 < indent):
            block, column, name = len(m["indent"]), -1, ""
        elif block >= 0 and (m := _INPUT_NAME.match(line)) is not None and (column < 0 or len(m["indent"]) <= column):
            column, name = len(m["indent"]), m["name"]  # an input's own key: its settings sit deeper
        elif block >= 0 and name and (d := _INPUT_DEFAULT.match(line)) is not None and len(d["indent"]) > column:
            out.setdefault(name, d["value"])
    return out


# A step's input read from the environment, `${{ env.NAME }}` (round 54: unison's `version: ${{env.racket_version}}`
# for Bogdanp/setup-racket over the workflow's `env: racket_version: "8.14"`): the value the file's `env:` blocks give
# NAME, when every block that sets it sets the same scalar; a name set to two values, or by no block, stays as written.
_ENV = lazy(r"^(?P<indent>[ \t]*)env\s*:\s*(?:#.*)?$")
_ENV_VALUE = lazy(r"""^(?P<indent>[ \t]+)(?P<name>[\w-]{1,100})\s*:\s*(?P<q>["']?)(?P<value>[^"'\s#${}]{1,200})(?P=q)"""
                  r"""\s*(?:#.*)?$""")
_ENV_REF = lazy(r"\$\{\{\s*env\.(?P<name>[\w-]{1,100})\s*\}\}")


def env_values(lines: list[str]) -> dict[str, str]:
    """{name: value} of the variables the file's `env:` blocks set, each to one scalar wherever it is set (a line deeper
    than a block's entries, a block scalar's text, sets nothing)."""
    found: dict[str, set[str]] = {}
    column, entries = -1, -1  # the column of the `env:` key whose entries the next lines may be, and of its entries
    for indent, line in _yaml_lines(lines):
        if column >= 0 and indent <= column:
            column = -1  # a key as shallow as `env:`: its block has ended
        if (block := _ENV.match(line)) is not None:
            column, entries = len(block["indent"]), -1
        elif column >= 0 and (entries < 0 or indent == entries):
            entries = indent
            m = _ENV_VALUE.match(line)
            found.setdefault(m["name"] if m else line.strip().partition(":")[0], set()).add(m["value"] if m else "")
    return {name: next(iter(values)) for name, values in found.items() if len(values) == 1 and "" not in values}


def parse_workflow(path: str, data: bytes) -> list[Dependency]:
    """Every line's actions, images and tools; and, when the file holds a YAML form no line shows a value in (an
    anchor, alias, merge key, flow mapping, quoted key, JSON, tag, block scalar: yamlforms.py), every `uses`,
    `image` and `container` value of the file read as YAML (red team 21, tests/test_redteam21_workflow_yaml.py).
    An action file's or a reusable workflow's `${{ inputs.NAME }}` is read as the input's default (input_defaults),
    `${{ env.NAME }}` as the value the file's `env:` blocks give it (env_values), an image at `${{ matrix.KEY }}` at
    each value its job's matrix gives KEY (matriximages.py). A mapping that gives a key two values is refused
    (yamlkeys.py: GitHub refuses the file; round 60)."""
    body = text(data)
    lines = body.splitlines()
    refuse_file_duplicates(data, lines)
    action = path.rpartition("/")[2] in ("action.yml", "action.yaml")
    if "inputs." in body and (action or "workflow_call" in body):
        defaults = input_defaults(lines, workflow=not action)
        lines = [_INPUT_REF.sub(lambda m: defaults.get(m["name"], m[0]), line) if "inputs." in line else line
                 for line in lines]
    if "env." in body:
        values = env_values(lines)
        lines = [_ENV_REF.sub(lambda m: values.get(m["name"], m[0]), line) if "env." in line else line
                 for line in lines]
    out = _workflow_lines(path, lines)
    if "matrix." in body:
        out += [dep for dep in matrix_images(path, lines) if dep not in out]
    if not yamlforms.has_form(body, _KEYS):
        return out
    seen = {(d.ecosystem, d.name, d.version) for d in out}
    for key, value in yamlforms.values(data, _KEYS):
        for dep in _workflow_lines(path, [f"{key}: {value}"]):
            if (dep.ecosystem, dep.name, dep.version) not in seen:
                seen.add((dep.ecosystem, dep.name, dep.version))
                out.append(dep)
    return out


def workflow_hunks(path: str, data: bytes) -> list[Dependency]:
    """A workflow's or action's hunk lines (hunks.sides): a changed line in a YAML form the line patterns do not read
    may move an action a line elsewhere runs: a `partial` problem (yamlforms.refuse_changed), never no change. A key
    one hunk shows twice in one mapping is refused, as the whole file is (yamlkeys.py)."""
    body = text(data)
    refuse_hunk_duplicates(body)
    return _workflow_lines(path, yamlforms.refuse_changed(body, _KEYS))


def _workflow_lines(path: str, lines: list[str]) -> list[Dependency]:
    out: list[Dependency] = []
    tools = WorkflowTools(path)
    paired: tuple[str, str] | None = None  # (prefix, image) of the line above
    for line in lines:
        found = tools.line(line)
        version = _PAIRED_TAG.match(line) if paired is not None else None
        if paired is not None and version is not None and version.group("prefix") == paired[0]:
            # the image is what runs: its tag replaces the tool `renovate-version:` names alone
            found = [d for d in found if d.ecosystem != TOOL]
            ref = image_version(version.group("tag"), version.group("digest") or "")
            found.append(Dependency("docker", paired[1], ref, path, True, "build"))
        out += found + installs(path, line) + releases(path, line) + scala_versions(path, line)
        if line.strip():
            pair = _PAIRED_IMAGE.match(line)
            paired = (pair.group("prefix"), pair.group("ref")) if pair is not None else None
        image = _IMAGE.match(line)
        # `image:` keys also appear in `with:` inputs; only a reference with a tag, digest or path counts.
        if image is not None and any(ch in image.group("ref") for ch in "/:@"):
            name, tag, digest = split_image(image.group("ref").removeprefix("docker://"))
            out.append(Dependency("docker", name, image_version(tag, digest), path, True, "build"))
            continue
        m = _USES.match(line)
        if m is None:
            continue
        parsed = parse_uses(m.group("ref"))
        if parsed is not None:
            label = _label(m.group("ref").partition("@")[0], m.group("tag") or "") if FULL_SHA.match(parsed[2]) else ""
            out.append(Dependency(parsed[0], parsed[1], parsed[2], path, True, "build", label))
    return out
