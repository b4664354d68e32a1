"""Formats whose files take properties from others (a parent POM, the Directory.Build.props above a project, a
chart's values, the variables of the scripts and version catalog above a Gradle build script): sources.tree_delta reads
them with those at each side, and re-reads the untouched files that use a property a touched one moved.

Each entry: (the format's parser at a commit, the moves of the untouched files that use what the touched ones moved).
Moved out of sources.py in round 53, when the default version catalog joined them.
"""

from __future__ import annotations

from collections.abc import Callable

from gatekeeper.deps import chartapp, gradleprops, mavenprops, msbuildprops
from gatekeeper.deps.model import Change, Dependency, Problem
from gatekeeper.gitobjects import GitObjects

Parser = Callable[[str, bytes], list[Dependency]]
Moves = Callable[[GitObjects, str, str, dict[str, tuple[bytes | None, bytes | None]]],
                 tuple[list[Change], list[Problem]]]

INHERITING: dict[str, tuple[Callable[[GitObjects, str], Parser], Moves]] = {
    "pom.xml": (mavenprops.pom_parser, mavenprops.module_moves),
    "msbuild": (msbuildprops.project_parser, msbuildprops.project_moves),
    "Chart.yaml": (chartapp.chart_parser, chartapp.chart_moves),
    "gradle": (gradleprops.script_parser, gradleprops.script_moves),
    # the default catalog's `[versions]` keys a build script reads as `${libs.versions.kotlin.get()}` (round 53)
    "versions.toml": (gradleprops.catalog_parser, gradleprops.script_moves),
}
