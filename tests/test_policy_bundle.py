"""Loading a policy bundle: manifest, METADATA, digest, git revision, and the shipped policies' own tests."""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from gitrepo import GitRepo
from shipped import shipped_only

from gatekeeper.errors import PolicyError, UsageError
from gatekeeper.policy import engine
from gatekeeper.policy.bundle import _git_may_find_a_repository, bundle_digest, git_state, last_commit, load_bundle

REPO = Path(__file__).resolve().parent.parent
SHIPPED = REPO / "policies"
SEMVER = re.compile(r"^\d+\.\d+\.\d+$")


@pytest.fixture
def bundle_dir(tmp_path: Path) -> Path:
    target = tmp_path / "policies"
    shutil.copytree(SHIPPED, target)
    return target


def _edit_manifest(folder: Path, change) -> None:  # type: ignore[no-untyped-def]
    doc = json.loads((folder / ".manifest").read_text())
    change(doc)
    (folder / ".manifest").write_text(json.dumps(doc))


@shipped_only
def test_shipped_bundle_loads_with_versioned_documented_policies() -> None:
    bundle = load_bundle(SHIPPED)
    names = [p.name for p in bundle.policies]
    assert names == ["core", "deps", "guardrails", "provenance", "sandbox", "size"]
    assert [p.name for p in bundle.policies if p.default] == ["core"]
    for info in bundle.policies:
        assert SEMVER.match(info.version), info.name
        assert info.title and info.description and info.owner
        assert info.rules and all(rule.startswith(info.name + ".") for rule in info.rules)
        assert info.test_path is not None and info.test_path.is_file()
        assert info.modules[0] == str(info.module_path)
    assert bundle.policy("core").rules == ("core.ci", "core.iac", "core.needs_context")
    assert bundle.data() == {"gatekeeper": {"params": bundle.params}}
    assert bundle.params["size"]["max_files"] > 0
    assert all(not key.endswith("_test.rego") for key in bundle.modules)
    assert set(bundle.modules_for(["core"])) == {*bundle.lib, str(SHIPPED / "core" / "policy.rego")}
    assert re.fullmatch(r"[0-9a-f]{64}", bundle.digest)


def test_digest_covers_paths_and_contents(bundle_dir: Path) -> None:
    first = bundle_digest(bundle_dir)
    assert bundle_digest(bundle_dir) == first
    module = bundle_dir / "core" / "policy.rego"
    module.write_text(module.read_text() + "\n")
    changed = bundle_digest(bundle_dir)
    assert changed != first
    (bundle_dir / "core" / "notes.txt").write_text("x")
    assert bundle_digest(bundle_dir) != changed
    (bundle_dir / "core" / "notes.txt").rename(bundle_dir / "core" / "other.txt")
    renamed = bundle_digest(bundle_dir)
    (bundle_dir / "core" / "other.txt").rename(bundle_dir / "core" / "notes.txt")
    assert bundle_digest(bundle_dir) != renamed


def test_commit_is_the_last_one_that_changed_the_bundle(git_repo: GitRepo) -> None:
    shutil.copytree(SHIPPED, git_repo.root / "policies")
    touched = git_repo.commit("add the bundle")
    git_repo.write("src/app.py", "x = 1\n")
    git_repo.commit("unrelated change")
    bundle = load_bundle(git_repo.root / "policies")
    assert bundle.commit == touched
    assert bundle.revision == json.loads((SHIPPED / ".manifest").read_text())["revision"]


def test_no_commit_outside_a_git_repository(bundle_dir: Path) -> None:
    assert last_commit(bundle_dir) is None


def _layout(tmp_path: Path, layout: str, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder `policies` placed as `layout` says (see the test below)."""
    if layout == "work-tree":
        return GitRepo(tmp_path / "repo").root / "deep" / "policies"
    if layout == "gitfile":  # a linked work tree or a submodule: `.git` is a file naming the git folder
        real = GitRepo(tmp_path / "real")
        (tmp_path / "linked").mkdir()
        (tmp_path / "linked" / ".git").write_text(f"gitdir: {real.root / '.git'}\n")
        return tmp_path / "linked" / "policies"
    if layout == "inside-a-bare-repository":
        subprocess.run(["git", "init", "-q", "--bare", str(tmp_path / "bare.git")], check=True)
        return tmp_path / "bare.git" / "sub" / "policies"
    if layout == "symlink-into-a-work-tree":
        target = GitRepo(tmp_path / "repo").root / "policies"
        target.mkdir()
        (tmp_path / "outside").mkdir()
        (tmp_path / "outside" / "policies").symlink_to(target)
        return tmp_path / "outside" / "policies"
    if layout == "GIT_DIR":
        monkeypatch.setenv("GIT_DIR", str(GitRepo(tmp_path / "elsewhere").root / ".git"))
    return tmp_path / "plain" / "policies"


@pytest.mark.parametrize("layout", ["plain", "work-tree", "gitfile", "inside-a-bare-repository",
                                    "symlink-into-a-work-tree", "GIT_DIR"])
def test_git_is_asked_for_the_commit_wherever_git_finds_a_repository(tmp_path: Path, layout: str,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    # The bundle's commit is git's answer; git is not started only where it would find no repository (git is the
    # truth for each layout), as for a bundle copied out of a checkout or shipped in an installed package.
    folder = _layout(tmp_path, layout, monkeypatch)
    folder.mkdir(parents=True, exist_ok=True)
    # Hardening 50: the bundle's git runs without the caller's GIT_* variables, so a GIT_DIR finds nothing here.
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    finds = subprocess.run(["git", "-C", str(folder), "rev-parse", "--git-dir"], capture_output=True,
                           env=env).returncode == 0
    assert finds == (layout not in ("plain", "GIT_DIR"))
    started: list[list[str]] = []
    real_popen = subprocess.Popen

    def popen(args: list[str], **kwargs: object) -> subprocess.Popen[bytes]:
        started.append(args)
        return real_popen(args, **kwargs)  # type: ignore[call-overload,no-any-return]

    monkeypatch.setattr(subprocess, "Popen", popen)
    assert git_state(folder) == (None, None)  # no commit changed the folder in any of them
    # After `-C FOLDER`: the commit, the content filters to turn off (test_redteam15_commits_config.py), the state.
    commands = [args[args.index("-C") + 2:args.index("-C") + 4] for args in started]
    assert commands == ([] if not finds else [["log", "-1"], ["config", "-z"], ["status", "--porcelain"]])


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.pop("revision"), "`revision` must be"),
        (lambda d: d.update(roots="gatekeeper"), "`roots` must be"),
        (lambda d: d["metadata"]["policies"]["core"].update(default="yes"), "boolean `default`"),
        (lambda d: d["metadata"]["policies"].update(ghost={"default": False}), "has no ghost/policy.rego"),
        (lambda d: d["metadata"]["policies"].pop("size"), "'size' is not listed"),
        (lambda d: d["metadata"].update(params=[]), "`metadata.params` must be"),
    ],
)
def test_manifest_errors_name_the_field(bundle_dir: Path, change, message: str) -> None:  # type: ignore[no-untyped-def]
    _edit_manifest(bundle_dir, change)
    with pytest.raises(PolicyError, match=re.escape(message)) as caught:
        load_bundle(bundle_dir)
    assert ".manifest" in str(caught.value)


def test_manifest_that_is_not_json_names_the_line(bundle_dir: Path) -> None:
    (bundle_dir / ".manifest").write_text('{\n  "revision": "1",\n  oops\n}\n')
    with pytest.raises(PolicyError, match="not JSON") as caught:
        load_bundle(bundle_dir)
    assert (caught.value.where or "").endswith(".manifest:3")


def test_missing_manifest_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="not a policy bundle"):
        load_bundle(tmp_path)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("#   version: 1.1.3\n", "#   version: 1.1\n", "is not semver"),
        ("#     - core.iac\n", "#     - iac\n", "must look like `core.<name>`"),
        ("# title: CI and infrastructure changes need a human\n", "", "needs a non-empty `title`"),
        ("# custom:\n", "# custom: [\n", "not valid YAML"),
        ("# METADATA\n", "# (no annotation)\n", "no `# METADATA`"),
        (
            "package gatekeeper.policies.core\n",
            "package gatekeeper.policies.other\n",
            "must declare `package gatekeeper.policies.core`",
        ),
    ],
)
def test_module_metadata_and_package_errors(bundle_dir: Path, old: str, new: str, message: str) -> None:
    module = bundle_dir / "core" / "policy.rego"
    text = module.read_text()
    assert old in text
    module.write_text(text.replace(old, new, 1))
    with pytest.raises(PolicyError, match=re.escape(message)) as caught:
        load_bundle(bundle_dir)
    assert "core/policy.rego" in str(caught.value)


@pytest.mark.parametrize(
    ("module", "old", "new", "where"),
    [
        ("core/policy.rego", "ci.files > 0\n", "ci.files > 0 )\n", 23),
        ("lib/findings.rego", "package gatekeeper.lib\n", "package gatekeeper.lib\n\nx := [1,\n", 9),
        ("deps/policy_test.rego", "import rego.v1\n", "import rego.v1\n\nx := \"open\n", 5),
    ],
)
def test_a_malformed_module_is_refused_at_load_with_file_line_col(
    bundle_dir: Path, module: str, old: str, new: str, where: int
) -> None:
    path = bundle_dir / module
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    with pytest.raises(PolicyError, match="malformed Rego") as caught:
        load_bundle(bundle_dir)
    assert caught.value.where is not None and caught.value.where.startswith(f"{path}:{where}:")
    assert caught.value.hint


def test_owner_and_rules_come_from_metadata(bundle_dir: Path) -> None:
    module = bundle_dir / "guardrails" / "policy.rego"
    module.write_text(module.read_text().replace("owner: security-engineering", "owner: platform-team"))
    assert load_bundle(bundle_dir).policy("guardrails").owner == "platform-team"


def test_shipped_policy_unit_tests_keep_the_conventions() -> None:
    """Each shipped policy's unit tests sit in its `_test` package and mock no whole input (which crashes regopy).
    That they all run and pass is tests/test_test_cmd.py's whole `gatekeeper test` of the shipped bundle."""
    bundle = load_bundle(SHIPPED)
    for info in map(bundle.policy, ["core", "deps", "guardrails", "provenance", "sandbox", "size"]):
        assert info.test_path is not None
        source = info.test_path.read_text()
        assert f"package {info.package}_test\n" in source, info.name
        assert "with input as" not in source, info.name
        assert re.search(r"^test_\w+", source, re.M), info.name


def _rego_tests(bundle_dir: Path, name: str) -> dict[str, engine.RegoTestOutcome]:
    bundle = load_bundle(bundle_dir)
    info = bundle.policy(name)
    assert info.test_path is not None
    source = info.test_path.read_text()
    tests = list(dict.fromkeys(re.findall(r"^(test_\w+)", source, re.M)))
    assert "with input as" not in source  # whole-input mocks crash regopy
    # As `gatekeeper test` runs them: every module of the bundle (the test helpers too), in the `_test` package.
    modules = {**bundle.modules, str(info.test_path): source}
    assert f"package {info.package}_test\n" in source
    found = engine.run_tests(modules, bundle.data(), f"{info.package}_test", tests, timeout=20)
    return {o.name: o for o in found}


def test_policy_unit_tests_catch_a_broken_policy(bundle_dir: Path) -> None:
    module = bundle_dir / "core" / "policy.rego"
    module.write_text(
        module.read_text().replace("input.summary.buckets.iac.files > 0", "input.summary.buckets.iac.files > 1")
    )
    outcomes = _rego_tests(bundle_dir, "core")
    assert outcomes["test_iac_file_needs_review"].status == "fail"
    assert outcomes["test_ci_file_needs_review"].status == "pass"


_LOCATORS = ["GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_OBJECT_DIRECTORY"]


def _plant(rng: random.Random, at: Path, repos: Path) -> None:
    """One thing git's discovery may take for a repository (or a look-alike of one), planted in the folder `at`."""
    kind = rng.choice(["git-dir", "gitfile", "gitfile-garbage", "git-symlink", "empty-git-dir", "bare", "fake-bare",
                       "head-only", "linked-gitdir", "nothing"])
    at.mkdir(parents=True, exist_ok=True)
    if kind == "git-dir":
        subprocess.run(["git", "init", "-q", str(at)], check=True)
    elif kind in ("gitfile", "git-symlink", "linked-gitdir"):
        real = repos / f"r{rng.randrange(10**9)}"
        subprocess.run(["git", "init", "-q", str(real)], check=True)
        if kind == "gitfile":
            (at / ".git").write_text(f"gitdir: {real / '.git'}\n")
        elif kind == "git-symlink":
            (at / ".git").symlink_to(real / ".git")
        else:  # a linked work tree's own git folder: HEAD and a commondir, no objects/ or refs/ of its own
            (at / "HEAD").write_text("ref: refs/heads/main\n")
            (at / "commondir").write_text(f"{real / '.git'}\n")
    elif kind == "gitfile-garbage":
        (at / ".git").write_text(rng.choice(["", "gitdir:\n", "not a gitfile\n", "gitdir: /nonexistent\n"]))
    elif kind == "empty-git-dir":
        (at / ".git").mkdir(exist_ok=True)
    elif kind == "bare":
        shutil.rmtree(at)
        subprocess.run(["git", "init", "-q", "--bare", str(at)], check=True)
    elif kind == "fake-bare":
        (at / "HEAD").write_text("ref: refs/heads/main\n")
        (at / "objects").mkdir(exist_ok=True)
        (at / "refs").mkdir(exist_ok=True)
    elif kind == "head-only":
        (at / "HEAD").write_text(rng.choice(["ref: refs/heads/main\n", "0" * 40 + "\n", "text\n"]))


@pytest.mark.parametrize("seed", range(6))
def test_git_never_finds_a_repository_where_the_bundle_skips_asking(tmp_path: Path, seed: int,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    # Generated layouts: at random depths above a bundle folder, things git's discovery may take for a repository
    # and look-alikes; the folder sometimes reached through a symlink; sometimes a GIT_* variable set. Git is the
    # truth: wherever `git -C folder rev-parse` finds a repository, the bundle must ask git.
    rng = random.Random(seed)
    for case in range(8):
        root = tmp_path / f"c{case}"
        depth = rng.randrange(1, 4)
        levels = [root / "/".join(f"l{i}" for i in range(n)) if n else root for n in range(depth + 1)]
        folder = levels[-1] / "policies"
        for level in rng.sample(levels, rng.randrange(0, 3)):
            _plant(rng, level, tmp_path / "repos")
        folder.mkdir(parents=True, exist_ok=True)
        reached = folder
        if rng.random() < 0.3:
            reached = tmp_path / f"link{case}"
            reached.symlink_to(folder)
        env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
        for name in _LOCATORS:
            monkeypatch.delenv(name, raising=False)
        if rng.random() < 0.2:  # set for gatekeeper only: its git runs without the caller's GIT_* (hardening 50)
            name = rng.choice(_LOCATORS)
            repo = tmp_path / "repos" / f"env{case}"
            subprocess.run(["git", "init", "-q", str(repo)], check=True)
            monkeypatch.setenv(name, str(repo / ".git") if name != "GIT_WORK_TREE" else str(repo))
        finds = subprocess.run(["git", "-C", str(reached), "rev-parse", "--git-dir"], capture_output=True,
                               env=env).returncode == 0
        if finds:
            assert _git_may_find_a_repository(reached), (seed, case, sorted(str(p) for p in root.rglob("*")))
