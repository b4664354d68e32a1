"""The Go package a CI command runs by its folder (red team 14, second round; tests/test_redteam14_go_run.py).

`go run ./cmd/release` builds and runs the package in `cmd/release/`: its `.go` files are the job's code, as the
script of `go run build/ci.go` (a file, named by the files-CI-runs reader, ciruns.py) is. The folder form named no
file, so an edit of `cmd/release/main.go` stayed `src` and `gate --tree` allowed it. A relative package path after
`go run` (and its flags) is the glob of that folder's Go files, `cmd/release/*.go` — the glob matches below the folder
too, which over-reads a package's sub-packages (a review, never an allow). Read: the first argument that is no flag;
`./cmd/...` is the folder's glob too; `go run .` (the folder the command runs in: every Go file of a module's root)
names nothing, nor does a module path
(`go run golang.org/x/tools/cmd/stringer@v0.24.0`: fetched, the deps reader's), nor a `.go` file (ciruns.py's).
"""

from __future__ import annotations

from gatekeeper.lazy_pattern import lazy

__all__ = ["packages"]

# `go run` then its flags (`-tags=ci`, `-race`, `-tags ci`: a flag's separate value is a word without `./`), then the
# package: `./cmd/release`, `../tools/gen/` — relative, since Go reads any other path as an import path
_GO_RUN = lazy(r"\bgo[ \t]++run[ \t]++(?:-[^\s]++[ \t]++(?:[^\s./-][^\s]*+[ \t]++)?)*+"
                     r"['\"]?(\.{1,2}/[^\s;|&'\"`)]+)")


def packages(text: str) -> list[str]:
    """The globs of the Go files of each package `text`'s commands `go run` by a relative folder."""
    if "go" not in text:
        return []
    found = []
    for folder in _GO_RUN.findall(text):
        folder = folder.removesuffix("/...").rstrip("/")  # `./cmd/a/...`: the packages below too (the glob's)
        if folder.endswith(".go") or "@" in folder or "$" in folder or "..." in folder:
            continue
        found.append(f"{folder}/*.go")
    return found
