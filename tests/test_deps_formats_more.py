"""Declarations the first parsers missed, found on real bot update commits (bench/deps_bumps.tsv):
Maven profiles, pluginManagement and plugin dependencies; Terraform required_providers, helm_release
and container images; bare URL lines of requirements files."""

from __future__ import annotations

from gatekeeper.deps import infra, jvm, pypi
from gatekeeper.deps.delta import diff

POM = """<project xmlns="http://maven.apache.org/POM/4.0.0">
  <build>
    <pluginManagement><plugins>
      <plugin><artifactId>maven-surefire-plugin</artifactId><version>3.5.2</version></plugin>
    </plugins></pluginManagement>
    <plugins>
      <plugin>
        <groupId>com.diffplug.spotless</groupId><artifactId>spotless-maven-plugin</artifactId><version>2.44.4</version>
        <dependencies>
          <dependency><groupId>com.google.googlejavaformat</groupId><artifactId>google-java-format</artifactId>
            <version>1.25.0</version></dependency>
        </dependencies>
      </plugin>
    </plugins>
  </build>
  <profiles>
    <profile>
      <id>native</id>
      <dependencies>
        <dependency><groupId>com.android.tools</groupId><artifactId>r8</artifactId><version>8.2.47</version></dependency>
      </dependencies>
      <build><plugins>
        <plugin><groupId>org.graalvm.buildtools</groupId><artifactId>native-maven-plugin</artifactId>
          <version>0.10.4</version></plugin>
      </plugins></build>
    </profile>
  </profiles>
</project>
"""


def test_pom_profiles_plugin_management_and_plugin_dependencies() -> None:
    deps = {(d.name, d.version, d.scope) for d in jvm.parse_pom("pom.xml", POM.encode())}
    assert deps == {
        ("org.apache.maven.plugins:maven-surefire-plugin", "3.5.2", "build"),
        ("com.diffplug.spotless:spotless-maven-plugin", "2.44.4", "build"),
        ("com.google.googlejavaformat:google-java-format", "1.25.0", "build"),
        ("com.android.tools:r8", "8.2.47", "runtime"),
        ("org.graalvm.buildtools:native-maven-plugin", "0.10.4", "build"),
    }
    head = POM.replace("<version>8.2.47</version>", "<version>8.3.37</version>")
    changes = diff(jvm.parse_pom("pom.xml", POM.encode()), jvm.parse_pom("pom.xml", head.encode()), "pom.xml")
    assert [(c.name, c.to_version, c.change) for c in changes] == [("com.android.tools:r8", "8.3.37", "upgraded")]


TF = """terraform {
  required_providers {
    google = {
      source  = "hashicorp/google"
      version = ">= 5.0, < 7"
    }
    random = "3.1.0"
  }
}

resource "helm_release" "kuberay" {
  name       = "kuberay-operator"
  repository = "https://ray-project.github.io/kuberay-helm/"
  chart      = "kuberay-operator"
  version    = "1.6.2"
  set {
    name  = "image.tag"
    value = "v1"
  }
}

resource "kubernetes_deployment" "web" {
  spec {
    template {
      spec {
        container {
          image = "nginx:1.31.0"
        }
      }
    }
  }
}

resource "google_compute_instance" "vm" {
  boot_disk {
    initialize_params {
      image = "debian-cloud/debian-12"
    }
  }
}
"""


def test_terraform_providers_helm_releases_and_images() -> None:
    deps = {(d.ecosystem, d.name, d.version) for d in infra.parse_terraform("main.tf", TF.encode())}
    assert deps == {
        ("terraform", "hashicorp/google", ">= 5.0, < 7"),
        ("terraform", "hashicorp/random", "3.1.0"),
        ("helm", "kuberay-operator", "1.6.2"),
        ("docker", "nginx", "1.31.0"),  # a VM image name without tag or digest is no container image
    }


def test_requirements_bare_url_lines_are_dependencies() -> None:
    data = (b"coverage==7.4.0\n"
            b"git+https://github.com/dateutil/dateutil.git@f2293200747fb03d56c6c5997bfebeabe703576f\n"
            b"https://example.org/wheels/pkg-1.0-py3-none-any.whl#egg=pkg\n")
    deps = {(d.name, d.version) for d in pypi.parse_requirements("tests/requirements.txt", data)}
    # at a commit: the commit from the rest of the URL (round 50, loaders.url_version), nothing of the URL dropped
    assert ("dateutil", "f2293200747fb03d56c6c5997bfebeabe703576f from git+https://github.com/dateutil/dateutil.git") \
        in deps
    assert ("pkg", "https://example.org/wheels/pkg-1.0-py3-none-any.whl#egg=pkg") in deps
    assert ("coverage", "7.4.0") in deps


def test_dockerfile_syntax_directive_is_an_image_the_build_runs() -> None:
    from gatekeeper.deps import docker

    body = b"# syntax=docker/dockerfile:1.21\n# escape=`\nFROM golang:1.25-alpine AS build\nFROM scratch\n"
    deps = [(d.name, d.version) for d in docker.parse_dockerfile("Dockerfile", body)]
    assert deps == [("docker/dockerfile", "1.21"), ("golang", "1.25-alpine")]
    late = b"FROM alpine:3.20\n# syntax=docker/dockerfile:1.21\n"  # below an instruction: a plain comment
    assert [d.name for d in docker.parse_dockerfile("Dockerfile", late)] == ["alpine"]
