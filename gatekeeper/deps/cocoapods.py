"""CocoaPods: `Podfile.lock` (YAML), the pods an iOS/macOS project installs and where each comes from.

`PODS:` lists every installed pod (`AppAuth (1.7.5)`, a mapping when it requires others); a subspec
(`AppAuth/Core`) is part of its pod and is read as the pod. `DEPENDENCIES:` names what the Podfile asks for
(direct; the rest transitive). A pod comes from the CocoaPods trunk unless `SPEC REPOS:` lists it under another
spec repository or `EXTERNAL SOURCES:` gives it a `:git:`/`:path:`/`:podspec:` (with `CHECKOUT OPTIONS:`'s
`:commit:`/`:tag:`): such a pod is named by its source too (`Foo@git+https://…`), and its version carries the
checked-out commit, so a move of its source or commit is never an upgrade within level; a pod whose
`SPEC CHECKSUMS` entry (its podspec's checksum) moves under an unchanged version is a `partial` problem
(`moved_checksums`, overrides.py): another podspec under the old label may fetch other code. The `Podfile` (Ruby)
is not read. From a patch, a modified lockfile is a `partial` problem: which section a hunk line is in, and
a pod's source, are lines the hunk does not show.
"""

from __future__ import annotations

from gatekeeper.deps.loaders import listing, load_yaml, mapping, string
from gatekeeper.deps.model import Dependency, ManifestError
from gatekeeper.lazy_pattern import lazy

_POD = lazy(r"^([^\s()]+) \(([^()\s]+)\)$")
_TRUNK = frozenset({"trunk", "https://github.com/CocoaPods/Specs.git", "https://cdn.cocoapods.org/"})


def _root(name: str) -> str:
    return name.split("/", 1)[0]


def _sources(doc: dict[str, object]) -> dict[str, str]:
    """Pod → the name suffix its source gives it ("" for trunk)."""
    out: dict[str, str] = {}
    for repo, pods in mapping(doc.get("SPEC REPOS"), "SPEC REPOS").items():
        for pod in listing(pods, "SPEC REPOS"):
            if str(repo) not in _TRUNK:
                out[_root(string(pod))] = f"@{repo}"
    checkout = mapping(doc.get("CHECKOUT OPTIONS"), "CHECKOUT OPTIONS")
    for pod, options in mapping(doc.get("EXTERNAL SOURCES"), "EXTERNAL SOURCES").items():
        options = mapping(options, "EXTERNAL SOURCES")
        kind = next((k for k in (":git", ":path", ":podspec", ":http") if k in options), "")
        if not kind:
            raise ManifestError(f"an external source of {pod} in a form this reader does not know")
        out[_root(str(pod))] = f"@{kind[1:]}+{string(options[kind])}"
        pinned = mapping(checkout.get(pod), "CHECKOUT OPTIONS")
        ref = string(pinned.get(":commit")) or string(pinned.get(":tag")) or string(pinned.get(":branch"))
        if ref:
            out[_root(str(pod))] += f"#{ref}"
    return out


def parse_podfile_lock(path: str, data: bytes) -> list[Dependency]:
    doc = mapping(load_yaml(data), "Podfile.lock")
    direct = {_root(string(d).split(" (", 1)[0]) for d in listing(doc.get("DEPENDENCIES"), "DEPENDENCIES")}
    sources = _sources(doc)
    out: dict[str, Dependency] = {}
    for entry in listing(doc.get("PODS"), "PODS"):
        if isinstance(entry, dict) and len(entry) == 1:
            entry = next(iter(entry))
        m = _POD.match(entry) if isinstance(entry, str) else None
        if m is None:
            raise ManifestError(f"a PODS entry in a form this reader does not know: {str(entry)[:80]!r}")
        root = _root(m.group(1))
        source = sources.get(root, "")
        name, _, ref = f"{root}{source}".partition("#")
        version = f"{m.group(2)}@{ref}" if ref else m.group(2)
        seen = out.get(name)
        if seen is not None and seen.version != version:
            raise ManifestError(f"{root}'s subspecs at two versions")
        out[name] = Dependency("cocoapods", name, version, path, root in direct, "runtime")
    return list(out.values())


def _versions(doc: dict[str, object]) -> dict[str, str]:
    out: dict[str, str] = {}
    for entry in listing(doc.get("PODS"), "PODS"):
        entry = next(iter(entry)) if isinstance(entry, dict) and len(entry) == 1 else entry
        if isinstance(entry, str) and (m := _POD.match(entry)) is not None:
            out[_root(m.group(1))] = m.group(2)
    return out


def moved_checksums(base: bytes, head: bytes) -> list[str]:
    """Pods whose podspec checksum moved under the same version (ManifestError when a side does not parse)."""
    sides = [mapping(load_yaml(data), "Podfile.lock") for data in (base, head)]
    versions = [_versions(doc) for doc in sides]
    sums = [mapping(doc.get("SPEC CHECKSUMS"), "SPEC CHECKSUMS") for doc in sides]
    return sorted(f"the podspec checksum of {pod} {versions[1][pod]}" for pod in sums[0].keys() & sums[1].keys()
                  if sums[0][pod] != sums[1][pod] and pod in versions[0]
                  and versions[0][pod] == versions[1].get(pod))
