"""Red team on patch-only dependency reading (issue #14): patches real git writes that add a dependency
while the hunks alone read as an upgrade or no change. Each attack is checked against the truth, the
whole files of both commits (`tree_delta`), and must fail closed: the added dependency is reported, or
the file is a `partial` problem (the gate then asks for review).

Classes found open and closed here:
- a rename or copy (with or without hunks, from a non-manifest, another folder or another manifest):
  the unchanged lines of the renamed file were never read, so its dependencies were new in truth but
  invisible; a 100% rename showed nothing at all;
- a hunk line holding a line break git does not split on (a bare CR, VT, FF, FS/GS/RS, NEL, U+2028,
  U+2029): the readers' splitlines() took what follows it for an unchanged context line;
- a pom.xml `<version>` with an XML character reference (`&#49;.0.0` is 1.0.0 to Maven): read literally,
  a downgrade ordered nothing and a vulnerable version was hidden from the advisories;
- lockfile hunks (package-lock.json, Cargo.lock, composer.lock, Pipfile.lock): an entry in a form the
  patterns do not read (one line, other indentation, quoted keys) was skipped, beside an upgrade they read;
  pnpm-lock.yaml keys double-quoted, in pnpm v5's `/name/1.0.0` form, as a YAML complex key or with the
  value on the key's line likewise (a double-quoted key was read with its quote in the name).
- go.mod `replace OLD => FORK` beside a bump (both modes: a replace was no dependency at all).
In --tree mode, Cargo `[patch]`, npm `overrides` and `[tool.uv.sources]` were not read, so a git source swapped in
beside a bump read as the bump: a change in any override section is now a `partial` problem (deps/overrides.py;
patch-only mode refuses those lines too).
Classes tried and found closed: a hostile commit message's `claimed` version (no policy reads it; a
look-alike name never lands on another package).
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from gitdiffs import commit_patch
from incli import run_cli
from tables import each_case

from gatekeeper.cli import main
from gatekeeper.deps.claims import claimed_version, claims
from gatekeeper.deps.sources import Delta, patch_delta, tree_delta
from tests.conftest import POLICY_DIR
from tests.gitrepo import GitRepo

EVIL = [f"evil{i}" for i in range(6)]
# (path, base text with `a` at 1.0.0 and EVIL present, the same with `a` at 1.1.0)
MANIFESTS: dict[str, tuple[str, str]] = {}


def _npm(version: str, key: str = "dependencies", prefix: str = "") -> str:
    deps = {f"{prefix}{n}": "1.0.0" for n in EVIL} | {f"{prefix}a": version}
    return json.dumps({"name": "x", key: deps}, indent=2) + "\n"


def _cargo(version: str) -> str:
    pins = "".join(f'{n} = "1.0.0"\n' for n in EVIL)
    return f'[package]\nname = "x"\n\n[dependencies]\n{pins}a = "{version}"\n'


def _pyproject(version: str) -> str:
    items = "".join(f'  "{n}>=1.0.0",\n' for n in EVIL)
    return f'[project]\nname = "x"\ndependencies = [\n{items}  "a>={version}",\n]\n'


def _requirements(version: str) -> str:
    return "".join(f"{n}==1.0.0\n" for n in EVIL) + f"a=={version}\n"


def _chart(version: str) -> str:
    items = "".join(f"  - name: {n}\n    version: 1.0.0\n    repository: https://charts.example\n" for n in EVIL)
    return f"apiVersion: v2\nname: x\nversion: 0.1.0\ndependencies:\n{items}  - name: a\n    version: {version}\n" \
           "    repository: https://charts.example\n"


WRITERS = {
    "package.json": _npm,
    "composer.json": lambda v: _npm(v, "require", "vendor/"),
    "Cargo.toml": _cargo,
    "pyproject.toml": _pyproject,
    "requirements.txt": _requirements,
    "Chart.yaml": _chart,
}


def _two_commits(tmp: Path, base: dict[str, str | bytes], head: dict[str, str | bytes],
                 moves: tuple[tuple[str, str], ...]) -> tuple[GitRepo, str, str]:
    """A real repository with `base` committed, then `moves` (git mv) and `head` written and committed."""
    repo = GitRepo(tmp / "repo")
    for path, data in base.items():
        repo.write(path, data)
    first = repo.commit()
    for old, new in moves:
        repo.move(old, new)
    for path, data in head.items():
        repo.write(path, data)
    second = repo.commit("head")
    return repo, first, second


def _deltas(tmp: Path, base: dict[str, str | bytes], head: dict[str, str | bytes],
            moves: tuple[tuple[str, str], ...] = (), *args: str) -> tuple[Delta, Delta]:
    """(patch-only delta, whole-file delta) of the patch `git diff args` writes between two real commits."""
    repo, first, second = _two_commits(tmp, base, head, moves)
    patch = commit_patch(repo, first, second, *args)  # git writes it (tests/gitdiffs.py)
    with repo.objects() as git:
        truth = tree_delta(git, first, second)
    return patch_delta(None, io.BytesIO(patch)), truth


def _fails_closed(seen: Delta, truth: Delta) -> None:
    """Every dependency the whole files show as added is reported added, or the file is a problem."""
    added = {(c.manifest, c.name) for c in truth.changes if c.change == "added"}
    assert added, "the attack must add a dependency in truth"
    reported = {(c.manifest, c.name) for c in seen.changes if c.change == "added"}
    flagged = {p.manifest for p in seen.problems}
    missed = {(m, n) for m, n in added if (m, n) not in reported and m not in flagged}
    assert not missed, (missed, seen)


@each_case("path, kind", [(path, kind) for path in sorted(WRITERS)
           for kind in ["from-non-manifest", "from-non-manifest-100", "other-folder", "copy", "copy-100"]])
def test_rename_or_copy_does_not_hide_the_unchanged_lines(tmp_path: Path, path: str, kind: str) -> None:
    write = WRITERS[path]
    bump = not kind.endswith("-100")
    after = write("1.1.0" if bump else "1.0.0")
    if kind.startswith("from-non-manifest"):
        seen, truth = _deltas(tmp_path, {"notes.data": write("1.0.0")}, {path: after}, (("notes.data", path),), "-M")
    elif kind == "other-folder":
        moved = ((f"a/{path}", f"b/{path}"),)
        seen, truth = _deltas(tmp_path, {f"a/{path}": write("1.0.0")}, {f"b/{path}": after}, moved, "-M")
    else:
        seen, truth = _deltas(tmp_path, {f"a/{path}": write("1.0.0")}, {f"b/{path}": after}, (), "-C",
                              "--find-copies-harder")
    _fails_closed(seen, truth)
    assert not [c for c in seen.changes if c.change == "upgraded" and c.name.endswith("a")], seen


# Line breaks Python's str.splitlines() honours and git does not (git splits on LF only).
BREAKS = ["\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]
# (path, base, a changed line, the evil line appended to it after the break); JSON takes only CR as whitespace.
INLINE = [
    ("package.json", '{\n  "dependencies": {\n    "a": "1.0.0",\n    "b": "1.0.0",\n    "c": "1.0.0"\n  }\n}\n',
     '    "b": "1.0.0",', '    "b": "1.1.0",{}    "evil": "1.0.0",'),
    ("composer.json", '{\n  "require": {\n    "v/a": "1.0.0",\n    "v/b": "1.0.0",\n    "v/c": "1.0.0"\n  }\n}\n',
     '    "v/b": "1.0.0",', '    "v/b": "1.1.0",{}    "v/evil": "1.0.0",'),
    ("requirements.txt", "a==1.0.0\nb==1.0.0\nc==1.0.0\n", "b==1.0.0", "b==1.1.0{} evil==1.0.0"),
    ("Chart.yaml", "apiVersion: v2\nname: x\nversion: 0.1.0\ndependencies:\n  - name: a\n    version: 1.0.0\n"
     "  - name: b\n    version: 1.0.0\n  - name: c\n    version: 1.0.0\n",
     "  - name: b\n    version: 1.0.0", "  - name: b\n    version: 1.1.0{}  - name: evil\n    version: 1.0.0"),
]


Commits = Callable[[str, str, str], tuple[GitRepo, str, str, Delta]]


@pytest.fixture(scope="module")
def break_commits(tmp_path_factory: pytest.TempPathFactory) -> Commits:
    """(repository, base commit, head commit, whole-file delta) of one file's base and head, made once for the
    three context widths that ask about it (the patch differs with the width; the commits and the truth do not)."""
    made: dict[tuple[str, str, str], tuple[GitRepo, str, str, Delta]] = {}

    def commits(path: str, base: str, head: str) -> tuple[GitRepo, str, str, Delta]:
        if (path, base, head) not in made:
            repo, first, second = _two_commits(tmp_path_factory.mktemp("breaks"), {path: base},
                                               {path: head.encode()}, ())
            with repo.objects() as git:
                made[path, base, head] = repo, first, second, tree_delta(git, first, second)
        return made[path, base, head]

    return commits


@each_case("brk", BREAKS, ids=[f"U+{ord(b):04X}" for b in BREAKS])
@each_case(("path", "base", "old", "new"), INLINE, ids=[i[0] for i in INLINE])
@each_case("context", [0, 1, 3])
def test_a_line_break_git_does_not_split_on_is_no_context_line(break_commits: Commits, brk: str, path: str,
                                                              base: str, old: str, new: str, context: int) -> None:
    head = base.replace(old, new.format(brk))
    repo, first, second, truth = break_commits(path, base, head)
    patch = commit_patch(repo, first, second, f"-U{context}")  # git writes it (tests/gitdiffs.py)
    seen = patch_delta(None, io.BytesIO(patch))
    if not any(c.change == "added" for c in truth.changes):
        # the whole file does not read this break as one (or is unreadable): then no dependency may be
        # read from the hunk without a problem either
        assert seen.problems or not seen.changes or truth.problems, (seen, truth)
        return
    _fails_closed(seen, truth)


@pytest.mark.parametrize("brk", ["\r", "\u2028"], ids=["CR", "U+2028"])
def test_gate_cli_reviews_the_hidden_line(tmp_path: Path, brk: str) -> None:
    """End to end through the CLI: `gatekeeper deps PATCH --format json` reports a problem (in-process, tests/incli.py:
    the subject is the report; tests/test_deps_cli.py runs `deps` as a real process, exit 0 and exit 2)."""
    base, old, new = INLINE[0][1], INLINE[0][2], INLINE[0][3]
    repo = GitRepo(tmp_path / "repo")
    repo.write("package.json", base)
    first = repo.commit()
    repo.write("package.json", base.replace(old, new.format(brk)).encode())
    second = repo.commit("head")
    patch = tmp_path / "change.patch"
    patch.write_bytes(repo.git("diff", first, second))
    done = run_cli(["deps", str(patch), "--format", "json"], text=True)
    report = json.loads(done.stdout)
    assert report["problems"], report
    assert not [c for c in report["changes"] if c["change"] == "upgraded"], report


POM = """<project>
  <modelVersion>4.0.0</modelVersion>
  <groupId>me</groupId>
  <artifactId>me</artifactId>
  <version>1</version>
  <dependencies>
    <dependency>
      <groupId>org.x</groupId>
      <artifactId>lib</artifactId>
      <version>2.0.0</version>
    </dependency>
  </dependencies>
</project>
"""


@each_case("version", ["&#49;.0.0", "2.0.0&#45;alpha", "&#x31;.9.0", "2.0.0&#45;SNAPSHOT", "2.0.1&amp;"])
def test_a_pom_character_reference_is_not_read_literally(tmp_path: Path, version: str) -> None:
    """Maven reads `&#49;.0.0` as 1.0.0 (a downgrade the whole files show): the hunk must not read a
    version that orders nothing, nor hide the real one from the advisories; it is a `partial` problem."""
    head = POM.replace("<version>2.0.0</version>", f"<version>{version}</version>")
    seen, truth = _deltas(tmp_path, {"pom.xml": POM}, {"pom.xml": head})
    assert truth.changes and not truth.problems
    assert not seen.changes and [p.kind for p in seen.problems] == ["partial"], seen


def test_the_policy_reads_no_claim() -> None:
    """A hostile commit message can put any `claimed` version beside an unnamed action change; no rule
    of any shipped policy may read it (it is the author's word)."""
    policies = Path(__file__).resolve().parent.parent / "policies"
    readers = [p for p in policies.rglob("*.rego") if "claimed" in p.read_text()]
    assert not readers


@each_case("claimed", ["actions/checkout-evil", "evil/actions/checkout", "actions/check", "actions"])
def test_a_claim_names_only_its_own_package(claimed: str) -> None:
    """`Bump X from A to B` for a look-alike name never lands on actions/checkout (a prefix, a suffix,
    another owner); only `owner/repo/sub` claims carry over to `owner/repo`."""


    found = claims(f"Bump {claimed} from 4.1.1 to 4.1.2\n\nUpdates `{claimed}` from 4.1.1 to 4.1.2\n")
    assert [c.name for c in found] == [claimed]
    assert claimed_version(found, "actions/checkout") is None


def _package_lock(a: str, extra: str = "") -> str:
    return ('{\n  "name": "x",\n  "version": "1.0.0",\n  "lockfileVersion": 3,\n  "requires": true,\n  "packages": {\n'
            '    "": {\n      "name": "x",\n      "version": "1.0.0",\n      "dependencies": {\n        "a": "^1.0.0"\n'
            '      }\n    },\n'
            f'    "node_modules/a": {{\n      "version": "{a}",\n      "resolved": "https://registry.npmjs.org/a/-/a-{a}.tgz"'
            f'\n    }}{extra}\n  }}\n}}\n')


def _cargo_lock(a: str, extra: str = "") -> str:
    return f'version = 3\n\n[[package]]\nname = "a"\nversion = "{a}"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\n{extra}'


def _composer_lock(a: str, extra: str = "") -> str:
    return ('{\n    "_readme": ["x"],\n    "content-hash": "0",\n    "packages": [\n'
            '        {\n            "name": "v/a",\n'
            f'            "version": "v{a}",\n            "type": "library"\n        }}{extra}\n    ],\n'
            '    "packages-dev": []\n}\n')


def _pipfile_lock(a: str, extra: str = "") -> str:
    return ('{\n    "_meta": {\n        "hash": {"sha256": "0"},\n        "pipfile-spec": 6\n    },\n    "default": {\n'
            f'        "a": {{\n            "hashes": [],\n            "version": "=={a}"\n        }}{extra}\n    }},\n'
            '    "develop": {}\n}\n')


NPM, CARGO, COMPOSER, PIPFILE = "package-lock.json", "Cargo.lock", "composer.lock", "Pipfile.lock"
# (lockfile, writer, entries in forms the hunk patterns do not read; each adds evil0..evil4)
LOCK_FORMS: list[tuple[str, Callable[..., str], str]] = [
    # (a relative `resolved`: a host the base lockfile never fetched from is a problem of its own)
    (NPM, _package_lock, ',\n    "node_modules/{n}": {{"version": "1.0.0", "resolved": "e/{n}.tgz"}}'),
    (NPM, _package_lock, ',\n    "node_modules/{n}": {{\n  "version": "1.0.0",\n      "resolved": "e/{n}"\n    }}'),
    (NPM, _package_lock, ',\n    "node_modules/{n}": {{\n      "version" : "1.0.0"\n    }}'),
    (NPM, _package_lock, ',\n    "node_modules/{n}":\n    {{\n      "version": "1.0.0"\n    }}'),
    (CARGO, _cargo_lock, '\n[[package]]\n  name = "{n}"\n  version = "1.0.0"\nsource = "r+e"\n'),
    (CARGO, _cargo_lock, '\n[[package]]\n"name" = "{n}"\n"version" = "1.0.0"\nsource = "registry+e"\n'),
    (CARGO, _cargo_lock, '\n[[package]]\nname = "{n}" # x\nversion = "1.0.0"\nsource = "r+e"\n'),
    (COMPOSER, _composer_lock, ',\n        {{"name": "v/{n}", "version": "v1.0.0", "type": "library"}}'),
    (COMPOSER, _composer_lock, ',\n        {{\n          "name": "v/{n}",\n          "version" : "v1.0.0"\n        }}'),
    (PIPFILE, _pipfile_lock, ',\n        "{n}": {{"hashes": [], "version": "==1.0.0"}}'),
    (PIPFILE, _pipfile_lock, ',\n      "{n}": {{\n            "hashes": [],\n            "version": "==1"\n      }}'),
]


@each_case("path, write, form, context", [(path, write, form, context) for path, write, form in LOCK_FORMS
                                          for context in [1, 3, 10]])
def test_a_lockfile_entry_in_another_form_is_not_skipped(tmp_path: Path, path: str, write: Callable[..., str],
                                                         form: str, context: int) -> None:
    """A lockfile change without its manifest: one upgrade the hunk patterns read, and five new entries
    written in a form they do not (one line, other indentation, quoted keys, a comment): the file must
    not read as that upgrade only (five new dependencies are a review: `deps.too_many_new`)."""
    extra = "".join(form.format(n=f"evil{i}") for i in range(5))
    seen, truth = _deltas(tmp_path, {path: write("1.0.0")}, {path: write("1.0.1", extra)}, (), f"-U{context}")
    assert not truth.problems, truth
    _fails_closed(seen, truth)


def _pnpm_lock(a: str, extra: str = "") -> str:
    return ("lockfileVersion: '9.0'\n\nsettings:\n  autoInstallPeers: true\n  excludeLinksFromLockfile: false\n\n"
            "importers:\n\n  .:\n    dependencies:\n      a:\n        specifier: ^1.0.0\n        version: " + a +
            f"\n\npackages:\n\n  a@{a}:\n    resolution: {{integrity: sha512-x}}\n{extra}"
            f"\nsnapshots:\n\n  a@{a}: {{}}\n")


PNPM_FORMS = [
    '  "{n}@1.0.0":\n    resolution: {{integrity: sha512-x}}\n',  # double-quoted
    "  /{n}/1.0.0:\n    resolution: {{integrity: sha512-x}}\n",  # pnpm v5's key
    "  ? {n}@1.0.0\n  : resolution: {{integrity: sha512-x}}\n",  # a YAML complex key
    "  {n}@1.0.0: {{resolution: {{integrity: sha512-x}}}}\n",  # the value on the key's line
    "  '{n}@1.0.0':\n    resolution: {{integrity: sha512-x}}\n",  # single-quoted (read)
]


@each_case("form, context", [(form, context) for form in PNPM_FORMS for context in [1, 3]])
def test_a_pnpm_key_in_another_form_is_not_skipped(tmp_path: Path, form: str, context: int) -> None:
    extra = "".join(form.format(n=f"evil{i}") for i in range(5))
    path = "pnpm-lock.yaml"
    seen, truth = _deltas(tmp_path, {path: _pnpm_lock("1.0.0")}, {path: _pnpm_lock("1.0.1", extra)}, (), f"-U{context}")
    assert not truth.problems, truth
    _fails_closed(seen, truth)
    assert all(c.name in ("a", *EVIL[:5]) for c in seen.changes), seen  # no name read with its quote


def test_a_plain_pnpm_upgrade_still_reads(tmp_path: Path) -> None:
    """The snapshot's `a@1.0.1: {}` line is a key pnpm writes: read, not refused."""
    seen, _ = _deltas(tmp_path, {"pnpm-lock.yaml": _pnpm_lock("1.0.0")}, {"pnpm-lock.yaml": _pnpm_lock("1.0.1")})
    assert [(c.name, c.change) for c in seen.changes] == [("a", "upgraded")] and not seen.problems


GATE_ATTACKS: dict[str, tuple[dict[str, str | bytes], dict[str, str | bytes], tuple[tuple[str, str], ...]]] = {
    "renamed from a non-manifest": ({"notes.txt": _requirements("1.0.0")}, {"requirements.txt": _requirements("1.1.0")},
                                    (("notes.txt", "requirements.txt"),)),
    "bare CR in a changed line": ({"package.json": INLINE[0][1]},
                                  {"package.json": INLINE[0][1].replace(INLINE[0][2], INLINE[0][3].format("\r"))}, ()),
    "one-line lockfile entries": ({NPM: _package_lock("1.0.0")}, {NPM: _package_lock("1.0.1", "".join(
        LOCK_FORMS[0][2].format(n=n) for n in EVIL))}, ()),
    "pom character reference": ({"pom.xml": POM}, {"pom.xml": POM.replace(">2.0.0<", ">&#49;.0.0<")}, ()),
}


@pytest.mark.parametrize("name", list(GATE_ATTACKS))
def test_the_gate_reviews_each_attack_from_the_patch_alone(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                          name: str) -> None:
    """`gatekeeper gate PACKET --patch PATCH --enable deps` (no --tree): review with deps.unreadable, never allow."""
    base, head, moves = GATE_ATTACKS[name]
    repo, first, second = _two_commits(tmp_path, base, head, moves)
    patch, packet = tmp_path / "change.diff", tmp_path / "packet.json"
    patch.write_bytes(repo.git("diff", "--binary", first, second))
    assert main(["packet", str(patch), "--out", str(packet), "--policy", str(POLICY_DIR)]) == 0
    capsys.readouterr()
    code = main(["gate", str(packet), "--patch", str(patch), "--policy", str(POLICY_DIR), "--format", "json",
                 "--disable", "core", "--enable", "deps"])
    decision = json.loads(capsys.readouterr().out)
    assert (code, decision["outcome"]) == (3, "review"), decision["reasons"]
    assert "deps.unreadable" in {r["rule"] for r in decision["reasons"]}



GO_MOD = ("module example.invalid/app\n\ngo 1.22\n\nrequire (\n\tgolang.org/x/text v0.14.0\n"
          "\tgolang.org/x/net v0.20.0\n)\n\nreplace golang.org/x/sys => golang.org/x/sys v0.1.0\n")
GO_REPLACES = [
    "\nreplace golang.org/x/text => github.com/evil/text v0.14.0\n",
    "\nreplace golang.org/x/text v0.14.0 => ../text\n",
    "\nreplace (\n\tgolang.org/x/text => github.com/evil/text v0.14.0\n)\n",
]


@pytest.mark.parametrize("tree", [False, True], ids=["patch", "tree"])
@pytest.mark.parametrize("replace", GO_REPLACES)
@pytest.mark.parametrize("context", [0, 3])
def test_a_go_replace_to_another_source_is_a_change(tmp_path: Path, tree: bool, replace: str, context: int) -> None:
    """A `replace` beside a bump swaps the code of a known module for a fork or a local folder: it reads as
    a new dependency (`OLD => NEW`), from the hunks as from the whole files; an unchanged one moves nothing."""
    head = GO_MOD.replace("x/net v0.20.0", "x/net v0.20.1") + replace
    seen, truth = _deltas(tmp_path, {"go.mod": GO_MOD}, {"go.mod": head}, (), f"-U{context}")
    delta = truth if tree else seen
    assert sorted((c.name.split(" => ")[-1], c.change) for c in delta.changes) == sorted(
        [("golang.org/x/net", "upgraded"), (replace.split("=> ")[1].split()[0], "added")]), delta


_CT = '[package]\nname = "x"\nversion = "0.1.0"\n\n[dependencies]\nserde = "1.0.100"\nrand = "0.8.0"\n'
_PJ = '{\n  "name": "x",\n  "dependencies": {\n    "a": "1.0.0",\n    "b": "1.0.0"\n  }\n}\n'
_PP = '[project]\nname = "x"\nversion = "0.1"\ndependencies = [\n  "a>=1.0.0",\n  "b>=1.0.0",\n]\n'
# A bump beside a section that swaps a known dependency's source for a git URL (whole files: the bump only).
SOURCE_SWAPS = {
    "cargo [patch]": ("Cargo.toml", _CT, _CT.replace('"0.8.0"', '"0.8.1"')
                      + '\n[patch.crates-io]\nserde = { git = "https://evil.example/serde" }\n'),
    "npm overrides": ("package.json", _PJ, _PJ.replace('"b": "1.0.0"\n  }', '"b": "1.0.1"\n  },\n  "overrides": {\n'
                                                       '    "a": "git+https://evil.example/a.git"\n  }')),
    "uv sources": ("pyproject.toml", _PP, _PP.replace("b>=1.0.0", "b>=1.0.1")
                   + '\n[tool.uv.sources]\na = { git = "https://evil.example/a" }\n'),
}


@pytest.mark.parametrize("name", list(SOURCE_SWAPS))
def test_a_source_swap_beside_a_bump_is_a_problem_from_the_patch(tmp_path: Path, name: str) -> None:
    path, base, head = SOURCE_SWAPS[name]
    seen, _ = _deltas(tmp_path, {path: base}, {path: head})
    assert [p.kind for p in seen.problems] == ["partial"] and not seen.changes, seen


@pytest.mark.parametrize("name", list(SOURCE_SWAPS))
def test_a_source_swap_beside_a_bump_is_seen_in_the_whole_files(tmp_path: Path, name: str) -> None:
    path, base, head = SOURCE_SWAPS[name]
    _, truth = _deltas(tmp_path, {path: base}, {path: head})
    assert [p.kind for p in truth.problems] == ["partial"] and "override" in truth.problems[0].msg, truth
    # The same override already there on both sides: an ordinary bump, no problem.
    kept_base = head
    for new, old in (('"0.8.1"', '"0.8.0"'), ("b>=1.0.1", "b>=1.0.0"), ('"b": "1.0.1"', '"b": "1.0.0"')):
        kept_base = kept_base.replace(new, old)
    _, plain = _deltas(tmp_path / "kept", {path: kept_base}, {path: head})
    assert not plain.problems and [c.change for c in plain.changes] == ["upgraded"], plain
