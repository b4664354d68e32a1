"""Tier 3, continued: content shapes of the twenty-fourth set's classes (docs/classification.md, "The twenty-first
round").

A pip-tools input under any name (`examples/sentry.in`, `dev.in`: what `pip-compile` pins into the `.txt` beside it;
not a list of C constants' names, strace's `src/xlat/*.in`: the eighty-fifth set),
and an Azure Pipelines job or steps template kept outside the folders the path rules name (`doc/azure/*-template.yml`,
whose `pool:` sits inside a `- job:` rather than at the top). Each needs the whole grammar of its format or two keys
only that format has, so that a look-alike (autotools' `Makefile.in`, setuptools' `MANIFEST.in`, a word list; an
application's `jobs:` settings) keeps its bucket. A conda environment under any name (`conda.yaml` of an MLflow
project, an Azure ML module's `sar_conda.yaml`: the thirty-sixth set) has top-level `channels:` and `dependencies:`
and no key conda does not read (a Helm 2 `requirements.yaml` has no `channels:`, a pubspec has `environment:`).
A CMake file (CMakeLists.txt, `*.cmake`, their `.in` templates) that downloads code when cmake configures (red team
30): FetchContent, ExternalProject, CPM's calls or `file(DOWNLOAD`, or, in a hunk that shows no call, the arguments
that name what is downloaded (`GIT_REPOSITORY`, `GIT_TAG`, `URL`, ...), or a repository's or an archive's URL (a
wrapper function's call). Such a file is a dependency manifest, read whole with --tree.
Misses 6: an Azure Pipelines definition or variables template under any name whose steps are not (yet) in it
(mimalloc's `contrib/nuget/nuget-release-pipeline.yml`: `trigger:`, `pr:`, `parameters:` and `variables:` only),
known by a top-level key Azure reads beside one of Azure's own macros (`$(Build.SourcesDirectory)`,
`${{ parameters.x }}`); and a Helm-shaped lock under any name (helmfile's `helmfiles/app.lock` beside `app.yaml`:
`dependencies:` of `- name:`/`repository:`/`version:`, `digest: sha256:`, `generated:`), which pins the charts
installed as Chart.lock does. Nerdbank.GitVersioning's `version.json` (its `$schema`, or `version` beside a key only
it reads): the build package's settings that stamp every assembly and package version (`deps`, as the package is).
"""

from __future__ import annotations

import re

from gatekeeper.classify.jobshapes import jjb_shape
from gatekeeper.classify.shapes import evidence_line
from gatekeeper.lazy_pattern import lazy

_FLAGS = re.MULTILINE
# The blanks between its optional parts are possessive: three runs split every way on a failing line were cubic.
# One line of a pip requirements file: a requirement (PEP 508 name, extras, version specifiers, a marker, or a direct
# reference `name @ url`), an option pip-compile reads (`-r`, `-c`, `-e`, an index), or a VCS or archive URL.
_SPECIFIER = r"(?:===|==|~=|!=|<=|>=|<|>)[ \t]*[A-Za-z0-9.*+!_-]+"
_REQUIREMENT_LINE = lazy(
    r"[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?(?:[ \t]*+\[[A-Za-z0-9_,. \t-]*\])?[ \t]*+"
    rf"(?:\(?{_SPECIFIER}(?:[ \t]*,[ \t]*{_SPECIFIER})*\)?|@[ \t]*\S+)?[ \t]*+(?:;[^#\n]*)?"
    r"|-[rce][ \t]+\S+|--(?:requirement|constraint|editable)[ =]\S+"
    r"|--(?:index-url|extra-index-url|find-links|trusted-host|no-binary|only-binary)[ =]\S+|--pre"
    r"|(?:git|hg|svn|bzr)\+[a-z]+://\S+|https?://\S+")
# A C macro's name: upper case, digits and underscores. No PyPI project list is all such names with one of them
# holding an underscore, or three of them at least: such a list is a header's source (a lone `PIL` stays a requirement).
_C_CONSTANT = lazy(r"[A-Z][A-Z0-9_]*+")
# A run of blanks is tried at its start only (`[ \t]+#.*|#.*` searched from each blank of a run: quadratic).
_COMMENT = lazy(r"(?<![ \t])[ \t]*#.*")
# conda's environment file: every top-level key is one `conda env create` reads
_CONDA_KEYS = frozenset({"name", "channels", "dependencies", "prefix", "variables", "platforms", "channel_priority"})
_TOP_KEY = lazy(r"^([A-Za-z_][\w.-]*)[ \t]*:(?:[ \t]|$)", _FLAGS)
# Azure Pipelines: a top-level `jobs:` or `stages:` whose list items are `- job:`, `- deployment:` or `- stage:`
# holding a job's keys, or a top-level `steps:` whose items are Azure's step kinds (`- task:` alone is sniff.py's).
_AZURE_TOP = lazy(r"^(?:jobs|stages)[ \t]*:[ \t]*(?:#[^\n]*)?$", _FLAGS)
_AZURE_JOB = lazy(r"^[ \t]*-[ \t]+(?:job|deployment|stage)[ \t]*:", _FLAGS)
_AZURE_JOB_KEY = lazy(r"^[ \t]+(?:pool|vmImage|dependsOn|condition|displayName|strategy|timeoutInMinutes"
                      r"|workspace|environment)[ \t]*:", _FLAGS)
_AZURE_JOB_BODY = lazy(r"^[ \t]+(?:steps|jobs)[ \t]*:", _FLAGS)
_AZURE_STEPS_TOP = lazy(r"^steps[ \t]*:[ \t]*(?:#[^\n]*)?$", _FLAGS)
_AZURE_STEP = lazy(r"^[ \t]*-[ \t]+(?:script|bash|pwsh|powershell|checkout|publish|download|downloadBuild"
                   r"|getPackage|reviewApp)[ \t]*:", _FLAGS)
_AZURE_STEP_KEY = lazy(r"^[ \t]+(?:displayName|condition|workingDirectory|failOnStderr|env|continueOnError"
                       r"|timeoutInMinutes|artifact|clean|fetchDepth|persistCredentials)[ \t]*:", _FLAGS)
# Azure Pipelines by its macros: a top-level key a pipeline or template has, and a predefined variable's macro
# (`$(Build.SourcesDirectory)`) or a template expression on its parameters or variables (`${{ parameters.x }}`).
# Not `resources:`: a Helm values file has one, and a release's token replacement writes `$(Build.BuildId)` into it.
_AZURE_ANY_TOP = lazy(r"^(?:trigger|pr|schedules|parameters|variables|pool|extends|stages|jobs|steps)"
                      r"[ \t]*:", _FLAGS)
_AZURE_MACRO = lazy(r"\$\((?:Build|System|Agent|Pipeline|Release|Environment|Deployment)\.[A-Za-z]"
                    r"|\$\{\{[ \t]*(?:parameters|variables)\.[A-Za-z_]")
# Helm's lock shape (Chart.lock, requirements.lock, helmfile's `<name>.lock`): each top-level key at line start.
_HELM_LOCK_DEPS = lazy(r"^dependencies[ \t]*:[ \t]*\r?\n(?:[ \t]*(?:#[^\n]*)?\r?\n)*[ \t]*-[ \t]+"
                       r"(?:name|repository|version)[ \t]*:", _FLAGS)
_HELM_LOCK_DIGEST = lazy(r"^digest[ \t]*:[ \t]*[\"']?sha256:[0-9a-f]{64}", _FLAGS)
_HELM_LOCK_GENERATED = lazy(r"^generated[ \t]*:", _FLAGS)
# Nerdbank.GitVersioning's version.json: its schema's address, or a key only it reads
_NBGV = lazy(r'"\$schema"[ \t]*:[ \t]*"[^"\n]{0,200}?nerdbank\.gitversioning'
             r'|"(?:publicReleaseRefSpec|nugetPackageVersion|versionHeightOffset|cloudBuild|pathFilters)"[ \t]*:',
             re.IGNORECASE)
# CMake: a call that downloads at configure time (command names ignore case), or an argument naming the download.
_CMAKE_FETCH = lazy(
    r"(?<![\w.])(?i:fetchcontent_declare|fetchcontent_populate|fetchcontent_makeavailable|externalproject_add"
    r"|cpmaddpackage|cpmfindpackage|cpmdeclarepackage|cpmusepackagelock)[ \t]*\("
    r"|(?<![\w.])(?i:file)[ \t]*\([ \t\r\n]*DOWNLOAD\b"
    r"|(?<![\w${.])(?:GIT_REPOSITORY|GIT_TAG|GITHUB_REPOSITORY|GITLAB_REPOSITORY|BITBUCKET_REPOSITORY|SVN_REPOSITORY"
    r"|HG_REPOSITORY|CVS_REPOSITORY|URL_HASH|URL_MD5|DOWNLOAD_COMMAND)(?![\w])"
    r"|^[+ -]?[ \t]*URL[ \t]+\S"
    # ... or a wrapper's call naming a repository or an archive (`fetch_dep(fmt https://x/fmt.git)`, CPM's `gh:o/r`)
    r"|(?:https?|git|ssh)://[^\s\"')]+\.(?:git|tar\.gz|tgz|tar\.xz|tar\.bz2|tar\.zst|zip)(?![\w.])"
    r"|[\"(\s](?:gh|gl|bb):[\w.-]+/[\w.-]+[@#]", _FLAGS)


def is_cmake(name: str) -> bool:
    """A file cmake reads as its language: CMakeLists.txt, an included `*.cmake`, and their `configure_file` templates
    (`CMakeLists.txt.in`: the pattern that downloads googletest at configure time, `*.cmake.in`)."""
    lower = name.lower().removesuffix(".in")
    return lower == "cmakelists.txt" or lower.endswith(".cmake")


def is_requirements_input(name: str) -> bool:
    """A file pip-tools may compile, by its name: `*.in` with no other dot (not `config.h.in`, `foo.pc.in`)."""
    stem, dot, ext = name.rpartition(".")
    return bool(dot and stem) and ext.lower() == "in" and "." not in stem


def build_shape(name: str, text: str) -> tuple[str, str, str] | None:
    """(bucket, rule id, evidence line) of the first of these shapes `text` has, or None."""
    if is_requirements_input(name) and (line := _requirements(text)) is not None:
        return "deps", "deps.content.pip-compile-input", line
    if is_cmake(name):
        found = _CMAKE_FETCH.search(text)
        return ("deps", "deps.content.cmake-download", evidence_line(text, found)) if found is not None else None
    if name.lower().endswith((".yml", ".yaml")):
        text = text.replace("\r\n", "\n") if "\r" in text else text  # a template saved on Windows (review12)
        if "channels" in text and (line := _conda(text)) is not None:
            return "deps", "deps.content.conda-environment", line
        # A substring test first: most YAML files have neither key, and a scan of 8 KiB costs more than the test.
        if ("jobs" in text or "stages" in text) and (m := _AZURE_TOP.search(text)) is not None \
                and (job := _AZURE_JOB.search(text, m.end())) is not None \
                and _AZURE_JOB_KEY.search(text, job.end()) and _AZURE_JOB_BODY.search(text, job.end()):
            return "ci", "ci.content.azure-pipelines-template", evidence_line(text, job)
        if "steps" in text and (m := _AZURE_STEPS_TOP.search(text)) is not None \
                and (step := _AZURE_STEP.search(text, m.end())) is not None and _AZURE_STEP_KEY.search(text, m.end()):
            return "ci", "ci.content.azure-pipelines-template", evidence_line(text, step)
        if "$" in text and (m := _AZURE_MACRO.search(text)) is not None and _AZURE_ANY_TOP.search(text):
            return "ci", "ci.content.azure-pipelines", evidence_line(text, m)
    if name.lower().endswith((".yml", ".yaml", ".lock")) and "digest" in text \
            and (m := _HELM_LOCK_DEPS.search(text)) is not None and _HELM_LOCK_DIGEST.search(text) \
            and _HELM_LOCK_GENERATED.search(text):
        return "deps", "deps.content.helm-lock", evidence_line(text, m)
    if name.lower().endswith((".yml", ".yaml")):
        return jjb_shape(text)
    if name.lower() == "version.json" and '"version"' in text and (m := _NBGV.search(text)) is not None:
        return "deps", "deps.content.nbgv-version", evidence_line(text, m)
    return None


def _conda(text: str) -> str | None:
    """The `dependencies:` line of a conda environment: `channels:` and `dependencies:` at the top, no other key."""
    keys = {m.group(1): m for m in _TOP_KEY.finditer(text)}
    if "channels" in keys and "dependencies" in keys and keys.keys() <= _CONDA_KEYS:
        return evidence_line(text, keys["dependencies"])
    return None


def _requirements(text: str) -> str | None:
    """The first requirement line when every line is one pip reads in a requirements file (and one at least is), and
    the lines are not a list of C constants' names (`AT_SYMLINK_NOFOLLOW`, `TCIFLUSH`: strace's xlat lists, the
    eighty-fifth set)."""
    first = None
    constants, underscore, count = True, False, 0
    for raw in text.splitlines():
        line = _COMMENT.sub("", raw.strip().rstrip("\\").strip()) if "#" in raw else raw.strip().rstrip("\\").strip()
        if not line:
            continue
        if not _REQUIREMENT_LINE.fullmatch(line):
            return None
        constants = constants and _C_CONSTANT.fullmatch(line) is not None
        underscore, count = underscore or "_" in line, count + 1
        first = first or line[:120]
    return None if constants and (underscore or count >= 3) else first
