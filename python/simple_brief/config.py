"""The workspace config: `.simple-brief.toml` at the workspace root (every key has a default).

Schema::

    [servers.python]                       # one table per language server, any name
    command = ["jedi-language-server"]     # argv list (never a shell string); found on PATH
    filetypes = ["python"]                 # language names of simple_brief.languages
    init_options = {}                      # optional: the server's initializationOptions
    settings = {}                          # optional: answered to workspace/configuration and
                                           # sent once with workspace/didChangeConfiguration
    position_encoding = "utf-32"           # optional: what the server really counts, when it
                                           # says nothing and is not LSP's utf-16 (pylsp counts
                                           # code points: set automatically for it)

    [tasks]                                # declared tasks: name = argv list
    test = ["pytest", "-q"]

    [limits]
    budget = 10000                         # token budget of one tool answer

    [mcp]
    toolsets = ["read", "lsp", "docs"]     # toolsets the MCP server lists

A missing file gives the defaults (no servers, no tasks). Anything else that is wrong (bad
TOML, an unknown key, a command given as one string) is refused with a `UserError`
naming the file and the key, because a half-read config would start the wrong programs.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simple_brief import languages
from simple_brief.errors import UserError
from simple_brief.render.budget import DEFAULT_BUDGET_TOKENS

#: The config file's name, at the workspace root.
FILENAME = ".simple-brief.toml"
#: Toolsets a user may name (`--toolsets`, `mcp.toolsets`); the ones without tools yet list nothing.
KNOWN_TOOLSETS = ("read", "lsp", "docs", "workspace", "tasks")
DEFAULT_TOOLSETS = ("read", "lsp", "docs")

_TOP_KEYS = ("servers", "tasks", "limits", "mcp")
_SERVER_KEYS = ("command", "filetypes", "init_options", "settings", "position_encoding")
_ENCODINGS = ("utf-8", "utf-16", "utf-32")
_LIMIT_KEYS = ("budget",)
_MCP_KEYS = ("toolsets",)


@dataclass(frozen=True)
class ServerConfig:
    """One language server the workspace names.

    Attributes:
        name: the table's name (`[servers.NAME]`), shown in answers.
        command: argv to start it (stdio transport).
        filetypes: language names (`simple_brief.languages`) it serves.
        init_options: sent as `initializationOptions`.
        settings: answered to `workspace/configuration` (by dotted section).
        position_encoding: overrides the encoding the server negotiates (None: trust it).
    """

    name: str
    command: tuple[str, ...]
    filetypes: tuple[str, ...]
    init_options: dict[str, Any] = field(default_factory=dict)
    settings: dict[str, Any] = field(default_factory=dict)
    position_encoding: str | None = None


@dataclass
class Config:
    """The workspace config with defaults filled in.

    Attributes:
        servers: language servers, in file order.
        tasks: declared tasks by name, each an argv list.
        budget: token budget of one answer.
        toolsets: toolsets the MCP server lists.
        path: the file read, or None when there was none.
    """

    servers: list[ServerConfig] = field(default_factory=list)
    tasks: dict[str, list[str]] = field(default_factory=dict)
    budget: int = DEFAULT_BUDGET_TOKENS
    toolsets: list[str] = field(default_factory=lambda: list(DEFAULT_TOOLSETS))
    path: Path | None = None

    def servers_for(self, filetype: str) -> list[ServerConfig]:
        """The servers configured for a language name, in file order."""
        return [s for s in self.servers if filetype in s.filetypes]


def load(root: Path) -> Config:
    """Read `root/.simple-brief.toml`; the defaults when there is none.

    Raises:
        UserError: the file is not valid TOML or breaks the schema (the sentence names the key).
    """
    path = root / FILENAME
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return Config()
    except OSError as exc:
        raise UserError(f"{path} cannot be read ({exc.strerror}); check its permissions.") from None
    return parse(raw.decode("utf-8", "replace"), path)


def parse(text: str, path: Path) -> Config:
    """Parse config text (`path` is only named in messages).

    Raises:
        UserError: invalid TOML or a schema violation.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        # The message ends with "(at line N, column M)": the user needs exactly that.
        raise UserError(f"{path} is not valid TOML: {exc}; fix that line.") from None
    _known(data, _TOP_KEYS, "", path)
    config = Config(path=path)
    servers = _table(data, "servers", path)
    for name, table in servers.items():
        if not isinstance(table, dict):
            raise UserError(f"`servers.{name}` in {path} must be a table (`[servers.{name}]` with a `command`).")
        config.servers.append(_server(name, table, path))
    for name, argv in _table(data, "tasks", path).items():
        config.tasks[name] = list(_argv(argv, f"tasks.{name}", path))
    limits = _table(data, "limits", path)
    _known(limits, _LIMIT_KEYS, "limits.", path)
    if "budget" in limits:
        budget = limits["budget"]
        if isinstance(budget, bool) or not isinstance(budget, int) or budget <= 0:
            raise UserError(f"`limits.budget` in {path} must be a positive whole number of tokens, not {budget!r}.")
        config.budget = budget
    mcp = _table(data, "mcp", path)
    _known(mcp, _MCP_KEYS, "mcp.", path)
    if "toolsets" in mcp:
        toolsets = _strings(mcp["toolsets"], "mcp.toolsets", path)
        unknown = [t for t in toolsets if t not in KNOWN_TOOLSETS]
        if unknown:
            raise UserError(
                f"`mcp.toolsets` in {path} names unknown toolset {', '.join(unknown)}; "
                f"choose from {', '.join(KNOWN_TOOLSETS)}."
            )
        config.toolsets = list(toolsets)
    return config


def _server(name: str, table: dict[str, Any], path: Path) -> ServerConfig:
    key = f"servers.{name}"
    _known(table, _SERVER_KEYS, key + ".", path)
    if "command" not in table:
        raise UserError(f'`{key}` in {path} has no `command`; add one as a list, e.g. command = ["pylsp"].')
    command = _argv(table["command"], f"{key}.command", path)
    filetypes = _strings(table.get("filetypes", []), f"{key}.filetypes", path)
    if not filetypes:
        raise UserError(f"`{key}.filetypes` in {path} is missing or empty; list the languages it serves.")
    names = []
    for filetype in filetypes:
        spec = languages.by_name(filetype)
        if spec is None:
            raise UserError(
                f"`{key}.filetypes` in {path} names `{filetype}`, which simple-brief does not know; "
                "use a Neovim filetype name such as python, lua, typescript, rust or go."
            )
        names.append(spec.name)
    options = {}
    for opt in ("init_options", "settings"):
        value = table.get(opt, {})
        if not isinstance(value, dict):
            raise UserError(f"`{key}.{opt}` in {path} must be a table, not {type(value).__name__}.")
        options[opt] = value
    encoding = table.get("position_encoding")
    if encoding is not None and encoding not in _ENCODINGS:
        raise UserError(
            f"`{key}.position_encoding` in {path} must be one of {', '.join(_ENCODINGS)}, not {encoding!r}."
        )
    return ServerConfig(
        name, command, tuple(dict.fromkeys(names)), options["init_options"], options["settings"], encoding
    )


def _argv(value: Any, key: str, path: Path) -> tuple[str, ...]:
    if isinstance(value, str):
        raise UserError(
            f"`{key}` in {path} is a string, but commands are never run through a shell; "
            f"write it as a list of arguments, e.g. {value.split()!r}."
        )
    argv = _strings(value, key, path)
    if not argv or not argv[0]:
        raise UserError(f"`{key}` in {path} is empty; give the program and its arguments as a list.")
    return argv


def _strings(value: Any, key: str, path: Path) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise UserError(f"`{key}` in {path} must be a list of strings, not {value!r}.")
    return tuple(value)


def _table(data: dict[str, Any], key: str, path: Path) -> dict[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise UserError(f"`{key}` in {path} must be a table (`[{key}]`), not {type(value).__name__}.")
    return value


def _known(table: dict[str, Any], allowed: tuple[str, ...], prefix: str, path: Path) -> None:
    for key in table:
        if key not in allowed:
            raise UserError(
                f"{path} has an unknown key `{prefix}{key}`; the keys there are: "
                f"{', '.join(prefix + a for a in allowed)}."
            )
