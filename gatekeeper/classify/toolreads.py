"""The files Nix and pytest read where a CI command runs them (issue 12, the cileft64 round; taskrunners.line_files
and ciruns.named_in call these).

- **Nix.** `nix develop`, `nix build`, `nix run`, `nix shell`, `nix flake check` evaluate the `flake.nix` of the flake
  they are given (`.`, `.#pkg`, `./tools#ci`, `path:./tools`; a remote one, `github:o/r`, names nothing here), or the
  file `-f`/`--file` names; `nix-shell` evaluates the file or folder it is given, else `shell.nix` and `default.nix`;
  `nix-build` the file or folder given, else `default.nix`. Evaluating a Nix file runs its builders and a shell's
  `shellHook` in the job: the job's code. (`flake.nix` and `shell.nix` are `deps` by their names and stay so; a
  `default.nix` or another name becomes `ci`.) `nix-shell -p pkg` (packages only) names nothing.
- **pytest.** A run of pytest (`pytest`, `py.test`, `python -m pytest`, or tox's commands that do) imports every
  `conftest.py` from the root down to its tests (any folder: `conftest.py` below any folder), reads its settings
  (`pytest.ini`, `.pytest.ini`, `pyproject.toml`, `tox.ini`, `setup.cfg`, or `-c FILE`) and loads the plugins `-p NAME`
  names on its command line or in `addopts` and the modules a `conftest.py`'s `pytest_plugins` lists (below the root
  and each `pythonpath` folder of the settings): each is code the test job runs before any test. `-p no:NAME` turns a
  plugin off. The imports of a conftest.py (test code) stay unfollowed, as a test's are (ciimports.py).
- **Entry-point plugins** (cileft66). The project's packaging registers pytest plugins (`pytest11`:
  `[project.entry-points.pytest11]`, Poetry's `[tool.poetry.plugins."pytest11"]`, setup.cfg's `[options.entry_points]`,
  setup.py's `entry_points={"pytest11": [...]}`); pytest loads each where the project is installed (`entry_points`).
- **Gradle** (cileft65). A build script the walk reaches applies the scripts `apply from:` names; `gradle`/`gradlew`
  also run the init scripts `-I`/`--init-script` name (taskrunners.tool_files).
- **Build configuration files** (the eightieth set). Meson's `--cross-file`/`--native-file` and CMake's
  `-DCMAKE_TOOLCHAIN_FILE=` (also `:FILEPATH=`), `--toolchain` and `-C` (an initial cache script) name a file the
  build reads to decide how it compiles, on a line that runs `meson` or `cmake` (build_configs; dav1d's
  `--cross-file package/crossfiles/i686-linux32.meson`). A value with a variable or an absolute path names no file.
- **sus and bake-test** (over-reads 5). `sus`, and `bake test` (bake-test runs sus), load `config/sus.rb`;
  `bake test:external` reads `config/external.yaml` (ruby_tests).
- **Settings that are code** (review 66a). bump-my-version (also as `bumpversion`, bump2version's name) runs the
  `setup_hooks`/`pre_commit_hooks`/`post_commit_hooks` of `.bumpversion.cfg` or `.bumpversion.toml`; Steep evaluates
  its `Steepfile` as Ruby; qlty runs the commands of `.qlty/qlty.toml`'s plugin definitions (settings_code).
- **Nix imports** (cileft65). A Nix file the walk reaches evaluates the Nix files its path literals name, relative to
  its own folder: `import ./nix/shell.nix`, `pkgs.callPackage ./pkgs/tool {}` (a folder: its `default.nix`), a
  module's `imports = [ ./ci.nix ]`.
"""

from __future__ import annotations

import posixpath
import re

from gatekeeper.classify import runnersetups
from gatekeeper.classify.ciforms import ANY_FOLDER
from gatekeeper.lazy_pattern import lazy

__all__ = ["build_configs", "gradle_applied", "line_files", "nix_files", "nix_imports", "plugins", "pytest_files",
           "ruby_tests", "settings_code"]

# pytest or Nix at a command's start (as taskrunners.TOOL's; and tox's one-line `commands = pytest`, cileft66); behind
# `sudo`, `uv run`, `python -m`, ... it is read from the command wrappers.commands gives (the one table of wrappers)
_RUNS = lazy(r"(?:^|[;&|(`]|\$\(|\b(?:then|do|run|script|sh|bat|command|entry)\b:?+[ \t]*+['\"]?+"
             r"|\bcommands(?:_pre|_post)?+[ \t]*+=)[ \t]*+(?:-[ \t]++)?+"
             r"[@+-]*+(?:\./)?+(pytest|py\.test|nix-shell|nix-build|nix)(?=[ \t;&|)'\"]|$)([^;&|\n]*+)")
# a Nix path literal (`import ./nix/shell.nix`, `callPackage ./pkgs/tool {}`, `imports = [ ../modules/ci.nix ]`)
_NIX_PATH = lazy(r"(?<![\w./~-])(\.\.?+/[\w.+/-]{0,255}+)")
# a Gradle script another applies (`apply from: 'gradle/x.gradle'`, `apply(from = "$rootDir/gradle/x.gradle.kts")`,
# `apply from: rootProject.file('gradle/x.gradle')`)
_GRADLE_APPLY = lazy(r"""\bapply[ \t]*+\(?+[ \t]*+from[ \t]*+[:=][ \t]*+"""
                     r"""(?:(?:rootProject\.|project\.)?+file[ \t]*+\([ \t]*+)?+['"]([^'"\n]{1,256}+)['"]""")
_GRADLE_DIR = lazy(r"^\$\{?+(?:rootDir|projectDir|rootProject\.projectDir|project\.rootDir|buildscript\.sourceFile"
                   r"\.parentFile)\}?+/")
MAX_NIX_PATHS = 256  # path literals a Nix file names (past it: every Nix file below its folder, fail wide)
_MAX_GROUPS = 16  # `pytest11` groups one file registers (one is usual)
MAX_PLUGINS = 64  # modules a text names (past it: every module of the root, `${x}.py`: fail wide)
_NIX_COMMANDS = frozenset({"develop", "build", "run", "shell", "print-dev-env", "bundle", "eval", "check"})
# nix's and nix-shell's options whose value is the next word (two words for `--arg NAME EXPR`)
_NIX_VALUES = frozenset({"-A", "--attr", "--run", "--command", "-I", "-o", "--out-link", "--expr", "-E", "--profile",
                         "--override-input", "--option", "--arg", "--argstr", "-k", "--keep"})
_NIX_TWO = frozenset({"--arg", "--argstr", "--option", "--override-input"})
_SETTINGS = ("pytest.ini", ".pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg")
# `addopts = -p x` (ini, continued on indented lines), `addopts = "-p x"` or a list (TOML); `pythonpath = a b`
_ADDOPTS = lazy(r"^[ \t]*+(addopts|pythonpath)[ \t]*+=[ \t]*+([^\n]{0,4096}+(?:\n[ \t]++[^\n]{0,4096}+){0,64}+)",
                re.MULTILINE)
_PLUGIN = lazy(r"""(?<![\w-])-p(?:[ \t]*+|[ \t]*+['"],[ \t]*+['"])?+([A-Za-z_][\w.]{0,255}+)""")
# pytest's options and plugins from the environment: `PYTEST_ADDOPTS="-p x"`, `PYTEST_PLUGINS=a,b`, `PYTEST_PLUGINS: a`
# (a shell assignment's value: a quoted string or one word; a YAML key's: the line's rest)
_PYTEST_ENV = lazy(r"""\bPYTEST_(ADDOPTS|PLUGINS)['"]?+[ \t]*+([=:])[ \t]*+"""
                   r"""(?:['"]([^'"\n]{0,1024}+)|([^\n]{0,1024}+))""")
_PYTEST_PLUGINS = lazy(r"^pytest_plugins[ \t]*+(?::[^=\n]{0,256}+)?+=[ \t]*+([^\n]{0,4096}+(?:\n[ \t]++[^\n]{0,4096}+)"
                       r"{0,256}+)", re.MULTILINE)
# where a `pytest11` group's entries start, and what ends them (a TOML table, an ini key or section, a Python list)
_PYTEST11 = lazy(r"""(?:^\[(?:project\.entry-points|tool\.poetry\.plugins)\.["']?pytest11["']?\]|^pytest11[ \t]*[=:]"""
                 r"""|["']pytest11["'][ \t]*:)""", re.MULTILINE)
_NEXT_SECTION = {"pyproject.toml": lazy(r"^\[", re.MULTILINE), "setup.cfg": lazy(r"^\S", re.MULTILINE),
                 "setup.py": lazy(r"[\]}]|,[ \t]*+\n?+[ \t]*+[\"'][\w-]+[\"'][ \t]*:")}
_ENTRY_MODULE = lazy(r"""=[ \t]*+["']?+([A-Za-z_][\w.]{0,255}+)""")
_STRING = lazy(r"""['"]([A-Za-z_][\w.]{0,255}+)['"]""")
_FOLDER = lazy(r"""['"]?+([\w.][\w./-]{0,255}+)['"]?+""")


# meson's and cmake's options naming a build configuration file, with its value (separate, after `=`, or joined: `-Cx`);
# meson's own `-C` is its build folder, not a file
_VALUE = r"(?:[ \t]*+=[ \t]*+|[ \t]++|(?<=-C))['\"]?+([\w.][\w.+/-]{0,255}+)"
_BUILD_CONFIG = {"meson": lazy(r"(?<![\w-])--(?:cross|native)-file" + _VALUE),
                 "cmake": lazy(r"(?<![\w-])(?:--toolchain|-C|-DCMAKE_TOOLCHAIN_FILE(?::FILEPATH)?+)" + _VALUE)}
_BUILDS = lazy(r"(?<![\w./-])(meson|cmake)(?![\w.-])")


# Ruby's sus test runner and bake's `test` tasks (bake-test, bake-test-external) at a command's start or behind a
# wrapper; not Docker's `buildx bake`
_RUBY_TESTS = lazy(r"(?<![\w./-])(?<!buildx )(?<!docker )(sus(?:-parallel)?+|bake)(?=[ \t;&|)'\"]|$)([^;&|\n]*+)")
_BAKE_TEST = lazy(r"(?<![\w:-])test(?::([\w:-]++))?(?![\w-])")


def ruby_tests(line: str) -> list[str]:
    """The files sus loads (`config/sus.rb`) and bake-test-external reads (`config/external.yaml`, the projects it
    clones and the commands it runs in them) where `line` runs `sus` or `bake test` (over-reads 5, socketry's gems)."""
    if "sus" not in line and "bake" not in line:
        return []
    out: list[str] = []
    for tool, rest in _RUBY_TESTS.findall(line):
        tasks = _BAKE_TEST.findall(rest) if tool == "bake" else [""]
        out += ["config/sus.rb"] if tasks else []
        out += ["config/external.yaml"] if any(task.startswith("external") for task in tasks) else []
    return list(dict.fromkeys(out))


# the tools whose settings file is code they run, at a command's start or behind a wrapper (`bundle exec steep`)
_CODE_SETTINGS = {"bump-my-version": (".bumpversion.cfg", ".bumpversion.toml"),
                  "bumpversion": (".bumpversion.cfg", ".bumpversion.toml"),
                  "bump2version": (".bumpversion.cfg", ".bumpversion.toml"),
                  "steep": ("Steepfile",), "qlty": (".qlty/qlty.toml",)}
_CODE_TOOL = lazy(r"(?<![\w./-])(bump-my-version|bumpversion|bump2version|steep|qlty)(?=[ \t;&|)'\"]|$)")


def settings_code(line: str) -> list[str]:
    """The settings files that are code where `line` runs their tool (module docstring: bump-my-version's hooks,
    the Steepfile, qlty's plugin commands)."""
    if "bump" not in line and "steep" not in line and "qlty" not in line:
        return []
    return list(dict.fromkeys(name for tool in _CODE_TOOL.findall(line) for name in _CODE_SETTINGS[tool]))


def build_configs(line: str) -> list[str]:
    """The build configuration files the meson and cmake commands of `line` name (module docstring)."""
    # The two names first, inline: the same answer lazy's guard gives, without its Python frame (a call per command the
    # walk reads: 248,106 in arrow-adbc's walk; 205k real CI lines 0.137 -> 0.021 CPU-s, suite 41)
    if ("meson" not in line and "cmake" not in line) or not _BUILDS.search(line):
        return []
    out: list[str] = []
    for command in re.split(r"[;&|]+", line):
        for tool in dict.fromkeys(_BUILDS.findall(command)):
            out += [value for value in _BUILD_CONFIG[tool].findall(command) if "$" not in value]
    return out


def line_files(line: str) -> list[str]:
    """The files the pytest and Nix commands of `line` read, and the plugins its `PYTEST_ADDOPTS`/`PYTEST_PLUGINS`
    (inline or a job's `env:` key) load (attack 46)."""
    out: list[str] = []
    for key, sign, quoted, bare in _PYTEST_ENV.findall(line) if "PYTEST_" in line else []:
        value = quoted or (bare if sign == ":" else bare.split(" ", 1)[0])
        out += _modules(_PLUGIN.findall(value) if key == "ADDOPTS" else re.split(r"[\s,]+", value.strip()), [])
    for tool, rest in _RUNS.findall(line):
        words = [word for word in re.split(r"[\s'\"]+", rest) if word]
        out += nix_files(tool, words) if tool.startswith("nix") else pytest_files(words)
    return out


def nix_files(tool: str, words: list[str]) -> list[str]:
    """The Nix files `nix`/`nix-shell`/`nix-build` with `words` evaluates (module docstring)."""
    given: list[str] = []
    skip = 0
    command = "" if tool == "nix" else tool
    for before, word in zip(["", *words], words, strict=False):
        if skip:
            skip -= 1
            continue
        if word in ("--command", "-c", "--run") or (tool == "nix-shell" and word in ("-p", "--packages")):
            if tool == "nix-shell" and word in ("-p", "--packages") and not given:
                return []  # an ad-hoc shell of packages
            break  # the rest is the command it runs (read as a command line)
        if word in _NIX_VALUES or (before == "-f" or before == "--file"):
            skip = 2 if word in _NIX_TWO else 1
            given += [word] if before in ("-f", "--file") else []
            continue
        if word in ("-f", "--file"):
            skip = 1
            continue
        if word.startswith("-"):
            continue
        if not command:
            command = word if word in _NIX_COMMANDS or word == "flake" else "?"
            continue
        given.append(word)
    if command not in (*_NIX_COMMANDS, "flake", "nix-shell", "nix-build"):
        return []
    if tool == "nix":
        refs = [ref.partition("#")[0].removeprefix("path:") for ref in given if ref.startswith((".", "path:", "/"))
                or "#" in ref and ":" not in ref.partition("#")[0]] or ["."]
        return [name if name.endswith(".nix") else posixpath.join(name, "flake.nix") for name in refs
                if not name.startswith("/")]
    defaults = ("shell.nix", "default.nix") if tool == "nix-shell" else ("default.nix",)
    paths = [word for word in given if word.endswith(".nix") or "/" in word or word == "."]
    if not paths and given:
        return []  # `nix-shell '<nixpkgs>'`: a channel's expression
    return [path if path.endswith(".nix") else posixpath.join(path, "default.nix") for path in paths] or list(defaults)


def gradle_applied(text: str) -> list[str]:
    """The Gradle scripts a build script CI runs applies (cileft65): `apply from:` a path of the repository (`$rootDir/`
    and `$projectDir/` taken off; a URL names none)."""
    return [_GRADLE_DIR.sub("", path) for path in _GRADLE_APPLY.findall(text) if "://" not in path] \
        if "from" in text else []


def nix_imports(text: str) -> list[str]:
    """The Nix files a Nix file CI evaluates reads by a path literal (cileft65): a `.nix` file, or a folder's
    `default.nix` (`import ./nix`, `callPackage ./pkgs/tool {}`); a `#` comment's names none."""
    found = [path for line in text.splitlines() if "./" in line and not line.lstrip().startswith("#")
             for path in _NIX_PATH.findall(line.partition(" #")[0])]
    if len(found) > MAX_NIX_PATHS:
        return ["./${x}.nix"]
    return [path if path.endswith(".nix") else f"{path.rstrip('/')}/default.nix" for path in dict.fromkeys(found)
            if path.endswith(".nix") or "." not in path.rstrip("/").rpartition("/")[2]]


def pytest_files(words: list[str]) -> list[str]:
    """What pytest with `words` loads: every conftest.py, its settings files (or `-c FILE`), the `-p` plugins."""
    files = [f"{ANY_FOLDER}/conftest.py"]  # below any folder and the root (ciruns._patterns)
    config = [value for option, value in zip(words, words[1:], strict=False) if option in ("-c", "--config-file")]
    return files + (config or list(_SETTINGS)) + _modules(_PLUGIN.findall(" ".join(words)), [])


def plugins(name: str, text: str, root: bool = False) -> list[str]:
    """The modules pytest's settings (`addopts`' `-p`), a conftest.py (`pytest_plugins`) or the project's packaging
    (its `pytest11` entry points, cileft66) load (module docstring). Not the `root` project's own entry points: its
    plugin is the product pytest tests (pytest-mock's `src/pytest_mock/`, over-reads 1), as `pip install -e .` installs
    the product; a project of a subfolder a job installs is a tool's (pipinstalls.py)."""
    registered = _modules(entry_points(name, text), ["src"]) if "pytest11" in text and not root else []
    registered += runnersetups.loaded(name, text)  # `.rspec`'s `--require`, phpunit.xml's `bootstrap=` (attack 45)
    if name in _SETTINGS and "addopts" in text:
        found = {key: value for key, value in _ADDOPTS.findall(text)}
        folders = [hit for hit in _FOLDER.findall(found.get("pythonpath", "")) if hit.strip("./")]
        return _modules(_PLUGIN.findall(found.get("addopts", "")), folders) + registered
    if name == "conftest.py" and "pytest_plugins" in text:
        return _modules([module for value in _PYTEST_PLUGINS.findall(text) for module in _STRING.findall(value)], [])
    return registered


def entry_points(name: str, text: str) -> list[str]:
    """The modules a project registers as pytest plugins (`pytest11`): pyproject.toml's
    `[project.entry-points.pytest11]` or `[tool.poetry.plugins."pytest11"]` table, setup.cfg's `[options.entry_points]`
    `pytest11 =` lines, setup.py's `entry_points={"pytest11": [...]}`. pytest loads each where the project is
    installed, before any test; past MAX_PLUGINS, any module (fail wide)."""
    if name not in ("pyproject.toml", "setup.cfg", "setup.py"):
        return []
    found: list[str] = []
    for count, hit in enumerate(_PYTEST11.finditer(text)):
        if count == _MAX_GROUPS:
            return ["${x}"]  # a file of many groups: any module (fail wide)
        window = text[hit.end():hit.end() + 4096]
        end = _NEXT_SECTION[name].search(window)
        found += _ENTRY_MODULE.findall(window[:end.start()] if end is not None else window)
    return found


def _modules(names: list[str], folders: list[str]) -> list[str]:
    """A module's file or package below the root and each folder (`tools.plug`: `tools/plug.py`,
    `tools/plug/__init__.py`); `no:` turns one off."""
    names = [name for name in dict.fromkeys(names) if name != "no" and not name.startswith("no:")]
    if len(names) > MAX_PLUGINS:
        names = ["${x}"]  # fail wide: any module
    paths = [name.replace(".", "/") for name in names]
    return [posixpath.join(folder, f"{path}{tail}") for folder in ["", *folders[:8]] for path in paths
            for tail in (".py", "/__init__.py")]
