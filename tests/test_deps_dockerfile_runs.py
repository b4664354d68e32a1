"""Packages a Dockerfile's RUN instructions install at an exact version (gatekeeper/deps/dockerruns.py, issue 14).

Every deps round left these: dbt-labs/dbt-core's "Bump libpq-dev from 13.23-0+deb11u1 to 13.23-0+deb11u2" (an apt
pin inside a long `apt-get install` RUN), nextcloud/docker's "Update memcached to 3.1.3" (`pecl install
memcached-3.1.3;` in a `set -ex; \\` RUN with a comment line inside), linuxserver's s6-overlay (a release URL whose
version is an ARG named unlike the repository). The RUN lines are read by the installer reader the workflows' run
lines already use (runlines.installs), with --tree and from the patch. Attack cases first: lines of each command's
pieces and a RUN of pinned continuation lines read in linear time, here-documents, look-alikes that install nothing
pinned.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
from cpucost import LARGE, assert_linear
from tables import each_case

from gatekeeper.deps.dockerruns import dockerfile_hunks, parse_dockerfile, runs
from gatekeeper.deps.hunks import CHANGED, HUNK
from gatekeeper.deps.model import Dependency, ManifestError
from gatekeeper.deps.purl import purl
from gatekeeper.deps.runlines import installs
from gatekeeper.deps.sources import Delta
from gatekeeper.deps.versions import compare, update_level
from tests.changecase import committed, gated_rules
from tests.deltas import each_fast, moves
from tests.deltas import patch as _patch
from tests.deltas import tree as _tree
from tests.gitrepo import edited_commits

MIB = 1024 * 1024

# --- attack cases -------------------------------------------------------------------------------------------------
# Each new command's lead, then one of the pieces its patterns look for, repeated to a size, then an end that fails.
COMMANDS = ["apt-get -qq -o x install ", "&& sudo apt-get install ", "apk -U add ", "pecl -d x install ",
            "install-php-extensions ", "composer.phar -n global require "]
FILLERS = [" ", "- ", "a=1", "=1.", "a-1", "a/b:1", "1:", "~", "\\", "channel://"]


@each_case("command", COMMANDS)
def test_hostile_lines_of_each_command_are_read_in_linear_time(command: str) -> None:
    # 1 MiB lines under a 2 CPU-s budget until suite round 32: a quadratic pattern costs 16 times at 64 KiB what it
    # costs at 16 KiB (tests/cpucost.py), where these lines take ~3 ms; the budget is the old one's per character
    for filler in FILLERS:
        def line(size: int, filler: str = filler) -> str:
            return (command + filler * (size // len(filler)))[:size] + "!"

        try:
            assert_linear(functools.partial(installs, "Dockerfile"), line, budget=0.5)
        except AssertionError as error:
            raise AssertionError(f"{command!r} + {filler!r}…: {error}") from None


def _pins(size: int) -> bytes:
    return ("RUN apt-get install -y \\\n" + "".join(f"    p{i}=1.{i}-1 \\\n" for i in range(size // 24))
            + "    last=1\n").encode()


def _blanks(size: int) -> bytes:
    return ("RUN " + "\\\n" * (size // 2) + "apt-get install a=1\n").encode()


def test_a_run_of_many_continuation_lines_is_read_in_linear_time() -> None:
    # 30,000 pins and 100,000 `\` under a budget until suite round 32 (a list's `not in` took minutes): linear at
    # 682 and 2,730 pins (~64 KB), 32 Ki `\`
    found: dict[int, list[Dependency]] = {}

    def read(text: bytes) -> None:
        found[len(text)] = parse_dockerfile("Dockerfile", text)

    assert_linear(read, _pins, budget=1.0)
    pins = [(d.name, d.version) for d in found[len(_pins(LARGE))]]
    assert pins == [(f"p{i}", f"1.{i}-1") for i in range(LARGE // 24)] + [("last", "1")]  # each once, in order
    assert_linear(read, _blanks, budget=1.0)
    assert [(d.name, d.version) for d in found[len(_blanks(LARGE))]] == [("a", "1")]


def test_a_one_mib_arg_substituted_into_a_run_is_read_in_linear_time() -> None:
    body = f"ARG V={'1' * MIB}\nENV W={'a-' * (MIB // 2)}\nRUN pecl install redis-$V && apk add x=$W${{V}}\n"
    each_fast([(lambda: parse_dockerfile("Dockerfile", body.encode()), "a 1 MiB ARG and ENV substituted")], 2.0)


def test_a_here_document_body_is_not_read_and_an_unclosed_one_fails_closed() -> None:
    body = "FROM debian:12\nRUN <<EOF\napt-get install -y libpq-dev=15.1-1\nFROM evil:1\nEOF\nRUN pip install a==1\n"
    found = {(d.ecosystem, d.name, d.version) for d in parse_dockerfile("Dockerfile", body.encode())}
    # the body is a script the builder runs: not read (documented), and its `FROM` line is no image
    assert found == {("docker", "debian", "12"), ("pip", "a", "1")}, found
    with pytest.raises(ManifestError):
        parse_dockerfile("Dockerfile", b"FROM debian:12\nRUN <<EOF\napt-get install -y a=1\n")


def test_look_alikes_install_nothing_pinned() -> None:
    for line in ("RUN apt-get install -y libpq-dev", "RUN apt-get install -y 'libpq-dev=13.*'",
                 "RUN apt-get install -y libpq-dev>=13", "RUN apt-get remove -y libpq-dev=13.1",
                 "RUN echo apt-get install a=1", "RUN apk add --no-cache git~=2.45", "RUN apk del git=2.45.2-r0",
                 "RUN pecl install redis", "RUN pecl uninstall redis-5.3.4", "RUN composer require a/b:^1.2",
                 "RUN composer global require a/b", "RUN composer install", "CMD pip install a==1",
                 "LABEL x=\"apt-get install a=1\"", "RUN pecl install redis-$NOPE", "RUN apt-get install -y a=$V",
                 "# RUN apt-get install a=1", "RUN apt-get install -y A=1.0", "RUN [\"pip\", \"install\", \"a==1\"]"):
        assert parse_dockerfile("Dockerfile", f"FROM scratch\n{line}\n".encode()) == [], line


# --- real-shaped files --------------------------------------------------------------------------------------------
# dbt-labs/dbt-core's docker/Dockerfile layout: every apt package pinned in one RUN, continuations, a cleanup after
DBT = """\
ARG py_version=3.11.2

FROM python:$py_version-slim-bullseye AS base

RUN apt-get update \\
  && apt-get dist-upgrade -y \\
  && apt-get install -y --no-install-recommends \\
    build-essential=12.9 \\
    ca-certificates=20210119 \\
    libpq-dev=13.23-0+deb11u1 \\
    make=4.3-4.1 \\
    git=1:2.30.2-1+deb11u2 \\
    openssh-client=1:8.4p1-5+deb11u3 \\
    software-properties-common=0.96.20.2-2.1 \\
  && apt-get clean \\
  && rm -rf \\
    /var/lib/apt/lists/* \\
    /tmp/* \\
    /var/tmp/*

ENV PYTHONIOENCODING=utf-8
ENV LANG=C.UTF-8

RUN python -m pip install --upgrade "pip==24.0" "setuptools==69.2.0" "wheel==0.43.0" --no-cache-dir
"""

# nextcloud/docker's layout: one `set -ex; \\` RUN, comment lines inside it, each pecl install on its own line
NEXTCLOUD = """\
FROM php:8.2-fpm-alpine3.19

RUN set -ex; \\
    \\
    apk add --no-cache --virtual .build-deps \\
        $PHPIZE_DEPS \\
        autoconf \\
        freetype-dev \\
    ; \\
    \\
# pecl will claim success even if one install fails, so we need to perform each install separately
    pecl install APCu-5.1.16; \\
    pecl install memcached-3.1.2; \\
    pecl install redis-4.2.0; \\
    pecl install imagick-3.4.3; \\
    \\
    docker-php-ext-enable \\
        apcu \\
        memcached \\
        redis \\
        imagick \\
    ; \\
    rm -r /tmp/pear

RUN apk add --no-cache rsync=3.2.7-r4 imagemagick=7.1.1.26-r0
"""

# linuxserver's layout: the overlay's version in an ARG named unlike its repository, used in the release URLs
S6 = """\
FROM alpine:3.20 AS rootfs-stage

ARG S6_OVERLAY_VERSION="3.1.6.2"
ARG ROOTFS=/root-out

RUN \\
  echo "**** add s6 overlay ****" && \\
  curl -fsSL -o /tmp/s6-overlay-noarch.tar.xz \\
    "https://github.com/just-containers/s6-overlay/releases/download/v${S6_OVERLAY_VERSION}/s6-noarch.tar.xz" && \\
  tar -C /root-out -Jxpf /tmp/s6-overlay-noarch.tar.xz
"""

# a tools image: PHP's composer, Node's npm, Go and Cargo installs with pinned versions, an ENV used by one
TOOLS = """\
FROM composer:2.7 AS composer
FROM golang:1.22
ENV PHPSTAN=1.12.7
RUN composer global require "phpstan/phpstan:${PHPSTAN}" friendsofphp/php-cs-fixer:3.64.0
RUN npm install -g pnpm@9.1.0 && go install golang.org/x/tools/cmd/goimports@v0.24.0 \\
  && cargo install cargo-deny --version 0.14.24 && gem install bundler -v 2.5.11
"""


def _bumped(root: Path, body: str, edits: dict[str, str], name: str = "Dockerfile") -> tuple[Delta, Delta]:
    repo, base, head = edited_commits(root, {name: body}, {name: edits})
    return _tree(repo, base, head), _patch(repo, base, head)


def test_dbt_core_apt_pin_bump_is_read_with_tree_and_from_the_patch(tmp_path: Path) -> None:
    tree, patch = _bumped(tmp_path, DBT, {"libpq-dev=13.23-0+deb11u1": "libpq-dev=13.23-0+deb11u2"},
                          "docker/Dockerfile")
    want = {("deb", "libpq-dev", "13.23-0+deb11u1", "13.23-0+deb11u2")}
    assert moves(tree) == moves(patch) == want, (tree, patch)
    change = tree.changes[0]
    assert (change.change, change.level, change.scope) == ("upgraded", "patch", "build"), change
    # a pin more than the hunk's three context lines below its `apt-get install` is read with --tree only: the patch
    # shows no command for it (a documented limit; the Dockerfile is in the iac bucket, which core reviews anyway)
    tree, patch = _bumped(tmp_path / "far", DBT, {"git=1:2.30.2-1+deb11u2": "git=1:2.30.2-1+deb11u3"})
    assert moves(tree) == {("deb", "git", "1:2.30.2-1+deb11u2", "1:2.30.2-1+deb11u3")} and not moves(patch), patch


def test_dbt_core_every_pin_and_the_pip_line_are_named() -> None:
    found = {(d.ecosystem, d.name, d.version) for d in parse_dockerfile("Dockerfile", DBT.encode())}
    assert {("deb", "git", "1:2.30.2-1+deb11u2"), ("deb", "openssh-client", "1:8.4p1-5+deb11u3"),
            ("deb", "build-essential", "12.9"), ("pip", "pip", "24.0"), ("pip", "wheel", "0.43.0"),
            ("docker", "python", "3.11.2-slim-bullseye")} <= found, found


def test_nextcloud_pecl_bump_is_read_with_tree_and_from_the_patch(tmp_path: Path) -> None:
    tree, patch = _bumped(tmp_path, NEXTCLOUD, {"memcached-3.1.2": "memcached-3.1.3"}, "13.0/fpm-alpine/Dockerfile")
    assert moves(tree) == moves(patch) == {("pecl", "memcached", "3.1.2", "3.1.3")}, (tree, patch)
    tree, patch = _bumped(tmp_path / "b", NEXTCLOUD, {"rsync=3.2.7-r4": "rsync=3.2.7-r5"})
    assert moves(tree) == moves(patch) == {("apk", "rsync", "3.2.7-r4", "3.2.7-r5")}, (tree, patch)


def test_a_new_pinned_package_is_an_added_direct_dependency(tmp_path: Path) -> None:
    tree, patch = _bumped(tmp_path, NEXTCLOUD, {"pecl install redis-4.2.0; \\\n":
                                                "pecl install redis-4.2.0; \\\n    pecl install xdebug-3.3.2; \\\n"})
    for delta in (tree, patch):
        added = [(c.ecosystem, c.name, c.to_version, c.change, c.direct) for c in delta.changes]
        assert added == [("pecl", "xdebug", "3.3.2", "added", True)], delta


def test_s6_overlay_release_url_names_the_repository(tmp_path: Path) -> None:
    tree, patch = _bumped(tmp_path, S6, {'S6_OVERLAY_VERSION="3.1.6.2"': 'S6_OVERLAY_VERSION="3.2.0.0"'})
    assert ("tool", "just-containers/s6-overlay", "v3.1.6.2", "v3.2.0.0") in moves(tree), tree
    # from the patch the ARG's use is out of the hunk: the ARG's own reading names it (tool s6-overlay), as before
    assert ("tool", "s6-overlay", "3.1.6.2", "3.2.0.0") in moves(patch), patch


def test_an_add_of_a_release_url_names_the_repository_and_runs_nothing() -> None:
    body = ('FROM alpine:3.12\nARG OVERLAY_VERSION="v2.1.0.0"\nADD https://github.com/just-containers/s6-overlay/'
            'releases/download/${OVERLAY_VERSION}/s6-overlay-amd64-installer /tmp/\nADD pip-install-a==1.txt /x\n')
    found = {(d.ecosystem, d.name, d.version) for d in parse_dockerfile("Dockerfile", body.encode())}
    assert found == {("docker", "alpine", "3.12"), ("tool", "overlay", "v2.1.0.0"),
                     ("tool", "just-containers/s6-overlay", "v2.1.0.0")}, found


def test_tools_image_installs_and_an_env_substituted() -> None:
    found = {(d.ecosystem, d.name, d.version) for d in parse_dockerfile("Dockerfile", TOOLS.encode())}
    assert {("composer", "phpstan/phpstan", "1.12.7"), ("composer", "friendsofphp/php-cs-fixer", "3.64.0"),
            ("npm", "pnpm", "9.1.0"), ("go", "golang.org/x/tools", "v0.24.0"), ("cargo", "cargo-deny", "0.14.24"),
            ("bundler", "bundler", "2.5.11")} <= found, found


def test_a_hunk_that_begins_inside_a_run_reads_its_command_and_hunks_stay_apart() -> None:
    one = "\n".join(["  && apt-get install -y --no-install-recommends \\", "    ca-certificates=20210119 \\",
                     CHANGED + "    libpq-dev=13.23-0+deb11u2 \\", "    make=4.3-4.1 \\"])
    found = {(d.name, d.version) for d in dockerfile_hunks("Dockerfile", one.encode())}
    assert ("libpq-dev", "13.23-0+deb11u2") in found, found
    # a hunk ending in a continuation does not run on into the next hunk's lines
    two = "\n".join(["RUN apt-get install -y \\", "    a=1 \\", HUNK, CHANGED + "    b=2 \\", "    c=3"])
    assert {(d.name, d.version) for d in dockerfile_hunks("Dockerfile", two.encode())} == {("a", "1")}
    # a fragment is read only in a hunk: in a whole file a line starting with no keyword is no RUN
    assert runs("Dockerfile", "apt-get install a=1\n") == []


def test_an_image_used_twice_stays_two_use_sites_and_a_heredoc_across_hunks_reads_as_before() -> None:
    body = "FROM node:18 AS a\nRUN npm i -g pnpm@9.1.0\nFROM node:18\nRUN npm i -g pnpm@9.1.0\n"
    found = [(d.ecosystem, d.name, d.version) for d in parse_dockerfile("Dockerfile", body.encode())]
    assert found == [("docker", "node", "18"), ("docker", "node", "18"), ("npm", "pnpm", "9.1.0")], found
    # a here-document the first hunk opens and the second closes: the RUN reading of that hunk is skipped, the
    # images are read as docker.dockerfile_hunks reads them (no new problem from the RUN reader)
    hunks = "\n".join(["FROM debian:12", "RUN <<EOF", "apt-get install -y a=1", HUNK, "EOF",
                        CHANGED + "RUN apk add b=2"])
    assert {(d.name, d.version) for d in dockerfile_hunks("Dockerfile", hunks.encode())} == {("debian", "12"),
                                                                                               ("b", "2")}


def test_purls_and_version_order_of_the_new_ecosystems() -> None:
    assert purl("deb", "libpq-dev", "13.23-0+deb11u2") == "pkg:deb/libpq-dev@13.23-0%2Bdeb11u2"
    assert purl("apk", "git", "2.45.2-r0") == "pkg:apk/git@2.45.2-r0"
    assert purl("pecl", "APCu", "5.1.17") == "pkg:pecl/APCu@5.1.17"
    for ecosystem, old, new in (("deb", "13.23-0+deb11u1", "13.23-0+deb11u2"), ("deb", "1:8.4p1-5", "1:8.4p1-5+b1"),
                                ("deb", "1.0~rc1-1", "1.0-1"), ("deb", "12.9", "12.10"), ("deb", "9:1.0", "10:0.1"),
                                ("apk", "2.45.2-r9", "2.45.2-r10"), ("apk", "1.0_rc1-r0", "1.0-r0"),
                                ("pecl", "5.1.16", "5.1.17")):
        assert compare(ecosystem, old, new) == -1 and compare(ecosystem, new, old) == 1, (old, new)
    assert update_level("deb", "1:8.4p1-5+deb11u3", "1:8.4p1-5+deb11u4") == "patch"
    assert update_level("deb", "1:2.0-1", "2:1.0-1") == "major"  # an epoch restarts the numbering
    assert update_level("apk", "2.45.2-r0", "2.46.0-r0") == "minor"
    assert compare("deb", "abc", "1.0") is None  # no version: not ordered, the delta says `changed`


# --- the deps policy: a RUN install is judged as any dependency change ---------------------------------------------
def _rules(root: Path, head: str, tree: bool) -> dict[str, list[str]]:
    _, named = gated_rules(committed(root, {"docker/Dockerfile": NEXTCLOUD}, {"docker/Dockerfile": head}), tree, "deps")
    return named


@pytest.mark.parametrize("tree", [False, True])
def test_the_policy_reviews_a_new_pinned_package_and_an_upgrade_beyond_the_level_not_one_within(
        tmp_path: Path, tree: bool) -> None:
    within = _rules(tmp_path / "a", NEXTCLOUD.replace("memcached-3.1.2", "memcached-3.1.3"), tree)
    line = "pecl install redis-4.2.0; \\\n"
    added = _rules(tmp_path / "b", NEXTCLOUD.replace(line, line + "    pecl install xdebug-3.3.2; \\\n"), tree)
    major = _rules(tmp_path / "c", NEXTCLOUD.replace("rsync=3.2.7-r4", "rsync=4.0.0-r0"), tree)
    deps_rules = {rule for rule in within if rule.startswith("deps.")}
    assert not deps_rules, within  # an upgrade within the default level (minor) queues as any other
    assert added.get("deps.new_direct") == ["docker/Dockerfile"], added
    assert major.get("deps.upgrade_level") == ["docker/Dockerfile"], major
    # and the Dockerfile itself is in the iac bucket, which core reviews whatever the delta says
    assert all("docker/Dockerfile" in named.get("core.iac", []) for named in (within, added, major))
