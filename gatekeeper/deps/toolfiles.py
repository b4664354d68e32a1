"""Files that pin one tool each (`.nvmrc`, `.python-version`, `.tool-versions`, `rust-toolchain.toml`, …),
Compose files' service images, and the variables of a Makefile a Renovate annotation names: small,
line-oriented, so a patch's hunks read them too.

Renovate updates all of them by default (its nvm, pyenv, asdf, rust-toolchain and docker-compose
managers), Dependabot the Compose images. A value counts only when it names a version (`lts/iron`,
`system`, `stable`, `nightly` name none); a Compose image whose reference holds a variable is skipped.
"""

from __future__ import annotations

import functools
import re

from gatekeeper.deps.docker import image_version, split_image
from gatekeeper.deps.loaders import load_toml, mapping, string, text
from gatekeeper.deps.model import Dependency
from gatekeeper.deps.tools import TOOL, VERSIONISH, read_annotations, tool_name

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
        if line and VERSIONISH.match(line):
            out.append(Dependency(TOOL, tool_name(tool), line, path, True, "build"))
    return out


def parser_for(tool: str) -> functools.partial[list[Dependency]]:
    return functools.partial(_one_tool, tool)


def parse_tool_versions(path: str, data: bytes) -> list[Dependency]:
    """asdf's `.tool-versions`: `nodejs 20.11.0 [fallback…]` a line; the first version is the one used. A value
    naming where the tool comes from (`ref:BRANCH`, built from a git ref; `path:DIR`; mise's `sub-1:latest`) is
    read as written (red team 12: a move to it was read as the tool's removal); `system`, `latest` name none."""
    out: list[Dependency] = []
    for raw in text(data).splitlines():
        fields = raw.split("#", 1)[0].split()
        if len(fields) >= 2 and (VERSIONISH.match(fields[1]) or ":" in fields[1] or "/" in fields[1]):
            out.append(Dependency(TOOL, tool_name(_ASDF.get(fields[0], fields[0])), fields[1], path, True, "build"))
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
    return [Dependency(TOOL, "rust", channel, path, True, "build")] if VERSIONISH.match(channel) else []


# `image: postgres:16.2`, `image: "ghcr.io/org/app@sha256:…"`; a list item `- image:` too.
_COMPOSE_IMAGE = re.compile(r"""^\s*(?:-\s+)?image\s*:\s*(?P<q>["']?)(?P<ref>[\w][\w.\-/:@]*)(?P=q)\s*(?:#.*)?$""")


def parse_compose(path: str, data: bytes) -> list[Dependency]:
    out: list[Dependency] = []
    for line in text(data).splitlines():
        if (m := _COMPOSE_IMAGE.match(line)) is not None:
            name, tag, digest = split_image(m.group("ref"))
            out.append(Dependency("docker", name, image_version(tag, digest), path, True, "runtime"))
    return out


def parse_makefile(path: str, data: bytes) -> list[Dependency]:
    """A Makefile's annotated variables (`# renovate: datasource=go depName=sigs.k8s.io/controller-tools` over
    `CONTROLLER_TOOLS_VERSION ?= v0.21.0`, the kubebuilder layout Renovate's regex managers bump): the tools
    a build downloads. A variable no annotation names is the Makefile's own business: not read."""
    return read_annotations(path, text(data).splitlines())
