"""A task's processes run in a cgroup v2 leaf of their own where the machine allows it
(`task_cgroup`): a double-forked child in a session of its own is in the leaf, the leaf is
empty and removed after the call, a task that kills its own keeper leaves nothing running
(what it left is found in the leaf and killed with `cgroup.kill`), and where no leaf can be
made the run falls back to the keeper alone and `server_status` says why.

Real cgroups: each test mounts a cgroup2 hierarchy on a temporary folder (root only; the
test says why it skipped otherwise) and points `SIMPLE_BRIEF_CGROUP2_ROOT` at it. The
engine side runs in a subprocess moved into a cgroup of the test's own, so pytest's
cgroup is never touched.

Not tested here: `memory.max`, `memory.events` `oom_kill` and `pids.max`. On this machine
the memory and pids controllers are bound to the cgroup v1 hierarchies, so no cgroup2
leaf can have them (its `cgroup.controllers` is empty); `new_leaf` writes those files
only where they exist, and `containment()` says they are missing.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from projects import alive

from simple_brief import tools as registry
from simple_brief.files.workspace import Workspace
from simple_brief.proc import process_keeper, task_cgroup
from simple_brief.tasks import sandbox
from simple_brief.tasks.sandbox import Limits
from simple_brief.tools import Call

#: The task: forks a child that leaves with setsid and forks again (the grandchild
#: ignores SIGTERM and keeps stdout open); each records "pid cgroup" in the file argv[1]
#: (written aside, then renamed). With argv[2] == "kill-keeper" the task then kills its
#: own parent, the keeper, with SIGKILL, and lives on.
TASK = r"""
import os, signal, sys, time
out, mode = sys.argv[1], sys.argv[2]
def own():
    line = [l for l in open("/proc/self/cgroup") if l.startswith("0::")][0]
    return f"{os.getpid()} {line[3:].strip()}\n"
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        open(out + ".w", "w").write(own())
        os.replace(out + ".w", out)
        time.sleep(300)
    os._exit(0)
while not os.path.exists(out):
    time.sleep(0.01)
with open(out, "a") as handle:
    handle.write(own())
print("started", flush=True)
if mode == "kill-keeper":
    os.kill(os.getppid(), signal.SIGKILL)
    time.sleep(300)
"""

#: The engine side, in a process of its own: joins the cgroup argv[1], runs the task
#: (argv[2:]) in the sandbox, prints what it answered as JSON.
ENGINE = r"""
import json, os, sys
from pathlib import Path
with open(os.path.join(sys.argv[1], "cgroup.procs"), "w") as procs:
    procs.write("0")
from simple_brief.tasks import sandbox
done = sandbox.run(sys.argv[2:], Path.cwd(), os.environ, sandbox.Limits(60, 0, 1 << 20))
print(json.dumps({"exit": done.exit_code, "limit": done.limit_exceeded, "stdout": done.stdout,
                  "left": [pid for pid, _ in done.left_behind]}))
"""


def _umount(path: Path) -> None:
    subprocess.run(["umount", str(path)], check=False, capture_output=True)


@pytest.fixture
def cgroup2(tmp_path: Path) -> Iterator[Path]:
    """A cgroup2 hierarchy mounted on a temporary folder (unmounted after)."""
    if os.geteuid() != 0:
        pytest.skip("mounting a cgroup2 hierarchy needs root; these tests run as root in CI")
    mount = tmp_path / "cgroup2"
    mount.mkdir()
    mounted = subprocess.run(["mount", "-t", "cgroup2", "none", str(mount)], check=False, capture_output=True)
    if mounted.returncode != 0:
        pytest.skip(f"`mount -t cgroup2` failed: {mounted.stderr.decode(errors='replace').strip()}")
    try:
        yield mount
    finally:
        _umount(mount)


@pytest.fixture
def own_cgroup(cgroup2: Path) -> Iterator[Path]:
    """A cgroup of the test's own in that hierarchy (emptied and removed after)."""
    group = cgroup2 / f"simple-brief-test-{os.getpid()}-{uuid.uuid4().hex[:8]}"
    group.mkdir()
    try:
        yield group
    finally:
        with contextlib.suppress(OSError):
            (group / "cgroup.kill").write_text("1")
        for folder in sorted((p for p in group.rglob("*") if p.is_dir()), key=lambda p: -len(p.parts)):
            process_keeper.leaf_remove(str(folder))
        process_keeper.leaf_remove(str(group))


def recorded(out: Path) -> list[tuple[int, str]]:
    """The (pid, cgroup) lines the task wrote: the grandchild's, then the task's."""
    return [(int(pid), path) for pid, path in (line.split() for line in out.read_text().splitlines())]


def run_engine(group: Path, mount: Path, tmp_path: Path, mode: str) -> tuple[dict[str, object], list[tuple[int, str]]]:
    """Run the task through the sandbox from a process in `group`; its answer, with the
    pids still alive after it (`survivors`), and the pids and cgroups the task recorded
    (whatever happened, those are killed after)."""
    task, out = tmp_path / "task.py", tmp_path / "task.out"
    task.write_text(TASK)
    env = {**os.environ, task_cgroup.ROOT_ENV: str(mount)}
    try:
        engine = subprocess.run(
            [sys.executable, "-c", ENGINE, str(group), sys.executable, str(task), str(out), mode],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert engine.returncode == 0, engine.stderr
        answer = json.loads(engine.stdout)
        answer["survivors"] = [pid for pid, _ in recorded(out) if alive(pid)]
        return answer, recorded(out)
    finally:
        if out.exists():
            for pid, _ in recorded(out):
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)


def test_a_double_forked_child_is_in_the_tasks_leaf_and_the_leaf_is_gone_after(
    tmp_path: Path, cgroup2: Path, own_cgroup: Path
) -> None:
    answer, processes = run_engine(own_cgroup, cgroup2, tmp_path, "setsid")
    (grandchild, its_cgroup), (_task, task_cgroup_path) = processes
    parent = f"/{own_cgroup.name}/{task_cgroup.PARENT}/"
    assert its_cgroup.startswith(parent + "task-") and its_cgroup == task_cgroup_path
    assert answer["exit"] == 0 and answer["limit"] is None and answer["stdout"] == "started\n"
    assert grandchild in answer["left"]  # type: ignore[operator]
    assert answer["survivors"] == []
    assert not (cgroup2 / its_cgroup.lstrip("/")).exists()
    assert [p.name for p in (own_cgroup / task_cgroup.PARENT).iterdir() if p.is_dir()] == []


def test_a_task_that_kills_its_keeper_leaves_nothing_running(tmp_path: Path, cgroup2: Path, own_cgroup: Path) -> None:
    """The keeper is gone, its orphans went to init and keep the output pipe open: the
    engine kills them with the leaf (`cgroup.kill`), names them, removes the leaf, and
    does not wait for the time limit."""
    answer, processes = run_engine(own_cgroup, cgroup2, tmp_path, "kill-keeper")
    (grandchild, its_cgroup), (task, _) = processes
    assert answer["exit"] == -signal.SIGKILL and answer["limit"] is None
    assert answer["survivors"] == []
    assert {grandchild, task} <= set(answer["left"])  # type: ignore[arg-type]
    assert not (cgroup2 / its_cgroup.lstrip("/")).exists()


def _status(tmp_path: Path) -> str:
    call = Call(workspace=Workspace.at(tmp_path))
    try:
        return registry.invoke("server_status", {}, call).text
    finally:
        call.session.close()


def test_status_names_the_leaf_where_one_can_be_made(
    tmp_path: Path, cgroup2: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(task_cgroup.ROOT_ENV, str(cgroup2))
    own = next(line[3:].strip() for line in Path("/proc/self/cgroup").read_text().splitlines() if line[:3] == "0::")
    where = os.path.normpath(os.path.join(cgroup2, own.lstrip("/"), task_cgroup.PARENT))
    assert f"tasks: child subreaper + cgroup v2 leaf under {where}" in _status(tmp_path)


def test_a_folder_that_is_no_cgroup2_mount_falls_back_to_the_keeper_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    monkeypatch.setenv(task_cgroup.ROOT_ENV, str(plain))
    status = _status(tmp_path)
    assert f"tasks: child subreaper; no cgroup v2 leaf: {task_cgroup.ROOT_ENV}={plain} is not a cgroup2 mount" in status
    (tmp_path / "task.py").write_text(TASK)
    out = tmp_path / "task.out"
    try:
        done = sandbox.run(
            [sys.executable, str(tmp_path / "task.py"), str(out), "setsid"],
            tmp_path,
            os.environ,
            Limits(60, 0, 1 << 20),
        )
        (grandchild, its_cgroup), _ = recorded(out)
        assert done.exit_code == 0 and grandchild in [pid for pid, _ in done.left_behind] and not alive(grandchild)
        assert f"/{task_cgroup.PARENT}/" not in its_cgroup
    finally:
        for pid, _ in recorded(out) if out.exists() else []:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


def test_a_read_only_cgroup2_mount_is_not_used_and_status_says_why(
    tmp_path: Path, cgroup2: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    read_only = tmp_path / "read-only"
    read_only.mkdir()
    subprocess.run(["mount", "--bind", str(cgroup2), str(read_only)], check=True, capture_output=True)
    try:
        subprocess.run(["mount", "-o", "remount,bind,ro", str(read_only)], check=True, capture_output=True)
        monkeypatch.setenv(task_cgroup.ROOT_ENV, str(read_only))
        assert task_cgroup.new_leaf(0) is None
        status = _status(tmp_path)
        assert "tasks: child subreaper; no cgroup v2 leaf: this process's cgroup " in status
        assert "is not writable by it (not delegated" in status
    finally:
        _umount(read_only)


def test_the_empty_leaf_of_an_engine_that_is_gone_is_removed(tmp_path: Path, cgroup2: Path, own_cgroup: Path) -> None:
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    stale = own_cgroup / task_cgroup.PARENT / f"task-{int(gone.stdout)}-1"
    stale.mkdir(parents=True)
    answer, _ = run_engine(own_cgroup, cgroup2, tmp_path, "setsid")
    assert answer["exit"] == 0 and not stale.exists()
