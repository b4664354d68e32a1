"""What each trusted key may sign: the `namespaces="..."` option of an allowed-signers line.

The option is ssh's (ssh-keygen(1), ALLOWED SIGNERS: `namespaces="namespace-list"`, the keyword case-insensitive, the
value in double quotes), read strictly: the list names namespaces exactly, as no pattern (`*`, `?`, `!`) can widen a
role by accident, and a name gatekeeper does not sign with is an error, not a silent no-op. Each kind of statement is
checked in its own namespace: the runner's packet in `gatekeeper-packet`, an approval in `gatekeeper-approval`, the
gate's decision and log records in `gatekeeper-gate`. A line without the option keeps the roles such a line had in
files written before it, but one: it never approves (an approver's key must be listed for approvals explicitly).
"""

from __future__ import annotations

from gatekeeper.lazy_pattern import lazy

PACKET = "gatekeeper-packet"
APPROVAL = "gatekeeper-approval"
GATE = "gatekeeper-gate"
NAMESPACES = (PACKET, APPROVAL, GATE)
UNLISTED = (PACKET, GATE)  # a line without namespaces=: runner or gate, never an approver
ROLES = {"runner": PACKET, "approver": APPROVAL, "gate": GATE}

_OPTION = lazy(r'(?i:namespaces)=(.*)\Z')
_QUOTED = lazy(r'"([^"]*)"\Z')


def is_option(field: str) -> bool:
    """Whether an allowed-signers field is a namespaces= option (in any case, as ssh reads option keywords)."""
    return _OPTION.match(field) is not None


def parse(field: str) -> tuple[str, ...]:
    """The namespaces a `namespaces="..."` field lists (ValueError saying what to write instead)."""
    found = _OPTION.match(field)
    assert found is not None  # noqa: S101 - callers ask is_option first
    quoted = _QUOTED.match(found.group(1))
    if quoted is None:
        raise ValueError(f'namespaces= takes a list in double quotes, as ssh-keygen reads it: namespaces="{PACKET}"')
    names = quoted.group(1).split(",")
    for name in names:
        if any(mark in name for mark in "*?!"):
            raise ValueError(f"namespace pattern {name!r}: list the namespaces exactly ({', '.join(NAMESPACES)})")
        if name not in NAMESPACES:
            raise ValueError(f"unknown namespace {name!r} (gatekeeper signs in {', '.join(NAMESPACES)})")
    return tuple(dict.fromkeys(names))


def option(namespaces: tuple[str, ...]) -> str:
    """The field that lists `namespaces`."""
    return f'namespaces="{",".join(namespaces)}"'


def allowed(namespaces: tuple[str, ...] | None, namespace: str) -> bool:
    """Whether a line listing `namespaces` (None: no namespaces= option) may sign in `namespace`."""
    return namespace in (UNLISTED if namespaces is None else namespaces)


def refusal(name: str, where: str, namespaces: tuple[str, ...] | None, namespace: str) -> tuple[str, str]:
    """What an error says when `name`'s key (line `where`) signed in a namespace its line does not allow, and the
    hint: the one change to that line that would allow it, when that is what the file's owner means."""
    listed = f"lists namespaces {','.join(namespaces)}" if namespaces is not None else "has no namespaces= option"
    wanted = (namespace,) if namespaces is None else (*namespaces, namespace)
    what = f"signed by {name}, whose line ({where}) {listed}: not trusted in {namespace}"
    return what, f"if {name} should sign in {namespace}, end that line with {option(wanted)}"
