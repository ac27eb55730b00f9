"""What a debug session holds besides its conversation: the caller's breakpoints (and
what the adapter made of them) and the latest stop."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class Breakpoint:
    """One breakpoint as the caller set it, and what the adapter made of it."""

    number: int
    path: Path
    line: int
    condition: str = ""
    hit_condition: str = ""
    log_message: str = ""
    verified: bool = False
    adapter_id: int | None = None
    actual_line: int | None = None
    message: str = ""

    def request(self) -> dict[str, Any]:
        """Its `SourceBreakpoint`."""
        out: dict[str, Any] = {"line": self.line}
        if self.condition:
            out["condition"] = self.condition
        if self.hit_condition:
            out["hitCondition"] = self.hit_condition
        if self.log_message:
            out["logMessage"] = self.log_message
        return out


@dataclass
class Stop:
    """Why and where (which thread) the program stopped."""

    reason: str
    thread_id: int
    description: str = ""
    text: str = ""
    hit_ids: list[int] = field(default_factory=list)
