"""Path rules that name a bucket only where no marker or reader says more: weak rules.

A committed `*.patch` is `deps` by its name (`deps.patch-files`: a patch a build applies to a dependency's
sources), and so is a per-file checksum (`deps.checksum-pins`: the pin of a downloaded tool), but the same file inside
a Salt state, a Helm chart, a role or a Terraform module that applies it is what that project deploys. The
context tiers raise only what the path tier left to its catch-all, so a weak rule's file is refined as the
catch-all's file would be: a ci or iac result wins, and so does a `needs-context` tag (a patch that does not show
what decides); otherwise the weak rule's `deps` stands. The name can only add sensitivity, never hide a file from
the readers that make it ci or iac.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, TypeVar

from gatekeeper.model import ClassifiedFile

if TYPE_CHECKING:
    from gatekeeper.classify.ruleset import RuleSet

# Patch files and per-file checksum pins (the sweep16 round: a pin in a chart's or a role's folder is what it deploys);
# the src rules keep a test tree's patch or checksum raisable. Snapshot-test outputs and syntax-test inputs are named,
# not placed: a Kubernetes object named `web.verified.yaml` in a manifests folder is applied with the folder; so are
# YAML and JSON files named like Gemfile fragments (a GitLab job `Gemfile-ci.yml` a pipeline includes; attack 30).
# Build hooks a tool runs by name (`build.rs`, red team 37) are code: a crate CI runs by path keeps its ci.
# Dotfiles kept without their dot (the fifty-sixth set) are settings, unless a Salt state, role or image installs them;
# package-manager settings in a files/ or templates/ folder are deps, unless a playbook, role or state installs them
# (the seventy-second set). Server settings, tool state and tool settings by name (and a test tree's server settings)
# are other unless a marker or reader deploys them (the otherdata1 round).
WEAK_RULES = frozenset({"deps.patch-files", "src.own-patch-files", "deps.checksum-pins", "src.test-checksums",
                        "testdata.snapshot-files", "deps.bundler.fragments", "deps.build-hooks",
                        "other.dotfiles", "deps.gradle.dependency-guard", "deps.installed-settings",
                        "src.test-settings", "other.server-settings", "other.tool-state-and-settings"})
C = TypeVar("C")


def installed_code(item: ClassifiedFile) -> bool:
    """Third-party code committed as installed (vendored, node_modules/, Pods/, Carthage/Checkouts/: attack 18), not
    a manifest: its deps name yields to CI running it or Terraform shipping it, whatever ecosystem installed it."""
    return item.ecosystem == "vendored" or item.rule.endswith(".installed")


def refine_weak(item: ClassifiedFile, rules: RuleSet, context: C,
                refine_one: Callable[[ClassifiedFile, RuleSet, C], ClassifiedFile]) -> ClassifiedFile:
    """`refine_one(item)`, but a weak rule's file is refined as the catch-all's and keeps its own bucket unless
    that says ci or iac."""
    if item.rule not in WEAK_RULES:
        return refine_one(item, rules, context)
    as_source = replace(item, bucket="src", rule=rules.rules[-1].id, ecosystem=None)
    refined = refine_one(as_source, rules, context)
    if refined.bucket in ("ci", "iac"):
        return refined
    return replace(item, tags=tuple(sorted({*item.tags, *refined.tags})))
