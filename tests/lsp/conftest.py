"""Shared set-up of the language-server tests."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session", autouse=True)
def warm_parso_cache() -> None:
    """Fill parso's cache of typeshed stubs before real servers start.

    jedi-language-server and pylsp both write parso's pickle cache without locking; two of
    them filling a cold cache at once can read each other's half-written file, and one
    answers `EOFError: Ran out of input` (seen on a fresh machine: CI). One completion in
    this process writes those pickles first; the servers inherit the same cache folder.
    """
    import jedi

    for text, line, column in (("import os\nos.path.jo", 2, 10), ("import typing\npri", 2, 3)):
        jedi.Script(text).complete(line, column)
