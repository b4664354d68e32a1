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

__all__ = ["CODEDEPLOY", "RULE", "hooks"]

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


CODEDEPLOY = Shipper(RULE, _NAMES, hooks, "runs {path} on the instances it deploys to (a CodeDeploy lifecycle hook)",
                     "CodeDeploy appspec files near it read for the scripts their hooks run")
