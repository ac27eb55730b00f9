"""Zig written for a compiler newer than the grammar: no invented syntax errors, and the
outline still shows the text as written (languages/_zig_syntax.py)."""

from __future__ import annotations

import pytest

from simple_brief import languages
from simple_brief.model import walk_all
from simple_brief.scan import scan

ZIG = languages.by_name("zig")

SYSCALL = """pub fn syscall0(number: usize) usize {
    return asm volatile ("int $0x80"
        : [ret] "={eax}" (-> usize),
        : [number] "{eax}" (number),
        : .{ .memory = true });
}
"""

ASYNC_NAMES = """pub const VTable = struct {
    async: *const fn () void,
    await: *const fn () void,
};

pub fn async(x: u8) u8 {
    return x;
}

pub fn io() VTable {
    return .{ .async = async, .await = await };
}
"""

ERROR_SET_FIELD = """const Worker = struct {
    spawn_error: error{ConcurrencyUnavailable},
    count: usize = 0,
};

test "tuple" {
    _ = struct { error{foo} };
}
"""


@pytest.mark.parametrize("text", [SYSCALL, ASYNC_NAMES, ERROR_SET_FIELD], ids=["asm-clobbers", "async", "error-set"])
def test_newer_zig_syntax_is_no_syntax_error(text: str) -> None:
    assert ZIG is not None
    outline = scan(text, ZIG)
    assert [d.message for d in outline.diagnostics if d.code == "H003"] == []


def test_names_read_as_written_after_the_repair() -> None:
    assert ZIG is not None
    names = [s.name for s in walk_all(scan(ASYNC_NAMES, ZIG).symbols)]
    assert "async" in names and "io" in names and "_sync" not in names


def test_a_real_syntax_error_is_still_reported() -> None:
    assert ZIG is not None
    outline = scan("pub fn f() void {\n    return (1 + ;\n}\n", ZIG)
    assert [d for d in outline.diagnostics if d.code == "H003"]
