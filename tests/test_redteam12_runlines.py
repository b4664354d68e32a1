"""Red team 12, workflow `run:` lines: a package a job downloads and runs at a version, which the delta did not name.

runlines.py read `go install`, `cargo install`, `pip install`, `npm install -g`, `npx` — at a line's start or after
`&&`, `;`, `|`, `sudo`. Missed, so a new step was no new dependency to the `deps` policy: the runners that fetch and
run in one command (`go run PATH@vX`, `uvx`, `uv tool run`, `pipx run`, `npm exec`/`npm x`, `yarn dlx`, `pnpm dlx`,
`bun x`), `npm i`, `bun add -g`, `cargo binstall`, `gem install -v`, `dotnet tool install --version`, pip under a
version suffix (`pip3.12`, `python3.12 -m pip`), and any command behind a wrapper or keyword (`sudo -E`, `env X=1`,
`GOFLAGS=… go install`, `time`, `xargs`, `then`). Each command is generated behind each lead and read; one workflow
holding them all is gated (`deps.new_direct` names it); a hostile line stays linear."""

from __future__ import annotations

from pathlib import Path

import pytest
from cpucost import within_cpu
from tables import each_case
from test_deps_gate import Case, gate

from gatekeeper.deps.runlines import installs

COMMANDS = {
    "go run github.com/evil/tool/cmd/x@v1.2.3": ("go", "github.com/evil/tool", "v1.2.3"),
    "uvx evil@1.0.0": ("pip", "evil", "1.0.0"),
    "uvx --from evil==1.0.0 evil": ("pip", "evil", "1.0.0"),
    "uv tool run evil@1.0.0": ("pip", "evil", "1.0.0"),
    "pipx run evil==1.0.0": ("pip", "evil", "1.0.0"),
    "pipx run --spec=evil==1.0.0 evil": ("pip", "evil", "1.0.0"),
    "npm exec evil@1.0.0": ("npm", "evil", "1.0.0"),
    "npm x evil@1.0.0": ("npm", "evil", "1.0.0"),
    "npm exec --package=evil@1.0.0 -- evil": ("npm", "evil", "1.0.0"),
    "npm i -g evil@1.0.0": ("npm", "evil", "1.0.0"),
    "yarn dlx evil@1.0.0": ("npm", "evil", "1.0.0"),
    "pnpm dlx evil@1.0.0": ("npm", "evil", "1.0.0"),
    "bun x evil@1.0.0": ("npm", "evil", "1.0.0"),
    "bun add -g evil@1.0.0": ("npm", "evil", "1.0.0"),
    "cargo binstall evil@1.0.0": ("cargo", "evil", "1.0.0"),
    "gem install evil -v 1.0.0": ("bundler", "evil", "1.0.0"),
    "gem install evil:1.0.0": ("bundler", "evil", "1.0.0"),
    "dotnet tool install -g evil --version 1.0.0": ("nuget", "evil", "1.0.0"),
    "pip3.12 install evil==1.0.0": ("pip", "evil", "1.0.0"),
    "python3.12 -m pip install evil==1.0.0": ("pip", "evil", "1.0.0"),
}
LEADS = ["", "sudo -E ", "env X=1 ", "GOFLAGS=-mod=mod ", "time ", "xargs -n1 ", "if true; then ", "cd x && ",
         "nohup "]


@each_case("lead", LEADS)
@each_case("command", sorted(COMMANDS))
def test_a_command_that_fetches_a_package_is_read(lead: str, command: str) -> None:
    found = [(d.ecosystem, d.name, d.version) for d in installs(".github/workflows/ci.yml", f"      {lead}{command}")]
    assert found == [COMMANDS[command]]


def test_a_new_step_running_a_package_is_a_new_direct_dependency(capsys: pytest.CaptureFixture[str],
                                                                 tmp_path: Path) -> None:
    workflow = ("on: push\njobs:\n  build:\n    runs-on: ubuntu-24.04\n    steps:\n"
                "      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683\n")
    base, head = {}, {}
    for n, command in enumerate(sorted(COMMANDS)):
        path = f".github/workflows/w{n}.yml"
        base[path] = workflow
        head[path] = workflow + f"      - run: sudo -E {command}\n"
    decision = gate(capsys, Case(tmp_path, base, head), True)
    named = {p for reason in decision["reasons"] if reason["rule"] == "deps.new_direct" for p in reason["paths"]}
    assert named == set(head)


@each_case("line", ["a=a;" * 25_000 + " pip install x==1", "; sudo " * 16_000 + "npx",
                                  "then env " * 10_000 + "go run", "x=" + "b" * 100_000 + " uvx"])
def test_a_hostile_line_is_read_in_linear_time(line: str) -> None:
    def timed() -> None:
        installs(".github/workflows/ci.yml", line)
    within_cpu(2.0, timed)  # ~0.1 s; an assignment matching across `;` took 114 s
