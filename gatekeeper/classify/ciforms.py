"""What three more CI forms run, for ciruns.named_in (tests/test_classify_twentyfifth_classes.py).

- **Earthly.** An `Earthfile` is a pipeline definition: `RUN ./scripts/build.sh`, `RUN hack/gen`, `RUN bash
  tests/run` run files of the Earthfile's folder (its build context) or of the repository (a `LOCALLY` target runs on
  the host). The instruction keyword and its flags are dropped so that the command's own words are read as a step's
  are (`earthly_commands`); ciwalk also reads it as a Dockerfile (a `COPY` then `RUN` of an absolute path). A `COPY`
  or `ADD` alone copies data and `CMD`/`ENTRYPOINT` are the image's program: no build command (over-reads 1). Every
  Earthfile is a definition, so one a `DO`/`IMPORT`/`BUILD` names is read in its own right.
- **Buildkite.** The agent runs a repository's hooks (`.buildkite/hooks/*`) and the hooks of each plugin a step names
  by a local path (`plugins: [./tools/bk-cache#v1: …]`: every file of `tools/bk-cache/hooks/`) before and around each
  command; a `buildkite-agent pipeline upload ci/deploy.yml` names a pipeline whose steps run in turn.
- **Pipeline files pulled in by path** (red team 36). Azure Pipelines inserts a template's steps, jobs, stages or
  variables where a file says `template: FILE` (a list item's, `extends:`'s, or a parameter a template is handed under
  a `…Template` key), FILE from the including file's folder (`/FILE`: the root; `FILE@self`: this repository;
  `FILE@alias`: another one, named nothing here); CircleCI's setup workflow continues with the file its continuation
  orb is handed (`configuration_path:`, path-filtering's `config-path:`, from the root). Each is read as a pipeline.
  Not in `.github/`: a workflow's `template:` inputs are its actions' (an issue or pull request body to fill in).
- **GitHub expressions in paths.** `${{ github.workspace }}` (and `$GITHUB_WORKSPACE`, spelt in an expression or the
  shell) is the checkout's root and `${{ github.action_path }}` the action's folder: both are dropped, so the path is
  read below the root or the definition's folder. `${{ matrix.X }}` is each value the workflow lists for X (in any
  job's `strategy.matrix`, its `include:` entries too) when they are all plain strings; any other expression stays a
  variable part. A variable part at a path's start (`./${{ matrix.pkg }}/release.sh` with a computed matrix) stands
  for any folder (ciruns: the path below any folder), and one that is a file's whole stem in a named folder
  (`tools/${{ inputs.tool }}.py`) for any file of that type there: bounded by the fixed part, never a suffix of a
  word.
- **A definition copied into place** (cileft65): `cp .gitlab-ci.yml.dist .gitlab-ci.yml`, `cp ci/release.yml
  .github/workflows/`, `envsubst < ci/pipeline.yml.tpl > .gitlab-ci.yml`: the file a step copies (or feeds) to a CI
  definition's path is that definition's text (a `.env` destination is Compose's, not read so: `cp .env.example .env`).
- **sourcehut clone folders.** builds.sr.ht clones each of a manifest's `sources:` into `~/<name>` and runs its tasks in
  `~`: `proj/bin/check` and `cd proj` name the repository's `bin/check` and root (the sixty-fifth set).
"""

from __future__ import annotations

import math
import posixpath
import re
from typing import Any

from gatekeeper.classify import cienv, ciloops
from gatekeeper.lazy_pattern import lazy

__all__ = ["ANY_FOLDER", "HOOK_FOLDERS", "copied_definitions", "earthly_commands", "expand_matrix", "holds_anchor",
           "is_earthfile", "is_hook", "orb_includes", "orb_paths", "packit_specs", "pipeline_files", "pipeline_uploads",
           "plugin_hooks", "release_commands", "rooted", "untold"]

ANY = "*"
MAX_VARIANTS = 32  # lines a line with matrix expressions may become (past it: the expressions stay variable)
HOOK_FOLDERS = (".buildkite/",)
# a line of an Earthfile the image holds, not the build runs (earthly_commands); a continued line is no instruction
_IMAGE_DATA = lazy(r"[ \t]*+(COPY|ADD|CMD|ENTRYPOINT|SAVE)\b(?![^\n]*\\$)")
_INSTRUCTION = lazy(r"^([ \t]*)(?:RUN|CMD|ENTRYPOINT)((?:[ \t]+--[\w-]+(?:=\S*)?)*)[ \t]+", re.MULTILINE)
_LOCAL_PLUGIN = lazy(
    r"""^[ \t]*-[ \t]+['"]?(\.{1,2}/[^\s'"#:]+)(?:#[^\s'":]*)?['"]?[ \t]*+(?::[ \t]*+)?(?:$|\{|~|null)""",
    re.MULTILINE)  # possessive blanks around the optional colon: split every way, they were quadratic
_UPLOAD = lazy(r"\bpipeline[ \t]+upload\b([^;&|\n]*)")
_PACKIT_NAMES = frozenset({".packit.yaml", ".packit.yml", "packit.yaml", "packit.yml"})
_PACKIT_SPEC = lazy(r"^[ \t]*+(?:-[ \t]++)?+specfile_path[ \t]*+:[ \t]*+['\"]?+([^\s'\"#]{1,256}+)", re.MULTILINE)
# a key only shown (`message`, `custom-error-message`, `failureMessage`, `description`) and its value on the line
_DISPLAY_KEY = lazy(r"^([ \t]*+(?:-[ \t]++)?+['\"]?+(?:[\w-]{0,64}?[-_]?[mM]essage|description)['\"]?+[ \t]*+:)[ \t]*+"
                    r"(.*)$")
_ON = lazy(r"['\"]?+on['\"]?+[ \t]*+:")  # a workflow's triggers
_TRIGGER_KEY = lazy(r"^([ \t]++(?:paths|paths-ignore)[ \t]*+:)[ \t]*+(.*)$")
_FILTERS_KEY = lazy(r"^([ \t]++filters[ \t]*+:)[ \t]*+(.*)$")
# a key whose value is a block scalar (`- run: |`, `script: >-`): group 1 ends at the key's column
_BLOCK_SCALAR = lazy(r"^([ \t]*+(?:-[ \t]++)?+)[^\s#:][^:\n]{0,256}?:[ \t]*+(?:&\S{1,64}+[ \t]++)?+[|>][-+0-9]{0,2}+"
                     r"[ \t]*+(?:#|$)")
_ANCHOR = lazy(r"(?:^|[\s\[{,])&[^\s,\[\]{}&]")  # a YAML anchor: an alias elsewhere reuses the value (not `&&`, `R&D`)
_REFERENCED = lazy(r"!reference[ \t]*+\[[^\]\n]{0,512}?,[ \t]*+['\"]?+([\w-]{1,64})['\"]?+[ \t]*+\]")  # its last key
_ORB_CALL = lazy(r"[\w.-]{1,64}/[\w.-]{1,64}")  # an orb's job or command: `bats/run`
# a relative path (`./src/tests`, `test`, `ci/check.sh`): no variable, parameter, URL or blank
_RELATIVE_PATH = lazy(r"['\"]?(?:\./)?[\w.-]{1,128}(?:/[\w.-]{1,128}){0,16}/?['\"]?")
_ORB_FOLDER_TYPES = ("sh", "bash", "bats")
_ORB_INCLUDE = lazy(r"<<[ \t]*include\([ \t]*([^)\s]{1,256})[ \t]*\)[ \t]*>>")
_TEMPLATE = lazy(r"""^[ \t]*(?:-[ \t]+)?['"]?[\w-]*(?:template|Template)[\w-]*['"]?[ \t]*:[ \t]*(['"]?)"""
                       r"""([^'"#\n]*?)\1[ \t]*(?:#.*)?$""", re.MULTILINE)
_CONTINUATION = lazy(r"""^[ \t]*(?:-[ \t]+)?['"]?(?:configuration_path|config-path)['"]?[ \t]*:[ \t]*(['"]?)"""
                           r"""([^'"#\n]*?)\1[ \t]*(?:#.*)?$""", re.MULTILINE)
_MATRIX = lazy(r"\$\{\{\s*matrix\.([A-Za-z_][\w-]*)\s*\}\}")
# A sourcehut manifest's top-level `sources:` block list and `tasks:` key; a source's name as a folder may spell it
_SOURCES = lazy(r"^sources[ \t]*:[ \t]*\r?\n((?:[ \t]*-[ \t]*[^\n]*\n?){1,64})", re.MULTILINE)
_SOURCE_ITEM = lazy(r"^[ \t]*-[ \t]*['\"]?([^\s'\"]+)", re.MULTILINE)
_TASKS = lazy(r"^tasks[ \t]*:", re.MULTILINE)
_NAME = lazy(r"[\w][\w.-]{0,99}")
MAX_SOURCES = 16  # the clone folders read of one manifest


# A path's first folder chosen by a matrix value or an input (after the start of a word: a blank, a quote, `=`, `./`).
ANY_FOLDER = "__any_folder__"
_CHOSEN_FOLDER = lazy(
    r"""((?:^|[\s'"=(])(?:\./)?)\$\{\{\s*(?:matrix|inputs|github\.event\.inputs)\.[A-Za-z_][\w-]*\s*\}\}/""",
    re.MULTILINE)


# `cp [-opts] SRC DST` (mv, install, ln -s); `< SRC … > DST` (envsubst, sed, cat); a CI definition's path as DST
_COPY = lazy(r"(?<![\w.-])(?:cp|mv|install|ln)(?:[ \t]++-[\w-]++(?:[ \t]++[0-7]{3,4}+(?![\w.]))?+)*+"
                   r"[ \t]++['\"]?+([\w./{}$-]{1,256}+)['\"]?+"
                   r"[ \t]++['\"]?+([\w./{}$-]{1,256}+)")
_FED = lazy(r"<[ \t]*+['\"]?+([\w./-]{1,256}+)['\"]?+[^<>\n]{0,256}+>[ \t]*+['\"]?+([\w./-]{1,256}+)")
_DEFINITION_TARGET = lazy(r"(?:^|/)(?:\.gitlab-ci\.ya?ml|\.travis\.yml|Jenkinsfile|azure-pipelines\.ya?ml"
                                r"|bitbucket-pipelines\.yml|\.drone\.yml|\.?appveyor\.yml|\.woodpecker\.yml"
                                r"|(?:\.github/workflows|\.circleci|\.buildkite|\.gitlab|\.woodpecker)/(?:[^/]*\.ya?ml)?)$")
MAX_COPIES = 64  # copies read a text (a text of more is a program's, not a step's)


def is_earthfile(path: str) -> bool:
    return path.rpartition("/")[2] == "Earthfile"


def is_hook(path: str) -> bool:
    """A Buildkite hook in the repository's `.buildkite/` folder (its own or a vendored plugin's `hooks/`): the agent
    runs it around every job."""
    return path.startswith(HOOK_FOLDERS) and "/hooks/" in path[len(".buildkite"):]


def earthly_commands(text: str) -> str:
    """`text` with each `RUN`/`CMD`/`ENTRYPOINT` keyword and its flags dropped: the command alone on its line. A
    `COPY`/`ADD` copies data into the image and `CMD`/`ENTRYPOINT` are the image's program, run where the image runs
    (as a Dockerfile's, dockerrefs.py): their lines go (over-reads 1), but a copy a command of the build may name (a
    word of its source or destination's name in another line but a copy, an image command or `SAVE`), and the image
    commands of an Earthfile that runs images in its build (`WITH DOCKER`)."""
    if "COPY" not in text and "ADD" not in text and "CMD" not in text and "ENTRYPOINT" not in text:
        return _INSTRUCTION.sub(r"\1", text)
    lines = text.splitlines()
    builds = "\n".join(line for line in lines if _IMAGE_DATA.match(line) is None)
    kept = [line for line in lines if (hit := _IMAGE_DATA.match(line)) is None
            or hit[1] in ("CMD", "ENTRYPOINT") and "WITH DOCKER" in text
            or hit[1] in ("COPY", "ADD") and any(name in builds for name in _copied_names(line[hit.end():]))]
    return _INSTRUCTION.sub(r"\1", "\n".join(kept) + "\n")


def _copied_names(rest: str) -> list[str]:
    """The last names of a COPY's or ADD's sources and destination (its words but flags): `osarch.sh`, `osarch`."""
    names = [word.rstrip("/").rpartition("/")[2] for word in rest.split() if not word.startswith("--")]
    return [name for name in names if name.strip(".")]


def plugin_hooks(text: str) -> list[str]:
    """The hooks folder (a pattern: every file of it) of each plugin a Buildkite pipeline names by a local path."""
    if "plugins" not in text:
        return []
    text = text.replace("\r\n", "\n") if "\r" in text else text  # a pipeline saved on Windows (review12)
    return [f"{folder.rstrip('/')}/hooks/{ANY}" for folder in _LOCAL_PLUGIN.findall(text) if folder.strip("./")]


def pipeline_uploads(text: str) -> list[str]:
    """The pipeline files `buildkite-agent pipeline upload FILE` names (its words that are YAML or JSON files)."""
    if "upload" not in text:
        return []
    return [word for rest in _UPLOAD.findall(text) for word in re.split(r"[\s'\"<>]+", rest)
            if word.lower().endswith((".yml", ".yaml", ".json")) and not word.startswith("-")]


def orb_includes(text: str) -> list[str]:
    """The files a CircleCI orb's command, job or executor inlines with orb-tools' `<<include(FILE)>>`, each from the
    orb's source folder (one above the definition's: `../scripts/x.sh`); the packed orb runs them in every pipeline
    that uses it (go-orb's `<<include(max_parallelism/main.go)>>`, which its test command then `go run`s: the
    seventy-eighth set)."""
    return [f"../{name.removeprefix('./')}" for name in _ORB_INCLUDE.findall(text)] if "include(" in text else []


def orb_paths(path: str, text: str) -> list[str]:
    """The files a CircleCI configuration hands an orb's job or command by a relative path parameter (`- bats/run:
    {path: ./src/tests}`: the orb runs what is there), each with, as a folder, the scripts and bats tests in it (the
    seventy-eighth set: slack-orb's `src/tests/notify.bats`)."""
    if not path.lower().startswith(".circleci/") or "/" not in text:
        return []
    return [named for value in _orb_values(cienv.parsed(text), 0)[:MAX_COPIES]
            for named in (value, *(f"{value.rstrip('/')}/*.{kind}" for kind in _ORB_FOLDER_TYPES))]


def _orb_values(node: Any, depth: int) -> list[str]:
    """The path-like values of the parameters of every orb job or command (`<orb>/<name>:`) below `node`."""
    if depth > 12 or not isinstance(node, (dict, list)):
        return []
    children = node if isinstance(node, list) else list(node.values())
    found = [str(value).strip().strip("'\"") for key, given in (node.items() if isinstance(node, dict) else ())
             if isinstance(key, str) and _ORB_CALL.fullmatch(key) and isinstance(given, dict)
             for value in given.values() if isinstance(value, str) and _RELATIVE_PATH.fullmatch(value.strip())
             and re.search(r"\w", value) and ".." not in value]  # not `.`: the whole tree
    return found + [value for child in children for value in _orb_values(child, depth + 1)]


def untold(text: str) -> str:
    """A YAML definition's `text` with the values of its display keys blanked (`custom-error-message: Please run "make
    x"`, a `description:`, on the line or as a block scalar below it): text a CI system or an orb only shows
    (over-reads 4: circle-yml-split-example's Makefile). A step's `name:` stays: it may be the only hint of what an
    opaque action runs. So are the paths that trigger a workflow (`paths:`/`paths-ignore:` in its `on:` block, the
    `filters:` a dorny/paths-filter step is handed): data (cython's sanitizers.yml). Only a scalar is text (review 66a):
    a mapping or list below a display key (a job named `lint-commit-message:`), a flow mapping, an anchored value (a
    step's `run: *c` aliases it) and a key a GitLab `!reference` pastes into a script stay read."""
    filtered = "paths-filter" in text
    if "essage" not in text and "description" not in text and "paths" not in text:
        return text
    pasted = {name.lower() for name in _REFERENCED.findall(text)} if "!reference" in text else set()
    lines = text.split("\n")
    block = -1  # the indentation of the key whose value is being blanked
    triggers = False  # inside the top-level `on:` block
    scalar = -1  # the column of the key whose block scalar (another key's: `run: |`) goes on
    for at, line in enumerate(lines):
        indent = len(line) - len(line.lstrip(" \t"))
        if block >= 0:
            if not line.strip() or indent > block or indent == block and line.lstrip().startswith("- "):
                lines[at] = ""
                continue
            block = -1
        if scalar >= 0 and (not line.strip() or indent > scalar):
            continue  # a step's block scalar (`run: |`) is its text: `message: |` there is shell, piping on
        scalar = -1
        if line[:1] not in ("", " ", "\t", "#"):
            triggers = _ON.match(line) is not None
        trigger = _TRIGGER_KEY.match(line) if triggers else None
        key = _DISPLAY_KEY.match(line) or trigger or (_FILTERS_KEY.match(line) if filtered else None)
        if key is None and (opened := _BLOCK_SCALAR.match(line)) is not None:
            scalar = len(opened.group(1))
        if key is None or key.group(1).strip(" \t-:'\"").lower() in pasted:
            continue
        value = key.group(2).split("#", 1)[0].strip()
        text_only = value[:1] in ("|", ">") or value and value[:1] not in "{[!" or trigger is not None
        below = len(key.group(1)) - len(key.group(1).lstrip(" \t-")) if value[:1] in ("|", ">", "") else -1
        if text_only and _ANCHOR.search(value) is None and (below < 0 or not _anchored_below(lines, at, below)):
            lines[at], block = key.group(1), below
    return "\n".join(lines)


def holds_anchor(text: str) -> bool:
    """Whether a YAML value's `text` declares an anchor (`&c ./x.sh`): an alias elsewhere (`run: *c`) reuses it."""
    return "&" in text and _ANCHOR.search(text) is not None


def _anchored_below(lines: list[str], at: int, indent: int) -> bool:
    """Whether the lines below `lines[at]` that belong to its key (deeper than `indent`) declare a YAML anchor."""
    for below in range(at + 1, len(lines)):  # no slice: a copy of the rest at every key is quadratic
        line = lines[below]
        depth = len(line) - len(line.lstrip(" \t"))
        if line.strip() and (depth < indent or depth == indent and not line.lstrip().startswith("- ")):
            return False
        if "&" in line and _ANCHOR.search(line) is not None:
            return True
    return False


def packit_specs(name: str, text: str) -> list[str]:
    """The RPM specs Packit's settings (`.packit.yaml`) name by `specfile_path`: its Copr build jobs run `rpmbuild` on
    them for every pull request (their `%build` and `%check` sections are shell the build runs: the seventy-eighth
    set, containers/skopeo)."""
    return _PACKIT_SPEC.findall(text) if name.lower() in _PACKIT_NAMES and "specfile_path" in text else []


def release_commands(config: object, depth: int = 0) -> list[str]:
    """The commands a semantic-release configuration (package.json's `release`) runs: every `*Cmd` option of its
    plugins (`@semantic-release/exec`'s `prepareCmd: "node scripts/updateVersion.js ${nextRelease.version}"`, which
    bullmq's release workflow runs through `npx semantic-release`: the seventy-eighth set), at most MAX_COPIES."""
    if depth > 4:
        return []
    if isinstance(config, dict):
        found = [value for key, value in config.items() if isinstance(value, str) and str(key).endswith("Cmd")]
        values = [value for value in config.values() if isinstance(value, (dict, list))]
    else:
        found, values = [], config if isinstance(config, list) else []
    return [*found, *(c for value in values[:MAX_COPIES] for c in release_commands(value, depth + 1))][:MAX_COPIES]


def copied_definitions(text: str) -> list[str]:
    """The files a command copies or feeds to a CI definition's path (module docstring)."""
    if "cp" not in text and "mv" not in text and "install" not in text and "ln" not in text and "<" not in text:
        return []
    pairs = [*_COPY.findall(text), *(_FED.findall(text) if "<" in text else ())]
    return [source for source, target in pairs[:MAX_COPIES] if _DEFINITION_TARGET.search(target) is not None]


def pipeline_files(path: str, text: str) -> list[str]:
    """The YAML files of this repository the pipeline file at `path` pulls in (module docstring): each as written
    (ciwalk resolves it below the root and `path`'s folder) and from `path`'s folder (`../eng/steps.yml`)."""
    if ("emplate" not in text and "path" not in text) or path.startswith(".github/"):
        return []  # a workflow's `template:` inputs are its actions' (an issue or release body), not pipelines
    text = text.replace("\r\n", "\n") if "\r" in text else text
    folder = path.rpartition("/")[0]
    out: list[str] = []
    for _, value in _TEMPLATE.findall(text):
        value, at, repository = value.strip().partition("@")
        if (at and repository != "self") or not value.lower().endswith((".yml", ".yaml")):
            continue
        out += [value[1:]] if value.startswith("/") else [value, posixpath.join(folder, value)]
    if path.lower().startswith(".circleci/"):
        out += [value.strip().lstrip("/") for _, value in _CONTINUATION.findall(text)
                if value.strip().lower().endswith((".yml", ".yaml"))]
    return [found for found in dict.fromkeys(posixpath.normpath(value) for value in out if value)
            if not found.startswith(("../", "/")) and found != ".."]


def rooted(text: str) -> str:
    """`text` with the root and own-folder expressions dropped (`${{ github.workspace }}/ci/x.sh` -> `./ci/x.sh`), and
    a matrix value or an input the workflow's author chooses at a path's start marked ANY_FOLDER (`./${{ matrix.pkg
    }}/release.sh`: below any folder). Other expressions there (`${{ runner.temp }}/x.cjs`, a step's output) name
    no folder of the repository and stay variable parts, read as before (the first folder dropped). A sourcehut
    manifest's clone folders are its root too (_sourcehut_rooted)."""
    text = _sourcehut_rooted(ciloops.rooted(text))  # the root expressions first: `./${{ matrix.pkg }}/` starts a path
    return _CHOSEN_FOLDER.sub(rf"\1{ANY_FOLDER}/", text) if "${{" in text else text


def _sourcehut_rooted(text: str) -> str:
    """A sourcehut build manifest (top-level `sources:` and `tasks:`) with each source's clone folder read as the root:
    builds.sr.ht clones every source into `~/<name>` (the URL's last part, without `.git` or a `#ref`) and runs the
    tasks in `~`, so `proj/bin/check` and `cd proj` there name this repository's `bin/check` and root (the sixty-fifth
    set: ysoftwareab/yplatform's `.builds/sourcehut.yml` runs `yplatform/bin/github-checkout`). Over-reading a folder
    of the same name in the repository makes more files ci, the safe side."""
    if "sources" not in text or _TASKS.search(text) is None or (block := _SOURCES.search(text)) is None:
        return text
    for url in _SOURCE_ITEM.findall(block.group(1))[:MAX_SOURCES]:
        name = url.partition("#")[0].rstrip("/").rpartition("/")[2].rpartition(":")[2]
        name = name[:-4] if name.endswith(".git") else name
        if _NAME.fullmatch(name) is not None:
            text = re.sub(rf"(^|[\s'\"=(;&|`]){re.escape(name)}/", r"\1./", text, flags=re.MULTILINE)
            text = re.sub(rf"(\bcd[ \t]+){re.escape(name)}(?=$|[\s;&|)'\"])", r"\1.", text, flags=re.MULTILINE)
    return text


def expand_matrix(text: str) -> str:
    """`text` with each line that uses `${{ matrix.X }}` replaced by a copy per value the workflow lists for X (every
    listed value a plain string, over every job's matrix: a superset of what any job runs); a line past MAX_VARIANTS
    copies, or with an X of unknown values, is left as is (its expressions: variable parts)."""
    if "${{" not in text or _MATRIX.search(text) is None:
        return text
    values = _matrix_values(text)
    out: list[str] = []
    for line in text.splitlines():
        keys = list(dict.fromkeys(_MATRIX.findall(line)))
        variants = [line]
        if all(key in values for key in keys) and math.prod(len(values[key]) for key in keys) <= MAX_VARIANTS:
            for key in keys:  # counted before any copy is made (review12: 5,000 values, 2,000 lines took 7.6 s)
                variants = [_substituted(variant, key, value) for variant in variants for value in values[key]]
        out += variants
    return "\n".join(out)


def _substituted(line: str, key: str, value: str) -> str:
    return _MATRIX.sub(lambda match: value if match.group(1) == key else match.group(0), line)


def _matrix_values(text: str) -> dict[str, list[str]]:
    """{key: its values} over every `matrix:` mapping of the YAML `text`, for keys whose values are all plain
    strings or numbers (an expression, a mapping or a `fromJSON` makes a key's values unknown: left out)."""
    document = cienv.parsed(text)  # parsed once for cienv's readers too
    found: dict[str, list[str]] = {}
    unknown: set[str] = set()
    for matrix in _matrices(document, 0):
        rows = [{key: value for key, value in matrix.items() if key not in ("include", "exclude")}]
        include = matrix.get("include")
        rows += [entry for entry in include if isinstance(entry, dict)] if isinstance(include, list) else []
        for key in {key for row in rows[1:] for key in row} - set(rows[0]):
            found.setdefault(str(key), []).append("")  # a key only some included rows set: empty in the others
        for row in rows:
            for key, value in row.items():
                listed = value if isinstance(value, list) else [value]
                if all(isinstance(item, (str, int, float)) and "${{" not in str(item) for item in listed):
                    found.setdefault(str(key), []).extend(str(item) for item in listed)
                else:
                    unknown.add(str(key))
    return {key: list(dict.fromkeys(items)) for key, items in found.items() if key not in unknown}


def _matrices(node: Any, depth: int) -> list[dict[Any, Any]]:
    if depth > 8:
        return []
    if isinstance(node, dict):
        out = [node["matrix"]] if isinstance(node.get("matrix"), dict) else []
        return out + [found for value in node.values() for found in _matrices(value, depth + 1)]
    if isinstance(node, list):
        return [found for item in node for found in _matrices(item, depth + 1)]
    return []
