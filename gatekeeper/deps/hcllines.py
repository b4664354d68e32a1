"""Terraform (`.tf`) lines a patch shows only as hunks: a provider's or module's `version`, a module's
`source = "…?ref=vX"`, a helm_release's `version` beside its `chart`, a container `image`, a value under a
Renovate annotation. The rules of
edits.py hold (every changed line is one of these or blank; a refusal is a ManifestError, then a `partial`
problem); infra.parse_terraform reads the same from a whole file."""

from __future__ import annotations

from gatekeeper.deps import tools
from gatekeeper.deps.docker import image_version, split_image
from gatekeeper.deps.edits import RANGE, Side
from gatekeeper.deps.infra import (
    REQUIRED_VERSION,
    SET_NAME,
    SET_ONE_LINE,
    SET_OPEN,
    SET_VALUE,
    TERRAFORM_BLOCK,
    provider_alias,
)
from gatekeeper.deps.model import ManifestError, PartlyShown
from gatekeeper.deps.tfsource import module_label, module_source
from gatekeeper.lazy_pattern import lazy

# a trailing comment is the author's note (`version = "2.14.0" # 2.15 pins the provider`), as parse_terraform reads it
_HCL_ATTR = lazy(r'^\s*(source|version)\s*=\s*"([^"]*)"\s*(?:(?:#|//).*)?$')
_HCL_PROVIDER = lazy(r"^\s*([A-Za-z][\w-]*)\s*=\s*\{\s*$")
_HCL_MODULE = lazy(r'^\s*module\s+"[^"]*"\s*\{\s*$')


# `image = "nginx:1.31.0"` of a Kubernetes resource stands alone (infra.parse_terraform reads the same).
_HCL_IMAGE = lazy(r'^\s*image\s*=\s*"([^"\s$|]+(?::[\w][\w.-]*|@sha256:[0-9a-f]{64}))"\s*$')
_HCL_ONE_LINE = lazy(r"^\s*[\w-]+\s*=\s*\S.*$")  # `values = [file("${path.module}/x.yaml")]`
_HCL_CHART = lazy(r'^\s*(chart|repository|source)\s*=\s*"([^"$]*)"\s*$')
_HCL_OPENER = lazy(r'^\s*(?:resource|data|module)\s+"')
_HCL_FETCHED = lazy(r"^\s*(?:source|version)\s*=")  # what a module block fetches, however it is written


def _helm_release(side: Side, index: int, version: str) -> list[tuple[str, ...]]:
    """The `version` of a helm_release whose `chart` (and no module `source`) the hunk shows among the
    one-line attributes of the same block, above or below it; [] when it shows none."""
    chart = ""
    for step in (-1, 1):
        at = index + step
        while 0 <= at < len(side):
            line = side[at][0]
            if not line.strip() or line.strip().startswith(("#", "//")):
                at += step
                continue
            if _HCL_OPENER.match(line) and step == -1:
                if not line.lstrip().startswith('resource "helm_release"'):
                    return []
                break
            if not _HCL_ONE_LINE.match(line) or line.count("{") != line.count("}"):
                break
            if (attr := _HCL_CHART.match(line)) is not None:
                if attr.group(1) == "source":
                    return []  # a module's input named `chart`: the module's own version is the dependency
                if attr.group(1) == "chart":
                    chart = attr.group(2)
            at += step
    return [(chart, version, "helm")] if chart else []


def terraform_line(side: Side, index: int) -> list[tuple[str, ...]]:
    """A `version = "..."` line of a required_providers entry or a module block whose `source` (and,
    for a provider, its `NAME = {` opening) the hunk shows above it in the same block; a helm_release's
    `version` whose `chart` the hunk shows; a container `image = "name:tag"` line."""
    line = side[index][0]
    # A value under a Renovate annotation the hunk shows directly above it (a variable's `default = "0.8.4"`),
    # as infra.parse_terraform reads it. The annotation only adds: a module's, provider's or image's own line
    # is still read as that, and fails closed as that when the hunk does not show whose it is.
    named = tools.annotation(side[index - 1][0]) if index > 0 else None
    dep = tools.annotated(line, named, "") if named is not None else None
    if dep is not None and not _HCL_ATTR.match(line) and not _HCL_IMAGE.match(line):
        return [(dep.name, dep.version, dep.ecosystem)]
    return _terraform_line(side, index) + ([(dep.name, dep.version, dep.ecosystem)] if dep is not None else [])


def _terraform_line(side: Side, index: int) -> list[tuple[str, ...]]:
    line = side[index][0]
    if (image := _HCL_IMAGE.match(line)) is not None:
        name, tag, digest = split_image(image.group(1))
        return [(name, image_version(tag, digest), "docker")]
    m = _HCL_ATTR.match(line)
    if m is not None and m.group(1) == "source" and "ref=" in m.group(2).partition("?")[2]:
        return _module_ref(side, index, m.group(2))
    if m is not None and m.group(1) == "version" and "$" not in m.group(2) \
            and (release := _helm_release(side, index, m.group(2).strip())):
        return release
    if m is None and (legacy := _legacy_provider(side, index)) is not None:
        return legacy
    if m is None and (required := REQUIRED_VERSION.match(line)) is not None:
        return _required_version(side, index, required.group(1).strip())
    if m is None and (value := SET_VALUE.match(line)) is not None and _set_image(side, index):
        name, tag, digest = split_image(value.group(1))
        return [(name, image_version(tag, digest), "docker")]
    if m is None and _module_argument(side, index):
        # an input of the module (round 52, claranet's `enabled = …` → `count = …` beside its bump): not what it
        # fetches, so the hunk's version line is still read; the inputs are reviewed
        raise PartlyShown(f"a module's argument changed beside its version: {line.strip()[:80]!r}", [])
    if m is None or m.group(1) != "version" or not RANGE.match(m.group(2).strip().lstrip("~>=<! ")):
        raise ManifestError(f"not a version line of a provider or module: {line.strip()[:80]!r}")
    source = None
    top = True  # the walk up reaches the hunk's first line through the block's own lines only
    for above, _ in reversed(side[:index]):
        top = False
        if "}" in above or "{" in above and not (_HCL_PROVIDER.match(above) or _HCL_MODULE.match(above)):
            break
        if (attr := _HCL_ATTR.match(above)) is not None:
            if attr.group(1) == "version":
                break
            source = attr.group(2)
            top = True
            continue
        if _HCL_ONE_LINE.match(above) and not _HCL_MODULE.match(above) and not _HCL_PROVIDER.match(above):
            top = True
            continue  # another one-line argument of the same block (`enabled = var.x`, `name = "a"`)
        if source and _HCL_MODULE.match(above) and not source.startswith(("./", "../")):
            return [(module_source(source)[0], m.group(2).strip(), "terraform", "", module_label(above))]
        if (local := _HCL_PROVIDER.match(above)) is not None:
            source = source or _source_below(side, index)
            if source:
                return [(source.removeprefix("registry.terraform.io/"), m.group(2).strip(), "terraform", "",
                         provider_alias(local.group(1), source))]
            break
        if not above.strip() or above.strip().startswith(("#", "//")):
            top = True
            continue
        break
    # The block opens above the hunk: only a provider's source form (`[host/]namespace/type`; a registry module's
    # has three parts, and a module of another source takes no `version`) says whose version this is.
    source = source or (_source_below(side, index) if top else None)
    if top and source and _PROVIDER_SOURCE.match(source):
        return [(source.removeprefix("registry.terraform.io/"), m.group(2).strip())]
    if top and source and _REGISTRY_MODULE.match(source):
        # a registry module's three-part source (`ns/name/provider[//subdir]`) right above the version, across the
        # block's one-line arguments; its `module "…" {` opening is above the hunk (a `count` line between):
        # named as shown, but another block could hold such a pair, so the hunk's reading is reviewed
        raise PartlyShown(f"the hunk does not show the opening of the block whose source is {source[:80]!r}",
                          [(source, m.group(2).strip())])
    raise ManifestError(f"the hunk does not show whose version this is: {line.strip()[:80]!r}")


def _module_argument(side: Side, index: int) -> bool:
    """Whether the line at `index` is a one-line argument (not `source`/`version`) of a `module "…" {` block whose
    opening the hunk shows above it, across the block's one-line arguments, blank lines and comments only."""
    line = side[index][0]
    if not _HCL_ONE_LINE.match(line) or line.count("{") != line.count("}") or _HCL_FETCHED.match(line) \
            or "[" in line and line.count("[") != line.count("]"):
        return False
    for above, _ in reversed(side[:index]):
        if _HCL_MODULE.match(above):
            return True
        stripped = above.strip()
        if stripped and not stripped.startswith(("#", "//")) and (
                not _HCL_ONE_LINE.match(above) or above.count("{") != above.count("}")):
            return False
    return False


def _set_image(side: Side, index: int) -> bool:
    """Whether a `value = "app:tag"` line is a helm_release setting's image (infra.SET_NAME): the hunk shows its
    `set {` opening above and its closing `}` below across one-line arguments only, one of them an image key's
    `name`. Otherwise the line is refused as before (whose value it is, the hunk does not show)."""
    up = index - 1
    while up >= 0 and SET_ONE_LINE.match(side[up][0]) and "<<" not in side[up][0]:
        up -= 1
    down = index + 1
    while down < len(side) and SET_ONE_LINE.match(side[down][0]) and "<<" not in side[down][0]:
        down += 1
    if up < 0 or down >= len(side) or not SET_OPEN.match(side[up][0]) or side[down][0].strip() != "}":
        return False
    return any(SET_NAME.match(line) for line, _ in side[up + 1:down])


def _required_version(side: Side, index: int, constraint: str) -> list[tuple[str, ...]]:
    """A `required_version` line: Terraform's own constraint (tools.TOOL hashicorp/terraform, as
    infra.parse_terraform reads it) when the block holding it, found by its braces walking up, is the top-level
    `terraform {` block, or opens above the hunk (the lines between may close a `required_providers` block opened
    there too, as vmware-samples' versions.tf hunks show); a block the hunk shows opening that is not `terraform {`
    (a module's input of that name) is refused. A module input so named whose `module` line is above the hunk is read
    as Terraform's: no other block takes the argument, and `--tree` reads the whole file."""
    depth = 0
    for above, _ in reversed(side[:index]):
        depth += above.count("}") - above.count("{")
        if depth < 0:
            if TERRAFORM_BLOCK.match(above) and depth == -1:
                break
            raise ManifestError(f"a required_version argument of another block: {above.strip()[:80]!r}")
        if "<<" in above:
            raise ManifestError("a required_version line below a heredoc the hunk cuts")
    return [(tools.tool_name("terraform"), constraint, tools.TOOL)]


_REGISTRY_MODULE = lazy(r"^(?:[\w-]+(?:\.[\w-]+)+/)?[A-Za-z0-9][\w-]*/[A-Za-z0-9][\w-]*/[A-Za-z0-9][\w-]*"
                        r"(?://[\w./-]+)?$")
_HCL_LEGACY = lazy(r'^\s*([A-Za-z][\w-]*)\s*=\s*"([^"$]*)"\s*$')
_HCL_REQUIRED = lazy(r"^\s*required_providers\s*\{\s*$")


def _legacy_provider(side: Side, index: int) -> list[tuple[str, ...]] | None:
    """A required_providers entry in the form before Terraform 0.13, `azurerm = "~> 4.0"` (hashicorp/azurerm at
    that constraint, as infra.parse_terraform reads it), when the hunk shows the `required_providers {` opening
    above it across other such entries, blank lines and comments only; None for anything else."""
    if (m := _HCL_LEGACY.match(side[index][0])) is None or not RANGE.match(m.group(2).strip().lstrip("~>=<! ")):
        return None
    for above, _ in reversed(side[:index]):
        if _HCL_REQUIRED.match(above):
            return [(f"hashicorp/{m.group(1)}", m.group(2).strip())]
        if not (_HCL_LEGACY.match(above) or not above.strip() or above.strip().startswith(("#", "//"))):
            return None
    return None


_PROVIDER_SOURCE = lazy(r"^(?:[\w-]+(?:\.[\w-]+)+/)?[A-Za-z0-9][\w-]*/[A-Za-z0-9][\w-]*$")


def _source_below(side: Side, index: int) -> str | None:
    """A required_providers entry written `version` first (`version = "6.9.0"`, then `source = "integrations/github"`):
    the entry's `source` among the one-line arguments below the version line, before the entry's closing `}`."""
    source = None
    for below, _ in side[index + 1:]:
        if below.strip().startswith("}"):
            return source
        if (attr := _HCL_ATTR.match(below)) is not None:
            if attr.group(1) == "version" or source is not None:
                return None
            source = attr.group(2)
        elif not (not below.strip() or below.strip().startswith(("#", "//"))
                  or _HCL_ONE_LINE.match(below) and "{" not in below and "}" not in below):
            return None
    return None


def _module_ref(side: Side, index: int, source: str) -> list[tuple[str, ...]]:
    """A module's `source = "git::https://…?ref=v2.5.0"` line (terraform-ibm-modules): the ref is the version and the
    block's label the alias, as infra.parse_terraform reads them (tfsource.py), when the hunk shows the `module` block
    opening above it across one-line arguments only (a heredoc's or a nested block's line could be anything's)."""
    name, ref = module_source(source)
    for above, _ in reversed(side[:index]):
        if _HCL_MODULE.match(above):
            if name.startswith(("./", "../")):
                break
            return [(name, ref, "terraform", "", module_label(above))]
        if "<<" in above or "{" in above or "}" in above:
            break
        if not (_HCL_ONE_LINE.match(above) or not above.strip() or above.strip().startswith(("#", "//"))):
            break
    raise ManifestError(f"the hunk does not show whose source this is: {side[index][0].strip()[:80]!r}")
