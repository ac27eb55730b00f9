"""What a file says about its module, per language: the module id (`pkg.mod`,
`crate::mod`, `vim.lsp.buf`, Go and Java packages), what it exports (`__all__`, a Lua
module table, JavaScript exports), what it imports, and the module's own doc.

Which convention applies is the language unit's `DocRules` (`simple_brief/languages/`):
`module_id`, `imports`/`import_target` and `module_doc` name the implementations here.
"""

from __future__ import annotations

import os
import re
from pathlib import Path, PurePosixPath

from simple_brief.errors import UserError
from simple_brief.files.beneath import read_beneath
from simple_brief.languages import docs_rules
from simple_brief.scan import Outline, clean_docstring

#: A Cargo.toml larger than this is not read for the crate's name.
MAX_MANIFEST_BYTES = 256 * 1024

#: Python layout roots that are not package names (`src/pkg`, `python/pkg`, `lib/pkg`).
LAYOUT_ROOTS = frozenset({"src", "python", "lib"})

_PY_ALL = re.compile(r"^__all__\s*(?:\+?=|:[^=]*=)\s*[\[(]([^\]\)]*)[\])]", re.M)

_PY_STRING = re.compile(r"""['"]([A-Za-z_]\w*)['"]""")

_LUA_RETURN = re.compile(r"^return\s+([A-Za-z_]\w*)\s*;?\s*$")

_GO_PACKAGE = re.compile(r"^package\s+(\w+)", re.M)

#: `package a.b;` (Java), `package a.b` (Kotlin, Scala: no semicolon).
_JAVA_PACKAGE = re.compile(r"^[ \t]*package[ \t]+([\w.]+)[ \t]*;?[ \t]*$", re.M)

_JS_EXPORT_LIST = re.compile(r"\bexport\s*(?:type\s*)?\{([^}]*)\}")

_JS_EXPORT_DEFAULT = re.compile(r"\bexport\s+default\s+([A-Za-z_$][\w$]*)\s*;?\s*$", re.M)

_JS_MODULE_EXPORTS = re.compile(r"\bmodule\.exports\s*=\s*(\{[^}]*\}|[A-Za-z_$][\w$]*)")

_SLUG = re.compile(r"[^\w\- ]+")

#: The `DocRules.module_id` conventions `module_id` knows.
MODULE_IDS = frozenset(
    {"path", "index_path", "packages", "lua_path", "crate", "package_clause", "package_statement", "file"}
)

#: The `DocRules.import_target` forms `imports_of` knows.
IMPORT_TARGETS = frozenset({"", "parent", "last_path_part", "relative_path", "from_import"})

#: The `DocRules.module_doc` places `module_doc` knows.
MODULE_DOCS = frozenset({"block", "package_block", "docstring", "inner_lines", "package_comment", "dash_block"})


def module_id(rel: str, language: str, root: Path | None = None, library: str = "workspace", text: str = "") -> str:
    """The module id of the file at `rel` (POSIX, relative to the library's root).

    Args:
        rel: the path relative to the root.
        language: the language name (a Neovim filetype).
        root: the root on disk (Python walks `__init__.py` packages, Rust reads Cargo.toml).
        library: `workspace` or a library name (libraries' roots are import roots).
        text: the file's text (Go and Java take their package from it).
    """
    path = PurePosixPath(rel)
    parts = list(path.parts)
    stem = path.stem
    rule = docs_rules(language).module_id
    if rule == "packages":
        return _python_module(path, root, library)
    if rule == "lua_path":
        if "lua" in parts[:-1]:
            cut = len(parts) - 1 - parts[::-1].index("lua", 1)
            parts = parts[cut + 1 :]
        parts[-1] = PurePosixPath(parts[-1]).stem
        if parts[-1] == "init" and len(parts) > 1:
            parts.pop()
        return ".".join(parts)
    if rule == "crate":
        return _rust_module(path, root)
    if rule == "package_clause":
        found = _GO_PACKAGE.search(text)
        return found.group(1) if found else path.parent.name or stem
    if rule == "package_statement":
        found = _JAVA_PACKAGE.search(text)
        return found.group(1) if found else ""
    if rule == "file":
        return rel
    base = str(path.with_name(stem.removesuffix(".d")))
    if rule == "index_path" and path.stem in ("index", "index.d"):
        base = str(path.parent) if str(path.parent) != "." else "index"
    return base


def _python_module(path: PurePosixPath, root: Path | None, library: str) -> str:
    parts = list(path.with_suffix("").parts)
    if library == "workspace" and root is not None:
        # The import root is the first folder above the file that is not a package.
        depth = 0
        folder = root.joinpath(*path.parts[:-1])
        while depth < len(parts) - 1 and (folder / "__init__.py").exists():
            depth += 1
            folder = folder.parent
        if depth:
            parts = parts[len(parts) - 1 - depth :]
        elif len(parts) > 1 and parts[0] in LAYOUT_ROOTS:
            parts = parts[1:]
    elif root is not None and (root / "__init__.py").exists():
        parts = [root.name, *parts]  # a library folder that is itself a package
    if parts and parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts) or path.stem


def _rust_module(path: PurePosixPath, root: Path | None) -> str:
    parts = list(path.parts)
    if "src" in parts:
        cut = len(parts) - 1 - parts[::-1].index("src")
        crate = _crate_name(root, parts[:cut])
        rest = parts[cut + 1 :]
        rest[-1] = PurePosixPath(rest[-1]).stem
        if rest[-1] == "mod" or (len(rest) == 1 and rest[0] in ("lib", "main")):
            rest.pop()
        return "::".join([crate, *rest])
    return "::".join([*parts[:-1], path.stem])


def _crate_name(root: Path | None, parts: list[str]) -> str:
    """The package name in Cargo.toml next to `src/` (`-` -> `_`), else the folder's name, else
    `crate`; the manifest is read beneath `root` without following a symlink."""
    if root is not None:
        try:
            raw = read_beneath(root, PurePosixPath(*parts, "Cargo.toml"), MAX_MANIFEST_BYTES)
            text = raw.decode("utf-8", errors="replace")
        except (UserError, OSError):
            text = ""
        found = re.search(r'^\s*name\s*=\s*"([^"]+)"', text, re.M)
        if found:
            return found.group(1).replace("-", "_")
    return parts[-1].replace("-", "_") if parts else "crate"


def slug(title: str) -> str:
    """A GitHub-style heading anchor: lower case, punctuation dropped, spaces to `-`."""
    return _SLUG.sub("", title.lower()).strip().replace(" ", "-")


def python_all(text: str) -> set[str] | None:
    """The names in a module's `__all__` (every `=`/`+=` at the top level), or None."""
    found = _PY_ALL.findall(text)
    if not found:
        return None
    return {name for chunk in found for name in _PY_STRING.findall(chunk)}


def lua_module_table(lines: list[str]) -> str | None:
    """The name a Lua file returns at its end (`return M`), if any."""
    for line in reversed(lines):
        stripped = line.strip()
        if not stripped or stripped.startswith("--"):
            continue
        found = _LUA_RETURN.match(stripped)
        return found.group(1) if found else None
    return None


def js_exports(text: str) -> set[str]:
    """Names a JS/TS file exports with `export { a, b as c }`, `export default X`, `module.exports = …`."""
    names: set[str] = set()
    for chunk in _JS_EXPORT_LIST.findall(text):
        for part in chunk.split(","):
            words = part.split()
            if words:
                names.add(words[-1] if words[0] == "type" and len(words) > 1 else words[0])
    names.update(_JS_EXPORT_DEFAULT.findall(text))
    for value in _JS_MODULE_EXPORTS.findall(text):
        names.update(re.findall(r"[A-Za-z_$][\w$]*", value))
    return names


def imports_of(text: str, language: str, rel: str = "") -> list[str]:
    """Module ids a file imports, as written (relative JS imports resolved against `rel`)."""
    rules = docs_rules(language)
    if not rules.imports:
        return []
    out: list[str] = []
    target = rules.import_target
    for match in re.finditer(rules.imports, text):
        groups = [g for g in match.groups() if g]
        if target == "from_import":
            if match.group(1):
                base = match.group(1)
                out.append(base)
                names = re.findall(r"\w+", match.group(2) or "")
                out.extend(f"{base}.{n}" for n in names if n != "as")
            else:
                out.extend(p.split(" as ")[0].strip() for p in (match.group(3) or "").split(","))
        elif target == "parent":
            out.append(groups[0].rsplit(rules.separator, 1)[0])
        elif target == "last_path_part":
            out.append(groups[0].rsplit("/", 1)[-1])
        elif target == "relative_path":
            name = groups[0]
            if name.startswith("."):
                joined = os.path.normpath(os.path.join(os.path.dirname(rel), name))
                name = re.sub(r"\.(?:[cm]?[jt]sx?)$", "", joined).replace(os.sep, "/")
            out.append(name)
        else:
            out.append(groups[0])
    return list(dict.fromkeys(o for o in out if o))


def module_doc(outline: Outline) -> str:
    """The raw module doc of a file where its language's `DocRules.module_doc` says: Python's
    module docstring, Rust `//!` lines, Go's package comment, a Lua file's leading `---` block,
    a leading `/** … */` block (with `@module`, `@file` or `@fileoverview`, or followed by a
    blank line) in JS/TS/C/C++/Java."""
    tree = outline.tree
    if tree is None:
        return ""
    root = tree.root_node
    source = outline.source
    rule = outline.language.docs.module_doc
    children = root.children
    if rule == "docstring":
        for child in children:
            if child.type == "comment":
                continue
            if child.type == "expression_statement" and child.named_child_count:
                first = child.named_child(0)
                if first is not None and first.type == "string":
                    return clean_docstring(source.slice_bytes(first.start_byte, first.end_byte))
            return ""
        return ""
    if rule == "inner_lines":
        lines = []
        for line in source.lines:
            stripped = line.strip()
            if stripped.startswith("//!"):
                lines.append(stripped[3:].removeprefix(" "))
            elif stripped and not stripped.startswith("//") and not stripped.startswith("#!["):
                break
        return "\n".join(lines).strip()
    comments: list[str] = []
    for child in children:
        if "comment" not in child.type:
            break
        comments.append(source.slice_bytes(child.start_byte, child.end_byte))
        last = child
    if not comments:
        return ""
    following = children[len(comments)] if len(comments) < len(children) else None
    gap = following is None or following.start_point[0] > last.end_point[0] + 1
    text = "\n".join(comments)
    if rule == "package_comment":
        if following is not None and following.type == "package_clause" and not gap:
            return _strip_comment(text)
        return ""
    if rule == "dash_block":
        if not text.lstrip().startswith("---"):
            return ""
        marked = re.search(r"@(?:brief|mod|module)\b", text)
        if not (marked or gap):
            return ""
        return re.sub(r"^\s*@(?:brief|mod|module)\b[^\n]*\n?", "", _strip_comment(text), count=1).strip()
    block = comments[0] if comments[0].lstrip().startswith("/**") else ""
    if not block:
        return ""
    marked = re.search(r"@(?:module|file|fileoverview|package)\b", block)
    package = rule == "package_block"
    if marked or (gap and len(comments) == 1) or (package and following is not None):
        if package and not marked and following is not None and following.type != "package_declaration":
            return ""
        cleaned = _strip_comment(block)
        return re.sub(r"^\s*@(?:module|file|fileoverview)\b[^\n]*\n?", "", cleaned, count=1).strip()
    return ""


_COMMENT_PREFIX = re.compile(r"^\s*(?:/\*\*?|\*/|\*(?!/)|///?!?|---?|//)\s?")


def _strip_comment(text: str) -> str:
    lines = [_COMMENT_PREFIX.sub("", ln).rstrip().removesuffix("*/").rstrip() for ln in text.splitlines()]
    return "\n".join(lines).strip()
