"""Attack 27: an Erlang escape rebar.py decoded otherwise than Erlang hid a git dependency's move to another repository.

`file:consult/1` (what rebar3 reads rebar.config and rebar.lock with) decodes `\\101` (octal, one to three digits),
`\\x41`, `\\x{41}`, `\\^A` and `\\b \\d \\f \\v` in strings and quoted atoms; rebar.py kept the character after the
backslash (`\\101` read as `101`). So `{git, "https://git.example.com/team\\101/lib.git", ...}` was, to the gate, the
base's `team101` while rebar3 fetches from `teamA`, another owner's repository: beside an ordinary bump of another
dependency `gate --enable deps` allowed the change (exit 0) with `--tree` and from the patch alone. Now the escapes
decode as Erlang's, and one Erlang refuses (`\\x` without hex digits) makes the file unreadable (fail closed).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from changecase import both_modes
from tables import each_case
from test_classify_context import assert_path_rule

from gatekeeper.deps.model import ManifestError
from gatekeeper.deps.rebar import consult

URL = "https://git.example.com/team101/lib.git"


def _config(url: str, recon: str = "2.5.4", key: str = "deps") -> str:
    return (f'{{erl_opts, [debug_info]}}.\n{{{key}, [\n    {{recon, "{recon}"}},\n'
            f'    {{lib, {{git, "{url}", {{tag, "1.0.0"}}}}}}\n]}}.\n')


# the base's `team101` written so that Erlang reads another owner: each is `teamA`, `team\x01` + "01", ... to rebar3
MOVES = {
    "octal": "https://git.example.com/team\\101/lib.git",
    "octal-short": "https://git.example.com/team\\1\\01/lib.git",
    "hex": "https://git.example.com/team\\x41/lib.git",
    "hex-brace": "https://git.example.com/team\\x{41}/lib.git",
    "control": "https://git.example.com/team\\^A01/lib.git",
    "letters": "https://git.example.com/team101/li\\b.git",
}


@each_case("url", list(MOVES.values()), ids=list(MOVES))
def test_a_git_dependency_moved_behind_an_escape_is_not_allowed(tmp_path: Path, url: str) -> None:
    """Beside a bump of recon (allowed alone), the escaped move is a finding in both modes (before: exit 0)."""
    results = both_modes(tmp_path, {"rebar.config": _config(URL)}, {"rebar.config": _config(url, recon="2.5.6")})
    assert [code for code, _ in results] == [3, 3], [[r["rule"] for r in d["reasons"]] for _, d in results]


def test_the_bump_alone_stays_allowed(tmp_path: Path) -> None:
    results = both_modes(tmp_path, {"rebar.config": _config(URL)}, {"rebar.config": _config(URL, recon="2.5.6")})
    assert [code for code, _ in results] == [0, 0], results


@each_case(("written", "erlang"), [
    ("\\101", "A"), ("\\1012", "A2"), ("\\18", "\x018"), ("\\0", "\x00"), ("\\x41", "A"), ("\\x{41}", "A"),
    ("\\x{1F600}", "\U0001F600"), ("\\b", "\b"), ("\\d", "\x7f"), ("\\e", "\x1b"), ("\\f", "\f"), ("\\v", "\v"),
    ("\\s", " "), ("\\n", "\n"), ("\\r", "\r"), ("\\t", "\t"), ("\\^a", "\x01"), ("\\^Z", "\x1a"), ("\\z", "z"),
    ("\\'", "'"), ('\\"', '"'), ("\\\\", "\\"), ("a\\\nb", "a\nb"),
])
def test_strings_and_quoted_atoms_decode_as_erlang_does(written: str, erlang: str) -> None:
    """Generated: each escape of erl_scan, in a string and in a quoted atom."""
    assert consult(f'{{"{written}", \'{written}\'}}.'.encode()) == [(erlang, erlang)]


def test_a_quoted_deps_key_written_with_escapes_is_read_as_deps() -> None:
    """`'\\x64eps'` and `'\\144eps'` are the atom `deps` to Erlang: their entries are dependencies."""
    for key in ("'\\x64eps'", "'\\144eps'", "'\\x{64}eps'"):
        assert consult(_config(URL, key=key).encode())[1][0] == "deps"


@each_case("bad", ["\\x", "\\x4", "\\xg1", "\\x{}", "\\x{41", "\\x{110000}"])
def test_an_escape_erlang_refuses_is_unreadable(bad: str) -> None:
    with pytest.raises(ManifestError):
        consult(f'{{deps, [{{lib, "{bad}"}}]}}.'.encode())


# rebar3 builds an app found in the project's `_checkouts/` folder instead of the dependency of that name (whatever
# rebar.config and rebar.lock say): a copy there is the dependency moved to code the change brings. It was src
# (src.default), which `gate --enable deps` allowed (exit 0); it is vendored code now (deps.vendored), as `deps/` was.
CHECKOUTS = {"_checkouts/recon/src/recon.erl": "-module(recon).\n-export([info/1]).\ninfo(_) -> os:cmd(\"id\").\n",
             "_checkouts/recon/src/recon.app.src": '{application, recon, [{vsn, "2.5.4"}]}.\n',
             "apps/web/_checkouts/cowboy/src/cowboy.erl": "-module(cowboy).\n"}


def test_an_app_in_checkouts_replaces_a_dependency_and_is_not_allowed(tmp_path: Path) -> None:
    config = _config(URL)
    results = both_modes(tmp_path, {"rebar.config": config}, {"rebar.config": config, **CHECKOUTS})
    assert [code for code, _ in results] == [3, 3], results
    for _, decision in results:
        named = {p for r in decision["reasons"] for p in r.get("paths") or ()}
        assert set(CHECKOUTS) <= named, decision["reasons"]


# The lead's check of the new vendored folder: it lowers nothing that was ci or iac. A Terraform module in it stays
# iac (iac.terraform-vendored, as in vendor/ or node_modules/: a `source = "./_checkouts/net"` applies it), and
# installed code inside an infrastructure folder stays iac (iac.folders-installed-code), by path in every mode.
@each_case("path", ["_checkouts/net/main.tf", "apps/x/_checkouts/net/vars.tf.json",
                                  "_checkouts/net/mod.tofu", "infra/_checkouts/recon/src/recon.erl",
                                  "deploy/app/_checkouts/x/rebar.config"])
def test_checkouts_lowers_no_infrastructure(path: str) -> None:
    assert_path_rule(path, "iac", None)
