; Fortran outline. Vocabulary: README.md.
;
; Program units and procedures are a header statement, statements and an end
; statement: the first statement after the header stands in for the body (the
; fold runs from there to the `end`). A derived type is a struct holding its
; components and its bound procedures (`procedure :: price => item_price` is a
; method `price`); a named interface holds its module procedures.

(program
  (program_statement (name) @name)
  .
  (_)? @body) @definition.module

(module
  (module_statement (name) @name)
  .
  (_)? @body) @definition.module

(submodule
  (submodule_statement (name) @name)
  .
  (_)? @body) @definition.module

(block_data
  (block_data_statement (name) @name)) @definition.module

(function
  (function_statement name: (_) @name)
  .
  (_)? @body) @definition.function

(subroutine
  (subroutine_statement name: (_) @name)
  .
  (_)? @body) @definition.function

(module_procedure
  (module_procedure_statement name: (_) @name)
  .
  (_)? @body) @definition.function

(derived_type_definition
  (derived_type_statement (type_name) @name)
  .
  (_)? @body) @definition.struct

(derived_type_definition
  (variable_declaration
    declarator: [
      (identifier) @name
      (sized_declarator . (identifier) @name)
      (init_declarator left: [(identifier) (sized_declarator . (identifier))] @name)
    ]) @definition.field)

(derived_type_procedures
  (procedure_statement
    declarator: (binding (binding_name) @name)) @definition.method)

; `procedure :: price` binds a procedure of the same name; the names after the
; first of a `generic :: g => a, b` are its targets, not bindings.
(derived_type_procedures
  (procedure_statement
    (procedure_kind) @_kind
    .
    declarator: (method_name) @name) @definition.method
  (#not-match? @_kind "^[Gg][Ee][Nn][Ee][Rr][Ii][Cc]"))

(interface
  (interface_statement (name) @name)
  .
  (_)? @body) @definition.interface

(interface
  (interface_statement (name))
  (procedure_statement
    declarator: (method_name) @name) @definition.method)

(enum
  (enum_statement)
  .
  (_)? @body) @definition.enum

(enumerator_statement
  declarator: [(identifier) @name (init_declarator left: (identifier) @name)]) @definition.enum_member

(use_statement) @import

; A program unit or procedure the grammar could not read to its `end` (a statement it
; does not know, an incomplete line) leaves its header statement in an ERROR: the unit
; is listed by it, one statement long (no body, no fold).
(ERROR (program_statement (name) @name) @definition.module)

(ERROR (module_statement (name) @name) @definition.module)

(ERROR (function_statement name: (_) @name) @definition.function)

(ERROR (subroutine_statement name: (_) @name) @definition.function)
