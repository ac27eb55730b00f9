"""No row lost or changed by the one file store: both indexes of a real tree (standard
library packages and npm packages, `index_rows.copy_tree`) hold exactly the rows the
revision before it made, kept as digests in `index_rows.json` (how it was made:
`index_rows.py`'s module doc) — parsed in this process, and by worker processes (their doc
items pickled back)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from index_rows import GOLDEN, build, copy_tree, differences

from simple_brief.index import batch as batch_module


@pytest.mark.parametrize("pool", [False, True])
def test_both_indexes_hold_the_rows_of_the_revision_before(
    tmp_path: Path, pool: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    if pool:
        monkeypatch.setattr(batch_module, "POOL_MIN_FILES", 1)
        monkeypatch.setattr(batch_module, "CHUNK_FILES", 7)
        monkeypatch.setattr(batch_module, "worker_count", lambda: 2)  # workers even on one core
    now = build(copy_tree(tmp_path / "tree"), tmp_path / "cache")
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert now["symbols"]["count"] > 1000 and now["docs items"]["count"] > 1000  # a real tree, indexed
    assert differences(golden, now) == []
