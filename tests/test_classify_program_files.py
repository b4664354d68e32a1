"""refine's fast path for the source files of a program's language under --tree (programfiles.py): a file it lets
through is one `_refine_one` leaves unchanged, and the files a reader claims still take the slow path."""

from __future__ import annotations

from pathlib import Path

from gatekeeper.classify import load_rules
from gatekeeper.classify.change import classify_changes
from gatekeeper.classify.context import _refine_one, _through_includes, _through_links, refine
from gatekeeper.classify.programfiles import settled_program
from gatekeeper.classify.treecontext import TreeContext
from gatekeeper.model import ClassifiedFile
from gatekeeper.revrange import resolve_range
from tests.gitrepo import GitRepo

RULES = load_rules(Path(__file__).resolve().parent.parent / "policies")

GO_MOD_PULUMI = """module example.invalid/infra

go 1.22

require (
\tgithub.com/pulumi/pulumi-aws/sdk/v6 v6.45.0
\tgithub.com/pulumi/pulumi/sdk/v3 v3.120.0
)
"""
PULUMI_MAIN = """package main

import (
\t"github.com/pulumi/pulumi-aws/sdk/v6/go/aws/s3"
\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
\tpulumi.Run(func(ctx *pulumi.Context) error {
\t\t_, err := s3.NewBucket(ctx, "assets", nil)
\t\treturn err
\t})
}
"""
# A home-manager configuration: its path literals are files the machine's settings are built from.
HOME_NIX = """{ config, pkgs, ... }:
{
  home.username = "dev";
  home.stateVersion = "24.05";
  home.packages = [ pkgs.go ];
  # the greeter the login shell runs
  home.file.".local/bin/greet.go".source = ./tools/greet.go;
}
"""


def _change(repo: GitRepo) -> None:
    repo.write("go.mod", "module example.invalid/shop\n\ngo 1.22\n")
    repo.write("cmd/shop/main.go", "package main\n\nfunc main() {}\n")
    repo.write("web/src/cart.ts", "export const total = (xs: number[]) => xs.reduce((a, b) => a + b, 0);\n")
    repo.write("services/buckets/go.mod", GO_MOD_PULUMI)
    repo.write("services/buckets/main.go", "package main\n")
    repo.write("home.nix", HOME_NIX)
    repo.write("tools/greet.go", "package main\n\nfunc main() {}\n")
    repo.write("testdata/golden/main.go", "package golden\n")
    repo.commit("base")
    repo.write("cmd/shop/main.go", "package main\n\nfunc main() { println(\"shop\") }\n")
    repo.write("web/src/cart.ts", "export const total = (xs: number[]) => xs.reduce((a, b) => a + b, 1);\n")
    repo.write("services/buckets/main.go", PULUMI_MAIN)
    repo.write("tools/greet.go", "package main\n\nfunc main() { println(\"hi\") }\n")
    repo.write("testdata/golden/main.go", "package golden\n\n// regenerated\n")
    repo.commit("change")


def _paths(repo: GitRepo) -> tuple[list[ClassifiedFile], TreeContext]:
    context = TreeContext(resolve_range("main~1..main", repo.root), RULES)
    return classify_changes(context.changes(), RULES), context


def test_the_fast_path_decides_as_the_slow_path_does(git_repo: GitRepo) -> None:
    _change(git_repo)
    files, context = _paths(git_repo)
    with context:
        assert not context.markers  # else no file takes the fast path
        fast = refine(files, RULES, context)
    files, context = _paths(git_repo)
    with context:  # every file through _refine_one, as before the fast path
        slow = _through_links(_through_includes([_refine_one(f, RULES, context) for f in files], context), RULES,
                              context)
    assert fast == slow
    found = {f.change.path: (f.bucket, f.rule) for f in fast}
    assert found["services/buckets/main.go"][0] == "iac"  # its imports, read: a manifest above it names Pulumi
    assert found["tools/greet.go"] == ("iac", "iac.context.nix-file")  # home.nix names it
    assert found["cmd/shop/main.go"][0] == "src"
    assert found["web/src/cart.ts"][0] == "src"


def test_only_files_no_reader_claims_are_settled(git_repo: GitRepo) -> None:
    _change(git_repo)
    files, context = _paths(git_repo)
    catch_all = RULES.rules[-1].id
    with context:
        settled = {f.change.path: settled_program(f, catch_all, context) for f in files}
    assert settled == {"cmd/shop/main.go": True, "web/src/cart.ts": True, "services/buckets/main.go": False,
                       "tools/greet.go": False, "testdata/golden/main.go": True}


def test_a_gitlink_keeps_the_slow_path(git_repo: GitRepo) -> None:
    _change(git_repo)
    files, context = _paths(git_repo)
    catch_all = RULES.rules[-1].id
    with context:
        plain = next(f for f in files if f.change.path == "cmd/shop/main.go")
        assert settled_program(plain, catch_all, context)
        assert not settled_program(ClassifiedFile(**{**_fields(plain), "tags": ("submodule",)}), catch_all, context)


def _fields(item: ClassifiedFile) -> dict[str, object]:
    return {name: getattr(item, name) for name in item.__dataclass_fields__}
