"""universal-ctags as the baseline: one batched process per language, JSON tags per file."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

#: Our filetype -> ctags' language name (forced, so `.h` is read as C like we read it).
CTAGS_LANGUAGE = {
    "python": "Python",
    "lua": "Lua",
    "javascript": "JavaScript",
    "typescript": "TypeScript",
    "typescriptreact": "TypeScript",
    "rust": "Rust",
    "go": "Go",
    "c": "C",
    "cpp": "C++",
    "java": "Java",
    "markdown": "Markdown",
    "ruby": "Ruby",
    "php": "PHP",
    "sh": "Sh",
    "make": "Make",
    "cs": "C#",
    "kotlin": "Kotlin",
    "json": "JSON",
    "html": "HTML",
    "css": "CSS",
    "elixir": "Elixir",
    "haskell": "Haskell",
    "ocaml": "OCaml",
    "julia": "Julia",
    "sql": "SQL",
    "vim": "Vim",
    "perl": "Perl",
    "ps1": "PowerShell",
    "cmake": "CMake",
    "proto": "Protobuf",
    "rst": "RestructuredText",
    "tex": "Tex",
    "bib": "BibTeX",
    "dosini": "Iniconf",
    "meson": "Meson",
    "verilog": "Verilog",
    "objc": "ObjectiveC",
    "fortran": "Fortran",
    "vhdl": "VHDL",
    "ada": "Ada",
    "d": "D",
    "r": "R",
    "clojure": "Clojure",
    "lisp": "Lisp",
    "scheme": "Scheme",
    "erlang": "Erlang",
}
#: Languages of the registry ctags 5.9 has no parser for (or only tags what no outline shows:
#: YAML's anchors): swift, scala, dart, zig, toml, hcl, nix, dockerfile, yaml.

#: ctags kinds (long names, `K` field) counted as definitions for coverage, per language.
#: Left out on purpose: variables/constants/fields/members-as-data, macros, typedefs,
#: imports and enumerators (not in the brief's function/class/method/struct/enum set).
DEFINITION_KINDS: dict[str, frozenset[str]] = {
    "python": frozenset({"class", "function", "member"}),
    "lua": frozenset({"function"}),
    "javascript": frozenset({"class", "function", "method", "generator", "getter", "setter"}),
    "typescript": frozenset({"class", "function", "method", "interface", "enum", "namespace"}),
    "typescriptreact": frozenset({"class", "function", "method", "interface", "enum", "namespace"}),
    "rust": frozenset({"function", "method", "struct", "enum", "interface", "implementation", "module"}),
    "go": frozenset({"func", "struct", "interface"}),
    "c": frozenset({"function", "struct", "enum", "union"}),
    "cpp": frozenset({"class", "function", "struct", "enum", "union", "namespace"}),
    "java": frozenset({"class", "method", "interface", "enum", "annotation"}),
    "markdown": frozenset({"chapter", "section", "subsection", "subsubsection", "l4subsection", "l5subsection"}),
    "ruby": frozenset({"class", "module", "method", "singletonMethod"}),
    "php": frozenset({"class", "interface", "trait", "function"}),
    "sh": frozenset({"function"}),
    "make": frozenset({"target"}),
    "cs": frozenset({"class", "struct", "interface", "enum", "namespace", "method"}),
    "kotlin": frozenset({"class", "interface", "object", "method"}),
    "json": frozenset({"object", "array"}),
    "html": frozenset({"heading1", "heading2", "heading3"}),
    "css": frozenset({"selector", "class", "id"}),
    "elixir": frozenset({"module", "function", "macro", "protocol", "implementation"}),
    "haskell": frozenset({"function", "type"}),
    "ocaml": frozenset({"module", "class", "function", "method", "type"}),
    "julia": frozenset({"module", "function", "struct", "macro"}),
    "sql": frozenset({"table", "view", "function", "procedure", "trigger"}),
    "vim": frozenset({"function", "command", "augroup"}),
    "perl": frozenset({"subroutine", "package"}),
    "ps1": frozenset({"function"}),
    "cmake": frozenset({"function", "macro"}),
    "proto": frozenset({"message", "enum", "service", "rpc"}),
    "rst": frozenset({"chapter", "section", "subsection", "subsubsection"}),
    "tex": frozenset({"part", "chapter", "section", "subsection", "subsubsection"}),
    "bib": frozenset(
        {"article", "book", "booklet", "inbook", "incollection", "inproceedings", "manual", "mastersthesis"}
        | {"misc", "phdthesis", "proceedings", "techreport", "unpublished", "conference"}
    ),
    "dosini": frozenset({"section"}),
    "meson": frozenset({"project", "build", "test", "benchmark", "custom", "run"}),
    "verilog": frozenset({"module", "function", "task", "block"}),
    "objc": frozenset(
        {"interface", "implementation", "protocol", "method", "class", "category", "function", "struct", "enum"}
    ),
    "fortran": frozenset(
        {"module", "program", "function", "subroutine", "type", "interface", "submodule", "blockData", "method"}
    ),
    "vhdl": frozenset(
        {"entity", "architecture", "package", "function", "procedure", "process", "type", "subtype", "record"}
    ),
    "ada": frozenset(
        {
            "package",
            "packspec",
            "subprogram",
            "subprogspec",
            "type",
            "task",
            "protected",
            "entry",
            "taskspec",
            "protectspec",
        }
    ),
    "d": frozenset({"module", "class", "function", "enum", "interface", "struct", "union", "template"}),
    "r": frozenset({"function"}),
    "clojure": frozenset({"function", "namespace"}),
    "lisp": frozenset({"function", "macro"}),
    "scheme": frozenset({"function"}),
    "erlang": frozenset({"module", "function", "record", "type", "macro"}),
}

FIELDS = "--fields=+nKzSe"

_HASKELL_KEYWORDS = frozenset(
    {"class", "data", "default", "deriving", "import", "infix", "infixl", "infixr", "instance", "module"}
    | {"newtype", "type", "where", "let", "in", "if", "then", "else", "case", "of", "do"}
)
_ANONYMOUS = re.compile(
    r"^(__anon[0-9a-f]+|anonFunc[0-9a-f]+|AnonymousFunction[0-9a-f]*|anonymous(Function|Object|Class)[0-9a-f]*)$"
)
_LOCAL_LAMBDA = re.compile(r"^/\^\s+[\w.]+\s*=\s*lambda\b")
#: An Erlang function's name is an atom: lower-case first, or quoted.
_ERLANG_ATOM = re.compile(r"^([a-z]|')")
_JS_CLASS = re.compile(r"\bclass\b")
#: A Lua line that really defines the function ctags names (`function M.f(`, `M.f = function(`).
_LUA_DEFINES = re.compile(r"^/\^\s*(local\s+)?(function\s+[\w.:]+\s*\(|[\w.:\[\]'\"]+\s*=\s*function\s*\()")


def not_a_definition(language: str, tag: Tag) -> str:
    """Why a tag of a counted kind is not a definition a reader would look up ("" when it is one).

    - any language: ctags' generated names for anonymous structs/functions (`__anon1a2b`);
    - Python: a lambda assigned to a local variable inside a function (ctags: `function`);
    - JavaScript: an object literal with methods, which ctags calls a `class`;
    - Lua: an anonymous function argument that ctags names after a nearby assignment
      (`vim._with({ buf = args.buf }, function()` gives a function `buf`);
    - C/C++: a function whose name a macro builds (`TRANS(Accept) (...)` gives `TRANS`);
    - TeX: a sectioning command inside a style's macro (`\\subsubsection*{#1}`,
      `\\chapter*{\\contentsname ...}`), which only a use of the macro titles;
    - Sh: an array assignment (`COMPREPLY=( $(compgen ...) )` gives a function `COMPREPLY=`);
    - Kotlin: a lambda (`<lambda>`), a lambda's parameters (`{ a, b -> ...}`) and loop
      variables, tagged as methods;
    - OCaml: `let _ = ...`, `let () = ...`, the module a file is (tagged on line 1), and
      `private`/`virtual`, which ctags takes for a method's name (`method private f`);
    - Erlang: a variable (capitalised) bound at a line's start in generated code;
    - Scheme: the first part of a module's name, which ctags reads as a `define` form's;
    - Objective-C: a word in parentheses that is no `@interface X (Category)`'s,
      lines of a `#define`'s body (methods a macro writes), and "functions" on a line
      ending in `;` (`void *f(void) __OSX_AVAILABLE_STARTING(...);` gives a function
      `__OSX_AVAILABLE_STARTING`, `RCT_MOCK_DEF(RCTView, X);` one `RCT_MOCK_DEF`: a
      prototype or a macro call, no body) or named `__attribute__` (ctags' name for
      the function after `__attribute__((used))`);
    - Meson: `subproject('x')` and `find_library('z')`, which use a project or library;
    - OCaml: `let _ = ...`, `let () = ...`, and the module a file is (tagged on line 1);
    - JSON: an object inside an array, named by its index (`0`), and the keys inside such an
      object (scope `deprecated.3`): the records of an array are its value, not the file's
      structure; the outline lists the array as one member that folds whole and leaves its
      records' keys out (json.scm: a data file's `[{...}, ...]` would list every field of
      every record, unnamed, e.g. 50 `replacedBy` in eslint's rule list), where ctags tags
      each one;
    - C#: a type parameter in a `where TKey : notnull` constraint, which ctags tags as a class;
    - Haskell: Hugs' `primitive` declarations (its libraries' own extension), keywords or
      parenthesised names ctags' Haskell parser takes for definitions, and the left operand
      of an infix definition (`aM <> bM = ...`), which ctags takes for its name.
    """
    if _ANONYMOUS.match(tag.name):
        return "anonymous (ctags-generated name)"
    if language == "kotlin" and (tag.name == "<lambda>" or _kotlin_local(tag)):
        return "a lambda, a lambda's parameter or a loop variable (ctags: method)"
    if language == "ocaml" and (tag.name in ("_", "()") or (tag.kind == "module" and "module" not in tag.pattern)):
        return "`let _ =`/`let () =`, or the file's own module (ctags: at line 1)"
    if language == "ocaml" and tag.kind == "method" and tag.name in ("private", "virtual"):
        return "a keyword ctags read as the method's name (`method private f`)"
    if language == "cs" and tag.kind == "class" and _cs_constrained_parameter(tag):
        return "a type parameter of a `where T :` constraint (ctags: class)"
    if language == "json" and tag.name.isdigit():
        return "an array element (ctags names it by its index)"
    if language == "json" and any(part.isdigit() for part in tag.scope.split(".")):
        return "a key of a record inside an array (`deprecated.3.replacedBy`), a value the outline folds with its array"
    if language == "haskell" and tag.name == "primitive":
        return "Hugs' `primitive f :: T` declaration, read by ctags as a function `primitive`"
    if language == "haskell" and (tag.name in _HASKELL_KEYWORDS or not tag.name[:1].isalpha()):
        return "a keyword or a parenthesis ctags read as a name (`class`, `infixl`, `(RealFloat`)"
    if language == "haskell" and _haskell_infix_operand(tag):
        return "the left operand of an infix definition (`aM <> bM = ...` defines `<>`, not `aM`)"
    if language == "tex" and ("#" in tag.name or tag.name.startswith("\\")):
        return "a sectioning command inside a macro's definition (its title a `#1` or a `\\command`)"
    if language == "erlang" and tag.kind == "function" and not _ERLANG_ATOM.match(tag.name):
        return "a variable bound at a line's start (generated code: `Bytes2= ...`), read by ctags as a function"
    if language == "scheme" and re.match(r"/\^\s*\((define-module|define-library|library)\s+\(", tag.pattern):
        return "the first part of a module's name (`(define-module (ice-9 ls)` gives a function `ice-9`)"
    if (
        language == "objc"
        and tag.kind == "category"
        and not re.search(rf"@(interface|implementation)\s+\w+\s*\(\s*{re.escape(tag.name)}\s*\)", tag.pattern)
    ):
        return "a word in parentheses ctags reads as a category (`@property (nonatomic)`, `- (instancetype)`)"
    if language == "objc" and tag.kind == "function" and (tag.name == "__attribute__" or _statement_line(tag)):
        return "a prototype with a trailing macro, a macro call, or `__attribute__` read by ctags as a function"
    if language == "objc" and re.search(r"\\\s*\$/$", tag.pattern):
        return "a line of a `#define`'s body (a method the macro writes: `-(void)setMargin##prop`)"
    if language == "meson" and re.search(r"\b(subproject|find_library)\s*\(", tag.pattern):
        return "a subproject or library the file uses, read by ctags as a project or a target"
    if language == "sh" and tag.name.endswith("="):
        return "an array assignment ctags reads as a function (`COMPREPLY=( ... )`)"
    if language == "python" and tag.scope_kind in ("function", "member") and _LOCAL_LAMBDA.match(tag.pattern):
        return "lambda in a local variable"
    is_js = language in ("javascript", "typescript", "typescriptreact")
    if is_js and tag.kind == "class" and tag.pattern and not _JS_CLASS.search(tag.pattern):
        return "object literal tagged as class"
    if language == "lua" and tag.pattern and not _LUA_DEFINES.match(tag.pattern):
        return "anonymous function named after a nearby assignment"
    macro_name = rf"(?<!\w){re.escape(tag.name)}\s*\(\s*\w+\s*\)\s*\("
    if language in ("c", "cpp") and tag.kind == "function" and re.search(macro_name, tag.pattern):
        return "function name built by a macro"
    return ""


#: An operator or a backticked name (`<>`, `` `overGraphic` ``), not `=`, `|`, `::`, `->`, `<-`, `@`.
_HASKELL_INFIX = r"(`[\w']+`|(?!(=|\||::|->|<-|@)\s)[!#$%&*+./<=>?@\\^|~:-]+)"


def _statement_line(tag: Tag) -> bool:
    """Whether the tag's line ends in `;` (a statement or a declaration: no body follows)."""
    return re.search(r";\s*(//.*)?\$/$", tag.pattern) is not None


def _cs_constrained_parameter(tag: Tag) -> bool:
    name = re.escape(tag.name)
    declared = re.search(rf"\b(class|struct|interface|record|enum)\s+{name}\b", tag.pattern)
    return declared is None and re.search(rf"\bwhere\s+{name}\s*:", tag.pattern) is not None


def _haskell_infix_operand(tag: Tag) -> bool:
    """A Haskell equation defining an operator or a function infix (`aM <> bM = ...`,
    ``g1 `overGraphic` g2 = ...``), which ctags names by its left operand."""
    return re.match(rf"/\^\s*{re.escape(tag.name)}\s+{_HASKELL_INFIX}\s", tag.pattern) is not None


def _kotlin_local(tag: Tag) -> bool:
    """A Kotlin lambda parameter (`{ a, (b, c) -> ...`) or loop variable (`for (x in xs)`,
    `for ((k, v) in map)`);
    ctags cuts long lines' patterns short, so a cut pattern needs no `->`."""
    cut = not tag.pattern.endswith("$/")
    body = tag.pattern[2:-1] if cut else tag.pattern[2:-2]
    name = re.escape(tag.name)
    arrow = r"(->|\Z)" if cut else "->"
    parameter = re.search(rf"\{{[^{{}}]*(?<![\w$]){name}\b[^{{}}]*{arrow}", body)
    # `for (x in xs)`, and the names of a destructuring loop (`for ((name, value) in props)`).
    loop = re.search(rf"\bfor\s*\(\s*({name}|\([^()]*(?<![\w$]){name}\b[^()]*\))\s+in\b", body)
    return bool(parameter or loop)


@dataclass
class Tag:
    name: str
    kind: str
    line: int
    scope: str = ""
    pattern: str = ""
    scope_kind: str = ""


@dataclass
class CtagsRun:
    """Tags of one batched ctags run, the JSON text per file (for token counts), and its time."""

    tags: dict[Path, list[Tag]] = field(default_factory=dict)
    json_text: dict[Path, str] = field(default_factory=dict)
    seconds: float = 0.0
    error: str = ""


def available() -> str | None:
    """ctags' version line when a universal-ctags with JSON output is installed, else None."""
    exe = shutil.which("ctags")
    if exe is None:
        return None
    try:
        out = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=10).stdout
        feats = subprocess.run([exe, "--list-features"], capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    if "Universal Ctags" not in out or "json" not in feats:
        return None
    return out.splitlines()[0]


def command(language: str) -> list[str]:
    """The ctags command line for a batch: file list on stdin, JSON tags on stdout."""
    return [
        "ctags",
        "--output-format=json",
        FIELDS,
        f"--language-force={CTAGS_LANGUAGE[language]}",
        "-f",
        "-",
        "-L",
        "-",
    ]


def run_batch(language: str, files: list[Path]) -> CtagsRun:
    """Tag all `files` in one ctags process; keep each file's JSON lines with its path as a bare name.

    The `path` field is rewritten to the file's base name before counting tokens, as if ctags
    had been run in the file's directory, so long install paths do not inflate the baseline.
    """
    run = CtagsRun()
    listing = "".join(f"{p}\n" for p in files)
    start = time.perf_counter()
    try:
        proc = subprocess.run(command(language), input=listing, capture_output=True, text=True, timeout=300)
    except (OSError, subprocess.SubprocessError) as err:
        run.error = str(err)
        return run
    run.seconds = time.perf_counter() - start
    lines: dict[Path, list[str]] = {p: [] for p in files}
    for raw in proc.stdout.splitlines():
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError:
            continue
        if obj.get("_type") != "tag":
            continue
        path = Path(obj.get("path", ""))
        if path not in lines:
            continue
        run.tags.setdefault(path, []).append(
            Tag(
                obj.get("name", ""),
                obj.get("kind", ""),
                int(obj.get("line", 0)),
                obj.get("scope", ""),
                obj.get("pattern", ""),
                obj.get("scopeKind", ""),
            )
        )
        obj["path"] = path.name
        lines[path].append(json.dumps(obj, ensure_ascii=False))
    run.json_text = {p: "\n".join(ls) for p, ls in lines.items()}
    return run


def time_batch(language: str, files: list[Path]) -> float:
    """Seconds of one batched ctags run over `files` (output read and dropped)."""
    listing = "".join(f"{p}\n" for p in files)
    start = time.perf_counter()
    subprocess.run(command(language), input=listing, capture_output=True, text=True, timeout=300)
    return time.perf_counter() - start
