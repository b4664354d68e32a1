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
A NixOS or home-manager configuration (`configuration.nix`, `home.nix`, `home-manager.nix`, ..., whose content the
content tier calls a machine's) reads what its path literals
name: `builtins.readFile ./kitty`, `source = ./config/nvim` (a folder: every file below it) become a machine's
settings; a Nix package's `default.nix` or a flake names its sources, not a machine's, and is not taken.
The configurations of a changed file's own folders are read here; one that reaches a file through `../` from a
folder beside it is found by siblingrefs.py (with the commits: every configuration holding `../` is read once).
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from functools import partial

from gatekeeper.classify.dockerrefs import contexts, is_dockerfile, run_scripts
from gatekeeper.classify.enclosures import Enclosed, Enclosures
from gatekeeper.classify.shapes import NIXOS
from gatekeeper.lazy_pattern import lazy

MAX_TF_FILES = 512  # configuration files read per gate; a file above more unread ones counts as named (fail closed)
# Terraform, OpenTofu, Terragrunt and Packer HCL, and Bicep (`loadTextContent('./New-SshKey.sh')` is the script a
# deploymentScript runs, `loadTextContent('policy.xml')` an API Management policy); not every `.hcl` file (a
# licence-header tool's `.copywrite.hcl` lists paths it ignores, a Vault policy or Nomad job is no configuration of
# these tools). Their JSON syntax too (red team 10: `main.tf.json` was not read), where every expression is an
# interpolation. Variable files too: a `.tfvars` value naming a file (`source = "scripts/rover_agents.sh"`) is a path
# the configuration is given to upload or run (the seventeenth set's Azure CAF example).
# A legacy Packer JSON template by the names the convention gives it (`packer.json`, `ubuntu.packer.json`,
# `packer-base.json`): its provisioners' `"script": "database.sh"` run on the machine image (the twenty-fifth set).
CONFIGURATION_SUFFIXES = (".tf", ".tofu", "/terragrunt.hcl", ".pkr.hcl", ".bicep", ".tf.json", ".tofu.json",
                          "/terragrunt.hcl.json", ".pkr.json", ".tfvars", ".tfvars.json", "/packer.json",
                          ".packer.json", "-packer.json", "_packer.json")
_PACKER_JSON = lazy(r"packer[-_][\w.-]*\.json", re.IGNORECASE)
# A machine's Nix configuration by the names NixOS and home-manager give it (`configuration.nix`,
# `hardware-configuration.nix`, `home.nix`, `home-manager.nix`): not every `.nix` file (an overlay's thousands of
# manifests in one folder would all be read, and a package's expressions name its sources).
_NIX_CONFIGURATION = lazy(r"(?:[\w.-]*configuration|home|home-manager)\.nix")
# A word of a configuration: what lies between blanks, quotes, brackets and separators (a command string's words).
_WORD = lazy(r"""[^\s"'\[\](){},;=<>|&`]+""")
_MODULE_DIR = ("${path.module}/", "${path.root}/", "${path.cwd}/", "${get_terragrunt_dir()}/")
# An interpolation holding no other one: a reference alone (`${var.dir}`) is some other place, one that calls a
# function or holds a string (`${file("./boot.sh")}`, Terraform 0.11's style and the JSON syntax's only one) is
# read for the words inside it (red team 10). Innermost first, a bounded number of rounds (nesting deeper than
# that leaves the rest to the word filter, where a `${` makes no path).
_INTERPOLATION = lazy(r"\$\{((?:(?!\$\{)[^}\n]){0,200})\}")
_ROUNDS = 8
_GLOB = lazy(r"[*?]")
_REFERENCE = "\x00"  # what an interpolation holding a reference alone (`${var.dir}`) leaves in a word
# A `format()` verb stands for a value as an interpolation does (`format("%s/boot.sh", path.module)`: red team 11).
# flags and width read once each (attack 39: `%` and 16 KiB of `0`, flags or width every way, 5.8 CPU-s)
_FORMAT_VERB = lazy(r"%[-+# 0]*+\d*+(?:\.\d++)?[sdvq]")
MAX_PATTERNS = 256  # words with a variable part per configuration; past that every file below it counts (fail closed)
# The types of a file name without a folder that counts as a path (`script = "install.sh"`): not `var.region`.
FILE_TYPES = frozenset({
    "sh", "bash", "zsh", "ps1", "psm1", "py", "rb", "pl", "bat", "cmd", "js", "mjs", "json", "yaml", "yml", "tpl",
    "tftpl", "tmpl", "conf", "cfg", "ini", "toml", "txt", "pem", "crt", "key", "pub", "xml", "sql", "j2", "zip",
    "hcl", "env", "properties",
})
_FILESET = lazy(r'\bfileset\(\s*"(?:\$\{path\.(?:module|root|cwd)\}/?)?([^"$\s{}]*)"')
# A `locals` block and a `variable "NAME"` block (neither holding a nested block; an interpolation is no block), and
# the literal strings they set.
_LOCALS = lazy(r"^[ \t]*(locals)[ \t]*\{((?:[^{}]|\$\{[^{}\n]*\})*)\}", re.MULTILINE)
_VARIABLE = lazy(r'^[ \t]*variable[ \t]+"([\w-]+)"[ \t]*\{((?:[^{}]|\$\{[^{}\n]*\})*)\}', re.MULTILINE)
_LOCAL_ENTRY = lazy(r'^[ \t]*([A-Za-z_][\w-]*)[ \t]*=[ \t]*"([^"\n]*)"[ \t]*$', re.MULTILINE)
_DEFAULT = lazy(r'^[ \t]*default[ \t]*=[ \t]*"([^"\n]*)"[ \t]*$', re.MULTILINE)
_NAMED_VALUE = lazy(r"\$\{(local|var)\.([A-Za-z_][\w-]*)\}|(?<![\w.])(local|var)\.([A-Za-z_][\w-]*)(?![\w-])")
# Where Terraform writes rather than reads: local_file's `filename`, archive_file's `output_path`.
_WRITTEN = lazy(r"^[ \t]*(?:filename|output_path)[ \t]*=.*$", re.MULTILINE)


# A Nix path literal: a relative path outside any string (`./kitty`, `../hosts/common`), not a URL's or a store
# path's tail; a `#` or `/* */` comment names nothing.
_NIX_PATH = lazy(r"(?<![\w.+/${:-])\.\.?/[\w.+/-]*[\w+-]")
# A path literal in an antiquotation (`ExecStart = "${pkgs.x}/bin/x --conf ${./etc/x.yaml}"`): Nix copies the file
# into the store and the string names its copy, which the machine reads (the sixty-fifth set's casey/lab).
_NIX_INTERPOLATED_PATH = lazy(r"\$\{[ \t]*(\.\.?/[\w.+/-]*[\w+-])[ \t]*\}")
_NIX_COMMENT = Enclosures(Enclosed(r"/\*.*?\*/", "/*", "*/"), r"#[^\n]*", flags=re.DOTALL)  # cost round 42

# The definitions of the machines Vagrant and Test Kitchen bring up: a Vagrantfile loads its settings and runs its
# provisioning scripts by path (`YAML.load_file(... "config.yaml")`, `provision "shell", path: "bootstrap.sh"`), a
# Test Kitchen file names the Vagrant blocks, playbooks and scripts it converges a machine with (`vagrantfiles:`,
# `playbook:`): the nineteenth label set's quickstart settings and a Kitchen Vagrant block were `src`.
_MACHINE_DEFINITION = lazy(r"Vagrantfile|\.?kitchen(?:\.[^/]+)?\.ya?ml")


# What the name of every configuration that is no Dockerfile, Containerfile or Vagrantfile ends with, case aside:
# CONFIGURATION_SUFFIXES, a Test Kitchen file (YAML), a Packer JSON template, a Nix configuration.
_CONFIGURATION_ENDINGS = ("tf", "tofu", "hcl", "bicep", "json", "tfvars", "yml", "yaml", "nix")


def is_machine_definition(path: str) -> bool:
    """A Vagrantfile or a Test Kitchen settings file (`kitchen.yml`, `.kitchen.vagrant.yml`) by its name."""
    return _MACHINE_DEFINITION.fullmatch(path.rpartition("/")[2]) is not None


def is_configuration(path: str) -> bool:
    """A Terraform, OpenTofu, Terragrunt, Packer HCL or Bicep file, a Dockerfile, a Vagrantfile or a Test Kitchen
    file, which may read or run files by path."""
    lower = path.rpartition("/")[2].lower()
    if not lower.endswith(_CONFIGURATION_ENDINGS) and "dockerfile" not in lower and "containerfile" not in lower \
            and "vagrantfile" not in lower and lower.isascii():  # `re`'s case-blind `ſ` is an s (attack 15)
        return False  # most paths of a tree (every one of both trees is asked): C-speed tests, not five calls
    return f"/{path}".endswith(CONFIGURATION_SUFFIXES) or is_dockerfile(path) or is_machine_definition(path) \
        or _PACKER_JSON.fullmatch(path.rpartition("/")[2]) is not None \
        or _NIX_CONFIGURATION.fullmatch(path.rpartition("/")[2]) is not None


DOCKER_RUN = "iac.context.dockerfile-script"  # a file an image build runs (dockerrefs.py)


def reference_rule(where: str) -> str:
    """The rule of a file the configuration at `where` names: what kind of definition reads or runs it."""
    if is_dockerfile(where):
        return DOCKER_RUN
    if where.endswith(".nix"):
        return "iac.context.nix-file"
    return "iac.context.machine-file" if is_machine_definition(where) else "iac.context.terraform-file"


@dataclass(frozen=True, slots=True)
class Wildcard:
    """A path with a variable part, as the files it may name: below `base`, at `middle` exactly (None: any folders
    or none), whose name matches `name` (a variable part in it is any text, `*` and `?` within the name)."""

    word: str  # as the configuration spells it, `${…}` for each variable part
    base: str
    middle: str | None
    name: re.Pattern[str]

    def names(self, side: str) -> bool:
        if side == self.base:  # `templates/${var.t}` with `t` empty, a COPY of one file that a glob runs
            return self.name.fullmatch(side.rpartition("/")[2]) is not None or self.name.fullmatch("") is not None
        folder, _, name = side.rpartition("/")
        if self.base and not (folder == self.base or folder.startswith(f"{self.base}/")):
            return False
        below = folder[len(self.base):].lstrip("/") if self.base else folder
        return (self.middle is None or below == self.middle) and self.name.fullmatch(name) is not None


@dataclass(frozen=True, slots=True)
class Named:
    """What one configuration reads or runs: files by path, folders it reads whole (fileset), and paths with a
    variable part or a glob (`${path.module}/${var.dir}/boot.sh`)."""

    files: frozenset[str]
    folders: frozenset[str]
    wildcards: tuple[Wildcard, ...] = ()

    def reaches(self, side: str) -> str | None:
        """How this configuration names the repository path `side` (evidence), or None."""
        if side in self.files:
            return f"names {side}"
        if self.folders and (hit := next((d for d in self.folders if side.startswith(f"{d}/") or not d),
                                         None)) is not None:
            return f"fileset({hit or '.'})"
        if self.wildcards and (wild := next((w for w in self.wildcards if w.names(side)), None)) is not None:
            return f"names {side} (as {wild.word})"
        return None


def names_in(where: str, text: str) -> Named:
    """What the configuration at `where` reads or runs: a Dockerfile the scripts its RUN instructions run
    (dockerrefs.py), any other the paths of `named_paths`."""
    folder = where.rpartition("/")[0]
    if is_dockerfile(where):
        files, wild = set(), set()
        for context in contexts(folder, text):  # its folder, and an ancestor a COPY names it from
            found, found_wild = run_scripts(context, text)
            files |= found
            wild |= found_wild
        return Named(frozenset(files), frozenset(), tuple(Wildcard(word, base, None, re.compile(name, re.DOTALL))
                                                          for word, base, name in sorted(wild)[:MAX_PATTERNS]))
    if where.endswith(".nix"):
        return nix_paths(folder, text) if NIXOS.search(text) else Named(frozenset(), frozenset())
    named = named_paths(folder, _with_values(text))
    if is_packer(where):  # a file provisioner uploads a folder it names whole, everything below it onto the image
        return Named(named.files, named.folders | named.files, named.wildcards)
    return named


def is_packer(path: str) -> bool:
    """A Packer template by its name (HCL2, its JSON syntax, a legacy JSON template's conventional names)."""
    name = path.rpartition("/")[2].lower()
    return name.endswith((".pkr.hcl", ".pkr.json")) or name in ("packer.json",) \
        or name.endswith((".packer.json", "-packer.json", "_packer.json")) or _PACKER_JSON.fullmatch(name) is not None


def _with_values(text: str) -> str:
    """`text` with each `local.NAME` and `var.NAME` the same file sets to a literal string (a `locals` entry, a
    variable's `default`) written as that string: `source = "${local.setup}/limits.conf"` names
    `../../shared/setup/limits.conf` when `locals { setup = "${path.root}/../../shared/setup" }` (red team 32: the
    thirty-ninth set's Packer setup folder, named only through a local, was `src`); a variable's default is read
    besides (it may be overridden). A value holding another interpolation than the module's folder is left alone, and
    so is a name set twice."""
    if "local." not in text and "var." not in text:
        return text
    values: dict[str, str | None] = {}
    for kind, pattern in (("local", _LOCALS), ("var", _VARIABLE)):
        for block in pattern.finditer(text):
            for name, value in (_LOCAL_ENTRY.findall(block.group(2)) if kind == "local"
                                else [(block.group(1), d) for d in _DEFAULT.findall(block.group(2))[:1]]):
                plain = value
                for prefix in _MODULE_DIR:
                    plain = plain.replace(prefix, "")
                key = f"{kind}.{name}"
                values[key] = value if "${" not in plain and key not in values else None
    # A local is what the file sets; a variable's default may be overridden (`-var`, a .tfvars file): the line
    # with the default is read beside the line as written, whose `${var.dir}/boot.sh` names any such file.
    fixed = {key: value for key, value in values.items() if value is not None and key.startswith("local.")}
    defaults = {key: value for key, value in values.items() if value is not None and key.startswith("var.")}
    if fixed:
        text = _NAMED_VALUE.sub(partial(_value_of, fixed), text)  # one pass, however many names
    if defaults and (given := _NAMED_VALUE.sub(partial(_value_of, defaults), text)) != text:
        # a value holds no line break: both texts have the same lines
        pairs = zip(given.split("\n"), text.split("\n"), strict=True)
        text += "\n" + "\n".join(line for line, was in pairs if line != was)
    return text


def nix_paths(folder: str, text: str) -> Named:
    """The repository paths a machine configuration in `folder` names by path literal, each as a file and as a
    folder whose every file it may read (`home.file.".config".source = ./config` copies a folder whole)."""
    text = _NIX_COMMENT.sub("", text)
    words = [*_NIX_PATH.findall(text), *_NIX_INTERPOLATED_PATH.findall(text)]
    named = {_resolve(folder, word) for word in words} - {""}
    return Named(frozenset(named), frozenset(named))


def named_paths(folder: str, text: str) -> Named:
    """The repository paths a configuration in `folder` names, the folders whose every file it may read
    (fileset), and the patterns of paths with a variable part. Every word of a line that is not a comment counts
    when it is path-shaped: the module's folder (`${path.module}/x`, `${get_terragrunt_dir()}/x`), `./x` and
    `../x`, a relative path with a folder (`scripts/check.sh`) or a file name of a type configurations read or run
    (`install.sh`), each resolved against `folder`; an absolute path, a URL or a reference alone (`${var.script}`)
    is some other place. A word with a variable part or a glob (`${path.module}/${var.dir}/boot.sh`,
    `${var.dir}/boot.sh`, `scripts/*.sh`: red team 11, each was `src`) names every path its literal parts allow
    below `folder` (see `_pattern`). A path Terraform only writes to (`filename`, `output_path`) is not read."""
    text = _WRITTEN.sub("", text)
    folders = {match.group(1) for match in _FILESET.finditer(text)}
    for prefix in _MODULE_DIR:
        text = text.replace(prefix, "./")
    text = text.replace('\\"', '"')  # a JSON configuration's string holds its expressions' quotes escaped
    for _ in range(_ROUNDS):  # any other interpolation: a word holding one is no path of ours
        text, count = _INTERPOLATION.subn(_unwrap, text)
        if not count:
            break
    text = _FORMAT_VERB.sub(_REFERENCE, text)
    files: set[str] = set()
    wildcards: dict[tuple[str, str | None, str], str] = {}  # (base, middle, name pattern): the word
    for line in text.splitlines():
        if line.lstrip().startswith(("#", "//")):
            continue
        for word in _WORD.findall(line):
            if word.startswith("/") or "://" in word or "::" in word:
                continue
            if _REFERENCE in word or _GLOB.search(word):
                if (wildcard := _wildcard(folder, word)) is not None:
                    wildcards.setdefault(wildcard, word.replace(_REFERENCE, "${…}"))
            elif "/" in word or word.rpartition(".")[2].lower() in FILE_TYPES and word.partition(".")[0]:
                files.add(word)
    if len(wildcards) > MAX_PATTERNS:
        wildcards = {(folder, None, ".*"): f"more than {MAX_PATTERNS} paths with a variable part"}
    return Named(frozenset({_resolve(folder, f) for f in files} - {""}),
                 frozenset({_resolve(folder, d) for d in folders}),
                 tuple(Wildcard(word, base, middle, re.compile(name, re.DOTALL))
                       for (base, middle, name), word in sorted(wildcards.items(), key=lambda item: item[1])))


def _wildcard(folder: str, word: str) -> tuple[str, str | None, str] | None:
    """(base, middle, name pattern) of the files `word`, which holds a variable part or a glob, may name, or None.
    The literal start's folders resolve against `folder` (the base); the folders after it are exact when literal,
    else any (a variable may be empty or hold folders: over-reading is the safe side; a value that climbs out of
    the base with `..` is not followed, as a module reaching a file through `../` is not); the name's
    variable part is any text, `*` and `?` within the name. `${path.module}/${var.file}` names every file below the
    module. A word names nothing when it could be any file anywhere or is no path: nothing literal but separators
    (`${var.a}/${var.b}`, `*`), a name with nothing literal after folders that start with a variable
    (`${var.a}/logs/${var.b}`), or no folder and no file type (`hub-spoke-${var.env}`, a resource's name: the tenth
    and ninth label sets had six such words reaching documents and build files)."""
    literal = word.replace(_REFERENCE, "").replace("*", "").replace("?", "")
    if not literal.strip("./") and not word.startswith("./"):
        return None
    first = min(at for at in (word.find(_REFERENCE), word.find("*"), word.find("?")) if at >= 0)
    start, _, partial = word[:first].rpartition("/")
    base = folder
    if start:
        joined = posixpath.normpath(posixpath.join(folder, start))
        if joined == ".." or joined.startswith("../"):
            return None  # above the repository's root
        base = "" if joined == "." else joined
    middle, _, name = (partial + word[first:]).rpartition("/")
    named = name.replace(_REFERENCE, "").replace("*", "").replace("?", "").strip(".")
    if "/" not in word and not (named and name.rpartition(".")[2].lower() in FILE_TYPES):
        return None  # a name without a folder or a file type is a resource's (`hub-${var.env}`), not a file's
    if not named and not start:
        return None  # nothing literal but folders in the middle (`${var.a}/logs/${var.b}`): any file anywhere
    exact = not (_REFERENCE in middle or _GLOB.search(middle) or {".", ".."} & set(middle.split("/")))
    # A container image's tag or digest (`${…}.dkr.ecr…/app:${var.tag}`, the seventy-ninth set): read as a path, a name
    # that starts with `app:` (a tag holds no folders), not every file below the module as a variable's folders would be
    image = ":" in name and name.endswith(_REFERENCE)
    if _REFERENCE in name and not image:  # the variable may hold folders: the name is what follows its last one
        name, exact = _REFERENCE + name.rpartition(_REFERENCE)[2], False
    pattern = "".join(".*" if c == _REFERENCE else "[^/]*" if c == "*" else "[^/]" if c == "?" else re.escape(c)
                      for c in name)
    return base, middle if exact else None, pattern


def _value_of(known: dict[str, str], match: re.Match[str]) -> str:
    """An interpolation of a known name as its value, the name alone as its value quoted; any other as it was."""
    key = f"{match.group(1) or match.group(3)}.{match.group(2) or match.group(4)}"
    if key not in known:
        return match.group(0)
    return known[key] if match.group(1) else f'"{known[key]}"'


def _unwrap(match: re.Match[str]) -> str:
    inner = match.group(1)
    return f" {inner} " if "(" in inner or '"' in inner else _REFERENCE


def _resolve(folder: str, relative: str) -> str:
    joined = posixpath.normpath(posixpath.join(folder, relative)) if folder else posixpath.normpath(relative)
    return "" if joined in (".", "") or joined.startswith("../") else joined
