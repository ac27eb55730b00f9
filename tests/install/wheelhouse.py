"""Fill a folder with the wheels the engine needs (its dependencies and build backend), so the
install test's pip runs offline (`PIP_NO_INDEX`). `make test` runs this; it is the only step
that reaches the package index, as installing the dev dependencies does.

    python tests/install/wheelhouse.py .cache/wheelhouse
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: The extras the plugin's build step installs with the engine (lua/simple_brief/install.lua).
PLUGIN_EXTRAS = ("nvim", "debug")


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: wheelhouse.py FOLDER", file=sys.stderr)
        return 2
    folder = Path(argv[0])
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    extras = project["project"]["optional-dependencies"]
    wanted = [
        *project["build-system"]["requires"],
        *project["project"]["dependencies"],
        *(spec for extra in PLUGIN_EXTRAS for spec in extras[extra]),
    ]
    folder.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check", "--dest", str(folder)]
    done = subprocess.run([*cmd, *wanted], check=False)
    if done.returncode != 0:
        print(f"wheelhouse: pip download failed (exit {done.returncode})", file=sys.stderr)
        return done.returncode
    (folder / ".done").touch()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
