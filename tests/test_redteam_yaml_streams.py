"""Red team: a manifest file's documents as kubectl splits them, not as one YAML stream does.

kubectl (and Argo CD, which calls the same decoder) does not read a file as one YAML stream. Its reader
(k8s.io/apimachinery/pkg/util/yaml/decoder.go) first tries a stream of JSON values (`{...}{...}`), and after
at most one of them goes on reading the rest as YAML; it cuts YAML into documents at every line that starts
with `---` followed by nothing but Unicode white space or a `#` comment (`---#`, `---` and a no-break space),
and decodes each part on its own; a document (or JSON value) that fails to decode stops the reading, but
`kubectl apply` still applies every object it read before it. The content tier read the file as one YAML
stream (or one JSON value), so a Deployment

- after a `---#` or `---<NBSP>` line (YAML: a plain scalar, not a document marker: libyaml stops there),
- as the second JSON value of a stream, or as YAML after a JSON object (JSON: "extra data"),
- before a NUL byte (git: binary; kubectl: the objects before the document that holds it)

came out `src` and `gate --tree` said allow. Each is now read as kubectl reads it (and as one stream too).
"""

from __future__ import annotations

import json
import re
import unicodedata

import pytest
import yaml
from gitrepo import GitRepo
from test_classify_context import RULES, tree_files

from gatekeeper.cli import main

PAD = "".join(f"    team-{i:04d}: owner-{i:04d}\n" for i in range(400))  # ~12 KiB: past the 8 KiB line window
FIRST = f"metadata:\n  name: settings\n  labels:\n{PAD}"
DEPLOYMENT_BLOCK = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n"
DEPLOYMENT_FLOW = "{apiVersion: apps/v1, kind: Deployment, metadata: {name: web}}\n"
DEPLOYMENT_JSON = '{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"}}'
DEPLOYMENT_JSON_ESCAPED = '{"\\u0061piVersion": "apps/v1", "kind": "Deployment"}'

# What Go's strings.TrimSpace removes (unicode.IsSpace) but YAML does not take as white space after `---`.
GO_ONLY_SPACES = ["\v", "\f", "\u00a0", "\u1680", "\u2000", "\u2005", "\u200a", "\u202f", "\u205f", "\u3000"]
# Lines kubectl cuts documents at and a YAML parser reads as a plain scalar (`---#` is not a document marker).
SEPARATORS = ["---#", "---#comment", "---##", *(f"---{s}" for s in GO_ONLY_SPACES), "---\u00a0# note",
              "---\u3000\t"]


def _forms() -> list[tuple[str, str]]:
    forms: list[tuple[str, str]] = []
    for i, separator in enumerate(SEPARATORS):
        # Within the window in flow style (the line patterns read block style), or past it in block style.
        forms.append((f"sep{i}-flow", f"a: b\n{separator}\n{DEPLOYMENT_FLOW}"))
        forms.append((f"sep{i}-past-window", f"{FIRST}{separator}\n{DEPLOYMENT_BLOCK}"))
    forms += [
        ("json-stream", f'{{"a": "b"}}\n{DEPLOYMENT_JSON_ESCAPED}\n'),
        ("json-stream-no-space", f'{{"a": "b"}}{DEPLOYMENT_JSON_ESCAPED}'),
        ("json-stream-past-window", json.dumps({"labels": {f"t{i}": "o" * 20 for i in range(400)}})
         + "\n" + DEPLOYMENT_JSON),
        ("json-then-yaml", f'{{"a": "b"}}\n{DEPLOYMENT_BLOCK}'),
        ("json-then-yaml-same-line", f'{{"a": "b"}}   \t{DEPLOYMENT_FLOW}'),
        ("json-then-yaml-documents", f'{{"a": "b"}}\nx: 1\n---#\n{DEPLOYMENT_FLOW}'),
        ("nul-after-document", f"{DEPLOYMENT_BLOCK}---\nx: \0\n"),
        ("nul-in-comment", f"{DEPLOYMENT_FLOW}---\n# \0\n"),
        ("nul-after-json", f"{DEPLOYMENT_JSON}\0"),
        ("nul-after-padding", f"{FIRST}---\n{DEPLOYMENT_BLOCK}---\n\0"),
    ]
    return forms


FORMS = _forms()


def _go_space(char: str) -> bool:
    """unicode.IsSpace of Go: the Latin-1 spaces, and the Unicode White_Space property (category Z, and breaks)."""
    return char in "\t\n\v\f\r \x85\xa0" or unicodedata.category(char) == "Zs" or char in "\u2028\u2029"


GO_SPACE = "".join(chr(c) for c in range(0x3001) if _go_space(chr(c)))


def kubectl_objects(text: str) -> list[object]:
    """What kubectl's reader decodes from `text`, before the first error (decoder.go's YAMLOrJSONDecoder)."""
    text = text.partition("\0")[0]  # go-yaml and encoding/json stop at a control character
    objects: list[object] = []
    rest = text
    if text.lstrip(" \t\n\r\v\f\x85\xa0").startswith("{"):
        decoder, at = json.JSONDecoder(), 0
        while True:
            at = len(text) - len(text[at:].lstrip(" \t\n\r"))
            if at == len(text):
                return objects
            try:
                value, at = decoder.raw_decode(text, at)
            except ValueError:
                break
            objects.append(value)
        if len(objects) > 1:
            return objects  # an unambiguous JSON stream does not switch to YAML
        rest = text[at:]
        for i, char in enumerate(rest):  # consumeWhitespace: up to and including the first line break
            if not _go_space(char) or char == "\n":
                rest = rest[i + (char == "\n"):]
                break
    document: list[str] = []
    for line in [*rest.split("\n"), "---"]:
        if line.startswith("---"):
            trimmed = line[3:].strip(GO_SPACE)  # strings.TrimSpace
            assert not trimmed or trimmed.startswith("#"), f"kubectl refuses the separator {line!r}"
            if document:
                try:
                    objects.append(yaml.safe_load("\n".join(document)))
                except yaml.YAMLError:
                    return objects
            document = []
            continue
        document.append(line)
    return objects


def _is_deployment(obj: object) -> bool:
    return isinstance(obj, dict) and obj.get("apiVersion") == "apps/v1" and obj.get("kind") == "Deployment"


def test_each_form_is_a_deployment_to_kubectl_and_not_to_one_yaml_stream() -> None:
    """The attack is real: kubectl's reader finds the Deployment; a YAML (or JSON) reader of the whole file does
    not."""
    for name, text in FORMS:
        assert any(_is_deployment(obj) for obj in kubectl_objects(text)), name
        try:
            whole = list(yaml.safe_load_all(text))
        except yaml.YAMLError:
            whole = []
        assert not any(_is_deployment(obj) for obj in whole), name


def test_every_form_is_iac_with_the_commits(git_repo: GitRepo) -> None:
    git_repo.write("app/main.py", "print('hi')\n")
    git_repo.commit("base")
    paths = {}
    for name, text in FORMS:
        paths[f"app/{name}.{'json' if name.startswith('json') else 'yaml'}"] = text
    for path, text in paths.items():
        git_repo.write(path, text.encode("utf-8"))
    git_repo.commit("head")
    found = tree_files(git_repo)
    assert {path: (found[path].bucket, found[path].rule) for path in paths} == dict.fromkeys(
        paths, ("iac", "iac.content.kubernetes"))


@pytest.mark.parametrize("name", ["sep0-past-window", "json-then-yaml", "nul-after-document"])
def test_the_gate_asks_for_review(git_repo: GitRepo, capsys: pytest.CaptureFixture[str], name: str) -> None:
    git_repo.write("app/README.md", "x\n")
    git_repo.commit("base")
    git_repo.git("checkout", "-q", "-b", "pr")
    git_repo.write("app/web.yaml", dict(FORMS)[name].encode("utf-8"))
    git_repo.commit("pr")
    assert main(["gate", "--tree", "main..pr", "--repo", str(git_repo.root)]) == 3
    assert "app/web.yaml" in capsys.readouterr().out


def test_a_separator_yaml_reads_as_a_marker_costs_one_parse(monkeypatch: pytest.MonkeyPatch) -> None:
    """Documents are parsed part by part only when a separator line is one YAML does not read as a marker."""
    from gatekeeper.classify import yamlroots

    parsed: list[str] = []
    real = yamlroots.documents
    monkeypatch.setattr(yamlroots, "documents", lambda text: parsed.append(text) or real(text))
    plain = "apiVersion: v9\n---\nsteps: 1\n--- # c\nx: 1\n---\t\n"
    assert yamlroots.yaml_signals(plain, RULES.context) == [] and len(parsed) == 1
    assert re.search("^---#", FORMS[0][1], re.M)


def test_a_file_read_only_in_part_is_reviewed(git_repo: GitRepo) -> None:
    """The 1 MiB read counts what a reader reads: UTF-16 takes two bytes a character (a 1.5 MiB UTF-16 manifest
    was cut to its first half, read, and judged by it), and a NUL past the read does not end it early."""
    from gatekeeper.classify.sniff import FULL_READ

    labels = "metadata:\n  labels:\n" + "".join(f"    l{i:06d}: v\n" for i in range(FULL_READ // 28))
    git_repo.write("app/main.py", "print('hi')\n")
    git_repo.commit("base")
    git_repo.write("app/utf16.yaml", ("\ufeff" + labels + DEPLOYMENT_BLOCK).encode("utf-16-le"))
    git_repo.write("app/late-nul.yaml", (labels * 2 + DEPLOYMENT_BLOCK + "---\n\0").encode())
    git_repo.write("app/early-nul.yaml", (DEPLOYMENT_BLOCK + "---\n\0" + labels * 2).encode())
    git_repo.write("app/binary.json", b"\x89PNG\r\n\x1a\n\0" + bytes(range(256)) * (FULL_READ // 200))
    git_repo.commit("head")
    found = tree_files(git_repo)
    assert FULL_READ / 2 < len(labels) < FULL_READ
    assert (found["app/utf16.yaml"].bucket, found["app/utf16.yaml"].rule) == ("iac", "iac.content.unread")
    assert (found["app/late-nul.yaml"].bucket, found["app/late-nul.yaml"].rule) == ("iac", "iac.content.unread")
    assert (found["app/early-nul.yaml"].bucket, found["app/early-nul.yaml"].rule) == ("iac", "iac.content.kubernetes")
    assert found["app/binary.json"].bucket == "src"  # a real binary: nothing before its NUL to read


def test_utf16_documents_are_read_as_kubectl_reads_them(git_repo: GitRepo) -> None:
    git_repo.write("app/main.py", "print('hi')\n")
    git_repo.commit("base")
    forms = {name: text for name, text in FORMS if not name.startswith("nul")}
    for name, text in forms.items():
        git_repo.write(f"app/{name}.yaml", ("\ufeff" + text).encode("utf-16-be"))
    git_repo.commit("head")
    found = tree_files(git_repo)
    assert {name: found[f"app/{name}.yaml"].bucket for name in forms} == dict.fromkeys(forms, "iac")
