"""A YAML file's quoted data value is no command line (determinism round 45; misses 9's Left: Dependabot's mechanism).

ciruns.named reads a YAML file's quoted scalars again, each as one line (an escaped `run: "…"`, a flow list of
commands), so `package-ecosystem: 'npm'` became the command `npm`, which names package.json, and through its scripts
typed-fastify's `test/server.ts` was `ci`. Misses 9 excluded `.github/dependabot.yml` as a walk origin; the same value
in any other YAML file the walk reads (`.github/labeler.yml`, `.github/settings.yml`, a workflow's `env:`) still ran.
Now a quoted scalar is read again only under a key a CI system runs (yamlnodes.COMMAND_WORDS: `run`, `script`,
`commands`, `cmds`, `entrypoint`, `args`, `before_install`, `test_script`, `postCreateCommand`, …) or under no key at
all (a root list: fail closed); the raw line is still read as every text is.
"""

from __future__ import annotations

import itertools
import json

import pytest
from citools import one_tree_runs

from gatekeeper.classify import ciruns, yamlnodes

# a runner's bare word and the task file it names
_WORDS = {"npm": "package.json", "make": "Makefile", "just": "justfile", "tox": "tox.ini"}
_DATA_KEYS = ("package-ecosystem", "name", "image", "language", "description", "manager", "ecosystem", "labels")


def _quoted(value: str, quote: str) -> str:
    return f"{quote}{value}{quote}"


@pytest.mark.parametrize(("key", "word", "quote"), list(itertools.product(_DATA_KEYS, _WORDS, "'\"")))
def test_a_quoted_data_value_is_no_command(key: str, word: str, quote: str) -> None:
    for text in (f"{key}: {_quoted(word, quote)}\n", f"updates:\n  - {key}: {_quoted(word, quote)}\n",
                 f"env:\n  {key.upper().replace('-', '_')}: {_quoted(word, quote)}\n",
                 f"{key}: [{_quoted(word, quote)}]\n"):
        assert _WORDS[word] not in ciruns.named_in(".github/x.yml", text)[0], text


# keys a CI system runs (GitHub/GitLab/Travis/Cirrus/AppVeyor/Taskfile/Drone/Compose/Concourse/dev containers)
_COMMAND_FORMS = (
    "run: {v}\n", "steps:\n  - run: {v}\n", "script: [{v}]\n", "job:\n  script:\n    - {v}\n", "commands: [{v}]\n",
    "tasks:\n  t:\n    cmds: [{v}]\n", "command: [{v}]\n", "entrypoint: [{v}]\n", "args: [{v}]\n",
    "before_install: {v}\n", "test_script: {v}\n", "install:\n  - {v}\n", "run:\n  path: {v}\n",
    "postCreateCommand: {v}\n", "hooks:\n  pre:\n    - {v}\n", "- {v}\n", "{v}\n",
)


@pytest.mark.parametrize(("form", "word", "quote"), list(itertools.product(_COMMAND_FORMS, _WORDS, "'\"")))
def test_a_quoted_command_value_still_runs(form: str, word: str, quote: str) -> None:
    """Look-alikes that must not change: a quoted value under a command key (or under none) is still a command."""
    text = form.format(v=_quoted(word, quote))
    assert _WORDS[word] in ciruns.named_in(".github/x.yml", text)[0], text


@pytest.mark.parametrize("path", ["composer.json", ".devcontainer/devcontainer.json", "deno.json"])
def test_a_json_command_value_still_runs(path: str) -> None:
    """A JSON file's strings are YAML's double-quoted scalars: its command keys' values still run."""
    key = {"composer.json": "scripts", ".devcontainer/devcontainer.json": "postCreateCommand", "deno.json": "tasks"}
    text = json.dumps({key[path]: {"b": "make"}} if path != ".devcontainer/devcontainer.json" else {key[path]: "make"})
    assert "Makefile" in ciruns.named_in(path, text)[0]


def test_folded_and_escaped_strings_under_command_keys_are_read_again() -> None:
    text = 'run: "echo \\"a\\" && ./ci/a.sh"\nscript: >\n  ./ci/b.sh\n  --fast\nname: "./ci/c.sh"\n'
    strings = yamlnodes.folded_strings(text, quoted_data=False)
    assert strings == ['echo "a" && ./ci/a.sh', "./ci/b.sh --fast\n"]
    assert yamlnodes.folded_strings(text) == [*strings, "./ci/c.sh"]


@pytest.mark.parametrize("origin", [".github/dependabot.yml", ".github/dependabot.yaml", ".github/labeler.yml",
                                    ".github/settings.yml"])
@pytest.mark.parametrize("quote", "'\"")
def test_typed_fastify_shape_names_no_test(origin: str, quote: str) -> None:
    """typed-fastify's Dependabot settings: `'npm'` named package.json and its `tap test/…` script's file."""
    files = {origin: f"version: 2\nupdates:\n  - package-ecosystem: {quote}npm{quote}\n    directory: {quote}/{quote}\n"
             "    schedule:\n      interval: 'daily'\n",
             "package.json": json.dumps({"scripts": {"test": "tap test/server.ts"}}), "test/server.ts": "x"}
    runs = one_tree_runs(files)
    assert isinstance(runs, dict)
    assert "test/server.ts" not in runs and "package.json" not in runs, sorted(runs)
