"""Files direnv runs or loads through an `.envrc`, in its folder or any folder above (issue 12, classes52).

direnv loads the `.envrc` of the folder a shell enters or of the nearest folder above it, so a root `.envrc` acts in
every sub-folder of the repository. It asks once (`direnv allow`) and again after each change of the `.envrc` itself,
but not after a change of what the `.envrc` loads: `source_env tools/env.sh`, `source`/`.` of a script, `dotenv
.env.dev` (bare `dotenv`: `.env`; its variables reach the shell: `PROMPT_COMMAND`, `PATH`), a script it runs by path
(`./scripts/dev-setup`, `eval "$(bin/env)"`), and the folders it puts first on the `PATH` (`PATH_add bin`, `path_add
PATH tools`, `load_prefix .local`: its `bin/`), whose programs then shadow `git` or `make`. Such a file runs on the
next `cd`, unasked; it was `src` and untagged. It is tagged `guardrail` (bucket unchanged), as the `.envrc` itself
is (`guardrail.autorun`) and as nixshells.py tags the Nix shell an `.envrc` enters: direnv is a step each developer
installs and confirms, not CI (docs/classification.md, "Files developer tools run or obey without being asked").

With the commits, HEAD's `.envrc` of each folder above a changed file is read (64 KiB, each once a gate); every word
of a line that is not a comment, taken relative to the `.envrc`'s folder (`./`, `$PWD/`, `$(pwd)/` taken off), that
is the file, or a `PATH_add`/`path_add`/`load_prefix` folder holding it, or a folder a `PATH=` assignment names
(`export PATH="$PWD/bin:$PATH"`, docs review 53), counts. From a patch alone the `.envrc` is
out of sight (an `.envrc` the patch changes is tagged by its path). A longer `.envrc` may load anything past its read:
every file below its folder is tagged (red team 38: a `source_env` after 64 KiB of comments was unread). *Limits:*
a path built from a variable or a loop, and what a loaded script loads in turn, are not followed.

In CI (`ci_loaded`, read by ciruns.named_in; the cileft63 round): a step that runs direnv (`direnv exec DIR …`,
`direnv allow`, `direnv export`, `eval "$(direnv …)"`, a direnv action) has bash source the `.envrc` of DIR (the
step's folder by default) with the job's secrets, so that `.envrc` is walked as a script CI runs: `ci`, and what it
loads by direnv's own words (`source_env`, `source_env_if_exists`, `dotenv`, `dotenv_if_exists`, `source_up`, `use
flake`, `use nix`) besides the shell's `source`/`.` the walk reads anyway. A comment line names nothing.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import replace
from weakref import WeakKeyDictionary

from gatekeeper.classify.contexttypes import Context
from gatekeeper.lazy_pattern import lazy
from gatekeeper.model import ClassifiedFile

__all__ = ["ci_loaded", "judged", "loads"]

GUARDRAIL = "guardrail"
_READ = 64 * 1024
_EVERY = "\0every"  # a longer `.envrc` names what is past its read too: every file below its folder (red team 38)
_PREFIXES = lazy(r"\$\(pwd\)/|\$\{PWD\}/|\$PWD/|\$\(expand_path \.\)/")
_SPLIT = lazy(r"[\s;&|()<>\"'`=]+")
_PATHS = lazy(r"(?<![\w-])(?:PATH_add|path_add[ \t]+\w+|load_prefix)[ \t]+([^;&|#\n]+)")
# A PATH set by assignment (`export PATH="$PWD/bin:$PATH"`, docs review 53): its value, quoted or not.
_PATH_SET = lazy(r"""(?<![\w-])PATH=((?:"[^"\n]*"|'[^'\n]*'|[^\s;&|#"'])+)""")
_DOTENV = lazy(r"(?<![\w-])dotenv(?:_if_exists)?[ \t]*(?:$|[;&|#])", re.MULTILINE)
# A folder's chain: ((folder, (files named, folders put on the PATH)), ...) of the `.envrc` files of it and every folder
# above that name something, nearest first; by folder, per context (a gate's contexts live once).
_Chain = tuple[tuple[str, tuple[frozenset[str], frozenset[str]]], ...]
_READ_BY: WeakKeyDictionary[Context, dict[str, _Chain]] = WeakKeyDictionary()


# direnv run by a CI step: `direnv exec DIR`, `direnv allow [DIR]`, `direnv export SHELL`, `direnv reload`, an action
_DIRENV = lazy(r"(?<![\w-])direnv(?:[ \t]++(exec|allow|export|reload|apply_dump)\b[ \t]*+([^\s;&|)'\"`]*+)|"
                     r"-action\b)")
# what an `.envrc` loads by direnv's own words; `use flake`/`use nix` evaluate the Nix files of its folder
_LOADS_ENV = lazy(r"^[ \t]*+(source_env(?:_if_exists)?|dotenv(?:_if_exists)?|source_up(?:_if_exists)?|use)"
                        r"\b[ \t]*+([^\s;&|#]*+)", re.MULTILINE)
_USES = {"flake": ("flake.nix", "flake.lock"), "nix": ("shell.nix", "default.nix")}
_COMMENTS = lazy(r"^[ \t]*+#[^\n]*+$", re.MULTILINE)


def ci_loaded(name: str, text: str) -> list[str]:
    """The files a CI text's direnv commands load (an `.envrc`, from the folder the command runs in), or, for an
    `.envrc` the walk reached, those it loads by direnv's words (from its folder)."""
    if "direnv" not in text and name != ".envrc":
        return []
    text = _COMMENTS.sub("", text)
    if name != ".envrc":
        found = []
        for verb, folder in _DIRENV.findall(text):
            folder = folder.strip("/") if verb in ("exec", "allow") and not folder.startswith("-") else ""
            found.append(f"{folder}/.envrc" if folder.strip("./") else ".envrc")
        return list(dict.fromkeys(found))
    out: list[str] = []
    for verb, word in _LOADS_ENV.findall(text):
        if verb == "use":
            out += _USES.get(word, ())
        elif verb.startswith("source_up"):
            out.append(f"../{word or '.envrc'}")
        elif verb.startswith("dotenv"):
            out.append(word or ".env")
        elif word:
            out.append(word)
    return [path for path in out if "$" not in path]


def loads(envrc: bytes) -> tuple[frozenset[str], frozenset[str]]:
    """(files, folders) an `.envrc` names, relative to its folder: every word that may be a path, and the folders
    `PATH_add`, `path_add VAR` and `load_prefix` (its `bin/`) put on the PATH."""
    text = "\n".join(line for line in envrc.decode("utf-8", "replace").splitlines()
                     if not line.lstrip().startswith("#"))
    text = _PREFIXES.sub("", text)
    files = {_normal(word) for word in _SPLIT.split(text) if word and "$" not in word}
    if _DOTENV.search(text):
        files.add(".env")
    folders: set[str] = set()
    for match in _PATHS.finditer(text):
        words = [_normal(word) for word in match.group(1).split() if "$" not in word]
        folders |= set(words) | ({f"{w}/bin" for w in words} if match.group(0).startswith("load_prefix") else set())
    for match in _PATH_SET.finditer(text):  # each entry of the new PATH that is not a variable
        value = match.group(1).replace('"', "").replace("'", "")
        folders |= {_normal(part) for part in value.split(":") if part and "$" not in part}
    return frozenset(files - {""}), frozenset(folders - {""})


def judged(item: ClassifiedFile, context: Context) -> ClassifiedFile:
    """`item` tagged `guardrail` when an `.envrc` in a folder holding a side of it loads that side (the module)."""
    if GUARDRAIL in item.tags or context.kind != "tree":
        return item
    chains = _READ_BY.setdefault(context, {})
    for side in item.change.sides():
        if side.rpartition("/")[2] == ".envrc":
            continue
        for folder, (files, folders) in _chain(side.rpartition("/")[0], context, chains):
            inside = side[len(folder) + 1:] if folder else side
            if inside in files or inside.rpartition("/")[0] in folders or _EVERY in files:
                return replace(item, tags=tuple(sorted({*item.tags, GUARDRAIL})))
    return item


def _chain(parent: str, context: Context, chains: dict[str, _Chain]) -> _Chain:
    """The `.envrc` files of `parent` and every folder above that name something, nearest first: each folder's read
    once and its chain built once a gate (most files share a folder, most trees hold none); a loop, not recursion."""
    missing, folder = [], parent
    while folder not in chains:
        missing.append(folder)
        if not folder:
            break
        folder = folder.rpartition("/")[0]
    above = chains.get(folder, ())
    for folder in reversed(missing):
        blob = context.head_blob(f"{folder}/.envrc" if folder else ".envrc", _READ + 1)
        named = (frozenset({_EVERY}), frozenset()) if blob is not None and len(blob[1]) > _READ \
            else loads(blob[1]) if blob is not None else (frozenset(), frozenset())
        above = chains[folder] = (((folder, named),) if any(named) else ()) + above
    return chains[parent]


def _normal(word: str) -> str:
    path = posixpath.normpath(word.strip())
    return "" if path in (".", "..") or path.startswith(("../", "/")) else path
