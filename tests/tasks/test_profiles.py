"""Profiles: a real `python -m cProfile` run whose dominant function tops the hotspots at its
path:line, and collapsed stacks and speedscope files written by hand with the numbers
computed by hand (each test says how)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from simple_brief.errors import UserError
from simple_brief.tasks.profiles import FunctionStat, Profile, hotspots, read_collapsed, read_pstats, read_speedscope

PROG = """\
def busy(n):
    total = 0
    for i in range(n):
        total += i * i
    return total


def light():
    return sum(range(100))


class Worker:
    def run(self):
        return busy(2_000_000)


def main():
    for _ in range(10):
        light()
    Worker().run()


main()
"""


@pytest.fixture(scope="module")
def profiled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("prof")
    (root / "prog.py").write_text(PROG, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "cProfile", "-o", "out.prof", "prog.py"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return root


def _by_name(profile: Profile) -> dict[str, FunctionStat]:
    return {f.name: f for f in profile.functions}


def test_cprofile_the_dominant_function_tops_the_hotspots(profiled: Path) -> None:
    profile = read_pstats(profiled / "out.prof", profiled)
    top = hotspots(profile, 5)
    assert (top[0]["name"], top[0]["location"], top[0]["call_count"]) == ("prog:busy", "prog.py:1", 1)
    assert top[0]["self_time_pct"] > 50
    assert [h["self_time_pct"] for h in top] == sorted((h["self_time_pct"] for h in top), reverse=True)
    assert profile.samples == 0 and profile.duration_ms > 0


@pytest.mark.parametrize("given_root", [True, False])
def test_cprofile_names_calls_and_builtins(profiled: Path, given_root: bool) -> None:
    # Without a root, the profile's folder (where the run wrote it) is the run's folder.
    functions = _by_name(read_pstats(profiled / "out.prof", profiled if given_root else None))
    # pstats gives only `run`; the file's syntax tree gives the class.
    run = functions["prog:Worker.run"]
    assert (run.path, run.line, run.calls) == ("prog.py", 13, 1)
    light = functions["prog:light"]
    assert (light.line, light.calls) == (8, 10)
    # Worker.run's total holds busy's; cumulative time is never below self time.
    assert run.total_ms >= functions["prog:busy"].total_ms
    assert all(f.total_ms >= f.self_ms for f in functions.values())
    builtin = functions["{built-in method builtins.sum}"]
    assert (builtin.path, builtin.line, builtin.calls) == ("", 0, 10)


def test_cprofile_names_modules_of_a_src_layout(tmp_path: Path) -> None:
    # src/pkg/work.py is module pkg.work (src/ holds no __init__.py); the standard
    # library's json/decoder.py is json.decoder.
    (tmp_path / "src" / "pkg").mkdir(parents=True)
    (tmp_path / "src" / "pkg" / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "src" / "pkg" / "work.py").write_text(
        "import json\n\n\nclass Job:\n    def crunch(self):\n        return json.loads('[1, 2]')\n",
        encoding="utf-8",
    )
    (tmp_path / "run.py").write_text(
        "import sys\nsys.path.insert(0, 'src')\nfrom pkg.work import Job\nJob().crunch()\n", encoding="utf-8"
    )
    done = subprocess.run(
        [sys.executable, "-m", "cProfile", "-o", "out.prof", "run.py"], cwd=tmp_path, capture_output=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    functions = _by_name(read_pstats(tmp_path / "out.prof", tmp_path))
    crunch = functions["pkg.work:Job.crunch"]
    assert (crunch.line, crunch.calls) == (5, 1)
    assert "json.decoder:JSONDecoder.decode" in functions
    assert "run:<module>" in functions
    # The import system's frozen modules are named by the module they hold.
    frozen = [f for f in functions.values() if f.path == "<frozen importlib._bootstrap>"]
    assert frozen and all(f.name.startswith("importlib._bootstrap:") for f in frozen)


def test_a_file_that_is_not_pstats_is_one_user_error(tmp_path: Path) -> None:
    bad = tmp_path / "out.prof"
    bad.write_bytes(b"\x00\x01 not marshal")
    with pytest.raises(UserError, match="is not a cProfile/pstats file"):
        read_pstats(bad)
    json_file = tmp_path / "x.prof"
    json_file.write_text('{"a": 1}', encoding="utf-8")
    with pytest.raises(UserError, match="is not a cProfile/pstats file"):
        read_pstats(json_file)


COLLAPSED = """\
main;busy 6
main;light 2
main;busy;helper 1
main 1
main;recurse;recurse 2
"""


def test_collapsed_self_and_total_by_hand() -> None:
    # 12 samples. Self = samples where the frame is last: busy 6, light 2, helper 1,
    # main 1, recurse 2. Total = samples of the stacks it is in, once per stack:
    # main 12, busy 6+1 = 7, light 2, helper 1, recurse 2 (not 4: recursion counts once).
    profile = read_collapsed(COLLAPSED, interval_ms=10.0)
    got = {f.name: (f.self_ms, f.total_ms, f.calls) for f in profile.functions}
    assert got == {
        "main": (10.0, 120.0, 0),
        "busy": (60.0, 70.0, 0),
        "light": (20.0, 20.0, 0),
        "helper": (10.0, 10.0, 0),
        "recurse": (20.0, 20.0, 0),
    }
    assert (profile.samples, profile.duration_ms) == (12, 120.0)
    top = hotspots(profile, 2)
    # busy: 6 of 12 samples self (50%), 7 of 12 total (58.33%).
    assert [(h["name"], h["self_time_pct"], h["total_time_pct"]) for h in top] == [
        ("busy", 50.0, 58.33),
        ("light", 16.67, 16.67),
    ]


def test_collapsed_py_spy_frames_carry_path_and_line() -> None:
    # py-spy names the running line: busy is seen at lines 3 and 4, kept as one function at
    # its smallest line; 5 + 3 = 8 samples of self time.
    text = "main (prog.py:18);busy (prog.py:4) 5\nmain (prog.py:19);busy (prog.py:3) 3\n"
    got = {(f.name, f.path, f.line): (f.self_ms, f.total_ms) for f in read_collapsed(text).functions}
    assert got == {("main", "prog.py", 18): (0.0, 8.0), ("busy", "prog.py", 3): (8.0, 8.0)}


@pytest.mark.parametrize("text", ["main;busy five\n", "", "# only a comment\n"])
def test_malformed_collapsed_stacks_are_one_user_error(text: str) -> None:
    with pytest.raises(UserError):
        read_collapsed(text)


FRAMES = [{"name": "a", "file": "a.py", "line": 1}, {"name": "b", "file": "a.py", "line": 5}, {"name": "c"}]


def test_speedscope_evented_by_hand() -> None:
    # a opens at 0 and closes at 10; b is open 2-6 and 7-9; c 3-5 (milliseconds).
    # Self (time on top): a = 0-2, 6-7, 9-10 = 4; b = 2-3, 5-6, 7-9 = 4; c = 3-5 = 2.
    # Total (time open): a 10, b 4 + 2 = 6, c 2. Calls: a 1, b 2, c 1.
    events = [("O", 0, 0), ("O", 1, 2), ("O", 2, 3), ("C", 2, 5), ("C", 1, 6), ("O", 1, 7), ("C", 1, 9), ("C", 0, 10)]
    data = {
        "$schema": "https://www.speedscope.app/file-format-schema.json",
        "shared": {"frames": FRAMES},
        "profiles": [
            {
                "type": "evented",
                "name": "main",
                "unit": "milliseconds",
                "startValue": 0,
                "endValue": 10,
                "events": [{"type": t, "frame": f, "at": at} for t, f, at in events],
            }
        ],
    }
    profile = read_speedscope(json.loads(json.dumps(data)))
    got = {(f.name, f.path, f.line): (f.self_ms, f.total_ms, f.calls) for f in profile.functions}
    assert got == {("a", "a.py", 1): (4.0, 10.0, 1), ("b", "a.py", 5): (4.0, 6.0, 2), ("c", "", 0): (2.0, 2.0, 1)}
    assert (profile.duration_ms, profile.samples) == (10.0, 0)


def test_speedscope_evented_recursion_counts_total_once() -> None:
    # a open 0-4 with an inner a 1-3: total 4 (not 4 + 2), self 4 (always a on top), 2 calls.
    events = [{"type": "O", "frame": 0, "at": 0}, {"type": "O", "frame": 0, "at": 1}]
    events += [{"type": "C", "frame": 0, "at": 3}, {"type": "C", "frame": 0, "at": 4}]
    data = {"shared": {"frames": FRAMES[:1]}, "profiles": [{"type": "evented", "unit": "seconds", "events": events}]}
    (a,) = read_speedscope(data).functions
    assert (a.self_ms, a.total_ms, a.calls) == (4000.0, 4000.0, 2)


def test_speedscope_sampled_by_hand() -> None:
    # Stacks (root first) with weights in microseconds: [a,b] 3000, [a,b,c] 2000, [a] 1000,
    # [a,c,c] 4000. In ms: self a 1, b 3, c 2 + 4 = 6; total a 10, b 3 + 2 = 5, c 2 + 4 = 6
    # (c twice in one stack counts once).
    data = {
        "shared": {"frames": FRAMES},
        "profiles": [
            {
                "type": "sampled",
                "unit": "microseconds",
                "startValue": 0,
                "endValue": 10000,
                "samples": [[0, 1], [0, 1, 2], [0], [0, 2, 2]],
                "weights": [3000, 2000, 1000, 4000],
            }
        ],
    }
    profile = read_speedscope(data)
    got = {f.name: (round(f.self_ms, 9), round(f.total_ms, 9)) for f in profile.functions}
    assert got == {"a": (1.0, 10.0), "b": (3.0, 5.0), "c": (6.0, 6.0)}
    assert (profile.samples, profile.duration_ms) == (4, 10.0)
    assert [h["name"] for h in hotspots(profile, 3)] == ["c", "b", "a"]


@pytest.mark.parametrize(
    "data",
    [
        [],
        {"profiles": []},
        {"shared": {"frames": FRAMES}, "profiles": [{"type": "sampled", "samples": [[0]], "weights": []}]},
        {"shared": {"frames": FRAMES}, "profiles": [{"type": "sampled", "samples": [[7]], "weights": [1]}]},
        {
            "shared": {"frames": FRAMES},
            "profiles": [{"type": "evented", "events": [{"type": "C", "frame": 0, "at": 1}]}],
        },
        {
            "shared": {"frames": FRAMES},
            "profiles": [{"type": "evented", "events": [{"type": "O", "frame": 0, "at": 1}]}],
        },
        {"shared": {"frames": FRAMES}, "profiles": [{"type": "flame"}]},
    ],
)
def test_malformed_speedscope_is_one_user_error(data: object) -> None:
    with pytest.raises(UserError) as caught:
        read_speedscope(data)
    assert "\n" not in str(caught.value)
