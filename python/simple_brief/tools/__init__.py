"""Every agent-facing tool, defined once: typed parameters in, text blocks plus data out.

The CLI (`simple-brief run TOOL --param k=v`) and the MCP server are adapters over
this registry, so a tool behaves the same from every entry point.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from simple_brief.editor import DiskBackend, EditorBackend
from simple_brief.errors import UserError
from simple_brief.render.budget import DEFAULT_BUDGET_TOKENS
from simple_brief.workspace import Workspace

#: Modules whose import registers tools, in listing order.
TOOL_MODULES = (
    "simple_brief.tools.read",
    "simple_brief.tools.lsp",
    "simple_brief.tools.refactor",
    "simple_brief.tools.docs",
    "simple_brief.tools.workspace",
    "simple_brief.tools.system",
)

#: `progress(done, total, message)`: how far a long call is (MCP progress notifications,
#: the CLI's progress bar). `total` is None when unknown.
ProgressFn = Callable[[float, "float | None", str], None]

_REQUIRED = object()


@dataclass(frozen=True)
class Param:
    """One parameter: its JSON type, a description for the schema, a default, its choices."""

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
        kind = {str: "string", int: "integer", bool: "boolean", float: "number"}[self.type]
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
class Session:
    """What lives longer than one call: one per MCP server or CLI run, created empty and
    filled by the features on first use.

    Attributes:
        docs: the open docs index (`simple_brief.docs.index.DocsIndex`).
        language_servers: language servers started in disk mode (`simple_brief.lsp_client.ServerPool`).
        workspaces: workspaces opened with `workspace_open`, by id.
        workspaces_issued: ids handed out so far (`ws1`, `ws2`, …; never reused).
    """

    docs: Any = None
    language_servers: Any = None
    workspaces: dict[str, Workspace] = field(default_factory=dict)
    workspaces_issued: int = 0

    def close(self) -> None:
        """Stop what the session started (language servers) and close the docs index."""
        for thing in (self.language_servers, self.docs):
            if thing is not None:
                thing.close()
        self.language_servers = None
        self.docs = None


@dataclass
class Call:
    """What a tool call runs against: the workspace, the token budget, the editor
    (the disk backend when none is attached), the session's long-lived objects, and
    where to report progress."""

    workspace: Workspace
    budget: int = DEFAULT_BUDGET_TOKENS
    editor: EditorBackend = field(default_factory=DiskBackend)
    session: Session = field(default_factory=Session)
    progress: ProgressFn | None = None

    def report(self, done: float, total: float | None, message: str) -> None:
        """Report progress, if anyone listens."""
        if self.progress is not None:
            self.progress(done, total, message)


@dataclass(frozen=True)
class Tool:
    """A tool: name, toolset, description (when to use it and when not), parameters, function."""

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
    params: tuple[Param, ...],
    *,
    read_only: bool = True,
    system: bool = False,
    destructive: bool = True,
) -> Callable[[Callable[..., ToolResult]], Callable[..., ToolResult]]:
    """Register `func(call, **args)` as a tool."""

    def register(func: Callable[..., ToolResult]) -> Callable[..., ToolResult]:
        REGISTRY[name] = Tool(name, toolset, description, params, func, read_only, system, destructive)
        return func

    return register


def load() -> dict[str, Tool]:
    """The registry with every tool module imported."""
    for module in TOOL_MODULES:
        importlib.import_module(module)
    return REGISTRY


def get(name: str) -> Tool:
    """A tool by name.

    Raises:
        UserError: no such tool (the message lists the tools there are).
    """
    tools = load()
    if name not in tools:
        raise UserError(f"there is no tool `{name}`; the tools are: {', '.join(sorted(tools))}.")
    return tools[name]


def coerce(param: Param, value: Any) -> Any:
    """A CLI string or JSON value as the parameter's type, or one sentence saying why not."""
    if value is None and not param.required and param.default is None:
        return None
    try:
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
            if isinstance(value, bool):
                raise ValueError(value)
            result = int(value)
        elif param.type is float:
            result = float(value)
        else:
            result = str(value)
    except (TypeError, ValueError):
        kind = {bool: "true or false", int: "a whole number", float: "a number"}.get(param.type, "text")
        raise UserError(f"parameter `{param.name}` must be {kind}, not {value!r}.") from None
    if param.choices and result not in param.choices:
        raise UserError(f"parameter `{param.name}` must be one of {', '.join(param.choices)}, not {result!r}.")
    return result


def invoke(name: str, args: dict[str, Any], call: Call) -> ToolResult:
    """Check `args` against the tool's parameters and run it.

    Raises:
        UserError: unknown tool or parameter, a missing or mistyped argument, or the
            tool's own refusal (bad path, unknown symbol, ...).
    """
    spec = get(name)
    known = {p.name: p for p in spec.params}
    unknown = sorted(set(args) - set(known))
    if unknown:
        listed = ", ".join(known) or "none"
        raise UserError(f"`{name}` has no parameter {', '.join(unknown)}; its parameters are: {listed}.")
    kwargs: dict[str, Any] = {}
    for p in spec.params:
        if p.name in args:
            kwargs[p.name] = coerce(p, args[p.name])
        elif p.required:
            raise UserError(f"`{name}` needs the parameter `{p.name}` ({p.description}).")
        else:
            kwargs[p.name] = p.default
    return spec.func(call, **kwargs)
