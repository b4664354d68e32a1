"""`mentions_library`, the whole-patch test before any source file is read for an IaC library's import: it answers as
testing every needle (`IAC_LIBRARY_NEEDLES`) does, on real-shaped manifests and programs, near misses, and generated
texts with needles at every place (bytes, and a patch file read through `mmap` as PatchContext reads it)."""

from __future__ import annotations

import random
from pathlib import Path

from tables import each_case

from gatekeeper.classify.iacprograms import IAC_LIBRARY_NEEDLES, mentions_library
from gatekeeper.classify.patchcontext import _mentions

# What a change shows of a program or manifest that names one (written after reading CDK, CDKTF, cdk8s, Pulumi,
# troposphere, pyinfra, cfndsl and kumogata projects), and look-alikes that name none.
NAMING = [
    b'+    "aws-cdk-lib": "2.110.0",\n+    "constructs": "^10.0.0"\n',
    b"+require github.com/aws/aws-cdk-go/awscdk/v2 v2.110.0\n",
    b"+import aws_cdk as cdk\n+from aws_cdk import aws_s3 as s3\n",
    b'+<PackageReference Include="Amazon.CDK.Lib" Version="2.110.0" />\n',
    b'+import { App, TerraformStack } from "cdktf";\n',
    b"+using HashiCorp.Cdktf;\n",
    b'+import { Chart } from "cdk8s";\n',
    b"+import pulumi\n+import pulumi_aws as aws\n",
    b"+using Pulumi;\n",
    b"+from troposphere import Template, ec2\n",
    b"+from pyinfra.operations import apt\n",
    b"+require 'cfndsl'\n",
    b"+gem 'kumogata'\n",
    b'+  Type "AWS::S3::Bucket"\n',
    b"+  Type 'AWS::SQS::Queue'\n",
    b'+  Type("AWS::SNS::Topic")\n',
    b"+  Type('AWS::IAM::Role')\n",
    b'+AWSTemplateFormatVersion "2010-09-09"\n',
    b"+AWSTemplateFormatVersion '2010-09-09'\n",
]
NAMING_NONE = [
    b"+import boto3\n+s3 = boto3.client('s3')\n",
    b'+    "aws-sdk": "2.1500.0",\n',
    b"+AWSTemplateFormatVersion: '2010-09-09'\n+Resources:\n+  Bucket:\n+    Type: AWS::S3::Bucket\n",
    b"+Type = 'AWS-S3'\n+# cd k8s; pulum i; tropo sphere; py infra; cfn dsl; kumo gata\n",
    b"+ cDk cdK CdK aws cdk Amazon CDK awsCdk\n",
    b"",
]


def test_every_needle_is_reached() -> None:
    """Each needle alone, in a text that holds nothing else of any needle, is found (a needle the anchors miss would
    fail open: the patch's source files would never be read for an import)."""
    for needle in IAC_LIBRARY_NEEDLES:
        assert mentions_library(b"x" * 100 + needle + b"y" * 100), needle


@each_case("text", [*NAMING, *NAMING_NONE])
def test_real_shaped_changes(text: bytes) -> None:
    assert mentions_library(text) == any(needle in text for needle in IAC_LIBRARY_NEEDLES)
    assert mentions_library(text) == (text in NAMING)


def test_generated_texts_answer_as_every_needle_does() -> None:
    """Needles and parts of them (each needle cut at every place, case-flipped) dropped at random places in noise made
    of the needles' own bytes."""
    rng = random.Random(30)
    pieces = [needle[:cut] for needle in IAC_LIBRARY_NEEDLES for cut in range(1, len(needle))]
    pieces += [needle.swapcase() for needle in IAC_LIBRARY_NEEDLES]
    alphabet = sorted(set(b"".join(IAC_LIBRARY_NEEDLES)) | set(b"\n +-"))
    found = 0
    for _ in range(3000):
        parts = [bytes(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))]
        for _ in range(rng.randint(0, 6)):
            parts.append(rng.choice(pieces))
            parts.append(bytes(rng.choice(alphabet) for _ in range(rng.randint(0, 4))))
        if rng.random() < 0.2:
            parts.insert(rng.randint(0, len(parts)), rng.choice(IAC_LIBRARY_NEEDLES))
        text = b"".join(parts)
        want = any(needle in text for needle in IAC_LIBRARY_NEEDLES)
        found += want
        assert mentions_library(text) == want, text
    assert 400 < found < 2600  # both answers drawn often


@each_case("text", [*NAMING, *NAMING_NONE])
def test_a_patch_file_as_patchcontext_reads_it(tmp_path: Path, text: bytes) -> None:
    """Through `mmap`, after 64 KiB of a patch that names none (a needle in the middle of a large patch)."""
    patch = tmp_path / "change.diff"
    filler = b"diff --git a/src/a.go b/src/a.go\n@@ -1 +1 @@\n-x\n+y\n" * 1500
    patch.write_bytes(filler + text + filler)
    assert _mentions(patch) == (text in NAMING)
