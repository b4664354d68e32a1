"""A quoted YAML scalar a command takes by reference is a command too (review 69b: determinism 45's narrowing).

Determinism 45 read a quoted scalar again as a command line only below a key with a word of yamlnodes.COMMAND_WORDS.
On a41445f0 every quoted scalar was read; a runner's bare word (`'make'`, `"npm"`) in a value a command reaches by
another road stopped naming its task file: a GitLab hidden job's list taken by `!reference [.s, x]` or by an alias
(`*s`), an Azure template parameter's or a CircleCI parameter's `default:`, an action's `with:` input (a retry action's
`command`, any action's `program`), an Azure task's `inputs:` (`filePath`), a variable a `$NAME` runs, a DevSpace
`pipelines:` entry. Now a quoted scalar is read again below a key that hands values to what runs (`with`, `inputs`,
`parameters`, `default`, `pipelines`), below a key the text refers to by name (`$NAME`, `inputs.NAME`, `!reference`),
and below an anchor (an alias may put it below any key). Look-alikes that must not change: determinism 45's data values.
"""

from __future__ import annotations

import itertools

import pytest
from cpucost import assert_linear, repeated

from gatekeeper.classify import ciruns, yamlnodes

_WORDS = {"npm": "package.json", "make": "Makefile", "just": "justfile", "tox": "tox.ini"}

# (path, form): a quoted `{v}` a command runs by a road other than its own key
_FORMS = [
    (".gitlab-ci.yml", ".s:\n  {k}:\n    - {v}\njob:\n  script:\n    - !reference [.s, {k}]\n"),
    (".gitlab-ci.yml", ".{k}: &{k}\n  - {v}\njob:\n  script: *{k}\n"),
    (".gitlab-ci.yml", ".{k}: &{k}\n  {k}: {v}\njob:\n  <<: *{k}\n  script: x\n"),
    (".gitlab-ci.yml", "variables:\n  {K}: {v}\njob:\n  script:\n    - ${K}\n"),
    (".gitlab-ci.yml", "variables:\n  {K}: {v}\njob:\n  script:\n    - ${{{K}}}\n"),
    ("azure-pipelines.yml", "steps:\n  - task: Bash@3\n    inputs:\n      {k}: {v}\n"),
    ("azure-pipelines.yml", "parameters:\n  - name: {k}\n    default: {v}\n"
                            "steps:\n  - bash: ${{{{ parameters.{k} }}}}\n"),
    (".circleci/config.yml", "version: 2.1\njobs:\n  j:\n    parameters:\n      {k}:\n        default: {v}\n"
                             "    steps:\n      - run: << parameters.{k} >>\n"),
    (".github/workflows/c.yml", "on: push\njobs:\n  j:\n    runs-on: x\n    steps:\n      - uses: x/y@v1\n"
                                "        with:\n          {k}: {v}\n"),
    (".github/workflows/c.yml", "on: push\njobs:\n  j:\n    runs-on: x\n    steps:\n      - uses: x/y@v1\n"
                                "        with:\n          {k}: ${{{{ env.{K} }}}}\n    env:\n      {K}: {v}\n"),
    ("action.yml", "inputs:\n  {k}:\n    default: {v}\nruns:\n  using: composite\n  steps:\n"
                   "    - run: ${{{{ inputs.{k} }}}}\n      shell: bash\n"),
    ("devspace.yaml", "pipelines:\n  {k}: {v}\n"),
]
_KEYS = ("program", "x", "target_type", "filePath")  # key names with no word of COMMAND_WORDS (`filePath`: file, path)
_DATA_KEYS = ("program", "x", "target_type", "labelName")


@pytest.mark.parametrize(("form", "key", "word", "quote"),
                         list(itertools.product(range(len(_FORMS)), _KEYS, _WORDS, "'\"")))
def test_a_quoted_value_a_command_takes_still_runs(form: int, key: str, word: str, quote: str) -> None:
    path, template = _FORMS[form]
    text = template.format(v=f"{quote}{word}{quote}", k=key, K=key.upper())
    assert _WORDS[word] in ciruns.named_in(path, text)[0], text


# look-alikes: data values below keys nothing refers to stay data (determinism 45)
_DATA = [
    (".github/dependabot.yml", "version: 2\nupdates:\n  - package-ecosystem: {v}\n    directory: /\n"),
    (".github/labeler.yml", "{k}:\n  - {v}\n"),
    ("codecov.yml", "{k}: {v}\n"),
    (".github/workflows/c.yml", "on: push\njobs:\n  j:\n    runs-on: x\n    services:\n      s:\n        image: x\n"
                                "        {k}: {v}\n    steps:\n      - run: echo\n"),
    (".github/workflows/c.yml", "on: push\nenv:\n  {K}: {v}\njobs:\n  j:\n    runs-on: x\n    steps:\n"
                                "      - run: echo $OTHER\n"),
]


@pytest.mark.parametrize(("form", "key", "word", "quote"),
                         list(itertools.product(range(len(_DATA)), _DATA_KEYS, _WORDS, "'\"")))
def test_a_quoted_data_value_nothing_takes_stays_data(form: int, key: str, word: str, quote: str) -> None:
    path, template = _DATA[form]
    text = template.format(v=f"{quote}{word}{quote}", k=key, K=key.upper())
    assert _WORDS[word] not in ciruns.named_in(path, text)[0], text


@pytest.mark.parametrize("unit", ["!reference [", "!reference [.a, b]\n", "$", "${", "inputs.", "x: &a 'make'\n",
                                  "- !reference [" + "a," * 40 + "\n"])
def test_the_referred_names_stay_linear(unit: str) -> None:
    """A 64 KiB text of references (or half ones) costs the reader in proportion to its length."""
    assert_linear(lambda text: yamlnodes.folded_strings(text, quoted_data=False), repeated(unit, "x:\n"), budget=0.25)
