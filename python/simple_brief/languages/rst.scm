; reStructuredText outline (tree-sitter-rst of tree-sitter-language-pack 0.13).
; Vocabulary: README.md. The grammar's `section` is only the title and its adornment
; lines (nothing follows it in the node); the closing adornment is its @body, so the
; signature is the title (after an overline when there is one).

(section
  (title) @name
  .
  "adornment" @body) @definition.heading

; `.. _label:` (a hyperlink target other documents refer to).
(target
  name: (name) @name) @definition.constant
