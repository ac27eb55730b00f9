"""The person at a headless Neovim, for the issue-29 tests (test_mcp_review.py,
test_review_round.py): a connection of its own on one thread, a workspace with one file
open, the engine's backend connected to the same Neovim."""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import anyio
import pynvim

from simple_brief.editor.nvim.backend import NvimBackend

from nvim_session import nvim

T = TypeVar("T")


class Person:
    """The person at the headless Neovim: its own connection on one thread of its own
    (pynvim sessions stay on the thread that made them), usable from async tests."""

    def __init__(self, address: str) -> None:
        self._pool = ThreadPoolExecutor(max_workers=1)
        self.nv: pynvim.Nvim = self._pool.submit(pynvim.attach, "socket", path=address).result()

    def do(self, fn: Callable[[pynvim.Nvim], T]) -> T:
        return self._pool.submit(fn, self.nv).result(timeout=30)

    async def act(self, fn: Callable[[pynvim.Nvim], T]) -> T:
        return await anyio.to_thread.run_sync(self.do, fn)

    def lua(self, code: str, *args: Any) -> Any:
        return self.do(lambda nv: nv.exec_lua(code, *args))

    def close(self) -> None:
        self._pool.submit(self.nv.close).result(timeout=10)
        self._pool.shutdown()


@contextmanager
def person_at(tmp_path: Path, name: str, text: str, before: str = "") -> Iterator[tuple[Path, Person, NvimBackend]]:
    """A workspace holding `name` (`text`), a headless Neovim editing it (after running the
    Lua `before`), the person and the engine's backend; all closed afterwards."""
    root = tmp_path / "ws"
    root.mkdir()
    (root / name).write_text(text)
    address = str(Path(tempfile.mkdtemp(prefix="sb-rv-")) / "nvim.sock")
    with nvim(tmp_path / "nvim", "--listen", address):
        person = Person(address)
        if before:
            person.lua(before)
        person.do(lambda nv: nv.command(f"cd {root} | edit {name}"))
        backend = NvimBackend.connect(address, retry_interval=0)
        try:
            yield root.resolve(), person, backend
        finally:
            backend.close()
            person.close()


def start_jedi(person: Person, root: Path, python: str) -> None:
    """jedi-language-server (beside `python`) attached to the current buffer."""
    jedi = str(Path(python).parent / "jedi-language-server")
    person.lua(
        f"""
        local id = vim.lsp.start({{ name = 'jedi', cmd = {{ '{jedi}' }}, root_dir = '{root}' }})
        vim.wait(20000, function() local c = vim.lsp.get_client_by_id(id)
          return c and c.initialized and vim.lsp.buf_is_attached(0, id) end, 20)
        """
    )
