"""The `simple-brief` command: picks the adapter by the command's first word (the only module,
with `__main__`, that imports more than one adapter).

- `mcp`, `lsp`: the MCP server (`servers.mcp.run`) and the fold language server
  (`servers.lsp.run`), each over a host of its own;
- `daemon start|stop|status`: the per-user daemon (`daemon.service.run`), one long-lived host;
- `hook AGENT`: an agent's tool-call hook (`cli.hook`: standard library only until it answers);
- anything else: the command line (`cli.client.main`: the daemon's client, standard library
  only until it works without the daemon, `cli.standalone`).

Standard library only at import: the fast path of a daemon-served command costs no more
than `cli.client` itself.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # not typing's: importing typing costs the script's fast path milliseconds
if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence

#: The words whose adapter is not the command line's.
SERVERS = ("mcp", "lsp", "daemon")


def main(argv: Sequence[str] | None = None) -> int:
    """The `simple-brief` script; returns the exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    if _first_word(args) in SERVERS:
        return serve(args)
    if _first_word(args) == "hook":
        from simple_brief.cli import hook

        return hook.run(args)
    from simple_brief.cli import client

    return client.main(args)


def _first_word(args: list[str]) -> str | None:
    words = args[: args.index("--")] if "--" in args else args
    return next((word for word in words if not word.startswith("-")), None)


def serve(args: list[str]) -> int:
    """`simple-brief mcp|lsp|daemon …`: the command line parsed as every command's is, then
    the adapter it names."""
    import logging

    from simple_brief.cli.parser import build_parser
    from simple_brief.cli.streams import escape_unencodable
    from simple_brief.errors import UserError
    from simple_brief.host.request import EXIT_USER_ERROR, LOG_FORMAT

    escape_unencodable()
    parsed = build_parser().parse_args(args)
    logging.basicConfig(level=logging.INFO if parsed.verbose else logging.WARNING, format=LOG_FORMAT, force=True)
    try:
        return _adapter(parsed)
    except UserError as err:
        print(f"simple-brief: {err}", file=sys.stderr)
        return EXIT_USER_ERROR


def _adapter(parsed: argparse.Namespace) -> int:
    if parsed.command == "mcp":
        from simple_brief.servers import mcp

        return mcp.run(parsed)
    if parsed.command == "lsp":
        from simple_brief.servers import lsp

        return lsp.run(parsed)
    from simple_brief.daemon import service

    return service.run(parsed)


if __name__ == "__main__":
    raise SystemExit(main())
