"""Attack 14: the cost of what this stop's readers added, on hostile lines (CPU seconds, so load cannot flake it).

deps19 let Renovate's annotation comment go without its colon (`# renovate datasource=docker depName=x`). Its pairs
pattern, `\\S+=\\S+(?:\\s+\\S+=\\S+)*`, lets each `\\S+` take `=` signs, so a line of them that fails at its end is
split every way: `# renovate: ` + `a=b=c` * 4000 took 4.7 CPU-s, 20,000 characters; on d650397 only a line with the
colon reached it, now any `# renovate ...` comment line of a Dockerfile, workflow or Terraform file above a version
does. The fix takes a key without `=` (Renovate's keys have none), which leaves one way to split a line.

The other new patterns (Jinja tags in requirements, Jenkins Job Builder items, agent-settings words and imports,
pre-commit hook ids) are measured here too, on the lines their repeated characters make worst.
"""

from __future__ import annotations

from cpucost import within_cpu
from tables import each_case

from gatekeeper.classify import agentreads
from gatekeeper.classify.jobshapes import jjb_shape
from gatekeeper.deps import tools
from gatekeeper.deps.hunklines import precommit_line
from gatekeeper.deps.model import ManifestError
from gatekeeper.deps.pypi import parse_requirements, requirements_residue, untemplated

N = 60_000
ANNOTATED = 8_000  # 40,000 characters: 19 CPU-s on 5f409af, growing with the square of the length


@each_case("line", [
    "# renovate: " + "a=b=c" * ANNOTATED + " :",
    "# renovate " + "a=b=c" * ANNOTATED + " :",
    "# renovate: " + "=" * ANNOTATED * 4 + " x",
    "# renovate " + "=" * ANNOTATED * 4 + " x",
    "# renovate datasource=docker " + "a=b " * N + "x",
    "# renovate" + " " * N + "=",
    "# renovate-" + "a" * 40 + " " + "x=" * N,
])
def test_renovate_annotations_are_read_in_linear_time(line: str) -> None:
    within_cpu(3, lambda: tools.annotation(line))


def test_renovate_annotations_still_read() -> None:
    assert tools.annotation("# renovate: datasource=docker depName=node") == ("docker", "node")
    assert tools.annotation("# renovate datasource=docker depName=vabene1111/recipes") == \
        ("docker", "vabene1111/recipes")
    assert tools.annotation("# renovate: datasource=github-tags depName=a/b versioning=regex:^v(?<major>\\d+)=x") \
        is not None
    assert tools.annotation("# renovate later: a=b") is None


@each_case("text", [
    "{%" * N, "{#" * N + "#}", "{% x %}" * N, "{%#}{#%}" * N, "{#" + "{%x%}" * N, "{{ " * N + "==1.0",
])
def test_jinja_tags_in_requirements_are_read_in_linear_time(text: str) -> None:
    def timed() -> None:
        untemplated(text)
        try:  # an unclosed tag or an expression is reported (not a requirement), never read as none
            parse_requirements("requirements_dev.txt", (text + "\nrequests==2.32.3\n").encode())
        except ManifestError:
            pass
        requirements_residue(("@@ -1 +1 @@\n+" + text + "\n").encode())
    within_cpu(3, timed)


@each_case("text", [
    "- job:\n" * N, "- job:\n  name: x\n" * N, "- job: " + " " * N + "x\n  builders:\n",
    "- job:\n" + " " * N + "x\n", "job" * N,
])
def test_jenkins_job_builder_items_are_read_in_linear_time(text: str) -> None:
    within_cpu(3, lambda: jjb_shape(text))


@each_case("text", ["@" * N, " @a" * N, "@" + "a/" * N, "`@" * N])
def test_agent_imports_are_read_in_linear_time(text: str) -> None:
    within_cpu(3, lambda: list(agentreads._imports(text)))


def test_precommit_hook_ids_are_read_in_linear_time() -> None:
    side = [("hooks:", True), *((f"  - id: hook{i}", True) for i in range(N // 10))]
    def timed() -> None:
        for index in range(len(side) - 50, len(side)):
            precommit_line(side, index)
    within_cpu(3, timed)
