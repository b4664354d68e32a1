"""Jenkins Job DSL seed jobs and scripts, for the CI walk (issue 12, ci recall; cileft62).

A seed job runs the Job DSL scripts it names (`dsl { external 'jobs/pipeline.groovy' }`, `jobDsl {
targets('jobs/*.groovy') }`, a Jenkinsfile's `jobDsl targets: 'jobs/**/*.groovy'`), and a Job DSL script reads the
files it names with `readFileFromWorkspace('configuration/jobs.json')` (also through a string variable it set:
`String list = 'configuration/jobs.json'`) and points a pipeline job at its `scriptPath('ci/Jenkinsfile')`: each
defines the Jenkins jobs, so each is `ci`. A script whose own call is misspelt (`pipelinejob(`) has no Job DSL shape,
but the seed that names it still runs it.

- `starts(trees, tree, read_blob)`: the Job DSL scripts the walk starts from: a `.groovy` file whose path hints at
  Job DSL (a `jobs/`, `seed*/`, `dsl/`, `jenkins/` folder, `seed`, `dsl` or `job` in its name), at most MAX_SEEDS read
  a tree (the rest are not started: what they name keeps its bucket, as before), that has a Jenkins shape
  (shapes.py's `ci.content.jenkins-pipeline`) and calls one of the four (its other words are read as any script's:
  a seed's list of script paths in a variable).
- `named(name, text)`: what a Groovy file or a Jenkinsfile names that way (a glob: a pattern; a variable alone or
  an absolute path: nothing; attack 35: `${WORKSPACE}/x`, the checkout's x, from the root; a variable inside a
  path, any name there, `jobs/${n}.groovy` as `jobs/*.groovy`; each of a list `['a', 'b']`).
"""

from __future__ import annotations

import re

from gatekeeper.classify import shapes
from gatekeeper.classify.treepaths import where
from gatekeeper.classify.treereads import Read, Tree
from gatekeeper.lazy_pattern import lazy

__all__ = ["MAX_SEEDS", "named", "starts"]

MAX_SEEDS = 64  # Job DSL-hinted Groovy files read per tree to find seeds
_FILE_MODES = ("100644", "100755")
_HINT = lazy(r"(?:\A|/)(?:\.?jobs?|seed[^/]*|dsl|job-?dsl|\.?jenkins)/|seed|dsl|job[^/]*\Z", re.IGNORECASE)
_NAMES = lazy(r"""\b(?:targets|external|readFileFromWorkspace|scriptPath)\b[ \t]*(?::|\()?[ \t]*\[?[ \t]*"""
              r"""((?:(?:["'][^"'\n]*["']|[A-Za-z_][A-Za-z0-9_]*)[ \t]*,?[ \t]*)+)""")
_QUOTED = lazy(r"""["']([^"'\n]*)["']|([A-Za-z_][A-Za-z0-9_]*)""")
_STRING = lazy(r"""^[ \t]*(?:(?:final|static|private|def|String)[ \t]++)++([A-Za-z_][A-Za-z0-9_]*)[ \t]*=[ \t]*"""
               r"""["']([^"'$\n]+)["'][ \t]*;?[ \t]*(?://[^\n]*)?$""", re.MULTILINE)
# the workspace (the checkout) a path starts from; a variable elsewhere in it: any name there (attack 35)
_WORKSPACE = lazy(r"\A\$(?:\{(?:env\.)?WORKSPACE\}|WORKSPACE\b)/")
_VARIABLE = lazy(r"\$(?:\{[^{}\n]*+\}|[A-Za-z_][A-Za-z0-9_]*+)")
_MAY_NAME = ("targets", "external", "readFileFromWorkspace", "scriptPath")


def named(name: str, text: str) -> list[str]:
    """The paths and globs the Job DSL calls of the Groovy file or Jenkinsfile `name` name (module docstring)."""
    lower = name.lower()
    if not (lower.endswith((".groovy", ".gvy")) or "jenkinsfile" in lower) or not any(w in text for w in _MAY_NAME):
        return []
    strings = {name: value for name, value in _STRING.findall(text)}
    found: list[str] = []
    for call in _NAMES.finditer(text):
        for literal, variable in _QUOTED.findall(call.group(1)):
            value = literal if not variable else strings.get(variable, "")
            # `targets` takes several globs, one a line or blank-separated (`\n` written in the string too)
            parts = [_VARIABLE.sub("*", _WORKSPACE.sub("", part)) for part in re.split(r"\s+|\\n", value)]
            parts = [part for part in parts if part.replace("*", "").strip("/") and "$" not in part
                     and not part.startswith(("/", "~")) and "://" not in part]
            found += [glob for part in parts for glob in (part, part.replace("**/", ""))]  # Ant's `**/`: any depth
    return list(dict.fromkeys(found))


def _hinted(path: str) -> bool:
    return path.endswith(".groovy") and _HINT.search(path) is not None


def starts(trees: tuple[Tree, ...], tree: Tree, read_blob: Read) -> list[tuple[str, str]]:
    """(path, path) for each Job DSL seed or script of `tree` that names a file (module docstring)."""
    found: list[tuple[str, str]] = []
    for path in [path for path in where(trees, tree, _hinted) if tree[path].mode in _FILE_MODES][:MAX_SEEDS]:
        text = read_blob(tree[path]).decode("utf-8", "replace")
        shaped = shapes.shape(path.rpartition("/")[2], text)
        if shaped is not None and shaped[1] == "ci.content.jenkins-pipeline" and any(w in text for w in _MAY_NAME):
            found.append((path, path))
    return found
