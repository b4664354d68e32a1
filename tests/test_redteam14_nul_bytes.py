"""Red team 14, `--tree`: content after a NUL byte.

The content reader stops at a file's first NUL (sniff.readable): kubectl's YAML and JSON readers stop there too, so
what follows is not applied. Other readers go on: Ansible's INI inventory and configparser (setuptools) read every
line, a NUL being one more character of a comment or a value. A comment line ending in a NUL above an inventory
made `ops/production` src (allow) with the commits; the same file without it is `iac`. The patterns now also read
a file that holds a NUL byte (but YAML and JSON) with its NUL bytes taken out, for a ci or iac signal (it can only
raise; a YAML file past its NUL stays unread: tests/test_classify_sniff.py)."""

from __future__ import annotations

from gitrepo import GitRepo
from tables import each_case
from test_classify_context import tree_files

INVENTORY = b"[web]\nweb1 ansible_host=10.0.0.1\n\n[db:children]\nweb\n"  # file content: not contacted
VARIANTS = {
    "ops/a/production": b"# hosts\0\n" + INVENTORY,
    "ops/b/servers.cfg": b"\0" + INVENTORY,
    "ops/c/staging": INVENTORY.replace(b"[web]\n", b"[web]\0\n"),
}


@each_case("path", VARIANTS)
def test_a_nul_byte_does_not_hide_an_inventory(git_repo: GitRepo, path: str) -> None:
    git_repo.write("README.md", "x\n")
    git_repo.commit("base")
    git_repo.write(path, VARIANTS[path])
    git_repo.commit("head")
    got = tree_files(git_repo)[path]
    assert got.bucket == "iac", (got.rule, got.evidence)
