"""Runner 36: what `run --repo` may name, beyond a user part with credentials.

Red team 34 and attack 28 refused `scheme://user:TOKEN@` anywhere in `--repo`. git takes more forms than that
(git-clone(1) "GIT URLS"): a query or fragment (`?access_token=`, `#TOKEN`), percent-encoded delimiters, an scp-like
`TOKEN@host:path`, `<transport>::<address>` and any `<scheme>://`, both of which start the remote helper
`git-remote-<name>` found on PATH (a program, outside the sandbox, as the runner's user), a `file://` URL whose host
git ignores, and — on the full-commit path (`--ref <sha>`, `git fetch URL SHA`) — a `--repo` starting with `-`, which
git read as its own option: `--upload-pack=CMD` ran CMD on the host. Each was taken; the URL landed in state.json and
the run's output at least, and over loopback HTTP a query token reached the clone's `.git/config`, which a generator
copies into patch.diff. Now `--repo` is a local path, or a URL of an allowed scheme (http, https, ssh, git,
git+ssh, ssh+git, file) with no query, fragment, encoded delimiter or token-shaped text, a user part only for ssh and
only login-shaped; anything else is a usage error (exit 2) before a run folder exists, not repeating the value.
"""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

import pytest
import test_redteam34_repo_credentials as rt34
from gitrepo import GitRepo
from runbundle import gk_in
from tables import each_case

from gatekeeper.errors import UsageError
from gatekeeper.runner.repocheck import check_repo

pytestmark = pytest.mark.usefixtures("runner_bundle")

SECRET = "Tok3nR36secret"
SHA = "8bdd39d9a4c1a38b4783298cc88bf215d9641a10"
smart_http = rt34.smart_http  # git's smart HTTP on loopback: `127.0.0.1:PORT/repo.git`

# {s}: the secret, {h}: the loopback server's `host:port/repo.git`. Every host a run hands git is loopback (a closed
# port 1 where no server listens): were the check to let a form through, git would reach nothing off the machine.
LEAKING = [
    "http://{h}?token={s}", "http://{h}?access_token={s}", "http://{h}?private_token={s}", "http://{h}#{s}",
    "http://{h}/?x=1&token={s}", "http://{h}%3Ftoken%3D{s}", "http://{h}%23{s}", "http://{h}%253Ftoken={s}",
    "http://127.0.0.1%40{s}:1/r", "http://{h}/ghp_{s}abcdefghijklmnopqrstu", "http://{h}/glpat-{s}abcdefgh",
    "{s}@127.0.0.1:acme/app.git", "ghp_{s}abcdefghijklmnopqrstu@127.0.0.1:acme/app.git",
    "ssh://{s}@127.0.0.1:1/acme/app.git", "ssh://x-access-token@127.0.0.1:1/acme/app?t={s}",
    "git://{s}@127.0.0.1:1/acme/app.git", "file://{s}@localhost/srv/app",
]
# Forms that start a program or name what git does not read as written (no secret needed).
PROGRAMS = [
    "r36::anything", "r36://127.0.0.1:1/x", "R36://127.0.0.1:1/x", "ext::sh -c true", "fd::3", "fd::3,4/x",
    "git::https://127.0.0.1:1/y",
    "testgit::/srv/x", "HTTPS://127.0.0.1:1/acme/app", "ftp://127.0.0.1:1/r.git",
    "file://otherhost/srv/app", "--upload-pack=touch PWNED;:", "-oProxyCommand=touch PWNED:x",
    "ssh://-oProxyCommand=x/y", "http://127.0.0.1:1/r\n", "http://127.0.0.1:1/r x", "\thttp://127.0.0.1:1/x",
]


def _run(tmp_path: Path, repo: str, *extra: str, env: dict[str, str] | None = None) -> tuple[int, str, Path]:
    """Run with a generator copying the clone's .git/config and FETCH_HEAD into its patch; (exit, all text, out)."""
    (tmp_path / "gen.py").write_text("import shutil, os\nfor n in ('config', 'FETCH_HEAD'):\n"
                                     "    os.path.exists('.git/' + n) and shutil.copyfile('.git/' + n, n + '.txt')\n")
    out = tmp_path / "runs"
    done = gk_in("run", "--repo", repo, *extra, "--out", str(out), "--sandbox", "unshare", "--format", "json", "--",
                 sys.executable, str(tmp_path / "gen.py"), env=env)
    written = "".join(p.read_text(errors="replace") for p in out.rglob("*") if p.is_file()) if out.exists() else ""
    return done.returncode, done.stdout + done.stderr + written, out


@pytest.mark.parametrize("form", LEAKING)
def test_a_secret_anywhere_in_the_url_never_reaches_the_run(tmp_path: Path, smart_http: str, form: str) -> None:
    code, text, out = _run(tmp_path, form.format(s=SECRET, h=smart_http))
    assert SECRET not in text, text[-2000:]
    assert code == 2 and "--repo" in text, text[-2000:]
    assert not out.exists() or not any(out.iterdir())


@pytest.fixture
def helper_on_path(tmp_path: Path) -> dict[str, str]:
    """A PATH holding `git-remote-r36`, a remote helper that leaves a marker: what any installed helper could do."""
    folder = tmp_path / "bin"
    folder.mkdir()
    script = folder / "git-remote-r36"
    script.write_text(f"#!/bin/sh\ntouch {tmp_path}/HELPER-RAN\nexit 1\n")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return {**os.environ, "PATH": f"{folder}:{os.environ.get('PATH', '/usr/bin:/bin')}"}


@pytest.mark.parametrize("form", PROGRAMS)
@pytest.mark.parametrize("ref", [None, SHA])
def test_no_form_starts_a_program_or_reaches_git(tmp_path: Path, helper_on_path: dict[str, str], form: str,
                                                  ref: str | None) -> None:
    home = tmp_path / "home"
    home.mkdir()
    env = {**helper_on_path, "HOME": str(home)}
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        code, text, out = _run(tmp_path, form, *(("--ref", ref) if ref else ()), env=env)
    finally:
        os.chdir(cwd)
    assert not (tmp_path / "HELPER-RAN").exists()
    assert not list(tmp_path.rglob("PWNED")) and not list(home.rglob("PWNED"))
    assert code == 2 and "--repo" in text and "Traceback" not in text, text[-2000:]
    assert not out.exists() or not any(out.iterdir())


def test_the_upload_pack_injection_is_refused_before_git(tmp_path: Path) -> None:
    """The full-commit path: `git fetch -q --depth 1 --no-tags URL SHA` read `--upload-pack=...` as its option and ran
    the command in the caller's HOME (`cd` first: the value may hold no `/`)."""
    home = tmp_path / "home"
    home.mkdir()
    code, text, _ = _run(tmp_path, "--upload-pack=cd;touch PWNED;:", "--ref", SHA, env={**os.environ,
                                                                                          "HOME": str(home)})
    assert not (home / "PWNED").exists()
    assert code == 2, text[-2000:]


@pytest.mark.parametrize("good", [
    "https://github.com/acme/app.git", "http://127.0.0.1:8080/r.git", "ssh://git@github.com/acme/app.git",
    "git@github.com:acme/app.git", "ssh://github.com:22/acme/app", "git://example.invalid/acme/app.git",
    "git+ssh://git@example.invalid/acme/app", "file:///srv/git/app", "file://localhost/srv/git/app",
    "/srv/git/app", "./app", "app", "../some dir/app#1", "~/src/app", "example.invalid:acme/app.git",
    "deploy_user@example.invalid:acme/app.git", "https://example.invalid/acme/app%20x.git",
])
def test_ordinary_forms_pass(good: str) -> None:
    check_repo(good)


@each_case("form", [*LEAKING, *PROGRAMS])
def test_the_message_never_repeats_the_value(form: str) -> None:
    with pytest.raises(UsageError) as caught:
        check_repo(form.format(s=SECRET, h="127.0.0.1:1/r.git"))
    shown = f"{caught.value}"
    assert SECRET not in shown and "PWNED" not in shown and "r36" not in shown.lower(), shown


def test_the_loopback_control_runs_and_names_no_secret(tmp_path: Path, smart_http: str) -> None:
    code, text, out = _run(tmp_path, f"http://{smart_http}")
    assert code == 0, text[-2000:]
    summary = json.loads(text[: text.index("\n}") + 2])
    assert "config.txt" in Path(summary["patch"]).read_text()


def test_a_local_repository_still_runs_at_a_full_commit(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "origin")
    repo.write("a.txt", "a\n")
    head = repo.commit()
    code, text, _ = _run(tmp_path, str(repo.root), "--ref", head)
    assert code == 0, text[-2000:]
