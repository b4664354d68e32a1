"""Review 67b: lintplugins.py's settings reader under hostile settings. A RuboCop `inherit_from:` that names the same
file many times (itself, or two files each other) was followed once per name to a depth of 3: n names cost n**4
readings (16 names: 0.13 s; a 1 KiB file: hours); each command of a text read the same settings again (400 `rubocop`
lines and a 600 KB `.rubocop.yml`: 9.4 s). A chain deeper than 3 files named nothing past it, and a settings file that
is a symlink (or is reached through a symlinked folder) was not read at all: what it loads was exit 0."""

from __future__ import annotations

from collections.abc import Callable

from tables import each_case

from gatekeeper.classify import lintplugins
from gatekeeper.gitobjects import TreeEntry

_LINK = "120000"


def _tree(files: dict[str, str], links: dict[str, str] | None = None
          ) -> tuple[dict[str, TreeEntry], Callable[[TreeEntry], bytes], list[str]]:
    """A tree of `files` and symlinks `links` (path: target), its reader, and the list of what it read."""
    tree: dict[str, TreeEntry] = {}
    blobs: dict[str, bytes] = {}
    read: list[str] = []
    for path, text in {**files, **(links or {})}.items():
        tree[path] = TreeEntry(_LINK if path in (links or {}) else "100644", f"oid:{path}")
        blobs[f"oid:{path}"] = text.encode()

    def read_blob(entry: TreeEntry) -> bytes:
        read.append(entry.oid)
        return blobs[entry.oid]
    return tree, read_blob, read


def _loaded(text: str, files: dict[str, str], links: dict[str, str] | None = None) -> tuple[list[str], list[str]]:
    tree, read_blob, read = _tree(files, links)
    return lintplugins.loaded(text, lintplugins.Settings(tree, read_blob)), read


def _fanout(n: int) -> list[dict[str, str]]:
    """Settings that name themselves, or each other, `n` times."""
    self = "".join("  - .rubocop.yml\n" for _ in range(n))
    pair = "".join("  - cfg/b.yml\n" for _ in range(n))
    back = "".join("  - ../.rubocop.yml\n  - a.yml\n" for _ in range(n))
    return [{".rubocop.yml": f"inherit_from:\n{self}"},
            {".rubocop.yml": f"inherit_from: [{', '.join(['.rubocop.yml'] * n)}]\n"},
            {".rubocop.yml": f"inherit_from:\n{pair}", "cfg/b.yml": f"inherit_from:\n{back}",
             "cfg/a.yml": f"inherit_from:\n{back}"}]


@each_case(("n", "files"), [(n, files) for n in (2, 6, 12) for files in _fanout(n)])
def test_each_settings_file_is_read_once_however_often_it_is_named(n: int, files: dict[str, str]) -> None:
    _, read = _loaded("bundle exec rubocop", files)
    assert len(read) <= len(files), (n, len(read))


@each_case("commands", [n * "rubocop\n" for n in (2, 50)] + ["pylint a; pylint b; mypy .; mypy src\n" * 20])
def test_each_settings_file_is_read_once_however_many_commands_run_the_tool(commands: str) -> None:
    files = {".rubocop.yml": "require:\n  - ./lib/x\n", "pylintrc": "[MASTER]\nload-plugins=t\n",
             "mypy.ini": "[mypy]\nplugins = t\n", "setup.cfg": "[metadata]\n", "t.py": "", "lib/x.rb": ""}
    found, read = _loaded(commands, files)
    assert len(read) <= len(files)
    assert "lib/x.rb" in found or "rubocop" not in commands


@each_case("depth", [1, 3, 4, 5, 8])
def test_an_inherit_chain_is_followed_to_its_end(depth: int) -> None:
    files = {f"cfg/c{at}.yml": f"inherit_from: c{at + 1}.yml\n" for at in range(depth)}
    files |= {".rubocop.yml": "inherit_from: cfg/c0.yml\n", f"cfg/c{depth}.yml": "require:\n  - ../lib/end\n",
              "lib/end.rb": "x"}
    found, _ = _loaded("rubocop", files)
    assert "lib/end.rb" in found


PLUGIN = {"tools/__init__.py": "", "tools/plug.py": "x", "lib/cop.rb": "x", "mp/p.py": "x"}
# (command, settings files, symlinks, a file the linter loads)
LINKED = [
    ("pylint src", {"ci/pylintrc": "[MASTER]\nload-plugins=tools.plug\n"}, {".pylintrc": "ci/pylintrc"},
     "tools/plug.py"),
    ("pylint src", {"ci/lint.cfg": "[MASTER]\nload-plugins=tools.plug\n"}, {"pylintrc": "ci/lint.cfg"},
     "tools/plug.py"),
    ("pylint src", {"ci/lint.cfg": "[MASTER]\nload-plugins=tools.plug\n"}, {"pylintrc": "ci/lint.cfg"},
     "ci/lint.cfg"),  # the file read, whose name the cache key leaves out: named itself
    ("mypy src", {"conf/types.ini": "[mypy]\nplugins = tools.plug\n"}, {"mypy.ini": "conf/types.ini"},
     "tools/plug.py"),
    ("mypy src", {"conf/setup.cfg": "[mypy]\nplugins = tools.plug\n"}, {"setup.cfg": "conf/setup.cfg"},
     "tools/plug.py"),
    ("flake8", {"conf/f8": "[flake8:local-plugins]\nextension = X = plug:P\npaths = ./tools\n"},
     {".flake8": "conf/f8"}, "tools/plug.py"),
    ("rubocop", {"conf/cops.yml": "require:\n  - ./lib/cop\n"}, {".rubocop.yml": "conf/cops.yml"}, "lib/cop.rb"),
    ("rubocop", {"conf/cops.yml": "require:\n  - ./lib/cop\n"},
     {".rubocop.yml": "l1", "l1": "l2", "l2": "conf/cops.yml"},
     "lib/cop.rb"),  # a chain of links
    ("pylint --rcfile conf/pylintrc src", {"real/pylintrc": "[MASTER]\nload-plugins=tools.plug\n"}, {"conf": "real"},
     "tools/plug.py"),  # a symlinked folder on the way
    ("mypy --config-file conf/m.ini .", {"real/m.ini": "[mypy]\nplugins = ../mp/p.py\n"}, {"conf": "real"},
     "mp/p.py"),
    ("rubocop", {".rubocop.yml": "inherit_from: shared/base.yml\n",
                 "vendor/style/base.yml": "require:\n  - ../../lib/cop\n"},
     {"shared": "vendor/style"}, "lib/cop.rb"),  # relative to its name's folder (`shared/`), or its target's
    ("rubocop", {".rubocop.yml": "inherit_from: base.yml\n", "vendor/base.yml": "require:\n  - ../lib/cop\n"},
     {"base.yml": "vendor/base.yml"}, "lib/cop.rb"),
]


@each_case(("line", "files", "links", "target"), LINKED)
def test_a_settings_file_read_through_a_symlink_is_read(line: str, files: dict[str, str], links: dict[str, str],
                                                        target: str) -> None:
    found, _ = _loaded(line, {**PLUGIN, **files}, links)
    assert target in found


@each_case(("line", "files", "links"), [
    ("pylint src", {}, {".pylintrc": "../outside/pylintrc"}),
    ("pylint src", {}, {".pylintrc": "/etc/pylintrc"}),
    ("pylint src", {}, {".pylintrc": ".pylintrc"}),
    ("rubocop", {}, {".rubocop.yml": "a.yml", "a.yml": ".rubocop.yml"}),
    ("rubocop", {".rubocop.yml": "inherit_from: loop/x.yml\n"}, {"loop": "."}),
    ("rubocop", {".rubocop.yml": "inherit_from:\n  - https://example.com/r.yml\n  - ../../up.yml\n  - /abs.yml\n"}, {}),
    ("mypy .", {"mypy.ini": "\x00\xff[mypy\nplugins = \x00\n"}, {}),
    ("pylint src", {}, {".pylintrc": ".git/config"}),
])
def test_a_settings_link_that_leads_nowhere_names_nothing_and_raises_nothing(line: str, files: dict[str, str],
                                                                             links: dict[str, str]) -> None:
    found, _ = _loaded(line, {**PLUGIN, **files}, links)
    assert not [path for path in found if path in PLUGIN]
