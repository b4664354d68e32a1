"""Clojure's `deps.edn` (tools.deps): the libraries `clojure`/`clj` fetches for a project and its aliases.

`{:deps {LIB COORD …} :aliases {:test {:extra-deps {LIB COORD}} …}}`, read as EDN (edn.py). A LIB is a symbol,
`group/artifact` (`cljfmt/cljfmt`) or one name standing for `name/name` (`medley`). A COORD is a map of one source:
`{:mvn/version "1.2.4"}` (a Maven artifact, named `group:artifact` as Maven and its advisories name it, with the
symbol as written kept as `alias`); `{:git/sha "…" :git/tag "v1"}` (`:sha`/`:tag` before tools.deps 0.9), from
`:git/url` or the URL an `io.github.`/`com.github.`/`io.gitlab.`/`com.gitlab.` LIB stands for, named `LIB@git+URL` at
its sha labelled with its tag, so another repository is a new dependency, never the old one's bump; `{:local/root
"../x"}`, named `LIB@path:../x`. The coordinate's other keys (`:exclusions`, `:deps/root`, `:deps/manifest`) and the
alias it sits under are its `options`: a move in them is a change. The alias keys that add or replace libraries are
`:extra-deps`, `:replace-deps`, `:deps`, `:override-deps` and `:default-deps`. A coordinate of no or several sources,
a version that is not a string, a LIB that is not a symbol or a file that is not one EDN map is a problem, never
skipped. From a patch, only one-line entries are read (deps_edn_line). Round 52 (calva's "Bump cljfmt to
0.11.2" named nothing).
"""

from __future__ import annotations

from typing import Any

from gatekeeper.deps import edn
from gatekeeper.deps.hunkreads import Side
from gatekeeper.deps.loaders import text
from gatekeeper.deps.model import Dependency, ManifestError, PartlyShown
from gatekeeper.lazy_pattern import lazy

ECOSYSTEM = "maven"
_ALIAS_DEPS = ("extra-deps", "replace-deps", "deps", "override-deps", "default-deps")
_FORGES = {"io.github.": "https://github.com/", "com.github.": "https://github.com/",
           "io.gitlab.": "https://gitlab.com/", "com.gitlab.": "https://gitlab.com/"}
_SOURCE_KEYS = frozenset({"mvn/version", "git/url", "git/sha", "git/tag", "sha", "tag", "local/root"})
# a patch's line: one library at a Maven version, maybe after its map's openings (`{:deps {`, `:extra-deps {`, an
# alias's `:build {:deps {`), maybe closing maps after it, maybe opening a coordinate its line does not close
# (clojure-lsp's `clj-kondo/clj-kondo {:mvn/version "…"` over `:exclude […]}`, round 54: `close` None); the top-level
# `:deps` map opens on the file's first line as `{:deps {`, and only it
_LIB = r"[A-Za-z*+!_?<>=.-][\w.*+!?<>=-]*+(?:/[A-Za-z*+!_?<>=.-][\w.*+!?<>=-]*+)?+"
# (round 58) after a `;` comment (cljdoc's `org.apache.lucene/lucene-core {:mvn/version "10.3.0"} ;; search engine`), a
# map's bare `{` opening (clojurescript's ` {com.google.javascript/closure-compiler-unshaded {:mvn/version "…"}` below
# `:deps`), or a git coordinate of string keys closed on its line (malli's `:cherry {:extra-deps
# {io.github.squint-cljs/cherry {:git/tag "v0.4.28" :git/sha "81ad8d3"}}}`)
_ENTRY = lazy(r'^\s*+(?P<open>(?:\{?+:[\w/.-]++\s++\{\s*+){1,4}+|\{\s*+)?(?P<lib>' + _LIB + r')\s++\{'
              r'(?::mvn/version\s++"(?P<version>[^"\\;]*+)"|(?P<git>(?::(?:git/(?:tag|sha|url)|sha|tag)\s++"[^"\\;]*+"\s*+){1,3}+))'
              r'(?:\}(?P<close>[\s}]*+))?(?:;[^\n]*+)?$')
_GIT_KEY = lazy(r':(git/tag|git/sha|git/url|sha|tag)\s++"([^"\\;]*+)"')
_TOP = lazy(r"^\{:deps\s++\{\s*+(?!:)")
_COMMENT = lazy(r"^\s*(?:;.*)?$")


def _string(coord: dict[Any, Any], key: str, lib: str) -> str:
    value = coord.get(edn.Keyword(key), "")
    if type(value) is not str:
        raise ManifestError(f"{lib[:80]}: :{key} is not a string")
    return value


def _git_url(lib: str, coord: dict[Any, Any]) -> str:
    if url := _string(coord, "git/url", lib):
        return url
    group, _, artifact = lib.partition("/")
    for prefix, forge in _FORGES.items():
        if group.startswith(prefix) and artifact:
            return f"{forge}{group.removeprefix(prefix)}/{artifact}.git"
    raise ManifestError(f"{lib[:80]}: a git coordinate without :git/url, of a library no forge's name infers it for")


def _dependency(path: str, lib: Any, coord: Any, where: str) -> Dependency:
    if not isinstance(lib, edn.Symbol) or lib == "/":
        raise ManifestError(f"{where}: a library {edn.render(lib)[:80]!r} that is not a symbol")
    if not isinstance(coord, dict):
        raise ManifestError(f"{lib[:80]}: a coordinate that is not a map")
    keys = {k for k in coord if isinstance(k, edn.Keyword) and k in _SOURCE_KEYS}
    given = {"mvn": "mvn/version" in keys, "local": "local/root" in keys,
             "git": bool(keys & {"git/url", "git/sha", "git/tag", "sha", "tag"})}
    sources = [kind for kind, present in given.items() if present]
    if len(sources) != 1:
        raise ManifestError(f"{lib[:80]}: a coordinate of {len(sources)} sources (one of :mvn/version, git, "
                            f":local/root)")
    options = " ".join(f"{edn.render(k)} {edn.render(v)}" for k, v in coord.items() if k not in keys)
    options = "; ".join(part for part in (where, options) if part)
    group, _, artifact = lib.partition("/")
    if sources == ["mvn"]:
        version = _string(coord, "mvn/version", lib)
        return Dependency(ECOSYSTEM, f"{group}:{artifact or group}", version, path, True, "runtime", alias=str(lib),
                          options=options)
    if sources == ["local"]:
        return Dependency(ECOSYSTEM, f"{lib}@path:{_string(coord, 'local/root', lib)}", "", path, True, "runtime",
                          alias=str(lib), options=options)
    sha = _string(coord, "git/sha", lib) or _string(coord, "sha", lib)
    if not sha:
        raise ManifestError(f"{lib[:80]}: a git coordinate without :git/sha")
    tag = _string(coord, "git/tag", lib) or _string(coord, "tag", lib)
    return Dependency(ECOSYSTEM, f"{lib}@git+{_git_url(lib, coord)}", sha, path, True, "runtime", tag=tag,
                      alias=str(lib), options=options)


def _libs(path: str, value: Any, where: str) -> list[Dependency]:
    if value is None:
        return []
    if not isinstance(value, dict):
        raise ManifestError(f"{where or ':deps'}: libraries that are not a map")
    return [_dependency(path, lib, coord, where) for lib, coord in value.items()]


def parse_deps_edn(path: str, data: bytes) -> list[Dependency]:
    """Each library of `:deps` and of each alias, at its version, commit or path."""
    doc = edn.loads(text(data))
    if not isinstance(doc, dict):
        raise ManifestError("a deps.edn that is not a map")
    out = _libs(path, doc.get(edn.Keyword("deps")), "")
    aliases = doc.get(edn.Keyword("aliases"))
    if aliases is not None and not isinstance(aliases, dict):
        raise ManifestError(":aliases is not a map")
    for alias, body in (aliases or {}).items():
        if not isinstance(body, dict):
            continue  # an alias holding other data (a vector of paths): no library
        for key in _ALIAS_DEPS:
            out += _libs(path, body.get(edn.Keyword(key)), f"alias {edn.render(alias)}")
    return out


def deps_edn_line(side: Side, index: int) -> list[tuple[str, ...]]:
    """A changed line of a deps.edn hunk that is one library at a Maven version, in a map whose opening the hunk shows
    above it across such lines: named, beside a `partial` problem unless that opening is the file's `{:deps {` and the
    line closes the library's coordinate; a comment line names nothing; any other line is refused (ManifestError)."""
    line = side[index][0]
    if _COMMENT.match(line):
        return []
    m = _ENTRY.match(line)
    if m is None or "#_" in line:
        raise ManifestError(f"not one library at a Maven version: {line.strip()[:80]!r}")
    group, _, artifact = m["lib"].partition("/")
    pair = (f"{group}:{artifact or group}", m["version"], ECOSYSTEM, "", m["lib"])
    if m["git"] is not None:
        if m["close"] is None:
            raise ManifestError("a git coordinate its line does not close")
        keys = [(edn.Keyword(k), v) for k, v in _GIT_KEY.findall(m["git"])]
        coord = dict(keys)
        if len(coord) != len(keys):
            raise ManifestError(f"{m['lib'][:80]}: a git coordinate that gives one key twice")
        sha = _string(coord, "git/sha", m["lib"]) or _string(coord, "sha", m["lib"])
        if not sha:
            raise ManifestError(f"{m['lib'][:80]}: a git coordinate without :git/sha")
        tag = _string(coord, "git/tag", m["lib"]) or _string(coord, "tag", m["lib"])
        pair = (f"{m['lib']}@git+{_git_url(m['lib'], coord)}", sha, ECOSYSTEM, tag, m["lib"])
    if m["close"] is None:  # its other keys (another source, exclusions) lie below, read only from the whole file
        raise PartlyShown("the library's coordinate map goes on below its line", [pair])
    opening = line if m["open"] else None
    for above, _ in reversed(side[:index]):
        if opening is not None:
            break
        if "#_" in above:
            raise ManifestError("a discard (#_) above the line: whether it is live is not shown")
        if _COMMENT.match(above):
            continue
        entry = _ENTRY.match(above)
        if entry is None or entry["close"] is None or entry["close"].strip():
            break  # another form, or a map closed above: the line's map is not shown
        if entry["open"]:
            opening = above
    if opening is not None and _TOP.match(opening):
        return [pair]
    raise PartlyShown("the hunk does not show the opening of the :deps map the library sits in", [pair])
