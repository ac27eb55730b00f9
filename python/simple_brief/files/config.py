"""The workspace config: `.simple-brief.toml` at the workspace root (every key has a default).

Schema::

    [servers]
    discover = true                        # find installed servers for languages with none
                                           # named here (simple_brief.intel.server_discovery);
                                           # false in either file turns that off
    [servers.python]                       # one table per language server, any name
    argv = ["jedi-language-server"]        # argv list (never a shell string); found on PATH
                                           # (`command`, its older name, is still read)
    filetypes = ["python"]                 # language names of simple_brief.languages
    init_options = {}                      # optional: the server's initializationOptions
    settings = {}                          # optional: answered to workspace/configuration and
                                           # sent once with workspace/didChangeConfiguration
    position_encoding = "utf-32"           # optional: what the server really counts, when it
                                           # says nothing and is not LSP's utf-16 (pylsp counts
                                           # code points: set automatically for it)

    [tasks]                                # declared tasks: name = argv list, or a table
    build = ["make"]                       # with argv and limits (simple_brief.tasks.declared)

    [debug.python]                         # debug adapters by name (simple_brief.files.debug_adapters):
    argv = ["python", "-m", "debugpy.adapter"]      # argv list (or `adapter`); python's is built in
    timeout_s = 600                        # a session's time limit; memory_mb, launch = {} too

    [limits]
    budget = 10000                         # token budget of one tool answer

    [mcp]
    toolsets = ["read", "lsp", "docs"]     # toolsets the MCP server lists

    [docs]
    folders = ["~/src/vendor-lib"]         # folders outside the root the docs index may read

    [secrets]
    deny = ["*.vault"]                     # added to secret_files.DEFAULT_DENY
    allow = ["src/credentials.py"]         # exemptions: only in the user's own config

    [daemon]                               # only in the user's own config
    enabled = true                         # the `simple-brief` command uses the per-user daemon
    idle_minutes = 15                      # the daemon stops after this long without a request

    [hook]                                 # only in the user's own config: `simple-brief hook claude`
    read_lines = 400                       # a whole-file Read of a longer source file gets its outline
    budget = 2000                          # that outline's token budget

Two files are read: the user's own config (`~/.config/simple-brief/config.toml`, or
`$XDG_CONFIG_HOME/...`, or `$SIMPLE_BRIEF_CONFIG`), then the workspace's. The workspace's
servers, tasks, debug adapters and docs folders are used only when the person trusted that exact file
(`simple_brief.files.trust`): a cloned repository cannot make simple-brief run its programs or
read outside its root. Its budget, toolsets and extra deny globs need no trust. The user's
own config needs no trust.

A missing file gives the defaults (no servers, no tasks). Anything else that is wrong (bad
TOML, an unknown key, a command given as one string) is refused with a `UserError`
naming the file and the key, because a half-read config would start the wrong programs.
"""

from __future__ import annotations

import errno
import os
import stat
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simple_brief import languages
from simple_brief.defaults import (
    DEFAULT_BUDGET_TOKENS,
    DEFAULT_DAEMON_IDLE_MINUTES,
    DEFAULT_HOOK_BUDGET,
    DEFAULT_HOOK_READ_LINES,
    DEFAULT_TOOLSETS,
    KNOWN_TOOLSETS,
    MIN_BUDGET_TOKENS,
)
from simple_brief.errors import UserError
from simple_brief.files import trust
from simple_brief.files.debug_adapters import AdapterSpec, parse_adapter
from simple_brief.files.secret_files import DEFAULT_DENY, SecretRules
from simple_brief.files.task_specs import TaskSpec, argv_spelling, parse_task
from simple_brief.positions import ENCODINGS
from simple_brief.proc import programs

#: The config file's name, at the workspace root.
FILENAME = ".simple-brief.toml"
#: Overrides the user's own config file's path (tests, several setups side by side).
USER_CONFIG_ENV = "SIMPLE_BRIEF_CONFIG"
#: A config file larger than this is refused unread (a config is a few lines).
MAX_CONFIG_BYTES = 256 * 1024


_TOP_KEYS = ("servers", "tasks", "debug", "limits", "mcp", "docs", "secrets", "daemon", "hook")
_SERVER_KEYS = ("argv", "command", "filetypes", "init_options", "settings", "position_encoding")
_ENCODINGS = tuple(sorted(ENCODINGS))  # utf-8, utf-16, utf-32: the order messages name them
_LIMIT_KEYS = ("budget",)
_MCP_KEYS = ("toolsets",)
_DOCS_KEYS = ("folders",)
_SECRETS_KEYS = ("deny", "allow")
_DAEMON_KEYS = ("enabled", "idle_minutes")
_HOOK_KEYS = ("read_lines", "budget")


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
        tasks: declared tasks by name (`tasks.declared.TaskSpec`).
        debug: debug adapters by name (`debug.adapters.AdapterSpec`).
        budget: token budget of one answer.
        toolsets: toolsets the MCP server lists.
        docs_folders: library folders outside the root the docs index may read.
        secrets: the deny (and allow) globs of secrets files.
        path: the workspace file read, or None when there was none.
        user_path: the user's own config file read, or None.
        untrusted: one sentence when the workspace config names programs (or folders)
            that were ignored because the person has not trusted it; None otherwise.
    """

    servers: list[ServerConfig] = field(default_factory=list)
    tasks: dict[str, TaskSpec] = field(default_factory=dict)
    debug: dict[str, AdapterSpec] = field(default_factory=dict)
    budget: int = DEFAULT_BUDGET_TOKENS
    toolsets: list[str] = field(default_factory=lambda: list(DEFAULT_TOOLSETS))
    docs_folders: list[Path] = field(default_factory=list)
    secrets: SecretRules = field(default_factory=SecretRules)
    path: Path | None = None
    user_path: Path | None = None
    untrusted: str | None = None
    #: The workspace's own `.simple-brief.toml` is there and the person trusted it as it is.
    workspace_trusted: bool = False
    #: One sentence per older key spelling the files use (`servers.X.command`, `debug.X.adapter`).
    notes: list[str] = field(default_factory=list)
    #: `daemon.enabled` and `daemon.idle_minutes` (the user's own config only).
    daemon_enabled: bool = True
    daemon_idle_minutes: float = DEFAULT_DAEMON_IDLE_MINUTES
    #: `hook.read_lines` and `hook.budget` (the user's own config only; `cli/hook.py` reads them).
    hook_read_lines: int = DEFAULT_HOOK_READ_LINES
    hook_budget: int = DEFAULT_HOOK_BUDGET
    #: `servers.discover`: find installed servers for languages with none configured.
    discover: bool = True
    #: Top-level keys the file set itself (`limits.budget`, `mcp.toolsets`): those win when merged.
    explicit: frozenset[str] = field(default=frozenset(), repr=False)

    def programs(self, root: Path | None = None) -> list[str]:
        """What this config makes simple-brief run or read outside the root, one short entry
        each; with the workspace `root`, each command with the program file it would run
        (`tasks.check = ruff check . → /usr/bin/ruff`, `simple_brief.proc.programs.shown`)."""

        def command(argv: Sequence[str], cwd: str = "", path_env: str | None = None) -> str:
            return " ".join(argv)[:60] if root is None else programs.shown(argv, root, root / cwd, path_env)

        named = [f"servers.{s.name} = {command(s.command)}" for s in self.servers]
        named += [
            f"tasks.{name} = {command(task.argv, task.cwd, task.env.get('PATH'))}" for name, task in self.tasks.items()
        ]
        named += [f"debug.{name} = {command(spec.argv)}" for name, spec in self.debug.items()]
        named += [f"docs.folders = {folder}" for folder in self.docs_folders]
        return named

    def servers_for(self, filetype: str) -> list[ServerConfig]:
        """The servers configured for a language name, in file order."""
        return [s for s in self.servers if filetype in s.filetypes]


def user_config_path() -> Path:
    """The user's own config: `$SIMPLE_BRIEF_CONFIG`, else `$XDG_CONFIG_HOME/simple-brief/config.toml`,
    else `~/.config/simple-brief/config.toml` (Neovim users' XDG layout on every system)."""
    override = os.environ.get(USER_CONFIG_ENV, "")
    if override:
        return Path(override).expanduser()
    base = os.environ.get("XDG_CONFIG_HOME", "")
    folder = Path(base) if os.path.isabs(base) else Path.home() / ".config"
    return folder / "simple-brief" / "config.toml"


def load(root: Path) -> Config:
    """The user's own config with the workspace's `root/.simple-brief.toml` over it.

    The workspace file's servers, tasks and docs folders count only when it is trusted
    (`Config.untrusted` says why they were left out).

    Raises:
        UserError: a file is not valid TOML or breaks the schema (the sentence names the key).
    """
    user_path = user_config_path()
    user_raw = _read(user_path, follow=True)
    user = parse(user_raw.decode("utf-8", "replace"), user_path, user=True) if user_raw is not None else Config()
    path = root / FILENAME
    raw = _read(path, follow=False)
    own = parse(raw.decode("utf-8", "replace"), path) if raw is not None else Config()
    merged = Config(
        servers=list(user.servers),
        tasks=dict(user.tasks),
        debug=dict(user.debug),
        budget=own.budget if "limits.budget" in own.explicit else user.budget,
        toolsets=own.toolsets if "mcp.toolsets" in own.explicit else user.toolsets,
        docs_folders=list(user.docs_folders),
        secrets=SecretRules(
            deny=tuple(dict.fromkeys((*user.secrets.deny, *own.secrets.deny))),
            allow=user.secrets.allow,
            allow_hint=str(user_path),
        ),
        path=path if raw is not None else None,
        user_path=user_path if user_raw is not None else None,
        daemon_enabled=user.daemon_enabled,
        daemon_idle_minutes=user.daemon_idle_minutes,
        hook_read_lines=user.hook_read_lines,
        hook_budget=user.hook_budget,
        discover=user.discover and own.discover,  # turning it off needs no trust
        notes=[*user.notes, *own.notes],
    )
    if raw is None:
        return merged
    verdict = trust.status(path.resolve(), raw)
    merged.workspace_trusted = verdict is trust.Trust.TRUSTED
    named = own.programs()
    if not named:
        return merged
    if verdict is trust.Trust.TRUSTED:
        merged.servers += own.servers
        merged.tasks.update(own.tasks)
        merged.debug.update(own.debug)
        merged.docs_folders += own.docs_folders
        return merged
    why = "you denied it" if verdict is trust.Trust.DENIED else "it is not trusted (or changed since)"
    merged.untrusted = (
        f"{path} names programs or folders ({'; '.join(own.programs(root))}) but {why}, so they are ignored; "
        "review the file, then run `simple-brief trust` (in Neovim `:SimpleBrief trust`) to use them."
    )
    return merged


def _read(path: Path, follow: bool) -> bytes | None:
    """A config file's bytes, or None when there is none; the workspace's own is opened
    without following a symlink (it could point anywhere) and never blocks on a FIFO.

    Raises:
        UserError: it is not a regular file, too large or unreadable.
    """
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | (0 if follow else os.O_NOFOLLOW)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        return None
    except OSError as exc:
        reason = "it is a symlink; make it a plain file" if exc.errno == errno.ELOOP and not follow else None
        raise UserError(f"{path} cannot be read ({reason or exc.strerror}); check the file.") from None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UserError(f"{path} is not a regular file; make it a plain TOML file.")
        data = handle.read(MAX_CONFIG_BYTES + 1)
    if len(data) > MAX_CONFIG_BYTES:
        raise UserError(f"{path} is over {MAX_CONFIG_BYTES // 1024} KB; a config is a few lines of TOML.")
    return data


def parse(text: str, path: Path, user: bool = False) -> Config:
    """Parse config text (`path` is only named in messages); `user` for the user's own config.

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
        if name == "discover" and not isinstance(table, dict):
            if not isinstance(table, bool):
                raise UserError(f"`servers.discover` in {path} must be true or false, not {table!r}.")
            config.discover = table
            continue
        if not isinstance(table, dict):
            raise UserError(f"`servers.{name}` in {path} must be a table (`[servers.{name}]` with an `argv`).")
        config.servers.append(_server(name, table, path, config.notes))
    for name, value in _table(data, "tasks", path).items():
        config.tasks[name] = parse_task(name, value, str(path))
    for name, value in _table(data, "debug", path).items():
        config.debug[name] = parse_adapter(name, value, str(path))
        note = argv_spelling(value, f"debug.{name}", str(path), "adapter")[1] if isinstance(value, dict) else None
        config.notes += [note] if note else []
    limits = _table(data, "limits", path)
    _known(limits, _LIMIT_KEYS, "limits.", path)
    if "budget" in limits:
        budget = limits["budget"]
        if isinstance(budget, bool) or not isinstance(budget, int) or budget <= 0:
            raise UserError(f"`limits.budget` in {path} must be a positive whole number of tokens, not {budget!r}.")
        config.budget = budget
        config.explicit |= {"limits.budget"}
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
        config.explicit |= {"mcp.toolsets"}
    docs = _table(data, "docs", path)
    _known(docs, _DOCS_KEYS, "docs.", path)
    for folder in _strings(docs.get("folders", []), "docs.folders", path):
        resolved = Path(folder).expanduser()
        if not resolved.is_absolute():
            raise UserError(
                f"`docs.folders` in {path} names {folder!r}, which is not an absolute path; "
                "folders inside the workspace are indexed already, name outside ones as /abs/path or ~/path."
            )
        config.docs_folders.append(resolved)
    secrets = _table(data, "secrets", path)
    _known(secrets, _SECRETS_KEYS, "secrets.", path)
    deny = _strings(secrets.get("deny", []), "secrets.deny", path)
    allow = _strings(secrets.get("allow", []), "secrets.allow", path)
    if allow and not user:
        raise UserError(
            f"`secrets.allow` in {path} is not honoured in a workspace config (a repository must not open "
            f"its own secrets); move it to your own config, {user_config_path()}."
        )
    config.secrets = SecretRules(deny=(*DEFAULT_DENY, *deny), allow=allow)
    _daemon(config, _table(data, "daemon", path), path, user)
    _hook(config, _table(data, "hook", path), path, user)
    return config


def _hook(config: Config, hook: dict[str, Any], path: Path, user: bool) -> None:
    """`[hook]`: when the agent hook answers a whole-file read with an outline, and its budget."""
    _known(hook, _HOOK_KEYS, "hook.", path)
    if hook and not user:
        raise UserError(
            f"`[hook]` in {path} is not honoured in a workspace config (the hook is the user's, not a "
            f"repository's); move it to your own config, {user_config_path()}."
        )
    for key, least in (("read_lines", 1), ("budget", MIN_BUDGET_TOKENS)):
        value = hook.get(key, least)
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise UserError(f"`hook.{key}` in {path} must be a whole number of at least {least}, not {value!r}.")
    config.hook_read_lines = hook.get("read_lines", DEFAULT_HOOK_READ_LINES)
    config.hook_budget = hook.get("budget", DEFAULT_HOOK_BUDGET)


def _daemon(config: Config, daemon: dict[str, Any], path: Path, user: bool) -> None:
    """`[daemon]`: whether the command uses the per-user daemon, and its idle period."""
    _known(daemon, _DAEMON_KEYS, "daemon.", path)
    if daemon and not user:
        raise UserError(
            f"`[daemon]` in {path} is not honoured in a workspace config (the daemon is the user's, not a "
            f"repository's); move it to your own config, {user_config_path()}."
        )
    enabled = daemon.get("enabled", True)
    if not isinstance(enabled, bool):
        raise UserError(f"`daemon.enabled` in {path} must be true or false, not {enabled!r}.")
    idle = daemon.get("idle_minutes", DEFAULT_DAEMON_IDLE_MINUTES)
    if isinstance(idle, bool) or not isinstance(idle, int | float) or not idle > 0:
        raise UserError(f"`daemon.idle_minutes` in {path} must be a number of minutes above 0, not {idle!r}.")
    config.daemon_enabled, config.daemon_idle_minutes = enabled, float(idle)


def user_settings() -> Config:
    """The user's own config alone (no workspace): what the daemon reads at start.

    Raises:
        UserError: the file is not valid TOML or breaks the schema.
    """
    path = user_config_path()
    raw = _read(path, follow=True)
    return parse(raw.decode("utf-8", "replace"), path, user=True) if raw is not None else Config()


def _server(name: str, table: dict[str, Any], path: Path, notes: list[str]) -> ServerConfig:
    key = f"servers.{name}"
    _known(table, _SERVER_KEYS, key + ".", path)
    spelled, note = argv_spelling(table, key, str(path), "command")
    if spelled not in table:
        raise UserError(f'`{key}` in {path} has no `argv`; add one as a list, e.g. argv = ["pylsp"].')
    notes += [note] if note else []
    command = _argv(table[spelled], f"{key}.{spelled}", path)
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
