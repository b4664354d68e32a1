"""Gemfile, Pipfile and gomod2nix.toml: manifests a bot edits beside the lockfile it regenerates.

Unread, each bot update touching one was "a deps file changed with no dependency moved" (deps.unexplained,
reviewed): 13 Gemfiles, 5 gomod2nix.toml and 4 Pipfiles in 2,500 real update commits.
"""

from __future__ import annotations

import pytest
from cpucost import within_cpu
from tables import each_case

from gatekeeper.deps import bundler, golang, pipfile
from gatekeeper.deps.delta import diff
from gatekeeper.deps.model import ManifestError

GEMFILE = b"""source "https://rubygems.org"
git_source(:github) { |repo| "https://github.com/#{repo}.git" }

ruby file: ".ruby-version"

gem "rails", "~> 8.0.2" # the framework
gem 'pg', '>= 0.18', '< 2.0'
gem "webauthn", "~> 3.4", require: false
gem "blazer", "~> 3.4.0"
gem "avo", github: "avo-hq/avo", branch: "main"
gem("rack-attack")
gem "rubocop", "~> 1.60", group: :development

platforms :jruby do
  gem "jdbc-postgres"
end

group :development, :test do
  gem "rspec-rails", "~> 7.1"
  if ENV["DEBUGGER"]
    gem "debug"
  end
  gem "brakeman"
end

group :production do
  gem "lograge"
end

gemspec
"""


def test_gemfile_lines() -> None:
    deps = {d.name: (d.version, d.scope, d.direct) for d in bundler.parse_gemfile("Gemfile", GEMFILE)}
    assert deps == {
        "rails": ("~> 8.0.2", "runtime", True), "pg": (">= 0.18, < 2.0", "runtime", True),
        "webauthn": ("~> 3.4", "runtime", True), "blazer": ("~> 3.4.0", "runtime", True),
        "avo": ("github:avo-hq/avo, branch:main", "runtime", True), "rack-attack": ("", "runtime", True),
        "rubocop": ("~> 1.60", "dev", True), "jdbc-postgres": ("", "runtime", True),
        "rspec-rails": ("~> 7.1", "dev", True), "debug": ("", "dev", True), "brakeman": ("", "dev", True),
        "lograge": ("", "runtime", True),
    }


def test_a_gemfile_requirement_bump_is_an_upgrade_and_a_new_gem_is_new() -> None:
    head = GEMFILE.replace(b'"blazer", "~> 3.4.0"', b'"blazer", "~> 3.5.0"') + b'gem "evil-gem", "1.0.0"\n'
    changes = diff(bundler.parse_gemfile("Gemfile", GEMFILE), bundler.parse_gemfile("Gemfile", head), "Gemfile")
    assert [(c.name, c.from_version, c.to_version, c.change, c.direct) for c in changes] == [
        ("blazer", "~> 3.4.0", "~> 3.5.0", "upgraded", True), ("evil-gem", None, "1.0.0", "added", True)]


def test_gemfile_hunk_lines_parse_alone() -> None:
    assert [(d.name, d.version) for d in bundler.parse_gemfile("Gemfile", b'  gem "debug", "1.9.2"\n')] == [
        ("debug", "1.9.2")]


PIPFILE = b"""[[source]]
url = "https://pypi.org/simple"
verify_ssl = true
name = "pypi"

[packages]
requests = "==2.31.0"
boto3 = "*"
django = {version = ">=4.2,<5", extras = ["argon2"]}
mylib = {git = "https://github.com/example/mylib.git", ref = "v1.2.0"}
local = {path = "./local", editable = true}

[dev-packages]
pytest = "~=8.0"

[docs]
sphinx = "==7.2.6"

[requires]
python_version = "3.12"
"""


def test_pipfile_sections() -> None:
    deps = {d.name: (d.version, d.scope) for d in pipfile.parse_pipfile("Pipfile", PIPFILE)}
    assert deps == {"requests": ("==2.31.0", "runtime"), "boto3": ("*", "runtime"),
                    "django": (">=4.2,<5", "runtime"),
                    "mylib": ("https://github.com/example/mylib.git@v1.2.0", "runtime"),
                    "local": ("./local", "runtime"), "pytest": ("~=8.0", "dev"), "sphinx": ("==7.2.6", "dev")}
    head = PIPFILE.replace(b'"==2.31.0"', b'"==2.32.3"')
    changes = diff(pipfile.parse_pipfile("Pipfile", PIPFILE), pipfile.parse_pipfile("Pipfile", head), "Pipfile")
    assert [(c.name, c.to_version, c.change, c.level) for c in changes] == [
        ("requests", "==2.32.3", "upgraded", "minor")]


GOMOD2NIX = b"""schema = 3

[mod]
  [mod."github.com/alibabacloud-go/tea"]
    version = "v1.5.2"
    hash = "sha256-kr4KZzVEKf0CL/8xX0ygXyc1NsCl8uYQwa5VGm0Tpg4="
  [mod."github.com/aliyun/aliyun-oss-go-sdk"]
    version = "v3.0.2+incompatible"
    hash = "sha256-tGYo4iifYkG0EOOBix+O/utWhrzzT2Zk+jcnZZ06ZPk="
"""


def test_gomod2nix_versions() -> None:
    head = GOMOD2NIX.replace(b'"v1.5.2"', b'"v1.5.3"')
    changes = diff(golang.parse_gomod2nix("gomod2nix.toml", GOMOD2NIX),
                   golang.parse_gomod2nix("gomod2nix.toml", head), "gomod2nix.toml")
    assert [(c.name, c.from_version, c.to_version, c.change, c.level) for c in changes] == [
        ("github.com/alibabacloud-go/tea", "v1.5.2", "v1.5.3", "upgraded", "patch")]


@each_case(("parse", "data"), [
    (pipfile.parse_pipfile, b"[packages\nrequests = 1"), (golang.parse_gomod2nix, b"[mod\n"),
    (golang.parse_gomod2nix, b"mod = 3\n"), (pipfile.parse_pipfile, b"[packages]\nx = {version = \n"),
])
def test_malformed_files_are_a_manifest_error(parse, data: bytes) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ManifestError):
        parse("f", data)


@each_case("text", [
    "x " + "do |" * 50_000,  # a block opener's `|args|` that never closes, again and again
    'gem "a"' + ', "b' * 50_000,  # version strings that never close
    "group " + ":a, " * 50_000 + "d",
    "group :test do\n" * 50_000 + 'gem "x"\n' + "end\n" * 50_000,  # 50,000 nested blocks
    'gem "a", ' + "group: " * 50_000,
    "gem(" + '"' * 100_000,
])
def test_a_hostile_gemfile_is_read_in_bounded_time(text: str) -> None:
    within_cpu(2.0, lambda: bundler.parse_gemfile("Gemfile", text.encode()))
