"""Red team 26, the deps policy: what an entry asks for besides its version rode on an in-level bump.

The delta compared an entry by name and version only. What else the entry says decides whether it installs at all
and what it pulls in: PEP 508 extras and environment markers (`flask[async]`, `evil==1.0; python_version < "3"`
never installs, without the marker it does), Poetry's and Pipfile's table keys (`optional = true`, `markers`,
`extras`), Cargo's `features`, `default-features` and `optional`, and the table an entry sits in (a
`[target.'cfg(any())'.dependencies]` entry is built on no platform, a `[workspace.dependencies]` entry only where a
member inherits it). A move in any of them beside a bump of the same entry (an `upgraded` within the level) or of
another entry of the file (the file then counts as explained) queued normally: `gate --enable deps` said allow, from
the patch and with `--tree`. Now such a move is a `changed` change of the entry (`deps.unordered`, reviewed), or
from a patch a `partial` problem where the hunk cannot show it. Each attack is generated per form and per bump
placement and gated both ways in one repository; bumps that keep the options alike still queue.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_deps_gate import Case, Cases, gate, gate_together, together

# PEP 508 requirement forms: (base entry, head entry) of `flask`, at one version.
PEP508 = [
    ("flask==3.0.0", "flask[async]==3.0.0"),
    ("flask[async]==3.0.0", "flask[dotenv]==3.0.0"),
    ("flask==3.0.0; python_version < '3'", "flask==3.0.0"),
    ("flask==3.0.0; sys_platform == 'win32'", "flask==3.0.0; sys_platform == 'linux'"),
    ("flask==3.0.0; extra == 'never'", "flask==3.0.0"),
]
# Table keys (Poetry, Pipfile, Cargo): (base table, head table) of one entry at one version, `{v}` its version.
POETRY = [
    ('{{ version = "{v}", optional = true }}', '"{v}"'),
    ('"{v}"', '{{ version = "{v}", extras = ["async"] }}'),
    ('{{ version = "{v}", markers = "sys_platform == \'never\'" }}', '"{v}"'),
    ('{{ version = "{v}", python = "<3.0" }}', '"{v}"'),
]
PIPFILE = [
    ('"=={v}"', '{{ version = "=={v}", extras = ["async"] }}'),
    ('{{ version = "=={v}", markers = "sys_platform == \'never\'" }}', '"=={v}"'),
    ('{{ version = "=={v}", sys_platform = "== \'never\'" }}', '"=={v}"'),
]
CARGO = [
    ('"{v}"', '{{ version = "{v}", features = ["derive"] }}'),
    ('{{ version = "{v}", features = ["std"] }}', '{{ version = "{v}", features = ["std", "unstable"] }}'),
    ('{{ version = "{v}", default-features = false }}', '"{v}"'),
    ('{{ version = "{v}", default_features = false }}', '{{ version = "{v}" }}'),
    ('{{ version = "{v}", optional = true }}', '"{v}"'),
]
# Gemfile forms: (base lines, head lines) of `rails` at `{v}`; a platform or condition decides where it installs.
GEMFILE = [
    ("gem 'rails', '{v}', platforms: :jruby", "gem 'rails', '{v}'"),
    ("gem 'rails', '{v}', platform: :mswin", "gem 'rails', '{v}', platform: :ruby"),
    ("platforms :jruby do\n  gem 'rails', '{v}'\nend", "gem 'rails', '{v}'"),
    ("if false\n  gem 'rails', '{v}'\nend", "gem 'rails', '{v}'"),
    ("install_if false do\n  gem 'rails', '{v}'\nend", "gem 'rails', '{v}'"),
]
# NuGet references: (base attributes, head attributes) of Serilog at `{v}`; its assets decide what the build takes.
NUGET = [
    (' Version="{v}" ExcludeAssets="all"', ' Version="{v}"'),
    (' Version="{v}" IncludeAssets="compile"', ' Version="{v}" IncludeAssets="all"'),
    (' Version="{v}"><ExcludeAssets>all</ExcludeAssets></PackageReference', ' Version="{v}"'),
]
CSPROJ = ('<Project Sdk="Microsoft.NET.Sdk">\n  <ItemGroup>\n    <PackageReference Include="Newtonsoft.Json" '
          'Version="{}" />\n    <PackageReference Include="Serilog"{} />\n  </ItemGroup>\n</Project>\n')
# POM dependencies: (base elements, head elements) below slf4j-api's version; what of the artifact the build takes.
EXCLUSION = "<exclusions><exclusion><groupId>{}</groupId><artifactId>{}</artifactId></exclusion></exclusions>"
POM_FORMS = [
    ("", "<classifier>evil</classifier>"),
    ("", "<type>pom</type>"),
    (EXCLUSION.format("commons-logging", "commons-logging"), ""),
    (EXCLUSION.format("commons-logging", "commons-logging"), EXCLUSION.format("org.slf4j", "jcl-over-slf4j")),
]
POM = ("<project>\n  <modelVersion>4.0.0</modelVersion>\n  <groupId>g</groupId>\n  <artifactId>a</artifactId>\n"
       "  <version>1</version>\n  <dependencies>\n    <dependency>\n      <groupId>com.google.guava</groupId>\n"
       "      <artifactId>guava</artifactId>\n      <version>{}</version>\n    </dependency>\n    <dependency>\n"
       "      <groupId>org.slf4j</groupId>\n      <artifactId>slf4j-api</artifactId>\n      <version>{}</version>\n"
       "      {}\n    </dependency>\n  </dependencies>\n</project>\n")
CARGO_HEAD = '[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n\n'


def _requirements(old: str, new: str, own: bool) -> tuple[str, str]:
    other = ("requests==2.31.0", "requests==2.31.0" if own else "requests==2.31.1")
    new = new.replace("3.0.0", "3.0.1", 1) if own else new
    return f"{other[0]}\n{old}\n", f"{other[1]}\n{new}\n"


def _pep621(old: str, new: str, own: bool) -> tuple[str, str]:
    base, head = _requirements(old, new, own)

    def doc(lines: str) -> str:
        items = "".join(f'  "{line}",\n' for line in lines.splitlines())
        return f'[project]\nname = "app"\nversion = "1.0"\ndependencies = [\n{items}]\n'

    return doc(base), doc(head)


def _tables(header: str, start: str, forms: list[tuple[str, str]], version: str, bumped: str,
            prefix: str = "", other: tuple[str, str, str] = ("requests", '"2.31.0"', '"2.31.1"')) -> Cases:
    cases: Cases = {}
    for number, (old, new) in enumerate(forms):
        for own in (True, False):
            was = f'{other[0]} = {other[1]}\nflask = {old.format(v=version)}\n'
            moved = other[1] if own else other[2]
            now = f'{other[0]} = {moved}\nflask = {new.format(v=bumped if own else version)}\n'
            cases[f"{start} {number} {'own' if own else 'other'} bump"] = (
                {start: f"{prefix}{header}\n{was}"}, {start: f"{prefix}{header}\n{now}"})
    return cases


def _cargo_tables() -> Cases:
    """An entry moved out of a table that builds it nowhere (or only where inherited) into `[dependencies]`."""
    cases: Cases = {}
    for number, table in enumerate(["target.'cfg(any())'.dependencies", 'target."cfg(any())".dependencies',
                                    "workspace.dependencies"]):
        for own in (True, False):
            serde = '"1.0.191"' if not own else '"1.0.190"'
            old = f'{CARGO_HEAD}[dependencies]\nserde = "1.0.190"\n\n[{table}]\nevil = "1.0.0"\n'
            new = f'{CARGO_HEAD}[dependencies]\nserde = {serde}\nevil = "{"1.0.1" if own else "1.0.0"}"\n'
            cases[f"Cargo.toml table {number} {'own' if own else 'other'} bump"] = (
                {"Cargo.toml": old}, {"Cargo.toml": new})
    return cases


def _gemfiles() -> Cases:
    cases: Cases = {}
    for number, (old, new) in enumerate(GEMFILE):
        for own in (True, False):
            was = f"source 'https://rubygems.org'\n\ngem 'rake', '13.0.0'\n{old.format(v='7.0.1')}\n"
            now = (f"source 'https://rubygems.org'\n\ngem 'rake', '{'13.0.0' if own else '13.0.1'}'\n"
                   f"{new.format(v='7.0.2' if own else '7.0.1')}\n")
            cases[f"Gemfile {number} {'own' if own else 'other'} bump"] = ({"Gemfile": was}, {"Gemfile": now})
    return cases


def _projects() -> Cases:
    cases: Cases = {}
    for number, (old, new) in enumerate(NUGET):
        for own in (True, False):
            was = CSPROJ.format("13.0.1", old.format(v="3.1.0")).replace("</PackageReference />", "</PackageReference>")
            now = CSPROJ.format("13.0.1" if own else "13.0.2", new.format(v="3.1.1" if own else "3.1.0"))
            cases[f"csproj {number} {'own' if own else 'other'} bump"] = ({"app.csproj": was}, {"app.csproj": now})
    return cases


def _poms() -> Cases:
    cases: Cases = {}
    for number, (old, new) in enumerate(POM_FORMS):
        for own in (True, False):
            was = POM.format("32.1.2-jre", "2.0.9", old)
            now = POM.format("32.1.2-jre" if own else "32.1.3-jre", "2.0.10" if own else "2.0.9", new)
            cases[f"pom.xml {number} {'own' if own else 'other'} bump"] = ({"pom.xml": was}, {"pom.xml": now})
    return cases


def attacks() -> Cases:
    cases: Cases = {}
    for number, (old, new) in enumerate(PEP508):
        for own in (True, False):
            base, head = _requirements(old, new, own)
            cases[f"requirements {number} {'own' if own else 'other'} bump"] = (
                {"requirements.txt": base}, {"requirements.txt": head})
            base, head = _pep621(old, new, own)
            cases[f"PEP 621 {number} {'own' if own else 'other'} bump"] = (
                {"pyproject.toml": base}, {"pyproject.toml": head})
    cases |= _tables("[tool.poetry.dependencies]", "pyproject.toml", POETRY, "3.0.0", "3.0.1",
                     '[tool.poetry]\nname = "app"\nversion = "1.0"\n\n')
    cases |= _tables("[packages]", "Pipfile", PIPFILE, "3.0.0", "3.0.1", other=("requests", '"==2.31.0"', '"==2.31.1"'))
    cases |= _tables("[dependencies]", "Cargo.toml", CARGO, "1.0.0", "1.0.1", CARGO_HEAD,
                     other=("log", '"0.4.20"', '"0.4.21"'))
    return cases | _cargo_tables() | _gemfiles() | _projects() | _poms()


def test_the_attacks_are_what_they_say() -> None:
    cases = attacks()
    assert len(cases) == 74, len(cases)
    for name, (old, new) in cases.items():
        [(path, was)] = old.items()
        assert new[path] != was and any(n in was for n in ("flask", "evil", "rails", "Serilog", "slf4j")), name


@pytest.mark.parametrize("tree", [False, True], ids=["patch", "tree"])
def test_an_entry_whose_options_moved_needs_a_human(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                    tree: bool) -> None:
    gate_together(capsys, tmp_path, attacks(), tree)


PEP621 = '[project]\nname = "a"\nversion = "1"\ndependencies = [\n  "flask[{}]=={}",\n]\n'
CARGO_SERDE = CARGO_HEAD + '[dependencies]\nserde = {{ version = "{}", features = [{}] }}\n'

# Bumps that keep an entry's options as they were: what bots write, still an in-level upgrade that queues.
QUIET: Cases = {
    "requirements extras and marker kept": (
        {"requirements.txt": "flask[async]==3.0.0; python_version >= '3.9'\n"},
        {"requirements.txt": "flask[async]==3.0.1; python_version >= '3.9'\n"}),
    "PEP 621 extras kept, written in another order": (
        {"pyproject.toml": PEP621.format("async,dotenv", "3.0.0")},
        {"pyproject.toml": PEP621.format("dotenv,async", "3.0.1")}),
    "Poetry optional kept": (
        {"pyproject.toml": '[tool.poetry.dependencies]\nflask = { version = "3.0.0", optional = true }\n'},
        {"pyproject.toml": '[tool.poetry.dependencies]\nflask = { version = "3.0.1", optional = true }\n'}),
    "Cargo features kept, in another order": (
        {"Cargo.toml": CARGO_SERDE.format("1.0.190", '"derive", "rc"')},
        {"Cargo.toml": CARGO_SERDE.format("1.0.191", '"rc", "derive"')}),
    "Gemfile platform kept": (
        {"Gemfile": "platforms :jruby do\n  gem 'rails', '7.0.1', platforms: :jruby\nend\n"},
        {"Gemfile": "platforms :jruby do\n  gem 'rails', '7.0.2', platforms: :jruby\nend\n"}),
    "csproj analyzer assets kept": (
        {"app.csproj": CSPROJ.format("13.0.1", ' Version="3.1.0" PrivateAssets="all" IncludeAssets="runtime; build; '
                                               'analyzers"')},
        {"app.csproj": CSPROJ.format("13.0.1", ' Version="3.1.1" PrivateAssets="all" IncludeAssets="runtime; build; '
                                               'analyzers"')}),
    "Cargo target entry bumped in its table": (
        {"Cargo.toml": f"{CARGO_HEAD}[target.'cfg(unix)'.dependencies]\nlibc = \"0.2.150\"\n"},
        {"Cargo.toml": f"{CARGO_HEAD}[target.'cfg(unix)'.dependencies]\nlibc = \"0.2.151\"\n"}),
}


@pytest.mark.parametrize("tree", [False, True], ids=["patch", "tree"])
def test_a_bump_that_keeps_the_options_queues(capsys: pytest.CaptureFixture[str], tmp_path: Path, tree: bool) -> None:
    base, head, _ = together(QUIET)
    decision = gate(capsys, Case(tmp_path, base, head), tree)
    assert decision["outcome"] == "allow", decision["reasons"]
