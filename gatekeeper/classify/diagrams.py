"""Files whose first bytes say what they are though their name does not: packed archives (archives.py), diagrams,
Maven settings and MSBuild files.

A draw.io (diagrams.net) diagram is an XML document whose root element is `<mxfile>` (or a bare `<mxGraphModel>`);
the editor saves it as `*.drawio`, but people keep it as `architecture.xml`, `docs/images/Overview.xml` or under a
name with no extension (`workshop/diagrams/private-construct-hub`), where only the first element tells it from any
other XML file (the labelled sets: wgpu, Atlassian's charts, a Fargate sample, two AWS workshops). A diagram is a
picture of the system, `other` as images are (principle 8): raised from `src` only, never lowering anything, and read
only for the names the path rules leave to the fallback (`.xml`, no extension). The read is the content tier's head
(8 KiB at most), and the test is a bounded prefix match.

A Maven settings file kept under an ordinary name or folder (`sdks/java/settings.xml`, `ci/maven-settings.xml`, used
with `mvn -s FILE`) names the repositories and mirrors every dependency is downloaded from, and the credentials for
them: `deps` (deps.content.maven-settings), as `.mvn/settings.xml` is by path. Its root element is `<settings>` in
Maven's settings namespace, or a bare `<settings>` whose first child is one of the settings' own sections.

An MSBuild file a project imports under a name the path rules do not know (`<Import Project="eng/Versions.xml" />`,
`tools/shared.msbuild`, attack 40): MSBuild reads any file so imported as its own, its `<PackageReference>` items and
its targets' `<Exec>` commands too, so it is `deps` (deps.content.msbuild-project) as a `.props` or `.targets` file is
by path. Its root element is `<Project>` (with MSBuild's attributes or none) and a project element (`<PropertyGroup>`,
`<ItemGroup>`, `<Import>`, `<Target>`, `<UsingTask>`, `<Sdk>`, `<Choose>`) follows in the head.
"""

from __future__ import annotations

from gatekeeper.classify.archives import is_archive, packaged
from gatekeeper.classify.sniff import Signal
from gatekeeper.lazy_pattern import lazy

# A byte order mark, blank space, an XML declaration and comments may come before the root element (each bounded).
_PROLOGUE = (rb"\A(?:\xef\xbb\xbf)?\s{0,256}(?:<\?xml[^>]{0,512}\?>\s{0,256})?"
             rb"(?:<!--(?:(?!-->)[\s\S]){0,2048}-->\s{0,256}){0,4}")
_DIAGRAM_ROOT = lazy(_PROLOGUE + rb"<(mxfile|mxGraphModel)[\s>/]", 0)
_MAVEN_SETTINGS = lazy(
    _PROLOGUE + rb"<settings(?:\s[^>]{0,1024}?xmlns\s*=\s*[\"']https?://maven\.apache\.org/SETTINGS/[^>]{0,1024}>|"
    rb"\s*>\s{0,256}(?:<!--(?:(?!-->)[\s\S]){0,2048}-->\s{0,256}){0,4}<(?:localRepository|interactiveMode|offline|"
    rb"pluginGroups|servers|mirrors|proxies|profiles|activeProfiles)[\s>/])", 0)


_MSBUILD_ROOT = lazy(_PROLOGUE + rb"<Project[\s>]", 0)
_MSBUILD_ELEMENT = lazy(rb"<(?:PropertyGroup|ItemGroup|Import|Target|UsingTask|Sdk|Choose|ImportGroup)[\s>/]", 0)
# the names MSBuild files take besides the path rules' (.csproj, .props, .targets, .proj, ...)
_MSBUILD_NAMES = (".xml", ".msbuild", ".tasks", ".settings", ".inc")


def read_by_head(path: str) -> bool:
    """Whether the content tier reads `path`'s head for what it holds: a gzipped tar, an `.xml` file (or another name an
    MSBuild file takes), or a name without an extension (a dot-file such as `.env` has one: its name is all
    extension)."""
    name = path.rpartition("/")[2]
    return is_archive(path) or name.lower().endswith(_MSBUILD_NAMES) or \
        "." not in name.lstrip(".") and not name.startswith(".")


def by_head(path: str, data: bytes) -> Signal | None:
    """The signal `data`, the head of `path`'s blob, gives: a packaged chart or npm package for an archive, Maven
    settings (`deps.content.maven-settings`) for an `.xml` file whose root is theirs, an MSBuild file
    (`deps.content.msbuild-project`) for a `<Project>` root holding a project element, a diagram
    (`other.content.diagram`) for an XML document whose root is draw.io's; else None."""
    if is_archive(path):
        return packaged(data)
    if path.lower().endswith(".xml") and _MAVEN_SETTINGS.match(data):
        return Signal("deps", "deps.content.maven-settings", "<settings>: Maven settings (the repositories, mirrors "
                      "and credentials dependencies are fetched with)")
    if (root := _MSBUILD_ROOT.match(data)) is not None and _MSBUILD_ELEMENT.search(data, root.end()) is not None:
        return Signal("deps", "deps.content.msbuild-project", "<Project>: an MSBuild file (a project that imports it "
                      "takes its package references and runs its targets)")
    if (m := _DIAGRAM_ROOT.match(data)) is None:
        return None
    return Signal("other", "other.content.diagram", f"<{m.group(1).decode()}>: a draw.io diagram (a picture, not "
                  "settings)")
