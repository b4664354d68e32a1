"""The files a README tells its reader to deploy by path (the fifty-first set, test_classify_fiftyfirst_classes.py).

A tutorial's README runs the deploy commands CI would: `helm install --values consul/config.yaml consul
hashicorp/consul` in hashicorp-education/learn-consul-kubernetes' `api-gateway/local/README.md` installs the Consul
chart with `consul/config.yaml`, a Helm values file under a name no rule knows; it was `src`, and an edit of it
changes what runs in the reader's cluster. A file that a deploy command in a README's code (a fenced block or an
inline code span) names is `iac` (`iac.context.doc-deployed`), as the same command in a CI definition makes it
(deployruns.py reads the commands: `helm` `-f`/`--values` and its chart, `kubectl apply -f`/`-k`, `kustomize build`,
`terraform -chdir`/`-var-file`, `ansible-playbook`, the cloud deploy commands).

Found as heatfiles.py finds what Heat templates ship (its `Shipped`, without a root file): the READMEs in the folders
above a changed file and directly inside those folders' sub-folders, each word resolved against each folder from the
README's own up to the root (the reader runs the commands from one of them; over-reading makes a file `iac`, a
review). Only README documents are read (`README.md`, `README.markdown`, `README.rst`, any case), not other docs,
and only their code: prose naming a file deploys nothing. *Limits:* a command's `.` (the folder the reader stands in),
a path with a variable part and a URL name nothing; a named folder claims nothing below it (a chart's or a manifest
folder's files are known by their own rules; claiming a folder raised its docs and test suites in the older sets); a
README in test data is not read.
"""

from __future__ import annotations

import re

from gatekeeper.classify import deployruns
from gatekeeper.classify.heatfiles import PAST, Shipper
from gatekeeper.classify.markers import against_ancestors
from gatekeeper.classify.sniff import FULL_READ
from gatekeeper.lazy_pattern import lazy

__all__ = ["DOCS", "RULE", "named"]

RULE = "iac.context.doc-deployed"
_TYPES = ("README.md", "readme.md", "Readme.md", "README.markdown", "README.rst", "readme.rst")
_NAMES = ("readme.md", "readme.markdown", "readme.rst")
# A fenced block (``` or ~~~, its info string dropped), a reStructuredText literal block is read as its lines, and an
# inline code span of one line.
# (Read by `_fenced` as `^[ \t]*(`{3,}|~{3,})[^\n]*\n(.*?)^[ \t]*\1` (MULTILINE, DOTALL) reads: that pattern tried every
# shorter fence of a long unclosed run again to the text's end, quadratic: 4 Ki backticks 28 ms, 64 Ki seconds.)
_FENCE_LINE = lazy(r"[ \t]*(`{3,}|~{3,})")
_INLINE = lazy(r"(?<!`)(`{1,2})([^`\n]{1,2000})\1(?!`)")
_PROMPT = lazy(r"^[ \t]*(?:\$|>|#|PS>)[ \t]+", re.MULTILINE)  # a shell prompt before a command
# A README in a test-data folder (principle 1) describes fixtures: it is not read (the rules call any README a document,
# so the Shipped test of a test's file does not see it).
_TEST_DATA = lazy(r"(?:^|/)(?:testdata|test-data|test_data|__fixtures__|fixtures|__snapshots__)/", re.IGNORECASE)
_MAX_WORDS = 256  # paths one README names (deployruns' bound for a definition); past it every file near counts (PAST)


def named(readme: str, data: bytes) -> tuple[str, ...]:
    """The repository paths the deploy commands of a README's code name, against each folder from the README's own up
    to the root (none when `readme` is no README document, or its code names no deploy command)."""
    if readme.rpartition("/")[2].lower() not in _NAMES or _TEST_DATA.search(readme) is not None:
        return ()
    text = data.decode("utf-8", "replace")
    if not deployruns.may_deploy(text, False):
        return (PAST,) if len(data) > FULL_READ else ()
    bodies, rest = _fenced(text)
    code = bodies + [span for _, span in _INLINE.findall(rest)]
    words = deployruns.targets(_PROMPT.sub("", "\n".join(code)), False)
    out: list[str] = []
    for word in words[:_MAX_WORDS]:
        if word.startswith(deployruns.HERE) or "*" in word or "://" in word or word.startswith("/"):
            continue  # the folder the reader stands in, a variable part, a URL, an absolute path: no file of ours
        out += against_ancestors(readme, word)
    if len(words) > _MAX_WORDS or len(data) > FULL_READ:
        out.append(PAST)  # what it names past the bound is not known (red team 38: fail closed)
    return tuple(dict.fromkeys(out))


def _fenced(text: str) -> tuple[list[str], str]:
    """The bodies of the fenced blocks, and the text without them, in one pass over the lines. A block opens on a line
    of 3 or more backticks or tildes (blanks before, an info string after, a newline ending it) and closes at the
    first later line that starts with as many of them; an opening run longer than any later one closes at the first
    line holding the longest later run (the fence shortened to it), and one with no later run of 3 is no block."""
    starts, runs = [0], []
    for line in text.split("\n"):
        starts.append(starts[-1] + len(line) + 1)
        fence = _FENCE_LINE.match(line)
        runs.append((fence.group(1)[0], len(fence.group(1)), fence.start(1)) if fence else None)
    longest: dict[str, int] = {"`": 0, "~": 0}
    after = [dict(longest)]  # after[k]: the longest run of each kind on the lines after line len(runs) - 1 - k
    for run in reversed(runs):
        if run is not None:
            longest[run[0]] = max(longest[run[0]], run[1])
        after.append(dict(longest))
    bodies, kept, at, index = [], [], 0, 0
    while index < len(runs) - 1:  # the last line ends with no newline: it opens nothing
        run = runs[index]
        size = min(run[1], after[len(runs) - 1 - index][run[0]]) if run is not None else 0
        if run is None or size < 3:
            index += 1
            continue
        close, blanks = next((k, r[2]) for k in range(index + 1, len(runs)) if (r := runs[k]) is not None
                             and r[0] == run[0] and r[1] >= size)  # there is one: a later run is that long
        bodies.append(text[starts[index + 1]:starts[close]])
        kept.append(text[at:starts[index]])
        at = starts[close] + blanks + size
        index = close + 1
    kept.append(text[at:])
    return bodies, "".join(kept)


DOCS = Shipper(RULE, _TYPES, named, "tells its reader to deploy {path}",
               "READMEs near it read for the files their deploy commands name")
