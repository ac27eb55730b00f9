"""An agent's values are data (issue 26, part 7): a test filter never becomes an option of
the runner the person trusted (a real cargo crate, real pytest, real make), and a bare
program name never resolves to a file the repository planted through a relative, empty
or in-workspace PATH entry. Every attack here writes a marker file on the code before
the fix."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from projects import PY, c_project, call_tool, cargo, declare, python_project

from simple_brief.errors import UserError
from simple_brief.files import config
from simple_brief.lsp.process import find_executable
from simple_brief.tasks import agent_values
from simple_brief.tasks.declared import detect

needs_cargo = pytest.mark.skipif(cargo() is None, reason="cargo is not installed on this machine")
VENV_BIN = str(Path(sys.executable).parent)
CRATE_TEST = "#[test]\nfn it_adds() {\n    assert_eq!(2 + 2, 4);\n}\n"


def refusal(root: Path, tool: str, **params: Any) -> UserError | None:
    """The refusal a call answers with, or None when it ran (whatever it ran)."""
    try:
        call_tool(root, tool, **params)
    except UserError as error:
        return error
    return None


def one_sentence(error: BaseException | None) -> str:
    assert error is not None, "the call was not refused"
    text = str(error)
    assert "\n" not in text and text.endswith(".") and "Traceback" not in text, text
    return text


def crate(root: Path, tasks: str) -> Path:
    """A tiny offline crate (no dependencies) whose build stays in its tmp folder."""
    (root / "src").mkdir(parents=True)
    (root / "Cargo.toml").write_text('[package]\nname = "demo"\nversion = "0.1.0"\nedition = "2021"\n')
    (root / "src" / "lib.rs").write_text(CRATE_TEST)
    env = f'env = {{ CARGO_NET_OFFLINE = "true", CARGO_TERM_COLOR = "never", CARGO_TARGET_DIR = "{root / "target"}" }}'
    declare(root, f"{tasks}\n{env}\ntimeout_s = 300\n")
    return root


def host_triple() -> str:
    rustc = Path(str(cargo())).with_name("rustc")
    info = subprocess.run([str(rustc), "-vV"], capture_output=True, text=True, check=True).stdout
    return next(line.split(": ", 1)[1] for line in info.splitlines() if line.startswith("host: "))


@needs_cargo
def test_a_filter_never_becomes_an_option_of_cargo(tmp_path: Path) -> None:
    """The reported attack: `filter = ["{filter}"]` and a filter that sets cargo's test runner."""
    root = crate(tmp_path / "crate", f'[tasks.test]\nargv = ["{cargo()}", "test"]\nfilter = ["{{filter}}"]')
    marker = tmp_path / "marker"
    code = f"open({str(marker)!r}, 'w').write('x')"
    hostile = f'--config=target.{host_triple()}.runner=["{sys.executable}","-c","{code}"]'
    refused = refusal(root, "test_run", filter=hostile)
    assert not marker.exists(), "the agent's runner ran"
    assert "starts with `-`" in one_sentence(refused)
    only = call_tool(root, "test_run", filter="it_adds")  # a test name still filters
    assert (only.data["passed"], only.data["failed"]) == (1, 0), only.text


@needs_cargo
def test_the_suggested_cargo_filter_reaches_only_the_test_binary_as_data(tmp_path: Path) -> None:
    """After cargo's `--` the test binary reads options again (`--logfile=PATH` writes a
    file): cargo forwards, so one `--` is not the end of options there."""
    (tmp_path / "probe").mkdir()
    (tmp_path / "probe" / "Cargo.toml").write_text("[package]\n")
    suggested = next(s for s in detect(tmp_path / "probe") if "cargo" in s.kind).toml(["test"])
    assert 'filter = ["--", "{filter}"]' in suggested
    root = crate(tmp_path / "crate", suggested)
    marker = tmp_path / "marker"
    refused = refusal(root, "test_run", filter=f"--logfile={marker}")
    assert not marker.exists(), "the test binary took the filter as its --logfile option"
    one_sentence(refused)
    only = call_tool(root, "test_run", filter="it_adds")
    assert (only.data["passed"], only.data["failed"]) == (1, 0), only.text


@pytest.mark.parametrize(
    ("shape", "hostile"),
    [
        ('["{filter}"]', "--junitxml={marker}"),  # a positional filter (pytest's node ids)
        ('["{filter}"]', "--debug={marker}"),
        ('["-k", "{filter}"]', "--junitxml={marker}"),  # a separate word after a declared option
    ],
)
def test_a_filter_never_becomes_an_option_of_pytest(tmp_path: Path, shape: str, hostile: str) -> None:
    root = python_project(tmp_path / "calc")
    declare(root, f'[tasks.test]\nargv = ["{PY}", "-m", "pytest", "-q", "-p", "no:cacheprovider"]\nfilter = {shape}\n')
    marker = tmp_path / "marker"
    refused = refusal(root, "test_run", filter=hostile.format(marker=marker))
    assert not marker.exists()
    assert "could read it as an option" in one_sentence(refused)
    if shape == '["{filter}"]':
        chosen = call_tool(root, "test_run", filter="tests/test_calc.py::test_add")
        assert "1 passed" in chosen.text, chosen.text


@pytest.mark.parametrize(
    ("shape", "runs"),
    [
        ('["--", "{filter}"]', False),  # pytest 9 reads options past one `--`
        ('["--", "--", "{filter}"]', True),
        ('["-k={filter}"]', True),
    ],
)
def test_a_dash_value_is_data_after_two_markers_or_attached_to_an_option(
    tmp_path: Path, shape: str, runs: bool
) -> None:
    root = python_project(tmp_path / "calc")
    marker = tmp_path / "marker"
    declare(root, f'[tasks.test]\nargv = ["{PY}", "-m", "pytest", "-q", "-p", "no:cacheprovider"]\nfilter = {shape}\n')
    hostile = f"--junitxml={marker}"
    if runs:
        ran = call_tool(root, "test_run", filter=hostile)  # pytest reads a file name or a -k expression
        assert ran.data["exit_code"] == 4, ran.text
    else:
        refused = refusal(root, "test_run", filter=hostile)
        assert not marker.exists()
        one_sentence(refused)
    assert not marker.exists()


MAKEFILE = "check:\n\t$(CC) --version\n"


def test_a_filter_never_sets_a_make_variable(tmp_path: Path) -> None:
    root = c_project(tmp_path / "c")
    (root / "Makefile").write_text(MAKEFILE)
    declare(root, '[tasks.test]\nargv = ["make"]\nfilter = ["{filter}"]\n')
    marker = tmp_path / "marker"
    hostile = f"CC={sys.executable} -c \"open('{marker}', 'w').write('x')\""
    refused = refusal(root, "test_run", filter=hostile)
    assert not marker.exists()
    assert "make would read it as a variable" in one_sentence(refused)


def test_placeholders_are_filled_in_one_pass() -> None:
    """A value holding `{junit}` is not filled again (the file name is the agent's text)."""
    filled = agent_values.fill(
        ["prog", "{file}", "--junitxml={junit}"],
        {"{file}": "/ws/{junit}.py", "{junit}": "/scratch/junit.xml"},
        {"{file}"},
        "tasks.profile",
    )
    assert filled == ["prog", "/ws/{junit}.py", "--junitxml=/scratch/junit.xml"]


@pytest.mark.parametrize(
    ("argv", "value", "ok"),
    [
        (["pytest", "{filter}"], "test_x", True),
        (["pytest", "{filter}"], "-x", False),
        (["pytest", "-k", "{filter}"], "-x", False),
        (["pytest", "--", "{filter}"], "-x", False),
        (["pytest", "--", "--", "{filter}"], "-x", True),
        (["pytest", "-k={filter}"], "-x", True),
        (["pytest", "-{filter}"], "x", False),
        (["cargo", "test", "--", "{filter}"], "--logfile=x", False),
        (["cargo", "test", "--", "--", "{filter}"], "--logfile=x", True),
        (["/root/.cargo/bin/cargo", "test", "{filter}"], "it", True),
        (["npm", "run", "test", "--", "{filter}"], "--require=x", False),
        (["npm", "run", "test", "--", "--", "{filter}"], "--require=x", True),
        (["make", "{filter}"], "SHELL=/bin/x", False),
        (["make", "{filter}"], "all", True),
        (["pytest", "{filter}"], "a\0b", False),
    ],
)
def test_where_a_value_may_start_with_a_dash(argv: list[str], value: str, ok: bool) -> None:
    def fill() -> list[str]:
        return agent_values.fill(argv, {"{filter}": value}, {"{filter}"}, "tasks.test")

    if ok:
        assert value in " ".join(fill())
    else:
        with pytest.raises(UserError):
            fill()


@pytest.mark.parametrize(
    ("name", "loads"),
    [
        ("LD_PRELOAD", True),
        ("LD_LIBRARY_PATH", True),
        ("PYTHONPATH", True),
        ("PYTHONSTARTUP", True),
        ("PYTHONWARNINGS", True),
        ("NODE_OPTIONS", True),
        ("RUSTC_WRAPPER", True),
        ("CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER", True),
        ("GIT_SSH_COMMAND", True),
        ("BASH_ENV", True),
        ("JAVA_TOOL_OPTIONS", True),
        ("npm_config_node_options", True),
        ("PYTHONUNBUFFERED", False),
        ("PYTHONHASHSEED", False),
        ("DEBUG", False),
        ("MODE", False),
    ],
)
def test_code_loading_variables_are_named_by_data(name: str, loads: bool) -> None:
    assert agent_values.loads_code(name) is loads
    if loads:
        with pytest.raises(UserError, match=f"env {name} is not set"):
            agent_values.check_env({name: "x"}, (), "[debug.python]")
        agent_values.check_env({name: "x"}, (name,), "[debug.python]")  # the person allowed it


# ------------------------------------------------------------------------ PATH planting

PLANTED = "#!/bin/sh\necho planted > {marker}\n"


@pytest.mark.parametrize("entry", [".", "", "./node_modules/.bin", "{root}/node_modules/.bin"])
def test_a_planted_program_is_never_run_through_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, entry: str
) -> None:
    """A trusted `ruff check .` runs the person's ruff, never the repository's `./ruff` or
    `./node_modules/.bin/ruff`, whatever relative, empty or in-workspace entry PATH holds."""
    root = python_project(tmp_path / "repo")
    marker = tmp_path / "marker"
    for folder in (root, root / "node_modules" / ".bin"):
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "ruff").write_text(PLANTED.format(marker=marker))
        (folder / "ruff").chmod(0o755)
    declare(root, '[tasks.check]\nargv = ["ruff", "check", "."]\n')
    monkeypatch.chdir(root)  # the server started in the repository, as an editor does
    monkeypatch.setenv("PATH", os.pathsep.join([entry.format(root=root), VENV_BIN, "/usr/bin", "/bin"]))
    result = call_tool(root, "build_check")
    assert not marker.exists(), "the repository's own ruff ran"
    assert result.data["timings"]["phases"][0]["argv"][0] == f"{VENV_BIN}/ruff"
    monkeypatch.setenv("PATH", os.pathsep.join([entry.format(root=root), "/nonexistent"]))
    missing = refusal(root, "build_check")
    assert not marker.exists()
    assert "is the workspace's own" in one_sentence(missing)


def plant(folder: Path, name: str, marker: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(PLANTED.format(marker=marker))
    (folder / name).chmod(0o755)


def test_the_trust_prompt_shows_the_program_each_command_runs(tmp_path: Path) -> None:
    """The person reviews the resolved program before trusting, not only its bare name."""
    root = tmp_path / "repo"
    plant(root, "ruff", tmp_path / "marker")
    (root / config.FILENAME).write_text('[tasks.check]\nargv = ["ruff", "check", "."]\n')
    cli = str(Path(sys.executable).with_name("simple-brief"))

    def trust_says(path: list[str], *flags: str) -> str:
        env = dict(os.environ, PATH=os.pathsep.join(path))
        done = subprocess.run([cli, "trust", *flags], cwd=root, env=env, capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr
        return done.stdout

    status = trust_says([".", VENV_BIN, "/usr/bin", "/bin"], "--status")
    assert f"tasks.check = ruff check . → {VENV_BIN}/ruff" in status, status
    alone = trust_says(["."], "--status")
    assert "ruff check . → not found outside the workspace; ./ruff is the workspace's own" in alone, alone
    untrusted = config.load(root).untrusted or ""
    assert "tasks.check = ruff check . → " in untrusted, untrusted
    assert f"→ {VENV_BIN}/ruff" in trust_says([VENV_BIN, "/usr/bin", "/bin"])
    assert not (tmp_path / "marker").exists()


def test_a_configured_language_server_is_not_found_through_a_relative_path_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "repo"
    plant(root, "pylsp", tmp_path / "marker")
    monkeypatch.chdir(root)
    monkeypatch.setenv("PATH", os.pathsep.join([".", "/nonexistent"]))
    server = config.ServerConfig("pylsp", ("pylsp",), ("python",))
    with pytest.raises(UserError, match="was not found on PATH"):
        find_executable(server, root)


def test_the_person_may_let_an_agent_set_a_code_loading_variable(tmp_path: Path) -> None:
    """`agent_env` in the trusted config is the person's decision: then PYTHONPATH counts."""
    root = python_project(tmp_path / "calc")
    marker = tmp_path / "marker"
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    (hooks / "sitecustomize.py").write_text(f"open({str(marker)!r}, 'w').write('x')\n")
    refused = refusal(root, "debug_launch", program="calc.py", env=f"PYTHONPATH={hooks}", driver="own")
    assert "env PYTHONPATH is not set" in one_sentence(refused) and not marker.exists()
    declare(root, f'[debug.python]\nadapter = ["{PY}", "-m", "debugpy.adapter"]\nagent_env = ["PYTHONPATH"]\n')
    ended = call_tool(root, "debug_launch", program="calc.py", env=f"PYTHONPATH={hooks}", driver="own")
    assert ended.text.startswith("ended"), ended.text
    assert marker.exists()


def test_agent_env_must_be_a_list_of_names(tmp_path: Path) -> None:
    root = python_project(tmp_path / "calc")
    declare(root, f'[debug.python]\nadapter = ["{PY}", "-m", "debugpy.adapter"]\nagent_env = "PYTHONPATH"\n')
    refused = refusal(root, "debug_launch", program="calc.py", driver="own")
    assert "`debug.python.agent_env`" in one_sentence(refused) and "must be a list of variable names" in str(refused)
