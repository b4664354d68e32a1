"""Shell scripts that deploy or tear down infrastructure (label 94, tests/test_label94_deploy_scripts.py).

The ninety-first set's largest `iac` class: a root `kubernetes-build.sh` that runs `kubectl apply -f
./kubernetes/deployment.yaml`, a `kubernetes-demolish.sh` that runs `kubectl delete deployment/web`, a `delete.sh`
that runs `aws cloudformation delete-stack`, a `start-autocloud.sh` that applies the root Argo CD app. Such a
script is what changes the infrastructure when a person runs it, so it is `iac` (`iac.content.deploy-script`)
wherever it sits; CI running it makes it `ci`, the more sensitive bucket, first.

A script is a file with a shell's extension (`.sh`, `.bash`, `.zsh`, `.ksh`) or a shell's `#!` line, or a PowerShell
`.ps1` (its Az cmdlets that deploy or remove: _CMDLETS). Its commands are
read as the walk reads a CI line's (wrappers.py's one table: behind `sudo`, `timeout 60`, `npx`, a shell's `-c`
string, a launcher such as `aws-vault exec prod --`), each logical line cut at `&&`, `||`, `;`, `|`, `$(`, `then`,
`do`: a comment, an `echo`/`printf` of a command and a here-document's text run nothing. The commands (_DEPLOYS):
`kubectl`/`oc` `apply`, `create`, `replace`, `delete` of `-f`/`-k` files (and `delete` of named objects: a
teardown), `helm install|upgrade|uninstall|delete`, `helmfile apply|sync|destroy`, `aws cloudformation
deploy|create-stack|update-stack|delete-stack|execute-change-set`, `sam deploy|delete`, `terraform`/`tofu`/
`terragrunt apply|destroy`, `pulumi up|update|destroy`, `cdk deploy|destroy`, `serverless deploy|remove`, `az
deployment … create|delete`, `gcloud deployment-manager deployments create|update|delete`, and `ansible-playbook`
under any of its names; not with `--dry-run` (a check). *Limits:* the head the content tier reads
(sniff.WINDOW) and, in a patch, the lines shown.
"""

from __future__ import annotations

import re

from gatekeeper.classify import ansiblenames, wrappers
from gatekeeper.classify.deployruns import plain_words
from gatekeeper.classify.markers import extension
from gatekeeper.lazy_pattern import lazy

__all__ = ["RULE", "deploys", "is_script"]

RULE = "iac.content.deploy-script"
_EXTENSIONS = frozenset({"sh", "bash", "zsh", "ksh", "ps1"})
_SHEBANG = lazy(r"\A#![ \t]*+\S*?(?:/|env[ \t]++(?:-\S++[ \t]++)*+)(?:ba|da|z|k|a|mk)?sh\b")
# PowerShell's Az cmdlets that deploy a template or a stack, or remove what one deployed (names in any case)
_CMDLETS = r"new-az(?:resourcegroup|subscription|managementgroup|tenant)?deployment(?:stack)?|remove-azresourcegroup"
_MAY = lazy(r"(?<![\w-])(?:kubectl|oc|helm3?|helmfile|aws|sam|terraform|tofu|terragrunt|pulumi|cdk|cdklocal|aws-cdk"
            r"|serverless|sls|az|gcloud|ansible-playbook|ansible-navigator|ansible|" + _CMDLETS + r")(?![\w-])",
            re.IGNORECASE)
_SEGMENTS = lazy(r"&&|\|\||[;&|(`]|\$\(|\b(?:then|do|else)\b")
_WORD = lazy(r"""(?:[^\s'"]++|'[^']*+'|"[^"]*+")++""")
_HEREDOC = lazy(r"<<-?[ \t]*+['\"]?([A-Za-z_][\w-]*+)")
_ASSIGNMENT = lazy(r"[A-Za-z_][A-Za-z0-9_]*=")
# commands whose words are text they print or test, never a command they start (deployruns._PRINTS)
_PRINTS = frozenset({"echo", "printf", "print", "logger", "cat", "grep", "egrep", "fgrep", "rg", "sed", "awk", "test",
                     "[", "[[", "which", "type", "hash", "command", "man", "git", "gh", "read", "local", "export",
                     "write-host", "write-output", "write-verbose", "write-warning", "write-error",
                     "write-information"})
_KUBE_FILES = frozenset({"-f", "--filename", "-k", "--kustomize"})
_KUBE_VALUED = frozenset({"-n", "--namespace", "--context", "--kubeconfig", "-o", "--output", "-l", "--selector",
                          "--server", "--cluster", "--user", "--field-manager", "--grace-period", "--timeout"})
_TERRAFORM = frozenset({"apply", "destroy"})
# a dry run's flag as written; `--dry-run=$MODE` may be `none` (a real run: the safe side reads it as one)
_DRY_RUNS = frozenset({"--dry-run", "--dry-run=client", "--dry-run=server", "--dry-run=true"})
# command: the verbs (its first positional words, in order, the last one any of the set) that deploy or tear down
_DEPLOYS: dict[str, tuple[tuple[str, ...], frozenset[str]]] = {
    "helm": ((), frozenset({"install", "upgrade", "uninstall", "delete", "del", "un"})),
    "helmfile": ((), frozenset({"apply", "sync", "destroy", "delete"})),
    "aws": (("cloudformation",), frozenset({"deploy", "create-stack", "update-stack", "delete-stack",
                                            "execute-change-set", "create-stack-set", "delete-stack-set"})),
    "sam": ((), frozenset({"deploy", "delete", "sync"})),
    "terraform": ((), _TERRAFORM), "tofu": ((), _TERRAFORM), "terragrunt": ((), _TERRAFORM),
    "pulumi": ((), frozenset({"up", "update", "destroy"})),
    "cdk": ((), frozenset({"deploy", "destroy"})),
    "serverless": ((), frozenset({"deploy", "remove"})), "sls": ((), frozenset({"deploy", "remove"})),
    "gcloud": (("deployment-manager", "deployments"), frozenset({"create", "update", "delete"})),
}
_DEPLOYS |= {"helm3": _DEPLOYS["helm"], "cdklocal": _DEPLOYS["cdk"], "aws-cdk": _DEPLOYS["cdk"]}


def is_script(path: str) -> bool:
    """A name a shell script may have: a shell's extension (or PowerShell's), or none (its `#!` line decides)."""
    name = path.rpartition("/")[2]
    return extension(name) in _EXTENSIONS or "." not in name.lstrip(".")


def deploys(path: str, data: bytes) -> str | None:
    """The first line of the shell script `data` (the head of `path`) that deploys or tears down infrastructure, or
    None (also when it is no shell script)."""
    text = data.decode("utf-8", "replace").removeprefix("\ufeff")
    if extension(path.rpartition("/")[2]) not in _EXTENSIONS and _SHEBANG.match(text) is None:
        return None
    if _MAY.search(text) is None:
        return None
    delimiter = ""
    text = _uncommented_blocks(text) if "<#" in text else text
    for line in text.replace("\\\n", " ").replace("`\n", " ").splitlines():
        if delimiter:  # a here-document's text is data (a usage message, a manifest), not a command
            delimiter = "" if line.strip() == delimiter else delimiter
            continue
        if (heredoc := _HEREDOC.search(line)) is not None:
            delimiter = heredoc.group(1)
        if _MAY.search(line) is not None and _MAY.search(command := _uncommented_line(line)) and _deploying(command):
            return line.strip()[:160]
    return None


def _uncommented_blocks(text: str) -> str:
    """`text` without PowerShell's block comments (`<# … #>`; one left open runs to the end), in one pass."""
    kept, at = [], 0
    while (start := text.find("<#", at)) >= 0:
        kept.append(text[at:start])
        end = text.find("#>", start + 2)
        if end < 0:
            return "".join(kept)
        at = end + 2
    return "".join(kept) + text[at:]


def _uncommented_line(line: str) -> str:
    """`line` up to its comment: a `#` that starts a word outside quotes (`make  # then: terraform apply`)."""
    quote = ""
    for at, char in enumerate(line):
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and (at == 0 or line[at - 1] in " \t;&|("):
            return line[:at]
    return line


def _deploying(line: str) -> bool:
    """Does a command of `line` deploy: each segment's, and each the one wrapper table finds behind a wrapper?"""
    segments = [[word.replace("'", "").replace('"', "") for word in _WORD.findall(segment)]
                for segment in _SEGMENTS.split(line)]
    segments += [command.split() for command in wrappers.commands(line)]
    return any(_deploys(_uncommented(words)) for words in segments)


def _uncommented(words: list[str]) -> list[str]:
    cut = next((at for at, word in enumerate(words) if word.startswith("#")), len(words))
    return ansiblenames.aliases(words[:cut])


def _deploys(words: list[str]) -> bool:
    at = 0
    while at < len(words) and (words[at] in wrappers.PLAIN or _ASSIGNMENT.match(words[at]) is not None):
        at += 1
    if at < len(words) and (after := wrappers.command_start(words[at:])) > 0:
        at += after
    if at >= len(words) or ansiblenames.command_name(words[at]) in _PRINTS:
        return False
    # behind a launcher the command names (`aws-vault exec prod -- terraform apply`): the first that deploys
    return any(_deploy_command(ansiblenames.command_name(words[later]), words[later + 1:])
               for later in range(at, len(words)) if _MAY.fullmatch(ansiblenames.command_name(words[later])))


def _deploy_command(command: str, args: list[str]) -> bool:
    if re.fullmatch(_CMDLETS, command) is not None:
        return not any(word.lower() == "-whatif" for word in args)  # `-WhatIf`: PowerShell's dry run
    if any(word in _DRY_RUNS for word in args):
        return False  # `kubectl apply -f x.yaml --dry-run=client`, `helm install --dry-run`: a check, not a deploy
    if command == "ansible-playbook":
        return bool(plain_words(args, frozenset({"-i", "--inventory", "-e", "--extra-vars", "-l", "--limit", "-u",
                                                  "--user", "-t", "--tags", "--skip-tags", "--vault-password-file",
                                                  "-f", "--forks"})))
    if command in ("kubectl", "oc"):
        plain = plain_words(args, _KUBE_VALUED | _KUBE_FILES)
        files = any(word.partition("=")[0] in _KUBE_FILES or word[:2] in ("-f", "-k") and not word.startswith("--")
                    or word.startswith("-") and not word.startswith("--") and word[-1:] in ("f", "k")
                    for word in args)
        verb = plain[0] if plain else ""
        return verb in ("apply", "create", "replace", "delete") and files or verb == "delete" and len(plain) > 1
    if command == "az":
        plain = plain_words(args, frozenset({"-g", "--resource-group", "-n", "--name", "-f", "--template-file", "-l",
                                        "--location", "-p", "--parameters", "--subscription"}))
        return plain[:1] in (["deployment"], ["stack"]) and any(v in ("create", "delete") for v in plain[1:4])
    row = _DEPLOYS.get(command)
    if row is None:
        return False
    lead, verbs = row
    plain = plain_words(args, frozenset({"--stack-name", "--region", "--profile", "-n", "--namespace", "--kube-context",
                                    "-C", "--cwd", "-s", "--stack", "-chdir", "--project", "-e", "--environment"}))
    plain = plain[1:] if command == "terragrunt" and plain[:1] == ["run-all"] else plain  # `run-all apply`
    return plain[:len(lead)] == list(lead) and len(plain) > len(lead) and plain[len(lead)] in verbs

