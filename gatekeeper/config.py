"""Where things are: the policy bundle to use, and the optional `gatekeeper.yaml` defaults."""

from __future__ import annotations

from pathlib import Path

from gatekeeper.errors import UsageError

MANIFEST = ".manifest"
RULES_FILE = "classification.yaml"


def shipped_policy_dir() -> Path:
    """The bundle shipped beside the package (the repository's `policies/`)."""
    return Path(__file__).resolve().parent.parent / "policies"


def resolve_policy_dir(explicit: str | Path | None) -> Path:
    """The bundle to use: `--policy DIR`, else `./policies` when it is a bundle, else the shipped one."""
    if explicit is not None:
        folder = Path(explicit)
        if not (folder / MANIFEST).is_file():
            raise UsageError(
                f"not a policy bundle: no {MANIFEST} file", where=str(folder), hint="pass --policy DIR naming a bundle folder"
            )
        return folder
    for candidate in (Path.cwd() / "policies", shipped_policy_dir()):
        if (candidate / MANIFEST).is_file():
            return candidate
    raise UsageError("no policy bundle found", hint="pass --policy DIR")
