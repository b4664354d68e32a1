"""Files a dependency manifest or build program reads by path, whatever their names (red team 27): a Gemfile's
`eval_gemfile "Gemfile.local"` or `instance_eval(File.read("Gemfile.shared"))`, a Podfile's `eval_podfile`, a Gradle
script's `apply from: "deps.gradle"` (also `apply from: file(...)`, `rootProject.file(...)`, `"$rootDir/..."`: taken
from every folder from the script's up to the repository's root, where the build's root may be; a version catalog's
`from(files(...))`), a POM's parent by
`<relativePath>`, a `setup.py` that reads `open("reqs.list")` or `Path("requirements/base.pip").read_text()`. What
such a file says is installed as the manifest's own lines, so it is `deps` (`deps.context.included`, the referencing
file and line as evidence). Read from both trees (a change cannot drop the reference to escape), the files named
followed in turn, each walk bounded; past a bound every changed file counts as read (fail closed).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable

from gatekeeper.classify import appliedpatches, bazelreads, buildbackends
from gatekeeper.classify.change import folded
from gatekeeper.classify.markers import ancestors as folders_above
from gatekeeper.classify.sniff import FULL_READ
from gatekeeper.classify.treepaths import where
from gatekeeper.classify.treereads import PastBound, Read, Tree, walked
from gatekeeper.lazy_pattern import lazy
from gatekeeper.model import Match

MAX_READERS = 2_000  # manifests and the files they name, read per tree; past it every changed file counts as read

_RUBY = frozenset({"gemfile", "gems.rb", "podfile", "pluginfile"})
_GRADLE = (".gradle", ".gradle.kts")
_STRING = lazy(r"""(?:"([^"\n]*)"|'([^'\n]*)')""")
# Ruby: what evaluates another file as the manifest's own lines (and what reads one as text for an eval).
_RUBY_READS = lazy(r"\b(?:eval_gemfile|eval_podfile|instance_eval|"
                         r"(?:File|IO)\.(?:read|readlines|open|foreach))\b")
# Gradle: `apply from: X`, `apply(from = X)`, a catalog's `from(files(X))`; X a string or file(X)/rootProject.file(X).
# `apply(from:` / `apply from =`: the blanks around the optional parenthesis read once (a line of blanks after
# `apply` was split every way: 16 KiB 0.39 CPU-s)
_GRADLE_READS = lazy(r"\bapply\s*+(?:\(\s*+)?from\s*[:=]|\bfrom\s*\(\s*files\s*\(")
# The folder a manifest sits in, spelled as a variable: what follows is relative to it.
_HERE = lazy(r"^(?:\$\{?(?:rootDir|projectDir|rootProject\.projectDir|settingsDir|project\.rootDir)\}?|"
                   r"#\{(?:__dir__|File\.dirname\(__FILE__\)|Dir\.pwd)\})/")
_GRADLE_ROOT = lazy(r"\b(?:rootDir|rootProject|settingsDir)\b")  # the build's root, not the script's folder
_RELATIVE_PATH = lazy(r"<relativePath>\s*([^<\s]+)\s*</relativePath>")
# Python build programs: a file opened or read by a literal path.
_PY_READS = lazy(r"\b(?:open|read_text|read_bytes|readlines|Path|read|fspath|join)\s*\(|\b\w*req\w*\s*\(",
                       re.IGNORECASE)
_PY_JOINS = lazy(r"\bjoin\s*\(|/\s*[\"']")
# What a line of a build program says it reads requirements for.
REQUIREMENT_WORDS = lazy(r"requir|depend|\bdeps\b|install_requires|extras", re.IGNORECASE)
_REQUIREMENT_LINE = lazy(r"^(?:-{1,2}[A-Za-z][\w-]*(?:[=\s].*)?|[A-Za-z0-9][A-Za-z0-9._-]*(?:\[[^\]]*\])?"
                               r"\s*+(?:(?:===|==|>=|<=|~=|!=|<|>|@)\s*\S.*)?(?:\s*;.*)?)$")

def kind(path: str) -> str | None:
    """Which reader reads `path` as a manifest that names other files: ruby, gradle, maven, python; None."""
    name = path.rpartition("/")[2].lower()
    if name in _RUBY or name.endswith(".gemfile") or name.endswith(".podfile"):
        return "ruby"
    if name.endswith(_GRADLE):
        return "gradle"
    if name == "pom.xml":
        return "maven"
    if name == "setup.py":
        return "python"
    return None


def named(path: str, reader: str, text: str) -> list[tuple[str, int, bool]]:
    """(repository path, line number, whether the line says it reads requirements) of each file `text` (the manifest
    at `path`, read as `reader`) reads by a literal path, resolved against its folder; URLs, absolute paths, paths
    above the root and values with a variable part name nothing."""
    folder = path.rpartition("/")[0]
    # The folders from the manifest's up to the repository's root: where a Gradle build's root may be (the folder of
    # its settings.gradle, at or above the script), for `$rootDir/x`, `settingsDir`, `rootProject.file("x")`.
    # (markers.ancestors: bounded at MAX_PATH; a deep path's rsplit per depth was cubic, cost 44)
    ancestors = folders_above(path) if _GRADLE_ROOT.search(text) else [folder]
    out: list[tuple[str, int, bool]] = []
    for number, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith(("#", "//")):
            continue
        bases = ancestors if reader == "gradle" and _GRADLE_ROOT.search(line) else [folder]
        for value in _values(reader, line):
            for base in bases:
                if (resolved := _resolved(base, value)) is not None and resolved != path:
                    out.append((resolved, number, REQUIREMENT_WORDS.search(line) is not None))
    return out


def _values(reader: str, line: str) -> list[str]:
    if reader == "maven":
        return [value if "." in value.rpartition("/")[2] and not value.endswith("..") else
                f"{value.rstrip('/')}/pom.xml" for value in _RELATIVE_PATH.findall(line)]
    reads = {"ruby": _RUBY_READS, "gradle": _GRADLE_READS, "python": _PY_READS}[reader].search(line)
    if reads is None:
        return []
    values = [_HERE.sub("", value) for value in _literals(line[reads.start():] if reader != "python" else line)]
    values = [value for value in values if value.lower() not in _NOT_PATHS]  # an open mode, an encoding
    if reader == "python":
        values = [value for value in values if " " not in value]
        if len(values) > 1 and _PY_JOINS.search(line):
            return ["/".join(value.strip("/") for value in values)]
        return [value for value in values if "." in value or "/" in value]
    if len(values) > 1 and ("File.join" in line or "File.expand_path" in line):
        return ["/".join(value.strip("/") for value in values)]
    return values


def _literals(code: str) -> list[str]:
    return [double or single for double, single in _STRING.findall(code) if (double or single)]


_NOT_PATHS = frozenset({"utf-8", "utf8", "latin-1", "ascii", "r", "rb", "w", "wb", "a", "rt", "r+", "w+", "__main__",
                        "setup.py", ".", "\\n", "\n", ""})


def _resolved(folder: str, value: str) -> str | None:
    value = value.strip()
    if not value or "://" in value or value.startswith(("/", "~")) or any(c in value for c in "\\$#{}*?"):
        return None
    joined = posixpath.normpath(posixpath.join(folder, value))
    if joined.startswith("..") or joined in (".", ""):
        return None
    return joined


def requirement_shaped(text: str) -> bool:
    """Whether `text` reads as a requirements list (what a build program passes to install_requires): every line
    left after comments a requirement or a pip option, one at least naming a package (a VERSION file's `1.2.3`,
    a README's prose are none)."""
    lines = [line.split(" #", 1)[0].strip() for line in text.splitlines()]
    lines = [line for line in lines if line and not line.startswith("#")]
    return bool(lines) and all(map(_REQUIREMENT_LINE.match, lines)) and any(line[0].isalpha() for line in lines)


def included(trees: tuple[Tree, ...], read_blob: Read) -> dict[str, str] | bool:
    """{path a manifest of either tree reads (followed): "MANIFEST:LINE"}; False past MAX_READERS files read in a
    tree, or at one longer than is read (every changed file then counts as read). A file a `setup.py` opens counts
    when its line says it reads requirements, or when it reads as a requirements list in that tree (not its README)."""
    found: dict[str, str] = {}
    try:
        for tree in trees:
            kinds = {path: kind(path) or "" for path in where(trees, tree, _reads_others)}
            queue = [(path, path) for path in kinds]
            texts: dict[str, str] = {}  # what a setup.py opens, by path: read once a tree
            for path, _origin, entry in walked(tree, queue, MAX_READERS, read_blob):
                reader = kinds.get(path, "")
                if not reader:
                    continue  # a file read as text (requirements a setup.py opens): named, not read for more names
                data = read_blob(entry)
                if len(data) > FULL_READ:
                    return False
                for target, number, says in named(path, reader, data.decode("utf-8", "replace")):
                    if target in found or (reader == "python" and not says and not _shaped(tree, target, texts,
                                                                                          read_blob)):
                        continue
                    found[target] = f"{path}:{number}"
                    if reader != "python" and target not in kinds:
                        kinds[target] = reader  # an evaluated file is read as the manifest's own lines
                        queue.append((target, path))
    except PastBound:
        return False
    bazel = bazelreads.included(trees, read_blob)  # a downloader configuration, a .bzl file pinning archives
    backends = buildbackends.included(trees, read_blob)  # an in-tree PEP 517 build backend's code
    if bazel is False or backends is False:
        return False
    assert isinstance(bazel, dict) and isinstance(backends, dict)
    return {**bazel, **backends, **found}


def _shaped(tree: Tree, path: str, texts: dict[str, str], read_blob: Read) -> bool:
    if path not in texts:
        entry = tree.get(path)
        texts[path] = "" if entry is None or not entry.mode.startswith("10") else \
            read_blob(entry)[:FULL_READ].decode("utf-8", "replace")
        if len(texts) > MAX_READERS:
            raise PastBound
    return requirement_shaped(texts[path])


_reads_others: Callable[[str], bool] = lambda path: kind(path) is not None  # noqa: E731 (one object for `where`)


# From a patch alone: names a manifest the patch does not show may read (an evaluated Gemfile or Podfile fragment, a
# requirements list under another name); such a file is tagged `needs-context` (context.py).
_MAY_BE_READ = lazy(r"^(?:gemfile|podfile)|(?:gemfile|podfile)$|requirement|(?:^|[^a-z])(?:reqs?|deps|pins|gems)"
                          r"(?:[^a-z]|$)|dependencies|constraints")
_DATA_ENDINGS = frozenset({"", ".txt", ".in", ".pip", ".list", ".lst", ".rb", ".local", ".shared", ".groovy",
                           ".gradle", ".kts", ".xml", ".cfg", ".conf", ".yml", ".yaml", ".lock"})


def may_be_read(path: str) -> bool:
    """Whether a manifest the patch does not show may read `path` as its own lines (by its name and ending)."""
    folder, _, name = path.lower().rpartition("/")
    stem, dot, ending = name.rpartition(".")
    if ending in ("kts", "patch") and dot or ending == "diff" and "ports/" in f"/{folder}/":
        return True  # a Kotlin script (`apply(from = "shared/libs.kts")`), a patch pnpm, Yarn or a vcpkg port applies
    return (f".{ending}" if dot and stem else "") in _DATA_ENDINGS and (
        _MAY_BE_READ.search(name) is not None or _MAY_BE_READ.search(folder.rpartition("/")[2]) is not None)


class Reads:
    """What the manifests of a TreeContext's trees read (`included`), walked on first use; looked up under any
    spelling a checkout that folds names opens (change.folded, as treecontext's other readers)."""

    def __init__(self, trees: tuple[Tree, ...], read_blob: Read, match: Callable[[str], Match] | None = None) -> None:
        self._trees, self._read_blob = trees, read_blob
        self._found: dict[str, str] | bool | None = None
        self._folded: dict[str, str] = {}
        self._applied = appliedpatches.Applied(trees, read_blob, match)  # patches package.json files apply

    def _walked(self) -> dict[str, str] | bool:
        if self._found is None:
            self._found = included(self._trees, self._read_blob)
            self._folded = {folded(path): path for path in self._found} if isinstance(self._found, dict) else {}
        return self._found

    def evidence(self, sides: list[str]) -> str | None:
        """"MANIFEST:LINE reads PATH" for the first of `sides` a manifest reads; past the bounds, every path."""
        if (applied := self._applied.evidence(sides)) is not None:
            return applied
        found = self._walked()
        if found is False or found is True:
            return f"more than {MAX_READERS} manifests (or files they read): any may read it"
        for side in sides if found else ():
            if (spelled := self._folded.get(folded(side))) is not None:
                origin = found[spelled]
                if origin.endswith(bazelreads.HOOK):  # read as run control: a line of it makes Bazel run a program
                    return f"{origin.removesuffix(bazelreads.HOOK)} imports {spelled}, {HOOK_EVIDENCE}"
                return f"{origin} reads {spelled}"
        return None

    def read_as(self, requirements: dict[str, str] | bool | None) -> dict[str, str]:
        """read_as below, of these trees' manifests and `requirements` (treereads.requirements_includes)."""
        return read_as(requirements, self._walked())


def read_as(requirements: dict[str, str] | bool | None, reads: dict[str, str] | bool | None) -> dict[str, str]:
    """{path a requirements file includes, or a manifest reads as its own lines: the name of a file whose format the
    delta reads it in} for the dependency delta (sources.tree_delta): `requirements.txt` for what pip or a setup.py
    reads, `Gemfile` for what a Gemfile evaluates, `build.gradle(.kts)` for an applied script; a Podfile's fragment
    and a file a chain of fragments reads are left to `deps.unexplained` (no reader)."""
    out = dict.fromkeys(requirements, "requirements.txt") if isinstance(requirements, dict) else {}
    for path, origin in (reads.items() if isinstance(reads, dict) else ()):
        reader, manifest = kind(origin.rpartition(":")[0]), origin.rpartition(":")[0].rpartition("/")[2].lower()
        name = {"python": "requirements.txt", "maven": "pom.xml",
                "gradle": "build.gradle.kts" if path.endswith(".kts") else "build.gradle",
                "ruby": "Gemfile" if "gemfile" in manifest or manifest == "gems.rb" else None}.get(reader or "")
        if name is not None:
            out.setdefault(path, name)
    return out


HOOK_EVIDENCE = "whose lines make Bazel run a program"


def raised_as(evidence: str) -> tuple[str, str]:
    """(bucket, rule) a file Reads.evidence names is raised to: deps, or ci for a Bazel run-control file it imports
    whose lines make Bazel run a program (bazelreads.py)."""
    if evidence.endswith(HOOK_EVIDENCE):
        return "ci", "ci.context.bazel-hook"
    return "deps", appliedpatches.RULE if " applies " in evidence else "deps.context.included"  # a patch an install
