"""Per-line patterns on one hostile line, CPU seconds (load cannot flake them), the least of three, the collector off.

Attack 34 left four line patterns quadratic: two runs of blanks with only an optional mark between them
(`\\s*\\[?\\s*`, `[ \\t]*\\{?[ \\t]*`, `\\s*,?\\s*$`) are split every way when the rest of the line fails, so a
`runs-on:` line of 8 KiB of blanks cost 0.63 CPU-s, a role item 1.48 and a package.json pair 0.17 on `1accc98`
(a 1 MiB line: hours). Each now reads the optional mark together with the blanks after it, which matches the same
lines with the same groups (the differential tests below: the old patterns' text, kept here, against the new ones).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

from cpucost import assert_linear, least_cpu, repeated, within_cpu
from tables import each_case

from gatekeeper.classify import (
    appliedpatches,
    buildshapes,
    ciconfigs,
    ciforms,
    deployruns,
    devcontainers,
    docdeploys,
    gitlabincludes,
    manifestreads,
    playbookreads,
    shapes,
    tasks,
    tfrefs,
)
from gatekeeper.deps import bundler, edits, facts, gradle, lockhunks, pypi, residue, tools
from gatekeeper.deps.model import ManifestError


def _workflow(line: str) -> object:
    return tools.WorkflowTools(".github/workflows/ci.yml").line(line)


def _npm(line: str) -> object:
    try:
        return edits.npm_line([("{", False), (line, True)], 1)
    except ManifestError:  # fail closed: an unread line is an error, which is fine here; its cost is what counts
        return None


def _action_inputs(line: str) -> object:
    return ciconfigs.named(f"steps:\n  - uses: goreleaser/goreleaser-action@v6\n    with:\n{line}\n")


def _roles(line: str) -> object:
    return playbookreads._role_names(f"- hosts: all\n  roles:\n{line}\n")


def _task(line: str) -> object:
    return tasks.run_paths(f"platform: linux\nrun:\n  path: sh\n{line}\n".encode())


def _port(line: str) -> object:
    return appliedpatches.named("ports/zlib/portfile.cmake", f"vcpkg_from_github(PATCHES {line})\n")


def _requirements(line: str) -> object:
    return buildshapes.build_shape("requirements.in", f"requests==2.31.0\n{line}\n")


def _gemfile(line: str) -> object:
    return bundler.parse_gemfile("Gemfile", f"source 'https://rubygems.org'\n{line}\n".encode()), bundler.residue(
        line.encode())


def _hash_options(line: str) -> object:
    return pypi.requirements_residue(f"requests==2.31.0\n{line}\n".encode())


def _plugins(line: str) -> object:
    return ciforms.plugin_hooks(f"steps:\n  - plugins:\n{line}\n")


# (reader, head, filler, tail): the line is head + filler * n + tail.
SHAPES: dict[str, tuple[Callable[[str], object], str, str, str]] = {
    "runs-on blanks": (_workflow, "runs-on: ", " ", "x"),
    "runs-on tabs in a list": (_workflow, "  - runs-on:\t", "\t", "[x"),
    "runs-on blanks before a bracket": (_workflow, "runs-on:", " ", "[ 'x"),
    "role item blanks": (_roles, "    - ", " ", "#"),
    "role item blanks before a brace": (_roles, "    -", "\t", "{ #"),
    "npm pair blanks": (_npm, '  "a": "1.0.0"', " ", "x"),
    "npm pair blanks around a comma": (_npm, '  "a": "1.0.0" ', " ", ", x"),
    "npm alias blanks": (_npm, '  "a": "npm:b@^1.0.0"', " ", "x"),
    "action input blanks": (_action_inputs, "      ", " ", "x"),
    "action input blanks after a dash": (_action_inputs, "    ", "\t", "-\t\t"),
    "npm section blanks": (_npm, '  "dependencies": { "a": "1.0.0" }', " ", "x"),
    # found by bench/bench_pattern_cost.py (2026-12-06): 8 KiB of blanks 0.33-1.6 CPU-s on 88fff27
    "task args blanks": (_task, "  args:", " ", "x"),
    "port patch word": (_port, "", "a", ".patchx"),
    "requirements comment blanks": (_requirements, "x", " ", "y #"),
    "gem blanks": (_gemfile, "gem", " ", "x"),
    "gem options blanks": (_gemfile, "gem 'a'", " ", "x"),
    "gem group block blanks": (_gemfile, "", " ", "x"),
    "gem do blanks": (_gemfile, "x do", " ", "x"),
    "buildkite local plugin blanks": (_plugins, "      - ./x", " ", "x"),
    "deploy line word": (deployruns._LINE_PATH.findall, "helm upgrade x - < ", "a", ""),
    "devcontainer config blanks": (devcontainers.configurations, "devcontainer build --config", " ", ""),
    "gitlab include dashes": (gitlabincludes._line_paths, "  - x", "-", "y"),
    "readme unclosed fence": (docdeploys._fenced, "", "`", "\nx\n"),
    # attack 39's census of the modules changed on 2026-12-06: 32 KiB of tabs 1.6 CPU-s on 6dc8a08e
    "requirements option blanks": (_hash_options, "flask==1.0 --x", "\t", "y"),
    "terraform format verb zeros": (lambda line: tfrefs.named_paths("infra", line), 'x = "%', "0", 'x"'),  # 5.8 at 16
    "gradle plugin id blanks": (lambda line: gradle.parse_build_script("build.gradle", line.encode()), "plugins { id",
                                " ", "x"),
    "vagrant configure blanks": (lambda line: shapes.shape("Vagrantfile.tpl", line), "Vagrant.configure", " ", "x"),
    # attack 39's census, left for the lead (2026-12-06): 4 KiB 50-300 ms on 6dc8a08e, a 1 MiB line hours
    "xml tag name colons": (residue._XML_TAG.match, "</", ":", "\x01"),
    "fact url scheme letters": (facts._URL.findall, "", "a", "\x01"),
    "lock url scheme letters": (lockhunks._URL.findall, "aa:", "a", "\x01"),
    "gradle checksum blank lines": (gradle._CHECKSUM.findall, " distributio", "\n", ""),
    "manifest requirement tabs": (manifestreads._REQUIREMENT_LINE.match, "aa[ ]", "\t", "\x01"),
}


@each_case(("read", "head", "filler", "tail"), list(SHAPES.values()), ids=list(SHAPES))
def test_a_hostile_line_is_read_in_linear_time(read: Callable[[str], object], head: str, filler: str,
                                              tail: str) -> None:
    def line(kib: int) -> str:
        return head + filler * (kib * 1024) + tail

    assert least_cpu(read, line(8), under=0.05) < 0.05  # a quadratic reading fails here at once (0.17-1.5 CPU-s)
    assert_linear(read, repeated(filler, head, tail), budget=0.25)  # 4 times the line: ~4 times the CPU, never ~16


def test_a_hostile_version_range_is_read_in_linear_time() -> None:
    """edits.RANGE, every npm/composer/cargo version value: four runs of blanks between two parts (the separator's
    `\\s*(?:...|\\s)\\s*` and the next part's `\\s*`): 512 blanks cost 0.48 CPU-s on 1234c59, a 4 KiB value minutes."""
    for filler in (" ", "\t", " -"):
        def line(kib: int, filler: str = filler) -> str:
            return '  "a": "1' + filler * (kib * 1024 // len(filler)) + 'x"'
        assert least_cpu(_npm, line(1), under=0.05) < 0.05
        # the reader around it: ~0.1 CPU-s a MiB
        assert_linear(_npm, repeated(filler, '  "a": "1', 'x"'), budget=0.0625)


# The patterns as they were (1accc98): the new ones must answer every line the same, spans and groups.
OLD = {
    "_RUNS_ON": (tools._RUNS_ON, r"""^\s*(?:-\s+)?runs-on\s*:\s*\[?\s*["']?(?P<os>ubuntu|macos|windows)-"""
                                 r"""(?P<version>\d[\w.-]*)["']?"""),
    "_ROLE_ITEM": (playbookreads._ROLE_ITEM,
                   r"""^[ \t]*-[ \t]*\{?[ \t]*(?:(?:role|name)[ \t]*:[ \t]*)?["']?([^\s"'#{}\[\],:=]+)[ \t,}]*"""),
    "_NPM_PAIR": (edits.NPM_PAIR, r'^\s*("(?:[^"\\]|\\.)+")\s*:\s*("(?:[^"\\]|\\.)*")\s*,?\s*$'),
    "_NPM_ALIAS": (edits._NPM_ALIAS, r'^\s*("(?:[^"\\]|\\.)+")\s*:\s*"npm:((?:@[A-Za-z0-9_.~-]+/)?[A-Za-z0-9_.~-]+)'
                                     r'@([^"\\]+)"\s*,?\s*$'),
    "_ACTION_INPUT": (ciconfigs._ACTION_INPUT, r"([ \t]*-?[ \t]*)([\w-]+)[ \t]*:[ \t]*(?:[>|][-+]?[ \t]*\Z)?(.*)"),
    "RANGE": (edits.RANGE, r"^(?:[\^~]|[<>]=?|=)?\s*v?\d+(?:\.(?:\d+|[xX*]))*(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?"
                          r"(?:@\w+)?(?:\s*(?:\|\|?|,|\s-\s|\s)\s*(?:[\^~]|[<>]=?|=)?\s*v?\d+(?:\.(?:\d+|[xX*]))*"
                          r"(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?(?:@\w+)?)*$"),
    "_NPM_SECTION": (edits._NPM_SECTION, r'^\s*"(?P<section>dependencies|devDependencies|optionalDependencies|'
                                         r'peerDependencies|require|require-dev)"\s*:\s*(\{.*\})\s*,?\s*$'),
    "_ARGS": (tasks._ARGS, r"^([ \t]*)args[ \t]*:[ \t]*(?:\[([^\]\n]*)\])?[ \t]*(?:#.*)?$"),
    "_PORT_PATCH": (appliedpatches._PORT_PATCH,
                    r"""(?:\$\{CMAKE_CURRENT_LIST_DIR\}/)?([^\s"'()$;]+\.(?:patch|diff))(?![\w.])"""),
    "_COMMENT": (buildshapes._COMMENT, r"[ \t]+#.*|#.*"),
    # (attack 38: a double-quoted requirement holding `#`, which Ruby may interpolate, is no literal one)
    "_GEM": (bundler._GEM, r"""^\s*gem\s*\(?\s*(["'])([A-Za-z0-9_.\-]+)\1"""
                           r"""((?:\s*,\s*(?:"[^"'\n#]*"|'[^"'\n]*'))*)(.*)$"""),
    "_OPENS": (bundler._OPENS, r"""^\s*(?:(group)\b(.*)\bdo\b|.*\bdo\s*(?:\|[^|]*\|)?\s*$|"""
                               r"""(?:if|unless|case|begin|while|until)\b)"""),
    "_LOCAL_PLUGIN": (ciforms._LOCAL_PLUGIN, r"""^[ \t]*-[ \t]+['"]?(\.{1,2}/[^\s'"#:]+)(?:#[^\s'":]*)?['"]?[ \t]*:?"""
                                         r"""[ \t]*(?:$|\{|~|null)"""),
    "_LINE_PATH": (deployruns._LINE_PATH,
                   r"[^\s'\"<>|&;()]*(?:/|\.(?:ya?ml|json|j2|tpl|tf|hcl|bicep)\b)[^\s'\"<>|&;()]*"),
    "_CONFIG": (devcontainers._CONFIG, r"""(?:\bconfigFile[ \t]*:|--config(?:[ \t]+|=))[ \t]*['"]?([^\s'"#$]+)"""),
    "_OPTION": (bundler._OPTION, rf"""\s*,\s*:?(?P<key>\w+)\s*(?::|=>)\s*(?P<value>{bundler._VALUE})"""),
    "_READ_REST": (bundler._READ_REST,
                   rf"""^(?:\s*,\s*:?\w+\s*(?::|=>)\s*{bundler._VALUE})*\s*\)?\s*(?:#.*)?$"""),
    "_FORMAT_VERB": (tfrefs._FORMAT_VERB, r"%[-+# 0]*\d*(?:\.\d+)?[sdvq]"),
    "_VAGRANT": (shapes._VAGRANT, r"""^[ \t]*Vagrant(?:\.configure[ \t]*\(?[ \t]*["']?[12]["']?[ \t]*\)?"""
                                  r"|::Config\.run)[ \t]+do[ \t]*\|[ \t]*\w+[ \t]*\|"),
    # the round-49 forms (`.version(...)`, `extra["name"]`) and round 56's bare variable, in the plain style
    "_PLUGIN": (gradle._PLUGIN, r"""\b(?:id\s*\(?\s*(?P<q>["'])(?P<id>[\w.-]+)(?P=q)\s*\)?"""
                                r"""|kotlin\s*\(\s*"(?P<kotlin>[\w.-]+)"\s*\))(?:\s+|\s*\.\s*)version\s*\(?\s*"""
                                r"""(?:(?P<vq>["'])(?P<version>[^"']+)(?P=vq)|extra\s*\[\s*"(?P<extra>[\w.-]{1,128})"\s*\]"""
                                r"""|(?P<ident>[A-Za-z_]\w{0,127})(?![\w.(\[]))"""),
    "_HASHES": (pypi._HASHES, r"\s+--hash(?:=|\s+)\S+"),
    "_REQUIREMENT_LINE": (buildshapes._REQUIREMENT_LINE,
                          r"[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?(?:[ \t]*\[[A-Za-z0-9_,. \t-]*\])?[ \t]*"
                          rf"(?:\(?{buildshapes._SPECIFIER}(?:[ \t]*,[ \t]*{buildshapes._SPECIFIER})*\)?|@[ \t]*\S+)?"
                          r"[ \t]*(?:;[^#\n]*)?"
                          r"|-[rce][ \t]+\S+|--(?:requirement|constraint|editable)[ =]\S+"
                          r"|--(?:index-url|extra-index-url|find-links|trusted-host|no-binary|only-binary)[ =]\S+|--pre"
                          r"|(?:git|hg|svn|bzr)\+[a-z]+://\S+|https?://\S+"),
    "_XML_TAG": (residue._XML_TAG, r"<(/?)([\w:.-]+)([^>]*?)(/?)>\Z"),
    "_FACT_URL": (facts._URL, r"[a-z][a-z0-9+.-]*://[^\s\"'<>]+"),
    "_LOCK_URL": (lockhunks._URL, r"(?i)[a-z][a-z0-9+.-]*://[^\s\"',}\]]+"),
    "_MANIFEST_REQUIREMENT_LINE": (manifestreads._REQUIREMENT_LINE,
                                   r"^(?:-{1,2}[A-Za-z][\w-]*(?:[=\s].*)?|[A-Za-z0-9][A-Za-z0-9._-]*(?:\[[^\]]*\])?"
                                   r"\s*(?:(?:===|==|>=|<=|~=|!=|<|>|@)\s*\S.*)?(?:\s*;.*)?)$"),
}
# How each reader calls its pattern, where it is not `match` (`fullmatch` for those written to be matched whole).
CALLS = {"_LINE_PATH": "findall", "_CONFIG": "findall", "_LOCAL_PLUGIN": "findall", "_PORT_PATCH": "findall",
         "_COMMENT": "sub", "_OPTION": "findall", "_REQUIREMENT_LINE": "fullmatch", "_HASHES": "sub",
         "_FORMAT_VERB": "sub", "_VAGRANT": "findall", "_PLUGIN": "findall", "_FACT_URL": "findall",
         "_LOCK_URL": "findall"}
# Lines of the shapes each pattern reads (written for this test), matching and near misses.
LINES = {
    "_RUNS_ON": ["runs-on: ubuntu-22.04", "    runs-on: [macos-14]", "  - runs-on: 'windows-2022'",
                 'runs-on: [ "ubuntu-24.04-arm" ]', "runs-on:ubuntu-20.04 # pinned", "runs-on: ubuntu-latest",
                 "runs-on: ${{ matrix.os }}", "runs-on : [ self-hosted, linux ]", "\truns-on:\t[\tmacos-13\t]",
                 "runs-on: [ubuntu-22.04, macos-14]", "  runs-on:  [  'ubuntu-22.04'  ]  ", "- runs-on: {"],
    "_ROLE_ITEM": ["    - web", "  - role: db", "  - { role: geerlingguy.java, tags: java }", "  -   name: 'x.y'",
                   '  - "common"', "  - {role: a}", "  -\t{\trole\t:\tb\t}", "  - name: {{ r }}", "  - # none",
                   "  -", "  - role:", "  - { name: c, when: x }", "  - role=d", "  - [e]", "  - {  }  ,"],
    "_NPM_PAIR": ['    "react": "^18.2.0",', '"a":"1"', '  "@types/node": "20.x" ,  ', '  "b": ""',
                  '  "c": "a \\" b",', '  "d": 1,', '  "e": "1",,', '  "f"  :  "x"  ,', '  "g": "1" }',
                  '  "": "1"', '  "h": "1"\t,\t', '  "i\\\\": "2"'],
    "_NPM_ALIAS": ['    "x": "npm:y@^1.2.0",', '  "@a/b": "npm:@c/d@1.0.0"', '  "x": "npm:y@"', '"x":"npm:@s/y@~2" , ',
                   '  "x": "npm:y"', '  "x": "npm:y@1 || 2",,', '  "x": "npm:y@1\\"",'],
    "_ACTION_INPUT": ["      args: release --clean", "    - args: >-", "  -  config-file: a.json", "-x: y", "-: y",
                      "  -  : y", "  - -x: |+  ", "files:", "  with:", "  - name: build", "x", "  a b: c"],
    "RANGE": ["^1.2.3", ">=1.0 <2", "1.2.3 - 1.4", "^7.4 || ^8.0", "v1.2.3-rc.1", "~1.2", "1.x", ">= 1.0, < 2",
              "1 - 2", "1 -2", "1- 2", "=1.0", " 1.0", "1.0.0+build.1", "1@beta", "^1 | ^2", "1.2.*", "> 1  <  2"],
    "_NPM_SECTION": ['  "dependencies": { "a": "1" },', '"devDependencies":{}', '  "require": {"php": ">=8"} , ',
                     '  "peerDependencies": { "a": "1" } }', '  "dependencies": {', '  "require-dev": {} x'],
    "_ARGS": ["args: [-ec, 'make test']", "  args:", "  args:  [a, b]  # x", "args:[]", "\targs\t:\t[x]\t", "args: x",
              "  args: [a] b", "  args : # c", "  args: [a", "- args: [a]"],
    "_PORT_PATCH": ["PATCHES fix-build.patch", '"${CMAKE_CURRENT_LIST_DIR}/0001-x.diff"', "(a/b.diff)", "$x.patch",
                    "a${CMAKE_CURRENT_LIST_DIR}/b.patch", "x.patch.orig y.PATCH", "{x.patch", "a.patchy b.diff;c.diff",
                    "http://x/y.patch"],
    "_COMMENT": ["requests==2 # pinned", "a#b", "x  \t# c", "no comment", "# all", "a  b #c # d", "  #", "u\t#"],
    "_GEM": ["gem 'rails', '~> 7.0'", 'gem("a", "1", require: false)', "  gem   (  'x'  ,  '>= 1' )", "gem 'a' # c",
             "gem x", "gem  'b',", 'gem "c" , "1" , "2"', "gems 'a'", "gem('d')"],
    "_OPENS": ["group :test do", "group :development, :test do |x|", "platforms :jruby do", "if ENV['X']", "  x do  ",
               "foo do |a, b|  ", "do", "x do |a| y", "unless y", "group(:a) do", "  github 'a/b' do", "todo",
               "x do |"],
    "_LOCAL_PLUGIN": ["  - ./plugins/x:", "  - '../y#v1': {", "- ./z ~", "  - ./a : null", "\t-\t./b\t:\t", "  - ./c:d",
                      "  - x/y:", "  - ./e  x", "  - \"./f\"", "  - ./g#\n  - ./h:  "],
    "_LINE_PATH": ["kubectl apply -f - < k8s/app.yaml", "a.tf;b/c (d.json) x.yml.j2", "https://x/y 'q/r'", "v1.2",
                   "x.yamlz/q", "a|b/c&d.hcl", "-f ./x", "e.bicep.bak f.tpl"],
    "_CONFIG": ["configFile: .devcontainer/ci.json", "--config  'x/y.json'", "--config=z.json", "--config\t=w",
                "configFile :\t$X", "--config", "myconfigFile: a", "--configx b", '--config "#c"'],
    "_OPTION": [", require: false, group: :test", "  ,  a => 'b' , c: 1", ", a: %i[x y], b: [1]", ",a:b", " , x: nil"],
    "_FORMAT_VERB": ['"%s/x.sh"', "%05d", "%-10.3s", "%+ #0v", "%q%%d", "%.2f", "%0.d", "%10", "% s", "%-0+ 12.34q",
                     "a%b%sd"],
    "_VAGRANT": ['Vagrant.configure("2") do |config|', "  Vagrant.configure(2)do |c|", "Vagrant.configure 2 do |x|",
                 "Vagrant::Config.run do |config|", "\tVagrant.configure( '2' ) do | v |", 'Vagrant.configure("2") do',
                 "Vagrant.configure('1')  do  |c|", "Vagrant.configure(\"2\"\t)\tdo|c|", "Vagrant.configure 2do |c|"],
    "_PLUGIN": ["id 'org.a.b' version '1.0'", 'id("x.y") version("2")', "  id  (  'a'  )  version  (  '3' )",
                'kotlin("jvm") version "1.9.0"', "id 'a'\nversion '1'", 'id "a" version', "bid 'a' version '1'",
                "id('a')version '1'", 'kotlin ( "x" )\tversion\t"2"', "id 'a' apply false",
                'id("x.y").version("2")', 'kotlin("jvm") . version(extra["kotlin.version"] as String)',
                "id('a').version(extra[ \"v\" ])", 'id("a").versions("1")', 'id("org.x") version dokkaVersion',
                "id 'a' version v.x", 'id("a") version libs(1)'],
    "_HASHES": [" a==1 --hash=sha256:ab", " b==2 \t--hash sha256:x --hash=sha256:y", " c==1  --hashx", " d --hash=",
                " e --hash   ", " f\t--hash=sha256:1 --pre", " --hash=a", " g==1 --global-option x --hash=h:1",
                " h==1 --hash\tsha256:2\t"],
    "_REQUIREMENT_LINE": ["requests==2.31.0", "a [x, y] >= 1, < 2 ; python_version < '3.12'", "b @ https://x/y.whl",
                          "c\t( == 1 )", "-r base.txt", "--index-url=https://x", "git+https://x/y", "d  ;  e", "e [",
                          "f == 1  junk", "--pre"],
    "_XML_TAG": ["<dependency>", "</dependency>", "<a:b.c-d x='1'>", "<x/>", "<y a=\"/\"/>", "</p:q >", "<br>",
                 "<1>", "< a>", "<a", "<a:b:c:>", "<-x.y/>", "<a>b>"],
    "_FACT_URL": ["url https://registry.example/npm/", "--index-url=https://x.y/simple", "1http://a", "+git+ssh://h/r",
                  "a.b-c://x", "x(https://y/z)", "no url here", "ftp://q 'http://w'", "<https://a/b>", "9://x",
                  "registry=http://r:4873/", "git+https://github.com/o/r.git#v1"],
    "_LOCK_URL": ["  resolved \"https://registry.yarnpkg.com/a/-/a-1.tgz#sha1\"", '"resolved": "https://r/x.tgz",',
                  "  tarball: https://t/y.tgz}", "1http://a]", "source = \"registry+https://github.com/rust-lang/x\"",
                  "git+ssh://git@github.com/o/r.git", "none", "a.b://c,d"],
    "_MANIFEST_REQUIREMENT_LINE": ["requests==2.31.0", "a[x] >= 1 ; python_version < '3.12'", "-r base.txt",
                                   "--index-url https://x", "b @ https://x/y.whl", "c", "d\t;\tx", "e [", "f == ",
                                   "g  ", "-", "h === 1"],
    "_READ_REST": [", require: false", ", group: :test )", ", path: '../x' # c", "", " )", ", a: 1, b: 'c'",
                   ", a: %w[x y]", ", :a => true", ", a:", " x", ", a: 1 junk", ", a: [1, 2] ) # z"],
}
_TOKENS = [" ", "\t", "  ", ",", ":", "[", "]", "{", "}", "'", '"', "\\", "-", "#", "x", "1", "@", "npm:", "\n",
           "runs-on", "ubuntu-", "role", "name", "=", ".", "args", ".patch", "$", "(", ")", "|", ";", " do", "gem",
           "group", "${CMAKE_CURRENT_LIST_DIR}/", "%w["]


def _variants(line: str, rng: random.Random, count: int) -> list[str]:
    """`line` with a few tokens inserted, deleted or replaced at random places."""
    out = []
    for _ in range(count):
        text = line
        for _ in range(rng.randint(1, 3)):
            at, token = rng.randrange(len(text) + 1), rng.choice(_TOKENS)
            text = rng.choice([text[:at] + token + text[at:], text[:at] + text[at + len(token):],
                               text[:at] + token + text[at + 1:]])
        out.append(text)
    return out


def _answer(pattern: re.Pattern[str], line: str, call: str = "match") -> object:
    if call == "findall":
        return pattern.findall(line)
    if call == "sub":
        return pattern.sub("", line)
    if call == "fullmatch":
        m = pattern.fullmatch(line)
        return None if m is None else (m.span(), m.groups())
    m = (pattern.fullmatch if pattern.pattern.startswith("([") else pattern.match)(line)  # as each reader calls it
    return None if m is None else (m.span(), m.groups(), m.groupdict())


@each_case("name", list(OLD))
def test_the_linear_patterns_match_as_the_old_ones_did(name: str) -> None:
    new, source = OLD[name]
    old = re.compile(source, new.flags)
    assert new.pattern != source  # rewritten
    rng = random.Random(name)
    lines = [variant for line in LINES[name] for variant in [line, *_variants(line, rng, 400)]]
    matched = [line for line in lines if old.search(line)]
    assert len(matched) > len(LINES[name]) // 2  # the variants keep many matching lines, not only misses
    call = CALLS.get(name, "match")
    assert [line for line in lines if _answer(old, line, call) != _answer(new, line, call)] == []


def test_gitlab_include_line_paths_are_the_old_patterns_findall() -> None:
    """gitlabincludes._line_paths replaces a findall that read a run again from each of its `-` (4 KiB: 0.4 CPU-s)."""
    old = re.compile(r"""(?:^|[\s\[{,:'"-])/?([\w.*/-]*[\w*]\.ya?ml)\b""", re.IGNORECASE)
    rng = random.Random("gitlab include lines")
    alphabet = [*"ab-./*_:,'\"[]{} \t=+$\u00e9\u00a0YyMmLl", ".yml", ".yaml", ".YML", "-", "/", "- local: "]
    lines = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 14))) for _ in range(6_000)]
    lines += ["  - local: /ci/a.yml", "include: 'x/*.yaml'", "  - [a.yml, b-c.YAML]", "+a-b.yml", "a=b-c.yml.bak"]
    assert sum(bool(old.findall(line)) for line in lines) > 600
    assert [line for line in lines if old.findall(line) != gitlabincludes._line_paths(line)] == []


def test_readme_fences_are_the_old_patterns_blocks() -> None:
    """docdeploys._fenced replaces a pattern that tried each shorter fence of a long unclosed run to the text's end."""
    old = re.compile(r"^[ \t]*(`{3,}|~{3,})[^\n]*\n(.*?)^[ \t]*\1", re.MULTILINE | re.DOTALL)
    rng = random.Random("readme fences")
    tokens = ["```", "````", "`````", "~~~", "~~~~", "``", "`", "~", "\n", "\n", "\n", " ", "\t", "x", "sh", "\r",
              "$ kubectl apply -f a.yaml"]
    texts = ["".join(rng.choice(tokens) for _ in range(rng.randint(0, 25))) for _ in range(6_000)]
    texts += ["```sh\nhelm install x ./chart\n```\n", "  ~~~~\na\n~~~\nb\n~~~~~\n", "`````\nx\n```\n"]
    assert sum(bool(old.findall(text)) for text in texts) > 600
    assert [text for text in texts
            if ([body for _, body in old.findall(text)], old.sub("", text)) != docdeploys._fenced(text)] == []


def test_pom_repository_urls_are_the_old_patterns_and_linear() -> None:
    """facts._POM_URL was cubic in the blanks of an unclosed `<url>` (1 KiB 0.58 CPU-s, 4 KiB 34 s on 38a5568)."""
    old = re.compile(r"<url>\s*([^<]*?)\s*</url>")
    rng = random.Random("pom urls")
    tokens = ["<url>", "</url>", " ", "\t", "\n", "\x1c", "\xa0", "\u2028", "https://repo.example/m2", "<", "x", "/"]
    texts = ["".join(rng.choice(tokens) for _ in range(rng.randint(0, 12))) for _ in range(6_000)]
    assert sum(bool(old.findall(t)) for t in texts) > 300
    assert [t for t in texts if old.findall(t) != [u.strip() for u in facts._POM_URL.findall(t)]] == []
    within_cpu(1.0, lambda: facts._POM_URL.findall("<url>" + " " * 1_000_000 + "x"))


def test_gradle_checksum_masks_as_the_old_pattern_did() -> None:
    """gradle._CHECKSUM no longer takes the blank lines above the key into its match; `\\1SUM` kept them anyway, so
    the masked text is the same (old pattern kept here)."""
    old = re.compile(r"^(\s*distributionSha256Sum\s*[=:]\s*)\S+", re.MULTILINE)
    rng = random.Random("gradle checksum")
    tokens = ["distributionSha256Sum", "=", ":", " ", "\t", "\n", "\n\n", "abc123", "x", "#", "distributionUrl=u"]
    texts = ["".join(rng.choice(tokens) for _ in range(rng.randint(0, 12))) for _ in range(6_000)]
    texts += ["distributionSha256Sum=ab12\n", "\n\n  distributionSha256Sum = cd34\nx=1\n", "distributionSha256Sum:\nz"]
    assert sum(bool(old.search(text)) for text in texts) > 150  # ~200 of them hold a key with a value
    assert [t for t in texts if old.sub(r"\1SUM", t) != gradle._CHECKSUM.sub(r"\1SUM", t)] == []
