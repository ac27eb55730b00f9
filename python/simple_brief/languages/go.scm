; Go outline. Vocabulary: README.md.
;
; Only package-level declarations are listed: types, constants and variables
; declared inside function bodies (and anonymous struct/interface types) are
; locals. A function literal given a name inside a body is listed, nested in its
; function (`doActions := func(...) {...}`), as JavaScript's arrow functions are:
; a line in it is in `Terminal.Loop.doActions`. The blank identifier `_` names nothing.

(function_declaration
  name: (identifier) @name
  body: (block) @body) @definition.function

; A function literal named inside a body: `f := func(...) {...}`,
; `var f = func(...) {...}`, and `f = func(...) {...}` (the recursive closure
; declared first with `var f func(...)`). One name for one literal only.
(statement_list
  (short_var_declaration
    left: (expression_list . (identifier) @name .)
    right: (expression_list . (func_literal body: (block) @body) .)) @definition.function
  (#not-eq? @name "_"))

(statement_list
  (var_declaration
    (var_spec
      name: (identifier) @name .
      value: (expression_list . (func_literal body: (block) @body) .))) @definition.function
  (#not-eq? @name "_"))

(statement_list
  (assignment_statement
    left: (expression_list . (identifier) @name .)
    right: (expression_list . (func_literal body: (block) @body) .)) @definition.function
  (#not-eq? @name "_"))

; Assembly-backed functions have no body.
(function_declaration
  name: (identifier) @name
  !body) @definition.function

; Methods are top-level in Go; the receiver stays in the signature. The
; receiver's type is the method's scope (`Terminal` for `(t *Terminal)`,
; `List` for `(l *List[T])`): it is named `Terminal.Loop`, not nested in the
; type. A receiver of another shape is caught by the second pattern, unscoped.
(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: [
        (type_identifier) @scope
        (pointer_type (type_identifier) @scope)
        (generic_type type: (type_identifier) @scope)
        (pointer_type (generic_type type: (type_identifier) @scope))
        (parenthesized_type (type_identifier) @scope)
        (parenthesized_type (pointer_type (type_identifier) @scope))
      ]))
  name: (field_identifier) @name
  body: (block)? @body) @definition.method

(method_declaration
  name: (field_identifier) @name
  body: (block)? @body) @definition.method

; `(_ name: type:)` in a type_declaration is a type_spec or a type_alias (`type X = Y`).
; A lone `type Point struct { ... }` is the whole declaration (the doc comment
; and `type` belong to it; the predicate only sees one-spec declarations);
; specs of a grouped `type ( ... )` are listed one by one. Struct and interface
; types fold: the field list, or the interface's `{`, is the body, so the
; signature reads `type Point struct`.
(source_file
  ((type_declaration
    .
    (_
      name: (type_identifier) @name
      type: (struct_type (field_declaration_list) @body))
    .) @definition.struct
    (#not-match? @definition.struct "^type\\s*\\(")))

(source_file
  ((type_declaration
    .
    (_
      name: (type_identifier) @name
      type: (interface_type "{" @body))
    .) @definition.interface
    (#not-match? @definition.interface "^type\\s*\\(")))

(source_file
  (type_declaration
    "("
    (_
      name: (type_identifier) @name
      type: (struct_type (field_declaration_list) @body)) @definition.struct))

(source_file
  (type_declaration
    "("
    (_
      name: (type_identifier) @name
      type: (interface_type "{" @body)) @definition.interface))

; Any other type: a lone `type X Y` is the whole declaration (keeps `type` and
; the doc comment; the predicate only sees one-spec declarations, so it stays
; cheap); specs of a grouped `type ( ... )` are listed one by one.
(source_file
  ((type_declaration
    .
    (_
      name: (type_identifier) @name
      type: [(type_identifier) (qualified_type) (generic_type) (pointer_type)
             (array_type) (slice_type) (map_type) (channel_type) (function_type)
             (parenthesized_type) (negated_type)])
    .) @definition.type
    (#not-match? @definition.type "^type\\s*\\(")))

(source_file
  (type_declaration
    "("
    (_
      name: (type_identifier) @name
      type: [(type_identifier) (qualified_type) (generic_type) (pointer_type)
             (array_type) (slice_type) (map_type) (channel_type) (function_type)
             (parenthesized_type) (negated_type)]) @definition.type))

; Fields of package-level struct types: one symbol per name (`X, Y int`);
; embedded fields are named after their type.
(source_file
  (type_declaration
    (_
      type: (struct_type
        (field_declaration_list
          (field_declaration
            (field_identifier) @name) @definition.field))))
  (#not-eq? @name "_"))

(source_file
  (type_declaration
    (_
      type: (struct_type
        (field_declaration_list
          (field_declaration
            !name
            type: [
              (type_identifier) @name
              (generic_type type: (type_identifier) @name)
              (pointer_type (type_identifier) @name)
              (pointer_type (generic_type type: (type_identifier) @name))
              (qualified_type name: (type_identifier) @name)
              (pointer_type (qualified_type name: (type_identifier) @name))
            ]) @definition.field)))))

(source_file
  (type_declaration
    (_
      type: (interface_type
        (method_elem
          name: (field_identifier) @name) @definition.method))))

; Package-level constants and variables. A lone `const X = 1` is the whole
; declaration; specs of a grouped `const ( ... )` are listed one by one.
; (A const_spec's repeated `name:` field only yields its first name, so names
; are matched as plain identifier children.)
(source_file
  ((const_declaration
    .
    (const_spec
      (identifier) @name)
    .) @definition.constant
    (#not-match? @definition.constant "^const\\s*\\(")
    (#not-eq? @name "_")))

(source_file
  (const_declaration
    "("
    (const_spec
      (identifier) @name) @definition.constant)
  (#not-eq? @name "_"))

(source_file
  (var_declaration
    (var_spec
      (identifier) @name)) @definition.variable
  (#not-eq? @name "_"))

(source_file
  (var_declaration
    (var_spec_list
      (var_spec
        (identifier) @name) @definition.variable))
  (#not-eq? @name "_"))

(package_clause) @import
(import_declaration) @import
