"""A Makefile's commit pins (makepins.py): mudler/LocalAI's `LLAMA_VERSION?=<commit>` beside `LLAMA_REPO?=<url>`,
and its turboquant backend handing `TURBOQUANT_VERSION` to the same recipe with `LLAMA_REPO`. Before, neither mode
named the move and the patch flagged nothing. Attack cases first (hostile Makefiles: bounded, no traceback), then the
classes and their look-alikes, through real git repositories (--tree and the patch)."""

from __future__ import annotations

from pathlib import Path

from cpucost import within_cpu
from deltas import both_edited
from tables import each_case

from gatekeeper.deps.makepins import commit_pins
from gatekeeper.deps.sources import Delta
from gatekeeper.deps.toolfiles import parse_makefile

OLD, NEW = "5a4cd6741fc33227cdacb329f355ab21f8481de2", "0d0764dfd257c0ae862525c05778207f87b99b1c"
LLAMA = f"""
LLAMA_VERSION?={OLD}
LLAMA_REPO?=https://github.com/ggerganov/llama.cpp

CMAKE_ARGS?=
BUILD_TYPE?=
NATIVE?=false
JOBS?=$(shell nproc 2>/dev/null || echo 1)

all: llama.cpp

llama.cpp:
\tmkdir -p llama.cpp
\tcd llama.cpp && \\
\tgit init && \\
\tgit remote add origin $(LLAMA_REPO)  && \\
\tgit fetch origin && \\
\tgit checkout -b build $(LLAMA_VERSION) && \\
\tgit submodule update --init --recursive --depth 1 --single-branch
"""
TURBO = f"""
# Pinned to the HEAD of a feature branch of the fork.
# Auto-bumped nightly by .github/workflows/bump_deps.yaml.
TURBOQUANT_VERSION?={OLD}
LLAMA_REPO?=https://github.com/TheTom/llama-cpp-turboquant

CMAKE_ARGS?=
PATCHES_DIR?=patches

define turboquant-build
\trm -rf ../turboquant-$(1)-build
\tcp -rf ../llama-cpp ../turboquant-$(1)-build
\tLLAMA_REPO=$(LLAMA_REPO) LLAMA_VERSION=$(TURBOQUANT_VERSION) \\
\t$(MAKE) -C ../turboquant-$(1)-build llama.cpp
\tCMAKE_ARGS="$(CMAKE_ARGS) $(2)" TARGET="$(3)" \\
\tLLAMA_REPO=$(LLAMA_REPO) LLAMA_VERSION=$(TURBOQUANT_VERSION) \\
\t$(MAKE) -C ../turboquant-$(1)-build grpc-server
endef
"""


def _delta(tmp_path: Path, files: dict[str, str], edits: dict[str, dict[str, str]]) -> tuple[Delta, Delta]:
    return both_edited(tmp_path, files, edits)


def _rows(delta: Delta) -> set[tuple[object, ...]]:
    return {(c.ecosystem, c.name, c.from_version, c.to_version, c.change) for c in delta.changes}


def _pins(body: str) -> list[tuple[str, str]]:
    return [(d.name, d.version or "") for d in commit_pins("Makefile", body.splitlines())]


# --- attack cases ---

def test_a_continuation_without_end_is_read_in_linear_time() -> None:
    body = f"X_VERSION?={OLD}\nX_REPO?=https://github.com/o/r\n" + "\t$(X_VERSION) \\\n" * 200_000
    def timed() -> None:
        assert _pins(body) == [("github.com/o/r", OLD)]  # the twin names it; the endless line ties nothing more
    within_cpu(5, timed)


def test_many_pins_and_repositories_on_one_line_stay_linear() -> None:
    body = "".join(f"P{n}_VERSION={OLD}\nR{n}_REPO=https://github.com/o/r{n}\n" for n in range(2000))
    body += "\t" + " ".join(f"$(P{n}_VERSION) $(R{n}_REPO)" for n in range(2000)) + "\n"
    def timed() -> None:
        assert _pins(body) == []  # each pin beside 2,000 repositories: tied to none
    within_cpu(5, timed)


@each_case("url", [
    "git@github.com:o/r.git",  # not an https URL
    "https://github.com/o/r?x=$(Y)",  # holds a variable
    "http://github.com/o/r",  # plain http
    "https://github.com",  # no path
])
def test_a_repository_that_is_no_plain_https_url_names_nothing(url: str) -> None:
    assert _pins(f"X_VERSION?={OLD}\nX_REPO?={url}\n") == []


def test_a_pin_set_twice_or_by_override_is_not_read() -> None:
    assert _pins(LLAMA + f"LLAMA_VERSION={NEW}\n") == []
    assert _pins(LLAMA + f"override LLAMA_VERSION={NEW}\n") == []
    assert _pins(LLAMA + f"debug: LLAMA_VERSION={NEW}\n") == []


# --- the classes ---

def test_a_pin_beside_its_repository_twin(tmp_path: Path) -> None:
    tree, patch = _delta(tmp_path, {"backend/cpp/llama-cpp/Makefile": LLAMA},
                         {"backend/cpp/llama-cpp/Makefile": {OLD: NEW}})
    assert _rows(tree) == {("git", "github.com/ggerganov/llama.cpp", OLD, NEW, "changed")}
    assert tree.problems == ()
    assert _rows(patch) == _rows(tree)  # the twin is the line below: in the hunk's context


def test_a_pin_handed_to_the_recipe_with_a_repository(tmp_path: Path) -> None:
    tree, patch = _delta(tmp_path, {"backend/cpp/turboquant/Makefile": TURBO},
                         {"backend/cpp/turboquant/Makefile": {OLD: NEW}})
    assert _rows(tree) == {("git", "github.com/TheTom/llama-cpp-turboquant", OLD, NEW, "changed")}
    # from the patch the recipe is out of sight: the move is reviewed, not passed as nothing
    assert patch.changes == ()
    assert [(p.manifest, p.kind) for p in patch.problems] == [("backend/cpp/turboquant/Makefile", "partial")]
    assert "TURBOQUANT_VERSION" in patch.problems[0].msg


# --- look-alikes ---

def test_a_pin_handed_to_another_makefile_names_nothing_in_tree_and_is_reviewed_from_a_patch(tmp_path: Path) -> None:
    root = f"GOLLAMA_REPO?=https://github.com/go-skynet/go-llama.cpp\nCPPLLAMA_VERSION?={OLD}\n\n" \
           "backend:\n\tLLAMA_VERSION=$(CPPLLAMA_VERSION) $(MAKE) -C backend/cpp/llama llama.cpp\n"
    tree, patch = _delta(tmp_path, {"Makefile": root}, {"Makefile": {OLD: NEW}})
    assert tree.changes == ()  # its repository is another file's: not read (documented)
    assert [p.kind for p in patch.problems] == ["partial"]


def test_a_release_version_or_an_abbreviated_commit_is_no_commit_pin() -> None:
    assert _pins("X_VERSION?=v1.2.3\nX_REPO?=https://github.com/o/r\n") == []
    assert _pins("X_VERSION?=0d0764dfd\nX_REPO?=https://github.com/o/r\n") == []


def test_a_pin_tied_to_two_repositories_names_nothing() -> None:
    body = f"X_VERSION?={OLD}\nX_REPO?=https://github.com/o/r\nY_REPO?=https://github.com/o/fork\n" \
           "a:\n\tgit clone $(Y_REPO) && git checkout $(X_VERSION)\n"
    assert _pins(body) == []


def test_the_other_makefile_readers_are_unchanged() -> None:
    body = "GOLANGCI_VERSION = 2.12.2\n" + LLAMA
    found = {(d.ecosystem, d.name, d.version) for d in parse_makefile("Makefile", body.encode())}
    assert ("git", "github.com/ggerganov/llama.cpp", OLD) in found
    assert any(d[0] == "tool" and d[2] == "2.12.2" for d in found)
