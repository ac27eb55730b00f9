"""What a language unit declares: `LanguageSpec` (files, grammar, comments) and `DocRules`
(how the docs index names, exports, imports and documents its items).

Every field has the default most languages want, so a unit writes only what differs.
The rules that name a convention (`items="exports"`, `module_id="crate"` …) pick one of
the implementations in `simple_brief/docs/`; a new language reuses one or adds one there.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class DocRules:
    """How the docs index (`simple_brief/docs/`) reads one language.

    Item ids and visibility (`docs/items.py`):
        separator: between the parts of an item id (`::` in Rust and C++).
        items: how items are named and which are public: `everything` (all public),
            `underscore` (`_x` private, `__all__` decides), `pub` (a bare `pub`; impl
            blocks), `capitalised` (Go: a capital letter; methods by receiver),
            `modifiers` (Java's `public`/`protected`), `exports` (JS/TS `export`),
            `module_table` (Lua: the returned table's members), `static` (C/C++:
            file-level `static` is private; `ns::` ids), `sections` (Markdown headings).
        bases: where a type names its bases: `keywords` (`extends`, `implements`, `:`)
            or `parentheses` (Python's `class A(B)`).
        kind_words: (kind word, this language's word) pairs: Rust's `trait`, Lua's `table`.
        macro_prefix: a signature starting with it is a `macro` (Rust's `macro_rules!`).
        indexed: whether the docs index reads this language's files at all (data and
            markup such as JSON or HTML are outlined, not documented).
    Modules (`docs/modules.py`):
        module_id: how a file's module id is found: `path` (the path without its
            ending), `index_path` (JS/TS: `dir/index.js` is `dir`), `packages` (Python's
            `__init__.py` packages), `lua_path` (the path below `lua/`), `crate` (Rust:
            `crate::mod`, the crate's Cargo name), `package_clause` (Go), `package_statement`
            (Java), `file` (the path itself: Markdown).
        module_item: when the file's module is an item: `always`, `documented` (only with
            a module doc, or in `package_file`), `never`.
        package_file: the file that documents a package (`package-info.java`).
        private_modules: a module with a `_x` part in its id is private (Python).
        module_doc: where a module's own doc is: `block` (a leading `/** … */`, marked
            `@module`/`@file`/`@fileoverview` or followed by a blank line),
            `package_block` (Java: `block`, also when directly above `package`),
            `docstring` (Python), `inner_lines` (Rust `//!`), `package_comment` (Go),
            `dash_block` (a Lua file's leading `---` block).
        imports: a regex whose first non-empty group is what an import names ("": none).
        import_target: how that becomes a module id: "" (as written), `parent` (without
            its last `separator` part), `last_path_part` (Go), `relative_path` (JS/TS:
            `./x` resolved against the file), `from_import` (Python's two forms).
    Doc comments (`docs/comments.py`, `tags.py`, `prose.py`):
        docstrings: docstring conventions (Google, NumPy, reST, Epydoc) instead of tags.
        html: Javadoc/JSDoc HTML (`<p>`, `<pre>`, `<code>`, lists) becomes Markdown.
        doxygen: Doxygen commands (`\\param`, `\\code` … `\\endcode`, `\\c word`).
        typed_throws: `@throws` always names the type first (elsewhere it is guessed).
        doc_attribute: the module attribute whose string documents the definition below
            it (Elixir's `@doc`); other attributes between (`@spec`, `@impl`) belong to
            the definition. Its heredocs fold like docstrings.
        luacats: LuaCATS/LDoc `@param name type`, `@tparam type name`, Lua types.
        indented_code: lines indented after a blank line are code examples (Go).
        rustdoc_fences: fences tagged `ignore`, `no_run`, `edition2021` … are this
            language's code (rustdoc).
    """

    indexed: bool = True
    separator: str = "."
    items: str = "everything"
    bases: str = "keywords"
    kind_words: tuple[tuple[str, str], ...] = ()
    macro_prefix: str = ""
    module_id: str = "path"
    module_item: str = "always"
    package_file: str = ""
    private_modules: bool = False
    module_doc: str = "block"
    imports: str = ""
    import_target: str = ""
    docstrings: bool = False
    html: bool = False
    doxygen: bool = False
    typed_throws: bool = False
    luacats: bool = False
    doc_attribute: str = ""
    indented_code: bool = False
    rustdoc_fences: bool = False

    def kind_word(self, word: str) -> str:
        """This language's word for a kind (`interface` -> `trait` in Rust)."""
        return next((own for common, own in self.kind_words if common == word), word)


@dataclass(frozen=True)
class LanguageSpec:
    """What the engine knows about one language.

    Attributes:
        name: Neovim filetype; its query is `<name>.scm` beside the unit.
        extensions: file name endings, with the dot.
        grammar: `module:function` returning the tree-sitter language pointer, or ""
            for languages handled by the line-heuristic fallback only.
        comment: line-comment prefix used for inline markers in `full` mode.
        comment_end: closing part for block-only comment syntaxes (Markdown).
        block_comment: a block comment's opening and closing marks (`("/*", "*/")`,
            OCaml's `("(*", "*)")`): a multi-line one folds as a comment block. Empty: only
            runs of line comments fold (C-like `//` languages get `/* */` by default).
        other_comments: what else starts a comment the grammar reads (HCL's `//` beside
            `#`, JavaScript's HTML-like `<!--`): with `comment` and `block_comment`, the
            `comment_marks` a signature is searched for before its comments are cut out.
        max_start_depth: syntax-tree depth below which no definition is looked for;
            lets the query skip deep expression trees (scanning stays close to a parse).
        max_definitions: the outline stops after this many (0: no limit) with an H002
            hint; data files (JSON, YAML, TOML) can hold hundreds of thousands of keys.
        filetypes: other Neovim filetypes this language serves (`javascriptreact`).
        aliases: names other tools use for it (`py`, `golang`).
        title: how people write its name (`C#`, `TSX`), where that is not the filetype
            capitalised; the README's and `:help`'s language lists show it.
        docs: how the docs index reads it.
        guard: `module:function` rewriting the text's bytes (same length) before every
            parse, where the grammar's own code crashes the process on what it rewrites
            (tree-sitter-bash on 4-byte UTF-8 characters). "" for none. The only
            rewrite a unit may declare: a grammar's misreading of valid code is met in
            its query, never by editing the text.
        unparsed_lines: a regular expression (bytes, multi-line) of whole lines (or a line's
            end) the grammar is not given: tree-sitter's included ranges leave them out of
            the parse, the text itself unchanged (C's lone unexpanded macros,
            `__BEGIN_DECLS`, which the grammar reads as the type of what follows; a comment
            after an INI section's `]`). "" for none.
        names: `module:function` cleaning a name's text (its `@name` captures and the
            text between them) before its whitespace is normalised: HTML leaves out the
            tags inside a heading (`Macro </a>NAME` is `Macro NAME`). "" for none.
        checks: the checkers that judge this language's syntax, by name, tried in order
            (`simple_brief.intel.checkers.CHECKERS`: `python-compile`, `clang-syntax` …);
            the first one installed judges the file. The grammar's own errors are only
            hints (H003): a grammar may not know the language's newest syntax.
        file_names: whole file names, or glob patterns of them (`Makefile`,
            `Dockerfile.*`), for files named rather than typed by their ending; a
            pattern with a `/` matches the path's last parts (`doc/*.txt`).
        flat_headings: the grammar gives a heading no section (vimdoc, reST): each
            heading runs to the last non-blank line before the next one, so it folds
            as a Markdown section does.
    """

    name: str
    extensions: tuple[str, ...]
    grammar: str = ""
    comment: str = "#"
    comment_end: str = ""
    block_comment: tuple[str, str] | tuple[()] = ()
    other_comments: tuple[str, ...] = ()
    max_start_depth: int = 16
    max_definitions: int = 0
    filetypes: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    title: str = ""
    docs: DocRules = field(default_factory=DocRules)
    file_names: tuple[str, ...] = ()
    checks: tuple[str, ...] = ()
    guard: str = ""
    unparsed_lines: str = ""
    names: str = ""
    flat_headings: bool = False

    @property
    def display_name(self) -> str:
        """Its name as people write it: `title`, else the filetype capitalised."""
        return self.title or self.name.capitalize()

    @property
    def comment_marks(self) -> tuple[bytes, ...]:
        """What a comment starts with: the line-comment prefix, a block comment's opening
        (`/*` for a `//` language without one declared) and `other_comments`."""
        line = self.comment.strip()
        block = self.block_comment[0] if self.block_comment else "/*" if line == "//" else ""
        return tuple(mark.encode() for mark in dict.fromkeys((line, block, *self.other_comments)) if mark)

    @property
    def has_grammar(self) -> bool:
        """Whether a tree-sitter grammar (and an outline query) serves this language."""
        return bool(self.grammar)
