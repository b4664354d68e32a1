"""The classes of misses the seventy-second label set showed (bench/classify_accuracy/seventysecond.tsv: 28 ordinary
applications that deploy themselves, fetched for it, measured blind first), with the look-alikes they must leave alone.

- Package-manager settings a configuration-management tool installs on a machine. BergclubBern's Vagrant provisioning
  keeps `provision/playbooks/templates/.npmrc`, which `provision/playbooks/commands.yml` copies to the guest's home
  (`template: src=templates/.npmrc`); an Ansible role keeps the same in `roles/<role>/files/` or `templates/`, a Salt
  state in `files/`, a Chef cookbook in `files/default/`. By name they were `deps` (`deps.npm.settings`), and the name
  rule outranked the playbook's marker, so with the commits too the file a deploy copies was `deps`. Now such a file in
  a `files/` or `templates/` folder is `deps.installed-settings`, a weak rule: where a marker or reader says the folder
  is deployed (an Ansible playbook, role or Salt state), it is `iac`; otherwise it stays `deps`, as before. Never
  lowered: the bucket from the paths alone is unchanged.
- Settings of tools, by their names only those tools read (principle 8, `other`): Alembic's `alembic.ini` (the
  migration tool's settings beside a service's migrations; 5 of the sets' 7 rows label it `other`) and gitleaks'
  settings kept in a `.gitleaks/` folder (MoJ's HMPPS template: `.gitleaks/config.toml`, which its pre-commit hook
  points gitleaks at; the dotted `.gitleaks.toml` and `gitleaks.toml` were `other` already). The folder also carries the
  scanners' `guardrail` tag, as the other gitleaks names do.
- 3D models and CAD files (Fusion 360's `.f3d`, `.stl`, `.3mf`, FreeCAD's `.fcstd`, Blender's `.blend`, `.glb`,
  `.fbx`) are binary assets, as images are: jrm.cc's `underseat-tray.f3d` was `src`.
  These three share one rule, `other.tool-settings-and-models`, placed after the infrastructure folders
  (`iac.folders`), so that no file a folder made `iac` (`deploy/alembic.ini`) is lowered.
"""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from tests.gitrepo import GitRepo
from tests.test_classify_context import RULES, assert_path_rule, patch_files, tree_files

SETTINGS = [".npmrc", ".yarnrc", ".yarnrc.yml", ".bowerrc", ".pypirc", ".gemrc", ".condarc"]
FOLDERS = ["provision/playbooks/templates/", "roles/node/files/", "roles/node/templates/", "ansible/roles/web/files/",
           "playbooks/files/", "salt/nodejs/files/", "cookbooks/node/files/default/", "templates/", "files/"]


@each_case("folder", FOLDERS)
@each_case("name", SETTINGS)
def test_package_manager_settings_in_a_deploy_folder_are_weak_deps(folder: str, name: str) -> None:
    assert_path_rule(folder + name, "deps", "deps.installed-settings")


@each_case(("path", "bucket", "rule"), [
    (".npmrc", "deps", "deps.npm.settings"),                       # the repository's own settings
    ("frontend/.npmrc", "deps", "deps.npm.settings"),
    (".yarnrc.yml", "deps", "deps.npm.settings"),
    (".pypirc", "deps", "deps.pip.settings"),
    ("web/.gemrc", "deps", "deps.bundler.settings"),
    ("generators/app/templates/.npmrc", "src", "docs.templates"),  # what a generator writes into new projects
    ("templates/npmrc.md", "src", None),
    ("files/package.json", "deps", "deps.npm.manifest"),           # a manifest is not taken
    (".circleci/templates/.npmrc", "ci", None),                    # a CI folder decides first
    ("test/fixtures/files/.npmrc", "src", None),                   # test data, as before
    ("vendor/github.com/x/y/files/.npmrc", "deps", None),
])
def test_package_manager_settings_look_alikes_keep_their_rule(path: str, bucket: str, rule: str | None) -> None:
    assert_path_rule(path, bucket, rule)


PLAYBOOK = """---
- hosts: all
  tasks:
    - name: Place a ~/.npmrc
      template:
        src: templates/.npmrc
        dest: "{{ ansible_env.HOME }}/.npmrc"
"""


def test_a_playbooks_templates_npmrc_is_iac_with_the_commits(git_repo: GitRepo, tmp_path: Path) -> None:
    """BergclubBern's shape: the Vagrant provisioning's playbook copies templates/.npmrc to the guest: what the deploy
    installs is iac with the commits (the playbook's marker), and never lower than deps from a patch alone."""
    git_repo.write("Vagrantfile", "Vagrant.configure(2) do |config|\n  config.vm.box = \"ubuntu\"\nend\n")
    git_repo.write("provision/playbook.yml", "---\n- import_playbook: playbooks/commands.yml\n")
    git_repo.write("provision/playbooks/commands.yml", PLAYBOOK)
    git_repo.write("provision/playbooks/templates/.npmrc", "prefix = ${HOME}/.npm-packages\n")
    git_repo.commit("base")
    git_repo.write("provision/playbooks/templates/.npmrc", "prefix = ${HOME}/.npm-packages\nregistry = https://x\n")
    git_repo.commit("head")
    assert tree_files(git_repo)["provision/playbooks/templates/.npmrc"].bucket == "iac"
    assert patch_files(git_repo, tmp_path)["provision/playbooks/templates/.npmrc"].bucket in ("deps", "iac")


def test_a_roles_files_npmrc_is_iac_with_the_commits(git_repo: GitRepo) -> None:
    git_repo.write("roles/node/tasks/main.yml",
                   "---\n- name: npmrc\n  copy:\n    src: .npmrc\n    dest: /root/.npmrc\n")
    git_repo.write("roles/node/files/.npmrc", "registry = https://registry.npmjs.org/\n")
    git_repo.commit("base")
    git_repo.write("roles/node/files/.npmrc", "registry = https://npm.example.invalid/\n")
    git_repo.commit("head")
    assert tree_files(git_repo)["roles/node/files/.npmrc"].bucket == "iac"


def test_a_templates_npmrc_without_a_deploy_stays_deps(git_repo: GitRepo, tmp_path: Path) -> None:
    """No playbook, role or state claims the folder: the weak rule's deps stands, with the commits and from a patch."""
    git_repo.write("README.md", "# app\n")
    git_repo.write("templates/.npmrc", "save-exact = true\n")
    git_repo.commit("base")
    git_repo.write("templates/.npmrc", "save-exact = false\n")
    git_repo.commit("head")
    for found in (tree_files(git_repo), patch_files(git_repo, tmp_path)):
        assert (found["templates/.npmrc"].bucket, found["templates/.npmrc"].rule) == ("deps", "deps.installed-settings")


@each_case("path", ["alembic.ini", "migrations/alembic.ini", "api/migrations/alembic.ini", "backend/alembic.ini",
                    "ALEMBIC.INI"])
def test_alembic_settings_are_other(path: str) -> None:
    assert_path_rule(path, "other", "other.tool-settings-and-models")


@each_case("path", [".gitleaks/config.toml", ".gitleaks/gitleaks.toml", "services/api/.gitleaks/config.toml"])
def test_gitleaks_settings_folder_is_other_and_a_guardrail(path: str) -> None:
    match = RULES.match(path)
    assert match.bucket == "other", match
    assert "guardrail" in match.tags, match


@each_case("path", ["jrmcc/content/projects/talaria/under-seat-compartment/underseat-tray.f3d", "models/part.stl",
                    "print/bracket.3mf", "cad/enclosure.FCStd", "assets/scene.blend", "public/models/ship.glb",
                    "assets/char.fbx"])
def test_cad_and_3d_models_are_binary_assets(path: str) -> None:
    assert_path_rule(path, "other", "other.tool-settings-and-models")


@each_case(("path", "bucket"), [
    ("alembic/env.py", "src"), ("alembic.ini.j2", "src"), ("docs/alembic.md", "src"),
    ("src/stl_reader.cpp", "src"), ("src/stl.rs", "src"), ("lib/gltf/loader.ts", "src"),
    ("docs/gitleaks.md", "src"), ("src/gitleaks/config.go", "src"),
    ("bin/.gitleaks/gitleaks", "src"), ("bin/.gitleaks/yp-gitleaks", "src"),  # yplatform's wrapper scripts: code
    (".github/.gitleaks/config.toml", "ci"),                      # a CI folder decides first
    ("deploy/alembic.ini", "iac"),                                 # the infrastructure folders are not lowered
    ("infra/models/part.stl", "iac"), ("deploy/.gitleaks/config.toml", "iac"),
    ("roles/db/templates/alembic.ini.j2", "iac"),                  # a role's template of one is iac
])
def test_other_look_alikes_keep_their_bucket(path: str, bucket: str) -> None:
    assert_path_rule(path, bucket, None)
