"""Attack 16: a byte order mark dropped from an XML build file whose declaration names another codec.

This stop's sources._unmarked reads an MSBuild file's or POM's first line whose only edit is a UTF-8 byte order mark
dropped or added as context: "an XML parser reads the mark as the encoding's signature, nothing more". That holds
while the declaration names UTF-8 (or none). With `<?xml version="1.0" encoding="utf-7"?>` the mark is what tells a
parser the file is UTF-8; without it a parser that honours the declaration reads it in that codec, and UTF-7 spells
markup in ASCII (`+ADw-` is `<`): the bytes the gate read as one bump may be another document (hardening: not tried
against MSBuild itself). Now the mark's edit on a line declaring a codec other than UTF-8 stays an edit (the file is
`partial`: reviewed). Variants: utf-7, utf-16 and a single-quoted UTF-7 declaration; controls: UTF-8 and none.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from gatekeeper.deps.sources import patch_delta

_BODY = ('<Project Sdk="Microsoft.NET.Sdk">\n  <ItemGroup>\n'
         '    <PackageReference Include="Newtonsoft.Json" Version="{v}" />\n  </ItemGroup>\n</Project>\n')


def _delta(tmp_path: Path, declaration: str) -> tuple[list[str], list[str]]:
    repo = tmp_path / "repo"
    repo.mkdir()
    git = ["git", "-C", str(repo), "-c", "user.email=a@example.com", "-c", "user.name=a"]
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / "App.csproj").write_text("\ufeff" + declaration + _BODY.format(v="13.0.1"), encoding="utf-8")
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "base"], check=True)
    (repo / "App.csproj").write_text(declaration + _BODY.format(v="13.0.3"), encoding="utf-8")
    patch = tmp_path / "change.patch"
    patch.write_bytes(subprocess.run([*git, "diff", "--binary"], check=True, capture_output=True).stdout)
    delta = patch_delta(patch)
    return [c.change for c in delta.changes], [p.kind for p in delta.problems]


@pytest.mark.parametrize("declaration", ['<?xml version="1.0" encoding="utf-7"?>\n',
                                         '<?xml version="1.0" encoding="UTF-16"?>\n',
                                         "<?xml version='1.0' encoding='UTF-7'?>\n"])
def test_a_mark_dropped_before_another_codec_is_an_edit(tmp_path: Path, declaration: str) -> None:
    changes, problems = _delta(tmp_path, declaration)
    assert problems, (changes, problems)


@pytest.mark.parametrize("declaration", ['<?xml version="1.0" encoding="utf-8"?>\n', ""])
def test_a_mark_dropped_before_utf8_is_no_edit(tmp_path: Path, declaration: str) -> None:
    assert _delta(tmp_path, declaration) == (["upgraded"], [])
