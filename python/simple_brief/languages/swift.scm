; Swift outline. Vocabulary: README.md.
;
; One grammar node, class_declaration, is a class, struct, enum, actor or
; extension: its keyword tells which. Members are matched through a
; type's body (or at the top level), so local functions and variables inside
; function bodies and closures add nothing. Attributes (`@objc`,
; `@MainActor`) are part of the modifiers and stay in the signature.

; ---- Types --------------------------------------------------------------------

(class_declaration
  ["class" "actor"]
  name: _ @name
  body: _ @body) @definition.class

(class_declaration
  "struct"
  name: _ @name
  body: _ @body) @definition.struct

(class_declaration
  "enum"
  name: _ @name
  body: _ @body) @definition.enum

; `extension Array: Shape where Element: Shape` is named after the extended type.
(class_declaration
  "extension"
  name: _ @name
  body: _ @body) @definition.impl

(protocol_declaration
  name: _ @name
  body: _ @body) @definition.interface

; `case one, two = "t"`: one symbol per case name.
(enum_entry
  name: (simple_identifier) @name) @definition.enum_member

(typealias_declaration
  name: (type_identifier) @name) @definition.type

(associatedtype_declaration
  name: (type_identifier) @name) @definition.type

; ---- Functions ------------------------------------------------------------------

; Top level, members (the scanner makes those methods) and nested functions,
; which are real definitions (as in Python). This grammar makes any pattern
; that names a function_declaration's child by its type cost 0.15 s or more to
; compile, so the name is "the `name:` right before the parameters" (the return
; type is a `name:` too) and the body is the last child; operators
; (`static func == (lhs: Self, rhs: Self) -> Bool`) are found the same way.
(function_declaration
  name: _ @name
  .
  [(type_parameters) "("]
  _ @body .) @definition.function

(protocol_function_declaration
  name: [(simple_identifier) (custom_operator)] @name) @definition.method

(init_declaration
  "init" @name
  body: (function_body)? @body) @definition.constructor

(deinit_declaration
  "deinit" @name
  body: (function_body) @body) @definition.method

(subscript_declaration
  "subscript" @name
  (computed_property)? @body) @definition.method

; ---- Properties -----------------------------------------------------------------

; Stored and computed properties of types fold as a whole when they span lines. A
; type the grammar could not read (tree-sitter-swift 0.7 has no `#if` between a
; switch's cases) leaves its members in an ERROR node: they are still listed.
[
  (class_body
    (property_declaration
      name: (pattern
        bound_identifier: _ @name)) @definition.property)
  (enum_class_body
    (property_declaration
      name: (pattern
        bound_identifier: _ @name)) @definition.property)
  (ERROR
    (property_declaration
      name: (pattern
        bound_identifier: _ @name)) @definition.property)
]

(protocol_property_declaration
  name: (pattern
    bound_identifier: _ @name)) @definition.property

; Top-level `let` is a constant, `var` a variable.
[
  (source_file
    (property_declaration
      (value_binding_pattern "let")
      name: (pattern
        bound_identifier: _ @name)) @definition.constant)
  (source_file
    (property_declaration
      (value_binding_pattern "var")
      name: (pattern
        bound_identifier: _ @name)) @definition.variable)
]

; ---- Imports --------------------------------------------------------------------

(import_declaration) @import
