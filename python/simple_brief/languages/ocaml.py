"""OCaml: `let` bindings, types with their constructors and fields, modules and module
types, classes; `(** ... *)` doc comments.

OCaml has no line comment: markers are written `(* ... *)` (`comment` and
`comment_end`, as CSS does), and multi-line comments fold (`block_comment`).
Interfaces (`.mli`, Neovim's filetype `ocaml` as well) are not claimed by extension: the
grammar's `language_ocaml_interface` reads them, and one unit has one grammar (this
grammar reads most of them too, but not `include module type of`, `with type` ...).
"""

from simple_brief.languages.spec import LanguageSpec

SPEC = LanguageSpec(
    "ocaml",
    (".ml",),
    "tree_sitter_ocaml:language_ocaml",
    title="OCaml",
    comment="(*",
    comment_end=" *)",
    block_comment=("(*", "*)"),
    aliases=("ml",),
    # Each `let ... in` nests the rest of its function one level deeper: a local helper
    # after a dozen of them starts past the default depth (Stdlib's arg.ml), after thirty
    # past twice that (the compiler's translclass.ml).
    max_start_depth=64,
)
