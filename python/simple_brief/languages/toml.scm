; TOML outline. Vocabulary: README.md.
;
; Tables (`[tool.ruff]`) and the elements of arrays of tables (`[[bin]]`, one
; symbol each) are containers (`object`) named by their dotted key; the
; signature is the header line. The grammar does not nest tables: a table
; holds the keys up to the next header, so `[tool.ruff.lint]` follows
; `[tool.ruff]` rather than sitting inside it, as in the file.
;
; Keys (`name = "x"`, `a.b = 1`) are members whose signature is their line; a
; multi-line value (`dependencies = [ ... ]`, a long inline table) folds as a
; whole. Keys inside inline tables are values.
;
; A comment directly above a header documents the table only for the first
; table: the grammar puts the comments between two tables inside the first.

(table
  [(bare_key) (dotted_key) (quoted_key)] @name) @definition.object

(table_array_element
  [(bare_key) (dotted_key) (quoted_key)] @name) @definition.object

; Keys at the top and in tables: the grammar names the keys of inline tables
; `pair` too, so the parent is spelled out.
(document
  (pair
    [(bare_key) (dotted_key) (quoted_key)] @name) @definition.property)

(table
  (pair
    [(bare_key) (dotted_key) (quoted_key)] @name) @definition.property)

(table_array_element
  (pair
    [(bare_key) (dotted_key) (quoted_key)] @name) @definition.property)
