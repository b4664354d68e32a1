"""Go modules: go.mod (require lines, `// indirect`) and go.sum, both line-oriented, so hunks parse too; and
gomod2nix.toml (the Nix build's lock of the same modules, `[mod."name"] version = ...`)."""

from __future__ import annotations

from gatekeeper.deps.loaders import load_toml, mapping, sourced_version, text
from gatekeeper.deps.model import Dependency, Scope
from gatekeeper.deps.versions import compare
from gatekeeper.lazy_pattern import lazy

# A version is `vX.Y.Z[-pre]` or, as a bot or a person may write it before the go command resolves it, a
# bare commit id or branch (`3f4ff3ca60f5`, `master`): read as what it is (a move that does not order),
# never skipped, so a require line rewritten to a commit is not read as the module's removal.
_REQUIRE = lazy(r"^\s*(?:require\s+)?([^\s()\"=]+)\s+([^\s/()\"=]+)\s*$")
# `replace OLD [vX] => NEW [vY]` (in a block or alone): NEW is the code that is built, so the directive is
# a dependency of its own, `OLD => NEW` at vY (none for a local path): a new or moved replace is a change
# (a fork of a known module beside a bump would otherwise read as the bump). Only `replace` uses `=>`,
# so a hunk line is read as one even when its block's `replace (` opener is not shown. NEW's version, like a
# require's, may be a bare commit id as a bot writes it before the go command resolves it (cilium/hubble's
# `=> github.com/cilium/gobgp/v3 2c4e905b1198`): read as written.
# The `go` directive (the language version, and the least toolchain the go command will run, downloading
# a newer one when the local one is older) and the `toolchain` directive (the toolchain it builds with):
# both are the Go toolchain, named `go` as Renovate and Dependabot name it, the first at scope `runtime`
# (it sets the standard library's semantics), the second at `build`.
_GO_LINE = lazy(r"^go\s+(\d+(?:\.\d+){0,2}(?:(?:rc|beta)\d+)?)$")
_TOOLCHAIN_LINE = lazy(r"^toolchain\s+go(\d+(?:\.\d+){0,2}(?:(?:rc|beta)\d+)?)(?:\+\S+)?$")
_REPLACE = lazy(r"^\s*(?:replace\s+)?([^\s()\"=]+)(?:\s+v\S+)?\s*=>\s*(\S+)(?:\s+([^\s/()\"=]+))?\s*$")


def _split(raw: str) -> tuple[str, bool]:
    """A go.mod line as the go command reads it: the directive before its first `//`, and whether the comment after
    it marks the line indirect (golang.org/x/mod/modfile `isIndirect`: its first word `indirect` alone, or
    `indirect;` before more). Red team 38: a whole line holding `// indirect` was matched uncut, so a `replace`, a
    `toolchain` or a requirement whose comment went on after `indirect` read as nothing while the residue, which
    cuts at `//`, read it as a directive the parser had read."""
    line, cut, comment = raw.partition("//")
    words = comment.split() if cut else []
    return line.strip(), words == ["indirect"] or (len(words) > 1 and words[0] == "indirect;")


def parse_go_mod(path: str, data: bytes) -> list[Dependency]:
    out: list[Dependency] = []
    block = ""
    for raw in text(data).splitlines():
        line, indirect = _split(raw)
        if (swap := _REPLACE.match(line)) is not None:
            out.append(Dependency("go", f"{swap.group(1)} => {swap.group(2)}", swap.group(3) or "", path, True,
                                  "runtime"))
            continue
        if not block and (toolchain := _GO_LINE.match(line) or _TOOLCHAIN_LINE.match(line)) is not None:
            scope: Scope = "runtime" if line.startswith("go") else "build"
            out.append(Dependency("go", "go", toolchain.group(1), path, True, scope))
            continue
        word = line.split("(")[0].strip() if line.endswith("(") else ""
        if word:
            block = word
            continue
        if line == ")":
            block = ""
            continue
        if block in ("replace", "exclude", "retract", "tool", "godebug") or line.startswith(
                ("replace ", "exclude ", "retract ", "module ", "go ", "toolchain ", "tool ", "godebug ")):
            continue
        m = _REQUIRE.match(line)
        if m:
            out.append(Dependency("go", m.group(1), m.group(2), path, not indirect, "runtime"))
    return out


# Directives that are no dependency of the build yet change what it builds or how the program behaves (`godebug
# x509sha1=1`, a `tool`, an `exclude`): go.mod's residue (red team 12), compared by residue.py.
_READ_DIRECTIVES = frozenset({"require", "replace", "go", "toolchain"})
_OTHER_DIRECTIVES = frozenset({"module", "exclude", "retract", "tool", "godebug", "ignore", "go", "toolchain"})


def residue(data: bytes) -> list[str]:
    """go.mod without comments and the lines parse_go_mod reads (require, replace, go, toolchain, and their block
    brackets): each other line with its directive. A hunk side's bare `path version` line (its block not shown) is
    read as a require, as parse_go_mod reads it; any other bare line stays."""
    out: list[str] = []
    block = ""
    for raw in text(data).splitlines():
        line = _split(raw)[0]
        word = line.split()[0] if line else ""
        if not line or line == ")":
            block = "" if line == ")" else block
            continue
        if line.endswith("(") and len(line.split()) == 2:
            block = word
            if block not in _READ_DIRECTIVES:
                out.append(line)
            continue
        directive = block or word
        read = _REPLACE.match(line) if directive == "replace" or "=>" in line else \
            _GO_LINE.match(line) or _TOOLCHAIN_LINE.match(line) if not block and word in ("go", "toolchain") else \
            _REQUIRE.match(line) if directive == "require" or (not block and word not in _OTHER_DIRECTIVES) else None
        if read is not None:
            continue
        out.append(f"{block} {line}" if block else line)
    return out


def parse_go_sum(path: str, data: bytes) -> list[Dependency]:
    """go.sum's modules, each at the highest version whose code it holds a checksum for.

    go.sum is not a lock of what is built but the checksums of every module version the go command read:
    adding one requirement brings in `/go.mod` lines (and sometimes code lines) for older versions of modules
    already there, whose go.mod files minimal version selection consulted. Read version by version, a bump of
    one module was hundreds of "added" and dozens of "downgraded" entries. What is built is a module's code,
    at the highest version required: so a module is its highest version with a code line (no `/go.mod`
    suffix), and a module with `/go.mod` lines only has no code in the build and is no dependency.
    """
    best: dict[str, str] = {}
    for line in text(data).splitlines():
        fields = line.split()
        if len(fields) != 3 or fields[1].endswith("/go.mod"):
            continue
        name, version = fields[0], fields[1]
        if name not in best or (compare("go", version, best[name]) or 0) > 0:
            best[name] = version
    return [Dependency("go", name, version, path, None, "runtime") for name, version in best.items()]


def parse_gomod2nix(path: str, data: bytes) -> list[Dependency]:
    """gomod2nix.toml: `[mod."github.com/x/y"]` tables with the `version` Nix builds (direct: from go.mod). A
    `replaced` module (go.mod's `replace`) is where the code comes from: part of the version (red team 10: a fork
    swapped in under a bump was an in-level upgrade)."""
    doc = load_toml(data)
    return [Dependency("go", name, sourced_version(mapping(entry, name), ("replaced",)), path, None, "runtime")
            for name, entry in mapping(doc.get("mod"), "mod").items()]
