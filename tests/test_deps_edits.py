"""Patch-only mode: dependency edits read from the hunks of package.json, composer.json, Cargo.toml,
pyproject.toml and pom.xml (edits.py), checked against the whole files (what `--tree` reads).

The attack property, over generated variants: whenever the patch alone is read without a problem,
it says what the whole files say; above all, a dependency the whole files show as added (new, or
moved to another section) is never read from the hunks as an upgrade only.
"""

from __future__ import annotations

import io
import json
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from gitdiffs import file_patch

from gatekeeper.deps.delta import diff
from gatekeeper.deps.model import Dependency
from gatekeeper.deps.registry import format_for
from gatekeeper.deps.sources import Delta, patch_delta
from tests.gitrepo import GitRepo


@pytest.fixture()
def repo(tmp_path: Path) -> GitRepo:
    return GitRepo(tmp_path / "repo")


def _patch(repo: GitRepo, path: str, base: str, head: str, context: int = 3) -> Delta:
    """The delta of the patch real git writes for `path` going from `base` to `head`."""
    repo.write(path, base)
    repo.add()
    repo.write(path, head)
    # git writes it: one long-lived git process for every such patch of the run (tests/gitdiffs.py)
    patch = file_patch(path, base.encode(), head.encode(), f"-U{context}", "--binary")
    return patch_delta(None, io.BytesIO(patch))


def _truth(path: str, base: str, head: str) -> list[tuple[str, str | None, str | None, str]]:
    fmt = format_for(path)
    assert fmt is not None
    changes = diff(fmt.parse(path, base.encode()), fmt.parse(path, head.encode()), path)
    return sorted(((c.name, c.from_version, c.to_version, c.change) for c in changes), key=str)


def _seen(delta: Delta) -> list[tuple[str, str | None, str | None, str]]:
    return sorted(((c.name, c.from_version, c.to_version, c.change) for c in delta.changes), key=str)


PACKAGE = {"name": "app", "version": "1.0.0", "scripts": {"build": "tsc", "test": "jest"},
           "dependencies": {"express": "^4.18.2", "lodash": "4.17.21", "react": "^18.2.0", "zod": "~3.22.0"},
           "devDependencies": {"jest": "^29.7.0", "typescript": "5.3.3", "eslint": "^8.56.0"},
           "engines": {"node": ">=18"}}


def _json(doc: dict[str, object]) -> str:
    return json.dumps(doc, indent=2) + "\n"


def test_a_package_json_bump_is_read_from_its_hunk(repo: GitRepo) -> None:
    head = json.loads(json.dumps(PACKAGE))
    head["dependencies"]["lodash"] = "4.17.22"
    delta = _patch(repo, "web/package.json", _json(PACKAGE), _json(head))
    assert not delta.problems
    assert _seen(delta) == [("lodash", "4.17.21", "4.17.22", "upgraded")]
    assert delta.changes[0].partial and delta.changes[0].direct


def test_a_new_dependency_beside_a_bump_is_added_not_hidden(repo: GitRepo) -> None:
    head = json.loads(json.dumps(PACKAGE))
    head["dependencies"]["lodash"] = "4.17.22"
    head["dependencies"] = dict(sorted({**head["dependencies"], "left-pad": "1.3.0"}.items()))
    delta = _patch(repo, "package.json", _json(PACKAGE), _json(head))
    assert not delta.problems
    assert ("left-pad", None, "1.3.0", "added") in _seen(delta)


def test_a_move_from_dev_to_runtime_is_never_no_change(repo: GitRepo) -> None:
    head = json.loads(json.dumps(PACKAGE))
    head["devDependencies"].pop("typescript")
    head["dependencies"]["typescript"] = "5.3.3"
    delta = _patch(repo, "package.json", _json(PACKAGE), _json(head))
    assert [p.kind for p in delta.problems] == ["partial"]
    assert "two places" in delta.problems[0].msg or "not a dependency line" in delta.problems[0].msg


@pytest.mark.parametrize("value", ["npm:evil-lodash@4.17.22", "github:evil/lodash#main", "file:../lodash",
                                   "https://127.0.0.1:9/lodash.tgz", "latest", "4.17.22 && curl x"])
def test_an_alias_url_or_tag_swap_fails_closed(repo: GitRepo, value: str) -> None:
    head = json.loads(json.dumps(PACKAGE))
    head["dependencies"]["lodash"] = value
    delta = _patch(repo, "package.json", _json(PACKAGE), _json(head))
    assert not delta.changes and [p.kind for p in delta.problems] == ["partial"]


def test_a_script_or_own_version_edit_fails_closed(repo: GitRepo) -> None:
    for key, section, value in (("build", "scripts", "node evil.js"), ("version", None, "1.0.1")):
        head = json.loads(json.dumps(PACKAGE))
        if section is None:
            head[key] = value
        else:
            head[section][key] = value
        delta = _patch(repo, "package.json", _json(PACKAGE), _json(head))
        assert not delta.changes and [p.kind for p in delta.problems] == ["partial"], key


CARGO = """[package]
name = "tool"
version = "0.3.1"
edition = "2021"

[dependencies]
anyhow = "1.0.79"
clap = { version = "4.4.18", features = ["derive"] }
regex = "1.10.2"
serde = { version = "1.0.195", features = ["derive"] }

[dev-dependencies]
tempfile = "3.9.0"
assert_cmd = "2.0.13"

[profile.release]
lto = "fat"
"""


@pytest.mark.parametrize(("old", "new", "want"), [
    ('regex = "1.10.2"', 'regex = "1.10.3"', [("regex", "1.10.2", "1.10.3", "upgraded")]),
    ('clap = { version = "4.4.18", features = ["derive"] }', 'clap = { version = "4.5.0", features = ["derive"] }',
     [("clap", "4.4.18", "4.5.0", "upgraded")]),
])
def test_cargo_toml_bumps(repo: GitRepo, old: str, new: str, want: list[tuple[str, str, str, str]]) -> None:
    delta = _patch(repo, "crates/tool/Cargo.toml", CARGO, CARGO.replace(old, new))
    assert not delta.problems and _seen(delta) == want


@pytest.mark.parametrize(("old", "new"), [
    ('regex = "1.10.2"', 'regex = { version = "1.10.3", package = "evil-regex" }'),
    ('regex = "1.10.2"', 'regex = { git = "https://127.0.0.1:9/regex" }'),
    ('regex = "1.10.2"', 'regex = { version = "1.10.3", registry = "evil" }'),
    ('version = "0.3.1"', 'version = "0.3.2"'),
    ('lto = "fat"', 'lto = "thin"'),
    ('[dev-dependencies]\ntempfile = "3.9.0"', '[dependencies]\ntempfile = "3.9.0"'),
])
def test_cargo_toml_edits_that_fail_closed(repo: GitRepo, old: str, new: str) -> None:
    delta = _patch(repo, "Cargo.toml", CARGO, CARGO.replace(old, new))
    assert not delta.changes and [p.kind for p in delta.problems] == ["partial"]


PYPROJECT = """[project]
name = "svc"
version = "2.1.0"
dependencies = [
    "httpx>=0.26.0",
    "pydantic==2.5.3",
    "rich>=13.7",
]

[project.optional-dependencies]
test = ["pytest==7.4.4", "coverage>=7.4"]

[tool.poetry.group.dev.dependencies]
mypy = "^1.8.0"

[tool.ruff]
line-length = 100
select = ["E", "F"]
"""


def test_pyproject_list_and_poetry_bumps(repo: GitRepo) -> None:
    head = PYPROJECT.replace('"pydantic==2.5.3"', '"pydantic==2.6.0"')
    delta = _patch(repo, "pyproject.toml", PYPROJECT, head)
    assert not delta.problems and _seen(delta) == [("pydantic", "2.5.3", "2.6.0", "upgraded")]
    delta = _patch(repo, "pyproject.toml", PYPROJECT, PYPROJECT.replace('mypy = "^1.8.0"', 'mypy = "^1.9.0"'))
    assert not delta.problems and [c.name for c in delta.changes] == ["mypy"]


@pytest.mark.parametrize(("old", "new"), [
    ("line-length = 100", "line-length = 120"),
    ('select = ["E", "F"]', 'select = ["E", "F", "B"]'),
    ('"rich>=13.7",', '"rich @ https://127.0.0.1:9/rich.whl",'),
    ('version = "2.1.0"', 'version = "2.2.0"'),
])
def test_pyproject_edits_that_fail_closed(repo: GitRepo, old: str, new: str) -> None:
    delta = _patch(repo, "pyproject.toml", PYPROJECT, PYPROJECT.replace(old, new))
    assert not delta.changes and [p.kind for p in delta.problems] == ["partial"]


POM = """<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <parent>
    <groupId>org.apache.commons</groupId>
    <artifactId>commons-parent</artifactId>
    <version>64</version>
  </parent>
  <artifactId>lib</artifactId>
  <version>1.0.0</version>
  <properties>
    <jackson.version>2.16.1</jackson.version>
  </properties>
  <dependencies>
    <dependency>
      <groupId>com.google.guava</groupId>
      <artifactId>guava</artifactId>
      <version>33.0.0-jre</version>
    </dependency>
    <dependency>
      <groupId>com.fasterxml.jackson.core</groupId>
      <artifactId>jackson-databind</artifactId>
      <version>${jackson.version}</version>
    </dependency>
    <dependency>
      <groupId>org.junit.jupiter</groupId>
      <artifactId>junit-jupiter</artifactId>
      <version>5.10.1</version>
      <scope>test</scope>
    </dependency>
  </dependencies>
  <build>
    <plugins>
      <plugin>
        <artifactId>maven-surefire-plugin</artifactId>
        <version>3.2.3</version>
      </plugin>
    </plugins>
  </build>
</project>
"""


@pytest.mark.parametrize(("old", "new", "name"), [
    ("<version>33.0.0-jre</version>", "<version>33.1.0-jre</version>", "com.google.guava:guava"),
    ("<version>64</version>", "<version>65</version>", "org.apache.commons:commons-parent"),
    ("<version>3.2.3</version>", "<version>3.2.5</version>", "org.apache.maven.plugins:maven-surefire-plugin"),
])
def test_pom_version_bumps(repo: GitRepo, old: str, new: str, name: str) -> None:
    delta = _patch(repo, "pom.xml", POM, POM.replace(old, new))
    assert not delta.problems and [(c.name, c.change) for c in delta.changes] == [(name, "upgraded")]


def test_a_property_whose_uses_the_hunk_does_not_show_is_named_by_itself(repo: GitRepo) -> None:
    # round 55: what the patch shows, the property at its two values, beside the `partial` problem (it named nothing)
    delta = _patch(repo, "pom.xml", POM, POM.replace("<jackson.version>2.16.1</jackson.version>",
                                                     "<jackson.version>2.16.2</jackson.version>"))
    assert [(c.name, c.from_version, c.to_version) for c in delta.changes] == [("${jackson.version}", "2.16.1",
                                                                                "2.16.2")]
    assert [p.kind for p in delta.problems] == ["partial"]


@pytest.mark.parametrize(("old", "new"), [
    ("<artifactId>guava</artifactId>", "<artifactId>evil-guava</artifactId>"),
    ("<version>1.0.0</version>", "<version>1.0.1</version>"),
])
def test_pom_edits_that_fail_closed(repo: GitRepo, old: str, new: str) -> None:
    delta = _patch(repo, "pom.xml", POM, POM.replace(old, new))
    assert not delta.changes and [p.kind for p in delta.problems] == ["partial"]


def test_a_hunk_without_the_element_opening_fails_closed(repo: GitRepo) -> None:
    # -U1: the hunk shows the <version> line and one line above it, not the <dependency> opening.
    delta = _patch(repo, "pom.xml", POM, POM.replace("<version>5.10.1</version>", "<version>5.10.2</version>"), 1)
    assert not delta.changes and [p.kind for p in delta.problems] == ["partial"]


# --- generated variants: the patch never says less than the whole files ------------------------------

NAMES = ["alpha", "beta", "gamma", "delta", "eps", "zeta", "eta", "theta"]
VERSIONS = ["1.0.0", "1.0.1", "1.2.0", "2.0.0", "^1.0.0", "~2.1.0", "0.9.0"]


def _mutate_package(rng: random.Random, doc: dict[str, dict[str, str]]) -> None:
    section = rng.choice(["dependencies", "devDependencies"])
    other = "devDependencies" if section == "dependencies" else "dependencies"
    names = sorted(doc[section])
    op = rng.choice(["bump", "bump", "add", "remove", "move", "rename", "alias", "script"])
    if op == "bump" and names:
        doc[section][rng.choice(names)] = rng.choice(VERSIONS)
    elif op == "add":
        doc[section][rng.choice(NAMES) + "-new"] = rng.choice(VERSIONS)
    elif op == "remove" and names:
        doc[section].pop(rng.choice(names))
    elif op == "move" and names:
        name = rng.choice(names)
        doc[other][name] = doc[section].pop(name)
    elif op == "rename" and names:
        name = rng.choice(names)
        doc[section][name + "x"] = doc[section].pop(name)
    elif op == "alias" and names:
        doc[section][rng.choice(names)] = "npm:evil@" + rng.choice(VERSIONS).lstrip("^~")
    elif op == "script":
        doc["scripts"]["postinstall"] = rng.choice(["1.0.0", "node x.js"])
    for key in ("dependencies", "devDependencies"):
        doc[key] = dict(sorted(doc[key].items()))


def _package_pair(rng: random.Random) -> tuple[str, str]:
    base = {"name": "app", "scripts": {"build": "tsc"},
            "dependencies": {n: rng.choice(VERSIONS) for n in rng.sample(NAMES, 4)},
            "devDependencies": {n + "-dev": rng.choice(VERSIONS) for n in rng.sample(NAMES, 3)}}
    base = {k: dict(sorted(v.items())) if isinstance(v, dict) else v for k, v in base.items()}
    head = json.loads(json.dumps(base))
    for _ in range(rng.randint(1, 3)):
        _mutate_package(rng, head)
    return _json(base), _json(head)


def _cargo_pair(rng: random.Random) -> tuple[str, str]:
    def render(tables: dict[str, dict[str, str]]) -> str:
        out = '[package]\nname = "x"\nversion = "0.1.0"\n'
        for table, deps in tables.items():
            out += f"\n[{table}]\n" + "".join(
                f'{n} = {{ version = "{v}", features = ["std"] }}\n' if n.startswith(("a", "e")) else f'{n} = "{v}"\n'
                for n, v in sorted(deps.items()))
        return out
    base = {"dependencies": {n: rng.choice(VERSIONS) for n in rng.sample(NAMES, 4)},
            "dev-dependencies": {n + "_dev": rng.choice(VERSIONS) for n in rng.sample(NAMES, 3)}}
    head = json.loads(json.dumps(base))
    for _ in range(rng.randint(1, 3)):
        table = rng.choice(list(head))
        other = next(t for t in head if t != table)
        names = sorted(head[table])
        op = rng.choice(["bump", "bump", "add", "remove", "move"])
        if op == "bump" and names:
            head[table][rng.choice(names)] = rng.choice(VERSIONS)
        elif op == "add":
            head[table][rng.choice(NAMES) + "_new"] = rng.choice(VERSIONS)
        elif op == "remove" and names:
            head[table].pop(rng.choice(names))
        elif op == "move" and names:
            name = rng.choice(names)
            head[other][name] = head[table].pop(name)
    return render(base), render(head)


@pytest.mark.parametrize(("path", "pair"), [("package.json", _package_pair), ("Cargo.toml", _cargo_pair)])
@pytest.mark.parametrize("context", [0, 1, 3])
def test_generated_edits_agree_with_the_whole_files(repo: GitRepo, path: str,
                                                    pair: Callable[[random.Random], tuple[str, str]],
                                                    context: int) -> None:
    rng = random.Random(f"{path}-{context}")
    read = 0
    for _ in range(25):
        base, head = pair(rng)
        truth = _truth(path, base, head)
        delta = _patch(repo, path, base, head, context)
        if delta.problems:
            continue  # fail closed: the gate asks for --tree
        read += 1
        seen = _seen(delta)
        added = {name for name, _, _, change in truth if change == "added"}
        # Never an upgrade only where the whole files show a dependency added (new or moved).
        assert added <= {name for name, _, _, change in seen if change == "added"}, (base, head, seen)
        assert {(n, t) for n, _, t, _ in seen if t} == {(n, t) for n, _, t, _ in truth if t}, (base, head, seen)
    assert read >= 5  # most variants are plain bumps, adds and removes the hunks show safely


def test_dependency_records_from_hunks_have_unknown_standing() -> None:
    fmt = format_for("package.json")
    assert fmt is not None and fmt.edits is not None
    base, head = fmt.edits("package.json", b'@@\n-    "a": "1.0.0",\n+    "a": "1.0.1",\n')
    assert base == [Dependency("npm", "a", "1.0.0", "package.json", None, None)]
    assert head == [Dependency("npm", "a", "1.0.1", "package.json", None, None)]


CSPROJ = """<Project Sdk="Microsoft.NET.Sdk">
  <ItemGroup>
    <PackageReference Include="Google.Cloud.Spanner.Data" Version="5.7.0" />
    <PackageReference Include="Grpc.AspNetCore" Version="2.60.0" />
    <PackageReference Include="Microsoft.NET.Test.Sdk" Version="17.8.0" PrivateAssets="all" />
  </ItemGroup>
</Project>
"""


def test_msbuild_package_reference_bump(repo: GitRepo) -> None:
    head = CSPROJ.replace('Spanner.Data" Version="5.7.0"', 'Spanner.Data" Version="5.8.0"')
    delta = _patch(repo, "src/cart/cart.csproj", CSPROJ, head)
    assert not delta.problems and _seen(delta) == [("Google.Cloud.Spanner.Data", "5.7.0", "5.8.0", "upgraded")]


def test_msbuild_version_override_bump(repo: GitRepo) -> None:
    # central package management: a project's `VersionOverride` (martincostello/sqllocaldb), read as --tree reads it
    base = CSPROJ.replace('Grpc.AspNetCore" Version=', 'Grpc.AspNetCore" VersionOverride=')
    head = base.replace('VersionOverride="2.60.0"', 'VersionOverride="2.61.0"')
    delta = _patch(repo, "src/cart/cart.csproj", base, head)
    assert not delta.problems and _seen(delta) == _truth("src/cart/cart.csproj", base, head) == [
        ("Grpc.AspNetCore", "2.60.0", "2.61.0", "upgraded")]
    both = base.replace('VersionOverride="2.60.0"', 'Version="1.0.0" VersionOverride="2.60.0"')
    delta = _patch(repo, "src/cart/cart.csproj", both, both.replace('"2.60.0"', '"2.61.0"'))
    assert [p.kind for p in delta.problems] == ["partial"] and not delta.changes  # which one wins: not from a line


@pytest.mark.parametrize(("old", "new"), [
    ('Include="Grpc.AspNetCore" Version="2.60.0"', 'Include="Grpc.AspNetCore.Evil" Version="2.60.0"'),
    ('Version="2.60.0" />', 'Version="2.61.0" Condition="$(X)" />'),
    ('<PackageReference Include="Grpc.AspNetCore" Version="2.60.0" />',
     '<PackageReference Include="Grpc.AspNetCore">\n      <Version>2.61.0</Version>\n    </PackageReference>'),
])
def test_msbuild_edits(repo: GitRepo, old: str, new: str) -> None:
    delta = _patch(repo, "cart.csproj", CSPROJ, CSPROJ.replace(old, new))
    if "Evil" in new:  # a swap of names is read as what it is: one removed, one added
        assert not delta.problems and ("Grpc.AspNetCore.Evil", None, "2.60.0", "added") in _seen(delta)
    else:
        assert not delta.changes and [p.kind for p in delta.problems] == ["partial"]


PROVIDERS = """terraform {
  required_version = ">= 1.3"
  required_providers {
    google = {
      source  = "hashicorp/google"
      version = "7.39.0"
    }
  }
}

module "gke" {
  source  = "terraform-google-modules/kubernetes-engine/google"
  version = "~> 30.0"
  name    = "cluster"
}
"""


def test_terraform_provider_and_module_bumps(repo: GitRepo) -> None:
    head = PROVIDERS.replace('"7.39.0"', '"7.43.0"').replace('"~> 30.0"', '"~> 31.0"')
    want = [("hashicorp/google", "7.39.0", "7.43.0", "upgraded"),
            ("terraform-google-modules/kubernetes-engine/google", "~> 30.0", "~> 31.0", "upgraded")]
    assert _truth("providers.tf", PROVIDERS, head) == sorted(want, key=str)
    delta = _patch(repo, "providers.tf", PROVIDERS, head)
    assert not delta.problems and _seen(delta) == sorted(want, key=str)


@pytest.mark.parametrize(("old", "new", "named"), [
    ('source  = "hashicorp/google"', 'source  = "evil/google"', []),  # in the version's own hunk: nothing named
    # in a hunk of its own (8 lines below): that hunk is refused, the provider's hunk still read (hunkreads.py)
    ('name    = "cluster"', 'name    = "other"', ["hashicorp/google"]),
])
def test_terraform_edits_that_fail_closed(repo: GitRepo, old: str, new: str, named: list[str]) -> None:
    delta = _patch(repo, "main.tf", PROVIDERS, PROVIDERS.replace(old, new).replace('"7.39.0"', '"7.43.0"'))
    assert [p.kind for p in delta.problems] == ["partial"] and [c.name for c in delta.changes] == named


CHART = """apiVersion: v2
name: kafka-stack
version: 0.3.0
appVersion: "3.6"
dependencies:
  - name: kafka
    version: 26.9.0
    repository: https://charts.bitnami.com/bitnami
  - name: zookeeper
    version: 12.1.0
    repository: https://charts.bitnami.com/bitnami
"""


def test_helm_dependency_bump_with_the_charts_own_version(repo: GitRepo) -> None:
    head = CHART.replace("version: 26.9.0", "version: 26.11.4").replace("version: 0.3.0", "version: 0.3.1")
    delta = _patch(repo, "helm/Chart.yaml", CHART, head)
    assert not delta.problems and _seen(delta) == [("kafka", "26.9.0", "26.11.4", "upgraded")]


def test_helm_repository_swap_fails_closed(repo: GitRepo) -> None:
    head = CHART.replace("repository: https://charts.bitnami.com/bitnami\n  - name: zoo",
                         "repository: https://127.0.0.1:9/charts\n  - name: zoo")
    delta = _patch(repo, "helm/Chart.yaml", CHART, head.replace("version: 26.9.0", "version: 26.9.1"))
    assert [p.kind for p in delta.problems] == ["partial"] and not delta.changes


def _entry(name: str, version: str, ref: str) -> str:
    return (f'        {{\n            "name": "{name}",\n            "version": "{version}",\n'
            f'            "source": {{\n                "type": "git",\n                "reference": "{ref}"\n'
            f'            }},\n            "type": "library"\n        }}')


def _composer_lock(entries: list[tuple[str, str, str]]) -> str:
    return '{\n    "packages": [\n' + ",\n".join(_entry(*e) for e in entries) + '\n    ],\n    "packages-dev": []\n}\n'


def test_composer_lock_hunks(repo: GitRepo) -> None:
    kept = [("monolog/monolog", "v3.5.0", "a" * 40), ("psr/log", "3.0.0", "b" * 40)]
    base, head = [*kept, ("symfony/yaml", "v7.0.1", "c" * 40)], [*kept, ("symfony/yaml", "v7.0.3", "d" * 40)]
    delta = _patch(repo, "composer.lock", _composer_lock(base), _composer_lock(head))
    assert not delta.problems and _seen(delta) == [("symfony/yaml", "7.0.1", "7.0.3", "upgraded")]
    assert delta.changes[0].partial and delta.changes[0].direct  # standing unknown: direct (fail closed)


def test_lock_hunk_readers_never_pair_across_hunks(repo: GitRepo) -> None:
    """A name shown at the end of one hunk and a version at the start of the next belong to different
    entries: read as one, the delta would name the wrong package."""
    lines = [f'    "node_modules/p{i}": {{\n      "version": "1.0.{i}",\n      "license": "l{i}"\n    }},'
             for i in range(12)]
    base = '{\n  "lockfileVersion": 3,\n  "packages": {\n' + "\n".join(lines) + '\n    "": {}\n  }\n}\n'
    head = base.replace('"license": "l3"', '"license": "l3x"').replace('"version": "1.0.9"', '"version": "2.0.0"')
    fmt = format_for("package-lock.json")
    assert fmt is not None and fmt.hunks is not None
    delta = _patch(repo, "package-lock.json", base, head, 1)
    assert ("p9", "1.0.9", "2.0.0", "upgraded") in _seen(delta)
    assert all(name in ("p9",) for name, _, _, change in _seen(delta) if change != "changed")
    # A download location moved under an unchanged version is no such neighbour: a problem (red team,
    # tests/test_redteam_lock_sources.py).
    swapped = head.replace('"license": "l5"', '"resolved": "https://127.0.0.1:9/p5.tgz"')
    delta = _patch(repo, "package-lock.json", base, swapped, 1)
    # The problem makes the deps policy review the file (deps.unreadable); the moves the hunks show are still named,
    # and nothing at the swapped location is read as one.
    assert [p.kind for p in delta.problems] == ["partial"]
    assert [(name, change) for name, _, _, change in _seen(delta)] == [("p9", "upgraded")]


PIPFILE = """{
    "default": {
        "bleach": {
            "hashes": [
                "sha256:aaaa",
                "sha256:bbbb"
            ],
            "index": "pypi",
            "version": "==3.1.1"
        },
        "idna": {
            "hashes": [
                "sha256:cccc"
            ],
            "version": "==3.6"
        }
    }
}
"""


def test_pipfile_lock_hunks(repo: GitRepo) -> None:
    head = PIPFILE.replace("sha256:aaaa", "sha256:eeee").replace("sha256:bbbb", "sha256:ffff")
    delta = _patch(repo, "Pipfile.lock", PIPFILE, head.replace('"==3.1.1"', '"==3.1.4"'))
    assert not delta.problems and _seen(delta) == [("bleach", "3.1.1", "3.1.4", "upgraded")]


def test_a_lockfile_bump_whose_name_the_hunk_hides_fails_closed(repo: GitRepo) -> None:
    """With -U0 (or a long entry) a changed version line can come without its package's name: that
    is a partial problem, never no change at all."""
    lines = [f'    "node_modules/p{i}": {{\n      "version": "1.0.{i}",\n      "resolved": "r{i}"\n    }},'
             for i in range(6)]
    base = '{\n  "lockfileVersion": 3,\n  "packages": {\n' + "\n".join(lines) + '\n    "": {}\n  }\n}\n'
    delta = _patch(repo, "package-lock.json", base, base.replace('"version": "1.0.4"', '"version": "9.0.0"'), 0)
    assert not delta.changes and {p.kind for p in delta.problems} == {"partial"}
    uv = '[[package]]\nname = "a"\nversion = "1.0.0"\nsource = { registry = "x" }\n'
    delta = _patch(repo, "uv.lock", uv, uv.replace('"1.0.0"', '"1.0.1"'), 0)
    assert not delta.changes and {p.kind for p in delta.problems} == {"partial"}
    delta = _patch(repo, "uv.lock", uv, uv.replace('"1.0.0"', '"1.0.1"'), 1)  # the name shows: read
    assert not delta.problems and _seen(delta) == [("a", "1.0.0", "1.0.1", "upgraded")]


def test_a_one_line_dependency_section(repo: GitRepo) -> None:
    base = '{\n  "name": "x",\n  "dependencies": { "aws-cdk-lib": "2.250.0", "constructs": "^10.0.0" }\n}\n'
    delta = _patch(repo, "package.json", base, base.replace("2.250.0", "2.260.0"))
    assert not delta.problems and _seen(delta) == [("aws-cdk-lib", "2.250.0", "2.260.0", "upgraded")]
    moved = base.replace('"dependencies": { "aws-cdk-lib": "2.250.0", ', '"dependencies": { ').replace(
        '}\n}', '},\n  "devDependencies": { "aws-cdk-lib": "2.250.0" }\n}')
    delta = _patch(repo, "package.json", base, moved)
    assert not delta.changes and [p.kind for p in delta.problems] == ["partial"]  # runtime → dev: not "no change"


LOCK_V2 = """{
  "name": "svc",
  "lockfileVersion": 2,
  "packages": {
    "node_modules/brace-expansion": {
      "version": "1.1.12",
      "resolved": "https://registry.npmjs.org/brace-expansion/-/brace-expansion-1.1.12.tgz"
    }
  },
  "dependencies": {
    "brace-expansion": {
      "version": "1.1.12",
      "resolved": "https://registry.npmjs.org/brace-expansion/-/brace-expansion-1.1.12.tgz"
    }
  }
}
"""


def test_package_lock_v2_legacy_section_must_agree(repo: GitRepo) -> None:
    delta = _patch(repo, "package-lock.json", LOCK_V2, LOCK_V2.replace("1.1.12", "1.1.18"))
    assert not delta.problems and _seen(delta) == [("brace-expansion", "1.1.12", "1.1.18", "upgraded")]
    # Only the v1-form copy moves, and no hunk shows a `packages` key: read as a v1 lockfile's entry (npm 6
    # installs from that section), so the move is reported, never "no change".
    head = LOCK_V2.replace('"1.1.12",\n      "resolved": "https://registry.npmjs.org/brace-expansion/-/brace-expansion'
                           '-1.1.12.tgz"\n    }\n  }\n}', '"1.1.18",\n      "resolved": "https://registry.npmjs.org/'
                           'brace-expansion/-/brace-expansion-1.1.18.tgz"\n    }\n  }\n}')
    delta = _patch(repo, "package-lock.json", LOCK_V2, head)
    assert not delta.problems and _seen(delta) == [("brace-expansion", "1.1.12", "1.1.18", "upgraded")]
    # With a `packages` key in the same hunks, the copy must agree with the entries they show.
    delta = _patch(repo, "package-lock.json", LOCK_V2, head, 20)
    assert not delta.changes and {p.kind for p in delta.problems} == {"partial"}
