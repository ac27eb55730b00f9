"""The `simple-brief` command, run in this process: the tool registry from a shell.

    simple-brief outline FILE [--mode M] [--depth N]
    simple-brief expand FILE SELECTOR [--what body|signature|all]
    simple-brief symbols FILE [--format table|standard]
    simple-brief search QUERY [--root DIR]
    simple-brief diagnostics [PATH]
    simple-brief docs search QUERY | get ID | list MODULE | resolve SYMBOL | examples ID | related ID | index [LIB]
    simple-brief run TOOL --param k=v [--json]
    simple-brief tools
    simple-brief trust [PATH]

Each call runs on a host of its own, closed after it (its language servers stop with it).
`simple-brief mcp|lsp|daemon` start their own adapters (`simple_brief.main`). A user error
prints one sentence on stderr and exits 2.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import sys
import threading
from collections.abc import Sequence
from pathlib import Path

from simple_brief.cli import calls
from simple_brief.cli.parser import SERVED_ELSEWHERE, build_parser
from simple_brief.cli.streams import escape_unencodable
from simple_brief.errors import UserError
from simple_brief.files import config, trust
from simple_brief.files.beneath import shown_path
from simple_brief.host import command
from simple_brief.host.request import EXIT_USER_ERROR, LOG_FORMAT, error_answer
from simple_brief.host.wiring import build_host


def _trust(args: argparse.Namespace) -> str:
    """`simple-brief trust`: record (or show, deny, forget) the person's trust in a workspace config."""
    base = Path(args.path or args.root or ".").expanduser()
    path = base / config.FILENAME if base.is_dir() else base
    if path.name != config.FILENAME:
        raise UserError(f"{shown_path(path)} is not a {config.FILENAME}; name that file or the folder holding it.")
    if path.is_symlink() or not path.is_file():
        what = "is a symlink" if path.is_symlink() else "does not exist"
        raise UserError(f"{shown_path(path)} {what}; trust a plain {config.FILENAME} at a workspace root.")
    real = path.resolve()
    data = real.read_bytes()
    try:
        if args.remove:
            gone = trust.remove(real)
            return f"{real}: {'forgotten, it is untrusted again' if gone else 'was not in the trust database'}."
        if args.deny:
            trust.deny(real)
            return f"{real}: denied; the programs it names will not run."
        verdict = trust.status(real, data)
        parsed = config.parse(data.decode("utf-8", "replace"), real)
        named = parsed.programs(real.parent)
        listed = "; ".join(named) if named else "no programs"
        notes = "".join(f"\nnote: {note}" for note in parsed.notes)
        if args.status:
            meaning = {
                trust.Trust.TRUSTED: "trusted as it is now",
                trust.Trust.DENIED: "denied",
                trust.Trust.UNKNOWN: "not trusted (never trusted, or changed since); `simple-brief trust` trusts it",
            }
            return f"{real}: {meaning[verdict]}; it names {listed}.{notes}"
        trust.allow(real, data)
    except OSError as exc:
        raise UserError(f"the trust database {trust.database()} cannot be written ({exc.strerror}).") from None
    return f"{real}: trusted as it is now (a later change needs a new trust); it names {listed}.{notes}"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    escape_unencodable()
    try:
        return _main(argv)
    except BrokenPipeError:
        # The reader went away (`simple-brief docs search … | head`): no traceback, and none
        # from the interpreter flushing stdout at exit either.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


def _main(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format=LOG_FORMAT,
        force=True,
    )
    if args.command is None:
        parser.print_help()
        return EXIT_USER_ERROR
    unfinished = calls.unfinished(args)
    if unfinished is not None:
        return unfinished
    if args.command in SERVED_ELSEWHERE:
        # (`simple_brief.main` hands these to their adapters before this module is reached)
        print(f"simple-brief: `{args.command}` is started by the simple-brief command itself.", file=sys.stderr)
        return EXIT_USER_ERROR
    if args.command == "trust":
        try:
            return _say(_trust(args))
        except UserError as err:
            print(f"simple-brief: {err}", file=sys.stderr)
            return EXIT_USER_ERROR
    try:
        call = calls.tool_call(args, os.getcwd(), sys.stderr.isatty())
    except UserError as err:
        shown = error_answer(err)
    else:
        with contextlib.closing(build_host()) as host:  # its language servers and indexes stop with the call
            shown = command.answer(call, threading.Event(), sys.stderr, host)
    out, err_text, code = calls.render(shown, bool(getattr(args, "json", False)))
    sys.stdout.write(out)
    sys.stderr.write(err_text)
    return code


def _say(line: str) -> int:
    print(line)
    return 0
