"""analyze what=references against a real jedi-language-server: each site's enclosing symbol
is the editor context's scope chain at that site (issue 26, section 5) — a multi-line
declaration holding the use (`ROUTES = {...}`, a class's `handlers = [...]`) names it, as
the context does, and a one-line constant under a doc comment does not.
"""

from __future__ import annotations

import sys
from pathlib import Path

from simple_brief.editor import Snapshot
from simple_brief.editor.context import build_context
from simple_brief.files.workspace import Workspace
from simple_brief.lsp.pool import ServerPool
from simple_brief.tools import Call, Session, invoke

from conftest import outline_of, write_trusted_config

BIN = Path(sys.executable).parent
CONFIG = f"""
[servers.jedi]
command = ["{BIN / "jedi-language-server"}"]
filetypes = ["python"]
"""
SHAPES = '''def area(w, h):
    """The area."""
    return w * h


ROUTES = {
    "box": lambda: area(1, 2),
}

#: The unit square's area,
#: computed once.
UNIT = area(1, 1)


class Box:
    handlers = [
        lambda: area(3, 4),
    ]

    def size(self):
        scale = lambda k: (
            area(k, k)
        )
        return scale(2)
'''


def test_each_site_is_named_as_the_editor_context_names_it(tmp_path: Path) -> None:
    write_trusted_config(tmp_path, CONFIG)
    (tmp_path / "shapes.py").write_text(SHAPES)
    call = Call(workspace=Workspace.at(tmp_path), session=Session(server_pool=ServerPool))
    try:
        result = invoke("analyze", {"what": "references", "path": "shapes.py", "line": 1, "col": 5}, call)
    finally:
        call.session.close()
    sites = result.data["references"]["shapes.py"]
    named = {site["range"]["start"]["line"] + 1: site["symbol"] for site in sites}
    assert named == {
        1: "area",
        7: "ROUTES",
        12: "<module>",
        17: "Box.handlers",
        22: "Box.size",  # a lambda in a body is a local (as ctags' bench rules say), not listed
    }, result.text
    outline = outline_of(SHAPES, "python")
    for site in sites:
        start = site["range"]["start"]
        snap = Snapshot(None, "python", SHAPES.count("\n"), False, (start["line"] + 1, start["character"] + 1))
        snap.text = SHAPES
        scopes = build_context(snap, outline.symbols)["symbols"]["containingScopes"]
        assert site["symbol"] == (".".join(s["name"] for s in scopes) or "<module>"), site
