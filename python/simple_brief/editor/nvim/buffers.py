"""What a live Neovim sends about its buffers, read into engine values (for `NvimBackend`).

- `BufferCache`: buffer text by (buffer, changedtick), so an unchanged buffer is not sent
  again, and editor names resolved to real paths.
- `SecretsGuard`: the workspace's secrets rules (`secret_files.SecretRules`), sent with
  every call that walks Neovim's buffers (nvim_rpc.lua matches them there, so a secrets
  file's text, selection and diagnostics never leave Neovim), and checked again here.
- `read_snapshot`, `read_overlays`, `read_diagnostics`: one `exec_lua` each.
- `symbols_from_lsp`: a documentSymbol answer as engine symbols (`protocol`, where every
  LSP and Neovim diagnostic conversion lives; importable from here for the backend).

Everything here runs on the backend's worker thread, with its pynvim session.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

from simple_brief.editor import Selection, Snapshot
from simple_brief.errors import UserError
from simple_brief.files import config
from simple_brief.files.secret_files import SecretRules
from simple_brief.intel.protocol import EDITOR_DIAGNOSTIC_FIELDS, diagnostic_from_editor
from simple_brief.model import Diagnostic

log = logging.getLogger(__name__)

#: Unmodified buffers whose text stays cached (the snapshots' buffers).
KEEP_UNMODIFIED = 4

_SNAPSHOT = "return simple_brief_rpc.snapshot(...)"
_OVERLAYS = "return simple_brief_rpc.overlays(...)"
_DIAGNOSTICS = "return simple_brief_rpc.diagnostics(...)"


class BufferCache:
    """Buffer texts received (by buffer and changedtick) and resolved buffer names."""

    def __init__(self) -> None:
        #: bufnr -> (changedtick, text), most recently used last.
        self.texts: dict[int, tuple[int, str]] = {}
        self._paths: dict[str, Path] = {}
        #: How many buffers' lines Neovim sent (the cache's misses), for tests and status.
        self.lines_received = 0

    def clear(self) -> None:
        """Forget everything (a new Neovim instance)."""
        self.texts.clear()
        self._paths.clear()

    def known_ticks(self) -> dict[str, int]:
        """The changedticks of the cached texts, keyed by buffer number as a string (RPC map keys)."""
        return {str(buf): tick for buf, (tick, _) in self.texts.items()}

    def text(self, buf: int, tick: int, lines: list[str] | None, eol: bool) -> str | None:
        """The buffer's text: from `lines` when sent (and cached), else the cached copy."""
        if lines is not None:
            self.lines_received += 1
            text = "\n".join(lines)
            if eol and not (len(lines) == 1 and lines[0] == ""):
                text += "\n"
            self.texts.pop(buf, None)  # most recent last
            self.texts[buf] = (tick, text)
            return text
        cached = self.texts.get(buf)
        if cached is not None and cached[0] == tick:
            return cached[1]
        return None

    def resolved(self, name: str) -> Path:
        """An editor buffer name as a resolved path."""
        path = self._paths.get(name)
        if path is None:
            path = Path(os.path.realpath(name))
            if len(self._paths) > 4096:
                self._paths.clear()
            self._paths[name] = path
        return path


class SecretsGuard:
    """The secrets rules of one workspace, for Neovim's buffers.

    Args:
        root: the workspace root (paths inside it are matched from it); None: every path
            is matched whole, so a glob without `/` such as `.env` matches anywhere.
        rules: the rules in force (`config.load(root).secrets`); the defaults when None.
    """

    def __init__(self, root: str | os.PathLike[str] | None, rules: SecretRules | None) -> None:
        self.root = Path(os.path.realpath(root)) if root is not None else None
        self.rules = rules if rules is not None else SecretRules()
        #: What nvim_rpc.lua's `secret_rule` receives.
        self.payload: dict[str, Any] = {
            "root": str(self.root) if self.root is not None else "",
            "deny": list(self.rules.deny),
            "allow": list(self.rules.allow),
        }

    def rule(self, name: str | os.PathLike[str]) -> str | None:
        """The deny glob a file matches (by the name given or the file it leads to), or None."""
        text = os.fspath(name)
        if not text:
            return None
        lexical = os.path.normpath(os.path.abspath(text))
        for path in dict.fromkeys((lexical, os.path.realpath(text))):
            found = self.rules.rule_for(self._relative(Path(path)))
            if found is not None:
                return found
        return None

    def _relative(self, path: Path) -> str:
        if self.root is not None:
            try:
                return path.relative_to(self.root).as_posix()
            except ValueError:
                pass
        return path.as_posix().lstrip("/")


def workspace_secrets(root: str | os.PathLike[str] | None) -> SecretRules:
    """The secrets rules of a workspace's configs (`config.load`); the defaults without a
    root or when the configs cannot be read (a broken config is reported by the tools)."""
    if root is None:
        return SecretRules()
    try:
        return config.load(Path(os.path.realpath(root))).secrets
    except (UserError, OSError) as exc:
        log.warning("the secrets rules of %s are the defaults: %s", root, exc)
        return SecretRules()


def read_snapshot(nvim: Any, cache: BufferCache, guard: SecretsGuard) -> Snapshot | None:
    """The person's position now (`simple_brief_rpc.snapshot`); a secrets file's text and
    selected text are withheld (`extra['withheld']` names the rule)."""
    known = cache.known_ticks()
    for _ in range(2):
        raw: dict[str, Any] | None = nvim.exec_lua(_SNAPSHOT, known, True, guard.payload)
        if not raw:
            return None
        snap = _snapshot(raw, cache, guard)
        if snap is not None:
            return snap
        known = {}  # the cache lost the text between the request and now: ask with the lines
    return None


def _snapshot(raw: dict[str, Any], cache: BufferCache, guard: SecretsGuard) -> Snapshot | None:
    path = str(raw.get("path") or "")
    # The Lua side withholds; the rule is checked here too, so nothing it sent slips through.
    withheld = raw.get("withheld") or (guard.rule(path) if path else None)
    buf, tick = int(raw["buf"]), int(raw["changedtick"])
    text = None
    if withheld:
        cache.texts.pop(buf, None)
    else:
        text = cache.text(buf, tick, raw.get("lines"), bool(raw.get("eol")))
        if text is None:
            cache.texts.pop(buf, None)
            return None
    selection = None
    sel = raw.get("selection")
    if isinstance(sel, dict):
        selection = Selection(
            mode=str(sel.get("mode", "v")),
            start=(int(sel["start"]["line"]), int(sel["start"]["character"])),
            end=(int(sel["end"]["line"]), int(sel["end"]["character"])),
            text="" if withheld else str(sel.get("text", "")),
        )
    cursor = raw.get("cursor") or {}
    extra: dict[str, Any] = {
        "buf": buf,
        "changedtick": tick,
        "window": raw.get("window"),
        "selection_live": bool(sel.get("live")) if isinstance(sel, dict) else False,
        "editor_path": path,
    }
    if withheld:
        extra["withheld"] = str(withheld)
    return Snapshot(
        path=cache.resolved(path) if path else None,
        filetype=str(raw.get("filetype") or ""),
        line_count=int(raw.get("line_count") or 0),
        modified=bool(raw.get("modified")),
        cursor=(int(cursor.get("line", 1)), int(cursor.get("character", 1))),
        mode=str(raw.get("mode") or "n"),
        selection=selection,
        text=text,
        terminal_fallback=bool(raw.get("is_terminal_fallback")),
        extra=extra,
    )


def read_overlays(nvim: Any, cache: BufferCache, guard: SecretsGuard) -> dict[Path, str]:
    """Unsaved text of every modified file buffer but secrets files, by resolved path."""
    items: list[dict[str, Any]] = nvim.exec_lua(_OVERLAYS, cache.known_ticks(), guard.payload) or []
    result: dict[Path, str] = {}
    keep: set[int] = set()
    stale: list[int] = []
    for item in items:
        name = str(item["path"])
        if guard.rule(name) is not None:
            continue
        buf, tick = int(item["buf"]), int(item["tick"])
        text = cache.text(buf, tick, item.get("lines"), bool(item.get("eol")))
        if text is None:
            stale.append(buf)
            continue
        keep.add(buf)
        result[cache.resolved(name)] = text
    if stale:  # cannot happen unless the cache changed under us: fetch those again
        for buf in stale:
            cache.texts.pop(buf, None)
        return read_overlays(nvim, cache, guard)
    # Keep the text of modified buffers, and of a few others (the latest snapshots').
    others = [buf for buf in cache.texts if buf not in keep]
    for buf in others[:-KEEP_UNMODIFIED]:
        del cache.texts[buf]
    return result


def read_diagnostics(nvim: Any, cache: BufferCache, guard: SecretsGuard) -> dict[Path, list[Diagnostic]]:
    """Every diagnostic Neovim holds (all buffers, all sources) but a secrets file's, by resolved path."""
    groups: list[dict[str, Any]] = nvim.exec_lua(_DIAGNOSTICS, guard.payload) or []
    result: dict[Path, list[Diagnostic]] = {}
    for group in groups:
        name = str(group["path"])
        if guard.rule(name) is not None:
            continue
        found = [_diagnostic(item) for item in group.get("items") or []]
        found.sort(key=lambda d: (d.range.start, d.range.end))
        result.setdefault(cache.resolved(name), []).extend(found)
    return result


def _diagnostic(item: list[Any]) -> Diagnostic:
    """One diagnostic as nvim/rpc.lua sends it: `EDITOR_DIAGNOSTIC_FIELDS` in order, then
    optionally the LSP diagnostic's `data`."""
    fields = dict(zip(EDITOR_DIAGNOSTIC_FIELDS, item, strict=False))
    if len(item) > len(EDITOR_DIAGNOSTIC_FIELDS):
        fields["lsp_data"] = item[len(EDITOR_DIAGNOSTIC_FIELDS)]
    return diagnostic_from_editor(fields)
