"""Hostile dependency files: every parser on random and mutated bytes, huge, deep, aliased and entity-laden inputs.

The property: a parser returns dependencies or raises ManifestError; nothing else escapes, and nothing
takes unbounded time or memory.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cpucost import within_cpu
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tables import each_case

from gatekeeper.deps import registry
from gatekeeper.deps.loaders import MAX_BYTES
from gatekeeper.deps.model import Change, ManifestError
from gatekeeper.deps.report import render_text
from gatekeeper.deps.sources import Delta, patch_delta, tree_delta
from gatekeeper.gitobjects import GitObjects
from tests.gitrepo import GitRepo
from tests.test_deps_ecosystems import CARGO_TOML, DOCKERFILE, GEMFILE_LOCK, GO_MOD, POM, WORKFLOW
from tests.test_deps_npm import BUN_LOCK, PNPM_V9, YARN_BERRY
from tests.test_deps_pypi import POETRY_LOCK, PYPROJECT, REQUIREMENTS, UV_LOCK

SAMPLES = {
    "package.json": b'{"dependencies": {"a": "^1.0.0"}, "devDependencies": {"b": "2"}}',
    "package-lock.json": b'{"lockfileVersion": 3, "packages": {"": {}, "node_modules/a": {"version": "1.0.0"}}}',
    "yarn.lock": YARN_BERRY, "pnpm-lock.yaml": PNPM_V9, "bun.lock": BUN_LOCK, "requirements.txt": REQUIREMENTS,
    "pyproject.toml": PYPROJECT, "poetry.lock": POETRY_LOCK, "uv.lock": UV_LOCK,
    "Pipfile.lock": b'{"default": {"a": {"version": "==1"}}}', "go.mod": GO_MOD,
    "go.sum": b"github.com/a/b v1.0.0 h1:x=\n", "Cargo.toml": CARGO_TOML,
    "Cargo.lock": b'[[package]]\nname = "a"\nversion = "1.0.0"\nsource = "registry+x"\n',
    "Gemfile.lock": GEMFILE_LOCK, "composer.json": b'{"require": {"a/b": "^1"}}',
    "composer.lock": b'{"packages": [{"name": "a/b", "version": "1.0.0"}]}', "pom.xml": POM,
    "gradle/libs.versions.toml": b'[libraries]\na = "g:a:1.0"\n',
    "packages.lock.json": b'{"dependencies": {"net8.0": {"A": {"type": "Direct", "resolved": "1.0.0"}}}}',
    "app.csproj": b'<Project><ItemGroup><PackageReference Include="A" Version="1"/></ItemGroup></Project>',
    ".github/workflows/ci.yml": WORKFLOW, "Dockerfile": DOCKERFILE,
    "Chart.yaml": b"dependencies:\n  - name: a\n    version: 1.0.0\n",
    ".terraform.lock.hcl": b'provider "registry.terraform.io/a/b" {\n  version = "1.0.0"\n}\n',
    "main.tf": b'module "m" {\n  source = "a/b/c"\n  version = "1.0.0"\n}\n',
    "charts/app/values.yaml": b"image:\n  registry: ghcr.io\n  repository: org/app\n  tag: 1.0.0\n"
                              b"sidecar:\n  image: quay.io/org/side:v2@sha256:" + b"a" * 64 + b"\n",
    "docker-compose.yml": b"services:\n  db:\n    image: postgres:16.2\n  cache:\n    image: 'redis:7'\n",
    ".nvmrc": b"v20.11.0\n", ".python-version": b"3.12.4\n3.11.9\n", ".tool-versions": b"nodejs 20.11.0\n",
    "rust-toolchain.toml": b'[toolchain]\nchannel = "1.79.0"\n',
    "build.gradle.kts": b'plugins { id("a.b") version "1.0" }\nval v = "2.0"\ndependencies {\n'
                        b'    implementation("g:a:$v")\n    testImplementation("g:t:1.0")\n}\n',
    "gradle/wrapper/gradle-wrapper.properties": b"distributionUrl=https\\://services.gradle.org/distributions/"
                                                b"gradle-8.5-bin.zip\n",
    "pnpm-workspace.yaml": b"catalog:\n  react: ^18.2.0\ncatalogs:\n  old:\n    react: ^16.0.0\n",
    "packages.config": b'<?xml version="1.0" encoding="utf-8"?>\n<packages>\n'
                       b'  <package id="Newtonsoft.Json" version="13.0.1" targetFramework="net472" />\n</packages>\n',
}

def _tree(repo: Path, base: str, head: str) -> Delta:
    with GitObjects(repo) as git:
        return tree_delta(git, base, head)



def _parse(path: str, data: bytes) -> None:
    fmt = registry.format_for(path)
    assert fmt is not None, path
    try:
        deps = fmt.parse(path, data)
    except ManifestError:
        return
    assert all(isinstance(d.name, str) and isinstance(d.version, str) for d in deps)


def test_every_sample_parses() -> None:
    for path, data in SAMPLES.items():
        fmt = registry.format_for(path)
        assert fmt is not None and fmt.parse(path, data), path


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(SAMPLES)), st.data())
def test_mutated_files_never_crash(path: str, data: st.DataObject) -> None:
    original = bytearray(SAMPLES[path])
    for _ in range(data.draw(st.integers(1, 8))):
        at = data.draw(st.integers(0, len(original)))
        op = data.draw(st.sampled_from(["delete", "insert", "replace"]))
        junk = data.draw(st.binary(min_size=1, max_size=8) | st.sampled_from(
            [b"{", b"}", b"[", b"]", b'"', b":", b"\n", b"  ", b"- ", b"&a", b"*a", b"@", b"==", b"=", b"\xff", b"\\"]))
        if op == "delete":
            del original[at:at + len(junk)]
        elif op == "insert":
            original[at:at] = junk
        else:
            original[at:at + len(junk)] = junk
    _parse(path, bytes(original))


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(sorted(SAMPLES)), st.binary(max_size=300))
def test_random_bytes_never_crash(path: str, data: bytes) -> None:
    _parse(path, data)


@each_case("path, data", [
    ("package.json", b"[" * 200_000 + b"]" * 200_000),
    ("pnpm-lock.yaml", b"a: " + b"[" * 100_000 + b"]" * 100_000),
    ("Cargo.toml", b"a = " + b"[" * 100_000 + b"]" * 100_000),
    ("pom.xml", b"<project>" + b"<a>" * 100_000 + b"</a>" * 100_000 + b"</project>"),
    ("bun.lock", b"[" * 200_000 + b"]" * 200_000),
])
def test_deep_nesting_is_bounded(path: str, data: bytes) -> None:
    within_cpu(10, lambda: _parse(path, data))  # CPU seconds: a loaded machine does not make it flaky


def test_yaml_alias_bomb_is_refused() -> None:
    lines = ['a0: &a0 ["x","x","x","x","x","x","x","x","x","x"]']
    lines += [f"a{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 10)]
    bomb = ("\n".join(lines) + "\npackages:\n  " + "\n  ".join(f"k{i}: *a9" for i in range(2000)) + "\n").encode()
    for path in ("pnpm-lock.yaml", "charts/app/values.yaml"):
        with pytest.raises(ManifestError, match="aliases"):
            registry.format_for(path).parse(path, bomb)  # type: ignore[union-attr]


@each_case("doc", [
    b'<?xml version="1.0"?><!DOCTYPE project [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>'
    b"<project><version>&b;</version></project>",
    b'<!DOCTYPE project SYSTEM "http://127.0.0.1:1/evil.dtd"><project/>',
    b'<?xml version="1.0"?>\n<!doctype project [<!entity x SYSTEM "file:///etc/passwd">]><project>&x;</project>',
])
@each_case("path", ["pom.xml", "app.csproj", "packages.config"])
def test_xml_entities_refused(doc: bytes, path: str) -> None:
    with pytest.raises(ManifestError, match="DOCTYPE or ENTITY"):
        registry.format_for(path).parse(path, doc)  # type: ignore[union-attr]


def test_huge_file_is_a_too_large_problem(tmp_path: Path) -> None:
    r = GitRepo(tmp_path / "r")
    r.write("requirements.txt", "a==1\n")
    base = r.commit()
    r.write("requirements.txt", b"a==2\n" + b"#" * (MAX_BYTES + 10) + b"\n")
    head = r.commit("huge")
    delta = _tree(r.root, base, head)
    assert delta.changes == () and [p.kind for p in delta.problems] == ["too-large"]


def test_non_utf8_is_a_problem(tmp_path: Path) -> None:
    r = GitRepo(tmp_path / "r")
    r.write("go.mod", "module x\nrequire a.b/c v1.0.0\n")
    base = r.commit()
    r.write("go.mod", b"module x\nrequire a.b/c v1.1.0 \xff\n")
    delta = _tree(r.root, base, r.commit("bad"))
    assert delta.changes == () and "not UTF-8" in delta.problems[0].msg


def test_symlinked_manifest_is_not_followed(tmp_path: Path) -> None:
    r = GitRepo(tmp_path / "r")
    r.write("secret.txt", "requests==1.0\n")
    base = r.commit()
    r.symlink("requirements.txt", "secret.txt")
    delta = _tree(r.root, base, r.commit("link"))
    assert delta.changes == () and "symlink" in delta.problems[0].msg


def test_patch_with_unsafe_and_binary_manifests(tmp_path: Path) -> None:
    r = GitRepo(tmp_path / "r")
    r.write("a.txt", "x\n")
    r.commit()
    r.write("yarn.lock", b"\x00\x01binary")
    patch = tmp_path / "p.diff"
    r.save_patch(patch)
    delta = patch_delta(patch)
    assert delta.changes == () and [(p.manifest, p.kind) for p in delta.problems] == [("yarn.lock", "partial")]
    hostile = (b"diff --git a/../requirements.txt b/../requirements.txt\nnew file mode 100644\n"
               b"--- /dev/null\n+++ b/../requirements.txt\n@@ -0,0 +1 @@\n+evil==1\n")
    (tmp_path / "h.diff").write_bytes(hostile)
    try:
        got = patch_delta(tmp_path / "h.diff")
    except Exception as exc:  # the diff parser may refuse it outright; either way nothing is reported
        assert type(exc).__name__ == "PatchError"
    else:
        assert got.changes == ()


def test_text_output_escapes_terminal_controls() -> None:
    change = Change("npm", "evil\x1b[2J\nname\u202e", "pkg:npm/evil", "package.json", None, "1.0.0", "added", True,
                    "runtime")
    out = render_text(Delta((change,), ()))
    assert "\x1b" not in out and "\u202e" not in out and "evil\\x1b[2J\\nname\\u202e" in out


def test_lock_entries_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("gatekeeper.deps.npm.MAX_ENTRIES", 1000)
    lock = {"lockfileVersion": 1, "dependencies": {f"p{i}": {"version": "1.0.0"} for i in range(1001)}}
    with pytest.raises(ManifestError, match="more than"):
        registry.format_for("package-lock.json").parse("package-lock.json",  # type: ignore[union-attr]
                                                       json.dumps(lock).encode())


def test_new_files_read_the_same_from_git_objects_and_from_the_patch(tmp_path: Path) -> None:
    """Every sample added in one commit: --tree (git's objects) and the patch alone must agree exactly."""
    r = GitRepo(tmp_path / "r")
    r.write("README", "x\n")
    base = r.commit()
    for path, data in SAMPLES.items():
        r.write(f"pkg/{path}" if not path.startswith(".github") else path, data)
    head = r.commit("all formats")
    patch = tmp_path / "p.diff"
    patch.write_bytes(r.git("diff", "--binary", base, head))
    from_tree = sorted(c.to_dict().items() for c in _tree(r.root, base, head).changes)
    from_patch = sorted(c.to_dict().items() for c in patch_delta(patch).changes)
    assert len(from_tree) > 60 and from_tree == from_patch


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["package-lock.json", "pnpm-lock.yaml", "Cargo.lock", "uv.lock"]), st.data())
def test_hunk_readers_never_crash(path: str, data: st.DataObject) -> None:
    fmt = registry.format_for(path)
    assert fmt is not None and fmt.hunks is not None
    lines = SAMPLES.get(path, b"").splitlines() or [b'"node_modules/a": {', b'"version": "1.0.0"']
    picked = data.draw(st.lists(st.sampled_from(lines) | st.binary(max_size=40), max_size=30))
    try:
        fmt.hunks(path, b"\n".join(picked))
    except ManifestError:
        pass


@each_case("declaration", [b"nonexistent-codec", b"utf-16", b"x" * 300, b""])
def test_xml_encoding_declarations_never_crash(declaration: bytes) -> None:
    _parse("pom.xml", b'<?xml version="1.0" encoding="' + declaration + b'"?><project/>')
