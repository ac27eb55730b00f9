; Perl outline (tree-sitter-perl of tree-sitter-language-pack 0.13). Vocabulary: README.md.

; `package Foo::Bar;` (a statement: its symbol is its line) and `package Foo { ... }`.
(package_statement
  name: (package) @name
  (block)? @body) @definition.module

; `sub name { ... }`, `sub name;` (a forward declaration), methods alike.
(subroutine_declaration_statement
  name: (_) @name
  body: (block)? @body) @definition.function

(use_statement) @import
