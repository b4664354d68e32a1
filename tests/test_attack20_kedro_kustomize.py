"""Red team 20: a kustomization file inside Kedro's conf/base/catalog/ or conf/base/parameters/ was `src`.

src.kedro-config (label round 33, before iac.kubernetes) takes those two folders whole, so `kustomization.yml` there
was src; kustomize needs no apiVersion or kind in it, so the content tier did not raise one that only pulls a remote
base (`resources: [https://github.com/.../deploy?ref=main]`), and with the commits the default gate allowed it (before
the round it was iac.kubernetes). Now kustomize's own file names there are iac (iac.kustomize-in-kedro-folders); Kedro's
settings stay src.
"""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from gatekeeper.classify.ruleset import load_rules
from tests.gitrepo import two_commits
from tests.incli import reviewed_paths, tree_gate
from tests.test_classify_context import POLICIES

REMOTE_BASE = "resources:\n  - https://github.com/example/platform//deploy?ref=main\n"


@each_case("path", ["conf/base/parameters/kustomization.yml", "conf/base/catalog/kustomization.yaml",
                                  "pipelines/conf/base/catalog/eu/Kustomization"])
def test_a_kustomization_in_a_kedro_folder_is_iac(path: str) -> None:
    assert load_rules(POLICIES).match(path).bucket == "iac"


@each_case("path", ["conf/base/catalog/raw.yml", "conf/base/parameters/model.yml",
                                  "conf/base/parameters.yml"])
def test_kedro_settings_stay_src(path: str) -> None:
    assert load_rules(POLICIES).match(path).rule == "src.kedro-config"


def test_the_default_gate_reviews_a_kustomization_without_kind(tmp_path: Path) -> None:
    path = "conf/base/parameters/kustomization.yml"
    repo, base, head = two_commits(tmp_path / "repo", {"README.md": "pipeline\n"}, {path: REMOTE_BASE})
    code, decision = tree_gate(repo.root, base, head)
    assert code == 3 and reviewed_paths(decision, "core.iac") == {path}
