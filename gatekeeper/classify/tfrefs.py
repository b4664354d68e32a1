"""Files a Terraform module reads by path: what it puts into the infrastructure it creates.

`templatefile("${path.module}/assets/default.conf", …)` becomes a VM's cloud-config, `file("policy.json")` an
IAM policy, `program = ["${path.module}/delay-vault-aws"]` runs as an external data source, a `local-exec`
command runs `${path.module}/scripts/x.sh`. None of these files says infrastructure by its name or content
(a `.conf`, a JSON document, a script without an extension); the `.tf` file that names it does. So the
`.tf` files of a changed file's folder and of the folders above it are read (each once, FULL_READ bytes, at
most MAX_TF_FILES per gate) and reduced to the paths they name: `${path.module}/…`, `${path.root}/…` and
`${path.cwd}/…` anywhere in the text (a command string too), a string starting with `./` or `../`, and the
literal first argument of a `file*()`/`templatefile()` call; each resolved against the `.tf` file's folder
(the module's; `path.root`/`path.cwd` usually the same). `fileset(DIR, …)` names every file below DIR.
A path Terraform writes (a `local_file`'s `filename`, an `archive_file`'s `output_path`: terraform-aws-eks renders
its tests' expected user data there) is not one it reads.
Only the `.tf` files of a changed file's own folders are read: a module that reaches a file through `../` from
a folder beside it is not seen (reading every `.tf` file of a large Terraform repository for each change was
not worth it); that file's own kind (a policy document, a template beside `.tf` files) still decides.
"""

from __future__ import annotations

import posixpath
import re

MAX_TF_FILES = 512  # .tf files read per gate; a file above more unread ones counts as named (fail closed)
_PATH_VAR = re.compile(r"\$\{path\.(?:module|root|cwd)\}/([\w.@+/=-]+)")
_DOTTED = re.compile(r'"(\.\.?/[^"$\s{}]+)"')
_FILE_CALL = re.compile(r'\b(file\w*|templatefile)\(\s*"([^"$\s{}]+)"')
_FILESET = re.compile(r'\bfileset\(\s*"(?:\$\{path\.(?:module|root|cwd)\}/?)?([^"$\s{}]*)"')


# Where Terraform writes rather than reads: local_file's `filename`, archive_file's `output_path`.
_WRITTEN = re.compile(r"^[ \t]*(?:filename|output_path)[ \t]*=.*$", re.MULTILINE)


def named_paths(folder: str, text: str) -> tuple[set[str], set[str]]:
    """(files, folders): the repository paths a `.tf` file in `folder` names, and the folders whose every
    file it may read (fileset). A path Terraform only writes to (`filename`, `output_path`) is not read."""
    text = _WRITTEN.sub("", text)
    files: set[str] = set()
    for match in _PATH_VAR.finditer(text):
        files.add(match.group(1))
    for match in _DOTTED.finditer(text):
        files.add(match.group(1))
    for match in _FILE_CALL.finditer(text):
        if match.group(1) != "fileset":
            files.add(match.group(2))
    folders = {match.group(1) for match in _FILESET.finditer(text)}
    return {_resolve(folder, f) for f in files} - {""}, {_resolve(folder, d) for d in folders}


def _resolve(folder: str, relative: str) -> str:
    joined = posixpath.normpath(posixpath.join(folder, relative)) if folder else posixpath.normpath(relative)
    return "" if joined in (".", "") or joined.startswith("../") else joined


def ancestors(path: str) -> list[str]:
    """The folders holding `path`, nearest first ('' is the repository root)."""
    out = []
    folder = path.rpartition("/")[0]
    while True:
        out.append(folder)
        if not folder:
            return out
        folder = folder.rpartition("/")[0]
