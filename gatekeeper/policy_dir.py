"""Which policy bundle a command uses (`--policy`, `gatekeeper.yaml`, `./policies`, the shipped one)."""

from __future__ import annotations

from pathlib import Path

from gatekeeper.errors import UsageError
from gatekeeper.project_config import load_project_config

MANIFEST = ".manifest"
RULES_FILE = "classification.yaml"


def shipped_policy_dir() -> Path:
    """The bundle shipped with gatekeeper: the checkout's `policies/`, or the wheel's copy of it."""
    package = Path(__file__).resolve().parent
    checkout = package.parent / "policies"
    if (checkout / MANIFEST).is_file():
        return checkout
    return package / "_bundle"


def resolve_policy_dir(explicit: str | Path | None, *, marker: str = MANIFEST) -> Path:
    """The bundle every command uses: `--policy DIR`, else `gatekeeper.yaml`'s `policy_dir`, else `./policies`,
    else the shipped one. A bundle is a folder holding `marker` (`classify` needs only the rules file)."""
    if explicit is not None:
        return _checked(Path(explicit), marker, "pass --policy DIR naming a bundle folder")
    config = load_project_config()
    if config.policy_dir is not None:
        return _checked(config.policy_dir, marker, f"fix `policy_dir` in {config.label} or pass --policy DIR")
    return default_policy_dir(marker)


def default_policy_dir(marker: str = MANIFEST) -> Path:
    """The bundle when neither `--policy` nor `gatekeeper.yaml` names one: `./policies`, else the shipped one."""
    for candidate in (Path.cwd() / "policies", shipped_policy_dir()):
        if (candidate / marker).is_file():
            return candidate
    raise UsageError("no policy bundle found", hint="pass --policy DIR")


def _checked(folder: Path, marker: str, hint: str) -> Path:
    if not (folder / marker).is_file():
        what = f"not a policy bundle: no {MANIFEST} file" if marker == MANIFEST else f"no {marker} in this folder"
        raise UsageError(what, where=str(folder), hint=hint)
    return folder
