"""A Dagger module's `dagger.json`: the engine it is written for and the modules it depends on.

`{"name": "go", "engineVersion": "v0.12.5", "sdk": {"source": "go"}, "dependencies": [{"name": "wolfi", "source":
"github.com/shykes/daggerverse/wolfi@v0.1.4", "pin": "3d608cb5…"}]}`. `engineVersion` is the Dagger engine the module
needs (the tool `dagger`, which people and bots bump: kpenfound/dagger-modules' "update dagger to 0.12.5"); a remote
dependency's or SDK's `source` (`HOST/PATH[@REF]`) is code the engine fetches and runs, named as a Makefile's pinned
checkout is (ecosystem `git`, by its host and path), at its `pin` (the commit) labelled with the ref, or at the ref
when no pin is written. A local source (`./lib`, `../x`) and a built-in SDK (`go`, `python`) are the module's own:
not read. A file that is not JSON, an engineVersion or source that is no string is a problem, never a pass.

From a patch, a changed `"engineVersion": "…"` line is read when the hunk shows the root object opening above it with
only one-line pairs between (the file's first lines); any other changed line is a `partial` problem (edits.py).
Round 53, a known lead since round 52.
"""

from __future__ import annotations

from gatekeeper.deps.hunkreads import Side  # one side of a hunk, (line, changed)
from gatekeeper.deps.loaders import listing, load_json, mapping
from gatekeeper.deps.model import Dependency, ManifestError
from gatekeeper.deps.tools import TOOL
from gatekeeper.lazy_pattern import lazy

ENGINE = "dagger"
_PAIR = lazy(r'^\s*+"([^"\\\n]{1,200})"\s*+:\s*+("[^"\\\n]*+"|true|false|null|-?\d[\d.eE+-]{0,40})\s*+,?\s*+$')
# `HOST/PATH[@REF]`: a host with a dot (`github.com`), one to sixteen path parts, a ref of no blank or `@`
_SOURCE = lazy(r"^(?P<where>[A-Za-z0-9][\w.-]{0,252}\.[A-Za-z]{2,63}(?:/[\w.~-]{1,200}){1,16})"
               r"(?:@(?P<ref>[^\s@]{1,200}))?$")


def _text(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise ManifestError(f"{what}: not a string")
    return value


def _remote(path: str, spec: dict[str, object], what: str) -> Dependency | None:
    source = _text(spec.get("source"), f"{what}'s source")
    if source.startswith((".", "/")) or "/" not in source:
        return None  # a local module, or a built-in SDK by its name (`go`): the module's own
    m = _SOURCE.match(source)
    if m is None:
        raise ManifestError(f"{what}: a source this reader does not know: {source[:80]!r}")
    pin, ref = _text(spec["pin"], f"{what}'s pin") if spec.get("pin") is not None else "", m.group("ref") or ""
    if not pin and not ref:
        raise ManifestError(f"{what}: {m.group('where')!r} has no ref and no pin")
    return Dependency("git", m.group("where"), pin or ref, path, True, "build", pin and ref)


def parse_dagger_json(path: str, data: bytes) -> list[Dependency]:
    """The engine (the tool `dagger`), each remote dependency and a remote SDK at its pin or ref."""
    doc = mapping(load_json(data), "dagger.json")
    out: list[Dependency] = []
    if (engine := doc.get("engineVersion")) is not None:
        out.append(Dependency(TOOL, ENGINE, _text(engine, "engineVersion"), path, True, "build"))
    sdk = doc.get("sdk")
    if isinstance(sdk, dict) and (dep := _remote(path, sdk, "sdk")) is not None:
        out.append(dep)
    elif sdk is not None and not isinstance(sdk, dict) and (dep := _remote(path, {"source": sdk}, "sdk")) is not None:
        out.append(dep)
    for index, item in enumerate(listing(doc.get("dependencies", []), "dependencies")):
        if (dep := _remote(path, mapping(item, f"dependencies[{index}]"), f"dependencies[{index}]")) is not None:
            out.append(dep)
    return out


def dagger_json_line(side: Side, index: int) -> list[tuple[str, ...]]:
    """A changed `"engineVersion"` line under the root object's opening the hunk shows; any other line is refused."""
    line = side[index][0]
    pair = _PAIR.match(line)
    if pair is None or pair.group(1) != "engineVersion" or not pair.group(2).startswith('"'):
        raise ManifestError(f"not a dagger.json engineVersion line: {line.strip()[:80]!r}")
    above = [shown for shown, _ in side[:index]]
    if not above or above[0].strip() != "{" or not all(_PAIR.match(shown) for shown in above[1:]):
        raise ManifestError("the hunk does not show the root object above engineVersion")
    return [(ENGINE, pair.group(2).strip('"'), TOOL)]
