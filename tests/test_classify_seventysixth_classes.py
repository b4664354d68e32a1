"""The classes of misses the seventy-sixth label set showed (bench/classify_accuracy/seventysixth.tsv: 31 ordinary
applications that deploy themselves, fetched for it, measured blind first), with the look-alikes they must leave alone.

- The branch-to-stack map of Pulumi's GitHub Action, `.pulumi/ci.json` (BCC-Media's speech-to-text): pulumi/actions
  reads `$ROOT/.pulumi/ci.json` (or `.pulumi/ci.json` in `PULUMI_ROOT`) and runs `pulumi stack select` with the stack
  the pushed branch maps to, so the file decides which stack a CI job updates. It was `src` (`infra/.pulumi/ci.json`
  `iac` by its folder); now `ci` at any depth (`ci.pulumi-action-stacks`).
- Apache httpd's settings in a `docker/` folder (NCI's CEDCD: `docker/httpd-cedcd.conf`, which the frontend image
  copies into `/etc/httpd/conf.d/`): a server's settings baked into an image, `other` as nginx's and supervisord's in
  a `docker/` folder already were (`other.app-server-settings`, the forty-seventh set). Only in a `docker/` or
  `.docker/` folder: a test's `t/lib-httpd/apache.conf` stays `src`, a role's or chart's template stays `iac`.
- Governance and tool-settings files in a top-level `ansible/` folder (`ansible/roles/git/.gitignore` of a role
  vendored into 404mike's provisioning): what they are everywhere else, as in `deploy/` or `charts/`. The folder glob
  `/ansible/**` moves from `iac.ansible` (before the governance rules) to `iac.folders` (after them, with the other
  top-level infrastructure folders); every playbook, role, inventory and variable file below it keeps `iac` by the
  Ansible names or the folder, and with the commits by the Ansible markers.
"""

from __future__ import annotations

from tables import each_case

from tests.test_classify_context import assert_path_rule


@each_case(("path", "bucket", "rule"), [
    (".pulumi/ci.json", "ci", "ci.pulumi-action-stacks"),
    ("infra/.pulumi/ci.json", "ci", "ci.pulumi-action-stacks"),
    ("services/api/.pulumi/ci.json", "ci", "ci.pulumi-action-stacks"),
    # look-alikes: other JSON named ci, Pulumi's own project files
    ("ci.json", "src", None),
    ("config/ci.json", "src", None),
    ("pulumi/ci.json", "iac", "iac.folders"),
    (".pulumi/settings.json", "src", None),
    ("infra/Pulumi.yaml", "iac", None),
    # test-data context lowers deps only, never ci or iac (issue 12 item 6)
    ("test/fixtures/.pulumi/ci.json", "ci", "ci.pulumi-action-stacks"),
])
def test_the_pulumi_actions_branch_to_stack_map_is_ci(path: str, bucket: str, rule: str | None) -> None:
    assert_path_rule(path, bucket, rule)


@each_case(("path", "bucket", "rule"), [
    ("docker/httpd-cedcd.conf", "other", "other.app-server-settings"),
    ("docker/httpd.conf", "other", "other.app-server-settings"),
    ("docker/frontend/apache-vhost.conf", "other", "other.app-server-settings"),
    ("web/.docker/httpd.conf", "other", "other.app-server-settings"),
    ("docker/apache2.conf", "other", "other.app-server-settings"),
    # look-alikes: a test's Apache settings, a role's and a chart's templates, other docker/ files
    ("t/lib-httpd/apache.conf", "src", None),
    ("roles/web/templates/httpd.conf", "iac", None),
    ("roles/web/files/docker/httpd.conf", "iac", None),
    ("charts/web/files/httpd.conf", "iac", None),
    ("docker/Dockerfile", "iac", None),
    ("docker/entrypoint.sh", "src", None),
    ("docker/app.conf", "src", None),
    (".github/docker/httpd.conf", "ci", None),
])
def test_apache_settings_in_a_docker_folder_are_other(path: str, bucket: str, rule: str | None) -> None:
    assert_path_rule(path, bucket, rule)


@each_case(("path", "bucket", "rule"), [
    ("ansible/roles/git/.gitignore", "other", "other.governance"),
    ("ansible/.gitignore", "other", "other.governance"),
    ("ansible/LICENSE", "other", "other.governance"),
    ("ansible/roles/java/LICENSE", "other", "other.governance"),
    ("ansible/.ansible-lint", "other", None),
    ("ansible/.editorconfig", "other", None),
    # the Ansible files below it keep iac
    ("ansible/playbook.yml", "iac", None),
    ("ansible/ansible_hosts", "iac", "iac.folders"),
    ("ansible/roles/solr/tests/test-solr-4x.yml", "iac", None),
    ("ansible/roles/java/tests/inventory", "iac", None),
    ("ansible/roles/elasticsearch/files/elasticsearch.repo", "iac", None),
    ("ansible/vars/app.yml", "iac", None),
    ("ansible/group_vars/all.yml", "iac", None),
    ("ansible/files/gonny-spreader.service", "iac", None),
    ("ansible/site.yml", "iac", None),
    ("ansible/deploy_keys/jamie.pub", "iac", "iac.folders"),
    ("ansible/roles/web/templates/nginx.conf.j2", "iac", None),
    ("ansible/inventory/hosts", "iac", None),
    ("ansible/ansible.cfg", "iac", None),
    ("ansible/requirements.yml", "deps", None),
    ("ansible/README.md", "src", None),
])
def test_governance_files_in_an_ansible_folder_are_what_they_are_elsewhere(path: str, bucket: str,
                                                                           rule: str | None) -> None:
    assert_path_rule(path, bucket, rule)
