"""The files a CI command deploys by path (red team 25, tests/test_redteam25_deploy_targets.py).

A file kept in a test-data folder (`testdata/`, `fixtures/`) is `src` by principle 1 unless its name or content is ci
or iac (testdatacontent.py): test data is not live. When a CI definition deploys it (`helm upgrade --install web
./testdata/chart`, `kubectl apply -f fixtures/rbac.yaml`), it is: an edit of the chart's templates is an edit of what
runs in the cluster. So the files such a command names, and every file below a folder it names, are `iac`
(`iac.context.deployed`, with `--tree`: ciwalk.py reads every definition and every script it runs).

Commands and the words read (each command where a command stands: a line's or a YAML key's start, after `&&`, `;`,
`|`, `$(`, `sudo`, `env`, an assignment; or behind a launcher, `poetry run`, `timeout 600`, `docker run IMAGE`: the
first such command anywhere in the command, unless that is one that prints or searches text, red team 39): `helm`
(`install`, `upgrade`, `template`, also after `diff`) its positional
words but the release name, and `-f`/`--values`/`--set-file` values; `kubectl` and `oc` `-f`/`--filename` and
`-k`/`--kustomize` values (any subcommand but the reading ones), `kubectl kustomize DIR`; `kustomize build DIR`;
`terraform`/`tofu` `-chdir=` and its `-var-file`/`-backend-config` files (red team 32); `terragrunt`
`--terragrunt-working-dir`/`--working-dir`; `ansible-playbook` its playbooks, `-i` inventory, `-e @file` and vault
files; `helmfile` `-f`/`--file`; the templates of cloud and platform
deploy commands (_CLOUD: CloudFormation, SAM, Azure deployments, Deployment Manager, Pulumi, Skaffold, kapp, Packer,
Nomad, Serverless, OpenStack Heat). And a deploy action's inputs that
name what it deploys (`with: manifests: |`, `chart:`, `helmChart:`, `kustomizationPath:`, `value-files:`,
`task-definition:`, ...: _INPUT_KEY), each word of the value or of the block or list below it. A value no option is
known to take may be read as a path: a folder of that name becomes `iac` (the safe side). *Limits:* the root (`.`
with no folder the command runs in: a chart there is `iac` by its marker) and URLs name nothing; `.`, standard input
(`-`) and a wholly variable path are read as the attack-23 paragraph below says; a path with a variable part is read
as a pattern.

Attack 23 (tests/test_attack23_deploy_reach.py): a command deploys what it is handed by other means too. `.` (and a
cwd-reading command with no path: `terraform apply`, `helmfile apply`, `skaffold run`, `pulumi up`, `kustomize
build`) is the folder it runs in: `./GLOB` (HERE), which ciwalk.py reads as each folder the definition `cd`s or
`pushd`s to or names as a `working-directory:` that holds a file GLOB matches (what the command reads there:
`Chart.yaml` for helm, `*.tf` for terraform, ...; _HELD). `-Rf DIR` is `-f DIR`; `-f a.yaml,b.yaml` names both. A
command that reads standard input (`-`), is fed by `xargs` or is handed a wholly variable path (`$f` of a loop) deploys
what the rest of its line names: every word of that line that looks like a path (`cat X |`, `< X`, `for f in
X/*.yaml`) is a target. Review 55: helm reading its values there (`-f -`) too; a deploying command's input redirection
(`< conf/prod.yaml`) names its file, an output one (`> out.yaml`) not; `)` ends a word.
"""

from __future__ import annotations

import bisect
import re

from gatekeeper.classify import ansiblenames, ciconfigs, wrappers
from gatekeeper.classify.ansiblenames import command_name as _command
from gatekeeper.classify.enclosures import GITHUB_EXPRESSION as _EXPRESSION
from gatekeeper.classify.pipinstalls import path_pattern
from gatekeeper.lazy_pattern import lazy

__all__ = ["HERE", "RULE", "may_deploy", "runs", "targets"]

RULE = "iac.context.deployed"
HERE = "./"  # `./GLOB`: a deploy command's target is the folder it runs in, if it holds a file GLOB matches (ciwalk.py)
# the commands that deploy the folder they run in when no path is given, with the subcommands that do
_CWD_DEPLOYS: dict[str, frozenset[str]] = {
    "terraform": frozenset({"apply", "destroy", "plan", "import", "refresh", "run-all"}),
    "helmfile": frozenset({"apply", "sync", "template", "diff", "destroy", "deps"}),
    "skaffold": frozenset({"run", "deploy", "dev", "apply", "render"}),
    "pulumi": frozenset({"up", "update", "preview", "destroy", "refresh"}),
    "serverless": frozenset({"deploy"}),
    "kustomize": frozenset({"build"}),
}
_CWD_DEPLOYS |= {"tofu": _CWD_DEPLOYS["terraform"], "terragrunt": _CWD_DEPLOYS["terraform"],
                 "sls": _CWD_DEPLOYS["serverless"]}
# what such a folder holds for the command to deploy it (its own file names: a folder that holds none is not it)
_HELD: dict[str, tuple[str, ...]] = {
    "helm": ("Chart.yaml",), "helm3": ("Chart.yaml",), "kustomize": ("kustomization.y*ml", "Kustomization"),
    "kubectl": ("*.y*ml", "*.json", "Kustomization"), "terraform": ("*.tf", "*.tf.json", "*.tofu", "terragrunt.hcl"),
    "helmfile": ("helmfile.y*ml*",), "skaffold": ("skaffold.y*ml",), "pulumi": ("Pulumi.y*ml",),
    "serverless": ("serverless.*",),
}
_HELD |= {"oc": _HELD["kubectl"], "tofu": _HELD["terraform"], "terragrunt": _HELD["terraform"],
          "sls": _HELD["serverless"]}
# Tried at a word's start only: every match starts there, and from each character of a long word the word was read to
# its end again (quadratic).
_LINE_PATH = lazy(r"(?<![^\s'\"<>|&;()])[^\s'\"<>|&;()]*"
                        r"(?:/|\.(?:ya?ml|json|j2|tpl|tf|hcl|bicep)\b)[^\s'\"<>|&;()]*")
_SEGMENTS = lazy(r"&&|\|\||[;&|(`{]|\$\(|\b(?:then|do|else)\b")
# A YAML key (`- run: |`), a JSON one (`"deploy": "helm …"`), a list item's dash before the command
_LINE_START = lazy(r"""^[ \t]*(?:-[ \t]+)?(?:(?:[\w.-]+|"[^"\n]*")[ \t]*:[ \t]+(?:[|>][-+]?[ \t]*)?)?"""
                         r"""(?:-[ \t]+)?"?""")
_WORDS = lazy(r"""[^\s'"]+""")
# Commands whose words are text they print, search or test, never a command they start
_PRINTS = frozenset({"echo", "printf", "print", "logger", "cat", "grep", "egrep", "fgrep", "rg", "sed", "awk", "test",
                     "[", "[[", "which", "type", "hash", "man", "git", "gh"})
# a redirection: its operator (output, input, here-document), a descriptor it copies (`2>&1`) or its file in the word
_REDIRECT = lazy(r"(?:[0-9]+|&)?(>>|>\||>|<<<|<<-?|<>|<)(?:&[0-9]*-?|([^\s&(].*))?")
_STDIN = frozenset({"-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"})  # a file argument that is standard input
_XARGS_VALUED = frozenset({"-n", "-I", "-L", "-P", "-d", "-E", "-s", "-a", "--max-args", "--max-procs"})
_ASSIGNMENT = lazy(r"[A-Za-z_][A-Za-z0-9_]*=")
_MAY_DEPLOY = lazy(r"\b(?:helm3?|kubectl|oc|kustomize|terraform|tofu|terragrunt|ansible-playbook|helmfile|aws|sam"
                         r"|az|gcloud|pulumi|skaffold|kapp|packer|nomad|serverless|sls|openstack|heat"
                         r"|ansible-navigator)\b|-m[ \t]+ansible(?:[ \t]+playbook\b|\.cli\.playbook\b)")
# The inputs of deploy actions that name what they deploy (azure/k8s-deploy `manifests`, azure/k8s-bake `helmChart`,
# `kustomizationPath`, `overrideFiles`, deliverybot/helm `chart`, `value-files`, the ECS action's `task-definition`,
# Cloud Run's `metadata`, Terraform actions' folders; Azure Pipelines tasks': HelmDeploy's `valueFile`, the ARM template
# task's `csmFile` and `csmParametersFile`, TerraformTask's `commandOptions`, read as Terraform's options: red team 32);
# `path` and `working-directory` are every action's: not read.
_INPUT_KEY = lazy(r"^([ \t]*)(?:-[ \t]+)?[\"']?(manifests|chart|chart[-_]?path|helm[-_]?chart"
                        r"|kustomization[-_]?path|override[-_]?files|value[-_]?files|values[-_]?files?|task[-_]definition|metadata"
                        r"|tf[-_]actions[-_]working[-_]dir|terraform[-_]dir|terragrunt[-_]dir"
                        r"|value[-_]?file|csm[-_]?file|csm[-_]?parameters[-_]?file|command[-_]?options)"
                        r"[\"']?[ \t]*:(?![^ \t\n])"
                        r"[ \t]*(.*)$", re.IGNORECASE | re.MULTILINE)
_PATH_WORDS = lazy(r"[^\s,'\"\[\]]+")
# review 67a: a YAML anchor and tags before a value (`manifests: &m !!str |`), an alias for a value anchored elsewhere
_PROPERTIES = lazy(r"\A(?:[&!][^\s]*+[ \t]*+)++")
_ANCHOR = lazy(r"(?:^|(?<=[ \t:!-]))&([^\s,\[\]{}]++)(?=[ \t]|$)")  # `key: &name`, `- &name`
_ALIAS = lazy(r"\A\*([^\s,\[\]{}]++)[ \t]*+(?:#.*+)?+\Z")
_HELM_DEPLOYS = frozenset({"install", "upgrade", "template"})
# helm's options that take a value (the value is no chart); `-f`/`--values`/`--set-file` values are files it reads
_HELM_VALUED = frozenset({
    "-n", "--namespace", "--set", "--set-string", "--set-json", "--set-literal", "--version", "--repo",
    "--kube-context", "--kubeconfig", "-o", "--output", "--timeout", "--description", "--post-renderer",
    "--post-renderer-args", "--username", "--password", "--ca-file", "--cert-file", "--key-file", "--history-max",
    "--name-template", "-a", "--api-versions", "--kube-version", "-s", "--show-only", "--output-dir", "--kube-token",
    "--kube-apiserver", "--kube-as-user", "--kube-as-group", "--kube-ca-file", "--registry-config",
    "--repository-cache", "--repository-config", "--labels", "-l", "--wait-retries"})
_HELM_FILES = frozenset({"-f", "--values", "--set-file"})
_KUBECTL_READS = frozenset({"get", "describe", "logs", "explain", "version", "config", "top", "api-resources",
                            "api-versions", "cluster-info", "auth", "wait", "port-forward", "exec", "cp"})
_KUBECTL_FILES = frozenset({"-f", "--filename", "-k", "--kustomize"})
_ANSIBLE_VALUED = frozenset({"-l", "--limit", "-u", "--user", "-t", "--tags", "--skip-tags", "-f", "--forks", "-c",
                             "--connection", "-T", "--timeout", "-M", "--module-path", "--become-user",
                             "--become-method", "--start-at-task", "--vault-id"})
# the files Terraform, OpenTofu and Terragrunt read settings from (red team 32); `-backend-config=key=value` names none
_TERRAFORM_FILES = frozenset({"-var-file", "--var-file", "-backend-config", "--backend-config"})
_ANSIBLE_FILES = frozenset({"-i", "--inventory", "--vault-password-file", "--private-key", "-e", "--extra-vars"})


def may_deploy(text: str, inputs: bool = True) -> bool:
    """`text` names a deploy command somewhere (the cheap first test); `inputs`: as targets'."""
    return _MAY_DEPLOY.search(text) is not None or inputs and _INPUT_KEY.search(text) is not None


def targets(text: str, inputs: bool = True, only: str = "") -> list[str]:
    """The path patterns (pipinstalls.path_pattern: `./a/` is `a`, a variable part `*`) of the files and folders the
    deploy commands of `text` name, and (`inputs`: a YAML file, where an action's `with:` is) a deploy action's inputs
    (_INPUT_KEY), in order, each once. Not a Makefile's `manifests: controller-gen ## Generate ...` target line.
    `only`: the words of that one command (`ansible-playbook`: the playbooks ciwalk.py reads for what they include)."""
    text = _EXPRESSION.sub("${x}", ciconfigs.plain_variables(text))  # `${{ env.X }}`, `${X}`: `$X` (red team 39)
    found: list[str] = _inputs(text) if inputs and _INPUT_KEY.search(text) else []
    for line in text.replace("\\\n", " ").splitlines():
        if not _MAY_DEPLOY.search(line):
            continue
        for segment in _SEGMENTS.split(_LINE_START.sub("", line, count=1)):
            # `)` ends a word as the shell reads it (`$(helm … --values conf/prod.yaml)`, review 55); the words after a
            # `<(…)` are still the outer command's; a redirection before the command too (`< conf/x.yaml helm …`)
            words, read = _unredirected([word for word in (w.rstrip(")") for w in _WORDS.findall(segment)) if word])
            words = ansiblenames.aliases(words)
            at, fed = 0, False  # behind the shell's words and the one table's wrappers (`sudo -E`: issue 13)
            while at < len(words):
                if words[at] == "xargs":  # the words piped in are its command's last arguments: the line's paths
                    fed, at = True, at + 1
                    while at < len(words) and words[at].startswith("-"):
                        at += 2 if words[at] in _XARGS_VALUED else 1
                elif words[at] in wrappers.PLAIN or words[at] == "run" or _ASSIGNMENT.match(words[at]):
                    at += 1
                elif (after := wrappers.behind(words, at)) > 0:
                    at = after
                else:
                    break
            # behind a launcher (`aws-vault exec prod --`, `docker run IMAGE`): the first deploy command named anywhere
            # in the segment (red team 39); `echo helm upgrade ...` and a comment run nothing
            if at < len(words) and _command(words[at]) not in _PRINTS and not words[at].startswith("#"):
                at = next((later for later in range(at, len(words)) if _command(words[later]) in _COMMANDS), at)
            if at < len(words) and (not only or _command(words[at]) == only):
                found += _reached(_command(words[at]), words[at + 1:] + (["-"] if fed else []), line, read)
    # a wholly variable path is also each value the same text sets that name to (as attack 29 reads settings files)
    found = ciconfigs.variable_values(found, text)
    found = [part for word in found for part in dict.fromkeys([word, *word.split(",")]) if part]
    here = [word.replace("\n", "") for word in found if word.startswith(f"{HERE}\n")]  # words hold no line break
    patterns = [path_pattern(word) for word in found if word not in _STDIN and word and not word.startswith("-")
                and "\n" not in word]
    return list(dict.fromkeys([*(p for p in patterns if p is not None and p not in (".", "*")), *here]))


def runs(runner: str, text: str) -> bool:
    """`text` may run `runner` (ciwalk's entry runners): its name, or for ansible-playbook one of its other names."""
    return runner in text or runner == "ansible-playbook" and (
        "ansible-navigator" in text or ansiblenames.PYTHON_ANSIBLE.search(text) is not None)


def _unredirected(args: list[str]) -> tuple[list[str], list[str]]:
    """`args` without a redirection and its file (`helm template . > out.yaml` names `.`, not `out.yaml`), and the
    files an input redirection reads (`< conf/prod.yaml`, `0<x`, `<> x`: what the command reads, review 55). A
    here-document's delimiter and a here-string's text (`<<EOF`, `<<< "$X"`) are no file; `<&3` copies one."""
    out: list[str] = []
    read: list[str] = []
    operator = ""
    for word in args:
        if operator:
            read += [word] if operator in ("<", "<>") and _read_file(word) else []
            operator = ""
        elif (hit := _REDIRECT.fullmatch(word)) is not None:
            if hit.group(2) is not None:  # `>out.yaml`, `<conf/x.yaml`: the file in the word
                read += [hit.group(2)] if hit.group(1) in ("<", "<>") and _read_file(hit.group(2)) else []
            elif "&" not in word.lstrip("&"):  # `>` alone: its file is the next word; `2>&1`: none
                operator = hit.group(1)
        else:
            out.append(word)
    return out, read


def _read_file(word: str) -> bool:
    """An input redirection's word is a file: not a device, nor a `<placeholder>` in a usage line (`import x <id>`)."""
    return not word.startswith("/dev/") and ">" not in word


def _reached(command: str, args: list[str], line: str, read: list[str]) -> list[str]:
    """What one command deploys: the words it names (`_named`), `./GLOB` (HERE) for `.` or a cwd-reading one given
    none, the files its input redirections `read` when it deploys at all, and the line's path-like words when it reads
    standard input (`-`, `/dev/stdin`: helm's values too, review 55) or a wholly variable path."""
    named = _named(command, args)
    if not named and _CWD_DEPLOYS.get(command, frozenset()) & set(args) or any(w in (".", "./") for w in named):
        named = [word for word in named if word not in (".", "./")]
        named += [f"{HERE}\n{glob}" for glob in _HELD.get(command, ())]  # a token no word is (words hold no \n)
    named += read if named else []  # `helm upgrade app ./chart -f - < conf/prod.yaml`; not `kubectl get -f - < x`
    if any(word in _STDIN or path_pattern(word) == "*" for word in named):
        named += [word for word in _LINE_PATH.findall(line) if not word.startswith("-")]
    return named


def _inputs(text: str) -> list[str]:
    """The values of a deploy action's inputs (`with: manifests: |` and its lines, `chart: ./testdata/chart`,
    `value-files: a.yaml,b.yaml`): each word a path."""
    found: list[str] = []
    lines = text.splitlines()
    anchors: dict[str, list[int]] | None = None  # read at the first alias
    read: set[int] = set()  # the anchored lines read (each once: its words are named already)
    for at, line in enumerate(lines):
        hit = _INPUT_KEY.match(line)
        if hit is None:
            continue
        value, indent = _PROPERTIES.sub("", hit.group(3).strip()), len(hit.group(1))
        if (alias := _ALIAS.match(value)) is not None:  # the anchored value: its line's rest, or its block below
            anchors = _anchors(lines) if anchors is None else anchors
            at, value = _anchored(lines, anchors.get(alias.group(1), []), at)
            indent = len(lines[at]) - len(lines[at].lstrip())
            if at in read:
                continue
            read.add(at)
        if value[:1] in ("|", ">", ""):  # a block scalar or a list below: the lines indented deeper
            if hit.group(2).lower() == "metadata":  # Cloud Run's takes one path, inline; below: a manifest's block
                continue
            first = next((b.strip() for b in lines[at + 1:] if b.strip() and not b.strip().startswith("#")), "")
            if not value and not first.startswith("-") and (": " in first or first.endswith(":")):
                continue  # a mapping below: a job of that id (`jobs: manifests:`), not a list (the eighty-fourth set)
            for below in lines[at + 1:]:
                if below.strip() and len(below) - len(below.lstrip()) <= indent:
                    break
                item = below.strip().removeprefix("- ")
                # a mapping's keys (`name: web`, `labels:` opening a block below it): no path
                found += _PATH_WORDS.findall(item) if value or not (": " in item or item.endswith(":")) else []
        elif hit.group(2).lower().replace("-", "").replace("_", "") == "commandoptions":  # Terraform's own options
            found += _terraform_files(_WORDS.findall(re.split(r"\s#", value, maxsplit=1)[0]))
        else:  # up to a comment (`chart: ./web  # the app`)
            found += _PATH_WORDS.findall(re.split(r"\s#", value, maxsplit=1)[0].strip("[]"))
    return [word for word in found if not word.startswith("#") and not word.endswith(":")]  # a comment, a key


def _anchors(lines: list[str]) -> dict[str, list[int]]:
    """Each anchor's name and the lines that set it, in order (one pass)."""
    found: dict[str, list[int]] = {}
    for index, line in enumerate(lines):
        for name in _ANCHOR.findall(line) if "&" in line else ():
            found.setdefault(name, []).append(index)
    return found


def _anchored(lines: list[str], places: list[int], at: int) -> tuple[int, str]:
    """(the line, the value after the anchor) of the last of `places` before line `at` (YAML's alias rule); else
    (at, ""): the lines below `at`, a fail-wide read."""
    index = bisect.bisect_left(places, at) - 1
    if index < 0:
        return at, ""
    line = lines[places[index]]
    rest = _ANCHOR.split(line, maxsplit=1)[-1]
    return places[index], _PROPERTIES.sub("", rest.strip())


def _named(command: str, args: list[str]) -> list[str]:
    if command in ("helm", "helm3"):
        return _helm(args)
    if command in ("kubectl", "oc"):
        plain = plain_words(args, frozenset({"-n", "--namespace", "--context", "--kubeconfig", "-o", "--output", "-l",
                                        "--selector", "--server", "--cluster", "--user", "--field-manager"}))
        if plain[:1] == ["kustomize"]:
            return plain[1:2]
        return [] if plain[:1] and plain[0] in _KUBECTL_READS else _values(args, _KUBECTL_FILES)
    if command == "kustomize":
        plain = plain_words(args, frozenset({"-o", "--output", "--load-restrictor"}))
        return plain[1:2] if plain[:1] == ["build"] else []
    if command in ("terraform", "tofu", "terragrunt"):
        folders = _values(args, frozenset({"-chdir", "--terragrunt-working-dir", "--working-dir"}))
        return folders + _terraform_files(args)
    if command == "ansible-playbook":
        values = [v.removeprefix("@") for v in _values(args, _ANSIBLE_FILES) if "=" not in v or v.startswith("@")]
        return values + plain_words(args, _ANSIBLE_VALUED | _ANSIBLE_FILES)
    if command == "helmfile":
        return _values(args, frozenset({"-f", "--file"}))
    return _cloud(command, args)


def _terraform_files(args: list[str]) -> list[str]:
    """The variable and backend settings files Terraform's options name (`-var-file=conf/prod.json`); a path is
    below the root or, read from its `-chdir=` folder, below that folder, which is a target already."""
    return [value for value in _values(args, _TERRAFORM_FILES) if "=" not in value]


def _cloud(command: str, args: list[str]) -> list[str]:
    """The templates a cloud's or a platform's deploy command names (_CLOUD): `aws cloudformation deploy
    --template-file`, `sam deploy -t`, `az deployment group create -f`, `gcloud deployment-manager ... --config`,
    `pulumi up -C`, `skaffold run -f`, `kapp deploy -f`, `packer build X`, `nomad job run X`, `serverless deploy -c`."""
    if command not in _CLOUD:
        return []
    needs, options, positional = _CLOUD[command]
    plain = plain_words(args, options)
    if needs and not set(needs) & set(plain):
        return []
    values = [v.removeprefix("file://").lstrip("@") for v in _values(args, options)]
    return values + (plain[positional:positional + 1] if positional and len(plain) > positional else [])


# command: (a word one of which must be there, the options whose value is a file or folder it deploys, the position
# of a positional word it deploys, 0 for none)
_CLOUD: dict[str, tuple[tuple[str, ...], frozenset[str], int]] = {
    "aws": (("cloudformation",), frozenset({"--template-file", "--template-body", "--template-url"}), 0),
    "sam": ((), frozenset({"-t", "--template", "--template-file", "--config-file"}), 0),
    "az": (("deployment", "stack"), frozenset({"-f", "--template-file", "--parameters", "-p"}), 0),
    "gcloud": (("deployment-manager",), frozenset({"--config", "--template"}), 0),
    "pulumi": ((), frozenset({"-C", "--cwd"}), 0),
    "skaffold": ((), frozenset({"-f", "--filename"}), 0),
    "kapp": ((), frozenset({"-f", "--file"}), 0),
    "packer": (("build",), frozenset({"-var-file"}), 1),
    "nomad": (("run",), frozenset({"-var-file"}), 2),
    "serverless": ((), frozenset({"-c", "--config"}), 0),
    "sls": ((), frozenset({"-c", "--config"}), 0),
    # OpenStack Heat (attack 23: a template in test data, which the Heat reader skips, deployed by CI)
    "openstack": (("stack",), frozenset({"-t", "--template", "-e", "--environment"}), 0),
    "heat": ((), frozenset({"-f", "--template-file", "-e", "--environment-file"}), 0),
}


_COMMANDS = frozenset({"helm", "helm3", "kubectl", "oc", "kustomize", "terraform", "tofu", "terragrunt",
                       "ansible-playbook", "helmfile", *_CLOUD})  # what _named reads


def _helm(args: list[str]) -> list[str]:
    plain = plain_words(args, _HELM_VALUED | _HELM_FILES)
    if plain[:1] == ["diff"]:
        plain = plain[1:]
    if not plain or plain[0] not in _HELM_DEPLOYS:
        return []
    charts = plain[1:]
    # `install NAME CHART`, `upgrade NAME CHART`, `template [NAME] CHART`; `--generate-name` takes no NAME
    named = plain[0] != "template" or len(charts) > 1
    if named and "--generate-name" not in args and "-g" not in args:
        charts = charts[1:]
    values = [v.partition("=")[2] if "=" in v else v for v in _values(args, _HELM_FILES)]
    return [chart for chart in charts if chart not in _STDIN] + values  # helm reads no chart from standard input


def plain_words(args: list[str], valued: frozenset[str]) -> list[str]:
    """The positional words of `args`: not an option, not the value of an option in `valued`."""
    out, skip = [], False
    for word in args:
        if skip:
            skip = False
        elif word.startswith("-"):
            skip = word in valued
        else:
            out.append(word)
    return out


def _values(args: list[str], options: frozenset[str]) -> list[str]:
    """The values given to `options`: `-f x`, `-f=x`, `--file=x`, `-fx` (a one-letter option)."""
    out = []
    for at, word in enumerate(args):
        name, equals, value = word.partition("=")
        if name in options:
            if equals and (value or at + 1 == len(args)):
                out.append(value)
            elif equals:  # `-var-file="conf/x.json"`: the quotes split the word from its value (_WORDS)
                out.append(args[at + 1])
            elif at + 1 < len(args):
                out.append(args[at + 1])
        elif len(word) > 2 and word[:2] in options and not word.startswith("--"):
            out.append(word[2:])
        elif re.fullmatch(r"-[A-Za-z]{2,}", word) and f"-{word[-1]}" in options and at + 1 < len(args):
            out.append(args[at + 1])  # flags run together, the last taking the value: `kubectl apply -Rf dir`
    return out
