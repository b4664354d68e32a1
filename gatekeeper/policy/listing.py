"""`policy list`: the bundle's policies as the loader sees them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gatekeeper.policy.bundle import load_bundle


def list_policies(bundle_dir: Path) -> dict[str, Any]:
    """The bundle's identity and, per policy, name, version, title and default switch."""
    bundle = load_bundle(bundle_dir)
    return {
        "bundle": {"name": bundle.name, "revision": bundle.revision, "commit": bundle.commit, "digest": bundle.digest},
        "policies": [
            {"name": p.name, "version": p.version, "title": p.title, "default": bool(p.default), "owner": p.owner}
            for p in bundle.policies
        ],
    }


def render_text(listing: dict[str, Any]) -> str:
    """A table: policy, version, on by default, title."""
    bundle = listing["bundle"]
    commit = f" commit {bundle['commit'][:12]}" if bundle.get("commit") else ""
    head = f"bundle {bundle['name']} revision {bundle['revision']}{commit}"
    rows = [("policy", "version", "default", "title")] + [
        (p["name"], str(p["version"] or "-"), "on" if p["default"] else "off", p["title"] or "")
        for p in listing["policies"]
    ]
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    lines = ["  ".join([*(c.ljust(w) for c, w in zip(r[:3], widths, strict=True)), r[3]]).rstrip() for r in rows]
    return "\n".join([head, *lines])
