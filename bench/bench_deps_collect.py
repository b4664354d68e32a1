"""Collect bench/deps_bumps.tsv: real dependency-update commits of public repositories, per ecosystem.

A case is a commit with one parent whose message is a bot's (Dependabot's, Renovate's) update message
and that touches a dependency file; one TSV row per package the message names (a grouped update has
several rows, and bench_deps_accuracy.py counts the commit only when every one is found). Only
(repository, commit, package, version) is kept; the ecosystem is re-derived from the files the commit
touches whenever the benchmark runs. Repositories are read from local mirrors (the search tool's
`fetch github:owner/name` writes them to /work/.mirror/owner+name/repo).

    python bench/bench_deps_collect.py [--mirrors DIR] [--per N] [--out FILE]
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gatekeeper.deps.claims import Claim, claims  # noqa: E402
from gatekeeper.deps.registry import format_for  # noqa: E402

DATA = Path(__file__).with_name("deps_bumps.tsv")
REPOS = (
    "actions/checkout", "gin-gonic/gin", "sharkdp/bat", "pallets/flask", "renovatebot/github-action",
    "GoogleCloudPlatform/microservices-demo", "GoogleCloudPlatform/kubernetes-engine-samples",
    "aws-samples/aws-cdk-examples", "composer/composer", "rubygems/rubygems.org", "android/nowinandroid",
    "App-vNext/Polly", "terraform-google-modules/terraform-google-kubernetes-engine", "python-poetry/poetry",
    "pydantic/pydantic", "square/okhttp", "apache/commons-lang", "prometheus-community/helm-charts",
    "vitejs/vite", "aquasecurity/trivy", "spring-projects/spring-petclinic", "google/gson", "backstage/demo",
    "expressjs/express", "psf/requests", "tokio-rs/axum", "serde-rs/json", "BurntSushi/ripgrep",
    "crossplane/crossplane", "argoproj/argo-workflows", "earthly/earthly", "pulumi/examples",
    "kubernetes-sigs/kubebuilder", "stefanprodan/podinfo", "sinatra/sinatra", "firebase/functions-samples",
    "aws-samples/serverless-patterns", "terraform-aws-modules/terraform-aws-vpc", "dotnet/command-line-api",
    "wallabag/wallabag", "monicahq/monica",
)
# The label a benchmark row is counted under: the format of the files a commit touches. A lockfile
# names the package manager (yarn, pnpm, poetry, uv...); a manifest alone names the ecosystem.
LABELS = {
    "package.json": "npm", "package-lock.json": "npm", "npm-shrinkwrap.json": "npm", "yarn.lock": "yarn",
    "pnpm-lock.yaml": "pnpm", "bun.lock": "bun", "pyproject.toml": "pip", "requirements": "pip",
    "Pipfile.lock": "pipenv", "poetry.lock": "poetry", "uv.lock": "uv", "go.mod": "go", "go.sum": "go",
    "Cargo.toml": "cargo", "Cargo.lock": "cargo", "Gemfile.lock": "bundler", "gemspec": "bundler",
    "composer.json": "composer", "setup.py": "pip", "setup.cfg": "pip",
    "composer.lock": "composer", "pom.xml": "maven", "versions.toml": "gradle", "packages.lock.json": "nuget",
    "msbuild": "nuget", "Chart.yaml": "helm", "Chart.lock": "helm", ".terraform.lock.hcl": "terraform",
    "terraform": "terraform", "action": "github-actions", "workflow": "github-actions", "Dockerfile": "docker",
    "pubspec.yaml": "pub", "pubspec.lock": "pub", "mix.lock": "mix", "Package.resolved": "swift",
    "Package.swift": "swift", ".pre-commit-config.yaml": "pre-commit", "dotnet-tools.json": "nuget",
    "MODULE.bazel": "bazel", "kustomization.yaml": "kustomize", "flake.lock": "nix", "drone": "drone",
    "woodpecker": "woodpecker", "Podfile.lock": "cocoapods", "mise.toml": "mise",
    "Gopkg.toml": "go", "Gopkg.lock": "go", "deps.edn": "clojure", "meteor-release": "meteor",
    "meteor-versions": "meteor", "vendor.conf": "go", "vendor.sh": "go",
    "dagger.json": "dagger",
    "sbt": "sbt", "rebar.config": "rebar", "rebar.lock": "rebar", "deno.json": "deno", "helmfile.yaml": "helmfile",
}
# Files of ecosystems the delta may not read (yet): a bot's commit touching only these is still a case, so a
# collection shows what the delta misses rather than only what it already reads.
UNREAD = {
    "mix.exs": "mix", "mix.lock": "mix", "pubspec.yaml": "pub", "pubspec.lock": "pub", "Package.swift": "swift",
    "Package.resolved": "swift", ".pre-commit-config.yaml": "pre-commit", "devcontainer.json": "devcontainer",
    "devcontainer-lock.json": "devcontainer", "deps.edn": "clojure",
    "dotnet-tools.json": "nuget", "MODULE.bazel": "bazel", "kustomization.yaml": "kustomize",
    "rebar.config": "rebar", "rebar.lock": "rebar", "deno.json": "deno", "deno.jsonc": "deno", "deno.lock": "deno",
    "helmfile.yaml": "helmfile", "flake.lock": "nix", "flake.nix": "nix", "environment.yml": "conda",
    "environment.yaml": "conda",
}
_SPECIFIC = ("yarn", "pnpm", "bun", "poetry", "uv", "pipenv")
_BOT = re.compile(r"dependabot|renovate|scala[- ]?steward|typelevel-steward|http4s-steward", re.IGNORECASE)
_BOT_TRAILER = re.compile(r"^(?:Signed-off-by|Co-authored-by): .*(?:dependabot|renovate)", re.IGNORECASE | re.MULTILINE)
_VERSIONISH = re.compile(r"^(v?\d|[0-9a-f]{7,40}$)")
# pre-commit.ci's autoupdate lists its moves as `- [github.com/o/r: v1.2.0 → v1.3.0](compare url)`, and Renovate
# names a hook `update pre-commit hook o/r to v1.3.0`: neither is a format claims() reads (no policy reads a claim;
# the collector only needs the hook and its version)
_PRECOMMIT_CI = re.compile(r"^- \[(?P<name>[^\s:\]]+): (?P<from>\S+) (?:→|->) v?(?P<to>[^\s\]]+)\]\(", re.MULTILINE)
_PRECOMMIT_HOOK = re.compile(r"^(?:[a-z]+(?:\([^)]*\))?!?:\s*)?update pre-commit hook (?P<name>\S+) to v?(?P<to>\S+?)"
                             r"(?:\s+\(#\d+\))?$", re.IGNORECASE)

# scala-steward: `Update sbt, scripted-plugin to 1.12.14`, `Update scala3-library, ... to 3.3.4 in series/3.x`, older
# `Update sbt-scalafmt from 2.4.6 to 2.5.2`: the artifacts of one group that share the new version
_STEWARD = re.compile(r"^Update (?P<names>[\w.\-]+(?:, (?:[\w.\-]+|\.\.\.))*) (?:from \S+ )?to v?(?P<to>\d\S*?)"
                      r"(?: in [\w./\-]+)?(?: \(#\d+\))?$")

# a person's own subject, which claims() does not read (it reads bots' formats): `chore(deps): bump vite-plugin-solid
# to 3.0.0-next.20`, `bump solid to 2.0.0-beta.30 and dom-expressions to 0.50.0-next.35`, `update giget-core to v0.1.6`,
# `Bump seroval@1.6.0`; every item of the list must read as NAME [from A] to VERSION (or NAME@VERSION), and _shows
# keeps a commit only when its added lines write each version. Informal names ("solid") are corrected by hand.
_PERSON = re.compile(r"^(?:[a-z]+(?:\([^)]*\))?!?:\s*)?(?:bump|update|upgrade)\s+(?:(?:deps?|dependency)\s+)?"
                     r"(?P<items>.+?)\.?(?:\s+\(#\d+\))?$", re.IGNORECASE)
_PERSON_ITEM = re.compile(r"^(?P<name>@?[\w.\-]+(?:/[\w.\-]+)*)(?:\s+(?:from\s+\S+\s+)?to\s+v?|@v?)"
                          r"(?P<to>\d[\w.\-+]*)$", re.IGNORECASE)

# words a person's subject moves that name no package: the project's own version (`Bump versions to 1.15.17`), a
# lockfile, a branch alias, a major tag (`update v1 to 2`)
_NOT_A_PACKAGE = re.compile(r"^(?:to|all|deps|dependencies|packages?|versions?|lockfiles?|.*\.lock|branch-alias|"
                            r"v\d+|node_modules|docs?|readme|changelog|copyright)$", re.IGNORECASE)


def _person(message: str) -> list[Claim]:
    """A person's `bump X to Y[, Z to W][ and V to U]` subject: a claim an item, none when any item reads otherwise."""
    subject = message.strip().split("\n", 1)[0]
    if (m := _PERSON.match(subject)) is None:
        return []
    items = re.split(r",\s*(?:and\s+)?|\s+and\s+", m["items"])
    found = [_PERSON_ITEM.match(item.strip()) for item in items]
    if not all(found) or any(_NOT_A_PACKAGE.match(f["name"]) for f in found if f):
        return []
    return [Claim(f["name"], f["to"]) for f in found if f]


def _sbt_file(path: str) -> bool:
    """build.sbt, project/*.sbt, project/*.scala, project/build.properties: what sbt reads for its build."""
    name = path.rsplit("/", 1)[-1]
    return name.endswith(".sbt") or (path.startswith("project/") or "/project/" in path) and (
        name.endswith(".scala") or name == "build.properties")


def mirror(root: Path, repo: str) -> Path:
    return root / repo.replace("/", "+") / "repo"


def touched(root: Path, repo: str, sha: str) -> list[str]:
    done = subprocess.run(["git", "diff-tree", "--no-commit-id", "--name-only", "-r", "-z", f"{sha}^", sha],
                          cwd=mirror(root, repo), capture_output=True)
    return [p for p in done.stdout.decode(errors="replace").split("\0") if p] if done.returncode == 0 else []


def _shows(root: Path, repo: str, sha: str, version: str) -> bool:
    """The commit's added lines hold `version` (a digest or commit by its prefix), or a full commit sha:
    an action moved between bare shas is named only by its message, and that class is kept."""
    done = subprocess.run(["git", "diff", "-U0", f"{sha}^", sha], cwd=mirror(root, repo), capture_output=True)
    added = "\n".join(ln for ln in done.stdout.decode(errors="replace").splitlines() if ln.startswith("+"))
    return version in added or re.search(r"@[0-9a-f]{40}\b", added) is not None


def _hooks(message: str) -> list[Claim]:
    """pre-commit.ci's autoupdate moves, or Renovate's one hook: (hook repository, version) claims."""
    if "pre-commit" not in message[:2000]:
        return []
    subject = message.strip().split("\n", 1)[0]
    if (hook := _PRECOMMIT_HOOK.match(subject)) is not None:
        return [Claim(hook["name"], hook["to"])]
    return [Claim(m["name"], m["to"]) for m in _PRECOMMIT_CI.finditer(message)]


def _steward(root: Path, repo: str, sha: str, message: str) -> list[Claim]:
    """scala-steward's subject: the artifacts the commit's added lines spell, or the first it names when its lines
    spell none (one `val circeVersion` moves circe-generic and circe-parser). Steward names every artifact of the
    group that shares the version (`sbt, scripted-plugin`), most of which no build file writes."""
    subject = message.strip().split("\n", 1)[0]
    if (m := _STEWARD.match(subject)) is None:
        return []
    names = [n for n in m["names"].split(", ") if n != "..."]
    done = subprocess.run(["git", "diff", "-U0", f"{sha}^", sha], cwd=mirror(root, repo), capture_output=True)
    added = "\n".join(ln for ln in done.stdout.decode(errors="replace").splitlines() if ln.startswith("+"))
    spelled = [n for n in names if re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", added)]
    return [Claim(n, m["to"]) for n in (spelled or names[:1])]


# a project's own release or a vendored copy is no dependency update (round 56 collected 12 such rows: Unity
# package.json versions, pubspec/mix.exs/module() versions, a version.rb, vendored curl and lua sources)
_VENDORED = re.compile(r"(?:^|/)(?:vendor|vendored|third[_-]party|external|deps/src|contrib)/", re.IGNORECASE)
_OWN_NAME = re.compile(r"""^\s*(?:"name"\s*:\s*"|name:\s*["']?|app:\s*:|module\(\s*name\s*=\s*")(?P<name>[@\w./\-]+)""",
                       re.MULTILINE)


def _norm(name: str) -> set[str]:
    """A name's spellings to compare: whole, its last path part, its last dotted part (`com.cysharp.unitask`)."""
    last = name.lower().rsplit("/", 1)[-1]
    return {re.sub(r"[^a-z0-9]", "", n) for n in (name.lower(), last, last.rsplit(".", 1)[-1])} - {""}


def _own(root: Path, repo: str, sha: str, paths: list[str], claim: Claim) -> bool:
    """The claim moves the project's own version: it names the repository, or the name a touched manifest declares
    for itself (`"name":`, pubspec's `name:`, mix's `app:`, `module(name = ...)`)."""
    mine = _norm(repo.split("/", 1)[1])
    for path in paths:
        if path.rsplit("/", 1)[-1] in ("package.json", "pubspec.yaml", "mix.exs", "MODULE.bazel", "Cargo.toml"):
            done = subprocess.run(["git", "show", f"{sha}:{path}"], cwd=mirror(root, repo), capture_output=True)
            head = done.stdout[:20000].decode(errors="replace")
            if (m := _OWN_NAME.search(head)) is not None:
                mine |= _norm(m["name"])
    return _FILE_OR_FIELD.match(claim.name) is not None or re.sub(r"[^a-z0-9]", "", claim.name.lower()) in mine


# a subject that moves a file or the project's version field rather than a package (`Bump package.json to 7.10.1`,
# `Update MODULE.bazel to 2.2.0`, `Bump VersionPrefix to 7.0.9`, `Bump version to 7.7.3`); the
# extension is matched in lower case: `Newtonsoft.Json` is a package
_FILE_OR_FIELD = re.compile(r"^(?:[^@\s]*/)?[^/\s]*\.(?:json|toml|bazel|bzl|xml|props|gradle|kts|lock|nix|exs)$|"
                            r"^(?i:version(?:prefix|suffix|name|code)?|release|project)$")
_COMMENT = re.compile(r"^\+\s*(?://|#|/\*|\*|--|;|<!--)")


def _written(root: Path, repo: str, sha: str, paths: list[str], version: str) -> bool:
    """The version is on an added line of a dependency file that is no comment (swift-nio-ssl's vendored BoringSSL
    names its commit only in a `// BoringSSL Commit:` comment of Package.swift), or an action moved to a full sha."""
    deps = [p for p in paths if format_for(p) is not None or p.rsplit("/", 1)[-1] in UNREAD or _sbt_file(p)]
    done = subprocess.run(["git", "diff", "-U0", f"{sha}^", sha, "--", *deps], cwd=mirror(root, repo),
                          capture_output=True)
    added = "\n".join(ln for ln in done.stdout.decode(errors="replace").splitlines()
                      if ln.startswith("+") and not ln.startswith("+++") and not _COMMENT.match(ln))
    return version in added or re.search(r"@[0-9a-f]{40}\b", added) is not None


def _vendored(paths: list[str]) -> bool:
    """Every dependency file the commit touches lies in a vendored copy of another project's sources."""
    deps = [p for p in paths if format_for(p) is not None or p.rsplit("/", 1)[-1] in UNREAD or _sbt_file(p)]
    return bool(deps) and all(_VENDORED.search(p) for p in deps)


def label(paths: list[str]) -> str | None:
    """The ecosystem a commit's dependency files name; None when it touches none; `mixed` for several."""
    found = set()
    for path in paths:
        fmt = format_for(path)
        if fmt is not None:
            found.add(LABELS.get(fmt.name, fmt.name))
        elif _sbt_file(path):
            found.add("sbt")
        elif path.rsplit("/", 1)[-1] in UNREAD:
            found.add(UNREAD[path.rsplit("/", 1)[-1]])
    specific = [f for f in _SPECIFIC if f in found]
    if len(specific) == 1 and found <= {specific[0], "npm" if specific[0] in ("yarn", "pnpm", "bun") else "pip"}:
        return specific[0]
    if len(found) == 1:
        return found.pop()
    return "mixed" if found else None


def collect(root: Path, per: int, scan: int, repos: tuple[str, ...],
            bots: re.Pattern[str] = _BOT) -> list[tuple[str, str, str, str]]:
    rows: list[tuple[str, str, str, str]] = []
    for repo in repos:
        if not mirror(root, repo).is_dir():
            print(f"skipped {repo}: no mirror", file=sys.stderr)
            continue
        log = subprocess.run(["git", "log", "--all", "--no-merges", "--format=%H%x00%P%x00%an %ae %cn %ce%n%B%x01",
                              "-i", "-E", "--grep=(bump|update)"], cwd=mirror(root, repo), capture_output=True,
                             check=True)
        taken: Counter[str] = Counter()
        subjects: set[str] = set()
        scanned = dropped = 0
        for record in log.stdout.decode(errors="replace").split("\x01"):
            sha, _, rest = record.strip().partition("\0")
            parents, _, message = rest.partition("\0")
            who, _, message = message.partition("\n")
            if not bots.search(who) and not _BOT_TRAILER.search(message):
                continue  # a person's "update X to Y" is no bot's claim
            subject = message.strip().split("\n", 1)[0]
            if not sha or len(parents.split()) != 1:
                continue
            found = ([c for c in claims(message) if _VERSIONISH.match(c.to) and not c.plain] or _hooks(message)
                     or _steward(root, repo, sha, message) or _person(message))
            # a rebased copy repeats its subject; pre-commit.ci's subject is always the same, its moves are not
            key = re.sub(r"\s*\(#\d+\)$", "", subject) + "".join(f" {c.name}@{c.to}" for c in found)
            if key in subjects:
                continue
            if not found or len(found) > 8 or len({c.name for c in found}) != len(found):
                continue
            scanned += 1
            if scanned > scan:
                break
            paths = touched(root, repo, sha)
            eco = label(paths)
            if eco is None or taken[eco] >= per or _vendored(paths):
                continue
            found = [c for c in found if not _own(root, repo, sha, paths, c)]
            if not found or not all(_written(root, repo, sha, paths, c.to) for c in found):
                continue
            if not all(_shows(root, repo, sha, c.to) for c in found):
                dropped += 1  # the message names a version the commit does not write: a wrong claim
                continue
            taken[eco] += 1
            subjects.add(key)
            rows += [(repo, sha, c.name, c.to) for c in found]
        print(f"{repo}: {dict(taken)}; {dropped} dropped: the version is not in the commit", file=sys.stderr)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    parser.add_argument("--per", type=int, default=30, help="commits per repository and ecosystem")
    parser.add_argument("--scan", type=int, default=1500, help="update commits looked at per repository")
    parser.add_argument("--out", type=Path, default=DATA)
    parser.add_argument("--append", nargs="+", default=(), metavar="REPO", help="add these repositories' cases")
    parser.add_argument("--bots", default="", metavar="REGEX",
                        help="more authors to read as update bots: a self-hosted Renovate's app (`OSS-Bot`)")
    args = parser.parse_args()
    bots = re.compile(f"{_BOT.pattern}|{args.bots}" if args.bots else _BOT.pattern, re.IGNORECASE)
    rows = collect(args.mirrors, args.per, args.scan, tuple(args.append) or REPOS, bots)
    if args.append:
        with args.out.open("a") as out:
            out.write("".join("\t".join(r) + "\n" for r in rows))
    else:
        args.out.write_text("# repository\tcommit\tpackage\tversion (bench_deps_collect.py)\n"
                            + "".join("\t".join(r) + "\n" for r in rows))
    print(f"wrote {len(rows)} rows ({len({r[1] for r in rows})} commits) to {args.out}")


if __name__ == "__main__":
    main()
