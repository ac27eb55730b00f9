"""A file's outline -> documented `Item`s with qualified ids, per language.

Ids follow each language's own notation (see `Item`): Python `pkg.mod.Class.method`,
Rust `crate::mod::Type::method` (the crate's Cargo name when known), Lua module paths
(`vim.lsp.buf.hover`), Go `pkg.Type.Method`, Java `pkg.Class.method`, JS/TS
`dir/file.name`, C `dir/file.name`, C++ `ns::Class::method`, Markdown `file.md#section`.

Visibility follows the language's rules (`Item.public`): Python `_x` is private unless a
dunder, and `__all__` decides at the top level when present; Rust needs a bare `pub`
(trait items and trait-impl methods are public); Go needs a capital letter; JS/TS need
`export` (`.d.ts` declarations are all public); Java needs `public`/`protected` (interface
members are implicitly public); Lua: members of the returned module table and globals are
public, `local` names private; C/C++: file-level `static` is private. A member is public
only when its container is. Symbols inside function bodies are not items.

Which of these a file follows is its language unit's `DocRules` (`simple_brief/languages/`):
`items` names one of the walkers here (`_Builder.WALKERS`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import ClassVar

from simple_brief.docs.comments import parse_doc
from simple_brief.docs.model import DocComment, Item
from simple_brief.docs.modules import imports_of, js_exports, lua_module_table, module_doc, module_id, python_all, slug
from simple_brief.model import Symbol, SymbolKind
from simple_brief.scan import Outline

_FUNCTIONS = frozenset({SymbolKind.Function, SymbolKind.Method, SymbolKind.Constructor})
KIND_WORDS: dict[SymbolKind, str] = {
    SymbolKind.Function: "function",
    SymbolKind.Method: "method",
    SymbolKind.Constructor: "constructor",
    SymbolKind.Class: "class",
    SymbolKind.Interface: "interface",
    SymbolKind.Object: "object",
    SymbolKind.Struct: "struct",
    SymbolKind.Enum: "enum",
    SymbolKind.EnumMember: "enum_member",
    SymbolKind.Field: "field",
    SymbolKind.Property: "property",
    SymbolKind.Constant: "constant",
    SymbolKind.Variable: "variable",
    SymbolKind.Module: "module",
    SymbolKind.Namespace: "namespace",
    SymbolKind.Package: "module",
    SymbolKind.TypeParameter: "type",
    SymbolKind.String: "section",
}
#: The `DocRules.module_item` choices and `DocRules.bases` styles this module knows.
MODULE_ITEMS = frozenset({"always", "documented", "never"})
BASES = frozenset({"keywords", "parentheses"})
_WORD = re.compile(r"[A-Za-z_]\w*")
_GENERICS = re.compile(r"<[^<>]*>")


@dataclass
class FileDocs:
    """What one file contributes to the index.

    Attributes:
        module: the file's module id.
        items: every item (public and private), the module item first when there is one.
        bases: per item (same order), the names of the bases/traits/interfaces it names.
        imports: module ids the file imports (for `resolve` context ranking).
    """

    module: str
    items: list[Item] = field(default_factory=list)
    bases: list[list[str]] = field(default_factory=list)
    imports: list[str] = field(default_factory=list)


def doc_of(raw: str, language: str) -> DocComment:
    """The parsed doc comment of `raw` (an empty DocComment when there is no text)."""
    if not raw.strip():
        return DocComment()
    return parse_doc(raw, language)


def extract(
    outline: Outline, rel: str, root: Path | None = None, library: str = "workspace", private: bool = True
) -> FileDocs:
    """Items of one scanned file; private ones too when `private` (`Item.public` says which)."""
    language = outline.language.name
    text = outline.source.text
    module = module_id(rel, language, root, library, text)
    builder = _Builder(outline, rel, module, library, language)
    builder.run()
    out = FileDocs(module=module, imports=imports_of(text, language, rel))
    for item, bases, raw in zip(builder.items, builder.bases, builder.raw, strict=True):
        if private or item.public:
            item.doc = doc_of(raw, language)
            out.items.append(item)
            out.bases.append(bases)
    return out


class _Builder:
    """Walks a symbol tree once, naming items the language's way."""

    def __init__(self, outline: Outline, rel: str, module: str, library: str, language: str) -> None:
        self.outline = outline
        self.rel = rel
        self.module = module
        self.library = library
        self.language = language
        self.rules = outline.language.docs
        self.sep = self.rules.separator
        self.items: list[Item] = []
        self.bases: list[list[str]] = []
        self.raw: list[str] = []
        self.text = outline.source.text

    def add(
        self,
        sym: Symbol | None,
        item_id: str,
        name: str,
        kind: str,
        public: bool,
        bases: list[str] | None = None,
        raw: str | None = None,
    ) -> Item:
        item = Item(
            id=item_id,
            name=name,
            kind=kind,
            module=self.module if kind != "module" or sym is not None else _parent_module(item_id, self.sep),
            language=self.language,
            path=self.rel,
            line=sym.selection_range.start.line + 1 if sym is not None else 1,
            signature=sym.signature if sym is not None else "",
            public=public,
            library=self.library,
        )
        self.items.append(item)
        self.bases.append(bases or [])
        # Parsed at the end, only for the items kept (most private items are dropped).
        self.raw.append(raw if raw is not None else sym.doc if sym is not None else "")
        return item

    def run(self) -> None:
        raw = module_doc(self.outline)
        rules = self.rules
        package_file = bool(rules.package_file) and PurePosixPath(self.rel).name == rules.package_file
        wanted = {"always": True, "documented": bool(raw) or package_file}.get(rules.module_item, False)
        if wanted and self.module:
            self.add(None, self.module, _last(self.module, self.sep), "module", self._module_public(), raw=raw)
        self.WALKERS[rules.items](self)

    def _module_public(self) -> bool:
        if self.rules.private_modules:
            return not any(p.startswith("_") and not p.startswith("__") for p in self.module.split("."))
        return True

    def _kind(self, sym: Symbol) -> str:
        word = KIND_WORDS.get(sym.kind, "variable")
        sig = sym.signature
        if self.rules.macro_prefix and sig.startswith(self.rules.macro_prefix):
            return "macro"
        if sig.startswith("#define"):
            return "macro" if sym.kind == SymbolKind.Function else "constant"
        return self.rules.kind_word(word)

    def _walk(self, syms: list[Symbol], prefix: str, public: bool, visible: object) -> None:
        """Generic descent: `visible(sym, parent_public)` decides each symbol's visibility."""
        for sym in syms:
            if sym.name == "__all__":
                continue
            pub = bool(visible(sym, public))  # type: ignore[operator]
            item_id = f"{prefix}{self.sep}{sym.name}" if prefix else sym.name
            self.add(sym, item_id, sym.name, self._kind(sym), pub, self._bases(sym))
            if sym.kind not in _FUNCTIONS:
                self._walk(sym.children, item_id, pub, visible)

    def _bases(self, sym: Symbol) -> list[str]:
        sig = sym.signature
        if sym.kind not in (SymbolKind.Class, SymbolKind.Struct, SymbolKind.Interface, SymbolKind.Enum):
            return []
        found: list[str] = []
        if self.rules.bases == "parentheses":
            inner = re.search(r"\((.*)\)", sig)
            if inner:
                for part in _split_top(inner.group(1)):
                    if "=" not in part and part.strip():
                        found.append(_last(_GENERICS.sub("", part.strip()).split("[")[0], "."))
            return found
        for keyword in ("extends", "implements", ":"):
            match = re.search(rf"(?:^|\s){re.escape(keyword)}\s+(.*)", sig)
            if match:
                rest = re.split(r"\s(?:implements|extends)\s|\{", match.group(1))[0]
                for part in _split_top(_GENERICS.sub("", rest)):
                    words = _WORD.findall(part.replace("public", "").replace("private", ""))
                    if words:
                        found.append(words[-1])
        return found

    # ------------------------------------------------- walkers (DocRules.items)

    def _underscore(self) -> None:
        names = python_all(self.text)

        def visible(sym: Symbol, parent: bool) -> bool:
            own = not sym.name.startswith("_") or (sym.name.startswith("__") and sym.name.endswith("__"))
            return parent and own

        for sym in self.outline.symbols:
            if sym.name == "__all__":
                continue
            public = (sym.name in names) if names is not None else visible(sym, True)
            item_id = f"{self.module}.{sym.name}"
            self.add(sym, item_id, sym.name, self._kind(sym), public, self._bases(sym))
            if sym.kind not in _FUNCTIONS:
                self._walk(sym.children, item_id, public, visible)

    def _pub(self) -> None:
        self._pub_walk(self.outline.symbols, self.module, True, in_trait=False)

    def _pub_walk(self, syms: list[Symbol], prefix: str, parent_public: bool, in_trait: bool) -> None:
        types: dict[str, Item] = {}
        for sym in syms:
            sig = sym.signature
            if sym.kind == SymbolKind.Object and sig.startswith("impl"):
                head = _GENERICS.sub("", _GENERICS.sub("", sig[4:]))
                trait, _, target = head.partition(" for ")
                target = target or trait
                type_name = _last(target.strip().split(" where ")[0].strip(), "::") or sym.name
                trait_name = _last(trait.strip(), "::") if target is not trait else ""
                owner = f"{prefix}::{type_name}"
                if trait_name and type_name in types:
                    self.bases[self.items.index(types[type_name])].append(trait_name)
                for child in sym.children:
                    pub = bool(trait_name) or child.signature.startswith("pub ")
                    self.add(
                        child,
                        f"{owner}::{child.name}",
                        child.name,
                        self._kind(child),
                        pub,
                        [trait_name] * bool(trait_name),
                    )
                continue
            if sym.kind == SymbolKind.Module and sym.body is None:
                continue  # `mod x;` declares a file of its own
            pub = in_trait or sig.startswith("pub ") or (parent_public and sym.kind == SymbolKind.EnumMember)
            if self._kind(sym) == "macro":
                pub = bool(sym.doc)
            item_id = f"{prefix}::{sym.name}"
            item = self.add(sym, item_id, sym.name, self._kind(sym), pub)
            if sym.kind in (SymbolKind.Struct, SymbolKind.Enum, SymbolKind.TypeParameter):
                types[sym.name] = item
            if sym.kind == SymbolKind.Module:
                item.module = prefix
                saved, self.module = self.module, item_id
                self._pub_walk(sym.children, item_id, pub, in_trait=False)
                self.module = saved
            elif sym.kind not in _FUNCTIONS:
                self._pub_walk(sym.children, item_id, pub, in_trait=sym.kind == SymbolKind.Interface and pub)

    def _capitalised(self) -> None:
        if self.rel.endswith("_test.go"):
            return

        def visible(sym: Symbol, parent: bool) -> bool:
            return parent and sym.name[:1].isupper()

        for sym in self.outline.symbols:
            if sym.kind == SymbolKind.Method and sym.scope:
                owner = sym.scope
                pub = visible(sym, owner[:1].isupper())
                self.add(sym, f"{self.module}.{owner}.{sym.name}", sym.name, "method", pub)
                continue
            kind = self._kind(sym)
            bases = self._bases(sym)
            self.add(sym, f"{self.module}.{sym.name}", sym.name, kind, visible(sym, True), bases)
            self._walk(sym.children, f"{self.module}.{sym.name}", visible(sym, True), visible)

    def _modifiers(self) -> None:
        def visible(sym: Symbol, parent: bool, in_interface: bool = False) -> bool:
            words = set(re.findall(r"\b(public|protected|private)\b", sym.signature.split("(")[0]))
            own = bool(words & {"public", "protected"}) or (in_interface and "private" not in words)
            return parent and (own or sym.kind == SymbolKind.EnumMember)

        def walk(syms: list[Symbol], prefix: str, parent: bool, interface: bool) -> None:
            for sym in syms:
                pub = visible(sym, parent, interface)
                item_id = f"{prefix}.{sym.name}" if prefix else sym.name
                self.add(sym, item_id, sym.name, self._kind(sym), pub, self._bases(sym))
                if sym.kind not in _FUNCTIONS:
                    walk(sym.children, item_id, pub, sym.kind == SymbolKind.Interface)

        walk(self.outline.symbols, self.module, True, False)

    def _exports(self) -> None:
        exported = js_exports(self.text)
        everything = self.rel.endswith(".d.ts")

        def member(sym: Symbol, parent: bool) -> bool:
            sig = sym.signature
            hidden = sym.name.startswith("#") or re.match(r"(?:static\s+)?(?:private|protected)\b", sig)
            return parent and not hidden

        for sym in self.outline.symbols:
            name = sym.name.removeprefix("module.exports.").removeprefix("exports.").replace(".prototype.", ".")
            root_name = re.split(r"[.\[]", name)[0]
            pub = (
                everything
                or sym.signature.startswith(("export ", "declare "))
                or sym.name.startswith(("module.exports", "exports."))
                or root_name in exported
            )
            item_id = f"{self.module}.{name}"
            self.add(sym, item_id, _last(name, "."), self._kind(sym), pub, self._bases(sym))
            if sym.kind not in _FUNCTIONS:
                self._walk(sym.children, item_id, pub, member)

    def _module_table(self) -> None:
        table = lua_module_table(self.outline.source.lines)
        locals_ = {s.name for s in self.outline.symbols if s.signature.startswith("local")}

        def member(sym: Symbol, parent: bool) -> bool:
            return parent

        if table is not None and table not in locals_:
            table = None  # `return vim`: the file extends a global, whose members keep their own names
        for sym in self.outline.symbols:
            name = sym.name.replace(":", ".")
            found = re.match(r"[A-Za-z_]\w*", name)
            head = found.group(0) if found else name
            rest = name[len(head) + 1 :] if name[len(head) : len(head) + 1] == "." else ""
            dot = bool(rest)
            if name == table:
                self._walk(sym.children, self.module, True, member)
                continue
            if head == table and dot:
                item_id, pub = f"{self.module}.{rest}", True
            elif head in locals_ or sym.signature.startswith("local"):
                item_id, pub = f"{self.module}.{name}", False
            else:
                item_id, pub = name, True  # a global (`function vim.paste()`)
            if not self.module:
                item_id = name
            self.add(sym, item_id, _last(name, "."), self._kind(sym), pub)
            if sym.kind not in _FUNCTIONS:
                self._walk(sym.children, item_id, pub, member)

    def _static(self) -> None:
        self._static_walk(self.outline.symbols, "", True)

    def _static_walk(self, syms: list[Symbol], prefix: str, parent: bool) -> None:
        for sym in syms:
            if sym.kind == SymbolKind.Constant and re.fullmatch(
                r"#define\s+\w+_(?:H|H_|HPP|INCLUDED)_*", sym.signature
            ):
                continue  # include guards
            if not sym.name:
                continue
            pub = parent and not (not prefix and sym.signature.startswith("static "))
            item_id = f"{prefix}::{sym.name}" if prefix else f"{self.module}.{sym.name}"
            self.add(sym, item_id, _last(sym.name, "::"), self._kind(sym), pub, self._bases(sym))
            if sym.kind not in _FUNCTIONS:
                inner = sym.name if (sym.kind == SymbolKind.Namespace and not prefix) else item_id
                self._static_walk(sym.children, inner, pub)

    def _sections(self) -> None:
        lines = self.outline.source.lines
        for sym in (s for top in self.outline.symbols for s in top.walk()):
            title = sym.name.lstrip("#").strip()
            start = sym.range.start.line + 1
            end = min([c.range.start.line for c in sym.children] or [sym.range.end.line + 1])
            body = "\n".join(lines[start:end]).strip()[:4000]
            item = self.add(sym, f"{self.module}#{slug(title)}", title, "section", True, raw=body)
            item.signature = sym.name

    def _everything(self) -> None:
        self._walk(self.outline.symbols, self.module, True, lambda sym, parent: parent)

    #: `DocRules.items` -> the walker that names a file's items and decides their visibility.
    WALKERS: ClassVar[dict[str, Callable[[_Builder], None]]] = {
        "everything": _everything,
        "underscore": _underscore,
        "pub": _pub,
        "capitalised": _capitalised,
        "modifiers": _modifiers,
        "exports": _exports,
        "module_table": _module_table,
        "static": _static,
        "sections": _sections,
    }


#: The `DocRules.items` walkers this module knows.
ITEM_RULES = frozenset(_Builder.WALKERS)


def _parent_module(item_id: str, sep: str) -> str:
    head, found, _ = item_id.rpartition(sep)
    return head if found else ""


def _last(name: str, sep: str) -> str:
    return name.rsplit(sep, 1)[-1] if sep in name else name


def _split_top(text: str) -> list[str]:
    """Split on commas outside brackets."""
    parts: list[str] = []
    cur: list[str] = []
    depth = 0
    for ch in text:
        if ch in "([{<":
            depth += 1
        elif ch in ")]}>":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return parts
