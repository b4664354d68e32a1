"""Classes of misses the forty-seventh blind set of update commits and the earlier rounds' known misses found
(bench/deps_bumps_fortyseventh.tsv, docs/dependencies.md round 47).

- A version literal a build script moves on a line that reads no dependency (Spring Boot's bom DSL
  `library("Git Commit ID Maven Plugin", "5.0.1")`, round 46): every quoted version literal of a script was masked
  before the code comparison, so with `--tree` the move was no change and **no problem, a silent pass**. A literal is
  masked now only on a line a reader reads (a coordinate, `kotlin()` module, plugin, variable definition,
  code-quality `toolVersion`); anywhere else its move is a `partial` problem (the patch already said so).
- The same class in POMs and MSBuild files: every version-shaped value of the markup was masked, so a property that
  a value no reader reads uses (`<release>${java.version}</release>`, frontend-maven-plugin's `<nodeVersion>
  ${node.version}</nodeVersion>`, an MSBuild `Condition`) moved silently beside a bump. Such a property is kept as
  written now; one a `<version>` or an entry uses, or that this file does not use (other files'), stays masked.
- A Gemfile line with a string option before a plain one (rails' `gem "rb-inotify", github: "matthewd/rb-inotify",
  branch: "close-handling", require: false`) **crashed the delta** with `--tree`: CPython 3.11 raises SystemError ("The
  span of capturing group is wrong") for the residue's possessive repeat of an option group that held captures.
- tox.ini files tox reads that the delta called unparsable (3 commits): `basepython: python3` (tox 4 reads its INI
  with configparser's defaults, `:` sets a key as `=` does; opentelemetry-python), a URL requirement with a marker
  (`git+https://…/greenlet.git#egg=greenlet; python_version >= '3.11'`) and a local project with one
  (`.[sqlcipher]; python_version < '3.10'`; sqlalchemy): pip ends a URL at `; ` and a path at `;`. Read so now, in
  requirements files too, the marker kept in the entry's options.
- composer.json's `require.php` (laravel's "Update PHP requirement from 8.2 to 8.4") was dropped as a platform
  package: no change and no problem. It is the tool `php` now, as Cargo's `rust-version` is `rust`.

Real-shaped files written for these tests (the layouts of those repositories), look-alikes and hostile input first.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.deps import bundler, composer, gradle, pypi, residue, toxconfig
from gatekeeper.deps.model import ManifestError
from tests.deltas import both_edited, each_fast, moves, partial

# --- Gradle: a version literal on a line no reader reads -------------------------------------------------------------

# spring-boot's platform/spring-boot-dependencies/build.gradle (its shape: the project's own bom DSL)
BOOT_BOM = """\
plugins {
\tid "org.springframework.boot.bom"
}

description = "Spring Boot Dependencies"

bom {
\tlibrary("Git Commit ID Maven Plugin", "5.0.0") {
\t\tgroup("io.github.git-commit-id") {
\t\t\tplugins = [
\t\t\t\t"git-commit-id-maven-plugin"
\t\t\t]
\t\t}
\t}
\tlibrary("Glassfish JAXB", "4.0.4") {
\t\tgroup("org.glassfish.jaxb") {
\t\t\tbom("jaxb-bom")
\t\t}
\t}
}
"""

# spring-framework's framework-platform/framework-platform.gradle (io.spring.dependency-management's DSL)
FRAMEWORK_PLATFORM = """\
plugins {
\tid 'java-platform'
}

dependencies {
\tapi(platform("com.fasterxml.jackson:jackson-bom:2.17.2"))
\tconstraints {
\t\tapi("com.google.code.gson:gson:2.11.0")
\t}
}

dependencyManagement {
\tdependencies {
\t\tdependencySet(group: 'io.micrometer', version: '1.13.2') {
\t\t\tentry 'micrometer-core'
\t\t}
\t}
}
"""


def test_boot_bom_library_move_is_partial_with_tree(tmp_path: Path) -> None:
    path = "platform/spring-boot-dependencies/build.gradle"
    tree, patch = both_edited(tmp_path, {path: BOOT_BOM},
                              {path: {'library("Git Commit ID Maven Plugin", "5.0.0")':
                                      'library("Git Commit ID Maven Plugin", "5.0.1")'}})
    assert partial(tree, path), tree.problems
    assert partial(patch, path), patch.problems


def test_framework_dependency_set_move_is_partial_beside_a_bump(tmp_path: Path) -> None:
    path = "framework-platform/framework-platform.gradle"
    tree, _ = both_edited(tmp_path, {path: FRAMEWORK_PLATFORM},
                          {path: {"version: '1.13.2'": "version: '1.13.3'",
                                  "gson:2.11.0": "gson:2.11.1"}})
    assert moves(tree) == {("maven", "com.google.code.gson:gson", "2.11.0", "2.11.1")}, tree
    assert partial(tree, path), tree.problems  # the dependencySet's move rides on gson's bump no longer


def test_a_read_coordinate_bump_stays_explained(tmp_path: Path) -> None:
    path = "framework-platform/framework-platform.gradle"
    tree, patch = both_edited(tmp_path, {path: FRAMEWORK_PLATFORM},
                              {path: {"jackson-bom:2.17.2": "jackson-bom:2.18.0"}})
    assert moves(tree) == {("maven", "com.fasterxml.jackson:jackson-bom", "2.17.2", "2.18.0")}, tree
    assert not tree.problems, tree.problems
    assert not patch.problems, patch.problems


@each_case("base, head, changed", [
    # a literal on a line no reader reads: a change
    ('library("X", "1.0")\n', 'library("X", "1.1")\n', True),
    ("dependencySet(group: 'g', version: '1.0') {\n", "dependencySet(group: 'g', version: '1.1') {\n", True),
    ("implementation group: 'g', name: 'a', version: '1.0'\n",
     "implementation group: 'g', name: 'a', version: '1.1'\n", True),
    ('extra["kotlin_version"] = "1.9.0"\n', 'extra["kotlin_version"] = "1.9.10"\n', True),
    ('create("g", "a", "1.0")\n', 'create("g", "a", "1.1")\n', True),
    ("ext {\n  okhttp = '4.9.0'\n}\n", "ext {\n  okhttp = '4.9.1'\n}\n", True),  # no variable the readers resolve
    ('jvmTarget = "11"\n', 'jvmTarget = "17"\n', True),
    ("buildToolsVersion \"33.0.0\"\n", "buildToolsVersion \"34.0.0\"\n", True),
    # lines the readers read: their versions are the delta's, no code change
    ('implementation("g:a:1.0")\n', 'implementation("g:a:1.1")\n', False),
    ("id 'org.x' version '1.0'\n", "id 'org.x' version '1.1'\n", False),
    ('kotlin("jvm") version "1.9.0"\n', 'kotlin("jvm") version "2.0.0"\n', False),
    ('implementation(kotlin("reflect", "1.9.0"))\n', 'implementation(kotlin("reflect", "2.0.0"))\n', False),
    ('val ktor = "2.3.7"\n', 'val ktor = "2.3.8"\n', False),  # a variable nothing here uses: other scripts'
    ("ext.kotlinVersion = '1.9.0'\n", "ext.kotlinVersion = '2.0.0'\n", False),
    ("ext {\n  kotlinVersion = '1.9.0'\n}\n", "ext {\n  kotlinVersion = '2.0.0'\n}\n", False),
    ("versions = [\n  'k': '1.0'\n]\n", "versions = [\n  'k': '1.1'\n]\n", False),
    ("checkstyle {\n  toolVersion = '10.0'\n}\n", "checkstyle {\n  toolVersion = '10.1'\n}\n", False),
    ('version = "5.3.0"\n', 'version = "5.3.1"\n', False),  # the project's own release
    # line ends stay as written (a whitespace-only change was a change before too)
    ('implementation("g:a:1.0")\n', 'implementation("g:a:1.0")', True),
    ('library("X", "1.0")\r\n', 'library("X", "1.0")\n', True),
    ('implementation("g:a:1.0")\r\n', 'implementation("g:a:1.1")\r\n', False),
    # a line that reads a coordinate: every literal on it is the reader's
    ('foo("g:a:1.0", "2.0")\n', 'foo("g:a:1.1", "2.0")\n', False),
])
def test_masked_version_literal_shapes(base: str, head: str, changed: bool) -> None:
    assert gradle.code_changed("build.gradle", base.encode(), head.encode()) is changed


def test_hostile_literal_lines_are_fast() -> None:
    bodies = [
        'library("X", "1.0")\n' * 4_000,
        '"1' + ".1" * 20_000 + '"\n',
        "x = " + '"1", ' * 10_000 + "\n",
        "implementation group: 'g', name: 'a', version: '1.0'\n" * 3_000,
    ]
    each_fast([(lambda b=b: gradle.code_changed("build.gradle", b.encode(), b.replace("1", "2").encode()), b[:20])
               for b in bodies], 2.0)


# --- Bundler: a Gemfile's option lines must never crash the residue ---------------------------------------------------

# rails' Gemfile (its shape: git sources with a branch beside plain options, in and out of groups)
RAILS_GEMFILE = """\
source "https://rubygems.org"

gemspec

gem "minitest", ">= 5.15.0"
gem "rake", ">= 13"

group :test do
  gem "rb-inotify", github: "matthewd/rb-inotify", branch: "close-handling", require: false
  gem "websocket-client-simple", github: "matthewd/websocket-client-simple", branch: "close-race", require: false
end
"""


def test_rails_gemfile_bump_beside_git_options_is_read_with_tree(tmp_path: Path) -> None:
    tree, patch = both_edited(tmp_path, {"Gemfile": RAILS_GEMFILE}, {"Gemfile": {'">= 13"': '">= 13.1"'}})
    assert moves(tree) == {("bundler", "rake", ">= 13", ">= 13.1")}, tree
    assert not tree.problems, tree.problems
    assert moves(patch) == moves(tree), patch


@each_case("line, read", [
    ('gem "a", github: "o/r", branch: "c", require: false', True),
    ('gem "a", x: "b", y: "c", z: false', True),
    ("gem 'a', x: 'b', y: :c, z: nil, w: 1, v: [1], u: %w[a b]", True),
    ('gem "a", z: false, y: "c"', True),
    ('gem("a", git: "u", require: false) # why', True),
    # look-alikes: a quote of the other kind inside, a call after the options, an unclosed string stay residue
    ('gem "a", x: "b\'", z: false', False),
    ('gem "a", x: "b", send(:x)', False),
    ('gem "a", x: "b, z: false', False),
])
def test_gem_option_lines_never_crash(line: str, read: bool) -> None:
    assert bundler.residue(line.encode()) == ([] if read else [line.strip()])


def test_hostile_gem_option_lines_are_fast() -> None:
    bodies = ['gem "a"' + ', x: "b", y: false' * 20_000, 'gem "a"' + ", x: '" * 20_000,
              'gem "a", x: "b"' + " " * 100_000]
    each_fast([(lambda b=b: bundler.residue(b.encode()), b[:20]) for b in bodies], 1.0)


# --- tox.ini and requirement lines tox and pip read ------------------------------------------------------------------

# opentelemetry-python's and sqlalchemy's tox.ini (their shapes: `key: value` lines, URL and local lines with markers)
OTEL_TOX = """\
[tox]
envlist =
    py3{9,10,11,12,13}-test-opentelemetry-api
    lint-opentelemetry-api

[testenv]
deps =
  lint: -r dev-requirements.txt
  test: pytest==7.4.4

[testenv:docs]
basepython: python3
deps =
  -c {toxinidir}/dev-requirements.txt
  sphinx-autodoc-typehints~=1.10.2
commands =
  sphinx-build -E -a -W -b html -T . _build/html
"""

SQLALCHEMY_TOX = """\
[testenv]
deps=
     pytest>=7.0.0,<8.4
     git+https://github.com/python-greenlet/greenlet.git#egg=greenlet; python_version >= '3.13'
     sqlite: .[aiosqlite]
     sqlite_file: .[sqlcipher]; python_version < '3.10'

[testenv:lint]
deps=
      flake8==6.1.0
      black==22.3.0
"""


def test_tox_ini_colon_keys_and_marker_lines_are_read_with_tree(tmp_path: Path) -> None:
    tree, patch = both_edited(tmp_path, {"tox.ini": OTEL_TOX}, {"tox.ini": {"~=1.10.2": "~=1.10.3"}})
    assert moves(tree) == {("pip", "sphinx-autodoc-typehints", "~=1.10.2", "~=1.10.3")}, tree
    assert not tree.problems, tree.problems
    tree, patch = both_edited(tmp_path / "b", {"tox.ini": SQLALCHEMY_TOX},
                              {"tox.ini": {"black==22.3.0": "black==23.1.0"}})
    assert moves(tree) == {("pip", "black", "22.3.0", "23.1.0")}, tree
    assert not tree.problems, tree.problems
    assert partial(patch, "tox.ini")  # a tox.ini's hunks are not read (by design): as before


@each_case("line, named", [
    ("git+https://github.com/o/g.git#egg=g; python_version >= '3.11'",
     [("g", "git+https://github.com/o/g.git#egg=g", '; python_version >= "3.11"')]),
    ("git+https://github.com/o/g.git#egg=g ; sys_platform == 'linux'",
     [("g", "git+https://github.com/o/g.git#egg=g", '; sys_platform == "linux"')]),
    ("git+https://github.com/o/g.git#egg=g", [("g", "git+https://github.com/o/g.git#egg=g", "")]),
    (".[sqlcipher]; python_version < '3.10'", [(".[sqlcipher]", "local", '; python_version < "3.10"')]),
    ("./lib; python_version<'3'", [("./lib", "local", '; python_version < "3"')]),
    # look-alikes: a `;` with no blank after it stays in a URL (pip's rule), as written
    ("git+https://github.com/o/g.git#egg=g;v", [("g", "git+https://github.com/o/g.git#egg=g;v", "")]),
])
def test_url_and_local_lines_with_markers(line: str, named: list[tuple[str, str, str]]) -> None:
    found = [(d.name, d.version, d.options) for d in pypi.parse_requirements("requirements.txt", line.encode())]
    assert found == named, found


@each_case("line", [
    "git+https://github.com/o/g.git#egg=g; not a marker",  # a marker pip refuses: the line is refused too
    ".; python_version <",
    "./lib; ; ;",
    "./lib;python_version<'3'",  # no blank after the `;`: refused, as round 29 decided for a look-alike path
    "ftp://x/y; python_version < '3'",
])
def test_malformed_marker_lines_are_refused(line: str) -> None:
    with pytest.raises(ManifestError):
        pypi.parse_requirements("requirements.txt", line.encode())


def test_tox_ini_a_malformed_file_is_a_finding(tmp_path: Path) -> None:
    with pytest.raises(ManifestError):
        toxconfig.parse_tox("tox.ini", b"[testenv]\ndeps = a\ndeps = b\n")  # a key given twice: tox refuses it
    with pytest.raises(ManifestError):
        toxconfig.parse_tox("tox.ini", b"[testenv\ndeps = a\n")
    tree, _ = both_edited(tmp_path, {"tox.ini": "[testenv]\ndeps = a==1\n"},
                          {"tox.ini": {"deps = a==1": "deps = a==2\ndeps: b"}})
    assert any(p.kind == "unparsable" for p in tree.problems), tree.problems


def test_hostile_marker_lines_are_fast() -> None:
    lines = [".; " + "(" * 5_000, "git+https://x/y#egg=y; " + "a" * 100_000, "./" + "a/" * 50_000 + "; x"]
    each_fast([(lambda b=b: _refused_or_read(b), b[:20]) for b in lines], 2.0)


def _refused_or_read(line: str) -> None:
    try:
        pypi.parse_requirements("requirements.txt", line.encode())
    except ManifestError:
        pass


# --- Composer: the PHP a project requires -----------------------------------------------------------------------------

# laravel/laravel's composer.json (its shape)
LARAVEL_COMPOSER = """\
{
    "name": "laravel/laravel",
    "type": "project",
    "require": {
        "php": "^8.2",
        "ext-json": "*",
        "laravel/framework": "^12.0",
        "laravel/tinker": "^2.10.1"
    },
    "require-dev": {
        "php": ">=8.1",
        "phpunit/phpunit": "^11.5.3"
    }
}
"""


def test_laravel_php_requirement_is_the_tool_php_with_tree(tmp_path: Path) -> None:
    tree, patch = both_edited(tmp_path, {"composer.json": LARAVEL_COMPOSER},
                              {"composer.json": {'"php": "^8.2"': '"php": "^8.4"'}})
    assert moves(tree) == {("tool", "php", "^8.2", "^8.4")}, tree
    assert moves(patch) == moves(tree) or partial(patch, "composer.json"), patch  # never silent from a patch


@each_case("name, section, read", [
    ("php", "require", True), ("php", "require-dev", False), ("ext-json", "require", False),
    ("php-64bit", "require", False), ("composer-plugin-api", "require", False), ("lib-icu", "require", False),
])
def test_platform_packages_and_php(name: str, section: str, read: bool) -> None:
    body = f'{{"{section}": {{"{name}": "^8.2"}}}}'.encode()
    assert [(d.ecosystem, d.name) for d in composer.parse_composer_json("composer.json", body)] == (
        [("tool", "php")] if read else [])


# --- POMs and MSBuild files: a property a value no reader reads uses --------------------------------------------------

# a web application's pom.xml (thingsboard's ui-ngx shape: the frontend plugin downloads Node at a property's version)
UI_POM = """\
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>org.example</groupId>
  <artifactId>ui</artifactId>
  <version>4.2.0-SNAPSHOT</version>
  <properties>
    <java.version>17</java.version>
    <node.version>v20.11.1</node.version>
    <jackson.version>2.17.0</jackson.version>
    <jackson-bom.version>${jackson.version}</jackson-bom.version>
    <lombok.version>1.18.32</lombok.version>
  </properties>
  <dependencies>
    <dependency>
      <groupId>com.fasterxml.jackson.core</groupId>
      <artifactId>jackson-databind</artifactId>
      <version>${jackson-bom.version}</version>
    </dependency>
  </dependencies>
  <build>
    <plugins>
      <plugin>
        <groupId>com.github.eirslett</groupId>
        <artifactId>frontend-maven-plugin</artifactId>
        <version>1.15.0</version>
        <configuration>
          <nodeVersion>${node.version}</nodeVersion>
        </configuration>
      </plugin>
      <plugin>
        <artifactId>maven-compiler-plugin</artifactId>
        <version>3.13.0</version>
        <configuration>
          <release>${java.version}</release>
        </configuration>
      </plugin>
    </plugins>
  </build>
</project>
"""


def test_a_property_no_reader_reads_moved_beside_a_bump_is_partial(tmp_path: Path) -> None:
    tree, _ = both_edited(tmp_path, {"pom.xml": UI_POM},
                          {"pom.xml": {"v20.11.1": "v22.1.0", "<jackson.version>2.17.0": "<jackson.version>2.17.1"}})
    assert moves(tree) == {("maven", "com.fasterxml.jackson.core:jackson-databind", "2.17.0", "2.17.1")}, tree
    assert partial(tree, "pom.xml"), tree.problems


def test_a_property_bump_read_through_versions_stays_explained(tmp_path: Path) -> None:
    tree, _ = both_edited(tmp_path, {"pom.xml": UI_POM},
                          {"pom.xml": {"<jackson.version>2.17.0": "<jackson.version>2.17.1",
                                       "<version>3.13.0</version>": "<version>3.14.0</version>"}})
    assert moves(tree) == {("maven", "com.fasterxml.jackson.core:jackson-databind", "2.17.0", "2.17.1"),
                           ("maven", "org.apache.maven.plugins:maven-compiler-plugin", "3.13.0", "3.14.0")}, tree
    assert not tree.problems, tree.problems


def _pom(properties: str, body: str) -> bytes:
    return f"<project><properties>{properties}</properties>{body}</project>".encode()


_DEP = "<dependencies><dependency><groupId>g</groupId><artifactId>a</artifactId><version>${P}</version></dependency>" \
       "</dependencies>"


@each_case("body, changed", [
    ("<build><plugins><plugin><configuration><release>${p}</release></configuration></plugin></plugins></build>", True),
    ("<build><plugins><plugin><configuration><a><b>x-${p}</b></a></configuration></plugin></plugins></build>", True),
    ('<build><plugins><plugin><configuration><x a="${p}"/></configuration></plugin></plugins></build>', True),
    (_DEP.replace("${P}", "${p}") + "<build><plugins><plugin><configuration><release>${p}</release>"
     "</configuration></plugin></plugins></build>", True),  # read once and used once for nothing read
    # explained or others': a `<version>`, an entry, a property definition, no use in this file
    (_DEP.replace("${P}", "${p}"), False),
    ("<build><plugins><plugin><artifactId>x</artifactId><version>${p}</version></plugin></plugins></build>", False),
    ("", False),
    ("<properties><q>${p}</q></properties>", False),
    ("<build><plugins><plugin><configuration><release>${p.other}</release></configuration></plugin></plugins>"
     "</build>", False),
    ("<!-- <release>${p}</release> -->", False),
])
def test_pom_property_use_shapes(body: str, changed: bool) -> None:
    base, head = _pom("<p>1.0</p>", body), _pom("<p>1.1</p>", body)
    assert residue.changed("pom.xml", base, head) is changed


@each_case("body, changed", [
    ('<PropertyGroup Condition="\'$(LangVersion)\' == \'12\'"><X>1</X></PropertyGroup>', True),
    ('<ItemGroup><Compile Include="gen/$(LangVersion)/*.cs" /></ItemGroup>', True),
    ("<PropertyGroup><NoWarn>$(LangVersion)</NoWarn></PropertyGroup>", False),  # the defining property's use
    ('<ItemGroup><PackageReference Include="A" Version="$(LangVersion)" /></ItemGroup>', False),
    ("", False),
])
def test_msbuild_property_use_shapes(body: str, changed: bool) -> None:
    def side(value: str) -> bytes:
        return f"<Project><PropertyGroup><LangVersion>{value}</LangVersion></PropertyGroup>{body}</Project>".encode()
    assert residue.changed("Directory.Build.props", side("12"), side("13")) is changed


def test_hostile_property_uses_are_fast() -> None:
    bodies = ["<properties>" + "<p>1</p>" * 4_000 + "</properties>" + "<a>${p}</a>" * 4_000,
              "<a>" + "${" * 20_000, "<x " + 'a="$(p)" ' * 4_000 + "/>"]
    each_fast([(lambda b=b: residue.changed("pom.xml", f"<project>{b}</project>".encode(),
                                            f"<project>{b}</project>".replace("1", "2").encode()), b[:20])
               for b in bodies], 2.0)
