"""The files an OpenStack Heat template ships to the servers it creates (red team 19, tests/test_redteam19_ci_runs.py).

`user_data: {get_file: scripts/boot.sh}` in a Heat template makes `scripts/boot.sh` the server's first-boot script:
the client reads it at `openstack stack create` time and the template carries its text to the server. The template
is `iac` by its content (`iac.content.heat`), the script was `src` and an edit of it allowed. A file a template of
either tree names by `get_file:` (resolved against the template's folder, as python-heatclient resolves it) is
`iac` (`iac.context.heat-file`): a script, a configuration, a template, a key, a unit file (a changed source file
of a compiled language, `.go` or `.c`, is not looked up).

Found without reading every YAML file of a tree: the templates looked for are the YAML files (`.yaml`, `.yml`,
`.template`, `.hot`) in the folders above a changed file and directly inside those folders' sub-folders (a sibling
`templates/` naming `../scripts/boot.sh`), each blob once a gate and its first READ bytes (the version key opens a
template). A YAML file the rules call a test's data (`testdata.*`: sqlfluff's 2,493 dialect fixtures in
`test/fixtures/`) is no template anybody deploys, so it is neither read nor counted (the thirty-seventh set: past the
bound, every script, SQL and text file near such a suite was `iac`), and so is a reno release note (Qiskit's
2,097 notes in `releasenotes/notes/<version>/`, the forty-fifth set; a template written under a note's name is still
`iac` by its own content, but what it names by `get_file` is not looked up). Past MAX_READS such files a further
changed file counts as shipped (fail closed, review), and so does one near a template longer than read (PAST, red
team 38; the README and Bazel readers share it). *Limits:* a template farther away (`../../../x.sh` from three
folders down a sibling tree), an environment file's `resource_registry`, and a `get_file` whose path is built by
`str_replace` or `get_param` are not followed.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from gatekeeper.classify import ciruns
from gatekeeper.classify.markers import ancestors, extension
from gatekeeper.classify.sniff import FULL_READ
from gatekeeper.gitobjects import TreeEntry
from gatekeeper.lazy_pattern import lazy

__all__ = ["HEAT", "MAX_READS", "PAST", "RULE", "Shipped", "Shipper", "first_shipped", "may_ship"]

RULE = "iac.context.heat-file"
MAX_READS = 2_000  # template candidates read per gate
# What a definition's `names` returns past its own bound (a README's 256 paths, a file longer than read: red team 38):
# every file near it counts as shipped (fail closed), as past MAX_READS.
PAST = "\0past"
_TYPES = (".yaml", ".yml", ".template", ".hot")
# What a template ships besides the scripts and configurations ciruns.may_be_named takes: templates and settings files
_SHIPPED_TYPES = frozenset({"txt", "j2", "jinja", "jinja2", "tpl", "tmpl", "template", "properties", "xml", "env",
                            "pem", "crt", "key", "pub", "service", "timer", "cron", "repo", "list", "rules", "sql",
                            # what an Ansible play copies (label 91): a server's settings under any suffix
                            "cnf", "cf", "vcl", "zone", "html", "htm", "css", "gpg", "asc", "der", "p12", "jks",
                            "keytab", "csv", "rc", "sudoers", "socket", "mount", "path", "target", "network", "netdev",
                            "link", "desktop", "vhost", "nginx", "htaccess", "htpasswd",
                            # what its `unarchive:` unpacks on the hosts (misses 11)
                            "tgz", "gz", "tar", "zip", "bz2", "xz", "zst"})
_VERSION = lazy(rb"""(?:^|[{,\n])[ \t]*["']?heat_template_version["']?[ \t]*:""")
_GET_FILE = lazy(r"""["']?\bget_file["']?[ \t]*:[ \t]*(?:\n[ \t]*)?["']?([^\s"'{},\[\]#]+)""")
Tree = dict[str, TreeEntry]


@dataclass(frozen=True, slots=True)
class Shipper:
    """A kind of definition that ships files by path: its rule, its file types, what one ships (`names(definition,
    data)`), how the evidence says it (`{path}` the file shipped) and, when set, the file whose folder holds them
    (`cdk.json`: a CDK app's programs are read, no other program is)."""

    rule: str
    types: tuple[str, ...]
    names: Callable[[str, bytes], tuple[str, ...]]
    how: str
    bound: str  # what the evidence past MAX_READS says was read
    root: str | None = None
    folders: bool = False  # a name may be a folder it ships whole (Vagrant's `cp -r /vagrant/units ...`: attack 30)
    nested: tuple[str, ...] = ()  # below a root, folders whose programs are read whole (a JVM app's `src/main/`)
    everywhere: bool = False  # every folder's definitions are read, not only those near a changed file (few: .bazelrc)


def may_ship(path: str) -> bool:
    """Whether a definition may ship `path` by its type, whatever the shipper (asked once a path, not once a shipper):
    not a source file of a compiled language (`.go`): no template reads it, and most changes are."""
    kind = extension(path.rpartition("/")[2])
    return kind not in ciruns.SOURCES and (ciruns.may_be_named(path) or kind in _SHIPPED_TYPES)


def first_shipped(shipped: Sequence[Shipped], sides: Sequence[str]) -> tuple[str, str] | None:
    """The first evidence of `shipped`'s definitions (in their order) for `sides` (in theirs), each side's type asked
    once (may_ship), not once a kind of definition: a change's `.go` files ask none of them."""
    sides = [side for side in sides if may_ship(side)]
    return next((hit for each in shipped for side in sides if (hit := each.evidence(side))), None) if sides else None


class Shipped:
    """The files the definitions of `trees` ship (Heat templates by `get_file`: HEAT; CDK apps' assets:
    cdkassets.CDK), looked up by the folders of a changed path."""

    def __init__(self, trees: tuple[Tree, ...], read: Callable[[TreeEntry], bytes],
                 is_data: Callable[[str], bool], shipper: Shipper) -> None:
        self._shipper = shipper
        self._trees = trees
        self._read = read
        self._is_data = is_data  # a test's file by the rules: no template anybody deploys
        self._by_folder: dict[str, list[tuple[str, TreeEntry]]] | None = None
        self._roots: set[str] = set()  # the folders that hold the shipper's root file
        self._children: dict[str, list[str]] = {}  # a folder: its sub-folders that hold YAML files
        self._named: dict[tuple[str, str], tuple[str, ...]] = {}  # (template path, blob): the paths it ships
        self._reads = 0  # templates read: a test's data is not read and not counted
        self._folders_done: dict[str, dict[str, str]] = {}  # a folder searched: {shipped path: template}
        self._near: dict[str, dict[str, str]] = {}  # a changed file's folder: what the templates near it ship

    def evidence(self, path: str) -> tuple[str, str] | None:
        """(iac.context.heat-file, `TEMPLATE ships PATH by get_file` or a bound's note); None when no template near
        `path` names it."""
        if not may_ship(path):
            return None
        if self._by_folder is None:
            self._index()
        if not self._by_folder:
            return None
        folder = path.rpartition("/")[0]
        if (near := self._near.get(folder)) is None:  # what the templates near the folder ship, once a folder
            near = {}
            for above in list(self._by_folder) if self._shipper.everywhere else ancestors(path):
                if above not in self._folders_done:
                    if (shipped := self._search(above)) is None:
                        return self._shipper.rule, f"more than {MAX_READS} {self._shipper.bound} (review)"
                    self._folders_done[above] = shipped
                for named, template in self._folders_done[above].items():
                    near.setdefault(named, template)
            self._near[folder] = near
        hit = path if path in near else next((folder for folder in ancestors(path)
                                               if folder and self._shipper.folders and folder in near), None)
        if hit is None and PAST in near:
            return self._shipper.rule, f"{near[PAST]} is longer than read ({self._shipper.bound}; review)"
        return (self._shipper.rule, f"{near[hit]} {self._shipper.how.format(path=hit)}") if hit else None

    def _index(self) -> None:
        """The definitions' files of the trees by folder (YAML for Heat; for the CDK, programs below a folder holding
        its `cdk.json`); a path the tree before lists with the same blob is not tested again (the trees of a gate
        share nearly every path)."""
        self._by_folder = {}
        before: Tree = {}
        seen: list[str] = []
        types, root = self._shipper.types, self._shipper.root
        roots = {path.rpartition("/")[0] for tree in self._trees for path in tree
                 if root and path.endswith(root) and path.rpartition("/")[2] == root}
        self._roots = roots
        for tree in self._trees if roots or not root else ():
            fresh = [path for path in (tree.keys() - before.keys() if before else tree) if path.endswith(types)
                     and (not root or any(folder in roots for folder in ancestors(path)))]
            changed = [path for path in seen if path in tree and path in before and tree[path] != before[path]]
            for listed in (*fresh, *changed):
                if tree[listed].mode in ("100644", "100755"):
                    self._by_folder.setdefault(listed.rpartition("/")[0], []).append((listed, tree[listed]))
            seen += fresh
            before = tree
        for folder in self._by_folder:
            if folder:
                self._children.setdefault(folder.rpartition("/")[0], []).append(folder)

    def _search(self, folder: str) -> dict[str, str] | None:
        """{path: template} of what the templates in `folder` and its direct sub-folders ship; None past MAX_READS."""
        assert self._by_folder is not None
        found: dict[str, str] = {}
        wheres = [folder, *self._children.get(folder, ())]
        if folder in self._roots and self._shipper.nested:  # the JVM layout: `src/main/scala/me/app/Stack.scala`
            inner = tuple(f"{folder}/{sub}" if folder else sub for sub in self._shipper.nested)
            wheres += sorted(where for where in self._by_folder if where.startswith(inner) and where not in wheres)
        for where in wheres:
            for template, entry in self._by_folder.get(where, ()):
                if (template, entry.oid) not in self._named:
                    if self._is_data(template):  # matched here, near a changed file, not for every YAML file
                        self._named[template, entry.oid] = ()
                        continue
                    if self._reads >= MAX_READS:
                        return None
                    self._reads += 1
                    self._named[template, entry.oid] = self._shipper.names(template, self._read(entry))
                for path in self._named[template, entry.oid]:
                    found.setdefault(path, template)
        return found


def shipped(template: str, data: bytes) -> tuple[str, ...]:
    """The repository paths a Heat template's `get_file:` values name (none when it is no template)."""
    if _VERSION.search(data[:4096]) is None:
        return ()
    past = (PAST,) if len(data) > FULL_READ else ()  # a get_file past what is read (red team 38)
    folder = template.rpartition("/")[0]
    out = []
    for value in _GET_FILE.findall(data.decode("utf-8", "replace")):
        if "://" in value or value.startswith("/"):
            continue
        path = posixpath.normpath(posixpath.join(folder, value))
        if not path.startswith("../") and path not in (".", ".."):
            out.append(path)
    return tuple(dict.fromkeys(out)) + past


HEAT = Shipper(RULE, _TYPES, shipped, "ships {path} by get_file", "YAML files near it read for Heat templates")
