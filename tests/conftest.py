"""Shared test helpers: fixture paths and a scan shortcut."""

from __future__ import annotations

import fcntl
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from simple_brief import languages
from simple_brief.files import config, trust
from simple_brief.scan import Outline, scan

FIXTURES = Path(__file__).parent / "fixtures"


def outline_of(text: str, filetype: str) -> Outline:
    """Scan `text` as `filetype` (a Neovim filetype or a registered fallback language)."""
    spec = languages.by_name(filetype)
    assert spec is not None, f"unknown filetype {filetype}"
    return scan(text, spec)


def write_trusted_config(root: Path, text: str) -> Path:
    """Write `root/.simple-brief.toml` and trust it, as the person would with `simple-brief trust`."""
    path = root / config.FILENAME
    path.write_text(text, encoding="utf-8")
    trust.allow(path.resolve(), path.read_bytes())
    return path


@pytest.fixture(scope="session", autouse=True)
def isolated_user_dirs(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The user's own config and state (trust database, Neovim's trust file, registry) in a
    folder of the test session, inherited by every program a test starts: a developer's
    real ~/.config/simple-brief or trust database never changes what a test sees."""
    base = tmp_path_factory.mktemp("user-dirs")
    for name in ("XDG_CONFIG_HOME", "XDG_STATE_HOME"):
        folder = base / name.lower()
        folder.mkdir()
        os.environ[name] = str(folder)
    os.environ.pop(config.USER_CONFIG_ENV, None)
    os.environ.pop("SIMPLE_BRIEF_STATE_DIR", None)
    # The docs and symbol indexes of the tests' trees go here, not into the user's cache.
    cache = base / "cache"
    cache.mkdir()
    os.environ["SIMPLE_BRIEF_CACHE_DIR"] = str(cache)
    # The CLI works standalone in tests unless a test asks for the daemon (tests/daemon/).
    os.environ["SIMPLE_BRIEF_DAEMON"] = "0"


@pytest.fixture
def sockets() -> Iterator[Path]:
    """A short folder for Unix sockets (their paths are limited to ~100 bytes)."""
    folder = Path(tempfile.mkdtemp(prefix="sb-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def fixtures() -> Path:
    return FIXTURES


@pytest.fixture(scope="session", autouse=True)
def parso_cache_directory(request: pytest.FixtureRequest) -> None:
    """Create parso's cache, and fill it with the typeshed stubs, before two jedi-based
    servers start at once.

    parso checks for the directory and then calls `os.makedirs` without `exist_ok`, and it
    writes its pickles without locking: jedi-language-server and python-lsp-server started
    together on a machine with an empty cache race, and one of them answers its first
    request with FileExistsError, or `EOFError: Ran out of input` when it reads a pickle
    the other is still writing (seen on a fresh machine: CI). When the session runs
    language-server tests, one completion in this process writes those pickles first.
    """
    try:
        from parso import cache  # dev dependency (python-lsp-server, jedi-language-server)
    except ImportError:
        return
    directory = Path(cache._default_cache_path) / cache._VERSION_TAG
    directory.parent.mkdir(parents=True, exist_ok=True)
    # pytest-xdist's workers run this at once: one fills the cache while the others wait
    with open(directory.parent / ".simple-brief-tests.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        directory.mkdir(exist_ok=True)
        servers = ("/tests/lsp/", "/tests/mcp/")
        if any(part in str(item.path) for item in request.session.items for part in servers):
            import jedi

            for text, line, column in (("import os\nos.path.jo", 2, 10), ("import typing\npri", 2, 3)):
                jedi.Script(text).complete(line, column)
