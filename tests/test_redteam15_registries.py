"""Red team 15, the deps policy: a package registry removed (dependency confusion) queued normally.

A registry config whose only move was a URL taken out had kind `registries` with `registries_removed` alone, and
the policy took it as explained ("a removed registry is harmless"); a requirements file's `--index-url` removed
beside a bump rode on the bump. But the packages that registry served are then looked up in the registries left:
`@corp:registry=` gone from `.npmrc` sends `@corp/auth` to registry.npmjs.org, a pip `index-url` of an internal
index gone sends `corp-auth` to pypi.org, where anyone may publish that name. `gate --enable deps` said allow (exit
0) from the patch and with `--tree`. Each form is gated both ways; `deps.removed_registry` must name its file. A
URL still named elsewhere in the file, or a registry swapped within one line's spelling, is no removal.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_deps_gate import Case, gate, together

NPM = "https://registry.npmjs.org/"
CORP = "https://npm.corp.example/"
PYPI = "https://pypi.org/simple"
INDEX = "https://pypi.corp.example/simple"
NUGET = "https://api.nuget.org/v3/index.json"


def nuget(*sources: str) -> str:
    adds = "".join(f'    <add key="s{n}" value="{url}" />\n' for n, url in enumerate(sources))
    return f"<configuration>\n  <packageSources>\n    <clear />\n{adds}  </packageSources>\n</configuration>\n"


# name: (BASE's files, HEAD's files); each HEAD takes out a registry that served packages and keeps the public one.
ATTACKS = {
    ".npmrc scope registry": ({".npmrc": f"registry={NPM}\n@corp:registry={CORP}\n"}, {".npmrc": f"registry={NPM}\n"}),
    ".npmrc default registry": ({".npmrc": f"registry={CORP}\n"}, {".npmrc": "\n"}),
    ".yarnrc.yml scope server": (
        {".yarnrc.yml": f'npmScopes:\n  corp:\n    npmRegistryServer: "{CORP}"\n'},
        {".yarnrc.yml": "npmScopes:\n  corp:\n"}),
    ".yarnrc registry": ({".yarnrc": f'registry "{CORP}"\n'}, {".yarnrc": "\n"}),
    "bunfig.toml scope": ({"bunfig.toml": f'[install.scopes]\ncorp = "{CORP}"\n'},
                          {"bunfig.toml": "[install.scopes]\n"}),
    "pip.conf index": ({"pip.conf": f"[global]\nindex-url = {INDEX}\nextra-index-url = {PYPI}\n"},
                       {"pip.conf": f"[global]\nextra-index-url = {PYPI}\n"}),
    "uv.toml index": ({"uv.toml": f'index-url = "{INDEX}"\nextra-index-url = ["{PYPI}"]\n'},
                      {"uv.toml": f'extra-index-url = ["{PYPI}"]\n'}),
    "nuget.config source after clear": ({"nuget.config": nuget(CORP, NUGET)}, {"nuget.config": nuget(NUGET)}),
    "requirements --index-url beside a bump": (
        {"requirements.txt": f"--index-url {INDEX}\n--extra-index-url {PYPI}\nrequests==2.31.0\ncorp-auth==1.0\n"},
        {"requirements.txt": f"--extra-index-url {PYPI}\nrequests==2.31.1\ncorp-auth==1.0\n"}),
    "Pipfile source beside a bump": (
        {"Pipfile": f'[[source]]\nname = "corp"\nurl = "{INDEX}"\nverify_ssl = true\n\n[[source]]\nname = "pypi"\n'
                    f'url = "{PYPI}"\nverify_ssl = true\n\n[packages]\nrequests = "==2.31.0"\ncorp-auth = "==1.0"\n'},
        {"Pipfile": f'[[source]]\nname = "pypi"\nurl = "{PYPI}"\nverify_ssl = true\n\n[packages]\n'
                    'requests = "==2.31.1"\ncorp-auth = "==1.0"\n'}),
}


@pytest.mark.parametrize("tree", [False, True], ids=["patch", "tree"])
def test_a_removed_registry_needs_a_human(capsys: pytest.CaptureFixture[str], tmp_path: Path, tree: bool) -> None:
    base, head, paths = together({name: (old, new) for name, (old, new) in ATTACKS.items()})
    decision = gate(capsys, Case(tmp_path, base, head), tree)
    assert decision["outcome"] == "review", decision["reasons"]
    named = {p for reason in decision["reasons"] if reason["rule"] == "deps.removed_registry" for p in reason["paths"]}
    missed = {name: sorted(files) for name, files in paths.items() if not files <= named}
    assert not missed, (missed, decision["reasons"])


# Nothing was taken out: the URL is still named on another line, a setting beside it did not move.
QUIET = {
    ".npmrc scope moved onto the default": (
        {".npmrc": f"registry={CORP}\n@corp:registry={CORP}\n"}, {".npmrc": f"registry={CORP}\n"}),
    "requirements bump under an unchanged index": (
        {"requirements.txt": f"--index-url {INDEX}\nrequests==2.31.0\n"},
        {"requirements.txt": f"--index-url {INDEX}\nrequests==2.31.1\n"}),
}


@pytest.mark.parametrize("tree", [False, True], ids=["patch", "tree"])
def test_no_registry_removed_no_finding(capsys: pytest.CaptureFixture[str], tmp_path: Path, tree: bool) -> None:
    base, head, _ = together(QUIET)
    decision = gate(capsys, Case(tmp_path, base, head), tree)
    assert "deps.removed_registry" not in {reason["rule"] for reason in decision["reasons"]}, decision["reasons"]


# The same index under another role, beside a bump: `--index-url` to `--extra-index-url` makes pip search PyPI too and
# take the higher version of the two. No URL moved, so no registry did: the requirements file's residue keeps which
# line is the main index (a `partial` problem when that moves).
ROLES = {
    "--index-url to --extra-index-url": (
        {"requirements.txt": f"--index-url {INDEX}\nrequests==2.31.0\ncorp-auth==1.0\n"},
        {"requirements.txt": f"--extra-index-url {INDEX}\nrequests==2.31.1\ncorp-auth==1.0\n"}),
    "-i to --extra-index-url=": (
        {"requirements.txt": f"-i {INDEX}\nrequests==2.31.0\n"},
        {"requirements.txt": f"--extra-index-url={INDEX}\nrequests==2.31.1\n"}),
}


@pytest.mark.parametrize("tree", [False, True], ids=["patch", "tree"])
def test_an_index_made_extra_needs_a_human(capsys: pytest.CaptureFixture[str], tmp_path: Path, tree: bool) -> None:
    base, head, paths = together(ROLES)
    decision = gate(capsys, Case(tmp_path, base, head), tree)
    named = {p for reason in decision["reasons"] if reason["rule"] == "deps.unreadable" for p in reason["paths"]}
    missed = {name: sorted(files) for name, files in paths.items() if not files <= named}
    assert not missed, (missed, decision["reasons"])
