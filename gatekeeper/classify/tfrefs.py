"""Files a Terraform module reads by path: what it puts into the infrastructure it creates.

`templatefile("${path.module}/assets/default.conf", …)` becomes a VM's cloud-config, `file("policy.json")` an
IAM policy, `program = ["${path.module}/delay-vault-aws"]` runs as an external data source, a `local-exec`
command runs `${path.module}/scripts/x.sh`. None of these files says infrastructure by its name or content
(a `.conf`, a JSON document, a script without an extension); the `.tf` file that names it does. So the
`.tf` files of a changed file's folder and of the folders above it are read (each once, FULL_READ bytes, at
most MAX_TF_FILES per gate; OpenTofu's `.tofu`, Terragrunt's and Packer's `.hcl` too) and reduced to the paths
they name: every path-shaped word outside comments (see `named_paths`: a command string's words, a hook's
`execute`, a provisioner's `script`, `file()` arguments), resolved against the file's folder (the module's;
`path.root`/`path.cwd` usually the same). `fileset(DIR, …)` names every file below DIR.
A path Terraform writes (a `local_file`'s `filename`, an `archive_file`'s `output_path`: terraform-aws-eks renders
its tests' expected user data there) is not one it reads.
Only the `.tf` files of a changed file's own folders are read: a module that reaches a file through `../` from
a folder beside it is not seen (reading every `.tf` file of a large Terraform repository for each change was
not worth it); that file's own kind (a policy document, a template beside `.tf` files) still decides.
"""

from __future__ import annotations

import posixpath
import re

from gatekeeper.classify.dockerrefs import is_dockerfile, run_scripts

MAX_TF_FILES = 512  # configuration files read per gate; a file above more unread ones counts as named (fail closed)
# Terraform, OpenTofu, Terragrunt and Packer HCL, and Bicep (`loadTextContent('./New-SshKey.sh')` is the script a
# deploymentScript runs, `loadTextContent('policy.xml')` an API Management policy); not every `.hcl` file (a
# licence-header tool's `.copywrite.hcl` lists paths it ignores, a Vault policy or Nomad job is no configuration of
# these tools). Their JSON syntax too (red team 10: `main.tf.json` was not read), where every expression is an
# interpolation.
CONFIGURATION_SUFFIXES = (".tf", ".tofu", "/terragrunt.hcl", ".pkr.hcl", ".bicep", ".tf.json", ".tofu.json",
                          "/terragrunt.hcl.json", ".pkr.json")
# A word of a configuration: what lies between blanks, quotes, brackets and separators (a command string's words).
_WORD = re.compile(r"""[^\s"'\[\](){},;=<>|&`]+""")
_MODULE_DIR = ("${path.module}/", "${path.root}/", "${path.cwd}/", "${get_terragrunt_dir()}/")
# An interpolation holding no other one: a reference alone (`${var.dir}`) is some other place, one that calls a
# function or holds a string (`${file("./boot.sh")}`, Terraform 0.11's style and the JSON syntax's only one) is
# read for the words inside it (red team 10). Innermost first, a bounded number of rounds (nesting deeper than
# that leaves the rest to the word filter, where a `${` makes no path).
_INTERPOLATION = re.compile(r"\$\{((?:(?!\$\{)[^}\n]){0,200})\}")
_ROUNDS = 8
_GLOB = re.compile(r"[*?]")
# The types of a file name without a folder that counts as a path (`script = "install.sh"`): not `var.region`.
FILE_TYPES = frozenset({
    "sh", "bash", "zsh", "ps1", "psm1", "py", "rb", "pl", "bat", "cmd", "js", "mjs", "json", "yaml", "yml", "tpl",
    "tftpl", "tmpl", "conf", "cfg", "ini", "toml", "txt", "pem", "crt", "key", "pub", "xml", "sql", "j2", "zip",
    "hcl", "env", "properties",
})
_FILESET = re.compile(r'\bfileset\(\s*"(?:\$\{path\.(?:module|root|cwd)\}/?)?([^"$\s{}]*)"')
# Where Terraform writes rather than reads: local_file's `filename`, archive_file's `output_path`.
_WRITTEN = re.compile(r"^[ \t]*(?:filename|output_path)[ \t]*=.*$", re.MULTILINE)


def is_configuration(path: str) -> bool:
    """A Terraform, OpenTofu, Terragrunt, Packer HCL or Bicep file, or a Dockerfile, which may read or run files by
    path."""
    return f"/{path}".endswith(CONFIGURATION_SUFFIXES) or is_dockerfile(path)


def names_in(where: str, text: str) -> tuple[set[str], set[str]]:
    """(files, folders) the configuration at `where` reads or runs: a Dockerfile the scripts its RUN instructions
    run (dockerrefs.py), any other the paths of `named_paths`."""
    folder = where.rpartition("/")[0]
    if is_dockerfile(where):
        return run_scripts(folder, text), set()
    return named_paths(folder, text)


def named_paths(folder: str, text: str) -> tuple[set[str], set[str]]:
    """(files, folders): the repository paths a configuration in `folder` names, and the folders whose every
    file it may read (fileset). Every word of a line that is not a comment counts when it is path-shaped: the
    module's folder (`${path.module}/x`, `${get_terragrunt_dir()}/x`), `./x` and `../x`, a relative path with a
    folder (`scripts/check.sh`) or a file name of a type configurations read or run (`install.sh`), each
    resolved against `folder`; an absolute path, a URL, a glob or another interpolation (`${var.dir}/x`) is some
    other place. A path Terraform only writes to (`filename`, `output_path`) is not read."""
    text = _WRITTEN.sub("", text)
    folders = {match.group(1) for match in _FILESET.finditer(text)}
    for prefix in _MODULE_DIR:
        text = text.replace(prefix, "./")
    text = text.replace('\\"', '"')  # a JSON configuration's string holds its expressions' quotes escaped
    for _ in range(_ROUNDS):  # any other interpolation: a word holding one is no path of ours
        text, count = _INTERPOLATION.subn(_unwrap, text)
        if not count:
            break
    files: set[str] = set()
    for line in text.splitlines():
        if line.lstrip().startswith(("#", "//")):
            continue
        for word in _WORD.findall(line):
            if "\x00" in word or word.startswith("/") or "://" in word or "::" in word or _GLOB.search(word):
                continue
            if "/" in word or word.rpartition(".")[2].lower() in FILE_TYPES and word.partition(".")[0]:
                files.add(word)
    return {_resolve(folder, f) for f in files} - {""}, {_resolve(folder, d) for d in folders}


def _unwrap(match: re.Match[str]) -> str:
    inner = match.group(1)
    return f" {inner} " if "(" in inner or '"' in inner else "\x00"


def _resolve(folder: str, relative: str) -> str:
    joined = posixpath.normpath(posixpath.join(folder, relative)) if folder else posixpath.normpath(relative)
    return "" if joined in (".", "") or joined.startswith("../") else joined
