"""Files that pin one tool each (`.nvmrc`, `.python-version`, `.tool-versions`, `rust-toolchain.toml`, …),
Compose files' service images, and the variables of a Makefile a Renovate annotation names: small,
line-oriented, so a patch's hunks read them too.

Renovate updates all of them by default (its nvm, pyenv, asdf, rust-toolchain and docker-compose
managers), Dependabot the Compose images. A one-tool file's, `.tool-versions`' and
`rust-toolchain`'s value is read as written, a version or not (`lts/iron`, `system`, `stable`, `nightly`: attack 23, a
pin moved to one was read as the tool's removal); a Compose image whose reference holds a variable is skipped, but for
a whole reference that is a variable with a default (`${PHPMYADMIN_IMAGE:-phpmyadmin:5@sha256:…}`): Compose runs
the default where the variable is unset (`:-`: or empty), and that is the image the file pins.
"""

from __future__ import annotations

import functools
import re

from gatekeeper.deps import yamlforms
from gatekeeper.deps.docker import image_version, split_image
from gatekeeper.deps.loaders import load_toml, mapping, string, text
from gatekeeper.deps.makepins import commit_pins
from gatekeeper.deps.makerecipes import parse_recipes
from gatekeeper.deps.model import Dependency, ManifestError
from gatekeeper.deps.tools import MAX_RAW, TOOL, annotation, read_annotations, released, tool_name
from gatekeeper.deps.yamlkeys import refuse_file_duplicates, refuse_hunk_duplicates
from gatekeeper.lazy_pattern import lazy

# The file name → the tool it pins (one version a line; pyenv allows several, each a version in use).
ONE_TOOL = {
    ".nvmrc": "node", ".node-version": "node", ".python-version": "python", ".ruby-version": "ruby",
    ".go-version": "go", ".terraform-version": "terraform", ".java-version": "java", ".bun-version": "bun",
    ".bazelversion": "bazel",
}
# asdf/mise plugin names for the tools the rest of the delta names otherwise.
_ASDF = {"nodejs": "node", "golang": "go"}


def _one_tool(tool: str, path: str, data: bytes) -> list[Dependency]:
    out: list[Dependency] = []
    for raw in text(data).splitlines():
        line = raw.split("#", 1)[0].strip()
        if line:  # `node`, `lts/*`, `stable`: as written (attack 23: dropped, a pin moved to one read as removed)
            out.append(Dependency(TOOL, tool_name(tool), line[:MAX_RAW], path, True, "build"))
    return out


def parser_for(tool: str) -> functools.partial[list[Dependency]]:
    return functools.partial(_one_tool, tool)


def parse_tool_versions(path: str, data: bytes) -> list[Dependency]:
    """asdf's `.tool-versions`: `nodejs 20.11.0 [fallback…]` a line; the first version is the one used. A value
    naming where the tool comes from (`ref:BRANCH`, built from a git ref; `path:DIR`; mise's `sub-1:latest`) is
    read as written (red team 12: a move to it was read as the tool's removal); so are `system`, `latest` (attack 23:
    the same removal, which the deps policy lets pass: a pin moved to `latest` is `changed`)."""
    out: list[Dependency] = []
    for raw in text(data).splitlines():
        fields = raw.split("#", 1)[0].split()
        if len(fields) >= 2:
            out.append(Dependency(TOOL, tool_name(_ASDF.get(fields[0], fields[0])), fields[1][:MAX_RAW], path, True,
                                  "build"))
    return out


def tool_versions_residue(data: bytes) -> list[tuple[str, tuple[str, ...]]]:
    """The fallback versions of each `.tool-versions` line (`python 3.12.1 ref:evil`: asdf uses the first one
    installed, which the delta does not read)."""
    lines = (raw.split("#", 1)[0].split() for raw in text(data).splitlines())
    return [(fields[0], tuple(fields[2:])) for fields in lines if len(fields) > 2]


def rust_toolchain_residue(data: bytes) -> object:
    """`rust-toolchain.toml` without its `channel` (a `path` names a folder of binaries that build the crate)."""
    if b"[toolchain]" not in data:
        return None  # the legacy one-line file holds the channel alone
    doc = load_toml(data)
    toolchain = dict(mapping(doc.get("toolchain"), "[toolchain]"))
    toolchain.pop("channel", None)
    return {**doc, "toolchain": toolchain}


def parse_rust_toolchain(path: str, data: bytes) -> list[Dependency]:
    """`rust-toolchain.toml` (`[toolchain] channel = "1.79.0"`) or the legacy one-line `rust-toolchain`."""
    body = text(data)
    if "[toolchain]" not in body:
        return _one_tool("rust", path, data)
    channel = string(mapping(load_toml(data).get("toolchain"), "[toolchain]").get("channel"))
    return [Dependency(TOOL, "rust", channel[:MAX_RAW], path, True, "build")] if channel else []  # `stable` too


# `image: postgres:16.2`, `image: "ghcr.io/org/app@sha256:…"`; a list item `- image:` too.
# `image: ${NAME:-postgres:16.2}` (or `${NAME-…}`): the default, a plain reference.
_IMAGE_KEYS = ("image",)  # the key whose YAML forms yamlforms.py reads
_COMPOSE_IMAGE = lazy(r"""^\s*(?:-\s+)?image\s*:\s*(?P<q>["']?)(?:(?P<ref>[\w][\w.\-/:@]*)|"""
                            r"""\$\{[A-Za-z_][A-Za-z0-9_]{0,99}:?-(?P<default>[\w][\w.\-/:@]*)\})(?P=q)\s*(?:#.*)?$""")


def parse_compose(path: str, data: bytes) -> list[Dependency]:
    """Every `image:` line's image; and, when the file holds a YAML form no line shows an image in (an anchor, an
    alias, a merge key, a flow mapping, a quoted key, a tag, a block scalar), every `image` value of the file read
    as YAML: `x-img: &img nginx:1.27` used as `image: *img` (red team 21, tests/test_redteam21_compose_yaml.py)."""
    body = text(data)
    lines = body.splitlines()
    refuse_file_duplicates(data, lines)  # a service's `image:` twice: Compose refuses the file (yamlkeys.py, round 60)
    out = _compose_lines(path, lines)
    if not yamlforms.has_form(body, _IMAGE_KEYS):
        return out
    seen = {(d.name, d.version) for d in out}
    for _, value in yamlforms.values(data, _IMAGE_KEYS):
        for dep in _compose_lines(path, [f"image: {value}"]):
            if (dep.name, dep.version) not in seen:
                seen.add((dep.name, dep.version))
                out.append(dep)
    return out


def compose_hunks(path: str, data: bytes) -> list[Dependency]:
    """A Compose file's hunk lines (hunks.sides): a changed line in a YAML form the line pattern does not read may
    move an image a line elsewhere uses: a `partial` problem (yamlforms.refuse_changed), never no change."""
    body = text(data)
    refuse_hunk_duplicates(body)
    return _compose_lines(path, yamlforms.refuse_changed(body, _IMAGE_KEYS))


def _compose_lines(path: str, lines: list[str]) -> list[Dependency]:
    out: list[Dependency] = []
    for line in lines:
        if (m := _COMPOSE_IMAGE.match(line)) is not None:
            name, tag, digest = split_image(m.group("ref") or m.group("default"))
            out.append(Dependency("docker", name, image_version(tag, digest), path, True, "runtime"))
    return out


# `NAME := value` (`=`, `?=`, `::=`; `export` before it); the value one word.
_MAKE_VAR = lazy(r"^(?:export\s+)?(?P<var>[A-Z][A-Z0-9_]{0,99})\s*(?::{0,2}|\?)=\s*"
                       r"(?P<value>[^\s#$]{1,300})\s*(?:#.*)?$")
_IMAGE_REF = lazy(r"^[a-z0-9][a-z0-9._/-]{0,254}$")
# A docker tag that names a build (`1.21`, `main-d182bec-20260603-154614`: grafana/tempo's CI tools image, which
# Renovate bumps); one without a digit (`latest`, `main`, `edge`) is a channel that moves, no version. And an image
# variable holding one whole reference (`TEMPO_CI_TOOLS_IMAGE ?= grafana/tempo-ci-tools:main-d182bec-…`), never a
# digest alone (`GOLANG_IMAGE_SHA = sha256:…`, the eighteenth round's `image:tag@digest` parts).
_TAG = lazy(r"^(?=[\w.-]{0,127}\d)[\w][\w.-]{0,127}$")
_WHOLE_REF = lazy(r"^(?!sha\d+:)(?P<image>[a-z0-9][a-z0-9._/-]{0,254}):"
                        r"(?P<tag>(?=[\w.-]{0,127}\d)[\w][\w.-]{0,127})$")
# A command line that runs an image; also a variable holding one (`BUF = docker run … ${TEMPO_CI_TOOLS_IMAGE}`, which
# recipes call as `$(BUF)`).
_RUNS = lazy(r"^(?:[A-Za-z_][\w.]{0,99}\s*(?::{0,3}|[?+!])=)?[\s@-]*(?:sudo\s+)?(?:docker|podman)\s+"
                   r"(?:run|pull|create)\b")
_PAIR_WORDS = frozenset({"DOCKER", "IMAGE", "TAG", "VERSION", "NAME"})


def _pair_key(var: str, word: str) -> tuple[str, ...] | None:
    words = var.split("_")
    key = tuple(w for w in words if w not in _PAIR_WORDS)
    return key if word in words and key else None


def image_pairs(path: str, lines: list[str]) -> list[Dependency]:
    """An image a Makefile's recipe runs, named by two variables that differ only in `IMAGE` and `TAG`
    (terraform-google-modules' `DOCKER_IMAGE_DEVELOPER_TOOLS := cft/developer-tools` beside
    `DOCKER_TAG_VERSION_DEVELOPER_TOOLS := 1.21`, which Renovate bumps), used as `${IMAGE}:${TAG}` on a `docker run`
    (`pull`, `create`) command line, its continuation lines joined. A pair only pushed or built (`docker build -t`: the
    project's own image), a value holding a variable, or a pair without a common word besides those, is not read."""
    runs: list[str] = []  # the command lines that run an image, continuation lines joined
    parts: list[str] = []
    for line in lines:
        parts.append(line.removesuffix("\\"))
        if not line.endswith("\\"):
            if _RUNS.match(parts[0]):
                runs.append(" ".join(parts))
            parts = []
    out: list[Dependency] = []
    for image_var, image, tag_var, tag in variable_pairs(lines).values():
        use = re.compile(rf"[$][({{]{image_var}[)}}]:[$][({{]{tag_var}[)}}]" if image_var != tag_var
                         else rf"[$][({{]{image_var}[)}}](?![\w:])")
        if any(use.search(line) for line in runs):
            set_once(lines, (image_var, tag_var))
            out.append(Dependency("docker", image, tag, path, True, "build"))
    return out


def set_once(lines: list[str], names: tuple[str, ...]) -> None:
    """Raise ManifestError unless each of `names` is set by one line: a second assignment (`DOCKER_IMAGE_X :=
    evil/x` above the `?=` read), `override`, `define`, a target-specific or `$(eval ...)` one decides the image
    the recipe runs, and the line read names another (red team 22: `deps` showed no change)."""
    for name in names:
        # `NAME=$(NAME)` (a recipe's `--build-arg GO_VERSION=$(GO_VERSION)`) hands the value on: no setting (attack 32)
        setting = re.compile(rf"(?<![\w$(]){name}\s*(?::{{1,3}}|[?+!])=|(?<![\w$(]){name}\s*=(?!\$[({{]{name}[)}}])"
                             rf"|\bdefine\s+{name}\b")
        if sum(1 for line in lines if setting.search(line)) > 1:
            raise ManifestError(f"{name} is set more than once (or by override, define, a target or eval): which "
                                "image the recipe runs is not read")


def variable_pairs(lines: list[str]) -> dict[tuple[str, ...], tuple[str, str, str, str]]:
    """The image and tag variables `lines` set in pairs (image_pairs), by their common words: (image variable,
    image, tag variable, tag), whether or not a recipe line runs them. A variable named for a tag is a tag even when
    its name says IMAGE too (`TOOLS_IMAGE_TAG` beside `TOOLS_IMAGE`); an image variable holding a whole `image:tag`
    is one of its own, keyed apart: (variable, image, variable, tag)."""
    images: dict[tuple[str, ...], tuple[str, str]] = {}
    tags: dict[tuple[str, ...], tuple[str, str]] = {}
    whole: dict[tuple[str, ...], tuple[str, str, str, str]] = {}
    for line in lines:
        if (m := _MAKE_VAR.match(line)) is not None:
            var, value = m.group("var"), m.group("value")
            if (key := _pair_key(var, "TAG")) is not None:
                if _TAG.match(value):
                    tags[key] = (var, value)
            elif (key := _pair_key(var, "IMAGE")) is not None and _IMAGE_REF.match(value):
                images[key] = (var, value)
            elif key is not None and (ref := _WHOLE_REF.match(value)) is not None:
                whole[("=", var)] = (var, ref.group("image"), var, ref.group("tag"))
    return {key: (*images[key], *tags[key]) for key in images if key in tags} | whole


# `GOLANGCI_VERSION = 2.12.2`, `GRPCURL_VERSION ?= 1.9.2`: a variable named for a tool released on GitHub that the
# build downloads at that version (dexidp/dex's and Kong's Makefiles, which people and Renovate bump by hand)
_TOOL_VAR = lazy(r"^(?P<tool>[A-Z][A-Z0-9]{0,40}(?:_[A-Z0-9]{1,40}){0,3}?)_VERSION$")
_VERSIONISH = lazy(r"^v?\d[\w.+-]*$")
# and the Go toolchain a Makefile builds with (`GO_VERSION ?= 1.22`, buildkite's elastic-ci-stack and metal3's CAPM3,
# which people bump by hand and pass on as `golang:$(GO_VERSION)` or a build argument): a runtime, no GitHub release
# and the Kubernetes version of the control plane binaries setup-envtest downloads for a kubebuilder project's tests
# (`ENVTEST_K8S_VERSION = 1.27.1`, metal3's `KUBEBUILDER_ENVTEST_KUBERNETES_VERSION`; round 53): the tool `envtest`
# (`ENVTEST_VERSION` is setup-envtest's own release branch, no version)
_TOOLCHAINS = {"go": "go", "golang": "go", "envtest-k8s": "envtest", "envtest-kubernetes": "envtest",
               "kubebuilder-envtest-kubernetes": "envtest"}


def tool_variables(path: str, lines: list[str]) -> list[Dependency]:
    """The `<TOOL>_VERSION` variables of a Makefile whose tool is one released on GitHub the delta knows by name
    (tools._RELEASED) or the Go toolchain (`GO_VERSION`, `GOLANG_VERSION`), at a version (a digit, or `v` and a
    digit, first). A variable under a Renovate annotation is the annotation's (read_annotations); one set more than
    once, or by override, define, a target or eval, is not read: which value the build uses is the Makefile's own
    logic. Any other variable names nothing, as before."""
    return [dep for _, dep in tool_variable_names(path, lines)]


def tool_variable_names(path: str, lines: list[str]) -> list[tuple[str, Dependency]]:
    """(variable, its dependency) of each `<TOOL>_VERSION` variable tool_variables reads."""
    found: dict[str, tuple[str, str]] = {}  # variable → (tool, version); at most one per known tool's spellings
    for index, line in enumerate(lines):
        if (m := _MAKE_VAR.match(line)) is None or (var := _TOOL_VAR.match(m.group("var"))) is None \
                or not _VERSIONISH.match(m.group("value")) or index and annotation(lines[index - 1]) is not None:
            continue
        short = var.group("tool").lower().replace("_", "-")
        if (tool := released(short) or _TOOLCHAINS.get(short)) is not None:
            found.setdefault(m.group("var"), (tool, m.group("value")))
    out: list[tuple[str, Dependency]] = []
    for name, (tool, version) in found.items():  # each distinct variable's lines counted once: linear in the file
        try:
            set_once(lines, (name,))
        except ManifestError:
            continue
        out.append((name, Dependency(TOOL, tool_name(tool), version[:MAX_RAW], path, True, "build")))
    return out


def parse_makefile(path: str, data: bytes) -> list[Dependency]:
    """A Makefile's annotated variables (`# renovate: datasource=go depName=sigs.k8s.io/controller-tools` over
    `CONTROLLER_TOOLS_VERSION ?= v0.21.0`, the kubebuilder layout Renovate's regex managers bump): the tools
    a build downloads; a known tool's `<TOOL>_VERSION` variable (tool_variables); and the images its recipes run by
    an image variable and a tag variable (image_pairs); a repository checked out at a commit pin (makepins.py); what
    its recipes install at a version (makerecipes.py). A variable none of them names is the Makefile's own business:
    not read."""
    lines = text(data).splitlines()
    found = read_annotations(path, lines) + tool_variables(path, lines) + image_pairs(path, lines) \
        + commit_pins(path, lines)
    named = {(dep.ecosystem, dep.name) for dep in found}  # a variable's tool a recipe downloads: named once, as before
    return found + [dep for dep in parse_recipes(path, lines) if (dep.ecosystem, dep.name) not in named]
