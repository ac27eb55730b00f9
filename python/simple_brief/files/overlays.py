"""Text that wins over the disk: the agent's overlays over the editor's unsaved buffers."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, MutableMapping
from pathlib import Path


class Overlays(MutableMapping[Path, str]):
    """Text that wins over the disk, by resolved path: the agent's layer over the editor's.

    Reading (`[]`, `get`, `in`, iteration) sees the effective mapping: an agent overlay
    wins over the editor's buffer for the same path. Writing with `[]=` sets an agent
    overlay (use `Workspace.set_overlay` from tools: it confines and checks the path).

    Attributes:
        editor: the editor's unsaved buffers, replaced as a whole by `replace_editor`
            (a new dict each time, so a call running in another thread never sees it half-built).
        agent: overlays an agent applied; kept until removed.
    """

    def __init__(self, editor: Mapping[Path, str] | None = None, agent: dict[Path, str] | None = None) -> None:
        self.editor: dict[Path, str] = dict(editor or {})
        #: Shared, not copied, when given: a call's view (`Workspace.for_call`) writes its
        #: workspace's agent layer.
        self.agent: dict[Path, str] = {} if agent is None else agent

    def replace_editor(self, buffers: Mapping[Path, str]) -> None:
        """The editor's unsaved buffers of this call (keys resolved, so symlinked paths match)."""
        fresh: dict[Path, str] = {}
        for path, text in buffers.items():
            try:
                fresh[Path(path).resolve()] = text
            except (OSError, RuntimeError, ValueError):
                fresh[Path(path)] = text
        self.editor = fresh

    def __getitem__(self, key: Path) -> str:
        try:
            return self.agent[key]
        except KeyError:
            return self.editor[key]

    def __setitem__(self, key: Path, text: str) -> None:
        self.agent[key] = text

    def __delitem__(self, key: Path) -> None:
        if key in self.agent:
            del self.agent[key]
        else:
            del self.editor[key]

    def _effective(self) -> dict[Path, str]:
        # dict.copy and update run in C without calling back into Python: safe against
        # another thread changing a layer meanwhile.
        merged = self.editor.copy()
        merged.update(self.agent.copy())
        return merged

    def __iter__(self) -> Iterator[Path]:
        return iter(self._effective())

    def __len__(self) -> int:
        return len(self._effective())

    def __contains__(self, key: object) -> bool:
        return key in self.agent or key in self.editor

    def __repr__(self) -> str:
        return f"Overlays(agent={sorted(map(str, self.agent))}, editor={sorted(map(str, self.editor))})"
