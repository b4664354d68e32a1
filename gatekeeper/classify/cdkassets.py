"""The files a CDK app uploads as assets or reads at synth time (red team 32, tests/test_redteam32_cdk_assets.py).

`new Asset(this, 'nginx', { path: path.join(__dirname, 'assets', 'nginx.conf') })` uploads `assets/nginx.conf` to the
app's asset bucket, and the instance's user data installs it; `ec2.InitFile.fromAsset(...)`, `fromFileInline(...)`,
`InitSource.fromAsset(...)` put a file onto a machine; `fs.readFileSync(...)` (Python: `open(...)`, `read_text`)
puts a file's text into the template (user data, a policy). The program is `iac` by its content; the file it names
was `src` (the thirty-ninth set's MastodonCloudFormation `lib/app/assets/nginx.conf`). A file a CDK program names so
is `iac` (`iac.context.cdk-asset`).

Found as heatfiles.py finds what Heat templates ship (its `Shipped`, with this module's CDK): the program files
(TypeScript, JavaScript, Python, Java, C#, Go) in the folders above a changed file and in those folders' direct
sub-folders, only below a folder that holds a `cdk.json` (a CDK app's; no other program is read), and only one that
names the CDK (`aws-cdk`, `aws_cdk`, ...). A path joined onto the program's folder (`__dirname`, `__file__`) resolves
against it; any other relative path against the program's folder and each folder above it (the app runs from its
root; over-reading makes a file `iac`, a review).

Not read: a Lambda function's code (`Code.fromAsset('lambda')`: the labelled sets call a handler application code,
`src`) and a Docker image asset's folder (its Dockerfile is `iac` by name; the rest is the image's application). A
test's program (a rule's test data) is not read.
"""

from __future__ import annotations

import posixpath

from gatekeeper.classify.heatfiles import Shipper
from gatekeeper.classify.markers import ancestors
from gatekeeper.lazy_pattern import lazy

RULE = "iac.context.cdk-asset"
_TYPES = (".ts", ".js", ".mjs", ".cjs", ".py", ".java", ".cs", ".go", ".scala", ".kt")
_CDK = lazy(rb"aws-cdk|aws_cdk|awscdk|Amazon\.CDK|software\.amazon\.awscdk")
# The calls that upload a file as an asset, put one onto a machine, or read one at synth time (not `Code.fromAsset`,
# not `DockerImageAsset`: `\b` keeps a longer name's `...Asset` out).
_CALL = lazy(r"(?:\bnew\s+(?:[\w.]+\.)?Asset|\b(?:\w+\.)?Asset(?=\s*\(\s*(?:self|this)\b)"
                   r"|\bInit(?:File|Source)\.(?:fromAsset|from_asset|fromFileInline|from_file_inline)"
                   r"|\breadFileSync|\breadFile|\bread_text|(?<![\w.])open)\s*\(")
_JOIN = lazy(r"\b(?:path|os\.path|posixpath)\.(?:join|resolve)\s*\(")
_LITERAL = lazy(r"""(['"`])([^'"`\n]{1,300})\1""")
_COMMENT = ("//", "#", "*", "/*")
_REGION = 600  # characters of a call's arguments read
# A test's program by the conventions of the CDK's languages (`test/app.test.ts`, `tests/test_stack.py`, `*_test.go`,
# `StackTest.java`): a rule's test data is not read either (Shipped), but these are `src` by their rules.
_TEST = lazy(r"(?:^|/)(?:tests?|__tests__|spec)/|\.(?:test|spec)\.[cm]?[jt]s$|(?:^|/)test_[^/]*\.py$"
                   r"|_test\.(?:py|go)$|Tests?\.(?:java|cs|kt)$|(?:Spec|Suite|Tests?)\.scala$")


def names(program: str, data: bytes) -> tuple[str, ...]:
    """The repository paths a CDK program's assets and synth-time reads name (none when it names no CDK)."""
    if _TEST.search(program) is not None or _CDK.search(data) is None:
        return ()  # a unit test's reads are its fixtures: nothing is deployed from them
    text = "\n".join(line for line in data.decode("utf-8", "replace").splitlines()
                     if not line.lstrip().startswith(_COMMENT))
    folder = program.rpartition("/")[0]
    out: list[str] = []
    for call in _CALL.finditer(text):
        region = _arguments(text, call.end())
        taken: list[tuple[int, int]] = []
        for join in _JOIN.finditer(region):
            inner = _arguments(region, join.end())
            taken.append((join.end(), join.end() + len(inner)))
            parts = [literal for _, literal in _LITERAL.findall(inner)]
            if parts:
                out += _resolved("/".join(parts), folder, "__dirname" in inner or "__file__" in inner)
        for hit in _LITERAL.finditer(region):
            if not any(start <= hit.start() < end for start, end in taken) and ("/" in hit[2] or "." in hit[2]):
                out += _resolved(hit[2], folder, False)
    return tuple(dict.fromkeys(out))


def _arguments(text: str, start: int) -> str:
    """The text from `start` (just past an opening parenthesis) to its closing one, at most _REGION characters."""
    depth = 1
    for at in range(start, min(len(text), start + _REGION)):
        if text[at] == "(":
            depth += 1
        elif text[at] == ")":
            depth -= 1
            if not depth:
                return text[start:at]
    return text[start:start + _REGION]


def _resolved(word: str, folder: str, from_program: bool) -> list[str]:
    """`word` as repository paths: against the program's folder, and (not joined onto it) every folder above."""
    if word.startswith("/") or "://" in word or "${" in word:
        return []
    bases = [folder] if from_program else ancestors(f"{folder}/x" if folder else "x")
    out = []
    for base in bases:
        path = posixpath.normpath(posixpath.join(base, word)) if base else posixpath.normpath(word)
        if path not in (".", "..") and not path.startswith("../"):
            out.append(path)
    return out


CDK = Shipper(RULE, _TYPES, names, "uploads or reads {path} (a CDK asset)",
              "program files of CDK apps near it read for assets", root="cdk.json", nested=("src/main/",))
