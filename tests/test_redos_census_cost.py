"""The census's second list (bench/bench_pattern_cost.py, docs/classification.md "Hostile lines"), each pattern read
through the reader that calls it on a hostile text, CPU seconds (tests/cpucost.py), and each rewritten pattern
checked against its old text on written and random texts.

On `9592e7c` a 16 KiB hostile text cost 0.39-7.3 CPU-s in each reader below (a 1 MiB one: minutes to hours; the
readers take files up to 32 MiB): blanks split every way around an optional mark, a run read again from each of its
characters, `^\\s*` read again over every following blank line from each line start.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

import pytest
from cpucost import assert_linear, least_cpu, repeated
from tables import each_case

from gatekeeper.classify import manifestreads, sniff, vendoredci, yamlroots
from gatekeeper.classify.contextrules import ContextRules
from gatekeeper.deps import bazel, hunkreads, lockedsources, lockhunks, npm, overrides, residue, versions, xcodegen
from gatekeeper.deps.model import ManifestError


def _quiet(read: Callable[[str], object]) -> Callable[[str], object]:
    def call(text: str) -> object:
        try:
            return read(text)
        except ManifestError:  # fail closed: an unread file is an error, fine here; its cost is what counts
            return None
    return call


def _yarn(line: str) -> object:
    return npm.parse_yarn_lock("yarn.lock", f'"w@workspace:.":\n  version: 0.0.0\n  dependencies:\n{line}\n'.encode())


def _hint_path(value: str) -> object:
    return residue.xml_residue(f"<Project><ItemGroup><Reference Include='a'><HintPath>{value}</HintPath>"
                               "</Reference></ItemGroup></Project>".encode())


def _api_version(line: str) -> object:
    return sniff.sniff("deploy/app.yaml", f"{line}\nkind: Deployment\n".encode(), ContextRules())


# (reader, head, filler, tail): the text is head + filler * n + tail.
SHAPES: dict[str, tuple[Callable[[str], object], str, str, str]] = {
    "gradle apply blanks": (lambda line: manifestreads._values("gradle", line), "apply", " ", "x"),
    "travis word": (lambda text: vendoredci.travis_imports(".travis.yml", text), "", "a", ""),
    "bazel blank lines": (_quiet(lambda text: bazel.parse_module_bazel("MODULE.bazel", text.encode())), "", "\n",
                          "x"),
    "bazel residue blank lines": (lambda text: bazel.residue(text.encode()), "", "\n", "oci.pull"),
    "bazel override blank lines": (lambda text: overrides.changed_overrides("MODULE.bazel", b"x = 1\n",
                                                                             text.encode()), "", " \n", "x"),
    "bazel hashes before a quote": (_quiet(lambda text: bazel.parse_module_bazel("MODULE.bazel", text.encode())),
                                    "a = 1 ", "#", '"\n'),
    "yarn scope slashes": (_quiet(_yarn), "    @", "a/", "a"),
    "msbuild hint path digits": (_hint_path, "x", "1", "x"),
    "lock entry version digits": (lambda line: lockhunks._version([line]), "  version ", "1", ""),
    "lock source file word": (lambda value: lockedsources.template(("url", value), "1.2.3"), '"', "a", '"'),
    "version spec blanks": (versions.base_version, "", " ", "x"),
    "xcodegen blank lines": (_quiet(lambda text: xcodegen.project_spec_hunks("project.yml", text.encode())), "", "\n",
                             "x from"),
    "hunk blank line": (lambda line: hunkreads.hunk_pairs(lambda side, index: (), [], [(line, True)]), "", " ", "x"),
    "apiVersion digits": (_api_version, "apiVersion: v1", "1", "-"),
}


@each_case(("read", "head", "filler", "tail"), list(SHAPES.values()), ids=list(SHAPES))
def test_a_hostile_text_is_read_in_linear_time(read: Callable[[str], object], head: str, filler: str,
                                              tail: str) -> None:
    def text(kib: int) -> str:
        return head + filler * (kib * 1024 // len(filler)) + tail

    assert least_cpu(read, text(8), under=0.05) < 0.05  # 0.1-1.8 CPU-s on 9592e7c
    assert_linear(read, repeated(filler, head, tail), budget=0.125)  # 4 times the text: ~4 times the CPU, never ~16


# The patterns as they were (9592e7c), with how the reader calls each: the new ones answer every text the same.
OLD: dict[str, tuple[re.Pattern[str], str, str]] = {
    "_GRADLE_READS": (manifestreads._GRADLE_READS, r"\bapply\s*\(?\s*from\s*[:=]|\bfrom\s*\(\s*files\s*\(", "search"),
    "_YAML_NAME": (vendoredci._YAML_NAME, r"[^\s'\"\[\]{},:@]+\.ya?ml(?![\w.-])", "findall"),
    "_YARN_DEP": (npm._YARN_DEP, r'^ {4}"?((?:@[^@"\s:]+/)?[^@"\s:]+)"?:? ', "match"),
    "_DOTTED": (residue._DOTTED, r"\d+(?:\.\d+)+", "sub"),
    "_VERSION_IN_LINE": (lockhunks._VERSION_IN_LINE, r"[0-9]+(?:\.[0-9A-Za-z+_-]+)+", "search"),
    "_FILE": (lockedsources._FILE, r"([^/\s\"'@:=]*)\0[^/\s\"'?#]*", "sub"),
    "_SIMPLE": (versions._SIMPLE, r"^\s*(?:\^|~>|~=|~|>=|==|=|v)?\s*([0-9][0-9A-Za-z.+!\-_]*)\s*$", "match"),
    "_OWN_KEYS": (xcodegen._OWN_KEYS,
                  r"^\s*(?:exactVersion|minorVersion|majorVersion|minVersion|maxVersion|from)\s*:|^packages\s*:",
                  "bool"),
    "BLANK": (hunkreads.BLANK, r"^\s*,?\s*$", "bool"),
    "API_VERSION": (yamlroots.API_VERSION, r"(?:[a-z0-9]([a-z0-9.-]*[a-z0-9])?/)?v[0-9]+[a-z0-9]*\Z", "match"),
}
TOKENS = [" ", "\t", "\n", "\r", "\x0b", "\xa0", "\0", ",", ":", "=", "/", "@", "'", '"', "[", "]", "{", "}", "(",
          ")", "#", "?", ".", "-", "+", "_", "x", "a", "v", "1", "12", "1.2", ".yml", ".yaml", "apply", "from", "files",
          "@s/", "    ", "exactVersion", "packages", "^", "~>", ">=", "v1", "apps/", "é", "٣"]

FAVOURED = {"_GRADLE_READS": ["apply", "from", "(", ":", "=", " ", "files", "\t", "apply from", "from(files("],
            "_YARN_DEP": ["@s/", "a", "/", '"', ":", " "], "_OWN_KEYS": ["from", "packages", ":", "\n", " ", "\t"]}


def _answer(pattern: re.Pattern[str], text: str, call: str) -> object:
    if call == "findall":
        return pattern.findall(text)
    if call == "sub":
        return pattern.sub(lambda m: f"<{m.groups()}>", text)
    if call == "bool":
        return pattern.search(text) is not None
    m = (pattern.search if call == "search" else pattern.match)(text)
    return None if m is None else (m.span(), m.groups())


@each_case("name", list(OLD))
def test_the_linear_patterns_answer_as_the_old_ones_did(name: str) -> None:
    new, source, call = OLD[name]
    old = re.compile(source, new.flags)
    assert new.pattern != source  # rewritten
    rng = random.Random(name)
    tokens = TOKENS + 4 * FAVOURED.get(name, [])  # the pattern's own words, often enough to make matches
    texts = [rng.choice(("", "    ")) + "".join(rng.choice(tokens) for _ in range(rng.randint(0, 12)))
             for _ in range(6_000)]
    assert sum(old.search(text) is not None for text in texts) > 60  # the texts hold matches, not only misses
    assert [text for text in texts if _answer(old, text, call) != _answer(new, text, call)] == []


def test_module_bazel_reads_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    """bazel: each call from its own line's start (the blank lines before it stay, as whitespace the residue
    collapses), comments cut by one pass per line; the same dependencies, residue and errors on random files."""
    old_call = re.compile(r"^\s*bazel_dep\s*\(([^()]*)\)", re.MULTILINE)
    old_pull = re.compile(r"^\s*oci\.pull\s*\(([^()]*)\)", re.MULTILINE)
    old_override = re.compile(r"^\s*\w+_override\s*\([^()]*\)", re.MULTILINE)

    def old_body(data: bytes) -> str:
        return re.sub(r"#[^\n\"]*$", "", data.decode(), flags=re.MULTILINE)

    def read(data: bytes) -> object:
        try:
            deps = [(d.name, d.version) for d in bazel.parse_module_bazel("MODULE.bazel", data)]
        except ManifestError as exc:  # the line named, checked below: the old pattern named the first blank line
            deps = [("error", re.sub(r"^line \d+: ", "", str(exc)))]
            if (number := re.match(r"line (\d+):", str(exc))) is not None and bazel._CALL is not old_call:
                assert "bazel_dep" in data.decode().split("\n")[int(number.group(1)) - 1]
        return deps, bazel.residue(data), [m.strip() for m in bazel.OVERRIDE.findall(bazel._body(data))]

    parts = ['bazel_dep(name = "rules_go", version = "0.50.1")',
             'bazel_dep(name="a", version="1.0", dev_dependency=True)',
             'oci.pull(name = "base", image = "index.docker.io/library/debian", tag = "12")', "# a comment",
             'git_override(module_name = "b", commit = "abc")', 'x = "#not a comment"  # one', "module(name = 'm')",
             "\n", "\n\n", "  ", "\t", "#", '"', "bazel_dep(", ")", 'V = "2.0"', 'bazel_dep(name = "c", version = V)']
    rng = random.Random("MODULE.bazel")
    texts = ["\n".join(rng.choice(parts) for _ in range(rng.randint(0, 8))) for _ in range(1_500)]
    new_answers = [read(text.encode()) for text in texts]
    for name, value in (("_CALL", old_call), ("_PULL", old_pull), ("OVERRIDE", old_override), ("_body", old_body)):
        monkeypatch.setattr(bazel, name, value)  # the old reader: its patterns swapped back in
    old_answers = [read(text.encode()) for text in texts]
    assert sum(bool(answer[0]) for answer in old_answers) > 300
    assert [text for text, old, new in zip(texts, old_answers, new_answers, strict=True) if old != new] == []
