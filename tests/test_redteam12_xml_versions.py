"""Red team 12, XML build files: a version no reader reads moved unseen beside a bump (allow with `--tree`).

Red team 11's XML residue blanks every version-shaped value, so that a bump of an entry the delta reads (a plugin,
the parent, a property) moves no residue. But a Maven build `<extension>` (code Maven loads into the build), MSBuild's
`<Sdk Name=… Version=…>`, an `<Import Sdk=… Version=…>`, a `<PackageDownload>` and a `<DotNetCliToolReference>` are
read by no reader: their version moved to anything (a downgrade too) beside a guava or Newtonsoft.Json bump, directly
or through the property they use, and the gate allowed it. Now their values, and the properties they use, are kept
as written in the residue. Variants: each element × up and down × written in place or through a property."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_deps_gate import Case, gate
from test_redteam11_xml_build import BUMP, CS_BUMP, CSPROJ, POM

from gatekeeper.deps.residue import xml_residue

EXTENSION = ("  <build>\n    <extensions><extension><groupId>org.example</groupId><artifactId>build-hook</artifactId>"
             "<version>{v}</version></extension></extensions>\n")
MSBUILD = {
    "Sdk": '  <Sdk Name="Example.Sdk" Version="{v}" />\n',
    "Import Sdk": '  <Import Project="Sdk.props" Sdk="Example.Sdk" Version="{v}" />\n',
    "PackageDownload": '  <ItemGroup><PackageDownload Include="Example.Tool" Version="[{v}]" /></ItemGroup>\n',
    "DotNetCliToolReference": '  <ItemGroup><DotNetCliToolReference Include="Example.Tool" Version="{v}" />'
                              "</ItemGroup>\n",
}
MOVES = {"up": "9.9.9", "down": "0.0.1"}


def _pom(version: str, through_property: bool) -> str:
    if not through_property:
        return POM.replace("  <build>\n", EXTENSION.format(v=version))
    return POM.replace("  <build>\n", EXTENSION.format(v="${hook.version}")).replace(
        "  </properties>", f"    <hook.version>{version}</hook.version>\n  </properties>")


def _csproj(element: str, version: str, through_property: bool) -> str:
    value = "$(HookVersion)" if through_property else version
    text = CSPROJ.replace("  <ItemGroup>", MSBUILD[element].format(v=value) + "  <ItemGroup>", 1)
    if through_property:
        text = text.replace("    <Version>1.0.0</Version>", f"    <Version>1.0.0</Version>\n    <HookVersion>{version}"
                                                            "</HookVersion>")
    return text


def _attacks() -> dict[str, tuple[str, str, str]]:
    out = {}
    for way, through in (("in place", False), ("through a property", True)):
        for move, version in MOVES.items():
            out[f"pom.xml extension {move}, {way}"] = (
                "pom.xml", _pom("1.0.0", through), _pom(version, through).replace(*BUMP))
            for element in MSBUILD:
                out[f"csproj {element} {move}, {way}"] = (
                    "App.csproj", _csproj(element, "1.0.0", through),
                    _csproj(element, version, through).replace(*CS_BUMP))
    return out


ATTACKS = _attacks()


def test_the_attacks_are_generated() -> None:
    assert len(ATTACKS) == 20


@pytest.mark.parametrize("tree", [False, True], ids=["patch", "tree"])
def test_an_unread_version_moved_beside_a_bump_needs_a_human(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                             tree: bool) -> None:
    base = {f"c{n}/{name}": old for n, (name, old, _) in enumerate(ATTACKS.values())}
    head = {f"c{n}/{name}": new for n, (name, _, new) in enumerate(ATTACKS.values())}
    decision = gate(capsys, Case(tmp_path, base, head), tree)
    reviewed = {p for reason in decision["reasons"] if reason["level"] == "review" for p in reason.get("paths", ())}
    missed = [case for n, (case, (name, _, _)) in enumerate(ATTACKS.items()) if f"c{n}/{name}" not in reviewed]
    assert not missed, missed


def test_read_versions_still_move_no_residue() -> None:
    """A bump of an entry the delta reads (a dependency, a plugin, the parent, a property they use) stays quiet."""
    base = _pom("1.0.0", True)
    for old, new in (BUMP, ("<version>3.1.0</version>", "<version>3.1.1</version>"),
                     ("<version>3.2.0</version>", "<version>3.2.1</version>"), ("2.16.0", "2.16.1")):
        assert xml_residue(base.encode()) == xml_residue(base.replace(old, new).encode()), (old, new)
