"""Classes of misses the forty-sixth blind set of update commits found (bench/deps_bumps_fortysixth.tsv).

- A Groovy map of versions written without `ext.`: inside an `ext { versions = [ … ] }` block (k-9's root
  build.gradle, "Update Robolectric to 4.4", used as `"org.robolectric:robolectric:${versions.robolectric}"` by the
  modules' scripts) or appended to an ext map declared empty (Kafka's gradle/dependencies.gradle: `ext { versions =
  [:] }`, then `versions += [ zookeeper: "3.5.9" ]` and `libs += [ zookeeper: "…:zookeeper:$versions.zookeeper" ]`,
  "Update zookeeper to 3.5.9", "Update zstd-jni to 1.4.8-2"). Only `ext.versions = [` was a map (timber's shape), so
  the entries were no variables, the uses kept `$versions.zookeeper` as written on both sides and the moved value was
  masked as a version literal: with `--tree` no change and **no problem, a silent pass** (3 commits), while the patch
  said `partial`. Both shapes are maps now.
- A moved map entry that a line of the same script uses which reads no dependency through it (k-9's `ktlint {
  version = versions.ktlint }`, the ktlint-gradle plugin's ktlint): round 45 made a moved plain variable so used a
  `partial` problem, but left dotted names out, so the move of `versions.ktlint` passed silently once the map was
  read. A dotted name used so is `partial` too; one only other scripts use stays theirs (gradleprops.py).
- A gem's specification, `*.gemspec`, was read by nothing (rspec-rails' "Bump ammeter to 1.1.2": `s.add_development_
  dependency 'ammeter', '1.1.2'`, which its Gemfile's `gemspec` installs): the delta named only the Gemfile's removed
  git override. Its dependency lines are read now (gatekeeper/deps/gemspec.py), both modes, and every other line is
  residue: a change of one beside a bump is a `partial` problem.

Real-shaped files written for these tests (the layouts of those repositories), look-alikes and hostile input first.
"""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from gatekeeper.deps import gemspec, gradle, residue
from tests.deltas import accuracy_bench, both_edited, each_fast, moves, partial

# --- Gradle: maps of versions written without `ext.` -----------------------------------------------------------------

# apache/kafka's gradle/dependencies.gradle (its shape: empty ext maps filled by `+=`, coordinates in a second map)
KAFKA_DEPENDENCIES = """\
ext {
  versions = [:]
  libs = [:]

  // Available if -PscalaVersion is used.
  availableScalaVersions = [ '2.12', '2.13' ]
}

def defaultScala213Version = '2.13.4'
if (hasProperty('scalaVersion')) {
  versions["scala"] = scalaVersion
} else {
  versions["scala"] = defaultScala213Version
}

versions += [
  activation: "1.1.1",
  zinc: "1.3.5",
  zookeeper: "3.5.8",
  zstd: "1.4.5-12"
]
libs += [
  activation: "javax.activation:activation:$versions.activation",
  zookeeper: "org.apache.zookeeper:zookeeper:$versions.zookeeper",
  zstd: "com.github.luben:zstd-jni:$versions.zstd",
]
"""
KAFKA_BUILD = """\
apply from: "$rootDir/gradle/dependencies.gradle"

project(':core') {
  dependencies {
    implementation libs.zookeeper
    implementation libs.zstd
  }
}
"""

# k9mail/k-9's root build.gradle (its shape: the versions map inside the buildscript's ext block) and a module's script
K9_ROOT = """\
buildscript {
    ext {
        buildConfig = [
                'compileSdk': 29,
                'buildTools': '29.0.3',
                'robolectricSdk': 28
        ]

        versions = [
                'kotlin': '1.3.72',
                'okio': '2.7.0',

                'junit': '4.13',
                'robolectric': '4.3.1',
                'truth': '1.0.1',

                'ktlint': '0.39.0'
        ]
    }

    dependencies {
        classpath "org.jetbrains.kotlin:kotlin-gradle-plugin:${versions.kotlin}"
        classpath "org.jlleitschuh.gradle:ktlint-gradle:9.4.1"
    }
}

subprojects {
    apply plugin: 'org.jlleitschuh.gradle.ktlint'
    ktlint {
        version = versions.ktlint
    }
}
"""
K9_MODULE = """\
apply plugin: 'java-library'

dependencies {
    implementation "com.squareup.okio:okio:${versions.okio}"

    testImplementation "junit:junit:${versions.junit}"
    testImplementation "org.robolectric:robolectric:${versions.robolectric}"
}
"""


def test_hostile_map_starts_are_fast() -> None:
    bodies = [
        "versions += [\n" + "  a: '1',\n" * 20_000 + "]\n",
        "x" * 100_000 + " += [\n",
        "versions " + " " * 100_000 + "+= [x\n",
        "ext {\n" + "  v = [\n" * 20_000,
    ]
    each_fast([(lambda b=b: gradle.parse_build_script("build.gradle", b.encode()), b[:20]) for b in bodies], 1.0)


def test_kafka_appended_versions_map_is_read_with_tree(tmp_path: Path) -> None:
    path = "gradle/dependencies.gradle"
    tree, patch = both_edited(tmp_path, {path: KAFKA_DEPENDENCIES, "build.gradle": KAFKA_BUILD},
                              {path: {'zookeeper: "3.5.8"': 'zookeeper: "3.5.9"'}})
    assert moves(tree) == {("maven", "org.apache.zookeeper:zookeeper", "3.5.8", "3.5.9")}, tree
    assert not tree.problems, tree.problems
    assert partial(patch, path)  # the hunk shows the value, not the coordinate that uses it: as before
    assert accuracy_bench()._same_name("org.apache.zookeeper:zookeeper", tree.changes[0])


def test_kafka_last_entry_move_is_read_with_tree(tmp_path: Path) -> None:
    path = "gradle/dependencies.gradle"
    tree, _ = both_edited(tmp_path, {path: KAFKA_DEPENDENCIES}, {path: {'zstd: "1.4.5-12"': 'zstd: "1.4.8-2"'}})
    assert moves(tree) == {("maven", "com.github.luben:zstd-jni", "1.4.5-12", "1.4.8-2")}, tree


def test_k9_ext_block_map_moves_the_module_with_tree(tmp_path: Path) -> None:
    tree, patch = both_edited(tmp_path, {"build.gradle": K9_ROOT, "app/core/build.gradle": K9_MODULE},
                              {"build.gradle": {"'robolectric': '4.3.1'": "'robolectric': '4.4'"}})
    assert moves(tree) == {("maven", "org.robolectric:robolectric", "4.3.1", "4.4")}, tree
    assert not tree.problems, tree.problems
    assert partial(patch, "build.gradle")


def test_k9_ktlint_move_a_plugin_setting_uses_is_partial_with_tree(tmp_path: Path) -> None:
    # the ktlint-gradle extension's `version = versions.ktlint`: no reader reads it, so the move is no silent pass
    tree, _ = both_edited(tmp_path, {"build.gradle": K9_ROOT, "app/core/build.gradle": K9_MODULE},
                          {"build.gradle": {"'ktlint': '0.39.0'": "'ktlint': '0.40.0'"}})
    assert moves(tree) == set(), tree
    assert partial(tree, "build.gradle"), tree.problems


@each_case("body, named", [
    # the shapes a map of versions is written in
    ("ext.versions = [\n  'a': '1.0'\n]\nx \"g:a:${versions.a}\"\n", [("g:a", "1.0")]),  # as before (timber)
    ("ext {\n  versions = [\n    'a': '1.0'\n  ]\n}\nx \"g:a:${versions.a}\"\n", [("g:a", "1.0")]),
    ("versions += [\n  a: \"1.0\"\n]\nx \"g:a:$versions.a\"\n", [("g:a", "1.0")]),
    ("project.ext.versions = [\n  a: '1.0'\n]\nx \"g:a:${versions.a}\"\n", [("g:a", "1.0")]),
    # look-alikes: a one-line map, a local `def`, a list, a Kotlin call and an empty map name no variable
    ("versions = [a: '1.0']\nx \"g:a:${versions.a}\"\n", [("g:a", "${versions.a}")]),
    ("def versions = [\n  a: '1.0'\n]\nx \"g:a:${versions.a}\"\n", [("g:a", "${versions.a}")]),
    ("versions = [:]\nx \"g:a:${versions.a}\"\n", [("g:a", "${versions.a}")]),
    ("val versions = mapOf(\n  \"a\" to \"1.0\"\n)\nx(\"g:a:${versions.a}\")\n", [("g:a", "${versions.a}")]),
    # a nested map's entries stay coordinates' business, not variables
    ("versions = [\n  'lint': [\n    'core': '2.0'\n  ],\n  'b': '3.0'\n]\nx \"g:a:${versions.core}\"\n",
     [("g:a", "${versions.core}")]),
    ("versions = [\n  'lint': [\n    'core': '2.0'\n  ],\n  'b': '3.0'\n]\nx \"g:a:${versions.b}\"\n",
     [("g:a", "3.0")]),
    # an entry holding a variable or a colon is no version
    ("versions += [\n  a: \"$other\",\n  b: \"g:b:1\"\n]\nx \"g:a:$versions.a\"\n", [("g:a", "$versions.a")]),
])
def test_map_shapes_and_look_alikes(body: str, named: list[tuple[str, str]]) -> None:
    found = [(d.name, d.version) for d in gradle.parse_build_script("build.gradle", body.encode())
             if d.name == "g:a"]
    assert found == named, found


@each_case("base, head, changed", [
    # a moved entry a line of the script uses for no dependency it reads: unknown, so a change
    ("versions = [\n  'k': '1.0'\n]\nktlint {\n  version = versions.k\n}\n",
     "versions = [\n  'k': '1.1'\n]\nktlint {\n  version = versions.k\n}\n", True),
    ("versions += [\n  k: '1.0'\n]\ncompileSdkVersion versions.k\n",
     "versions += [\n  k: '1.1'\n]\ncompileSdkVersion versions.k\n", True),
    ("ext.versions = [\n  'k': '1.0'\n]\nfoo(rootProject.versions.k)\n",
     "ext.versions = [\n  'k': '1.1'\n]\nfoo(rootProject.versions.k)\n", True),
    # explained: a coordinate of the line resolves through it
    ("versions = [\n  'k': '1.0'\n]\ndependencies {\n  implementation \"g:a:${versions.k}\"\n}\n",
     "versions = [\n  'k': '1.1'\n]\ndependencies {\n  implementation \"g:a:${versions.k}\"\n}\n", False),
    # used by no line of this script (other scripts' business, gradleprops.py): no change here
    ("versions = [\n  'k': '1.0'\n]\n", "versions = [\n  'k': '1.1'\n]\n", False),
    # another map's entry of the same key, a longer name, a comment: no use of versions.k
    ("versions = [\n  'k': '1.0'\n]\nfoo(other.k)\nbar(versions.kk)\n// versions.k\n",
     "versions = [\n  'k': '1.1'\n]\nfoo(other.k)\nbar(versions.kk)\n// versions.k\n", False),
])
def test_moved_map_entry_shapes(base: str, head: str, changed: bool) -> None:
    assert gradle.code_changed("build.gradle", base.encode(), head.encode()) is changed


# --- RubyGems: a gem's specification --------------------------------------------------------------------------------

# rspec/rspec-rails' rspec-rails.gemspec (its shape: %q<> names with requirement lists, interpolated names in a loop,
# development dependencies with aligned requirements)
RSPEC_RAILS = """\
# -*- encoding: utf-8 -*-
$LOAD_PATH.unshift File.expand_path("../lib", __FILE__)
require "rspec/rails/version"

Gem::Specification.new do |s|
  s.name        = "rspec-rails"
  s.version     = RSpec::Rails::Version::STRING
  s.license     = "MIT"
  s.files            = `git ls-files -- lib/*`.split("\\n")

  s.add_runtime_dependency(%q<activesupport>, [">= 3.0"])
  s.add_runtime_dependency(%q<actionpack>, [">= 3.0"])
  %w[core expectations mocks support].each do |name|
    s.add_runtime_dependency "rspec-#{name}", "~> #{RSpec::Rails::Version::STRING}"
  end

  s.add_development_dependency 'rake',     '~> 10.0.0'
  s.add_development_dependency 'ammeter',  '1.1.1'
end
"""
# a Bundler-generated gemspec (`bundle gem`'s shape, Dependabot's usual edit)
BUNDLER_GEM = """\
# frozen_string_literal: true

require_relative "lib/widget/version"

Gem::Specification.new do |spec|
  spec.name = "widget"
  spec.version = Widget::VERSION
  spec.required_ruby_version = ">= 3.1.0"

  spec.add_dependency "faraday", ">= 1.0", "< 3"
  spec.add_dependency("zeitwerk", "~> 2.6") # autoloading
  spec.add_development_dependency "rubocop", "~> 1.50"
end
"""


def test_hostile_gemspec_lines_are_fast() -> None:
    bodies = [
        "s.add_dependency 'a'" + ", '1'" * 50_000 + " x\n",
        "s.add_dependency(" + " " * 100_000 + "'a'\n",
        "s.add_dependency 'a', [" + "'1', " * 50_000 + "\n",
        ("s.add_dependency %q<" + "a" * 100_000 + "\n") * 2,
        "s.add_dependency 'a', '" + "1" * 200_000 + "\n",
    ]
    each_fast([(lambda b=b: (gemspec.parse_gemspec("x.gemspec", b.encode()), gemspec.residue(b.encode())), b[:25])
               for b in bodies], 1.0)


def test_rspec_rails_ammeter_bump_is_read_both_modes(tmp_path: Path) -> None:
    path = "rspec-rails.gemspec"
    tree, patch = both_edited(tmp_path, {path: RSPEC_RAILS}, {path: {"'1.1.1'": "'1.1.2'"}})
    assert moves(tree) == moves(patch) == {("bundler", "ammeter", "1.1.1", "1.1.2")}, (tree, patch)
    assert not tree.problems and not patch.problems, (tree.problems, patch.problems)
    assert tree.changes[0].scope == "dev"
    assert accuracy_bench()._same_name("ammeter", tree.changes[0])


def test_a_gemspec_code_change_beside_a_bump_is_partial(tmp_path: Path) -> None:
    path = "widget.gemspec"
    edits = {path: {'"~> 2.6"': '"~> 2.7"', 'spec.name = "widget"': 'spec.name = "widget"\n  spec.bindir = "evil"'}}
    tree, patch = both_edited(tmp_path, {path: BUNDLER_GEM}, edits)
    assert ("bundler", "zeitwerk", "~> 2.6", "~> 2.7") in moves(tree)
    assert partial(tree, path) or any(p.manifest == path for p in tree.problems), tree.problems
    assert partial(patch, path), patch.problems


@each_case("line, named", [
    ('spec.add_dependency "faraday", ">= 1.0", "< 3"', [("faraday", ">= 1.0, < 3", "runtime")]),
    ('spec.add_dependency("zeitwerk", "~> 2.6") # autoloading', [("zeitwerk", "~> 2.6", "runtime")]),
    ("s.add_runtime_dependency(%q<rack>.freeze, [\">= 2.2\".freeze, \"< 4\".freeze])",
     [("rack", ">= 2.2, < 4", "runtime")]),
    ("s.add_development_dependency(%q(rake), ['~> 13.0'])", [("rake", "~> 13.0", "dev")]),
    ("  gem.add_development_dependency 'rspec'", [("rspec", "", "dev")]),
    # look-alikes and forms not read: nothing named (residue)
    ('s.add_runtime_dependency "rspec-#{name}", "~> 3.0"', []),  # an interpolated name
    ('s.add_dependency "rails", RAILS_VERSION', []),  # a constant requirement
    ('s.add_dependency "rails", "~> #{v}"', []),  # an interpolated requirement
    ('s.add_dependency "rails",', []),  # a call over several lines
    ('s.add_dependency("rails", "~> 7.0"', []),  # an unclosed parenthesis
    ('s.add_dependency "rails", "~> 7.0")', []),  # a closing one never opened
    ('# s.add_dependency "rails", "~> 7.0"', []),  # a comment
    ('s.add_dependency_x "rails", "~> 7.0"', []),
    ('add_dependency "rails", "~> 7.0"', []),  # no receiver: some method of the file's own
    ('s.add_dependency "rails", "~> 7.0"; system("curl evil")', []),
    ('s.add_dependency "rails", ["~> 7.0"], ["x"]', []),  # two lists
])
def test_gemspec_line_shapes_and_look_alikes(line: str, named: list[tuple[str, str, str]]) -> None:
    found = [(d.name, d.version, d.scope) for d in gemspec.parse_gemspec("x.gemspec", (line + "\n").encode())]
    assert found == named, found
    # a line not read is residue: a change of it beside a bump is no silent pass
    assert (gemspec.residue((line + "\n").encode()) == []) is bool(named) or line.startswith("#")


def test_a_gemspec_residue_counts_only_unread_lines() -> None:
    base, head = BUNDLER_GEM.encode(), BUNDLER_GEM.replace('"~> 1.50"', '"~> 1.60"').encode()
    assert not residue.changed("widget.gemspec", base, head)
    # the Ruby the gem requires is read since round 48 (the tool `ruby`), so its move is a change, not residue
    moved = BUNDLER_GEM.replace('">= 3.1.0"', '">= 2.0"').encode()
    assert not residue.changed("widget.gemspec", base, moved)
    assert ("tool", "ruby", ">= 2.0") in {(d.ecosystem, d.name, d.version) for d in gemspec.parse_gemspec("w", moved)}
    moved = BUNDLER_GEM.replace('Widget::VERSION', 'Widget::VERSION.succ').encode()
    assert residue.changed("widget.gemspec", base, moved)
