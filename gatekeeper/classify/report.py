"""What `gatekeeper classify` prints: a patch, a path list or `--explain` paths, as a table or JSON."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from gatekeeper.catfile import shared_processes
from gatekeeper.classify import load_rules, render
from gatekeeper.classify.context import classify_in_context
from gatekeeper.classify.patchcontext import PatchContext
from gatekeeper.classify.pathlist import ListedPath, classify_paths, read_paths
from gatekeeper.diff import parse_patch, refuse_device
from gatekeeper.errors import InputFileError, UsageError
from gatekeeper.packet import open_tree_context
from gatekeeper.policy_dir import RULES_FILE, resolve_policy_dir
from gatekeeper.revrange import resolve_option


@dataclass(frozen=True, slots=True)
class ClassifyRequest:
    """What the command line asked for: exactly one of patch, paths and explain."""

    patch: Path | None
    paths: str | None  # a file name, or "-" for stdin
    policy_dir: Path | None
    fmt: str  # "text" or "json"
    explain: tuple[str, ...]
    tree: str | None = None  # "BASE..HEAD": markers and content from these commits
    repo: Path | None = None  # where they live (default: the current folder)


def classify_report(request: ClassifyRequest, stdin: BinaryIO) -> str:
    """The report for `request` (paths may hold surrogate escapes); UsageError unless exactly one input is given."""
    named = (("PATCH", request.patch), ("--paths", request.paths), ("--explain", request.explain))
    given = [name for name, value in named if value]
    if request.paths and request.tree:
        raise UsageError("--paths does not go with --tree: a path list has no commits to read",
                         where="--paths", hint="classify the change itself: gatekeeper classify --tree BASE..HEAD")
    if len(given) > 1 or not given and request.tree is None:
        raise UsageError(
            "give exactly one of PATCH, --paths FILE|-, --explain PATH or --tree BASE..HEAD "
            "(--tree also goes with PATCH or --explain)"
            + (f" (got {', '.join(given)})" if given else ""),
            hint="see `gatekeeper classify --help`",
        )
    # classify needs only the rules, so a folder holding just classification.yaml will do.
    rules = load_rules(resolve_policy_dir(request.policy_dir, marker=RULES_FILE))
    json_out = request.fmt == "json"
    # The range's ancestry walk and the tree context read through one `git cat-file` (catfile.shared_processes).
    with shared_processes(), open_tree_context(resolve_option(request.tree, request.repo), rules) as tree:
        if request.explain:
            explained = render.explain_with_context(request.explain, rules, tree)
            return (render.explain_json if json_out else render.explain_text)(request.explain, rules, explained)
        if request.patch is not None:
            changes = list(parse_patch(request.patch))
            context = tree or PatchContext(request.patch, changes, rules.context)
            files = classify_in_context(changes, rules, context)
            return (render.files_json(files, rules, context.kind) if json_out
                    else render.files_text(files, show_status=True))
        if tree is not None:
            files = classify_in_context(tree.changes(), rules, tree)
            return render.files_json(files, rules, "tree") if json_out else render.files_text(files, show_status=True)
    listed = _read_listing(request.paths or "-", stdin)
    matches = classify_paths(listed, rules)
    return render.paths_json(listed, matches, rules) if json_out else render.paths_text(listed, matches)


def _read_listing(name: str, stdin: BinaryIO) -> list[ListedPath]:

    if name == "-":
        return read_paths(stdin)
    try:
        with open(name, "rb") as handle:
            refuse_device(os.fstat(handle.fileno()), Path(name), "path list")
            return read_paths(handle)
    except OSError as exc:
        raise InputFileError(f"cannot read path list: {exc.strerror}", where=name) from None
