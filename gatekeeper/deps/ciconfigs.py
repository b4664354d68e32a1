"""CI configurations of other systems than GitHub Actions: CircleCI's `.circleci/*.yml` and GitLab's `.gitlab-ci.yml`
(Drone's `.drone.yml` and Woodpecker's pipelines are read as GitLab's: a step's `image:`, `services:`).

What a job runs is fetched by version here as in a workflow, and Renovate's circleci and gitlabci managers bump it:
a job's image (`- image: cimg/openjdk:21.0.4`, GitLab's `image: python:3.12` or `image:` over `name: …`, a GitLab
`services:` entry), a CircleCI orb (`node: circleci/node@5.1.0`: config code the job runs, as an action is), a GitLab
CI component (`- component: $CI_SERVER_FQDN/components/sast/sast@2.0.2`), and what a workflow's lines pin too — a
tool by its environment (`GO_VERSION: "1.22.5"`) or an orb's input (`node-version:`), a package a run line installs
(`npm install -g pnpm@9.1.0`), a Renovate-annotated line. All read line by line (actions._workflow_lines, and the
lines here), so a patch's hunks read them too; a file holding a YAML form a line does not show an image in (an
anchor, an alias) is read whole as YAML for its `image` values, and such a changed line in a hunk is refused
(`partial`), as a workflow's is. A changed line that may be an image whose key the hunk does not show (`- name:
postgres:16` with no `services:` or `image:` above it in the hunk) is refused too, never read as nothing.

Not read: GitLab's `include: project:`/`ref:` pairs and remote includes, CircleCI's `machine: image:` names
(`ubuntu-2204:2024.05.1`, a VM image of CircleCI's, read as an image by name only).
"""

from __future__ import annotations

from gatekeeper.deps import actions
from gatekeeper.deps.docker import image_version, split_image
from gatekeeper.deps.hunks import CHANGED, HUNK
from gatekeeper.deps.loaders import text
from gatekeeper.deps.model import Dependency, ManifestError
from gatekeeper.lazy_pattern import lazy

ORB = "circleci-orb"
COMPONENT = "gitlab-component"
# A mapping key's line (`  name: postgres:16`, `- name: x`) and what follows its colon (no pattern of two repetitions
# that overlap: a long line is matched in one pass); the value is that rest when it is one word, quoted or not.
_KEY_LINE = lazy(r"^(?P<indent> *)(?P<dash>- +)?(?P<key>[A-Za-z_][\w.-]{0,100}) *:(?: +(?P<rest>.*))?$")
_VALUE = lazy(r"^(?P<q>[\"']?)(?P<value>[^\"'\s#]{1,300})(?P=q) *(?:#.*)?$")
# A plain sequence item (`  - postgres:16.3`), quoted or not.
_ITEM_LINE = lazy(r"^(?P<indent> *)- +(?P<q>[\"']?)(?P<value>[^\"'\s#:{}\[\]&*!|>-][^\"'\s#{}]{0,300})(?P=q)"
                        r" *(?:#.*)?$")
_ORB = lazy(r"^(?P<name>[a-z0-9][a-z0-9-]{0,100}/[a-z0-9][a-z0-9-]{0,100})@(?P<version>[\w.:-]{1,100})$")
_COMPONENT = lazy(r"^(?P<name>[^\s@\"']{1,300}/[^\s@\"']{1,300})@(?P<version>[\w.~^-]{1,100})$")
_REF = lazy(r"^[\w][\w.\-/:@]{0,300}$")  # an image reference a `name:` or `services:` item may hold


def parse_circleci(path: str, data: bytes) -> list[Dependency]:
    return actions.parse_workflow(path, data) + _lines(path, text(data).splitlines(), orbs=True, hunks=False)


def circleci_hunks(path: str, data: bytes) -> list[Dependency]:
    return actions.workflow_hunks(path, data) + _lines(path, text(data).splitlines(), orbs=True, hunks=True)


def parse_gitlab_ci(path: str, data: bytes) -> list[Dependency]:
    return actions.parse_workflow(path, data) + _lines(path, text(data).splitlines(), orbs=False, hunks=False)


def gitlab_ci_hunks(path: str, data: bytes) -> list[Dependency]:
    return actions.workflow_hunks(path, data) + _lines(path, text(data).splitlines(), orbs=False, hunks=True)


def _parent(stack: list[tuple[int, str]], column: int, same: bool) -> str | None:
    """The key a line at `column` sits under (`same`: a sequence item may sit at its key's own column); None when the
    lines shown do not say. Pops the keys the line closes."""
    while stack and (stack[-1][0] >= column if not same else stack[-1][0] > column):
        stack.pop()
    return stack[-1][1] if stack else None


def _image(path: str, ref: str) -> Dependency:
    name, tag, digest = split_image(ref)
    return Dependency("docker", name, image_version(tag, digest), path, True, "build")


def _lines(path: str, lines: list[str], *, orbs: bool, hunks: bool) -> list[Dependency]:
    """Orbs, components, and the images a line shows only under its key (`image:` over `name:`, `services:` items);
    a hunk's changed line that may be such an image under a key the hunk does not show is refused."""
    out: list[Dependency] = []
    stack: list[tuple[int, str]] = []  # (column, key) of the mapping keys above the line
    known = not hunks  # whether the lines shown start at the file's top
    for raw in lines:
        if raw == HUNK:
            stack, known = [], False
            continue
        changed, line = raw.startswith(CHANGED), raw.removeprefix(CHANGED)
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        key, item = _KEY_LINE.match(line), _ITEM_LINE.match(line) if "- " in line else None
        if key is not None:
            column = len(key.group("indent")) + len(key.group("dash") or "")
            parent = _parent(stack, column, False)
            stack.append((column, key.group("key")))
            shown = _VALUE.match(key.group("rest") or "")
            if shown is None:
                continue
            value = shown.group("value")
            if orbs and (orb := _ORB.match(value)) is not None and key.group("key") != "image":
                # Renovate names an orb by its key (`win: circleci/windows@5.1.1` is "update dependency win")
                out.append(Dependency(ORB, orb.group("name"), orb.group("version"), path, True, "build",
                                      alias=key.group("key")))
            elif key.group("key") == "component" and (component := _COMPONENT.match(value)) is not None:
                out.append(Dependency(COMPONENT, component.group("name"), component.group("version"), path, True,
                                      "build"))
            elif key.group("key") == "name" and _REF.match(value) and ("/" in value or ":" in value):
                if parent in ("image", "services"):
                    out.append(_image(path, value))
                elif parent is None and not known and changed:
                    raise ManifestError(f"the hunk does not show whose name this is: {line.strip()[:80]!r}")
        elif item is not None:
            value = item.group("value")
            parent = _parent(stack, len(item.group("indent")), True)
            if not _REF.match(value) or not ("/" in value or ":" in value) or value.endswith(":"):
                continue  # no image reference; `- node/install:` opens a mapping (an orb's command)
            if parent == "services":
                out.append(_image(path, value))
            elif parent is None and not known and changed:
                raise ManifestError(f"the hunk does not show whose list item this is: {line.strip()[:80]!r}")
    return out
