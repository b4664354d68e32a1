"""Over-reads 4, a CI miss: a Drone/Harness CI plugin's root `plugin.yml` tells the Harness CI runner which release
binary a step that uses the plugin downloads and runs (`run:` holding `binary:` and its `source:` URL, with `{{ release
}}`, `{{ os }}`, `{{ arch }}` filled in by the runner): every pipeline that uses the plugin runs what it says, as a
published action's `action.yml` or a Buildkite plugin's `plugin.yml` (`ci.content.buildkite-plugin`). drone-s3's was
`src` (the seventy-eighth set).

The class: `plugin.yml`/`plugin.yaml` whose top-level `run:` holds `binary:` (or `container:`) is `ci`
(`ci.content.harness-plugin`). Look-alikes: a Bukkit plugin (its `main:` class; `commands:`), a Helm plugin
(`command:`), the same text under another name, a `run:` holding anything else."""

from __future__ import annotations

from cpucost import assert_linear, repeated
from tables import each_case

from gatekeeper.classify.sniff import sniff
from tests.test_classify_context import RULES

SOURCE = "https://github.com/drone-plugins/drone-{name}/releases/download/{{{{ release }}}}/drone-{name}-" \
         "{{{{ os }}}}-{{{{ arch }}}}.zst"
FALLBACK = "https://app.harness.io/storage/harness-download/harness-ti/drone-{name}/{{{{ release }}}}/drone-{name}-" \
           "{{{{ os }}}}-{{{{ arch }}}}.zst"
DRONE_S3 = f"run:\n  binary:\n    source: {SOURCE}\n    fallback_source: {FALLBACK}\n"
FORMS = [
    DRONE_S3.format(name=name) for name in ("s3", "docker", "git", "slack")
] + [
    "# Harness CI plugin\nrun:\n\n  binary:\n    source: " + SOURCE.format(name="gcs") + "\n",
    "run:\n    binary:\n        source: " + SOURCE.format(name="npm") + "\n",
    "run:\r\n  binary:\r\n    source: " + SOURCE.format(name="hg") + "\r\n",
    "run:  # what the step runs\n  container:\n    image: plugins/s3\n",
    "name: drone-s3\nrun:\n  binary:\n    source: " + SOURCE.format(name="s3") + "\n",
]
LOOK_ALIKES = [
    ("plugin.yml", "name: WorldGuard\nmain: com.example.WorldGuard\nversion: 7.0\nrun:\n  binary:\n    source: x\n"),
    ("plugin.yml", "name: Essentials\nmain: com.earth2me.essentials.Essentials\ncommands:\n  run:\n    binary: x\n"),
    ("plugin.yaml", "name: diff\nversion: 3.9.4\ncommand: $HELM_PLUGIN_DIR/bin/diff\n"),
    ("settings.yml", DRONE_S3.format(name="s3")),  # another name: an application's settings
    ("plugin.yml", "run:\n  mode: fast\n  workers: 4\n"),
    ("plugin.yml", "steps:\n  run:\n    binary:\n      source: x\n"),  # not top-level
]


@each_case("text", FORMS)
def test_a_harness_plugin_manifest_is_ci(text: str) -> None:
    for name in ("plugin.yml", "plugin.yaml"):
        signal = sniff(name, text.encode(), RULES.context)
        assert signal is not None and (signal.bucket, signal.rule) == ("ci", "ci.content.harness-plugin"), signal


@each_case("name, text", LOOK_ALIKES)
def test_look_alikes_are_not_harness_plugins(name: str, text: str) -> None:
    signal = sniff(name, text.encode(), RULES.context)
    assert signal is None or signal.rule != "ci.content.harness-plugin", (name, signal)


@each_case("hostile", [
    repeated("  \n", "run:\n"), repeated("  #\n", "run:\n", "x"), repeated("run:\n"), repeated(" \t", "run:\n")])
def test_a_hostile_plugin_manifest_is_read_in_linear_time(hostile: object) -> None:
    assert callable(hostile)
    assert_linear(lambda text: sniff("plugin.yml", text.encode(), RULES.context), hostile, budget=0.25)
