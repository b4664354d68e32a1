"""Classes of misses the forty-first label set showed (bench/classify_accuracy/fortyfirst.tsv), one test each:
a CDK app's unit tests in a top-level cdk/ folder, the sample events and test data below a Serverless or SAM
service, and Codefresh pipelines kept under names no path rule knows."""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from gatekeeper.classify.sniff import sniff
from gatekeeper.classify.yamlroots import yaml_signals
from tests.gitrepo import GitRepo
from tests.test_classify_context import RULES, assert_path_rule, patch_files, tree_files


@each_case(("path", "bucket", "rule"), [
    # the unit tests `cdk init` writes for each language, kept in the app's own folder
    ("cdk/java/src/test/java/com/myorg/JavaTest.java", "src", "src.cdk-unit-tests"),
    ("cdk/csharp/tests/Cdk.Tests/TheLambdaPowerTunerStackTest.cs", "src", "src.cdk-unit-tests"),
    ("cdk/test/cdk.test.ts", "src", "src.cdk-unit-tests"),
    ("cdk/python/tests/unit/test_app_stack.py", "src", "src.cdk-unit-tests"),
    ("cdk/go/app_test.go", "src", "src.cdk-unit-tests"),
    ("cdk/lib/__tests__/stack.js", "src", "src.cdk-unit-tests"),
    # what the app deploys stays iac: its stacks, entry points, settings, integ tests and their snapshots
    ("cdk/lib/app-stack.ts", "iac", "iac.folders"),
    ("cdk/bin/app.ts", "iac", "iac.folders"),
    ("cdk/python/app.py", "iac", "iac.folders"),
    ("cdk/cdk.json", "iac", "iac.aws"),
    ("cdk/test/integ.app.ts", "iac", "iac.cdk-integ-tests"),
    ("cdk/test/integ.app.js.snapshot/AppStack.template.json", "iac", "iac.cdk-assembly-templates"),
    ("cdk/lib/testing-stack.ts", "iac", "iac.folders"),  # a stack whose name starts with "test" is no test
    ("cdk/contest/stack.ts", "iac", "iac.folders"),
    # test folders elsewhere keep their old rules
    ("test/app.test.ts", "src", None),
    ("infra/cdk/test/app.test.ts", "src", None),
])
def test_cdk_unit_tests_in_a_cdk_folder_are_source_code(path: str, bucket: str, rule: str | None) -> None:
    assert_path_rule(path, bucket, rule)


_CODEFRESH_SPEC = """version: "1.0"
kind: pipeline
metadata:
  name: storefront-staging
  description: Triggered when a PR is merged
spec:
  triggers:
  - type: git
    provider: github
    repo: example/storefront
  stages:
    - release
  steps:
    main_clone:
      title: Cloning repository
      type: git-clone
      repo: "${{CF_REPO_OWNER}}/${{CF_REPO_NAME}}"
      revision: "${{CF_BRANCH}}"
      stage: release
    build_image:
      title: Building container image
      type: build
      image_name: example/storefront
"""
_CODEFRESH_PLAIN = """# Codefresh pipeline of the pull requests
version: '1.0'
stages:
  - test
steps:
  unit_tests:
    title: Running unit tests
    image: golang:1.22
    commands:
      - go test ./...
    stage: test
  report:
    image: alpine
    commands:
      - echo ${{CF_SHORT_REVISION}}
"""


@each_case(("path", "text", "rule"), [
    ("codefresh/codefresh-staging.yml", _CODEFRESH_SPEC, "ci.content.codefresh"),
    ("pipelines/pr.yaml", _CODEFRESH_PLAIN, "ci.content.codefresh"),
    ("ci-pr.yml", _CODEFRESH_SPEC.replace('"1.0"', "'1.0'").replace("\n", "\r\n"), "ci.content.codefresh"),
    # look-alikes: a version 1.0 document with steps that are no Codefresh steps, a recipe, an OpenAPI info block
    ("docs/howto.yml", "version: '1.0'\nsteps:\n  - name: open the settings\n    type: manual\n", None),
    ("recipe.yml", "version: 1.0\nsteps:\n  mix:\n    type: stir\n    minutes: 3\n", None),
    ("api.yml", "openapi: 3.0.0\ninfo:\n  version: '1.0'\n  title: x\npaths: {}\n", None),
    ("steps.yml", "steps:\n  build:\n    type: build\n", None),  # no version: not enough
])
def test_codefresh_pipelines_under_ordinary_names(path: str, text: str, rule: str | None) -> None:
    signal = sniff(path, text.encode(), RULES.context)
    assert (signal.rule if signal else None) == rule, signal
    if signal:
        assert signal.bucket == "ci"


@each_case(("text", "found"), [
    ('{version: "1.0", steps: {b: {type: build, image_name: x}}}\n', True),  # flow style
    ('{version: "1.0", kind: pipeline, spec: {steps: {c: {type: git-clone}}}}\n', True),
    ('{version: "1.0", steps: {b: {type: stir}}}\n', False),
    ('{version: "2.0", steps: {b: {type: build}}}\n', False),
])
def test_codefresh_pipelines_read_as_yaml(text: str, found: bool) -> None:
    rules = [rule for _, rule, _ in yaml_signals(text, RULES.context)]
    assert ("ci.content.codefresh" in rules) == found, rules


def test_the_forty_first_classes_in_a_real_repository(git_repo: GitRepo, tmp_path: Path) -> None:
    """serverless-stack-demo-api's layout (resources/ beside mocks/), a SAM app with events/, a CDK folder with its
    tests, and a Codefresh folder, in one change."""
    git_repo.write("README.md", "# notes app\n")
    git_repo.write("serverless.yml", "service: notes-api\nprovider:\n  name: aws\nresources:\n"
                                     "  - ${file(resources/s3-bucket.yml)}\n")
    git_repo.write("sam-app/samconfig.toml", 'version = 0.1\n[default.deploy.parameters]\nstack_name = "x"\n')
    git_repo.write("cdk/cdk.json", '{"app": "npx ts-node bin/app.ts"}\n')
    git_repo.commit("base")
    texts = {
        "resources/s3-bucket.yml": "Resources:\n  AttachmentsBucket:\n    Type: AWS::S3::Bucket\n",
        "resources/limits.json": '{"maxItems": 20}\n',
        "mocks/list-event.json": '{"requestContext": {"identity": {"cognitoIdentityId": "USER-SUB-1234"}}}\n',
        "__tests__/data/delete-follower.json": '{"Records": [{"eventName": "REMOVE"}]}\n',
        "events/get.json": '{"httpMethod": "GET", "path": "/notes"}\n',
        "tests/e2e/stack.yml": "AWSTemplateFormatVersion: '2010-09-09'\nResources:\n"
                               "  Queue:\n    Type: AWS::SQS::Queue\n",
        "sam-app/events/event.json": '{"body": "{\\"message\\": \\"hello\\"}"}\n',
        "sam-app/env.json": '{"HelloFunction": {"TABLE": "notes"}}\n',
        "cdk/test/app.test.ts": "import { Template } from 'aws-cdk-lib/assertions';\ntest('ok', () => {});\n",
        "cdk/lib/app-stack.ts": "import * as cdk from 'aws-cdk-lib';\nexport class AppStack extends cdk.Stack {}\n",
        "codefresh/codefresh-staging.yml": _CODEFRESH_SPEC,
    }
    want = {"resources/s3-bucket.yml": "iac", "resources/limits.json": "iac", "mocks/list-event.json": "src",
            "__tests__/data/delete-follower.json": "src", "events/get.json": "src", "tests/e2e/stack.yml": "iac",
            "sam-app/events/event.json": "src", "sam-app/env.json": "iac", "cdk/test/app.test.ts": "src",
            "cdk/lib/app-stack.ts": "iac", "codefresh/codefresh-staging.yml": "ci"}
    for path, text in texts.items():
        git_repo.write(path, text)
    git_repo.commit("head")
    files = tree_files(git_repo)
    assert {path: files[path].bucket for path in want} == want
    assert files["tests/e2e/stack.yml"].rule == "iac.content.cloudformation"  # content still raises a template
    patched = patch_files(git_repo, tmp_path)
    content = ["codefresh/codefresh-staging.yml", "cdk/test/app.test.ts", "tests/e2e/stack.yml"]
    assert {path: patched[path].bucket for path in content} == {path: want[path] for path in content}
