"""Tier 3, continued: IaC programs (CDK, CDKTF, cdk8s, Pulumi, troposphere, pyinfra, cfndsl, kumogata) by their
source: the imports that make a file one, the code that hides them, a serverless function's entry point that such a
program deploys, and the dependency manifests whose naming of an IaC library makes a folder's source files worth
reading (context.py, treecontext.py, patchcontext.py).
"""

from __future__ import annotations

import mmap
import re

from gatekeeper.classify.shapes import evidence_line
from gatekeeper.classify.sniff import FULL_READ, WINDOW, Signal, lfs_pointer
from gatekeeper.lazy_pattern import lazy

_FLAGS = re.MULTILINE

# A serverless function's entry point (Lambda in each runtime, CloudFront Functions, AppSync JS resolvers), and
# the imports an IaC program cannot do without: a file with the first and none of the second is application
# code that a CDK or Pulumi program deploys, not the program.
_HANDLER = lazy(
    r"^[ \t]*(?:(?:module\.)?exports\.handler[ \t]*=|export[ \t]+(?:const|let|var)[ \t]+handler\b|"
    r"export[ \t]+(?:default[ \t]+)?(?:async[ \t]+)?function[ \t]+handler[ \t]*\(|"
    r"(?:async[ \t]+)?function[ \t]+handler[ \t]*\([ \t]*event\b|"
    r"(?:async[ \t]+)?def[ \t]+\w*handler[ \t]*\([ \t]*event[ \t]*,[ \t]*context\b|"
    r"export[ \t]+function[ \t]+(?:request|response)[ \t]*\([ \t]*ctx\b)|"
    r"\blambda\.Start(?:WithContext)?\(|\bimplements[ \t]+Request(?:Stream)?Handler\b|\bILambdaContext\b", _FLAGS)
_IAC_IMPORT = lazy(
    r"aws-cdk-lib|@aws-cdk/|\baws_cdk\b|\bAmazon\.CDK\b|software\.amazon\.awscdk|aws-cdk-go|\bcdktf\b|@pulumi/|"
    r"^[ \t]*(?:import|from)[ \t]+pulumi\b|\bpulumi_[a-z]|github\.com/pulumi/|\bcom\.pulumi\b|\busing[ \t]+Pulumi\b|"
    r"\bconstructs\b|^[ \t]*(?:import|from)[ \t]+(?:troposphere|pyinfra)\b|\bcfndsl\b|^CloudFormation\b", _FLAGS)


# What a program hiding its IaC library does (red team, issue 12): load a module by a computed name or through
# the loader taken as a value (`require` other than called on one string literal, `createRequire`, `import(expr)`,
# `new Function`, importlib, __import__, builtins, eval/exec, runpy), or build resources as CDK and Pulumi programs
# do (`new X(this, ...)`, `Role(self, "Id")`, a Stack subclass, `new aws.s3.Bucket("name", ...)`,
# `aws.s3.Bucket("name")`). A local module re-exporting aws-cdk-lib leaves no import to see; the resources remain.
_HIDDEN_PROGRAM = lazy(
    r"""\brequire\b(?![ \t]*\([ \t]*['"][^'"`\n]*['"][ \t]*\))|\bcreateRequire\b|"""
    r"""(?<![\w.])import\([ \t]*(?!['"][^'"`\n]*['"][ \t]*\))|\bnew[ \t]+Function\b|"""
    r"\bimportlib\b|\b__import__\b|\b__builtins__\b|\bbuiltins\b|\brunpy\b|(?<![\w.])(?:eval|exec)[ \t]*\(|"
    r"""\bnew[ \t]+[\w.]+[ \t]*\([ \t]*this[ \t]*,|\b[A-Z]\w*[ \t]*\([ \t]*self[ \t]*,[ \t]*['"]|"""
    r"""\bnew[ \t]+\w+(?:\.\w+)+[ \t]*\([ \t]*['"`]|\b[a-z_]\w*\.[a-z_]\w*\.[A-Z]\w*[ \t]*\([ \t]*['"]|"""
    r"\bextends[ \t]+[\w.]*Stack\b|^[ \t]*class[ \t]+\w+[ \t]*\([ \t]*[\w.]*Stack[ \t]*\)", _FLAGS)


# An IaC program by its imports (CDK, CDKTF, cdk8s, Pulumi) in each language those programs are written in.
_IAC_PROGRAM = lazy(
    r"""(?:\bfrom[ \t]+|\brequire\([ \t]*|^[ \t]*import[ \t]+)["']"""
    r"(?:aws-cdk-lib|@aws-cdk/|cdktf|@cdktf/|cdk8s|@pulumi/)|"
    r"^[ \t]*(?:import|from)[ \t]+(?:aws_cdk|cdktf|cdk8s|pulumi|pulumi_\w+)\b|"
    r'^[ \t]*(?:import[ \t]+)?(?:\w+[ \t]+)?"github\.com/'
    r'(?:aws/aws-cdk-go/|pulumi/pulumi[\w-]*/sdk|hashicorp/terraform-cdk-go/)|'
    r"^[ \t]*using[ \t]+(?:Amazon\.CDK|Pulumi|HashiCorp\.Cdktf)\b|"
    r"^[ \t]*import[ \t]+(?:software\.amazon\.awscdk|com\.pulumi|com\.hashicorp\.cdktf|org\.cdk8s)\.|"
    r"^CloudFormation[ \t]*(?:do\b|\{)|"
    # kumogata (Ruby, the sixty-fourth set: amimoto-ami's amimoto-enterprise-cfn): a program opens with the template's
    # format line as a method call, and the fragments its programs `_include` declare resources and parameters with a
    # `Type "AWS::EC2::Subnet"` call on a line of its own. YAML and JSON write both with a colon; Ruby that handles the
    # types as data quotes, compares or assigns them.
    r"""^AWSTemplateFormatVersion[ \t]*\(?[ \t]*["']\d{4}-\d\d-\d\d["'][ \t]*\)?[ \t]*(?:#[^\n]*)?\r?$|"""
    r"""^[ \t]*Type[ \t]*\(?[ \t]*["'](?:AWS|Alexa|Custom)::\w[\w:<>]*["'][ \t]*\)?[ \t]*(?:#[^\n]*)?\r?$""", _FLAGS)
# Python libraries whose programs are infrastructure too (the thirty-ninth set): troposphere builds CloudFormation
# templates (`from troposphere import Template`), pyinfra deploys configure machines as Ansible plays do (`from
# pyinfra.operations import apt`: the operations are what a deploy runs; pyinfra's CLI and its docs scripts import
# the rest of the library). Each library's own source imports itself (`pyinfra/operations/apt.py`,
# `troposphere/openstack/nova.py`, `pyinfra_cli/main.py`): a file below a folder named as the library (or
# `<library>_x`) is its code, not a program.
# cfndsl (Ruby, the fifty-fourth set: base2Services' ciinabox-ecs `templates/*.rb`) builds CloudFormation templates as
# troposphere does: `require 'cfndsl'`, or a template the cfndsl command loads, which opens a `CloudFormation do` block.
_CONFIG_LIBRARY = lazy(r"^[ \t]*(?:(?:import|from)[ \t]+(troposphere\b|pyinfra(?=\.operations\b))|"
                       r"""require[ \t]*\(?[ \t]*["'](cfndsl)["'])""", _FLAGS)
# Byte strings one of those imports must contain (a cheap test of a whole patch before any file is read).
# kumogata's Gemfile names it; a patch that shows a fragment alone shows the resource's `Type "AWS::` call.
IAC_LIBRARY_NEEDLES = (b"aws-cdk", b"aws_cdk", b"Amazon.CDK", b"awscdk", b"cdktf", b"Cdktf", b"cdk8s", b"pulumi",
                       b"Pulumi", b"troposphere", b"pyinfra", b"cfndsl", b"kumogata", b'Type "AWS::', b"Type 'AWS::",
                       b'Type("AWS::', b"Type('AWS::", b"AWSTemplateFormatVersion \"", b"AWSTemplateFormatVersion '")
# Parts of the needles, each needle holding one: a text holds a needle only where it holds that needle's part, so a
# patch that names no library is answered with 9 scans of its bytes instead of 19 (the bench's 2.3 MB patch: ~20 -> ~12
# CPU-ms, on every gate's path). A needle holding none of them is its own part (mentions_library stays exact).
_NEEDLE_PARTS = (b"cdk", b"Cdk", b"CDK", b"ulumi", b"troposphere", b"pyinfra", b"cfndsl", b"kumogata", b"AWS")


def _by_part(needles: tuple[bytes, ...], parts: tuple[bytes, ...]) -> tuple[tuple[bytes, tuple[bytes, ...]], ...]:
    """(part, the needles that hold it first, none when the part is the needle itself) for every part some needle
    holds."""
    groups: dict[bytes, list[bytes]] = {}
    for needle in needles:
        groups.setdefault(next((part for part in parts if part in needle), needle), []).append(needle)
    return tuple((part, () if found == [part] else tuple(found)) for part, found in groups.items())


_NEEDLES_BY_PART = _by_part(IAC_LIBRARY_NEEDLES, _NEEDLE_PARTS)


def mentions_library(data: bytes | mmap.mmap) -> bool:
    """Whether `data` holds one of IAC_LIBRARY_NEEDLES (what testing each of them finds, with fewer scans)."""
    return any(data.find(part) != -1 and (not needles or any(data.find(needle) != -1 for needle in needles))
               for part, needles in _NEEDLES_BY_PART)
# The source files of those languages.
PROGRAM_EXTENSIONS = frozenset({"ts", "mts", "cts", "js", "mjs", "cjs", "py", "go", "cs", "fs", "java", "kt", "scala",
                                "rb"})
# Dependency manifests of the languages IaC programs are written in: one that names an IaC library makes the source
# files in and below its folder worth reading for that library's imports.
_MANIFESTS = frozenset({
    "go.mod", "package.json", "requirements.txt", "pyproject.toml", "pipfile", "setup.py", "setup.cfg", "pom.xml",
    "build.gradle", "build.gradle.kts", "build.sbt", "directory.packages.props", "packages.config", "gemfile",
})
_MANIFEST_SUFFIXES = (".csproj", ".fsproj", ".vbproj", ".gemspec")
# The last four characters of every manifest name (lower case): a cheap first test of every path of both trees.
MANIFEST_ENDINGS = frozenset(name[-4:] for name in (*_MANIFESTS, *_MANIFEST_SUFFIXES, ".txt"))


def is_manifest(name: str) -> bool:
    lower = name.lower()
    return lower in _MANIFESTS or lower.endswith(_MANIFEST_SUFFIXES) or (
        lower.startswith("requirements") and lower.endswith(".txt"))


def iac_program(data: bytes, path: str = "") -> Signal | None:
    """A CDK, CDKTF, cdk8s, Pulumi, troposphere, pyinfra or cfndsl program recognised by its imports anywhere in `data`
    (up to FULL_READ: a Go package's doc comment or a Python module's docstring may push them past any window; red team
    11), or None. `path` (the file's) tells a troposphere or pyinfra library's own modules from a program."""
    if b"\0" in data[:WINDOW]:
        return None
    if (pointer := lfs_pointer(data)) is not None:  # red team 28: LFS writes the program a checkout finds
        return pointer
    text = data[:FULL_READ].decode("utf-8", "replace").removeprefix("\ufeff")  # C# files often start with a BOM
    if (m := _IAC_PROGRAM.search(text)) is not None:
        return Signal("iac", "iac.content.iac-program", evidence_line(text, m))
    folders = path.split("/")[:-1]
    for m in _CONFIG_LIBRARY.finditer(text):  # not the library's own package, nor a companion (`pyinfra_cli/`)
        library = m.group(1) or m.group(2)
        if not any(f == library or f.startswith(f"{library}_") for f in folders):
            return Signal("iac", "iac.content.iac-program", evidence_line(text, m))
    return None


def program_evidence(data: bytes, path: str = "") -> Signal | None:
    """What makes a source file an IaC program, or possibly one: its imports, or code that hides them
    (_HIDDEN_PROGRAM). Asked of files the claim of a program's marker would cover."""
    if (signal := iac_program(data, path)) is not None:
        return signal
    text = data[:WINDOW].decode("utf-8", "replace").removeprefix("\ufeff")
    if b"\0" in data[:WINDOW] or (m := _HIDDEN_PROGRAM.search(text)) is None:
        return None
    return Signal("iac", "iac.content.hidden-program", evidence_line(text, m))


def function_handler(data: bytes) -> Signal | None:
    """A serverless function's entry point that imports no IaC library (see _HANDLER) and hides none
    (_HIDDEN_PROGRAM), seen whole (a file longer than the window may import one further down), or None."""
    if len(data) >= WINDOW or b"\0" in data:
        return None
    text = data.decode("utf-8", "replace").removeprefix("\ufeff")
    if _IAC_IMPORT.search(text) or _HIDDEN_PROGRAM.search(text) or (m := _HANDLER.search(text)) is None:
        return None
    return Signal("src", "src.content.function-handler", evidence_line(text, m))
