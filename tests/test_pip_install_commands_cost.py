"""An installer's command line is read in time linear in its length (label round 69 found it quadratic).

`pipinstalls._commands` read each installer word's command from that word to its segment's end, so a segment of many
installer words (a YAML plain scalar folding hundreds of `pip "-c", "x"` lines into one line, or one long line of
`pip`) cost the square of its words: 500 lines 1.3 CPU-s, 7,000 (98 KB) past 300 s inside `classify --tree`. A segment
reads at most MAX_COMMANDS installer commands of its own; past them every word the line names may be a requirements
file (ANY, the safe side), so the bound loses no file.
"""

from __future__ import annotations

from cpucost import assert_linear
from tables import each_case

from gatekeeper.classify import pipinstalls
from gatekeeper.classify.pipinstalls import ANY, installed_requirements

SHAPES = {
    "folded exec-form lists": 'pip "-c", "x"\n',
    "one line of pip commands": "pip install -r a.txt ",
    "one line of python -m pip": "python -m pip install -c c.txt ",
    "one line of uv pip": "uv pip sync r.txt ",
    "one line of conda": "conda env create -f environment.yml ",
    "one line of pythons": "python ",
}


@each_case("unit", SHAPES.values(), ids=SHAPES.keys())
def test_many_installer_words_are_read_in_linear_time(unit: str) -> None:
    assert_linear(installed_requirements, lambda size: unit * (size // 256), budget=1.5)


def test_a_segment_past_the_bound_names_every_word_it_holds() -> None:
    line = " ".join(f"pip install -r req{n}.txt" for n in range(pipinstalls.MAX_COMMANDS + 4))
    # the first commands read their segment to its end; the ones past the bound add ANY (a conda `-f` or a sync's
    # plain words read as a pip command's would not be)
    assert installed_requirements(line) == [*(f"req{n}.txt" for n in range(pipinstalls.MAX_COMMANDS + 4)), ANY]
    assert ANY not in installed_requirements(" ".join(["pip install -r a.txt"] * pipinstalls.MAX_COMMANDS))
    index = pipinstalls.PathIndex([f"req{n}.txt" for n in range(40)] + ["src/app.py"])
    found = index.matching(installed_requirements(line), line)
    assert {f"req{n}.txt" for n in range(pipinstalls.MAX_COMMANDS + 4)} <= set(found)


@each_case(("line", "named"), [
    ("pip install --upgrade pip -r requirements.txt", ["requirements.txt"]),
    ("python -m pip install -U pip setuptools wheel -c constraints.txt", ["constraints.txt"]),
    ("uv pip sync requirements/dev.txt && pip-sync b.txt", ["requirements/dev.txt", "b.txt"]),
    (" ; ".join(["pip install -r a.txt"] * (2 * 16)), ["a.txt"]),  # many segments, each within the bound
])
def test_ordinary_lines_name_what_they_named_before(line: str, named: list[str]) -> None:
    assert installed_requirements(line) == named
