"""Red team 28: a Git LFS pointer in place of an IaC program's source file.

Red team 12 made a pointer `iac.content.lfs-pointer` where the content tier reads a file; the content tier reads
configuration types (sniff.is_candidate), and source files only for an IaC library's imports (a CDK or Pulumi
program below a manifest naming the library). A pointer at `stack/main.py` (`*.py filter=lfs` in .gitattributes)
was read for imports, held none, and stayed `src`; a checkout with LFS writes the stored program, which `pulumi up`
or `cdk deploy` runs. The program reader now takes a pointer as what it is. Each variant checks first that the
real program at the same place is `iac`. Variants: Python, TypeScript, Go and C# programs, CDK, Pulumi and CDKTF."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gitrepo import GitRepo

from gatekeeper.cli import main

POINTER = ("version https://git-lfs.github.com/spec/v1\n"
           "oid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 812\n")
# name: (manifest path, its text, program path, the program)
PROGRAMS = {
    "pulumi-python": ("stack/requirements.txt", "pulumi>=3\npulumi-aws>=6\n", "stack/main.py",
                      'import pulumi\nimport pulumi_aws as aws\nbucket = aws.s3.Bucket("b")\n'),
    "cdk-typescript": ("cdk/package.json", '{"dependencies": {"aws-cdk-lib": "2.100.0"}}\n', "cdk/bin/app.ts",
                       "import * as cdk from 'aws-cdk-lib';\nconst app = new cdk.App();\n"),
    "pulumi-go": ("stack/go.mod", "module x\n\ngo 1.21\n\nrequire github.com/pulumi/pulumi/sdk/v3 v3.100.0\n",
                  "stack/main.go", 'package main\n\nimport "github.com/pulumi/pulumi/sdk/v3/go/pulumi"\n\n'
                  "func main() { pulumi.Run(nil) }\n"),
    "cdktf-csharp": ("stack/Stack.csproj", '<Project><ItemGroup><PackageReference Include="HashiCorp.Cdktf" '
                     'Version="0.20.0" /></ItemGroup></Project>\n', "stack/Program.cs",
                     "using HashiCorp.Cdktf;\nclass P { static void Main() { new App(); } }\n"),
}


def _bucket(tmp_path: Path, case: str, content: str, capsys: pytest.CaptureFixture[str]) -> tuple[str, int]:
    manifest, text, program, _ = PROGRAMS[case]
    repo = GitRepo(tmp_path / "repo")
    repo.write("README.md", "app\n")
    repo.write(manifest, text)
    base = repo.commit("base")
    repo.write(".gitattributes", f"{program.rpartition('.')[0].rpartition('/')[0]}/*.* filter=lfs diff=lfs "
                                 "merge=lfs -text\n" if content == POINTER else "")
    repo.write(program, content)
    head = repo.commit("program")
    capsys.readouterr()
    assert main(["classify", "--tree", f"{base}..{head}", "--repo", str(repo.root), "--format", "json"]) == 0
    files = {f["path"]: f for f in json.loads(capsys.readouterr().out)["files"]}
    code = main(["gate", "--tree", f"{base}..{head}", "--repo", str(repo.root)])
    return str(files[program]["bucket"]), code


@pytest.mark.parametrize("case", sorted(PROGRAMS))
def test_the_real_program_is_iac(tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str) -> None:
    assert _bucket(tmp_path, case, PROGRAMS[case][3], capsys) == ("iac", 3)


@pytest.mark.parametrize("case", sorted(PROGRAMS))
def test_a_pointer_in_its_place_is_reviewed(tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str) -> None:
    assert _bucket(tmp_path, case, POINTER, capsys) == ("iac", 3)
