"""`gatekeeper test`: Rego unit tests (`rego_tests`), fixture cases (`fixtures`), rule coverage (`coverage`).

`suite.run_suite` runs all three and returns a `TestRun` that computes its own exit code;
`report` renders it as text, JSON or JUnit. Kept import-free so the CLI starts cheaply.
"""
