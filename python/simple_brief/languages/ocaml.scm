; OCaml outline. Vocabulary: README.md.
;
; A `let` binding is named after its value name; `let rec f ... and g ...` is
; two symbols. Bindings with parameters (or a `fun`/`function` body) are
; functions at any depth, so local helpers nest in their function; other values
; are listed at the structure level only (`let x = ... in` is a local).

; ---------------------------------------------------------------- values

; A lone binding is its whole `let` definition (so `let rec`, an attribute such as
; `let[@inline]`, and the doc comment belong to it). A binding with parameters, or
; with a `fun`/`function` body, is a function at any depth (the grammar's own
; tags.scm decides so too); other values are listed at the structure level only.
(value_definition
  .
  [
    (let_binding
      pattern: [(value_name) (parenthesized_operator)] @name
      (parameter)
      body: (_) @body)
    (let_binding
      pattern: [(value_name) (parenthesized_operator)] @name
      body: [(fun_expression) (function_expression)] @body)
  ]
  .) @definition.function

(value_definition
  .
  (attribute)
  .
  [
    (let_binding
      pattern: [(value_name) (parenthesized_operator)] @name
      (parameter)
      body: (_) @body)
    (let_binding
      pattern: [(value_name) (parenthesized_operator)] @name
      body: [(fun_expression) (function_expression)] @body)
  ]
  .) @definition.function

; A value: no parameter after its name, and no `fun`/`function` after its `=` (the
; complement of the two patterns above, read from the text). A parent alternation
; (`[(compilation_unit) (structure)]`) matches nothing in py-tree-sitter 0.26: one
; pattern per parent.
((compilation_unit
  (value_definition
    .
    (let_binding
      pattern: [(value_name) (parenthesized_operator)] @name
      body: (_) @body) @_binding
    .) @definition.variable)
  (#not-match? @_binding "^([a-z_][A-Za-z0-9_']*|\\([^)]*\\))(\\s+[^=:\\s]|[^=]*=\\s*(fun|function)\\b)"))

((compilation_unit
  (value_definition
    .
    (attribute)
    .
    (let_binding
      pattern: [(value_name) (parenthesized_operator)] @name
      body: (_) @body) @_binding
    .) @definition.variable)
  (#not-match? @_binding "^([a-z_][A-Za-z0-9_']*|\\([^)]*\\))(\\s+[^=:\\s]|[^=]*=\\s*(fun|function)\\b)"))

((structure
  (value_definition
    .
    (let_binding
      pattern: [(value_name) (parenthesized_operator)] @name
      body: (_) @body) @_binding
    .) @definition.variable)
  (#not-match? @_binding "^([a-z_][A-Za-z0-9_']*|\\([^)]*\\))(\\s+[^=:\\s]|[^=]*=\\s*(fun|function)\\b)"))

((structure
  (value_definition
    .
    (attribute)
    .
    (let_binding
      pattern: [(value_name) (parenthesized_operator)] @name
      body: (_) @body) @_binding
    .) @definition.variable)
  (#not-match? @_binding "^([a-z_][A-Za-z0-9_']*|\\([^)]*\\))(\\s+[^=:\\s]|[^=]*=\\s*(fun|function)\\b)"))

; `let rec f ... and g ...`: each binding is a function of its own.
(value_definition
  (let_binding
    pattern: [(value_name) (parenthesized_operator)] @name
    body: (_) @body) @definition.function
  (let_binding))

(value_definition
  (let_binding)
  (let_binding
    pattern: [(value_name) (parenthesized_operator)] @name
    body: (_) @body) @definition.function)

(external (value_name) @name) @definition.function

; `val f : int -> int` in signatures.
(value_specification (value_name) @name) @definition.function

; ---------------------------------------------------------------- types

; A lone type binding is its whole `type` definition (with its doc comment);
; `type a = ... and b = ...` lists each binding.
(type_definition
  .
  (type_binding
    name: (type_constructor) @name
    body: (record_declaration) @body)
  .) @definition.struct

(type_definition
  .
  (type_binding
    name: (type_constructor) @name
    body: (variant_declaration) @body)
  .) @definition.enum

; An extension of a type declared elsewhere: `type stag += String_tag of tag`.
(type_definition
  .
  (type_binding
    name: (type_constructor_path) @name
    body: (variant_declaration) @body)
  .) @definition.enum

((type_definition
  .
  (type_binding
    name: (type_constructor) @name) @_binding
  .) @definition.type
  (#not-match? @_binding "=\\s*(private\\s+)?(\\{|\\|?\\s*[A-Z][A-Za-z0-9_']*(\\s+of\\b|\\s*(\\||$)))"))

(type_definition
  (type_binding name: (type_constructor) @name) @definition.type
  (type_binding))

(type_definition
  (type_binding)
  (type_binding name: (type_constructor) @name) @definition.type)

(variant_declaration
  (constructor_declaration (constructor_name) @name) @definition.enum_member)

(field_declaration (field_name) @name) @definition.field

; `type view = [ `Any | `Constant of int ]`: its tags are its members.
(type_binding
  body: (polymorphic_variant_type
    (tag_specification (tag) @name) @definition.enum_member))

(exception_definition
  (constructor_declaration (constructor_name) @name)) @definition.type

; ---------------------------------------------------------------- modules

(module_definition
  (module_binding
    (module_name) @name
    body: (_)? @body)) @definition.module

(module_type_definition
  (module_type_name) @name
  body: (_)? @body) @definition.interface

; ---------------------------------------------------------------- classes

; A class in a signature (`class c : t`) and a virtual method have no body.
(class_definition
  (class_binding
    (class_name) @name
    body: (_)? @body)) @definition.class

(class_type_definition
  (class_type_binding
    (class_type_name) @name
    body: (_)? @body)) @definition.interface

(method_definition
  (method_name) @name
  body: (_)? @body) @definition.method

(method_specification
  (method_name) @name) @definition.method

(instance_variable_definition
  (instance_variable_name) @name) @definition.field

(open_module) @import
