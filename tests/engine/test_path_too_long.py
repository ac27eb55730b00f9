"""A path longer than the system allows (PATH_MAX, 4,096 bytes with the workspace root in
front) is one sentence from every tool that takes a path, never an OSError the adapter
turns into "Error executing tool X". The hostile-names test met it when the test folder's
own path grew (pytest-xdist's `popen-gw0`): diagnostics, files_apply_overlay, debug_launch
and profile_run raised ENAMETOOLONG from `Path.is_file()`."""

from __future__ import annotations

from pathlib import Path

import pytest

from simple_brief.errors import UserError
from simple_brief.files.workspace import Workspace
from simple_brief.tools import Call, invoke

#: 15 components of 250 bytes (3,773 bytes with deep.py): under PATH_MAX by itself, past it
#: behind the workspace root below.
LONG = "/".join(f"{i:02d}" + "d" * 248 for i in range(15)) + "/deep.py"
CALLS = [
    ("diagnostics", {"path": LONG}),
    ("files_apply_overlay", {"path": LONG, "content": "x = 1\n"}),
    ("debug_launch", {"program": LONG, "wait_s": 1, "timeout_s": 5}),
    ("profile_run", {"file": LONG}),
    ("simple_read", {"path": LONG}),
    ("expand_at", {"path": LONG, "selector": "f"}),
    ("document_symbols", {"path": LONG}),
]


@pytest.mark.parametrize(("tool", "args"), CALLS, ids=[c[0] for c in CALLS])
def test_a_path_past_path_max_is_one_sentence(tmp_path: Path, tool: str, args: dict[str, object]) -> None:
    root = tmp_path / ("r" * 250) / ("s" * 250)  # over 500 bytes of root in front of LONG
    root.mkdir(parents=True)
    assert len(LONG) < 4096 < len(str(root / LONG))
    call = Call(workspace=Workspace.at(root))
    try:
        with pytest.raises(UserError) as refused:
            invoke(tool, args, call)
    finally:
        call.session.close()
    message = str(refused.value)
    assert "\n" not in message and len(message) < 1000, message
