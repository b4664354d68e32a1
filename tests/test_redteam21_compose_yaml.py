"""Red team 21: a Compose image written in a YAML form no `image:` line shows moved with no change in the delta.

The Compose reader read `image:` lines. Compose reads YAML: `x-img: &img nginx:1.27` used as `image: *img`, an
anchor on an image line (`image: &web nginx:1.27`), a merge key (`<<: *base` over `x-base: {image: ...}`), a
flow mapping (`app: {image: nginx:1.27}`), a quoted key (`"image": ...`, also a Compose file written as JSON), a
tag (`image: !!str ...`) or a block scalar (`image: >-`) runs the image all the same. Swapping that image for
`evil.example/...` gave `gatekeeper deps` no change and no problem, with `--tree` and from a patch: the deps policy
saw nothing (core reviews the file as `iac`; the facts said "no image moved"). Now the whole file is read as YAML
when it holds such a form (every `image` value, as Compose resolves it), and from a patch a changed line in such a
form is a `partial` problem (deps.unreadable: run with --tree), never "no change".
"""

from __future__ import annotations

from pathlib import Path

import pytest
from deltas import cli_json

OLD, NEW = "nginx:1.27", "evil.example/nginx:1.27"
FORMS = {  # a Compose file holding the image OLD; NEW swapped in by str.replace
    "anchor in an extension field": "x-img: &img nginx:1.27\nservices:\n  app:\n    image: *img\n",
    "anchor on an image line": "services:\n  web:\n    image: &web nginx:1.27\n  worker:\n    image: *web\n",
    "merge key, flow base": "x-base: &base {image: nginx:1.27, restart: always}\nservices:\n  app:\n    <<: *base\n",
    "merge key, block base": "x-base: &base\n  restart: always\n  image: nginx:1.27\nservices:\n  app:\n"
                             "    <<: *base\n",
    "flow service": "services:\n  app: {image: nginx:1.27, restart: always}\n",
    "flow services": "services: {app: {image: \"nginx:1.27\"}}\n",
    "quoted key": "services:\n  app:\n    \"image\": nginx:1.27\n",
    "json": "{\n  \"services\": {\n    \"app\": {\n      \"image\": \"nginx:1.27\"\n    }\n  }\n}\n",
    "tag": "services:\n  app:\n    image: !!str nginx:1.27\n",
    "folded scalar": "services:\n  app:\n    image: >-\n      nginx:1.27\n",
    "value on the next line": "services:\n  app:\n    image:\n      nginx:1.27\n",
    "alias in a list": "x-imgs:\n  - &a nginx:1.27\nservices:\n  app:\n    image: *a\n",
}
NAMES = ("compose.yaml", "docker-compose.prod.yml")




@pytest.mark.parametrize("tree", [True, False], ids=["tree", "patch"])
def test_an_image_swapped_in_any_yaml_form_is_a_change_or_a_problem(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str],
                                                                    tree: bool) -> None:
    """One repository, a folder per form and file name: every swap is named (with --tree) or fails closed."""
    base, head = {}, {}
    for index, (form, text) in enumerate(sorted(FORMS.items())):
        for name in NAMES:
            path = f"stacks/{index:02d}/{name}"
            assert OLD in text, form
            base[path], head[path] = text, text.replace(OLD, NEW)
    found = cli_json(tmp_path, capsys, base, head, tree=tree)
    moved = {c["manifest"] for c in found["changes"] if c["name"] == "evil.example/nginx" and c["change"] == "added"}
    refused = {p["manifest"] for p in found["problems"]}
    assert moved | refused == set(head), sorted(set(head) - moved - refused)  # base: 0 of 24, tree and patch
    if tree:
        assert moved == set(head)


def test_plain_image_lines_and_commands_stay_line_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """No false problem: `&&` in a command, `*` in a shell glob and a plain image line are no YAML form."""
    text = "services:\n  app:\n    image: nginx:1.27\n    command: sh -c 'ls *.txt && echo *'\n"
    found = cli_json(tmp_path, capsys, {"compose.yaml": text}, {"compose.yaml": text.replace(OLD, NEW)}, tree=False)
    assert found["problems"] == []
    assert {(c["name"], c["change"]) for c in found["changes"]} == {("nginx", "removed"),
                                                                    ("evil.example/nginx", "added")}
