"""A Terraform module's `source` address split into the module it names and the git ref that pins it.

Terraform's go-getter reads `?ref=` among the address's query arguments, in any order (`…/vpc.git?depth=1&ref=v1.2.0`);
`depth` only makes the clone shallow. A ref written `tags/0.31.0` or `refs/tags/0.31.0` is the tag 0.31.0
(cloudposse's modules, Dependabot's "Bump subnets from 0.3.6 to 0.31.0"). Any other argument may select content, so
an address holding one keeps its whole query in the name, as it always did. infra.parse_terraform (a whole file) and
hcllines (a patch's lines) read a `source` through here; the module's block label (`module "subnets" {`) is the name
the file gives it, which Dependabot names a git-sourced module by (model.Dependency.alias).
"""

from __future__ import annotations

from gatekeeper.lazy_pattern import lazy

_LABEL = lazy(r'^\s*module\s+"([^"]*)"\s*\{')
_TAG_REF = lazy(r"^(?:refs/)?tags/(?=[^/]+$)")
_SHALLOW = frozenset({"ref", "depth"})


def module_source(source: str) -> tuple[str, str]:
    """(module, ref) of a `source` value: ("git::https://…/vpc.git", "0.31.0") for `…/vpc.git?ref=tags/0.31.0`; the
    ref is "" when the address pins none (a registry module's `version` argument pins it)."""
    name, mark, query = source.partition("?")
    if not mark:
        return source, ""
    pairs = [part.partition("=") for part in query.split("&")]
    refs = [value for key, _, value in pairs if key == "ref"]
    if len(refs) != 1 or any(key not in _SHALLOW for key, _, _ in pairs):
        # the old reading, kept for any other query: the name is the address up to `?ref=`, the ref what follows
        name, _, ref = source.partition("?ref=")
        return name, ref
    return name, _TAG_REF.sub("", refs[0])


def module_label(line: str) -> str:
    """The label of a `module "NAME" {` line; "" for any other line."""
    found = _LABEL.match(line)
    return found.group(1) if found is not None else ""
