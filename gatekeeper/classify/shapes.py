"""Tier 3, continued: content shapes of machines and platforms (cloud-init, Cloud Foundry, CloudFormation
parameter files, NixOS and home-manager configurations) and of CI settings without a fixed file name
(Semaphore pipelines, Concourse team configurations). Each needs two keys of its format, or one that no
other format uses, so that a look-alike (an application's `applications:` list, a Nix package) stays src.
"""

from __future__ import annotations

import re

_FLAGS = re.MULTILINE
_CLOUD_CONFIG = re.compile(r"\A#cloud-config[ \t]*$", _FLAGS)
_CF_APPLICATIONS = re.compile(r"^applications[ \t]*:[ \t]*$", _FLAGS)
_CF_KEY = re.compile(
    r"^[ \t]*(?:-[ \t]+)?(?:buildpacks?|memory|disk_quota|instances|routes|random-route|health-check-type|stack)"
    r"[ \t]*:", _FLAGS)
_CFN_PARAMETER_KEY = re.compile(r'"ParameterKey"[ \t]*:[ \t]*"')
_CFN_PARAMETER_VALUE = re.compile(r'"(?:ParameterValue|UsePreviousValue)"[ \t]*:')
_NIXOS = re.compile(
    r"^[ \t]*(?:system\.stateVersion|home\.stateVersion|boot\.loader\.|boot\.initrd\.|fileSystems\.|"
    r"networking\.hostName|services\.openssh\.|users\.users\.|hardware\.[a-z]+\.enable|"
    r"environment\.systemPackages|home\.packages)", _FLAGS)
_SEMAPHORE_VERSION = re.compile(r"""^version[ \t]*:[ \t]*["']?v1\.0["']?[ \t]*(?:#.*)?$""", _FLAGS)
_SEMAPHORE_BLOCKS = re.compile(r"^blocks[ \t]*:", _FLAGS)
_SEMAPHORE_AGENT = re.compile(r"^(?:agent|[ \t]+task)[ \t]*:", _FLAGS)
_CONCOURSE_ROLES = re.compile(r"^roles[ \t]*:", _FLAGS)
_CONCOURSE_ROLE = re.compile(
    r"""^[ \t]*-[ \t]+name[ \t]*:[ \t]*["']?(?:owner|member|pipeline-operator|viewer)["']?[ \t]*$""", _FLAGS)
_CONCOURSE_AUTH = re.compile(
    r"^[ \t]+(?:github|gitlab|local|oidc|oauth|ldap|saml|cf|bitbucket-cloud|microsoft)[ \t]*:", _FLAGS)


_INVENTORY_META = re.compile(r"""["']_meta["']""")
_INVENTORY_HOSTVARS = re.compile(r"""["']hostvars["']""")
_INVENTORY_LIST = re.compile(r"""--list\b|["']list["']""")


def inventory_script(text: str) -> tuple[str, str, str] | None:
    """An Ansible dynamic inventory script: answers `--list` with JSON whose `_meta` holds `hostvars`."""
    if (m := _INVENTORY_META.search(text)) is not None and _INVENTORY_HOSTVARS.search(text) \
            and _INVENTORY_LIST.search(text):
        return "iac", "iac.content.inventory-script", _line(text, m)
    return None


def shape(name: str, text: str) -> tuple[str, str, str] | None:
    """(bucket, rule id, evidence line) of the first shape `text` (a file's first bytes) has, or None."""
    if (m := _CLOUD_CONFIG.search(text)) is not None:
        return "iac", "iac.content.cloud-init", _line(text, m)
    if (m := _SEMAPHORE_VERSION.search(text)) is not None and _SEMAPHORE_BLOCKS.search(text) \
            and _SEMAPHORE_AGENT.search(text):
        return "ci", "ci.content.semaphore", _line(text, m)
    if (m := _CONCOURSE_ROLE.search(text)) is not None and _CONCOURSE_ROLES.search(text) \
            and _CONCOURSE_AUTH.search(text):
        return "ci", "ci.content.concourse-team", _line(text, m)
    if (m := _CF_APPLICATIONS.search(text)) is not None and _CF_KEY.search(text, m.end()):
        return "iac", "iac.content.cloudfoundry", _line(text, m)
    if (m := _CFN_PARAMETER_KEY.search(text)) is not None and _CFN_PARAMETER_VALUE.search(text):
        return "iac", "iac.content.cloudformation-parameters", _line(text, m)
    if name.lower().endswith(".nix") and (m := _NIXOS.search(text)) is not None:
        return "iac", "iac.content.nixos", _line(text, m)
    return None


def _line(text: str, match: re.Match[str]) -> str:
    start = text.rfind("\n", 0, match.start()) + 1
    end = text.find("\n", match.start())
    return text[start:end if end != -1 else len(text)].strip()[:120]
