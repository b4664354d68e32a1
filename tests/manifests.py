"""Real-shaped infrastructure, CI and look-alike files, written for the classification tests.

Each is what such a file looks like in a real repository (comments, several documents, short-form
CloudFormation tags, Helm template syntax), not a two-line caricature.
"""

from __future__ import annotations

DEPLOYMENT = """\
# Frontend of the shop; rolled out by the platform team.
apiVersion: apps/v1
kind: Deployment
metadata:
  name: frontend
  labels:
    app: frontend
spec:
  replicas: 3
  selector:
    matchLabels:
      app: frontend
  template:
    metadata:
      labels:
        app: frontend
    spec:
      containers:
        - name: server
          image: registry.example.invalid/shop/frontend:v0.9.2
          ports:
            - containerPort: 8080
          resources:
            requests: {cpu: 100m, memory: 64Mi}
---
apiVersion: v1
kind: Service
metadata:
  name: frontend
spec:
  type: ClusterIP
  selector:
    app: frontend
  ports:
    - name: http
      port: 80
      targetPort: 8080
"""

DEPLOYMENT_JSON = """{
  "apiVersion": "apps/v1",
  "kind": "StatefulSet",
  "metadata": {"name": "redis-cart"},
  "spec": {"serviceName": "redis-cart", "replicas": 1,
           "template": {"spec": {"containers": [{"name": "redis", "image": "redis:7.2-alpine"}]}}}
}
"""

ARGO_APPLICATION = """\
apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: guestbook
  namespace: argocd
  finalizers:
    - resources-finalizer.argocd.argoproj.io
spec:
  project: default
  source:
    repoURL: https://git.example.invalid/apps/guestbook.git
    targetRevision: HEAD
    path: guestbook
  destination:
    server: https://kubernetes.default.svc
    namespace: guestbook
  syncPolicy:
    automated:
      prune: true
      selfHeal: true
"""

ARGO_PROJECT = """\
apiVersion: argoproj.io/v1alpha1
kind: AppProject
metadata:
  name: team-payments
spec:
  sourceRepos: ["https://git.example.invalid/payments/*"]
  destinations:
    - namespace: payments-*
      server: https://kubernetes.default.svc
"""

ARGO_WORKFLOW = """\
apiVersion: argoproj.io/v1alpha1
kind: Workflow
metadata:
  generateName: build-and-test-
spec:
  entrypoint: main
  templates:
    - name: main
      steps:
        - - name: build
            template: make
    - name: make
      container:
        image: golang:1.22
        command: [make, test]
"""

ARGO_CRON_WORKFLOW = ARGO_WORKFLOW.replace("kind: Workflow", "kind: CronWorkflow").replace(
    "spec:\n  entrypoint", "spec:\n  schedule: '0 3 * * *'\n  workflowSpec: {}\n  entrypoint", 1
)

FLUX_HELMRELEASE = """\
---
apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: podinfo
  namespace: apps
spec:
  interval: 10m
  chart:
    spec:
      chart: podinfo
      version: ">=6.0.0"
      sourceRef:
        kind: HelmRepository
        name: podinfo
  values:
    replicaCount: 2
"""

FLUX_KUSTOMIZATION = """\
apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: infrastructure
  namespace: flux-system
spec:
  interval: 1h
  path: ./infrastructure/production
  prune: true
  sourceRef:
    kind: GitRepository
    name: flux-system
"""

CROSSPLANE_COMPOSITION = """\
apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: xpostgres.aws.platform.example.invalid
spec:
  compositeTypeRef:
    apiVersion: platform.example.invalid/v1alpha1
    kind: XPostgres
  resources:
    - name: rds
      base:
        apiVersion: rds.aws.upbound.io/v1beta1
        kind: Instance
        spec:
          forProvider:
            engine: postgres
            instanceClass: db.t3.micro
"""

GATEKEEPER_TEMPLATE = """\
apiVersion: templates.gatekeeper.sh/v1
kind: ConstraintTemplate
metadata:
  name: k8srequiredlabels
spec:
  crd:
    spec:
      names:
        kind: K8sRequiredLabels
  targets:
    - target: admission.k8s.gatekeeper.sh
      rego: |
        package k8srequiredlabels
        violation[{"msg": msg}] {
          required := input.parameters.labels[_]
          not input.review.object.metadata.labels[required]
          msg := sprintf("missing label %v", [required])
        }
"""

TEKTON_PIPELINE = """\
apiVersion: tekton.dev/v1
kind: Pipeline
metadata:
  name: build-and-deploy
spec:
  params:
    - name: git-url
      type: string
  tasks:
    - name: fetch
      taskRef:
        name: git-clone
    - name: build
      runAfter: [fetch]
      taskRef:
        name: kaniko
"""

CLOUDFORMATION = """\
AWSTemplateFormatVersion: '2010-09-09'
Description: Log bucket for the storefront
Parameters:
  Stage:
    Type: String
    AllowedValues: [dev, prod]
Conditions:
  IsProd: !Equals [!Ref Stage, prod]
Resources:
  LogBucket:
    Type: AWS::S3::Bucket
    Properties:
      BucketName: !Sub 'storefront-logs-${Stage}'
      VersioningConfiguration:
        Status: !If [IsProd, Enabled, Suspended]
"""

CLOUDFORMATION_NO_VERSION = """\
Description: Queue for order events (the version line is optional)
Resources:
  OrderQueue:
    Type: "AWS::SQS::Queue"
    Properties:
      VisibilityTimeout: 60
  OrderTopic:
    Type: AWS::SNS::Topic
Outputs:
  QueueUrl:
    Value: !Ref OrderQueue
"""

SAM_TEMPLATE = """\
Transform: AWS::Serverless-2016-10-31
Description: Thumbnail service
Globals:
  Function:
    Timeout: 10
    Runtime: python3.12
Resources:
  ThumbnailFunction:
    Type: AWS::Serverless::Function
    Properties:
      Handler: app.handler
      CodeUri: thumbnail/
"""

ARM_TEMPLATE = """{
  "$schema": "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#",
  "contentVersion": "1.0.0.0",
  "parameters": {
    "storageName": {"type": "string", "minLength": 3}
  },
  "resources": [
    {
      "type": "Microsoft.Storage/storageAccounts",
      "apiVersion": "2023-01-01",
      "name": "[parameters('storageName')]",
      "location": "[resourceGroup().location]",
      "sku": {"name": "Standard_LRS"},
      "kind": "StorageV2"
    }
  ]
}
"""

ANSIBLE_PLAY = """\
---
- name: Configure web servers
  hosts: webservers
  become: true
  vars:
    http_port: 80
  tasks:
    - name: Install nginx
      ansible.builtin.apt:
        name: nginx
        state: present
    - name: Start nginx
      ansible.builtin.service:
        name: nginx
        state: started
"""

ANSIBLE_PLAY_ROLES = """\
- hosts: databases
  gather_facts: true
  roles:
    - role: postgresql
      postgresql_version: 16
"""

ANSIBLE_TASKS_SHORT = """\
---
- name: Install packages
  apt:
    name: [git, curl]
    state: present
  become: yes

- name: Render config
  template:
    src: app.conf.j2
    dest: /etc/app/app.conf
  notify: restart app
"""

ANSIBLE_INVENTORY_YAML = """\
all:
  children:
    webservers:
      hosts:
        web1.example.invalid:
        web2.example.invalid:
    databases:
      hosts:
        db1.example.invalid:
          ansible_user: postgres
"""

ANSIBLE_INVENTORY_INI = """\
[webservers]
web1.example.invalid ansible_host=192.0.2.11
web2.example.invalid ansible_host=192.0.2.12

[production:children]
webservers
"""

DOCKERFILE = """\
# syntax=docker/dockerfile:1
# Build image for the worker.

FROM python:3.12-slim AS base
WORKDIR /app
COPY requirements.txt .
RUN pip install --no-cache-dir -r requirements.txt
COPY . .
CMD ["python", "-m", "worker"]
"""

GITHUB_WORKFLOW = """\
name: release
on:
  push:
    tags: ["v*"]
permissions:
  contents: write
jobs:
  publish:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: make release
        env:
          TOKEN: ${{ secrets.RELEASE_TOKEN }}
"""

COMPOSITE_ACTION = """\
name: Setup toolchain
description: Installs the pinned Go toolchain
runs:
  using: composite
  steps:
    - run: ./scripts/install-go.sh
      shell: bash
"""

ANSIBLE_MODULE_SETUP_PY = '''\
#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: Contributors to the Ansible project
from __future__ import annotations

DOCUMENTATION = r"""
---
module: setup
short_description: Gathers facts about remote hosts
"""

from ansible.module_utils.basic import AnsibleModule


def main():
    module = AnsibleModule(argument_spec=dict(filter=dict(type="list", default=[])))
    module.exit_json(ansible_facts={})


if __name__ == "__main__":
    main()
'''

PACKAGING_SETUP_PY = """\
from setuptools import find_packages, setup

setup(
    name="shop-worker",
    version="0.3.0",
    packages=find_packages(),
    install_requires=["requests>=2.31"],
)
"""

# --- look-alikes: shaped like infrastructure, but not infrastructure ---------------------------

BACKSTAGE = """\
apiVersion: backstage.io/v1alpha1
kind: Component
metadata:
  name: storefront
  description: The web shop
  annotations:
    github.com/project-slug: example/storefront
spec:
  type: service
  lifecycle: production
  owner: team-shop
"""

OPENAPI = """\
openapi: 3.0.3
info:
  title: Orders API
  version: 1.4.0
paths:
  /orders/{id}:
    get:
      operationId: getOrder
      parameters:
        - name: id
          in: path
          required: true
          schema: {type: string}
      responses:
        "200":
          description: The order
components:
  schemas:
    Order:
      type: object
      properties:
        kind: {type: string}
"""

GO_REPORT_TEMPLATE = """\
{{- /* Template for the vulnerability report (a Go text/template, not a chart) */ -}}
<h1>Report for {{ .ArtifactName }}</h1>
{{- range .Results }}
<h2>{{ .Target }}</h2>
{{- range .Vulnerabilities }}
<tr><td>{{ .VulnerabilityID }}</td><td>{{ .Severity }}</td></tr>
{{- end }}
{{- end }}
"""

HELM_TEMPLATE = """\
apiVersion: {{ include "common.capabilities.deployment.apiVersion" . }}
kind: Deployment
metadata:
  name: {{ include "nginx.fullname" . }}
  labels: {{- include "common.labels.standard" . | nindent 4 }}
spec:
  replicas: {{ .Values.replicaCount }}
"""

HELM_HELPERS = """\
{{/*
Expand the name of the chart.
*/}}
{{- define "nginx.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}
"""

KUBECONFIG = """\
apiVersion: v1
kind: Config
clusters:
  - name: dev
    cluster:
      server: https://127.0.0.1:6443
contexts:
  - name: dev
    context: {cluster: dev, user: dev}
current-context: dev
"""

SEMGREP_RULES = """\
rules:
  - id: helm-values-in-configmap
    languages: [yaml]
    severity: WARNING
    message: Avoid rendering secrets from values
    pattern: |
      data:
        password: "{{ .Values.password }}"
"""

APP_SETTINGS = """\
# Settings of the web application (read at start-up).
server:
  port: 8080
  read_timeout: 5s
database:
  host: localhost
  pool: 10
features:
  new_checkout: true
"""

# An IAM policy document as the CloudFormation samples and Terraform modules keep it beside a template.
IAM_POLICY = """{
  "Version": "2012-10-17",
  "Statement": [
    {
      "Effect": "Allow",
      "Action": ["cloudformation:CreateStack", "cloudformation:UpdateStack"],
      "Resource": "arn:aws:cloudformation:*:*:stack/static-site-*/*"
    }
  ]
}
"""

# A trust policy in YAML (Serverless and SAM users keep them so).
IAM_TRUST_POLICY_YAML = """\
Version: '2012-10-17'
Statement:
  - Effect: Allow
    Principal:
      Service: lambda.amazonaws.com
    Action: sts:AssumeRole
"""

# An INI inventory of bare hosts (ansible-examples wordpress-nginx/hosts.example).
ANSIBLE_INVENTORY_BARE = """\
# Copy to hosts and fill in your servers.
[wordpress-server]
webserver2

[db]
db[01:02].example.invalid ansible_port=2222
"""

# Look-alikes of an INI inventory: settings under a section are `key = value`, TOML `key = "v"`.
SETUP_CFG = """\
[metadata]
name = widget
version = 1.2.0

[options]
packages = find:
install_requires =
    requests>=2
"""
ENTRY_POINTS_TXT = "[console_scripts]\nwidget = widget.cli:main\n"

# A JSON document with a Version and a Statement that is not an IAM policy (a changelog record).
NOT_IAM = """{
  "Version": "3.1.0",
  "Statement": "Released to all customers"
}
"""

# A Backstage scaffolder template: a catalog-style entity under a backstage.io sub-group.
BACKSTAGE_SCAFFOLDER = """\
apiVersion: scaffolder.backstage.io/v1beta3
kind: Template
metadata:
  name: nodejs-service
spec:
  owner: platform
  type: service
  steps:
    - id: fetch
      action: fetch:template
"""

# A helmfile release template (helmfile renders it with the release's values, as Helm renders a chart).
HELMFILE_RELEASE_TEMPLATE = """\
{{- $oci := fromYaml (readFile (printf "../apps/%s/%s/app/ocirepository.yaml" .Release.Namespace .Release.Name)) -}}
chart: {{ $oci.spec.url }}
version: {{ $oci.spec.ref.tag }}
"""

# A chart's named template (a pod template defined once, included by the Deployment and the DaemonSet).
HELM_POD_TEMPLATE = """\
{{- define "traefik.podTemplate" }}
    metadata:
      annotations:
      {{- if .Values.deployment.podAnnotations }}
        {{- tpl (toYaml .Values.deployment.podAnnotations) . | nindent 8 }}
      {{- end }}
"""

# Jinja (Ansible, Salt, cookiecutter) and other tools' Go templates: no Helm object in any action.
JINJA_WITH_VALUES = """\
server {
  listen {{ item.values }};
  server_name {{ nginx.Values }};
}
"""
GORELEASER_TEMPLATE_LINE = "release:\n  footer: '{{ .ReleaseURL }} {{ .Version }}'\n"
SCAFFOLDER_VALUES = "name: ${{ values.name }}\nowner: ${{ values.owner }}\n"

# An AWS CodeBuild build specification with a name no path rule knows (a CDK pipeline's build-spec/).
CODEBUILD_BUILDSPEC = """\
version: 0.2
env:
  variables:
    S3_BUCKET: "ecs-refarch-cloudformation"
phases:
  pre_build:
    commands:
      - npm ci
  build:
    commands:
      - npx projen release
artifacts:
  files: ["dist/**/*"]
"""
# A settings file that says `version: 0.2` without a build's phases.
NOT_CODEBUILD = "version: 0.2\nname: widget\nstages: [lint, test]\n"

# Concourse: a task (run by a pipeline's `task:` step) and a pipeline.
CONCOURSE_TASK = """\
---
platform: linux
image_resource:
  type: registry-image
  source: { repository: concourse/unit }
inputs:
  - name: concourse
  - name: ci
run:
  path: ci/tasks/scripts/testflight
"""
CONCOURSE_PIPELINE = """\
# Publishes the chart when a PR is merged.
resources:
- name: concourse-chart
  type: git
  source: {uri: https://github.com/concourse/concourse-chart.git}
jobs:
- name: publish
  serial: true
  plan:
  - get: concourse-chart
    trigger: true
  - task: package
    file: ci/tasks/package-chart.yml
"""
# A GitHub workflow also has `jobs:`, and a job's `steps:`, but never a `plan:`: it stays a workflow.
# A deployment tool's list of platforms is not a Concourse task without `run:`.
NOT_CONCOURSE = "platform: linux\narch: amd64\npackages: [curl, git]\n"

# A Route 53 change batch applied with `aws route53 change-resource-record-sets --change-batch file://...`.
ROUTE53_CHANGE_BATCH = """{
  "Comment": "Failover record for the API",
  "Changes": [
    {
      "Action": "UPSERT",
      "ResourceRecordSet": {
        "Name": "api.example.com",
        "Type": "CNAME",
        "TTL": 60,
        "ResourceRecords": [{"Value": "api-east.example.com"}]
      }
    }
  ]
}
"""
# An application's own change log in JSON: actions, but no record set.
NOT_ROUTE53 = '{"changes": [{"Action": "CREATE", "Entity": "user", "Id": 7}]}\n'

# Plays whose `hosts:` is not their first key, after comments, at another indentation, and playbook imports.
ANSIBLE_PLAY_AFTER_COMMENTS = """\
# Bootstrap the cluster: install Argo CD, then let it sync the rest.
- name: Bootstrapping the cluster
  hosts: localhost
  tasks:
    - name: Create ArgoCD namespace
      kubernetes.core.k8s:
        kind: Namespace
        name: argocd
"""
ANSIBLE_PLAY_WIDE = """\
---
-   name: Web servers
    become: true
    hosts: web
    roles:
        - nginx
"""
ANSIBLE_PLAYBOOK_IMPORTS = """\
# Everything, in order.
- name: Infrastructure
  import_playbook: infra.yml
- name: Applications
  ansible.builtin.import_playbook: apps.yml
"""
# A list of machines with a `hosts:` field that has nothing a play runs.
NOT_A_PLAY = """\
# Load balancer pools
- name: eu
  hosts: [192.0.2.11, 192.0.2.12]
  weight: 3
"""

# A helm-docs README template: it walks the chart's values table (`range .Values`) to write documentation.
HELM_DOCS_TEMPLATE = """\
{{ template "chart.header" . }}
{{ define "chart.valuesTable" }}
| Key | Description | Default |
|-----|-------------|---------|
  {{- range .Values }}
| `{{ .Key }}` | {{ .Description }} | {{ .Default }} |
  {{- end }}
{{ end }}
"""

# Other CI systems' files under names no path rule knows.
AZURE_STEPS_TEMPLATE = """\
# Steps shared by the build and release pipelines.
parameters:
  - name: configuration
    default: Release
steps:
  - task: UseDotNet@2
    inputs:
      version: 8.x
  - script: dotnet build -c ${{ parameters.configuration }}
"""
AZURE_PIPELINE = "trigger: [main]\npool:\n  vmImage: ubuntu-latest\nsteps:\n  - script: make test\n"
GITLAB_INCLUDED_JOBS = """\
# included from .gitlab-ci.yml
unit-tests:
  stage: test
  image: python:3.12
  script:
    - pytest -q
"""
CIRCLECI_CONFIG = """\
version: 2.1
orbs:
  node: circleci/node@5.2
jobs:
  test:
    docker: [{image: cimg/node:20.11}]
    steps: [checkout, {run: npm test}]
workflows:
  main: {jobs: [test]}
"""
DRONE_PIPELINE = (
    "kind: pipeline\ntype: docker\nname: default\nsteps:\n- name: test\n  image: golang:1.22\n  commands:\n"
    "  - go test ./...\n")
WOODPECKER_STEPS = "steps:\n  lint:\n    image: golangci/golangci-lint\n    commands:\n      - golangci-lint run\n"
BITBUCKET_PIPELINES = "image: node:20\npipelines:\n  default:\n    - step:\n        script:\n          - npm test\n"
BUILDKITE_PIPELINE = """\
steps:
  - label: ":go: test"
    command: go test ./...
  - wait
  - trigger: deploy-pipeline
"""
# Look-alikes: a recipe's steps, a docs site's build settings, a job queue's settings.
RECIPE_STEPS = "name: pancakes\nsteps:\n  - Mix the flour and the eggs\n  - Cook on a hot pan\n"
QUEUE_SETTINGS = "pool:\n  size: 10\n  timeout: 30s\nretries: 3\n"
STAGED_ROLLOUT = "stages:\n  - name: canary\n    weight: 5\n  - name: full\n    weight: 100\n"
