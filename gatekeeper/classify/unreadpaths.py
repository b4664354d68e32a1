"""What tiers 2 and 3 ask of a change alone, before any context: whether any of them may read it (context.refine's fast
path). A gate that derives one patch with two contexts (a patch packet checked under `--tree`: the gate's derivation
and the claims' re-derivation) asks it once per file (packet.Parsed), not once per context."""

from __future__ import annotations

from collections.abc import Sequence

from gatekeeper.classify.diagrams import read_by_head
from gatekeeper.classify.inlinemeta import executable as inline_executable
from gatekeeper.classify.inlinemeta import is_script as inline_script
from gatekeeper.classify.markers import CONFIG_EXTENSIONS, extension
from gatekeeper.classify.shapes import inventory_named
from gatekeeper.classify.sniff import is_candidate
from gatekeeper.classify.tasks import is_script
from gatekeeper.model import ClassifiedFile


def unread_by_path(files: Sequence[ClassifiedFile]) -> tuple[bool, ...]:
    """For each of `files`: no rename, not deps, no configuration type, script, inventory, diagram, PEP 723 script or
    executable (whatever the context: no tier reads it unless a marker or a program's reader claims it)."""
    return tuple(change.old_path is None and item.bucket != "deps"  # (the tests cheapest first)
                 and not config_type(change.path) and not is_script(change.path) and not inventory_named(change.path)
                 and not read_by_head(change.path) and not inline_script(change.path)  # `.pyw`: PEP 723 (attack 15)
                 and not inline_executable(change)  # `bin/sync.uv` run through uv's shebang: PEP 723 (attack 24)
                 for item in files for change in (item.change,))


def config_type(path: str) -> bool:
    """A file type a marker's `config` claim covers or tier 3 reads (what a patch alone cannot settle)."""
    return is_candidate(path) or extension(path.rpartition("/")[2]) in CONFIG_EXTENSIONS
