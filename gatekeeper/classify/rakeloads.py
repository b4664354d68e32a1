"""The rake task files a Rakefile loads by itself (taskrunners.included's reader for a Rakefile or a `.rake` file).

rake runs the Rakefile to define its tasks, so every file the Rakefile loads runs before any task does: a
`Dir['tasks/**/*.rake'].each { |t| load t }` (rubocop-performance; RuboCop's own projects), `Dir.glob(...)` or
`FileList[...]` over task files, a single `load 'x.rake'` or `import 'x.rake'`, and `Rake.add_rakelib 'tasks'` (rake
then loads `tasks/*.rake` as it loads `rakelib/*.rake`, which taskrunners.py names already). Read as words: every
quoted string outside a comment that names a `.rake` file or a glob of them, a `File.join` of literal parts joined
(`File.join(__dir__, 'tasks', '*.rake')`), and the folders `add_rakelib` names. `#{__dir__}/` and `__dir__` are the
Rakefile's folder, and a glob's `**/` also stands for no folder. A `.rb` file the Rakefile requires is the project's
code (lib/version.rb, config/application.rb) unless a folder of its path is the tasks' (misses 10: `require_relative
'tasks/build'`, `require './rakelib/x'`, Rails' `lib/tasks/`; _task_file), which rake runs as it starts.

Review 68a: a root the Rakefile computes (`"#{root}/tasks/*.rake"`, `#{Rails.root}`) is its folder too, another
interpolation a variable part; and a glob the Rakefile loads each file of (`Dir['tasks/*'].each { |f| load f }`,
`Dir.glob('tasks/*.{rake,rb}')…import`, `FileList[…]`) is read whatever its last part, its `?`, `[…]` and `{…}`
variable parts: every file it matches is loaded, `.rb` too. A glob nothing loads (`s.files = FileList['lib/**/*']`)
is no task file.

Review 68b: an interpolation inside a name (`"tasks/#{t}.rake"`) is a variable part, a glob's `{a,b}` each of its
alternatives, a `File.join` may span lines, and what a `load`/`import` names, or a `Dir[...]`/`Dir.glob`/`FileList`
glob whose files the same statement loads, imports or requires (`Dir['tasks/*.rb'].each { |f| load f }`), is read
whatever its type; so is `options.rakelib << 'tasks'`, and rake's own `-R`/`--rakelibdir` (rakelib_options).

Review 70: a path the Rakefile computes from its own folder is read as that relative path (_computed) before the rest:
`File.join(__dir__, 'tasks', 'build')` and `File.join(File.dirname(__FILE__), …)` (a first part that is no literal is
a root the Rakefile computes), `File.expand_path('../tasks/build', __FILE__)` (`..` of its own path is its folder),
`File.expand_path('tasks/build', __dir__)`, a `+ '.rb'` after either, and `"#{__dir__}/tasks/build"`; so `require`,
`load` and `import` of them name the task file as `require './tasks/build'` does. A `File.join` of literals only
(`require File.join('tasks', 'x')`: $LOAD_PATH) is what it was.

Misses 11: `Pathname(__dir__).join('tasks/build')` (`Pathname.new`, `Pathname(__FILE__).dirname`,
`Pathname(File.dirname(__FILE__))`, parts apart) is `'./tasks/build'` too, a `%w[tasks build]` word list a list of its
words, and rake's own `rake_require NAME, PATHS` names `PATH/NAME.rake` for each path (without paths, from
$LOAD_PATH: NAME.rake below any folder, ciforms.ANY_FOLDER).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from gatekeeper.classify.ciforms import ANY_FOLDER
from gatekeeper.lazy_pattern import lazy

# A quoted string (single or double, no newline, bounded), or a `File.join(...)` of them; a comment to the line's end.
_STRING = r"""'([^'\n\\]{1,512}+)'|"([^"\n\\]{1,512}+)\""""
_WORDS = lazy(r"(#[^{\n][^\n]*+|#$)|File\.join\(([^()]{1,1024}+)\)|" + _STRING, re.MULTILINE)
_PARTS = lazy(_STRING)
_RAKELIB = lazy(r"(?:\badd_rakelib\b|\.rakelib\b[ \t]*+(?:<<|=|\.push|\.concat|\+=))\(?+([^\n]{0,1024}+)")
# a name a `load`/`import` is given; a `Dir[...]`/`Dir.glob`/`FileList` glob, its line's rest and the next line
# (the last group's `?` is not possessive: Python 3.11's re mishandles a group inside a possessive repeat)
_LOADED = lazy(r"(?<![.\w])(?:load|import)\b[ \t(]*+(?:" + _STRING + r")"
               r"|\b(?:Dir[ \t]*+\[|Dir\.glob[ \t]*+\(|FileList[ \t]*+\[)([^\n]{0,512}+)(\n[^\n]{0,256}+)?")
# the statement loads the glob's files: on its line, or in the first line of the `do |f|` block it opens
_LOADS = lazy(r"\b(?:load|import|require(?:_relative)?+)\b")
_BLOCK = lazy(r"\bdo[ \t]*+\|[^|\n]{0,64}+\|[ \t]*+$")
_COMMENT_LINE = lazy(r"^[ \t]*+#[^\n]*+", re.MULTILINE)
_INTERPOLATION = lazy(r"#\{[^{}\n]{0,256}+\}")  # a variable part, as are a glob's `?` and `[…]`
_VARIABLE = lazy(r"\?|\[[^\]\n]{0,64}+\]")
_ALTERNATIVES = lazy(r"\{([^{}/\n]{0,256}+)\}")
_MAX_ALTERNATIVES = 8  # a glob's `{a,b}` alternatives read (past them: `*`)
_HERE = lazy(r"^(?:#\{[^{}\n]{0,256}+\}|\./)/?+")  # `#{__dir__}/`, `#{root}/`: a root the Rakefile computes
MAX_NAMES = 64  # task files and globs a Rakefile names (fail closed past them: any `.rake` file)
# a file `require_relative` or a relative `require` names (misses 10): a task file where a folder of its path is one of
# the tasks' (`tasks/build`, `rakelib/support`, `script/release`), not the project's code (`lib/x/version`,
# `config/application`, `app/workers/x`; Rails' `lib/tasks/` is the tasks' folder)
_REQUIRED = lazy(r"(?<![.\w])(?:require_relative\b[ \t(]*+(?:" + _STRING + r")"
                 r"|require\b[ \t(]*+(?:'(\.\.?/[^'\n\\]{1,512}+)'|\"(\.\.?/[^\"\n\\]{1,512}+)\"))")
# a path computed from the Rakefile's folder (review 70): a File.join/File.expand_path call (one level of parentheses
# inside: `File.dirname(__FILE__)`) with an optional `+ '.rb'`, or a double-quoted string led by an interpolation
_COMPUTED = lazy(r"""File\.(join|expand_path)[ \t]*+\(([^()\n]{0,1024}+(?:\([^()\n]{0,256}+\)[^()\n]{0,1024}+)?)\)"""
                 r"""(?:[ \t]*+\+[ \t]*+(?:'([^'\n\\]{1,64}+)'|"([^"\n\\]{1,64}+)"))?|"\#\{[^{}\n]{1,256}+\}/""")
# misses 11: the Rakefile's folder as a Pathname joined (`Pathname(__dir__).join('tasks/build')`, `Pathname.new(…)`,
# `Pathname(__FILE__).dirname`, `Pathname(File.dirname(__FILE__))`), a `%w[tasks build]` word list, rake's own
# `rake_require NAME[, PATHS]` (it loads `PATH/NAME.rake`; without paths from $LOAD_PATH: any folder)
_PATHNAME = lazy(r"""\bPathname(?:\.new)?+[ \t]*+\([ \t]*+(?:__dir__|File\.dirname[ \t]*+\([ \t]*+__FILE__[ \t]*+\))"""
                 r"""[ \t]*+\)[ \t]*+\.join[ \t]*+\(([^()\n]{0,1024}+)\)|\bPathname(?:\.new)?+[ \t]*+\("""
                 r"""[ \t]*+__FILE__[ \t]*+\)[ \t]*+\.dirname[ \t]*+\.join[ \t]*+\(([^()\n]{0,1024}+)\)""")
_WORD_LIST = lazy(r"%[wW](?:\[([^\[\]\n]{0,512}+)\]|\(([^()\n]{0,512}+)\))")
_RAKE_REQUIRE = lazy(r"\brake_require\b[ \t(]*+(?:" + _STRING + r")(?:[ \t]*+,[ \t]*+\[([^\]\n]{0,512}+)\])?")
_TASK_FOLDERS = frozenset({"tasks", "task", "rakelib", "rake", "rakefiles", "build", "ci", "script", "scripts", "tools",
                           "tooling", "support"})


def loaded(text: str) -> list[str]:
    """The task files (path patterns relative to the Rakefile's folder) a Rakefile's text loads or imports."""
    text = _WORD_LIST.sub(lambda words: f"[{', '.join(repr(word) for word in (words[1] or words[2]).split())}]", text) \
        if "%w" in text or "%W" in text else text
    text = _PATHNAME.sub(lambda call: "'./" + "/".join(a or b for a, b in _PARTS.findall(call[1] or call[2])) + "'",
                         text) if "Pathname" in text else text
    text = _COMPUTED.sub(_computed, text) if "File." in text or "#{" in text else text
    found: list[str] = []
    for single, double, paths in _RAKE_REQUIRE.findall(text) if "rake_require" in text else ():
        folders = [a or b for a, b in _PARTS.findall(paths)] or [ANY_FOLDER]  # no paths: $LOAD_PATH's, any folder
        found += [name for folder in folders for name in _names(f"{folder}/{single or double}.rake", lambda _: True)]
    for comment, joined, single, double in _WORDS.findall(text):
        if comment:
            continue
        if joined:
            parts = [a or b for a, b in _PARTS.findall(joined)]
            word = "/".join(parts) if parts and joined.lstrip().startswith(("__dir__", "'", '"')) else ""
        else:
            word = single or double
        found += _names(word, lambda name: name.endswith(".rake"))
    for single, double, rest, after in _LOADED.findall(_COMMENT_LINE.sub("", text) if "#" in text else text):
        if single or double:
            found += _names(single or double, lambda name: True)
        elif _LOADS.search(rest) is not None or (_BLOCK.search(rest) and _LOADS.search(after)):
            parts = [a or b for a, b in _PARTS.findall(rest.partition("]")[0] if "join" in rest else rest)]
            word = "/".join(parts) if rest.lstrip().startswith("File.join") else parts[0] if parts else ""
            found += _names(word, lambda name: True)
    uncommented = _COMMENT_LINE.sub("", text) if "#" in text else text
    for groups in _REQUIRED.findall(uncommented):  # a task file required (misses 10)
        required = "".join(groups)
        if _task_file(required):
            found += _names(required if required.endswith((".rb", ".rake")) else f"{required}.rb", lambda name: True)
    for rest in _RAKELIB.findall(text):
        found += [f"{_HERE.sub('', a or b).rstrip('/')}/*.rake" for a, b in _PARTS.findall(rest)]
    found = list(dict.fromkeys(word for word in found if word and not word.startswith("/*")))
    return found if len(found) <= MAX_NAMES else ["*.rake"]


def _computed(call: re.Match[str]) -> str:
    """A path the Rakefile computes (_COMPUTED) as the quoted relative path it is: `'./tasks/build'` from its folder,
    `'tasks/build'` for a join of literals only; the call as it was where no literal names a path."""
    if call[0].startswith('"'):
        return '"./'
    function, arguments, single, double = call[1], call[2], call[3], call[4]
    inner, expanded = arguments.strip(), False
    if function == "expand_path" and inner.startswith("File.join") and inner.endswith(")"):  # review 70b: the join,
        # expanded from the working folder (rake's: the Rakefile's)
        function, expanded = "join", True
        arguments = inner.removeprefix("File.join").strip().removeprefix("(").removesuffix(")")
    parts = [a or b for a, b in _PARTS.findall(arguments)]
    if not parts:
        return call[0]
    if function == "join":
        rooted = expanded or not arguments.lstrip().startswith(("'", '"'))
        path = "/".join(parts)
    else:  # expand_path: from the working folder (rake's: the Rakefile's), `__dir__`, or `..` of `__FILE__`
        rooted, path = True, parts[0]
        base = arguments.partition(",")[2]
        path = path[3:] if "__FILE__" in base and "dirname" not in base and path.startswith("../") else path
    path += single or double or ""
    return f"'./{path}'" if rooted else f"'{path}'"


def _task_file(name: str) -> bool:
    """Whether a required name is a task file (_REQUIRED): a folder of it is the tasks' and it is not below `lib/`,
    `app/` or `config/` but for Rails' `lib/tasks/`."""
    parts = [part for part in name.split("/") if part not in (".", "..")][:-1]
    if parts[:1] in (["lib"], ["app"], ["config"]) and parts[:2] != ["lib", "tasks"]:
        return False
    return any(part in _TASK_FOLDERS for part in parts)


def _names(word: str, kept: Callable[[str], bool]) -> list[str]:
    """The path patterns a string of the Rakefile names: its interpolations `*`, each of its `{a,b}` alternatives,
    and a glob's `**/` also no folder (`tasks/**/*.rake` loads `tasks/x.rake`); those `kept` takes."""
    word = _INTERPOLATION.sub("*", _HERE.sub("", word.strip()))
    if word.startswith(("/", "$")) or "://" in word or not word.strip("./"):
        return []
    words = [word]
    if (braced := _ALTERNATIVES.search(word)) is not None:
        choices = braced[1].split(",")
        words = [word[:braced.start()] + choice + word[braced.end():] for choice in choices[:_MAX_ALTERNATIVES]] \
            if len(choices) <= _MAX_ALTERNATIVES else [word[:braced.start()] + "*" + word[braced.end():]]
    words = [_VARIABLE.sub("*", word) for word in words if "{" not in word]
    # all variable (`Dir['*']` loaded): the Ruby files it may be, not every file (review 68a)
    words = [extended for word in words
             for extended in ([word] if word.replace("*", "").strip("/") else [f"{word}.rake", f"{word}.rb"])]
    return [name for word in words if kept(word)
            for name in ([word, word.replace("/**/", "/")] if "/**/" in word else [word])]


def rakelib_options(words: list[str]) -> list[str]:
    """The task file folders rake's own options name (`-R tasks`, `--rakelibdir=tasks`, `--rakelib tasks`)."""
    found = [value for flag, value in zip(words, words[1:], strict=False)
             if flag in ("-R", "--rakelibdir", "--rakelib")]
    found += [word.partition("=")[2] for word in words if word.startswith(("--rakelibdir=", "--rakelib="))]
    found += [word[2:] for word in words if word.startswith("-R") and len(word) > 2 and not word.startswith("-R=")]
    return [f"{folder.rstrip('/')}/*.rake" for folder in found[:MAX_NAMES] if folder.strip("/.")]
