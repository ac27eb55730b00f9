"""The docs index facade: open the persisted database of a workspace, keep it current,
answer queries. The tools (`simple_brief.tools.docs`) use only this module.

CONTRACT (filled in by the index work; signatures are fixed):
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from simple_brief.docs.model import Item
from simple_brief.tools import ProgressFn
from simple_brief.workspace import Workspace


@dataclass
class Hit:
    """A search result: the item, its relevance (higher is better) and a text snippet."""

    item: Item
    score: float
    snippet: str


@dataclass
class Related:
    """An item related to another, why (`see_also`, `same_module`, `similar_signature`,
    `implements`) and how much (0..1)."""

    item: Item
    reason: str
    relevance: float


@dataclass
class ModuleListing:
    """A module's own item (with its doc; None when the module has no item), its public
    items and the ids of its submodules."""

    module: Item | None
    items: list[Item] = field(default_factory=list)
    submodules: list[str] = field(default_factory=list)


@dataclass
class RefreshStats:
    """What one refresh or library index did."""

    files_seen: int = 0
    files_indexed: int = 0
    files_removed: int = 0
    items: int = 0
    seconds: float = 0.0
    rebuilt: str | None = None  # why the DB was rebuilt (corrupt, old schema), if it was


@dataclass
class LibraryInfo:
    """An indexed library: its name, root folder, file and item counts."""

    name: str
    root: str
    files: int
    items: int


class DocsIndex:
    """The docs database of one workspace (and the libraries indexed into it)."""

    @classmethod
    def open(cls, workspace: Workspace, cache_dir: Path | None = None) -> DocsIndex:
        """Open (or create) the DB for `workspace.root` under `cache_dir` (default: the
        user's cache directory); a corrupt or old-schema DB is rebuilt, never a crash."""
        raise NotImplementedError

    def refresh(self, progress: ProgressFn | None = None) -> RefreshStats:
        """Bring the workspace's items up to date: only files whose content hash changed
        are re-indexed; overlays (`workspace.overlays`) win over the disk."""
        raise NotImplementedError

    def index_library(self, name: str, progress: ProgressFn | None = None) -> RefreshStats:
        """Index (or refresh) a named library: `python` (the running interpreter's
        standard library and site-packages), `nvim` (Neovim's runtime Lua), or a folder."""
        raise NotImplementedError

    def libraries(self) -> list[LibraryInfo]:
        """The workspace and every library indexed so far."""
        raise NotImplementedError

    def search(
        self, query: str, kind: str | None = None, module: str | None = None, library: str | None = None, limit: int = 10
    ) -> list[Hit]:
        """Items ranked by bm25 (name > signature > summary > body), best first."""
        raise NotImplementedError

    def get(self, item_id: str, library: str | None = None) -> Item | None:
        """The item with exactly this id."""
        raise NotImplementedError

    def list_module(self, module: str, library: str | None = None) -> ModuleListing:
        """A module's item, its public items and submodules."""
        raise NotImplementedError

    def resolve(self, symbol: str, context: str | None = None, library: str | None = None) -> list[Item]:
        """Items a (possibly partial) name may mean, best first; `context` is a module id
        (or a file path) the name is used in, whose own and imported names win."""
        raise NotImplementedError

    def related(self, item_id: str, limit: int = 10) -> list[Related]:
        """Items related to `item_id`, most relevant first."""
        raise NotImplementedError

    def close(self) -> None:
        """Close the database."""
        raise NotImplementedError
