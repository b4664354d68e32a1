"""Red team 29: extras, markers or features asked for on a second entry of the same package at the same version.

Red team 26 made what an entry asks for besides its version (extras, markers, features, the Cargo table) part of the
entry: `requests==2.31.0` → `requests[socks]==2.31.1` is `changed`, reviewed. But the delta keeps one entry per
package and version, the first: a bump that also adds a second line for the same package at the new version with
extras (`requests==2.31.1` + `requests[socks]==2.31.1`; pip merges them and installs the extra's packages) read as
the bump alone, an in-level upgrade: `gate --enable deps` allowed it (exit 0) from the patch and with `--tree` for a
requirements file, with `--tree` for a pyproject's list. Now the asks of every entry at one version are that
version's, so a set that differs between the sides is `changed` (`deps.unordered`). The same two lines on both sides
bumped together still queue.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from changecase import both_modes
from tables import each_case

PYPROJECT = '[project]\nname = "a"\nversion = "1"\ndependencies = [\n{}]\n'
FORMS = {  # name: (path, how a list of requirements is written in it)
    "requirements": ("requirements.txt", lambda reqs: "".join(f"{r}\n" for r in reqs)),
    "pyproject": ("pyproject.toml", lambda reqs: PYPROJECT.format("".join(f'  "{r}",\n' for r in reqs))),
}
ASKS = ["requests[socks]{}", "requests[socks,use_chardet_on_py3]{}", "requests{} ; sys_platform == 'linux'",
        "requests[security]{} ; python_version >= '3.8'"]
SPELLINGS = ["=={}", "==={}"]


def variants() -> list[tuple[str, dict[str, str], dict[str, str]]]:
    found = []
    for form, (path, write) in FORMS.items():
        for ask in ASKS:
            for spelling in SPELLINGS:
                old = write(["flask==3.0.0", "requests==2.31.0"])
                pin = spelling.format("2.31.1")
                new = write(["flask==3.0.0", f"requests{pin}", ask.format(pin)])
                found.append((f"{form} {ask.format(pin)}", {path: old}, {path: new}))
    return found


def test_the_variants_are_what_they_say() -> None:
    assert len(variants()) == len(FORMS) * len(ASKS) * len(SPELLINGS) == 16


@each_case("variant", variants(), ids=lambda v: v[0])
def test_a_second_entry_asking_for_more_beside_a_bump_needs_a_human(tmp_path: Path, variant: Any) -> None:
    _, base, head = variant
    for mode, (code, decision) in zip(("patch", "tree"), both_modes(tmp_path, base, head), strict=True):
        assert (code, decision["outcome"]) == (3, "review"), (mode, decision["reasons"])


def test_the_same_two_entries_bumped_together_queue(tmp_path: Path) -> None:
    old = "requests==2.31.0\nrequests[socks]==2.31.0 ; sys_platform == 'linux'\n"
    for mode, (code, decision) in zip(("patch", "tree"), both_modes(tmp_path, {"requirements.txt": old},
                                                                {"requirements.txt": old.replace("2.31.0", "2.31.1")}),
                                      strict=True):
        assert (code, decision["outcome"]) == (0, "allow"), (mode, decision["reasons"])
