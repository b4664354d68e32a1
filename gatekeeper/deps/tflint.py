"""tflint's settings (`.tflint.hcl`): the plugins `tflint --init` downloads and every `tflint` runs.

`plugin "aws" { enabled = true  version = "0.42.0"  source = "github.com/terraform-linters/tflint-ruleset-aws" }`
installs that repository's release binary, checked against the block's `signing_key` when one is given, and tflint
runs it as a program (red team 29, tests/test_redteam29_tflint_plugins.py: a source swapped for a fork, a new plugin,
a key dropped were allowed by `gate --enable deps`, the file being `other` and read by no delta). Each block with a
`source` is a dependency of the `tflint` ecosystem named by its source at its version, the block's label its alias
and its signing key (a digest of it) part of the entry, so a key moved under one version is `changed` (not `tool`,
whose entries are use sites). A block without a source names a ruleset tflint bundles or one already in the plugin
folder, so `config { plugin_dir = "..." }` (a folder of the checkout may hold a binary) is an entry of its own
(`plugin_dir`). Rule blocks and the other settings are not read.

The reader lexes HCL's native syntax as far as these blocks need: quoted strings, `#`, `//` and `/* */` comments,
heredocs, braces. What it does not follow fails closed (a ManifestError, a problem): a string holding a template
(`${`, `%{`), an unterminated string, comment or heredoc, a `plugin` or `config` header of another shape, a value of
`source`, `version`, `signing_key` or `plugin_dir` that is not one literal, a label twice, a file past 1 MiB.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from gatekeeper.deps.loaders import text
from gatekeeper.deps.model import Dependency, ManifestError
from gatekeeper.lazy_pattern import lazy

_READ = frozenset({"source", "version", "signing_key", "plugin_dir"})
_WORD = lazy(r"[A-Za-z0-9_][\w.-]*")
_HEREDOC = lazy(r"<<(-?)([A-Za-z_][\w-]*)[ \t]*\r?\n")
_MAX_BYTES = 1 << 20
_OPEN = frozenset("{[(")
_CLOSE = frozenset("}])")


@dataclass(frozen=True, slots=True)
class _Token:
    kind: str  # "word", "string", "heredoc", "newline" or the punctuation itself
    value: str = ""


def _tokens(body: str) -> list[_Token]:
    out: list[_Token] = []
    at, end = 0, len(body)
    while at < end:
        char = body[at]
        if char == "\n":
            out.append(_Token("newline"))
            at += 1
        elif char in " \t\r":
            at += 1
        elif char == "#" or body.startswith("//", at):
            newline = body.find("\n", at)
            at = end if newline < 0 else newline
        elif body.startswith("/*", at):
            close = body.find("*/", at + 2)
            if close < 0:
                raise ManifestError("an unterminated /* comment")
            at = close + 2
        elif char == '"':
            at = _string(body, at, out)
        elif (heredoc := _HEREDOC.match(body, at)) is not None:
            at = _heredoc(body, heredoc, out)
        elif (word := _WORD.match(body, at)) is not None:
            out.append(_Token("word", word.group()))
            at = word.end()
        else:
            out.append(_Token(char))
            at += 1
    out.append(_Token("newline"))
    return out


def _string(body: str, start: int, out: list[_Token]) -> int:
    at = start + 1
    while at < len(body) and body[at] not in '"\n':
        at += 2 if body[at] == "\\" else 1
    if at >= len(body) or body[at] != '"':
        raise ManifestError("an unterminated string")
    value = body[start + 1:at]
    if "${" in value or "%{" in value:
        raise ManifestError(f"a template in a string ({value[:60]!r}): not read")
    out.append(_Token("string", value))
    return at + 1


def _heredoc(body: str, opening: re.Match[str], out: list[_Token]) -> int:
    """The heredoc up to the first line that is its marker alone (blanks around it allowed: never later than HCL
    ends it), scanned line by line (no pattern compiled per marker: 100,000 heredocs cost 5 s that way)."""
    marker, start = opening.group(2), opening.end()
    at = start
    while at <= len(body):
        newline = body.find("\n", at)
        end = len(body) if newline < 0 else newline
        if body[at:end].strip(" \t\r") == marker:
            out.append(_Token("heredoc", body[start:at]))
            out.append(_Token("newline"))
            return end
        if newline < 0:
            break
        at = newline + 1
    raise ManifestError(f"an unterminated heredoc <<{marker}")


def _blocks(tokens: list[_Token]) -> list[tuple[str, str, dict[str, str]]]:
    """(type, label, the literal attributes read) of each top-level `plugin` and `config` block."""
    found: list[tuple[str, str, dict[str, str]]] = []
    depth, at = 0, 0
    while at < len(tokens):
        token = tokens[at]
        if depth == 0 and token.kind == "word" and token.value in ("plugin", "config"):
            at, block = _block(tokens, at)
            found.append(block)
            continue
        depth += (token.kind in _OPEN) - (token.kind in _CLOSE)
        if depth < 0:
            raise ManifestError("a closing bracket with no opening")
        at += 1
    return found


def _block(tokens: list[_Token], at: int) -> tuple[int, tuple[str, str, dict[str, str]]]:
    kind = tokens[at].value
    labels = tokens[at + 1:at + 3] if kind == "plugin" else tokens[at + 1:at + 2]
    shape = [t.kind for t in labels]
    if (kind == "plugin" and (len(shape) < 2 or shape[0] not in ("string", "word") or shape[1] != "{")) \
            or (kind == "config" and shape != ["{"]):
        raise ManifestError(f"a {kind} block of a shape not read")
    label = labels[0].value if kind == "plugin" else ""
    at += 1 + len(labels)
    attributes: dict[str, str] = {}
    depth = 1
    line_start = True
    while depth > 0:
        if at >= len(tokens):
            raise ManifestError(f"an unterminated {kind} block")
        token = tokens[at]
        if depth == 1 and line_start and token.kind == "word" and token.value in _READ:
            value = tokens[at + 1:at + 4]
            if [t.kind for t in value[:1]] != ["="] or len(value) < 3 or value[1].kind not in ("string", "heredoc") \
                    or value[2].kind not in ("newline", "}"):
                raise ManifestError(f"{kind} {label} {token.value}: not one literal")
            if token.value in attributes:
                raise ManifestError(f"{kind} {label} {token.value}: given twice")
            attributes[token.value] = value[1].value
            at += 3
            line_start = False
            continue
        depth += (token.kind in _OPEN) - (token.kind in _CLOSE)
        line_start = token.kind == "newline" or token.kind == "{"
        at += 1
    return at, (kind, label, attributes)


def parse_tflint(path: str, data: bytes) -> list[Dependency]:
    if len(data) > _MAX_BYTES:  # real settings are a few KiB; the lexer takes ~0.3 s a MiB
        raise ManifestError(f"larger than {_MAX_BYTES >> 20} MiB: not read")
    out: list[Dependency] = []
    labels: set[str] = set()
    for kind, label, attributes in _blocks(_tokens(text(data))):
        if kind == "config":
            if "plugin_dir" in attributes:
                out.append(Dependency("tflint", "plugin_dir", attributes["plugin_dir"], path, True, "dev"))
            continue
        if label in labels:
            raise ManifestError(f"plugin {label!r} declared twice")
        labels.add(label)
        if source := attributes.get("source"):
            key = attributes.get("signing_key")
            options = f"signing_key sha256:{hashlib.sha256(key.encode()).hexdigest()[:16]}" if key else ""
            out.append(Dependency("tflint", source, attributes.get("version", ""), path, True, "dev", alias=label,
                                  options=options))
    return out
