"""A cold `simple-brief outline` imports what an outline needs, not the symbol index's
SQLite and worker pools or the docs index: the interpreter's own record of loaded modules
(`sys.modules`) after a real standalone run is the oracle."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

FIXTURE = Path(__file__).parents[1] / "fixtures" / "outline" / "python.py"

PROBE = """
import json, sys
from simple_brief.cli import client
code = client.standalone(["outline", sys.argv[1]])
watched = ("simple_brief.index", "simple_brief.docs", "sqlite3")
print(json.dumps(sorted(m for m in sys.modules if m.startswith(watched))), file=sys.stderr)
"""


def test_a_cold_outline_loads_neither_index() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(FIXTURE)], capture_output=True, text=True, check=False, timeout=60
    )
    assert done.returncode == 0, done.stderr
    loaded = json.loads(done.stderr.strip().splitlines()[-1])
    assert loaded == []
