"""A place's enclosing symbol (the `in Terminal.Loop.doActions:` of a reference, a call-hierarchy
row's qualified name) is the editor context's scope chain there (issue 26, section 5):
named down to a function literal assigned to a name — Go's `doActions := func(...)`,
JavaScript/TypeScript arrow functions, Lua local functions — and the same as the context's
`containingScopes` on every line of real files. A one-line declaration is no scope because
a doc comment sits above it (its range takes the comment in).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from simple_brief import languages
from simple_brief.editor import Snapshot
from simple_brief.editor.context import build_context
from simple_brief.model import Position, Symbol
from simple_brief.scan import scan
from simple_brief.tools.lsp import enclosing

from conftest import FIXTURES, outline_of

GO = """package main

// Terminal is a terminal.
type Terminal struct {
	x int
}

// Loop runs the event loop.
func (t *Terminal) Loop() {
	doActions := func(actions []int) bool {
		t.x = len(actions)
		return true
	}
	var visit func(n int)
	visit = func(n int) {
		visit(n - 1)
	}
	var other = func() {
		visit(1)
	}
	doActions(nil)
	other()
}
"""
TS = """/** Run it. */
export function run(): void {
    const onEvent = (e: Event) => {
        console.log(e);
    };
    const handler = function () {
        onEvent(null);
    };
}
const top = () => {
    run();
};
"""
LUA = """local M = {}

function M.setup(opts)
  local function on_attach(client)
    print(client)
  end
  local on_exit = function(code)
    print(code)
  end
end

return M
"""

#: A one-line declaration under a doc comment is not a scope; a multi-line one is (AC6, AC8).
GO_DOCUMENTED = """package main

// DefaultTTL is how long an entry lives,
// in seconds.
const DefaultTTL = 5

var table = map[string]int{
	"a": size(1),
}
"""


def _context_chain(text: str, filetype: str, symbols: list[Symbol], line: int, col: int) -> str:
    """The editor context's scope names at a 0-based position, dotted."""
    snap = Snapshot(None, filetype, text.count("\n") + 1, False, (line + 1, col + 1), text=text)
    scopes = build_context(snap, symbols)["symbols"]["containingScopes"]
    return ".".join(s["name"] for s in scopes) or "<module>"


@pytest.mark.parametrize(
    ("text", "filetype", "needle", "expected"),
    [
        (GO, "go", "t.x = len(actions)", "Terminal.Loop.doActions"),
        (GO, "go", "visit(n - 1)", "Terminal.Loop.visit"),
        (GO, "go", "visit(1)", "Terminal.Loop.other"),
        (GO, "go", "doActions(nil)", "Terminal.Loop"),
        (TS, "typescript", "console.log(e)", "run.onEvent"),
        (TS, "typescript", "onEvent(null)", "run.handler"),
        (TS, "typescript", "run();", "top"),
        (LUA, "lua", "print(client)", "M.setup.on_attach"),
        (LUA, "lua", "print(code)", "M.setup.on_exit"),
        (GO_DOCUMENTED, "go", "in seconds", "<module>"),
        (GO_DOCUMENTED, "go", "const DefaultTTL", "<module>"),
        (GO_DOCUMENTED, "go", "size(1)", "table"),
    ],
)
def test_a_line_in_a_named_function_literal_is_in_it(text: str, filetype: str, needle: str, expected: str) -> None:
    outline = outline_of(text, filetype)
    line = next(i for i, row in enumerate(outline.source.lines) if needle in row)
    col = outline.source.lines[line].index(needle)
    assert enclosing(outline.symbols, Position(line, col), outline.source.lines[line]) == expected
    assert _context_chain(text, filetype, outline.symbols, line, col) == expected


#: Real files when the conformance corpus is installed, else the outline fixtures.
_REAL = ["/usr/share/go-*/src/net/http/client.go", "/usr/src/rustc-*/library/core/src/option.rs"]
_FIXTURES = ["go.go", "typescript.ts", "lua.lua", "python.py", "rust.rs", "javascript.js"]


def _files() -> list[Path]:
    real = [found[-1] for pattern in _REAL if (found := sorted(Path("/").glob(pattern.lstrip("/"))))]
    return real + [FIXTURES / "outline" / name for name in _FIXTURES]


@pytest.mark.parametrize("path", _files(), ids=lambda p: p.name)
def test_enclosing_agrees_with_the_editor_context_on_every_line(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    spec = languages.detect(path, None)
    outline = scan(text, spec)
    lines = outline.source.lines
    disagree = []
    for line, row in enumerate(lines):
        col = len(row) - len(row.lstrip())  # the first character of the line, as a reference would sit
        ours = enclosing(outline.symbols, Position(line, col), row)
        theirs = _context_chain(text, spec.name, outline.symbols, line, col)
        if ours != theirs:
            disagree.append((line + 1, ours, theirs))
    assert not disagree, disagree[:10]
