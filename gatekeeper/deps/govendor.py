"""Go's vendoring before dep and modules: vndr's `vendor.conf` and the `clone` lines of Docker's `hack/vendor.sh`.

vndr (moby, containerd, docker/cli, buildkit until 2019) reads a root `vendor.conf`: a line an import path, the ref it
is vendored at (a commit or a tag) and, optionally, the repository it is fetched from instead (`google.golang.org/grpc
v1.12.0 https://github.com/grpc/grpc-go.git`); `#` starts a comment. The script it replaced, `hack/vendor.sh` (docker
and containerd until 2016), pins the same way through its helper: `clone git IMPORT REF [URL]` (also `hg`, `bzr`).
Each pin is the Go package IMPORT at REF, direct and runtime (the vendored code is compiled in); a URL is part of the
version (`v1.0.1-GA from https://github.com/grpc/grpc-go.git`, as a git-sourced Cargo entry's), so a swapped source is
a change, never the same version. Round 53 (containerd's "vendor: update grpc to v1.0.1-GA" and "Bump runc", named by
no reader). A vendor.conf line of another shape, an import path twice, a `clone` line whose operands are not literal
(`$pkg`) or that names no ref are problems; a vendor.sh's other lines are the script's own code, not read here.
"""

from __future__ import annotations

from gatekeeper.deps.loaders import text
from gatekeeper.deps.model import Dependency, ManifestError
from gatekeeper.lazy_pattern import lazy

ECOSYSTEM = "go"
PATHS = ("vendor.conf", "hack/vendor.sh")
# an import path (`github.com/o/r`, `golang.org/x/net`, `gopkg.in/yaml.v2`), a ref, an optional source: one blank-
# separated run each, a comment after them; no two repetitions share a character at their seams (linear)
_IMPORT = r"[A-Za-z0-9][\w.~-]{0,253}(?:/[\w.~-]{1,253}){0,16}"
_PIN = lazy(rf"^(?P<path>{_IMPORT})[ \t]++(?P<ref>[\w.+-]{{1,128}})(?:[ \t]++(?P<source>[^\s#$`]{{1,512}}))?"
            r"[ \t]*+(?:#.*+)?$")
_CLONE = lazy(r"^[ \t]*+clone[ \t]++(?:git|hg|bzr)[ \t]")


def _dependency(path: str, pin: tuple[str, str, str | None]) -> Dependency:
    name, ref, source = pin
    return Dependency(ECOSYSTEM, name, f"{ref} from {source}" if source else ref, path, True, "runtime")


def _pins(path: str, lines: list[tuple[int, str]]) -> list[Dependency]:
    out: dict[str, Dependency] = {}
    for number, line in lines:
        m = _PIN.match(line.strip())
        if m is None:
            raise ManifestError(f"line {number}: not `IMPORT-PATH REF [SOURCE]`: {line.strip()[:80]!r}")
        if m["path"] in out:
            raise ManifestError(f"line {number}: {m['path']!r} is pinned twice")
        out[m["path"]] = _dependency(path, (m["path"], m["ref"], m["source"]))
    return list(out.values())


def parse_vendor_conf(path: str, data: bytes) -> list[Dependency]:
    """vndr's `vendor.conf`: every line that is not blank or a comment pins one import path."""
    lines = [(n, raw) for n, raw in enumerate(text(data).splitlines(), 1) if raw.split("#", 1)[0].strip()]
    return _pins(path, lines)


def parse_vendor_sh(path: str, data: bytes) -> list[Dependency]:
    """`hack/vendor.sh`'s `clone VCS IMPORT REF [URL]` lines; the script's other lines are not read."""
    lines = []
    for number, raw in enumerate(text(data).splitlines(), 1):
        if (m := _CLONE.match(raw)) is not None:
            lines.append((number, raw[m.end():]))
    return _pins(path, lines)
