; BibTeX outline (tree-sitter-bibtex of tree-sitter-language-pack 0.13). Vocabulary: README.md.

; `@article{knuth84, ...}`: named by its key; its fields fold.
(entry
  key: (_) @name) @definition.object

(string
  name: (identifier) @name) @definition.constant
