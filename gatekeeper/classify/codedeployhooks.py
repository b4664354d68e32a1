"""The scripts AWS CodeDeploy runs on the instances it deploys to (the seventy-fourth set,
tests/test_classify_seventyfourth_classes.py).

An EC2/on-premises deployment's `appspec.yml` (`iac` by its name) lists the revision's lifecycle hooks, each a list
of scripts by `location:`, which the CodeDeploy agent runs on every instance of the deployment group, as `runas`
(root when unset): `BeforeInstall: - location: codedeploy-prepare.sh` in hjar/bitbucket-to-aws, whose Bitbucket
pipeline pushes the revision. The script was `src` and an edit of it allowed; now a file an appspec's hooks name is
`iac` (`iac.context.deploy-hook`). A location is a path from the revision's root, the folder holding the appspec
(docs.aws.amazon.com, "AppSpec 'hooks' section"; a leading `/` or `./` is dropped); one that leaves it (`../x.sh`)
names nothing. An ECS or Lambda appspec's hooks name Lambda functions, not files: no `location:`, nothing named.

Found as heatfiles.py finds what Heat templates ship (its `Shipped`): the appspec files in the folders above a changed
file and directly inside those folders' sub-folders (a bundle folder `deploy/` beside the scripts' folder). Each
location is read from its line (`location: x`, `- location: "a b.sh"`, in any order among its item's keys): a text
scan, linear in the file's size; a file longer than read counts as naming every file near it (heatfiles.PAST).
"""

from __future__ import annotations

import posixpath
import re

from gatekeeper.classify.heatfiles import PAST, Shipper
from gatekeeper.classify.sniff import FULL_READ
from gatekeeper.lazy_pattern import lazy

__all__ = ["CODEDEPLOY", "RULE", "hooks", "is_appspec", "shown_hook"]

RULE = "iac.context.deploy-hook"
_NAMES = ("appspec.yml", "appspec.yaml")
# `location: path` as a key of a hook's list item (quoted, or bare up to a comment or the line's end)
_LOCATION = lazy(r"""^[ \t]*(?:-[ \t]+)?["']?location["']?[ \t]*:[ \t]*(?:"([^"\n]+)"|'([^'\n]+)'|([^\s#'"][^#\n]*))""",
                 re.MULTILINE)
_HOOKS = lazy(r"""^["']?hooks["']?[ \t]*:""", re.MULTILINE)


def hooks(appspec: str, data: bytes) -> tuple[str, ...]:
    """The repository paths the lifecycle hooks of the appspec at `appspec` run (none when it is no appspec or has
    no top-level `hooks:` key)."""
    if appspec.rpartition("/")[2].lower() not in _NAMES:
        return ()
    text = data[:FULL_READ].decode("utf-8", "replace")
    if _HOOKS.search(text) is None:
        return ()
    past = (PAST,) if len(data) > FULL_READ else ()
    root = appspec.rpartition("/")[0]
    out = []
    for quoted, single, bare in _LOCATION.findall(text):
        value = (quoted or single or bare).strip().lstrip("/")
        path = posixpath.normpath(posixpath.join(root, value)) if value else ""
        if path and not path.startswith("../") and path not in (".", ".."):
            out.append(path)
    return tuple(dict.fromkeys(out)) + past


def is_appspec(path: str) -> bool:
    """An appspec file by its name."""
    return path.rpartition("/")[2].lower() in _NAMES


def shown_hook(appspecs: dict[str, tuple[str, ...]], sides: tuple[str, ...] | list[str]) -> tuple[str, str] | None:
    """(RULE, evidence) when an appspec a patch shows (`appspecs`: its path, what hooks() reads of its shown lines) runs
    a side by its hooks; past its read, every file below its folder (fail closed). None otherwise (the label92 round:
    from a patch the hooks stayed `src`, the ninety-first set's class 4)."""
    for side in sides:
        for appspec, named in appspecs.items():
            root = appspec.rpartition("/")[0]
            if side in named or (PAST in named and (not root or side.startswith(f"{root}/"))):
                how = CODEDEPLOY.how.format(path=side) if side in named else f"is longer than read ({CODEDEPLOY.bound})"
                return RULE, f"{appspec} {how}"
    return None


CODEDEPLOY = Shipper(RULE, _NAMES, hooks, "runs {path} on the instances it deploys to (a CodeDeploy lifecycle hook)",
                     "CodeDeploy appspec files near it read for the scripts their hooks run")
