"""The rake task files a Rakefile loads by itself (taskrunners.included's reader for a Rakefile or a `.rake` file).

rake runs the Rakefile to define its tasks, so every file the Rakefile loads runs before any task does: a
`Dir['tasks/**/*.rake'].each { |t| load t }` (rubocop-performance; RuboCop's own projects), `Dir.glob(...)` or
`FileList[...]` over task files, a single `load 'x.rake'` or `import 'x.rake'`, and `Rake.add_rakelib 'tasks'` (rake
then loads `tasks/*.rake` as it loads `rakelib/*.rake`, which taskrunners.py names already). Read as words: every
quoted string outside a comment that names a `.rake` file or a glob of them, a `File.join` of literal parts joined
(`File.join(__dir__, 'tasks', '*.rake')`), and the folders `add_rakelib` names. `#{__dir__}/` and `__dir__` are the
Rakefile's folder, and a glob's `**/` also stands for no folder. A `.rb` file the Rakefile requires is the project's
code (lib/version.rb), not a task file: left.

Review 68a: a root the Rakefile computes (`"#{root}/tasks/*.rake"`, `#{Rails.root}`) is its folder too, another
interpolation a variable part; and a glob the Rakefile loads each file of (`Dir['tasks/*'].each { |f| load f }`,
`Dir.glob('tasks/*.{rake,rb}')…import`, `FileList[…]`) is read whatever its last part, its `?`, `[…]` and `{…}`
variable parts: every file it matches is loaded, `.rb` too. A glob nothing loads (`s.files = FileList['lib/**/*']`)
is no task file.
"""

from __future__ import annotations

import re

from gatekeeper.lazy_pattern import lazy

# A quoted string (single or double, no newline, bounded), or a `File.join(...)` of them; a comment to the line's end.
_STRING = r"""'([^'\n\\]{1,512}+)'|"([^"\n\\]{1,512}+)\""""
_WORDS = lazy(r"(#[^{\n][^\n]*+|#$)|File\.join\(([^()\n]{1,1024}+)\)|" + _STRING, re.MULTILINE)
_PARTS = lazy(_STRING)
_RAKELIB = lazy(r"\badd_rakelib\b\(?+([^\n]{0,1024}+)")
_HERE = lazy(r"^(?:#\{[^{}\n]{0,256}+\}|\./)/?+")  # `#{__dir__}/`, `#{root}/`: a root the Rakefile computes
_INTERPOLATION = lazy(r"#\{[^{}\n]{0,256}+\}|\?|\[[^\]\n]{0,64}+\]|\{[^{}\n]{0,256}+\}")  # a variable part
# a glob the Rakefile loads each file of: `Dir[...]`, `Dir.glob(...)`, `FileList[...]`, then `.each { |f| load f }`
_LOADED_GLOB = lazy(r"(#[^{\n][^\n]*+|#$)|\b(?:Dir\.glob\(|Dir\[|FileList\[)[ \t]*+"
                    r"(?:'([^'\n\\]{1,512}+)'|\"([^\"\n\\]{1,512}+)\")"
                    r"[^\n|]{0,64}?\.each\b[^\n|]{0,16}+\|[ \t]*+\w++[ \t]*+\|\s{0,64}?(?:load|import)\b", re.MULTILINE)
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
            found += _globbed(word)
    for comment, single, double in _LOADED_GLOB.findall(text):
        if comment:
            continue
        word = _HERE.sub("", (single or double).strip())
        found += _globbed(word) if not word.startswith(("/", "$")) and "://" not in word else []
    for rest in _RAKELIB.findall(text):
        found += [f"{_HERE.sub('', a or b).rstrip('/')}/*.rake" for a, b in _PARTS.findall(rest)]
    found = list(dict.fromkeys(word for word in found if word and not word.startswith("/*")))
    return found if len(found) <= MAX_NAMES else ["*.rake"]


def _globbed(word: str) -> list[str]:
    """A loaded name or glob as patterns: its variable parts `*`; a glob's `**/` matches no folder too
    (`tasks/**/*.rake` loads `tasks/x.rake`)."""
    word = _INTERPOLATION.sub("*", word)
    if not word.replace("*", "").strip("/"):  # all variable (`Dir['*']`): the Ruby files it may be, not every file
        return [f"{word}.rake", f"{word}.rb"]
    return [word, word.replace("/**/", "/")] if "/**/" in word else [word]

