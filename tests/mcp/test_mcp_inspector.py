"""A real third-party MCP client: the npm MCP Inspector's CLI, over stdio.

`make test` installs it (package.json) when npm exists; without Node the test is
skipped with the reason printed, as the issue asks.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
INSPECTOR = ROOT / "node_modules" / ".bin" / "mcp-inspector"

pytestmark = pytest.mark.skipif(
    shutil.which("node") is None or not INSPECTOR.exists(),
    reason="the MCP Inspector needs Node and `npm install` (make test runs it when npm is installed)",
)


def inspector(root: Path, *method: str) -> dict[str, object]:
    argv = [str(INSPECTOR), "--cli", sys.executable, "-m", "simple_brief", "mcp", "--root", str(root), *method]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120, cwd=root, check=False)
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_inspector_lists_the_tools(tmp_path: Path) -> None:
    listing = inspector(tmp_path, "--method", "tools/list")
    tools = {t["name"]: t for t in listing["tools"]}  # type: ignore[union-attr,index]
    assert {"simple_read", "expand_at", "document_symbols", "search", "diagnostics", "editor_get_context"} <= set(tools)
    assert tools["simple_read"]["annotations"]["readOnlyHint"] is True  # type: ignore[index]


def test_inspector_calls_a_tool(tmp_path: Path) -> None:
    (tmp_path / "shapes.py").write_text("class Circle:\n    def area(self):\n        return 3.14\n")
    result = inspector(
        tmp_path,
        "--method",
        "tools/call",
        "--tool-name",
        "expand_at",
        "--tool-arg",
        "path=shapes.py",
        "--tool-arg",
        "selector=Circle.area",
    )
    assert result["isError"] is False
    assert result["content"][0]["text"] == "F_ def area(self): L2-3\n    return 3.14"  # type: ignore[index]
    assert result["structuredContent"]["name"] == "area"  # type: ignore[index]
