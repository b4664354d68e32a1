"""Tool settings the eighty-first set found under names no rule knew (bench/classify_accuracy/eightyfirst.tsv, measured
blind first): bump2version's and bump-my-version's `.bumpversion.cfg` (pytest-cov), committed's `committed.toml`
(env_logger), Steep's `Steepfile` (simplecov), CTest's dashboard settings `CTestConfig.cmake` (libarchive), qlty's
`.qlty/qlty.toml` (simplecov) and Roave's backward-compatibility checker settings `roave-bc-check.yaml` (commonmark)
are settings people and CI share (`other.lint-format`), as every earlier set labels them; on 13d71d3 each was `src`.
The look-alikes keep their buckets."""

from __future__ import annotations

from tables import each_case

from tests.test_classify_context import RULES


@each_case(("path", "bucket"), [
    (".bumpversion.cfg", "other"), ("packages/core/.bumpversion.cfg", "other"), ("committed.toml", "other"),
    ("crates/x/committed.toml", "other"), ("Steepfile", "other"), ("CTestConfig.cmake", "other"),
    ("sub/CTestConfig.cmake", "other"), (".qlty/qlty.toml", "other"), ("roave-bc-check.yaml", "other"),
    # look-alikes: the tools' code, a CMake build, another file of the folders
    ("src/bumpversion/cli.py", "src"), ("lib/steep/project.rb", "src"), ("CMakeLists.txt", "src"),
    ("cmake/CTestCustom.cmake.in", "src"), ("src/committed.rs", "src"), ("steepfile.md", "src"),
    (".github/workflows/roave-bc-check.yaml", "ci"),
])
def test_path_rules_of_the_eightyfirst_round(path: str, bucket: str) -> None:
    assert RULES.match(path).bucket == bucket, RULES.match(path)
