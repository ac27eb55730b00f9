"""TypeScript 7 has no tsserver (issue 26): `npm i typescript-language-server typescript` now
brings it, and every LSP tool then failed "Could not find a valid TypeScript installation".
The answer says in one sentence which TypeScript versions work and how to install one.

The TypeScript 7 here is the real package from npm, installed by `make test` in
tests/lsp/typescript7 (a package of its own that the root package.json names, so its `tsc`
does not replace TypeScript 5's in node_modules/.bin); the server is the real
typescript-language-server, copied so that Node resolves `typescript` beside it to that
TypeScript 7, as in a fresh `npm i typescript-language-server typescript`.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from simple_brief.errors import UserError
from simple_brief.files.workspace import Workspace
from simple_brief.lsp.pool import ServerPool
from simple_brief.tools import Call, Session, invoke

from conftest import write_trusted_config

REPO = Path(__file__).resolve().parents[2]
MODULES = REPO / "node_modules"
ADVICE = (
    "typescript-language-server runs only a TypeScript that has tsserver, 5.x or an earlier one it supports "
    "(TypeScript 7 has none): install one in the workspace with `npm i -D typescript@5`"
)


def install_with_typescript7(folder: Path) -> Path:
    """`folder/node_modules` as `npm i typescript-language-server typescript` leaves it today;
    the server's program in its `.bin`."""
    typescript7 = Path(__file__).parent / "typescript7" / "node_modules" / "typescript"
    assert (typescript7 / "package.json").is_file(), "TypeScript 7 is missing: run `make test` (npm install)"
    assert '"version": "7.' in (typescript7 / "package.json").read_text()
    assert not (typescript7 / "lib" / "tsserver.js").exists()
    modules = folder / "node_modules"
    shutil.copytree(MODULES / "typescript-language-server", modules / "typescript-language-server")
    (modules / "typescript").symlink_to(typescript7)
    (modules / ".bin").mkdir()
    program = modules / ".bin" / "typescript-language-server"
    program.symlink_to("../typescript-language-server/lib/cli.mjs")
    return program


@pytest.fixture
def workspace(tmp_path: Path) -> Iterator[Call]:
    root = tmp_path / "project"
    root.mkdir()
    (root / "tsconfig.json").write_text("{}\n")
    (root / "a.ts").write_text("export const answer = 42;\n")
    (root / "b.ts").write_text('import { answer } from "./a";\nconsole.log(answer);\n')
    call = Call(workspace=Workspace.at(root), session=Session(server_pool=ServerPool))
    try:
        yield call
    finally:
        call.session.close()


def path_with(program: Path) -> str:
    node = shutil.which("node")
    assert node is not None, "node is needed for typescript-language-server (apt-get install nodejs)"
    return f"{program.parent}:{Path(node).parent}"


def test_a_found_server_whose_typescript_has_no_tsserver_is_not_used_and_the_answer_says_which_works(
    workspace: Call, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", path_with(install_with_typescript7(tmp_path / "global")))
    with pytest.raises(UserError) as err:
        invoke("analyze", {"what": "references", "path": "a.ts", "line": 1, "col": 14}, workspace)
    assert "TypeScript 7.0.2" in str(err.value) and "has no tsserver" in str(err.value), err.value
    assert ADVICE in str(err.value), err.value


def test_a_configured_server_refusing_to_start_for_want_of_tsserver_gets_the_same_sentence(
    workspace: Call, tmp_path: Path
) -> None:
    """A configured server is not looked at before it starts: its own refusal is recognised."""
    program = install_with_typescript7(tmp_path / "global")
    write_trusted_config(
        workspace.workspace.root,
        f'[servers.ts]\ncommand = ["{program}", "--stdio"]\nfiletypes = ["typescript"]\n',
    )
    env_path = path_with(program)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PATH", env_path)
        with pytest.raises(UserError) as err:
            invoke("analyze", {"what": "references", "path": "a.ts", "line": 1, "col": 14}, workspace)
    assert "Could not find a valid TypeScript installation" in str(err.value), err.value
    assert ADVICE in str(err.value), err.value


def test_a_workspace_with_its_own_typescript_5_is_served_despite_a_typescript_7_beside_the_server(
    workspace: Call, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """typescript-language-server prefers the workspace's TypeScript: then it works."""
    (workspace.workspace.root / "node_modules").mkdir()
    (workspace.workspace.root / "node_modules" / "typescript").symlink_to(MODULES / "typescript")
    monkeypatch.setenv("PATH", path_with(install_with_typescript7(tmp_path / "global")))
    found = invoke("analyze", {"what": "references", "path": "a.ts", "line": 1, "col": 14}, workspace)
    assert found.data["references"].keys() == {"a.ts", "b.ts"}, found.blocks
