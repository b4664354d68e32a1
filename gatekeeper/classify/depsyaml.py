"""Dependency manifests whose YAML names are generic enough to hold infrastructure (red team 12).

`stack.yaml` is Haskell Stack's manifest by name (so are `stack-lts-22.yaml` and `stack-9.10.yaml`), `environment.yml`
conda's, `requirements.yml` Ansible Galaxy's; a CloudFormation template or a Kubernetes object can be kept under the
same name (`infra/stack.yaml`). With the commits, the content tier reads such a file as YAML in every form (iac over
deps). From a patch alone it is settled only when the patch shows all of the file, or, on every side it shows, one of
its ecosystem's own top-level keys (a template has none: CloudFormation and the Kubernetes API reject unknown top-level
fields); otherwise it is tagged `needs-context`. Names that say their ecosystem (`pubspec.yaml`, `pnpm-workspace.yaml`,
`vendir.yml`) and JSON manifests are not in this class. The same holds from a patch for YAML settings a name rule
lowers to `other` or the docs (`.golangci.yml`, `codecov.yml`, `mkdocs.yml`): a GitLab job file may carry any such name
(red team 39).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace
from typing import Protocol

from gatekeeper.classify import devcontainers
from gatekeeper.classify.weakrules import installed_code
from gatekeeper.lazy_pattern import lazy
from gatekeeper.model import ClassifiedFile

_STACK = ("resolver", "snapshot", "compiler", "packages", "extra-deps", "flags", "extra-package-dbs", "ghc-options",
          "allow-newer", "allow-newer-deps", "nix", "docker", "drop-packages", "require-stack-version",
          "system-ghc", "install-ghc", "arch", "extra-include-dirs", "extra-lib-dirs", "apply-ghc-options",
          "rebuild-ghc-options", "build", "pvp-bounds", "with-hpack", "user-message", "local-bin-path",
          "notify-if-nix-on-path", "recommend-stack-upgrade", "templates", "save-hackage-creds", "hackage-base-url",
          "package-indices", "concurrent-tests", "skip-msys", "modify-code-page", "setup-info", "ghc-variant")
_HPACK = ("name", "version", "synopsis", "description", "category", "author", "maintainer", "copyright", "license",
          "license-file", "github", "git", "homepage", "bug-reports", "stability", "tested-with", "build-type",
          "spec-version", "extra-source-files", "extra-doc-files", "data-files", "data-dir", "dependencies",
          "library", "internal-libraries", "executable", "executables", "tests", "benchmarks", "flags", "when",
          "defaults", "verbatim", "custom-setup", "source-dirs", "ghc-options", "ghc-prof-options", "cpp-options",
          "default-extensions", "other-extensions", "language", "build-tools", "build-tool-depends",
          "system-build-tools", "c-sources", "include-dirs", "extra-libraries", "pkg-config-dependencies")
_CONDA = ("name", "channels", "dependencies", "prefix", "variables", "platforms", "channel_priority")
_GALAXY = ("collections", "roles", "namespace", "name", "version", "readme", "authors", "description", "license",
           "license_file", "tags", "dependencies", "repository", "documentation", "homepage", "issues",
           "build_ignore", "manifest")
_AQUA = ("registries", "packages", "checksum", "import_dir")
# (the path rule's id, the top-level keys of its ecosystem) by file name
GENERIC: dict[str, tuple[str, tuple[str, ...]]] = {
    "stack.yaml": ("deps.haskell.manifest", _STACK),
    "package.yaml": ("deps.haskell.manifest", _HPACK),
    "environment.yml": ("deps.pip.manifest", _CONDA),
    "environment.yaml": ("deps.pip.manifest", _CONDA),
    "requirements.yml": ("deps.ansible.manifest", _GALAXY),
    "galaxy.yml": ("deps.ansible.manifest", _GALAXY),
    "ansible-role-requirements.yml": ("deps.ansible.manifest", _GALAXY),  # OpenStack-Ansible's names
    "ansible-role-requirements.yaml": ("deps.ansible.manifest", _GALAXY),
    "ansible-collection-requirements.yml": ("deps.ansible.manifest", _GALAXY),
    "ansible-collection-requirements.yaml": ("deps.ansible.manifest", _GALAXY),
    "requirements.yaml": ("deps.helm.manifest", ("dependencies", *_GALAXY)),  # Helm 2's, or Galaxy's by a rule
    "aqua.yaml": ("deps.toolchain.managers", _AQUA),
    "aqua.yml": ("deps.toolchain.managers", _AQUA),
    ".aqua.yaml": ("deps.toolchain.managers", _AQUA),
    ".aqua.yml": ("deps.toolchain.managers", _AQUA),
    "west.yml": ("deps.build-ecosystems", ("manifest",)),
    ".fixtures.yml": ("deps.puppet.manifest", ("fixtures",)),
    ".fixtures.yaml": ("deps.puppet.manifest", ("fixtures",)),
    "devenv.yaml": ("deps.nix.manifest", ("inputs", "imports", "allowUnfree", "allowBroken", "clean", "impure",
                                          "permittedInsecurePackages", "nixpkgs", "secretspec")),
}
# Galaxy requirements named for a purpose in Ansible's own folders (`collections/requirements.packer.yml`): the
# path rule's glob, read as the generic names above are.
_GALAXY_PURPOSE = lazy(r"(?:.*/)?(?:collections|roles)/requirements\.[^/]+\.ya?ml")
# Stack project files named for a resolver or a GHC version (`stack-lts-22.yaml`, `stack-9.10.yaml`): the path
# rules' globs (the seventy-third set), read as `stack.yaml` is.
_STACK_NAMED = (("deps.haskell.manifest", lazy(r"stack-(?:lts|ghc|nightly)[^/]*\.yaml", re.IGNORECASE)),
                ("deps.haskell.stack-versions", lazy(r"stack-[0-9][^/]*\.yaml", re.IGNORECASE)))
_KEY = lazy(rb"^([A-Za-z_][\w.-]*)[ \t]*:(?:[ \t\r]|$)", re.MULTILINE)
# Keys inside the entries of a dependency list (Helm's and Galaxy's `- name:`/`version:`, Stack's git packages).
_ENTRY_KEYS = ("name", "version", "repository", "condition", "alias", "tags", "import-values", "enabled", "src",
               "scm", "type", "source", "signatures", "git", "github", "commit", "subdirs", "location", "url", "pip")
_ENTRY = lazy(rb"[ \t]*(?:-[ \t]+)?(?:%s)[ \t]*:(?:[ \t].*)?" % b"|".join(re.escape(k.encode())
                                                                       for k in _ENTRY_KEYS))
# A list item naming a package, with or without a version: `- numpy=1.26`, `- python >=3.7`, `- acme-1.2@sha256:..`
_ITEM = lazy(rb"---|[ \t]*-[ \t]+-[re][ \t]+\S+"
                   rb"|[ \t]*-[ \t]+['\"]?[A-Za-z0-9_][\w.@/+-]*(?::[0-9a-f]+,\d+)?"
                   rb"(?:[ \t]*(?:==?|>=|<=|!=|~=|<|>|\^)[ \t]*"
                   rb"[\w.*,<>=! |&-]+)?['\"]?[ \t]*")
# What proves a hunk is a dependency list and not a template: a version on a line of that shape.
_VERSIONED = lazy(rb"^[ \t]*(?:-[ \t]+)?(?:version[ \t]*:[ \t]*['\"]?[~^>=<]*v?\d|commit[ \t]*:[ \t]*[0-9a-f]{7}"
                        rb"|['\"]?[A-Za-z0-9_][\w.-]*?(?:-\d[\w.]*(?:@\S+)?|[ \t]*(?:==?|>=|<=|~=|<|>)[ \t]*\d)"
                        rb"[^:]*$)", re.MULTILINE)


class Side(Protocol):
    """What a context shows of one side of a change (contexttypes.Shown)."""

    @property
    def data(self) -> bytes: ...
    @property
    def complete(self) -> bool: ...


def generic_keys(item: ClassifiedFile) -> tuple[str, ...] | None:
    """The ecosystem's top-level keys when a manifest rule named `item` by a generic YAML name, else None."""
    if item.bucket != "deps":
        return None
    for side in item.change.sides():
        name = side.rpartition("/")[2]
        found = GENERIC.get(name)
        if found is None and _GALAXY_PURPOSE.fullmatch(side):
            found = ("deps.ansible.manifest", _GALAXY)
        if found is None:
            found = next(((rule, _STACK) for rule, named in _STACK_NAMED if named.fullmatch(name)), None)
        if found is not None and found[0] == item.rule:
            return found[1]
    return None


# The settings files of a tool that an installed module keeps (lint, CI, coverage, release, hooks, docs builds)
_MODULE_SETTINGS = frozenset(f".{name}.{ext}" for ext in ("yml", "yaml") for name in (
    "travis", "codecov", "golangci", "goreleaser", "yamllint", "pre-commit-config", "pre-commit-hooks", "gitlab-ci",
    "readthedocs", "appveyor", "codeclimate", "mergify", "markdownlint", "clang-tidy", "clang-format", "drone",
    "cirrus", "coveralls", "github", "dependabot", "stickler", "hound", "scrutinizer", "gometalinter", "revive",
    "mockery", "copywrite", "release-please", "releaserc", "changeset", "gitpod", "semgrep", "snyk", "lgtm"))


# The folders installed code is kept in, by the names the installed-code rules give them: a module's settings sit in
# the module's own folder below one (`vendor/github.com/acme/lib/.travis.yml`), never in it (red team 23).
_INSTALLED_FOLDERS = frozenset({"vendor", "_vendor", "vendored", "bower_components", "node_modules", "pods",
                                "third_party", "third-party", "deps", "carthage/checkouts", "carthage/build",
                                ".yarn/unplugged", ".yarn/cache", "wwwroot/lib", "cue.mod/gen", "cue.mod/pkg"})


def module_settings(side: str) -> bool:
    """A vendored module's own tool settings (`.travis.yml`, `.golangci.yml`) by name and place: in a module's folder
    below the installed folder (a scope `@org/` is no module), and not in a `Pods/` folder, whose pods CocoaPods
    cleans of every file their podspec does not list (none of the 909 mirrored repositories keeps one there).
    `manifests/pods/.travis.yml` or `vendor/.golangci.yml` holding a Deployment is applied as any YAML there."""
    *folders, name = side.lower().split("/")
    if name not in _MODULE_SETTINGS or not folders or "pods" in folders:
        return False
    parent = folders[-1]
    return not (parent in _INSTALLED_FOLDERS or "/".join(folders[-2:]) in _INSTALLED_FOLDERS
                or parent.startswith(("@", "vendor_", "vendored_")) or parent.endswith(".framework"))


def named_settings_unshown(best: ClassifiedFile, item: ClassifiedFile, sides: list[Side]) -> bool:
    """A YAML file a specific name rule put in `other` or the docs (a linter's, a formatter's or an outside service's
    settings, `mkdocs.yml`) that the patch does not show whole and that nothing it shows raised: a GitLab pipeline
    includes a job file under any `.yml` name (attack 32: `redocly.yaml`), so an edit out of sight of the job's keys
    is unsettled (red team 39). Test data (`testdata.*`) keeps principle 1: not deployed unless CI names it."""
    if best.bucket not in ("src", "other") or not item.rule.startswith(_NAMED_SETTINGS):
        return False
    if not any(side.lower().endswith((".yml", ".yaml")) for side in item.change.sides()):
        return False
    return not any(side.complete for side in sides)


_NAMED_SETTINGS = ("other.", "docs.")  # the name rules that lower a settings file (not test data: principle 1)


def unsettled(best: ClassifiedFile, item: ClassifiedFile, shown: Iterable[tuple[Side, object]]) -> bool:
    """Patch only: a generic-named manifest still `deps` whose patch shows neither all of it nor, on every side it
    shows, a top-level key of its ecosystem (what a template under that name would not have); a Dev Container
    configuration whose use by CI the patch cannot show (devcontainers.unshown_use)."""
    if devcontainers.unshown_use(best.rule, item.change.sides()):
        return True
    sides = [side for side, _ in shown]  # (what the patch shows of a side, the content signal found there)
    if named_settings_unshown(best, item, sides):
        return True
    if best.bucket == "deps" and installed_code(item) and any(
            side.lower().endswith((".yaml", ".yml")) and not module_settings(side) for side in item.change.sides()):
        # Installed code's YAML (`manifests/pods/web.yaml`: `Pods/` ignores case; a kustomization's vendored
        # resource): a Kubernetes manifest by content, or listed from a folder the patch does not show (red team 22).
        # Not a vendored module's own dot-file settings (`.travis.yml`, `.golangci.yml`: 1% of installed files), by
        # name: any dot-named YAML is applied from a folder as any other (`pods/.rbac.yaml`: attack19).
        return not any(side.complete for side in sides)
    if best.bucket != "deps" or (keys := generic_keys(item)) is None:
        return False
    if any(side.complete for side in sides):
        return False  # read whole, as YAML: a template there is already iac
    change = item.change
    if change.old_path and change.similarity == 100 and generic_keys(replace(item, change=replace(
            change, path=change.old_path, old_path=None))) == keys:
        return False  # moved unchanged from a name of the same manifest: the content is what was there
    wanted = {key.encode() for key in keys}
    return not sides or not all(wanted & set(_KEY.findall(side.data)) or _entries_only(side.data) for side in sides)


def _entries_only(data: bytes) -> bool:
    """Every line shown is a comment or an entry of a dependency list, and one of them carries a version."""
    lines = [line for line in data.splitlines() if line.strip() and not line.lstrip().startswith(b"#")]
    return bool(lines) and all(_ENTRY.fullmatch(line) or _ITEM.fullmatch(line) for line in lines) \
        and _VERSIONED.search(data) is not None
