; Julia outline. Vocabulary: README.md.
;
; Julia blocks have no body node: a definition's statements follow its head
; directly, so the first of them stands in for the body (the fold runs from the
; head's end to the `end`). Functions are named by what they are called as:
; `f`, `Base.show`, `+`.

(module_definition
  name: (identifier) @name
  .
  (_)? @body) @definition.module

; `function f(x) ... end`, `function f(x)::T where T`, `function g end`.
(function_definition
  (signature
    [
      (call_expression . (_) @name)
      (_ . (call_expression . (_) @name))
      (_ . (_ . (call_expression . (_) @name)))
      (identifier) @name
    ])
  .
  (_)? @body) @definition.function

; Short form: `f(x) = ...`, `f(x)::T = ...`, `f(x) where T = ...`.
(assignment
  .
  [
    (call_expression . (_) @name)
    (_ . (call_expression . (_) @name))
  ]) @definition.function

(macro_definition
  (signature (call_expression . (identifier) @name))
  .
  (_)? @body) @definition.function

; Types: `struct Point{T} <: Shape`, `abstract type Shape end`, `primitive type`.
(struct_definition
  (type_head
    [
      (identifier) @name
      (_ . (identifier) @name)
      (_ . (_ . (identifier) @name))
    ])
  .
  (_)? @body) @definition.struct

; Fields: `x`, `x::T`, and with a default under `@kwdef` (`x::T = 0`).
(struct_definition (typed_expression . (identifier) @name) @definition.field)
(struct_definition (identifier) @name @definition.field)
(struct_definition
  (assignment . [(identifier) @name (typed_expression . (identifier) @name)]) @definition.field)

(abstract_definition
  (type_head
    [
      (identifier) @name
      (_ . (identifier) @name)
      (_ . (_ . (identifier) @name))
    ])) @definition.type

(primitive_definition
  (type_head (identifier) @name)) @definition.type

(const_statement (assignment . [(identifier) @name (open_tuple (identifier) @name)])) @definition.constant

((macrocall_expression
  (macro_identifier (identifier) @_macro)
  (macro_argument_list . (identifier) @name)) @definition.enum
  (#eq? @_macro "enum"))

(using_statement) @import
(import_statement) @import
