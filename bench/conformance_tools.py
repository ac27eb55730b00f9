"""Each language's own judge of syntax: does the language's tool accept a file?

`judge(language)` gives a function `list[Path] -> dict[Path, bool]` (True: the tool
accepts the file) and the tool's name, or None when no tool for that language installs
here. A file the tool rejects is left out of the false-syntax-error count: the engine may
rightly see errors there (or the tool lacks the file's context: a C++ source without its
include paths).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from conformance_corpus import NPM, NPM_TOOLS, PIP

Judge = Callable[[list[Path]], dict[Path, bool]]

_C_PRELUDE = "#include <stddef.h>\n#include <stdio.h>\n#include <sys/types.h>\n"


def _each(check: Callable[[Path], bool]) -> Judge:
    def judge(files: list[Path]) -> dict[Path, bool]:
        out: dict[Path, bool] = {}
        for path in files:
            try:
                out[path] = check(path)
            except (OSError, subprocess.SubprocessError, ValueError):
                out[path] = False
        return out

    return judge


def _exit0(*argv: str, stdin: Path | None = None, timeout: float = 60) -> Callable[[Path], bool]:
    """A check that runs `argv` with the file's path appended (or the file on stdin when
    `stdin` is given: rustfmt then reads no `mod` files of its own) and wants exit 0."""

    def check(path: Path) -> bool:
        if stdin is not None:
            with path.open("rb") as fh:
                done = subprocess.run(list(argv), stdin=fh, capture_output=True, timeout=timeout, check=False)
        else:
            done = subprocess.run([*argv, str(path)], capture_output=True, timeout=timeout, check=False)
        return done.returncode == 0

    return check


def _python(path: Path) -> bool:
    try:
        compile(path.read_bytes(), str(path), "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        return False
    return True


def _json(path: Path) -> bool:
    try:
        json.loads(path.read_bytes())
    except (json.JSONDecodeError, UnicodeDecodeError):
        return False
    return True


def _toml(path: Path) -> bool:
    try:
        tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError):
        return False
    return True


def _yaml(path: Path) -> bool:
    try:
        import yaml
    except ImportError:
        return _exit0("yq", ".")(path)
    try:
        list(yaml.safe_load_all(path.read_text(encoding="utf-8")))
    except (yaml.YAMLError, UnicodeDecodeError):
        return False
    return True


def _gcc(lang: str) -> Callable[[Path], bool]:
    compiler = "gcc" if lang == "c" else "g++"

    def check(path: Path) -> bool:
        alone = subprocess.run(
            [compiler, "-fsyntax-only", "-x", lang, str(path)], capture_output=True, timeout=60, check=False
        )
        if alone.returncode == 0 or lang != "c":
            return alone.returncode == 0
        with tempfile.NamedTemporaryFile("w", suffix=".c", delete=False) as tiny:
            tiny.write(f'{_C_PRELUDE}#include "{path}"\n')
        done = subprocess.run(["gcc", "-fsyntax-only", tiny.name], capture_output=True, timeout=60, check=False)
        Path(tiny.name).unlink()
        return done.returncode == 0

    return check


_TS_SCRIPT = r"""
const ts = require(process.argv[1]);
const fs = require('fs');
const out = {};
for (const f of fs.readFileSync(0, 'utf8').split('\n').filter(Boolean)) {
  const kind = f.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(f, fs.readFileSync(f, 'utf8'), ts.ScriptTarget.Latest, false, kind);
  out[f] = sf.parseDiagnostics.length === 0;
}
process.stdout.write(JSON.stringify(out));
"""


#: parse5's codes about the doctype alone (none, a legacy one, its identifiers run
#: together): they choose quirks mode, and every such doctype is parsed.
_HTML_SCRIPT = r"""
const fs = require('fs');
const { pathToFileURL } = require('url');
(async () => {
  const parse5 = await import(pathToFileURL(process.argv[1]).href);
  const out = {};
  for (const f of fs.readFileSync(0, 'utf8').split('\n').filter(Boolean)) {
    const errors = [];
    parse5.parse(fs.readFileSync(f, 'utf8'), { onParseError: (e) => errors.push(e.code) });
    out[f] = errors.filter((code) => !code.includes('doctype')).length === 0;
  }
  process.stdout.write(JSON.stringify(out));
})();
"""

_CSS_SCRIPT = r"""
const fs = require('fs');
const postcss = require(process.argv[1]);
const out = {};
for (const f of fs.readFileSync(0, 'utf8').split('\n').filter(Boolean)) {
  try {
    postcss.parse(fs.readFileSync(f, 'utf8'), { from: f });
    out[f] = true;
  } catch (e) {
    out[f] = false;
  }
}
process.stdout.write(JSON.stringify(out));
"""


_PARSE5 = NPM_TOOLS / "parse5" / "dist" / "index.js"


def _node_script(script: str, module: Path) -> Judge:
    """A Node script that reads file names on stdin and writes {name: accepted} (the
    module it loads, an npm package in the cache, its first argument)."""

    def judge(files: list[Path]) -> dict[Path, bool]:
        done = subprocess.run(
            ["node", "-e", script, str(module)],
            input="\n".join(map(str, files)),
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        got = json.loads(done.stdout or "{}")
        return {p: bool(got.get(str(p), False)) for p in files}

    return judge


#: TypeScript's own parser (npm typescript in the cache): no parse diagnostics.
_typescript = _node_script(_TS_SCRIPT, NPM / "typescript")

_LUA_SCRIPT = r"""
for _, f in ipairs(_G.arg) do
  local fn = loadfile(f)
  io.stdout:write((fn and 'ok ' or 'no ') .. f .. '\n')
end
"""


def _lua(files: list[Path]) -> dict[Path, bool]:
    """LuaJIT's loader (Neovim's, `nvim -l`): the Lua dialect the corpus is written for."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from nvim_session import nvim_binary

    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write(_LUA_SCRIPT)
    done = subprocess.run(
        [nvim_binary(), "--clean", "--headless", "-l", script.name, *map(str, files)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    Path(script.name).unlink()
    ok = {line[3:] for line in (done.stdout + done.stderr).splitlines() if line.startswith("ok ")}
    return {p: str(p) in ok for p in files}


_ELIXIR_SCRIPT = r"""
for f <- System.argv() do
  ok = match?({:ok, _}, Code.string_to_quoted(File.read!(f), file: f))
  IO.puts((if ok, do: "ok ", else: "no ") <> f)
end
"""


def _elixir(files: list[Path]) -> dict[Path, bool]:
    """Elixir's own parser (`Code.string_to_quoted`): the file is parsed, never run."""
    done = subprocess.run(
        ["elixir", "-e", _ELIXIR_SCRIPT, *map(str, files)], capture_output=True, text=True, timeout=300, check=False
    )
    ok = {line[3:] for line in done.stdout.splitlines() if line.startswith("ok ")}
    return {p: str(p) in ok for p in files}


def _nix(path: Path) -> bool:
    """`nix-instantiate --parse` (parses, evaluates nothing), its state and store in a
    temporary folder: no daemon, no /nix."""
    with tempfile.TemporaryDirectory() as tmp:
        env = {
            "PATH": "/usr/bin:/bin",
            "HOME": tmp,
            "NIX_STATE_DIR": f"{tmp}/state",
            "NIX_STORE_DIR": f"{tmp}/store",
            "NIX_LOG_DIR": f"{tmp}/log",
            "NIX_CONF_DIR": tmp,
        }
        done = subprocess.run(
            ["nix-instantiate", "--parse", str(path)], capture_output=True, env=env, timeout=60, check=False
        )
    return done.returncode == 0


def _scala_one(path: Path) -> bool:
    """The file as a compilation unit, else as a script (`-Xscript`: its top-level
    statements wrapped in an object, as the lexer samples are written)."""
    for script in ((), ("-Xscript", "Main")):
        with tempfile.TemporaryDirectory() as out:
            argv = ["scalac", *script, "-Ystop-after:parser", "-d", out, str(path)]
            if subprocess.run(argv, capture_output=True, timeout=120, check=False).returncode == 0:
                return True
    return False


def _scala(files: list[Path]) -> dict[Path, bool]:
    """scalac (Debian's 2.11) stopped after the parser, one file a run (several in one run
    stop at the first file with errors), four at a time: Scala 3 syntax is rejected, so left
    out."""
    with ThreadPoolExecutor(4) as pool:
        return {p: ok for one in pool.map(_each(_scala_one), [[p] for p in files]) for p, ok in one.items()}


_HCL_SCRIPT = r"""
import sys
sys.path.insert(0, sys.argv[1])
import hcl2
for f in sys.argv[2:]:
    try:
        hcl2.loads(open(f, encoding="utf-8").read())
        print("ok " + f)
    except Exception:
        print("no " + f)
"""


def _hcl(files: list[Path]) -> dict[Path, bool]:
    """python-hcl2's HCL2 parser (a Lark grammar; pip wheels in the cache)."""
    done = subprocess.run(
        [sys.executable, "-c", _HCL_SCRIPT, str(PIP), *map(str, files)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    ok = {line[3:] for line in done.stdout.splitlines() if line.startswith("ok ")}
    return {p: str(p) in ok for p in files}


def _hugs(path: Path) -> bool:
    """Hugs loads the module (parses and type-checks it and its imports; evaluates nothing:
    `:q` is its only input), from the folder its module name roots it in so that its
    sibling modules are found; a file whose imports Hugs cannot find is rejected."""
    text = path.read_text(encoding="utf-8", errors="replace")
    found = re.search(r"^module\s+([A-Z][\w.']*)", text, re.M)
    root = path.parent
    for _ in range(found.group(1).count(".") if found else 0):
        root = root.parent
    argv = ["hugs", "-98", "+q", str(path)]
    done = subprocess.run(argv, input=":q\n", cwd=root, capture_output=True, text=True, timeout=60, check=False)
    return done.returncode == 0 and "ERROR" not in done.stdout + done.stderr


def judge(language: str) -> tuple[Judge, str] | None:
    """The language's own syntax judge and its name, or None when none installs here."""
    have = shutil.which
    zig = PIP / "ziglang" / "zig"
    table: dict[str, tuple[Judge, str] | None] = {
        "python": (_each(_python), f"compile() (Python {sys.version_info[0]}.{sys.version_info[1]})"),
        "json": (_each(_json), "json.loads"),
        "toml": (_each(_toml), "tomllib"),
        "yaml": (_each(_yaml), "PyYAML safe_load_all") if _has_yaml() else None,
        "c": (_each(_gcc("c")), "gcc -fsyntax-only") if have("gcc") else None,
        "cpp": (_each(_gcc("c++")), "g++ -fsyntax-only") if have("g++") else None,
        "sh": (_each(_exit0("bash", "-n")), "bash -n") if have("bash") else None,
        "ruby": (_each(_exit0("ruby", "-c")), "ruby -c") if have("ruby") else None,
        "php": (_each(_exit0("php", "-l")), "php -l") if have("php") else None,
        "zig": (_each(_exit0(str(zig), "ast-check")), "zig ast-check") if zig.is_file() else None,
        "javascript": (_each(_exit0("node", "--check")), "node --check") if have("node") else None,
        "typescript": (_typescript, "TypeScript's parser") if have("node") and (NPM / "typescript").is_dir() else None,
        "typescriptreact": (_typescript, "TypeScript's parser")
        if have("node") and (NPM / "typescript").is_dir()
        else None,
        "go": (_each(_exit0("gofmt", "-e", "-l")), "gofmt -e") if have("gofmt") else None,
        "rust": (_each(_exit0("rustfmt", "--edition", "2021", "--emit", "stdout", stdin=Path())), "rustfmt")
        if have("rustfmt")
        else None,
        "ocaml": (_each(_exit0("ocamlc", "-stop-after", "parsing", "-c", "-o", "/dev/null")), "ocamlc parsing")
        if have("ocamlc")
        else None,
        "lua": (_lua, "LuaJIT loadfile (nvim -l)"),
        "elixir": (_elixir, "Code.string_to_quoted (elixir)") if have("elixir") else None,
        "nix": (_each(_nix), "nix-instantiate --parse") if have("nix-instantiate") else None,
        "cs": (_each(_exit0("mcs", "--parse")), "mcs --parse (Mono)") if have("mcs") else None,
        "scala": (_scala, "scalac -Ystop-after:parser (2.11)") if have("scalac") else None,
        "haskell": (_each(_hugs), "Hugs loads it (-98; type-checked, not run)") if have("hugs") else None,
        "html": (_node_script(_HTML_SCRIPT, _PARSE5), "parse5 onParseError (doctype codes aside)")
        if have("node") and (NPM_TOOLS / "parse5").is_dir()
        else None,
        "css": (_node_script(_CSS_SCRIPT, NPM_TOOLS / "postcss"), "postcss")
        if have("node") and (NPM_TOOLS / "postcss").is_dir()
        else None,
        "hcl": (_hcl, "python-hcl2") if (PIP / "hcl2").is_dir() and (PIP / "lark").is_dir() else None,
    }
    return table.get(language)


def _has_yaml() -> bool:
    try:
        import yaml  # noqa: F401
    except ImportError:
        return shutil.which("yq") is not None and shutil.which("jq") is not None
    return True
