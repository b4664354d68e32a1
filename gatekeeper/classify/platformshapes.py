"""Tier 3, continued: content shapes of the seventeenth set's classes (docs/classification.md, "The fourteenth round").

Packer variable files in JSON (a legacy template's `-var-file`), Talos machine configuration and its patches, a Helm
chart repository's generated `index.yaml` (`other`), and Bazel run-control lines that move where Bazel modules come
from (`deps`); and Fairwinds' reckoner courses (the twenty-second set: the Helm releases a course installs). Each
needs a key of its format that no other format uses, or two keys, so that a look-alike (an application's settings
naming a machine, a JSON 6902 patch of a Kubernetes object, a docs site's `index.yaml`, a `.bazelrc` of build flags,
an umbrella chart's `charts:` list) keeps its bucket. The twenty-fifth set's Buildkite plugin definitions (`ci`) are
read here too. The forty-third set's HashiCorp agent configurations in JSON (Consul's and Nomad's `data_dir` beside
a key only an agent has, Vault's `listener` block beside its storage): the `.hcl` forms are iac by path. The
eighty-second set's helmfile state files and DigitalOcean App Platform app specifications under any YAML name.
"""

from __future__ import annotations

import re

from gatekeeper.classify.bazelenv import env_effect
from gatekeeper.classify.bazelrc import option_values, rc_lines
from gatekeeper.classify.shapes import evidence_line
from gatekeeper.lazy_pattern import lazy

_FLAGS = re.MULTILINE
# Packer's ISO builders' keys, which nothing else names, beside a second key of a machine build: a variables file
# `packer build -var-file=ubuntu1604-desktop.json ubuntu.json` reads (the template itself has `builders`).
_PACKER_ISO = lazy(r'"iso_(?:url|urls|checksum|checksum_type|checksum_url|name|path)"[ \t]*:')
_PACKER_VAR = lazy(
    r'"(?:vm_name|disk_size|cpus|memory|headless|boot_wait|boot_command|ssh_username|ssh_password|winrm_username'
    r'|winrm_password|guest_os_type|vagrantfile_template|box_tag|preseed|autoinstall|hyperv_switch)"[ \t]*:')
# Talos: a machine configuration or a strategic-merge patch of one (a top-level `machine:` whose first key is one of
# Talos' own), or a JSON 6902 patch whose operations address `/machine/` or `/cluster/` (a patch of a Kubernetes
# object addresses `/spec/`, `/metadata/`).
_TALOS_MACHINE = lazy(
    r"^machine:[ \t]*\r?\n(?:[ \t]*(?:#[^\n]*|\r)?\n)*[ \t]+(?:install|kubelet|certSANs|sysctls|kernel|registries"
    r"|nodeLabels|nodeTaints|nodeAnnotations|features|disks|sysfs|udev|kubespan|time|files|ca|acceptedCAs"
    r"|seccompProfiles|systemDiskEncryption|baseRuntimeSpecOverrides|network|env|logging|pods|controlPlane|token"
    r"|userVolumes)[ \t]*:"
    r"|^machine:[ \t]*\r?\n(?:[ \t]*(?:#[^\n]*|\r)?\n)*[ \t]+type:[ \t]*['\"]?(?:controlplane|worker|init)\b", _FLAGS)
# A whole machine configuration also says which version of Talos' configuration it is (`talosctl gen config` writes
# `version: v1alpha1` at the top, beside `machine:` and `cluster:`), whatever `machine:` holds first.
_TALOS_VERSION = lazy(r"^version:[ \t]*['\"]?v1alpha1['\"]?[ \t]*(?:#[^\n]*)?$", _FLAGS)
_TALOS_TOP = lazy(r"^machine:[ \t]*$", _FLAGS)
# A template of such a file (`machineconfig.yaml.j2`, rendered by a task before `talosctl apply-config`) is read as the
# file it renders.
_TEMPLATE_SUFFIXES = (".j2", ".jinja", ".jinja2", ".tmpl", ".tpl", ".gotmpl")
_JSON6902_OP = lazy(
    r"""(?:^[ \t]*-[ \t]+|[{,][ \t\r\n]*)["']?op["']?[ \t]*:[ \t]*["']?(?:add|remove|replace|move|copy|test)\b""",
    _FLAGS)
_TALOS_PATH = lazy(r"""["']?path["']?[ \t]*:[ \t]*["']?/(?:machine|cluster)/""")
# Amazon States Language: a state machine's `StartAt` beside its `States` map (JSON, or YAML at one indentation).
_ASL_START = lazy(r'"StartAt"[ \t]*:[ \t]*"|^([ \t]*)StartAt[ \t]*:[ \t]*\S', _FLAGS)
_ASL_STATES_JSON = lazy(r'"States"[ \t]*:[ \t]*\{')
# A Helm chart repository's index, which `helm repo index` writes: `apiVersion: v1`, `entries:` and `generated:` at
# the top level (a publishing artefact, as older sets label it).
_HELM_INDEX_VERSION = lazy(r"^apiVersion:[ \t]*['\"]?v1['\"]?[ \t]*$", _FLAGS)
_HELM_INDEX_ENTRIES = lazy(r"^entries:[ \t]*$", _FLAGS)
_HELM_INDEX_GENERATED = lazy(r"^generated:[ \t]*\S", _FLAGS)
# A reckoner course (Fairwinds' helmfile: `reckoner plot course.yml` installs its charts and runs their hooks): the
# releases under a top-level `charts:` beside the reckoner version it needs (`minimum_versions:` naming `reckoner:`),
# or beside the top-level `namespace_management:` of its second schema. A chart's own `charts:` list has neither.
_RECKONER_CHARTS = lazy(r"^charts[ \t]*:[ \t]*(?:#[^\n]*)?$", _FLAGS)
_RECKONER_VERSION = lazy(
    r"^minimum_versions[ \t]*:[ \t]*\r?\n(?:[ \t][^\n]*\n){0,8}?[ \t]+reckoner[ \t]*:|^namespace_management[ \t]*:",
    _FLAGS)
# A helmfile state file under any YAML name (the eighty-second set: bn-digital/helm's `helmfiles/*.yaml`, run with
# `helmfile -f FILE`): a top-level `helmDefaults:` (helmfile's alone), a top-level `releases:` whose items name a
# `chart:`, or a top-level `helmfiles:` listing other state files (`- path: x.yaml` or `- x.yaml`). A docs site's
# `releases:` list of versions names no chart.
_HELMFILE_DEFAULTS = lazy(r"^helmDefaults[ \t]*:", _FLAGS)
_HELMFILE_RELEASES = lazy(r"^releases[ \t]*:[ \t]*(?:#[^\n]*)?$", _FLAGS)
_HELMFILE_CHART = lazy(r"^[ \t]*(?:-[ \t]+)?chart[ \t]*:[ \t]*\S", _FLAGS)
_HELMFILE_INCLUDES = lazy(r"^helmfiles[ \t]*:[ \t]*(?:#[^\n]*)?\r?\n(?:[ \t]*(?:#[^\n]*)?\r?\n)*"
                          r"[ \t]*-[ \t]+(?:path[ \t]*:[ \t]*)?['\"]?[^\s'\"]+\.ya?ml(?:\.gotmpl)?['\"]?[ \t]*$",
                          _FLAGS)
# A DigitalOcean App Platform app specification under any YAML name (the eighty-second set: 1Password's scim-examples'
# `do-app-platform-op-cli/op-scim-bridge.yaml`, `doctl apps create --spec FILE`): a top-level component list beside a
# key only an app spec writes (an instance size slug, an image block's registry type).
_DO_COMPONENTS = lazy(r"^(?:services|workers|jobs|static_sites|functions|databases)[ \t]*:[ \t]*$", _FLAGS)
_DO_KEY = lazy(r"^[ \t]*(?:-[ \t]+)?(?:instance_size_slug[ \t]*:[ \t]*\S"
               r"|registry_type[ \t]*:[ \t]*['\"]?(?:DOCKER_HUB|DOCR|GHCR)\b)", _FLAGS)
# A Buildkite plugin's definition (`plugin.yml` at the plugin's root): its name beside the JSON schema of the
# configuration steps pass it (`configuration:` holding `properties:`, ...); every pipeline that uses the plugin runs
# its hooks with it, as a published action's action.yml. A Bukkit plugin.yml names its `main:` class, a Helm plugin's
# plugin.yaml its `command:`: neither has such a `configuration:`.
_BUILDKITE_PLUGIN_CONFIG = lazy(
    r"^configuration[ \t]*:[ \t]*(?:#[^\n]*)?\r?\n(?:[ \t]*(?:#[^\n]*|\r)?\n)*[ \t]+(?:properties|additionalProperties"
    r"|required|anyOf|oneOf|allOf|dependencies|type)[ \t]*:", _FLAGS)
_BUILDKITE_PLUGIN_NAME = lazy(r"^name[ \t]*:[ \t]*\S", _FLAGS)
_BUKKIT_MAIN = lazy(r"^main[ \t]*:", _FLAGS)
# A Drone/Harness CI plugin's manifest (`plugin.yml` at the plugin's root): a top-level `run:` holding the `binary:`
# (its release URL per `{{ release }}`, `{{ os }}`, `{{ arch }}`) or `container:` the Harness runner runs for every step
# that uses the plugin (over-reads 4: drone-s3)
_HARNESS_PLUGIN_RUN = lazy(
    r"^run[ \t]*:[ \t]*(?:#[^\n]*)?\r?\n(?:[ \t]*(?:#[^\n]*)?\r?\n)*[ \t]+(?:binary|container)[ \t]*:", _FLAGS)
# A Bazel run-control line that points module resolution elsewhere: another registry, a repository or module
# overridden by a path or URL, a vendor folder (the same move as an index URL in a pip or npm settings file).
# A run-control line of any command (`always`, `vendor`, a `:config`) whose flag moves where modules and downloads come
# from, its value after `=` or a blank (Bazel's parser takes both): red team 17, `common --registry URL`, `always
# --registry=`, `--downloader_config=` (URL rewrites), `--inject_repository=`, `--module_mirrors=` were `other`.
# A Consul or Nomad agent's configuration in JSON (`consul/client.json` a compose file mounts into the agent's config
# folder, `consul.json.j2` an Ansible role renders): its `data_dir` beside a key only such an agent reads (how it
# joins the cluster, its gossip key, the addresses it binds and advertises). An application's settings may name a
# data folder; they name no `retry_join` or `bootstrap_expect`.
_AGENT_DATA_DIR = lazy(r'"data_dir"[ \t]*:[ \t]*"')
_AGENT_KEY = lazy(
    r'"(?:retry_join|retry_join_wan|start_join|bootstrap_expect|bootstrap|encrypt|client_addr|bind_addr|advertise_addr'
    r'|advertise_addr_wan|serf_lan|serf_wan|ui_config|auto_encrypt|auto_config|primary_datacenter)"[ \t]*:')
# Vault's server configuration in JSON: a `listener` holding a `tcp` block, beside its `storage` (or the older
# `backend`), `seal`, `api_addr` or `cluster_addr`.
_VAULT_LISTENER = lazy(r'"listener"[ \t]*:[ \t]*[\[{][ \t\r\n\[{]*"tcp"[ \t]*:')
_VAULT_KEY = lazy(r'"(?:storage|backend|ha_storage|seal|api_addr|cluster_addr)"[ \t]*:[ \t]*[{"\[]')
# App Engine's deploy descriptor in any folder (`gcloud app deploy services/api/app.yaml`; the path rules know a root
# app.yaml only: the forty-ninth set's samples keep one per sample folder): a top-level `runtime:` naming one of App
# Engine's runtimes (`go`, `python312`, `custom`; a Lambda's `python3.9` is none) beside a top-level key only App Engine
# reads (the flexible environment, a scaling block, URL handlers, an entrypoint). Pulumi.yaml names a runtime too but
# none of these keys (and is iac by name).
_GAE_RUNTIME = lazy(
    r"^runtime[ \t]*:[ \t]*['\"]?(?:python|go|nodejs|java|php|ruby|custom|aspnetcore|dotnet)\d*['\"]?"
    r"[ \t]*(?:#[^\n]*)?\r?$", _FLAGS)
_GAE_KEY = lazy(
    r"^(?:env[ \t]*:[ \t]*['\"]?(?:flex|flexible)\b|(?:automatic|manual|basic)_scaling[ \t]*:|instance_class[ \t]*:"
    r"|handlers[ \t]*:|runtime_config[ \t]*:|threadsafe[ \t]*:|vpc_access_connector[ \t]*:|inbound_services[ \t]*:"
    r"|app_engine_apis[ \t]*:|liveness_check[ \t]*:|readiness_check[ \t]*:|entrypoint[ \t]*:)", _FLAGS)
# A Cloud Endpoints service configuration (`gcloud endpoints services deploy api_config.yaml`): Service Management's
# `type: google.api.Service` naming a service Endpoints hosts (`*.endpoints.PROJECT.cloud.goog`, `*.appspot.com`).
# Google's own API definitions (googleapis' `*_v1.yaml`) name `*.googleapis.com` services: they stay as they are.
_ENDPOINTS_TYPE = lazy(r"^type[ \t]*:[ \t]*['\"]?google\.api\.Service\b", _FLAGS)
_ENDPOINTS_NAME = lazy(r"^name[ \t]*:[ \t]*['\"]?[\w.-]+\.(?:cloud\.goog|appspot\.com)['\"]?[ \t]*\r?$", _FLAGS)
# cloud-init data embedded in a machine definition under another format (the fifty-first set): a Multipass blueprint's
# instance holds a `cloud-init:` block whose `vendor-data:` or `user-data:` boots the VM, and an LXD or Incus profile or
# instance sets the `cloud-init.user-data` / `user.user-data` configuration keys. Each key names cloud-init's payload
# by its own words; an application's settings name neither.
_EMBEDDED_CLOUD_INIT = lazy(
    r"^([ \t]*)cloud-init[ \t]*:[ \t]*(?:#[^\n]*)?\r?\n(?:[ \t]*(?:#[^\n]*)?\r?\n)*\1[ \t]+"
    r"(?:vendor|user)-data[ \t]*:"
    r"|^[ \t]+['\"]?(?:cloud-init|user)\.(?:user-data|vendor-data|network-config)['\"]?[ \t]*:[ \t]*(?:[|>]|\S)",
    _FLAGS)
_BAZEL_SOURCES = ("registry", "override_repository", "override_module", "vendor_dir", "inject_repository",
                  "module_mirrors", "downloader_config", "experimental_downloader_config",
                  "experimental_remote_downloader", "remote_downloader")
# A line that makes Bazel run a program (red team 38): `--workspace_status_command` at the start of every build,
# `--credential_helper` (`--experimental_` before 6.3) at every remote fetch, `--run_under` before every run and test
# target, `--shell_executable` as the shell of every genrule and shell action, `startup --server_javabase` and a
# `--host_jvm_args` agent in the Bazel server. bazelhooks.py makes the script such a line names `ci`; the line itself,
# an inline command or a program of no repository path, is the same hook. Each line is read as Bazel's parser reads
# it (bazelrc.py: continuations, quotes, escapes, any config name; docs review 54).
_BAZEL_HOOKS = tuple(f"{prefix}{name}" for prefix in ("", "experimental_") for name in (
    "workspace_status_command", "credential_helper", "run_under", "shell_executable", "server_javabase"))
_AGENTS = ("-javaagent", "-agentpath", "-agentlib")


_BAZEL_COMMANDS = frozenset({
    "always", "common", "startup", "build", "test", "run", "coverage", "query", "cquery", "aquery", "fetch", "sync",
    "mod", "vendor", "info", "clean", "config", "dump", "help", "license", "mobile-install", "print_action",
    "shutdown", "version", "analyze-profile", "canonicalize-flags"})


def is_bazelrc(name: str) -> bool:
    """A file Bazel may read as run control: `.bazelrc`, `ci.bazelrc`, `.bazelrc.ci`, `.bazelrc.user`, and what a
    `.bazelrc` imports by any name (`import %workspace%/tools/ci.rc`, an extensionless `tools/bazel/remote`)."""
    lower = name.lower()
    return "bazelrc" in lower or lower.endswith(".rc") or "." not in lower.lstrip(".")


def platform_shape(name: str, text: str) -> tuple[str, str, str] | None:
    """(bucket, rule id, evidence line) of the first of these shapes `text` has, or None."""
    lower = name.lower()
    rendered = lower.rpartition(".")[0] if lower.endswith(_TEMPLATE_SUFFIXES) else lower
    if lower.endswith(".json") and (m := _PACKER_ISO.search(text)) is not None and _PACKER_VAR.search(text):
        return "iac", "iac.content.packer-variables", evidence_line(text, m)
    if rendered.endswith((".yaml", ".yml", ".json")):
        if (m := _TALOS_MACHINE.search(text)) is not None:
            return "iac", "iac.content.talos", evidence_line(text, m)
        if (m := _TALOS_VERSION.search(text)) is not None and _TALOS_TOP.search(text):
            return "iac", "iac.content.talos", evidence_line(text, m)
        if "op" in text and (m := _JSON6902_OP.search(text)) is not None \
                and (p := _TALOS_PATH.search(text)) is not None:
            return "iac", "iac.content.talos", evidence_line(text, p)
    if rendered.endswith(".json") and (
            ((m := _AGENT_DATA_DIR.search(text)) is not None and _AGENT_KEY.search(text))
            or ((m := _VAULT_LISTENER.search(text)) is not None and _VAULT_KEY.search(text))):
        return "iac", "iac.content.hashicorp-agent", evidence_line(text, m)
    if lower.endswith((".yaml", ".yml", ".json")) and (m := _ASL_START.search(text)) is not None \
            and (_ASL_STATES_JSON.search(text) if m.group(1) is None
                 else re.search(rf"^{re.escape(m.group(1))}States[ \t]*:[ \t]*$", text, _FLAGS)):
        return "iac", "iac.content.step-functions", evidence_line(text, m)
    if lower.endswith((".yaml", ".yml")) and (m := _GAE_RUNTIME.search(text)) is not None and _GAE_KEY.search(text):
        return "iac", "iac.content.app-engine", evidence_line(text, m)
    if lower.endswith((".yaml", ".yml")) and (m := _ENDPOINTS_TYPE.search(text)) is not None \
            and _ENDPOINTS_NAME.search(text):
        return "iac", "iac.content.endpoints-service", evidence_line(text, m)
    if rendered.endswith((".yaml", ".yml")) and "-data" in text \
            and (m := _EMBEDDED_CLOUD_INIT.search(text)) is not None:
        return "iac", "iac.content.cloud-init-embedded", evidence_line(text, m)
    if lower.endswith((".yaml", ".yml")) and (m := _HELM_INDEX_ENTRIES.search(text)) is not None \
            and _HELM_INDEX_VERSION.search(text) and _HELM_INDEX_GENERATED.search(text):
        return "other", "other.content.helm-repository-index", evidence_line(text, m)
    if lower.endswith((".yaml", ".yml")) and (m := _RECKONER_VERSION.search(text)) is not None \
            and _RECKONER_CHARTS.search(text):
        return "iac", "iac.content.reckoner-course", evidence_line(text, m)
    if rendered.endswith((".yaml", ".yml")) and "el" in text and (
            (m := _HELMFILE_DEFAULTS.search(text)) is not None or (m := _HELMFILE_INCLUDES.search(text)) is not None
            or ((r := _HELMFILE_RELEASES.search(text)) is not None
                and (m := _HELMFILE_CHART.search(text, r.end())) is not None)):
        return "iac", "iac.content.helmfile", evidence_line(text, m)
    if rendered.endswith((".yaml", ".yml")) and "_" in text and (m := _DO_KEY.search(text)) is not None \
            and _DO_COMPONENTS.search(text):
        return "iac", "iac.content.do-app-spec", evidence_line(text, m)
    if lower in ("plugin.yml", "plugin.yaml") and (m := _BUILDKITE_PLUGIN_CONFIG.search(text)) is not None \
            and _BUILDKITE_PLUGIN_NAME.search(text) and not _BUKKIT_MAIN.search(text):
        return "ci", "ci.content.buildkite-plugin", evidence_line(text, m)
    if lower in ("plugin.yml", "plugin.yaml") and (m := _HARNESS_PLUGIN_RUN.search(text)) is not None \
            and not _BUKKIT_MAIN.search(text):
        return "ci", "ci.content.harness-plugin", evidence_line(text, m)
    if is_bazelrc(lower) and "-" in text:
        return bazel_line(text, "bazelrc" in lower)
    return None


def bazel_line(text: str, any_command: bool) -> tuple[str, str, str] | None:
    """A run-control line that runs a program (`ci`, red team 38: before the sources' `deps`) or moves where modules
    come from; a file of another name than `*bazelrc*` (`any_command` False): a Bazel command's line only."""
    lines = rc_lines(text, None if any_command else _BAZEL_COMMANDS)
    for line in lines:
        for name, value in option_values(line, (*_BAZEL_HOOKS, "host_jvm_args")):
            if name != "host_jvm_args" or value.startswith(_AGENTS):
                return "ci", "ci.content.bazel-hook", line.text
        if env_effect(line) == "ci":  # `--repo_env=CC=...`: another compiler, shell, interpreter (bazelenv.py)
            return "ci", "ci.content.bazel-hook", line.text
    for line in lines:
        if option_values(line, _BAZEL_SOURCES) or env_effect(line) == "deps":
            return "deps", "deps.content.bazel-module-source", line.text
    return None
