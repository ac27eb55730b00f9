""":ExpandAt in code opens the chosen symbol and nothing else, `foldclosed()` as the oracle.

Found by `make conformance` on real files: opening a symbol inside a closed function
left the function's other nested definitions open; `all` on a symbol inside a class
(`:N,Mfoldopen!`) opened every method of the class; `line:N` on a one-line symbol (a C
prototype) named no definition.
"""

from __future__ import annotations

from pathlib import Path

import pynvim

from nvim_session import nvim

ROLES = '''\
class Role:
    """What a user may do.

    Roles are compared by name.
    """

    ADMIN = "admin"
    GUEST = "guest"

    def can_write(self):
        value = self.ADMIN
        return value == "admin"

    def can_read(self):
        def inner():
            return True

        return inner()


def outer():
    def first():
        a = 1
        return a

    class Local:
        def method(self):
            return 2

    def second():
        b = 2
        return b

    return first() + second()
'''
#: 1-based first lines: ADMIN, can_write, can_read, inner, outer, first, Local.method, second.
ADMIN, CAN_WRITE, CAN_READ, INNER, OUTER, FIRST, METHOD, SECOND = 7, 10, 14, 15, 21, 22, 27, 30


def _closed(nv: pynvim.Nvim, lines: list[int]) -> list[bool]:
    got = nv.exec_lua("local o = {} for _, l in ipairs(...) do o[#o + 1] = vim.fn.foldclosed(l) end return o", lines)
    return [int(c) != -1 for c in got]


def _briefed(nv: pynvim.Nvim, path: Path, text: str) -> None:
    path.write_text(text)
    nv.command(f"edit {path}")
    nv.command("SimpleBrief")


def _expand(nv: pynvim.Nvim, args: str) -> int:
    nv.command("normal! zR")
    nv.command("SimpleBrief")
    nv.command(f"ExpandAt {args}")
    return int(nv.exec_lua("return vim.api.nvim_win_get_cursor(0)[1]"))


def test_a_nested_function_opens_alone_in_its_closed_parent(tmp_path: Path) -> None:
    with nvim(tmp_path) as nv:
        _briefed(nv, tmp_path / "roles.py", ROLES)
        assert _closed(nv, [OUTER, FIRST, SECOND]) == [True, True, True]
        assert _expand(nv, "outer.first") == FIRST
        # outer opened to show first; second and the local class stay closed as they were.
        assert _closed(nv, [OUTER, FIRST, METHOD, SECOND]) == [False, False, True, True]
        assert _expand(nv, "second") == SECOND
        assert _closed(nv, [FIRST, METHOD, SECOND]) == [True, True, False]
        assert _expand(nv, "method") == METHOD
        assert _closed(nv, [FIRST, METHOD, SECOND]) == [True, False, True]


def test_all_opens_the_symbol_and_what_is_in_it_not_the_rest_of_its_class(tmp_path: Path) -> None:
    with nvim(tmp_path) as nv:
        _briefed(nv, tmp_path / "roles.py", ROLES)
        assert _expand(nv, "ADMIN") == ADMIN
        assert _closed(nv, [CAN_WRITE, CAN_READ]) == [True, True]
        assert _expand(nv, "can_read") == CAN_READ
        assert _closed(nv, [CAN_WRITE, CAN_READ, INNER]) == [True, False, False]
        assert _expand(nv, "Role") == 1
        assert _closed(nv, [CAN_WRITE, CAN_READ, INNER, OUTER]) == [False, False, False, True]


def test_line_names_a_one_line_symbol(tmp_path: Path) -> None:
    text = 'static int count(const char *s);\n\nint main(void)\n{\n    return count("x");\n}\n'
    with nvim(tmp_path) as nv:
        _briefed(nv, tmp_path / "proto.c", text)
        assert _expand(nv, "line:1") == 1
        assert _expand(nv, "line:5") == 3  # inside main: the definition holding the line


def test_a_class_attribute_opens_no_method_of_its_class(tmp_path: Path) -> None:
    fixture = Path(__file__).resolve().parents[1] / "fixtures" / "outline" / "python.py"
    lines = fixture.read_text().splitlines()
    admin = next(i for i, line in enumerate(lines, 1) if line.strip().startswith("ADMIN ="))
    can_write = next(i for i, line in enumerate(lines, 1) if "def can_write" in line)
    with nvim(tmp_path) as nv:
        _briefed(nv, tmp_path / "fixture.py", fixture.read_text())
        assert _closed(nv, [can_write]) == [True]
        assert _expand(nv, "ADMIN") == admin
        assert _closed(nv, [can_write]) == [True]


def test_names_that_start_with_a_quote(tmp_path: Path) -> None:
    toml = '[dependencies]\nserde = "1"\n"tower-http" = "0.5"\n\n[features]\ndefault = [\n  "std",\n]\n'
    markdown = '# Tool\n\n## "quoted" name\n\nText.\nMore.\n\n## other\n\nx\ny\n'
    with nvim(tmp_path) as nv:
        _briefed(nv, tmp_path / "Cargo.toml", toml)
        assert _expand(nv, '"tower-http"') == 3  # as the outline shows it
        assert _expand(nv, '\\"tower-http"') == 3  # as completion offers it
        assert '\\"tower-http"' in nv.exec_lua("return vim.fn.getcompletion('ExpandAt \\\\\"t', 'cmdline')")
        _briefed(nv, tmp_path / "README.md", markdown)
        assert _expand(nv, '"quoted" name') == 3
        assert _expand(nv, '"quoted" name body') == 3
        assert _closed(nv, [3, 8]) == [False, True]


def test_a_heading_path_whose_heading_holds_a_greater_than_sign(tmp_path: Path) -> None:
    markdown = (
        "# API\n\n## Callback API\n\n### Event: `<method>`\n\nOne.\nTwo.\n\n"
        "## Promises API\n\n### Event: `<method>`\n\nThree.\nFour.\n"
    )
    with nvim(tmp_path) as nv:
        _briefed(nv, tmp_path / "api.md", markdown)
        words = nv.exec_lua("return vim.fn.getcompletion('ExpandAt Promises', 'cmdline')")
        assert "Promises\\ API\\ >\\ Event:\\ `<method>`" in words
        assert _expand(nv, "Promises\\ API\\ >\\ Event:\\ `<method>`") == 12
        assert _expand(nv, "Promises API > Event: `<method>`") == 12
        assert _expand(nv, "Callback API > Event: `<method>`") == 5
