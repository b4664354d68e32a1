"""The settings files a CI command hands a release or pipeline tool by path (issue 12, tests/test_ci_tool_settings.py).

A workflow step `goreleaser release --config tools/release.yaml` builds, signs and publishes what that file says, and
the commands its `hooks` name run in CI; `release-please --config-file X --manifest-file Y` decides the releases CI
cuts; `gcloud builds submit --config X` runs the Cloud Build pipeline X is; `catalog-cd ... --config X` lists the
repositories whose tasks CI publishes. Under a name or folder no rule knows, such a file was `src` or `other`. With
`--tree`, ciwalk.py makes each file these commands name `ci` (`ci.context.ci-run`) and reads it as a file CI runs.

Only these tools (_TOOLS), never every `--config`: a scan of every labelled repository's CI definitions (label sets
1 to 45, docs/classification.md "Settings a CI step hands a tool") found linters' and test tools' settings
(`.golangci.json`, chart-testing's `ct.yaml`, `lychee.toml`, `asv.conf.json`, updatecli values) labelled `other`
there, against one `ci` file the current rules missed. Deploy tools' files are deployruns.py's (`iac`).

Each command where a command stands (deployruns.py's segments: after `&&`, `;`, `|`, `$(`, `sudo`, `npx`, an
assignment); a commented line names nothing; a wholly variable value names nothing (no path to match); a value with a
variable part is a pattern (ciruns.ANY).
"""

from __future__ import annotations

import re

from gatekeeper.classify.pipinstalls import path_pattern

__all__ = ["may_name", "named"]

# tool: (a word one of which must follow it, none for any; the options whose value is a settings file it runs from)
_TOOLS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "goreleaser": (frozenset(), frozenset({"--config", "-f"})),
    "release-please": (frozenset(), frozenset({"--config-file", "--manifest-file"})),
    "gcloud": (frozenset({"builds"}), frozenset({"--config"})),
    "catalog-cd": (frozenset(), frozenset({"--config"})),
}
_MAY_NAME = re.compile(r"\b(?:goreleaser|release-please|gcloud|catalog-cd)\b")
_SEGMENTS = re.compile(r"&&|\|\||[;&|(`{]|\$\(|\b(?:then|do|else)\b")
_LINE_START = re.compile(r"""^[ \t]*(?:-[ \t]+)?(?:(?:[\w.-]+|"[^"\n]*")[ \t]*:[ \t]+(?:[|>][-+]?[ \t]*)?)?"""
                         r"""(?:-[ \t]+)?"?""")
_WORDS = re.compile(r"""[^\s'"`)]+""")
_PREFIX = frozenset({"sudo", "exec", "env", "time", "nice", "nohup", "command", "npx", "pnpx", "bunx", "run", "!",
                     "if", "@", "-", "+"})
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
_EXPRESSION = re.compile(r"\$\{\{.*?\}\}")


def may_name(text: str) -> bool:
    """`text` names one of the tools somewhere (the cheap first test)."""
    return _MAY_NAME.search(text) is not None


def named(text: str) -> list[str]:
    """The path patterns (pipinstalls.path_pattern) of the settings files the tools' commands in `text` are handed, in
    order, each once."""
    found: list[str] = []
    for line in _EXPRESSION.sub("$x", text).replace("\\\n", " ").splitlines():
        if not _MAY_NAME.search(line) or line.lstrip().startswith("#"):
            continue
        for segment in _SEGMENTS.split(_LINE_START.sub("", line, count=1)):
            words = _WORDS.findall(segment)
            at = 0
            while at < len(words) and (words[at] in _PREFIX or _ASSIGNMENT.match(words[at])):
                at += 1
            if at < len(words):
                found += _handed(words[at].rpartition("/")[2].lower().removesuffix(".exe"), words[at + 1:])
    patterns = [path_pattern(word) for word in found]
    return list(dict.fromkeys(p for p in patterns if p is not None and p.replace("*", "").strip("/.")))


def _handed(command: str, args: list[str]) -> list[str]:
    needs, options = _TOOLS.get(command, (frozenset({"\0"}), frozenset()))
    if needs and not needs & set(args):
        return []
    out = []
    for at, word in enumerate(args):
        name, equals, value = word.partition("=")
        if name in options:
            out.append(value if equals else args[at + 1] if at + 1 < len(args) else "")
    return [word for word in out if word and not word.startswith("-")]
