"""Language servers found without a config: for a language no `[servers]` table names, the
servers installed for it, on the person's PATH or in the workspace's own virtual environment.

`KNOWN` lists them per language in order of preference (the first found is chosen):

- python: basedpyright, pyright, jedi-language-server, pylsp
- typescript, typescriptreact, javascript: typescript-language-server
- go: gopls; rust: rust-analyzer; c, cpp: clangd; lua: lua-language-server

Where they are looked for, in this order:

1. The workspace's own virtual environment (`.venv/bin`, then `venv/bin`): its servers see
   the project's packages. They are programs of the workspace, so they run only once the
   person trusted it: its `.simple-brief.toml` is trusted (`simple_brief.files.trust`; an empty
   file, trusted with `simple-brief trust`, trusts the workspace and names nothing). Before
   that, what was found there is reported with the way to trust it, and not run.
2. The person's PATH: their own programs, no trust needed. An entry that is relative
   (or empty, the current folder) or that resolves inside the workspace root is skipped:
   a repository must not plant `./bin/pylsp` through PATH (`simple_brief.proc.programs`, the
   lookup tasks, debug adapters and configured servers use too).

A rustup proxy (`~/.cargo/bin/rust-analyzer` without the component installed) only
prints an error: it is reported as found but not usable. So is a typescript-language-server
whose TypeScript has no tsserver (TypeScript 7, the native port, has none: `npm i
typescript-language-server typescript` brings it) when the workspace has no TypeScript of
its own with one; `TSSERVER_ADVICE` says which versions work.

Configured servers always win: a language that `[servers]` names (in a file that counts)
is not looked up, and `[servers] discover = false` in either config turns discovery off
(`simple_brief.files.config`). The session's pool (`simple_brief.lsp.pool`) asks `discover` for
each request's language and starts what it chose like a configured server.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simple_brief.errors import UserError
from simple_brief.files import config, trust
from simple_brief.proc import environment
from simple_brief.proc.programs import is_executable as _executable
from simple_brief.proc.programs import on_path

#: The workspace's own virtual environments, relative to the root, in the order looked in.
VENV_DIRS = (".venv/bin", "venv/bin")
#: The trust sentence's end: how a person trusts a workspace (with or without a config file).
HOW_TO_TRUST = (
    f"review the workspace's {config.FILENAME} (create an empty one if there is none), then run "
    "`simple-brief trust` (in Neovim `:SimpleBrief trust`)"
)


@dataclass(frozen=True)
class KnownServer:
    """A language server simple-brief knows how to start without a config.

    Attributes:
        name: how answers name it (the program's usual name).
        program: the executable looked up.
        args: arguments after the program (stdio transport).
        filetypes: the languages it serves (`simple_brief.languages` names).
        position_encoding: what it really counts when it does not say (pylsp: code points).
    """

    name: str
    program: str
    args: tuple[str, ...]
    filetypes: tuple[str, ...]
    position_encoding: str | None = None


_JS = ("typescript", "typescriptreact", "javascript")
#: Every known server, in order of preference within each language.
KNOWN: tuple[KnownServer, ...] = (
    KnownServer("basedpyright", "basedpyright-langserver", ("--stdio",), ("python",)),
    KnownServer("pyright", "pyright-langserver", ("--stdio",), ("python",)),
    KnownServer("jedi-language-server", "jedi-language-server", (), ("python",)),
    KnownServer("pylsp", "pylsp", (), ("python",), position_encoding="utf-32"),
    KnownServer("typescript-language-server", "typescript-language-server", ("--stdio",), _JS),
    KnownServer("gopls", "gopls", (), ("go",)),
    KnownServer("rust-analyzer", "rust-analyzer", (), ("rust",)),
    KnownServer("clangd", "clangd", (), ("c", "cpp")),
    KnownServer("lua-language-server", "lua-language-server", (), ("lua",)),
)

#: Which TypeScript versions typescript-language-server can run, and how to install one.
TSSERVER_ADVICE = (
    "typescript-language-server runs only a TypeScript that has tsserver, 5.x or an earlier one it supports "
    "(TypeScript 7 has none): install one in the workspace with `npm i -D typescript@5`"
)
#: How typescript-language-server refuses `initialize` when its TypeScript has no tsserver.
NO_TSSERVER_ERROR = "Could not find a valid TypeScript installation"


def start_error_advice(message: str) -> str | None:
    """What to do about a server's known refusal to start (`message`), or None."""
    return TSSERVER_ADVICE if NO_TSSERVER_ERROR in message else None


def known_for(filetype: str) -> list[KnownServer]:
    """The known servers of a language, in order of preference."""
    return [k for k in KNOWN if filetype in k.filetypes]


@dataclass(frozen=True)
class Found:
    """One installed server.

    Attributes:
        server: which known server.
        path: the program's absolute path (not resolved: a venv's scripts are used as they lie).
        where: `PATH`, or the workspace folder it is in (`.venv/bin`).
        unusable: why it is not used (the workspace is not trusted, a proxy without the
            program), or None.
    """

    server: KnownServer
    path: Path
    where: str
    unusable: str | None = None

    def describe(self, chosen: bool) -> str:
        """`jedi-language-server (on PATH: /usr/bin/jedi-language-server, chosen)`."""
        place = f"on PATH: {self.path}" if self.where == "PATH" else f"in the workspace: {self.where}/{self.path.name}"
        state = "chosen" if chosen else (f"not used: {self.unusable}" if self.unusable else "")
        return f"{self.server.name} ({place}{', ' + state if state else ''})"


@dataclass
class Discovery:
    """What serves one language in a session: the configured servers, or those found.

    Attributes:
        filetype: the language.
        configured: the servers `[servers]` names for it (discovery was not needed).
        enabled: whether discovery is on (`[servers] discover`).
        found: the known servers installed for it, venv first, then PATH.
        chosen: the server started for it when none is configured (the first usable found).
    """

    filetype: str
    configured: list[config.ServerConfig] = field(default_factory=list)
    enabled: bool = True
    found: list[Found] = field(default_factory=list)
    chosen: config.ServerConfig | None = None

    @property
    def servers(self) -> list[config.ServerConfig]:
        """What answers the language: the configured servers, else the one chosen."""
        if self.configured:
            return list(self.configured)
        return [self.chosen] if self.chosen is not None else []

    def _chosen_found(self) -> Found | None:
        if self.chosen is None:
            return None
        return next((f for f in self.found if str(f.path) == self.chosen.command[0]), None)

    def hint(self) -> str | None:
        """How to get a server for this language when none answers (the end of a sentence),
        or None when discovery has nothing to add (configured, or no server is known)."""
        name_one = f"attach one in Neovim or name one in {config.FILENAME} ([servers.NAME] command = [...])."
        if self.configured:
            return None
        if not self.enabled:
            return f"finding installed servers is off ([servers] discover = false); {name_one}"
        chosen = self._chosen_found()
        if chosen is not None:
            others = [f.server.name for f in self.found if f is not chosen and f.unusable is None]
            also = f" ({', '.join(others)} found too: a [servers.NAME] table can name it)" if others else ""
            return f"{chosen.describe(chosen=True)} does not offer it{also}; {name_one}"
        held = next((f for f in self.found if f.unusable is not None), None)
        if held is not None and held.where != "PATH":
            return (
                f"{held.server.name} was found in the workspace ({held.where}/{held.path.name}) but "
                f"{held.unusable}, so it is not run; {HOW_TO_TRUST} to use it."
            )
        if held is not None:
            return f"{held.describe(chosen=False)}; {name_one}"
        names = ", ".join(k.name for k in known_for(self.filetype))
        if not names:
            return None
        return (
            f"none of {names} was found on PATH or in the workspace's {' or '.join(VENV_DIRS)}; install one, {name_one}"
        )

    def line(self, states: dict[str, str]) -> str:
        """The `server_status` line: `language servers for python: …`; `states` says how each
        started server is doing, by name (`running`, `failed: …`)."""

        def state(name: str) -> str:
            return f" [{states[name]}]" if name in states else ""

        head = f"language servers for {self.filetype}: "
        if self.configured:
            names = ", ".join(s.name + state(s.name) for s in self.configured)
            return head + f"configured {names}"
        if not self.enabled:
            return head + "none configured; finding installed ones is off ([servers] discover = false)"
        if not self.found:
            names = ", ".join(k.name for k in known_for(self.filetype))
            if not names:
                return head + "none configured, and simple-brief knows none to look for"
            return head + f"none found (looked for {names} on PATH and in {', '.join(VENV_DIRS)})"
        chosen = self._chosen_found()
        shown = [
            f.describe(f is chosen) + (state(self.chosen.name) if f is chosen and self.chosen else "")
            for f in self.found
        ]
        return head + "found " + "; ".join(shown)

    def data(self) -> dict[str, Any]:
        """The same as data: configured names, discovery on or off, found (name, path, where,
        unusable) and the chosen name."""
        return {
            "configured": [s.name for s in self.configured],
            "discover": self.enabled,
            "found": [
                {"name": f.server.name, "path": str(f.path), "where": f.where, "unusable": f.unusable}
                for f in self.found
            ],
            "chosen": self.chosen.name if self.chosen is not None and not self.configured else None,
        }


def discover(filetype: str, root: Path, settings: config.Config, path_env: str | None = None) -> Discovery:
    """What serves `filetype` in the workspace at `root`: the servers `settings` configure for
    it, else the first usable known server found (`path_env`: the PATH searched, default
    the process's). Discovered servers are named so that no configured server shares a name."""
    configured = settings.servers_for(filetype)
    result = Discovery(filetype, configured=configured, enabled=settings.discover)
    if configured or not settings.discover:
        return result
    known = known_for(filetype)
    if not known:
        return result
    untrusted: list[str | None] = []  # why the workspace's programs are not run: asked once, if needed
    for folder in VENV_DIRS:
        for server in known:
            inside = root / folder / server.program
            if _executable(inside):
                if not untrusted:
                    untrusted.append(workspace_trust(root))
                result.found.append(Found(server, inside, folder, untrusted[0]))
    for server in known:
        program = on_path(server.program, root, path_env)
        if program is not None:
            result.found.append(Found(server, program, "PATH", _cannot_run(server, program, root)))
    taken = {s.name for s in settings.servers}
    for found in result.found:
        if found.unusable is None:
            name = found.server.name if found.server.name not in taken else f"{found.server.name}-found"
            result.chosen = config.ServerConfig(
                name,
                (str(found.path), *found.server.args),
                found.server.filetypes,
                position_encoding=found.server.position_encoding,
            )
            break
    return result


def workspace_trust(root: Path) -> str | None:
    """None when the person trusted the workspace (its `.simple-brief.toml` as it is now),
    else why its own programs are not run (the start of a clause)."""
    path = root / config.FILENAME
    try:
        raw = config._read(path, follow=False)
    except UserError:
        raw = None
    if raw is None:
        return "the workspace is not trusted"
    verdict = trust.status(path.resolve(), raw)
    if verdict is trust.Trust.TRUSTED:
        return None
    if verdict is trust.Trust.DENIED:
        return f"you denied the workspace's {config.FILENAME}"
    return f"the workspace's {config.FILENAME} is not trusted (or changed since)"


def _cannot_run(server: KnownServer, program: Path, root: Path) -> str | None:
    """Why a server found on PATH cannot answer (a proxy without its program, a TypeScript
    without tsserver), or None."""
    if server.program == "typescript-language-server":
        return _typescript_without_tsserver(program, root)
    return _proxy_without_program(program)


def _typescript_without_tsserver(program: Path, root: Path) -> str | None:
    """Why typescript-language-server at `program` cannot start, or None: the workspace has no
    TypeScript with tsserver (it would be preferred) and the one the server resolves from its
    own folders (as Node would) has none. Read from package files, nothing run."""
    if _is_file(root / "node_modules" / "typescript" / "lib" / "tsserver.js"):
        return None
    try:
        real = program.resolve()
    except (OSError, RuntimeError):
        return None
    for folder in real.parents:
        typescript = folder / "node_modules" / "typescript"
        if not _is_file(typescript / "package.json"):
            continue
        if _is_file(typescript / "lib" / "tsserver.js"):
            return None
        try:
            version = json.loads((typescript / "package.json").read_text(encoding="utf-8")).get("version")
        except (OSError, ValueError, AttributeError):
            version = None
        return f"its TypeScript {version or ''} ({typescript}) has no tsserver; {TSSERVER_ADVICE}".replace("  ", " ")
    return None


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except OSError:
        return False


def _proxy_without_program(path: Path) -> str | None:
    """Why a rustup proxy at `path` cannot run its program (rustup installed the proxy but no
    toolchain has the component), or None (not a proxy, or a toolchain has the program).
    Read from the toolchains' folders (`$RUSTUP_HOME`, default `~/.rustup`), nothing run."""
    rustup = path.with_name("rustup")
    try:
        if not rustup.is_file() or not os.path.samefile(path, rustup):
            return None
    except OSError:
        return None
    home = Path(environment.get("RUSTUP_HOME") or Path.home() / ".rustup")
    try:
        toolchains = list((home / "toolchains").iterdir())
    except OSError:
        toolchains = []
    if any(_executable(toolchain / "bin" / path.name) for toolchain in toolchains):
        return None
    return f"a rustup proxy; `rustup component add {path.name}` installs it"
