"""Debugging real Python programs with the real debugpy adapter through the debug tools:
breakpoints, locals, evaluate, stepping, conditions, exceptions, pytest under the debugger,
terminate and the end of the server with no process left behind, the time limit."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from debuggee import (
    LINE_CALL,
    LINE_ENTRY,
    LINE_HELPER_BODY,
    LINE_LOOP_BODY,
    LINE_PRINT,
    LINE_RAISE,
    LINE_TEST_ASSERT,
    alive,
    debuggee_pid,
    make_call,
    project,
    run,
)

from simple_brief.errors import UserError
from simple_brief.tools import Call


@pytest.fixture
def call(tmp_path: Path) -> Iterator[Call]:
    made = make_call(project(tmp_path / "app"))
    yield made
    made.session.close()


def _first(result_text: str) -> str:
    return result_text.splitlines()[0]


def test_a_breakpoint_stops_at_its_line_with_the_locals_expandable(call: Call) -> None:
    launched = run(call, "debug_launch", program="app.py", breakpoints=f"app.py:{LINE_CALL}")
    sid = launched.data["session_id"]
    assert _first(launched.text) == f"stopped at app.py:{LINE_CALL} in Function:main (breakpoint 1) · session {sid}"
    assert launched.data["stopped"]["line"] == LINE_CALL and launched.data["stopped"]["breakpoint"] == 1

    scopes = run(call, "debug_variables", session_id=sid)
    assert _first(scopes.text).startswith(f"stopped at app.py:{LINE_CALL}")
    local = {v["name"]: v for v in scopes.data["scopes"][0]["variables"]}
    assert (local["count"]["type"], local["count"]["value"]) == ("int", "3")
    assert local["table"]["type"] == "dict" and local["table"]["value"] == "{'a': 1, 'b': [1, 2]}"
    assert local["box"]["type"] == "Box" and local["box"]["reference"] > 0
    assert "count: int = 3" in scopes.text

    members = run(call, "debug_variables", session_id=sid, reference=local["box"]["reference"])
    inside = {v["name"]: v for v in members.data["variables"]}
    assert inside["n"]["value"] == "3" and inside["items"]["value"] == "[3, 4]"

    evaluated = run(call, "debug_evaluate", session_id=sid, expression="count * 10 + len(table)")
    assert evaluated.data["result"]["value"] == "32"
    assert "count * 10 + len(table): int = 32" in evaluated.text


def test_step_over_in_and_out_reach_the_expected_lines(call: Call) -> None:
    sid = run(call, "debug_launch", program="app.py", breakpoints=f"app.py:{LINE_CALL}").data["session_id"]
    stepped_in = run(call, "debug_step", session_id=sid, kind="in")
    assert stepped_in.data["stopped"]["line"] == LINE_HELPER_BODY
    assert _first(stepped_in.text).startswith(f"stopped at app.py:{LINE_HELPER_BODY} in Function:helper (step)")
    stack = run(call, "debug_stack", session_id=sid)
    assert [(f["line"], f["symbol"]) for f in stack.data["frames"][:2]] == [
        (LINE_HELPER_BODY, "Function:helper"),
        (LINE_CALL, "Function:main"),
    ]
    assert "#1 app.py:16 in Function:main" in stack.text
    inner = run(call, "debug_evaluate", session_id=sid, expression="x", frame=0)
    outer = run(call, "debug_evaluate", session_id=sid, expression="count", frame=1)
    assert (inner.data["result"]["value"], outer.data["result"]["value"]) == ("3", "3")

    over = run(call, "debug_step", session_id=sid, kind="over")
    assert over.data["stopped"]["line"] == LINE_HELPER_BODY + 1
    out = run(call, "debug_step", session_id=sid, kind="out")
    assert out.data["stopped"]["line"] == LINE_CALL and out.data["stopped"]["symbol"] == "Function:main"
    after = run(call, "debug_step", session_id=sid, kind="over")
    assert after.data["stopped"]["line"] == LINE_PRINT
    ran = run(call, "debug_step", session_id=sid, kind="over")
    assert ran.data["output"] == "total 7\n" and "output:\ntotal 7" in ran.text


def test_a_conditional_breakpoint_stops_only_when_its_condition_holds(call: Call) -> None:
    sid = run(call, "debug_launch", program="app.py", stop_on_entry=True).data["session_id"]
    entry = run(call, "debug_stack", session_id=sid)
    assert entry.data["frames"][0]["line"] == LINE_ENTRY and "(entry)" in _first(entry.text)
    set_bp = run(
        call, "debug_breakpoints", session_id=sid, action="set", location=f"app.py:{LINE_LOOP_BODY}", condition="i == 3"
    )
    assert set_bp.data["breakpoints"][0]["verified"] is True
    assert f"1. app.py:{LINE_LOOP_BODY} if i == 3" in set_bp.text
    hit = run(call, "debug_continue", session_id=sid)
    assert hit.data["stopped"]["breakpoint"] == 1 and hit.data["stopped"]["line"] == LINE_LOOP_BODY
    assert run(call, "debug_evaluate", session_id=sid, expression="i").data["result"]["value"] == "3"
    cleared = run(call, "debug_breakpoints", session_id=sid, action="clear")
    assert cleared.data["breakpoints"] == [] and "cleared 1 breakpoint" in cleared.text
    ended = run(call, "debug_continue", session_id=sid)
    assert ended.data["state"] == "ended" and ended.data["exit_code"] == 0
    assert _first(ended.text) == f"ended: the program exited (exit code 0) · session {sid}"


def test_a_hit_count_and_a_logpoint(call: Call) -> None:
    sid = run(call, "debug_launch", program="app.py", stop_on_entry=True).data["session_id"]
    where = f"app.py:{LINE_LOOP_BODY}"
    run(call, "debug_breakpoints", session_id=sid, action="set", location=where, hit_condition="4")
    run(call, "debug_breakpoints", session_id=sid, action="set", location="app.py:20", log_message="sum={total}")
    hit = run(call, "debug_continue", session_id=sid)
    assert hit.data["stopped"]["line"] == LINE_LOOP_BODY
    assert run(call, "debug_evaluate", session_id=sid, expression="i").data["result"]["value"] == "3"
    run(call, "debug_breakpoints", session_id=sid, action="clear", location=where)
    done = run(call, "debug_continue", session_id=sid)
    assert done.data["state"] == "ended"
    assert "sum=17" in done.data["output"]


def test_an_uncaught_exception_stops_where_it_was_raised(call: Call) -> None:
    launched = run(call, "debug_launch", program="failing.py")
    stopped = launched.data["stopped"]
    assert stopped["reason"] == "exception" and stopped["line"] == LINE_RAISE
    assert stopped["exception"]["id"] == "ValueError"
    assert "invalid literal for int()" in stopped["exception"]["description"]
    assert _first(launched.text).startswith(
        f"stopped at failing.py:{LINE_RAISE} in Function:parse (exception ValueError"
    )
    assert (
        run(call, "debug_evaluate", session_id=launched.data["session_id"], expression="text").data["result"]["value"]
        == "'three'"
    )


def test_pytest_runs_under_the_debugger_as_a_module(call: Call) -> None:
    launched = run(
        call,
        "debug_launch",
        module="pytest",
        args="-q -p no:cacheprovider test_double.py",
        breakpoints=f"test_double.py:{LINE_TEST_ASSERT}",
    )
    assert launched.data["stopped"]["line"] == LINE_TEST_ASSERT
    assert launched.data["stopped"]["symbol"] == "Function:test_double"
    sid = launched.data["session_id"]
    assert run(call, "debug_evaluate", session_id=sid, expression="value").data["result"]["value"] == "42"
    done = run(call, "debug_continue", session_id=sid)
    assert done.data["exit_code"] == 0 and "1 passed" in done.data["output"]


def test_terminate_leaves_no_process_behind(call: Call) -> None:
    launched = run(call, "debug_launch", program="app.py", breakpoints=f"app.py:{LINE_CALL}")
    sid = launched.data["session_id"]
    program = debuggee_pid(call, sid)
    session = call.session.debug.get(sid)
    members = session.client.members()
    assert program in members and session.client.proc.pid in members and len(members) >= 3
    ended = run(call, "debug_terminate", session_id=sid)
    assert _first(ended.text) == f"ended: terminated by debug_terminate · session {sid}"
    assert ended.data["processes_left"] == []
    assert not [pid for pid in members if alive(pid)]
    listed = run(call, "debug_sessions")
    assert listed.data["sessions"][0]["state"] == "ended" and "0 alive" in listed.text


def test_the_end_of_the_server_ends_every_session_and_its_processes(call: Call) -> None:
    first = run(call, "debug_launch", program="app.py", breakpoints=f"app.py:{LINE_CALL}").data["session_id"]
    second = run(call, "debug_launch", program="endless.py", wait_s=0.5)
    assert _first(second.text).startswith("running (no stop within 0.5 s;")
    pids = [p for s in call.session.debug.all() for p in s.client.members()]
    assert debuggee_pid(call, first) in pids and len(pids) >= 6
    call.session.close()
    assert not [pid for pid in pids if alive(pid)]


def test_a_program_past_its_time_limit_is_stopped_and_the_answer_says_so(call: Call) -> None:
    started = time.monotonic()
    launched = run(call, "debug_launch", program="endless.py", timeout_s=2.0)
    assert time.monotonic() - started < 30
    sid = launched.data["session_id"]
    assert launched.data["limit_exceeded"] == "time"
    assert _first(launched.text) == (
        f"ended: the session ran past its time limit of 2 s and its processes were stopped · session {sid}"
    )
    # "its processes were stopped" is true when the answer says it, not a moment later.
    assert call.session.debug.get(sid).client.members() == []


def test_pause_stops_an_endless_loop_where_it_runs(call: Call) -> None:
    sid = run(call, "debug_launch", program="endless.py", wait_s=0.5).data["session_id"]
    paused = run(call, "debug_pause", session_id=sid)
    assert paused.data["stopped"]["reason"] == "pause" and 4 <= paused.data["stopped"]["line"] <= 7
    assert int(run(call, "debug_evaluate", session_id=sid, expression="n").data["result"]["value"]) > 0


@pytest.mark.parametrize(
    ("tool", "args", "said"),
    [
        ("debug_stack", {"session_id": "d99"}, "there is no debug session `d99`"),
        ("debug_breakpoints", {"action": "set", "location": "app.py:500"}, "line 500 is outside app.py, which has 23"),
        ("debug_breakpoints", {"action": "set", "location": "app.py"}, "is not a `path:line` location"),
        ("debug_evaluate", {"expression": "count +"}, "is not valid Python (invalid syntax"),
        ("debug_evaluate", {"expression": "nothing_here"}, "NameError: name 'nothing_here' is not defined"),
        ("debug_variables", {"reference": 987654}, "variables reference 987654 is not one of this stop's"),
        ("debug_stack", {"levels": 1, "session_id": "d1x"}, "there is no debug session"),
    ],
)
def test_bad_input_is_answered_in_one_sentence(call: Call, tool: str, args: dict[str, str], said: str) -> None:
    sid = run(call, "debug_launch", program="app.py", breakpoints=f"app.py:{LINE_CALL}").data["session_id"]
    with pytest.raises(UserError) as refused:
        run(call, tool, **{"session_id": sid, **args})
    message = str(refused.value)
    assert said in message
    assert "\n" not in message and message.endswith(".")
    assert message.count(". ") == 0 or said.endswith(".")


def test_launch_refuses_what_cannot_be_debugged(call: Call) -> None:
    for args, said in [
        ({}, "give either `program`"),
        ({"program": "missing.py"}, "missing.py"),
        ({"program": "app.py", "breakpoints": "app.py:0"}, "line 0 is outside app.py"),
        ({"program": "app.py", "adapter": "lldb"}, "no debug adapter `lldb` is configured"),
        ({"program": "app.py", "env": "JUSTAWORD"}, "is not NAME=value"),
        ({"program": "app.py", "env": 'A="open'}, "`env` cannot be split into words (No closing quotation)"),
    ]:
        with pytest.raises(UserError) as refused:
            run(call, "debug_launch", **args)
        assert said in str(refused.value) and "\n" not in str(refused.value)
    running = run(call, "debug_launch", program="endless.py", wait_s=0.2)
    with pytest.raises(UserError, match="is running, not stopped; call debug_pause"):
        run(call, "debug_stack", session_id=running.data["session_id"])


def test_a_cancelled_call_stops_waiting_and_the_program_keeps_running(call: Call) -> None:
    sid = run(call, "debug_launch", program="endless.py", stop_on_entry=True, timeout_s=15.0).data["session_id"]
    timer = threading.Timer(1.0, call.cancelled.set)
    timer.start()
    try:
        waited = run(call, "debug_continue", session_id=sid, wait_s=60.0)
    finally:
        timer.cancel()
        call.cancelled.clear()
    # Without the cancellation the wait would last until the time limit ended the session.
    assert waited.data["state"] == "running"
    assert run(call, "debug_pause", session_id=sid).data["stopped"]["reason"] == "pause"


def test_a_limit_passed_while_the_adapter_starts_is_an_answer_not_a_failure(call: Call) -> None:
    launched = run(call, "debug_launch", program="endless.py", timeout_s=0.1)
    assert launched.data["limit_exceeded"] == "time"
    assert _first(launched.text).startswith("ended: the session ran past its time limit of 0.1 s")
