"""Outside services' and tools' settings the rules did not name are `other` (issue 12, classes53).

Five labelled files of three sets were `src` by the fallback: publiccode.yml catalogue metadata (teutonet's charts),
Microsoft's service-ownership es-metadata.yml (arcade) and security-scan filing settings .config/tsaoptions.json
(command-line-api), Redocly's API linter settings (e2b's infra) and gitleaks' settings without the leading dot (a
Tekton catalogue sample). What a CI folder, a chart's templates or an IaC path rule holds keeps its class.
"""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from gatekeeper.classify import load_rules

RULES = load_rules(Path(__file__).resolve().parent.parent / "policies")

CASES = [
    ("publiccode.yml", "other"), ("publiccode.yaml", "other"),
    ("es-metadata.yml", "other"), (".config/tsaoptions.json", "other"),
    ("redocly.yaml", "other"), ("docs/api/.redocly.yaml", "other"), ("redocly.yml", "other"),
    ("gitleaks.toml", "other"), ("task/gitleaks/0.1/samples/gitleaks.toml", "other"),
    # look-alikes and places that decide first
    (".github/publiccode.yml", "ci"), ("charts/web/templates/publiccode.yml", "iac"),
    ("service/es-metadata.yml", "src"), ("src/tsaoptions.json", "src"), ("redocly.config.ts", "src"),
]


@each_case(("path", "bucket"), CASES)
def test_settings_names(path: str, bucket: str) -> None:
    assert RULES.match(path).bucket == bucket, RULES.match(path)
