"""A raw URL of the repository itself, read as the file of the tree it names (issue 12: the cileft68 round).

`curl -sSL https://raw.githubusercontent.com/OWNER/REPO/main/tools/install.sh | bash` in a workflow of OWNER/REPO
runs the repository's own `tools/install.sh` (as pushed): an agent editing it changes what CI runs. The walk knew no
repository's own name, so the file stayed `src`. The names are what the tree says about itself (`own`):

- package.json's `repository` (a string, `github:o/r`, `o/r`, or `{url}`), `homepage`, `bugs`;
- Cargo.toml's `[package]`/`[workspace.package]` `repository`/`homepage`; pyproject.toml's `[project.urls]` and
  Poetry's `repository`/`homepage`; a gemspec's `homepage`/`source_code_uri`; composer.json's `name` and
  `support.source`; go.mod's module path (`github.com/o/r/v2`);
- a workflow's own reusable workflow `uses: o/r/.github/workflows/x.yml@ref` whose file is in the tree.

Only a root manifest is read (a vendored package's names another repository). `localized(text, own, tree)` writes
each raw URL of an own name whose path is a file of the tree as `./PATH` (`raw.githubusercontent.com/o/r/REF/PATH`,
`github.com/o/r/raw/REF/PATH`, `github.com/o/r/blob/REF/PATH?raw=true`, GitLab's `HOST/GROUP/…/r/-/raw/REF/PATH`;
a REF may hold `/`: `refs/heads/main`); the walk then reads the line as it reads a local path. Another repository's
URL, an own URL whose path is no file of the tree, and a page that is not raw (`/blob/` without `raw=true`, `/tree/`)
are left as they are. Names compare case-blind (GitHub's are).
"""

from __future__ import annotations

import posixpath
import re
import tomllib
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import unquote

from gatekeeper.bounded import load_json
from gatekeeper.classify.sniff import FULL_READ
from gatekeeper.errors import LimitError
from gatekeeper.gitobjects import TreeEntry
from gatekeeper.lazy_pattern import lazy

__all__ = ["MAX_URLS", "localized", "names_in", "own"]

MAX_URLS = 256  # raw URLs a text may hold that are rewritten; past it the rest stay (they name no local file)
_MANIFESTS = ("package.json", "Cargo.toml", "pyproject.toml", "composer.json", "go.mod")
# a repository's address in a manifest's value: `https://github.com/o/r(.git)`, `git+https://…`, `git@github.com:o/r`,
# `github:o/r`, GitLab's nested groups (`gitlab.com/g/sub/r`)
_ADDRESS = lazy(r"(?:(?<=://)|(?<=@)|(?<=^))((?:[\w-]+\.)+[a-z]{2,}+)[/:]([\w.-]++(?:/[\w.-]++)++)", re.IGNORECASE)
_SHORT = lazy(r"(?:(github|gitlab|bitbucket):)?([\w.-]+/[\w.-]+)")  # package.json's `o/r`, `github:o/r`
_GEMSPEC = lazy(r"""(?:\bhomepage|["']source_code_uri["']\]?+)[ \t]*+=>?[ \t]*+["']([^"'\n]{1,512}+)["']""")
_REUSABLE = lazy(r"\buses:[ \t]*+['\"]?+([\w.-]++)/([\w.-]++)/(\.github/workflows/[\w./-]+?\.ya?ml)@")
_GO_MODULE = lazy(r"^module[ \t]++([^\s]{1,512}+)", re.MULTILINE)
_SHORT_HOSTS = {"github": "github.com", "gitlab": "gitlab.com", "bitbucket": "bitbucket.org"}
# a raw URL: its host, then what follows up to a word's end (a quote, a blank, a `)`, a `|`); a ref may be a CI
# expression with blanks (`${{ github.sha }}`)
_RAW = lazy(r"https?://((?:[\w-]+\.)+[a-z]{2,}+)/((?:\$\{\{[^}\n]{0,256}+\}\}|\$(?!\{\{)|[^\s'\"`)|;&<>$]){1,2048}+)",
            re.IGNORECASE)
_FILE_MODES = ("100644", "100755")  # a regular file; a link or a submodule says nothing of this repository
_MARKS = lazy(r"raw|jsdelivr|statically|api\.github\.com", re.IGNORECASE)  # a text that may hold a raw URL
# hosts that serve a repository's files as GitHub's raw host does (`raw.githack.com/o/r/REF/PATH`), and the CDNs
# whose first part names the forge (`cdn.jsdelivr.net/gh/o/r@REF/PATH`, `cdn.statically.io/gl/o/r/REF/PATH`)
_MIRRORS = {"raw.githack.com": "raw.githubusercontent.com", "rawcdn.githack.com": "raw.githubusercontent.com",
            "gl.githack.com": "gitlab.com", "glcdn.githack.com": "gitlab.com", "bb.githack.com": "bitbucket.org",
            "bbcdn.githack.com": "bitbucket.org"}
_CDN_HOSTS = {"gh": "github.com", "gl": "gitlab.com", "bb": "bitbucket.org"}


def own(tree: Mapping[str, TreeEntry], read_blob: Callable[[TreeEntry], bytes]) -> frozenset[tuple[str, str]]:
    """{(host, "owner/…/repo"), lower case}: the repositories the root manifests and workflows of `tree` say it is."""

    def read(path: str) -> str:
        entry = tree[path]
        return read_blob(entry)[:FULL_READ].decode("utf-8", "replace") if entry.mode in _FILE_MODES else ""

    texts = {path: read(path) for path in _MANIFESTS if path in tree}
    texts |= {path: read(path) for path in tree if "/" not in path and path.endswith(".gemspec")}
    found = names_in(texts)
    found |= {(host, name) for path in tree if path.startswith(".github/workflows/")
              for host, name in _reusable(read(path), tree)}
    return frozenset(found)


def names_in(texts: Mapping[str, str]) -> set[tuple[str, str]]:
    """The repositories `texts` ({root file name: its text}) name as the project's own."""
    values: list[str] = []
    for path, text in texts.items():
        if path == "package.json":
            values += _package_json(text)
        elif path in ("Cargo.toml", "pyproject.toml"):
            values += _toml_values(text)
        elif path == "composer.json":
            values += _composer(text)
        elif path == "go.mod":
            values += [f"https://{m}" for m in _GO_MODULE.findall(text)]
        elif path.endswith(".gemspec"):
            values += _GEMSPEC.findall(text)
    return {name for value in values for name in _addresses(value)}


def localized(text: str, mine: Callable[[], frozenset[tuple[str, str]]], tree: Mapping[str, object]) -> str:
    """`text` with each raw URL of a repository of `mine()` (own's, asked only where `text` holds a raw URL's mark)
    whose path is a file of `tree` written `./PATH`."""
    if _MARKS.search(text) is None:
        return text
    names = mine()
    if not names:
        return text
    count = 0

    def local(hit: re.Match[str]) -> str:
        nonlocal count
        count += 1
        path = _raw_path(hit[1].lower(), hit[2], names, tree) if count <= MAX_URLS else None
        return hit[0] if path is None else f"./{path}"

    return _RAW.sub(local, text)


def _raw_path(host: str, rest: str, names: frozenset[tuple[str, str]], tree: Mapping[str, object]) -> str | None:
    rest, _, query = rest.partition("?")
    # the server decodes the path and curl drops its dot segments (`tools%2Fx.sh`, `tools/./x.sh`: attack 42)
    parts = unquote(rest.partition("#")[0]).split("/")
    host = _MIRRORS.get(host.removeprefix("www."), host.removeprefix("www."))
    if (jsdelivr := host.endswith(".jsdelivr.net")) or host == "cdn.statically.io":  # `gh/o/r@REF/…`, `gh/o/r/REF/…`
        if len(parts) < 4 or parts[0] not in _CDN_HOSTS:
            return None
        host, parts = _CDN_HOSTS[parts[0]], parts[1:]
        repo, ref_and_path = "/".join(parts[:2]), parts[2:]
        if "@" in parts[1] or jsdelivr:  # the ref is in `r@REF` (or none: the latest release)
            repo, ref_and_path = f"{parts[0]}/{parts[1].partition('@')[0]}", ["", *parts[2:]]
    elif host == "api.github.com" and len(parts) > 5 and parts[0] == "repos" and parts[3] == "contents":
        host, repo, ref_and_path = "github.com", "/".join(parts[1:3]), ["", *parts[4:]]
    elif host == "raw.githubusercontent.com" and len(parts) > 3:
        repo, ref_and_path = "/".join(parts[:2]), parts[2:]
        host = "github.com"
    elif "-" in parts and parts.index("-") >= 2 and parts[parts.index("-") + 1:][:1] == ["raw"]:  # GitLab `/-/raw/`
        at = parts.index("-")
        repo, ref_and_path = "/".join(parts[:at]), parts[at + 2:]
    elif len(parts) > 4 and (parts[2] == "raw" or (parts[2] == "blob" and "raw=" in query)):
        repo, ref_and_path = "/".join(parts[:2]), parts[3:]
    else:
        return None
    if (host, repo.lower().removesuffix(".git")) not in names:
        return None
    # the ref is one or more parts (`main`, `refs/heads/main`, `release/1.x`): the first split whose path is a file
    for at in range(1, len(ref_and_path)):
        path = posixpath.normpath("/".join(ref_and_path[at:])).lstrip("/")
        if path in tree:
            return path
    return None


def _addresses(value: str) -> list[tuple[str, str]]:
    value = value.strip().removeprefix("git+")
    found = []
    for hit in _ADDRESS.finditer(value):
        host, path = hit[1].lower(), hit[2].lower().removesuffix(".git")
        parts = [p for p in path.split("/") if p]
        if host == "github.com" or host == "bitbucket.org":
            parts = parts[:2]  # `github.com/o/r/tree/main/docs`, go's `github.com/o/r/v2`: the repository is o/r
        elif "-" in parts:
            parts = parts[:parts.index("-")]
        if len(parts) >= 2:
            found.append((host, "/".join(parts)))
    short = _SHORT.fullmatch(value) if "://" not in value and "@" not in value else None
    if short is not None:
        found.append((_SHORT_HOSTS[short[1].lower()] if short[1] else "github.com", short[2].lower()))
    return found


def _json_object(text: str) -> dict[str, Any]:
    """A JSON manifest's top-level object ({} where it does not parse, is past the bounds or is no object)."""
    try:
        data = load_json(text, "a manifest")
    except (ValueError, LimitError):
        return {}
    return data if isinstance(data, dict) else {}


def _package_json(text: str) -> list[str]:
    data = _json_object(text)
    values = []
    for key in ("repository", "homepage", "bugs"):
        value = data.get(key)
        values += [value] if isinstance(value, str) else [
            v for v in (value.get("url"),) if isinstance(v, str)] if isinstance(value, dict) else []
    return values


def _toml_values(text: str) -> list[str]:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return []
    tables = [data.get("package"), data.get("workspace", {}).get("package") if isinstance(data.get("workspace"), dict)
              else None, data.get("project", {}).get("urls") if isinstance(data.get("project"), dict) else None,
              data.get("tool", {}).get("poetry") if isinstance(data.get("tool"), dict) else None]
    values = []
    for table in tables:
        if isinstance(table, dict):
            values += [v for k, v in table.items() if isinstance(v, str)
                       and (k in ("repository", "homepage") or table is tables[2])]
    return values


def _composer(text: str) -> list[str]:
    data = _json_object(text)
    support = data.get("support")
    values = [f"github:{data['name']}"] if isinstance(data.get("name"), str) else []
    values += [data["homepage"]] if isinstance(data.get("homepage"), str) else []
    source = support.get("source") if isinstance(support, dict) else None
    return values + ([source] if isinstance(source, str) else [])


def _reusable(text: str, tree: Mapping[str, object]) -> list[tuple[str, str]]:
    return [("github.com", f"{hit[1]}/{hit[2]}".lower()) for hit in _REUSABLE.finditer(text) if hit[3] in tree]
