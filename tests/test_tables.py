"""tests/tables.py's `each_case`: every case runs, every failing case is named with its own message, and pytest
still gives the test its fixtures (not the table's names)."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest
from gitrepo import GitRepo
from tables import each_case

SEEN: list[tuple[int, str, int]] = []


@pytest.fixture(scope="module")
def offset() -> int:
    return 10


@each_case(("word", "length"), [("a", 1), ("bb", 2), ("ccc", 3)])
def test_a_table_gets_its_fixtures_and_every_case(offset: int, word: str, length: int) -> None:
    assert len(word) == length
    SEEN.append((offset, word, length))


def test_every_case_runs_once_with_the_fixtures_given() -> None:
    SEEN.clear()
    test_a_table_gets_its_fixtures_and_every_case(offset=7)
    assert SEEN == [(7, "a", 1), (7, "bb", 2), (7, "ccc", 3)]


def test_the_signature_pytest_reads_holds_only_the_fixtures() -> None:
    assert list(inspect.signature(test_a_table_gets_its_fixtures_and_every_case).parameters) == ["offset"]


def test_every_failing_case_is_named_with_its_message_and_the_rest_still_run() -> None:
    ran = []

    @each_case("n", [1, 2, 3, 4, "x" * 500])
    def check(n: object) -> None:
        ran.append(n)
        assert n in (1, 3), f"{n!r} is not odd"

    with pytest.raises(AssertionError) as failure:
        check()
    assert ran == [1, 2, 3, 4, "x" * 500]
    message = str(failure.value)
    assert message.startswith("3 of 5 cases failed:\n")
    assert "[n=2] 2 is not odd" in message and "[n=4] 4 is not odd" in message
    assert "[n='xxxx" in message and "...(502 characters)]" in message and "[n=1]" not in message


@each_case(("ids", "named"), [(["one", "two"], "[two]"), (lambda v: f"<{v}>", "[<b>-<2>]"),
                                            (None, "[s='b', k=2]")])
def test_a_failing_case_is_named_by_its_ids(ids: object, named: str) -> None:
    @each_case("s, k", [("a", 1), ("b", 2)], ids=ids)  # type: ignore[arg-type]
    def check(s: str, k: int) -> None:
        assert k == 1

    with pytest.raises(AssertionError, match=r"^1 of 2 cases failed:\n") as failure:
        check()
    assert named in str(failure.value)


def test_an_error_stops_the_table_naming_its_case() -> None:
    @each_case("n", [1, 0, 2])
    def check(n: int) -> None:
        assert 1 / n

    with pytest.raises(ZeroDivisionError) as failure:
        check()
    assert failure.value.__notes__ == ["in the case [n=0] of check"]


def test_pytest_fail_is_a_failed_case_and_stacked_tables_name_both() -> None:
    @each_case("a", [1, 2])
    @each_case("b", ["x", "y"])
    def check(a: int, b: str) -> None:
        if (a, b) == (2, "y"):
            pytest.fail("two-y")

    with pytest.raises(AssertionError) as failure:
        check()
    assert str(failure.value) == "1 of 2 cases failed:\n[a=2] 1 of 2 cases failed:\n[b='y'] two-y"


def test_a_table_of_one_name_in_a_tuple_unpacks_its_cases_as_parametrize_does() -> None:
    got = []
    each_case(("t",), [((1, 2),), ((3, 4),)])(lambda t: got.append(t))()
    assert got == [(1, 2), (3, 4)]


def test_an_empty_table_or_a_wrong_id_count_is_refused() -> None:
    with pytest.raises(AssertionError, match="asserts nothing"):
        each_case("n", [])
    with pytest.raises(AssertionError, match="one id a case"):
        each_case("n", [1, 2], ids=["one"])


FOLDERS: list[Path] = []


@each_case("name", ["a", "b", "a"])
def test_a_table_with_tmp_path_gives_each_case_a_new_empty_folder(tmp_path: Path, name: str) -> None:
    assert list(tmp_path.iterdir()) == [], "a case sees another case's files"
    (tmp_path / name).mkdir()  # the third case's "a" would meet the first's in one shared folder
    FOLDERS.append(tmp_path)


def test_each_cases_folder_is_its_own_inside_the_tests_folder(tmp_path: Path) -> None:
    FOLDERS.clear()
    test_a_table_with_tmp_path_gives_each_case_a_new_empty_folder(tmp_path=tmp_path)
    assert FOLDERS == [tmp_path / "case0", tmp_path / "case1", tmp_path / "case2"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["case0", "case1", "case2"]
    assert [sorted(c.name for c in p.iterdir()) for p in FOLDERS] == [["a"], ["b"], ["a"]]


def test_a_pytest_param_case_gives_its_values_and_is_named_by_its_id() -> None:
    # A table written for parametrize may hold `pytest.param(..., id=...)` cases: each gives its values (not the
    # ParameterSet itself) and a failing one is named by its id; one without an id by its values.
    got: list[tuple[str, int]] = []

    @each_case("s, k", [pytest.param("a", 1, id="first"), ("b", 2), pytest.param("c", 3)])
    def check(s: str, k: int) -> None:
        got.append((s, k))
        assert k == 1, f"{s} is not first"

    with pytest.raises(AssertionError, match=r"^2 of 3 cases failed:\n") as failure:
        check()
    assert got == [("a", 1), ("b", 2), ("c", 3)]
    assert "[s='b', k=2] b is not first" in str(failure.value) and "[s='c', k=3] c is not first" in str(failure.value)
    single: list[object] = []
    each_case("v", [pytest.param([1, 2], id="pair"), 3])(lambda v: single.append(v))()
    assert single == [[1, 2], 3]
    with pytest.raises(AssertionError) as named:
        each_case("v", [pytest.param(0, id="pair")])(lambda v: (_ for _ in ()).throw(AssertionError("no")))()
    assert "[pair] no" in str(named.value)


def test_a_case_with_marks_stays_parametrized() -> None:
    # A mark on one case (skip, xfail) means something only to pytest: such a table cannot run as one test.
    with pytest.raises(AssertionError, match="marks"):
        each_case("n", [1, pytest.param(2, marks=pytest.mark.xfail)])


REPOS: list[Path] = []


@each_case("name", ["a", "b", "a"])
def test_a_table_with_git_repo_gives_each_case_a_new_empty_repository(git_repo: GitRepo, name: str) -> None:
    assert sorted(p.name for p in git_repo.root.iterdir()) == [".git"], "a case sees another case's files"
    git_repo.write(name, name)
    git_repo.commit(name)  # the third case's commit would be the second in one shared repository
    assert git_repo.git("rev-list", "--count", "HEAD") == b"1\n"
    REPOS.append(git_repo.root)


def test_each_cases_repository_is_its_own_where_the_fixture_puts_it(tmp_path: Path) -> None:
    REPOS.clear()
    test_a_table_with_git_repo_gives_each_case_a_new_empty_repository(git_repo=GitRepo(tmp_path / "repo"))
    assert REPOS == [tmp_path / f"case{n}" / "repo" for n in range(3)]
    REPOS.clear()
    both = each_case("n", [1, 2])(lambda git_repo, tmp_path, n: REPOS.extend([git_repo.root, tmp_path]))
    both(git_repo=GitRepo(tmp_path / "two" / "repo"), tmp_path=tmp_path / "two")
    assert REPOS == [tmp_path / "two" / "case0" / "repo", tmp_path / "two" / "case0",
                     tmp_path / "two" / "case1" / "repo", tmp_path / "two" / "case1"]


def test_a_case_that_skips_skips_itself_only() -> None:
    # A parametrized test's `pytest.skip()` skipped its own case: in a table it must not end the table, so the cases
    # after it still run and fail where they fail; a table whose every case skipped is skipped, with their reasons.
    ran: list[int] = []

    def check(n: int) -> None:
        ran.append(n)
        if n % 2:
            pytest.skip(f"{n} is odd")
        assert n < 4, f"{n} is too big"

    with pytest.raises(AssertionError, match=r"^1 of 5 cases failed:\n\[n=4\] 4 is too big") as failure:
        each_case("n", [1, 2, 3, 4, 5])(check)()
    assert ran == [1, 2, 3, 4, 5] and "skip" not in str(failure.value)
    ran.clear()
    with pytest.warns(UserWarning, match=r"^2 of 3 cases skipped: \[n=1\] 1 is odd; \[n=3\] 3 is odd$"):
        each_case("n", [1, 2, 3])(check)()  # two skipped, one passed: the test passes, the skips in the summary
    assert ran == [1, 2, 3]
    with pytest.raises(pytest.skip.Exception, match=r"every case skipped: \[n=1\] 1 is odd; \[n=3\] 3 is odd"):
        each_case("n", [1, 3])(check)()
