"""The README's install, end to end: the plugin as a native package in a clean XDG set-up,
the build step run as lazy.nvim runs it (build.lua in a coroutine, progress by yield), a
real headless Neovim with only `setup()` folding a real file through the engine the step
installed, and the MCP command `:SimpleBrief mcp` prints answering a real MCP client.

pip runs for real, offline: `make test` fills .cache/wheelhouse with the engine's wheels
(tests/install/wheelhouse.py), and the step's pip reads only that (PIP_NO_INDEX).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sysconfig
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

import anyio
import pynvim
import pytest
from mcp import Client, StdioServerParameters

from nvim_session import nvim_binary

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
WHEELHOUSE = ROOT / ".cache" / "wheelhouse"

# As lazy.nvim runs a plugin's build.lua (lua/lazy/manage/task/plugin.lua): loadfile, then
# the chunk inside the task's coroutine; every yielded string is a progress message.
LAZY_BUILD = """
local chunk = assert(loadfile(arg[1]))
local co = coroutine.create(chunk)
while coroutine.status(co) ~= 'dead' do
  local ok, msg = coroutine.resume(co)
  if not ok then
    io.stderr:write('build error: ' .. tostring(msg) .. '\\n')
    os.exit(1)
  end
  if type(msg) == 'string' then
    io.stdout:write('progress: ' .. msg .. '\\n')
  end
end
"""


@dataclass
class Installed:
    """A plugin installed as a native package, with the build step run."""

    env: dict[str, str]
    plugin: Path
    data: Path
    build_output: str
    files_before: set[str]

    @property
    def engine(self) -> Path:
        return self.data / "nvim" / "simple-brief" / "venv" / "bin" / "simple-brief"


def _plugin_files() -> list[str]:
    """The files a clone of this repository has (tracked and new, not ignored)."""
    out = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return [f for f in out.split("\0") if f and (ROOT / f).is_file()]


def _all_files(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file() or p.is_symlink()}


def _clean_env(tmp: Path) -> dict[str, str]:
    """XDG folders under `tmp`, pip offline on the wheelhouse, and no `simple-brief` on PATH
    (the test's own venv has one): only the build step can provide the engine."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "NVIM", "VIM", "PIP_", "SIMPLE_BRIEF"))}
    for name in ("CONFIG", "DATA", "STATE", "CACHE"):
        folder = tmp / f"xdg-{name.lower()}"
        folder.mkdir(parents=True, exist_ok=True)
        env[f"XDG_{name}_HOME"] = str(folder)
    scripts = Path(sysconfig.get_path("scripts"))
    env["PATH"] = os.pathsep.join(
        d
        for d in env.get("PATH", "").split(os.pathsep)
        if d and not (Path(d) / "simple-brief").exists() and Path(d) != scripts
    )
    env["PIP_NO_INDEX"] = "1"
    env["PIP_FIND_LINKS"] = str(WHEELHOUSE)
    env["PIP_CACHE_DIR"] = str(tmp / "pip-cache")
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    if not (WHEELHOUSE / ".done").exists():
        pytest.fail(f"{WHEELHOUSE} is missing: `make test` builds it (tests/install/wheelhouse.py)")
    tmp = tmp_path_factory.mktemp("install")
    env = _clean_env(tmp)
    data = Path(env["XDG_DATA_HOME"])
    # The README's native-package path: ~/.local/share/nvim/site/pack/simple-brief/start/simple-brief.
    plugin = data / "nvim" / "site" / "pack" / "simple-brief" / "start" / "simple-brief"
    for rel in _plugin_files():
        (plugin / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / rel, plugin / rel)
    (Path(env["XDG_CONFIG_HOME"]) / "nvim").mkdir(parents=True)
    (Path(env["XDG_CONFIG_HOME"]) / "nvim" / "init.lua").write_text("require('simple_brief').setup()\n")
    files_before = _all_files(plugin)
    runner = tmp / "lazy_build.lua"
    runner.write_text(LAZY_BUILD)
    done = subprocess.run(
        [nvim_binary(), "-l", str(runner), str(plugin / "build.lua")],
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr + done.stdout
    return Installed(env, plugin, data, done.stdout, files_before)


def test_the_build_step_reports_progress_and_installs_the_engine_in_the_data_folder(installed: Installed) -> None:
    out = installed.build_output
    assert "progress: creating " in out and "progress: installing the engine, pynvim and debugpy" in out
    assert f"progress: engine installed: {installed.engine}" in out
    assert f"progress: MCP command for agents: {installed.engine} mcp" in out
    version = subprocess.run([str(installed.engine), "--version"], capture_output=True, text=True, check=True)
    assert version.stdout.startswith("simple-brief ")
    venv_python = installed.engine.parent / "python"
    # The extras the plugin needs: the Neovim client and the debug toolset's built-in adapter.
    assert subprocess.run([str(venv_python), "-c", "import pynvim, debugpy"], check=False).returncode == 0
    record = json.loads((installed.data / "nvim" / "simple-brief" / "engine.json").read_text())
    assert record["version"] == version.stdout.split()[1]


def test_the_build_step_writes_nothing_inside_the_plugin_folder(installed: Installed) -> None:
    assert _all_files(installed.plugin) == installed.files_before


@contextmanager
def _editor(installed: Installed, cwd: Path) -> Iterator[pynvim.Nvim]:
    """Headless Neovim with the user's init.lua (only setup()) and the native package."""
    argv = [nvim_binary(), "--embed", "--headless"]
    launcher = ["env", "-i", *[f"{k}={v}" for k, v in installed.env.items()], *argv]
    session = pynvim.attach("child", argv=launcher)
    try:
        session.command(f"cd {cwd}")
        yield session
    finally:
        with suppress(OSError, EOFError, pynvim.NvimError):
            session.command("qall!")
        session.close()


def _real_python_file(project: Path) -> tuple[Path, int]:
    """The standard library's json/decoder.py (nobody here wrote it) in a project folder, and
    the line of its first function of several lines."""
    import json.decoder

    (project / ".git").mkdir(parents=True)
    target = project / "decoder.py"
    shutil.copy(json.decoder.__file__, target)
    lines = target.read_text().splitlines()
    first = next(i for i, line in enumerate(lines, 1) if line.startswith("def ") and lines[i].startswith("    "))
    return target, first


async def _editor_context(command: str, args: list[str], env: dict[str, str], cwd: Path) -> str:
    params = StdioServerParameters(command=command, args=args, env=env, cwd=str(cwd))
    async with Client(params, raise_exceptions=True) as client:
        with anyio.fail_after(60):
            result = await client.call_tool("editor_get_context", {})
    return "\n".join(getattr(block, "text", "") for block in result.content)


def test_folds_come_from_the_installed_engine_and_the_printed_mcp_command_answers(
    installed: Installed, tmp_path: Path
) -> None:
    project = tmp_path / "project"
    source, def_line = _real_python_file(project)
    with _editor(installed, project) as nv:
        nv.command(f"edit {source}")
        nv.command("SimpleBrief")
        client_cmd = nv.exec_lua("return vim.lsp.get_clients({ name = 'simple-brief' })[1].config.cmd")
        closed = nv.funcs.foldclosed(def_line)
        messages = nv.exec_lua("return vim.api.nvim_exec2('messages', { output = true }).output")
        nv.command("SimpleBrief mcp")
        mcp_lines = nv.exec_lua(
            "for _, b in ipairs(vim.api.nvim_list_bufs()) do"
            "  if vim.api.nvim_buf_get_name(b) == 'simple-brief://mcp' then"
            "    return vim.api.nvim_buf_get_lines(b, 0, -1, false) end end"
        )
        json_line = next(line for line in mcp_lines if line.startswith("JSON "))
        server = json.loads(json_line.split(": ", 1)[1])["mcpServers"]["simple-brief"]
        text = anyio.run(_editor_context, server["command"], server["args"], installed.env, project)
    assert client_cmd == [str(installed.engine), "lsp"]
    assert closed == def_line, messages
    assert "using indent folds" not in messages and "using expr folds" not in messages
    assert f"Claude Code: claude mcp add simple-brief -- {installed.engine} mcp" in mcp_lines
    assert f"Codex: codex mcp add simple-brief -- {installed.engine} mcp" in mcp_lines
    assert server == {"command": str(installed.engine), "args": ["mcp"]}
    assert f"editor: decoder.py:{1}:1 python" in text, text


def test_an_older_engine_is_reported_at_setup_and_the_install_command_updates_it(
    installed: Installed, tmp_path: Path
) -> None:
    record_file = installed.data / "nvim" / "simple-brief" / "engine.json"
    record = json.loads(record_file.read_text())
    record_file.write_text(json.dumps({**record, "version": "0.0.1"}))  # as after a plugin update
    with _editor(installed, tmp_path) as nv:
        warned = nv.exec_lua("return vim.api.nvim_exec2('messages', { output = true }).output")
    assert f"the engine in {installed.engine.parent.parent} is 0.0.1, older than the plugin" in warned
    assert "run :SimpleBriefInstall" in warned
    # What a plugin manager's build hook (`:SimpleBriefInstall`) does on update.
    rerun = subprocess.run(
        [nvim_binary(), "--headless", "+SimpleBriefInstall", "+qa"],
        env=installed.env,
        capture_output=True,
        text=True,
        timeout=900,
        cwd=tmp_path,
    )
    assert rerun.returncode == 0, rerun.stderr
    assert f"simple-brief: engine installed: {installed.engine}" in rerun.stdout, rerun.stdout + rerun.stderr
    assert "creating " not in rerun.stdout  # the venv is kept, the engine updated in it
    with _editor(installed, tmp_path) as nv:
        quiet = nv.exec_lua("return vim.api.nvim_exec2('messages', { output = true }).output")
    assert "older than the plugin" not in quiet


def _health(nv: pynvim.Nvim) -> list[str]:
    nv.command("checkhealth simple_brief")
    return list(nv.current.buffer[:])


def test_checkhealth_is_clean_and_its_rplugin_advice_works(installed: Installed, tmp_path: Path) -> None:
    """A new user's set-up (defaults, engine from the build step) has nothing to warn about; the
    optional rplugin advice it gives, followed word for word, gives the rplugin mode."""
    project = tmp_path / "project"
    source, def_line = _real_python_file(project)
    with _editor(installed, project) as nv:
        lines = _health(nv)
    problems = [line for line in lines if "WARNING" in line or "ERROR" in line]
    assert problems == [], "\n".join(lines)
    advice = next(line for line in lines if "`let g:python3_host_prog = '" in line)
    host_python = advice.split("`let g:python3_host_prog = '", 1)[1].split("'`", 1)[0]
    assert host_python == str(installed.engine.parent / "python")
    init = Path(installed.env["XDG_CONFIG_HOME"]) / "nvim" / "init.lua"
    original = init.read_text()
    manifest = Path(installed.env["XDG_DATA_HOME"]) / "nvim" / "rplugin.vim"
    try:
        init.write_text(f"vim.g.python3_host_prog = '{host_python}'\n" + original)
        register = subprocess.run(
            [nvim_binary(), "--headless", "+UpdateRemotePlugins", "+qa"],
            env=installed.env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert register.returncode == 0, register.stderr
        with _editor(installed, project) as nv:
            nv.command(f"edit {source}")
            nv.command("SimpleBrief")
            mode = nv.exec_lua("return require('simple_brief.lsp').mode()")
            closed = nv.funcs.foldclosed(def_line)
            rplugin_lines = _health(nv)
    finally:
        init.write_text(original)
        manifest.unlink(missing_ok=True)
    assert mode == "rplugin"
    assert closed == def_line
    assert [line for line in rplugin_lines if "ERROR" in line] == [], "\n".join(rplugin_lines)
