"""Other vs src 1 (issue 12): settings, state and tool files the classifier called `src` (docs/classification.md, "Other
vs src 1"), with the look-alikes that must keep their bucket.

- Settings of servers an image or an installer puts in place, by the names and folders only those servers read
  (principle 8): nginx outside a `docker/` folder (cinnabar's `nginx/config/nginxconfig.io/security.conf`,
  redisfi's root `nginx.conf`, oma-opiskelijavalinta's `nginx.dev.conf`, 40swap's `nginx.conf.template`, mritd's
  `nginx-singlepage/singlepage.conf`, vouch-proxy's `examples/OpenResty/conf.d/*.conf`), PHP's ini files in a `php/`
  folder (webstackup's `config/php/no-exec.ini`), Postfix (`config/postfix/main.cf_extras.conf`), pgbouncer's user
  list (pgx's `testsetup/pgbouncer-userlist.txt`), an httpd password file an image copies in (`htpasswd`), cron tables
  (`crontab`, `cron.d/*`): `other.server-settings`.
- Tool state committed by mistake (TypeScript's `*.tsbuildinfo`, coverage.py's `.coverage`, ESLint's `.eslintcache`)
  and the settings of developer and build-check tools no rule named (Diesel's `diesel.toml`, Invoke's `invoke.yaml`,
  run-pty's `run-pty.json`, VS Code CMake Tools' `cmake-variants.yaml`, Notation's `.notation/`, Semantic UI's
  `semantic.json`, OpenSpec's `openspec/config.yaml`, .NET package validation's `CompatibilitySuppressions.xml` and
  `ApiCompatBaseline.txt`): `other.tool-state-and-settings`.

Both rules are weak (weakrules.py) and come last, just before the catch-all: a file an earlier rule names keeps that
rule, and a marker, reader or content that makes the catch-all's file `ci` or `iac` (a kustomization's
configMapGenerator, a role that copies it, a Dockerfile CI builds) makes theirs so too. The same settings inside a test
tree are a test's input: `src.test-settings`, weak as well.
"""

from __future__ import annotations

from pathlib import Path

from cpucost import assert_linear, least_cpu
from tables import each_case

from gatekeeper.classify.servershapes import server_settings
from tests.gitrepo import GitRepo
from tests.test_classify_context import assert_path_rule, patch_files, tree_files

NGINX = """server {
    listen 80;
    server_name _;
    root /usr/share/nginx/html;
    location / {
        try_files $uri $uri/ /index.html;
    }
}
"""

SERVER_SETTINGS = [
    # nginx: by name, in an nginx folder, in conf.d/ and sites-*/ folders, the official image's templates
    "nginx.conf", "nginx/nginx.conf", "nginx.dev.conf", "web/nginx.prod.conf", "proxy/nginx-ssl.conf",
    "frontend/nginx_default.conf", "nginx/config/nginxconfig.io/letsencrypt.conf",
    "nginx/config/nginxconfig.io/security.conf", "bitwarden-lite/nginx/security-headers.conf",
    "swap-frontend/docker/nginx.conf.template", "web/nginx/templates/default.conf.template",
    "nginx-singlepage/singlepage.conf", "scripts/nginx-frontend-proxy/site.conf",
    "examples/OpenResty/conf.d/vouch.yourdomain.com.conf", "nginx/conf.d/default.conf", "conf.d/app.conf",
    "etc/nginx/sites-available/default", "config/sites-enabled/app.conf", "maintenance_page/nginx.conf",
    # PHP, php-fpm, Postfix, pgbouncer, Redis, Mosquitto, httpd passwords, cron tables
    "config/php/no-exec.ini", "config/php/php-local.ini", "docker/php/8.2/custom.ini", "php-fpm.conf",
    "php/php-fpm.d/www.conf", "config/postfix/main.cf_extras.conf", "postfix/main.cf", "main.cf", "master.cf",
    "testsetup/pgbouncer-userlist.txt", "pgbouncer/userlist.txt", "pgbouncer.ini", "redis.conf",
    "dockers/sentinel.conf",
    "examples/mqtt/mosquitto_config/mosquitto.conf", "docker/httpd-basic-auth/htpasswd", "auth/.htpasswd",
    "crontab", "docker/crontab", "config/app.crontab", "etc/cron.d/backup", "config/freshrss/cron",
]


@each_case("path", SERVER_SETTINGS)
def test_server_settings_are_other(path: str) -> None:
    assert_path_rule(path, "other", None)


TOOL_FILES = [
    "docs/tsconfig.tsbuildinfo", "packages/web/tsconfig.app.tsbuildinfo", "service2/tests/.coverage", ".coverage",
    ".eslintcache", "web/.stylelintcache", "domain/diesel.toml", "diesel.toml", "invoke.yaml", "ops/invoke.yml",
    "run-pty.json", "cmake-variants.yaml", "cmake-variants.json", ".notation/trustpolicy.json",
    ".notation/signingkeys.json", "semantic.json", "openspec/config.yaml",
    "openspec/changes/configure-retention/.openspec.yaml", "src/FluentValidation/CompatibilitySuppressions.xml",
    "src/AutoMapper/ApiCompatBaseline.txt", "src/Lib/ApiCompatBaseline.net6.0.txt",
]


@each_case("path", TOOL_FILES)
def test_tool_state_and_settings_are_other(path: str) -> None:
    assert_path_rule(path, "other", "other.tool-state-and-settings")


@each_case(("path", "bucket"), [
    # code is never other, whatever its folder or name
    ("internal/nginx/config.go", "src"), ("nginx/reload.sh", "src"), ("pkg/nginx/nginx.conf.go", "src"),
    ("lib/cron/scheduler.py", "src"), ("cron/handler.js", "src"), ("src/crontab.txt", "src"),
    ("php/index.php", "src"), ("src/redis.rs", "src"), ("diesel/src/lib.rs", "src"), ("invoke/tasks.py", "src"),
    ("tasks.py", "src"), ("semantic/gulpfile.js", "src"), ("openspec/specs/auth/spec.md", "src"),
    ("src/coverage.ts", "src"), ("lib/tsbuildinfo.ts", "src"), ("docs/nginx.md", "src"),
    # a test's input stays a test's input
    ("tests/dnfserver/nginx.conf", "src"), ("tests/git-webserver/nginx.conf", "src"),
    ("test/tests/eclipse-mosquitto-basics/mosquitto.conf", "src"), ("spec/fixtures/php/app.ini", "src"),
    ("t/lib-httpd/apache.conf", "src"), ("testdata/nginx.conf", "src"),
    # earlier rules keep theirs: CI folders, infrastructure folders, roles, charts, cookbooks, generator templates
    (".github/nginx/nginx.conf", "ci"), ("ci/nginx.conf", "ci"), (".circleci/crontab", "ci"),
    ("deploy/nginx/nginx.conf", "iac"), ("k8s/nginx/nginx.conf", "iac"), ("charts/web/files/nginx.conf", "iac"),
    ("roles/web/templates/nginx.conf.j2", "iac"), ("roles/web/files/nginx.conf", "iac"),
    ("cookbooks/web/files/default/nginx.conf", "iac"), ("infra/diesel.toml", "iac"),
    ("{{cookiecutter.project_slug}}/compose/production/nginx/default.conf", "src"),
    ("docker/nginx.conf", "other"), ("docker/php/conf.d/xdebug.ini", "other"),
])
def test_look_alikes_keep_their_bucket(path: str, bucket: str) -> None:
    assert_path_rule(path, bucket, None)


def test_a_kustomizations_nginx_conf_stays_iac(git_repo: GitRepo, tmp_path: Path) -> None:
    """A kustomization's configMapGenerator ships `proxy/nginx.conf` to the cluster: the weak rule yields to that claim
    with the commits, and a Dockerfile-less folder's copy is other both ways."""
    git_repo.write("proxy/kustomization.yaml",
                   "resources: [deployment.yaml]\nconfigMapGenerator:\n  - name: nginx\n    files: [nginx.conf]\n")
    git_repo.write("proxy/deployment.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: nginx\n")
    git_repo.write("proxy/nginx.conf", NGINX)
    git_repo.write("site/nginx.conf", NGINX)
    git_repo.commit("base")
    git_repo.write("proxy/nginx.conf", NGINX.replace("80", "8080"))
    git_repo.write("site/nginx.conf", NGINX.replace("80", "8080"))
    git_repo.commit("head")
    tree = tree_files(git_repo)
    assert (tree["proxy/nginx.conf"].bucket, tree["site/nginx.conf"].bucket) == ("iac", "other")
    patch = patch_files(git_repo, tmp_path)
    assert patch["site/nginx.conf"].bucket == "other"
    assert patch["proxy/nginx.conf"].bucket in ("other", "iac")


def test_a_playbooks_crontab_stays_iac(git_repo: GitRepo) -> None:
    """A playbook copies `files/crontab` onto the hosts: what a deploy installs is iac with the commits."""
    git_repo.write("site.yml", "---\n- hosts: all\n  tasks:\n    - name: cron\n      copy:\n"
                               "        src: files/crontab\n        dest: /etc/cron.d/app\n")
    git_repo.write("files/crontab", "0 3 * * * root /usr/local/bin/backup\n")
    git_repo.commit("base")
    git_repo.write("files/crontab", "0 4 * * * root /usr/local/bin/backup\n")
    git_repo.commit("head")
    assert tree_files(git_repo)["files/crontab"].bucket == "iac"


SNIPPET = """add_header X-Frame-Options "SAMEORIGIN" always;
add_header X-Content-Type-Options "nosniff" always;
add_header Referrer-Policy "no-referrer-when-downgrade" always;
"""
OPENRESTY = """upstream vouch {
    server 127.0.0.1:9090;
}
server {
    listen 443 ssl http2;
    server_name app.yourdomain.com;
    ssl_certificate /etc/letsencrypt/live/app/fullchain.pem;
    location = /validate {
        proxy_pass http://vouch;
        proxy_set_header Host $http_host;
    }
}
"""
NGINX_FORMS = [NGINX, SNIPPET, OPENRESTY, NGINX.replace("    ", "\t"),
               "events {\n  worker_connections 1024;\n}\n"
               "http {\n  sendfile on;\n  include /etc/nginx/conf.d/*.conf;\n}\n",
               "location /api/ {\n  proxy_pass http://backend:8080/;\n}\n"]
NGINX_NAMES = ["singlepage.conf", "examples/site/vouch.example.com.conf", "google_cloud/x/files/default.template.conf",
               "web/rootfs/defaults/ssl.conf", "Utilities/Example_Nginx_Config.txt", "proxy/default.conf.tmpl"]
NOT_NGINX = [
    ("app.conf", "example.com {\n    reverse_proxy localhost:8080\n}\n"),                        # Caddy
    ("site.conf", "<VirtualHost *:80>\n  ServerName x\n  DocumentRoot /var/www\n</VirtualHost>\n"),  # Apache
    ("logstash.conf", "input {\n  beats {\n    port => 5044\n  }\n}\n"),                           # Logstash
    ("agent.conf", "server {\n  enabled = true\n  bootstrap_expect = 3\n}\n"),                      # Nomad/Consul HCL
    ("theme.conf", "[theme]\ninherit = basic\nstylesheet = flasky.css\n"),                         # Sphinx INI
    ("prj.conf", "CONFIG_GPIO=y\nCONFIG_SERIAL=y\n"),                                             # Zephyr Kconfig
    ("notes.txt", "The server { block } sets listen; see the docs.\nreturn early;\n"),           # prose
    ("code.conf", "int main() {\n  return 0;\n}\n"),
]


@each_case("text", NGINX_FORMS)
@each_case("path", NGINX_NAMES)
def test_nginx_settings_under_any_name_are_other_by_content(git_repo: GitRepo, path: str, text: str) -> None:
    git_repo.write("README.md", "# site\n")
    git_repo.write(path, "# settings\n")
    git_repo.commit("base")
    git_repo.write(path, text)
    git_repo.commit("head")
    found = tree_files(git_repo)[path]
    assert (found.bucket, found.rule) == ("other", "other.content.nginx-config"), found


@each_case(("path", "text"), NOT_NGINX)
def test_look_alikes_of_nginx_settings_stay_src(git_repo: GitRepo, path: str, text: str) -> None:
    git_repo.write("README.md", "# site\n")
    git_repo.write(path, "# settings\n")
    git_repo.commit("base")
    git_repo.write(path, text)
    git_repo.commit("head")
    assert tree_files(git_repo)[path].bucket == "src"


def test_nginx_content_does_not_lower_a_deployed_copy_or_a_test_input(git_repo: GitRepo) -> None:
    """A kustomization ships `web/site.conf`: iac with the commits, whatever nginx's grammar says; a test tree's copy
    stays a test's input; a cookiecutter template stays a template."""
    git_repo.write("web/kustomization.yaml", "configMapGenerator:\n  - name: site\n    files: [site.conf]\n")
    for path in ("web/site.conf", "tests/server/site.conf", "{{cookiecutter.slug}}/nginx/default.conf"):
        git_repo.write(path, "# settings\n")
    git_repo.commit("base")
    for path in ("web/site.conf", "tests/server/site.conf", "{{cookiecutter.slug}}/nginx/default.conf"):
        git_repo.write(path, OPENRESTY)
    git_repo.commit("head")
    tree = tree_files(git_repo)
    assert [tree[p].bucket for p in ("web/site.conf", "tests/server/site.conf",
                                      "{{cookiecutter.slug}}/nginx/default.conf")] == ["iac", "src", "src"]


@each_case(("head", "filler"), [("listen", " "), ("proxy_set_header", "\t"), ("location ", " "), ("server", " "),
                                ("upstream ", "a"), ("location /", "x")])
def test_a_hostile_line_is_read_in_linear_time(head: str, filler: str) -> None:
    """The census' shapes (bench/bench_pattern_cost.py --only servershapes): a directive's name and a run of blanks
    that both the blanks and the value could read cost 37 ms at 4 KiB before the value had to start with a non-blank."""
    def line(kib: int) -> str:
        return "server {\n" + head + filler * (kib * 1024) + "\n"

    assert least_cpu(lambda text: server_settings("x.conf", text), line(8), under=0.05) < 0.05
    assert_linear(lambda text: server_settings("x.conf", text), lambda size: line(size // 1024), budget=0.25)
