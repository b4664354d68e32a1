"""What a manifest that is a program (or a list of options) holds besides the dependency lines the delta reads.

The `deps` policy counts a deps file as explained when one change of the delta names it, so any other edit in the
same file rode on that change: a Gradle script's build logic, a Gemfile's `send(:gem, 'evil')` or source block, a
requirements file's `-c URL` or `--trusted-host` beside an ordinary bump (red team 10). Each format's residue is
what its reader leaves unread; a residue that differs between the sides is a `partial` problem (reviewed).
"""

from __future__ import annotations

from gatekeeper.deps import bundler, pypi
from gatekeeper.deps.gradle import code_changed
from gatekeeper.deps.model import ManifestError
from gatekeeper.deps.registry import format_for


def changed(path: str, base: bytes | None, head: bytes | None) -> bool:
    """Whether `path` changed beyond what the delta reads (both sides needed: a new or deleted file is read
    whole). `base`/`head` are whole files, or a patch's hunk sides, read alike."""
    if base is None or head is None:
        return False
    if code_changed(path, base, head):
        return True
    fmt = format_for(path)
    read = bundler.residue if fmt is not None and fmt.parse is bundler.parse_gemfile else \
        pypi.requirements_residue if fmt is not None and fmt.name == "requirements" else None
    if read is None:
        return False
    try:
        return read(base) != read(head)
    except ManifestError:
        return False  # the parsers report an unreadable side themselves
