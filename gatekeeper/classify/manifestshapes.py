"""Tier 3, continued: files that make Kubernetes manifests without being one (the thirty-eighth set): Carvel ytt
templates and overlays, and an OLM bundle's metadata. Same contract as shapes.py: (bucket, rule id, evidence line)
or None.

- ytt (`ytt -f config/ -f overlay.yml | kubectl apply -f -`) reads its directives from YAML comments that start
  with `#@`: `#@ load("@ytt:overlay", "overlay")`, `#@overlay/match by=...`, `#@data/values`. An overlay holds only
  the fields it changes (rabbitmq/cluster-operator's `olm/templates/*-overlay.yml`: a Deployment's `spec:` without
  `apiVersion:` or `kind:`), so no Kubernetes signal sees it; what it renders is applied to the cluster.
- An Operator Lifecycle Manager bundle's `metadata/annotations.yaml` names the bundle's media type, manifests
  folder, package and channels (`operators.operatorframework.io.bundle.*`): OLM installs the operator from it.
"""

from __future__ import annotations

import re

from gatekeeper.classify.shapes import evidence_line
from gatekeeper.lazy_pattern import lazy

_FLAGS = re.MULTILINE
_YTT = lazy(r"^#@[ \t]*(?:load\([ \t]*[\"']@ytt:|overlay/(?:match|replace|remove|append|merge|insert)\b|"
            r"data/values(?:-schema)?\b|yaml/text-templated-strings\b)", _FLAGS)
_OLM_BUNDLE = lazy(
    r"^[ \t]*[\"']?operators\.operatorframework\.io\.bundle\.(?:mediatype|manifests|metadata|package|channels)"
    r"\.v1[\"']?[ \t]*:", _FLAGS)
_YAML = (".yaml", ".yml")


def manifest_shape(name: str, text: str) -> tuple[str, str, str] | None:
    """(bucket, rule id, evidence line) when `text` is a ytt template or overlay, or an OLM bundle's annotations."""
    lower = name.lower()
    if not lower.endswith(_YAML):
        return None
    if "#@" in text and (m := _YTT.search(text)) is not None:
        return "iac", "iac.content.ytt", evidence_line(text, m)
    if (m := _OLM_BUNDLE.search(text)) is not None:
        return "iac", "iac.content.olm-bundle-metadata", evidence_line(text, m)
    return None
