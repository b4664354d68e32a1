"""Classes of misses the forty-ninth label set showed (bench/classify_accuracy/fortyninth.tsv), one test each: App
Engine deploy descriptors and Cloud Endpoints service configurations outside the repository's root (a samples
repository keeps one per sample folder), and the systemd units a Compose service bind-mounts where systemd loads
them (an example cluster's k3s nodes)."""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from gatekeeper.classify.sniff import sniff
from tests.gitrepo import GitRepo
from tests.test_classify_context import RULES, patch_files, tree_files

# GoogleCloudPlatform/golang-samples' shapes: a flexible-environment app and a standard one, each in its sample folder
_FLEX = "runtime: go\nenv: flex\n\nautomatic_scaling:\n  min_num_instances: 1\n\nenv_variables:\n  BUCKET: b\n"
_STANDARD = "runtime: python312\ninstance_class: F2\nhandlers:\n- url: /static\n  static_dir: static\n"
_ENTRYPOINT = "runtime: 'nodejs20'  # the Node.js runtime\r\nentrypoint: node server.js\r\n"
_ENDPOINTS = ("type: google.api.Service\nconfig_version: 3\nname: hellogrpc.endpoints.YOUR_PROJECT_ID.cloud.goog\n"
              "title: Hello gRPC API\napis:\n- name: helloworld.Greeter\n")


@each_case(("path", "text", "rule"), [
    ("appengine_flexible/storage/app.yaml", _FLEX, "iac.content.app-engine"),
    ("services/web/app.yml", _STANDARD, "iac.content.app-engine"),
    ("deploy/frontend.yaml", _ENTRYPOINT, "iac.content.app-engine"),
    ("endpoints/getting-started-grpc/api_config.yaml", _ENDPOINTS, "iac.content.endpoints-service"),
    ("api/service.yaml", _ENDPOINTS.replace("hellogrpc.endpoints.YOUR_PROJECT_ID.cloud.goog", "'echo.appspot.com'"),
     "iac.content.endpoints-service"),
])
def test_app_engine_and_endpoints_descriptors_in_any_folder(path: str, text: str, rule: str) -> None:
    signal = sniff(path, text.encode(), RULES.context)
    assert signal is not None and (signal.bucket, signal.rule) == ("iac", rule), signal


@each_case(("path", "text"), [
    # a runtime alone says nothing of the platform; a Lambda's runtime has a dot; a nested runtime is another file's
    ("config/app.yaml", "runtime: go\nname: api\nport: 8080\n"),
    ("functions/app.yaml", "runtime: python3.12\nhandler: app.handler\nmemory: 256\n"),
    ("settings.yaml", "provider:\n  runtime: nodejs20\nhandlers:\n  console: {}\n"),
    # a Python logging configuration: handlers without a runtime
    ("logging.yaml", "version: 1\nhandlers:\n  console:\n    class: logging.StreamHandler\n"),
    # a runtime that is no App Engine runtime beside an entrypoint
    ("tool.yaml", "runtime: deno\nentrypoint: main.ts\n"),
    # Google's own API definitions (googleapis): a google.api.Service naming a googleapis.com service
    ("google/pubsub/v1/pubsub_v1.yaml", _ENDPOINTS.replace(
        "hellogrpc.endpoints.YOUR_PROJECT_ID.cloud.goog", "pubsub.googleapis.com")),
    # an OpenAPI document naming an Endpoints host is an API definition
    ("openapi.yaml", "swagger: '2.0'\nhost: echo.endpoints.p.cloud.goog\nname: echo.endpoints.p.cloud.goog\n"),
])
def test_look_alikes_keep_their_bucket(path: str, text: str) -> None:
    signal = sniff(path, text.encode(), RULES.context)
    assert signal is None or signal.rule not in ("iac.content.app-engine", "iac.content.endpoints-service"), signal


def test_app_engine_samples_in_a_real_repository(git_repo: GitRepo, tmp_path: Path) -> None:
    """With the commits and from the patch alone: each sample's descriptor is iac; its Go code and README stay src."""
    git_repo.write("README.md", "# samples\n")
    git_repo.commit("base")
    git_repo.write("appengine_flexible/helloworld/app.yaml", _FLEX)
    git_repo.write("appengine_flexible/helloworld/main.go", "package main\n\nfunc main() {}\n")
    git_repo.write("endpoints/grpc/api_config.yaml", _ENDPOINTS)
    git_repo.write("endpoints/grpc/README.md", "Deploy with `gcloud endpoints services deploy api_config.yaml`.\n")
    git_repo.commit("head")
    want = {"appengine_flexible/helloworld/app.yaml": "iac", "endpoints/grpc/api_config.yaml": "iac",
            "appengine_flexible/helloworld/main.go": "src", "endpoints/grpc/README.md": "src"}
    for files in (tree_files(git_repo), patch_files(git_repo, tmp_path)):
        assert {path: files[path].bucket for path in want} == want, files


# rancher/system-upgrade-controller's example: k3s nodes whose unit files Compose mounts into /etc/systemd/system
_COMPOSE = """services:
  leader:
    image: example/ubuntu:k3s
    build:
      context: node
    volumes:
      - target: /etc/rancher
        type: volume
      - target: /etc/systemd/system/k3s.service
        source: ./node/server/k3s.service
        type: bind
      - target: /etc/prometheus/prometheus.yml
        source: ./monitoring/prometheus.yml
        type: bind
  worker:
    image: example/ubuntu:k3s
    volumes:
      - ./node/agent/k3s.service:/lib/systemd/system/k3s.service:ro
      - ./nginx/nginx.conf:/etc/nginx/nginx.conf:ro
      - .:/src
      - data:/var/lib/rancher
volumes:
  data: {}
"""
_UNIT = "[Unit]\nDescription=Lightweight Kubernetes\n[Service]\nExecStart=/usr/local/bin/k3s server\n"


def test_units_a_compose_service_mounts_for_systemd(git_repo: GitRepo, tmp_path: Path) -> None:
    """A unit file a service bind-mounts below /etc/systemd/ or /lib/systemd/ is iac with the commits (both mount
    forms); an app's settings mounted elsewhere (Prometheus', nginx's) and a source tree mounted for development keep
    their buckets, and so does a unit no Compose file mounts."""
    git_repo.write("examples/docker-compose.yaml", _COMPOSE)
    for path in ("examples/node/server/k3s.service", "examples/node/agent/k3s.service", "packaging/k3s.service"):
        git_repo.write(path, _UNIT)
    git_repo.write("examples/node/Dockerfile", "FROM ubuntu:24.04\n")
    git_repo.write("examples/monitoring/prometheus.yml", "scrape_configs:\n  - job_name: k3s\n")
    git_repo.write("examples/nginx/nginx.conf", "events {}\n")
    git_repo.write("examples/main.go", "package main\n")
    git_repo.commit("base")
    edits = ("examples/node/server/k3s.service", "examples/node/agent/k3s.service", "packaging/k3s.service")
    for path in edits:
        git_repo.write(path, _UNIT + "Restart=always\n")
    git_repo.write("examples/monitoring/prometheus.yml", "scrape_configs:\n  - job_name: nodes\n")
    git_repo.write("examples/nginx/nginx.conf", "events { worker_connections 512; }\n")
    git_repo.write("examples/main.go", "package main\n\nfunc main() {}\n")
    git_repo.commit("head")
    files = tree_files(git_repo)
    for path in ("examples/node/server/k3s.service", "examples/node/agent/k3s.service"):
        assert (files[path].bucket, files[path].rule) == ("iac", "iac.context.compose-build"), files[path]
        assert "examples/docker-compose.yaml" in files[path].evidence
    assert files["packaging/k3s.service"].bucket == "src", files["packaging/k3s.service"]
    assert files["examples/main.go"].bucket == "src", files["examples/main.go"]
    for path in ("examples/monitoring/prometheus.yml", "examples/nginx/nginx.conf"):
        assert files[path].rule != "iac.context.compose-build", files[path]
    # the patch shows no Compose file: nothing is raised by one
    patched = patch_files(git_repo, tmp_path)
    assert all(patched[path].rule != "iac.context.compose-build" for path in edits), patched
