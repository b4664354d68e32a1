"""The name a configuration file is read under when it is kept as a copy or a template (the eighty-ninth set).

A copy kept to fill in (`hosts.example`, `compose.yml.dist`, krane's ERB `ingress.yml.erb`, a REUSE sidecar
`x.yml.license`) and a template a tool fills in before use (autoconf's, Meson's and CMake's `*.in`, `envsubst`, Jinja,
Mustache, Handlebars, EJS, Liquid, Nunjucks, m4) hold the file they are named after: a workflow that
runs `envsubst < deployment.yaml.in | kubectl apply -f -` applies a Kubernetes object. A template suffix is taken off
only above a configuration type the content tier reads (`web.yaml.in`, `service.json.mustache`), so `Makefile.in`,
`config.h.in` and `foo.pc.in` stay what they were. The name without its template suffix is read beside the name with
it, never instead (review 69a: `Dockerfile.md.yaml.in`, read before, looked like a document's template without it).
"""

from __future__ import annotations

__all__ = ["read_names", "underlying"]

# A copy's suffix: what comes before it is the file's own name, whatever its type.
_COPY_SUFFIXES = frozenset({"example", "sample", "dist", "erb", "license"})
# A template engine's suffix: taken off above a configuration type only (lower case; `WEB.YAML.IN` too).
_TEMPLATE_SUFFIXES = frozenset({"in", "jinja", "jinja2", "mustache", "envsubst", "subst", "hbs", "handlebars", "ejs",
                                "liquid", "njk", "m4"})


def read_names(name: str, config_extensions: frozenset[str]) -> tuple[str, ...]:
    """The names `name`'s content may be read under: without a copy's suffix, and `underlying`'s if it differs."""
    copied = _uncopied(name)
    return tuple(dict.fromkeys((copied, underlying(name, config_extensions))))


def underlying(name: str, config_extensions: frozenset[str]) -> str:
    """`name` without a copy's suffix, then without a template engine's suffix where what remains ends in one of
    `config_extensions` (lower-case extensions): the name the file's content is read under."""
    name = _uncopied(name)
    stem, dot, ext = name.rpartition(".")
    inner_stem, inner_dot, inner_ext = stem.rpartition(".")
    templated = dot and inner_dot and inner_stem and ext.lower() in _TEMPLATE_SUFFIXES
    if templated and inner_ext.lower() in config_extensions:
        return stem
    return name


def _uncopied(name: str) -> str:
    """`name` without a copy's suffix (`hosts.example`: `hosts`)."""
    stem, dot, ext = name.rpartition(".")
    return stem if dot and stem and ext.lower() in _COPY_SUFFIXES else name
