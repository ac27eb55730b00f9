"""analyze what=references against a real gopls: a site inside a Go method's closure is named
by the receiver-qualified scope chain (`in Terminal.Loop.doActions:`), as the editor
context names it there (issue 26, section 5; the engine side is
tests/engine/test_go_receivers.py).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from simple_brief.editor import Snapshot
from simple_brief.editor.context import build_context
from simple_brief.files.workspace import Workspace
from simple_brief.lsp.pool import ServerPool
from simple_brief.tools import Call, Session, invoke

from conftest import outline_of, write_trusted_config

#: fzf's shape: most of `Terminal.Loop`'s work is in its `doActions` closure.
SOURCE = """package fzf

type Terminal struct{ x int }

func (t *Terminal) Loop() {
	doActions := func(n int) bool {
		return n > t.x
	}
	doActions(t.x)
}

func (t Terminal) Width() int { return t.x }
"""


def test_a_site_in_a_methods_closure_is_named_with_its_receiver(tmp_path: Path) -> None:
    gopls = shutil.which("gopls")
    assert gopls, "gopls is missing: `make test` installs it (.ci/run, Debian package gopls)"
    write_trusted_config(tmp_path, f'[servers.gopls]\nargv = ["{gopls}"]\nfiletypes = ["go"]\n')
    (tmp_path / "go.mod").write_text("module example.com/fzf\n\ngo 1.19\n")
    (tmp_path / "t.go").write_text(SOURCE)
    call = Call(workspace=Workspace.at(tmp_path), session=Session(server_pool=ServerPool))
    try:
        # The field `x` (line 3, 0-based column 23).
        result = invoke("analyze", {"what": "references", "path": "t.go", "line": 3, "col": 24}, call)
    finally:
        call.session.close()
    sites = result.data["references"]["t.go"]
    named = {site["range"]["start"]["line"] + 1: site["symbol"] for site in sites}
    assert named == {
        3: "Terminal",
        7: "Terminal.Loop.doActions",
        9: "Terminal.Loop",
        12: "Terminal.Width",
    }, result.text
    assert "  7:16 in Terminal.Loop.doActions: return n > t.x" in result.text
    outline = outline_of(SOURCE, "go")
    for site in sites:
        start = site["range"]["start"]
        snap = Snapshot(None, "go", SOURCE.count("\n"), False, (start["line"] + 1, start["character"] + 1))
        snap.text = SOURCE
        scopes = build_context(snap, outline.symbols)["symbols"]["containingScopes"]
        assert site["symbol"] == ".".join(s["name"] for s in scopes), site
