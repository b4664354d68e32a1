"""Suite 41: the walk's hottest per-line readers take a cheaper first test, and no answer changes.

`nodeconfigs.line_files` asked first whether the line held any Node tool's first four letters (37 Python steps a line:
16.6 M generator steps in suite 39's profile). It now asks whether any of the line's words, split where `_RUNS` lets a
tool's name begin and end, is a tool's name: one split and a set test. The old reader is kept here as the oracle, and
both answer alike on every tool name in every context the pattern's edges allow or refuse, on look-alikes (`java`,
`jester`, `next.js`, `@scope/vite-plugin`) and on generated lines.
"""

from __future__ import annotations

import posixpath
import random
import re

import pytest

from gatekeeper.classify import nodeconfigs, taskrunners, toolreads

_STEMS = tuple(sorted({name[:4] for name in nodeconfigs.CONFIGS}))


def old_line_files(line: str) -> list[str]:
    """nodeconfigs.line_files as it was at ed28b952 (its four-letter stem test, then the same reading)."""
    if not any(stem in line for stem in _STEMS):
        return []
    return _unfiltered(line)


def _unfiltered(line: str) -> list[str]:
    """The reading after the first test, whatever it says (the oracle's second half)."""
    out: list[str] = []
    for tool, rest in nodeconfigs._RUNS.findall(line):
        folders = [""]
        if tool in nodeconfigs._ROOTED:
            words = [word for word in re.split(r"[\s'\"]+", rest) if word and not word.startswith("-")]
            folders += [word.strip("/") for word in words[:2] if "." not in word.rpartition("/")[2]
                        and word not in ("build", "dev", "generate", "preview", "start", "serve", "export")]
        out += [posixpath.join(folder, f"{base}.{ext}") for folder in folders
                for base in nodeconfigs.CONFIGS[tool] for ext in nodeconfigs._MODULES]
        if tool == "eslint":
            out += [f"{folder.rstrip('/')}/{nodeconfigs.ANY}.js" for folder in nodeconfigs._RULESDIR.findall(rest)[:8]
                    if nodeconfigs.ANY not in folder and folder.strip("./")]
    return out


BEFORE = ["", "; ", "&&", "|", "(", "$(", "`", "run: ", "run:", "script: '", 'sh "', "command: ", "then ", "do ",
          "npx ", "pnpm exec ", "yarn ", "npm exec -- ", "node_modules/.bin/", "./", "node node_modules/",
          "node_modules/@scope/", "- ", "  ", "\t", "x", "-", ".", "_", "@", "\\", "=", "\r", "java", "$", "{", "'",
          '"', ":", "/", "a/", "runx ", "npx --yes "]
AFTER = ["", " ", "\t", "\n", ";", ")", "'", '"', "/", ".", "-", "x", ":", "\r", ",", "=", " build web", " -c",
         " --rulesdir rules", " build site && next build app", ".js", "-plugin", "er", "(", "`"]
LOOKALIKES = ["java -jar x.jar", "jester run", "next.js build", "npm i @scope/vite-plugin", "typescript", "commit -m x",
              "lint", "make lint", "ava", "nyc", "c8", "storybook-build", "webpackfile", "eslint_d .", "nextjs",
              "post install", "playwright-core", "cypress-io/github-action@v6", "rollup.config.mjs"]


@pytest.mark.parametrize("tool", sorted(nodeconfigs.CONFIGS))
def test_every_tool_in_every_edge_reads_as_before(tool: str) -> None:
    lines = [f"{before}{tool}{after}" for before in BEFORE for after in AFTER]
    differ = [line for line in lines if nodeconfigs.line_files(line) != old_line_files(line)]
    assert differ == []
    # and the edges the pattern takes do name files (the test compares answers, not two empty lists)
    assert nodeconfigs.line_files(f"run: {tool} x") and nodeconfigs.line_files(f"cd web && npx {tool}")


@pytest.mark.parametrize("line", LOOKALIKES)
def test_look_alikes_read_as_before(line: str) -> None:
    assert nodeconfigs.line_files(line) == old_line_files(line)


def test_generated_lines_read_as_before() -> None:
    pieces = [*nodeconfigs.CONFIGS, *BEFORE, *AFTER, "build", "test", "--config", "x.js", "web", " ", " ", "&&"]
    rng = random.Random(41)
    lines = ["".join(rng.choice(pieces) for _ in range(rng.randint(1, 9))) for _ in range(6000)]
    named = 0
    for line in lines:
        assert nodeconfigs.line_files(line) == old_line_files(line), line
        named += bool(old_line_files(line))
    assert named > 600  # the generator makes lines that name files, not only lines that name none


def test_side_files_read_as_before() -> None:
    """The reader the walk calls per command (taskrunners.side_files) sums the same lists."""
    rng = random.Random(4141)
    tools = sorted(nodeconfigs.CONFIGS)
    for _ in range(300):
        line = f"{rng.choice(BEFORE)}{rng.choice(tools)}{rng.choice(AFTER)} && pytest -c t.ini && node tools/gen"
        side = taskrunners.side_files(line)
        new = nodeconfigs.line_files(line)
        assert side[:len(new)] == new == old_line_files(line)


def old_build_configs(line: str) -> list[str]:
    """toolreads.build_configs as it was at ed28b952 (lazy's guarded search first, then the same reading)."""
    if not toolreads._BUILDS.search(line):
        return []
    out: list[str] = []
    for command in re.split(r"[;&|]+", line):
        for tool in dict.fromkeys(toolreads._BUILDS.findall(command)):
            out += [value for value in toolreads._BUILD_CONFIG[tool].findall(command) if "$" not in value]
    return out


def test_build_configs_read_as_before() -> None:
    """toolreads.build_configs tests `meson` and `cmake` inline before its pattern: the same lines reach it."""
    pieces = ["meson", "cmake", "Meson", "CMAKE", "mesonbuild", "cmake3", "ccmake", "x-cmake", "./meson", " ", " ",
              "setup", "--cross-file", "=", "cross.ini", "--native-file", "-C", "cache.cmake", "--toolchain",
              "-DCMAKE_TOOLCHAIN_FILE=t.cmake", "-DCMAKE_TOOLCHAIN_FILE:FILEPATH=", "&&", ";", "|", "$X", "'", "b/"]
    rng = random.Random(414)
    tools = ["meson setup b", "cmake -S . -B b", "Meson", "mesonbuild", "cmake3", "ccmake", "x-cmake", "./meson", ""]
    options = ["--cross-file", "--native-file", "-C", "--toolchain", "-DCMAKE_TOOLCHAIN_FILE", "--cross-files"]
    lines = ["".join(rng.choice(pieces) for _ in range(rng.randint(0, 4))) + rng.choice(tools) + " "
             + rng.choice(options) + rng.choice(["=", " ", ":FILEPATH="])
             + rng.choice(["x.ini", "t.cmake", "$T", "'a b'"])
             + "".join(rng.choice(pieces) for _ in range(rng.randint(0, 4))) for _ in range(6000)]
    named = 0
    for line in lines:
        assert toolreads.build_configs(line) == old_build_configs(line), line
        named += bool(old_build_configs(line))
    assert named > 100  # the generator makes lines that name files (199 of them), not only lines that name none
    # the inline test is the names every match holds (lazy's guard runs); a new name in _BUILDS must join it
    assert {word for word in re.findall(r"\w+", toolreads._BUILDS.pattern) if len(word) > 1} == {"meson", "cmake"}
