"""The cileft68 round: what CI runs that the walk did not follow (issue 12).

- A raw URL of the repository itself (`curl -sSL https://raw.githubusercontent.com/OWNER/REPO/main/tools/install.sh |
  bash`) runs the tree's own file: the names come from what the tree says about itself (selfurls.py). Another
  repository's URL, an own URL of no file of the tree, a page that is not raw, and a vendored manifest's names do not.
- `install` with a mode of no execute bit (`install -Dm644 README.md "$PKG/usr/share/doc/"`) copies data, as `cp` does.
- A process manager's default file: `honcho start`, `foreman start`, `overmind start` run the `Procfile` of their
  folder, `supervisord` its `supervisord.conf` (ciconfigs._DEFAULTS); `honcho run`, `honcho export`, an echo do not.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from citools import BLOCK_DEFINITIONS, named_paths, one_tree_runs
from cpucost import assert_linear, repeated
from tables import each_case

from gatekeeper.classify import ciconfigs, composeruns, selfurls
from gatekeeper.gitobjects import TreeEntry

DEFINITIONS = [*BLOCK_DEFINITIONS, ("ci/release.sh", "#!/usr/bin/env bash\nset -euo pipefail\n{line}\n")]
SCRIPT = "#!/usr/bin/env bash\nset -euo pipefail\necho installing\n"
TARGET = "tools/install.sh"


def _runs(files: dict[str, str]) -> set[str]:
    runs = one_tree_runs(files)
    assert isinstance(runs, dict)
    return {path for path in runs if path in files}


def _with_line(definition: str, template: str, line: str, files: dict[str, str]) -> dict[str, str]:
    tree = {definition: template.format(line=line), **files}
    if definition == "ci/release.sh":  # a workflow runs the script
        tree[".github/workflows/release.yml"] = BLOCK_DEFINITIONS[0][1].format(line="bash ci/release.sh")
    return tree


# What a tree says about itself (the acme/widget repository), one manifest each (real shapes: package.json's string,
# object and `github:` forms, Cargo's `repository`, pyproject's `[project.urls]` and Poetry's, a gemspec, composer,
# go.mod, a reusable workflow of its own)
MANIFESTS = [
    {"package.json": json.dumps({"name": "widget", "repository": "https://github.com/acme/widget"})},
    {"package.json": json.dumps({"name": "widget", "repository": {"type": "git",
                                                                  "url": "git+https://github.com/acme/widget.git"}})},
    {"package.json": json.dumps({"name": "widget", "repository": "github:acme/widget"})},
    {"package.json": json.dumps({"name": "widget", "repository": "acme/widget"})},
    {"package.json": json.dumps({"name": "widget", "bugs": {"url": "https://github.com/acme/widget/issues"}})},
    {"Cargo.toml": '[package]\nname = "widget"\nversion = "0.1.0"\nrepository = "https://github.com/acme/widget"\n'},
    {"Cargo.toml": '[workspace]\nmembers = ["a"]\n[workspace.package]\nhomepage = "https://github.com/acme/widget"\n'},
    {"pyproject.toml": '[project]\nname = "widget"\n[project.urls]\nSource = "https://github.com/acme/widget"\n'},
    {"pyproject.toml": '[tool.poetry]\nname = "widget"\nrepository = "https://github.com/acme/widget"\n'},
    {"widget.gemspec": 'Gem::Specification.new do |s|\n  s.name = "widget"\n'
                       '  s.homepage = "https://github.com/acme/widget"\nend\n'},
    {"widget.gemspec": 'Gem::Specification.new do |s|\n  s.metadata["source_code_uri"] = '
                       '"https://github.com/acme/widget/tree/main"\nend\n'},
    {"composer.json": json.dumps({"name": "acme/widget", "type": "library"})},
    {"composer.json": json.dumps({"name": "x/y", "support": {"source": "https://github.com/acme/widget/tree/1.x"}})},
    {"go.mod": "module github.com/acme/widget/v2\n\ngo 1.22\n"},
    {".github/workflows/reuse.yml": "on: push\njobs:\n  r:\n    uses: acme/widget/.github/workflows/lint.yml@main\n",
     ".github/workflows/lint.yml": "on: workflow_call\njobs:\n  l:\n    runs-on: ubuntu-latest\n    steps:\n"
                                   "      - run: echo lint\n"},
]
OWN = "https://raw.githubusercontent.com/acme/widget/main/tools/install.sh"
# How a step runs a raw file of the repository (the oh-my-zsh, nvm, rustup install idioms), the URL forms GitHub and
# GitLab serve it under, a ref with slashes
RUN_FORMS = ["curl -sSL {u} | bash", "curl -fsSL {u} | bash -s -- --prefix /usr/local", "wget -qO- {u} | sh",
             'sh -c "$(curl -fsSL {u})"', "bash <(curl -s {u})", "curl -o /tmp/i.sh {u} && bash /tmp/i.sh"]
URL_FORMS = ["https://raw.githubusercontent.com/acme/widget/main/{p}",
             "https://raw.githubusercontent.com/Acme/Widget/refs/heads/main/{p}",
             "https://raw.githubusercontent.com/acme/widget/${{{{ github.sha }}}}/{p}",
             "https://github.com/acme/widget/raw/main/{p}", "https://github.com/acme/widget/raw/release/2.x/{p}",
             "https://github.com/acme/widget/blob/main/{p}?raw=true"]


@each_case("manifest", MANIFESTS, ids=lambda m: next(iter(m)))
def test_a_raw_url_of_the_repository_named_by_its_manifest_runs_its_file(manifest: dict[str, str]) -> None:
    files = {**manifest, TARGET: SCRIPT}
    tree = _with_line(*BLOCK_DEFINITIONS[0], f"curl -sSL {OWN} | bash", files)
    assert TARGET in _runs(tree)


@each_case(("definition", "template"), DEFINITIONS, ids=lambda d: d if "/" in d or "." in d else "")
def test_each_run_form_of_an_own_raw_url_in_each_definition(definition: str, template: str) -> None:
    for form in RUN_FORMS:
        for url in URL_FORMS:
            line = form.format(u=url.format(p=TARGET))
            tree = _with_line(definition, template, line, {**MANIFESTS[0], TARGET: SCRIPT})
            assert TARGET in _runs(tree), (definition, line)


def test_gitlab_raw_urls_of_the_project_itself() -> None:
    manifest = {"package.json": json.dumps({"repository": "https://gitlab.com/acme/tools/widget.git"})}
    for url in ["https://gitlab.com/acme/tools/widget/-/raw/main/{p}", "https://gitlab.com/acme/tools/widget/-/raw/"
                "v1.2.0/{p}?inline=false"]:
        line = f"curl -sSL {url.format(p=TARGET)} | bash"
        tree = _with_line(*BLOCK_DEFINITIONS[1], line, {**manifest, TARGET: SCRIPT})
        assert TARGET in _runs(tree), url


# Look-alikes: another repository's file of the same path, an own URL whose path is no file of the tree, an own page
# that is not raw, a vendored package's manifest naming the repository, a homepage of no repository, no manifest, an
# echo (a comment naming a local path is read as the walk reads it: the URL is too)
NOT_OWN = [
    ({**MANIFESTS[0]}, "curl -sSL https://raw.githubusercontent.com/other/thing/main/tools/install.sh | bash"),
    ({**MANIFESTS[0]}, "curl -sSL https://raw.githubusercontent.com/acme/widget-extra/main/tools/install.sh | bash"),
    ({**MANIFESTS[0]}, "curl -sSL https://raw.githubusercontent.com/acme/widget/main/scripts/install.sh | bash"),
    ({**MANIFESTS[0]}, "curl -sSL https://github.com/acme/widget/blob/main/tools/install.sh | bash"),
    ({**MANIFESTS[0]}, "curl -sSL https://gitlab.com/acme/widget/-/raw/main/tools/install.sh | bash"),
    ({"vendor/widget/package.json": MANIFESTS[0]["package.json"]}, f"curl -sSL {OWN} | bash"),
    ({"package.json": json.dumps({"name": "widget", "homepage": "https://widget.dev"})}, f"curl -sSL {OWN} | bash"),
    ({}, f"curl -sSL {OWN} | bash"),
    ({**MANIFESTS[0]}, f'echo "install with: curl -sSL {OWN} | bash"'),
]


@each_case(("manifest", "line"), NOT_OWN)
def test_a_raw_url_of_another_repository_or_no_file_runs_no_local_file(manifest: dict[str, str], line: str) -> None:
    tree = _with_line(*BLOCK_DEFINITIONS[0], line, {**manifest, TARGET: SCRIPT})
    assert TARGET not in _runs(tree), line


def test_own_names_what_the_root_says_and_no_vendored_manifest() -> None:
    tree = {"package.json": TreeEntry("100644", "1" * 40), "vendor/x/package.json": TreeEntry("100644", "2" * 40),
            "go.mod": TreeEntry("120000", "3" * 40)}
    blobs = {"1" * 40: b'{"repository": "git@github.com:Acme/Widget.git"}',
             "2" * 40: b'{"repository": "https://github.com/other/thing"}', "3" * 40: b"module github.com/x/y\n"}
    assert selfurls.own(tree, lambda entry: blobs[entry.oid]) == {("github.com", "acme/widget")}
    assert selfurls.names_in({"package.json": "{not json", "Cargo.toml": "[package", "composer.json": "[]"}) == set()


def test_localized_is_linear_and_bounded() -> None:
    names = frozenset({("github.com", "acme/widget")})
    tree = {TARGET: object()}

    def read(text: str) -> object:
        return selfurls.localized(text, lambda: names, tree)

    unit = f"curl {OWN} | bash\ncurl https://raw.githubusercontent.com/{'a/' * 40}x.sh\n"
    assert_linear(read, repeated(unit), budget=0.5)
    long_word = "https://raw.githubusercontent.com/" + "a/" * (128 * 1024)
    assert_linear(read, lambda size: long_word[:size], budget=0.5)
    many = f"curl {OWN}\n" * (selfurls.MAX_URLS + 4)
    assert read(many).count("./tools/install.sh") == selfurls.MAX_URLS  # past the bound the URLs stay URLs


# A process manager run without naming its file runs its folder's default one
PROCFILE = {"Procfile": "web: gunicorn app:app\nworker: python tools/worker.py\n", "tools/worker.py": "print(1)\n"}
DEFAULT_RUNS = ["honcho start", "honcho start web", "foreman start", "foreman start -c web=1", "overmind start",
                "overmind s", "sudo -E honcho start", "timeout 60 foreman start", "PORT=5000 honcho start",
                "poetry run honcho start", "honcho start & sleep 5 && curl localhost:5000"]


@each_case(("definition", "template"), DEFINITIONS, ids=lambda d: d if "/" in d or "." in d else "")
def test_a_process_manager_without_a_file_runs_the_procfile(definition: str, template: str) -> None:
    for line in DEFAULT_RUNS:
        reached = _runs(_with_line(definition, template, line, dict(PROCFILE)))
        assert {"Procfile", "tools/worker.py"} <= reached, (definition, line)


@pytest.mark.parametrize(("line", "named"), [
    ("honcho start -f Procfile.ci", ["Procfile.ci"]), ("foreman start --procfile=ci/Procfile", ["ci/Procfile"]),
    ("supervisord", ["supervisord.conf", "etc/supervisord.conf"]), ("supervisord -n", ["supervisord.conf",
                                                                                       "etc/supervisord.conf"]),
    ("supervisord -c ci/sv.conf", ["ci/sv.conf"]), ("supervisord -cci/sv.conf", ["ci/sv.conf"]),
    ("honcho run python tools/x.py", []), ("honcho export systemd /etc/systemd", []), ("foreman check", []),
    ("echo honcho start", []), ("printf 'foreman start\\n'", []),
])
def test_which_file_a_process_manager_runs(line: str, named: list[str]) -> None:
    assert ciconfigs.named(line) == named


@each_case("line", ["honcho run python tools/x.py", "echo 'run: honcho start'", "# honcho start",
                    "honcho start -f Procfile.dev", "foreman export upstart /etc/init"])
def test_no_default_procfile_where_none_runs(line: str) -> None:
    reached = _runs(_with_line(*BLOCK_DEFINITIONS[0], line, dict(PROCFILE)))
    assert "Procfile" not in reached, line


# `install` with a mode of no execute bit copies data (sharkdp/bat's Debian step: `install -Dm644 "README.md"
# "${DPKG_DIR}/usr/share/doc/…"` made README.md a script, and the `src/*.rs` its usage shows `ci`); install's own mode
# (0755) and an executable one may run what they copy
INSTALL_DATA = ["install -Dm644 {f} \"$PKG/usr/share/doc/bat/{f}\"", "install -m 0644 {f} \"$PKG/doc/\"",
                "install -m644 {f} dist/", "install --mode=644 {f} dist/", "install -D -m 444 {f} dist/x",
                "install -m u=rw,go=r {f} dist/", "sudo install -Dm644 {f} /usr/share/doc/x/"]
INSTALL_RUN = ["install {f} \"$PKG/usr/bin/\"", "install -Dm755 {f} \"$PKG/usr/bin/x\"", "install -m 0755 {f} dist/",
               "install --mode=u+x {f} dist/", "install -m 644 {f} /usr/local/bin/", "install -Dm644 {f} ~/bin/x"]
README = "# widget\n\nUsage:\n\n    bat src/*.rs\n    bash tools/demo.sh\n"


@each_case(("definition", "template"), DEFINITIONS, ids=lambda d: d if "/" in d or "." in d else "")
def test_install_of_data_names_no_script(definition: str, template: str) -> None:
    files = {"README.md": README, "src/main.rs": "fn main() {}\n", "tools/demo.sh": SCRIPT, "tools/gen": SCRIPT}
    for form in INSTALL_DATA:
        reached = _runs(_with_line(definition, template, form.format(f="README.md"), files))
        assert not {"README.md", "src/main.rs", "tools/demo.sh"} & reached, (definition, form)
    for form in INSTALL_RUN:
        reached = _runs(_with_line(definition, template, form.format(f="tools/gen"), files))
        assert "tools/gen" in reached, (definition, form)


def test_install_modes_against_real_install(tmp_path: Path) -> None:
    """The truth: real `install` leaves the copy executable exactly where the reader keeps the source named."""
    (tmp_path / "src.txt").write_text("x\n")
    for index, form in enumerate(INSTALL_DATA[:6] + INSTALL_RUN[:4]):
        words = form.format(f="src.txt").replace('"$PKG/usr/share/doc/bat/src.txt"', f"out{index}/a").replace(
            '"$PKG/doc/"', f"out{index}/").replace('"$PKG/usr/bin/"', f"out{index}/").replace(
            '"$PKG/usr/bin/x"', f"out{index}/a").replace("dist/x", f"out{index}/a").replace("dist/", f"out{index}/")
        (tmp_path / f"out{index}").mkdir(exist_ok=True)
        subprocess.run(words.split(), cwd=tmp_path, check=True)
        copies = [p for p in (tmp_path / f"out{index}").rglob("*") if p.is_file()]
        assert len(copies) == 1, words
        runs = os.access(copies[0], os.X_OK)
        named = "src.txt" in named_paths("ci/package.sh", f"#!/bin/sh\n{words}\n")
        assert named == runs, (words, runs)


# `docker compose run SERVICE CMD` where the service mounts the checkout: the command's paths are the mounted folder's
COMPOSE = ("services:\n  app:\n    image: python:3.12\n    volumes:\n      - ./sub:/work\n      - cache:/root/.cache\n"
           "    working_dir: /work\n  root:\n    image: node:22\n    volumes:\n      - type: bind\n        source: .\n"
           "        target: /app\n    working_dir: /app/web\n  image:\n    image: acme/tools:1\n"
           "  named:\n    image: python\n    volumes:\n      - data:/work\n    working_dir: /work\n"
           "volumes:\n  cache: {}\n  data: {}\n")
COMPOSE_TREE = {"docker-compose.yml": COMPOSE, "sub/gen": SCRIPT, "sub/ci/check.py": "print(1)\n", "web/build": SCRIPT,
                "ci/run-tests": SCRIPT, "gen": SCRIPT}
COMPOSE_RUNS = [("docker compose run app ./gen", "sub/gen"), ("docker compose run --rm -T app ./gen", "sub/gen"),
                ("docker-compose run -e CI=1 app python ci/check.py", "sub/ci/check.py"),
                ("docker compose exec -T app /work/gen", "sub/gen"), ("podman-compose run app ./gen", "sub/gen"),
                ("docker compose -f docker-compose.yml run app ./gen", "sub/gen"),
                ("docker compose run root ./build", "web/build"), ("docker compose run root /app/ci/run-tests",
                                                                   "ci/run-tests"),
                ("sudo docker compose run --rm root sh -c ../ci/run-tests", "ci/run-tests")]


@each_case(("definition", "template"), DEFINITIONS, ids=lambda d: d if "/" in d or "." in d else "")
def test_a_compose_run_of_a_mounted_service_runs_the_mounted_folders_file(definition: str, template: str) -> None:
    for line, target in COMPOSE_RUNS:
        reached = _runs(_with_line(definition, template, line, dict(COMPOSE_TREE)))
        assert target in reached, (definition, line)


# The image's own files: a service without a checkout mount, a named volume, another subcommand, an echo, a path
# outside the mount, a service the file does not define
@each_case("line", ["docker compose run image ./gen", "docker compose run named ./gen", "docker compose build app",
                    "docker compose up -d app", "echo docker compose run app ./gen", "docker compose run app /opt/gen",
                    "docker compose run other ./gen"])
def test_a_compose_run_of_the_images_files_names_none_of_the_subfolder(line: str) -> None:
    reached = _runs(_with_line(*BLOCK_DEFINITIONS[0], line, dict(COMPOSE_TREE)))
    assert "sub/gen" not in reached, line


def test_a_compose_files_mounts_are_read_from_its_folder() -> None:
    tree = {"ci/compose.yml": "services:\n  t:\n    image: x\n    volumes: ['./tools:/t', '../:/src']\n"
                              "    working_dir: /t\n", "ci/tools/gen": SCRIPT, "tools/gen": SCRIPT, "x/y": SCRIPT}
    reached = _runs(_with_line(*BLOCK_DEFINITIONS[0], "docker compose -f ci/compose.yml run t ./gen", tree))
    assert "ci/tools/gen" in reached and "tools/gen" not in reached
    assert composeruns.services_in("services: [") == {} and composeruns.services_in("x" * (1 << 20)) == {}


def test_a_mount_through_a_merge_key_is_the_service_s() -> None:
    """Compose reads a service's keys through `<<: *defaults` (PyYAML's loader did too): the mount and working_dir an
    anchor holds are the service's, its own working_dir first."""
    text = ("x-app: &app\n  volumes: ['.:/app']\n  working_dir: /app/tools\nx-more: &more\n  volumes: ['./ci:/ci']\n"
            "services:\n  web:\n    <<: [*app, *more]\n    image: python:3\n"
            "  own:\n    <<: *app\n    working_dir: /app\n  bare:\n    image: python:3\n")
    assert composeruns.services_in(text) == {"web": (((".", "/app"), ("ci", "/ci")), "/app/tools", (), ()),
                                              "own": (((".", "/app"),), "/app", (), ())}


def test_compose_localized_is_linear_and_bounded() -> None:
    tree = {"docker-compose.yml": TreeEntry("100644", "1" * 40)}

    def read(text: str) -> object:
        return composeruns.localized(text, tree, lambda entry: COMPOSE.encode())

    unit = "docker compose run --rm app ./gen a b c\ncompose x run \n"
    assert_linear(read, repeated(unit), budget=0.5)
    assert read(unit * 1024).count("# ./sub/gen") == composeruns.MAX_LINES


# A project of the tree pip installs, then its pytest plugin: what CI installs from the checkout and loads
PLUGIN_PACKAGING = [
    ("pyproject.toml", '[project]\nname = "acme-plugin"\n[project.entry-points.pytest11]\n'
                       'acme = "acme_plugin.plugin"\n'),
    ("setup.py", 'from setuptools import setup\nsetup(name="acme-plugin", '
                 'entry_points={"pytest11": ["acme = acme_plugin.plugin"]})\n'),
    ("setup.cfg", "[metadata]\nname = acme-plugin\n[options.entry_points]\npytest11 =\n"
                  "    acme = acme_plugin.plugin\n"),
]
PLUGIN_INSTALLS = ["pip install -e ./tools/plugin && pytest", "pip install ./tools/plugin\npytest tests",
                   "python -m pip install -e tools/plugin[test] && python -m pytest",
                   "uv pip install -e ./tools/plugin",
                   "pip install -q -e ./tools/plugin -r requirements.txt"]


@each_case(("definition", "template"), DEFINITIONS, ids=lambda d: d if "/" in d or "." in d else "")
def test_a_project_ci_installs_from_the_tree_loads_its_plugin(definition: str, template: str) -> None:
    for name, packaging in PLUGIN_PACKAGING:
        for line in PLUGIN_INSTALLS:
            files = {f"tools/plugin/{name}": packaging, "tools/plugin/acme_plugin/__init__.py": "",
                     "tools/plugin/acme_plugin/plugin.py": "def pytest_configure(config):\n    pass\n"}
            indent = template.partition("{line}")[0].rpartition("\n")[2]
            reached = _runs(_with_line(definition, template, line.replace("\n", "\n" + indent), files))
            assert {f"tools/plugin/{name}", "tools/plugin/acme_plugin/plugin.py"} <= reached, (definition, name, line)


@each_case("line", ["pip install -e .", "pip install -r tools/plugin/requirements.txt", "pip install acme-plugin",
                    "pip install ./dist/acme_plugin-1.0-py3-none-any.whl", "echo see tools/plugin"])
def test_an_install_of_no_project_of_the_tree_loads_none(line: str) -> None:
    files = {"tools/plugin/pyproject.toml": PLUGIN_PACKAGING[0][1], "tools/plugin/acme_plugin/plugin.py": "x = 1\n",
             "tools/plugin/requirements.txt": "pytest\n"}
    assert "tools/plugin/acme_plugin/plugin.py" not in _runs(_with_line(*BLOCK_DEFINITIONS[0], line, files)), line
