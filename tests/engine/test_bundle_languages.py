"""The languages read with grammars from the offline bundle (tree-sitter-language-pack 0.13):
what their queries recover where the grammar cannot read valid code, the names their
units clean, the D grammar's crash guard, and their filetype names against Neovim's own.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from simple_brief import languages
from simple_brief.model import walk_all
from simple_brief.scan import scan
from simple_brief.source import Source

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from nvim_session import nvim_binary


def names(text: str, language: str) -> list[str]:
    spec = languages.by_name(language)
    assert spec is not None
    return [s.name for s in walk_all(scan(Source(text), spec).symbols)]


# --- what the queries recover -----------------------------------------------------------


def test_a_lisp_form_the_grammar_cannot_read_keeps_its_header() -> None:
    # tree-sitter-commonlisp rejects this (valid) `loop`: the defun is an ERROR node,
    # its `defun_header` still read.
    text = "(defun table-keys (table)\n  (loop :for s :being :the :hash-keys :of table :collect s))\n"
    assert names(text, "lisp") == ["table-keys"]


def test_an_objc_ns_enum_is_named_though_the_grammar_cannot_read_it() -> None:
    text = "typedef NS_ENUM(NSInteger, ShopKind) {\n  ShopKindBook,\n  ShopKindFood,\n};\n"
    assert "ShopKind" in names(text, "objc")


def test_objc_methods_are_named_by_selector_and_categories_in_full() -> None:
    text = (
        "@interface Shop (Extras)\n- (void)restock;\n@end\n"
        "@implementation Shop\n"
        "- (id)initWithName:(NSString *)name price:(void (^)(BOOL ok))done { return self; }\n"
        "+ (instancetype)shared { return nil; }\n@end\n"
    )
    assert names(text, "objc") == ["Shop (Extras)", "restock", "Shop", "initWithName:price:", "shared"]


def test_vhdl_operators_and_meson_targets_are_named_without_quotes() -> None:
    vhdl = (
        'package body p is\n  function "+" (a, b : t) return t is\n  begin\n    return a;\n  end;\nend package body;\n'
    )
    assert names(vhdl, "vhdl") == ["p", "+"]
    assert names("exe = executable('shop-cli', 'main.c')\n", "meson") == ["exe", "shop-cli"]


def test_scheme_reads_any_define_form_and_names_a_module_by_its_list() -> None:
    text = (
        "(define-module (shop stock) #:export (price))\n"
        "(define-simple-mapping locale-am AM_STR)\n"
        "(define (price item) (cdr item))\n"
    )
    assert names(text, "scheme") == ["(shop stock)", "locale-am", "price"]


def test_an_r_function_is_listed_at_any_depth_and_by_its_list_name() -> None:
    text = (
        "f <- function(x) {\n  g <- function(y) y\n  g(x)\n}\n"
        "S <- setRefClass('S', methods = list(add = function(n) n))\n"
    )
    assert names(text, "r") == ["f", "g", "S", "add"]


# --- the D grammar's crash guard ---------------------------------------------------------

#: Texts found by the random-text test: parsed one after another (each by a new parser),
#: tree-sitter-d's external scanner reads past its tables on the characters from U+30000
#: up (valgrind: invalid reads in `tree_sitter_d_external_scanner_scan`) and the process
#: ends in SIGSEGV in most runs.
D_CRASHERS = [
    b":", b":&", b"let v = 2;\n", b"]^\xf3\x85\xbc\x88\xc2\xa8\x0bD", b"\xf3\xaf\x85\x9b\xc2\xa5\xc3\xbd\xc2\xa7",
    b"V\xc2\x96",
    b"7\xc2\x8bp\xc3\x80c\xc2\x95\xc3\xbc\xf2\xb7\xb5\x80\x07\xf1\xbd\x94\xb2\xf2\xb3\xbb\xb1\xc3\x89\x19\x05",
    b"=", b"\xe2\x80\xa8", b"enum ", b"{", b"?\xf2\x89\x90\x94", b"\xe9\x97\xb6\xf0\xb6\x9f\xa2I", b"\n\n",
    b"- item\n- item\n,", b"__init__@dec\n", b"#", b"@dec\n", b"\\", b"##    ", b"end", b"passf,",
    b"T\xc2\x88Ew\xc3\xbf\xc2\xbe\xc3\xb5\xc3\x9e\xc2\x84\xf1\x89\x9a\xb5\xc2\xad",
]  # fmt: skip

PARSE_AS_THE_ENGINE_DOES = """import sys
from tree_sitter import Parser
from simple_brief import languages
spec = languages.by_name('d')
grammar = languages.grammar(spec)
for text in sys.stdin.buffer.read().split(b'\\0'):
    Parser(grammar).parse(languages.parseable(spec, text))
"""


def test_texts_that_crashed_the_d_grammar_are_read_in_every_process() -> None:
    for _ in range(8):  # a fresh memory layout each time
        done = subprocess.run(
            [sys.executable, "-c", PARSE_AS_THE_ENGINE_DOES],
            input=b"\0".join(D_CRASHERS),
            capture_output=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr.decode(errors="replace")[-2000:]


def test_d_definitions_with_astral_characters_keep_their_real_names() -> None:
    assert names("void f\U00030000() {}\nstruct S { int x; }\n", "d") == ["f\U00030000", "S", "x"]


# --- Neovim's filetype names -------------------------------------------------------------

#: A text in each new language: every name a unit claims (its endings, its file names)
#: is given one, so Neovim can tell the language by the text where the ending alone does
#: not (`.m`, `.v`, `.d`, `.r`, `.cl`).
TEXTS = {
    "erlang": "-module(a).\n",
    "scheme": "(define (f) 1)\n",
    "lisp": "(defun f () 1)\n",
    "clojure": "(ns a)\n",
    "nim": "proc f() = discard\n",
    "fish": "function f\nend\n",
    "r": "f <- function() 1\n",
    "d": "module a;\nvoid f() {}\n",
    "ada": "procedure A is begin null; end A;\n",
    "vhdl": "entity a is end;\n",
    "fortran": "program a\nend program a\n",
    "solidity": "contract A {}\n",
    "glsl": "void main() {}\n",
    "objc": "#import <Foundation/Foundation.h>\n@interface A : NSObject\n@end\n",
    "verilog": "module a(input x);\nendmodule\n",
    "meson": "project('a', 'c')\n",
    "thrift": "struct A {\n  1: string a,\n}\n",
}


def claimed_names(spec: languages.LanguageSpec) -> list[str]:
    return [f"a{ext}" for ext in spec.extensions] + [name.replace("*", "a") for name in spec.file_names]


SAMPLES = {
    name: TEXTS[language]
    for language in TEXTS
    for spec in [languages.by_name(language)]
    if spec is not None
    for name in claimed_names(spec)
}

FILETYPES = """local out = {}
for _, path in ipairs(arg) do
  vim.cmd.edit(vim.fn.fnameescape(path))
  out[vim.fn.fnamemodify(path, ':t')] = vim.bo.filetype
  vim.cmd('bwipeout!')
end
io.stdout:write(vim.json.encode(out))
"""


def test_the_new_units_are_named_as_neovim_names_the_filetype(tmp_path: Path) -> None:
    assert len(SAMPLES) > len(TEXTS)
    folder = tmp_path / "files"
    folder.mkdir()
    for name, text in SAMPLES.items():
        (folder / name).write_text(text)
    script = tmp_path / "filetypes.lua"
    script.write_text(FILETYPES)
    done = subprocess.run(
        [nvim_binary(), "--clean", "--headless", "-l", str(script), *(str(folder / name) for name in SAMPLES)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    neovim = json.loads(done.stdout)
    ours = {name: [spec.name, *spec.filetypes] for name in SAMPLES for spec in [languages.for_path(name)]}
    wrong = {name: (neovim[name], ours[name]) for name in SAMPLES if neovim[name] not in ours[name]}
    assert not wrong, f"Neovim's filetype vs the unit's names: {wrong}"
