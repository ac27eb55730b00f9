"""The first references call of a just-started language server answers the same sites as a
call made once it has settled (issue 26): the real servers from PyPI and npm on real code
nobody here wrote, whose references span packages and files.

- Python: the MCP SDK's `mcp` package copied from site-packages (client, server, shared
  and types packages), `MCPError` of mcp/shared/exceptions.py; basedpyright (PyPI) and
  pyright (npm: it sends no `serverInfo`, so the old rule never waited for it).
- TypeScript: rxjs's own sources (npm, pinned in package.json) with a tsconfig.json,
  `Subscription` of src/internal/Subscription.ts; typescript-language-server (npm, pinned)
  loads the project after the first file is opened, reporting work-done progress. And a
  small solution-style monorepo (a root tsconfig.json referencing two composite projects,
  the shape of vscode-languageserver-node, where the issue saw 37 of 57 sites): written
  here, as no npm package ships one.
- Go: go/token, go/scanner, go/ast and go/parser of the Go toolchain's own sources (Debian's
  golang-go) copied into a module, their imports of each other rewritten to it, `token.Pos`;
  gopls (Debian's gopls 0.5.0) reports "Setting up workspace" as work-done progress.
- C: the Go runtime's cgo C files (golang-go) with a compile_commands.json written here,
  `fatalf` of gcc_fatalf.c, called from 13 other files; clangd (Debian's clangd 14) indexes
  them in the background, reporting work-done progress ("indexing"): asked at once, it
  answered 1 of the 22 sites.

gopls and clangd come from Debian: `.ci/run` installs them (with golang-go).

The settled answer is the oracle: the same question asked again, once per second, until
two answers in a row agree.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from simple_brief.files.workspace import Workspace
from simple_brief.lsp.pool import ServerPool
from simple_brief.tools import Call, Session, ToolResult, invoke

REPO = Path(__file__).resolve().parents[2]
#: Where the Debian packages .ci/run installs put their programs (gopls, clangd, go).
DEBIAN_BIN = Path("/usr/bin")
NODE_BIN = REPO / "node_modules" / ".bin"
SITE_MCP = Path(__import__("mcp").__file__).parent
RXJS_SRC = REPO / "node_modules" / "rxjs" / "src"
TSCONFIG = '{"compilerOptions": {"strict": true, "target": "es2017", "lib": ["es2018", "dom"], "noEmit": true}}\n'
#: server program -> (where it is, project kind, file, line, col of the symbol asked about)
CASES = {
    "basedpyright-langserver": (Path(sys.executable).parent, "python", "mcp/shared/exceptions.py", 19, 7),
    "pyright-langserver": (NODE_BIN, "python", "mcp/shared/exceptions.py", 19, 7),
    "typescript-language-server": (NODE_BIN, "typescript", "src/internal/Subscription.ts", 16, 14),
    "typescript-language-server+references": (NODE_BIN, "monorepo", "a/src/conn.ts", 1, 18),
    "gopls": (DEBIAN_BIN, "go", "token/position.go", 77, 6),
    "clangd": (DEBIAN_BIN, "c", "gcc_fatalf.c", 13, 1),
}
#: The Go packages copied (they import only each other and the standard library).
GO_PACKAGES = ("token", "scanner", "ast", "parser", "internal/typeparams")
GO_MODULE = "std.example/go"
MONOREPO = {
    "tsconfig.json": '{"files": [], "references": [{"path": "./a"}, {"path": "./b"}]}',
    "a/tsconfig.json": '{"compilerOptions": {"composite": true, "rootDir": "src", "strict": true}, "include": ["src"]}',
    "b/tsconfig.json": (
        '{"compilerOptions": {"composite": true, "rootDir": "src", "strict": true}, "include": ["src"], '
        '"references": [{"path": "../a"}]}'
    ),
    "a/src/conn.ts": (
        "export interface Conn { send(x: string): void }\nexport function make(): Conn { return { send() {} }; }\n"
    ),
    "a/src/use.ts": 'import { Conn } from "./conn";\nexport function use(c: Conn): void { c.send("a"); }\n',
    **{
        f"b/src/m{n}.ts": (
            f'import {{ Conn }} from "../../a/src/conn";\nexport function f{n}(c: Conn): Conn {{ return c; }}\n'
        )
        for n in range(8)
    },
}


def project(kind: str, root: Path) -> Path:
    root.mkdir()
    if kind == "python":
        shutil.copytree(SITE_MCP, root / "mcp", ignore=shutil.ignore_patterns("__pycache__"))
    elif kind == "go":
        copy_go_packages(goroot() / "src" / "go", root)
    elif kind == "c":
        copy_cgo(goroot() / "src" / "runtime" / "cgo", root)
    elif kind == "monorepo":
        for name, text in MONOREPO.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(text)
    else:
        assert RXJS_SRC.is_dir(), "rxjs's sources are missing: run `make test` (npm install, package.json)"
        shutil.copytree(RXJS_SRC, root / "src")
        (root / "tsconfig.json").write_text(TSCONFIG)
    return root


def goroot() -> Path:
    go = shutil.which("go")
    assert go is not None, "go is missing: .ci/run installs it (apt-get install golang-go)"
    found = subprocess.run([go, "env", "GOROOT"], capture_output=True, text=True, check=True).stdout.strip()
    return Path(found)


def copy_go_packages(source: Path, root: Path) -> None:
    """`GO_PACKAGES` (without their tests) as the module `GO_MODULE`, importing each other from it."""
    (root / "go.mod").write_text(f"module {GO_MODULE}\n\ngo 1.19\n")
    imports = re.compile(r'"go/(' + "|".join(map(re.escape, GO_PACKAGES)) + r')"')
    for package in GO_PACKAGES:
        (root / package).mkdir(parents=True)
        for file in (source / package).glob("*.go"):
            if not file.name.endswith("_test.go"):
                (root / package / file.name).write_text(imports.sub(rf'"{GO_MODULE}/\1"', file.read_text()))


def copy_cgo(source: Path, root: Path) -> None:
    """The runtime's cgo C files and headers, with a compile_commands.json naming each file."""
    for file in source.iterdir():
        if file.suffix in (".c", ".h"):
            shutil.copy(file, root / file.name)
    commands = [
        {"directory": str(root), "file": str(file), "arguments": ["cc", "-c", "-I.", "-o", "/dev/null", file.name]}
        for file in sorted(root.glob("*.c"))
    ]
    (root / "compile_commands.json").write_text(json.dumps(commands))


@pytest.fixture(params=sorted(CASES))
def fresh(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[Call, Any]]:
    """A session on a copied project whose PATH holds only the server (and node), not started yet."""
    folder, kind, path, line, col = CASES[request.param]
    program = str(request.param).split("+")[0]
    installer = ".ci/run (apt-get install gopls clangd)" if folder == DEBIAN_BIN else "`make test`"
    assert (folder / program).is_file(), f"{folder / program} is missing: run {installer} (it installs it)"
    links = tmp_path / "bin"
    links.mkdir()
    (links / program).symlink_to(folder / program)
    node = shutil.which("node")
    assert node is not None, "node is needed for pyright and typescript-language-server (apt-get install nodejs)"
    go = shutil.which("go")  # gopls runs `go list`
    tools = dict.fromkeys(str(Path(p).parent) for p in (node, go) if p is not None)
    monkeypatch.setenv("PATH", ":".join([str(links), *tools]))
    call = Call(workspace=Workspace.at(project(kind, tmp_path / "project")), session=Session(server_pool=ServerPool))
    try:
        yield call, {"path": path, "line": line, "col": col, "limit": 1000}
    finally:
        call.session.close()


def sites(result: ToolResult) -> set[tuple[str, int, int]]:
    return {
        (path, ref["range"]["start"]["line"], ref["range"]["start"]["character"])
        for path, refs in result.data["references"].items()
        for ref in refs
    }


def test_the_first_call_of_a_fresh_server_answers_the_settled_sites(fresh: tuple[Call, Any]) -> None:
    call, args = fresh
    reported: list[str] = []
    call.progress = lambda done, total, message: reported.append(message)
    first = invoke("analyze", {"what": "references", **args}, call)
    settled, previous = None, None
    for _ in range(30):
        settled = sites(invoke("analyze", {"what": "references", **args}, call))
        if settled == previous:
            break
        previous = settled
        time.sleep(1)
    assert settled is not None and len(settled) > 15 and len({p for p, _, _ in settled}) > 5, settled
    assert sites(first) == settled, (len(sites(first)), len(settled), first.blocks[0])
    assert not first.blocks[0].startswith("["), first.blocks[0]  # it finished loading within the bound
    server = call.session.language_servers.status()[0]["name"]  # type: ignore[union-attr]
    assert reported and all(m.startswith(f"waiting for {server} to load the workspace") for m in reported), reported
