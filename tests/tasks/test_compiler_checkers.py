"""Checker output into diagnostics: tsc (run where node and the npm `typescript` package
are found, and on checked-in verbatim output otherwise), mypy (really run), pyright (run
where installed; `compiler_samples/pyright.*` are its verbatim output, pyright 1.1.414 on
PY_SOURCE in /tmp/parsers_sample/proj, as it is not installed in CI) and Python's own
tracebacks and syntax errors (really run). Columns are checked in code points on lines
with non-ASCII characters (an emoji is 2 UTF-16 units) before them."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from simple_brief.model import Diagnostic, Position, Range, Severity
from simple_brief.tasks.compiler_output import parse_output, to_diagnostics

REPO = Path(__file__).resolve().parents[2]
SAMPLES = Path(__file__).resolve().parent / "compiler_samples"
SAMPLE_DIR = Path("/tmp/parsers_sample/proj")


def _run(argv: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "LC_ALL": "C.UTF-8", "NO_COLOR": "1"}
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True, env=env, timeout=300, check=False)


def _diagnose(output: str, cwd: Path, texts: dict[Path, str] | None = None) -> dict[Path, list[Diagnostic]]:
    def read(path: Path) -> str | None:
        if texts is not None:
            return texts.get(path)
        return path.read_text(encoding="utf-8") if path.is_file() else None

    return to_diagnostics(parse_output(output, cwd), cwd, read)


def _summary(diags: list[Diagnostic]) -> list[tuple[Position, Severity, str, str]]:
    return [(d.range.start, d.severity, d.code, d.source) for d in diags]


TS_SOURCE = (
    'const s: string = "h😀llo"; const n: number = "x";\n'
    "function f(a: number) { return a; }\n"
    'f("é"); f(1, 2);\n'
    'const g: { a: number } = { a: "😀" as string } as { a: string };\n'
)
TS_CHAIN = (
    "Type '{ a: string; }' is not assignable to type '{ a: number; }'.\n"
    "Types of property 'a' are incompatible.\n"
    "Type 'string' is not assignable to type 'number'."
)
TS_EXPECTED = [
    (Position(0, TS_SOURCE.index("n: number")), Severity.Error, "TS2322", "tsc"),
    (Position(2, 2), Severity.Error, "TS2345", "tsc"),
    (Position(2, 13), Severity.Error, "TS2554", "tsc"),
    (Position(3, 6), Severity.Error, "TS2322", "tsc"),
]


def _tsc() -> list[str] | None:
    node = shutil.which("node")
    candidates = [REPO / "node_modules" / "typescript", REPO / ".cache" / "conformance" / "npm" / "typescript"]
    found = next((c / "bin" / "tsc" for c in candidates if (c / "bin" / "tsc").is_file()), None)
    if node and found:
        return [node, str(found)]
    return [shutil.which("tsc") or ""] if shutil.which("tsc") else None


def _check_tsc(output: str, cwd: Path) -> None:
    diags = _diagnose(output, cwd, {(cwd / "checked.ts").resolve(): TS_SOURCE})[(cwd / "checked.ts").resolve()]
    assert _summary(diags) == TS_EXPECTED
    assert diags[0].message == "Type 'string' is not assignable to type 'number'."
    assert diags[3].message == TS_CHAIN


@pytest.mark.skipif(_tsc() is None, reason="tsc (node and the npm typescript package) is not installed")
@pytest.mark.parametrize("pretty", ["false", "true"])
def test_tsc_plain_and_pretty_output_in_code_points(tmp_path: Path, pretty: str) -> None:
    (tmp_path / "checked.ts").write_text(TS_SOURCE, encoding="utf-8")
    run = _run([*(_tsc() or []), "--noEmit", "--pretty", pretty, "checked.ts"], tmp_path)
    assert run.returncode != 0
    _check_tsc(run.stdout, tmp_path)


@pytest.mark.parametrize("sample", ["tsc.txt", "tsc_pretty.txt"])
def test_tsc_verbatim_samples(sample: str) -> None:
    """typescript 5.9.3's own output, colours and all, on TS_SOURCE."""
    _check_tsc((SAMPLES / sample).read_text(encoding="utf-8"), SAMPLE_DIR)


PY_SOURCE = (
    "def f(a: int) -> int:\n"
    "    return a\n"
    "\n"
    "\n"
    's = "h😀llo"; x: int = f("é")\n'
    "import nonexistent_mod_xyz\n"
    "reveal_type(x)\n"
)
PY_ARG = PY_SOURCE.splitlines()[4].index('"é"')
PYRIGHT_MESSAGE = (
    'Argument of type "Literal[\'é\']" cannot be assigned to parameter "a" of type "int" in function "f"\n'
    '"Literal[\'é\']" is not assignable to "int"'
)


def _mypy(tmp_path: Path, *options: str) -> str:
    argv = [sys.executable, "-m", "mypy", "--config-file=", "--cache-dir", str(tmp_path / ".mypy_cache")]
    return _run([*argv, *options, "checked.py"], tmp_path).stdout


def test_mypy_with_and_without_columns_codes_and_notes(tmp_path: Path) -> None:
    (tmp_path / "checked.py").write_text(PY_SOURCE, encoding="utf-8")
    path = (tmp_path / "checked.py").resolve()
    plain = _diagnose(_mypy(tmp_path), tmp_path)[path]
    assert [(d.range, d.severity, d.code, d.source) for d in plain] == [
        (Range(Position(4, 0), Position(4, 0)), Severity.Error, "arg-type", "mypy"),
        (Range(Position(5, 0), Position(5, 0)), Severity.Error, "import-not-found", "mypy"),
        (Range(Position(6, 0), Position(6, 0)), Severity.Information, "", "mypy"),
    ]
    assert plain[0].message == 'Argument 1 to "f" has incompatible type "str"; expected "int"'
    assert plain[1].message.startswith(
        'Cannot find implementation or library stub for module named "nonexistent_mod_xyz"'
    )
    assert plain[1].message.splitlines()[1].startswith("note: See https://mypy.readthedocs.io/")
    assert plain[2].message in ('Revealed type is "builtins.int"', 'Revealed type is "int"')
    # mypy counts columns in bytes (the emoji is 4); --no-native-parser because mypy's
    # native parser (the default since 2.x) prints columns off on non-ASCII lines.
    columns = _diagnose(_mypy(tmp_path, "--show-column-numbers", "--show-error-end", "--no-native-parser"), tmp_path)
    assert columns[path][0].range == Range(Position(4, PY_ARG), Position(4, PY_ARG + 3))
    assert columns[path][2].range.start == Position(6, len("reveal_type("))


def test_mypy_json_output(tmp_path: Path) -> None:
    (tmp_path / "checked.py").write_text(PY_SOURCE, encoding="utf-8")
    path = (tmp_path / "checked.py").resolve()
    diags = _diagnose(_mypy(tmp_path, "--output", "json", "--no-native-parser"), tmp_path)[path]
    assert [(d.range, d.severity, d.code, d.source) for d in diags] == [
        (Range(Position(4, PY_ARG), Position(4, PY_ARG + 3)), Severity.Error, "arg-type", "mypy"),
        (Range(Position(5, 0), Position(5, 1)), Severity.Error, "import-not-found", "mypy"),
        (Range(Position(6, 12), Position(6, 13)), Severity.Information, "misc", "mypy"),
    ]
    assert diags[1].message.splitlines()[1].startswith("note: See https://mypy.readthedocs.io/")


def _check_pyright(output: str, cwd: Path) -> None:
    path = (cwd / "checked.py").resolve()
    diags = _diagnose(output, cwd, {path: PY_SOURCE})[path]
    assert _summary(diags) == [
        (Position(4, PY_ARG), Severity.Error, "reportArgumentType", "pyright"),
        (Position(5, len("import ")), Severity.Error, "reportMissingImports", "pyright"),
        (Position(6, len("reveal_type(")), Severity.Information, "", "pyright"),
    ]
    assert diags[0].message == PYRIGHT_MESSAGE
    assert diags[1].message == 'Import "nonexistent_mod_xyz" could not be resolved'


def _pyright() -> str | None:
    """pyright from the repository's node_modules (`make test` installs it), else on PATH."""
    local = REPO / "node_modules" / ".bin" / "pyright"
    return str(local) if local.is_file() else shutil.which("pyright")


@pytest.mark.skipif(_pyright() is None, reason="pyright is not installed (`make test` installs it from npm)")
@pytest.mark.parametrize("json_output", [False, True])
def test_pyright_text_and_json_output(tmp_path: Path, json_output: bool) -> None:
    (tmp_path / "checked.py").write_text(PY_SOURCE, encoding="utf-8")
    run = _run([str(_pyright()), *(["--outputjson"] if json_output else []), "checked.py"], tmp_path)
    _check_pyright(run.stdout, tmp_path)


@pytest.mark.parametrize("sample", ["pyright.txt", "pyright.json"])
def test_pyright_verbatim_samples(sample: str) -> None:
    _check_pyright((SAMPLES / sample).read_text(encoding="utf-8"), SAMPLE_DIR)
    diags = _diagnose((SAMPLES / sample).read_text(encoding="utf-8"), SAMPLE_DIR, {})
    assert diags[SAMPLE_DIR / "checked.py"][0].range.start == Position(4, PY_ARG + 1), "UTF-16 kept without the text"
