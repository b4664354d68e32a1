"""The rake task files a Rakefile loads by itself (taskrunners.included's reader for a Rakefile or a `.rake` file).

rake runs the Rakefile to define its tasks, so every file the Rakefile loads runs before any task does: a
`Dir['tasks/**/*.rake'].each { |t| load t }` (rubocop-performance; RuboCop's own projects), `Dir.glob(...)` or
`FileList[...]` over task files, a single `load 'x.rake'` or `import 'x.rake'`, and `Rake.add_rakelib 'tasks'` (rake
then loads `tasks/*.rake` as it loads `rakelib/*.rake`, which taskrunners.py names already). Read as words: every
quoted string outside a comment that names a `.rake` file or a glob of them, a `File.join` of literal parts joined
(`File.join(__dir__, 'tasks', '*.rake')`), and the folders `add_rakelib` names. `#{__dir__}/` and `__dir__` are the
Rakefile's folder, and a glob's `**/` also stands for no folder. A `.rb` file the Rakefile requires is the project's
code (lib/version.rb), not a task file: left.
"""

from __future__ import annotations

import re

from gatekeeper.lazy_pattern import lazy

# A quoted string (single or double, no newline, bounded), or a `File.join(...)` of them; a comment to the line's end.
_STRING = r"""'([^'\n\\]{1,512}+)'|"([^"\n\\]{1,512}+)\""""
_WORDS = lazy(r"(#[^{\n][^\n]*+|#$)|File\.join\(([^()\n]{1,1024}+)\)|" + _STRING, re.MULTILINE)
_PARTS = lazy(_STRING)
_RAKELIB = lazy(r"\badd_rakelib\b\(?+([^\n]{0,1024}+)")
_HERE = lazy(r"^(?:#\{__dir__\}|#\{File\.dirname\(__FILE__\)\}|\./)/?+")
MAX_NAMES = 64  # task files and globs a Rakefile names (fail closed past them: any `.rake` file)


def loaded(text: str) -> list[str]:
    """The task files (path patterns relative to the Rakefile's folder) a Rakefile's text loads or imports."""
    found: list[str] = []
    for comment, joined, single, double in _WORDS.findall(text):
        if comment:
            continue
        if joined:
            parts = [a or b for a, b in _PARTS.findall(joined)]
            word = "/".join(parts) if parts and joined.lstrip().startswith(("__dir__", "'", '"')) else ""
        else:
            word = single or double
        word = _HERE.sub("", word.strip())
        if word.endswith(".rake") and not word.startswith(("/", "$")) and "://" not in word:
            # a glob's `**/` matches no folder too (`tasks/**/*.rake` loads `tasks/x.rake`)
            found += [word, word.replace("/**/", "/")] if "/**/" in word else [word]
    for rest in _RAKELIB.findall(text):
        found += [f"{_HERE.sub('', a or b).rstrip('/')}/*.rake" for a, b in _PARTS.findall(rest)]
    found = list(dict.fromkeys(word for word in found if word and not word.startswith("/*")))
    return found if len(found) <= MAX_NAMES else ["*.rake"]
