"""A `maybe(http_archive, …)` call whose opening line the hunk cuts (round 59's patch misses, issue 14):
rules_swift's "Update apple_support to 0.11.0", rules_apple's apple_support 0.7.x and rules_haskell's abseil bump move
a release URL four lines below `maybe(` / `_maybe(`: git's three context lines start the hunk at `http_archive,`, so
from a patch the call was not shown whole and the file was a `partial` problem naming nothing (`--tree` named each).

The hunk's first line being the rule passed first (`http_archive,` / `http_file,`) means the hunk cut only the
wrapper's opening line above it: the call is read as the file reader reads Bazel's `maybe`, and named beside a
`partial` problem (whether the wrapper is `maybe` is not in the patch). Look-alikes that name nothing and stay
`partial`: an opening cut deeper (the hunk starts at `name =`), a wrapper the hunk shows that is not `maybe`, a call
whose end the hunk cuts too, a URL of another host, an argument that is no literal.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from deltas import both_edited, partial

from gatekeeper.deps.bazelrepos import repos_hunks
from gatekeeper.deps.model import ManifestError, PartlyRead
from gatekeeper.deps.sources import Delta

SHA_A, SHA_B = "a" * 64, "b" * 64
PATH = "swift/repositories.bzl"

HEAD = '''load("@bazel_tools//tools/build_defs/repo:http.bzl", "http_archive", "http_file")
load("@bazel_tools//tools/build_defs/repo:utils.bzl", "maybe")

def _maybe(repo_rule, name, **kwargs):
    if not native.existing_rule(name):
        repo_rule(name = name, **kwargs)

def rules_dependencies(ignore_version_differences = False):
    """Fetches repositories that are dependencies of these rules."""
    _maybe(
        http_archive,
        name = "bazel_skylib",
        urls = ["https://github.com/bazelbuild/bazel-skylib/releases/download/1.3.0/bazel-skylib-1.3.0.tar.gz"],
        sha256 = "74d544d96f4a5bb630d465ca8bbcfe231e3594e5aae57e1edbf17a6eb3ca2506",
    )

'''
TAIL = '''
    maybe(
        http_archive,
        name = "com_github_other",
        urls = ["https://github.com/other/other/archive/refs/tags/2.0.0.tar.gz"],
    )
'''

# (wrapper, rule, indent, url template with {v}, extra argument after sha256) — the call as written at {v}
URLS = {
    "release": "https://github.com/bazelbuild/apple_support/releases/download/{v}/apple_support.{v}.tar.gz",
    "tag archive": "https://github.com/abseil/abseil-cpp/archive/refs/tags/{v}.tar.gz",
    "archive": "https://github.com/o/tool/archive/{v}.zip",
}
OTHER_HOST = "https://127.0.0.1:9/o/tool/releases/download/{v}/t.tar.gz"
NAMES = {"release": "bazelbuild/apple_support", "tag archive": "abseil/abseil-cpp", "archive": "o/tool"}


def _call(wrapper: str, rule: str, indent: str, url: str, listed: bool, extra: str) -> str:
    inner = indent + "    "
    urls = (f'{inner}urls = [\n{inner}    "{url}",\n{inner}],\n' if listed else f'{inner}url = "{url}",\n')
    return (f"{indent}{wrapper}(\n{inner}{rule},\n{inner}name = \"dep\",\n{urls}{inner}sha256 = \"{SHA_A}\",\n"
            f"{extra}{indent})\n")


VARIANTS = [
    (wrapper, rule, indent, kind, listed, extra)
    for wrapper in ("maybe", "_maybe")
    for rule in ("http_archive", "http_file")
    for indent in ("    ", "")
    for kind in URLS
    for listed in (True, False)
    for extra in ("", "        ignore_version_differences = ignore_version_differences,\n",
                  '        strip_prefix = "dep-1.0.0",\n')
    if not (rule == "http_file" and extra.lstrip().startswith("strip_prefix"))
]


def _bump(tmp_path: Path, call: str, template: str, old: str = "1.0.0", new: str = "1.2.0") -> tuple[Delta, Delta]:
    """The delta of a commit moving `call`'s URL (`template` at `old`) to `new`, with its digest."""
    edits = {template.format(v=old): template.format(v=new), SHA_A: SHA_B}
    if "dep-1.0.0" in call:
        edits["dep-1.0.0"] = "dep-1.2.0"
    return both_edited(tmp_path, {PATH: HEAD + call + TAIL}, {PATH: edits})


@pytest.mark.parametrize(("wrapper", "rule", "indent", "kind", "listed", "extra"), VARIANTS)
def test_a_call_whose_opening_the_hunk_cuts_is_named_beside_partial(
        tmp_path: Path, wrapper: str, rule: str, indent: str, kind: str, listed: bool, extra: str) -> None:
    extra = extra.replace("        ", indent + "    ")
    call = _call(wrapper, rule, indent, URLS[kind].format(v="1.0.0"), listed, extra)
    tree, patch = _bump(tmp_path, call, URLS[kind])
    want = {("tool", NAMES[kind], "1.0.0", "1.2.0")}
    assert {(c.ecosystem, c.name, c.from_version, c.to_version) for c in tree.changes} == want
    assert tree.problems == ()
    # listed URLs sit four lines below the opening (cut), one `url =` three lines below (shown: read whole)
    assert {(c.ecosystem, c.name, c.from_version, c.to_version) for c in patch.changes} == want
    assert partial(patch, PATH) is listed, patch.problems
    assert {c.alias for c in patch.changes} == {"dep"}


def test_rules_swift_apple_support_shape(tmp_path: Path) -> None:
    call = '''    _maybe(
        http_archive,
        name = "build_bazel_apple_support",
        urls = [
            "https://github.com/bazelbuild/apple_support/releases/download/0.10.0/apple_support.0.10.0.tar.gz",
        ],
        sha256 = "SHA",
    )
'''.replace("SHA", SHA_A)
    tree, patch = _bump(tmp_path, call, URLS["release"], "0.10.0", "0.11.0")
    want = {("tool", "bazelbuild/apple_support", "0.10.0", "0.11.0")}
    assert {(c.ecosystem, c.name, c.from_version, c.to_version) for c in patch.changes} == want
    assert {(c.ecosystem, c.name, c.from_version, c.to_version) for c in tree.changes} == want
    assert {p.kind for p in patch.problems} == {"partial"}  # one a side
    assert all("opening" in p.msg for p in patch.problems)


# --- look-alikes: nothing named, the file stays `partial` ---

LOOKALIKES = {
    # two lines above the URL list cut: the rule is not shown, so the call may be any rule or wrapper
    "rule not shown": '    maybe(\n        http_archive,\n        name = "dep",\n        strip_prefix = "x",\n'
                      '        urls = [\n            "URL",\n        ],\n        sha256 = "SHA",\n    )\n',
    # a wrapper the hunk shows that is not Bazel's `maybe`: it may rewrite the URLs, as the file reader says
    "other wrapper": '    mirrored(\n        http_archive,\n        name = "dep",\n        urls = ["URL"],\n'
                     '        sha256 = "SHA",\n    )\n',
    # the call's end is cut too: more arguments may follow
    "end cut": '    maybe(\n        http_archive,\n        name = "dep",\n        urls = [\n            "URL",\n'
               '        ],\n        sha256 = "SHA",\n        build_file_content = "",\n        patches = [],\n'
               '        patch_args = [],\n        patch_cmds = [],\n    )\n',
    # a URL of another host
    "other host": '    maybe(\n        http_archive,\n        name = "dep",\n        urls = [\n'
                  '            "https://127.0.0.1:9/o/tool/releases/download/1.0.0/t.tar.gz",\n        ],\n'
                  '        sha256 = "SHA",\n    )\n',
    # an argument that is no literal beside the download's own: not read, as the file reader does not read it
    "variable": '    maybe(\n        http_archive,\n        name = "dep",\n        urls = [\n            "URL",\n'
                '        ],\n        sha256 = "SHA",\n        strip_prefix = PREFIX,\n    )\n',
}


@pytest.mark.parametrize("case", sorted(LOOKALIKES))
def test_lookalikes_name_nothing_and_stay_partial(tmp_path: Path, case: str) -> None:
    url = URLS["release"].format(v="1.0.0")
    call = LOOKALIKES[case].replace("URL", url).replace("SHA", SHA_A)
    template = OTHER_HOST if "127.0.0.1" in call else URLS["release"]
    _, patch = _bump(tmp_path, call, template)
    assert patch.changes == (), case
    assert partial(patch, PATH), case


def test_one_side_read_directly() -> None:
    """The reader on one side: a cut opening names the call beside PartlyRead; a malformed cut call is refused."""
    url = URLS["release"].format(v="2.0.0")
    side = (f'@@\n        http_archive,\n        name = "dep",\n        urls = [\n\0            "{url}",\n'
            f'        ],\n\0        sha256 = "{SHA_B}",\n    )\n\n    maybe(\n')
    with pytest.raises(PartlyRead) as got:
        repos_hunks(PATH, side.encode())
    assert [(d.name, d.version) for d in got.value.found] == [("bazelbuild/apple_support", "2.0.0")]
    broken = side.replace("        ],\n", "        ],,(\n")
    with pytest.raises(ManifestError) as bad:
        repos_hunks(PATH, broken.encode())
    assert not isinstance(bad.value, PartlyRead)
