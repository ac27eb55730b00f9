"""The documentation model every language's doc comments are normalised to (seed 004)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class DocParam:
    """A documented parameter (or a raised exception: `name` is then the exception type)."""

    name: str
    type: str = ""
    doc: str = ""


@dataclass
class DocReturn:
    """What a function returns."""

    type: str = ""
    doc: str = ""


@dataclass
class Example:
    """A code example: fenced code or a doctest (`>>>`), with the prose that introduced it.

    Attributes:
        code: the example's code (doctest prompts kept as written).
        description: the text right before it, if any.
        language: the fence's language tag, else the documented item's language.
    """

    code: str
    description: str = ""
    language: str = ""


@dataclass
class DocComment:
    """One doc comment or docstring, normalised.

    Attributes:
        summary: the first sentence.
        body: the whole text with tags removed, Markdown kept.
        params: `@param` / Args: / Parameters entries.
        returns: `@returns` / Returns: entry.
        raises: `@throws` / Raises: entries.
        examples: fenced code blocks, `@example` blocks and doctests.
        see_also: `@see` targets as written.
    """

    summary: str = ""
    body: str = ""
    params: list[DocParam] = field(default_factory=list)
    returns: DocReturn | None = None
    raises: list[DocParam] = field(default_factory=list)
    examples: list[Example] = field(default_factory=list)
    see_also: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (what `dataclasses.asdict` gives, built directly: it is in every
        item's row, and `asdict`'s deep copies were a third of writing one)."""
        returns = self.returns
        return {
            "summary": self.summary,
            "body": self.body,
            "params": [_param(p) for p in self.params],
            "returns": None if returns is None else {"type": returns.type, "doc": returns.doc},
            "raises": [_param(p) for p in self.raises],
            "examples": [{"code": e.code, "description": e.description, "language": e.language} for e in self.examples],
            "see_also": list(self.see_also),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> DocComment:
        """Inverse of `to_dict`."""
        returns = data.get("returns")
        return cls(
            summary=data.get("summary", ""),
            body=data.get("body", ""),
            params=[DocParam(**p) for p in data.get("params", [])],
            returns=DocReturn(**returns) if returns else None,
            raises=[DocParam(**p) for p in data.get("raises", [])],
            examples=[Example(**e) for e in data.get("examples", [])],
            see_also=list(data.get("see_also", [])),
        )


def _param(param: DocParam) -> dict[str, str]:
    return {"name": param.name, "type": param.type, "doc": param.doc}


@dataclass
class Item:
    """One documented item of the index.

    Attributes:
        id: the qualified id in the language's own notation: `pkg.mod.Class.method`
            (Python), `crate::mod::Type::method` (Rust), `vim.lsp.buf.hover` (Lua),
            `pkg.Type.Method` (Go), `pkg.Class.method` (Java), `dir/file.name` (JS/TS).
        name: the item's own name (last part of the id).
        kind: `module`, `function`, `method`, `class`, `struct`, `enum`, `interface`,
            `type`, `trait`, `constant`, `field`, `variable`, `section` …
        module: the id of the module the item is in ('' for a module of no parent).
        language: the language name (a Neovim filetype).
        path: the file, relative to the library's root (POSIX).
        line: 1-based line of the definition.
        signature: the declaration up to the body.
        doc: the parsed doc comment.
        public: visible outside its module by the language's rules.
        library: `workspace`, or the name of an indexed library (`python`, `nvim` …).
    """

    id: str
    name: str
    kind: str
    module: str
    language: str
    path: str
    line: int
    signature: str = ""
    doc: DocComment = field(default_factory=DocComment)
    public: bool = True
    library: str = "workspace"
