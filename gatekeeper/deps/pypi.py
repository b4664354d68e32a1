"""PyPI: requirements files, pyproject.toml (PEP 621, PEP 735, Poetry), poetry.lock, uv.lock (Pipfile: pipfile.py)."""

from __future__ import annotations

import codecs
import functools
import optparse
import posixpath
import re
import shlex
from typing import TYPE_CHECKING, Any, NoReturn

from gatekeeper.deps.entryoptions import requirement_options, table_options
from gatekeeper.deps.hatchenvs import hatch_envs
from gatekeeper.deps.hunks import CHANGED, HUNK
from gatekeeper.deps.loaders import MAX_BYTES, listing, load_toml, mapping, sourced_version, string, text, url_version
from gatekeeper.deps.model import Dependency, ManifestError, Scope
from gatekeeper.deps.piplines import local_requirement, spaced_marker, url_requirement
from gatekeeper.lazy_pattern import lazy

if TYPE_CHECKING:
    from packaging.requirements import Requirement

# pip's reading of a requirements file (pip/_internal/req/req_file.py `_decode_req_file`): a BOM (the longer UTF-32
# ones first: UTF-16 LE's is a prefix of UTF-32 LE's), else a PEP 263 declaration in the first two lines, else UTF-8.
_BOMS = ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF32, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32-be"),
         (codecs.BOM_UTF32_LE, "utf-32-le"), (codecs.BOM_UTF16, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16-be"),
         (codecs.BOM_UTF16_LE, "utf-16-le"))
_DECLARED = lazy(rb"coding[:=]\s*([-\w.]+)")


def requirements_text(data: bytes) -> str:
    """A requirements file as pip reads it (red team 16: under a declared `coding: utf-7` the comment `# +AAo-evil==1`
    is a line `evil==1` to pip, which the delta, reading UTF-8, never saw); ManifestError when pip cannot read it."""
    if len(data) > MAX_BYTES:
        raise ManifestError(f"larger than {MAX_BYTES >> 20} MiB")
    encoding, body = "utf-8", data
    for bom, name in _BOMS:
        if data.startswith(bom):
            encoding, body = name, data[len(bom):]
            break
    else:
        for line in data.split(b"\n")[:2]:
            if line[:1] == b"#" and (declared := _DECLARED.search(line)) is not None:
                encoding = declared.group(1).decode("ascii")
                break
    try:
        return body.decode(encoding)
    except (LookupError, UnicodeError, ValueError) as exc:
        raise ManifestError(f"not readable as {encoding}: {exc}") from None


_COMMENT_LINE = lazy(r"(^|\s+)#.*$")
# A templated requirements file (cookiecutter's `{{cookiecutter.project_slug}}/requirements_dev.txt`): Jinja's
# statement and comment tags (`{% if cookiecutter.use_pytest == 'y' -%}`, `{% endif %}`, `{# … #}`) choose the
# lines the rendered file keeps, so each requirement between them is read as one it may install (a conditional
# one too). pip cannot read such a file as it is; an expression (`{{ cookiecutter.pkg }}==1.0`) renders to text
# the delta cannot know, and its line stays no requirement (a problem).
def untemplated(line: str) -> str:
    """`line` without Jinja's statement and comment tags, each from its `{%` (`{#`) to the first `%}` (`#}`) after
    it; an unclosed tag and all after it stay (no requirement then). One pass: each search starts past the last."""
    if "{%" not in line and "{#" not in line:
        return line
    out: list[str] = []
    pos = 0
    opens = {"%": line.find("{%"), "#": line.find("{#")}
    while True:
        for kind, at in opens.items():
            if 0 <= at < pos:
                opens[kind] = line.find("{" + kind, pos)
        found = [(at, kind) for kind, at in opens.items() if at >= 0]
        if not found:
            break
        start, kind = min(found)
        end = line.find(kind + "}", start + 2)
        if end < 0:
            break
        out.append(line[pos:start])
        pos = end + 2
    out.append(line[pos:])
    return "".join(out)


def logical_lines(body: str) -> list[str]:
    """A requirements file's logical lines as pip joins them (`join_lines`): a line ending in `\\` continues into the
    next, its backslashes stripped, unless it is a comment line (red team 16: joining `# pinned \\` with the next
    line hid `evil==1.0` from the delta; pip installs it). A continuation at the very end continues into nothing."""
    out: list[str] = []
    pending: list[str] = []
    for line in body.splitlines():
        comment = _COMMENT_LINE.match(line) is not None
        if not line.endswith("\\") or comment:
            line = f" {line}" if comment else line
            if pending:
                out.append("".join([*pending, line]))
                pending = []
            else:
                out.append(line)
        else:
            pending.append(line.strip("\\"))
    if pending:
        out.append("".join(pending))
    return out


def spec_of(req: Requirement) -> str:
    if req.url:
        return url_version(req.url)
    specs = list(req.specifier)
    if len(specs) == 1 and specs[0].operator in ("==", "===") and "*" not in specs[0].version:
        return specs[0].version
    return str(req.specifier)


def _requirement(line: str, path: str, scope: Scope) -> Dependency | None:
    # deferred: packaging's requirement parser (its markers, tokenizer and grammar) costs every gate 10-20 ms of
    # start-up, and only a requirement line needs it
    from packaging.requirements import InvalidRequirement, Requirement

    try:
        req = Requirement(line)
    except InvalidRequirement:
        return None
    # Extras install more packages (`requests[socks]` pulls in PySocks), a marker decides where it installs: the
    # entry's options keep both, so a requirement that moves them, at the same version or beside a bump of it, is a
    # change (delta.py), not nothing (red team 26). Its alias shows the extras as written.
    extras = f"{req.name}[{','.join(sorted(req.extras))}]" if req.extras else ""
    options = requirement_options(req)
    return Dependency("pip", req.name, spec_of(req), path, True, scope, alias=extras, options=options)


def pep508(line: str, path: str, scope: Scope) -> Dependency:
    """One PEP 508 requirement (pyproject.toml's lists, setup.py's and setup.cfg's); ManifestError when it is none."""
    if (dep := _requirement(line, path, scope)) is None:
        raise ManifestError(f"not a PEP 508 requirement: {line[:80]!r}")
    return dep


def parse_requirements(path: str, data: bytes) -> list[Dependency]:
    """One requirement per logical line; options (`--index-url`, `--hash`) are not dependencies, but a project
    `-e` installs and a requirements file `-r` names are."""
    scope: Scope = "dev" if re.search(r"(dev|test|lint|doc)", path.rsplit("/", 1)[-1]) else "runtime"
    out: list[Dependency] = []
    # A continuation at the very end (a hunk that stops inside a `--hash` list) continues into nothing.
    for raw in logical_lines(requirements_text(data)):
        line = re.sub(r"(^|\s)#.*$", "", untemplated(raw)).strip()
        if editable := _EDITABLE.match(line):  # an option, but pip installs what it names
            target = editable.group(1)
            local = Dependency("pip", target, "editable", path, True, scope)
            out.append(url_requirement(target, path, scope) or local)
            continue
        if nested := _NESTED.match(line):  # every requirement of another file (or URL): one dependency, by its name
            out.append(Dependency("pip", nested.group(1), "requirements file", path, True, scope))
            continue
        line = re.sub(r"\s--?[a-z][a-z-]*(=|\s+)\S+", "", f" {line}").strip()
        if not line or line.startswith("-"):
            continue
        line = spaced_marker(line)
        dep = _requirement(line, path, scope) or url_requirement(line, path, scope)
        if dep is None:
            dep = local_requirement(line, path, scope)
        if dep is None:
            raise ManifestError(f"not a requirement: {line[:80]!r}")
        out.append(dep)
    return out


# Options a requirements file's residue leaves out: the delta reads `-r`/`-e` as dependencies, the file's facts read
# an index or find-links URL as a registry (facts._registries), and a `--hash` is a checksum of what is named.
_READ_OPTION = lazy(r"^(?:(?:-r|--requirement|-e|--editable)(?:=|\s+)\S+"
                          r"|(?:-i|--index-url|--extra-index-url|-f|--find-links)(?:=|\s+)[a-z][a-z0-9+.-]*://\S+"
                          r"|--hash(?:=|\s+)\S+(?:\s+--hash(?:=|\s+)\S+)*)$", re.IGNORECASE)
# a run of blanks read from its first (attack 39: every start inside a run of 32 KiB of tabs before a non-hash option
# read the run to its end, 1.6 CPU-s)
_HASHES = lazy(r"(?<!\s)\s++--hash(?:=|\s++)\S+")
# ...but not which of them is the main index: one moved from `--index-url` to `--extra-index-url` (the same URL, so no
# registry moved) makes pip look on PyPI too and take the higher version of the two (dependency confusion; red team
# 15). An extra index added or removed is a registry's move, which the facts name.
_MAIN_INDEX = lazy(r"^(?:-i|--index-url)(?:=|\s)", re.IGNORECASE)


def requirements_residue(data: bytes) -> list[str]:
    """The logical lines of a requirements file the delta does not read: options other than `-r`, `-e`, index
    URLs and hashes (`-c URL` constraints, `--trusted-host`, `--no-index` with a local `--find-links` folder,
    `--pre`), and a requirement's own options other than `--hash` (`--global-option`). When these differ between
    the sides, a bump in the same file must not explain the change (red team 10: the caller reports a `partial`
    problem). Each hunk of a patch side is read alone, as requirements_hunks reads it."""
    out = []
    for hunk in requirements_text(data).split(HUNK):
        for raw in logical_lines(hunk.replace(CHANGED, "")):
            line = re.sub(r"(^|\s)#.*$", "", untemplated(raw)).strip()
            if not line or _READ_OPTION.match(line):
                if _MAIN_INDEX.match(line):
                    out.append("--index-url")
                continue
            if not line.startswith("-") and not re.search(r"\s-", _HASHES.sub("", f" {line}")):
                continue  # a requirement (read by parse_requirements) with no option but hashes
            out.append(line)
    return sorted(out)


def requirements_hunks(path: str, data: bytes) -> list[Dependency]:
    """One side of a requirements file's hunks (hunks.sides), each hunk read alone: a `\\` that ends one hunk's
    last line (a hash-pinned file's `--hash` list) must not join the next hunk's first requirement to it, and a
    hunk that opens inside another requirement's `--hash` list shows options only, which name no dependency. A
    hunk opening inside a requirement split over lines shows a fragment, which fails to parse (a problem)."""
    out: list[Dependency] = []
    for hunk in text(data).split(HUNK):
        out += parse_requirements(path, hunk.replace(CHANGED, "").encode())
    return out


# `-e PATH_OR_URL`: pip installs the project it names (a local folder is named by its path).
_EDITABLE = lazy(r"^(?:-e|--editable)(?:=|\s+)(\S+)")
# `-r FILE_OR_URL`: pip installs every requirement it holds, whether or not the change touches it.
_NESTED = lazy(r"^(?:-r|--requirement)(?:=|\s+)(\S+)")


def included_files(path: str, data: bytes | str) -> list[str]:
    """The repository paths a requirements file's `-r`/`-c` options name (pip resolves them against the file's
    folder; red team 15: an included `tools/dev.txt` was `src`, so an edit of it went unread). URLs, absolute paths
    and paths above the root name nothing here. `data`: the file's bytes, or its text already decoded."""
    folder = path.rpartition("/")[0]
    out = []
    body = requirements_text(data) if isinstance(data, bytes) else data
    for raw in logical_lines(body):
        for target in _included_by(re.sub(r"(^|\s)#.*$", "", raw).strip()):
            if target and "://" not in target and not target.startswith("/"):
                joined = posixpath.normpath(posixpath.join(folder, target))
                if joined != ".." and not joined.startswith("../"):
                    out.append(joined)
    return out


# The options pip reads in a requirements file (pip/_internal/req/req_file.py SUPPORTED_OPTIONS and
# SUPPORTED_OPTIONS_REQ), each with whether it takes a value: pip parses them with optparse, which takes `-rPATH`
# and any unambiguous prefix of a long option (`--requirem PATH`), so the reader parses them the same way.
_PIP_OPTIONS = (
    (("-i", "--index-url", "--pypi-url"), True), (("--extra-index-url",), True), (("--no-index",), False),
    (("-c", "--constraint"), True), (("-r", "--requirement"), True), (("-e", "--editable"), True),
    (("-f", "--find-links"), True), (("--no-binary",), True), (("--only-binary",), True), (("--prefer-binary",), False),
    (("--require-hashes",), False), (("--no-require-hashes",), False), (("--pre",), False), (("--all-releases",), True),
    (("--only-final",), True), (("--trusted-host",), True), (("--use-feature",), True), (("--hash",), True),
    (("-C", "--config-settings"), True),
)


class _Refused(Exception):
    """pip refuses the line's options (an ambiguous or unknown option, a value missing)."""


def _refuse(message: str) -> NoReturn:
    raise _Refused(message)


@functools.cache
def _option_parser() -> optparse.OptionParser:
    parser = optparse.OptionParser(add_help_option=False)
    for strings, takes in _PIP_OPTIONS:
        parser.add_option(*strings, action="append" if takes else "store_true",
                          dest=next(s for s in strings if s.startswith("--"))[2:].replace("-", "_"))
    parser.error = _refuse  # type: ignore[method-assign,assignment]
    return parser


def _included_by(line: str) -> list[str]:
    """The files an option line's `-r`/`-c` options name, parsed as pip parses them (every one of them: pip follows
    the first, the others over-read); none for a requirement line (pip follows no include there) or one pip refuses.
    Red team 16: `-rtools/dev.txt`, `--requirem tools/dev.txt`, `--pre -r tools/dev.txt` were not followed."""
    if not line.startswith("-"):
        return []
    found: list[str] = []
    for posix in (True, False):  # pip splits as the system's shell would: Windows keeps `tools\dev.txt` whole
        try:
            options, _ = _option_parser().parse_args(shlex.split(line, posix=posix))
        except (_Refused, ValueError):
            continue
        found += [*(options.requirement or ()), *(options.constraint or ())]
    return list(dict.fromkeys(found))


# Where a Poetry dependency table says its package comes from instead of the default index.
_POETRY_SOURCES = ("path", "git", "url", "source")


def _strings(value: Any, what: str) -> list[str]:
    return [v for v in listing(value, what) if isinstance(v, str)]


def parse_pyproject(path: str, data: bytes) -> list[Dependency]:
    doc = load_toml(data)
    out: list[Dependency] = []

    def add(lines: list[str], scope: Scope) -> None:
        out.extend(pep508(line, path, scope) for line in lines)

    project = mapping(doc.get("project"), "[project]")
    add(_strings(project.get("dependencies"), "project.dependencies"), "runtime")
    for extra in mapping(project.get("optional-dependencies"), "optional-dependencies").values():
        add(_strings(extra, "optional-dependencies"), "runtime")
    for group in mapping(doc.get("dependency-groups"), "dependency-groups").values():
        add([g for g in listing(group, "dependency-groups") if isinstance(g, str)], "dev")
    # PDM's development groups before PEP 735 (fpgmaas/deptry): lists of requirements, or an editable local
    # install (`-e file:///${PROJECT_ROOT}/x`), named by its target, its whole line its version: any change of it shows
    pdm = mapping(mapping(mapping(doc.get("tool"), "tool").get("pdm"), "tool.pdm").get("dev-dependencies"),
                  "tool.pdm.dev-dependencies")
    for group in pdm.values():
        items = _strings(group, "tool.pdm.dev-dependencies")
        add([g for g in items if not g.startswith("-e")], "dev")
        out += [Dependency("pip", g[2:].strip(), g, path, True, "dev") for g in items if g.startswith("-e")]
    add(_strings(mapping(doc.get("build-system"), "build-system").get("requires"), "build-system.requires"), "build")
    poetry = mapping(mapping(doc.get("tool"), "tool").get("poetry"), "tool.poetry")
    sections: list[tuple[Any, Scope]] = [(poetry.get("dependencies"), "runtime"),
                                         (poetry.get("dev-dependencies"), "dev")]
    sections += [(mapping(g, "group").get("dependencies"), "dev")
                 for g in mapping(poetry.get("group"), "tool.poetry.group").values()]
    for table, scope in sections:
        for name, spec in mapping(table, "tool.poetry dependencies").items():
            if name.lower() == "python":
                continue
            version = string(spec) if not isinstance(spec, dict) else sourced_version(spec, _POETRY_SOURCES)
            # `optional`, `markers`, `extras`, `python`: whether and what it installs (entryoptions.py)
            options = table_options(spec, ("version", *_POETRY_SOURCES)) if isinstance(spec, dict) else ""
            out.append(Dependency("pip", name, version, path, True, scope, options=options))
    return out + hatch_envs(doc, path, _requirement)


def parse_poetry_lock(path: str, data: bytes) -> list[Dependency]:
    doc = load_toml(data)
    out: list[Dependency] = []
    for entry in listing(doc.get("package"), "[[package]]"):
        if isinstance(entry, dict) and isinstance(entry.get("name"), str):
            scope: Scope | None = "dev" if entry.get("category") == "dev" else None
            out.append(Dependency("pip", entry["name"], string(entry.get("version")), path, None, scope))
    return out


def parse_uv_lock(path: str, data: bytes) -> list[Dependency]:
    doc = load_toml(data)
    out: list[Dependency] = []
    direct: dict[str, Scope] = {}
    for entry in listing(doc.get("package"), "[[package]]"):
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            continue
        source = mapping(entry.get("source"), "source")
        if "editable" in source or "virtual" in source:  # a workspace member: its dependencies are direct
            for dep in listing(entry.get("dependencies"), "dependencies"):
                if isinstance(dep, dict) and isinstance(dep.get("name"), str):
                    direct.setdefault(dep["name"], "runtime")
            for group in mapping(entry.get("dev-dependencies"), "dev-dependencies").values():
                for dep in listing(group, "dev-dependencies"):
                    if isinstance(dep, dict) and isinstance(dep.get("name"), str):
                        direct.setdefault(dep["name"], "dev")
            continue
        out.append(Dependency("pip", entry["name"], string(entry.get("version")), path, None, None))
    if direct:
        out = [Dependency("pip", d.name, d.version, path, d.name in direct, direct.get(d.name, "runtime"))
               for d in out]
    return out
