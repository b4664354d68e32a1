"""Tier 3, continued: content shapes of machines and platforms (cloud-init, Cloud Foundry, CloudFormation
parameter files, Packer JSON templates, OpenStack Heat templates, Puppet manifests under any name, NixOS, home-manager
and disko configurations, SAM CLI deploy settings under another name), of a Puppet module's `metadata.json`, and of CI
settings without a fixed file name (Semaphore pipelines, Concourse team configurations, Jenkins pipelines kept as
`.groovy` scripts, manifest-tool specs of released images, Atlantis' server-side workflows), and of monitoring content
(Grafana and Cloud Monitoring dashboards, Prometheus rule groups, Prometheus' and the OpenTelemetry Collector's
settings: `other`). Each needs two keys of its format, or one that no other format uses, so that a look-alike (an
application's `applications:` list, a Nix package, a Groovy class, an npm package's `metadata.json`, CircleCI's
`workflows:`, a Pascal `.pp` unit) stays src.
"""

from __future__ import annotations

import re

from gatekeeper.classify.markers import extension
from gatekeeper.classify.tasks import is_script
from gatekeeper.lazy_pattern import lazy

_FLAGS = re.MULTILINE
# cloud-init user data by its first line: `#cloud-config`, the `#cloud-config-archive` list of parts, and either of them
# below the `## template: jinja` line cloud-init renders first (the forty-third set).
_CLOUD_CONFIG = lazy(r"\A(?:##[ \t]*template:[ \t]*jinja[ \t]*\r?\n)?#cloud-config(?:-archive)?[ \t]*\r?$", _FLAGS)
# A Nomad job specification under a name the path rules do not know (`nomad.job`, `gitea.job`, `web.nomad.j2`): its
# top-level `job "name" {` block (a Jenkins Job DSL `job('name') {` has parentheses).
_NOMAD_JOB = lazy(r'^job[ \t]+"[^"\n]+"[ \t]*\{', _FLAGS)
# OS installer answer files a Packer build or a PXE server serves (any name: `http/preseed.cfg`, `ks.cfg`): Debian's
# preseed `d-i owner/question type value` lines; a Red Hat kickstart's `%packages` section beside its disk or
# boot-loader commands.
_PRESEED = lazy(r"^d-i[ \t]+[\w.-]+/[\w./-]+[ \t]+(?:string|boolean|select|multiselect|password|note|seen)\b", _FLAGS)
_KICKSTART_PACKAGES = lazy(r"^%packages\b", _FLAGS)
_KICKSTART_COMMAND = lazy(r"^(?:rootpw|bootloader|clearpart|autopart|zerombr|reqpart)\b", _FLAGS)
# A Consul service definition the agent loads (`services/web.json`): a JSON object opening with `service` or
# `services` whose health check runs on an `interval` (the API's capitalised keys too). An app's own settings may
# name a service and a port; they name no check interval.
_CONSUL_SERVICE = lazy(r'\A\s*\{\s*"(?:[Ss]ervices?)"[ \t]*:[ \t]*[\[{]')
_CONSUL_CHECK = lazy(r'"[Cc]hecks?"[ \t]*:[ \t]*[\[{][^}]*?"[Ii]nterval"[ \t]*:')
# A Puppet manifest outside a module's manifests/ folder (a Heat software config's, a Vagrant provisioner's): a class,
# defined type or node block, or a resource declaration with its `=>` attributes. Pascal, the other `.pp`, has neither.
_PUPPET_BLOCK = lazy(
    r"^(?:(?:class|define)[ \t]+[a-z][\w:]{0,200}[ \t]*(?:\(|\{|inherits\b)|node[ \t]+[^\n{]{1,200}\{)", _FLAGS)
_PUPPET_RESOURCE = lazy(r"""^[ \t]*[a-z]\w*(?:::[a-z]\w*)*[ \t]*\{[ \t]*['"$\[]""", _FLAGS)
_PUPPET_ATTRIBUTE = lazy(r"^[ \t]*[a-z_]\w*[ \t]*=>", _FLAGS)
_CF_APPLICATIONS = lazy(r"^applications[ \t]*:[ \t]*$", _FLAGS)
_CF_KEY = lazy(
    r"^[ \t]*(?:-[ \t]+)?(?:buildpacks?|memory|disk_quota|instances|routes|random-route|health-check-type|stack)"
    r"[ \t]*:", _FLAGS)
# Heat: its version key, the first of every template, with a date (2018-08-31) or a release name (wallaby) as value.
_HEAT = lazy(
    r"""(?:^|[{,])[ \t]*["']?heat_template_version["']?[ \t]*:[ \t]*"""
    r"""["']?(?:\d{4}-\d{2}-\d{2}|\d{4}\.\d|[a-z]+)["']?[ \t]*(?:[,}\r\n#]|\Z)""", _FLAGS)
# Packer's JSON template: `builders`, a list of objects typed by builder, beside Packer's provisioners or
# post-processors, or a builder key of its own (how to reach the machine, what image it starts from).
_PACKER_BUILDERS = lazy(r'"builders"[ \t]*:[ \t]*\[\s*\{')
_PACKER_TYPE = lazy(r'"type"[ \t]*:[ \t]*"[\w.-]+"')
_PACKER_KEY = lazy(
    r'"(?:provisioners|post-processors|ssh_username|winrm_username|communicator|source_ami|source_ami_filter|ami_name'
    r'|iso_url|iso_checksum|boot_command|vm_name|source_image|source_image_family)"[ \t]*:')
# Its YAML form (Travis' templates, converted to JSON before `packer build`: red team 32): a top-level `builders:` whose
# first item is typed, beside one of those keys.
_PACKER_YAML_BUILDERS = lazy(r"^builders[ \t]*:[ \t]*(?:#[^\n]*)?\n(?:[ \t]*(?:#[^\n]*)?\n)*[ \t]*-[ \t]+"
                             r"type[ \t]*:[ \t]*[\"']?[\w.-]+[\"']?[ \t]*$", _FLAGS)
_PACKER_YAML_KEY = lazy(
    r"^[ \t]*(?:-[ \t]+)?(?:provisioners|post-processors|ssh_username|winrm_username|communicator|source_ami"
    r"|source_ami_filter|ami_name|iso_url|iso_checksum|boot_command|vm_name|source_image|source_image_family)[ \t]*:",
    _FLAGS)
_CFN_PARAMETER_KEY = lazy(r'"ParameterKey"[ \t]*:[ \t]*"')
_CFN_PARAMETER_VALUE = lazy(r'"(?:ParameterValue|UsePreviousValue)"[ \t]*:')
# A NixOS or home-manager module: its options dotted (`boot.loader.grub.enable`) or in nested attribute sets (`boot = {
# loader.grub = {...}; };`, `environment = { systemPackages = ...; };`, `system = { stateVersion = ...; };`: the
# sixty-fifth set's casey/lab), by the option names only a machine's configuration sets.
NIXOS = lazy(
    r"^[ \t]*(?:system\.stateVersion|home\.stateVersion|boot\.loader\.|boot\.initrd\.|fileSystems\.|"
    r"networking\.hostName|services\.openssh\.|users\.users\.|hardware\.[a-z]+\.enable|"
    r"environment\.systemPackages|home\.packages|disko\.devices|"
    r"boot\.loader[ \t]*=|loader\.(?:grub|systemd-boot|efi|generic-extlinux-compatible)\b|"
    r"initrd\.(?:availableKernelModules|kernelModules|luks|systemd)\b|(?:systemPackages|stateVersion)[ \t]*=)",
    _FLAGS)
# A Jenkins pipeline kept as a Groovy script under any name: declarative (`pipeline {`) or scripted (`node {`,
# `node('linux') {`) at the top level, its brace on the same line or, in Allman style, the next (Graylog's
# `scripts/smoke-test.groovy`), a Job DSL script's job definition, also called on the DSL factory a class is handed
# (edX's `dslFactory.job("warehouse-transforms-ci"){`; a bare `job(` or view, `listView('Tech') {`, with a literal
# name only: the sixty-first set), or a step a pipeline loads (`def call(` whose body runs pipeline steps: `sh`, `bat`,
# `stage`, `echo`, ... which plain Groovy does not have).
# A node's arguments: a label expression may hold parentheses (`'linux && (java8 || java11)'`), named arguments may
# span lines (attack 34); bounded, so a run of `(` stays linear.
_NODE_ARGS = r"\((?:[^()]|\([^()\n]{0,200}\)){0,500}\)"
_JENKINS_PIPELINE = lazy(
    r"^(?:pipeline[ \t]*(?:\r?\n[ \t]*)?\{|node(?:[ \t]*" + _NODE_ARGS + r")?[ \t]*(?:\r?\n[ \t]*)?\{|"
    r"[ \t]*(?:[A-Za-z_][A-Za-z0-9_]*\.)?(?:(?:pipelineJob|multibranchPipelineJob|freeStyleJob|matrixJob)[ \t]*\(|"
    r"(?:job|listView|nestedView|sectionedView|categorizedJobsView|buildPipelineView|deliveryPipelineView|"
    r"buildMonitorView|dashboardView|organizationFolder)[ \t]*\([ \t]*[\"']))", _FLAGS)
# A snap's recipe (snapcraft.yaml): its `parts:` may be named `script` and hold `stage:`, as a GitLab job would.
_SNAPCRAFT = lazy(r"^confinement[ \t]*:[ \t]*(?:strict|classic|devmode)\b|^grade[ \t]*:[ \t]*(?:stable|devel)\b",
                  _FLAGS)
# manifest-tool's spec of a multi-architecture image (what a release pushes under which tags; Drone's manifest plugin
# renders it from `docker/manifest.tmpl`): a top-level `image:` and `manifests:`, each entry with its `platform:`.
_MANIFEST_TOOL_IMAGE = lazy(r"^image[ \t]*:[ \t]*\S", _FLAGS)
_MANIFEST_TOOL_LIST = lazy(r"^manifests[ \t]*:[ \t]*$", _FLAGS)
_MANIFEST_TOOL_PLATFORM = lazy(r"^[ \t]+platform[ \t]*:[ \t]*\n[ \t]+(?:architecture|os|variant)[ \t]*:", _FLAGS)
# Atlantis' server-side repository settings (repos.yaml, under any name): custom `workflows:` whose plan or apply stage
# lists the `steps:` Atlantis runs on every pull request with the cloud credentials. CircleCI's `workflows:` list jobs.
_ATLANTIS_WORKFLOWS = lazy(r"^workflows[ \t]*:", _FLAGS)
_ATLANTIS_STAGE = lazy(
    r"^[ \t]+(?:plan|apply|import|state_rm|policy_check)[ \t]*:[ \t]*\n(?:[ \t]*(?:#[^\n]*)?\n)*[ \t]+steps[ \t]*:",
    _FLAGS)
# The SAM CLI's deploy settings (samconfig.toml) under another name: its `version = 0.1` and a
# `[<env>.deploy.parameters]` table with the stack it deploys.
_SAMCONFIG_VERSION = lazy(r"^version[ \t]*=[ \t]*0\.1[ \t]*$", _FLAGS)
_SAMCONFIG_TABLE = lazy(r"^\[[\w-]+\.deploy\.parameters\][ \t]*$", _FLAGS)
_SAMCONFIG_STACK = lazy(r"^stack_name[ \t]*=[ \t]*[\"']", _FLAGS)
# A Vagrantfile under any name (a box builder's `check/*.tpl`, a template a tool renders): the configuration block
# Vagrant runs to boot and provision machines. Ruby that only mentions Vagrant has no such line.
# (blanks read once each around the optional parentheses, attack 39: `Vagrant.configure` and 16 KiB of blanks 3.4 CPU-s)
_VAGRANT = lazy(
    r"""^[ \t]*+Vagrant(?:\.configure[ \t]*+(?:\([ \t]*+)?["']?[12]["']?(?:[ \t]*+\))?|::Config\.run)"""
    r"[ \t]++do[ \t]*+\|[ \t]*+\w+[ \t]*+\|", _FLAGS)
# A Puppet module's metadata.json (a generic name): the module's `dependencies` beside the keys only Puppet's
# metadata has (`operatingsystem_support`, or `requirements` naming `puppet`/`openvox`).
_PUPPET_DEPENDENCIES = lazy(r'"dependencies"[ \t]*:[ \t]*\[')
_PUPPET_ONLY = lazy(
    r'"operatingsystem_support"[ \t]*:|"requirements"[ \t]*:[ \t]*\[\s*\{\s*"name"[ \t]*:[ \t]*"(?:puppet|openvox)"')
_JENKINS_CALL = lazy(r"^def[ \t]+call[ \t]*\(", _FLAGS)
# The same pipeline inside a block (red team 40): `podTemplate(...) {`, `timestamps {`, `timeout(...) {`, `try {`, a
# library step's `def call(Map cfg) {` hold an indented `node(...) {` or `pipeline {`, or one after the block's `{` on
# its line (`podTemplate(...) { node(POD_LABEL) {`; its label may call, `node(label())`: docs review 56; attack 34:
# `timestamps { node {`, a form-feed indent), with a pipeline step after it. `node(?:[ \t]*(...))?[ \t]*`, not
# `node[ \t]*(...)?[ \t]*`: two blank runs in a row were quadratic (attack 34).
_JENKINS_NESTED = lazy(r"(?:^[ \t\f]+|\{[ \t]*)(?:pipeline|node(?:[ \t]*" + _NODE_ARGS + r")?)[ \t]*(?:\r?\n[ \t]*)?\{",
                       _FLAGS)
_JENKINS_NESTED_STEP = lazy(r"""(?<![\w.$])(?:sh|bat|powershell|pwsh|checkout|stage|steps|container)[ \t]*[('"{]""",
                            _FLAGS)
_JENKINS_STEP = lazy(
    r"""^[ \t]+(?:sh|bat|powershell|pwsh|echo|stage|node|checkout|withCredentials|withEnv|archiveArtifacts|junit|"""
    r"""timeout|retry|parallel|unstash|stash)[ \t]*[('"{]""", _FLAGS)
_SEMAPHORE_VERSION = lazy(r"""^version[ \t]*:[ \t]*["']?v1\.0["']?[ \t]*(?:#.*)?$""", _FLAGS)
_SEMAPHORE_BLOCKS = lazy(r"^blocks[ \t]*:", _FLAGS)
_SEMAPHORE_AGENT = lazy(r"^(?:agent|[ \t]+task)[ \t]*:", _FLAGS)
_CONCOURSE_ROLES = lazy(r"^roles[ \t]*:", _FLAGS)
_CONCOURSE_ROLE = lazy(
    r"""^[ \t]*-[ \t]+name[ \t]*:[ \t]*["']?(?:owner|member|pipeline-operator|viewer)["']?[ \t]*$""", _FLAGS)
_CONCOURSE_AUTH = lazy(
    r"^[ \t]+(?:github|gitlab|local|oidc|oauth|ldap|saml|cf|bitbucket-cloud|microsoft)[ \t]*:", _FLAGS)


# Google Cloud Build: top-level `steps:` whose items run a builder image (`- name: gcr.io/...` or `bash`) with
# `args:`, `entrypoint:` or `script:` beside it; a GitHub workflow's steps sit under `jobs:` and say `run:`/`uses:`.
_CLOUDBUILD_STEPS = lazy(r"^steps[ \t]*:[ \t]*(?:#.*)?$", _FLAGS)
_CLOUDBUILD_ITEM = lazy(r"^([ \t]*)-[ \t]+[A-Za-z]", _FLAGS)
# The builder image: one word (`bash`, `gcr.io/cloud-builders/docker`, `node:$_NODE_VERSION`), never a sentence.
_CLOUDBUILD_NAME = lazy(r"""^[ \t]*(?:-[ \t]+)?name[ \t]*:[ \t]*["']?[\w$][^\s"'#]*["']?[ \t]*(?:#.*)?$""")
_CLOUDBUILD_KEY = lazy(r"[ \t]*(?:-[ \t]+)?(?:args|entrypoint|script)[ \t]*:")
_CLOUDBUILD_JSON = lazy(r'"steps"[ \t]*:[ \t]*\[[ \t\r\n]*\{')
_CLOUDBUILD_JSON_STEP = lazy(r'\A[^{}]*"name"[ \t]*:[ \t]*"[\w$][^"\s]*"')
_CLOUDBUILD_JSON_ARGS = lazy(r'\A[^{}]*"(?:args|entrypoint|script)"[ \t]*:')
_TOP_JOBS = lazy(r"^jobs[ \t]*:", _FLAGS)
# Azure Pipelines: a pipeline extending a template (`extends:` + `template:`, 1ES and the agent's own), or a
# template whose parameters are typed with Azure's own types beside `steps:`/`jobs:`/`stages:`.
_AZURE_EXTENDS = lazy(r"^extends[ \t]*:[ \t]*\n(?:[ \t]*(?:#[^\n]*)?\n)*[ \t]+template[ \t]*:", _FLAGS)
_AZURE_TYPED = lazy(
    r"^[ \t]+type[ \t]*:[ \t]*(?:step|stepList|job|jobList|deployment|deploymentList|stage|stageList)[ \t]*$", _FLAGS)
_AZURE_TOP = lazy(r"^(?:steps|jobs|stages|trigger|pr|resources)[ \t]*:", _FLAGS)
# Docker Compose / Swarm stacks under any name: a `services:` mapping of named services, one with `image:` or
# `build:`. A GitLab job's `services:` is a list (`- postgres`), and indented.
_COMPOSE_SERVICES = lazy(
    r"^services[ \t]*:[ \t]*\n(?:[ \t]*(?:#[^\n]*)?\n)*([ \t]+)[\w.-]+[ \t]*:[ \t]*(?:#[^\n]*)?\n", _FLAGS)
# The settings Compose reads from an env file (`.env` by itself): which files, profiles and env files, which engine.
_COMPOSE_ENV = lazy(r"(?:(?<!\w)|(?<=export))(?:COMPOSE_(?:FILE|PROFILES|ENV_FILES|PATH_SEPARATOR|DISABLE_ENV_FILE)"
                     r"|DOCKER_(?:HOST|CONTEXT|DEFAULT_PLATFORM))[^\S\n]*[=:]", re.M)  # compose-go: `K: v`, `a="" K=v`
_COMPOSE_SERVICE_KEY = lazy(r"^[ \t]{2,}(?:image|build)[ \t]*:", _FLAGS)

# A Chef cookbook's metadata.rb: the DSL's `name 'x'` beside `version`, `chef_version`, `depends`, `supports` or
# `maintainer` calls at the top level; a Ruby class named Metadata has none of them.
_CHEF_NAME = lazy(r"""^name[ \t]+["'][\w.\-]+["']""", _FLAGS)
_CHEF_KEY = lazy(r"""^(?:version|chef_version|depends|supports|maintainer|maintainer_email)[ \t]+["']""", _FLAGS)

# Monitoring content, settings of an outside app (as principle 8 has it): a Grafana dashboard (its `panels` or
# older `rows` list beside a key only dashboards have), a Google Cloud Monitoring dashboard (a layout beside its
# `displayName`), Prometheus rule groups (`groups:` whose `rules:` hold an `alert:` or `record:` with its `expr:`).
_GRAFANA_PANELS = lazy(r'"(?:panels|rows)"[ \t]*:[ \t]*\[')
_GRAFANA_KEY = lazy(r'"(?:gridPos|graphTooltip|schemaVersion|templating)"[ \t]*:')
_CLOUD_DASHBOARD = lazy(r'"(?:mosaicLayout|gridLayout|rowLayout|columnLayout)"[ \t]*:[ \t]*\{')
_DISPLAY_NAME = lazy(r'"displayName"[ \t]*:[ \t]*"')
_RULE_GROUPS = lazy(r"^groups[ \t]*:[ \t]*(?:#.*)?$", _FLAGS)
_RULE_LIST = lazy(r"^[ \t]+rules[ \t]*:[ \t]*(?:#.*)?$", _FLAGS)
_RULE_ITEM = lazy(r"^[ \t]+-[ \t]+(?:alert|record)[ \t]*:[ \t]*\S", _FLAGS)
_RULE_EXPR = lazy(r"^[ \t]+expr[ \t]*:", _FLAGS)
# The settings of the servers that collect it: Prometheus' `scrape_configs:` list of jobs, the OpenTelemetry
# Collector's top-level `receivers:` and `exporters:` wired by `service: pipelines:`.
_SCRAPE_CONFIGS = lazy(r"^scrape_configs[ \t]*:[ \t]*(?:#.*)?$", _FLAGS)
_SCRAPE_JOB = lazy(r"^[ \t]*-[ \t]+job_name[ \t]*:[ \t]*\S", _FLAGS)
_OTEL_RECEIVERS = lazy(r"^receivers[ \t]*:[ \t]*(?:#.*)?$", _FLAGS)
_OTEL_EXPORTERS = lazy(r"^exporters[ \t]*:[ \t]*(?:#.*)?$", _FLAGS)
_OTEL_SERVICE = lazy(r"^service[ \t]*:[ \t]*(?:#.*)?$", _FLAGS)
_OTEL_PIPELINES = lazy(r"^[ \t]+pipelines[ \t]*:", _FLAGS)

# dbt's package list under its generic names (packages.yml, dependencies.yml): a top-level `packages:` list whose
# items name a dbt Hub package (`- package: dbt-labs/dbt_utils`) or a git repository, with the `version:` or
# `revision:` it pins. cloud-init's and snapcraft's `packages:` list plain names; ESPHome's is a mapping of
# includes; an Ansible task's `package:` module takes `name=` arguments, never an owner/name.
_DBT_PACKAGES = lazy(r"^packages[ \t]*:[ \t]*(?:#.*)?$", _FLAGS)
_DBT_ITEM = lazy(
    r"""^[ \t]*-[ \t]+(?:package[ \t]*:[ \t]*["']?[\w.-]+/[\w.-]+["']?|git[ \t]*:[ \t]*["']?(?:https?://|git@)\S+)"""
    r"""[ \t]*(?:#.*)?$""", _FLAGS)
_DBT_PIN = lazy(r"^[ \t]+(?:-[ \t]+)?(?:version|revision)[ \t]*:[ \t]*\S", _FLAGS)
# kas (Yocto/OpenEmbedded) project files: the `header:` with its format `version:`, beside the `repos:` it checks
# out (the layers, pinned by commit or branch) -- as a west manifest pins a Zephyr SDK's modules.
_KAS_HEADER = lazy(r"^header[ \t]*:[ \t]*\n(?:[ \t]*(?:#[^\n]*)?\n)*[ \t]+version[ \t]*:[ \t]*\d+", _FLAGS)
_KAS_REPOS = lazy(r"^repos[ \t]*:[ \t]*(?:#.*)?$", _FLAGS)
# Pants: its generated lock files (any name: `3rdparty/jvm/default.lock`, `python-default.lock`) open with its banner
# and its metadata block; a BUILD file that declares third-party JVM artifacts (`jvm_artifact(` with the `version=`
# it pins) is a manifest, as a pom.xml is. A BUILD file of first-party targets declares none.
_PANTS_LOCK = lazy(r"\A# This lockfile was autogenerated by Pants\b.*\n(?:#[^\n]*\n){0,8}"
                         r"# --- BEGIN PANTS LOCKFILE METADATA", re.DOTALL)
_PANTS_ARTIFACT = lazy(r"^jvm_artifact[ \t]*\(", _FLAGS)
_PANTS_VERSION = lazy(r"""^[ \t]+version[ \t]*=[ \t]*["'][^"'\n]+["']""", _FLAGS)

_INVENTORY_PROGRAMS = frozenset({"php", "js", "go", "rb", "pl"})  # languages of dynamic inventory scripts
_INVENTORY_META = lazy(r"""["']_meta["']""")
_INVENTORY_HOSTVARS = lazy(r"""["']hostvars["']""")
_INVENTORY_LIST = lazy(r"""--list\b|["']list["']""")


def inventory_named(path: str) -> bool:
    """A script or program file whose name or folder says inventory (`inventory.py`, `inventories/ec2.sh`): the
    files inventory_script reads."""
    return "inventor" in path.lower() and (is_script(path) or extension(path.rpartition("/")[2]) in _INVENTORY_PROGRAMS)


def inventory_script(text: str) -> tuple[str, str, str] | None:
    """An Ansible dynamic inventory script: answers `--list` with JSON whose `_meta` holds `hostvars`."""
    if (m := _INVENTORY_META.search(text)) is not None and _INVENTORY_HOSTVARS.search(text) \
            and _INVENTORY_LIST.search(text):
        return "iac", "iac.content.inventory-script", evidence_line(text, m)
    return None


def shape(name: str, text: str) -> tuple[str, str, str] | None:
    """(bucket, rule id, evidence line) of the first shape `text` (a file's first bytes) has, or None."""
    if (m := _CLOUD_CONFIG.search(text)) is not None:
        return "iac", "iac.content.cloud-init", evidence_line(text, m)
    if (m := _NOMAD_JOB.search(text)) is not None:
        return "iac", "iac.content.nomad-job", evidence_line(text, m)
    if ("d-i" in text and (m := _PRESEED.search(text)) is not None) \
            or ((m := _KICKSTART_PACKAGES.search(text)) is not None and _KICKSTART_COMMAND.search(text)):
        return "iac", "iac.content.installer-answers", evidence_line(text, m)
    if (m := _CONSUL_SERVICE.search(text)) is not None and (c := _CONSUL_CHECK.search(text, m.end())) is not None:
        return "iac", "iac.content.consul-service", evidence_line(text, c)
    if (m := _SEMAPHORE_VERSION.search(text)) is not None and _SEMAPHORE_BLOCKS.search(text) \
            and _SEMAPHORE_AGENT.search(text):
        return "ci", "ci.content.semaphore", evidence_line(text, m)
    if "name" in text and (m := _CONCOURSE_ROLE.search(text)) is not None and _CONCOURSE_ROLES.search(text) \
            and _CONCOURSE_AUTH.search(text):
        return "ci", "ci.content.concourse-team", evidence_line(text, m)
    if (m := _CF_APPLICATIONS.search(text)) is not None and _CF_KEY.search(text, m.end()):
        return "iac", "iac.content.cloudfoundry", evidence_line(text, m)
    if (m := _HEAT.search(text)) is not None:
        return "iac", "iac.content.heat", evidence_line(text, m)
    if (m := _VAGRANT.search(text)) is not None:
        return "iac", "iac.content.vagrant", evidence_line(text, m)
    if (m := _PACKER_BUILDERS.search(text)) is not None and _PACKER_TYPE.search(text[m.end():m.end() + 4096]) \
            and _PACKER_KEY.search(text):
        return "iac", "iac.content.packer", evidence_line(text, m)
    if "builders" in text and (m := _PACKER_YAML_BUILDERS.search(text)) is not None and _PACKER_YAML_KEY.search(text):
        return "iac", "iac.content.packer", evidence_line(text, m)
    if (m := _CFN_PARAMETER_KEY.search(text)) is not None and _CFN_PARAMETER_VALUE.search(text):
        return "iac", "iac.content.cloudformation-parameters", evidence_line(text, m)
    if name == "metadata.rb" and (m := _CHEF_NAME.search(text)) is not None and _CHEF_KEY.search(text):
        return "iac", "iac.content.chef-metadata", evidence_line(text, m)
    if name.lower().endswith(".nix") and (m := NIXOS.search(text)) is not None:
        return "iac", "iac.content.nixos", evidence_line(text, m)
    if name.lower().endswith((".groovy", ".gvy", ".pipeline")):  # Groovy's two extensions, a `*.pipeline` script
        return _jenkins(text)
    if name.lower().endswith(".pp") and ((m := _PUPPET_BLOCK.search(text)) is not None or (
            (m := _PUPPET_RESOURCE.search(text)) is not None and _PUPPET_ATTRIBUTE.search(text, m.end()))):
        return "iac", "iac.content.puppet", evidence_line(text, m)
    if (m := _MANIFEST_TOOL_LIST.search(text)) is not None and _MANIFEST_TOOL_IMAGE.search(text) \
            and _MANIFEST_TOOL_PLATFORM.search(text, m.end()):
        return "ci", "ci.content.manifest-tool", evidence_line(text, m)
    if (m := _ATLANTIS_WORKFLOWS.search(text)) is not None and _ATLANTIS_STAGE.search(text, m.end()):
        return "ci", "ci.content.atlantis", evidence_line(text, m)
    if name.lower() == "metadata.json" and (m := _PUPPET_DEPENDENCIES.search(text)) is not None \
            and _PUPPET_ONLY.search(text):
        return "deps", "deps.content.puppet-metadata", evidence_line(text, m)
    if (m := _SAMCONFIG_TABLE.search(text)) is not None and _SAMCONFIG_STACK.search(text, m.end()) \
            and _SAMCONFIG_VERSION.search(text):
        return "iac", "iac.content.samconfig", evidence_line(text, m)
    if name.lower().endswith((".yml", ".yaml")) and (found := _build_dependencies(text)) is not None:
        return found
    if text.startswith("# This lockfile") or name in ("BUILD", "BUILD.pants"):
        if (found := _pants(name, text)) is not None:
            return found
    if (name.lower().startswith(".env") or name.lower().endswith(".env")) and (m := _COMPOSE_ENV.search(text)):
        return "iac", "iac.content.compose-env", evidence_line(text, m)  # red team 21: COMPOSE_FILE in .env
    return _pipeline(text) or _compose(text) or _monitoring(text)


def _build_dependencies(text: str) -> tuple[str, str, str] | None:
    """dbt's package list and kas project files: what a data or embedded build installs, pinned (deps)."""
    if (m := _DBT_PACKAGES.search(text)) is not None and (item := _DBT_ITEM.search(text, m.end())) is not None \
            and _DBT_PIN.search(text, item.end()):
        return "deps", "deps.content.dbt-packages", evidence_line(text, m)
    if (m := _KAS_HEADER.search(text)) is not None and _KAS_REPOS.search(text):
        return "deps", "deps.content.kas", evidence_line(text, m)
    return None


def _pants(name: str, text: str) -> tuple[str, str, str] | None:
    """A Pants lock file under any name, or a Pants BUILD file declaring third-party JVM artifacts (deps)."""
    if (m := _PANTS_LOCK.search(text)) is not None:
        return "deps", "deps.content.pants-lock", evidence_line(text, m)
    if name in ("BUILD", "BUILD.pants") and (m := _PANTS_ARTIFACT.search(text)) is not None \
            and _PANTS_VERSION.search(text, m.end()):
        return "deps", "deps.content.pants-artifacts", evidence_line(text, m)
    return None


def snapcraft(text: str) -> bool:
    """True for a snap's recipe (a top-level `confinement:` or `grade:`), which GitLab CI's keys never are."""
    return _SNAPCRAFT.search(text) is not None


def _jenkins(text: str) -> tuple[str, str, str] | None:
    """A Jenkins pipeline, Job DSL script or loadable step kept as a `.groovy` file (not named Jenkinsfile)."""
    if (m := _JENKINS_PIPELINE.search(text)) is not None:
        return "ci", "ci.content.jenkins-pipeline", evidence_line(text, m)
    if (m := _JENKINS_CALL.search(text)) is not None and _JENKINS_STEP.search(text, m.end()):
        return "ci", "ci.content.jenkins-pipeline", evidence_line(text, m)
    if (m := _JENKINS_NESTED.search(text)) is not None and _JENKINS_NESTED_STEP.search(text, m.end()):
        return "ci", "ci.content.jenkins-pipeline", evidence_line(text, m)
    return None


def _pipeline(text: str) -> tuple[str, str, str] | None:
    """Cloud Build configurations and Azure Pipelines definitions under names no path rule knows."""
    if (m := _CLOUDBUILD_STEPS.search(text)) is not None and not _TOP_JOBS.search(text) \
            and _builder_step(text, m.end()):
        return "ci", "ci.content.cloud-build", evidence_line(text, m)
    if (m := _CLOUDBUILD_JSON.search(text)) is not None:
        first = text[m.end():m.end() + 4096]  # the first step object: its name and its args, in any order
        if _CLOUDBUILD_JSON_STEP.search(first) and _CLOUDBUILD_JSON_ARGS.search(first):
            return "ci", "ci.content.cloud-build", evidence_line(text, m)
    if (m := _AZURE_EXTENDS.search(text)) is not None:
        return "ci", "ci.content.azure-pipelines", evidence_line(text, m)
    if (m := _AZURE_TYPED.search(text)) is not None and _AZURE_TOP.search(text):
        return "ci", "ci.content.azure-pipelines", evidence_line(text, m)
    return None


def _builder_step(text: str, start: int) -> bool:
    """Whether a step item after `start` names an image (`name:`) and has `args:`, `entrypoint:` or `script:`
    among its lines (the item's first line and those indented deeper than its dash)."""
    for number, item in enumerate(_CLOUDBUILD_ITEM.finditer(text, start)):
        if number == 32:
            break  # bounded: a window of nested items must not cost a quadratic scan
        depth = len(item.group(1).expandtabs())
        end = text.find("\n", item.start())
        lines = [text[item.start():end if end != -1 else len(text)]]
        for line in text[end + 1:].splitlines() if end != -1 else ():
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            if len(line.expandtabs()) - len(line.expandtabs().lstrip()) <= depth:
                break  # the next item, or the end of the list
            lines.append(line)
        if any(_CLOUDBUILD_NAME.match(line) for line in lines) and any(_CLOUDBUILD_KEY.match(line) for line in lines):
            return True
    return False


def _compose(text: str) -> tuple[str, str, str] | None:
    if (m := _COMPOSE_SERVICES.search(text)) is not None and _COMPOSE_SERVICE_KEY.search(text, m.end()):
        return "iac", "iac.content.compose", evidence_line(text, m)
    return None


def _monitoring(text: str) -> tuple[str, str, str] | None:
    """Dashboards and alerting rules: other, raised from src only (in a chart or beside a kustomization they stay iac,
    and a PrometheusRule object is iac by its apiVersion)."""
    if '"' in text and (m := _GRAFANA_PANELS.search(text)) is not None and _GRAFANA_KEY.search(text):
        return "other", "other.content.grafana-dashboard", evidence_line(text, m)
    if "{" in text and (m := _CLOUD_DASHBOARD.search(text)) is not None and _DISPLAY_NAME.search(text):
        return "other", "other.content.cloud-monitoring-dashboard", evidence_line(text, m)
    if (m := _RULE_GROUPS.search(text)) is not None and (rules := _RULE_LIST.search(text, m.end())) is not None \
            and (item := _RULE_ITEM.search(text, rules.end())) is not None and _RULE_EXPR.search(text, item.end()):
        return "other", "other.content.prometheus-rules", evidence_line(text, m)
    if (m := _SCRAPE_CONFIGS.search(text)) is not None and _SCRAPE_JOB.search(text, m.end()):
        return "other", "other.content.prometheus-config", evidence_line(text, m)
    if (m := _OTEL_RECEIVERS.search(text)) is not None and _OTEL_EXPORTERS.search(text) \
            and (service := _OTEL_SERVICE.search(text)) is not None and _OTEL_PIPELINES.search(text, service.end()):
        return "other", "other.content.otel-collector-config", evidence_line(text, m)
    return None


def evidence_line(text: str, match: re.Match[str]) -> str:
    """The line `match` starts on (a match may span lines), stripped and cut at 120 characters: a signal's evidence."""
    start = text.rfind("\n", 0, match.start()) + 1
    end = text.find("\n", match.start())
    return text[start:end if end != -1 else len(text)].strip()[:120]
