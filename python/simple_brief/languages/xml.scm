; XML outline (tree-sitter-xml of tree-sitter-language-pack 0.13). Vocabulary: README.md.
; Every element, named by its tag; its content folds.

(element
  (STag
    (Name) @name)
  (content)? @body) @definition.object

(element
  (EmptyElemTag
    (Name) @name)) @definition.object
