"""What the host keeps for the review of the agent's edits (issue 29), per workspace.

- `ReadMarks`: per MCP session (the client's), the text of each file as the agent last read
  it (`simple_read`, `expand_at`, … mark it). `edit_propose` rebases a `new_text` written
  against an older read (`intel.merge.merge3`), `changes_since` compares with it, and the
  edit paths refuse to write over lines the person changed since. Only reading moves a mark.
- `Proposals`: the proposals sent to Neovim, by id (`r1`, `r2`, … per workspace, never reused).

Each is made with the workspace's state and guarded by its own lock.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path

from simple_brief.intel.merge import Hunk

#: Files one session's read marks keep (the least recently read dropped first).
MAX_MARKS = 256


@dataclass
class ClientMarks:
    """One session's read marks: path -> the text it read (shared lock with `ReadMarks`)."""

    texts: dict[Path, str] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def get(self, path: Path) -> str | None:
        """The text of `path` as this session last read it, or None (never read)."""
        with self.lock:
            return self.texts.get(path)

    def mark(self, path: Path, text: str) -> None:
        """`path` was read as `text` now."""
        with self.lock:
            self.texts.pop(path, None)
            self.texts[path] = text
            while len(self.texts) > MAX_MARKS:
                self.texts.pop(next(iter(self.texts)))

    def paths(self) -> list[Path]:
        """Every file this session has read, in the order last read."""
        with self.lock:
            return list(self.texts)


@dataclass
class ReadMarks:
    """Read marks by session key (the MCP session; the command line has none)."""

    by_client: dict[str, ClientMarks] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def of(self, client: str) -> ClientMarks:
        """The marks of one session (made on first use)."""
        with self.lock:
            found = self.by_client.get(client)
            if found is None:
                found = self.by_client[client] = ClientMarks()
            return found


@dataclass
class Proposal:
    """One proposal as sent: the text the person saw (`ours`, at changedtick `tick`), the
    hunks against it with each one's enclosing symbol (`chains`), the agent's title."""

    id: str
    path: Path
    ours: str
    hunks: tuple[Hunk, ...]
    chains: tuple[str, ...] = ()
    title: str | None = None
    tick: int | None = None
    eol: bool = True


@dataclass
class Proposals:
    """Proposals by id, under `lock`; ids `r1`, `r2`, … never reused within a workspace."""

    by_id: dict[str, Proposal] = field(default_factory=dict)
    issued: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def next_id(self) -> str:
        """A new id."""
        with self.lock:
            self.issued += 1
            return f"r{self.issued}"

    def keep(self, proposal: Proposal) -> None:
        """Remember a proposal sent to the editor."""
        with self.lock:
            self.by_id[proposal.id] = proposal

    def get(self, id_: str) -> Proposal | None:
        """The proposal with that id, or None."""
        with self.lock:
            return self.by_id.get(id_)

    def ids(self) -> list[str]:
        """Every id kept, oldest first."""
        with self.lock:
            return list(self.by_id)
