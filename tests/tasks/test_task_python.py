"""The task tools on a real Python project, really run: pytest through the declared `test`
task (JUnit XML), its limits (time, memory, output) with the partial results, test_list,
coverage through coverage.py, and cProfile through profile_run / profile_hotspots."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import pytest
from projects import alive, call_tool, declare, python_project, python_tasks

from simple_brief import tools as registry
from simple_brief.files.workspace import Workspace
from simple_brief.tools import Call, Cancelled


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = python_project(tmp_path / "calc")
    declare(root, python_tasks())
    return root


def test_run_counts_names_messages_and_locations(project: Path) -> None:
    result = call_tool(project, "test_run", filter="test_calc")
    data = result.data
    assert (data["passed"], data["failed"], data["skipped"], data["errors"]) == (2, 2, 1, 0)
    assert data["success"] is False and data["limit_exceeded"] is None
    by_name = {r["name"]: r for r in data["results"]}
    assert {n: r["status"] for n, r in by_name.items()} == {
        "test_add": "passed",
        "test_ratio": "passed",
        "test_add_wrong": "failed",
        "test_sum_in_a_helper": "failed",
        "test_skipped": "skipped",
    }
    assert "assert 4 == 5" in by_name["test_add_wrong"]["failure_message"]
    assert "1 + 1 should be 3" in by_name["test_sum_in_a_helper"]["failure_message"]
    assert by_name["test_add"]["location"] == "tests/test_calc.py:10"
    assert by_name["test_add_wrong"]["location"] == "tests/test_calc.py:19"
    assert all(r["duration_ms"] >= 0 for r in data["results"])
    head = result.blocks[0]
    assert head.startswith("test (python") and "failed in" in head
    assert "2 passed, 2 failed, 1 skipped" in head
    assert "tests/test_calc.py:19 FAILED test_add_wrong: " in result.blocks[1]
    assert set(data["diagnostics"]) == {"tests/test_calc.py"}


def test_a_passing_filter_succeeds(project: Path) -> None:
    result = call_tool(project, "test_run", filter="test_add and not wrong")
    assert result.data["success"] is True
    assert (result.data["passed"], result.data["failed"]) == (1, 0)
    assert "succeeded" in result.blocks[0]


def test_list_names_every_test(project: Path) -> None:
    result = call_tool(project, "test_list")
    assert result.data["tests"] == [
        "tests/test_calc.py::test_add",
        "tests/test_calc.py::test_ratio",
        "tests/test_calc.py::test_add_wrong",
        "tests/test_calc.py::test_sum_in_a_helper",
        "tests/test_calc.py::test_skipped",
        "tests/test_limits.py::test_quick_one",
        "tests/test_limits.py::test_sleeps_past_its_limit",
        "tests/test_limits.py::test_allocates_past_its_limit",
        "tests/test_limits.py::test_prints_megabytes",
    ]


def test_the_time_limit_stops_the_run_and_keeps_what_finished(project: Path) -> None:
    declare(project, python_tasks(timeout_s=8))
    started = time.monotonic()
    result = call_tool(project, "test_run", filter="quick or sleeps")
    assert result.data["limit_exceeded"] == "time"
    assert time.monotonic() - started < 60
    # pytest, interrupted, still wrote the JUnit XML of what it ran.
    statuses = {r["name"]: r["status"] for r in result.data["results"]}
    assert statuses == {"test_quick_one": "passed"}  # the interrupted test is not a nameless pass
    assert "limit_exceeded: time" in result.text
    pid = int((project / "pid.txt").read_text())
    assert not alive(pid)


def test_the_memory_limit_is_reported_with_the_results(project: Path) -> None:
    declare(project, python_tasks(memory_mb=400))
    result = call_tool(project, "test_run", filter="allocates or quick")
    assert result.data["limit_exceeded"] == "memory"
    statuses = {r["name"]: r["status"] for r in result.data["results"]}
    assert statuses == {"test_allocates_past_its_limit": "failed", "test_quick_one": "passed"}
    assert "MemoryError" in next(r for r in result.data["results"] if r["status"] == "failed")["failure_message"]


def test_the_output_limit_stops_a_chatty_run(project: Path) -> None:
    declare(project, python_tasks(output_mb=1))
    result = call_tool(project, "test_run", filter="megabytes or quick")
    assert result.data["limit_exceeded"] == "output"
    assert result.data["output_bytes"] > 1024 * 1024
    assert "limit_exceeded: output" in result.text


def test_cancelling_kills_the_run_and_its_processes(project: Path) -> None:
    call = Call(workspace=Workspace.at(project))
    (project / "pid.txt").unlink(missing_ok=True)

    def cancel_when_started() -> None:
        deadline = time.monotonic() + 60
        while not (project / "pid.txt").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        call.cancelled.set()

    import threading

    threading.Thread(target=cancel_when_started, daemon=True).start()
    with pytest.raises(Cancelled):
        registry.invoke("test_run", {"filter": "sleeps"}, call)
    pid = int((project / "pid.txt").read_text())
    deadline = time.monotonic() + 10
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(pid), "the test process outlived the cancelled call"


def test_coverage_totals_least_covered_and_the_files_missing_lines(project: Path) -> None:
    result = call_tool(project, "test_coverage", path="calc.py")
    data = result.data
    assert data["file"]["path"].endswith("calc.py")
    assert data["file"]["missing_lines"] == [13, 14, 15]
    assert 0 < data["percent"] < 100
    assert "calc.py: " in result.text and "uncovered lines 13-15" in result.text


def test_profile_run_then_hotspots(project: Path) -> None:
    result = call_tool(project, "profile_run", file="profiled.py")
    report_id = result.data["report_id"]
    assert result.data["hotspots"][0]["name"].endswith("slow_sum")
    spots = call_tool(project, "profile_hotspots", report_id=report_id, limit=3)
    top = spots.data["functions"][0]
    assert top["name"].endswith("slow_sum")
    assert top["call_count"] == 3
    assert top["self_time_pct"] > 50
    report = call_tool(project, "profile_report", report_id=report_id)
    assert report.data["functions"] >= 3


def test_an_undeclared_task_is_not_run_and_the_lines_to_add_are_given(tmp_path: Path) -> None:
    root = python_project(tmp_path / "fresh")
    result = call_tool(root, "test_run")
    assert result.data["declared"] is False
    assert "[tasks.test]" in result.text and 'argv = ["python3", "-m", "pytest"' in result.text
    assert not any(root.rglob("*.xml")) and not (root / "pid.txt").exists()


def test_reports_are_read_when_the_temporary_folder_is_behind_a_link(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As on macOS, where /tmp and /var/folders are links into /private.
    real = tmp_path / "private-tmp"
    real.mkdir()
    (tmp_path / "tmp-link").symlink_to(real)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp-link"))
    result = call_tool(project, "test_run", filter="test_add and not wrong")
    assert (result.data["passed"], result.data["failed"]) == (1, 0), result.text
