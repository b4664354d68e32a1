"""Red team 32: from a patch alone, attributes BASE already holds can make a checkout write other bytes.

With `--tree` the gate reads the attributes of HEAD and BASE (red team 28, classify/checkoutattrs.py): a file a
`working-tree-encoding` covers is `iac.content.checkout-attributes`. From a patch alone it cannot: BASE's
`.gitattributes` is not in the patch. A change that only adds `app/web.yaml`, whose blob is text that
`working-tree-encoding=UTF-16LE` (or an EBCDIC code page) in BASE writes out as an ASCII Kubernetes manifest, was `src`
from the patch (every row below, dd4a159). Now the patch reader also reads a shown file that is not ASCII as the bytes
those encodings would write, when those bytes are text: the manifest they spell is `iac` by content, reviewed. Each
case is first checked against git: a real checkout writes the manifest. Look-alikes: a YAML file of Chinese or
Greek text (translations) stays `src`/`other`."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from gitrepo import GitRepo
from incli import run_cli, tree_classify
from tables import each_case

MANIFEST = (b"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    spec:\n"
            b"      containers:\n        - name: web\n          image: registry.example/web:1\n\n")
ENCODINGS = {"UTF-16LE": "utf-16-le", "UTF-16BE": "utf-16-be", "IBM037": "cp037", "IBM500": "cp500"}


def _commits(root: Path, attribute: str | None, path: str, data: bytes) -> tuple[GitRepo, str, str]:
    """BASE holds the attribute (when given); HEAD adds `path`, written in the work tree as `data` (git stores what
    its attribute makes of it)."""
    repo = GitRepo(root)
    repo.write("README.md", "app\n")
    if attribute:
        repo.write(".gitattributes", f"app/*.yaml working-tree-encoding={attribute}\n")
    base = repo.commit("base")
    repo.write(path, data)
    return repo, base, repo.commit("head")


def _from_patch(repo: GitRepo, base: str, head: str, path: str, tmp: Path) -> dict:
    patch = tmp / "change.diff"
    patch.write_bytes(subprocess.run(["git", "-C", str(repo.root), "diff", "--binary", base, head], check=True,
                                     capture_output=True).stdout)
    done = run_cli(["classify", str(patch), "--format", "json"], text=True)
    assert done.returncode == 0, done.stderr
    files = {f["path"]: f for f in json.loads(done.stdout)["files"]}
    assert set(files) == {path}  # BASE's attribute is not in the patch
    return files[path]


@each_case("attribute", sorted(ENCODINGS))
def test_a_manifest_base_attributes_re_encode_is_reviewed_from_the_patch(tmp_path: Path, attribute: str) -> None:
    repo, base, head = _commits(tmp_path / "repo", attribute, "app/web.yaml", MANIFEST)
    (repo.root / "app/web.yaml").unlink()
    repo.git("checkout", "-f", "HEAD", "--", "app/web.yaml")
    assert (repo.root / "app/web.yaml").read_bytes() == MANIFEST  # git's checkout writes the manifest
    stored = repo.git("cat-file", "blob", f"{head}:app/web.yaml")
    assert stored != MANIFEST and stored.decode("utf-8") == MANIFEST.decode(ENCODINGS[attribute])
    assert _from_patch(repo, base, head, "app/web.yaml", tmp_path)["bucket"] == "iac"
    assert tree_classify(repo.root, base, head)["app/web.yaml"]["bucket"] == "iac"  # red team 28's reader


@pytest.mark.parametrize("text", ["title: 标题\nbody: 这是一个例子。\nitems:\n  - 第一\n  - 第二\n",
                                  "greeting: Καλημέρα\nfarewell: Αντίο σας\n",
                                  "名前: 山田\n住所: 東京都千代田区\n"], ids=["zh", "el", "ja"])
def test_translations_stay_what_they_were(tmp_path: Path, text: str) -> None:
    repo, base, head = _commits(tmp_path / "repo", None, "app/strings.yaml", text.encode())
    assert _from_patch(repo, base, head, "app/strings.yaml", tmp_path)["bucket"] not in ("ci", "iac")
