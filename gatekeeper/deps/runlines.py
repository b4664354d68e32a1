"""Packages a workflow's shell commands (and a Dockerfile's RUN lines: dockerruns.py) install at a version:
`go install golang.org/x/tools/cmd/goimports@v0.24.0`, `cargo install --version 0.3.9 cargo-wix` (or `cargo install
cargo-wix@0.3.9`), `pip install tox==4.11.0`, `npm install -g pnpm@9.1.0`, `npx prettier@3.2.5`, `apt-get install -y
libpq-dev=13.23-0+deb11u2`, `apk add git=2.45.2-r0`, `pecl install APCu-5.1.17`, `composer global require a/b:1.2.3`,
`choco install ghostscript --version=10.7.1` (the tool `ghostscript`), a version manager's runtime (`asdf install nodejs
20.12.1`, `mise use -g node@20.12.1`: the tool `node`).
Renovate's custom managers bump exactly these lines, and each is code the job downloads and runs: a dependency
of the build, as a step's `uses:` is.

Read line by line (a `run: |` block's lines, or a hunk's), so a patch reads them as the tree does. Only an
argument with an exact version counts: `@latest`, `@main`, a range (`tox>=4`), `-r requirements.txt` and a
`$VAR` name none, and are left to the files they name (a requirements file is read as one). pip's git URL at a
tag or commit (`pip install "git+https://github.com/linux-system-roles/tox-lsr@3.13.0"`, round 44) is named by the
repository's last part, its version the ref with its source (`3.13.0 from git+https://github.com/…/tox-lsr`, as a
git-sourced Cargo entry's): a branch (`@main`), a `$VAR` ref or no ref names none.
"""

from __future__ import annotations

from gatekeeper.deps.deno import specifier
from gatekeeper.deps.mise import tool_of
from gatekeeper.deps.model import Dependency, ManifestError
from gatekeeper.deps.tools import TOOL, VERSIONISH
from gatekeeper.lazy_pattern import lazy

# A command's start: at the line's start (after `run:` or a list dash), or after `&&`, `;`, `|`, `$(`, a shell
# keyword (`then`, `do`, `else`), then any wrappers that run the command they are given (`sudo -E`, `env X=1`,
# `time`, `xargs -n1`, `nohup`, `exec`, `command`) and variable assignments (`GOFLAGS=-mod=mod go install …`).
# No two repetitions of the same characters touch (`[;&|(]\s*` then `\s*` is quadratic in the blanks after `;`: a
# 32 MiB line would take hours), so each alternative ends before the one `\s*` that follows them all, and each
# wrapper starts with a word character and ends with its own blanks.
_WRAPPER = r"(?:(?:sudo|env|time|xargs|nohup|exec|command)(?:\s+-[\w=-]+)*\s+|[A-Za-z_]\w*=[^\s;&|()]*\s+)"
_LEAD = r"(?:^|[;&|(]|\b(?:then|do|else)(?=\s)|\brun:(?:\s*[|>][-+]?)?|^\s*-(?=\s))\s*" + _WRAPPER + "*"
# `go install PATH@vX` and `go run PATH@vX` (red team 12: downloads and runs the module at that version)
_GO = lazy(_LEAD + r"go\s+(?:install|run)\s+(?:-[\w=.-]+\s+)*(?P<path>[\w.-]+(?:/[\w.~-]+)+)@(?P<version>v\d[\w.+-]*)"
           r"(?=\s|$|[;&|)\"'])")
_CARGO = lazy(_LEAD + r"cargo\s+(?:\+\S+\s+)?b?install\s+(?P<args>[^;&|#]*)")
# pip under any version suffix (`pip3.12`, `python3.12 -m pip`); the runners that fetch and run a package at once
# (`uvx`, `uv tool run`, `pipx run`, their `--from`/`--spec` values read as arguments)
_PIP = lazy(_LEAD + r"(?:(?:python[\d.]*\s+-m\s+)?(?:pip[\d.]*|pipx|uv\s+pip|uv\s+tool)\s+install|uvx|uv\s+tool\s+run"
            r"|(?:python[\d.]*\s+-m\s+)?pipx\s+run)\s+(?P<args>[^;&|#]*)")
_NPM = lazy(_LEAD + r"(?:npm\s+(?:install|i|add|exec|x)|pnpm\s+(?:add|install|i|dlx)|yarn\s+(?:global\s+add|dlx)"
            r"|npx|pnpx|bunx|bun\s+(?:x|add|install|i))\s+(?P<args>[^;&|#]*)")
# Deno fetches and runs (or installs as a command) a module by its specifier: `deno install -f … --name pagic
# https://deno.land/x/pagic@v1.4.0/mod.ts`, `deno run -A jsr:@std/http@1.0.0/file-server`, `deno x npm:cowsay@1.6.0`
_DENO = lazy(_LEAD + r"deno\s+(?:install|run|x)\s+(?P<args>[^;&|#]*)")
# `1.2.3`, `v0.3.9`, `2.0.0-rc.1`: digits, then anything of `[\w.+-]` after a `.`, `-` or `+` (one repetition: a
# `(?:\.\d+)*` before it would overlap it and backtrack quadratically on `1.1.1…1!`).
_EXACT = lazy(r"^v?\d+(?:[-+.][\w.+-]*)?$")
_CRATE = lazy(r"^[A-Za-z][\w-]{0,63}$")
_PYPI = lazy(r"^(?P<name>[A-Za-z0-9][\w.-]{0,99})(?:\[[\w,.\s-]*\])?==(?P<version>\d[\w.+!-]*)$")
# pip's git URL at a ref: `git+https://host/owner/repo(.git)@REF`, `git+ssh://git@host/o/r.git@REF` (the user part
# is left out of the version: it may hold a token). No two parts share a character class at their seams (`/`, `@`
# end the user part and the path; the ref holds neither): linear on any word.
_VCS_ARG = lazy(r"^git\+(?P<scheme>https?|ssh|git)://(?:[^\s@/]{1,200}@)?(?P<path>[^\s@#?]{1,300})"
                r"@(?P<ref>[^\s@#?/]{1,128})(?:[#?]\S{0,300})?$")
_COMMIT = lazy(r"^[0-9a-f]{7,40}$")
_NPM_ARG = lazy(r"^(?P<name>(?:@[\w.-]+/)?[\w.-]{1,214})@(?P<version>\d[\w.+-]*)$")
# Hosts whose module paths are `host/owner/repo[/vN]`: the module a package path (`…/cmd/tool`) belongs to.
_REPO_HOSTS = ("github.com/", "gitlab.com/", "bitbucket.org/", "golang.org/x/")
_MAJOR = lazy(r"^v\d+$")
# a GitHub release asset a command downloads by its tag (`curl -fsSL https://github.com/o/r/releases/download/v1.2/…`)
_RELEASE_URL = lazy(r"https?://github\.com/(?P<repo>[\w.-]{1,100}/[\w.-]{1,100})/releases/download/"
                    r"(?P<tag>[^/\s\"']{1,128})/")
# an installer script of a repository piped to a shell with its release tag as the operand (godownloader's, which
# golangci-lint documents: `curl -sSfL https://raw.githubusercontent.com/golangci/golangci-lint/master/install.sh | sh
# -s -- -b $(GOBIN) v1.62.0`); the script fetches that release. At most 8 words after `--`, each bounded.
_SCRIPT = lazy(r"https://raw\.githubusercontent\.com/(?P<repo>[\w.-]{1,100}/[\w.-]{1,100})/[\w.-]{1,128}/"
               r"(?:[\w.-]{1,100}/){0,4}install\.sh[\"']?[ \t]*\|[ \t]*(?:sudo[ \t]+)?(?:ba)?sh[ \t]+-s[ \t]+--"
               r"(?P<args>(?:[ \t]+[^\s;&|#]{1,300}){1,8})")
_SUBSHELL = lazy(r"\$\([^()]{0,300}\)")
# `git clone` at a release tag (round 52, AppFlowy-Cloud's `RUN git clone https://github.com/AppFlowy-IO/auth.git
# --depth 1 --branch 0.5.0`): the build compiles that tag's code. The options git's clone takes a value of, in
# either form (`--branch X`, `--branch=X`, `-b X`); every other word an option or an operand, the first the repository
_CLONE = lazy(_LEAD + r"git\s+clone\s+(?P<args>[^;&|#]*)")
_CLONE_VALUED = frozenset({"-b", "--branch", "--depth", "-o", "--origin", "-c", "--config", "--reference",
                           "--reference-if-able", "-u", "--upload-pack", "--template", "--separate-git-dir",
                           "--shallow-since", "--shallow-exclude", "-j", "--jobs", "--filter", "--bundle-uri",
                           "--server-option", "--ref-format", "--revision"})
_CLONE_URL = lazy(r"^(?:https://|git://|ssh://(?:git@)?)(?P<where>[A-Za-z0-9.-]{1,253}(?::\d{1,5})?/[\w.-]{1,100}"
                  r"(?:/[\w.-]{1,100}){1,4}?)(?:\.git)?/?$|^git@(?P<host>[A-Za-z0-9.-]{1,253}):"
                  r"(?P<path>[\w.-]{1,100}(?:/[\w.-]{1,100}){1,4}?)(?:\.git)?$")


def go_module(path: str) -> str:
    """The module of a `go install` package path where the host's layout tells it (`github.com/onsi/ginkgo/v2`
    for github.com/onsi/ginkgo/v2/ginkgo); any other path as written (its module root is not knowable here)."""
    for host in _REPO_HOSTS:
        if path.startswith(host):
            parts = path[len(host):].split("/")
            keep = 2 if host != "golang.org/x/" else 1
            if len(parts) > keep and _MAJOR.match(parts[keep]):
                keep += 1
            return host + "/".join(parts[:keep])
    return path


# `cargo install` options that take a value (skipped with it), and those naming a source other than crates.io
# (the crate is then no registry package at a version: not read).
_CARGO_VALUED = frozenset({"--root", "--target", "--features", "-F", "--bin", "--example", "--profile", "--jobs",
                           "-j", "--target-dir", "--config"})
_CARGO_ELSEWHERE = frozenset({"--git", "--path", "--registry", "--index", "--branch", "--tag", "--rev"})


def _cargo(args: str) -> tuple[str, str] | None:
    """(crate, version) of `cargo install`'s arguments: `--version V NAME`, `NAME --vers=V`, `NAME@V`."""
    found = _arguments(args, ("--version", "--vers"), _CARGO_VALUED, _CARGO_ELSEWHERE)
    if found is None:
        return None
    name, at, pinned = found[0].partition("@")
    version = (pinned if at else found[1]).strip("\"'").lstrip("=")
    return (name, version) if _CRATE.match(name) and _EXACT.match(version) else None


# `gem install NAME -v V` (or `NAME:V`), `dotnet tool install [-g] NAME --version V` (red team 12)
_GEM = lazy(_LEAD + r"gem\s+install\s+(?P<args>[^;&|#]*)")
_DOTNET = lazy(_LEAD + r"dotnet\s+tool\s+(?:install|update)\s+(?P<args>[^;&|#]*)")
# `choco install NAME --version=V` (or `--version V`): a Windows runner's program at that version, the tool NAME
# (Pillow's Ghostscript, round 48); a package list or no exact version names none
_CHOCO = lazy(_LEAD + r"choco(?:\.exe)?\s+(?:install|upgrade)\s+(?P<args>[^;&|#]*)")
_CHOCO_VALUED = frozenset({"--source", "-s", "--params", "--package-parameters", "--ia", "--install-arguments"})
_PYPI_AT = lazy(r"^(?P<name>[A-Za-z0-9][\w.-]{0,99})(?:\[[\w,.\s-]*\])?@(?P<version>\d[\w.+!-]*)$")  # uvx tool@1.0
_COMMANDS = ("install", "deno", "tool update", "npx", "add", "bunx", "pnpx", "go run", "uvx", "pipx", "tool run",
             "exec", "dlx", "bun x", "npm x", "npm i", "require", "choco", "asdf", "mise", "rtx")
# A version manager's runtime at a version (round 53, jenkins-infra/docker-builder's `asdf install nodejs 20.12.1` in a
# RUN's `bash -c "…"`): asdf's `install|global|local|set|shell TOOL VERSION…` (`set`'s `-u`/`-p` flags skipped), and
# mise's (rtx's) `install|use|exec|x|i|u [options] TOOL@VERSION…` up to a `--`. The tool named as `.tool-versions` and
# `mise.toml` name it (mise.tool_of); `latest`, `lts`, `system`, `ref:…`, `$VAR` and `20.x` are no exact version.
_ASDF_RUN = lazy(_LEAD + r"asdf\s+(?:install|global|local|set|shell)\s+(?P<args>[^;&|#]*)")
_MISE_RUN = lazy(_LEAD + r"(?:mise|rtx)\s+(?:-\S+\s+)*(?:install|use|exec|x|i|u)\s+(?P<args>[^;&|#]*)")
_MISE_VALUED = frozenset({"-e", "--env", "-p", "--path", "-j", "--jobs", "-C", "--cd", "-E"})
_VALUED = lazy(r"^--(?:from|spec|package)=(?P<value>.+)$")
# What a container image's build installs (a Dockerfile's RUN lines, docker.py): Debian's and Alpine's packages pinned
# as `NAME=VERSION` (`apt-get install -y libpq-dev=13.23-0+deb11u2`, `apk add --no-cache git=2.45.2-r0`), PHP
# extensions as `NAME-VERSION` (`pecl install APCu-5.1.17`, mlocati's `install-php-extensions redis-6.0.2`) and
# Composer packages as `VENDOR/NAME:VERSION` (`composer global require phpstan/phpstan:1.12.7`). The options before
# the subcommand are words of their own that start with `-` (no two repetitions share a character: linear).
_APT = lazy(_LEAD + r"apt(?:-get)?\s+(?:-\S+\s+)*install\s+(?P<args>[^;&|#]*)")
_APK = lazy(_LEAD + r"apk\s+(?:-\S+\s+)*add\s+(?P<args>[^;&|#]*)")
_PECL = lazy(_LEAD + r"(?:pecl\s+(?:-\S+\s+)*install|install-php-extensions)\s+(?P<args>[^;&|#]*)")
_COMPOSER = lazy(_LEAD + r"composer(?:\.phar)?\s+(?:-\S+\s+)*(?:global\s+)?require\s+(?P<args>[^;&|#]*)")
# `libpq-dev=13.23-0+deb11u2`, `libc6:amd64=2.36-9` (an architecture), `openssh-client=1:8.4p1-5` (an epoch)
_DEB_ARG = lazy(r"^(?P<name>[a-z0-9][a-z0-9+.-]{0,99})(?::[a-z0-9-]{1,20})?="
                r"(?P<version>(?:\d{1,9}:)?\d[A-Za-z0-9.+~-]{0,127})$")
_APK_ARG = lazy(r"^(?P<name>[a-z0-9][\w+.-]{0,99})=(?P<version>\d[\w.+~-]{0,127})$")
_PECL_ARG = lazy(r"^(?:channel://[\w.-]{1,100}/)?(?P<name>[A-Za-z][A-Za-z0-9_]{0,63})-(?P<version>\d[\w.]{0,63})$")
_COMPOSER_ARG = lazy(r"^(?P<name>[a-z0-9][\w.-]{0,99}/[a-z0-9][\w.-]{0,99})[:=](?P<version>v?\d[\w.+-]{0,63})$")
# (pattern, words one of which a line must hold to be searched, the pattern of one exact argument, the ecosystem)
_SYSTEM = ((_APT, ("apt",), _DEB_ARG, "deb"), (_APK, ("apk",), _APK_ARG, "apk"),
           (_PECL, ("pecl", "php-extensions"), _PECL_ARG, "pecl"),
           (_COMPOSER, ("composer",), _COMPOSER_ARG, "composer"))


def _words(args: str) -> list[str]:
    """A command's arguments, each `--from=X`, `--spec=X`, `--package=X` as its value X."""
    return [m.group("value") if (m := _VALUED.match(word)) is not None else word for word in args.split()]


def _named(args: str, options: tuple[str, ...], valued: frozenset[str]) -> tuple[str, str] | None:
    """(name, version) of `NAME -v V` / `NAME --version=V` / `NAME:V` arguments; None without an exact version."""
    found = _arguments(args, options, valued)
    assert found is not None  # nothing names another source here
    name, colon, pinned = found[0].partition(":")
    version = (pinned if colon else found[1]).strip("\"'")
    return (name, version) if name and _EXACT.match(version) else None


def _arguments(args: str, options: tuple[str, ...], valued: frozenset[str],
               elsewhere: frozenset[str] = frozenset()) -> tuple[str, str] | None:
    """(the first operand, the value of the last of `options`) of a command's arguments, skipping the options in
    `valued` with their values; None when an option of `elsewhere` names another source than the registry."""
    words = args.split()
    name = version = ""
    index = 0
    while index < len(words):
        word = words[index]
        if word in elsewhere or word.partition("=")[0] in elsewhere:
            return None
        if word in options:
            version = words[index + 1] if index + 1 < len(words) else ""
            index += 1
        elif word.startswith(tuple(f"{o}=" for o in options)):
            version = word.partition("=")[2]
        elif word in valued:
            index += 1
        elif not word.startswith("-") and not name:
            name = word
        index += 1
    return name, version


def installs(path: str, line: str) -> list[Dependency]:
    """The packages `line` installs at an exact version (none for most lines)."""
    if not any(word in line for word in _COMMANDS):
        return []  # the cheap test: most lines of a workflow are no install command
    out: list[Dependency] = []
    # Each pattern is searched only in a line holding the word every match of it must (`pnpm` holds `npm`, `pnpx`
    # `npx`, `bunx` `bun`): on a long line each search tries every position (~0.35 us a character).
    for m in _GO.finditer(line) if "go" in line else ():
        out.append(Dependency("go", go_module(m.group("path")), m.group("version"), path, True, "build"))
    for m in _CARGO.finditer(line) if "cargo" in line else ():
        if (crate := _cargo(m.group("args"))) is not None:
            out.append(Dependency("cargo", crate[0], crate[1], path, True, "build"))
    for m in _PIP.finditer(line) if "pip" in line or "uv" in line else ():
        for word in _words(m.group("args")):
            if (req := _PYPI.match(word.strip("\"'")) or _PYPI_AT.match(word.strip("\"'"))) is not None:
                out.append(Dependency("pip", req.group("name"), req.group("version"), path, True, "build"))
            elif (vcs := _vcs(word.strip("\"'"))) is not None:
                out.append(Dependency("pip", vcs[0], vcs[1], path, True, "build"))
    for m in _NPM.finditer(line) if any(w in line for w in ("npm", "npx", "yarn", "bun")) else ():
        for word in _words(m.group("args")):
            if (arg := _NPM_ARG.match(word.strip("\"'"))) is not None:
                out.append(Dependency("npm", arg.group("name"), arg.group("version"), path, True, "build"))
    for m in _DENO.finditer(line) if "deno" in line else ():
        for word in _words(m.group("args")):
            if word.strip("\"'").startswith(("jsr:", "npm:", "https://deno.land/")):
                try:
                    module = specifier(word.strip("\"'"))
                except ManifestError:
                    continue  # not a module this reader knows: it names nothing
                if module is not None and _EXACT.match(module[2]):
                    out.append(Dependency(module[0], module[1], module[2], path, True, "build"))
    for m in _GEM.finditer(line) if "gem" in line else ():
        if (gem := _named(m.group("args"), ("-v", "--version"), frozenset({"--source", "-s", "-i", "--install-dir",
                                                                             "-n", "--bindir", "--platform"}))):
            out.append(Dependency("bundler", gem[0], gem[1], path, True, "build"))
    for pattern, words, arg_pattern, ecosystem in _SYSTEM:
        for m in pattern.finditer(line) if any(word in line for word in words) else ():
            for operand in m.group("args").split():
                exact = arg_pattern.match(operand.strip("\"'"))
                if exact is not None and _EXACT.match(exact.group("version").rpartition(":")[2]):  # a Debian epoch
                    out.append(Dependency(ecosystem, exact.group("name"), exact.group("version"), path, True, "build"))
    for m in _CHOCO.finditer(line) if "choco" in line else ():
        if (program := _choco(m.group("args"))) is not None:
            out.append(Dependency(TOOL, program[0], program[1], path, True, "build"))
    for m in _ASDF_RUN.finditer(line) if "asdf" in line else ():
        operands = [word.strip("\"'") for word in m.group("args").split() if not word.startswith("-")]
        out += [Dependency(TOOL, tool_of(operands[0]), version, path, True, "build")
                for version in operands[1:] if _EXACT.match(version)]
    for m in _MISE_RUN.finditer(line) if "mise" in line or "rtx" in line else ():
        out += [Dependency(TOOL, tool_of(tool), version, path, True, "build") for tool, version in _mise(m["args"])]
    for m in _DOTNET.finditer(line) if "dotnet" in line else ():
        if (tool := _named(m.group("args"), ("--version",), frozenset({"--tool-path", "--add-source", "--configfile",
                                                                        "--framework", "-a", "--arch"}))):
            out.append(Dependency("nuget", tool[0], tool[1], path, True, "build"))
    return out


def _mise(args: str) -> list[tuple[str, str]]:
    """(tool, version) of each `TOOL@VERSION` operand of mise's arguments before a `--`, its valued options skipped."""
    out: list[tuple[str, str]] = []
    words = args.split()
    at = 0
    while at < len(words) and words[at] != "--":
        word = words[at].strip("\"'")
        if word in _MISE_VALUED:
            at += 1
        elif not word.startswith("-"):
            tool, _, version = word.rpartition("@")
            if tool and _EXACT.match(version):
                out.append((tool, version))
        at += 1
    return out


def _choco(args: str) -> tuple[str, str] | None:
    """(program, version) of one package choco installs at `--version`; None for a list (the version would be every
    package's) or no exact version."""
    words = [w for w in args.split() if not w.startswith("-")]
    named = _named(args, ("--version",), _CHOCO_VALUED)
    values = sum(1 for i, w in enumerate(args.split()[:-1]) if w in _CHOCO_VALUED or w == "--version")
    return named if named is not None and len(words) - values == 1 else None


def _vcs(word: str) -> tuple[str, str] | None:
    """(name, version) of pip's git URL operand at a tag or commit: the repository's last part, and the ref with its
    source (`3.13.0 from git+https://github.com/o/tox-lsr`); None for a branch, a variable or no ref."""
    if not word.startswith("git+") or (m := _VCS_ARG.match(word)) is None:
        return None
    ref, where = m.group("ref"), m.group("path").rstrip("/")
    name = where.rpartition("/")[2].removesuffix(".git")
    if "/" not in where or not name or not (VERSIONISH.match(ref) or _COMMIT.match(ref)):
        return None
    return name, f"{ref} from git+{m.group('scheme')}://{where}"


def releases(path: str, command: str) -> list[Dependency]:
    """The GitHub releases `command` downloads at a tag that names a version, by URL or through the repository's
    installer script given the tag (_SCRIPT): the tool named by its repository; and a repository it clones at such a
    tag (`git clone --branch 0.5.0 URL`): the ecosystem `git`, named by the repository's host and path."""
    out = [Dependency(TOOL, m.group("repo"), m.group("tag"), path, True, "build")
           for m in _RELEASE_URL.finditer(command) if VERSIONISH.match(m.group("tag"))] \
        if "releases/download/" in command else []
    for m in _CLONE.finditer(command) if "clone" in command else ():
        if (cloned := _clone(m.group("args"))) is not None:
            out.append(Dependency("git", cloned[0], cloned[1], path, True, "build"))
    for m in _SCRIPT.finditer(command) if "install.sh" in command else ():
        if (tag := _script_tag(m.group("args"))) is not None:
            out.append(Dependency(TOOL, m.group("repo"), tag, path, True, "build"))
    return out


def _clone(args: str) -> tuple[str, str] | None:
    """(repository, tag) of a clone's arguments: the first operand as a remote URL and the `--branch` value, when
    that names a version (a branch, a variable or no `--branch`: None)."""
    words = [word.strip("\"'") for word in args.split()]
    operands: list[str] = []
    branch = None
    at = 0
    while at < len(words):
        word = words[at]
        option, eq, value = word.partition("=")
        if word.startswith("-") and option in _CLONE_VALUED:
            if not eq:
                at += 1
                value = words[at] if at < len(words) else ""
            if option in ("-b", "--branch"):
                branch = value
        elif not word.startswith("-"):
            operands.append(word)
        at += 1
    if not operands or branch is None or not VERSIONISH.match(branch.removeprefix("v")) \
            or (url := _CLONE_URL.match(operands[0])) is None:
        return None
    where = url.group("where") or f"{url.group('host')}/{url.group('path')}"
    return where.removesuffix(".git"), branch


def _script_tag(args: str) -> str | None:
    """The release tag an installer script is given: its first operand (`-b DIR v1.62.0`, the `-b` value skipped, a
    `$(go env GOPATH)` one word), when it names a version (`latest`, a `$(...)` left unresolved: None)."""
    words = _SUBSHELL.sub("_", args).split()
    skip = False
    for word in words:
        if skip:
            skip = False
        elif word.startswith("-"):
            skip = word == "-b"
        else:
            return word.strip("\"'") if VERSIONISH.match(word.strip("\"'")) else None
    return None
