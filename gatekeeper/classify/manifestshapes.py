"""Tier 3, continued: files that make Kubernetes manifests without being one (the thirty-eighth set): Carvel ytt
templates and overlays, and an OLM bundle's metadata; and Grafana's and Alertmanager's settings. Same contract as
shapes.py: (bucket, rule id, evidence line) or None.

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


# Grafana's provisioning files (`apiVersion: 1` with `datasources:`, dashboard `providers:`, alerting `groups:` or
# `contactPoints:`, ...) and Alertmanager's settings (a top-level `route:` beside `receivers:`) are the settings of
# outside applications a compose stack or an image mounts: other, as Prometheus' own settings are
# (other.content.prometheus-config); raised from src only: in a chart, a role or beside a kustomization they stay iac.
_GRAFANA_VERSION = lazy(r"^apiVersion[ \t]*:[ \t]*['\"]?1['\"]?[ \t]*(?:#[^\n]*)?$", _FLAGS)
_GRAFANA_KIND = lazy(r"^(?:datasources|deleteDatasources|providers|groups|contactPoints|policies|templates|muteTimes|"
                     r"resetPolicies|deleteContactPoints|notifiers|apps)[ \t]*:", _FLAGS)
_ALERTMANAGER_ROUTE = lazy(r"^route[ \t]*:[ \t]*$", _FLAGS)
_ALERTMANAGER_RECEIVERS = lazy(r"^receivers[ \t]*:", _FLAGS)


def monitoring_settings(name: str, text: str) -> tuple[str, str, str] | None:
    """(other, rule id, evidence line) for Grafana provisioning files and Alertmanager settings, or None."""
    if not name.lower().endswith(_YAML):
        return None
    if (m := _GRAFANA_VERSION.search(text)) is not None and _GRAFANA_KIND.search(text):
        return "other", "other.content.grafana-provisioning", evidence_line(text, m)
    if (m := _ALERTMANAGER_ROUTE.search(text)) is not None and _ALERTMANAGER_RECEIVERS.search(text):
        return "other", "other.content.alertmanager-config", evidence_line(text, m)
    return None
