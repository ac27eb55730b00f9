"""build_compile and build_clean on real projects, really built: a C project through make
and gcc (an error with gcc's own fix-it, then the fixed build and its artifact), and a Rust
crate through cargo's JSON messages where cargo is installed."""

from __future__ import annotations

from pathlib import Path

import pytest
from projects import C_TASKS, c_project, call_tool, cargo, declare

from simple_brief.intel.text_edits import apply_text_edits
from simple_brief.model import Position, Range, TextEdit


def _edits(fix: dict) -> list[TextEdit]:
    out = []
    for edit in fix["edits"]:
        start, end = edit["range"]["start"], edit["range"]["end"]
        out.append(
            TextEdit(
                Range(Position(start["line"], start["character"]), Position(end["line"], end["character"])),
                edit["newText"],
            )
        )
    return out


def test_a_c_build_error_comes_with_gccs_fix_it_and_the_fixed_build_its_artifact(tmp_path: Path) -> None:
    root = c_project(tmp_path / "app")
    declare(root, C_TASKS)
    failed = call_tool(root, "build_compile")
    assert failed.data["success"] is False
    diags = failed.data["diagnostics"]["main.c"]
    error = next(d for d in diags if d["severity"] == 1)
    # gcc: `p.lenght` has no such member; did you mean `length`? (with its own fix-it)
    assert error["range"]["start"] == {"line": 6, "character": 21}
    assert "did you mean" in error["message"] and "length" in error["message"]
    assert error["fixits"][0]["edits"][0]["newText"] == "length"
    assert error["fixits"], "gcc offers the missing semicolon as a fix-it"
    assert "main.c (" in failed.text and "E gcc" in failed.text
    assert failed.data["partial_artifacts"] == []

    text = (root / "main.c").read_text(encoding="utf-8")
    fixed = apply_text_edits(text, _edits(error["fixits"][0]))
    (root / "main.c").write_text(fixed, encoding="utf-8")
    built = call_tool(root, "build_compile")
    assert built.data["success"] is True, built.text
    assert built.data["artifacts"] == [{"path": "app", "type": "executable", "size": (root / "app").stat().st_size}]
    assert built.blocks[0].startswith("build (make) succeeded in ")

    cleaned = call_tool(root, "build_clean")
    assert cleaned.data["success"] is True and not (root / "app").exists()


@pytest.mark.skipif(cargo() is None, reason="cargo is not installed on this machine")
def test_a_cargo_build_error_with_rustcs_suggestion(tmp_path: Path) -> None:
    root = tmp_path / "crate"
    (root / "src").mkdir(parents=True)
    (root / "Cargo.toml").write_text(
        '[package]\nname = "demo"\nversion = "0.1.0"\nedition = "2021"\n', encoding="utf-8"
    )
    (root / "src" / "main.rs").write_text(
        'fn main() {\n    let x: i32 = "five";\n    println!("{}", x);\n}\n', encoding="utf-8"
    )
    declare(
        root,
        f'[tasks.build]\nargv = ["{cargo()}", "build", "--offline", "--message-format=json"]\n'
        'artifacts = ["target/debug/demo"]\nenv = { CARGO_TERM_COLOR = "never" }\n',
    )
    result = call_tool(root, "build_compile")
    assert result.data["success"] is False
    diags = result.data["diagnostics"]["src/main.rs"]
    error = next(d for d in diags if d["severity"] == 1)
    assert error["code"] == "E0308"
    assert error["range"]["start"] == {"line": 1, "character": 17}


LIB_RS = """pub fn add(a: i32, b: i32) -> i32 {
    a + b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn it_adds() {
        assert_eq!(add(2, 2), 4);
    }

    #[test]
    fn it_fails() {
        assert_eq!(add(2, 2), 5, "two and two");
    }

    #[test]
    #[ignore]
    fn slow_one() {}
}
"""


@pytest.mark.skipif(cargo() is None, reason="cargo is not installed on this machine")
def test_cargo_tests_are_read_from_the_harness_lines(tmp_path: Path) -> None:
    root = tmp_path / "lib"
    (root / "src").mkdir(parents=True)
    manifest = '[package]\nname = "demo"\nversion = "0.1.0"\nedition = "2021"\n'
    (root / "Cargo.toml").write_text(manifest, encoding="utf-8")
    (root / "src" / "lib.rs").write_text(LIB_RS, encoding="utf-8")
    declare(
        root,
        f'[tasks.test]\nargv = ["{cargo()}", "test", "--offline"]\nfilter = ["{{filter}}"]\n'
        'env = { CARGO_TERM_COLOR = "never" }\ntimeout_s = 300\n',
    )
    result = call_tool(root, "test_run")
    data = result.data
    assert (data["passed"], data["failed"], data["skipped"]) == (1, 1, 1), result.text
    failed = next(r for r in data["results"] if r["status"] == "failed")
    assert failed["name"] == "tests::it_fails"
    assert failed["location"] == "src/lib.rs:16"  # the assert_eq! line
    assert "two and two" in failed["failure_message"] or "two and two" in result.text
    only = call_tool(root, "test_run", filter="it_adds")
    assert (only.data["passed"], only.data["failed"]) == (1, 0)
