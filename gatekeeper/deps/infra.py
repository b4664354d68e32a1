"""Infrastructure packages: Helm chart dependencies (Chart.yaml, Chart.lock) and Terraform providers and modules."""

from __future__ import annotations

from gatekeeper.deps.docker import image_version, split_image
from gatekeeper.deps.loaders import listing, load_yaml, mapping, string, text
from gatekeeper.deps.model import Dependency
from gatekeeper.deps.tfsource import module_label, module_source
from gatekeeper.deps.tools import TOOL, annotation, read_annotations, tool_name
from gatekeeper.lazy_pattern import lazy

_PROVIDER = lazy(r'^\s*provider\s+"([^"]+)"\s*\{')
_ATTR = lazy(r'^\s*(source|version)\s*=\s*"([^"]*)"')
_MODULE = lazy(r'^\s*module\s+"[^"]*"\s*\{')
# `required_version = ">= 1.7.1"` of a `terraform {` block: the Terraform CLI the configuration takes, which bots
# move as the tool hashicorp/terraform (vmware-samples' "bump terraform from v1.6.0 to v1.7.1"); a literal constraint
# only (`~> 1.5`, `>= 1.3, < 2.0`), never an expression
TERRAFORM_BLOCK = lazy(r"^terraform\s*\{\s*(?:(?:#|//).*)?$")
# A helm_release's `set { name = "image" value = "registry/app:v0.0.24" }` (zopdev/opentofu-modules' zop-system
# releases): the value of a setting whose last dotted word is an image key (`image`, `controller.image`,
# `proxy.initImage`, `sidecar_image`) holding a whole reference with a tag or digest is that image; `image.tag` or
# `image.repository` alone names nothing (its other half is elsewhere)
SET_OPEN = lazy(r"^\s*set\s*\{\s*$")
SET_NAME = lazy(r'^\s*name\s*=\s*"(?:[\w\-]+\.){0,16}(?:image|[\w\-]*[_\-](?:image|IMAGE)|[a-z][A-Za-z0-9]*Image)"\s*$')
SET_VALUE = lazy(r'^\s*value\s*=\s*"([^"\s$]+(?::[\w][\w.-]*|@sha256:[0-9a-f]{64}))"\s*$')
SET_ONE_LINE = lazy(r'^\s*[\w-]+\s*=\s*[^{}]*$')
REQUIRED_VERSION = lazy(r'^\s*required_version\s*=\s*"\s*((?:[~>=<!]{0,2}\s*v?\d[\w.+-]*\s*,\s*){0,7}'
                        r'[~>=<!]{0,2}\s*v?\d[\w.+-]*)\s*"\s*(?:(?:#|//).*)?$')


def parse_chart(path: str, data: bytes, image: str = "") -> list[Dependency]:
    """A Chart.yaml's (or Chart.lock's) chart dependencies and the application it deploys at its `appVersion`,
    named by `_app_name` (`image`: the one image the chart's values tag with appVersion, when the caller knows
    it: chartapp.py)."""
    doc = mapping(load_yaml(data), path.rsplit("/", 1)[-1])
    # `# renovate: github=prometheus/prometheus` over `appVersion: v3.13.2`: the app the chart deploys
    out: list[Dependency] = read_annotations(path, text(data).splitlines(), "runtime")
    for entry in listing(doc.get("dependencies"), "dependencies"):
        if isinstance(entry, dict) and string(entry.get("name")):
            out.append(Dependency("helm", string(entry["name"]), string(entry.get("version")), path, True, "runtime"))
    if (version := _app_version(doc, text(data).splitlines())) is not None:
        out.append(Dependency("tool", _app_name(doc, image), version, path, True, "runtime"))
    return out


_GITHUB_REPO = lazy(r"^https?://github\.com/([\w.-]+/[\w.-]+?)(?:\.git)?/?$")
# What a patch's hunk shows of a chart's top level: its `name:`, `home:` and `appVersion:` (one plain or quoted word),
# and the items of its `sources:` list
_TOP_KEY = lazy(r"""^(?P<key>name|home|appVersion)[ \t]*:[ \t]*(?P<q>["']?)(?P<value>[^"'\s#{}\[\]]{1,300})(?P=q)"""
                r"""[ \t]*(?:#.*)?$""")
_LIST_ITEM = lazy(r"""^[ \t]*-[ \t]+(?P<q>["']?)(?P<value>[^"'\s#]{1,300})(?P=q)[ \t]*$""")


def hunk_app(lines: list[str], index: int) -> tuple[str, str] | None:
    """From a patch: (application, version) of the unannotated `appVersion:` at `lines[index]` (one side of a hunk),
    named as parse_chart names it from what the hunk shows (a shown `home:` or `sources:` entry whose repository is
    the chart's name, else the chart's `name:`); None when the line is no such key or the hunk shows no top-level
    `name:` (which application it is the rest of the file says)."""
    version = _TOP_KEY.match(lines[index])
    if version is None or version.group("key") != "appVersion":
        return None
    doc: dict[str, object] = {}
    sources: list[str] = []
    in_sources = False
    for line in lines:
        if line[:1].isspace() or line.startswith("-"):
            if in_sources and (item := _LIST_ITEM.match(line)) is not None:
                sources.append(item.group("value"))
            continue
        in_sources = line.rstrip() == "sources:"
        if (key := _TOP_KEY.match(line)) is not None and key.group("key") != "appVersion":
            doc.setdefault(key.group("key"), key.group("value"))
    if not isinstance(doc.get("name"), str):
        return None
    doc["sources"] = sources
    return _app_name(doc, ""), version.group("value")


def _app_version(doc: dict[str, object], lines: list[str]) -> str | None:
    """A chart's `appVersion` (the version of the application it deploys, which its templates use as the
    default image tag) when no Renovate annotation names it (read_annotations reads those)."""
    value = string(doc.get("appVersion")).strip()
    if not value:
        return None
    above = ""
    for line in lines:
        if line.startswith("appVersion:"):
            return None if annotation(above) is not None else value
        if line.strip():
            above = line
    return value


def _app_name(doc: dict[str, object], image: str) -> str:
    """The application a chart deploys, named as Renovate names a GitHub release: the `owner/repo` of the
    chart's `sources:` entry (or `home:`) whose repository is the chart's name (`argo-cd` →
    `argoproj/argo-cd`), else by its `image`, else the chart's own name. A label only: the version and its
    order are what the delta judges."""
    chart = string(doc.get("name")) or "app"
    sources = doc.get("sources")
    for source in [*(sources if isinstance(sources, list) else ()), doc.get("home")]:
        if isinstance(source, str) and (m := _GITHUB_REPO.match(source.strip())) is not None:
            if m.group(1).rsplit("/", 1)[1].lower() == chart.lower():
                return m.group(1)
    return image or chart


def parse_terraform_lock(path: str, data: bytes) -> list[Dependency]:
    out: list[Dependency] = []
    provider = ""
    for line in text(data).splitlines():
        if m := _PROVIDER.match(line):
            provider = m.group(1)
        elif provider and (a := _ATTR.match(line)) and a.group(1) == "version":
            out.append(Dependency("terraform", provider, a.group(2), path, True, "runtime"))
            provider = ""
    return out


_REQUIRED = lazy(r"^\s*required_providers\s*\{")
_HELM_RELEASE = lazy(r'^\s*resource\s+"helm_release"\s+"[^"]*"\s*\{')
_CHART_ATTR = lazy(r'^\s*(chart|version|repository)\s*=\s*"([^"$]*)"\s*$')
# A container image a Terraform resource runs (kubernetes_deployment, google_cloud_run_service, …):
# only a value with a tag or digest, so a VM image name (`debian-12`) is not one.
_IMAGE = lazy(r'^\s*image\s*=\s*"([^"\s$]+(?::[\w][\w.-]*|@sha256:[0-9a-f]{64}))"\s*$')
_ENTRY = lazy(r'^\s*([A-Za-z][\w-]*)\s*=\s*(?:\{|"([^"]*)")')


def provider_alias(local: str, source: str) -> str:
    """A required_providers entry's own name where it is not its source's type (`proxmox-bpg = { source =
    "bpg/proxmox" }`): the name the configuration and Renovate call it by ("update terraform proxmox-bpg to 0.111.1");
    "" where they agree (`aws` for hashicorp/aws)."""
    return local if local.lower() != source.rpartition("/")[2].lower() else ""


def parse_terraform(path: str, data: bytes) -> list[Dependency]:
    """`module` blocks (name = source, alias = the block's label; a `?ref=` becomes the version, else the `version`
    argument: tfsource.py), `required_providers` entries (name = source, `hashicorp/NAME` when none is given; the
    version constraint; alias = the entry's own name where it is not the source's type), helm_release charts,
    container images and Renovate-annotated values."""
    lines = text(data).splitlines()
    # `# renovate: datasource=github-releases depName=kro-run/kro` over a variable's `default = "0.8.4"`: a
    # version the configuration installs that no block above names (aws-samples/eks-workshop-v2)
    out: list[Dependency] = read_annotations(path, lines, "runtime") + _required_version(path, lines) \
        + _set_images(path, lines)
    attrs: dict[str, str] | None = None
    kind, entry, label, depth = "", "", "", 0
    for line in lines:
        if (image := _IMAGE.match(line)) is not None:
            name, tag, digest = split_image(image.group(1))
            out.append(Dependency("docker", name, image_version(tag, digest), path, True, "runtime"))
            continue
        if attrs is None:
            if _HELM_RELEASE.match(line):
                attrs, kind, depth = {}, "helm", line.count("{") - line.count("}")
            elif _MODULE.match(line):
                attrs, kind, depth = {}, "module", line.count("{") - line.count("}")
                label = module_label(line)
            elif _REQUIRED.match(line):
                attrs, kind, depth = {}, "providers", line.count("{") - line.count("}")
            continue
        if kind == "providers" and depth == 1 and (e := _ENTRY.match(line)):
            if e.group(2) is not None:  # the legacy `NAME = "constraint"`
                out.append(Dependency("terraform", f"hashicorp/{e.group(1)}", e.group(2), path, True, "runtime"))
            else:
                entry, attrs = e.group(1), {}
        elif depth == (1 if kind == "module" else 2) and (a := _ATTR.match(line)):
            attrs[a.group(1)] = a.group(2)
        elif kind == "helm" and depth == 1 and (c := _CHART_ATTR.match(line)):
            attrs[c.group(1)] = c.group(2)
        depth += line.count("{") - line.count("}")
        if kind == "providers" and depth == 1 and entry:
            source = attrs.get("source") or f"hashicorp/{entry}"
            out.append(Dependency("terraform", source.removeprefix("registry.terraform.io/"),
                                  attrs.get("version", ""), path, True, "runtime", alias=provider_alias(entry, source)))
            entry, attrs = "", {}
        if depth <= 0 and kind == "helm":
            if attrs.get("chart"):
                out.append(Dependency("helm", attrs["chart"], attrs.get("version", ""), path, True, "runtime"))
            attrs = None
        elif depth <= 0:
            source, ref = module_source(attrs.get("source", ""))
            if kind == "module" and source and not source.startswith(("./", "../")):
                out.append(Dependency("terraform", source, attrs.get("version") or ref, path, True, "runtime",
                                      alias=label))
            attrs = None
    return out


def _required_version(path: str, lines: list[str]) -> list[Dependency]:
    """The `required_version` arguments of the top-level `terraform {` blocks (the tool hashicorp/terraform at that
    constraint); the same argument in any other block (a module's input of that name) or nested deeper is not read."""
    out: list[Dependency] = []
    depth, inside = 0, False
    for line in lines:
        if depth == 0:
            inside = TERRAFORM_BLOCK.match(line) is not None
        elif inside and depth == 1 and (m := REQUIRED_VERSION.match(line)) is not None:
            out.append(Dependency(TOOL, tool_name("terraform"), m.group(1).strip(), path, True, "build"))
        depth = max(depth + line.count("{") - line.count("}"), 0)
    return out


def _set_images(path: str, lines: list[str]) -> list[Dependency]:
    """The images `set { … }` blocks pass a chart (SET_NAME, SET_VALUE): a block of one-line arguments only, read as a
    whole; a block holding anything else (a nested block, a heredoc) names nothing."""
    out: list[Dependency] = []
    at = 0
    while at < len(lines):
        if not SET_OPEN.match(lines[at]):
            at += 1
            continue
        named, value, end = False, None, at + 1
        while end < len(lines) and end - at <= 8 and lines[end].strip() != "}":
            line = lines[end]
            if not (SET_ONE_LINE.match(line) and "<<" not in line or not line.strip()):
                break
            named = named or SET_NAME.match(line) is not None
            value = (m.group(1) if (m := SET_VALUE.match(line)) is not None else value)
            end += 1
        if end < len(lines) and lines[end].strip() == "}" and named and value is not None:
            name, tag, digest = split_image(value)
            out.append(Dependency("docker", name, image_version(tag, digest), path, True, "runtime"))
        at = end
    return out
