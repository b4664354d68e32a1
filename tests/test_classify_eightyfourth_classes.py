"""Classes the eighty-fourth label set's blind run showed (bench/classify_accuracy/eightyfourth.tsv), with real
repositories: a Dockerfile kept in a subfolder but built from an ancestor folder (`containers/Dockerfile.client`
with `COPY ./containers/build.sh /build.sh` then `RUN sh /build.sh`: EESSI's filesystem-layer builds it with the
repository's root as the context) runs a script its own folder's context does not hold, and that script is part of
the image definition (`iac.context.dockerfile-script`), as one the Dockerfile copies from its own folder is."""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from gatekeeper.classify.dockerrefs import contexts
from tests.gitrepo import GitRepo
from tests.test_classify_context import added_files, patch_files

RUN_RULE = "iac.context.dockerfile-script"

# (the Dockerfile's folder, the ancestor the build runs from): the COPY source is spelled from the ancestor
LAYOUTS = [("containers", ""), ("docker", ""), ("build/docker", ""), ("build/docker", "build"),
           ("services/images/app", ""), ("services/images/app", "services/images")]
NAMES = ["Dockerfile", "Dockerfile.client-rocky8", "app.Dockerfile"]
# (how the COPY spells the source, given its path from the context; how the RUN starts the copied script)
FORMS = [
    ("./{rel}", "RUN sh /build-or-download.sh ${{version}}"),
    ("{rel}", "RUN bash /opt/build-or-download.sh"),
    ("/{rel}", "RUN chmod +x /build-or-download.sh && /build-or-download.sh"),
    ("{rel}", "RUN set -eux; /build-or-download.sh"),
]


def _dockerfile(source: str, run: str) -> str:
    destination = "/opt/" if "/opt/" in run else "/build-or-download.sh"
    return (f"FROM rockylinux:8\nARG version\nCOPY {source} {destination}\n{run.format()}\n"
            "COPY entry.sh /entry.sh\nENTRYPOINT [\"/entry.sh\"]\n")


def _cases() -> list[tuple[str, str, str, str, str]]:
    cases = []
    for number, (folder, context) in enumerate(LAYOUTS):
        for name in NAMES:
            spelling, run = FORMS[(number + len(name)) % len(FORMS)]
            script = f"{folder}/build-or-download.sh"
            rel = script[len(context) + 1:] if context else script
            cases.append((folder, name, spelling.format(rel=rel), run, script))
    return cases


@each_case("folder, name, source, run, script", _cases())
def test_a_script_a_subfolder_dockerfile_copies_from_an_ancestor_context_and_runs_is_iac(
        git_repo: GitRepo, folder: str, name: str, source: str, run: str, script: str) -> None:
    files = added_files(git_repo, {
        f"{folder}/{name}": _dockerfile(source, run),
        script: "#!/bin/sh\nyum install -y wget\nwget -q https://example.invalid/cvmfs-$1.rpm\n",
        f"{folder}/entry.sh": "#!/bin/sh\nexec \"$@\"\n",
        f"{folder}/README.md": "# images\n",
    })
    got = files[script]
    assert (got.bucket, got.rule) == ("iac", RUN_RULE), (got.bucket, got.rule, got.evidence)
    assert files[f"{folder}/README.md"].bucket == "src"


def test_the_patch_alone_reads_the_same_context(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("README.md", "# proj\n")
    git_repo.commit("base")
    git_repo.write("containers/Dockerfile.EESSI-client-rocky8",
                   _dockerfile("./containers/build-or-download-cvmfs-rpms.sh", "RUN sh /build-or-download.sh x"))
    git_repo.write("containers/build-or-download-cvmfs-rpms.sh", "#!/bin/sh\nyum install -y wget\n")
    git_repo.commit("head")
    got = patch_files(git_repo, tmp_path)["containers/build-or-download-cvmfs-rpms.sh"]
    assert (got.bucket, got.rule) == ("iac", RUN_RULE)


# Look-alikes that keep their bucket: the ancestor context is taken only when a COPY source starts with the
# Dockerfile's own folder as seen from that ancestor; a script only copied for the entrypoint runs when a container
# starts, not while the image builds; a root file named like the copied one is not what a folder-context COPY takes.
LOOKALIKES = [
    # (files, the path that must stay src)
    ({"docker/Dockerfile": "FROM alpine\nCOPY lib/setup.sh /setup.sh\nRUN /setup.sh\n",
      "docker/lib/setup.sh": "#!/bin/sh\napk add curl\n", "lib/setup.sh": "#!/bin/sh\necho tool\n"},
     "lib/setup.sh"),
    ({"containers/Dockerfile": "FROM alpine\nCOPY ./containers/entry.sh /entry.sh\nENTRYPOINT [\"/entry.sh\"]\n",
      "containers/entry.sh": "#!/bin/sh\nexec \"$@\"\n"}, "containers/entry.sh"),
    ({"containers/Dockerfile": "FROM alpine\nCOPY ./containers/tool.sh /usr/local/bin/tool.sh\nRUN echo built\n",
      "containers/tool.sh": "#!/bin/sh\necho hi\n"}, "containers/tool.sh"),
    ({"app/docker/Dockerfile": "FROM alpine\nCOPY --from=builder /app/docker/run.sh /run.sh\nRUN /run.sh\n",
      "app/docker/run.sh": "#!/bin/sh\necho hi\n"}, "app/docker/run.sh"),
    ({"images/web/Dockerfile": "FROM alpine\nCOPY ../web/run.sh /run.sh\nRUN /run.sh\n",
      "web/run.sh": "#!/bin/sh\necho hi\n"}, "web/run.sh"),
]


@each_case("files, path", LOOKALIKES)
def test_look_alikes_keep_their_bucket(git_repo: GitRepo, files: dict[str, str], path: str) -> None:
    got = added_files(git_repo, files)[path]
    assert got.bucket == "src", (path, got.bucket, got.rule, got.evidence)


def test_contexts_are_the_folder_and_the_ancestors_a_copy_names_it_from() -> None:
    text = "FROM a\nCOPY ./build/docker/x.sh /x.sh\nCOPY docker/y.sh /y.sh\nCOPY z.sh /z.sh\nRUN /x.sh\n"
    assert contexts("build/docker", text) == ["build/docker", "build", ""]
    assert contexts("", text) == [""]
    assert contexts("build/docker", "FROM a\nCOPY --from=b build/docker/x.sh /x\n") == ["build/docker"]
    assert contexts("a/b", "FROM a\nCOPY ${D}/a/b/x.sh /x\nADD https://h/a/b/x.sh /x\n") == ["a/b"]
