"""The README's and `:help`'s language lists, and the hook's table of source files, written
from the registry (`make languages`).

Adding a language is adding its unit (`<filetype>.py` and `.scm`), a fixture and a
snapshot; `make languages` then rewrites these lists, and `tests/engine/test_language_lists.py`
fails while they differ from `LANGUAGES`. `python -m simple_brief.languages._lists ROOT`
rewrites the files under ROOT (the repository); `--check` only says which differ.
"""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

from simple_brief.languages import LANGUAGES, LanguageSpec

#: The README's list sits between these two lines (HTML comments: Markdown hides them).
README_BEGIN = "<!-- languages: written by `make languages` from python/simple_brief/languages/ -->"
README_END = "<!-- /languages -->"
#: `:help` has no comments: its list is the paragraph starting with this text.
HELP_START = "Languages with a tree-sitter outline ("


def _sorted() -> list[LanguageSpec]:
    return sorted(LANGUAGES, key=lambda spec: spec.display_name.casefold())


#: Holds a name's own spaces while the paragraph is wrapped (textwrap breaks only at ASCII
#: whitespace), so a line never ends inside a name (`Protocol Buffers`, `C# (cs)`).
_KEEP = "\u00a0"


def _series(names: list[str]) -> str:
    names = [name.replace(" ", _KEEP) for name in names]
    return ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 else "".join(names)


def _fill(text: str, width: int) -> str:
    return textwrap.fill(text, width=width, break_on_hyphens=False).replace(_KEEP, " ")


def readme_list() -> str:
    """The README's paragraph: every language by the name people write."""
    names = [spec.display_name for spec in _sorted()]
    return _fill(f"With tree-sitter grammars ({len(names)} languages): {_series(names)}.", 90)


def help_list() -> str:
    """`:help`'s paragraph: every language, with its Neovim filetype where that differs."""
    names = [
        spec.display_name if spec.display_name.casefold() == spec.name else f"{spec.display_name} ({spec.name})"
        for spec in _sorted()
    ]
    return _fill(f"{HELP_START}{len(names)}): {_series(names)}.", 78)


class ListMarkersMissing(ValueError):
    """A file lost the markers its generated list sits between."""


def with_readme_list(text: str) -> str:
    """`text` (README.md) with the list between its markers rewritten."""
    head, begin, rest = text.partition(README_BEGIN + "\n")
    body, end, tail = rest.partition(README_END)
    if not begin or not end:
        raise ListMarkersMissing(f"README.md has no `{README_BEGIN}` … `{README_END}` lines; put them back")
    del body
    return f"{head}{begin}{readme_list()}\n{end}{tail}"


def with_help_list(text: str) -> str:
    """`text` (doc/simple-brief.txt) with the paragraph starting `HELP_START` rewritten."""
    start = text.find("\n" + HELP_START)
    if start < 0:
        raise ListMarkersMissing(f"doc/simple-brief.txt has no paragraph starting `{HELP_START}`; put it back")
    end = text.find("\n\n", start + 1)
    end = len(text) if end < 0 else end
    return f"{text[: start + 1]}{help_list()}{text[end:]}"


#: Languages that are data or markup, not source: the agent hook (`simple-brief hook`) never
#: answers a read of them with an outline.
NOT_SOURCE = ("bib", "dosini", "help", "html", "json", "markdown", "rst", "tex", "toml", "xml", "yaml")
#: The hook's table (standard library only: its pass-through path imports nothing else).
HOOK_SOURCES = "python/simple_brief/cli/hook_sources.py"


def hook_sources(text: str = "") -> str:
    """The hook's table of the endings and file names of source languages (`text`, the
    file's old content, is replaced whole)."""
    del text
    specs = [spec for spec in _sorted() if spec.name not in NOT_SOURCE]
    endings = sorted({ext.lower() for spec in specs for ext in spec.extensions})
    names = sorted({name for spec in specs for name in spec.file_names if not any(c in name for c in "*?[/")})
    return (
        '"""The endings and file names of the languages the agent hook outlines (data and markup\n'
        "left out): written by `make languages` from python/simple_brief/languages/ (`_lists.py`).\n"
        '"""\n\n'
        f"ENDINGS = frozenset(\n    {_frozen(endings)}\n)\n"
        f"FILE_NAMES = frozenset(\n    {_frozen(names)}\n)\n"
    )


def _frozen(items: list[str]) -> str:
    """A set literal as `ruff format` writes it: one item a line."""
    return "{\n" + "".join(f'        "{item}",\n' for item in items) + "    }"


#: Each file holding a list, and how its text is rewritten.
FILES = {"README.md": with_readme_list, "doc/simple-brief.txt": with_help_list, HOOK_SOURCES: hook_sources}


def stale(root: Path) -> list[str]:
    """The files under `root` whose list differs from the registry."""
    return [
        name
        for name, rewrite in FILES.items()
        if (root / name).parent.is_dir() or name != HOOK_SOURCES  # (a tree holding only the docs)
        if rewrite(text := _text(root / name)) != text
    ]


def _text(path: Path) -> str:
    """A generated file's text; empty for the hook's table when it is missing (written whole)."""
    if not path.exists() and path.suffix == ".py":
        return ""
    return path.read_text(encoding="utf-8")


def write(root: Path) -> list[str]:
    """Rewrite the lists of the files under `root`; the names of those that changed."""
    changed = stale(root)
    for name in changed:
        path = root / name
        path.write_text(FILES[name](_text(path)), encoding="utf-8")
    return changed


def main(argv: list[str]) -> int:
    check = "--check" in argv
    roots = [arg for arg in argv if arg != "--check"]
    root = Path(roots[0] if roots else ".")
    try:
        changed = stale(root) if check else write(root)
    except (ListMarkersMissing, OSError) as err:
        print(f"make languages: {err}", file=sys.stderr)
        return 2
    if check and changed:
        print(f"the language lists of {', '.join(changed)} differ from the registry: run `make languages`")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
