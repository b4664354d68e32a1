"""Tier 3, continued: Jenkins Job Builder definitions by content (docs/classification.md, "The twenty-third round").

Jenkins Job Builder (JJB) turns YAML into the jobs a Jenkins controller runs: a top-level list whose items are
`- job:` or `- job-template:` mappings holding the job's kind and steps (`project-type: pipeline`, `builders:`,
`pipeline-scm:`, `dsl:`, `publishers:`). The path rules know JJB only inside CI folders (`.ci/jobs/`); a repository of
Jenkins pipelines keeps them beside the Groovy they load, under any name (`psmdb/jenkins/*.yml`,
`pmm/openshift/openshift-cluster-destroy.yml`: the twenty-sixth set). Both keys must be there: an item `- job:` at the
left margin alone is also Azure Pipelines' (indented below `jobs:`, and sniff.py's and buildshapes.py's), an
application's job queue settings, or a list of chores.
"""

from __future__ import annotations

import re

from gatekeeper.classify.shapes import evidence_line
from gatekeeper.lazy_pattern import lazy

_FLAGS = re.MULTILINE
# An item of the top-level list: `- job:` or `- job-template:` at the left margin, the mapping on the lines below.
_JJB_ITEM = lazy(r"^-[ \t]+(?:job|job-template)[ \t]*:[ \t]*(?:#[^\n]*)?$", _FLAGS)
# A key only a JJB job has, indented under the item (JJB's job attributes, not Azure's or GitLab's).
_JJB_KEY = lazy(r"^[ \t]+(?:project-type|builders|pipeline-scm|publishers|dsl|sandbox|concurrent"
                r"|block-downstream|block-upstream|auth-token|retry-count)[ \t]*:", _FLAGS)
_NEXT_ITEM = lazy(r"^-", _FLAGS)


def jjb_shape(text: str) -> tuple[str, str, str] | None:
    """(bucket, rule id, evidence line) when `text` holds a Jenkins Job Builder job, or None."""
    if "job" not in text:  # a substring test first: most YAML files name no job
        return None
    for item in _JJB_ITEM.finditer(text):
        end = (nxt.start() if (nxt := _NEXT_ITEM.search(text, item.end())) is not None else len(text))
        if _JJB_KEY.search(text, item.end(), end) is not None:
            return "ci", "ci.content.jenkins-job-builder", evidence_line(text, item)
    return None
