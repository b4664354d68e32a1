"""Attacks on the context tiers: hostile names and trees, git as the truth for the change list,
bounded reads, and content the change controls (head) trying to lower or hide a file."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.catfile import shared_processes
from gatekeeper.classify import load_rules
from gatekeeper.classify.context import classify_in_context
from gatekeeper.classify.sniff import FULL_READ
from gatekeeper.classify.treecontext import TreeContext
from gatekeeper.gitobjects import GitObjects
from gatekeeper.revrange import resolve_range
from tests import manifests as m
from tests.gitrepo import GitRepo

RULES = load_rules(Path(__file__).resolve().parent.parent / "policies")

NAMES = ["plain.yaml", "with space.yaml", "ünïcödé.yml", "tab\there.json", "quote\"d.yaml", "new\nline.yaml",
         "back\\slash.yaml", "-dash.yaml", "semi;colon", "ÿ\u200c.tpl", "deep/er/still/x.yaml", ".hidden.yml"]


def test_change_list_matches_git_for_random_changes(git_repo: GitRepo) -> None:
    """Adds, edits, deletes, renames and mode changes over hostile names: the change list is git's."""
    rng = random.Random(12)
    paths = [f"d{i % 3}/{name}" for i, name in enumerate(NAMES)]
    for path in paths:
        git_repo.write(path, m.DEPLOYMENT if rng.random() < 0.5 else m.APP_SETTINGS + path)
    git_repo.commit("base")
    for path in paths:
        action = rng.choice(["edit", "delete", "rename", "keep", "chmod"])
        if action == "edit":
            git_repo.write(path, m.ARGO_APPLICATION + path)
        elif action == "delete":
            (git_repo.root / path).unlink()
        elif action == "rename":
            git_repo.move(path, f"moved/{path}")
        elif action == "chmod":
            (git_repo.root / path).chmod(0o755)
    git_repo.write("added/Chart.yaml", "apiVersion: v2\nname: a\nversion: 1.0.0\n")
    git_repo.commit("head")
    with shared_processes(), TreeContext(resolve_range("main~1..main", git_repo.root), RULES) as context:
        changes = context.changes()
    truth = git_repo.git("diff", "--name-status", "-z", "-M", "main~1", "main").split(b"\0")
    expected = set()
    i = 0
    while i < len(truth) - 1:
        status = truth[i].decode()
        if status[:1] in "RC":
            expected.add((status[0], truth[i + 1].decode("utf-8", "surrogateescape"),
                          truth[i + 2].decode("utf-8", "surrogateescape")))
            i += 3
        else:
            expected.add((status[0], None, truth[i + 1].decode("utf-8", "surrogateescape")))
            i += 2
    letters = {"added": "A", "modified": "M", "deleted": "D", "renamed": "R", "mode_changed": "M",
               "copied": "C", "type_changed": "T"}
    assert {(letters[c.status], c.old_path, c.path) for c in changes} == expected


def test_a_marker_that_is_a_symlink_or_a_folder_still_marks(git_repo: GitRepo) -> None:
    git_repo.write("real/Chart.yaml", "apiVersion: v2\nname: r\nversion: 1.0.0\n")
    git_repo.symlink("web/Chart.yaml", "../real/Chart.yaml")
    git_repo.write("svc/kustomization.yaml/README", "a folder named like a marker\n")
    git_repo.write("web/files/a.conf", "x\n")
    git_repo.write("svc/x.yaml", "a: 1\n")
    git_repo.commit("base")
    git_repo.write("web/files/a.conf", "y\n")
    git_repo.write("svc/x.yaml", "a: 2\n")
    git_repo.commit("head")
    with shared_processes(), TreeContext(resolve_range("main~1..main", git_repo.root), RULES) as context:
        files = {f.change.path: f for f in classify_in_context(context.changes(), RULES, context)}
    assert files["web/files/a.conf"].rule == "iac.marker.helm-chart"  # helm follows the link
    assert files["svc/x.yaml"].bucket == "src"  # a folder is not a kustomization file


def test_reads_are_bounded_and_only_for_candidates(git_repo: GitRepo, monkeypatch: pytest.MonkeyPatch) -> None:
    big = ("# " + "x" * 70 + "\n") * 2000 + m.ARGO_APPLICATION  # 146 KB of comments, then the signal
    git_repo.write("gitops/app.yaml", big)
    git_repo.write("src/big.go", "package x\n" + "// y\n" * 50_000)
    git_repo.commit("base")
    git_repo.write("gitops/app.yaml", big + "# edit\n")
    git_repo.write("src/big.go", "package x\n" + "// z\n" * 50_000)
    git_repo.commit("head")
    limits: list[int | None] = []
    original = GitObjects.blob

    def spy(self: GitObjects, oid: str, limit: int | None = None) -> bytes:
        limits.append(limit)
        return original(self, oid, limit)

    monkeypatch.setattr(GitObjects, "blob", spy)
    with shared_processes(), TreeContext(resolve_range("main~1..main", git_repo.root), RULES) as context:
        files = {f.change.path: f for f in classify_in_context(context.changes(), RULES, context)}
    # Two sides of one candidate, each read once up to one byte past the bound of the YAML read; the .go file never.
    assert limits == [FULL_READ + 1, FULL_READ + 1]
    # 146 KB of padding pushes the signal past the patterns' long window, not past the whole read (the patterns read
    # it too since red team 11, before the file is read as YAML).
    assert files["gitops/app.yaml"].bucket == "iac"
    assert "argoproj.io/v1alpha1" in (files["gitops/app.yaml"].evidence or "")


def test_head_cannot_launder_a_base_manifest_by_renaming_and_rewriting(git_repo: GitRepo) -> None:
    git_repo.write("ops/pipeline.yaml", m.TEKTON_PIPELINE)
    git_repo.write("ops/deploy.json", m.DEPLOYMENT_JSON)
    git_repo.commit("base")
    (git_repo.root / "ops/pipeline.yaml").unlink()
    git_repo.write("docs/notes.md", "harmless\n")
    git_repo.write("ops/deploy.json", '{"note": "nothing to see"}\n')
    git_repo.commit("head")
    with shared_processes(), TreeContext(resolve_range("main~1..main", git_repo.root), RULES) as context:
        files = {f.change.path: f for f in classify_in_context(context.changes(), RULES, context)}
    assert files["ops/pipeline.yaml"].bucket == "ci"  # a deletion is judged by what it deletes
    assert files["ops/deploy.json"].bucket == "iac"


@each_case("padding", ["", "\n\n\n", "# c\n" * 50, "\ufeff", "---\n", "%YAML 1.2\n---\n"])
def test_header_variants_an_agent_might_write(git_repo: GitRepo, padding: str) -> None:
    git_repo.write("README.md", "x\n")
    git_repo.commit("base")
    git_repo.write("misc/app.yaml", padding + m.ARGO_APPLICATION)
    git_repo.commit("head")
    with shared_processes(), TreeContext(resolve_range("main~1..main", git_repo.root), RULES) as context:
        files = classify_in_context(context.changes(), RULES, context)
    assert [f.bucket for f in files if f.change.path == "misc/app.yaml"] == ["iac"]


def test_unknown_or_hostile_revisions_fail_closed(git_repo: GitRepo) -> None:
    from gatekeeper.errors import GatekeeperError

    git_repo.write("a.yaml", "a: 1\n")
    git_repo.commit("base")
    for base, head in (("main", "nope"), ("--all", "main"), ("main", "main\nx"), ("HEAD~5", "main")):
        with pytest.raises(GatekeeperError):
            TreeContext(resolve_range(f"{base}..{head}", git_repo.root), RULES)


def test_utf16_manifest_with_a_byte_order_mark_is_read() -> None:
    from gatekeeper.classify.sniff import sniff

    for encoding in ("utf-16", "utf-16-be"):
        data = m.ARGO_APPLICATION.encode(encoding)
        if encoding == "utf-16-be":
            data = b"\xfe\xff" + data
        signal = sniff("a.yaml", data, RULES.context)
        assert signal is not None and signal.rule == "iac.content.argocd", encoding


def _reference_claim(path: str, tree: set[str], markers: tuple) -> tuple[str, str] | None:  # type: ignore[type-arg]
    """The slow, obvious answer: walk up from the path; at each folder, look for every marker by name."""
    from gatekeeper.classify.markers import _claims, _in_whole

    folder = path.rpartition("/")[0]
    dirs = {p.rpartition("/")[0] for p in tree}
    dirs |= {d.rsplit("/", k)[0] for d in list(dirs) for k in range(1, d.count("/") + 1)}
    while True:
        lead = f"{folder}/" if folder else ""
        rel = path[len(lead):]
        for rule in markers:
            for name in rule.names:
                if name.endswith("/"):
                    found = f"{lead}{name.rstrip('/')}" in dirs and "*" not in name
                    evidence = f"{lead}{name}"
                else:
                    found, evidence = f"{lead}{name}" in tree, f"{lead}{name}"
                if found and (_in_whole(rule, rel) or _claims(rule, rel, path.rpartition("/")[2])):
                    return rule.id, evidence
        if not folder:
            return None
        folder = folder.rpartition("/")[0]


def test_marker_index_agrees_with_a_brute_force_walk() -> None:
    from gatekeeper.classify.markers import MarkerIndex

    markers = tuple(r for r in RULES.context.markers if not any("*" in n for n in r.names))
    names = ["Chart.yaml", "kustomization.yaml", "Pulumi.yaml", "cdk.json", "ansible.cfg", "PROJECT",
             "group_vars/all.yml", "main.go", "values.yaml", "README.md", "x.json", "tests/t.ts", "config/m.yaml"]
    hits = 0
    for seed in range(60):
        rng = random.Random(seed)
        tree = set()
        for _ in range(rng.randint(5, 40)):
            depth = rng.randint(0, 4)
            folders = "/".join(rng.choice(["a", "b", "config", "tests", "charts", "c"]) for _ in range(depth))
            tree.add(f"{folders}/{rng.choice(names)}" if folders else rng.choice(names))
        index = MarkerIndex(tree, markers)
        for path in sorted(tree):
            hit = index.claim(path)
            got = (hit.rule.id, hit.marker) if hit else None
            want = _reference_claim(path, tree, markers)
            # Same verdict; where two markers share the nearest folder, the index may name either.
            assert (got is None) == (want is None), (seed, path, got, want)
            hits += got is not None
            if got and want:
                assert got[1].rpartition("/")[0] == want[1].rpartition("/")[0] or got[1] == want[1], (seed, path)
    assert hits > 100  # the walk is exercised, not only the empty answer
