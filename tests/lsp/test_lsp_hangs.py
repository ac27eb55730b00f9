"""No hangs on language-server pipes (issue 11): servers that stop reading, flood, send
broken frames, kill our reader or never answer `initialize` end in a bounded answer of
one sentence, and the next call starts them again (or, for `initialize`, says at once
that it did not answer).

Every server here is a small fake LSP server (tests/fixtures/lsp/, started with
sys.executable, speaking real LSP over real pipes) because a real server cannot be made
to misbehave this way on demand. Each call runs in a thread joined with a bound, so a
regression fails the test instead of hanging the run.
"""

from __future__ import annotations

import re
import shutil
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest

from simple_brief.errors import UserError
from simple_brief.files.config import Config, ServerConfig
from simple_brief.files.workspace import Workspace
from simple_brief.intel import LspReply
from simple_brief.lsp import pool as lsp_client
from simple_brief.lsp import process as lsp_rpc
from simple_brief.lsp.pool import ServerPool
from simple_brief.tools import Call, Session, invoke

from conftest import write_trusted_config

FAKES = Path(__file__).resolve().parents[1] / "fixtures" / "lsp"
HOVER = "textDocument/hover"
AT = {"position": {"line": 0, "character": 0}}
SMALL = Path("a.py")
#: Over a pipe's buffer (64 KB on Linux) many times: writing it blocks unless the server reads.
BIG = Path("big.py")
#: Bound on one call in these tests, seconds (the fixed client answers in well under it).
BOUND = 60.0

T = TypeVar("T")


def bounded(action: Callable[[], T], seconds: float = BOUND) -> T:
    """Run `action` in a thread; fail the test (instead of hanging it) when it blocks."""
    outcome: list[Any] = []

    def attempt() -> None:
        try:
            outcome.append(action())
        except BaseException as err:  # handed to the test thread
            outcome.append(err)

    worker = threading.Thread(target=attempt, daemon=True)
    worker.start()
    worker.join(timeout=seconds)
    assert not worker.is_alive(), f"the call blocked for more than {seconds:g}s"
    if isinstance(outcome[0], BaseException):
        raise outcome[0]
    return outcome[0]


def fake(script: str, *args: str) -> ServerConfig:
    """The fake server `tests/fixtures/lsp/<script>.py` for Python files, named `script`."""
    return ServerConfig(script, (sys.executable, str(FAKES / f"{script}.py"), *args), ("python",))


def starts(root: Path) -> int:
    """How often the fake servers were started in `root` (they count themselves)."""
    counter = root / "fake-starts"
    return len(counter.read_text().splitlines()) if counter.exists() else 0


def stopped(name: str, why: str) -> str:
    return f"the language server `{name}` was stopped: {why}; it is restarted on the next request"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "ws"
    folder.mkdir()
    (folder / "a.py").write_text("greet = 1\n")
    (folder / "big.py").write_text("value = 'x'\n" * 100_000)  # 1.2 MB
    return folder


@pytest.fixture
def pools(root: Path) -> Iterator[Callable[[ServerConfig], ServerPool]]:
    made: list[ServerPool] = []

    def make(config: ServerConfig) -> ServerPool:
        made.append(ServerPool(Workspace.at(root), Config(servers=[config])))
        return made[-1]

    yield make
    for pool in made:
        bounded(pool.close, 30)


def hover(pool: ServerPool, path: Path = SMALL, timeout: float = 20.0) -> LspReply:
    [reply] = bounded(lambda: pool.request(path, HOVER, AT, timeout=timeout))
    return reply


def restarted(pool: ServerPool, path: Path = SMALL) -> None:
    """The next call starts the server again and gets its answer."""
    again = hover(pool, path)
    assert again.error is None and again.result["contents"].startswith("start 2"), again


# --- 1, 2: writes have a deadline; the reader never writes --------------------------------------


def test_a_server_that_stops_reading_is_stopped_at_the_write_deadline(
    pools: Callable[[ServerConfig], ServerPool], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A fake server: a real one cannot be made to stop reading its stdin on demand.
    monkeypatch.setattr(lsp_rpc, "WRITE_TIMEOUT", 1.0, raising=False)
    pool = pools(fake("stops_reading"))
    reply = hover(pool, BIG)  # the 1.2 MB didOpen fills the pipe
    assert reply.error == stopped(
        "stops_reading", "it stopped reading its input (a message waited over 1s to be written)"
    )
    restarted(pool, BIG)


def test_answering_the_server_never_deadlocks_against_a_blocked_write(
    pools: Callable[[ServerConfig], ServerPool],
) -> None:
    # A fake server: a real one cannot be made to send its requests exactly while it is
    # not reading a big message we write.
    pool = pools(fake("floods_while_written_to"))
    reply = hover(pool, BIG)
    assert reply.error is None, reply.error
    assert reply.result == {"contents": "start 1, 3000 answers"}  # every request was answered


def test_the_reader_never_blocks_on_answers_the_server_does_not_read(
    pools: Callable[[ServerConfig], ServerPool], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A fake server: a real one cannot be made to flood requests and never read the answers.
    monkeypatch.setattr(lsp_rpc, "WRITE_TIMEOUT", 1.0, raising=False)
    pool = pools(fake("floods_unread"))
    reply = hover(pool)
    assert reply.error is None and reply.result == {"contents": "answered after the flood"}, reply
    # Its answers never leave: the next call finds it stopped at the write deadline (or, if
    # that came first, already started again).
    second = hover(pool)
    if second.error is not None:
        assert second.error == stopped(
            "floods_unread", "it stopped reading its input (a message waited over 1s to be written)"
        )
        second = hover(pool)
    assert second.error is None and second.result["contents"].startswith("start 2"), second


# --- 3: floods ----------------------------------------------------------------------------------


def test_a_flood_still_gets_the_answer_and_keeps_memory_bounded(
    pools: Callable[[ServerConfig], ServerPool],
) -> None:
    # A fake server: a real one cannot be made to send thousands of messages on demand.
    pool = pools(fake("floods_notifications"))
    reply = hover(pool, timeout=BOUND - 10)
    assert reply.error is None and reply.result == {"contents": "answered after the flood, 3000 answers"}, reply
    server = pool._servers["floods_notifications"]
    # 10,000 files published, 1,000 methods registered: the newest files, the first methods kept.
    assert len(server.published) <= 1000
    assert Path("/flood/file9999.py") in server.published
    assert len(server.registered) <= 256
    assert "fake/method0" in server.registered
    assert (lsp_rpc.MAX_PUBLISHED_FILES, lsp_rpc.MAX_REGISTRATIONS) == (1000, 256)


# --- 4, 5: broken frames and a reader that dies -------------------------------------------------

MALFORMED = {
    "huge": "Content-Length 1000000000000 is over the 64 MB limit",
    "negative": "Content-Length `-5` is not a byte count",
    "words": "Content-Length `lots` is not a byte count",
    "missing": "a header block without Content-Length",
    "headers": "over 8 KB of headers without a body",
    "long-line": "over 8 KB of headers without a body",
}


@pytest.mark.parametrize("mode", list(MALFORMED))
def test_a_malformed_frame_stops_the_server_with_one_sentence(
    mode: str, pools: Callable[[ServerConfig], ServerPool]
) -> None:
    # A fake server: a real one cannot be made to send a broken frame on demand.
    pool = pools(fake("bad_frames", mode))
    first = pool._running(pool.workspace.root / SMALL)[0]
    reply = hover(pool, timeout=20)
    assert reply.error == stopped("bad_frames", f"it sent a malformed message ({MALFORMED[mode]})")
    restarted(pool)
    assert first.proc is not None and first.proc.poll() is not None  # the old process is gone


def test_a_reader_that_dies_marks_the_server_dead_and_the_next_call_restarts_it(
    pools: Callable[[ServerConfig], ServerPool],
) -> None:
    # A fake server: a real one cannot be made to send JSON nested 100,000 deep, which
    # raises RecursionError inside our reader thread (an error its loop does not expect).
    pool = pools(fake("bad_frames", "deep-json"))
    reply = hover(pool, timeout=20)
    assert reply.error is not None
    assert reply.error.startswith(
        "the language server `bad_frames` was stopped: simple-brief could not read its messages (RecursionError: "
    ), reply.error
    assert reply.error.endswith("; it is restarted on the next request")
    restarted(pool)


# --- 6: a server that never answers initialize ---------------------------------------------------


def test_a_server_that_never_answers_initialize_is_named_and_not_waited_for_again(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A fake server: a real one cannot be made to never answer `initialize`.
    monkeypatch.setattr(lsp_client, "START_TIMEOUT", 1.0)
    programs = tmp_path / "programs"
    programs.mkdir()
    for name in ("fakelsp.py", "never_initializes.py"):
        shutil.copy(FAKES / name, programs / name)
    script = programs / "never_initializes.py"
    write_trusted_config(root, f'[servers.never]\ncommand = ["{sys.executable}", "{script}"]\nfiletypes = ["python"]\n')
    call = Call(workspace=Workspace.at(root), session=Session(server_pool=ServerPool))
    args = {"path": "a.py", "line": 1, "col": 1}
    try:
        with pytest.raises(UserError) as first:
            bounded(lambda: invoke("analyze", {"what": "hover", **args}, call))
        assert str(first.value) == (
            "the language server `never` did not answer `initialize` within 1s; check that its command starts a "
            "language server that speaks LSP on stdio (simple-brief tries it again in 5 minutes, or at once when "
            "its command or program changes)."
        )
        # Asked again: answered at once from memory, the server is not started again.
        with pytest.raises(UserError) as second:
            bounded(lambda: invoke("analyze", {"what": "hover", **args}, call))
        assert re.fullmatch(
            r"the language server `never` did not answer `initialize` within 1s at \d\d:\d\d:\d\d; simple-brief "
            r"does not start it again before \d\d:\d\d:\d\d unless its command or program changes: check that its "
            r"command starts a language server that speaks LSP on stdio\.",
            str(second.value),
        ), str(second.value)
        [diagnostics] = bounded(lambda: call.session.language_servers.diagnostics(root / SMALL))
        assert diagnostics.error == str(second.value).removesuffix(".")
        assert starts(root) == 1
        # The program changes (fixed): the next call starts it.
        script.write_text("import fakelsp\n\nfakelsp.start_number()\nfakelsp.initialize()\nfakelsp.serve(2)\n")
        result = bounded(lambda: invoke("analyze", {"what": "hover", **args}, call))
        assert "start 2" in result.text
        assert starts(root) == 2
    finally:
        bounded(call.session.close, 30)
