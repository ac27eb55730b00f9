"""The README's and `:help`'s tables of the Neovim plugin's options and commands, written
from their one source (`make docs`): the options from `lua/simple_brief/config.lua` (its
`---@field` LuaCATS lines say what each is, `M.defaults` its default), the commands from
`plugin/simple_brief.lua` (each `nvim_create_user_command`: its name, `bang`, `nargs`, the
words it completes, its `desc`). `tests/engine/test_doc_tables.py` fails while they differ.

    python doc/tables.py [ROOT]          rewrite the tables of README.md and doc/simple-brief.txt
    python doc/tables.py --check [ROOT]  only say which files differ
"""

from __future__ import annotations

import re
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

CONFIG = "lua/simple_brief/config.lua"
PLUGIN = "plugin/simple_brief.lua"
README_OPTIONS = ("<!-- options: written by `make docs` from lua/simple_brief/config.lua -->", "<!-- /options -->")
README_COMMANDS = ("<!-- commands: written by `make docs` from plugin/simple_brief.lua -->", "<!-- /commands -->")
#: `:help` has no comments: its tables are the paragraphs starting with these lines.
HELP_OPTIONS = "The options of |simple_brief.setup()| and their defaults (`make docs`):"
HELP_COMMANDS = "The commands (`make docs` writes this list from plugin/simple_brief.lua):"


class TableError(ValueError):
    """A source file no longer reads as this script expects, or a file lost its markers."""


@dataclass(frozen=True)
class Option:
    name: str
    type: str
    summary: str
    default: str


@dataclass(frozen=True)
class Command:
    name: str
    bang: bool
    nargs: str
    words: tuple[str, ...]
    desc: str

    @property
    def usage(self) -> str:
        """`:Name[!] [args]` as the command is typed."""
        args = {"0": "", "?": " [{arg}]", "*": " [{args}]", "1": " {arg}", "+": " {args}"}.get(self.nargs, " {args}")
        if self.words:
            args = f" [{'|'.join(self.words)}]"
        return f":{self.name}{'[!]' if self.bang else ''}{args}"


def options(root: Path) -> list[Option]:
    """The options of `setup()`, in the order of their `---@field` lines."""
    text = (root / CONFIG).read_text(encoding="utf-8")
    block = re.search(r"---@class simple_brief\.Config\n((?:---@field .*\n)+)", text)
    defaults = re.search(r"\nM\.defaults = \{\n(.*?)\n\}\n", text, re.S)
    if block is None or defaults is None:
        raise TableError(f"{CONFIG} has no `---@class simple_brief.Config` fields or no `M.defaults = {{ … }}`")
    values = dict(re.findall(r"^  (\w+) = (.*),$", defaults.group(1), re.M))
    found = []
    for line in block.group(1).splitlines():
        match = re.fullmatch(r"---@field (\w+) (\S+) (.+)", line)
        if match is None:
            raise TableError(f"{CONFIG}: `{line}` is not `---@field NAME TYPE what it is`")
        name, kind, summary = match.groups()
        if name not in values:
            raise TableError(f"{CONFIG}: the field `{name}` has no default in M.defaults")
        default = re.sub(r"^vim\.deepcopy\((.*)\)$", r"\1", values[name])
        found.append(Option(name, kind, summary, default))
    return found


def commands(root: Path) -> list[Command]:
    """The user commands the plugin file defines, in its order."""
    text = (root / PLUGIN).read_text(encoding="utf-8")
    found = []
    for chunk in text.split("nvim_create_user_command(")[1:]:
        named = re.match(r"'(\w+)'", chunk)
        if named is None:
            raise TableError(f"{PLUGIN}: a command's name is not a plain string: {chunk[:40]!r}")
        name, opts = named.group(1), chunk
        desc = re.search(r"""desc = (?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')""", opts)
        if desc is None:
            raise TableError(f"{PLUGIN}: :{name} has no `desc`; say what it does there")
        nargs = re.search(r"nargs = '(.)'", opts)
        words = re.search(r"\{ ('\w+'(?:, '\w+')*) \}\)", opts)
        found.append(
            Command(
                name=name,
                bang="bang = true" in opts,
                nargs=nargs.group(1) if nargs else "0",
                words=tuple(re.findall(r"'(\w+)'", words.group(1))) if words else (),
                desc=(desc.group(1) if desc.group(1) is not None else desc.group(2)).replace('\\"', '"'),
            )
        )
    if not found:
        raise TableError(f"{PLUGIN} defines no command this script can read")
    return found


def readme_options(root: Path) -> str:
    lines = [f"  {o.name} = {o.default}, -- {o.summary}" for o in options(root)]
    return "```lua\nrequire('simple_brief').setup({\n" + "\n".join(lines) + "\n})\n```"


def readme_commands(root: Path) -> str:
    rows = [f"| `{_cell(c.usage)}` | {_cell(c.desc)} |" for c in commands(root)]
    return "| command | what it does |\n|---|---|\n" + "\n".join(rows)


def _cell(text: str) -> str:
    """Text in a Markdown table cell (a `|` would end it)."""
    return text.replace("|", "\\|")


def _help_text(text: str) -> str:
    """Text in `:help` (`|word|` there is a link): `a|b` written `a/b`."""
    return text.replace("|", "/")


def help_options(root: Path) -> str:
    lines = [f"      {o.name} = {o.default},  -- {_help_text(o.type)}" for o in options(root)]
    return f"{HELP_OPTIONS}\n>lua\n    require('simple_brief').setup({{\n" + "\n".join(lines) + "\n    })\n<"


def help_commands(root: Path) -> str:
    parts = [HELP_COMMANDS]
    for c in commands(root):
        parts.append(f"    |:{c.name}|{_help_text(c.usage[len(c.name) + 1 :])}")
        parts.append(
            textwrap.fill(_help_text(c.desc), width=78, initial_indent="        ", subsequent_indent="        ")
        )
    return "\n".join(parts)


def _between(text: str, markers: tuple[str, str], body: str, name: str) -> str:
    head, begin, rest = text.partition(markers[0] + "\n")
    _, end, tail = rest.partition(markers[1])
    if not begin or not end:
        raise TableError(f"{name} has no `{markers[0]}` … `{markers[1]}` lines; put them back")
    return f"{head}{begin}{body}\n{end}{tail}"


def _paragraph(text: str, start: str, body: str, name: str) -> str:
    """`text` with the block starting at the line `start` replaced: up to its next blank line,
    or to the `<` that ends its code block."""
    at = text.find("\n" + start + "\n")
    if at < 0:
        raise TableError(f"{name} has no paragraph starting `{start}`; put it back")
    ends = [text.find("\n\n", at + 1), text.find("\n<\n", at + 1) + 2]  # a blank line, or a code block's end
    end = min((end for end in ends if end >= 2), default=len(text))
    return f"{text[: at + 1]}{body}{text[end:]}"


def with_readme_tables(text: str, root: Path) -> str:
    text = _between(text, README_OPTIONS, readme_options(root), "README.md")
    return _between(text, README_COMMANDS, readme_commands(root), "README.md")


def with_help_tables(text: str, root: Path) -> str:
    text = _paragraph(text, HELP_OPTIONS, help_options(root), "doc/simple-brief.txt")
    return _paragraph(text, HELP_COMMANDS, help_commands(root), "doc/simple-brief.txt")


FILES = {"README.md": with_readme_tables, "doc/simple-brief.txt": with_help_tables}


def stale(root: Path) -> list[str]:
    """The files under `root` whose tables differ from their sources."""
    return [name for name, rewrite in FILES.items() if rewrite(text := _read(root / name), root) != text]


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def main(argv: list[str]) -> int:
    check = "--check" in argv
    roots = [arg for arg in argv if arg != "--check"]
    root = Path(roots[0] if roots else Path(__file__).resolve().parents[1])
    try:
        changed = stale(root)
        if not check:
            for name in changed:
                (root / name).write_text(FILES[name](_read(root / name), root), encoding="utf-8")
    except (TableError, OSError) as err:
        print(f"make docs: {err}", file=sys.stderr)
        return 2
    if check and changed:
        print(f"the options or commands tables of {', '.join(changed)} differ from their sources: run `make docs`")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
