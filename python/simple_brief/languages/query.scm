; Tree-sitter query outline (tree-sitter-query of tree-sitter-language-pack 0.13).
; Vocabulary: README.md. Each top-level pattern is one symbol, folded whole: a node
; pattern is named by its node type, an alternation `[ … ] @capture` by its capture, a
; grouping `( … (#pred? …))` by its first node.

(program
  (named_node
    name: (_) @name) @definition.object)

(program
  (list
    (capture) @name .) @definition.object)

(program
  (grouping
    .
    [
      (named_node
        name: (_) @name)
      (list
        (capture) @name .)
    ]) @definition.object)

(program
  (anonymous_node
    name: (_) @name) @definition.object)
