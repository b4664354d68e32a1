"""Benchmark: sweep the classifier over whole mirrored repositories and list where cheap evidence disagrees.

Run: .venv/bin/python bench/classify_sweep.py [--mirror DIR] [--max-files N] [--limit N] [--jobs N]
     [--source DIR] [--cache DIR] [--out FILE] [--samples N]

No labels: for each bare mirror `<mirror>/<owner>+<name>/repo`, the HEAD tree is classified the way
`gatekeeper classify --tree` does it (bench_classify_accuracy's scratch history: the empty tree, then
HEAD's tree; the real CLI), and every file's bucket is compared with INDEPENDENT evidence that scanners
and Renovate use (docs: /work/shared/research/iac-detection.md): names (Dockerfile, Chart.yaml,
kustomization.yaml, CI systems' files, Renovate's default file patterns of the language package managers)
and content signatures of the first 8 KiB (Kubernetes `apiVersion:` + `kind:`, CloudFormation, ARM,
Ansible plays and task lists, Terraform/Bicep blocks, compose `services:`, GitHub workflows and actions),
and scripts that a CI definition names by path. A file whose evidence says ci, iac or deps and whose
bucket is something else is a disagreement; disagreements are clustered by (evidence signal, deciding
rule, folder shape, extension) and printed largest first with sample paths, to be read (`git show`)
before any rule changes: the evidence has false alarms of its own (test data, docs examples).

Classifications are cached per repository and HEAD commit under --cache, keyed by the source's
classification rules, so the evidence can be refined without classifying again. `--compare FILE`
(a --json output of an earlier run) lists files whose bucket moved, per (from, to) pair.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_classify_accuracy as accuracy  # noqa: E402  (a sibling script, not a package)

HEAD_BYTES = 8192  # the tier rules' content bound; the research note measured 8 KiB as enough
CONTENT_EXTENSIONS = {".yml", ".yaml", ".json", ".tf", ".hcl", ".bicep", ".tpl", ".j2", ".template", ""}
RANK = {"src": 0, "other": 1, "deps": 2, "iac": 3, "ci": 4}  # the classifier's order of sensitivity
# Folders where the evidence itself is expected to be wrong (principle 1 and 6: test data, examples, docs):
# their disagreements are counted apart, so the clusters elsewhere come first.
TEST_PARTS = {"test", "tests", "testdata", "fixtures", "__fixtures__", "spec", "examples", "example", "docs",
              "doc", "samples", "sample", "testing", "e2e", "__tests__", "test-data", "test_data"}


@dataclass(frozen=True, slots=True)
class Evidence:
    bucket: str
    signal: str


# --- independent evidence -------------------------------------------------------------------------

DOCKERFILE = re.compile(r"(^|[./-])([Dd]ocker|[Cc]ontainer)file([./-][^/]*)?$")
CI_NAMES = [
    (re.compile(r"(^|/)\.github/workflows/[^/]+\.ya?ml$"), "name:github-workflow"),
    (re.compile(r"(^|/)\.gitlab-ci\.ya?ml$"), "name:gitlab-ci"),
    (re.compile(r"(^|/)Jenkinsfile[^/]*$"), "name:jenkinsfile"),
    (re.compile(r"(^|/)\.circleci/"), "name:circleci"),
    (re.compile(r"azure.*pipelines?.*\.ya?ml$"), "name:azure-pipelines"),
    (re.compile(r"^\.travis\.ya?ml$"), "name:travis"),
    (re.compile(r"(^|/)bitbucket-pipelines\.yml$"), "name:bitbucket"),
    (re.compile(r"(^|/)\.drone\.yml$"), "name:drone"),
    (re.compile(r"(^|/)\.?appveyor\.ya?ml$"), "name:appveyor"),
    (re.compile(r"(^|/)cloudbuild[^/]*\.ya?ml$"), "name:cloudbuild"),
    (re.compile(r"(^|/)buildspec[^/]*\.ya?ml$"), "name:codebuild"),
    (re.compile(r"(^|/)\.buildkite/"), "name:buildkite"),
    (re.compile(r"(^|/)Earthfile$"), "name:earthly"),
    (re.compile(r"(^|/)action\.ya?ml$"), "name:action"),
    (re.compile(r"^\.woodpecker(/[^/]+)?\.ya?ml$"), "name:woodpecker"),
    (re.compile(r"(^|/)\.cirrus\.ya?ml$"), "name:cirrus"),
]
IAC_NAMES = [
    (re.compile(r"(^|/)Chart\.ya?ml$"), "name:helm-chart"),
    (re.compile(r"(^|/)kustomization\.ya?ml$"), "name:kustomization"),
    (re.compile(r"(^|/)(docker-)?compose[^/]*\.ya?ml$"), "name:compose"),
    (re.compile(r"\.tf$|\.tofu$"), "name:terraform"),
    (re.compile(r"(^|/)terragrunt\.hcl$"), "name:terragrunt"),
    (re.compile(r"\.bicep$"), "name:bicep"),
    (re.compile(r"(^|/)Vagrantfile$"), "name:vagrant"),
    (re.compile(r"(^|/)Pulumi\.ya?ml$"), "name:pulumi"),
    (re.compile(r"(^|/)serverless\.ya?ml$"), "name:serverless"),
    (re.compile(r"(^|/)helmfile\.ya?ml$"), "name:helmfile"),
    (re.compile(r"(^|/)ansible\.cfg$"), "name:ansible-cfg"),
    (re.compile(r"\.pkr\.hcl$"), "name:packer"),
]
# Renovate's default file patterns of the language package managers (categories not ci, iac, docker,
# kubernetes, helm, cd); its generic names (html, manifest.json, package.js, *.main.kts, *.typ,
# repositories, plugins.txt, Formula/*.rb, quadlet units) are left out: Renovate gates them on content.
DEPS_NAMES = [re.compile(p) for p in (
    r"(^|/)build\.xml$", r"(^|/|\.)MODULE\.bazel$", r"(^|/)WORKSPACE(|\.bazel|\.bzlmod)$", r"(^|/)\.bazelversion$",
    r"(^|/)\.tool-versions$", r"(^|/)bun\.lockb?$", r"(^|/)package\.json$", r"(^|/)Gemfile$", r"\.cake$",
    r"(^|/)Cargo\.toml$", r"(^|/)Podfile$", r"(^|/)([\w-]*)composer\.json$", r"(^|/)conanfile\.(txt|py)$",
    r"(^|/)cpanfile$", r"(^|/)deno\.lock$", r"(^|/)deno\.(json|jsonc)$", r"(^|/)(deps|bb)\.edn$",
    r"(^|/)devbox\.json$", r"(^|/)\.fvmrc$", r"(^|/)\.gitmodules$", r"(^|/)gleam\.toml$", r"(^|/)go\.mod$",
    r"(^|/)gradle/wrapper/gradle-wrapper\.properties$", r"\.gradle(\.kts)?$", r"(^|/)gradle\.properties$",
    r"(^|/)gradle/.+\.toml$", r"\.versions\.toml$", r"\.cabal$", r"(^|/)project\.clj$",
    r"(^|/)\.mvn/wrapper/maven-wrapper\.properties$", r"(^|/)mvnw(\.cmd)?$", r"(^|/|\.)pom\.xml$",
    r"(^|/)\.mvn/extensions\.xml$", r"(^|/)Mintfile$", r"(^|/)\.?mise(\.[^/]*)?\.toml$", r"(^|/)mix\.exs$",
    r"(^|/)flake\.nix$", r"(^|/)\.node-version$", r"(^|/)pnpm-workspace\.yaml$", r"(^|/)\.yarnrc\.yml$",
    r"\.(cs|fs|vb|sql)proj$", r"\.(props|targets)$", r"(^|/)dotnet-tools\.json$", r"(^|/)global\.json$",
    r"(^|/)\.nvmrc$", r"(^|/)pyproject\.toml$", r"(^|/)[\w-]*requirements([-._]\w+)?\.(txt|pip)$",
    r"(^|/)setup\.py$", r"(^|/)Pipfile$", r"(^|/)pixi\.toml$", r"(^|/)\.prototools$", r"(^|/)pubspec\.ya?ml$",
    r"(^|/)\.python-version$", r"(^|/)\.ruby-version$", r"(^|/)runtime\.txt$", r"(^|/)rust-toolchain(\.toml)?$",
    r"\.sbt$", r"project/[^/]*\.scala$", r"project/build\.properties$", r"(^|/)setup\.cfg$",
    r"(^|/)smithy-build\.json$", r"(^|/)Package\.swift$", r"(^|/)\.terraform-version$", r"(^|/)\.terragrunt-version$",
    r"(^|/)\.tflint\.hcl$", r"(^|/)jsonnetfile\.json$", r"(^|/)vendir\.yml$", r"(^|/)Puppetfile$",
    r"(^|/)(yarn\.lock|package-lock\.json|pnpm-lock\.yaml|Cargo\.lock|Gemfile\.lock|poetry\.lock|uv\.lock|go\.sum"
    r"|composer\.lock|Pipfile\.lock|pubspec\.lock|Podfile\.lock|mix\.lock|flake\.lock|packages\.lock\.json)$",
)]
K8S_API = re.compile(r"^apiVersion:\s*\S", re.M)
K8S_KIND = re.compile(r"^kind:\s*[A-Z]\w*", re.M)
ARGO_FLUX = re.compile(r"^apiVersion:\s*(argoproj\.io|[\w.]*fluxcd\.io|[\w.]*crossplane\.io)/", re.M)
CFN = re.compile(r"AWSTemplateFormatVersion|^Resources:\s*$[\s\S]*?Type:\s*['\"]?AWS::", re.M)
CFN_JSON = re.compile(r'"Resources"\s*:\s*\{[\s\S]*?"Type"\s*:\s*"AWS::')
ARM = re.compile(r"schema\.management\.azure\.com/schemas/[^\"]*(deploymentTemplate|deploymentParameters)")
ANSIBLE_PLAY = re.compile(r"^-\s+(hosts|import_playbook):\s*\S", re.M)
ANSIBLE_TASKS = re.compile(r"^-\s+(name:.*\n\s+)?(ansible\.builtin\.|apt:|yum:|package:|service:|template:|copy:|"
                           r"shell:|command:|file:|lineinfile:|include_tasks:|import_tasks:|include_role:|"
                           r"systemd:|become:)", re.M)
HCL_BLOCK = re.compile(r'^(resource|module|provider|data)\s+"[\w-]+"', re.M)
BICEP_RESOURCE = re.compile(r"^resource\s+\w+\s+'[\w.]+/", re.M)
DOCKER_FROM = re.compile(r"^\s*FROM\s+\S", re.M | re.I)
COMPOSE_SERVICES = re.compile(r"^services:\s*$[\s\S]*?^\s{2,}(image|build):", re.M)
GH_WORKFLOW = re.compile(r"^(on|\"on\"|'on'):[\s\S]*^jobs:[\s\S]*runs-on:", re.M)
GH_ACTION = re.compile(r"^runs:\s*$[\s\S]*?^\s+using:\s*['\"]?(composite|node\d+|docker)", re.M)
SCRIPT_REF = re.compile(
    r"(?:^|[\s'\"=(])((?:\./)?(?:[\w.@-]+/)*[\w.@-]+\.(?:sh|bash|py|ps1|rb|pl|cmd|bat|js|ts|mjs))\b")


def name_evidence(path: str) -> Evidence | None:
    for pattern, signal in CI_NAMES:
        if pattern.search(path):
            return Evidence("ci", signal)
    base = PurePosixPath(path).name
    if DOCKERFILE.search(base) and not base.endswith((".md", ".txt", ".go", ".py", ".ts", ".js")):
        return Evidence("iac", "name:dockerfile")
    for pattern, signal in IAC_NAMES:
        if pattern.search(path):
            return Evidence("iac", signal)
    for pattern in DEPS_NAMES:
        if pattern.search(path):
            return Evidence("deps", "renovate:" + pattern.pattern[:40])
    return None


def content_evidence(path: str, head: str) -> Evidence | None:
    ext = PurePosixPath(path).suffix.lower()
    if ext in (".yml", ".yaml", ".tpl", ".j2", ".template", ".json", ""):
        if ext in (".yml", ".yaml") and GH_WORKFLOW.search(head):
            return Evidence("ci", "content:github-workflow")
        if ext in (".yml", ".yaml") and GH_ACTION.search(head):
            return Evidence("ci", "content:github-action")
        if ARGO_FLUX.search(head):
            return Evidence("iac", "content:argo-flux-crossplane")
        if K8S_API.search(head) and K8S_KIND.search(head):
            return Evidence("iac", "content:k8s")
        if CFN.search(head) or CFN_JSON.search(head):
            return Evidence("iac", "content:cloudformation")
        if ext == ".json" and ARM.search(head):
            return Evidence("iac", "content:arm")
        if ext in (".yml", ".yaml") and ANSIBLE_PLAY.search(head):
            return Evidence("iac", "content:ansible-play")
        if ext in (".yml", ".yaml") and ANSIBLE_TASKS.search(head) and "tasks" in path.split("/")[:-1]:
            return Evidence("iac", "content:ansible-tasks")
        if ext in (".yml", ".yaml") and COMPOSE_SERVICES.search(head):
            return Evidence("iac", "content:compose")
    if ext in (".hcl", ".tf", ".tpl", "") and HCL_BLOCK.search(head):
        return Evidence("iac", "content:hcl")
    if ext == ".bicep" and BICEP_RESOURCE.search(head):
        return Evidence("iac", "content:bicep")
    return None


def is_content_candidate(path: str) -> bool:
    name = PurePosixPath(path).name
    ext = PurePosixPath(name).suffix.lower()
    return ext in CONTENT_EXTENSIONS and (ext != "" or name[:1].isupper() or "." not in name)


# --- one repository ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FileRow:
    path: str
    bucket: str
    rule: str
    tier: str
    evidence: Evidence | None
    shape: str


def in_test_context(path: str) -> bool:
    return any(part.lower() in TEST_PARTS or part.lower().startswith(("test", "example", "fixture"))
               or part.lower().endswith(("test", "tests", "testdata", "fixtures", "examples"))
               for part in path.split("/")[:-1])


def shape_of(path: str) -> str:
    """A path's shape: the folder names that say what it is (test, CI, deploy...) and its extension."""
    parts = path.split("/")
    folders = [p for p in parts[:-1] if p.lower() in TEST_PARTS or p.startswith(".")
               or p.lower() in {"deploy", "deployment", "k8s", "kubernetes", "helm", "charts", "chart", "manifests",
                                "terraform", "infra", "ansible", "roles", "scripts", "ci", "build", "tools", "hack",
                                "templates", "config", "conf", "docker", "vendor", "third_party"}]
    ext = PurePosixPath(parts[-1]).suffix.lower() or parts[-1]
    return "/".join(dict.fromkeys(f.lower() for f in folders)) + "|" + ext


def read_heads(git_dir: Path, blobs: list[str]) -> list[str]:
    """The first 8 KiB of each blob (text, replacement characters for undecodable bytes)."""
    if not blobs:
        return []
    done = subprocess.run(["git", "--git-dir", str(git_dir), "cat-file", "--batch"], check=True,
                          input="".join(f"{b}\n" for b in blobs).encode(), capture_output=True)
    out, pos, heads = done.stdout, 0, []
    for _ in blobs:
        header_end = out.index(b"\n", pos)
        header = out[pos:header_end].split()
        if header[-1] == b"missing":
            heads.append("")
            pos = header_end + 1
            continue
        size = int(header[2])
        body = out[header_end + 1: header_end + 1 + min(size, HEAD_BYTES)]
        heads.append(body.decode("utf-8", "replace"))
        pos = header_end + 1 + size + 1
    return heads


def ci_called_scripts(paths: set[str], ci_heads: dict[str, str]) -> dict[str, str]:
    """Scripts of the tree that a CI definition names by path (relative to the root or its own folder)."""
    called: dict[str, str] = {}
    for definition, text in ci_heads.items():
        folder = str(PurePosixPath(definition).parent)
        for ref in SCRIPT_REF.findall(text):
            ref = ref.removeprefix("./")
            for candidate in (ref, f"{folder}/{ref}" if folder != "." else ref):
                if candidate in paths and candidate != definition:
                    called.setdefault(candidate, definition)
    return called


def classify(git_dir: Path, commit: str, source: Path, policy: Path, timeout: float) -> list[dict[str, object]]:
    with tempfile.TemporaryDirectory(prefix="gk-sweep-") as tmp:
        work = Path(tmp)
        repo, base, head = accuracy.scratch_history(git_dir, commit, work)
        cmd = [sys.executable, "-m", "gatekeeper", "classify", "--tree", f"{base}..{head}", "--repo", str(repo),
               "--policy", str(policy), "--format", "json"]
        done = subprocess.run(cmd, cwd=work, capture_output=True, check=False, env=accuracy.source_env(source),
                              timeout=timeout)
        if done.returncode != 0:
            raise RuntimeError(f"classify exit {done.returncode}: {done.stderr.decode(errors='replace')[-300:]}")
        files: list[dict[str, object]] = json.loads(done.stdout)["files"]
        return files


def sweep_repo(name: str, git_dir: Path, args: argparse.Namespace, rules_key: str) -> list[FileRow]:
    commit = accuracy.git(git_dir, "rev-parse", "HEAD^{commit}").decode().strip()
    cache = args.cache / f"{name}@{commit[:12]}@{rules_key}.json"
    if cache.is_file():
        files = json.loads(cache.read_text())
    elif args.cached_only:
        raise ValueError("not classified yet (--cached-only)")
    else:
        files = [{"path": f["path"], "bucket": f["bucket"], "rule": f["rule"], "tier": f.get("tier")}
                 for f in classify(git_dir, commit, args.source, args.policy, args.timeout)]
        cache.write_text(json.dumps(files))
    blobs: dict[str, str] = {}
    for entry in accuracy.git(git_dir, "ls-tree", "-r", "-z", commit).split(b"\0"):
        meta, _, path = entry.decode("utf-8", "surrogateescape").partition("\t")
        if meta.split()[1:2] == ["blob"]:
            blobs[path] = meta.split()[2]
    got = {str(f["path"]): f for f in files}
    candidates = [p for p in got if p in blobs and is_content_candidate(p)]
    ci_defs = [p for p in got if p in blobs and PurePosixPath(p).suffix.lower() in (".yml", ".yaml", "")
               and (got[p]["bucket"] == "ci" or getattr(name_evidence(p), "bucket", None) == "ci")]
    wanted = list(dict.fromkeys(candidates + ci_defs))
    heads = dict(zip(wanted, read_heads(git_dir, [blobs[p] for p in wanted]), strict=True))
    called = ci_called_scripts(set(got), {p: heads[p] for p in ci_defs})
    rows = []
    for path, f in got.items():
        evidence = name_evidence(path)
        if evidence is None and path in heads:
            evidence = content_evidence(path, heads[path])
        if evidence is None and path in called:
            evidence = Evidence("ci", f"called-from-ci:{PurePosixPath(called[path]).name}")
        rows.append(FileRow(path, str(f["bucket"]), str(f["rule"]), str(f.get("tier")), evidence, shape_of(path)))
    return rows


def rules_digest(source: Path) -> str:
    digest = hashlib.sha256()
    rules = sorted((source / "policies").glob("classification*"))
    for file in rules + sorted((source / "gatekeeper" / "classify").glob("*.py")):
        digest.update(file.read_bytes())
    return digest.hexdigest()[:12]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mirror", type=Path, default=Path(os.environ.get("GATEKEEPER_BENCH_MIRROR", "/work/.mirror")))
    parser.add_argument("--source", type=Path, default=accuracy.REPO_ROOT)
    parser.add_argument("--policy", type=Path)
    parser.add_argument("--max-files", type=int, default=30000, help="skip larger trees (default 30000)")
    parser.add_argument("--repo", action="append", help="only this mirror folder (OWNER+NAME; repeatable)")
    parser.add_argument("--limit", type=int, default=0, help="at most N repositories (0: all)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=600.0)
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "gk-sweep-cache")
    parser.add_argument("--cached-only", action="store_true",
                        help="only the repositories already classified under --cache (a partial run's results)")
    parser.add_argument("--samples", type=int, default=4, help="sample paths per cluster")
    parser.add_argument("--json", type=Path, help="also write every file's row here")
    parser.add_argument("--compare", type=Path, help="a --json file of an earlier run: list moved files")
    args = parser.parse_args()
    args.source = args.source.resolve()
    args.policy = (args.policy or args.source / "policies").resolve()
    args.cache.mkdir(parents=True, exist_ok=True)
    key = rules_digest(args.source)

    repos = []
    for folder in sorted(args.mirror.iterdir()):
        git_dir = accuracy.mirror_dir(args.mirror, folder.name.replace("+", "/", 1))
        if not (git_dir / "HEAD").is_file() or (args.repo and folder.name not in args.repo):
            continue
        count = accuracy.git(git_dir, "ls-tree", "-r", "--name-only", "-z", "HEAD").count(b"\0")
        if 0 < count <= args.max_files:
            repos.append((folder.name, git_dir))
    if args.limit:
        repos = repos[: args.limit]
    began = time.perf_counter()
    results: dict[str, list[FileRow]] = {}
    failures = []

    def one(item: tuple[str, Path]) -> None:
        name, git_dir = item
        try:
            results[name] = sweep_repo(name, git_dir, args, key)
        except (RuntimeError, subprocess.SubprocessError, ValueError) as err:
            failures.append(f"{name}: {err}")

    with ThreadPoolExecutor(args.jobs) as pool:
        list(pool.map(one, repos))
    seconds = time.perf_counter() - began
    rows = [(name, row) for name, repo_rows in sorted(results.items()) for row in repo_rows]
    print(f"swept {len(results)} repositories, {len(rows)} files in {seconds:.0f} s "
          f"({len(failures)} failed; trees over {args.max_files} files skipped)")
    for failure in failures if not args.cached_only else ():
        print(f"  failed: {failure}")
    with_evidence = [(n, r) for n, r in rows if r.evidence]
    print(f"files with evidence: {len(with_evidence)}; by evidence bucket: "
          f"{dict(Counter(r.evidence.bucket for _, r in with_evidence if r.evidence))}")
    clusters: dict[tuple[str, str, str, str], list[str]] = defaultdict(list)
    in_tests: Counter[tuple[str, str, str]] = Counter()
    for name, row in with_evidence:
        assert row.evidence
        if RANK[row.bucket] >= RANK[row.evidence.bucket]:
            continue  # as sensitive as the evidence, or more
        if in_test_context(row.path):
            in_tests[(row.evidence.signal, row.bucket, row.rule)] += 1
            continue
        clusters[(row.evidence.signal, row.bucket, row.rule, row.shape)].append(f"{name}:{row.path}")
    print(f"below the evidence in test, example or docs folders: {sum(in_tests.values())} files")
    for (signal, bucket, rule), n in in_tests.most_common(args.samples * 4):
        print(f"  {n:6}  {signal} -> {bucket} ({rule})")
    total = sum(len(v) for v in clusters.values())
    print(f"below the evidence elsewhere: {total} files in {len(clusters)} clusters")
    by_signal: Counter[tuple[str, str]] = Counter()
    for (signal, bucket, _, _), members in clusters.items():
        by_signal[(signal, bucket)] += len(members)
    for (signal, bucket), n in by_signal.most_common():
        print(f"  {n:6}  {signal} -> {bucket}")
    for (signal, bucket, rule, shape), members in sorted(clusters.items(), key=lambda kv: -len(kv[1])):
        repos_in = len({m.split(':')[0] for m in members})
        print(f"{len(members):6} files {repos_in:4} repos  {signal} -> {bucket} ({rule})  shape {shape}")
        for member in members[: args.samples]:
            print(f"          {member}")
    if args.json:
        args.json.write_text(json.dumps({f"{n}:{r.path}": [r.bucket, r.rule, r.tier] for n, r in rows}))
    if args.compare:
        before = json.loads(args.compare.read_text())
        moved: dict[tuple[str, str], list[str]] = defaultdict(list)
        for n, r in rows:
            old = before.get(f"{n}:{r.path}")
            if old and old[0] != r.bucket:
                moved[(old[0], r.bucket)].append(f"{n}:{r.path} ({old[1]} -> {r.rule})")
        print(f"moved against {args.compare}: {sum(len(v) for v in moved.values())} files")
        for (frm, to), members in sorted(moved.items(), key=lambda kv: -len(kv[1])):
            print(f"  {len(members):5}  {frm} -> {to}")
            for member in members[: args.samples * 3]:
                print(f"          {member}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
