"""A Go method is qualified by its receiver type (issue 26, section 5): its scope
(`Symbol.scope`, from the query's `@scope` capture) names it `Terminal.Loop` wherever a
dotted name or a scope chain is shown — a reference's `in Terminal.Loop.doActions:`, the
editor context's `Method:Terminal.Loop > Function:doActions`, `expand_at
selector=Terminal.Loop`, the symbol table's PARENT, `search Terminal.Loop` — without
nesting it in the type, so its range and folds stay its own. Pointer, value, unnamed and
generic receivers all give the type's name; universal-ctags' `scope` for the methods of
real standard-library files is the oracle.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from simple_brief import languages
from simple_brief.editor import Snapshot
from simple_brief.editor.context import build_context, context_line
from simple_brief.errors import UserError
from simple_brief.files.workspace import Workspace
from simple_brief.lsp.pool import ServerPool
from simple_brief.model import Position, SymbolKind, walk_all
from simple_brief.render.lsp import Place, place_line
from simple_brief.scan import scan
from simple_brief.tools import Call, Session, invoke
from simple_brief.tools.lsp import enclosing

from conftest import outline_of

#: The shape of fzf's `func (t *Terminal) Loop()`, whose `doActions` closure holds most of
#: its references.
FZF = """package fzf

// Terminal is the terminal.
type Terminal struct {
	x int
}

// Loop runs the event loop.
func (t *Terminal) Loop() {
	doActions := func(actions []int) bool {
		t.x = len(actions)
		return true
	}
	doActions(nil)
}

func (t Terminal) Width() int { return t.x }

func (*Terminal) Reset() {}

func (t *Terminal) Len() int { return t.x }

type List[T any] struct {
	items []T
}

func (l *List[T]) Push(v T) {
	l.items = append(l.items, v)
}

func (l List[T]) Len() int {
	return len(l.items)
}

func (List[T]) Kind() string { return "list" }

func main() {
	run := func() {}
	run()
}
"""


def _at(text: str, needle: str) -> tuple[int, int]:
    """The 0-based line and column of `needle`'s first occurrence."""
    lines = text.splitlines()
    line = next(i for i, row in enumerate(lines) if needle in row)
    return line, lines[line].index(needle)


def test_a_reference_inside_a_methods_closure_is_in_the_receiver_qualified_chain() -> None:
    outline = outline_of(FZF, "go")
    line, col = _at(FZF, "t.x = len(actions)")
    row = outline.source.lines[line]
    symbol = enclosing(outline.symbols, Position(line, col), row)
    assert symbol == "Terminal.Loop.doActions"
    # The line analyze what=references prints for that site.
    assert place_line(Place("t.go", Position(line, col), row, symbol), False) == (
        "11:3 in Terminal.Loop.doActions: t.x = len(actions)"
    )
    line, col = _at(FZF, "doActions(nil)")
    assert enclosing(outline.symbols, Position(line, col), outline.source.lines[line]) == "Terminal.Loop"
    line, col = _at(FZF, "run()")
    assert enclosing(outline.symbols, Position(line, col), outline.source.lines[line]) == "main"


def test_the_editor_context_chain_names_the_receiver() -> None:
    outline = outline_of(FZF, "go")
    line, col = _at(FZF, "t.x = len(actions)")
    snap = Snapshot(Path("/w/t.go"), "go", FZF.count("\n"), False, (line + 1, col + 1), text=FZF)
    ctx = build_context(snap, outline.symbols)
    assert ctx["symbols"]["scopeHierarchy"] == "Method:Terminal.Loop > Function:doActions"
    assert [s["name"] for s in ctx["symbols"]["containingScopes"]] == ["Terminal.Loop", "doActions"]
    assert context_line(ctx, "/w").endswith("· Method:Terminal.Loop > Function:doActions")


def test_every_receiver_shape_gives_the_type_name_and_methods_stay_top_level() -> None:
    outline = outline_of(FZF, "go")
    methods = [s.scoped_name for s in outline.symbols if s.kind == SymbolKind.Method]
    assert methods == [
        "Terminal.Loop",
        "Terminal.Width",
        "Terminal.Reset",
        "Terminal.Len",
        "List.Push",
        "List.Len",
        "List.Kind",
    ]
    # A qualifier, not nesting: the types hold only their fields; nothing else is scoped.
    types = {s.name: [c.name for c in s.children] for s in outline.symbols if s.kind == SymbolKind.Struct}
    assert types == {"Terminal": ["x"], "List": ["items"]}
    assert [s.scoped_name for s in walk_all(outline.symbols) if s.scope] == methods


def test_the_lean_scan_the_index_stores_keeps_the_scope() -> None:
    lean = scan(FZF, languages.by_name("go"), lean=True)  # type: ignore[arg-type]
    assert {s.name: s.scope for s in lean.symbols if s.kind == SymbolKind.Method}["Push"] == "List"


@pytest.fixture
def fzf(tmp_path: Path) -> Iterator[Call]:
    """A call in a workspace holding the fixture as `t.go`."""
    (tmp_path / "t.go").write_text(FZF)
    call = Call(workspace=Workspace.at(tmp_path), session=Session(server_pool=ServerPool))
    try:
        yield call
    finally:
        call.session.close()


def test_tools_name_the_method_by_its_receiver(fzf: Call) -> None:
    loop = invoke("expand_at", {"path": "t.go", "selector": "Terminal.Loop"}, fzf)
    plain = invoke("expand_at", {"path": "t.go", "selector": "Loop"}, fzf)
    closure = invoke("expand_at", {"path": "t.go", "selector": "Terminal.Loop.doActions"}, fzf)
    generic = invoke("expand_at", {"path": "t.go", "selector": "List.Len"}, fzf)
    table = invoke("document_symbols", {"path": "t.go"}, fzf)
    found = invoke("search", {"query": "Terminal.Loop"}, fzf)
    names = invoke("simple_read", {"path": "t.go", "mode": "names"}, fzf)
    around = invoke("expand_at", {"path": "t.go", "selector": "doActions", "context": True}, fzf)
    method_around = invoke("expand_at", {"path": "t.go", "selector": "Terminal.Loop", "context": True}, fzf)
    assert loop.data["name"] == plain.data["name"] == "Loop"
    assert loop.data["range"] == plain.data["range"]
    assert closure.data["name"] == "doActions"
    assert generic.data["range"]["start"]["line"] == _at(FZF, "func (l List[T]) Len")[0]
    rows = {row.split(" | ")[0]: row.split(" | ")[4] for row in table.text.splitlines() if row.endswith("<<<")}
    assert rows["Loop"] == "Terminal" and rows["Push"] == "List" and rows["doActions"] == "Terminal.Loop"
    assert [m["name"] for m in found.data["matches"]][:1] == ["Loop"]
    assert "\nTerminal.Loop:9(doActions:10)\n" in names.text
    assert "\nList.Len:31\n" in names.text
    assert around.data["containers"] == ["Terminal.Loop"]
    assert method_around.text.startswith("t.go: Terminal.Loop with its surroundings")


def test_a_method_name_two_receivers_share_is_picked_by_the_receiver(fzf: Call) -> None:
    terminal = invoke("expand_at", {"path": "t.go", "selector": "Terminal.Len"}, fzf)
    listed = invoke("expand_at", {"path": "t.go", "selector": "List.Len"}, fzf)
    with pytest.raises(UserError) as err:
        invoke("expand_at", {"path": "t.go", "selector": "Len"}, fzf)
    assert terminal.data["range"]["start"]["line"] == _at(FZF, "func (t *Terminal) Len")[0]
    assert listed.data["range"]["start"]["line"] == _at(FZF, "func (l List[T]) Len")[0]
    first, second = _at(FZF, "func (t *Terminal) Len")[0] + 1, _at(FZF, "func (l List[T]) Len")[0] + 1
    assert f"Terminal.Len (line:{first}); List.Len (line:{second})" in str(err.value)


# --- real files against universal-ctags ----------------------------------------------------

_STDLIB = sorted(Path("/usr/share").glob("go-*/src"))
_REAL = ["net/http/server.go", "go/ast/ast.go", "text/template/exec.go", "go/types/api.go", "container/list/list.go"]


def _real(rel: str) -> Path:
    assert _STDLIB, "the Go standard library's source is missing: `make test` installs golang-go (.ci/run)"
    return _STDLIB[-1] / rel


def _ctags_receivers(path: Path) -> set[tuple[int, str, str]]:
    """(1-based line, name, receiver type) of every method universal-ctags lists: its
    `scope` is `package.Type` for a method, `package` for a plain function."""
    ctags = shutil.which("ctags")
    assert ctags, "universal-ctags is missing: `make test` installs it (.ci/run)"
    done = subprocess.run(
        [ctags, "--output-format=json", "--fields=+n+s", "--languages=Go", "-f", "-", str(path)],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    out = set()
    for row in done.stdout.splitlines():
        tag = json.loads(row)
        if tag.get("kind") == "func" and tag.get("scopeKind") != "package":
            out.add((tag["line"], tag["name"], tag["scope"].split(".", 1)[1]))
    return out


@pytest.mark.parametrize("rel", _REAL)
def test_receivers_agree_with_ctags_on_real_files(rel: str) -> None:
    path = _real(rel)
    theirs = _ctags_receivers(path)
    outline = scan(path.read_text(encoding="utf-8"), languages.by_name("go"))  # type: ignore[arg-type]
    ours = {(s.selection_range.start.line + 1, s.name, s.scope) for s in outline.symbols if s.kind == SymbolKind.Method}
    assert len(theirs) >= 10, theirs
    assert ours == theirs, (sorted(ours - theirs)[:10], sorted(theirs - ours)[:10])


def test_expand_at_finds_a_real_method_by_its_receiver(tmp_path: Path) -> None:
    source = _real("net/http/server.go")
    (tmp_path / "server.go").write_bytes(source.read_bytes())
    line = _at(source.read_text(encoding="utf-8"), "func (srv *Server) Shutdown(ctx context.Context) error {")[0]
    call = Call(workspace=Workspace.at(tmp_path), session=Session(server_pool=ServerPool))
    try:
        result = invoke("expand_at", {"path": "server.go", "selector": "Server.Shutdown"}, call)
        # Several receivers have a `Close` method: the receiver picks one.
        close = invoke("expand_at", {"path": "server.go", "selector": "Server.Close"}, call)
    finally:
        call.session.close()
    assert result.data["name"] == "Shutdown"
    assert result.data["range"]["start"]["line"] <= line <= result.data["range"]["end"]["line"]
    assert "func (srv *Server) Close() error {" in close.text


def test_docs_ids_of_real_methods_name_their_receiver() -> None:
    """The docs index names a method `pkg.Type.Method` from the same scope; an unnamed
    receiver (`func (boolType) String()`) is no exception."""
    from simple_brief.docs.items import extract

    path = _real("database/sql/driver/types.go")
    outline = scan(path.read_text(encoding="utf-8"), languages.by_name("go"))  # type: ignore[arg-type]
    ids = {item.id for item in extract(outline, "database/sql/driver/types.go").items}
    expected = {f"driver.{receiver}.{name}" for _, name, receiver in _ctags_receivers(path)}
    assert "driver.boolType.String" in expected
    assert expected <= ids, sorted(expected - ids)[:10]
