"""Review 67b: npmbins.py's package.json reader when the manifest is a symlink, or its folder is. npm reads
`tools/js/package.json -> ../../shared/package.json` as the package of `tools/js`, and its `bin` from there; the
reader left a linked package.json out (`npx ptool` named nothing: exit 0) and named a linked folder's program under
the link's name only."""

from __future__ import annotations

from collections.abc import Callable

from tables import each_case

from gatekeeper.classify import npmbins
from gatekeeper.gitobjects import TreeEntry

MANIFEST = '{"name": "ptool", "bin": {"ptool": "bin/cli.js"}}'


def _packages(files: dict[str, str], links: dict[str, str]) -> npmbins.Packages:
    tree: dict[str, TreeEntry] = {}
    blobs: dict[str, bytes] = {}
    for path, text in {**files, **links}.items():
        tree[path] = TreeEntry("120000" if path in links else "100644", f"oid:{path}")
        blobs[f"oid:{path}"] = text.encode()
    read: Callable[[TreeEntry], bytes] = lambda entry: blobs[entry.oid]  # noqa: E731
    return npmbins.Packages(tree, read)


# (command, files, links, a glob the command's program is named by)
LINKED = [
    ("npx ptool", {"shared/manifest.json": MANIFEST}, {"tools/js/package.json": "../../shared/manifest.json"},
     "tools/js/bin/cli.js"),
    ("pnpm exec ptool --fix", {"shared/manifest.json": MANIFEST},
     {"tools/js/package.json": "l", "tools/js/l": "../../shared/manifest.json"}, "tools/js/bin/cli.js"),
    ("yarn ptool", {"conf/p.json": MANIFEST}, {"pkgs/a/package.json": "../../conf/p.json"}, "pkgs/a/bin/cli.js"),
    ("npx ./tools/js", {"vendor/js/package.json": MANIFEST}, {"tools/js": "../vendor/js"}, "vendor/js/bin/cli.js"),
    ("npm install -g ./tools/js && ptool", {"vendor/js/package.json": MANIFEST}, {"tools/js": "../vendor/js"},
     "vendor/js/bin/cli.js"),
    ("npx ./tools/js", {}, {"tools/js/package.json": "../../nowhere.json"}, "tools/js/*"),  # unreadable: whole folder
]


@each_case(("line", "files", "links", "target"), LINKED)
def test_a_linked_manifest_or_folder_names_the_program(line: str, files: dict[str, str], links: dict[str, str],
                                                       target: str) -> None:
    named = npmbins.named(line, ".github/workflows/ci.yml", [""], _packages(files, links))
    assert any(glob.replace("**", "*") == target or glob == target for glob in named), named


@each_case(("line", "links"), [("npx ptool", {"tools/js/package.json": "tools/js/package.json"}),
                               ("npx ptool", {"tools/js/package.json": "/etc/package.json"}),
                               ("npx ptool", {"tools/js/package.json": "../../.git/config"})])
def test_a_manifest_link_that_leads_nowhere_names_no_bin(line: str, links: dict[str, str]) -> None:
    assert npmbins.named(line, ".github/workflows/ci.yml", [""], _packages({}, links)) == []
