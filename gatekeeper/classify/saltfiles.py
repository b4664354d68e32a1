"""The files a Salt state reads or installs by path (the forty-fourth set, tests/test_classify_fortyfourth_classes.py).

`{% import_yaml 'data/kernel_params.yaml' as kp %}` in a state renders the state from that file's data (the packages
to install, the kernel parameters to set, the services to watch), and `- source: salt://configs/loki.yaml` under a
`file.managed` copies that file onto the minion. The state is `iac` by its path (`iac.salt`); the data file and the
file it installs were `src` or `other` (the forty-fourth set: neg-serg/salt's `states/data/*.yaml`, a Grafana
provisioning file in `states/configs/`), and an edit of them changes what every minion gets. A file a state of
either tree names so is `iac` (`iac.context.salt-file`).

Found as heatfiles.py finds what Heat templates ship (its `Shipped`): the `.sls` files in the folders above a changed
file and directly inside those folders' sub-folders. Salt resolves both forms against its file roots, which live in
the master's settings, not in the state; the state's own folder and every folder above it are taken as roots
(over-reading makes a file `iac`, a review). Read: `import_yaml`, `import_json` and `import_text` with a quoted path,
and every quoted or bare `salt://PATH` (a `source:`, a `template:` file, a `file.recurse` folder). A named folder
ships every file below it (the fifty-fourth set: `file.recurse` of `salt://asterisk/conf`), and so does the folder a
path built by Jinja names before its first expression (`salt://login/keys/{{ admin }}`, `'salt://build/' ~ name`:
each file in `login/keys/`, `build/`). *Limits:* a state farther away than a sibling folder is not read, and neither
is the master's `file_roots`.
"""

from __future__ import annotations

from gatekeeper.classify.ansiblecopies import ANSIBLE_COPIES
from gatekeeper.classify.bazelhooks import BAZEL
from gatekeeper.classify.cdkassets import CDK
from gatekeeper.classify.codedeployhooks import CODEDEPLOY
from gatekeeper.classify.docdeploys import DOCS
from gatekeeper.classify.heatfiles import HEAT, Shipper
from gatekeeper.classify.markers import against_ancestors
from gatekeeper.classify.userdata import USER_DATA
from gatekeeper.classify.vagrantfiles import VAGRANT
from gatekeeper.lazy_pattern import lazy

__all__ = ["RULE", "SALT", "SHIPPERS", "named"]

RULE = "iac.context.salt-file"
_IMPORT = lazy(r"""\{%-?\s*import_(?:yaml|json|text)\s+(["'])([^"'\n{}]{1,300})\1""")
_SOURCE = lazy(r"""\bsalt://([^\s"'{}?#,\]\[]{1,300})""")


def named(state: str, data: bytes) -> tuple[str, ...]:
    """The repository paths a Salt state's imports and `salt://` sources name, against each folder from the state's
    own up to the root (the file roots are the master's settings)."""
    text = data.decode("utf-8", "replace")
    words = [path for _, path in _IMPORT.findall(text)] + _SOURCE.findall(text)
    out: list[str] = []
    for word in words:
        word = word.strip()
        if word and not word.endswith("/") and f"salt://{word}{{" in text:
            word = word.rpartition("/")[0]  # cut by an expression inside its last name: the folder before it
        if not word or word.startswith("/") or "://" in word:
            continue
        out += against_ancestors(state, word)
    return tuple(dict.fromkeys(out))


SALT = Shipper(RULE, (".sls",), named, "reads or installs {path} (a Salt state's import or salt:// source)",
               "Salt states near it read for the files they import or install", folders=True)
# Every kind of definition treecontext.py asks what it ships (heatfiles.Shipped each): Heat, the CDK, Salt, Vagrant's
# provisioning (vagrantfiles.py), the programs a `.bazelrc` makes Bazel run (bazelhooks.py, classes52: `ci`) and the
# files a README's deploy commands name (docdeploys.py, label51), the scripts CodeDeploy's hooks run
# (codedeployhooks.py, the seventy-fourth set), those a server's user data runs from a clone (userdata.py, misses 7) and
# the files an Ansible play copies onto its hosts (ansiblecopies.py, label 91).
SHIPPERS = (HEAT, CDK, SALT, VAGRANT, BAZEL, DOCS, CODEDEPLOY, USER_DATA, ANSIBLE_COPIES)
