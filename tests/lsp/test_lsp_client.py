"""The disk-mode language-server pool against real servers (jedi-language-server, pylsp).

One pool with both servers is shared by the module (starting them costs ~0.7 s); tests
that kill, reconfigure or close servers start their own. Client behaviours no real server
shows on demand (never answering, dying mid-request, asking the client questions) use a
tiny stub server that speaks real LSP over stdio (STUB_SERVER below), not a mock.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from simple_brief.errors import UserError
from simple_brief.files.config import Config, ServerConfig
from simple_brief.files.workspace import Workspace
from simple_brief.intel import LspReply
from simple_brief.intel.protocol import convert_positions, encode_positions, path_to_uri, uri_to_path
from simple_brief.lsp.pool import ServerPool
from simple_brief.positions import from_encoding, to_encoding

BIN = Path(sys.executable).parent
JEDI = ServerConfig("jedi", (str(BIN / "jedi-language-server"),), ("python",))
PYLSP = ServerConfig("pylsp", (str(BIN / "pylsp"),), ("python",))
HOVER = "textDocument/hover"
#: Bound for real servers' answers: a cold jedi completion takes seconds on a busy machine.
T = 30.0

UTIL = '''\
"""Helpers."""


def greet(name: str) -> str:
    """Return a friendly greeting for `name`."""
    return "hello " + name
'''
MAIN = """\
from pkg.util import greet

# greet is called below; this comment must survive a rename
MESSAGE = "greet stays in this string"
print(greet("world"))
label = "é😀"; print(greet(label))
"""
MESSY = "x=1\ndef f( a ):\n  return a\n"
UNUSED = "import os\n\n\nVALUE = 1\n"
MAIN_PY = Path("pkg/main.py")
UTIL_PY = Path("pkg/util.py")


def by_server(replies: list[LspReply]) -> dict[str, LspReply]:
    for reply in replies:
        assert reply.error is None, f"{reply.server}: {reply.error}"
    return {r.server: r for r in replies}


def converted(pool: ServerPool, reply: LspReply, path: Path) -> Any:
    uri = path_to_uri(pool.workspace.root / path)
    return convert_positions(reply.result, pool.text_of, reply.encoding, uri=uri)


def offset(text: str, position: dict[str, int]) -> int:
    lines = text.split("\n")
    return sum(len(line) + 1 for line in lines[: position["line"]]) + position["character"]


def apply_edits(text: str, edits: list[dict[str, Any]]) -> str:
    """Apply LSP TextEdits (code-point positions) to text, last first."""
    spans = sorted((offset(text, e["range"]["start"]), offset(text, e["range"]["end"]), e["newText"]) for e in edits)
    for start, end, new in reversed(spans):
        text = text[:start] + new + text[end:]
    return text


def edits_by_path(edit: dict[str, Any]) -> dict[Path, list[dict[str, Any]]]:
    """A WorkspaceEdit's TextEdits per file (`changes` or `documentChanges`)."""
    found: dict[Path, list[dict[str, Any]]] = {}
    for uri, edits in (edit.get("changes") or {}).items():
        found.setdefault(uri_to_path(uri), []).extend(edits)  # type: ignore[arg-type]
    for change in edit.get("documentChanges") or []:
        found.setdefault(uri_to_path(change["textDocument"]["uri"]), []).extend(change["edits"])  # type: ignore[arg-type]
    return found


def descendants(pid: int) -> set[int]:
    """Live (not zombie) processes below `pid`, from /proc."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if fields[0] != "Z":
            children.setdefault(int(fields[1]), []).append(int(entry.name))
    found: set[int] = set()
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("lspclient-project")
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "util.py").write_text(UTIL, encoding="utf-8")
    (root / "pkg" / "main.py").write_text(MAIN, encoding="utf-8")
    (root / "pkg" / "messy.py").write_text(MESSY)
    (root / "pkg" / "unused.py").write_text(UNUSED)
    return root


@pytest.fixture(scope="module", autouse=True)
def venv_on_path() -> Iterator[None]:
    # pylsp-ruff runs `ruff`, which lives beside the venv's python.
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PATH", f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}")
        yield


@pytest.fixture(scope="module")
def pool(project: Path) -> Iterator[ServerPool]:
    shared = ServerPool(Workspace.at(project), Config(servers=[JEDI, PYLSP]))
    yield shared
    shared.close()


# --- position conversion (no server) ---------------------------------------------


def test_column_conversion_both_ways() -> None:
    line = "é😀ab"
    assert [to_encoding(line, c, "utf-16") for c in range(5)] == [0, 1, 3, 4, 5]
    assert [to_encoding(line, c, "utf-8") for c in range(5)] == [0, 2, 6, 7, 8]
    assert [to_encoding(line, c, "utf-32") for c in range(5)] == [0, 1, 2, 3, 4]
    for encoding in ("utf-8", "utf-16", "utf-32"):
        for c in range(5):
            assert from_encoding(line, to_encoding(line, c, encoding), encoding) == c
    assert from_encoding(line, 2, "utf-16") == 1  # inside the surrogate pair: that character
    assert from_encoding(line, 4, "utf-8") == 1
    assert from_encoding(line, 10, "utf-8") == 6  # past the end keeps its overshoot


def test_convert_positions_walks_every_kind_of_result() -> None:
    texts = {"file:///a.py": "é😀ab\nxy", "file:///b.py": "plain"}

    def pos(line: int, character: int) -> dict[str, int]:
        return {"line": line, "character": character}

    def rng(a: int, b: int) -> dict[str, Any]:
        return {"start": pos(0, a), "end": pos(0, b)}

    result: dict[str, Any] = {
        "locations": [{"uri": "file:///a.py", "range": rng(3, 4)}, {"uri": "file:///b.py", "range": rng(3, 4)}],
        "link": {"targetUri": "file:///a.py", "targetRange": rng(1, 3), "targetSelectionRange": rng(3, 5)},
        "edit": {
            "changes": {"file:///a.py": [{"range": rng(4, 5), "newText": "z"}]},
            "documentChanges": [
                {"textDocument": {"uri": "file:///a.py", "version": 2}, "edits": [{"range": rng(3, 5)}]}
            ],
        },
        "hover": {"contents": "x", "range": rng(1, 3)},
        "diagnostic": {
            "range": rng(3, 4),
            "relatedInformation": [{"location": {"uri": "file:///b.py", "range": rng(1, 2)}, "message": "m"}],
        },
        "second_line": pos(1, 1),
        "unknown": {"uri": "file:///gone.py", "range": rng(3, 4)},
    }
    out = convert_positions(result, texts.get, "utf-16", uri="file:///a.py")
    assert out["locations"][0]["range"] == rng(2, 3)
    assert out["locations"][1]["range"] == rng(3, 4)  # ASCII file: unchanged
    assert out["link"]["targetRange"] == rng(1, 2) and out["link"]["targetSelectionRange"] == rng(2, 4)
    assert out["edit"]["changes"]["file:///a.py"][0]["range"] == rng(3, 4)
    assert out["edit"]["documentChanges"][0]["edits"][0]["range"] == rng(2, 4)
    assert out["hover"]["range"] == rng(1, 2)  # no uri of its own: the requested file
    assert out["diagnostic"]["range"] == rng(2, 3)
    assert out["diagnostic"]["relatedInformation"][0]["location"]["range"] == rng(1, 2)
    assert out["second_line"] == pos(1, 1)
    assert out["unknown"]["range"] == rng(3, 4)  # text unknown: kept
    assert result["hover"]["range"] == rng(1, 3)  # the input is not changed
    utf8 = convert_positions({"uri": "file:///a.py", "range": rng(6, 8)}, texts.get, "utf-8")
    assert utf8["range"] == rng(2, 4)


def test_encode_positions_for_requests() -> None:
    params: dict[str, Any] = {"position": {"line": 0, "character": 2}, "context": {"includeDeclaration": True}}
    assert encode_positions(params, "é😀ab", "utf-16")["position"]["character"] == 3
    assert encode_positions(params, "é😀ab", "utf-8")["position"]["character"] == 6
    assert encode_positions(params, "é😀ab", "utf-32") == params
    assert params["position"]["character"] == 2


# --- real servers -------------------------------------------------------------


def test_servers_start_lazily_and_negotiate_encodings(pool: ServerPool) -> None:
    assert pool.servers(MAIN_PY, HOVER) == ["jedi", "pylsp"]
    encodings = {s["name"]: s["encoding"] for s in pool.status()}
    # jedi negotiates utf-32; pylsp announces nothing but counts code points (issue 343).
    assert encodings == {"jedi": "utf-32", "pylsp": "utf-32"}
    assert pool.servers(MAIN_PY, "textDocument/formatting") == ["pylsp"]  # jedi does not format


def test_hover_shows_the_docstring(pool: ServerPool) -> None:
    replies = by_server(pool.request(MAIN_PY, HOVER, {"position": {"line": 4, "character": 8}}, timeout=T))
    assert set(replies) == {"jedi", "pylsp"}
    for reply in replies.values():
        assert "Return a friendly greeting" in reply.result["contents"]["value"]


def test_definition_across_files(pool: ServerPool, project: Path) -> None:
    replies = by_server(
        pool.request(MAIN_PY, "textDocument/definition", {"position": {"line": 4, "character": 8}}, timeout=T)
    )
    for reply in replies.values():
        [location] = converted(pool, reply, MAIN_PY)
        assert uri_to_path(location["uri"]) == project / "pkg" / "util.py"
        assert location["range"]["start"] == {"line": 3, "character": 4}


def test_references_in_both_files(pool: ServerPool, project: Path) -> None:
    params = {"position": {"line": 3, "character": 5}, "context": {"includeDeclaration": True}}
    for reply in by_server(pool.request(UTIL_PY, "textDocument/references", params, timeout=T)).values():
        found = {
            (uri_to_path(loc["uri"]).name, loc["range"]["start"]["line"], loc["range"]["start"]["character"])  # type: ignore[union-attr]
            for loc in converted(pool, reply, UTIL_PY)
        }
        expected = {("util.py", 3, 4), ("main.py", 0, 21), ("main.py", 4, 6), ("main.py", 5, 20)}
        assert found == expected, reply.server


def test_completion_in_an_overlay_only_file(pool: ServerPool, project: Path) -> None:
    scratch = project / "pkg" / "scratch.py"
    pool.workspace.overlays[scratch] = "from pkg.util import greet\ngre"
    try:
        replies = by_server(
            pool.request(scratch, "textDocument/completion", {"position": {"line": 1, "character": 3}}, timeout=T)
        )
    finally:
        del pool.workspace.overlays[scratch]
    assert not scratch.exists()
    for reply in replies.values():
        items = reply.result["items"] if isinstance(reply.result, dict) else reply.result
        labels = {item["label"] for item in items}
        assert labels & {"greet", "greet(name)"}, (reply.server, labels)  # pylsp shows the parameters


def test_rename_edits_code_not_strings_or_comments(pool: ServerPool, project: Path) -> None:
    assert pool.servers(UTIL_PY, "textDocument/prepareRename") == []  # neither server offers it
    assert (
        pool.request(UTIL_PY, "textDocument/prepareRename", {"position": {"line": 3, "character": 5}}, timeout=T) == []
    )
    params = {"position": {"line": 3, "character": 5}, "newName": "welcome"}
    for reply in by_server(pool.request(UTIL_PY, "textDocument/rename", params, timeout=T)).values():
        per_file = edits_by_path(converted(pool, reply, UTIL_PY))
        assert set(per_file) == {project / "pkg" / "util.py", project / "pkg" / "main.py"}, reply.server
        main = apply_edits(MAIN, per_file[project / "pkg" / "main.py"])
        util = apply_edits(UTIL, per_file[project / "pkg" / "util.py"])
        assert main == MAIN.replace("import greet", "import welcome").replace("greet(", "welcome("), reply.server
        assert "# greet is called below" in main and '"greet stays in this string"' in main
        assert util == UTIL.replace("def greet", "def welcome"), reply.server
    assert (project / "pkg" / "main.py").read_text(encoding="utf-8") == MAIN  # nothing written


def test_formatting_from_pylsp_is_idempotent(pool: ServerPool, project: Path) -> None:
    messy = project / "pkg" / "messy.py"
    options = {"options": {"tabSize": 4, "insertSpaces": True}}
    [reply] = pool.request(messy, "textDocument/formatting", options, timeout=T)
    assert reply.server == "pylsp" and reply.error is None
    once = apply_edits(MESSY, converted(pool, reply, messy))
    assert once != MESSY and "x = 1" in once and "def f(a):" in once
    pool.workspace.overlays[messy] = once
    try:
        [again] = pool.request(messy, "textDocument/formatting", options, timeout=T)
    finally:
        del pool.workspace.overlays[messy]
    assert apply_edits(once, converted(pool, again, messy) or []) == once


def test_overlay_text_is_what_servers_see(pool: ServerPool, project: Path) -> None:
    main = project / "pkg" / "main.py"
    pool.workspace.overlays[main] = 'def greet():\n    """Unsaved overlay docs."""\n\n\ngreet()\n'
    try:
        hovers = by_server(pool.request(MAIN_PY, HOVER, {"position": {"line": 4, "character": 1}}, timeout=T))
        definitions = by_server(
            pool.request(MAIN_PY, "textDocument/definition", {"position": {"line": 4, "character": 1}}, timeout=T)
        )
    finally:
        del pool.workspace.overlays[main]
    for name in ("jedi", "pylsp"):
        assert "Unsaved overlay docs" in hovers[name].result["contents"]["value"]
        [location] = definitions[name].result
        assert uri_to_path(location["uri"]) == main and location["range"]["start"]["line"] == 0
    back = by_server(pool.request(MAIN_PY, HOVER, {"position": {"line": 4, "character": 8}}, timeout=T))
    assert "Return a friendly greeting" in back["jedi"].result["contents"]["value"]


def test_non_ascii_before_the_position(pool: ServerPool) -> None:
    # Line 5 is `label = "é😀"; print(greet(label))`: `greet` starts at code point 20
    # (UTF-16 column 21); both servers count code points. The stub tests cover utf-8/16.
    position = {"position": {"line": 5, "character": 20}}
    for reply in by_server(pool.request(MAIN_PY, HOVER, position, timeout=T)).values():
        assert "Return a friendly greeting" in reply.result["contents"]["value"], reply.server
    for reply in by_server(pool.request(MAIN_PY, "textDocument/documentHighlight", position, timeout=T)).values():
        ranges = [h["range"] for h in converted(pool, reply, MAIN_PY)]
        expected = {"start": {"line": 5, "character": 20}, "end": {"line": 5, "character": 25}}
        assert expected in ranges, (reply.server, reply.encoding, ranges)


def test_pylsp_publishes_unused_import_and_offers_quickfixes(pool: ServerPool) -> None:
    unused = Path("pkg/unused.py")
    replies = by_server(pool.diagnostics(unused, timeout=T))
    [f401] = [d for d in replies["pylsp"].result if d.get("code") == "F401"]
    assert f401["source"] == "ruff" and "os" in f401["message"]
    assert f401["range"] == {"start": {"line": 0, "character": 7}, "end": {"line": 0, "character": 9}}
    params = {"range": f401["range"], "context": {"diagnostics": [f401], "only": ["quickfix"]}}
    [actions] = pool.request(unused, "textDocument/codeAction", params, timeout=T)[1:]
    assert actions.server == "pylsp" and actions.result
    assert {a["kind"] for a in actions.result} == {"quickfix"}  # source.fixAll filtered out
    removal = next(a for a in actions.result if "Remove unused import" in a["title"])
    [edits] = edits_by_path(removal["edit"]).values()
    assert apply_edits(UNUSED, edits) == UNUSED.replace("import os\n", "")


def test_settings_reach_pylsp(project: Path) -> None:
    settings = {"pylsp": {"plugins": {"ruff": {"enabled": False}, "pyflakes": {"enabled": True}}}}
    config = Config(servers=[ServerConfig("pylsp", PYLSP.command, ("python",), settings=settings)])
    own = ServerPool(Workspace.at(project), config)
    try:
        [reply] = own.diagnostics(Path("pkg/unused.py"), timeout=T)
    finally:
        own.close()
    assert reply.error is None
    [found] = reply.result
    assert found["source"] == "pyflakes" and "'os' imported but unused" in found["message"]


def test_killed_server_is_restarted_on_the_next_request(project: Path) -> None:
    own = ServerPool(Workspace.at(project), Config(servers=[JEDI]))
    try:
        assert by_server(own.request(MAIN_PY, HOVER, {"position": {"line": 4, "character": 8}}, timeout=T))
        [pid] = own.process_ids()
        server = own._servers["jedi"]
        os.kill(pid, signal.SIGKILL)
        assert server.proc is not None
        server.proc.wait(timeout=10)
        reply = by_server(own.request(MAIN_PY, HOVER, {"position": {"line": 4, "character": 8}}, timeout=T))["jedi"]
        assert "Return a friendly greeting" in reply.result["contents"]["value"]
        assert own.process_ids() != [pid]
    finally:
        own.close()


def test_close_leaves_no_process(project: Path) -> None:
    own = ServerPool(Workspace.at(project), Config(servers=[JEDI]))
    before = descendants(os.getpid())
    by_server(own.request(MAIN_PY, HOVER, {"position": {"line": 4, "character": 8}}, timeout=T))
    started = descendants(os.getpid()) - before
    assert set(own.process_ids()) <= started and len(own.process_ids()) == 1
    own.close()
    assert not (descendants(os.getpid()) & started)
    with pytest.raises(UserError, match="shut down"):
        own.request(MAIN_PY, HOVER, {"position": {"line": 4, "character": 8}}, timeout=T)


def test_missing_program_is_one_sentence(project: Path) -> None:
    config = Config(servers=[ServerConfig("ghost", ("no-such-language-server-xyz",), ("python",))])
    own = ServerPool(Workspace.at(project), config)
    with pytest.raises(UserError) as info:
        own.servers(MAIN_PY, HOVER)
    assert str(info.value) == (
        "the language server `no-such-language-server-xyz` named in .simple-brief.toml was not found on PATH; "
        "install it or fix `servers.ghost.command`."
    )
    own.close()


def test_language_without_servers(pool: ServerPool, project: Path) -> None:
    (project / "notes.lua").write_text("local x = 1\n")
    assert pool.servers(project / "notes.lua", HOVER) == []
    assert pool.request(project / "notes.lua", HOVER, {"position": {"line": 0, "character": 6}}, timeout=T) == []
    assert pool.diagnostics(project / "notes.lua", timeout=T) == []


# --- client behaviour, through the stub server -----------------------------------


@pytest.fixture
def stub(tmp_path: Path) -> Iterator[ServerPool]:
    script = tmp_path / "stub_server.py"
    script.write_text(STUB_SERVER)
    (tmp_path / "a.py").write_text("label = 'é😀'; greet(label)\n", encoding="utf-8")
    settings = {"stub": {"greeting": "hi"}}
    config = Config(servers=[ServerConfig("stub", (sys.executable, str(script)), ("python",), settings=settings)])
    own = ServerPool(Workspace.at(tmp_path), config)
    yield own
    own.close()


def test_stub_answers_server_requests_and_converts_to_utf8(
    stub: ServerPool, caplog: pytest.LogCaptureFixture, capfd: pytest.CaptureFixture[str]
) -> None:
    caplog.set_level(logging.DEBUG, logger="simple_brief.lsp.process")
    [reply] = stub.request(Path("a.py"), HOVER, {"position": {"line": 0, "character": 20}})
    assert reply.error is None and reply.encoding == "utf-8"
    echo = json.loads(reply.result["contents"])
    assert echo["position"] == {"line": 0, "character": 24}  # é is 2 bytes, 😀 4
    answers = echo["answers"]
    assert answers["workspace/configuration"] == ["hi", None, {"stub": {"greeting": "hi"}}]
    assert answers["client/registerCapability"] is None
    assert answers["workspace/applyEdit"]["applied"] is False
    assert answers["window/workDoneProgress/create"] is None
    assert answers["stub/unknown"]["code"] == -32601
    assert stub.servers(Path("a.py"), "textDocument/formatting") == ["stub"]  # registered dynamically
    stub.close()
    assert "stub server starting" in caplog.text
    assert "stub server starting" not in capfd.readouterr().out


def test_stub_document_versions_and_fresh_diagnostics(stub: ServerPool, tmp_path: Path) -> None:
    [first] = stub.diagnostics(Path("a.py"))
    assert first.error is None and first.result[0]["message"] == "version 1"
    stub.workspace.overlays[tmp_path / "a.py"] = "changed = 1\n"
    [second] = stub.diagnostics(Path("a.py"))
    assert second.result[0]["message"] == "version 2"
    [reply] = stub.request(Path("a.py"), HOVER, {"position": {"line": 0, "character": 0}})
    documents = json.loads(reply.result["contents"])["documents"]
    assert documents == {path_to_uri(tmp_path / "a.py"): [2, "changed = 1\n"]}  # unchanged text: no new version


def test_stub_timeout_and_crash_mid_request(stub: ServerPool) -> None:
    [late] = stub.request(
        Path("a.py"), "textDocument/definition", {"position": {"line": 0, "character": 0}}, timeout=0.5
    )
    assert late.error == "timed out after 0.5s" and late.result is None
    [crash] = stub.request(Path("a.py"), "textDocument/references", {"position": {"line": 0, "character": 0}})
    assert crash.error is not None and "exited with code 3" in crash.error and "restarted" in crash.error
    [again] = stub.request(Path("a.py"), HOVER, {"position": {"line": 0, "character": 0}})
    assert again.error is None


def test_stub_internal_error_is_asked_once_more_then_shown(stub: ServerPool) -> None:
    at = {"position": {"line": 0, "character": 0}}
    [flaky] = stub.request(Path("a.py"), "textDocument/completion", at)
    assert flaky.error is None and flaky.result == {"items": [], "asked": 2}
    [broken] = stub.request(Path("a.py"), "textDocument/signatureHelp", at)
    assert broken.error == "stub failure 2 (code -32603)"  # asked twice, the second failure shown


def test_config_encoding_overrides_the_servers(tmp_path: Path) -> None:
    script = tmp_path / "stub_server.py"
    script.write_text(STUB_SERVER)
    (tmp_path / "a.py").write_text("label = 'é😀'; greet(label)\n", encoding="utf-8")
    server = ServerConfig("stub", (sys.executable, str(script)), ("python",), position_encoding="utf-16")
    own = ServerPool(Workspace.at(tmp_path), Config(servers=[server]))
    try:
        [reply] = own.request(Path("a.py"), HOVER, {"position": {"line": 0, "character": 20}})
    finally:
        own.close()
    assert reply.encoding == "utf-16"
    assert json.loads(reply.result["contents"])["position"] == {"line": 0, "character": 21}


STUB_SERVER = r'''"""A tiny language server for tests of client behaviour real servers will not show on demand.

It speaks real LSP over stdio, negotiates `utf-8` positions, asks the client the
server->client requests (workspace/configuration, client/registerCapability,
workspace/applyEdit, window/workDoneProgress/create and an unknown one) and echoes the
answers, the positions and the documents it holds in its hover text; it never answers
`textDocument/definition` (a timeout), exits on `textDocument/references` (a crash
mid-request), fails the first `textDocument/completion` with an InternalError (a race
inside a server) and every `textDocument/signatureHelp`. Run as `python lsp_stub_server.py`.
"""

from __future__ import annotations

import json
import sys

OUT = sys.stdout.buffer
IN = sys.stdin.buffer


def send(message: dict) -> None:
    body = json.dumps(message).encode()
    OUT.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
    OUT.flush()


def receive() -> dict | None:
    length = 0
    while True:
        line = IN.readline()
        if not line:
            return None
        if not line.strip():
            break
        name, _, value = line.decode().partition(":")
        if name.lower() == "content-length":
            length = int(value)
    return json.loads(IN.read(length))


ASKED = {
    901: ("workspace/configuration", {"items": [{"section": "stub.greeting"}, {"section": "nope.x"}, {}]}),
    902: (
        "client/registerCapability",
        {"registrations": [{"id": "f", "method": "textDocument/formatting", "registerOptions": {}}]},
    ),
    903: ("workspace/applyEdit", {"edit": {"changes": {}}}),
    904: ("window/workDoneProgress/create", {"token": "t"}),
    905: ("stub/unknown", {}),
}


def main() -> None:
    sys.stderr.write("stub server starting\n")
    sys.stderr.flush()
    answers: dict[str, object] = {}
    documents: dict[str, list] = {}
    failures: dict[str, int] = {}
    while True:
        message = receive()
        if message is None:
            return
        method = message.get("method")
        params = message.get("params") or {}
        if method is None:  # an answer to one of our requests
            asked = ASKED[message["id"]][0]
            answers[asked] = message.get("result", message.get("error"))
            continue
        if method == "initialize":
            capabilities = {
                "positionEncoding": "utf-8",
                "textDocumentSync": 1,
                "hoverProvider": True,
                "definitionProvider": True,
                "referencesProvider": True,
                "completionProvider": {},
                "signatureHelpProvider": {},
            }
            send({"jsonrpc": "2.0", "id": message["id"], "result": {"capabilities": capabilities}})
        elif method == "initialized":
            for request_id, (asked, asked_params) in ASKED.items():
                send({"jsonrpc": "2.0", "id": request_id, "method": asked, "params": asked_params})
        elif method in ("textDocument/didOpen", "textDocument/didChange"):
            document = params["textDocument"]
            text = document["text"] if method.endswith("didOpen") else params["contentChanges"][-1]["text"]
            documents[document["uri"]] = [document["version"], text]
            diagnostic = {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 1}}}
            diagnostic["message"] = f"version {document['version']}"
            send(
                {
                    "jsonrpc": "2.0",
                    "method": "textDocument/publishDiagnostics",
                    "params": {"uri": document["uri"], "version": document["version"], "diagnostics": [diagnostic]},
                }
            )
        elif method == "textDocument/hover":
            while len(answers) < len(ASKED):  # the client answers at once; read until it has
                reply = receive()
                if reply is None:
                    return
                answers[ASKED[reply["id"]][0]] = reply.get("result", reply.get("error"))
            echo = {"answers": answers, "position": params["position"], "documents": documents}
            send({"jsonrpc": "2.0", "id": message["id"], "result": {"contents": json.dumps(echo)}})
        elif method == "textDocument/references":
            sys.exit(3)
        elif method in ("textDocument/completion", "textDocument/signatureHelp"):
            failures[method] = failures.get(method, 0) + 1
            if method.endswith("signatureHelp") or failures[method] == 1:
                error = {"code": -32603, "message": f"stub failure {failures[method]}"}
                send({"jsonrpc": "2.0", "id": message["id"], "error": error})
            else:
                send({"jsonrpc": "2.0", "id": message["id"], "result": {"items": [], "asked": failures[method]}})
        elif method == "shutdown":
            send({"jsonrpc": "2.0", "id": message["id"], "result": None})
        elif method == "exit":
            return
        # textDocument/definition and anything else: never answered.


if __name__ == "__main__":
    main()
'''
