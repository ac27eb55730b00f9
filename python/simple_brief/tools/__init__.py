"""Every agent-facing tool, defined once: typed parameters in, text blocks plus data out.

A tool is a function whose signature is its contract, as in the MCP python-sdk: each
parameter after `call` is `Annotated[type, Doc("description")]`, `Literal[...]` for
choices, its default the Python default, `X | None = None` when it may be left out.
`@tool` reads that signature once; the CLI (`simple-brief run TOOL --param k=v`) and the
MCP server are adapters over this registry, so a tool behaves the same from every entry point.
"""

from __future__ import annotations

import importlib
import inspect
import threading
import types
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, Union, get_args, get_origin, get_type_hints

from simple_brief.defaults import DEFAULT_BUDGET_TOKENS
from simple_brief.editor import DiskBackend, EditorBackend
from simple_brief.editor.review import ClientMarks, Proposals
from simple_brief.errors import EXCERPT_CHARS, UserError, excerpt
from simple_brief.files.config import Config
from simple_brief.files.config import load as load_config
from simple_brief.files.workspace import Workspace
from simple_brief.intel import ServerPoolFactory
from simple_brief.model import ProgressFn

#: Modules whose import registers tools, in listing order.
TOOL_MODULES = (
    "simple_brief.tools.read",
    "simple_brief.tools.lsp",
    "simple_brief.tools.refactor",
    "simple_brief.tools.docs",
    "simple_brief.tools.workspace",
    "simple_brief.tools.tasks",
    "simple_brief.tools.coverage",
    "simple_brief.tools.profile",
    "simple_brief.tools.debug",
    "simple_brief.tools.edit",
    "simple_brief.tools.system",
)

#: Where each tool is defined, so running one imports its module only (a cold CLI
#: `outline` does not import the docs index). `tests/engine/test_tools.py` checks it.
TOOL_HOMES: dict[str, str] = {
    **dict.fromkeys(
        ("simple_read", "expand_at", "document_symbols", "search", "diagnostics"), "simple_brief.tools.read"
    ),
    "analyze": "simple_brief.tools.lsp",
    "refactor": "simple_brief.tools.refactor",
    "docs": "simple_brief.tools.docs",
    **dict.fromkeys(
        (
            "files_apply_overlay",
            "files_remove_overlay",
            "workspace_open",
            "workspace_close",
            "workspace_files",
            "workspace_symbols",
        ),
        "simple_brief.tools.workspace",
    ),
    **dict.fromkeys(
        ("build_compile", "build_check", "build_clean", "test_list", "test_run"),
        "simple_brief.tools.tasks",
    ),
    "test_coverage": "simple_brief.tools.coverage",
    **dict.fromkeys(("profile_run", "profile_report", "profile_hotspots"), "simple_brief.tools.profile"),
    **dict.fromkeys(
        (
            "debug_launch",
            "debug_breakpoints",
            "debug_continue",
            "debug_step",
            "debug_pause",
            "debug_stack",
            "debug_variables",
            "debug_evaluate",
            "debug_terminate",
            "debug_sessions",
        ),
        "simple_brief.tools.debug",
    ),
    **dict.fromkeys(("edit_propose", "edit_status", "changes_since", "editor_show"), "simple_brief.tools.edit"),
    **dict.fromkeys(("server_status", "editor_get_context"), "simple_brief.tools.system"),
}

#: Tools whose answer shows a file's text (its `path`): a call of one by an MCP session moves
#: that session's read mark of the file to the text it read (`editor.review.ReadMarks`).
READING_TOOLS = frozenset({"simple_read", "expand_at"})

#: Tools folded into another one's parameter (issue 18: every listed tool costs the agent
#: tokens on every turn): old name -> (the tool, the parameters that give the old answer,
#: FILE and ID standing for the caller's own).
#: Calling an old name answers one sentence naming the new call, not "no such tool".
RENAMED: dict[str, tuple[str, dict[str, str]]] = {
    "analyze_parse": ("diagnostics", {"path": "FILE", "only": "parse"}),
    "analyze_typecheck": ("diagnostics", {"path": "FILE", "only": "types"}),
    "analyze_lint": ("diagnostics", {"path": "FILE", "only": "lint"}),
    "docs_examples": ("docs", {"action": "get", "id": "ID", "part": "examples"}),
    "docs_related": ("docs", {"action": "get", "id": "ID", "part": "related"}),
    # issue 30: the fixed cost of a session below 2,400 tokens.
    "analyze_hover": ("analyze", {"what": "hover", "path": "FILE", "line": "N", "col": "N"}),
    "analyze_definition": ("analyze", {"what": "definition", "path": "FILE", "line": "N", "col": "N"}),
    "analyze_references": ("analyze", {"what": "references", "path": "FILE", "line": "N", "col": "N"}),
    "analyze_calls": ("analyze", {"what": "callers", "path": "FILE", "line": "N", "col": "N"}),
    "analyze_completion": ("analyze", {"what": "completion", "path": "FILE", "line": "N", "col": "N"}),
    "diagnostic_explain": ("diagnostics", {"explain": "CODE"}),
    "refactor_rename": ("refactor", {"action": "rename", "path": "FILE", "line": "N", "col": "N", "new_name": "NAME"}),
    "refactor_extract": (
        "refactor",
        {"action": "extract_function", "path": "FILE", "line": "N", "col": "N", "end_line": "N", "end_col": "N"},
    ),
    "format_document": ("refactor", {"action": "format", "path": "FILE"}),
    "logs": ("server_status", {"logs": "info"}),
    "docs_search": ("docs", {"action": "search", "query": "WORDS"}),
    "docs_get": ("docs", {"action": "get", "id": "ID"}),
    "docs_list": ("docs", {"action": "list", "module": "MODULE"}),
    "docs_resolve": ("docs", {"action": "resolve", "query": "NAME"}),
    "docs_index": ("docs", {"action": "index", "library": "LIBRARY"}),
}
#: What else an old name's sentence says, where the old tool had a mode the new call spells otherwise.
RENAMED_NOTES = {
    "analyze_calls": "what=callees for direction=outgoing",
    "refactor_extract": "action=extract_variable for kind=variable",
}


_REQUIRED = object()
#: The parameter types a tool may declare, as JSON-schema types.
_JSON_TYPES: dict[type, str] = {str: "string", int: "integer", bool: "boolean", float: "number"}
#: Unknown parameter names an error lists before saying how many more there are.
_NAMES_SHOWN = 5


class Cancelled(Exception):
    """The call was abandoned (the MCP client cancelled it or went away): stop working.

    Not a UserError: nobody waits for the answer, and a tool's `except UserError` must
    not swallow it.
    """

    def __init__(self) -> None:
        super().__init__("the call was cancelled; nothing waits for its answer.")


@dataclass(frozen=True)
class Doc:
    """A tool parameter's description, for its schema and its errors:
    `line: Annotated[int, Doc("1-based line, as Neovim shows it.")]`."""

    text: str


@dataclass(frozen=True)
class Param:
    """One parameter as `@tool` reads it from the signature: its JSON type, description,
    default and choices (never written by hand)."""

    name: str
    type: type
    description: str
    default: Any = _REQUIRED
    choices: tuple[str, ...] = ()

    @property
    def required(self) -> bool:
        """Whether the caller must give it."""
        return self.default is _REQUIRED

    def json_schema(self) -> dict[str, Any]:
        """The parameter's JSON-schema property."""
        kind = _JSON_TYPES[self.type]
        schema: dict[str, Any] = {"type": kind, "description": self.description}
        if self.choices:
            schema["enum"] = list(self.choices)
        if not self.required and self.default is not None:
            schema["default"] = self.default
        return schema


@dataclass
class ToolResult:
    """What a tool returns: text content blocks for the agent, structured data alongside."""

    blocks: list[str]
    data: dict[str, Any] = field(default_factory=dict)

    @property
    def text(self) -> str:
        """All blocks as one text, blank-line separated."""
        return "\n\n".join(self.blocks)


@dataclass
class OpenedWorkspaces:
    """Workspaces opened with `workspace_open`, by id (`ws1`, `ws2`, …: never reused), under `lock`."""

    by_id: dict[str, Workspace] = field(default_factory=dict)
    issued: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def all(self) -> list[Workspace]:
        """The opened workspaces, in the order they were opened."""
        with self.lock:
            return list(self.by_id.values())


@dataclass
class Session:
    """One workspace's long-lived objects as the tools use them: the host keeps one per
    workspace (`simple_brief.host.state.WorkspaceState`), created empty and filled by the
    features on first use, each under its own lock (calls run on worker threads at once,
    and two of them must not each start the servers).

    Attributes:
        server_pool: what starts the language servers in disk mode (`simple_brief.lsp.pool.
            ServerPool`), handed to the host when it is built; None: no servers.
        language_servers: the servers `server_pool` started, under `servers_lock`.
        opened: workspaces opened with `workspace_open` (`OpenedWorkspaces`).
        debug: debug sessions (`simple_brief.debug.sessions.Sessions`), under `debug_lock`.
    """

    server_pool: ServerPoolFactory | None = None
    language_servers: Any = None
    opened: OpenedWorkspaces = field(default_factory=OpenedWorkspaces)
    debug: Any = None
    #: Why the workspace config's programs are not used (`config.Config.untrusted`), if so.
    untrusted: str | None = None
    servers_lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)
    debug_lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def close(self) -> None:
        """Stop what the session started (debug sessions and their processes, language
        servers) and forget the opened workspaces. (The docs index is its file store's, the
        symbol index's: `index.docs_index`; the host closes them together.)"""
        with self.debug_lock:
            debug, self.debug = self.debug, None
        with self.servers_lock:
            servers, self.language_servers = self.language_servers, None
        with self.opened.lock:
            self.opened.by_id.clear()
        for thing in (debug, servers):
            if thing is not None:
                thing.close()


@dataclass
class Call:
    """What a tool call runs against: the workspace (as this call sees it: its editor's
    unsaved buffers over the files), the token budget, the editor (the disk backend when
    none is attached), the workspace's long-lived objects (`session`), the workspace
    config read once for the call, and where to report progress."""

    workspace: Workspace
    budget: int = DEFAULT_BUDGET_TOKENS
    editor: EditorBackend = field(default_factory=DiskBackend)
    session: Session = field(default_factory=Session)
    progress: ProgressFn | None = None
    #: Set by the adapter when nobody waits for the answer any more (MCP cancel, disconnect).
    cancelled: threading.Event = field(default_factory=threading.Event)
    #: The toolsets of the server the call came through; None: every toolset.
    toolsets: tuple[str, ...] | None = None
    #: This call's own `workspace_open` workspaces (a daemon's call, as a standalone run: none
    #: kept from earlier calls); None: the session's.
    own_opened: OpenedWorkspaces | None = None
    #: The workspace config (`files.config.load`), read once per call: the host reads it
    #: before the call; a Call made without one reads it on first use.
    loaded_config: Config | None = None
    #: The read marks of the MCP session making the call (None: the command line keeps none).
    marks: ClientMarks | None = None
    #: The workspace's proposals sent to the person's review (`edit_propose`).
    proposals: Proposals = field(default_factory=Proposals)

    @property
    def config(self) -> Config:
        """The workspace config of this call (read at most once).

        Raises:
            UserError: a config file is not valid TOML or breaks the schema.
        """
        if self.loaded_config is None:
            self.loaded_config = load_config(self.workspace.root)
        return self.loaded_config

    @property
    def opened(self) -> OpenedWorkspaces:
        """The workspaces opened with `workspace_open` this call sees."""
        return self.own_opened if self.own_opened is not None else self.session.opened

    def check_cancelled(self) -> None:
        """Stop here if the call was abandoned: long loops call this once per item.

        Raises:
            Cancelled: the adapter set `cancelled`.
        """
        if self.cancelled.is_set():
            raise Cancelled

    def report(self, done: float, total: float | None, message: str) -> None:
        """Report progress, if anyone listens; a long loop reporting progress stops here
        when the call was abandoned.

        Raises:
            Cancelled: the adapter set `cancelled`.
        """
        self.check_cancelled()
        if self.progress is not None:
            self.progress(done, total, message)


@dataclass(frozen=True)
class Tool:
    """A tool: name, toolset, description (when to use it and when not), parameters, function.

    `params` and `signature` are read from the function's signature by `@tool`.
    """

    name: str
    toolset: str
    description: str
    params: tuple[Param, ...]
    func: Callable[..., ToolResult]
    read_only: bool = True
    system: bool = False
    #: Whether a tool that changes state may destroy something (MCP `destructiveHint`):
    #: false for the overlay tools, which never touch a file.
    destructive: bool = True
    #: The function's parameters after `call`, each annotation resolved to
    #: `Annotated[type, Doc(...)]` (type: a JSON type or a Literal, `| None` if optional).
    signature: inspect.Signature = field(default_factory=inspect.Signature)

    def input_schema(self) -> dict[str, Any]:
        """JSON schema of the arguments object."""
        return {
            "type": "object",
            "properties": {p.name: p.json_schema() for p in self.params},
            "required": [p.name for p in self.params if p.required],
            "additionalProperties": False,
        }


REGISTRY: dict[str, Tool] = {}


def tool(
    name: str,
    toolset: str,
    description: str,
    *,
    read_only: bool = True,
    system: bool = False,
    destructive: bool = True,
) -> Callable[[Callable[..., ToolResult]], Callable[..., ToolResult]]:
    """Register `func(call, **args)` as a tool, its parameters read from its signature.

    Raises:
        TypeError: a parameter without `Doc`, of a type other than str, int, bool, float
            or a Literal of strings, optional without the default None, or with a default
            of another type or outside its choices.
    """

    def register(func: Callable[..., ToolResult]) -> Callable[..., ToolResult]:
        signature = declared_signature(func)
        params = tuple(_param(p, f"tool `{name}`") for p in signature.parameters.values())
        REGISTRY[name] = Tool(
            name, toolset, description, params, func, read_only, system, destructive, signature=signature
        )
        return func

    return register


def declared_signature(func: Callable[..., Any]) -> inspect.Signature:
    """`func`'s parameters after the first (`call`), each annotation resolved and written
    `Annotated[type, Doc(...)]` with `| None` inside, however the declaration nests them."""
    hints = get_type_hints(func, include_extras=True)
    own = list(inspect.signature(func).parameters.values())[1:]
    params = []
    for p in own:
        base, docs, optional = _unpack(hints.get(p.name, p.annotation))
        annotation = base | None if optional else base
        params.append(p.replace(annotation=Annotated[annotation, *docs] if docs else annotation))
    return inspect.Signature(params, return_annotation=hints.get("return", inspect.Signature.empty))


def _unpack(hint: Any) -> tuple[Any, list[Doc], bool]:
    """(the type without Annotated and None, the Doc markers, whether None is allowed)."""
    if get_origin(hint) is Annotated:
        inner, *extras = get_args(hint)
        base, docs, optional = _unpack(inner)
        return base, [*docs, *(e for e in extras if isinstance(e, Doc))], optional
    if get_origin(hint) in (Union, types.UnionType) and type(None) in get_args(hint):
        rest = [a for a in get_args(hint) if a is not type(None)]
        if len(rest) == 1:
            base, docs, _ = _unpack(rest[0])
            return base, docs, True
    return hint, [], False


def _param(p: inspect.Parameter, where: str) -> Param:
    """The registry's record of one declared parameter (see `declared_signature`)."""
    base, docs, optional = _unpack(p.annotation)
    choices: tuple[str, ...] = ()
    if get_origin(base) is Literal:
        choices = get_args(base)
        base = str
    default = _REQUIRED if p.default is inspect.Parameter.empty else p.default
    if len(docs) != 1:
        raise TypeError(f"{where}: parameter `{p.name}` needs one description: Annotated[type, Doc(...)].")
    if base not in _JSON_TYPES or not all(isinstance(c, str) for c in choices):
        raise TypeError(f"{where}: parameter `{p.name}` must be str, int, bool, float or a Literal of strings.")
    if optional != (default is None):
        raise TypeError(f"{where}: parameter `{p.name}` is optional exactly when it is `X | None = None`.")
    if p.kind not in (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY):
        raise TypeError(f"{where}: parameter `{p.name}` must be passable by name.")
    param = Param(p.name, base, docs[0].text, default, choices)
    if default not in (_REQUIRED, None):
        try:
            fits = coerce(param, default) == default and type(default) is base
        except UserError:
            fits = False
        if not fits:
            raise TypeError(f"{where}: the default of `{p.name}` is not one of its values: {default!r}.")
    return param


def load() -> dict[str, Tool]:
    """The registry with every tool module imported."""
    for module in TOOL_MODULES:
        importlib.import_module(module)
    return REGISTRY


def listed(toolsets: Iterable[str] | None) -> list[Tool]:
    """The tools a server with these toolsets lists: theirs and the system tools (None: all)."""
    chosen = None if toolsets is None else set(toolsets)
    return [t for t in load().values() if chosen is None or t.system or t.toolset in chosen]


def name_of(text: str) -> str:
    """A name or selector a caller gave, for a message: `text` in backticks, or an
    excerpt (`errors.excerpt`) when it is long, multi-line or holds odd characters."""
    plain = len(text) <= EXCERPT_CHARS and text.isprintable() and "`" not in text
    return f"`{text}`" if plain else excerpt(text)


def get(name: str, toolsets: Iterable[str] | None = None) -> Tool:
    """A tool by name (among those listed for `toolsets`; None: all).

    Raises:
        UserError: no such tool (the message lists the tools there are), or a tool folded
            into another (`RENAMED`: the message names the call that replaces it).
    """
    if name in RENAMED:
        from simple_brief.tools.hints import command

        new, params = RENAMED[name]
        note = f"; {RENAMED_NOTES[name]}" if name in RENAMED_NOTES else ""
        raise UserError(f"`{name}` is now {command(new, **params)} (same answer{note}).")
    home = TOOL_HOMES.get(name)
    if home is not None:
        importlib.import_module(home)
        found = REGISTRY.get(name)
        if found is not None and (toolsets is None or found.system or found.toolset in set(toolsets)):
            return found
    tools = {t.name: t for t in listed(toolsets)}
    if name not in tools:
        raise UserError(f"there is no tool {name_of(name)}; the tools are: {', '.join(sorted(tools))}.")
    return tools[name]


def _shown(value: Any) -> str:
    """A JSON value as an error message names it."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list | tuple):
        return "a list"
    return excerpt(value)


def coerce(param: Param, value: Any) -> Any:
    """A CLI string or JSON value as the parameter's type, or one sentence saying why not.

    A huge or multi-line value is named by a short excerpt (`errors.excerpt`).
    """
    if value is None and not param.required and param.default is None:
        return None
    try:
        if value is None or isinstance(value, dict | list | tuple):
            raise TypeError(value)
        if param.type is bool:
            if isinstance(value, bool):
                result: Any = value
            elif str(value).lower() in ("1", "true", "yes", "on"):
                result = True
            elif str(value).lower() in ("0", "false", "no", "off"):
                result = False
            else:
                raise ValueError(value)
        elif param.type is int:
            if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
                raise ValueError(value)
            result = int(value)
        elif param.type is float:
            if isinstance(value, bool):
                raise ValueError(value)
            result = float(value)
        else:
            if isinstance(value, bool):
                raise ValueError(value)
            result = str(value)
    except (TypeError, ValueError, OverflowError):
        kind = {bool: "true or false", int: "a whole number", float: "a number"}.get(param.type, "text")
        raise UserError(f"parameter `{param.name}` must be {kind}, not {_shown(value)}.") from None
    if param.choices and result not in param.choices:
        raise UserError(f"parameter `{param.name}` must be one of {', '.join(param.choices)}, not {_shown(result)}.")
    return result


def check_arguments(spec: Tool, args: dict[str, Any]) -> dict[str, Any]:
    """The arguments a caller gave, each as its parameter's type (defaults not filled in).

    Raises:
        UserError: an unknown parameter, a missing or mistyped argument: one sentence
            naming the parameter.
    """
    known = {p.name: p for p in spec.params}
    unknown = sorted(set(args) - set(known))
    if unknown:
        names = ", ".join(
            n if n.isidentifier() and len(n) <= EXCERPT_CHARS else excerpt(n) for n in unknown[:_NAMES_SHOWN]
        )
        more = f" and {len(unknown) - _NAMES_SHOWN} more" if len(unknown) > _NAMES_SHOWN else ""
        listed_params = ", ".join(known) or "none"
        raise UserError(f"`{spec.name}` has no parameter {names}{more}; its parameters are: {listed_params}.")
    checked: dict[str, Any] = {}
    for p in spec.params:
        if p.name in args:
            checked[p.name] = coerce(p, args[p.name])
        elif p.required:
            raise UserError(f"`{spec.name}` needs the parameter `{p.name}` ({p.description}).")
    return checked


def invoke(name: str, args: dict[str, Any], call: Call) -> ToolResult:
    """Check `args` against the tool's parameters and run it.

    Raises:
        UserError: unknown tool or parameter, a missing or mistyped argument, or the
            tool's own refusal (bad path, unknown symbol, ...).
        Cancelled: the call was abandoned before or while it ran.
    """
    spec = get(name)
    checked = check_arguments(spec, args)
    kwargs = {p.name: checked.get(p.name, p.default) for p in spec.params}
    call.check_cancelled()
    return spec.func(call, **kwargs)
