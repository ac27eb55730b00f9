"""The fold server beside a host (the rplugin process): a document's full outline is the
host's parse of the same text when a call read the file already (one parse for both), and
its own parse once the buffer differs."""

from __future__ import annotations

from pathlib import Path

from simple_brief.host.core import Host
from simple_brief.intel.protocol import path_to_uri
from simple_brief.servers.lsp import create_server

TEXT = "class Shape:\n    def area(self) -> float:\n        return 0.0\n"


def test_an_open_document_shares_the_workspaces_parse_of_the_same_text(tmp_path: Path) -> None:
    (tmp_path / "shape.py").write_text(TEXT)
    host = Host()
    answer = host.call("simple_read", {"path": "shape.py", "mode": "outline"}, root=tmp_path)
    assert not answer.is_error, answer.blocks
    workspace = host.state(tmp_path).workspace
    parsed = workspace.outline("shape.py")[1]  # the call's parse, from the cache
    server = create_server(host)
    uri = path_to_uri(tmp_path / "shape.py")
    server.documents.did_open(uri, TEXT, "python", 1)
    try:
        assert server.outline(uri) is parsed
        server.documents.get(uri).replace(TEXT.replace("area", "perimeter"), 2)  # type: ignore[union-attr]
        own = server.outline(uri)
        assert own is not parsed and [c.name for c in own.symbols[0].children] == ["perimeter"]
        other = create_server(None)  # a server without a host parses for itself
        other.documents.did_open(uri, TEXT, "python", 1)
        assert other.outline(uri) is not parsed
    finally:
        host.close()


def test_another_language_is_not_shared(tmp_path: Path) -> None:
    (tmp_path / "shape.py").write_text(TEXT)
    host = Host()
    host.call("simple_read", {"path": "shape.py"}, root=tmp_path)
    server = create_server(host)
    uri = path_to_uri(tmp_path / "shape.py")
    server.documents.did_open(uri, TEXT, "lua", 1)  # the person set another filetype
    try:
        assert server.outline(uri) is not host.state(tmp_path).workspace.outline("shape.py")[1]
    finally:
        host.close()
