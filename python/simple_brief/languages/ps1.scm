; PowerShell outline (tree-sitter-powershell of tree-sitter-language-pack 0.13).
; Vocabulary: README.md.

; `function Get-Thing { ... }`, `filter Only-Odd { ... }`, `workflow W { ... }`.
(function_statement
  (function_name) @name
  (script_block)? @body) @definition.function

(class_statement
  .
  (simple_name) @name) @definition.class

(class_method_definition
  (simple_name) @name
  (script_block)? @body) @definition.method

(class_property_definition
  (variable) @name) @definition.property

(enum_statement
  .
  (simple_name) @name) @definition.enum

(enum_member
  (simple_name) @name) @definition.enum_member
