"""Issue 11, item 2: a repository cannot make simple-brief run its programs without consent.

The repository ships a script and a `.simple-brief.toml` naming it as a language server.
Until the person trusts that exact file, no tool — neither the read tool `diagnostics` nor
the `analyze` tool — starts it, and the answer says how to trust it; after
`simple-brief trust` the next call starts it; a change to the file needs a new trust.
The script only leaves a marker file and exits: a real language server is not needed to
see whether a program was started.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from simple_brief.errors import UserError
from simple_brief.files import config, trust
from simple_brief.files.workspace import Workspace
from simple_brief.lsp.pool import ServerPool
from simple_brief.tools import Call, Session, invoke

SIMPLE_BRIEF = Path(sys.executable).with_name("simple-brief")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "cloned"
    root.mkdir()
    (root / "app.py").write_text("def main():\n    return 1\n")
    script = root / "evil.sh"
    script.write_text(f"#!/bin/sh\ntouch '{root / 'RAN'}'\n")
    script.chmod(0o755)
    (root / config.FILENAME).write_text('[servers.evil]\ncommand = ["./evil.sh"]\nfiletypes = ["python"]\n')
    return root


def calls_that_may_start_servers(call: Call) -> list[str]:
    """Run the read tool and an lsp tool; the sentences they answer with."""
    said = [invoke("diagnostics", {"path": "app.py"}, call).text]
    try:
        said.append(invoke("analyze", {"what": "hover", "path": "app.py", "line": 1, "col": 5}, call).text)
    except UserError as err:
        said.append(str(err))
    return said


def test_untrusted_config_starts_nothing_until_trusted(repo: Path) -> None:
    session = Session(server_pool=ServerPool)
    call = Call(Workspace.at(repo), session=session)
    try:
        said = calls_that_may_start_servers(call)
        assert not (repo / "RAN").exists(), "an untrusted config started its program"
        for text in said:
            assert "is not trusted" in text and "simple-brief trust" in text, text
            assert "servers.evil = ./evil.sh" in text

        done = subprocess.run(
            [str(SIMPLE_BRIEF), "trust", str(repo)], capture_output=True, text=True, timeout=60, check=False
        )
        assert done.returncode == 0, done.stderr
        assert "trusted as it is now" in done.stdout and "servers.evil = ./evil.sh" in done.stdout
        # The file spells the program `command`, read as `argv` with a one-line note.
        assert "\nnote: `servers.evil.command` in " in done.stdout and "old spelling of `argv`" in done.stdout

        # The next call (a call reads the config once) of the same session picks the trusted config up.
        calls_that_may_start_servers(Call(call.workspace, session=session))
        assert (repo / "RAN").exists(), "the trusted config's program was not started"
    finally:
        session.close()


def test_a_changed_config_is_untrusted_again(repo: Path) -> None:
    path = repo / config.FILENAME
    trust.allow(path.resolve(), path.read_bytes())
    path.write_text(path.read_text() + "# changed\n")
    session = Session(server_pool=ServerPool)
    try:
        said = calls_that_may_start_servers(Call(Workspace.at(repo), session=session))
    finally:
        session.close()
    assert not (repo / "RAN").exists()
    assert all("is not trusted (or changed since)" in text for text in said)


def test_cli_trust_refuses_what_is_not_a_config(repo: Path, tmp_path: Path) -> None:
    other = tmp_path / "other.toml"
    other.write_text("")
    done = subprocess.run(
        [str(SIMPLE_BRIEF), "trust", str(other)], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 2
    assert done.stderr.startswith("simple-brief: ") and "is not a .simple-brief.toml" in done.stderr
    assert len(done.stderr.splitlines()) == 1


@pytest.mark.parametrize("value", ["0", "-5", "abc"])
def test_max_bytes_must_be_above_zero(repo: Path, value: str) -> None:
    done = subprocess.run(
        [str(SIMPLE_BRIEF), "outline", "app.py", "--max-bytes", value],
        capture_output=True,
        text=True,
        cwd=repo,
        timeout=60,
        check=False,
        env={**os.environ},
    )
    assert done.returncode == 2 and "--max-bytes" in done.stderr and len(done.stderr.splitlines()) == 1
