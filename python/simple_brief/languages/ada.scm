; Ada outline. Vocabulary: README.md.
;
; A package spec or body is a module holding its declarations; a subprogram
; (procedure or function) is named by its specification; a body's statements
; (`begin ... end`) fold. Records are structs with their components,
; enumeration types enums, other types and subtypes type aliases. Tasks and
; protected objects are classes holding their entries.

(package_declaration
  name: (_) @name) @definition.module

(package_body
  name: (_) @name) @definition.module

; `package K is new G (T);`, `procedure A is new H (X);`: instances of generics.
((generic_instantiation
  .
  _ @_kind
  name: (_) @name) @definition.module
  (#eq? @_kind "package"))

((generic_instantiation
  .
  _ @_kind
  name: (_) @name) @definition.function
  (#any-of? @_kind "procedure" "function"))

(package_renaming_declaration
  name: (_) @name) @definition.module

(generic_package_declaration
  (package_declaration name: (_) @name)) @definition.module

(subprogram_body
  [
    (procedure_specification name: (_) @name)
    (function_specification name: (_) @name)
  ]
  .
  (_) @body) @definition.function

; Declarations, renamings, stubs, generic and formal subprograms: any other node
; holding a subprogram's specification (bodies are matched above, with their body).
(_
  [
    (procedure_specification name: (_) @name)
    (function_specification name: (_) @name)
  ]) @definition.function

(full_type_declaration
  .
  (identifier) @name
  (record_type_definition) @body) @definition.struct

(full_type_declaration
  .
  (identifier) @name
  (enumeration_type_definition) @body) @definition.enum

(full_type_declaration
  .
  (identifier) @name
  [
    (derived_type_definition)
    (access_to_object_definition)
    (access_to_subprogram_definition)
    (array_type_definition)
    (signed_integer_type_definition)
    (modular_type_definition)
    (floating_point_definition)
    (decimal_fixed_point_definition)
    (ordinary_fixed_point_definition)
    (interface_type_definition)
  ]) @definition.type

(private_type_declaration
  .
  (identifier) @name) @definition.type

(private_extension_declaration
  .
  (identifier) @name) @definition.type

(incomplete_type_declaration
  .
  (identifier) @name) @definition.type

(subtype_declaration
  .
  (identifier) @name) @definition.type

(full_type_declaration
  [
    (task_type_declaration . (identifier) @name)
    (protected_type_declaration . (identifier) @name)
  ]) @definition.class

(single_task_declaration
  .
  (identifier) @name) @definition.class

(single_protected_declaration
  .
  (identifier) @name) @definition.class

(task_body
  .
  (identifier) @name) @definition.class

(protected_body
  .
  (identifier) @name) @definition.class

(entry_declaration
  entry_name: (_) @name) @definition.method

(entry_body
  .
  (identifier) @name) @definition.method

(component_declaration
  (identifier) @name) @definition.field

(exception_declaration
  (identifier) @name) @definition.constant

(number_declaration
  (identifier) @name) @definition.constant

(with_clause) @import
