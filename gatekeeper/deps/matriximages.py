"""The images a workflow job runs at its matrix's values: a service or job container `image: "mariadb:${{
matrix.mariadb-version }}"` over `mariadb-version: ["10.2", "10.7"]` (doctrine/dbal's "Bump MariaDB to 10.7", round 57:
the image line never changes, the matrix does, and the delta named nothing). Each value the job's lines give that
key — a flow list `key: [a, b]`, a block list of `- a` items under `key:`, an `include:`/`exclude:` entry's
`key: a` — is the image with the expression replaced by it. Only a reference holding one `${{ matrix.KEY }}` and
nothing else computed; a key no line of the job gives a literal (`fromJSON(…)`) names nothing, as before. Jobs are
the keys under `jobs:` (a file without `jobs:`, an action, is one job). One pass, bounded patterns."""

from __future__ import annotations

from gatekeeper.deps.docker import image_version, split_image
from gatekeeper.deps.model import Dependency
from gatekeeper.lazy_pattern import lazy

_IMAGE = lazy(r"""^\s*(?:-\s+)?(?:image|container)\s*:\s*(?P<q>["']?)(?P<pre>[^"'\s#${}]{0,200})"""
              r"""\$\{\{\s*matrix\.(?P<key>[\w-]{1,100})\s*\}\}(?P<post>[^"'\s#${}]{0,200})(?P=q)\s*(?:#.*)?$""")
_KEY = lazy(r"""^(?P<indent> *)(?:-\s+)?(?P<key>[\w-]{1,100})\s*:[ \t]*(?P<rest>[^#]*?)\s*(?:#.*)?$""")
# A tag, or a whole reference where the expression is the whole image (`container: ${{ matrix.image }}` over
# `image: ["ubuntu:22.04", "fedora:40"]`)
_SCALAR = lazy(r"""^(?P<q>["']?)(?P<value>[\w.+-][\w.+/:@-]{0,199})(?P=q)$""")
_ITEM = lazy(r"""^(?P<indent> *)-\s+(?P<value>[^#]*?)\s*(?:#.*)?$""")
_ENTRY = lazy(r"^[\w-]{1,100}\s*:(?:\s|$)")  # a list item that is a mapping (`- php-version: "8.1"`), no value
_JOBS = lazy(r"^jobs\s*:\s*(?:#.*)?$")
MAX_VALUES = 64  # of one key in one job: more is no build matrix a person wrote


def _scalar(text: str) -> str | None:
    m = _SCALAR.match(text.strip())
    return m["value"] if m is not None else None


class _Job:
    def __init__(self) -> None:
        self.values: dict[str, dict[str, None]] = {}
        self.images: list[tuple[str, str, str]] = []  # (before, key, after) of each templated image
        self.listing: tuple[int, str] | None = None  # the column and key of a `key:` whose block list may follow

    def add(self, key: str, value: str | None) -> None:
        if value is not None:
            seen = self.values.setdefault(key, {})
            if len(seen) < MAX_VALUES:
                seen[value] = None

    def line(self, line: str) -> None:
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            return
        if self.listing is not None:
            item = _ITEM.match(line)
            if item is not None and len(item["indent"]) >= self.listing[0] \
                    and not _ENTRY.match(item["value"]):
                self.add(self.listing[1], _scalar(item["value"]))
                return
            self.listing = None
        if (image := _IMAGE.match(line)) is not None:
            self.images.append((image["pre"], image["key"], image["post"]))
            return
        m = _KEY.match(line)
        if m is None:
            return
        rest = m["rest"]
        if not rest:
            self.listing = (len(m["indent"]), m["key"])
        elif rest.startswith("[") and rest.endswith("]"):
            for entry in rest[1:-1].split(",")[:MAX_VALUES]:
                self.add(m["key"], _scalar(entry))
        else:
            self.add(m["key"], _scalar(rest))

    def deps(self, path: str) -> list[Dependency]:
        out: list[Dependency] = []
        for before, key, after in self.images:
            for value in self.values.get(key, {}):
                name, tag, digest = split_image(before + value + after)
                dep = Dependency("docker", name, image_version(tag, digest), path, True, "build")
                if dep not in out:
                    out.append(dep)
        return out


def matrix_images(path: str, lines: list[str]) -> list[Dependency]:
    """The image of each `image:`/`container:` line that reads one matrix key, at each value its job gives the key."""
    out: list[Dependency] = []
    job = _Job()
    in_jobs, column = False, -1
    for line in lines:
        if _JOBS.match(line):
            out += job.deps(path)
            job, in_jobs, column = _Job(), True, -1
            continue
        stripped = line.strip()
        if in_jobs and stripped and not stripped.startswith("#"):
            indent = len(line) - len(line.lstrip(" "))
            if indent == 0:
                in_jobs = False  # another top-level key: the jobs have ended
            elif column < 0 or indent <= column:
                column = indent  # a job's key: a new job starts
                out += job.deps(path)
                job = _Job()
                continue
        job.line(line)
    return list(dict.fromkeys(out + job.deps(path)))
