"""False syntax errors on the system C headers, with gcc as the oracle.

For every header under /usr/include (top level), /usr/include/x86_64-linux-gnu/sys and
/usr/include/python3.11, gcc decides whether the header is valid C: first
`gcc -fsyntax-only -x c <file>` alone, then as `#include <file>` after the headers most
of them expect first. For each header gcc accepts, the regions the engine could not read
(H003 hints from `scan`; E001/E002 before issue 28) are counted; the target is zero.

    .venv/bin/python bench/c_errors.py            # summary
    .venv/bin/python bench/c_errors.py --list     # and every remaining E-diagnostic
    .venv/bin/python bench/c_errors.py --glob '/usr/include/libxml2/libxml/*.h' -I /usr/include/libxml2
                                                  # other headers or .c files gcc is asked about
"""

from __future__ import annotations

import argparse
import glob
import subprocess
import sys
import tempfile
from pathlib import Path

from simple_brief import languages
from simple_brief.scan.treesitter import scan
from simple_brief.source import Source

GLOBS = (
    "/usr/include/*.h",
    "/usr/include/x86_64-linux-gnu/sys/*.h",
    "/usr/include/python3.11/*.h",
)
PRELUDE = "#include <stddef.h>\n#include <stdio.h>\n#include <sys/types.h>\n"


def headers(patterns: tuple[str, ...] = GLOBS) -> list[Path]:
    """The files measured, sorted."""
    return sorted({Path(p) for pattern in patterns for p in glob.glob(pattern, recursive=True)})


def gcc_accepts(path: Path, include: tuple[str, ...] = ()) -> bool:
    """True when gcc compiles the file alone, or after a common prelude (Python.h first for Python's)."""
    extra = [f"-I{directory}" for directory in include]
    alone = subprocess.run(["gcc", "-fsyntax-only", "-x", "c", *extra, str(path)], capture_output=True, check=False)
    if alone.returncode == 0:
        return True
    prelude = PRELUDE
    if "python3" in str(path):
        prelude = "#include <Python.h>\n"
    with tempfile.NamedTemporaryFile("w", suffix=".c", delete=False) as tiny:
        tiny.write(f'{prelude}#include "{path}"\n')
    flags = [*extra, "-I/usr/include/python3.11"] if "python3" in str(path) else extra
    done = subprocess.run(["gcc", "-fsyntax-only", *flags, tiny.name], capture_output=True, check=False)
    Path(tiny.name).unlink()
    return done.returncode == 0


def e_diagnostics(path: Path) -> list[str]:
    """The regions the grammar could not read in one header (H003), as `line:col code message`."""
    outline = scan(Source(path.read_text(errors="replace")), languages.by_name("c") or languages.for_path(path))
    return [
        f"{d.range.start.line + 1}:{d.range.start.character + 1} {d.code} {d.message}"
        for d in outline.diagnostics
        if d.code == "H003"
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--list", action="store_true", help="print every remaining E-diagnostic")
    parser.add_argument("--glob", action="append", help="files to measure instead of the system headers")
    parser.add_argument("-I", dest="include", action="append", default=[], help="an include directory for gcc")
    args = parser.parse_args()
    files = headers(tuple(args.glob) if args.glob else GLOBS)
    accepted = [p for p in files if gcc_accepts(p, tuple(args.include))]
    total = 0
    with_errors = 0
    for path in accepted:
        found = e_diagnostics(path)
        total += len(found)
        with_errors += bool(found)
        if args.list:
            for line in found:
                print(f"{path}:{line}")
    print(f"headers: {len(files)}; accepted by gcc: {len(accepted)}; ", end="")
    print(f"E-diagnostics on accepted headers: {total} in {with_errors} files (target 0)")
    return 0 if total == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
