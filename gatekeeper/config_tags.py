"""The gate's own configuration in the change under review: tagged `guardrail` in the policy input.

Under `--tree` the gate reads `gatekeeper.yaml` and the bundle from BASE (config_source), so a change to them does
not judge itself; but once merged it is what every later gate reads. The tag rules name the usual places
(`/policies/**`, `gatekeeper.yaml`), not the folder BASE's `policy_dir` or a `--policy` inside the checkout names,
nor `policies` below the folder the gate runs in: with `policy_dir: security/gate`, an edit of
`security/gate/.manifest` that switches `core` off was allowed by `--enable guardrails` (red team 13, second round).
The gate knows which files it read, and tags a change to any of them (either side of a rename, a file below the
bundle folder, a folder above it; spellings folded as the self-guard folds them). Under `--tree` it also tags the
files an agent's configuration imports or runs (classify.agentreads: `@docs/rules.md` in CLAUDE.md, a hook's
script, an MCP server), which only the trees show. Only the policy input changes: the packet's claims are compared
with the derivation as it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from gatekeeper.classify.agentreads import agent_reads, reached
from gatekeeper.classify.contexttypes import Context
from gatekeeper.classify.treecontext import TreeContext
from gatekeeper.model import ClassifiedFile, Derived
from gatekeeper.policy.selfguard import Guarded, touching

TAG = "guardrail"
READ_BYTES = 1 << 16  # an agent configuration file: instructions and a few settings


def tag_configuration(derived: Derived, in_use: Sequence[Guarded], context: Context | None = None) -> Derived:
    """`derived` with the files that touch the configuration in use (`in_use`) tagged `guardrail`, and under --tree
    (`context`) the files an agent's configuration loads or runs (classify.agentreads)."""
    hits = {id(item) for item, _, _ in touching(derived.files, in_use) if TAG not in item.tags}
    if isinstance(context, TreeContext):
        objects = context.objects
        named = agent_reads((context.base_tree, context.new_tree), lambda entry: objects.blob(entry.oid, READ_BYTES))
        hits.update(id(item) for item in derived.files if TAG not in item.tags and named and any(
            reached(side, named) for side in (item.change.path, item.change.old_path) if side))
    if not hits:
        return derived
    return replace(derived, files=tuple(_tagged(item) if id(item) in hits else item for item in derived.files))


def _tagged(item: ClassifiedFile) -> ClassifiedFile:
    return replace(item, tags=tuple(sorted({*item.tags, TAG})))
