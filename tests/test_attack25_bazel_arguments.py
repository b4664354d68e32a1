"""Attack 25: a `bazel_dep(...)` call with very many arguments made the MODULE.bazel reader quadratic.

Each argument was cut off the rest of the call by copying what followed it (`rest = rest[end:].strip()`), so a call of
n argument lines cost n copies of up to the whole call. Deps 35 routes a patch's multi-line call through the same
reader (the `version = "…",` line of a call the hunk shows whole). On 76d38f3 a MODULE.bazel of one call with 60,000
literal arguments (1.3 MB) took 4.3 CPU-s to read, 120,000 (2.8 MB) 20.6 CPU-s, growing with the square of the size;
the readers take up to 32 MiB, which would stall the gate for about an hour per side. The arguments are now read in
place, in one pass.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

from cpucost import within_cpu
from gitrepo import GitRepo
from incli import run_cli

from gatekeeper.deps import bazel
from gatekeeper.deps.hunklines import bazel_line

ARGUMENTS = 60_000


def _call(version: str) -> str:
    return "bazel_dep(\n" + '    name = "rules_go",\n' * ARGUMENTS + f'    version = "{version}",\n)\n'


def test_a_call_of_very_many_arguments_is_read_in_linear_time() -> None:
    data = _call("0.46.0").encode()
    [dep] = within_cpu(1.0, lambda: bazel.parse_module_bazel("MODULE.bazel", data))  # before: 4.3 CPU-s
    assert (dep.name, dep.version) == ("rules_go", "0.46.0")
    side = [(line, line.startswith("    version")) for line in _call("0.47.0").splitlines()]
    def timed() -> None:
        assert bazel_line(side, len(side) - 2) == [("runtime|rules_go", "0.47.0", "bazel")]
    within_cpu(1.0, timed)


def test_what_the_reader_refuses_is_still_refused() -> None:
    for call, why in [('bazel_dep(name = "a", version = x)', "not a literal"),
                      ('bazel_dep(name = "a" version = "1")', "not a literal"),
                      ('bazel_dep(version = "1", )', "without a name")]:
        try:
            bazel.parse_module_bazel("MODULE.bazel", call.encode())
        except bazel.ManifestError as exc:
            assert why in str(exc), exc
        else:
            raise AssertionError(call)
    [dep] = bazel.parse_module_bazel("M", b'bazel_dep( name = "a" ,version="1" , dev_dependency = True,  )')
    assert (dep.name, dep.version, dep.scope) == ("a", "1", "dev")


def test_the_patch_and_the_commits_read_the_bump_of_such_a_call(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.write("MODULE.bazel", _call("0.46.0"))
    first = repo.commit("base")
    repo.write("MODULE.bazel", _call("0.47.0"))
    second = repo.commit("head")
    patch = tmp_path / "change.diff"
    patch.write_bytes(repo.git("diff", f"-U{ARGUMENTS + 2}", first, second))  # the hunk shows the whole call
    for argv, where in ((["deps", str(patch), "--format", "json"], None),
                        (["deps", "--tree", f"{first}..{second}", "--format", "json"], repo.root)):
        # in this process; before: two sides read at 4.3 CPU-s each
        done = within_cpu(5.0, partial(run_cli, argv, text=True, cwd=where))
        assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
        assert '"0.47.0"' in str(done.stdout)
